//! Proofs and multiproofs over the one-array tree, and their verification,
//! step for step as `@openzeppelin/merkle-tree`'s `core.ts` (`getProof`,
//! `getMultiProof`, `processProof`, `processMultiProof`), which is what
//! `MerkleProof.sol`'s `verify` and `multiProofVerify` check on chain.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use super::error::MerkleError;
use super::hash::{node_hash, Hash};

/// A multiproof: the leaves it proves (in the order the verifier consumes
/// them), the sibling nodes it needs, and one flag per hashing step (true:
/// the step's second operand comes from the leaves/hashes queue, false:
/// from `proof`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultiProof<L> {
    pub leaves: Vec<L>,
    pub proof: Vec<Hash>,
    pub proof_flags: Vec<bool>,
}

fn sibling(i: usize) -> usize {
    if i % 2 == 1 {
        i + 1
    } else {
        i - 1
    }
}

fn parent(i: usize) -> usize {
    (i - 1) / 2
}

pub(crate) fn is_leaf(len: usize, i: usize) -> bool {
    i < len && (2 * i + 1) >= len
}

pub(crate) fn check_leaf(len: usize, i: usize) -> Result<(), MerkleError> {
    if is_leaf(len, i) {
        Ok(())
    } else {
        Err(MerkleError::arg("Index is not a leaf"))
    }
}

/// The sibling path from tree node `index` (a leaf) up to the root.
pub(crate) fn get_proof(tree: &[Hash], mut index: usize) -> Result<Vec<Hash>, MerkleError> {
    check_leaf(tree.len(), index)?;
    let mut proof = Vec::new();
    while index > 0 {
        proof.push(tree[sibling(index)]);
        index = parent(index);
    }
    Ok(proof)
}

/// A multiproof of tree nodes `indices` (leaves); `leaves` of the result
/// are tree indices, in descending order.
pub(crate) fn get_multi_proof(
    tree: &[Hash],
    indices: &[usize],
) -> Result<MultiProof<usize>, MerkleError> {
    for &i in indices {
        check_leaf(tree.len(), i)?;
    }
    let mut sorted: Vec<usize> = indices.to_vec();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return Err(MerkleError::arg("Cannot prove duplicated index"));
    }
    let mut stack: VecDeque<usize> = sorted.iter().copied().collect();
    let mut proof = Vec::new();
    let mut flags = Vec::new();
    while let Some(&j) = stack.front() {
        if j == 0 {
            break;
        }
        stack.pop_front();
        let s = sibling(j);
        let p = parent(j);
        if stack.front() == Some(&s) {
            flags.push(true);
            stack.pop_front();
        } else {
            flags.push(false);
            proof.push(tree[s]);
        }
        stack.push_back(p);
    }
    if sorted.is_empty() {
        proof.push(tree[0]);
    }
    Ok(MultiProof {
        leaves: sorted,
        proof,
        proof_flags: flags,
    })
}

/// The root a leaf and its proof lead to.
pub fn process_proof(leaf: &Hash, proof: &[Hash]) -> Hash {
    proof.iter().fold(*leaf, |acc, p| node_hash(&acc, p))
}

/// The root a multiproof leads to; errors as the JavaScript library's
/// (`Invalid multiproof format`, `Provided leaves and multiproof are not
/// compatible`).
pub fn process_multi_proof(mp: &MultiProof<Hash>) -> Result<Hash, MerkleError> {
    let falses = mp.proof_flags.iter().filter(|&&f| !f).count();
    if mp.proof.len() < falses {
        return Err(MerkleError::arg("Invalid multiproof format"));
    }
    if mp.leaves.len() + mp.proof.len() != mp.proof_flags.len() + 1 {
        return Err(MerkleError::arg(
            "Provided leaves and multiproof are not compatible",
        ));
    }
    let mut stack: VecDeque<Hash> = mp.leaves.iter().copied().collect();
    let mut proof: VecDeque<Hash> = mp.proof.iter().copied().collect();
    for &flag in &mp.proof_flags {
        let a = stack.pop_front();
        let b = if flag {
            stack.pop_front()
        } else {
            proof.pop_front()
        };
        match (a, b) {
            (Some(a), Some(b)) => stack.push_back(node_hash(&a, &b)),
            _ => return Err(MerkleError::invariant("Invariant failed")),
        }
    }
    if stack.len() + proof.len() != 1 {
        return Err(MerkleError::invariant("Invariant failed"));
    }
    Ok(stack
        .pop_back()
        .or_else(|| proof.pop_front())
        .expect("one left"))
}
