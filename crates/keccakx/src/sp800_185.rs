//! NIST SP 800-185: cSHAKE, KMAC, TupleHash, ParallelHash (and their XOFs).
//!
//! Each function is one generic core parameterised by the rate (168 bytes for
//! the 128-bit functions, 136 for the 256-bit ones); the public types are
//! thin names over it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::chunked::ChunkHasher;
use crate::engine::{EngineError, EngineRef, LaneSpec, ResidentInput};
use crate::error::{Error, Result};
use crate::sponge::{ByteSponge, XofReader};

/// An integer encoding from SP 800-185 §2.3.1 (at most 17 bytes here).
#[derive(Clone, Copy, Debug)]
pub struct Encoded {
    buf: [u8; 17],
    len: usize,
}

impl AsRef<[u8]> for Encoded {
    fn as_ref(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

fn be_bytes(x: u128) -> ([u8; 16], usize) {
    let b = x.to_be_bytes();
    let n = (16 - (x.leading_zeros() / 8) as usize).max(1);
    (b, n)
}

/// left_encode(x): the byte count, then x big-endian in that many bytes.
pub fn left_encode(x: u128) -> Encoded {
    let (b, n) = be_bytes(x);
    let mut buf = [0u8; 17];
    buf[0] = n as u8;
    buf[1..=n].copy_from_slice(&b[16 - n..]);
    Encoded { buf, len: n + 1 }
}

/// right_encode(x): x big-endian in the fewest bytes, then the byte count.
pub fn right_encode(x: u128) -> Encoded {
    let (b, n) = be_bytes(x);
    let mut buf = [0u8; 17];
    buf[..n].copy_from_slice(&b[16 - n..]);
    buf[n] = n as u8;
    Encoded { buf, len: n + 1 }
}

/// encode_string(S) = left_encode(bit length of S) || S.
pub fn encode_string(s: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(s.len() + 17);
    v.extend_from_slice(left_encode(bit_len(s.len())).as_ref());
    v.extend_from_slice(s);
    v
}

/// bytepad(X, w) = left_encode(w) || X, zero-padded to a multiple of w bytes.
pub fn bytepad(x: &[u8], w: usize) -> Vec<u8> {
    assert!(w > 0, "bytepad: w must be positive");
    let mut v = Vec::with_capacity(x.len() + w + 17);
    v.extend_from_slice(left_encode(w as u128).as_ref());
    v.extend_from_slice(x);
    while v.len() % w != 0 {
        v.push(0);
    }
    v
}

fn bit_len(bytes: usize) -> u128 {
    bytes as u128 * 8
}

/// Delimited suffixes: cSHAKE's 00 bits, and SHAKE's 1111 when N = S = "".
const CSHAKE_SUFFIX: u8 = 0x04;
const SHAKE_SUFFIX: u8 = 0x1F;

/// cSHAKE's sponge after absorbing bytepad(encode_string(N) || encode_string(S), rate).
#[derive(Clone)]
struct CShakeCore {
    sponge: ByteSponge,
    suffix: u8,
}

impl CShakeCore {
    fn new(rate: usize, name: &[u8], custom: &[u8]) -> Self {
        let mut sponge = ByteSponge::new(rate, 24);
        if name.is_empty() && custom.is_empty() {
            return CShakeCore {
                sponge,
                suffix: SHAKE_SUFFIX,
            };
        }
        sponge.absorb(left_encode(rate as u128).as_ref());
        absorb_encoded_string(&mut sponge, name);
        absorb_encoded_string(&mut sponge, custom);
        zero_pad_block(&mut sponge);
        CShakeCore {
            sponge,
            suffix: CSHAKE_SUFFIX,
        }
    }

    fn finalize_xof(mut self) -> XofReader {
        self.sponge.pad_delimited(self.suffix);
        XofReader::from_byte_sponge(self.sponge)
    }
}

fn absorb_encoded_string(s: &mut ByteSponge, x: &[u8]) {
    s.absorb(left_encode(bit_len(x.len())).as_ref());
    s.absorb(x);
}

/// Absorb zeros up to the next block boundary (the tail of bytepad).
fn zero_pad_block(s: &mut ByteSponge) {
    let pos = s.position();
    if pos != 0 {
        s.absorb(&[0u8; 200][..s.rate() - pos]);
    }
}

macro_rules! common_finalizers {
    () => {
        /// Output `out.len()` bytes, the length bound into the result (L = 8·len).
        pub fn finalize_into(self, out: &mut [u8]) {
            self.finish(bit_len(out.len())).read(out)
        }

        /// The XOF variant (L = 0): read any amount.
        pub fn finalize_xof(self) -> XofReader {
            self.finish(0)
        }

        /// `finalize_into` a new vector of `len` bytes.
        pub fn finalize_vec(self, len: usize) -> Vec<u8> {
            let mut v = alloc::vec![0u8; len];
            self.finalize_into(&mut v);
            v
        }
    };
}

macro_rules! pair {
    ($gen:ident, $n128:ident, $n256:ident, $doc128:expr, $doc256:expr) => {
        #[doc = $doc128]
        pub type $n128 = $gen<168>;
        #[doc = $doc256]
        pub type $n256 = $gen<136>;
    };
}

// ---------------------------------------------------------------- cSHAKE

/// cSHAKE with function name N and customization S (rate R bytes).
#[derive(Clone)]
pub struct CShake<const R: usize> {
    core: CShakeCore,
}

impl<const R: usize> CShake<R> {
    /// The sponge, for portable states.
    pub(crate) fn sponge_mut(&mut self) -> &mut ByteSponge {
        &mut self.core.sponge
    }

    pub fn new(function_name: &[u8], customization: &[u8]) -> Self {
        CShake {
            core: CShakeCore::new(R, function_name, customization),
        }
    }
    pub fn update(&mut self, data: &[u8]) {
        self.core.sponge.absorb(data);
    }
    pub fn finalize_xof(self) -> XofReader {
        self.core.finalize_xof()
    }
    pub fn finalize_into(self, out: &mut [u8]) {
        self.core.finalize_xof().read(out)
    }
    pub fn finalize_vec(self, len: usize) -> Vec<u8> {
        self.core.finalize_xof().read_vec(len)
    }
}

pair!(
    CShake,
    CShake128,
    CShake256,
    "cSHAKE128 (SP 800-185 §3).",
    "cSHAKE256 (SP 800-185 §3)."
);

// ---------------------------------------------------------------- KMAC

/// KMAC with key K and customization S; `finalize_xof` gives KMACXOF.
#[derive(Clone)]
pub struct Kmac<const R: usize> {
    core: CShakeCore,
}

impl<const R: usize> Kmac<R> {
    /// The sponge, for portable states.
    pub(crate) fn sponge_mut(&mut self) -> &mut ByteSponge {
        &mut self.core.sponge
    }

    pub fn new(key: &[u8], customization: &[u8]) -> Self {
        let mut core = CShakeCore::new(R, b"KMAC", customization);
        core.sponge.absorb(left_encode(R as u128).as_ref());
        absorb_encoded_string(&mut core.sponge, key);
        zero_pad_block(&mut core.sponge);
        Kmac { core }
    }
    pub fn update(&mut self, data: &[u8]) {
        self.core.sponge.absorb(data);
    }
    pub(crate) fn finish(mut self, l_bits: u128) -> XofReader {
        self.core.sponge.absorb(right_encode(l_bits).as_ref());
        self.core.finalize_xof()
    }
    common_finalizers!();

    /// Compare the KMAC of the data so far with `tag` in constant time
    /// (the output length is `tag.len()`).
    pub fn verify(self, tag: &[u8]) -> bool {
        let mine = self.finalize_vec(tag.len());
        crate::ct_eq(&mine, tag)
    }
}

pair!(
    Kmac,
    Kmac128,
    Kmac256,
    "KMAC128 / KMACXOF128 (SP 800-185 §4).",
    "KMAC256 / KMACXOF256 (SP 800-185 §4)."
);

// ---------------------------------------------------------------- TupleHash

/// TupleHash over a sequence of byte strings; each [`push`](Self::push) is
/// one tuple element. `finalize_xof` gives TupleHashXOF.
#[derive(Clone)]
pub struct TupleHash<const R: usize> {
    core: CShakeCore,
}

impl<const R: usize> TupleHash<R> {
    /// The sponge, for portable states.
    pub(crate) fn sponge_mut(&mut self) -> &mut ByteSponge {
        &mut self.core.sponge
    }

    pub fn new(customization: &[u8]) -> Self {
        TupleHash {
            core: CShakeCore::new(R, b"TupleHash", customization),
        }
    }
    /// Append one element of the tuple (element boundaries matter).
    pub fn push(&mut self, element: &[u8]) {
        absorb_encoded_string(&mut self.core.sponge, element);
    }
    pub(crate) fn finish(mut self, l_bits: u128) -> XofReader {
        self.core.sponge.absorb(right_encode(l_bits).as_ref());
        self.core.finalize_xof()
    }
    common_finalizers!();
}

pair!(
    TupleHash,
    TupleHash128,
    TupleHash256,
    "TupleHash128 / TupleHashXOF128 (SP 800-185 §5).",
    "TupleHash256 / TupleHashXOF256 (SP 800-185 §5)."
);

impl<const R: usize> TupleHash<R> {
    /// The tuple so far followed by one more element of exactly `len`
    /// bytes that arrives in pieces (a file, a stream of known size):
    /// encode_string puts the element's bit length first, so the length
    /// is announced here and each [`TupleHashStream::update`] is a piece
    /// of that one element. A fresh hasher gives TupleHash of the
    /// one-element tuple (what `keccakx sum -a tuplehash128 FILE` hashes).
    pub fn stream_element(mut self, len: u64) -> TupleHashStream<R> {
        self.core
            .sponge
            .absorb(left_encode(u128::from(len) * 8).as_ref());
        TupleHashStream {
            hash: self,
            expected: len,
            seen: 0,
        }
    }
}

/// A [`TupleHash`] whose last element is being fed in pieces
/// ([`TupleHash::stream_element`]). Finishing after another number of
/// bytes than announced is an error: the result would be no TupleHash.
#[derive(Clone)]
pub struct TupleHashStream<const R: usize> {
    hash: TupleHash<R>,
    expected: u64,
    seen: u64,
}

impl<const R: usize> TupleHashStream<R> {
    /// The sponge, the announced and the seen length, for portable states.
    pub(crate) fn parts_mut(&mut self) -> (&mut ByteSponge, &mut u64, &mut u64) {
        (
            &mut self.hash.core.sponge,
            &mut self.expected,
            &mut self.seen,
        )
    }

    /// The next piece of the element.
    pub fn update(&mut self, piece: &[u8]) {
        self.seen += piece.len() as u64;
        self.hash.core.sponge.absorb(piece);
    }

    /// Bytes of the element fed so far.
    pub fn seen(&self) -> u64 {
        self.seen
    }

    /// The reader for output length L = `l_bits` (0: TupleHashXOF), or an
    /// error when the element did not have the announced length.
    pub(crate) fn try_finish(self, l_bits: u128) -> Result<XofReader> {
        if self.seen != self.expected {
            return Err(Error::InvalidParameter(
                "TupleHash element: the bytes fed differ from the length announced",
            ));
        }
        Ok(self.hash.finish(l_bits))
    }

    /// [`try_finish`](Self::try_finish) without the length check.
    pub(crate) fn finish_unchecked(self, l_bits: u128) -> XofReader {
        self.hash.finish(l_bits)
    }

    /// Output `out.len()` bytes, the length bound into the result.
    pub fn finalize_into(self, out: &mut [u8]) -> Result<()> {
        self.try_finish(bit_len(out.len()))?.read(out);
        Ok(())
    }

    /// The XOF variant (L = 0): read any amount.
    pub fn finalize_xof(self) -> Result<XofReader> {
        self.try_finish(0)
    }
}

pair!(
    TupleHashStream,
    TupleHash128Stream,
    TupleHash256Stream,
    "A TupleHash128 whose last element is streamed.",
    "A TupleHash256 whose last element is streamed."
);

// ---------------------------------------------------------------- ParallelHash

/// The outer cSHAKE of ParallelHash (SP 800-185 §6.3) at rate R bytes: the
/// one place where ParallelHash's framing is written.
///
/// X is cut into n = ⌈|X| / B⌉ blocks X_0, ..., X_{n−1} of B bytes (the last
/// may be short; n = 0 for an empty X). The output of L bits is
///
/// cSHAKE(left_encode(B) || z_0 || ... || z_{n−1} || right_encode(n) ||
/// right_encode(L), L, "ParallelHash", S)
///
/// where z_i = cSHAKE(X_i, 2w, "", "") = SHAKE128/256 of block i, the
/// [`CV_LEN`](Self::CV_LEN)-byte chaining value hashed by
/// [`BLOCK_SPEC`](Self::BLOCK_SPEC). The XOF variant uses L = 0.
///
/// Feed it the blocks' chaining values in block order with
/// [`absorb_chaining_values`](Self::absorb_chaining_values) (any number of
/// calls), then finish with [`finalize_into`](Self::finalize_into) (L = 8 ×
/// output length) or [`finalize_xof`](Self::finalize_xof) (L = 0). The
/// outer node counts the chaining values itself, so right_encode(n) always
/// matches what was absorbed.
///
/// [`ParallelHash`] cuts its input this way and hashes the blocks on the CPU
/// engine; callers that compute blocks elsewhere (a GPU) use this type
/// directly.
///
/// ```
/// use keccakx::sp800_185::{ParallelHash128, ParallelHash128Outer};
///
/// let x: Vec<u8> = (0..100u8).collect();
/// let mut outer = ParallelHash128Outer::new(32, b"custom").unwrap();
/// for block in x.chunks(32) {
///     let mut z = [0u8; ParallelHash128Outer::CV_LEN];
///     ParallelHash128Outer::BLOCK_SPEC.hash_one(block, &mut z);
///     outer.absorb_chaining_values(&z).unwrap();
/// }
/// assert_eq!(outer.block_count(), 4);
///
/// let mut ph = ParallelHash128::new(32, b"custom").unwrap();
/// ph.update(&x);
/// assert_eq!(outer.finalize_vec(32), ph.finalize_vec(32));
/// ```
#[derive(Clone)]
pub struct ParallelHashOuter<const R: usize> {
    outer: CShakeCore,
    block_size: usize,
    /// Chaining values absorbed so far (n).
    blocks: u64,
}

pair!(
    ParallelHashOuter,
    ParallelHash128Outer,
    ParallelHash256Outer,
    "The outer cSHAKE of ParallelHash128 / ParallelHashXOF128 (see [`ParallelHashOuter`]).",
    "The outer cSHAKE of ParallelHash256 / ParallelHashXOF256 (see [`ParallelHashOuter`])."
);

impl<const R: usize> ParallelHashOuter<R> {
    /// Chaining value length: 2× the security level (256 or 512 bits).
    pub const CV_LEN: usize = if R == 168 { 32 } else { 64 };
    /// The block sponge: SHAKE at rate R (= cSHAKE with empty N and S);
    /// a chaining value is its first [`CV_LEN`](Self::CV_LEN) output bytes.
    pub const BLOCK_SPEC: LaneSpec = LaneSpec::fixed(R, 24, SHAKE_SUFFIX);

    /// The outer cSHAKE for block size `block_size` bytes (B) and
    /// customization string S, with left_encode(B) absorbed.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`] when `block_size` is 0.
    pub fn new(block_size: usize, customization: &[u8]) -> Result<Self> {
        if block_size == 0 {
            return Err(Error::InvalidParameter(
                "ParallelHash block size must be at least 1 byte",
            ));
        }
        let mut outer = CShakeCore::new(R, b"ParallelHash", customization);
        outer
            .sponge
            .absorb(left_encode(block_size as u128).as_ref());
        Ok(ParallelHashOuter {
            outer,
            block_size,
            blocks: 0,
        })
    }

    /// The block size B in bytes.
    pub fn block_size(&self) -> usize {
        self.block_size
    }

    /// Absorb the chaining values of the next blocks, in block order:
    /// `cvs` holds zero or more whole [`CV_LEN`](Self::CV_LEN)-byte values.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`], with nothing absorbed, when `cvs.len()`
    /// is not a multiple of `CV_LEN`.
    pub fn absorb_chaining_values(&mut self, cvs: &[u8]) -> Result<()> {
        if !cvs.len().is_multiple_of(Self::CV_LEN) {
            return Err(Error::InvalidParameter(
                "ParallelHash: chaining values must be whole 32-byte (128) or 64-byte (256) values",
            ));
        }
        self.push_cvs(cvs);
        Ok(())
    }

    /// [`absorb_chaining_values`](Self::absorb_chaining_values) for callers
    /// that guarantee whole values.
    fn push_cvs(&mut self, cvs: &[u8]) {
        debug_assert_eq!(cvs.len() % Self::CV_LEN, 0);
        self.outer.sponge.absorb(cvs);
        self.blocks += (cvs.len() / Self::CV_LEN) as u64;
    }

    /// Absorb the blocks of `input` (living in an engine's memory, a GPU
    /// buffer), the rest of X: its whole blocks are hashed where it lies,
    /// their chaining values absorbed group by group as the engine delivers
    /// them; a short last block is read back and hashed here. Nothing may
    /// follow it but the finalizers.
    ///
    /// # Errors
    ///
    /// The engine's error, or one naming the engine when it delivered
    /// partial or too few or too many chaining values.
    pub fn absorb_resident(
        &mut self,
        input: &dyn ResidentInput,
    ) -> core::result::Result<(), EngineError> {
        let b = self.block_size as u64;
        let len = input.len();
        let whole = len / b;
        let bad = |message: String| EngineError {
            engine: input.engine(),
            message,
        };
        let before = self.blocks;
        if whole > 0 {
            input.hash_leaves(
                &Self::BLOCK_SPEC,
                0,
                self.block_size,
                whole,
                Self::CV_LEN,
                &mut |cvs| {
                    if self.blocks - before + (cvs.len() / Self::CV_LEN) as u64 > whole {
                        return Err(bad(format!(
                            "ParallelHash: more than the {whole} chaining values asked for"
                        )));
                    }
                    self.absorb_chaining_values(cvs)
                        .map_err(|_| bad("ParallelHash: a partial chaining value".into()))
                },
            )?;
        }
        if self.blocks - before != whole {
            return Err(bad(format!(
                "ParallelHash: {} chaining values delivered, {whole} expected",
                self.blocks - before
            )));
        }
        let rest = (len - whole * b) as usize;
        if rest > 0 {
            let mut last = alloc::vec![0u8; rest];
            input.read(whole * b, &mut last)?;
            let mut z = [0u8; 64];
            Self::BLOCK_SPEC.hash_one(&last, &mut z[..Self::CV_LEN]);
            self.push_cvs(&z[..Self::CV_LEN]);
        }
        Ok(())
    }

    /// Number of chaining values (blocks, n) absorbed so far.
    pub fn block_count(&self) -> u64 {
        self.blocks
    }

    /// Portable states: the outer sponge's lanes and position, and the
    /// blocks absorbed.
    pub(crate) fn raw(&self) -> (crate::permutation::State, usize, u64) {
        let (state, _, _, pos) = self.outer.sponge.raw();
        (state, pos, self.blocks)
    }

    /// Set what [`raw`](Self::raw) gave, on a fresh node (nothing
    /// absorbed); false, nothing changed, when the position does not
    /// follow from the blocks absorbed.
    pub(crate) fn set_raw(
        &mut self,
        state: crate::permutation::State,
        pos: usize,
        blocks: u64,
    ) -> bool {
        let (_, _, _, start) = self.outer.sponge.raw();
        let fits = self.blocks == 0
            && blocks
                .checked_mul(Self::CV_LEN as u64)
                .and_then(|c| c.checked_add(start as u64))
                .is_some_and(|a| a % R as u64 == pos as u64);
        if fits {
            self.outer.sponge.set_raw(state, pos);
            self.blocks = blocks;
        }
        fits
    }

    pub(crate) fn finish(mut self, l_bits: u128) -> XofReader {
        let sponge = &mut self.outer.sponge;
        sponge.absorb(right_encode(self.blocks as u128).as_ref());
        sponge.absorb(right_encode(l_bits).as_ref());
        self.outer.finalize_xof()
    }
    common_finalizers!();
}

/// ParallelHash with block size B bytes: blocks are hashed independently
/// (on the SIMD/multi-core engine) and their chaining values absorbed in
/// order into the outer cSHAKE ([`ParallelHashOuter`]). `finalize_xof`
/// gives ParallelHashXOF.
#[derive(Clone)]
pub struct ParallelHash<const R: usize> {
    outer: ParallelHashOuter<R>,
    blocks: ChunkHasher,
}

impl<const R: usize> ParallelHash<R> {
    pub fn new(block_size: usize, customization: &[u8]) -> Result<Self> {
        Self::with_engine(block_size, customization, EngineRef::Current)
    }
    /// ParallelHash whose blocks run on `engine` (a GPU, a chosen CPU
    /// engine); the outer cSHAKE stays on this thread.
    pub fn with_engine(block_size: usize, customization: &[u8], engine: EngineRef) -> Result<Self> {
        let outer = ParallelHashOuter::new(block_size, customization)?;
        Ok(ParallelHash {
            outer,
            blocks: ChunkHasher::with_engine(
                ParallelHashOuter::<R>::BLOCK_SPEC,
                block_size,
                ParallelHashOuter::<R>::CV_LEN,
                engine,
            ),
        })
    }
    pub fn update(&mut self, data: &[u8]) {
        let outer = &mut self.outer;
        self.blocks.update(data, &mut |cvs| outer.push_cvs(cvs));
    }
    /// Portable states: the outer node and the blocks' hasher.
    pub(crate) fn parts_mut(&mut self) -> (&mut ParallelHashOuter<R>, &mut ChunkHasher) {
        (&mut self.outer, &mut self.blocks)
    }
    pub(crate) fn finish(mut self, l_bits: u128) -> XofReader {
        let outer = &mut self.outer;
        self.blocks.finish(&mut |cvs| outer.push_cvs(cvs));
        self.outer.finish(l_bits)
    }
    common_finalizers!();
}

pair!(
    ParallelHash,
    ParallelHash128,
    ParallelHash256,
    "ParallelHash128 / ParallelHashXOF128 (SP 800-185 §6).",
    "ParallelHash256 / ParallelHashXOF256 (SP 800-185 §6)."
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_element_is_the_pushed_element() {
        let data: Vec<u8> = (0..1000u32).map(|i| (i * 7 + 3) as u8).collect();
        for len in [0usize, 1, 135, 136, 167, 168, 169, 1000] {
            let x = &data[..len];
            let mut want = TupleHash128::new(b"S");
            want.push(b"first");
            want.push(x);
            let mut t = TupleHash128::new(b"S");
            t.push(b"first");
            let mut s = t.stream_element(len as u64);
            for piece in x.chunks(61) {
                s.update(piece);
            }
            assert_eq!(s.seen(), len as u64);
            let mut got = [0u8; 40];
            s.finalize_into(&mut got).unwrap();
            assert_eq!(got.to_vec(), want.finalize_vec(40), "len {len}");
        }
        let mut s = TupleHash256::new(b"").stream_element(5);
        s.update(b"abc");
        assert!(s.clone().finalize_xof().is_err());
        s.update(b"def");
        assert!(s.finalize_into(&mut [0u8; 8]).is_err());
    }

    #[test]
    fn encodings() {
        assert_eq!(left_encode(0).as_ref(), &[1, 0]);
        assert_eq!(left_encode(168).as_ref(), &[1, 168]);
        assert_eq!(left_encode(256).as_ref(), &[2, 1, 0]);
        assert_eq!(right_encode(0).as_ref(), &[0, 1]);
        assert_eq!(right_encode(256).as_ref(), &[1, 0, 2]);
        assert_eq!(bytepad(b"ab", 4), [1, 4, b'a', b'b']);
        assert_eq!(bytepad(b"abc", 4), [1, 4, b'a', b'b', b'c', 0, 0, 0]);
        assert_eq!(encode_string(b""), [1, 0]);
    }

    #[test]
    fn resident_parallelhash_matches_parallelhash() {
        let x: Vec<u8> = (0..5000).map(|i| (i % 251) as u8).collect();
        for block in [1usize, 7, 8, 168, 1000, 4999, 5000, 8192] {
            for len in [0usize, 1, 999, 1000, 1001, 5000] {
                for cust in [&b""[..], b"Parallel Data"] {
                    let input = crate::engine::contract::HostInput::new(&x[..len]);
                    let mut h = ParallelHash128::new(block, cust).unwrap();
                    h.update(&x[..len]);
                    let mut o = ParallelHash128Outer::new(block, cust).unwrap();
                    o.absorb_resident(&input).unwrap();
                    assert_eq!(
                        o.finalize_vec(40),
                        h.finalize_vec(40),
                        "PH128 B={block} len={len}"
                    );
                    let mut h = ParallelHash256::new(block, cust).unwrap();
                    h.update(&x[..len]);
                    let mut o = ParallelHash256Outer::new(block, cust).unwrap();
                    o.absorb_resident(&input).unwrap();
                    assert_eq!(
                        o.finalize_xof().read_vec(72),
                        h.finalize_xof().read_vec(72),
                        "PH256 XOF B={block} len={len}"
                    );
                }
            }
        }
    }

    #[test]
    fn resident_parallelhash_rejects_what_an_engine_miscounts() {
        let x = [9u8; 70];
        for (extra, short, what) in [(1, 0, "more than"), (0, 64, "expected"), (0, 1, "partial")] {
            let input = crate::engine::contract::HostInput {
                data: &x,
                extra,
                short,
            };
            let mut o = ParallelHash256Outer::new(7, b"").unwrap();
            let e = o.absorb_resident(&input).err().unwrap();
            assert!(e.message.contains(what), "{e}");
        }
    }
}
