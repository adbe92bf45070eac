//! The pieces of the engine contract besides the trait itself: errors of
//! engines that can fail, batch-size hints, the whole-block job the modes
//! hand to an engine's lanes, and how a mode holds its engine.

use alloc::string::String;
use alloc::sync::Arc;
use core::fmt;

use super::{Engine, LaneSpec};
use crate::permutation::{absorb_interleaved_with, Interleaved};
use crate::permutation::Parallelism;

/// A failure of an engine that can fail (a GPU): which engine, and what a
/// user can act on. CPU engines never return it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    /// The engine's name ("cuda").
    pub engine: &'static str,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} engine: {}", self.engine, self.message)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EngineError {}

/// Input that lives in an engine's own memory (a GPU buffer): a mode reads
/// back the few bytes it hashes itself (the first chunk, a short last
/// leaf) and has the engine hash the whole leaves where they lie. The modes
/// that take it: [`crate::rfc9861::KtFinalNode::from_resident`] (KT128,
/// KT256) and [`crate::sp800_185::ParallelHashOuter::absorb_resident`]
/// (ParallelHash, ParallelHashXOF), [`crate::tree_li::tree_li_resident`]
/// (tree LI); the framing stays in the modes, the engine only hashes what it
/// is given.
pub trait ResidentInput {
    /// The engine's name, for errors about what it delivered.
    fn engine(&self) -> &'static str;
    /// Length in bytes.
    fn len(&self) -> u64;
    /// Whether the input is empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Copy bytes `[pos, pos + buf.len())` (inside the input) to `buf`.
    fn read(&self, pos: u64, buf: &mut [u8]) -> Result<(), EngineError>;
    /// Hash `count` leaves of `leaf` bytes each, leaf `i` at
    /// `first + i * leaf` (all inside the input), with `spec`, keeping the
    /// first `cv_len` output bytes of each; hand the values to `sink` in
    /// leaf order, whole values, in as many calls as suits the engine (the
    /// mode absorbs one group while the engine hashes the next). An error
    /// from `sink` stops the work and is returned.
    fn hash_leaves(
        &self,
        spec: &LaneSpec,
        first: u64,
        leaf: usize,
        count: u64,
        cv_len: usize,
        sink: &mut dyn FnMut(&[u8]) -> Result<(), EngineError>,
    ) -> Result<(), EngineError>;

    /// Hash `prefix || message` for every message of `msgs` (gathered from
    /// the input, see [`Strided`]) with `spec`, `out_len` bytes each into
    /// `out` in order. The default reads each message back and hashes it
    /// here; an engine gathers them where the input lies.
    fn hash_gathered(
        &self,
        spec: &LaneSpec,
        prefix: &[u8],
        msgs: &[Strided],
        out_len: usize,
        out: &mut [u8],
    ) -> Result<(), EngineError> {
        let mut buf = alloc::vec::Vec::new();
        for (m, o) in msgs.iter().zip(out.chunks_mut(out_len.max(1))) {
            buf.clear();
            buf.extend_from_slice(prefix);
            for (pos, len) in m.ranges() {
                let at = buf.len();
                buf.resize(at + len, 0);
                self.read(pos, &mut buf[at..])?;
            }
            spec.hash_one(&buf, o);
        }
        Ok(())
    }
}

/// One message gathered from a [`ResidentInput`]: a prefix the caller
/// gives, then `count` pieces of `piece` bytes, the k-th at
/// `first + k * stride` of the input, then `tail` bytes at
/// `first + count * stride` (tree LI's leaves: block i, i + L, i + 2L, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strided {
    pub first: u64,
    pub piece: usize,
    pub stride: u64,
    pub count: u64,
    pub tail: usize,
}

impl Strided {
    /// Bytes of input the message takes (without the prefix).
    pub fn len(&self) -> u64 {
        self.count * self.piece as u64 + self.tail as u64
    }
    /// Whether it takes no input bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The input's byte ranges, in order.
    pub fn ranges(&self) -> impl Iterator<Item = (u64, usize)> + '_ {
        (0..self.count)
            .map(|k| (self.first + k * self.stride, self.piece))
            .chain((self.tail > 0).then_some((self.first + self.count * self.stride, self.tail)))
    }
}

/// How much work one engine call should carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchHint {
    /// Bytes of input a mode gathers before a call when its input arrives
    /// in small pieces.
    pub bytes: usize,
    /// Most items (chunks, leaves) per call when input arrives in one big
    /// piece (bounds the chaining-value scratch).
    pub max_items: usize,
}

impl BatchHint {
    /// The CPU engines: 1 MiB (128 KT leaves, enough for every lane and
    /// thread, bench/NOTES.md), at most 4096 items per call.
    pub const CPU: BatchHint = BatchHint {
        bytes: 1 << 20,
        max_items: 4096,
    };
}

/// Whole blocks for many states at once: for each round `t < rounds` and
/// each state `j`, the `block` bytes at
/// `data[((t * leaves) + first + j) * stride..]` are absorbed into state
/// `j` as `block / rate` rate-sized blocks, each followed by
/// Keccak-p[1600, `nr`]. `data` starts at the block of the call's first
/// state, so `first` is a piece's offset among the call's states.
///
/// Tree LI's leaves take `stride == block`; KT's first chunk and its first
/// leaves take one round with `stride` the chunk (8192 bytes) and `block`
/// its whole rate blocks (each state's last partial block follows apart).
#[derive(Clone, Copy, Debug)]
pub struct BlockJob<'a> {
    pub data: &'a [u8],
    /// Offset of the first state among the call's states.
    pub first: usize,
    /// Blocks from one round to the next, in `stride`s.
    pub leaves: usize,
    /// Bytes a state takes per round: a multiple of `rate`.
    pub block: usize,
    /// Bytes from one state's block to the next: at least `block`.
    pub stride: usize,
    /// Sponge rate in bytes: a multiple of 8, at most 200.
    pub rate: usize,
    /// Rounds of blocks.
    pub rounds: usize,
    /// Rounds of Keccak-p[1600] per permutation.
    pub nr: usize,
}

impl BlockJob<'_> {
    /// Run the job on the multi-state permutation `p` (the default of
    /// [`Engine::absorb_blocks`]); false when `p` is `X1` or unavailable.
    pub fn run(&self, p: Parallelism, states: &mut [u8]) -> bool {
        let job = Interleaved {
            data: self.data,
            first: self.first,
            leaves: self.leaves,
            block: self.block,
            stride: self.stride,
            rate: self.rate,
            rounds: self.rounds,
            nr: self.nr,
        };
        absorb_interleaved_with(p, states, &job)
    }
}

/// The engine a mode runs on: the process's current engine on all allowed
/// cores (the default), or one the caller gave it (a GPU).
#[derive(Clone, Default)]
pub enum EngineRef {
    /// [`super::current`] on up to [`super::threads`] cores, looked up at
    /// each call.
    #[default]
    Current,
    /// This engine.
    Shared(Arc<dyn Engine>),
}

impl EngineRef {
    /// The engine's [`Engine::batch_hint`] (the CPU's for `Current`,
    /// without looking the engine up).
    pub fn batch_hint(&self) -> BatchHint {
        match self {
            EngineRef::Current => BatchHint::CPU,
            EngineRef::Shared(e) => e.batch_hint(),
        }
    }

    /// Run `f` with the engine.
    pub fn with<R>(&self, f: impl FnOnce(&dyn Engine) -> R) -> R {
        match self {
            EngineRef::Shared(e) => f(&**e),
            #[cfg(feature = "std")]
            EngineRef::Current => f(&super::Threads::new(super::current())),
            #[cfg(not(feature = "std"))]
            EngineRef::Current => f(super::current()),
        }
    }
}

impl fmt::Debug for EngineRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineRef::Current => f.write_str("EngineRef::Current"),
            EngineRef::Shared(e) => write!(f, "EngineRef::Shared({})", e.name()),
        }
    }
}

/// A [`ResidentInput`] over host bytes for the modes' tests: leaves hashed
/// one by one and delivered in growing groups (1, 3, 5, ... values), like a
/// pipelined engine; `extra` values of garbage appended or `short` bytes cut
/// off the delivery to test the modes' checks.
#[cfg(test)]
pub(crate) struct HostInput<'a> {
    pub data: &'a [u8],
    pub extra: usize,
    pub short: usize,
}

#[cfg(test)]
impl<'a> HostInput<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        HostInput { data, extra: 0, short: 0 }
    }
}

#[cfg(test)]
impl ResidentInput for HostInput<'_> {
    fn engine(&self) -> &'static str {
        "host-test"
    }
    fn len(&self) -> u64 {
        self.data.len() as u64
    }
    fn read(&self, pos: u64, buf: &mut [u8]) -> Result<(), EngineError> {
        let p = pos as usize;
        buf.copy_from_slice(&self.data[p..p + buf.len()]);
        Ok(())
    }
    fn hash_leaves(
        &self,
        spec: &LaneSpec,
        first: u64,
        leaf: usize,
        count: u64,
        cv_len: usize,
        sink: &mut dyn FnMut(&[u8]) -> Result<(), EngineError>,
    ) -> Result<(), EngineError> {
        let mut cvs = alloc::vec![0u8; (count as usize + self.extra) * cv_len];
        for i in 0..count as usize {
            let at = first as usize + i * leaf;
            spec.hash_one(&self.data[at..at + leaf], &mut cvs[i * cv_len..(i + 1) * cv_len]);
        }
        cvs.truncate(cvs.len() - self.short);
        let mut group = 1;
        let mut at = 0;
        while at < cvs.len() {
            let n = (group * cv_len).min(cvs.len() - at);
            sink(&cvs[at..at + n])?;
            at += n;
            group += 2;
        }
        Ok(())
    }
}
