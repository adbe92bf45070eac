//! Tree mode LI (leaf interleaving): the tree of the Keccak team's main
//! document and of the 2011 GPU tree-hashing paper, with Sakura-style frame
//! bits. The normative definition is `docs/tree-li.md`; in short:
//!
//! * the message is cut into blocks of B bytes; block j goes to leaf j mod L,
//!   L = D^H (the paper's Algorithm 2), so leaf i hashes the concatenation of
//!   blocks i, i+L, i+2L, ...;
//! * every node is Keccak[r, c] of `header || body || frame bits`, where the
//!   header (D, H, B, chaining-value length, rate, P; zero-padded to a whole
//!   number of rate blocks) is the same for every node of one parameter set;
//! * leaves end with the bits `110`, inner nodes (D chaining values) with
//!   `010`, the final node (D chaining values) with `01`, and the single node
//!   of height 0 (header || message) with `11`;
//! * chaining values are c bits long (c/8 bytes); the tree is complete: a
//!   leaf that gets no block is hashed with an empty body;
//! * the final node is squeezed for any output length (an XOF).
//!
//! ```
//! use keccakx::tree_li::{tree_li, TreeLi, TreeLiParams};
//! let params = TreeLiParams { height: 2, ..TreeLiParams::default() };
//! let msg = vec![7u8; 5000];
//! let mut one_shot = [0u8; 32];
//! tree_li(&params, &msg, &mut one_shot).unwrap();
//! let mut h = TreeLi::new(params).unwrap();
//! h.update(&msg[..1234]);
//! h.update(&msg[1234..]);
//! assert_eq!(h.finalize_vec(32), one_shot);
//! ```

use alloc::vec;
use alloc::vec::Vec;

use crate::engine::{self, BlockJob, Engine, LaneSpec, Strided};
use crate::error::{Error, Result, SumRule};
use crate::field::Field;
use crate::permutation::{state_from_bytes, state_to_bytes, Parallelism};
use crate::sponge::{ByteSponge, XofReader};

/// Keccak-f[1600]: tree LI always uses the full 24 rounds.
const ROUNDS: usize = 24;

/// The mode's name in messages, as its documents write it.
pub const NAME: &str = crate::field::TREE_LI;

/// `field` outside `range`, for [`TreeLiParams::validate`].
fn out_of_range(field: Field, range: &'static str) -> Error {
    Error::OutOfRange {
        function: NAME,
        field,
        range,
    }
}

/// Delimited suffix of a leaf: frame bits `110` (message hop, `1`, inner node).
pub const SUFFIX_LEAF: u8 = 0x0B;
/// Delimited suffix of an inner node: `010` (chaining hop, `1`, inner node).
pub const SUFFIX_INNER: u8 = 0x0A;
/// Delimited suffix of the final node of a tree: `01` (chaining hop, final).
pub const SUFFIX_FINAL: u8 = 0x06;
/// Delimited suffix of the single node when H = 0: `11` (message hop, final).
pub const SUFFIX_SINGLE: u8 = 0x07;

/// Default degree D.
pub const DEFAULT_DEGREE: usize = 4;
/// Default height H (with D = 4: 256 leaves, the paper's largest tree).
pub const DEFAULT_HEIGHT: usize = 4;
/// Largest height accepted.
pub const MAX_HEIGHT: usize = 16;
/// Largest number of leaves D^H accepted.
pub const MAX_LEAVES: usize = 1 << 16;
/// Largest leaf block size B in bytes.
pub const MAX_BLOCK_SIZE: usize = u32::MAX as usize;
/// Longest prefix P in bytes.
pub const MAX_PREFIX: usize = 255;

/// Gathered leaf bytes per engine call in the one-shot [`tree_li`]. The
/// buffer is reused from batch to batch, so it stays small enough to be
/// cache- and page-warm (a fresh 64 MiB buffer per call cost as much as the
/// hashing on a 50 MB message: bench/results/tree2011-*).
const GATHER_BYTES: usize = 8 << 20;
/// Leaves per batch wanted regardless of GATHER_BYTES, so that every SIMD lane
/// of every thread has a leaf (8 lanes × up to 4 threads) ...
const MIN_BATCH_LEAVES: usize = 32;
/// ... as long as the batch stays under this hard bound on extra memory.
const MAX_GATHER_BYTES: usize = 64 << 20;

/// Tree-LI parameters. Build with struct update syntax from
/// [`TreeLiParams::default`] or [`TreeLiParams::paper`]; every use validates
/// ([`TreeLiParams::validate`]) and returns an error for values out of range.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TreeLiParams {
    /// Degree D: chaining values per parent, 1..=255 (default 4).
    pub degree: usize,
    /// Height H: 0 (one node over the whole message) ..= 16, with
    /// D^H ≤ 65536 leaves (default 4).
    pub height: usize,
    /// Leaf block size B in bytes, 1..=2^32-1; `None` = one rate block
    /// (136 bytes with the default rate, 128 with the paper's).
    pub block_size: Option<usize>,
    /// Rate r in bits: a multiple of 8 in 8..=1592 (default 1088, SHA3-256's).
    pub rate_bits: usize,
    /// Capacity c in bits, r + c = 1600 (default 512). Chaining values are c bits.
    pub capacity_bits: usize,
    /// Prefix P (key or salt), 0..=255 bytes, in the header of every node.
    pub prefix: Vec<u8>,
}

impl Default for TreeLiParams {
    /// D = 4, H = 4, B = one rate block, Keccak[r = 1088, c = 512], no prefix.
    fn default() -> Self {
        TreeLiParams {
            degree: DEFAULT_DEGREE,
            height: DEFAULT_HEIGHT,
            block_size: None,
            rate_bits: 1088,
            capacity_bits: 512,
            prefix: Vec::new(),
        }
    }
}

impl TreeLiParams {
    /// The 2011 GPU paper's setting: D = 4, the given height, Keccak[r = 1024,
    /// c = 576], B = one rate block (128 bytes).
    pub fn paper(height: usize) -> Self {
        TreeLiParams {
            height,
            rate_bits: 1024,
            capacity_bits: 576,
            ..Self::default()
        }
    }

    /// Check every field; the error names the parameter and its range.
    pub fn validate(&self) -> Result<()> {
        if !(1..=255).contains(&self.degree) {
            return Err(out_of_range(Field::Degree, "1..=255"));
        }
        if self.height > MAX_HEIGHT {
            return Err(out_of_range(Field::Height, "0..=16"));
        }
        if leaf_count(self.degree, self.height).is_none() {
            return Err(Error::InvalidParameter(
                "tree-LI D^H must be at most 65536 leaves: lower the degree or the height",
            ));
        }
        if self.rate_bits.checked_add(self.capacity_bits) != Some(1600) {
            return Err(Error::Sum {
                function: NAME,
                parts: [Field::Rate, Field::Capacity],
                rule: SumRule::Equals(1600),
            });
        }
        if self.rate_bits & 7 != 0 || !(8..=1592).contains(&self.rate_bits) {
            return Err(out_of_range(
                Field::Rate,
                "a multiple of 8 bits in 8..=1592 (capacity at least 8 bits)",
            ));
        }
        if let Some(b) = self.block_size {
            if !(1..=MAX_BLOCK_SIZE).contains(&b) {
                return Err(out_of_range(Field::BlockSize, "1..=4294967295 bytes"));
            }
        }
        if self.prefix.len() > MAX_PREFIX {
            return Err(out_of_range(Field::Prefix, "at most 255 bytes"));
        }
        Ok(())
    }

    /// Rate in bytes.
    pub fn rate_bytes(&self) -> usize {
        self.rate_bits / 8
    }

    /// The leaf block size B in bytes (the rate when `block_size` is `None`).
    pub fn block_bytes(&self) -> usize {
        self.block_size.unwrap_or(self.rate_bits / 8)
    }

    /// Chaining-value length in bytes: c / 8.
    pub fn cv_len(&self) -> usize {
        self.capacity_bits / 8
    }

    /// Number of leaves L = D^H (`None` if above [`MAX_LEAVES`]).
    pub fn leaves(&self) -> Option<usize> {
        leaf_count(self.degree, self.height)
    }

    /// The header block that starts every node (docs/tree-li.md §3): D, H,
    /// B (u32 little-endian), chaining-value length, rate (bytes), |P|, P,
    /// then zeros up to a whole number of rate blocks. For H = 0 the fields
    /// D, B and chaining-value length are 0: they take no part.
    pub fn header(&self) -> Result<Vec<u8>> {
        self.validate()?;
        let tree = self.height > 0;
        let rate = self.rate_bytes();
        let mut h = Vec::with_capacity(9 + self.prefix.len() + rate);
        h.push(if tree { self.degree as u8 } else { 0 });
        h.push(self.height as u8);
        let b = if tree { self.block_bytes() as u32 } else { 0 };
        h.extend_from_slice(&b.to_le_bytes());
        h.push(if tree { self.cv_len() as u8 } else { 0 });
        h.push(rate as u8);
        h.push(self.prefix.len() as u8);
        h.extend_from_slice(&self.prefix);
        let padded = h.len().div_ceil(rate) * rate;
        h.resize(padded, 0);
        Ok(h)
    }
}

fn leaf_count(degree: usize, height: usize) -> Option<usize> {
    let mut l = 1usize;
    for _ in 0..height {
        l = l.checked_mul(degree).filter(|&l| l <= MAX_LEAVES)?;
    }
    Some(l)
}

/// Validated parameters in the form the hashers use, shared by both.
#[derive(Clone)]
struct Shape {
    degree: usize,
    height: usize,
    block: usize,
    leaves: usize,
    cv_len: usize,
    rate: usize,
    header: Vec<u8>,
    /// A sponge that has absorbed the header block: every node starts here.
    start: ByteSponge,
}

impl Shape {
    fn new(p: &TreeLiParams) -> Result<Self> {
        let header = p.header()?;
        let mut start = ByteSponge::new(p.rate_bytes(), ROUNDS);
        start.absorb(&header);
        Ok(Shape {
            degree: p.degree,
            height: p.height,
            block: p.block_bytes(),
            leaves: p.leaves().unwrap_or(1),
            cv_len: p.cv_len(),
            rate: p.rate_bytes(),
            header,
            start,
        })
    }

    fn spec(&self, suffix: u8) -> LaneSpec {
        LaneSpec::fixed(self.rate, ROUNDS, suffix)
    }

    /// Chaining value of a node with the given body and suffix.
    fn node_cv(&self, body: &[u8], suffix: u8, cv: &mut [u8]) {
        let mut s = self.start.clone();
        s.absorb(body);
        s.pad_delimited(suffix);
        s.squeeze(cv);
    }

    /// From the chaining values of the first `cvs.len() / cv_len` leaves (the
    /// rest have empty bodies) up to the final node, ready to squeeze.
    fn finish(&self, engine: &dyn Engine, mut cvs: Vec<u8>) -> XofReader {
        let (d, n) = (self.degree, self.cv_len);
        // The chaining value every node of an all-empty subtree has, level by level.
        let mut empty = vec![0u8; n];
        self.node_cv(&[], SUFFIX_LEAF, &mut empty);
        let mut body = Vec::with_capacity(d * n);
        for _level in (1..self.height).rev() {
            let known = cvs.len() / n;
            let parents = known.div_ceil(d);
            let mut inputs = Vec::with_capacity(parents * (self.header.len() + d * n));
            for j in 0..parents {
                inputs.extend_from_slice(&self.header);
                for k in j * d..(j + 1) * d {
                    inputs.extend_from_slice(if k < known {
                        &cvs[k * n..(k + 1) * n]
                    } else {
                        &empty
                    });
                }
            }
            let mut next = vec![0u8; parents * n];
            if parents > 0 {
                let pieces: Vec<&[u8]> = inputs.chunks(self.header.len() + d * n).collect();
                engine.hash_many(&self.spec(SUFFIX_INNER), &pieces, n, &mut next);
            }
            cvs = next;
            body.clear();
            for _ in 0..d {
                body.extend_from_slice(&empty);
            }
            let mut e = vec![0u8; n];
            self.node_cv(&body, SUFFIX_INNER, &mut e);
            empty = e;
        }
        let known = cvs.len() / n;
        let mut s = self.start.clone();
        s.absorb(&cvs);
        for _ in known..d {
            s.absorb(&empty);
        }
        s.pad_delimited(SUFFIX_FINAL);
        XofReader::from_byte_sponge(s)
    }
}

/// Incremental tree-LI hasher. It keeps one sponge state per leaf that has
/// received data (at most L ≤ 65536 states of about 224 bytes), never the
/// message: each B-byte block is absorbed into its leaf as it arrives.
#[derive(Clone)]
pub struct TreeLi {
    shape: Shape,
    /// Sponges of leaves 0..leaves.len(); leaves are started in order. For
    /// H = 0, the single node.
    leaves: Vec<ByteSponge>,
    /// Leaf receiving the next byte.
    cur: usize,
    /// Bytes of the current block already given to `cur`.
    fill: usize,
}

impl TreeLi {
    /// A hasher for `params` (validated here).
    pub fn new(params: TreeLiParams) -> Result<Self> {
        Self::with_params(&params)
    }

    /// Like [`TreeLi::new`], borrowing the parameters.
    pub fn with_params(params: &TreeLiParams) -> Result<Self> {
        let shape = Shape::new(params)?;
        let single = if params.height == 0 {
            vec![shape.start.clone()]
        } else {
            Vec::new()
        };
        Ok(TreeLi {
            shape,
            leaves: single,
            cur: 0,
            fill: 0,
        })
    }

    /// Absorb more message bytes (any split gives the same digest).
    pub fn update(&mut self, data: &[u8]) {
        engine::on_cores(|engine| self.update_on(engine, data))
    }

    /// [`TreeLi::update`] with whole blocks in place on `engine`'s lanes.
    fn update_on(&mut self, engine: &dyn Engine, mut data: &[u8]) {
        if self.shape.height == 0 {
            self.leaves[0].absorb(data);
            return;
        }
        let (block, l) = (self.shape.block, self.shape.leaves);
        while !data.is_empty() {
            if self.fill == 0 {
                data = &data[self.absorb_whole_blocks(engine, data)..];
                if data.is_empty() {
                    break;
                }
            }
            if self.cur == self.leaves.len() {
                self.leaves.push(self.shape.start.clone());
            }
            let take = (block - self.fill).min(data.len());
            self.leaves[self.cur].absorb(&data[..take]);
            data = &data[take..];
            self.fill += take;
            if self.fill == block {
                self.fill = 0;
                self.cur += 1;
                if self.cur == l {
                    self.cur = 0;
                }
            }
        }
    }

    /// At a block boundary: absorb the whole blocks in `data` in place, the
    /// leaves side by side in the engine's SIMD lanes and over its threads.
    /// Three parts, each one job:
    /// - the rest of the current round (leaves `cur..`);
    /// - whole rounds (one block into every leaf);
    /// - the start of the last round (leaves `0..`).
    ///
    /// Returns the bytes taken. It takes none when fewer than a lane group
    /// of blocks is there, when the block size is not a multiple of the rate
    /// (a block would end inside a rate block), or when the engine runs one
    /// state at a time.
    fn absorb_whole_blocks(&mut self, engine: &dyn Engine, data: &[u8]) -> usize {
        let (block, l, rate) = (self.shape.block, self.shape.leaves, self.shape.rate);
        let n = data.len() / block;
        let p = engine.parallelism();
        if n < p.states()
            || block % rate != 0
            || rate % 8 != 0
            || p == Parallelism::X1
            || !p.is_available()
        {
            return 0;
        }
        let cur = self.cur;
        let lead = n.min(l - cur);
        let (full, tail) = ((n - lead) / l, (n - lead) % l);
        // Leaves start in order: this call reaches leaf cur + lead - 1, and
        // the leaves of the later parts exist once a round has wrapped.
        while self.leaves.len() < cur + lead {
            self.leaves.push(self.shape.start.clone());
        }
        let mut at = 0;
        for (leaves, rounds) in [(cur..cur + lead, 1), (0..l, full), (0..tail, 1)] {
            if rounds == 0 || leaves.is_empty() {
                continue;
            }
            let bytes = if rounds == 1 {
                leaves.len()
            } else {
                rounds * l
            } * block;
            self.absorb_in_place(engine, leaves, &data[at..at + bytes], rounds);
            at += bytes;
        }
        self.cur = (cur + n) % l;
        n * block
    }

    /// `rounds` rounds of blocks into `leaves` (consecutive, already
    /// started, at block boundaries): round t's block of leaf
    /// `leaves.start + j` is at `data[(t·L + j)·B..]`.
    fn absorb_in_place(
        &mut self,
        engine: &dyn Engine,
        leaves: core::ops::Range<usize>,
        data: &[u8],
        rounds: usize,
    ) {
        let (block, rate) = (self.shape.block, self.shape.rate);
        // The leaves' states as little-endian bytes, 200 a leaf (the form
        // the transposing loads read and the thread split hands out).
        let mut states = vec![0u8; leaves.len() * 200];
        for (leaf, st) in self.leaves[leaves.clone()]
            .iter_mut()
            .zip(states.chunks_exact_mut(200))
        {
            let lanes = leaf
                .block_aligned_state()
                .expect("tree LI leaves hold whole rate blocks at block boundaries");
            state_to_bytes(lanes, st);
        }
        let job = |first| BlockJob {
            data,
            first,
            leaves: self.shape.leaves,
            block,
            stride: block,
            rate,
            rounds,
            nr: ROUNDS,
        };
        let run = |first: usize, out: &mut [u8]| {
            let done = engine.absorb_blocks(out, &job(first));
            debug_assert!(done);
        };
        #[cfg(feature = "std")]
        if engine.threads() > 1 {
            let ids: Vec<usize> = (0..leaves.len()).collect();
            engine::for_each_piece(
                &ids,
                &mut states,
                200,
                |_| rounds * block,
                8,
                &mut || {},
                |piece, out| run(piece[0], out),
            );
        } else {
            run(0, &mut states);
        }
        #[cfg(not(feature = "std"))]
        {
            let _ = engine;
            run(0, &mut states);
        }
        for (leaf, st) in self.leaves[leaves].iter_mut().zip(states.chunks_exact(200)) {
            let lanes = leaf
                .block_aligned_state()
                .expect("tree LI leaves hold whole rate blocks at block boundaries");
            *lanes = state_from_bytes(st);
        }
    }

    /// End the message; read any amount of output from the reader.
    pub fn finalize_xof(self) -> XofReader {
        engine::on_cores(|engine| self.finalize_on(engine))
    }

    /// [`TreeLi::finalize_xof`] with the inner levels on `engine`.
    fn finalize_on(mut self, engine: &dyn Engine) -> XofReader {
        if self.shape.height == 0 {
            let mut s = self
                .leaves
                .pop()
                .unwrap_or_else(|| self.shape.start.clone());
            s.pad_delimited(SUFFIX_SINGLE);
            return XofReader::from_byte_sponge(s);
        }
        let n = self.shape.cv_len;
        let mut cvs = vec![0u8; self.leaves.len() * n];
        for (leaf, cv) in self.leaves.iter_mut().zip(cvs.chunks_exact_mut(n)) {
            leaf.pad_delimited(SUFFIX_LEAF);
            leaf.squeeze(cv);
        }
        self.shape.finish(engine, cvs)
    }

    /// End the message and fill `out` (any length).
    pub fn finalize_into(self, out: &mut [u8]) {
        self.finalize_xof().read(out)
    }

    /// End the message and return `len` output bytes.
    pub fn finalize_vec(self, len: usize) -> Vec<u8> {
        self.finalize_xof().read_vec(len)
    }
}

/// One-shot tree LI of `msg` into `out` (any length), on the current engine
/// and up to [`engine::threads`] cores.
/// When the leaf block size is a whole number of rate blocks (the default:
/// one), the leaves absorb the message in place, one round of blocks at a
/// time, side by side in the engine's SIMD lanes and threads; otherwise
/// their bytes are gathered (in batches of about 8 MiB, reused) and hashed
/// together ([`engine::hash_many`]). Each inner level is hashed with
/// [`engine::hash_many`].
pub fn tree_li(params: &TreeLiParams, msg: &[u8], out: &mut [u8]) -> Result<()> {
    engine::on_cores(|engine| tree_li_with_engine(engine, params, msg, out))
}

/// The one-shot gather buffer, kept per thread between calls where there
/// are threads (`std`). A fresh buffer is fresh pages: on a 50 MB message
/// gathered whole for a GPU engine (up to [`MAX_GATHER_BYTES`]) the page
/// faults took 28 ms of the 38 ms the mode spent besides hashing, on this
/// VM (bench/NOTES.md, "GPU run 1 ..."). At most [`MAX_GATHER_BYTES`] stay
/// allocated per thread that ran such a call.
mod gather_buffer {
    use alloc::vec::Vec;

    #[cfg(feature = "std")]
    std::thread_local! {
        static KEPT: core::cell::RefCell<Vec<u8>> = const { core::cell::RefCell::new(Vec::new()) };
    }

    /// The kept buffer (empty if none).
    pub(super) fn take() -> Vec<u8> {
        #[cfg(feature = "std")]
        {
            KEPT.with(|k| core::mem::take(&mut *k.borrow_mut()))
        }
        #[cfg(not(feature = "std"))]
        {
            Vec::new()
        }
    }

    /// Keep `buf` for the thread's next call (if it is not too big).
    pub(super) fn give_back(buf: Vec<u8>) {
        #[cfg(feature = "std")]
        if buf.capacity() <= super::MAX_GATHER_BYTES + (super::MAX_GATHER_BYTES >> 2) {
            KEPT.with(|k| *k.borrow_mut() = buf);
        }
        #[cfg(not(feature = "std"))]
        drop(buf);
    }
}

/// [`tree_li`] on a given engine (cross-engine tests, benchmarks, `--engine`).
pub fn tree_li_with_engine(
    engine: &dyn Engine,
    params: &TreeLiParams,
    msg: &[u8],
    out: &mut [u8],
) -> Result<()> {
    let shape = Shape::new(params)?;
    if shape.height == 0 {
        let mut s = shape.start.clone();
        s.absorb(msg);
        s.pad_delimited(SUFFIX_SINGLE);
        s.squeeze(out);
        return Ok(());
    }
    let (b, l, n) = (shape.block, shape.leaves, shape.cv_len);
    // Blocks that are whole rate blocks: the leaves absorb the message in
    // place, round by round, in the engine's lanes and threads (faster
    // than gathering each leaf's bytes, and no copy of the message).
    if b % shape.rate == 0 && shape.rate % 8 == 0 && engine.parallelism() != Parallelism::X1 {
        let mut h = TreeLi {
            shape,
            leaves: Vec::new(),
            cur: 0,
            fill: 0,
        };
        h.update_on(engine, msg);
        h.finalize_on(engine).read(out);
        return Ok(());
    }
    let blocks = msg.len().div_ceil(b);
    let used = blocks.min(l);
    // Bytes leaf i receives: its share of whole rounds, less what the short
    // last block lacks.
    let leaf_len = |i: usize| {
        let count = (blocks - i).div_ceil(l);
        let mut len = count.saturating_mul(b);
        if (blocks - 1) % l == i {
            len -= (b - msg.len() % b) % b;
        }
        len
    };
    let hdr = shape.header.len();
    // An engine that wants bigger calls (a GPU) gets up to the hard bound.
    let gather = engine
        .batch_hint()
        .bytes
        .clamp(GATHER_BYTES, MAX_GATHER_BYTES);
    let mut cvs = vec![0u8; used * n];
    let mut first = 0;
    let mut gathered = gather_buffer::take();
    let mut bounds = Vec::new();
    while first < used {
        // Leaves first..last, as many as fit the batch (at least one).
        gathered.clear();
        bounds.clear();
        let mut last = first;
        while last < used && {
            let grown = bounds.last().map_or(0, |&(_, e)| e) + hdr + leaf_len(last);
            last == first
                || grown <= gather
                || (last - first < MIN_BATCH_LEAVES && grown <= MAX_GATHER_BYTES)
        } {
            let start = bounds.last().map_or(0, |&(_, e)| e);
            bounds.push((start, start + hdr + leaf_len(last)));
            last += 1;
        }
        // Headers, then the blocks in message order: round by round (blocks
        // r L + first .. r L + last), each to its leaf's next place. The
        // reads stream through the message once. Leaf by leaf instead, every
        // block is L blocks past the last one, a new page for each 128-byte
        // block of a 50 MB message: a TLB miss per block, ten times the
        // hashing on the host-fed GPU path (bench/NOTES.md).
        // Every byte below the end is written below (headers, then the
        // blocks, leaf after leaf without gaps): no need to clear.
        gathered.resize(bounds.last().map_or(0, |&(_, e)| e), 0);
        let mut pos: Vec<usize> = bounds.iter().map(|&(s, _)| s + hdr).collect();
        for &(s, _) in &bounds {
            gathered[s..s + hdr].copy_from_slice(&shape.header);
        }
        let mut round = 0;
        while round * l + first < blocks {
            for (k, p) in pos.iter_mut().enumerate() {
                let j = round * l + first + k;
                if j >= blocks {
                    break;
                }
                let piece = &msg[j * b..(j * b).saturating_add(b).min(msg.len())];
                gathered[*p..*p + piece.len()].copy_from_slice(piece);
                *p += piece.len();
            }
            round += 1;
        }
        debug_assert!(pos.iter().zip(&bounds).all(|(p, &(_, e))| *p == e));
        let pieces: Vec<&[u8]> = bounds.iter().map(|&(s, e)| &gathered[s..e]).collect();
        engine.hash_many(
            &shape.spec(SUFFIX_LEAF),
            &pieces,
            n,
            &mut cvs[first * n..last * n],
        );
        first = last;
    }
    gather_buffer::give_back(gathered);
    shape.finish(engine, cvs).read(out);
    Ok(())
}

/// Tree LI of a message that lives in an engine's memory (a GPU buffer,
/// [`engine::ResidentInput`]): every leaf (header || blocks i, i + L, ...)
/// is gathered and hashed where the message lies ([`Strided`] describes the
/// gather), the inner levels and the final node run on `engine`. Height 0
/// (one node over the whole message) reads the message back and hashes it
/// here: one sponge over it all would run at one GPU thread's speed there.
///
/// # Errors
///
/// Invalid parameters or the engine's error, as an [`engine::EngineError`]
/// naming the input's engine.
pub fn tree_li_resident(
    engine: &dyn Engine,
    params: &TreeLiParams,
    input: &dyn engine::ResidentInput,
    out: &mut [u8],
) -> core::result::Result<(), engine::EngineError> {
    let shape = Shape::new(params).map_err(|e| engine::EngineError {
        engine: input.engine(),
        message: alloc::format!("tree LI: {e}"),
    })?;
    let len = input.len();
    if shape.height == 0 {
        let mut s = shape.start.clone();
        let mut buf = vec![0u8; (GATHER_BYTES as u64).min(len) as usize];
        let mut pos = 0u64;
        while pos < len {
            let n = ((len - pos) as usize).min(buf.len());
            input.read(pos, &mut buf[..n])?;
            s.absorb(&buf[..n]);
            pos += n as u64;
        }
        s.pad_delimited(SUFFIX_SINGLE);
        s.squeeze(out);
        return Ok(());
    }
    let (b, l, n) = (shape.block as u64, shape.leaves as u64, shape.cv_len);
    let whole = len / b;
    let rem = (len % b) as usize;
    let used = len.div_ceil(b).min(l);
    let leaves: Vec<Strided> = (0..used)
        .map(|i| Strided {
            first: i * b,
            piece: b as usize,
            stride: l * b,
            count: if i < whole {
                (whole - i).div_ceil(l)
            } else {
                0
            },
            tail: if rem > 0 && whole % l == i { rem } else { 0 },
        })
        .collect();
    let mut cvs = vec![0u8; used as usize * n];
    input.hash_gathered(
        &shape.spec(SUFFIX_LEAF),
        &shape.header,
        &leaves,
        n,
        &mut cvs,
    )?;
    shape.finish(engine, cvs).read(out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_layout() {
        let p = TreeLiParams {
            block_size: Some(0x01020304),
            prefix: b"key".to_vec(),
            ..Default::default()
        };
        let h = p.header().unwrap();
        assert_eq!(h.len(), 136);
        assert_eq!(&h[..12], &[4, 4, 4, 3, 2, 1, 64, 136, 3, b'k', b'e', b'y']);
        assert!(h[12..].iter().all(|&x| x == 0));
        let h0 = TreeLiParams { height: 0, ..p }.header().unwrap();
        assert_eq!(&h0[..9], &[0, 0, 0, 0, 0, 0, 0, 136, 3]);
    }

    #[test]
    fn long_prefix_spans_blocks() {
        let p = TreeLiParams {
            rate_bits: 576,
            capacity_bits: 1024,
            prefix: vec![1; 255],
            ..Default::default()
        };
        assert_eq!(p.header().unwrap().len(), 72 * 4); // 9 + 255 = 264 bytes -> 4 blocks
    }

    #[test]
    fn leaf_count_limits() {
        assert_eq!(leaf_count(4, 8), Some(65536));
        assert_eq!(leaf_count(255, 2), Some(65025));
        assert_eq!(leaf_count(255, 3), None);
        assert_eq!(leaf_count(1, 16), Some(1));
        assert_eq!(leaf_count(255, 16), None);
    }

    #[test]
    fn resident_tree_li_matches_tree_li() {
        let msg: Vec<u8> = (0..70_000u32).map(|i| (i * 7 + i / 251) as u8).collect();
        for height in 0..=3 {
            for (rate, block) in [(1024usize, None), (1088, Some(100usize)), (1088, Some(1))] {
                let p = TreeLiParams {
                    height,
                    rate_bits: rate,
                    capacity_bits: 1600 - rate,
                    block_size: block,
                    ..TreeLiParams::default()
                };
                for len in [0usize, 1, 127, 128, 129, 8191, 8192, 8193, 70_000] {
                    let mut want = [0u8; 80];
                    tree_li(&p, &msg[..len], &mut want).unwrap();
                    let input = crate::engine::contract::HostInput::new(&msg[..len]);
                    let mut got = [0u8; 80];
                    tree_li_resident(engine::current(), &p, &input, &mut got).unwrap();
                    assert_eq!(got, want, "H={height} r={rate} B={block:?} len={len}");
                }
            }
        }
        let bad = TreeLiParams {
            degree: 0,
            ..TreeLiParams::default()
        };
        let input = crate::engine::contract::HostInput::new(&msg);
        let e = tree_li_resident(engine::current(), &bad, &input, &mut [0u8; 32]).unwrap_err();
        assert!(e.message.contains("tree LI: "), "{e}");
    }
}
