//! Checking a message against an outboard where both are read by byte
//! ranges (a local file, memory, an object store's ranged GETs): the one
//! loop behind `keccakx verify`, the Python API and URLs.
//!
//! [`OutboardReader::open`] reads and checks the header and length,
//! [`check_digest`](OutboardReader::check_digest) the outboard against a
//! trusted digest (its head, CVs and tail: no message byte), and
//! [`damaged_chunks`](OutboardReader::damaged_chunks) hashes only the
//! chunks asked for, reading them (and their CVs) in runs.

use std::io;
use std::ops::Range;
use std::vec::Vec;

use super::{
    check_chunks, expected_range, ExpectedOwned, FinalNode, Header, Layout, OutboardError,
};

/// A file's modification time in nanoseconds since the epoch, as a
/// header's `source_mtime_ns` records it (0 where the platform gives none):
/// one definition for every front end that writes or resumes an outboard.
#[cfg(unix)]
pub fn source_mtime_ns(m: &std::fs::Metadata) -> u64 {
    use std::os::unix::fs::MetadataExt;
    (m.mtime() as u64)
        .wrapping_mul(1_000_000_000)
        .wrapping_add(m.mtime_nsec() as u64)
}

/// A file's modification time as a header records it: 0 off Unix.
#[cfg(not(unix))]
pub fn source_mtime_ns(_: &std::fs::Metadata) -> u64 {
    0
}

/// Bytes read by offset. `read_at` fills `buf` from `off` and returns how
/// many bytes it read: fewer than `buf.len()` only at the end.
pub trait ReadAt {
    fn read_at(&mut self, off: u64, buf: &mut [u8]) -> io::Result<usize>;
    /// The length in bytes.
    fn size(&mut self) -> io::Result<u64>;
}

impl ReadAt for std::fs::File {
    fn read_at(&mut self, off: u64, buf: &mut [u8]) -> io::Result<usize> {
        use std::io::{Read, Seek, SeekFrom};
        self.seek(SeekFrom::Start(off))?;
        let mut n = 0;
        while n < buf.len() {
            match self.read(&mut buf[n..]) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }
    fn size(&mut self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }
}

impl ReadAt for &[u8] {
    fn read_at(&mut self, off: u64, buf: &mut [u8]) -> io::Result<usize> {
        let s = usize::try_from(off).unwrap_or(usize::MAX).min(self.len());
        let n = buf.len().min(self.len() - s);
        buf[..n].copy_from_slice(&self[s..s + n]);
        Ok(n)
    }
    fn size(&mut self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }
}

/// Why a check could not be done: the outboard is unusable (its own
/// error), or reading the outboard or the message failed.
#[derive(Debug)]
pub enum CheckError {
    Outboard(OutboardError),
    ReadOutboard(io::Error),
    ReadMessage(io::Error),
}

impl core::fmt::Display for CheckError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CheckError::Outboard(e) => write!(f, "{e}"),
            CheckError::ReadOutboard(e) => write!(f, "reading the outboard: {e}"),
            CheckError::ReadMessage(e) => write!(f, "reading the data: {e}"),
        }
    }
}

impl std::error::Error for CheckError {}

impl From<OutboardError> for CheckError {
    fn from(e: OutboardError) -> Self {
        CheckError::Outboard(e)
    }
}

/// An outboard read by ranges.
pub struct OutboardReader<R> {
    pub header: Header,
    pub layout: Layout,
    src: R,
}

/// Outboard bytes read at a time while checking the digest.
const CV_READ: usize = 1 << 20;

/// Message bytes hashed per read while checking chunks.
const RUN_BYTES: u64 = 16 << 20;

fn exact<R: ReadAt>(src: &mut R, off: u64, buf: &mut [u8]) -> io::Result<()> {
    if src.read_at(off, buf)? < buf.len() {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            "shorter than its header says",
        ));
    }
    Ok(())
}

impl<R: ReadAt> OutboardReader<R> {
    /// Read the header (and check the outboard's length against it).
    pub fn open(mut src: R) -> Result<Self, CheckError> {
        let have = src.size().map_err(CheckError::ReadOutboard)?;
        let mut hb = vec![0u8; have.min(128 << 10) as usize];
        let n = src.read_at(0, &mut hb).map_err(CheckError::ReadOutboard)?;
        hb.truncate(n);
        let header = Header::parse(&hb)?;
        let layout = header.layout();
        let need = layout.total_len();
        if have < need {
            return Err(OutboardError::Incomplete { have, need }.into());
        }
        if have > need {
            return Err(OutboardError::TrailingBytes { have, need }.into());
        }
        Ok(OutboardReader {
            header,
            layout,
            src,
        })
    }

    fn part(&mut self, r: Range<u64>) -> Result<Vec<u8>, CheckError> {
        let mut b = vec![0u8; (r.end - r.start) as usize];
        exact(&mut self.src, r.start, &mut b).map_err(CheckError::ReadOutboard)?;
        Ok(b)
    }

    /// The outboard's digest must be `digest`: its final node over the
    /// head, the CVs (read 1 MiB at a time) and the tail.
    pub fn check_digest(&mut self, digest: &[u8]) -> Result<(), CheckError> {
        let l = self.layout.clone();
        let mut node = FinalNode::new(&self.header)?;
        node.absorb_head(&self.part(l.head.clone())?)?;
        // One buffer for all the CVs' reads: a fresh 1 MiB allocation per
        // read is a fresh mapping, and faulting its pages in cost about
        // as much as hashing them.
        let mut buf = vec![0u8; ((l.cvs.end - l.cvs.start) as usize).min(CV_READ)];
        let mut off = l.cvs.start;
        while off < l.cvs.end {
            let n = ((l.cvs.end - off) as usize).min(buf.len());
            exact(&mut self.src, off, &mut buf[..n]).map_err(CheckError::ReadOutboard)?;
            node.absorb_cvs(&buf[..n])?;
            off += n as u64;
        }
        let mut got = vec![0u8; digest.len()];
        node.finish(&self.part(l.tail.clone())?, &mut got)?;
        if crate::ct_eq(&got, digest) {
            Ok(())
        } else {
            Err(OutboardError::DigestMismatch.into())
        }
    }

    /// The chunks holding message bytes `range` (rounded out to whole
    /// chunks); an error past the message's end.
    pub fn chunks_of(&self, range: Range<u64>) -> Result<Range<u64>, OutboardError> {
        if range.start > range.end || range.end > self.header.message_len {
            return Err(OutboardError::Field(
                "the range lies outside the outboard's message",
            ));
        }
        let c = self.header.chunk_len;
        Ok(range.start / c..range.end.div_ceil(c))
    }

    /// The damaged chunks among `chunks`, reading only them from
    /// `message` (and their CVs from the outboard), in runs of 16 MiB.
    /// A message shorter than the outboard's has its missing chunks
    /// damaged. Check the digest first: this trusts the outboard.
    pub fn damaged_chunks(
        &mut self,
        message: &mut dyn ReadAt,
        chunks: Range<u64>,
    ) -> Result<Vec<u64>, CheckError> {
        let h = self.header.clone();
        let per = (RUN_BYTES / h.chunk_len).max(1);
        let mut damaged = Vec::new();
        let mut data = Vec::new();
        let mut i = chunks.start;
        while i < chunks.end {
            let end = (i + per).min(chunks.end);
            let r = h.chunk_range(i).start..h.chunk_range(end - 1).end;
            data.resize((r.end - r.start) as usize, 0);
            let n = message
                .read_at(r.start, &mut data)
                .map_err(CheckError::ReadMessage)?;
            data.truncate(n);
            // What these chunks are checked against, in one read.
            let (c0, _) = expected_range(&h, &self.layout, i);
            let (c1, _) = expected_range(&h, &self.layout, end - 1);
            let span = c0.start.min(c1.start)..c0.end.max(c1.end);
            let want = self.part(span.clone())?;
            let layout = &self.layout;
            let mut expected = |j: u64| -> Result<ExpectedOwned, OutboardError> {
                let (r, is_cv) = expected_range(&h, layout, j);
                let b =
                    want[(r.start - span.start) as usize..(r.end - span.start) as usize].to_vec();
                Ok(if is_cv {
                    ExpectedOwned::Cv(b)
                } else {
                    ExpectedOwned::Bytes(b)
                })
            };
            damaged.extend(check_chunks(&h, i..end, &data, &mut expected)?);
            i = end;
        }
        Ok(damaged)
    }
}
