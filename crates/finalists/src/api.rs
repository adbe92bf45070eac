//! The crate's shared vocabulary, re-exported from the crate root: which
//! implementation runs ([`Impl`]), which finalist ([`Algorithm`], [`Family`]),
//! the name-parsing error ([`UnknownName`]) and the streaming-hasher trait
//! object ([`DynHasher`]). A leaf: it names no other module of the crate, so
//! every algorithm module can use it without an import cycle.

use alloc::boxed::Box;
use alloc::vec::Vec;
use core::fmt;

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
