//! The SHA-3 finalists BLAKE, Grøstl, JH and Skein (final-round versions),
//! and the other rows of the 2012 two-core study (MD5, SHA-1, SHA-256,
//! Keccak-256 and the RC5-32 block cipher; see [`study`]), each in three
//! implementations selectable at run time:
//!
//! * [`Impl::Sequential`]: portable scalar code, straight from the specification;
//! * [`Impl::Parallel`]: the independent steps of one hash mapped onto SIMD
//!   (SSE4.1 / AVX2 / AVX-512, detected at run time; portable fallback);
//! * [`Impl::TwoThreads`]: the 2012 study's literal design, one hash split over
//!   two threads that synchronise per step (needs `std`; measured, not fast).
//!
//! ```
//! use finalists::{Algorithm, Impl};
//! let alg = Algorithm::from_name("blake256").unwrap();
//! let d = finalists::hash(alg, Impl::Parallel, b"");
//! assert_eq!(d[..4], [0x71, 0x6f, 0x6e, 0x86]);
//! let mut h = finalists::new_hasher(alg, Impl::Sequential);
//! h.update(b"");
//! assert_eq!(h.finalize(), d);
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_op_in_unsafe_fn)]

extern crate alloc;

use alloc::boxed::Box;
use alloc::vec::Vec;

mod api;
pub mod blake;
mod buffer;
pub mod groestl;
pub mod jh;
pub mod keccak;
mod md;
pub mod md5;
pub mod platform;
pub mod rc5;
#[cfg(feature = "rustcrypto")]
pub mod rustcrypto;
pub mod sha;
pub mod skein;
pub mod study;
#[cfg(feature = "std")]
pub mod twothread;

pub use api::{Algorithm, DynHasher, Family, Impl, UnknownName};
pub use blake::{Blake256, Blake512};
pub use groestl::{Groestl256, Groestl512};
pub use jh::Jh;
pub use keccak::Keccak256;
pub use md5::Md5;
pub use rc5::{Rc5, Rc5Error};
pub use sha::{Sha1, Sha256};
pub use skein::{Skein1024, Skein256, Skein512};

macro_rules! dyn_impl {
    ($t:ty) => {
        impl DynHasher for ($t, Algorithm) {
            fn update(&mut self, data: &[u8]) {
                self.0.update(data)
            }
            fn finalize(self: Box<Self>) -> Vec<u8> {
                let (h, alg) = *self;
                let mut out = alloc::vec![0u8; alg.output_len()];
                h.finalize_into(&mut out);
                out
            }
            fn algorithm(&self) -> Algorithm {
                self.1
            }
        }
    };
}
dyn_impl!(Blake256);
dyn_impl!(Blake512);
dyn_impl!(Groestl256);
dyn_impl!(Groestl512);
dyn_impl!(Jh);
dyn_impl!(Skein256);
dyn_impl!(Skein512);
dyn_impl!(Skein1024);

/// A new streaming hasher for `alg` computed by `imp`.
pub fn new_hasher(alg: Algorithm, imp: Impl) -> Box<dyn DynHasher> {
    let n = alg.output_len();
    match alg.family() {
        Family::Blake if n <= 32 => Box::new((Blake256::with_params(n, &[0; 16], imp), alg)),
        Family::Blake => Box::new((Blake512::with_params(n, &[0; 32], imp), alg)),
        Family::Groestl if n <= 32 => Box::new((Groestl256::with_output_len(n, imp), alg)),
        Family::Groestl => Box::new((Groestl512::with_output_len(n, imp), alg)),
        Family::Jh => Box::new((Jh::with_output_len(n, imp), alg)),
        Family::Skein => match alg.state_bits() {
            256 => Box::new((Skein256::with_output_len(n, imp), alg)),
            512 => Box::new((Skein512::with_output_len(n, imp), alg)),
            _ => Box::new((Skein1024::with_output_len(n, imp), alg)),
        },
    }
}

/// One-shot hash of `data`.
pub fn hash(alg: Algorithm, imp: Impl, data: &[u8]) -> Vec<u8> {
    let mut h = new_hasher(alg, imp);
    h.update(data);
    h.finalize()
}

/// A short description of the code `imp` runs for `alg` on this machine
/// (e.g. `avx512vl`, `sse4.1`, `portable`), for benchmark records.
pub fn backend_name(alg: Algorithm, imp: Impl) -> &'static str {
    match alg.family() {
        Family::Blake if alg.output_len() <= 32 => blake::select32(imp).1,
        Family::Blake => blake::select64(imp).1,
        Family::Groestl if alg.output_len() <= 32 => groestl::select_backend(imp, false).1,
        Family::Groestl => groestl::select_backend(imp, true).1,
        Family::Jh => jh::select(imp).1,
        Family::Skein => skein::backend_name(alg.state_bits(), imp),
    }
}
