//! Keccak-256 Merkle trees compatible with OpenZeppelin's
//! `@openzeppelin/merkle-tree` (version 1.0.8; facts from its `src/core.ts`,
//! `merkletree.ts`, `standard.ts`, `simple.ts`, `hashes.ts`) and
//! `MerkleProof.sol`.
//!
//! - The tree is a complete binary tree in one array of `2n − 1` nodes:
//!   node `i` has children `2i + 1` and `2i + 2`, leaf `k` (in leaf order)
//!   sits at `2n − 2 − k`, and an inner node is
//!   `keccak256(min(a, b) ‖ max(a, b))` of its children (commutative).
//! - A *standard* tree's leaf is `keccak256(keccak256(abi.encode(types,
//!   values)))`; a *simple* tree's leaf is its `bytes32` value itself.
//! - Leaves are sorted by hash (ascending, ties in input order) unless the
//!   caller says not to.
//!
//! The mode never builds an engine: it is handed one and hashes each step
//! as a batch of independent messages — all leaf encodings, then the 32-byte
//! inner hashes, then every run of tree nodes whose children are done (the
//! 64-byte messages of one level, ending in the root) — so an engine with
//! lanes, threads or a GPU runs each step side by side.

mod abi;
mod dump;
pub mod json;
mod proof;
mod tree;

use alloc::string::String;
use core::fmt;

pub use abi::{encode, encode_into, parse_types, type_name, AbiType};
pub use json::Value;
pub use proof::{process_multi_proof, process_proof, MultiProof};
pub use tree::{build_nodes, leaf_hash, LeafKind, MerkleTree, Progress};

use crate::engine::{EngineError, LaneSpec};

/// A 32-byte tree node.
pub type Hash = [u8; 32];

/// Keccak-256 (original padding 0x01, rate 136, 24 rounds).
pub(crate) const KECCAK256: LaneSpec = LaneSpec::fixed(136, 24, 0x01);

/// The class of a [`MerkleError`], following the JavaScript library's
/// error classes where it has them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// A bad argument (`InvalidArgumentError` there): an empty tree, an
    /// index out of bounds, a value not in the tree, a malformed multiproof.
    InvalidArgument,
    /// The data breaks the tree's invariants (`InvariantError` there): a
    /// dump whose tree does not validate.
    Invariant,
    /// A value that its ABI type does not accept, or an unknown type.
    Abi,
    /// Malformed JSON or a dump of the wrong shape.
    Format,
    /// The engine failed (a GPU).
    Engine,
}

/// What went wrong, worded for the user; messages the JavaScript library
/// has are the same text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MerkleError {
    pub kind: ErrorKind,
    pub message: String,
}

impl MerkleError {
    pub(crate) fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        MerkleError {
            kind,
            message: message.into(),
        }
    }
    pub(crate) fn arg(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidArgument, message)
    }
    pub(crate) fn invariant(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Invariant, message)
    }
    pub(crate) fn abi(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Abi, message)
    }
    pub(crate) fn json(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Format, message)
    }
}

impl fmt::Display for MerkleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for MerkleError {}

impl From<EngineError> for MerkleError {
    fn from(e: EngineError) -> Self {
        MerkleError::new(ErrorKind::Engine, alloc::format!("{e}"))
    }
}

/// `keccak256(data)` on the one-state path.
pub fn keccak256(data: &[u8]) -> Hash {
    let mut out = [0u8; 32];
    KECCAK256.hash_one(data, &mut out);
    out
}

/// The inner-node hash: `keccak256` of the two children in ascending order.
pub fn node_hash(a: &Hash, b: &Hash) -> Hash {
    let mut m = [0u8; 64];
    sorted_pair(a, b, &mut m);
    keccak256(&m)
}

/// `min(a, b) ‖ max(a, b)` into `m`.
#[inline]
pub(crate) fn sorted_pair(a: &Hash, b: &Hash, m: &mut [u8; 64]) {
    let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
    m[..32].copy_from_slice(lo);
    m[32..].copy_from_slice(hi);
}

/// A standard leaf: `keccak256(keccak256(abi.encode(types, values)))`.
pub fn standard_leaf_hash(types: &[AbiType], values: &[Value]) -> Result<Hash, MerkleError> {
    let enc = encode(types, values)?;
    Ok(keccak256(&keccak256(&enc)))
}

/// Lower-case `0x`-prefixed hex.
pub fn to_hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 + 2 * bytes.len());
    s.push_str("0x");
    for &b in bytes {
        s.push(D[(b >> 4) as usize] as char);
        s.push(D[(b & 15) as usize] as char);
    }
    s
}

/// A node from `0x` + 64 hex digits (either case).
pub fn parse_hash(s: &str) -> Result<Hash, MerkleError> {
    let bad = || MerkleError::arg(alloc::format!("not a 32-byte hex node: {:?}", short(s)));
    let hex = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(bad)?;
    if hex.len() != 64 {
        return Err(bad());
    }
    let v = abi::hex_decode(hex).ok_or_else(bad)?;
    let mut h = [0u8; 32];
    h.copy_from_slice(&v);
    Ok(h)
}

fn short(s: &str) -> &str {
    let mut cut = s.len().min(80);
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    &s[..cut]
}

#[cfg(test)]
mod tests;
