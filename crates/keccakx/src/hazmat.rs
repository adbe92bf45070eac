//! Hazardous materials: the separate pieces of the tree modes KT128/KT256
//! (RFC 9861) and ParallelHash (SP 800-185), for callers that compute one
//! message's chaining values in several places (processes, machines: the
//! Python `keccakx.distributed` layer) and finish the mode in one.
//!
//! Used as documented, the pieces give bit for bit the digest of the
//! one-shot [`Kt`](crate::rfc9861::Kt) / [`ParallelHash`](crate::sp800_185::ParallelHash)
//! whatever the split. Misused (a run of chaining values from the wrong
//! place, values out of order), they give a wrong digest that no check can
//! catch: what *can* be checked (alignment, counts, lengths) is, with an
//! [`Error::InvalidParameter`] and nothing absorbed.
//!
//! # KT128 / KT256
//!
//! KT hashes S = M || C || length_encode(|C|) cut into 8192-byte chunks:
//! S_0 goes into the final node, every later chunk S_i is a leaf whose
//! chaining value is TurboSHAKE(S_i, 0x0B). A message M of `message_len`
//! bytes splits, by [`KtPlan`], into
//!
//! - the *head*, M's first min(|M|, 8192) bytes (all or part of S_0);
//! - the *whole leaves*: chunks 1, 2, ... lying entirely inside M. Their
//!   chaining values can be computed anywhere, any run of consecutive
//!   chunks at a time, with [`kt128_leaf_chaining_values`] (runs start on a
//!   chunk boundary and hold whole chunks);
//! - the *tail*: M's bytes after the last whole chunk (fewer than 8192).
//!   The tail is followed by the customization C and length_encode(|C|),
//!   which only the final node knows, so the final node hashes the tail
//!   and C (and their leaves, if any) itself.
//!
//! [`KtFinal`] takes the head, then the whole leaves' chaining values in
//! chunk order (streamed: it never holds them), then the tail.
//!
//! # ParallelHash
//!
//! ParallelHash cuts X into blocks of B bytes (the last may be short) whose
//! chaining values are SHAKE128/256 of the block, and nothing follows X.
//! Any run of consecutive blocks, starting on a block boundary and ending
//! on one or at the end of the message, is hashed with
//! [`parallelhash128_block_chaining_values`]; [`ParallelHashFinal`] absorbs
//! all the blocks' values in order and binds their count and the output
//! length.
//!
//! Every run of chaining values goes through the engine (SIMD lanes and
//! threads), the code the one-machine path uses.
//!
//! ```
//! use keccakx::hazmat::{kt128_leaf_chaining_values, Kt128Final, KtPlan};
//! use keccakx::rfc9861::Kt128;
//!
//! let m: Vec<u8> = (0..50_000u32).map(|i| i as u8).collect();
//! let plan = KtPlan::new(m.len() as u64);
//! let mut fin = Kt128Final::new(m.len() as u64, b"app");
//! fin.absorb_head(&m[..plan.head_len]).unwrap();
//! // The whole leaves, in two runs (computed anywhere, absorbed in order).
//! let (a, b) = (plan.leaves.start, plan.leaves.end);
//! let mid = a + 2;
//! for (first, end) in [(a, mid), (mid, b)] {
//!     let run = &m[first as usize * 8192..end as usize * 8192];
//!     let mut cvs = vec![0u8; (end - first) as usize * Kt128Final::CV_LEN];
//!     kt128_leaf_chaining_values(first, run, &mut cvs).unwrap();
//!     fin.absorb_chaining_values(&cvs).unwrap();
//! }
//! let tail = &m[plan.tail_offset as usize..];
//! let digest = fin.finalize_xof(tail).unwrap().read_vec(32);
//!
//! let mut kt = Kt128::new(b"app");
//! kt.update(&m);
//! assert_eq!(digest, kt.finalize_vec(32));
//! ```

use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

use crate::engine::{self, Engine, LaneSpec};
use crate::error::{Error, Result};
use crate::rfc9861::{length_encode, KtFinalNode};
use crate::sp800_185::ParallelHashOuter;
use crate::sponge::XofReader;

/// `$body` with `$r` a const rate equal to `$rate`, 168 (the 128-bit
/// functions) or 136 (the 256-bit ones): the tree modes are generic over
/// their rate ([`KtFinal<R>`](KtFinal), [`Kt<R>`](crate::rfc9861::Kt),
/// [`ParallelHash<R>`](crate::sp800_185::ParallelHash)), and a front end
/// that picks the function at run time writes its code once for both.
/// Any rate other than 168 runs the 136 branch.
///
/// ```
/// use keccakx::hazmat::KtFinal;
/// fn cv_len(rate: usize) -> usize {
///     keccakx::with_rate!(rate, R => KtFinal::<R>::CV_LEN)
/// }
/// assert_eq!((cv_len(168), cv_len(136)), (32, 64));
/// ```
#[macro_export]
macro_rules! with_rate {
    ($rate:expr, $r:ident => $body:expr) => {
        if $rate == 168 {
            const $r: usize = 168;
            $body
        } else {
            const $r: usize = 136;
            $body
        }
    };
}

/// KT's chunk size: S_0 and every leaf but the last are this long.
pub const KT_CHUNK_LEN: usize = 8192;

/// Chunks (or blocks) per engine call: bounds the scratch of slices, as the
/// one-machine path does (chunked.rs).
const PIECES_PER_CALL: usize = 4096;

/// Hash `data` cut into `piece_len`-byte pieces (the last may be short) on
/// the engine (all cores): one `cv_len`-byte value per piece into `out`.
fn chaining_values(spec: &LaneSpec, piece_len: usize, cv_len: usize, data: &[u8], out: &mut [u8]) {
    engine::on_cores(|e| chaining_values_on(e, spec, piece_len, cv_len, data, out))
}

/// [`chaining_values`] on `engine`.
fn chaining_values_on(
    engine: &dyn Engine,
    spec: &LaneSpec,
    piece_len: usize,
    cv_len: usize,
    data: &[u8],
    out: &mut [u8],
) {
    debug_assert_eq!(out.len(), data.len().div_ceil(piece_len) * cv_len);
    let mut pieces: Vec<&[u8]> = Vec::new();
    let groups = data.chunks(piece_len.saturating_mul(PIECES_PER_CALL));
    for (group, o) in groups.zip(out.chunks_mut(cv_len * PIECES_PER_CALL)) {
        pieces.clear();
        pieces.extend(group.chunks(piece_len));
        engine.hash_many(spec, &pieces, cv_len, o);
    }
}

// ---------------------------------------------------------------- KT

/// Where the bytes of a KT message of `message_len` bytes go (the split
/// does not depend on the customization): see the [module](self) docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KtPlan {
    /// |M|.
    pub message_len: u64,
    /// Bytes of M in S_0: min(|M|, 8192), for [`KtFinal::absorb_head`].
    pub head_len: usize,
    /// Chunk indexes of the leaves lying entirely inside M (empty when M
    /// holds no chunk past S_0); leaf i is M[8192·i, 8192·(i+1)).
    pub leaves: Range<u64>,
    /// Where the tail starts in M (the end of the last whole chunk, or of
    /// the head): M[tail_offset..] goes to [`KtFinal::finalize_xof`].
    pub tail_offset: u64,
    /// The tail's length, below 8192.
    pub tail_len: usize,
}

impl KtPlan {
    pub fn new(message_len: u64) -> KtPlan {
        let chunk = KT_CHUNK_LEN as u64;
        let head_len = message_len.min(chunk) as usize;
        let whole = message_len / chunk;
        let tail_offset = (whole * chunk).max(head_len as u64);
        KtPlan {
            message_len,
            head_len,
            leaves: 1..whole.max(1),
            tail_offset,
            tail_len: (message_len - tail_offset) as usize,
        }
    }

    /// The byte range of M holding chunks `chunks` (indexes of whole leaves).
    pub fn byte_range(chunks: Range<u64>) -> Range<u64> {
        let c = KT_CHUNK_LEN as u64;
        chunks.start.saturating_mul(c)..chunks.end.saturating_mul(c)
    }
}

/// The chaining values of a run of whole KT leaves (R = 168: KT128, 136:
/// KT256): `data` is chunks `first_chunk_index`, `first_chunk_index + 1`,
/// ... of S, whole (a multiple of 8192 bytes), and `out` receives one
/// [`KtFinal::CV_LEN`]-byte value per chunk, in order.
///
/// # Errors
///
/// [`Error::InvalidParameter`], with `out` untouched, when
/// `first_chunk_index` is 0 (chunk 0 is S_0, absorbed by the final node,
/// not a leaf), when `data` is not whole chunks, or when `out` is not one
/// value per chunk.
pub fn kt_leaf_chaining_values<const R: usize>(
    first_chunk_index: u64,
    data: &[u8],
    out: &mut [u8],
) -> Result<()> {
    engine::on_cores(|e| kt_leaf_chaining_values_on::<R>(e, first_chunk_index, data, out))
}

/// [`kt_leaf_chaining_values`] on `engine` (for instance one core's,
/// [`engine::current`], for a caller that hashes several runs at once on
/// threads of its own).
///
/// # Errors
///
/// As [`kt_leaf_chaining_values`].
pub fn kt_leaf_chaining_values_on<const R: usize>(
    engine: &dyn Engine,
    first_chunk_index: u64,
    data: &[u8],
    out: &mut [u8],
) -> Result<()> {
    if first_chunk_index == 0 {
        return Err(Error::InvalidParameter(
            "KT hazmat: chunk 0 is S_0 (absorbed by the final node as the head), not a leaf; leaves start at chunk index 1",
        ));
    }
    if first_chunk_index.checked_mul(KT_CHUNK_LEN as u64).is_none() {
        return Err(Error::InvalidParameter("KT hazmat: chunk index too large"));
    }
    if !data.len().is_multiple_of(KT_CHUNK_LEN) {
        return Err(Error::InvalidParameter(
            "KT hazmat: a run of leaves must be whole 8192-byte chunks (the tail of the message, after the last whole chunk, goes to the final node)",
        ));
    }
    let cv_len = KtFinalNode::<R>::CV_LEN;
    if out.len() != data.len() / KT_CHUNK_LEN * cv_len {
        return Err(Error::InvalidParameter(
            "KT hazmat: the output must hold one chaining value (32 bytes for KT128, 64 for KT256) per chunk",
        ));
    }
    chaining_values_on(
        engine,
        &KtFinalNode::<R>::LEAF_SPEC,
        KT_CHUNK_LEN,
        cv_len,
        data,
        out,
    );
    Ok(())
}

/// [`kt_leaf_chaining_values`] for KT128 (32-byte values).
pub fn kt128_leaf_chaining_values(
    first_chunk_index: u64,
    data: &[u8],
    out: &mut [u8],
) -> Result<()> {
    kt_leaf_chaining_values::<168>(first_chunk_index, data, out)
}

/// [`kt_leaf_chaining_values`] for KT256 (64-byte values).
pub fn kt256_leaf_chaining_values(
    first_chunk_index: u64,
    data: &[u8],
    out: &mut [u8],
) -> Result<()> {
    kt_leaf_chaining_values::<136>(first_chunk_index, data, out)
}

/// The final node of KT for a message of known length, fed its pieces
/// ([`KtPlan`]): the head, the whole leaves' chaining values in chunk
/// order (any number of calls, each absorbed at once: nothing is held),
/// then the tail, which it hashes with C || length_encode(|C|).
#[derive(Clone)]
pub struct KtFinal<const R: usize> {
    plan: KtPlan,
    node: KtFinalNode<R>,
    /// C || length_encode(|C|).
    suffix: Vec<u8>,
    /// Whole-leaf chaining values absorbed so far.
    absorbed: u64,
}

/// [`KtFinal`] of KT128.
pub type Kt128Final = KtFinal<168>;
/// [`KtFinal`] of KT256.
pub type Kt256Final = KtFinal<136>;

impl<const R: usize> KtFinal<R> {
    /// Chaining value length: 32 bytes (KT128) or 64 (KT256).
    pub const CV_LEN: usize = KtFinalNode::<R>::CV_LEN;

    /// The final node of KT for a message of `message_len` bytes and
    /// customization `customization`.
    pub fn new(message_len: u64, customization: &[u8]) -> Self {
        let mut suffix = customization.to_vec();
        suffix.extend_from_slice(&length_encode(customization.len() as u64));
        KtFinal {
            plan: KtPlan::new(message_len),
            node: KtFinalNode::new(),
            suffix,
            absorbed: 0,
        }
    }

    /// How this message splits.
    pub fn plan(&self) -> &KtPlan {
        &self.plan
    }

    /// Whole-leaf chaining values absorbed so far.
    pub fn leaves_absorbed(&self) -> u64 {
        self.absorbed
    }

    /// Absorb bytes of the head (M's first [`KtPlan::head_len`] bytes), in
    /// one call or several.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`], nothing absorbed, when the bytes would
    /// run past the head.
    pub fn absorb_head(&mut self, data: &[u8]) -> Result<()> {
        if self.node.first_chunk_len() + data.len() > self.plan.head_len {
            return Err(Error::InvalidParameter(
                "KT hazmat: more head bytes than the plan's head_len (min(message length, 8192))",
            ));
        }
        self.node.absorb_first_chunk(data);
        Ok(())
    }

    /// Absorb the chaining values of the next whole leaves, in chunk order
    /// (from [`kt_leaf_chaining_values`]).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`], nothing absorbed, when the head is not
    /// complete yet, when `cvs` is not whole values, or when it holds more
    /// values than the plan has whole leaves.
    pub fn absorb_chaining_values(&mut self, cvs: &[u8]) -> Result<()> {
        if !cvs.len().is_multiple_of(Self::CV_LEN) {
            return Err(Error::InvalidParameter(
                "KT hazmat: chaining values must be whole 32-byte (KT128) or 64-byte (KT256) values",
            ));
        }
        if cvs.is_empty() {
            return Ok(());
        }
        if self.node.first_chunk_len() != self.plan.head_len {
            return Err(Error::InvalidParameter(
                "KT hazmat: absorb the whole head before the leaves' chaining values",
            ));
        }
        let n = (cvs.len() / Self::CV_LEN) as u64;
        let room = self.plan.leaves.end - self.plan.leaves.start - self.absorbed;
        if n > room {
            return Err(Error::InvalidParameter(
                "KT hazmat: more chaining values than the message has whole leaves",
            ));
        }
        self.node.absorb_chaining_values(cvs)?;
        self.absorbed += n;
        Ok(())
    }

    /// Check the pieces before the tail, and hash the tail with the
    /// customization: the node is then ready to pad.
    fn absorb_tail(&mut self, tail: &[u8]) -> Result<()> {
        if self.node.first_chunk_len() != self.plan.head_len {
            return Err(Error::InvalidParameter(
                "KT hazmat: the head is incomplete (absorb_head needs min(message length, 8192) bytes)",
            ));
        }
        if self.absorbed != self.plan.leaves.end - self.plan.leaves.start {
            return Err(Error::InvalidParameter(
                "KT hazmat: fewer chaining values than the message has whole leaves",
            ));
        }
        if tail.len() != self.plan.tail_len {
            return Err(Error::InvalidParameter(
                "KT hazmat: the tail must be the message's bytes from the plan's tail_offset to its end",
            ));
        }
        // S from the tail on: tail || C || length_encode(|C|). S_0 takes
        // what it still lacks (only when |M| < 8192); the rest starts on a
        // chunk boundary and is leaves.
        let mut rest = Vec::with_capacity(tail.len() + self.suffix.len());
        rest.extend_from_slice(tail);
        rest.extend_from_slice(&self.suffix);
        let taken = self.node.absorb_first_chunk(&rest);
        let leaves = &rest[taken..];
        if !leaves.is_empty() {
            let mut cvs = vec![0u8; leaves.len().div_ceil(KT_CHUNK_LEN) * Self::CV_LEN];
            let spec = KtFinalNode::<R>::LEAF_SPEC;
            chaining_values(&spec, KT_CHUNK_LEN, Self::CV_LEN, leaves, &mut cvs);
            self.node.absorb_chaining_values(&cvs)?;
        }
        Ok(())
    }

    /// Hash the tail (M[[`KtPlan::tail_offset`]..]) and the customization,
    /// and finish: the KT output, to read in any amount.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`] when the head is incomplete, when fewer
    /// whole-leaf values than planned were absorbed, or when `tail` is not
    /// [`KtPlan::tail_len`] bytes.
    pub fn finalize_xof(mut self, tail: &[u8]) -> Result<XofReader> {
        self.absorb_tail(tail)?;
        Ok(self.node.finalize_xof())
    }

    /// [`finalize_xof`](Self::finalize_xof) into `out` (any length).
    pub fn finalize_into(mut self, tail: &[u8], out: &mut [u8]) -> Result<()> {
        self.absorb_tail(tail)?;
        self.node.finalize_into(out);
        Ok(())
    }
}

// ---------------------------------------------------------------- ParallelHash

/// The chaining values of a run of ParallelHash blocks (R = 168:
/// ParallelHash128, 136: ParallelHash256) of a message X of `message_len`
/// bytes: `data` is X from byte `first_block_index · block_size`, and ends
/// on a block boundary or at the end of X (only the message's last block
/// may be short). `out` receives one [`ParallelHashFinal::CV_LEN`]-byte
/// value per block, in order.
///
/// # Errors
///
/// [`Error::InvalidParameter`], with `out` untouched, when `block_size` is
/// 0, when the run does not lie inside the message, when it ends inside a
/// block that is not the message's last, or when `out` is not one value
/// per block.
pub fn parallelhash_block_chaining_values<const R: usize>(
    block_size: usize,
    first_block_index: u64,
    message_len: u64,
    data: &[u8],
    out: &mut [u8],
) -> Result<()> {
    engine::on_cores(|e| {
        parallelhash_block_chaining_values_on::<R>(
            e,
            block_size,
            first_block_index,
            message_len,
            data,
            out,
        )
    })
}

/// [`parallelhash_block_chaining_values`] on `engine` (see
/// [`kt_leaf_chaining_values_on`]).
///
/// # Errors
///
/// As [`parallelhash_block_chaining_values`].
pub fn parallelhash_block_chaining_values_on<const R: usize>(
    engine: &dyn Engine,
    block_size: usize,
    first_block_index: u64,
    message_len: u64,
    data: &[u8],
    out: &mut [u8],
) -> Result<()> {
    if block_size == 0 {
        return Err(Error::InvalidParameter(
            "ParallelHash block size must be at least 1 byte",
        ));
    }
    let start = first_block_index.checked_mul(block_size as u64);
    let end = start.and_then(|s| s.checked_add(data.len() as u64));
    let (Some(start), Some(end)) = (start, end) else {
        return Err(Error::InvalidParameter(
            "ParallelHash hazmat: block index too large",
        ));
    };
    if start > message_len || end > message_len {
        return Err(Error::InvalidParameter(
            "ParallelHash hazmat: the run of blocks lies past the end of the message",
        ));
    }
    if end != message_len && !end.is_multiple_of(block_size as u64) {
        return Err(Error::InvalidParameter(
            "ParallelHash hazmat: a run of blocks must end on a block boundary or at the end of the message (only the last block may be short)",
        ));
    }
    let cv_len = ParallelHashOuter::<R>::CV_LEN;
    if out.len() != data.len().div_ceil(block_size) * cv_len {
        return Err(Error::InvalidParameter(
            "ParallelHash hazmat: the output must hold one chaining value (32 bytes for ParallelHash128, 64 for ParallelHash256) per block",
        ));
    }
    let spec = ParallelHashOuter::<R>::BLOCK_SPEC;
    chaining_values_on(engine, &spec, block_size, cv_len, data, out);
    Ok(())
}

/// [`parallelhash_block_chaining_values`] for ParallelHash128 / XOF128.
pub fn parallelhash128_block_chaining_values(
    block_size: usize,
    first_block_index: u64,
    message_len: u64,
    data: &[u8],
    out: &mut [u8],
) -> Result<()> {
    parallelhash_block_chaining_values::<168>(block_size, first_block_index, message_len, data, out)
}

/// [`parallelhash_block_chaining_values`] for ParallelHash256 / XOF256.
pub fn parallelhash256_block_chaining_values(
    block_size: usize,
    first_block_index: u64,
    message_len: u64,
    data: &[u8],
    out: &mut [u8],
) -> Result<()> {
    parallelhash_block_chaining_values::<136>(block_size, first_block_index, message_len, data, out)
}

/// The outer node of ParallelHash for a message of known length: absorbs
/// every block's chaining value in block order (streamed), then binds
/// n = ⌈|X| / B⌉ and the output length.
#[derive(Clone)]
pub struct ParallelHashFinal<const R: usize> {
    outer: ParallelHashOuter<R>,
    blocks: u64,
}

/// [`ParallelHashFinal`] of ParallelHash128 / ParallelHashXOF128.
pub type ParallelHash128Final = ParallelHashFinal<168>;
/// [`ParallelHashFinal`] of ParallelHash256 / ParallelHashXOF256.
pub type ParallelHash256Final = ParallelHashFinal<136>;

impl<const R: usize> ParallelHashFinal<R> {
    /// Chaining value length: 32 bytes (128) or 64 (256).
    pub const CV_LEN: usize = ParallelHashOuter::<R>::CV_LEN;

    /// The outer node for block size `block_size` (B), customization S and
    /// a message of `message_len` bytes.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`] when `block_size` is 0.
    pub fn new(block_size: usize, customization: &[u8], message_len: u64) -> Result<Self> {
        let outer = ParallelHashOuter::new(block_size, customization)?;
        Ok(ParallelHashFinal {
            outer,
            blocks: message_len.div_ceil(block_size as u64),
        })
    }

    /// The number of blocks n (chaining values the node expects).
    pub fn block_count(&self) -> u64 {
        self.blocks
    }

    /// Chaining values absorbed so far.
    pub fn blocks_absorbed(&self) -> u64 {
        self.outer.block_count()
    }

    /// Absorb the chaining values of the next blocks, in block order.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`], nothing absorbed, when `cvs` is not
    /// whole values or holds more than the message has blocks.
    pub fn absorb_chaining_values(&mut self, cvs: &[u8]) -> Result<()> {
        let n = (cvs.len() / Self::CV_LEN) as u64;
        if cvs.len().is_multiple_of(Self::CV_LEN) && n > self.blocks - self.outer.block_count() {
            return Err(Error::InvalidParameter(
                "ParallelHash hazmat: more chaining values than the message has blocks",
            ));
        }
        self.outer.absorb_chaining_values(cvs)
    }

    fn check_complete(&self) -> Result<()> {
        if self.outer.block_count() != self.blocks {
            return Err(Error::InvalidParameter(
                "ParallelHash hazmat: fewer chaining values than the message has blocks",
            ));
        }
        Ok(())
    }

    /// ParallelHash: `out.len()` bytes, that length bound in (L = 8·len).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`] when not every block's value was absorbed.
    pub fn finalize_into(self, out: &mut [u8]) -> Result<()> {
        self.check_complete()?;
        self.outer.finalize_into(out);
        Ok(())
    }

    /// ParallelHashXOF (L = 0): read any amount.
    ///
    /// # Errors
    ///
    /// As [`finalize_into`](Self::finalize_into).
    pub fn finalize_xof(self) -> Result<XofReader> {
        self.check_complete()?;
        Ok(self.outer.finalize_xof())
    }
}
