//! The engine contract: the [`Engine`] trait and its [`LaneSpec`], errors
//! of engines that can fail, batch-size hints, the whole-block job the
//! modes hand to an engine's lanes, and how a mode holds its engine
//! ([`EngineRef`]; resolving `EngineRef::Current` is the selection's, in
//! select.rs).

use alloc::string::String;
// Cortex-M0 has no atomic compare-and-swap, so no `Arc`; it has no threads
// either, and a shared engine is an `Rc` there.
#[cfg(not(target_has_atomic = "ptr"))]
use alloc::rc::Rc as Arc;
#[cfg(target_has_atomic = "ptr")]
use alloc::sync::Arc;
use core::fmt;

use crate::error::Error;
use crate::permutation::Parallelism;
use crate::permutation::{absorb_interleaved_with, Interleaved};
use crate::sponge::ByteSponge;

/// A width-1600 sponge with a byte-aligned rate: what every standardized
/// function and tree leaf uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaneSpec {
    /// Rate in bytes, 1..200.
    pub rate_bytes: usize,
    /// Rounds of Keccak-p\[1600\], 1..=24 (24: SHA3/SHAKE; 12: TurboSHAKE/KT).
    pub rounds: usize,
    /// Suffix bits followed by the first padding 1 (0x06 SHA3, 0x1F SHAKE,
    /// 0x01 Keccak, 0x0B KT leaf, ...).
    pub delimited_suffix: u8,
}

impl LaneSpec {
    pub fn new(rate_bytes: usize, rounds: usize, delimited_suffix: u8) -> crate::Result<Self> {
        if rate_bytes == 0 || rate_bytes >= 200 {
            return Err(Error::InvalidParameter("lane rate must be 1..199 bytes"));
        }
        if rounds == 0 || rounds > 24 {
            return Err(Error::InvalidRounds {
                width: 1600,
                rounds,
                max: 24,
            });
        }
        if delimited_suffix == 0 {
            return Err(Error::InvalidParameter("delimited suffix 0x00 is invalid"));
        }
        Ok(LaneSpec {
            rate_bytes,
            rounds,
            delimited_suffix,
        })
    }

    pub(crate) const fn fixed(rate_bytes: usize, rounds: usize, delimited_suffix: u8) -> Self {
        LaneSpec {
            rate_bytes,
            rounds,
            delimited_suffix,
        }
    }

    /// Hash one input on the scalar path (the reference for every engine).
    pub fn hash_one(&self, input: &[u8], out: &mut [u8]) {
        let mut s = ByteSponge::new(self.rate_bytes, self.rounds);
        s.absorb(input);
        s.pad_delimited(self.delimited_suffix);
        s.squeeze(out);
    }
}

/// An implementation of many independent sponges: the one contract every
/// engine (CPU lanes, threads, a GPU) fulfils and every mode runs on.
///
/// A CPU engine implements [`hash_many`](Engine::hash_many) and, if it has
/// SIMD lanes, [`parallelism`](Engine::parallelism); everything else has
/// defaults. An accelerator that can fail implements
/// [`try_hash_many_beside`](Engine::try_hash_many_beside) (and
/// `hash_many` through [`Fallback`](crate::engine::Fallback)), gives a larger
/// [`batch_hint`](Engine::batch_hint), and keeps `parallelism` at `X1`
/// (the modes then take their one-state paths for the serial parts).
pub trait Engine: Send + Sync {
    /// Short name used by `--engine` and `KECCAKX_ENGINE`.
    fn name(&self) -> &'static str;
    /// Whether this CPU can run it.
    fn is_available(&self) -> bool {
        true
    }
    /// Hash each `inputs[i]` into `out[i*out_len..(i+1)*out_len]`.
    /// `out.len()` must equal `inputs.len() * out_len`.
    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]);
    /// [`hash_many`](Engine::hash_many), running `side()` once on the
    /// calling thread while the engine already works on the inputs (the
    /// modes' serial work: KT's first chunk, the previous call's chaining
    /// values). Default: `side()` first.
    fn hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) {
        side();
        self.hash_many(spec, inputs, out_len, out)
    }
    /// The fallible form, for engines that can fail (a GPU): `Err` leaves
    /// `out` unspecified. Default: [`hash_many`](Engine::hash_many), never
    /// failing.
    fn try_hash_many(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
    ) -> core::result::Result<(), EngineError> {
        self.try_hash_many_beside(spec, inputs, out_len, out, &mut || {})
    }
    /// [`try_hash_many`](Engine::try_hash_many) with `side()` as in
    /// [`hash_many_beside`](Engine::hash_many_beside); `side()` runs exactly
    /// once, also when the call fails.
    fn try_hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) -> core::result::Result<(), EngineError> {
        self.hash_many_beside(spec, inputs, out_len, out, side);
        Ok(())
    }
    /// How much work one call should carry (modes gather this much before
    /// a call when their input arrives in small pieces).
    fn batch_hint(&self) -> BatchHint {
        BatchHint::CPU
    }
    /// The multi-state permutation behind it, for modes that keep states
    /// of their own between calls (tree LI's leaves); `X1` for one state
    /// at a time.
    fn parallelism(&self) -> crate::permutation::Parallelism {
        crate::permutation::Parallelism::X1
    }
    /// Whole blocks into states the mode keeps (tree LI's leaves, KT's
    /// first chunk beside its first leaves), side by side: see [`BlockJob`].
    /// `states` holds 200 little-endian bytes per state. Returns false, with
    /// nothing done, when the engine has no lanes for it (the mode then
    /// takes its one-state path). Panics if the job does not fit the states.
    fn absorb_blocks(&self, states: &mut [u8], job: &BlockJob<'_>) -> bool {
        job.run(self.parallelism(), states)
    }
    /// Keccak-p[1600, rounds] on every state, side by side where the
    /// engine has lanes.
    fn permute_states(&self, states: &mut [crate::permutation::State], rounds: usize) {
        let p = self.parallelism();
        let p = if p.is_available() {
            p
        } else {
            crate::permutation::Parallelism::X1
        };
        crate::permutation::keccak_p1600_with(p, states, rounds)
    }
    /// Threads it spreads work over: 1 for a per-core kernel.
    fn threads(&self) -> usize {
        1
    }
    /// The inner nodes of an OpenZeppelin-layout Merkle tree in `tree`
    /// (2n - 1 nodes of 32 bytes, root first, node i's children 2i + 1 and
    /// 2i + 2, the n leaves in place at the end; node = Keccak-256 of the
    /// sorted pair), every level in one call, where the engine has a way
    /// faster than level batches (a GPU keeps the levels in its memory).
    /// `None`, with nothing done: no such way, the Merkle mode batches the
    /// levels itself (the default).
    fn merkle_nodes(
        &self,
        _tree: &mut [[u8; 32]],
    ) -> Option<core::result::Result<(), EngineError>> {
        None
    }
}

/// A borrowed engine is an engine (every method forwarded).
/// An engine behind a reference or a smart pointer is the same engine.
macro_rules! forward_engine {
    ($($ptr:ty),*) => {$(
impl<E: Engine + ?Sized> Engine for $ptr {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn is_available(&self) -> bool {
        (**self).is_available()
    }
    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
        (**self).hash_many(spec, inputs, out_len, out)
    }
    fn hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) {
        (**self).hash_many_beside(spec, inputs, out_len, out, side)
    }
    fn try_hash_many(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
    ) -> core::result::Result<(), EngineError> {
        (**self).try_hash_many(spec, inputs, out_len, out)
    }
    fn try_hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) -> core::result::Result<(), EngineError> {
        (**self).try_hash_many_beside(spec, inputs, out_len, out, side)
    }
    fn batch_hint(&self) -> BatchHint {
        (**self).batch_hint()
    }
    fn parallelism(&self) -> crate::permutation::Parallelism {
        (**self).parallelism()
    }
    fn absorb_blocks(&self, states: &mut [u8], job: &BlockJob<'_>) -> bool {
        (**self).absorb_blocks(states, job)
    }
    fn permute_states(&self, states: &mut [crate::permutation::State], rounds: usize) {
        (**self).permute_states(states, rounds)
    }
    fn threads(&self) -> usize {
        (**self).threads()
    }
    fn merkle_nodes(&self, tree: &mut [[u8; 32]]) -> Option<core::result::Result<(), EngineError>> {
        (**self).merkle_nodes(tree)
    }
}
    )*};
}

forward_engine!(&E);
#[cfg(feature = "std")]
forward_engine!(alloc::boxed::Box<E>, alloc::sync::Arc<E>);

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
    /// Rounds of Keccak-p\[1600\] per permutation.
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
        HostInput {
            data,
            extra: 0,
            short: 0,
        }
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
            spec.hash_one(
                &self.data[at..at + leaf],
                &mut cvs[i * cv_len..(i + 1) * cv_len],
            );
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
