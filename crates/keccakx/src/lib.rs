//! keccakx: the whole Keccak family with one golden model and fast engines.
//!
//! Layers (bottom up): [`permutation`] (Keccak-p, golden and fast),
//! [`sponge`] (Keccak[r, c] on any width), [`engine`] (many independent
//! sponges at once), then the modes: [`fips202`], [`keccak`],
//! [`sp800_185`], [`rfc9861`], [`tree_li`], [`merkle`] (OpenZeppelin's
//! Keccak-256 Merkle trees).
//!
//! ```
//! use keccakx::fips202::Sha3_256;
//! let mut h = Sha3_256::new();
//! h.update(b"ab");
//! h.update(b"c");
//! assert_eq!(h.finalize(), Sha3_256::digest(b"abc"));
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_op_in_unsafe_fn)]

extern crate alloc;

pub mod batch;
mod chunked;
pub mod engine;
mod error;
pub mod field;
pub mod fips202;
mod fixed;
pub mod hazmat;
pub mod keccak;
#[cfg(feature = "std")]
pub mod merkle;
pub mod outboard;
pub mod permutation;
pub mod policy;
pub mod registry;
pub mod rfc9861;
#[cfg(feature = "rustcrypto")]
pub mod rustcrypto;
pub mod sp800_185;
pub mod sponge;
#[cfg(feature = "std")]
pub mod sumfile;
pub mod tree_li;

pub use error::{Error, Result, SumRule};

/// Constant-time equality of two byte strings (length is not secret).
pub fn ct_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut d = 0u8;
    for (x, y) in a.iter().zip(b) {
        d |= x ^ y;
    }
    // Keep the compiler from short-circuiting the loop.
    core::hint::black_box(d) == 0
}
