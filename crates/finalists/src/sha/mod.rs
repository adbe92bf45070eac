//! SHA-1 and SHA-256 (FIPS 180-4) in the study's three forms. The study's
//! parallel step (its §III-B/C) is the message expansion: the schedule words
//! W\[t\] do not depend on the compression, so they can be computed beside it.
//!
//! * [`Impl::Sequential`]: portable; four schedule words at a time, just
//!   before the four rounds that use them.
//! * [`Impl::Parallel`]: the schedule in SIMD registers (SSSE3, or AVX-512VL
//!   for native rotates), four words per vector step, interleaved with the
//!   scalar rounds so that the vector unit works beside the integer units
//!   (x86-64; portable elsewhere).
//! * [`Impl::TwoThreads`]: the helper thread computes W[16..] and hands the
//!   words over one by one while the caller runs the rounds.
//!
//! All forms share one round function per hash, fed with W\[t\] + K\[t\] four
//! at a time. Constants and initial values are facts from FIPS 180-4 §4.2
//! and §5.3 (unit tests recompute them from the primes' roots).

pub(crate) mod portable;
mod spec;
#[cfg(feature = "std")]
mod two_threads;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use crate::api::Impl;
use crate::md::{md_hasher, Compress, Endian};
use spec::{IV1, IV256};

pub(crate) fn select1(imp: Impl) -> (Compress, &'static str) {
    match imp {
        Impl::Sequential => (portable::compress1, "portable"),
        Impl::Parallel => {
            #[cfg(target_arch = "x86_64")]
            {
                let f = crate::platform::capped();
                if f.avx512 {
                    return (
                        x86::compress1_avx512,
                        "avx512vl schedule beside scalar rounds",
                    );
                }
                if f.sse41 {
                    return (x86::compress1_ssse3, "ssse3 schedule beside scalar rounds");
                }
            }
            (portable::compress1, "portable (no SIMD available)")
        }
        #[cfg(feature = "std")]
        Impl::TwoThreads => (
            two_threads::compress1,
            "two threads (helper computes the schedule)",
        ),
        #[cfg(not(feature = "std"))]
        Impl::TwoThreads => (portable::compress1, "portable (two threads need std)"),
    }
}

pub(crate) fn select256(imp: Impl) -> (Compress, &'static str) {
    match imp {
        Impl::Sequential => (portable::compress256, "portable"),
        Impl::Parallel => {
            #[cfg(target_arch = "x86_64")]
            {
                let f = crate::platform::capped();
                if f.avx512 {
                    return (
                        x86::compress256_avx512,
                        "avx512vl schedule beside scalar rounds",
                    );
                }
                if f.sse41 {
                    return (
                        x86::compress256_ssse3,
                        "ssse3 schedule beside scalar rounds",
                    );
                }
            }
            (portable::compress256, "portable (no SIMD available)")
        }
        #[cfg(feature = "std")]
        Impl::TwoThreads => (
            two_threads::compress256,
            "two threads (helper computes the schedule)",
        ),
        #[cfg(not(feature = "std"))]
        Impl::TwoThreads => (portable::compress256, "portable (two threads need std)"),
    }
}

md_hasher!(
    /// SHA-1 (FIPS 180-4), streaming: 20-byte digest.
    Sha1,
    IV1,
    Endian::Big,
    select1
);

md_hasher!(
    /// SHA-256 (FIPS 180-4), streaming: 32-byte digest.
    Sha256,
    IV256,
    Endian::Big,
    select256
);
