//! The Merkle–Damgård frame shared by MD5, SHA-1 and SHA-256: 64-byte blocks,
//! padding 0x80, zeros, and the message length in bits as a 64-bit integer
//! (little-endian for MD5, big-endian for SHA), then the chaining words
//! serialised in the same byte order. Only the compression function differs
//! between the three, and between the sequential, SIMD and two-thread forms.

use crate::buffer::Buffer;

/// Compression function: `h <- compress(h, block)` on up to eight 32-bit words.
pub(crate) type Compress = fn(&mut [u32; 8], &[u8; 64]);

/// Byte order of the length field and of the digest words.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Endian {
    Little,
    Big,
}

/// A streaming Merkle–Damgård hash over 64-byte blocks.
#[derive(Clone)]
pub(crate) struct MdCore {
    h: [u32; 8],
    bytes: u64,
    buf: Buffer<64>,
    compress: Compress,
    endian: Endian,
    /// Digest length in 32-bit words (4, 5 or 8).
    words: usize,
}

impl MdCore {
    pub(crate) fn new(iv: &[u32], endian: Endian, compress: Compress) -> Self {
        let mut h = [0u32; 8];
        h[..iv.len()].copy_from_slice(iv);
        Self {
            h,
            bytes: 0,
            buf: Buffer::new(),
            compress,
            endian,
            words: iv.len(),
        }
    }

    pub(crate) fn update(&mut self, data: &[u8]) {
        self.bytes = self.bytes.wrapping_add(data.len() as u64);
        let (h, f) = (&mut self.h, self.compress);
        self.buf.absorb_eager(data, |b| f(h, b));
    }

    /// Pads, compresses the last one or two blocks and writes the digest
    /// (`4 * words` bytes) into `out`.
    pub(crate) fn finalize_into(mut self, out: &mut [u8]) {
        let len = self.buf.len;
        let bits = self.bytes.wrapping_mul(8);
        let length = match self.endian {
            Endian::Little => bits.to_le_bytes(),
            Endian::Big => bits.to_be_bytes(),
        };
        let mut block = [0u8; 64];
        block[..len].copy_from_slice(&self.buf.buf[..len]);
        block[len] = 0x80;
        if len >= 56 {
            (self.compress)(&mut self.h, &block);
            block = [0u8; 64];
        }
        block[56..].copy_from_slice(&length);
        (self.compress)(&mut self.h, &block);
        for (w, o) in self.h[..self.words].iter().zip(out.chunks_mut(4)) {
            let b = match self.endian {
                Endian::Little => w.to_le_bytes(),
                Endian::Big => w.to_be_bytes(),
            };
            o.copy_from_slice(&b[..o.len()]);
        }
    }

    pub(crate) fn output_len(&self) -> usize {
        4 * self.words
    }
}

/// Defines a public streaming hasher over [`MdCore`] with a back-end selector
/// `$select(imp) -> (Compress, &str)`.
macro_rules! md_hasher {
    ($(#[$doc:meta])* $name:ident, $iv:expr, $endian:expr, $select:path) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name(crate::md::MdCore);

        impl $name {
            /// A new hasher computed by `imp`.
            pub fn new(imp: crate::api::Impl) -> Self {
                Self(crate::md::MdCore::new(&$iv, $endian, $select(imp).0))
            }

            /// Absorbs more message bytes.
            pub fn update(&mut self, data: &[u8]) {
                self.0.update(data)
            }

            /// Writes the digest into `out`, which must be [`Self::OUTPUT_LEN`] bytes.
            pub fn finalize_into(self, out: &mut [u8]) {
                self.0.finalize_into(out)
            }

            /// Digest length in bytes.
            pub const OUTPUT_LEN: usize = 4 * $iv.len();

            /// Digest length in bytes.
            pub fn output_len(&self) -> usize {
                self.0.output_len()
            }

            /// One-shot digest of `data`.
            pub fn digest(imp: crate::api::Impl, data: &[u8]) -> [u8; 4 * $iv.len()] {
                let mut h = Self::new(imp);
                h.update(data);
                let mut out = [0u8; 4 * $iv.len()];
                h.finalize_into(&mut out);
                out
            }
        }
    };
}
pub(crate) use md_hasher;
