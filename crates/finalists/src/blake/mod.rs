//! BLAKE (final-round version, v1.3): BLAKE-224/256 (14 rounds, 32-bit words)
//! and BLAKE-384/512 (16 rounds, 64-bit words), with salt.
//!
//! Written from the specification "SHA-3 proposal BLAKE" (Aumasson, Henzen,
//! Meier, Phan), version 1.3, 2010. Constants (the digits of pi and the SHA-2
//! initial values) are facts taken from that document.

pub(crate) mod portable;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use crate::buffer::Buffer;
use crate::Impl;

/// The ten message permutations sigma_0..sigma_9.
pub(crate) const SIGMA: [[usize; 16]; 10] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

/// BLAKE-256 constants c_0..c_15 (first digits of pi).
pub(crate) const C32: [u32; 16] = [
    0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344, 0xA4093822, 0x299F31D0, 0x082EFA98, 0xEC4E6C89,
    0x452821E6, 0x38D01377, 0xBE5466CF, 0x34E90C6C, 0xC0AC29B7, 0xC97C50DD, 0x3F84D5B5, 0xB5470917,
];

/// BLAKE-512 constants c_0..c_15 (first digits of pi).
pub(crate) const C64: [u64; 16] = [
    0x243F6A8885A308D3,
    0x13198A2E03707344,
    0xA4093822299F31D0,
    0x082EFA98EC4E6C89,
    0x452821E638D01377,
    0xBE5466CF34E90C6C,
    0xC0AC29B7C97C50DD,
    0x3F84D5B5B5470917,
    0x9216D5D98979FB1B,
    0xD1310BA698DFB5AC,
    0x2FFD72DBD01ADFB7,
    0xB8E1AFED6A267E96,
    0xBA7C9045F12C7F99,
    0x24A19947B3916CF7,
    0x0801F2E2858EFC16,
    0x636920D871574E69,
];

const IV224: [u32; 8] = [
    0xC1059ED8, 0x367CD507, 0x3070DD17, 0xF70E5939, 0xFFC00B31, 0x68581511, 0x64F98FA7, 0xBEFA4FA4,
];
const IV256: [u32; 8] = [
    0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A, 0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19,
];
const IV384: [u64; 8] = [
    0xCBBB9D5DC1059ED8,
    0x629A292A367CD507,
    0x9159015A3070DD17,
    0x152FECD8F70E5939,
    0x67332667FFC00B31,
    0x8EB44A8768581511,
    0xDB0C2E0D64F98FA7,
    0x47B5481DBEFA4FA4,
];
const IV512: [u64; 8] = [
    0x6A09E667F3BCC908,
    0xBB67AE8584CAA73B,
    0x3C6EF372FE94F82B,
    0xA54FF53A5F1D36F1,
    0x510E527FADE682D1,
    0x9B05688C2B3E6C1F,
    0x1F83D9ABFB41BD6B,
    0x5BE0CD19137E2179,
];

/// Compression function of BLAKE-224/256: `(h, salt, block, counter in bits)`.
pub(crate) type Compress32 = fn(&mut [u32; 8], &[u32; 4], &[u8; 64], u64);
/// Compression function of BLAKE-384/512.
pub(crate) type Compress64 = fn(&mut [u64; 8], &[u64; 4], &[u8; 128], u128);

pub(crate) fn select32(imp: Impl) -> (Compress32, &'static str) {
    match imp {
        Impl::Sequential => (portable::compress32, "portable"),
        Impl::Parallel => {
            #[cfg(target_arch = "x86_64")]
            {
                let f = crate::platform::capped();
                if f.avx512 {
                    return (x86::compress32_avx512, "avx512vl");
                }
                if f.sse41 {
                    return (x86::compress32_sse41, "sse4.1");
                }
            }
            (portable::compress32, "portable (no SIMD available)")
        }
        #[cfg(feature = "std")]
        Impl::TwoThreads => (crate::twothread::blake_compress32, "two threads"),
        #[cfg(not(feature = "std"))]
        Impl::TwoThreads => (portable::compress32, "portable (two threads need std)"),
    }
}

pub(crate) fn select64(imp: Impl) -> (Compress64, &'static str) {
    match imp {
        Impl::Sequential => (portable::compress64, "portable"),
        Impl::Parallel => {
            #[cfg(target_arch = "x86_64")]
            {
                let f = crate::platform::capped();
                if f.avx512 {
                    return (x86::compress64_avx512, "avx512vl");
                }
                if f.avx2 {
                    return (x86::compress64_avx2, "avx2");
                }
            }
            (portable::compress64, "portable (no SIMD available)")
        }
        #[cfg(feature = "std")]
        Impl::TwoThreads => (crate::twothread::blake_compress64, "two threads"),
        #[cfg(not(feature = "std"))]
        Impl::TwoThreads => (portable::compress64, "portable (two threads need std)"),
    }
}

/// BLAKE-224 or BLAKE-256, streaming.
#[derive(Clone)]
pub struct Blake256 {
    h: [u32; 8],
    salt: [u32; 4],
    bits: u64,
    buf: Buffer<64>,
    out_len: usize,
    compress: Compress32,
}

impl Blake256 {
    /// BLAKE-256 (32-byte output).
    pub fn new_256(imp: Impl) -> Self {
        Self::with_params(32, &[0; 16], imp)
    }
    /// BLAKE-224 (28-byte output).
    pub fn new_224(imp: Impl) -> Self {
        Self::with_params(28, &[0; 16], imp)
    }
    /// BLAKE-224 (`out_len == 28`) or BLAKE-256 (`out_len == 32`) with a 16-byte salt.
    ///
    /// # Panics
    /// If `out_len` is neither 28 nor 32 (a programming error, not user input).
    pub fn with_params(out_len: usize, salt: &[u8; 16], imp: Impl) -> Self {
        let h = match out_len {
            28 => IV224,
            32 => IV256,
            _ => panic!("BLAKE-224/256 output length must be 28 or 32 bytes"),
        };
        let mut s = [0u32; 4];
        for (i, w) in s.iter_mut().enumerate() {
            *w = u32::from_be_bytes(salt[4 * i..4 * i + 4].try_into().unwrap());
        }
        Self {
            h,
            salt: s,
            bits: 0,
            buf: Buffer::new(),
            out_len,
            compress: select32(imp).0,
        }
    }

    /// Absorbs more message bytes.
    pub fn update(&mut self, data: &[u8]) {
        let (h, s, bits, f) = (&mut self.h, &self.salt, &mut self.bits, self.compress);
        self.buf.absorb_eager(data, |b| {
            *bits = bits.wrapping_add(512);
            f(h, s, b, *bits);
        });
    }

    /// Writes the digest (28 or 32 bytes) into `out`, which must be that long.
    pub fn finalize_into(mut self, out: &mut [u8]) {
        let len = self.buf.len;
        let bits = self.bits.wrapping_add(8 * len as u64);
        let one = if self.out_len == 32 { 0x01 } else { 0x00 };
        let mut block = [0u8; 64];
        block[..len].copy_from_slice(&self.buf.buf[..len]);
        block[len] = 0x80;
        if len <= 55 {
            block[55] |= one;
            block[56..].copy_from_slice(&bits.to_be_bytes());
            // A block with no message bits is compressed with counter 0.
            (self.compress)(
                &mut self.h,
                &self.salt,
                &block,
                if len == 0 { 0 } else { bits },
            );
        } else {
            (self.compress)(&mut self.h, &self.salt, &block, bits);
            let mut last = [0u8; 64];
            last[55] = one;
            last[56..].copy_from_slice(&bits.to_be_bytes());
            (self.compress)(&mut self.h, &self.salt, &last, 0);
        }
        let mut full = [0u8; 32];
        for (i, w) in self.h.iter().enumerate() {
            full[4 * i..4 * i + 4].copy_from_slice(&w.to_be_bytes());
        }
        out.copy_from_slice(&full[..self.out_len]);
    }

    /// Output length in bytes.
    pub fn output_len(&self) -> usize {
        self.out_len
    }
}

/// BLAKE-384 or BLAKE-512, streaming.
#[derive(Clone)]
pub struct Blake512 {
    h: [u64; 8],
    salt: [u64; 4],
    bits: u128,
    buf: Buffer<128>,
    out_len: usize,
    compress: Compress64,
}

impl Blake512 {
    /// BLAKE-512 (64-byte output).
    pub fn new_512(imp: Impl) -> Self {
        Self::with_params(64, &[0; 32], imp)
    }
    /// BLAKE-384 (48-byte output).
    pub fn new_384(imp: Impl) -> Self {
        Self::with_params(48, &[0; 32], imp)
    }
    /// BLAKE-384 (`out_len == 48`) or BLAKE-512 (`out_len == 64`) with a 32-byte salt.
    ///
    /// # Panics
    /// If `out_len` is neither 48 nor 64 (a programming error, not user input).
    pub fn with_params(out_len: usize, salt: &[u8; 32], imp: Impl) -> Self {
        let h = match out_len {
            48 => IV384,
            64 => IV512,
            _ => panic!("BLAKE-384/512 output length must be 48 or 64 bytes"),
        };
        let mut s = [0u64; 4];
        for (i, w) in s.iter_mut().enumerate() {
            *w = u64::from_be_bytes(salt[8 * i..8 * i + 8].try_into().unwrap());
        }
        Self {
            h,
            salt: s,
            bits: 0,
            buf: Buffer::new(),
            out_len,
            compress: select64(imp).0,
        }
    }

    /// Absorbs more message bytes.
    pub fn update(&mut self, data: &[u8]) {
        let (h, s, bits, f) = (&mut self.h, &self.salt, &mut self.bits, self.compress);
        self.buf.absorb_eager(data, |b| {
            *bits = bits.wrapping_add(1024);
            f(h, s, b, *bits);
        });
    }

    /// Writes the digest (48 or 64 bytes) into `out`, which must be that long.
    pub fn finalize_into(mut self, out: &mut [u8]) {
        let len = self.buf.len;
        let bits = self.bits.wrapping_add(8 * len as u128);
        let one = if self.out_len == 64 { 0x01 } else { 0x00 };
        let mut block = [0u8; 128];
        block[..len].copy_from_slice(&self.buf.buf[..len]);
        block[len] = 0x80;
        if len <= 111 {
            block[111] |= one;
            block[112..].copy_from_slice(&bits.to_be_bytes());
            (self.compress)(
                &mut self.h,
                &self.salt,
                &block,
                if len == 0 { 0 } else { bits },
            );
        } else {
            (self.compress)(&mut self.h, &self.salt, &block, bits);
            let mut last = [0u8; 128];
            last[111] = one;
            last[112..].copy_from_slice(&bits.to_be_bytes());
            (self.compress)(&mut self.h, &self.salt, &last, 0);
        }
        let mut full = [0u8; 64];
        for (i, w) in self.h.iter().enumerate() {
            full[8 * i..8 * i + 8].copy_from_slice(&w.to_be_bytes());
        }
        out.copy_from_slice(&full[..self.out_len]);
    }

    /// Output length in bytes.
    pub fn output_len(&self) -> usize {
        self.out_len
    }
}
