//! KT128/KT256 and ParallelHash* of an object, with the chaining values
//! computed where the bytes arrive: each ranged part is hashed on the
//! network thread that receives it, in batches of whole chunks (one core's
//! SIMD engine per thread), and only its chaining values (32 or 64 bytes
//! per 8 KiB chunk) come back to the final node, in order.
//!
//! Nothing assembles a part: the bytes go from the network's buffers into
//! the hash (straight from them in groups of eight whole chunks; a chunk
//! cut between two buffers, and the rest, through one small batch buffer
//! per part in flight). The final node is
//! the library's ([`keccakx::hazmat`]), the code the one-machine digest and
//! the cluster use, so the digest is exactly the local file's.
#![cfg(feature = "remote")]

use std::ops::Range;

use keccakx::engine;
use keccakx::hazmat::{
    kt_leaf_chaining_values_on, parallelhash_block_chaining_values_on, KtFinal, KtPlan,
    ParallelHashFinal,
};
use keccakx::registry::Params;
use keccakx::sponge::XofReader;
use keccakx_remote::{Client, Error, Object, PartSink};

use crate::algo::{Algo, Family, InputMode};

/// Bytes hashed per engine call from a part's batch buffer: 32 KT chunks,
/// four calls' worth of eight SIMD lanes; small enough to stay in L2.
const BATCH: usize = 256 << 10;

/// Whole pieces are hashed straight from a network buffer in groups of
/// this many (one full group of AVX-512 lanes, two of AVX2); the rest
/// (fewer than a group, and pieces cut between two buffers) are copied
/// into the part's batch buffer.
const DIRECT_PIECES: usize = 8;

/// The chaining values that finished parts may hold while they wait for
/// the final node (parts ahead of the oldest one still being read).
const CV_BUDGET: u64 = 16 << 20;

/// A tree mode whose pieces (KT chunks, ParallelHash blocks) hash apart.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Kt128,
    Kt256,
    Ph128 { block: usize },
    Ph256 { block: usize },
}

impl Mode {
    /// The mode `algo` computes, when its chaining values can be computed
    /// per part: bytes as they are (no reading mode), and ParallelHash
    /// blocks of at least 1 KiB (smaller ones would make the chaining
    /// values a large share of the bytes: those parts are assembled).
    fn of(algo: &Algo) -> Option<Mode> {
        let Family::Registry(r) = algo.info.family else {
            return None;
        };
        if algo.input != InputMode::Bytes {
            return None;
        }
        let block = algo.params.block_size.unwrap_or(8192);
        let ph_ok = (1024..=1 << 20).contains(&block);
        match r.name {
            "kt128" => Some(Mode::Kt128),
            "kt256" => Some(Mode::Kt256),
            "parallelhash128" | "parallelhashxof128" if ph_ok => Some(Mode::Ph128 { block }),
            "parallelhash256" | "parallelhashxof256" if ph_ok => Some(Mode::Ph256 { block }),
            _ => None,
        }
    }

    fn piece_len(self) -> usize {
        match self {
            Mode::Kt128 | Mode::Kt256 => keccakx::hazmat::KT_CHUNK_LEN,
            Mode::Ph128 { block } | Mode::Ph256 { block } => block,
        }
    }

    fn cv_len(self) -> usize {
        match self {
            Mode::Kt128 | Mode::Ph128 { .. } => 32,
            Mode::Kt256 | Mode::Ph256 { .. } => 64,
        }
    }

    /// The chaining values of the pieces in `data`, which starts at piece
    /// `first` of a message of `len` bytes, on this thread's core.
    fn hash(self, first: u64, len: u64, data: &[u8], out: &mut [u8]) -> keccakx::Result<()> {
        let e = engine::current();
        match self {
            Mode::Kt128 => kt_leaf_chaining_values_on::<168>(e, first, data, out),
            Mode::Kt256 => kt_leaf_chaining_values_on::<136>(e, first, data, out),
            Mode::Ph128 { block } => {
                parallelhash_block_chaining_values_on::<168>(e, block, first, len, data, out)
            }
            Mode::Ph256 { block } => {
                parallelhash_block_chaining_values_on::<136>(e, block, first, len, data, out)
            }
        }
    }
}

/// What one part gives the final node.
struct Pieces {
    /// KT's head bytes lying in this part (the first part only).
    head: Vec<u8>,
    /// The chaining values of the part's whole pieces, in order.
    cvs: Vec<u8>,
    /// KT's tail bytes lying in this part (the last part only).
    tail: Vec<u8>,
    bytes: u64,
    error: Option<String>,
}

/// One part being hashed on a network thread.
struct Part {
    mode: Mode,
    len: u64,
    /// The offset of the next byte.
    pos: u64,
    /// Bytes below go to the head; from `leaves_end` on, to the tail.
    head_end: u64,
    leaves_end: u64,
    /// Piece bytes waiting for a batch; they start at `buf_at`.
    buf: Vec<u8>,
    buf_at: u64,
    out: Pieces,
}

impl Part {
    fn new(mode: Mode, len: u64, range: Range<u64>) -> Part {
        let (head_end, leaves_end) = match mode {
            Mode::Kt128 | Mode::Kt256 => {
                let plan = KtPlan::new(len);
                (plan.head_len as u64, plan.tail_offset)
            }
            Mode::Ph128 { .. } | Mode::Ph256 { .. } => (0, len),
        };
        let pieces = (range.end - range.start).div_ceil(mode.piece_len() as u64) as usize;
        Part {
            mode,
            len,
            pos: range.start,
            head_end,
            leaves_end,
            buf: Vec::new(),
            buf_at: range.start,
            out: Pieces {
                head: Vec::new(),
                cvs: Vec::with_capacity(pieces * mode.cv_len()),
                tail: Vec::new(),
                bytes: range.end - range.start,
                error: None,
            },
        }
    }

    /// Hash `data`, whole pieces from offset `at` (or up to the end of
    /// the leaves), appending their chaining values.
    fn hash_run(&mut self, at: u64, data: &[u8]) {
        let piece = self.mode.piece_len();
        let cv = self.mode.cv_len();
        let first = at / piece as u64;
        let n = self.out.cvs.len();
        self.out.cvs.resize(n + data.len().div_ceil(piece) * cv, 0);
        if let Err(e) = self
            .mode
            .hash(first, self.len, data, &mut self.out.cvs[n..])
        {
            self.out.error.get_or_insert_with(|| e.to_string());
        }
    }

    fn flush(&mut self) {
        if !self.buf.is_empty() {
            let buf = std::mem::take(&mut self.buf);
            self.hash_run(self.buf_at, &buf);
            self.buf = buf;
            self.buf.clear();
        }
    }

    /// Piece bytes at `self.pos`.
    fn leaves(&mut self, mut run: &[u8]) {
        let piece = self.mode.piece_len();
        let batch = (BATCH / piece).max(1) * piece;
        // A piece begun in an earlier buffer is completed by copying (at
        // most one piece); then `pos` is on a piece boundary.
        let begun = self.buf.len() % piece;
        if begun != 0 {
            let n = (piece - begun).min(run.len());
            self.buf.extend_from_slice(&run[..n]);
            self.pos += n as u64;
            run = &run[n..];
            if self.buf.len() == batch {
                self.flush();
            }
        }
        // Whole pieces straight from the network's buffer, in groups of
        // DIRECT_PIECES (full SIMD lanes), after the pieces waiting in the
        // batch, topped up to a whole group first (their values come first).
        let waiting = self.buf.len() / piece;
        let top = (DIRECT_PIECES - waiting % DIRECT_PIECES) % DIRECT_PIECES;
        if run.len() / piece >= top + DIRECT_PIECES {
            self.buf.extend_from_slice(&run[..top * piece]);
            self.pos += (top * piece) as u64;
            run = &run[top * piece..];
            self.flush();
            let direct = run.len() / piece / DIRECT_PIECES * DIRECT_PIECES * piece;
            self.hash_run(self.pos, &run[..direct]);
            self.pos += direct as u64;
            run = &run[direct..];
        }
        while !run.is_empty() {
            if self.buf.is_empty() {
                self.buf_at = self.pos;
                self.buf.reserve(batch);
            }
            let n = (batch - self.buf.len()).min(run.len());
            self.buf.extend_from_slice(&run[..n]);
            self.pos += n as u64;
            run = &run[n..];
            if self.buf.len() == batch {
                self.flush();
            }
        }
    }
}

impl PartSink for Part {
    type Done = Pieces;

    fn write(&mut self, mut data: &[u8]) {
        while !data.is_empty() {
            let (end, to) = if self.pos < self.head_end {
                (self.head_end, 0)
            } else if self.pos < self.leaves_end {
                (self.leaves_end, 1)
            } else {
                (u64::MAX, 2)
            };
            let take = (end - self.pos).min(data.len() as u64) as usize;
            let (now, rest) = data.split_at(take);
            match to {
                0 => {
                    self.out.head.extend_from_slice(now);
                    self.pos += take as u64;
                }
                1 => self.leaves(now),
                _ => {
                    self.out.tail.extend_from_slice(now);
                    self.pos += take as u64;
                }
            }
            data = rest;
        }
    }

    fn finish(mut self) -> Pieces {
        self.flush();
        self.out
    }
}

/// The final node being fed.
enum Final {
    Kt128(KtFinal<168>),
    Kt256(KtFinal<136>),
    Ph128(ParallelHashFinal<168>),
    Ph256(ParallelHashFinal<136>),
}

impl Final {
    fn new(mode: Mode, params: &Params, len: u64) -> keccakx::Result<Final> {
        let c = &params.customization;
        Ok(match mode {
            Mode::Kt128 => Final::Kt128(KtFinal::new(len, c)),
            Mode::Kt256 => Final::Kt256(KtFinal::new(len, c)),
            Mode::Ph128 { block } => Final::Ph128(ParallelHashFinal::new(block, c, len)?),
            Mode::Ph256 { block } => Final::Ph256(ParallelHashFinal::new(block, c, len)?),
        })
    }

    fn absorb(&mut self, p: &Pieces) -> keccakx::Result<()> {
        match self {
            Final::Kt128(f) => {
                f.absorb_head(&p.head)?;
                f.absorb_chaining_values(&p.cvs)
            }
            Final::Kt256(f) => {
                f.absorb_head(&p.head)?;
                f.absorb_chaining_values(&p.cvs)
            }
            Final::Ph128(f) => f.absorb_chaining_values(&p.cvs),
            Final::Ph256(f) => f.absorb_chaining_values(&p.cvs),
        }
    }

    /// The output: `out_len` bytes after `seek` (XOFs), or ParallelHash's
    /// fixed-length output of `out_len` bytes.
    fn finish(self, tail: &[u8], xof: bool, seek: u64, out_len: usize) -> keccakx::Result<Vec<u8>> {
        let mut reader: XofReader = match self {
            Final::Kt128(f) => f.finalize_xof(tail)?,
            Final::Kt256(f) => f.finalize_xof(tail)?,
            Final::Ph128(f) if !xof => {
                let mut out = vec![0u8; out_len];
                f.finalize_into(&mut out)?;
                return Ok(out);
            }
            Final::Ph256(f) if !xof => {
                let mut out = vec![0u8; out_len];
                f.finalize_into(&mut out)?;
                return Ok(out);
            }
            Final::Ph128(f) => f.finalize_xof()?,
            Final::Ph256(f) => f.finalize_xof()?,
        };
        let mut skip = seek;
        let mut sink = [0u8; 4096];
        while skip > 0 {
            let n = skip.min(sink.len() as u64) as usize;
            reader.read(&mut sink[..n]);
            skip -= n as u64;
        }
        Ok(reader.read_vec(out_len))
    }
}

/// The digest of `obj` under `algo`, its chaining values computed on the
/// network threads; `None` when `algo` is not a mode whose pieces hash
/// apart (the caller then feeds whole parts to its hasher).
pub fn digest(client: &Client, obj: &Object, algo: &Algo) -> Option<Result<Vec<u8>, Error>> {
    let mode = Mode::of(algo)?;
    let xof = matches!(algo.info.family, Family::Registry(r) if r.xof);
    Some(run(client, obj, algo, mode, xof))
}

fn run(
    client: &Client,
    obj: &Object,
    algo: &Algo,
    mode: Mode,
    xof: bool,
) -> Result<Vec<u8>, Error> {
    let failed = |e: &dyn std::fmt::Display| Error::failed(format!("{}: {e}", algo.info.name));
    let len = obj.size;
    let mut fin = Final::new(mode, &algo.params, len).map_err(|e| failed(&e))?;
    let mut tail = Vec::new();
    let unit = mode.piece_len() as u64;
    let s = client.settings();
    let part = s.part_for(unit);
    // Finished parts hold only chaining values: read ahead by as many as
    // the budget allows (at least `jobs`, at most four times as many), so
    // one slow part does not stop the others.
    let per_part = part.div_ceil(unit) * mode.cv_len() as u64;
    let ahead = (CV_BUDGET / per_part.max(1)).clamp(s.jobs as u64, 4 * s.jobs as u64) as usize;
    client.read_parts_with(
        obj,
        unit,
        ahead,
        &mut |range| Part::new(mode, len, range),
        &mut |p: Pieces| {
            if let Some(e) = &p.error {
                return Err(failed(e));
            }
            fin.absorb(&p).map_err(|e| failed(&e))?;
            tail.extend_from_slice(&p.tail);
            crate::progress::add_bytes(p.bytes as usize);
            Ok(())
        },
    )?;
    fin.finish(&tail, xof, algo.seek, algo.out_len)
        .map_err(|e| failed(&e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::find;

    /// A small deterministic generator (xorshift).
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// The digest through parts of `part` bytes, each written in frames
    /// of random sizes (some large enough for the straight-from-the-buffer
    /// path), finished in order into the final node.
    fn by_parts(algo: &Algo, data: &[u8], part: usize, rng: &mut Rng) -> Vec<u8> {
        let mode = Mode::of(algo).expect("a mode whose pieces hash apart");
        let xof = matches!(algo.info.family, Family::Registry(r) if r.xof);
        let len = data.len() as u64;
        let mut fin = Final::new(mode, &algo.params, len).unwrap();
        let mut tail = Vec::new();
        let mut start = 0;
        while start < data.len() {
            let end = (start + part).min(data.len());
            let mut p = Part::new(mode, len, start as u64..end as u64);
            let mut at = start;
            while at < end {
                let n = match rng.below(4) {
                    0 => 1 + rng.below(100),
                    1 => 1 + rng.below(20_000),
                    2 => 1 + rng.below(300_000),
                    _ => end - at,
                }
                .min(end - at);
                p.write(&data[at..at + n]);
                at += n;
            }
            let pieces = p.finish();
            assert!(pieces.error.is_none(), "{:?}", pieces.error);
            assert_eq!(pieces.bytes, (end - start) as u64);
            fin.absorb(&pieces).unwrap();
            tail.extend_from_slice(&pieces.tail);
            start = end;
        }
        fin.finish(&tail, xof, algo.seek, algo.out_len).unwrap()
    }

    #[test]
    fn parts_in_random_frames_give_the_local_digest() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let data: Vec<u8> = (0..1_200_000).map(|_| rng.next() as u8).collect();
        let cases: &[(&str, Params)] = &[
            ("kt128", Params::default()),
            (
                "kt256",
                Params {
                    customization: b"C".to_vec(),
                    length: Some(80),
                    ..Default::default()
                },
            ),
            (
                "parallelhash128",
                Params {
                    block_size: Some(3000),
                    ..Default::default()
                },
            ),
            (
                "parallelhashxof256",
                Params {
                    block_size: Some(1024),
                    length: Some(40),
                    customization: b"x".to_vec(),
                    ..Default::default()
                },
            ),
        ];
        for (name, params) in cases {
            let algo = Algo::new(find(name).unwrap(), params).unwrap();
            let unit = Mode::of(&algo).unwrap().piece_len();
            for len in [0, 1, 8191, 8192, 8193, 3 * 8192 + 5, 700_001, data.len()] {
                let d = &data[..len];
                let want = algo.digest(d);
                for part_units in [1, 3, 64] {
                    let got = by_parts(&algo, d, part_units * unit, &mut rng);
                    assert_eq!(got, want, "{name} len {len} part {part_units} units");
                }
            }
        }
        // An XOF read from an offset.
        let algo = Algo::new(find("kt128").unwrap(), &Params::default())
            .unwrap()
            .with_seek(1000)
            .unwrap();
        assert_eq!(
            by_parts(&algo, &data[..100_000], 8192 * 2, &mut rng),
            algo.digest(&data[..100_000])
        );
    }

    #[test]
    fn modes_that_hash_apart() {
        let a = |n: &str, p: Params| Algo::new(find(n).unwrap(), &p).unwrap();
        assert!(Mode::of(&a("kt128", Params::default())).is_some());
        assert!(Mode::of(&a("sha3-256", Params::default())).is_none());
        assert!(Mode::of(&a("tree-li", Params::default())).is_none());
        let small = Params {
            block_size: Some(100),
            ..Default::default()
        };
        assert!(Mode::of(&a("parallelhash128", small)).is_none());
        let u = a("kt128", Params::default())
            .with_input(InputMode::Universal)
            .unwrap();
        assert!(Mode::of(&u).is_none());
    }
}
