//! Portable states of KT128/KT256 and ParallelHash (absorbing).
//!
//! Their running state is a final node (KT) or outer cSHAKE
//! (ParallelHash) that has absorbed every chaining value so far, plus the
//! chunk (KT: 8192 bytes; ParallelHash: B) not complete yet. The CVs are
//! absorbed as they are made, so the state does not grow with the message:
//! the node's 200-byte sponge, two counters, and the partial chunk — its
//! bytes (fewer than one chunk: under 8192 for KT, under B for
//! ParallelHash when B ≤ 256 KiB), or, for larger blocks, the sponge that
//! has absorbed them (200 bytes). Whole chunks still queued for the engine
//! are hashed when exporting. So a blob is at most ~8.5 KiB for KT and
//! ~256 KiB for ParallelHash, whatever the message length.
//!
//! Unkeyed functions: the blob holds message bytes (the partial chunk),
//! no secret.

use alloc::vec::Vec;

use super::wire::{put_bytes, Reader, StateError};
use crate::chunked::Pending;
use crate::permutation::State;
use crate::registry::Inner;
use crate::rfc9861::Kt;
use crate::sp800_185::ParallelHash;

/// A tree mode's running state (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct TreeState {
    /// The final node's (outer node's) sponge: lanes and position.
    pub node: State,
    pub node_pos: usize,
    /// KT: bytes of S_0 absorbed (≤ 8192); ParallelHash: 0.
    pub first_len: usize,
    /// Chaining values absorbed.
    pub count: u64,
    /// The partial chunk.
    pub pending: Pending,
}

/// The running state of a KT or ParallelHash hasher; None for another.
pub(super) fn export(inner: &Inner) -> Option<TreeState> {
    Some(match inner {
        Inner::Kt128(k) => kt(k),
        Inner::Kt256(k) => kt(k),
        Inner::Parallel128(p, _) => ph(p),
        Inner::Parallel256(p, _) => ph(p),
        _ => return None,
    })
}

fn kt<const R: usize>(k: &Kt<R>) -> TreeState {
    let mut k = k.clone();
    let (node, leaves) = k.parts_mut(false);
    let pending = match leaves {
        // Leaves exist only once S_0 is full: the CVs always fit.
        Some(l) => l.take_pending(&mut |cvs| {
            let _ = node.absorb_chaining_values(cvs);
        }),
        None => Pending::Bytes(Vec::new()),
    };
    let (node, node_pos, first_len, count) = node.raw();
    TreeState {
        node,
        node_pos,
        first_len,
        count,
        pending,
    }
}

fn ph<const R: usize>(p: &ParallelHash<R>) -> TreeState {
    let mut p = p.clone();
    let (outer, blocks) = p.parts_mut();
    let pending = blocks.take_pending(&mut |cvs| {
        let _ = outer.absorb_chaining_values(cvs);
    });
    let (node, node_pos, count) = outer.raw();
    TreeState {
        node,
        node_pos,
        first_len: 0,
        count,
        pending,
    }
}

fn empty(p: &Pending) -> bool {
    matches!(p, Pending::Bytes(b) if b.is_empty())
}

/// Put `t` into a fresh KT or ParallelHash hasher; false when it is not
/// one or `t` cannot be its state.
pub(super) fn import(inner: &mut Inner, t: &TreeState) -> bool {
    match inner {
        Inner::Kt128(k) => kt_set(k, t),
        Inner::Kt256(k) => kt_set(k, t),
        Inner::Parallel128(p, _) => ph_set(p, t),
        Inner::Parallel256(p, _) => ph_set(p, t),
        _ => false,
    }
}

fn kt_set<const R: usize>(k: &mut Kt<R>, t: &TreeState) -> bool {
    let leaves = t.count > 0 || !empty(&t.pending);
    let (node, hasher) = k.parts_mut(leaves);
    if !node.set_raw(t.node, t.node_pos, t.first_len, t.count) {
        return false;
    }
    match hasher {
        Some(h) => t.first_len == crate::hazmat::KT_CHUNK_LEN && h.set_pending(&t.pending),
        None => true,
    }
}

fn ph_set<const R: usize>(p: &mut ParallelHash<R>, t: &TreeState) -> bool {
    let (outer, blocks) = p.parts_mut();
    t.first_len == 0 && outer.set_raw(t.node, t.node_pos, t.count) && blocks.set_pending(&t.pending)
}

/// Append the tree section of a blob (after the node's sponge): S_0's
/// length and the CV count (u64 each), then the partial chunk: 0 and its
/// bytes (u32 length), or 1, the bytes absorbed (u64), the sponge's
/// position (u32) and its 25 lanes.
pub(super) fn encode(v: &mut Vec<u8>, t: &TreeState) {
    v.extend_from_slice(&(t.first_len as u64).to_le_bytes());
    v.extend_from_slice(&t.count.to_le_bytes());
    match &t.pending {
        Pending::Bytes(b) => {
            v.push(0);
            put_bytes(v, b);
        }
        Pending::Sponge { state, pos, filled } => {
            v.push(1);
            v.extend_from_slice(&(*filled as u64).to_le_bytes());
            v.extend_from_slice(&(*pos as u32).to_le_bytes());
            for lane in state {
                v.extend_from_slice(&lane.to_le_bytes());
            }
        }
    }
}

/// Read what [`encode`] wrote; the node's sponge comes from the blob's
/// common part.
pub(super) fn decode(
    r: &mut Reader<'_>,
    node: State,
    node_pos: usize,
) -> Result<TreeState, StateError> {
    let bad = StateError::Corrupted("invalid structure");
    let first_len = usize::try_from(r.u64()?).map_err(|_| bad.clone())?;
    let count = r.u64()?;
    let pending = match r.u8()? {
        0 => Pending::Bytes(r.bytes()?.to_vec()),
        1 => {
            let filled = usize::try_from(r.u64()?).map_err(|_| bad.clone())?;
            let pos = r.u32()? as usize;
            let mut state = [0u64; 25];
            for l in state.iter_mut() {
                *l = r.u64()?;
            }
            Pending::Sponge { state, pos, filled }
        }
        _ => return Err(bad),
    };
    Ok(TreeState {
        node,
        node_pos,
        first_len,
        count,
        pending,
    })
}
