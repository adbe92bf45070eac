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
use core::fmt;

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

pub use blake::{Blake256, Blake512};
pub use groestl::{Groestl256, Groestl512};
pub use jh::Jh;
pub use keccak::Keccak256;
pub use md5::Md5;
pub use rc5::{Rc5, Rc5Error};
pub use sha::{Sha1, Sha256};
pub use skein::{Skein1024, Skein256, Skein512};

/// Which implementation computes the hash. All give the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Impl {
    /// Portable scalar code.
    Sequential,
    /// SIMD (SSE4.1/AVX2/AVX-512 chosen at run time), portable where none is available.
    Parallel,
    /// One hash split over two threads that synchronise per step (std only;
    /// without `std` it falls back to the sequential code).
    TwoThreads,
}

impl Impl {
    /// All implementations.
    pub const ALL: [Impl; 3] = [Impl::Sequential, Impl::Parallel, Impl::TwoThreads];

    /// Parses `sequential`/`seq`, `parallel`/`simd`, `two-threads`/`twothreads`/`threads`.
    pub fn from_name(name: &str) -> Result<Impl, UnknownName> {
        match name.to_ascii_lowercase().as_str() {
            "sequential" | "seq" | "scalar" | "portable" => Ok(Impl::Sequential),
            "parallel" | "simd" | "par" => Ok(Impl::Parallel),
            "two-threads" | "twothreads" | "two_threads" | "threads" | "2t" => Ok(Impl::TwoThreads),
            _ => Err(UnknownName {
                what: "implementation",
                name: name.into(),
            }),
        }
    }

    /// Canonical name.
    pub fn name(self) -> &'static str {
        match self {
            Impl::Sequential => "sequential",
            Impl::Parallel => "parallel",
            Impl::TwoThreads => "two-threads",
        }
    }
}

/// An unknown algorithm or implementation name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    what: &'static str,
    name: alloc::string::String,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.what == "algorithm" {
            write!(f, "unknown finalist algorithm '{}'; known: ", self.name)?;
            for (i, a) in Algorithm::all().iter().enumerate() {
                write!(f, "{}{}", if i > 0 { ", " } else { "" }, a.name())?;
            }
            Ok(())
        } else {
            write!(
                f,
                "unknown implementation '{}'; known: sequential, parallel, two-threads",
                self.name
            )
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for UnknownName {}

/// Family of a finalist algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Blake,
    Groestl,
    Jh,
    Skein,
}

macro_rules! algorithms {
    ($( $v:ident => $name:literal, $fam:ident, $len:literal, $state:literal; )*) => {
        /// A finalist with a fixed output length.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Algorithm { $( $v, )* }

        impl Algorithm {
            const ALL: &'static [Algorithm] = &[ $( Algorithm::$v, )* ];

            /// Every supported algorithm.
            pub fn all() -> &'static [Algorithm] { Self::ALL }

            /// Canonical lower-case name, e.g. `blake256`, `groestl256`, `jh256`, `skein512-256`.
            pub fn name(self) -> &'static str {
                match self { $( Algorithm::$v => $name, )* }
            }

            /// Digest length in bytes.
            pub fn output_len(self) -> usize {
                match self { $( Algorithm::$v => $len, )* }
            }

            /// Internal state size in bits (Skein: 256, 512 or 1024; others: chaining value).
            pub fn state_bits(self) -> usize {
                match self { $( Algorithm::$v => $state, )* }
            }

            /// The family.
            pub fn family(self) -> Family {
                match self { $( Algorithm::$v => Family::$fam, )* }
            }
        }
    };
}

algorithms! {
    Blake224 => "blake224", Blake, 28, 256;
    Blake256 => "blake256", Blake, 32, 256;
    Blake384 => "blake384", Blake, 48, 512;
    Blake512 => "blake512", Blake, 64, 512;
    Groestl224 => "groestl224", Groestl, 28, 512;
    Groestl256 => "groestl256", Groestl, 32, 512;
    Groestl384 => "groestl384", Groestl, 48, 1024;
    Groestl512 => "groestl512", Groestl, 64, 1024;
    Jh224 => "jh224", Jh, 28, 1024;
    Jh256 => "jh256", Jh, 32, 1024;
    Jh384 => "jh384", Jh, 48, 1024;
    Jh512 => "jh512", Jh, 64, 1024;
    Skein256_128 => "skein256-128", Skein, 16, 256;
    Skein256_160 => "skein256-160", Skein, 20, 256;
    Skein256_224 => "skein256-224", Skein, 28, 256;
    Skein256_256 => "skein256-256", Skein, 32, 256;
    Skein512_128 => "skein512-128", Skein, 16, 512;
    Skein512_160 => "skein512-160", Skein, 20, 512;
    Skein512_224 => "skein512-224", Skein, 28, 512;
    Skein512_256 => "skein512-256", Skein, 32, 512;
    Skein512_384 => "skein512-384", Skein, 48, 512;
    Skein512_512 => "skein512-512", Skein, 64, 512;
    Skein1024_384 => "skein1024-384", Skein, 48, 1024;
    Skein1024_512 => "skein1024-512", Skein, 64, 1024;
    Skein1024_1024 => "skein1024-1024", Skein, 128, 1024;
}

impl Algorithm {
    /// Parses a name: case-insensitive, `-`/`_` optional, `grøstl` accepted,
    /// and bare `skein256`/`skein512`/`skein1024` mean the full-width output.
    pub fn from_name(name: &str) -> Result<Algorithm, UnknownName> {
        let norm: alloc::string::String = name
            .to_lowercase()
            .replace("grøstl", "groestl")
            .chars()
            .filter(|c| *c != '_' && *c != '-')
            .collect();
        let norm = match norm.as_str() {
            "skein256" => "skein256256",
            "skein512" => "skein512512",
            "skein1024" => "skein10241024",
            n => n,
        };
        Self::ALL
            .iter()
            .copied()
            .find(|a| a.name().replace('-', "") == norm)
            .ok_or(UnknownName {
                what: "algorithm",
                name: name.into(),
            })
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A streaming hasher behind a trait object (for the CLI and bindings).
pub trait DynHasher: Send {
    /// Absorbs more message bytes.
    fn update(&mut self, data: &[u8]);
    /// Returns the digest.
    fn finalize(self: Box<Self>) -> Vec<u8>;
    /// The algorithm being computed.
    fn algorithm(&self) -> Algorithm;
}

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
