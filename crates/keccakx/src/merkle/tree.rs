//! The tree: building it on an engine (leaf hashes, then each run of
//! nodes whose children are done, as batches), looking values up, proofs
//! by value index, validation.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use std::sync::OnceLock;

use rayon::prelude::*;

use super::abi::{self, AbiType};
use super::error::MerkleError;
use super::hash::{sorted_pair, Hash, KECCAK256};
use super::json::Value;
use super::proof::{self, MultiProof};
use crate::engine::Engine;

/// Called after each engine call with (hashes done, hashes in all).
pub type Progress<'a> = &'a mut dyn FnMut(u64, u64);

/// Which leaves a tree has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeafKind {
    /// `keccak256(keccak256(abi.encode(types, value)))`; `encoding` is the
    /// type list as given (it is written back in dumps).
    Standard {
        encoding: Vec<String>,
        types: Vec<AbiType>,
    },
    /// The `bytes32` value itself.
    Simple,
}

impl LeafKind {
    /// A standard leaf encoding from its type names.
    pub fn standard<S: AsRef<str>>(encoding: &[S]) -> Result<LeafKind, MerkleError> {
        Ok(LeafKind::Standard {
            encoding: encoding.iter().map(|s| String::from(s.as_ref())).collect(),
            types: abi::parse_types(encoding)?,
        })
    }
}

/// An OpenZeppelin-layout Merkle tree with its values.
#[derive(Debug)]
pub struct MerkleTree {
    pub(crate) kind: LeafKind,
    pub(crate) tree: Vec<Hash>,
    pub(crate) values: Vec<Value>,
    pub(crate) tree_index: Vec<usize>,
    /// (leaf hash, value index) sorted, built on the first lookup.
    lookup: OnceLock<Vec<(Hash, usize)>>,
}

/// Messages per engine call: 4 MiB of 64-byte node messages (2^15 and 2^17
/// were slower with two free cores, 2^19 slower always: bench/NOTES.md,
/// "Merkle levels against the batch engine"); a GPU's hint may ask for more.
const CHUNK: usize = 1 << 16;

fn chunk_for(engine: &dyn Engine) -> usize {
    CHUNK.max(engine.batch_hint().max_items)
}

impl MerkleTree {
    /// Build a tree of `values` (each a JSON array of the encoding's
    /// arity for a standard tree, a `0x` string of at most 32 bytes for a
    /// simple one), leaves sorted by hash when `sort_leaves`.
    pub fn build(
        kind: LeafKind,
        values: Vec<Value>,
        sort_leaves: bool,
        engine: &dyn Engine,
        mut progress: Option<Progress<'_>>,
    ) -> Result<MerkleTree, MerkleError> {
        if values.is_empty() {
            return Err(MerkleError::arg("Expected non-zero number of leaves"));
        }
        if values.iter().any(|v| matches!(v, Value::Num(_))) {
            return Err(MerkleError::arg("Leaf values cannot be numbers"));
        }
        let n = values.len() as u64;
        let total = n * if matches!(kind, LeafKind::Simple) {
            0
        } else {
            2
        } + (n - 1);
        let mut done = 0u64;
        let mut tick = |k: usize| {
            done += k as u64;
            if let Some(p) = progress.as_mut() {
                p(done, total)
            }
        };
        // One node array for everything: the leaf hashes are computed into
        // its leaf half (value order), sorted there, and the inner nodes
        // hashed above them; no other array of the tree's size is touched.
        let n = values.len();
        let len = 2 * n - 1;
        let mut tree = vec![[0u8; 32]; len];
        leaf_hashes_into(&kind, &values, engine, &mut tick, &mut tree[n - 1..])?;
        let lookup = OnceLock::new();
        let mut tree_index = vec![0usize; n];
        if sort_leaves {
            let mut order: Vec<(Hash, usize)> = tree[n - 1..]
                .par_iter()
                .enumerate()
                .map(|(i, h)| (*h, i))
                .collect();
            // (hash, index) order is the stable sort by hash.
            order.par_sort_unstable();
            // Leaf k (in sorted order) sits at len - 1 - k.
            tree[n - 1..]
                .par_iter_mut()
                .rev()
                .zip(order.par_iter())
                .for_each(|(t, (h, _))| *t = *h);
            for (leaf_i, (_, value_i)) in order.iter().enumerate() {
                tree_index[*value_i] = len - 1 - leaf_i;
            }
            let _ = lookup.set(order);
        } else {
            tree[n - 1..].reverse();
            for (value_i, t) in tree_index.iter_mut().enumerate() {
                *t = len - 1 - value_i;
            }
        }
        tick(0);
        hash_levels(&mut tree, n, engine, &mut tick)?;
        Ok(MerkleTree {
            kind,
            tree,
            values,
            tree_index,
            lookup,
        })
    }

    /// A tree from its parts (a loaded dump), checked by [`validate`](Self::validate).
    pub(crate) fn from_parts(
        kind: LeafKind,
        tree: Vec<Hash>,
        values: Vec<Value>,
        tree_index: Vec<usize>,
        engine: &dyn Engine,
    ) -> Result<MerkleTree, MerkleError> {
        if values.iter().any(|v| matches!(v, Value::Num(_))) {
            return Err(MerkleError::arg("Leaf values cannot be numbers"));
        }
        let t = MerkleTree {
            kind,
            tree,
            values,
            tree_index,
            lookup: OnceLock::new(),
        };
        t.validate(engine)?;
        Ok(t)
    }

    pub fn kind(&self) -> &LeafKind {
        &self.kind
    }
    /// The root, `tree[0]`.
    pub fn root(&self) -> Hash {
        self.tree[0]
    }
    /// Number of values (leaves).
    pub fn len(&self) -> usize {
        self.values.len()
    }
    /// Whether there are no values (never, for a built or loaded tree).
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }
    /// All nodes, root first.
    pub fn nodes(&self) -> &[Hash] {
        &self.tree
    }
    /// The values in input order.
    pub fn values(&self) -> &[Value] {
        &self.values
    }
    /// Where value `i` sits in the node array.
    pub fn tree_index(&self, i: usize) -> Option<usize> {
        self.tree_index.get(i).copied()
    }

    /// The leaf hash of a value.
    pub fn leaf_hash(&self, value: &Value) -> Result<Hash, MerkleError> {
        leaf_hash_one(&self.kind, value)
    }

    fn lookup_table(&self) -> &[(Hash, usize)] {
        self.lookup.get_or_init(|| {
            let mut t: Vec<(Hash, usize)> = self
                .tree_index
                .iter()
                .enumerate()
                .map(|(v, &ti)| (self.tree[ti], v))
                .collect();
            t.par_sort_unstable();
            t
        })
    }

    /// The index of the value (the last one, for duplicated leaves, as the
    /// JavaScript library's hash lookup); `Leaf is not in tree` otherwise.
    pub fn leaf_lookup(&self, value: &Value) -> Result<usize, MerkleError> {
        let h = self.leaf_hash(value)?;
        self.index_of_hash(&h)
            .ok_or_else(|| MerkleError::arg("Leaf is not in tree"))
    }

    fn index_of_hash(&self, h: &Hash) -> Option<usize> {
        let t = self.lookup_table();
        let end = t.partition_point(|(x, _)| x <= h);
        (end > 0 && t[end - 1].0 == *h).then(|| t[end - 1].1)
    }

    fn check_index(&self, i: usize) -> Result<usize, MerkleError> {
        self.tree_index
            .get(i)
            .copied()
            .ok_or_else(|| MerkleError::arg("Index out of bounds"))
    }

    /// The proof of value `i` (sibling nodes, leaf to root).
    pub fn proof(&self, i: usize) -> Result<Vec<Hash>, MerkleError> {
        proof::get_proof(&self.tree, self.check_index(i)?)
    }

    /// A multiproof of values `indices`; its `leaves` are value indices.
    pub fn multi_proof(&self, indices: &[usize]) -> Result<MultiProof<usize>, MerkleError> {
        let ti = indices
            .iter()
            .map(|&i| self.check_index(i))
            .collect::<Result<Vec<_>, _>>()?;
        let mp = proof::get_multi_proof(&self.tree, &ti)?;
        let leaves = mp
            .leaves
            .iter()
            .map(|&t| {
                self.index_of_hash(&self.tree[t])
                    .expect("a leaf of the tree")
            })
            .collect();
        Ok(MultiProof {
            leaves,
            proof: mp.proof,
            proof_flags: mp.proof_flags,
        })
    }

    /// Whether `proof` leads from leaf hash `leaf` to this root.
    pub fn verify_hash(&self, leaf: &Hash, proof: &[Hash]) -> bool {
        proof::process_proof(leaf, proof) == self.root()
    }

    /// Whether `proof` proves `value` (an index if `Ok(i)`, else the value).
    pub fn verify(
        &self,
        value: Result<usize, &Value>,
        proof: &[Hash],
    ) -> Result<bool, MerkleError> {
        let h = self.leaf_hash_of(value)?;
        Ok(self.verify_hash(&h, proof))
    }

    /// Whether a multiproof over values (indices or values) proves them.
    pub fn verify_multi(
        &self,
        leaves: &[Result<usize, &Value>],
        proof: &[Hash],
        proof_flags: &[bool],
    ) -> Result<bool, MerkleError> {
        let leaves = leaves
            .iter()
            .map(|&l| self.leaf_hash_of(l))
            .collect::<Result<Vec<_>, _>>()?;
        let mp = MultiProof {
            leaves,
            proof: proof.to_vec(),
            proof_flags: proof_flags.to_vec(),
        };
        Ok(proof::process_multi_proof(&mp)? == self.root())
    }

    fn leaf_hash_of(&self, value: Result<usize, &Value>) -> Result<Hash, MerkleError> {
        match value {
            Ok(i) => {
                let v = self
                    .values
                    .get(i)
                    .ok_or_else(|| MerkleError::arg("Index out of bounds"))?;
                self.leaf_hash(v)
            }
            Err(v) => self.leaf_hash(v),
        }
    }

    /// Check that every value's leaf hash is at its place and every inner
    /// node hashes its children (`Merkle tree does not contain the
    /// expected value`, `Merkle tree is invalid`), hashing on `engine`.
    pub fn validate(&self, engine: &dyn Engine) -> Result<(), MerkleError> {
        let len = self.tree.len();
        let hashes = leaf_hashes(&self.kind, &self.values, engine, &mut |_| {})?;
        for (h, &ti) in hashes.iter().zip(&self.tree_index) {
            if ti >= len || self.tree[ti] != *h {
                return Err(MerkleError::invariant(
                    "Merkle tree does not contain the expected value",
                ));
            }
        }
        // A node with a left child but no right one: an even node count.
        if len == 0 || len.is_multiple_of(2) {
            return Err(MerkleError::invariant("Merkle tree is invalid"));
        }
        let inner = len / 2;
        let chunk = chunk_for(engine);
        let mut out = vec![[0u8; 32]; chunk.min(inner)];
        let mut msgs = Vec::new();
        for a in (0..inner).step_by(chunk) {
            let b = (a + chunk).min(inner);
            let o = &mut out[..b - a];
            hash_nodes(0, &self.tree, a, b, &mut msgs, o, engine)?;
            if o.iter().zip(&self.tree[a..b]).any(|(x, y)| x != y) {
                return Err(MerkleError::invariant("Merkle tree is invalid"));
            }
        }
        Ok(())
    }
}

/// The leaf hash of one value (a standard leaf: a JSON array of the
/// encoding's arity; a simple leaf: a `0x` string of at most 32 bytes).
pub fn leaf_hash(kind: &LeafKind, value: &Value) -> Result<Hash, MerkleError> {
    leaf_hash_one(kind, value)
}

fn leaf_hash_one(kind: &LeafKind, value: &Value) -> Result<Hash, MerkleError> {
    match kind {
        LeafKind::Standard { types, .. } => {
            super::hash::standard_leaf_hash(types, standard_items(types, value)?)
        }
        LeafKind::Simple => simple_leaf(value),
    }
}

fn standard_items<'v>(types: &[AbiType], value: &'v Value) -> Result<&'v [Value], MerkleError> {
    match value {
        Value::Array(items) if items.len() == types.len() => Ok(items),
        Value::Array(items) => Err(MerkleError::abi(alloc::format!(
            "the number of types ({}) does not match the number of values ({})",
            types.len(),
            items.len()
        ))),
        v => Err(MerkleError::abi(alloc::format!(
            "a leaf value must be an array of {} values, got {}",
            types.len(),
            v.short()
        ))),
    }
}

fn simple_leaf(value: &Value) -> Result<Hash, MerkleError> {
    let b = abi::bytes_like(&AbiType::FixedBytes(32), value)?;
    if b.len() > 32 {
        return Err(MerkleError::abi(alloc::format!(
            "bytes32 value {}: {} bytes, at most 32",
            value.short(),
            b.len()
        )));
    }
    let mut h = [0u8; 32];
    h[..b.len()].copy_from_slice(&b);
    Ok(h)
}

/// Every value's leaf hash, in value order, as batches on `engine`.
pub(crate) fn leaf_hashes(
    kind: &LeafKind,
    values: &[Value],
    engine: &dyn Engine,
    tick: &mut dyn FnMut(usize),
) -> Result<Vec<Hash>, MerkleError> {
    let mut out = vec![[0u8; 32]; values.len()];
    leaf_hashes_into(kind, values, engine, tick, &mut out)?;
    Ok(out)
}

/// Every value's leaf hash into `out` (one per value), in value order.
fn leaf_hashes_into(
    kind: &LeafKind,
    values: &[Value],
    engine: &dyn Engine,
    tick: &mut dyn FnMut(usize),
    out: &mut [Hash],
) -> Result<(), MerkleError> {
    let types = match kind {
        LeafKind::Simple => {
            return out
                .par_iter_mut()
                .zip(values.par_iter())
                .try_for_each(|(o, v)| {
                    *o = simple_leaf(v)?;
                    Ok(())
                });
        }
        LeafKind::Standard { types, .. } => types,
    };
    let chunk = chunk_for(engine);
    let mut inner = vec![[0u8; 32]; chunk.min(values.len())];
    for (vals, outs) in values.chunks(chunk).zip(out.chunks_mut(chunk)) {
        // Encode in parallel pieces: one buffer and its end offsets each.
        let pieces: Vec<(Vec<u8>, Vec<usize>)> = vals
            .par_chunks(1024)
            .map(|part| {
                let mut buf = Vec::with_capacity(part.len() * 32 * types.len());
                let mut ends = Vec::with_capacity(part.len());
                for v in part {
                    abi::encode_into(types, standard_items(types, v)?, &mut buf)?;
                    ends.push(buf.len());
                }
                Ok((buf, ends))
            })
            .collect::<Result<_, MerkleError>>()?;
        let mut msgs: Vec<&[u8]> = Vec::with_capacity(vals.len());
        for (buf, ends) in &pieces {
            let mut start = 0;
            for &e in ends {
                msgs.push(&buf[start..e]);
                start = e;
            }
        }
        let inner = &mut inner[..vals.len()];
        engine.try_hash_many(&KECCAK256, &msgs, 32, inner.as_flattened_mut())?;
        tick(vals.len());
        let msgs: Vec<&[u8]> = inner.iter().map(|h| &h[..]).collect();
        engine.try_hash_many(&KECCAK256, &msgs, 32, outs.as_flattened_mut())?;
        tick(vals.len());
    }
    Ok(())
}

/// The node array over leaf hashes `leaves` (in leaf order, no sorting):
/// leaf `k` at `2n − 2 − k`, then each run of nodes whose children are
/// done, from the last inner node down to the root, as batches on
/// `engine`; `tick(0)` once the leaves are in place, then `tick(k)` after
/// each batch of `k` nodes (a level ends on a batch boundary).
pub fn build_nodes(
    leaves: &[Hash],
    engine: &dyn Engine,
    tick: &mut dyn FnMut(usize),
) -> Result<Vec<Hash>, MerkleError> {
    let mut tree = Vec::new();
    build_nodes_into(leaves, &mut tree, engine, tick)?;
    Ok(tree)
}

/// [`build_nodes`] into `tree`, reusing its allocation: a caller that
/// builds many trees keeps the array's pages (a fresh array of `2n − 1`
/// nodes is first touched page by page while it is filled).
pub fn build_nodes_into(
    leaves: &[Hash],
    tree: &mut Vec<Hash>,
    engine: &dyn Engine,
    tick: &mut dyn FnMut(usize),
) -> Result<(), MerkleError> {
    let n = leaves.len();
    if n == 0 {
        return Err(MerkleError::arg("Expected non-zero number of leaves"));
    }
    let len = 2 * n - 1;
    if tree.capacity() < len {
        // Zeroed by the allocator (fresh pages), not written here.
        *tree = vec![[0u8; 32]; len];
    } else {
        // Inner nodes are all overwritten: only a longer array is filled.
        tree.resize(len, [0u8; 32]);
    }
    tree[n - 1..]
        .par_iter_mut()
        .with_min_len(1 << 12)
        .rev()
        .zip(leaves.par_iter())
        .for_each(|(t, l)| *t = *l);
    // The leaves are in place: the hashing starts.
    tick(0);
    hash_levels(tree, n, engine, tick)
}

/// The inner nodes of `tree` (`2n − 1` nodes, the `n` leaves in place),
/// each run of nodes whose children are done as batches on `engine`.
fn hash_levels(
    tree: &mut [Hash],
    n: usize,
    engine: &dyn Engine,
    tick: &mut dyn FnMut(usize),
) -> Result<(), MerkleError> {
    // An engine that builds every level at once (a GPU, in its memory).
    if let Some(r) = engine.merkle_nodes(tree) {
        r?;
        tick(n - 1);
        return Ok(());
    }
    let chunk = chunk_for(engine);
    let mut msgs = Vec::new();
    // Nodes hi.. are done; lo..hi have all their children (2 lo + 1 >= hi).
    let mut hi = n - 1;
    while hi > 0 {
        let lo = hi / 2;
        let mut b = hi;
        while b > lo {
            let a = b.saturating_sub(chunk).max(lo);
            let (head, tail) = tree.split_at_mut(b);
            hash_nodes(head.len(), tail, a, b, &mut msgs, &mut head[a..b], engine)?;
            tick(b - a);
            b = a;
        }
        hi = lo;
    }
    Ok(())
}

/// Nodes `a..b` into `out`, where the tree from node `offset` on is
/// `tail` (it holds all their children): their messages filled into
/// `msgs` (a scratch array kept between calls, grown, never cleared), then
/// one engine call. (Hashing pieces of 256 nodes on each thread right after
/// filling them, or pointing at children that are already in order instead
/// of copying them, both ran slower: bench/NOTES.md, "Merkle levels".)
fn hash_nodes(
    offset: usize,
    tail: &[Hash],
    a: usize,
    b: usize,
    msgs: &mut Vec<[u8; 64]>,
    out: &mut [Hash],
    engine: &dyn Engine,
) -> Result<(), MerkleError> {
    let count = b - a;
    if msgs.len() < count {
        msgs.resize(count, [0u8; 64]);
    }
    let msgs = &mut msgs[..count];
    let fill = |(k, m): (usize, &mut [u8; 64])| {
        let i = a + k;
        sorted_pair(&tail[2 * i + 1 - offset], &tail[2 * i + 2 - offset], m);
    };
    if count >= 4096 {
        msgs.par_iter_mut().enumerate().for_each(fill);
    } else {
        msgs.iter_mut().enumerate().for_each(fill);
    }
    let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    engine.try_hash_many(&KECCAK256, &refs, 32, out.as_flattened_mut())?;
    Ok(())
}
