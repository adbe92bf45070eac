//! Outboards: the chaining values of a KT128/KT256 or ParallelHash
//! message, in a small file beside it, that turn its one digest into a
//! verifier of every chunk (after Bao's outboards for BLAKE3).
//!
//! KT and ParallelHash cut the message into chunks (8192 bytes; B bytes)
//! whose chaining values (CVs) are independent, and the digest is a final
//! node over them. An outboard holds those CVs, and for KT the raw bytes the
//! final node takes directly (the first chunk, the tail after the last
//! whole chunk), so that:
//!
//! - the outboard alone gives the digest ([`FinalNode`]: a pass over the
//!   CVs, 0.39% of the message for KT128), so one trusted digest checks
//!   the whole outboard;
//! - each chunk of the message can then be checked alone against its CV
//!   ([`check_chunks`]): any byte range of the message is verified by
//!   reading that range (rounded out to chunks) and the outboard, and a
//!   damaged message reports exactly its damaged chunks.
//!
//! [`Builder`] writes an outboard while hashing (the CVs are computed
//! anyway), in order, so a partial outboard is a prefix of the whole one
//! and hashing can resume after its last complete CV ([`Builder::resume`]).
//!
//! The format is in [`format`](mod@self::format) and docs/outboard.md. Outboards hold no
//! secret (KT and ParallelHash are unkeyed) but, for KT, up to 16 KiB of
//! the message itself (its first 8192 bytes and its tail).

pub mod format;
#[cfg(feature = "std")]
pub mod source;

use alloc::vec;
use alloc::vec::Vec;
use core::ops::Range;

pub use format::{Algorithm, Header, Layout, OutboardError};

use crate::hazmat::{
    kt128_leaf_chaining_values, kt256_leaf_chaining_values, parallelhash128_block_chaining_values,
    parallelhash256_block_chaining_values, Kt128Final, Kt256Final, ParallelHash128Final,
    ParallelHash256Final,
};

fn field(e: crate::Error) -> OutboardError {
    match e {
        crate::Error::InvalidParameter(m) => OutboardError::Field(m),
        _ => OutboardError::Field("invalid parameter"),
    }
}

/// Message bytes per call to the engine while building or checking: whole
/// chunks, bounded so the CV scratch stays small whatever the block size.
fn chunks_per_call(chunk_len: u64) -> u64 {
    ((8u64 << 20) / chunk_len).clamp(1, 1 << 16)
}

/// The CVs of the message chunks `first_chunk..` held whole in `data`
/// (the last may end at the message's end), one `cv_len` each into `out`.
/// For KT, chunk 0 and the tail have no CV: only chunks of the CV range.
pub fn chunk_cvs(
    h: &Header,
    first_chunk: u64,
    data: &[u8],
    out: &mut [u8],
) -> Result<(), OutboardError> {
    let (b, n, len) = (h.chunk_len as usize, first_chunk, h.message_len);
    match h.algorithm {
        Algorithm::Kt128 => kt128_leaf_chaining_values(n, data, out),
        Algorithm::Kt256 => kt256_leaf_chaining_values(n, data, out),
        Algorithm::ParallelHash128 | Algorithm::ParallelHashXof128 => {
            parallelhash128_block_chaining_values(b, n, len, data, out)
        }
        Algorithm::ParallelHash256 | Algorithm::ParallelHashXof256 => {
            parallelhash256_block_chaining_values(b, n, len, data, out)
        }
    }
    .map_err(field)
}

enum Node {
    Kt128(Kt128Final),
    Kt256(Kt256Final),
    Ph128(ParallelHash128Final, bool),
    Ph256(ParallelHash256Final, bool),
}

/// The final node of an outboard's message: fed the head, the CVs in
/// order (any number of calls) and the tail, it gives the digest.
pub struct FinalNode {
    node: Node,
}

impl FinalNode {
    pub fn new(h: &Header) -> Result<FinalNode, OutboardError> {
        let (c, len, b) = (&h.customization[..], h.message_len, h.chunk_len as usize);
        let node = match h.algorithm {
            Algorithm::Kt128 => Node::Kt128(Kt128Final::new(len, c)),
            Algorithm::Kt256 => Node::Kt256(Kt256Final::new(len, c)),
            Algorithm::ParallelHash128 | Algorithm::ParallelHashXof128 => Node::Ph128(
                ParallelHash128Final::new(b, c, len).map_err(field)?,
                h.algorithm == Algorithm::ParallelHashXof128,
            ),
            Algorithm::ParallelHash256 | Algorithm::ParallelHashXof256 => Node::Ph256(
                ParallelHash256Final::new(b, c, len).map_err(field)?,
                h.algorithm == Algorithm::ParallelHashXof256,
            ),
        };
        Ok(FinalNode { node })
    }

    /// KT's head bytes (none for ParallelHash).
    pub fn absorb_head(&mut self, head: &[u8]) -> Result<(), OutboardError> {
        match &mut self.node {
            Node::Kt128(n) => n.absorb_head(head).map_err(field),
            Node::Kt256(n) => n.absorb_head(head).map_err(field),
            _ if head.is_empty() => Ok(()),
            _ => Err(OutboardError::Field("ParallelHash outboards have no head")),
        }
    }

    /// The next chaining values, in chunk order.
    pub fn absorb_cvs(&mut self, cvs: &[u8]) -> Result<(), OutboardError> {
        match &mut self.node {
            Node::Kt128(n) => n.absorb_chaining_values(cvs),
            Node::Kt256(n) => n.absorb_chaining_values(cvs),
            Node::Ph128(n, _) => n.absorb_chaining_values(cvs),
            Node::Ph256(n, _) => n.absorb_chaining_values(cvs),
        }
        .map_err(field)
    }

    /// The tail (KT; empty for ParallelHash), then the digest into `out`
    /// (its length is L for ParallelHash, which binds it).
    pub fn finish(self, tail: &[u8], out: &mut [u8]) -> Result<(), OutboardError> {
        match self.node {
            Node::Kt128(n) => n.finalize_into(tail, out),
            Node::Kt256(n) => n.finalize_into(tail, out),
            Node::Ph128(..) | Node::Ph256(..) if !tail.is_empty() => {
                return Err(OutboardError::Field("ParallelHash outboards have no tail"));
            }
            Node::Ph128(n, true) => n.finalize_xof().map(|mut r| r.read(out)),
            Node::Ph128(n, false) => n.finalize_into(out),
            Node::Ph256(n, true) => n.finalize_xof().map(|mut r| r.read(out)),
            Node::Ph256(n, false) => n.finalize_into(out),
        }
        .map_err(field)
    }
}

/// Hashes a message and writes its outboard's body (head, CVs, tail) in
/// order as it goes; the caller writes [`Header::encode`] first.
pub struct Builder {
    header: Header,
    layout: Layout,
    node: FinalNode,
    /// Message bytes taken.
    pos: u64,
    /// A partial chunk of the CV range, or the tail.
    pending: Vec<u8>,
    cvs: Vec<u8>,
    /// Where the CV range of the message ends (KT: the tail's offset;
    /// ParallelHash: the end of its last whole block).
    cv_end: u64,
    cv_start: u64,
}

impl Builder {
    pub fn new(header: Header) -> Result<Builder, OutboardError> {
        let layout = header.layout();
        let node = FinalNode::new(&header)?;
        let cv_start = layout.first_cv_chunk * header.chunk_len;
        let cv_end = if header.algorithm.is_kt() {
            cv_start + layout.cv_count * header.chunk_len
        } else {
            header.message_len / header.chunk_len * header.chunk_len
        };
        Ok(Builder {
            header,
            layout,
            node,
            pos: 0,
            pending: Vec::new(),
            cvs: Vec::new(),
            cv_end,
            cv_start,
        })
    }

    /// A builder that continues an outboard whose body so far is `head`
    /// (all of it) and `cvs` (whole values, not past the CV range): the
    /// message continues at [`position`](Self::position). The caller must
    /// have checked that they belong to this message.
    pub fn resume(header: Header, head: &[u8], cvs: &[u8]) -> Result<Builder, OutboardError> {
        let mut b = Builder::new(header)?;
        let want_head = b.layout.head.end - b.layout.head.start;
        let cv_len = b.header.cv_len() as u64;
        if head.len() as u64 != want_head || !(cvs.len() as u64).is_multiple_of(cv_len) {
            return Err(OutboardError::Field(
                "resume: incomplete head or chaining value",
            ));
        }
        let n = cvs.len() as u64 / cv_len;
        // Only whole chunks' CVs (ParallelHash's last short block is
        // hashed by `finish`).
        if n > (b.cv_end - b.cv_start) / b.header.chunk_len {
            return Err(OutboardError::Field(
                "resume: more chaining values than the message has whole chunks",
            ));
        }
        b.node.absorb_head(head)?;
        b.node.absorb_cvs(cvs)?;
        b.pos = if n == 0 {
            want_head
        } else {
            b.cv_start + n * b.header.chunk_len
        };
        Ok(b)
    }

    pub fn header(&self) -> &Header {
        &self.header
    }

    /// Message bytes taken so far (where a resumed hash continues).
    pub fn position(&self) -> u64 {
        self.pos
    }

    /// Take the next message bytes; `out` receives the body bytes they
    /// complete, in order.
    pub fn update(
        &mut self,
        mut data: &[u8],
        out: &mut dyn FnMut(&[u8]),
    ) -> Result<(), OutboardError> {
        if (data.len() as u64) > self.header.message_len - self.pos {
            return Err(OutboardError::Unsupported(
                "the message is longer than the length the outboard was started with (did the file grow?)",
            ));
        }
        let chunk = self.header.chunk_len;
        // KT's head: raw.
        let head_end = self.layout.head.end - self.layout.head.start;
        if self.pos < head_end {
            let take = ((head_end - self.pos) as usize).min(data.len());
            out(&data[..take]);
            self.node.absorb_head(&data[..take])?;
            self.pos += take as u64;
            data = &data[take..];
        }
        // The CV range: whole chunks.
        if self.pos < self.cv_end && !data.is_empty() {
            if !self.pending.is_empty() {
                let take = ((chunk as usize) - self.pending.len()).min(data.len());
                self.pending.extend_from_slice(&data[..take]);
                data = &data[take..];
                if self.pending.len() as u64 == chunk {
                    let p = core::mem::take(&mut self.pending);
                    self.hash_whole(&p, out)?;
                }
            }
            let room = self.cv_end - self.pos - self.pending.len() as u64;
            let whole = (data.len() as u64).min(room) / chunk * chunk;
            if self.pending.is_empty() && whole > 0 {
                self.hash_run(&data[..whole as usize], out)?;
                data = &data[whole as usize..];
            }
            let part = (data.len() as u64).min(self.cv_end - self.pos - self.pending.len() as u64);
            self.pending.extend_from_slice(&data[..part as usize]);
            data = &data[part as usize..];
        }
        // Past the CV range: the tail (KT) or the last short block.
        if !data.is_empty() {
            self.pending.extend_from_slice(data);
        }
        Ok(())
    }

    /// Whole chunks of the CV range starting at `self.pos`.
    fn hash_whole(&mut self, data: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<(), OutboardError> {
        let n = data.len() as u64 / self.header.chunk_len;
        self.cvs.resize(n as usize * self.header.cv_len(), 0);
        let first = self.pos / self.header.chunk_len;
        chunk_cvs(&self.header, first, data, &mut self.cvs)?;
        out(&self.cvs);
        self.node.absorb_cvs(&self.cvs)?;
        self.pos += data.len() as u64;
        Ok(())
    }

    /// Whole chunks of the CV range starting at `self.pos`, as plain
    /// hashing does them (`chunked.rs`): one engine call per group of
    /// chunks, and during each call, on this thread, the previous group's
    /// CVs written out and absorbed by the final node. Before, every group
    /// was hashed, then written and absorbed while the other cores idled.
    fn hash_run(&mut self, data: &[u8], out: &mut dyn FnMut(&[u8])) -> Result<(), OutboardError> {
        let chunk = self.header.chunk_len as usize;
        let cv_len = self.header.cv_len();
        let spec = self.header.algorithm.chunk_spec();
        let node = &mut self.node;
        let mut absorbed: Result<(), OutboardError> = Ok(());
        let mut sink = |cvs: &[u8]| {
            if cvs.is_empty() || absorbed.is_err() {
                return;
            }
            out(cvs);
            absorbed = node.absorb_cvs(cvs);
        };
        let (mut prev, mut cur) = (Vec::new(), Vec::new());
        let mut pieces: Vec<&[u8]> = Vec::new();
        crate::engine::on_cores(|e| {
            let per_call = chunk.saturating_mul(e.batch_hint().max_items.max(1));
            for group in data.chunks(per_call) {
                pieces.clear();
                pieces.extend(group.chunks(chunk));
                cur.resize(pieces.len() * cv_len, 0);
                e.hash_many_beside(&spec, &pieces, cv_len, &mut cur, &mut || sink(&prev));
                core::mem::swap(&mut prev, &mut cur);
            }
        });
        sink(&prev);
        absorbed?;
        self.pos += data.len() as u64;
        Ok(())
    }

    /// Finish: `out` receives the rest of the body (KT's tail, ParallelHash's
    /// last CV) and `digest` the digest (its length is ParallelHash's L).
    pub fn finish(
        mut self,
        out: &mut dyn FnMut(&[u8]),
        digest: &mut [u8],
    ) -> Result<(), OutboardError> {
        let got = self.pos + self.pending.len() as u64;
        if got != self.header.message_len {
            return Err(OutboardError::Unsupported(
                "the message is shorter than the length the outboard was started with (did the file shrink?)",
            ));
        }
        let rest = core::mem::take(&mut self.pending);
        if self.header.algorithm.is_kt() {
            out(&rest);
            return self.node.finish(&rest, digest);
        }
        if !rest.is_empty() {
            self.hash_whole_last(&rest, out)?;
        }
        self.node.finish(&[], digest)
    }

    fn hash_whole_last(
        &mut self,
        rest: &[u8],
        out: &mut dyn FnMut(&[u8]),
    ) -> Result<(), OutboardError> {
        let mut cv = vec![0u8; self.header.cv_len()];
        chunk_cvs(
            &self.header,
            self.pos / self.header.chunk_len,
            rest,
            &mut cv,
        )?;
        out(&cv);
        self.node.absorb_cvs(&cv)
    }
}

/// A whole outboard held in memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outboard {
    pub header: Header,
    /// The encoded outboard.
    bytes: Vec<u8>,
    layout: Layout,
}

impl Outboard {
    /// Hash `message` and build its outboard; returns it and the digest
    /// (`out_len` bytes).
    pub fn build(
        header: Header,
        message: &[u8],
        out_len: usize,
    ) -> Result<(Outboard, Vec<u8>), OutboardError> {
        let mut bytes = header.encode();
        let mut b = Builder::new(header.clone())?;
        b.update(message, &mut |x| bytes.extend_from_slice(x))?;
        let mut digest = vec![0u8; out_len];
        b.finish(&mut |x| bytes.extend_from_slice(x), &mut digest)?;
        let layout = header.layout();
        Ok((
            Outboard {
                header,
                bytes,
                layout,
            },
            digest,
        ))
    }

    /// Parse a complete outboard.
    pub fn parse(bytes: &[u8]) -> Result<Outboard, OutboardError> {
        let header = Header::parse(bytes)?;
        let layout = header.layout();
        let (have, need) = (bytes.len() as u64, layout.total_len());
        if have < need {
            return Err(OutboardError::Incomplete { have, need });
        }
        if have > need {
            return Err(OutboardError::TrailingBytes { have, need });
        }
        Ok(Outboard {
            header,
            bytes: bytes.to_vec(),
            layout,
        })
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    fn part(&self, r: &Range<u64>) -> &[u8] {
        &self.bytes[r.start as usize..r.end as usize]
    }

    /// The digest the outboard gives (`out.len()` bytes).
    pub fn digest_into(&self, out: &mut [u8]) -> Result<(), OutboardError> {
        let mut node = FinalNode::new(&self.header)?;
        node.absorb_head(self.part(&self.layout.head))?;
        node.absorb_cvs(self.part(&self.layout.cvs))?;
        node.finish(self.part(&self.layout.tail), out)
    }

    /// Check the outboard against a trusted digest.
    pub fn check_digest(&self, digest: &[u8]) -> Result<(), OutboardError> {
        let mut d = vec![0u8; digest.len()];
        self.digest_into(&mut d)?;
        if crate::ct_eq(&d, digest) {
            Ok(())
        } else {
            Err(OutboardError::DigestMismatch)
        }
    }

    /// What chunk `i` is checked against.
    pub fn expected(&self, i: u64) -> Expected<'_> {
        expected_for(&self.header, &self.layout, i, |r| self.part(&r))
    }

    /// The damaged chunks of `message` (which may be shorter or longer than
    /// the outboard's message), as message byte ranges in order; a message
    /// longer than the outboard's adds its extra bytes as one range.
    pub fn damaged(&self, message: &[u8]) -> Result<Vec<Range<u64>>, OutboardError> {
        let n = self.header.chunk_count();
        let bad = check_chunks(&self.header, 0..n, message, &mut |i| {
            Ok(self.expected(i).to_owned())
        })?;
        let mut out: Vec<Range<u64>> = bad
            .into_iter()
            .map(|i| self.header.chunk_range(i))
            .collect();
        if message.len() as u64 > self.header.message_len {
            out.push(self.header.message_len..message.len() as u64);
        }
        Ok(out)
    }
}

/// What a chunk is checked against: its raw bytes (KT's head and tail)
/// or its chaining value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expected<'a> {
    Bytes(&'a [u8]),
    Cv(&'a [u8]),
}

/// [`Expected`] with its bytes owned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExpectedOwned {
    Bytes(Vec<u8>),
    Cv(Vec<u8>),
}

impl Expected<'_> {
    pub fn to_owned(&self) -> ExpectedOwned {
        match self {
            Expected::Bytes(b) => ExpectedOwned::Bytes(b.to_vec()),
            Expected::Cv(c) => ExpectedOwned::Cv(c.to_vec()),
        }
    }
}

/// The outboard byte range holding what chunk `i` is checked against, and
/// whether it is a CV (else raw bytes).
pub fn expected_range(h: &Header, layout: &Layout, i: u64) -> (Range<u64>, bool) {
    let cv = h.cv_len() as u64;
    if h.algorithm.is_kt() {
        if i == 0 {
            return (layout.head.clone(), false);
        }
        if i > layout.cv_count {
            return (layout.tail.clone(), false);
        }
    }
    let k = i - layout.first_cv_chunk;
    let s = layout.cvs.start + k * cv;
    (s..s + cv, true)
}

fn expected_for<'a>(
    h: &Header,
    layout: &Layout,
    i: u64,
    part: impl Fn(Range<u64>) -> &'a [u8],
) -> Expected<'a> {
    let (r, is_cv) = expected_range(h, layout, i);
    if is_cv {
        Expected::Cv(part(r))
    } else {
        Expected::Bytes(part(r))
    }
}

/// Check the message chunks `chunks` whose bytes are `data` (from the
/// first chunk's start; shorter when the message was truncated: chunks
/// not wholly there are damaged). `expected(i)` gives what chunk i must
/// match. Returns the damaged chunks' indexes in order.
pub fn check_chunks(
    h: &Header,
    chunks: Range<u64>,
    data: &[u8],
    expected: &mut dyn FnMut(u64) -> Result<ExpectedOwned, OutboardError>,
) -> Result<Vec<u64>, OutboardError> {
    let mut bad = Vec::new();
    let base = h.chunk_range(chunks.start).start;
    let chunk_data = |i: u64| -> Option<&[u8]> {
        let r = h.chunk_range(i);
        data.get((r.start - base) as usize..(r.end - base) as usize)
    };
    let mut i = chunks.start;
    let per = chunks_per_call(h.chunk_len);
    let cv_len = h.cv_len();
    let mut cvs = Vec::new();
    while i < chunks.end {
        let first = expected(i)?;
        if let ExpectedOwned::Bytes(want) = first {
            if chunk_data(i) != Some(&want[..]) {
                bad.push(i);
            }
            i += 1;
            continue;
        }
        // A run of CV chunks present in `data`: hash them in one call.
        let mut end = i;
        while end < chunks.end && end - i < per && chunk_data(end).is_some() {
            if end > i && !matches!(expected(end)?, ExpectedOwned::Cv(_)) {
                break;
            }
            end += 1;
        }
        if end == i {
            bad.push(i);
            i += 1;
            continue;
        }
        let r0 = h.chunk_range(i).start - base;
        let r1 = h.chunk_range(end - 1).end - base;
        cvs.resize((end - i) as usize * cv_len, 0);
        chunk_cvs(h, i, &data[r0 as usize..r1 as usize], &mut cvs)?;
        for (k, got) in cvs.chunks(cv_len).enumerate() {
            let j = i + k as u64;
            let want = match expected(j)? {
                ExpectedOwned::Cv(c) => c,
                ExpectedOwned::Bytes(_) => Vec::new(),
            };
            if !crate::ct_eq(got, &want) {
                bad.push(j);
            }
        }
        i = end;
    }
    Ok(bad)
}

#[cfg(test)]
mod tests;
