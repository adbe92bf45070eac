//! The outboard file format: a header, then the message's head (KT only),
//! the chaining values in order, then its tail (KT only). See
//! docs/outboard.md for the byte layout and its invariants.

use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;

use crate::fips202::Sha3_256;
use crate::hazmat::KtPlan;

/// The first eight bytes of every outboard ("\x89KXO\r\n\x1a\n", after
/// PNG: a text-mode transfer or a 7-bit channel breaks it visibly).
pub const MAGIC: [u8; 8] = *b"\x89KXO\r\n\x1a\n";
/// The format version this code writes and reads.
pub const VERSION: u16 = 1;
/// Bytes of the header before the customization string.
pub const FIXED_LEN: usize = 48;
/// Bytes of the header checksum (SHA3-256 of the header before it, cut).
pub const CHECKSUM_LEN: usize = 16;
/// The longest customization string an outboard holds.
pub const MAX_CUSTOMIZATION: usize = 1 << 16;
/// The largest ParallelHash block size an outboard accepts (1 GiB).
pub const MAX_BLOCK: u64 = 1 << 30;

/// The functions an outboard can describe: the tree modes whose digest is
/// a final node over per-chunk chaining values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    Kt128,
    Kt256,
    ParallelHash128,
    ParallelHash256,
    ParallelHashXof128,
    ParallelHashXof256,
}

impl Algorithm {
    /// Every algorithm, in id order.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Kt128,
        Algorithm::Kt256,
        Algorithm::ParallelHash128,
        Algorithm::ParallelHash256,
        Algorithm::ParallelHashXof128,
        Algorithm::ParallelHashXof256,
    ];

    /// The id stored in the header (1..=6).
    pub fn id(self) -> u16 {
        Algorithm::ALL.iter().position(|a| *a == self).unwrap_or(0) as u16 + 1
    }

    pub fn from_id(id: u16) -> Option<Algorithm> {
        Algorithm::ALL.get(usize::from(id).checked_sub(1)?).copied()
    }

    /// The registry's name (`kt128`, `parallelhash256`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Kt128 => "kt128",
            Algorithm::Kt256 => "kt256",
            Algorithm::ParallelHash128 => "parallelhash128",
            Algorithm::ParallelHash256 => "parallelhash256",
            Algorithm::ParallelHashXof128 => "parallelhashxof128",
            Algorithm::ParallelHashXof256 => "parallelhashxof256",
        }
    }

    /// The algorithm of a registry name, if it has outboards.
    pub fn from_name(name: &str) -> Option<Algorithm> {
        let info = crate::registry::find(name)?;
        Algorithm::ALL.into_iter().find(|a| a.name() == info.name)
    }

    pub fn is_kt(self) -> bool {
        matches!(self, Algorithm::Kt128 | Algorithm::Kt256)
    }

    /// Whether it reads 128-bit-strength chaining values (32 bytes).
    fn is_128(self) -> bool {
        matches!(
            self,
            Algorithm::Kt128 | Algorithm::ParallelHash128 | Algorithm::ParallelHashXof128
        )
    }

    /// The sponge that hashes one chunk into its CV: KT's leaf
    /// (TurboSHAKE, domain 0x0B) or ParallelHash's block (SHAKE).
    pub(crate) fn chunk_spec(self) -> crate::engine::LaneSpec {
        use crate::rfc9861::KtFinalNode;
        use crate::sp800_185::ParallelHashOuter;
        match self {
            Algorithm::Kt128 => KtFinalNode::<168>::LEAF_SPEC,
            Algorithm::Kt256 => KtFinalNode::<136>::LEAF_SPEC,
            Algorithm::ParallelHash128 | Algorithm::ParallelHashXof128 => {
                ParallelHashOuter::<168>::BLOCK_SPEC
            }
            Algorithm::ParallelHash256 | Algorithm::ParallelHashXof256 => {
                ParallelHashOuter::<136>::BLOCK_SPEC
            }
        }
    }

    /// Chaining value length: 32 (the 128 functions) or 64.
    pub fn cv_len(self) -> usize {
        if self.is_128() {
            32
        } else {
            64
        }
    }
}

/// Why an outboard was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OutboardError {
    /// Not an outboard (the magic bytes differ).
    NotAnOutboard,
    /// An outboard of a format version this code does not read.
    Version(u16),
    /// The header names an algorithm this code does not know.
    Algorithm(u16),
    /// The header's checksum does not match: it was damaged or edited.
    HeaderChecksum,
    /// A header field out of its range (which one).
    Field(&'static str),
    /// The file ends before the header does.
    TruncatedHeader,
    /// The body is shorter than the header says: `have` of `need` bytes
    /// (an interrupted write, or a truncated copy).
    Incomplete { have: u64, need: u64 },
    /// The body is longer than the header says.
    TrailingBytes { have: u64, need: u64 },
    /// The outboard's final node does not give the trusted digest: the
    /// outboard is not the one of the message that digest is of (or it is
    /// damaged).
    DigestMismatch,
    /// Parameters or a message that outboards cannot describe.
    Unsupported(&'static str),
}

impl fmt::Display for OutboardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutboardError::NotAnOutboard => f.write_str("not a keccakx outboard (bad magic bytes)"),
            OutboardError::Version(v) => write!(
                f,
                "outboard format version {v} is not supported (this keccakx reads version {VERSION})"
            ),
            OutboardError::Algorithm(id) => write!(f, "outboard names unknown algorithm id {id}"),
            OutboardError::HeaderChecksum => {
                f.write_str("outboard header checksum mismatch: the header is damaged or was edited")
            }
            OutboardError::Field(what) => write!(f, "outboard header: {what}"),
            OutboardError::TruncatedHeader => f.write_str("outboard is truncated inside its header"),
            OutboardError::Incomplete { have, need } => write!(
                f,
                "outboard is incomplete: {have} of {need} bytes (an interrupted write? \
                 `keccakx sum --outboard FILE --resume` finishes it)"
            ),
            OutboardError::TrailingBytes { have, need } => write!(
                f,
                "outboard is {have} bytes, its header says {need}: extra bytes at the end"
            ),
            OutboardError::DigestMismatch => f.write_str(
                "outboard does not match the digest: it belongs to another file or version \
                 of it, or it is damaged",
            ),
            OutboardError::Unsupported(what) => f.write_str(what),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for OutboardError {}

/// The header: everything needed to recompute the digest from the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub algorithm: Algorithm,
    /// |M| in bytes.
    pub message_len: u64,
    /// 8192 for KT; the block size B for ParallelHash.
    pub chunk_len: u64,
    /// The customization string S (a public parameter of KT and
    /// ParallelHash, stored in full: the digest cannot be recomputed
    /// without it).
    pub customization: Vec<u8>,
    /// The source's modification time (ns since the epoch) when writing
    /// began, or 0: a note for resuming, not used by verification.
    pub source_mtime_ns: u64,
}

/// Where the parts of the body lie, in outboard byte offsets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The header's length.
    pub header_len: u64,
    /// The raw head (KT: M's first min(|M|, 8192) bytes; ParallelHash: empty).
    pub head: Range<u64>,
    /// The chaining values, `cv_len` bytes each, in chunk order.
    pub cvs: Range<u64>,
    /// The raw tail (KT: M after its last whole chunk; ParallelHash: empty).
    pub tail: Range<u64>,
    /// Chaining values held.
    pub cv_count: u64,
    /// The message chunk of the first chaining value (KT: 1; ParallelHash: 0).
    pub first_cv_chunk: u64,
}

impl Layout {
    /// The outboard's total length.
    pub fn total_len(&self) -> u64 {
        self.tail.end
    }
}

impl Header {
    /// A header; an error for parameters outboards cannot hold.
    pub fn new(
        algorithm: Algorithm,
        message_len: u64,
        block_size: Option<usize>,
        customization: &[u8],
    ) -> Result<Header, OutboardError> {
        let chunk_len = if algorithm.is_kt() {
            if block_size.is_some() {
                return Err(OutboardError::Unsupported("KT takes no block size"));
            }
            crate::hazmat::KT_CHUNK_LEN as u64
        } else {
            block_size.unwrap_or(8192) as u64
        };
        let h = Header {
            algorithm,
            message_len,
            chunk_len,
            customization: customization.to_vec(),
            source_mtime_ns: 0,
        };
        h.validate()?;
        Ok(h)
    }

    fn validate(&self) -> Result<(), OutboardError> {
        if self.customization.len() > MAX_CUSTOMIZATION {
            return Err(OutboardError::Field(
                "customization longer than 65536 bytes",
            ));
        }
        if self.algorithm.is_kt() && self.chunk_len != crate::hazmat::KT_CHUNK_LEN as u64 {
            return Err(OutboardError::Field("KT chunk length must be 8192"));
        }
        if self.chunk_len == 0 || self.chunk_len > MAX_BLOCK {
            return Err(OutboardError::Field(
                "block size must be 1..=1073741824 bytes",
            ));
        }
        // The layout must fit in a u64 (and a message's offsets too).
        self.try_layout()
            .ok_or(OutboardError::Field("message too long for its outboard"))?;
        Ok(())
    }

    pub fn cv_len(&self) -> usize {
        self.algorithm.cv_len()
    }

    /// The header's encoded length.
    pub fn encoded_len(&self) -> usize {
        FIXED_LEN + self.customization.len() + CHECKSUM_LEN
    }

    /// Number of message chunks (KT: head, whole leaves, tail; ParallelHash:
    /// blocks); chunk i is bytes [i·chunk_len, min((i+1)·chunk_len, |M|)).
    pub fn chunk_count(&self) -> u64 {
        self.message_len.div_ceil(self.chunk_len)
    }

    /// The message bytes of chunk `i`.
    pub fn chunk_range(&self, i: u64) -> Range<u64> {
        let s = i.saturating_mul(self.chunk_len).min(self.message_len);
        s..s.saturating_add(self.chunk_len).min(self.message_len)
    }

    fn try_layout(&self) -> Option<Layout> {
        let header_len = self.encoded_len() as u64;
        let cv = self.cv_len() as u64;
        let (head_len, cv_count, first, tail_len) = if self.algorithm.is_kt() {
            let p = KtPlan::new(self.message_len);
            (
                p.head_len as u64,
                p.leaves.end - p.leaves.start,
                1,
                p.tail_len as u64,
            )
        } else {
            (0, self.chunk_count(), 0, 0)
        };
        let head = header_len..header_len + head_len;
        let cvs_end = head.end.checked_add(cv_count.checked_mul(cv)?)?;
        let tail_end = cvs_end.checked_add(tail_len)?;
        Some(Layout {
            header_len,
            cvs: head.end..cvs_end,
            head,
            tail: cvs_end..tail_end,
            cv_count,
            first_cv_chunk: first,
        })
    }

    /// Where the body's parts lie.
    pub fn layout(&self) -> Layout {
        // Validated headers always have one.
        self.try_layout().unwrap_or(Layout {
            header_len: 0,
            head: 0..0,
            cvs: 0..0,
            tail: 0..0,
            cv_count: 0,
            first_cv_chunk: 0,
        })
    }

    /// The encoded header.
    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.encoded_len());
        v.extend_from_slice(&MAGIC);
        v.extend_from_slice(&VERSION.to_le_bytes());
        v.extend_from_slice(&self.algorithm.id().to_le_bytes());
        v.extend_from_slice(&0u32.to_le_bytes());
        v.extend_from_slice(&self.message_len.to_le_bytes());
        v.extend_from_slice(&self.chunk_len.to_le_bytes());
        v.extend_from_slice(&(self.cv_len() as u16).to_le_bytes());
        v.extend_from_slice(&0u16.to_le_bytes());
        v.extend_from_slice(&(self.customization.len() as u32).to_le_bytes());
        v.extend_from_slice(&self.source_mtime_ns.to_le_bytes());
        v.extend_from_slice(&self.customization);
        let sum = Sha3_256::digest(&v);
        v.extend_from_slice(&sum[..CHECKSUM_LEN]);
        v
    }

    /// Parse a header from the start of `bytes` (the rest is ignored).
    pub fn parse(bytes: &[u8]) -> Result<Header, OutboardError> {
        let get = |r: Range<usize>| bytes.get(r).ok_or(OutboardError::TruncatedHeader);
        let magic = bytes.get(..8).unwrap_or(bytes);
        if magic != &MAGIC[..magic.len()] {
            return Err(OutboardError::NotAnOutboard);
        }
        let fixed = get(0..FIXED_LEN)?;
        let u16_at = |i: usize| u16::from_le_bytes([fixed[i], fixed[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(fixed[i..i + 4].try_into().unwrap_or([0; 4]));
        let u64_at = |i: usize| u64::from_le_bytes(fixed[i..i + 8].try_into().unwrap_or([0; 8]));
        let version = u16_at(8);
        if version != VERSION {
            return Err(OutboardError::Version(version));
        }
        let cust_len = u32_at(36) as usize;
        if cust_len > MAX_CUSTOMIZATION {
            return Err(OutboardError::Field(
                "customization longer than 65536 bytes",
            ));
        }
        let body = get(0..FIXED_LEN + cust_len)?;
        let sum = get(FIXED_LEN + cust_len..FIXED_LEN + cust_len + CHECKSUM_LEN)?;
        if !crate::ct_eq(&Sha3_256::digest(body)[..CHECKSUM_LEN], sum) {
            return Err(OutboardError::HeaderChecksum);
        }
        let algorithm =
            Algorithm::from_id(u16_at(10)).ok_or(OutboardError::Algorithm(u16_at(10)))?;
        if u32_at(12) != 0 || u16_at(34) != 0 {
            return Err(OutboardError::Field("reserved bits set (a newer writer?)"));
        }
        if usize::from(u16_at(32)) != algorithm.cv_len() {
            return Err(OutboardError::Field(
                "chaining value length does not match the algorithm",
            ));
        }
        let h = Header {
            algorithm,
            message_len: u64_at(16),
            chunk_len: u64_at(24),
            customization: body[FIXED_LEN..].to_vec(),
            source_mtime_ns: u64_at(40),
        };
        h.validate()?;
        Ok(h)
    }
}
