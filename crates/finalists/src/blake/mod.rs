//! BLAKE (final-round version, v1.3): BLAKE-224/256 (14 rounds, 32-bit words)
//! and BLAKE-384/512 (16 rounds, 64-bit words), with salt.
//!
//! Written from the specification "SHA-3 proposal BLAKE" (Aumasson, Henzen,
//! Meier, Phan), version 1.3, 2010. Constants (the digits of pi and the SHA-2
//! initial values) are facts taken from that document.

pub(crate) mod portable;
mod spec;
#[cfg(feature = "std")]
mod two_threads;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use crate::api::Impl;
use crate::buffer::Buffer;
use spec::{Compress32, Compress64, IV224, IV256, IV384, IV512};

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
        Impl::TwoThreads => (two_threads::compress32, "two threads"),
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
        Impl::TwoThreads => (two_threads::compress64, "two threads"),
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
