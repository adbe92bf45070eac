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
mod error;
mod hash;
pub mod json;
mod proof;
mod tree;

pub use abi::{encode, encode_into, parse_types, type_name, AbiType};
pub use dump::push_hex_list;
pub use error::{ErrorKind, MerkleError};
pub use hash::{keccak256, node_hash, parse_hash, push_hex, standard_leaf_hash, to_hex, Hash};
pub use json::Value;
pub use proof::{process_multi_proof, process_proof, MultiProof};
pub use tree::{build_nodes, build_nodes_into, leaf_hash, LeafKind, MerkleTree, Progress};

#[cfg(test)]
mod tests;
