//! The pieces of the engine contract besides the trait itself: errors of
//! engines that can fail, batch-size hints, the whole-block job the modes
//! hand to an engine's lanes, and how a mode holds its engine.

use alloc::string::String;
use alloc::sync::Arc;
use core::fmt;

use super::Engine;
use crate::permutation::multi::{absorb_interleaved_with, Interleaved};
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
