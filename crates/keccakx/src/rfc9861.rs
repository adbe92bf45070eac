//! RFC 9861: TurboSHAKE128/256 and KangarooTwelve (KT128, KT256).

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::chunked::ChunkHasher;
use crate::engine::{BlockJob, Engine, EngineError, EngineRef, LaneSpec, ResidentInput};
use crate::error::{Error, Result};
use crate::permutation::{state_from_bytes, state_to_bytes, State};
use crate::sponge::{ByteSponge, XofReader};

/// TurboSHAKE's rounds: Keccak-p[1600, 12].
const TURBO_ROUNDS: usize = 12;
/// KangarooTwelve chunk size.
const CHUNK: usize = 8192;

/// TurboSHAKE with rate R bytes and a domain separation byte 0x01..=0x7F.
#[derive(Clone)]
pub struct TurboShake<const R: usize> {
    sponge: ByteSponge,
    domain: u8,
}

/// TurboSHAKE128 (RFC 9861 §2).
pub type TurboShake128 = TurboShake<168>;
/// TurboSHAKE256 (RFC 9861 §2).
pub type TurboShake256 = TurboShake<136>;

impl<const R: usize> TurboShake<R> {
    /// The sponge, for portable states.
    pub(crate) fn sponge_mut(&mut self) -> &mut ByteSponge {
        &mut self.sponge
    }

    /// The default domain byte when none is chosen (RFC 9861 §2.2).
    pub const DEFAULT_DOMAIN: u8 = 0x1F;
    /// Rounds of Keccak-p\[1600\].
    pub const ROUNDS: usize = TURBO_ROUNDS;

    pub fn new(domain: u8) -> Result<Self> {
        if !(0x01..=0x7F).contains(&domain) {
            return Err(Error::InvalidParameter(
                "TurboSHAKE domain byte must be in 0x01..=0x7F",
            ));
        }
        Ok(TurboShake {
            sponge: ByteSponge::new(R, TURBO_ROUNDS),
            domain,
        })
    }
    pub fn update(&mut self, data: &[u8]) {
        self.sponge.absorb(data);
    }
    pub fn finalize_xof(mut self) -> XofReader {
        self.sponge.pad_delimited(self.domain);
        XofReader::from_byte_sponge(self.sponge)
    }
    pub fn finalize_into(self, out: &mut [u8]) {
        self.finalize_xof().read(out)
    }
    pub fn finalize_vec(self, len: usize) -> Vec<u8> {
        self.finalize_xof().read_vec(len)
    }
}

/// length_encode(x) of RFC 9861 §3.3: x big-endian without leading zeros,
/// then the number of those bytes (length_encode(0) = 0x00).
pub fn length_encode(x: u64) -> Vec<u8> {
    let (buf, len) = length_encoded(x);
    buf[..len].to_vec()
}

/// [`length_encode`] without a heap allocation: the bytes and how many of
/// them there are (small inputs finish without calling the allocator).
fn length_encoded(x: u64) -> ([u8; 9], usize) {
    let n = 8 - (x.leading_zeros() / 8) as usize;
    let mut buf = [0u8; 9];
    buf[..n].copy_from_slice(&x.to_be_bytes()[8 - n..]);
    buf[n] = n as u8;
    (buf, n + 1)
}

/// The final node of KangarooTwelve (RFC 9861 §3.2) on TurboSHAKE with rate
/// R bytes: the one place where KT's tree framing is written.
///
/// S = M || C || length_encode(|C|) is cut into 8192-byte chunks S_0, S_1,
/// ..., S_n (the last may be short). The final node's output is
///
/// - TurboSHAKE(S, 0x07) when |S| ≤ 8192 (no leaves: the single-node case);
/// - otherwise TurboSHAKE(S_0 || 0x03 || 0x00^7 || CV_1 || ... || CV_n ||
///   length_encode(n) || 0xFF 0xFF, 0x06), where the chaining value
///   CV_i = TurboSHAKE(S_i, 0x0B) is [`CV_LEN`](Self::CV_LEN) bytes long
///   ([`LEAF_SPEC`](Self::LEAF_SPEC) hashes a leaf).
///
/// Feed it the bytes of S_0 with [`absorb_first_chunk`](Self::absorb_first_chunk),
/// then the leaves' chaining values in leaf order with
/// [`absorb_chaining_values`](Self::absorb_chaining_values) (each any number
/// of calls), then finalize. The node counts the chaining values itself, so
/// length_encode(n) always matches what was absorbed. With no chaining
/// values it finishes as the single-node case, S_0 being all of S.
///
/// [`Kt`] cuts its input this way and hashes the leaves on the CPU engine;
/// callers that compute leaves elsewhere (a GPU) use this type directly.
///
/// ```
/// use keccakx::rfc9861::{Kt128, Kt128FinalNode};
///
/// let s: Vec<u8> = (0..20_000u32).map(|i| i as u8).collect();
/// // KT128 with an empty customization: S = M || length_encode(0) = M || 0x00.
/// let mut s_full = s.clone();
/// s_full.push(0x00);
///
/// let mut node = Kt128FinalNode::new();
/// let taken = node.absorb_first_chunk(&s_full);
/// assert_eq!(taken, Kt128FinalNode::CHUNK_LEN);
/// for leaf in s_full[taken..].chunks(Kt128FinalNode::CHUNK_LEN) {
///     let mut cv = [0u8; Kt128FinalNode::CV_LEN];
///     Kt128FinalNode::LEAF_SPEC.hash_one(leaf, &mut cv);
///     node.absorb_chaining_values(&cv).unwrap();
/// }
/// assert_eq!(node.leaf_count(), 2);
///
/// let mut kt = Kt128::new(b"");
/// kt.update(&s);
/// assert_eq!(node.finalize_vec(32), kt.finalize_vec(32));
/// ```
#[derive(Clone)]
pub struct KtFinalNode<const R: usize> {
    sponge: ByteSponge,
    /// Bytes of S_0 absorbed so far (≤ CHUNK_LEN).
    first_len: usize,
    /// Chaining values absorbed so far (n).
    leaves: u64,
}

/// The final node of KT128 (see [`KtFinalNode`]).
pub type Kt128FinalNode = KtFinalNode<168>;
/// The final node of KT256 (see [`KtFinalNode`]).
pub type Kt256FinalNode = KtFinalNode<136>;

impl<const R: usize> Default for KtFinalNode<R> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const R: usize> KtFinalNode<R> {
    /// Chunk size: S_0 and every leaf S_i (i ≥ 1) but the last are this long.
    pub const CHUNK_LEN: usize = CHUNK;
    /// Chaining value length: 32 bytes for KT128, 64 for KT256.
    pub const CV_LEN: usize = if R == 168 { 32 } else { 64 };
    /// The leaf sponge: TurboSHAKE (rate R, 12 rounds) with domain byte 0x0B;
    /// a chaining value is its first [`CV_LEN`](Self::CV_LEN) output bytes.
    pub const LEAF_SPEC: LaneSpec = LaneSpec::fixed(R, TURBO_ROUNDS, 0x0B);

    /// A final node with nothing absorbed yet.
    pub fn new() -> Self {
        KtFinalNode {
            sponge: ByteSponge::new(R, TURBO_ROUNDS),
            first_len: 0,
            leaves: 0,
        }
    }

    /// Absorb bytes of the first chunk S_0, up to [`CHUNK_LEN`](Self::CHUNK_LEN)
    /// bytes over all calls. Returns how many bytes of `data` were taken; the
    /// rest belongs to the leaves. Takes nothing once S_0 is full.
    pub fn absorb_first_chunk(&mut self, data: &[u8]) -> usize {
        let take = (CHUNK - self.first_len).min(data.len());
        self.sponge.absorb(&data[..take]);
        self.first_len += take;
        take
    }

    /// Bytes of S_0 absorbed so far.
    pub fn first_chunk_len(&self) -> usize {
        self.first_len
    }

    /// How much of a first update of `len` bytes (more than one chunk, S_0
    /// not started) goes through [`absorb_first`](Self::absorb_first): S_0
    /// alone, or S_0 and the whole leaves after it that fill the one group
    /// of the engine's SIMD lanes that is not full (so the leaves after
    /// them fill whole groups; 8 chunks a group on AVX-512).
    fn first_with_lanes(engine: &dyn Engine, len: usize) -> usize {
        let p = engine.parallelism();
        let all = len / CHUNK;
        if all < 2 || !p.is_available() {
            return CHUNK;
        }
        ((all - 1) % p.states() + 1) * CHUNK
    }

    /// Absorb bytes of S_0 as [`absorb_first_chunk`](Self::absorb_first_chunk)
    /// does, or, for `data` of S_0 and whole leaves (from a fresh node, see
    /// [`first_with_lanes`](Self::first_with_lanes)), S_0 and those leaves
    /// side by side in SIMD lanes: they absorb their whole rate blocks
    /// together, then the leaves their last partial block and padding, and
    /// their chaining values follow S_0. Before, S_0 ran on one state ahead
    /// of the leaves: half the time at 16 KiB (bench/NOTES.md, "KT's first
    /// chunk in the lanes").
    fn absorb_first(&mut self, engine: &dyn Engine, data: &[u8]) {
        let chunks = data.len() / CHUNK;
        if self.first_len != 0 || chunks < 2 {
            self.absorb_first_chunk(data);
            return;
        }
        debug_assert!(data.len() == chunks * CHUNK && self.leaves == 0);
        let whole = CHUNK / R * R;
        let mut states = vec![0u8; chunks * 200];
        let job = BlockJob {
            data,
            first: 0,
            leaves: chunks,
            block: whole,
            stride: CHUNK,
            rate: R,
            rounds: 1,
            nr: TURBO_ROUNDS,
        };
        if chunks > engine.parallelism().states() || !engine.absorb_blocks(&mut states, &job) {
            // The engine changed since `first_with_lanes`: one at a time.
            self.absorb_first_chunk(&data[..CHUNK]);
            let mut cv = [0u8; 64];
            for leaf in data[CHUNK..].chunks(CHUNK) {
                Self::LEAF_SPEC.hash_one(leaf, &mut cv[..Self::CV_LEN]);
                self.push_cvs(&cv[..Self::CV_LEN]);
            }
            return;
        }
        // The leaves: their last partial block and padding, all at once.
        // Both fit in that block: CHUNK mod R is 128 (KT128) or 32 (KT256).
        let tail = CHUNK - whole;
        let mut leaf_states: Vec<State> = (1..chunks)
            .map(|j| {
                let st = &mut states[j * 200..(j + 1) * 200];
                let last = &data[j * CHUNK + whole..(j + 1) * CHUNK];
                st[..tail].iter_mut().zip(last).for_each(|(s, d)| *s ^= d);
                st[tail] ^= Self::LEAF_SPEC.delimited_suffix;
                st[R - 1] ^= 0x80;
                state_from_bytes(st)
            })
            .collect();
        engine.permute_states(&mut leaf_states, TURBO_ROUNDS);
        let n = Self::CV_LEN;
        let mut cvs = vec![0u8; leaf_states.len() * n];
        for (st, cv) in leaf_states.iter().zip(cvs.chunks_exact_mut(n)) {
            state_to_bytes(st, cv);
        }
        // S_0's whole blocks are in; its last partial block and the
        // chaining values follow as usual.
        self.sponge =
            ByteSponge::from_block_aligned(state_from_bytes(&states[..200]), R, TURBO_ROUNDS);
        self.sponge.absorb(&data[whole..CHUNK]);
        self.first_len = CHUNK;
        self.push_cvs(&cvs);
    }

    /// Absorb the chaining values of the next leaves, in leaf order:
    /// `cvs` holds zero or more whole [`CV_LEN`](Self::CV_LEN)-byte values.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`], with nothing absorbed, when `cvs.len()`
    /// is not a multiple of `CV_LEN` or when S_0 is not yet full (leaves
    /// exist only after a full first chunk).
    pub fn absorb_chaining_values(&mut self, cvs: &[u8]) -> Result<()> {
        if !cvs.len().is_multiple_of(Self::CV_LEN) {
            return Err(Error::InvalidParameter(
                "KT final node: chaining values must be whole 32-byte (KT128) or 64-byte (KT256) values",
            ));
        }
        if cvs.is_empty() {
            return Ok(());
        }
        if self.first_len != CHUNK {
            return Err(Error::InvalidParameter(
                "KT final node: chaining values need a full 8192-byte first chunk before them",
            ));
        }
        self.push_cvs(cvs);
        Ok(())
    }

    /// [`absorb_chaining_values`](Self::absorb_chaining_values) for callers
    /// that guarantee its conditions (whole values, S_0 full).
    fn push_cvs(&mut self, cvs: &[u8]) {
        debug_assert_eq!(cvs.len() % Self::CV_LEN, 0);
        debug_assert!(cvs.is_empty() || self.first_len == CHUNK);
        if cvs.is_empty() {
            return;
        }
        if self.leaves == 0 {
            // S_0 || 110^62: the final node of a tree with leaves.
            self.sponge.absorb(&[0x03, 0, 0, 0, 0, 0, 0, 0]);
        }
        self.sponge.absorb(cvs);
        self.leaves += (cvs.len() / Self::CV_LEN) as u64;
    }

    /// Number of chaining values (leaves, n) absorbed so far.
    pub fn leaf_count(&self) -> u64 {
        self.leaves
    }

    /// Portable states: the sponge's lanes and position, the bytes of S_0
    /// and the leaves absorbed.
    pub(crate) fn raw(&self) -> (State, usize, usize, u64) {
        let (state, _, _, pos) = self.sponge.raw();
        (state, pos, self.first_len, self.leaves)
    }

    /// Set what [`raw`](Self::raw) gave; false, nothing changed, when it
    /// cannot be a state of this node: the position must follow from
    /// what was absorbed (S_0's bytes, then 110^62 and the CVs).
    pub(crate) fn set_raw(
        &mut self,
        state: State,
        pos: usize,
        first_len: usize,
        leaves: u64,
    ) -> bool {
        let absorbed = if leaves == 0 {
            Some(first_len as u64)
        } else {
            leaves
                .checked_mul(Self::CV_LEN as u64)
                .and_then(|c| c.checked_add(CHUNK as u64 + 8))
        };
        let fits = first_len <= CHUNK
            && (leaves == 0 || first_len == CHUNK)
            && absorbed.is_some_and(|a| a % R as u64 == pos as u64);
        if fits {
            self.sponge.set_raw(state, pos);
            self.first_len = first_len;
            self.leaves = leaves;
        }
        fits
    }

    /// The node's closing bytes and padding, in place: the sponge is then
    /// ready to squeeze.
    fn pad_final(&mut self) {
        if self.leaves == 0 {
            self.sponge.pad_delimited(0x07);
        } else {
            let (buf, len) = length_encoded(self.leaves);
            self.sponge.absorb(&buf[..len]);
            self.sponge.absorb(&[0xFF, 0xFF]);
            self.sponge.pad_delimited(0x06);
        }
    }

    /// The final node of KT over M = `input` (living in an engine's
    /// memory, a GPU buffer) and customization C, ready to finalize: the
    /// leaves lying wholly inside M are hashed where M lies, their chaining
    /// values absorbed group by group as the engine delivers them; S_0 and
    /// the leaves that reach past M (into C || length_encode(|C|)) are read
    /// back and hashed here.
    ///
    /// # Errors
    ///
    /// The engine's error, or one naming the engine when it delivered
    /// partial or too few or too many chaining values.
    pub fn from_resident(
        customization: &[u8],
        input: &dyn ResidentInput,
    ) -> core::result::Result<Self, EngineError> {
        let chunk = CHUNK as u64;
        let m = input.len();
        let (lenc, lenc_len) = length_encoded(customization.len() as u64);
        let suffix = [customization, &lenc[..lenc_len]];
        let total = m + customization.len() as u64 + lenc_len as u64;
        let bad = |message: String| EngineError {
            engine: input.engine(),
            message,
        };
        // Bytes [pos, pos + buf.len()) of S = M || C || length_encode(|C|).
        let read_s = |pos: u64, buf: &mut [u8]| -> core::result::Result<(), EngineError> {
            let from_m = (m.saturating_sub(pos) as usize).min(buf.len());
            if from_m > 0 {
                input.read(pos, &mut buf[..from_m])?;
            }
            let mut at = from_m;
            if at == buf.len() {
                return Ok(());
            }
            // Past M: the offset into C || length_encode(|C|).
            let mut skip = (pos + from_m as u64 - m) as usize;
            for part in suffix {
                if at == buf.len() {
                    break;
                }
                if skip >= part.len() {
                    skip -= part.len();
                    continue;
                }
                let take = (part.len() - skip).min(buf.len() - at);
                buf[at..at + take].copy_from_slice(&part[skip..skip + take]);
                at += take;
                skip = 0;
            }
            Ok(())
        };
        let mut node = Self::new();
        let mut buf = vec![0u8; CHUNK];
        let first = total.min(chunk) as usize;
        read_s(0, &mut buf[..first])?;
        node.absorb_first_chunk(&buf[..first]);
        // Leaves j >= 1 lying wholly inside M.
        let resident = if m >= 2 * chunk { m / chunk - 1 } else { 0 };
        if resident > 0 {
            input.hash_leaves(
                &Self::LEAF_SPEC,
                chunk,
                CHUNK,
                resident,
                Self::CV_LEN,
                &mut |cvs| {
                    if node.leaves + (cvs.len() / Self::CV_LEN) as u64 > resident {
                        return Err(bad(format!(
                            "KT: more than the {resident} chaining values asked for"
                        )));
                    }
                    node.absorb_chaining_values(cvs)
                        .map_err(|_| bad("KT: a partial chaining value".into()))
                },
            )?;
        }
        if node.leaves != resident {
            return Err(bad(format!(
                "KT: {} chaining values delivered, {resident} expected",
                node.leaves
            )));
        }
        // The leaves that reach past M.
        let mut cv = [0u8; 64];
        for j in resident + 1..=total.saturating_sub(chunk).div_ceil(chunk) {
            let start = j * chunk;
            let len = (total - start).min(chunk) as usize;
            read_s(start, &mut buf[..len])?;
            Self::LEAF_SPEC.hash_one(&buf[..len], &mut cv[..Self::CV_LEN]);
            node.push_cvs(&cv[..Self::CV_LEN]);
        }
        Ok(node)
    }

    /// Finish the node: the KT output, to read in any amount.
    pub fn finalize_xof(mut self) -> XofReader {
        self.pad_final();
        XofReader::from_byte_sponge(self.sponge)
    }
    /// Finish the node into `out` (any length). Squeezes in place, without
    /// moving the state into an [`XofReader`]: for 64-byte messages those
    /// moves were a sixth of a KT128 call (bench/NOTES.md, "Small KT").
    pub fn finalize_into(mut self, out: &mut [u8]) {
        self.close_into(out)
    }
    /// [`finalize_into`](Self::finalize_into) by reference (the node is
    /// finished afterwards): no move of the state at all.
    fn close_into(&mut self, out: &mut [u8]) {
        self.pad_final();
        self.sponge.squeeze(out)
    }
    /// Finish the node into a new vector of `len` bytes.
    pub fn finalize_vec(self, len: usize) -> Vec<u8> {
        self.finalize_xof().read_vec(len)
    }
}

/// KangarooTwelve on TurboSHAKE with rate R bytes: KT128 and KT256.
///
/// The first 8192 bytes of S = M || C || length_encode(|C|) go to the final
/// node ([`KtFinalNode`]); later 8192-byte chunks are leaves hashed on the
/// engine (SIMD lanes, threads) and their chaining values absorbed in order.
#[derive(Clone)]
pub struct Kt<const R: usize> {
    final_node: KtFinalNode<R>,
    leaves: Option<ChunkHasher>,
    customization: Vec<u8>,
    engine: EngineRef,
}

/// KT128 (RFC 9861 §3), the original KangarooTwelve.
pub type Kt128 = Kt<168>;
/// KT256 (RFC 9861 §3).
pub type Kt256 = Kt<136>;

impl<const R: usize> Kt<R> {
    pub fn new(customization: &[u8]) -> Self {
        Self::with_engine(customization, EngineRef::Current)
    }

    /// KT whose leaves run on `engine` (a GPU, a chosen CPU engine); the
    /// final node stays on this thread.
    pub fn with_engine(customization: &[u8], engine: EngineRef) -> Self {
        Kt {
            final_node: KtFinalNode::new(),
            leaves: None,
            customization: customization.to_vec(),
            engine,
        }
    }

    pub fn update(&mut self, data: &[u8]) {
        // Bytes that stay in S_0 need no engine (small messages: no look-up).
        if self.leaves.is_none() && data.len() <= CHUNK - self.final_node.first_chunk_len() {
            self.final_node.absorb_first_chunk(data);
            return;
        }
        let engine = self.engine.clone();
        engine.with(|e| self.update_on(e, data))
    }

    fn update_on(&mut self, engine: &dyn Engine, mut data: &[u8]) {
        // Bytes of S_0 still to absorb once leaves follow them, and the
        // leaves that share SIMD lanes with it (`KtFinalNode::absorb_first`):
        // absorbed by the sink's first call, which runs while other threads
        // start on the other leaves (chunked.rs), instead of before them.
        let mut first: &[u8] = &[];
        if self.leaves.is_none() {
            let room = CHUNK - self.final_node.first_chunk_len();
            if data.len() <= room {
                self.final_node.absorb_first_chunk(data);
                return;
            }
            // More than one chunk: the rest of S goes to the leaves.
            let take = if room == CHUNK {
                KtFinalNode::<R>::first_with_lanes(engine, data.len())
            } else {
                room
            };
            (first, data) = data.split_at(take);
            self.leaves = Some(ChunkHasher::with_engine(
                KtFinalNode::<R>::LEAF_SPEC,
                CHUNK,
                KtFinalNode::<R>::CV_LEN,
                self.engine.clone(),
            ));
        }
        let final_node = &mut self.final_node;
        if let Some(leaves) = &mut self.leaves {
            leaves.update(data, &mut |cvs| {
                if !first.is_empty() {
                    final_node.absorb_first(engine, core::mem::take(&mut first));
                }
                final_node.push_cvs(cvs)
            });
        }
        // No engine call (the leaves were only buffered): S_0 now.
        if !first.is_empty() {
            self.final_node.absorb_first(engine, first);
        }
    }

    /// Portable states: the final node, and the leaves' hasher (made
    /// when asked for and missing).
    pub(crate) fn parts_mut(
        &mut self,
        make: bool,
    ) -> (&mut KtFinalNode<R>, Option<&mut ChunkHasher>) {
        if make && self.leaves.is_none() {
            self.leaves = Some(ChunkHasher::with_engine(
                KtFinalNode::<R>::LEAF_SPEC,
                CHUNK,
                KtFinalNode::<R>::CV_LEN,
                self.engine.clone(),
            ));
        }
        (&mut self.final_node, self.leaves.as_mut())
    }

    /// Absorb C || length_encode(|C|) and the last leaves: everything but
    /// the final node's own closing.
    fn finish_input(&mut self) {
        let c = core::mem::take(&mut self.customization);
        self.update(&c);
        let (buf, len) = length_encoded(c.len() as u64);
        self.update(&buf[..len]);
        if let Some(leaves) = &mut self.leaves {
            let final_node = &mut self.final_node;
            // At least one chaining value comes out: the leaves exist only
            // once bytes past S_0 arrived.
            leaves.finish(&mut |cvs| final_node.push_cvs(cvs));
        }
    }

    pub fn finalize_xof(mut self) -> XofReader {
        self.finish_input();
        self.final_node.finalize_xof()
    }
    pub fn finalize_into(mut self, out: &mut [u8]) {
        self.finish_input();
        self.final_node.close_into(out)
    }
    pub fn finalize_vec(self, len: usize) -> Vec<u8> {
        self.finalize_xof().read_vec(len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn length_encode_examples() {
        // RFC 9861 §3.3 examples.
        assert_eq!(length_encode(0), [0x00]);
        assert_eq!(length_encode(12), [0x0C, 0x01]);
        assert_eq!(length_encode(65538), [0x01, 0x00, 0x02, 0x03]);
        assert_eq!(
            length_encode(u64::MAX),
            [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x08]
        );
    }

    fn pattern(n: usize) -> Vec<u8> {
        // RFC 9861's test pattern: 00 01 .. FA repeated.
        (0..n).map(|i| (i % 251) as u8).collect()
    }

    fn resident<const R: usize>(m: &[u8], c: &[u8], out: &mut [u8]) {
        let input = crate::engine::contract::HostInput::new(m);
        KtFinalNode::<R>::from_resident(c, &input)
            .unwrap()
            .finalize_into(out)
    }

    #[test]
    fn resident_kt_matches_kt_at_leaf_edges() {
        let c = CHUNK;
        let sizes = [
            0,
            1,
            c - 4,
            c - 1,
            c,
            c + 1,
            2 * c - 1,
            2 * c,
            2 * c + 1,
            3 * c + 77,
            9 * c,
        ];
        let customs: [&[u8]; 4] = [b"", b"C", &[0x5A; 300], &[7u8; 8190]];
        for &n in &sizes {
            let m = pattern(n);
            for cust in customs {
                for out_len in [32usize, 200] {
                    let mut want = vec![0u8; out_len];
                    let mut got = vec![0u8; out_len];
                    let mut h = Kt128::new(cust);
                    h.update(&m);
                    h.finalize_into(&mut want);
                    resident::<168>(&m, cust, &mut got);
                    assert_eq!(got, want, "KT128 |M|={n} |C|={}", cust.len());
                    let mut h = Kt256::new(cust);
                    h.update(&m);
                    h.finalize_into(&mut want);
                    resident::<136>(&m, cust, &mut got);
                    assert_eq!(got, want, "KT256 |M|={n} |C|={}", cust.len());
                }
            }
        }
    }

    #[test]
    fn resident_kt_rejects_what_an_engine_miscounts() {
        let m = pattern(5 * CHUNK + 3);
        for (extra, short, what) in [(1, 0, "more than"), (0, 32, "expected"), (0, 5, "partial")] {
            let input = crate::engine::contract::HostInput {
                data: &m,
                extra,
                short,
            };
            let e = Kt128FinalNode::from_resident(b"", &input).err().unwrap();
            assert_eq!(e.engine, "host-test");
            assert!(e.message.contains(what), "{e}");
        }
    }
}
