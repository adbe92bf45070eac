//! JH (final round-3 version, 42 rounds of E8): JH-224/256/384/512.
//!
//! Written from "The Hash Function JH" (Hongjun Wu), round-3 version, January
//! 2011, using its bit-sliced description of E8: the 1024-bit state is eight
//! 128-bit words x0..x7; each round applies the S-box layer to (x0,x2,x4,x6)
//! and (x1,x3,x5,x7) with 256 constant bits each, the linear layer L, and a
//! swap of bit groups of size 2^(r mod 7) in the odd words.

pub(crate) mod portable;
mod spec;
#[cfg(feature = "std")]
mod two_threads;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use crate::api::Impl;
use crate::buffer::Buffer;
use spec::{CompressFn, State};

pub(crate) fn select(imp: Impl) -> (CompressFn, &'static str) {
    match imp {
        Impl::Sequential => (portable::compress, "portable (64-bit bitslice)"),
        Impl::Parallel => {
            #[cfg(target_arch = "x86_64")]
            {
                let f = crate::platform::capped();
                if f.avx512 {
                    return (x86::compress_avx512, "avx512vl (128-bit bitslice, ternlog)");
                }
                if f.sse41 {
                    return (x86::compress_ssse3, "ssse3 (128-bit bitslice)");
                }
            }
            (portable::compress, "portable (no SIMD available)")
        }
        #[cfg(feature = "std")]
        Impl::TwoThreads => (two_threads::compress, "two threads (64-bit halves)"),
        #[cfg(not(feature = "std"))]
        Impl::TwoThreads => (portable::compress, "portable (two threads need std)"),
    }
}

const fn initial(bits: u16) -> State {
    let mut x = [[0u64; 2]; 8];
    // H(-1): the first two bytes hold the digest size in bits, big-endian.
    x[0][0] = ((bits >> 8) as u64) | (((bits & 0xff) as u64) << 8);
    portable::f8_const(x, &[0; 8])
}

const IV224: State = initial(224);
const IV256: State = initial(256);
const IV384: State = initial(384);
const IV512: State = initial(512);

/// JH, streaming.
#[derive(Clone)]
pub struct Jh {
    x: State,
    bits: u128,
    buf: Buffer<64>,
    out_len: usize,
    compress: CompressFn,
}

fn words(block: &[u8; 64]) -> [u64; 8] {
    let mut m = [0u64; 8];
    for (i, w) in m.iter_mut().enumerate() {
        *w = u64::from_le_bytes(block[8 * i..8 * i + 8].try_into().unwrap());
    }
    m
}

impl Jh {
    /// JH with an output of 28, 32, 48 or 64 bytes.
    ///
    /// # Panics
    /// If `out_len` is not one of those (a programming error).
    pub fn with_output_len(out_len: usize, imp: Impl) -> Self {
        let x = match out_len {
            28 => IV224,
            32 => IV256,
            48 => IV384,
            64 => IV512,
            _ => panic!("JH output length must be 28, 32, 48 or 64 bytes"),
        };
        Self {
            x,
            bits: 0,
            buf: Buffer::new(),
            out_len,
            compress: select(imp).0,
        }
    }

    /// Absorbs more message bytes.
    pub fn update(&mut self, data: &[u8]) {
        let (x, bits, f) = (&mut self.x, &mut self.bits, self.compress);
        self.buf.absorb_eager(data, |b| {
            *bits = bits.wrapping_add(512);
            f(x, &words(b));
        });
    }

    /// Writes the digest into `out` (exactly the output length).
    pub fn finalize_into(mut self, out: &mut [u8]) {
        let len = self.buf.len;
        let bits = self.bits.wrapping_add(8 * len as u128);
        let mut last = [0u8; 64];
        last[48..].copy_from_slice(&bits.to_be_bytes());
        if len == 0 {
            last[0] = 0x80;
        } else {
            let mut block = [0u8; 64];
            block[..len].copy_from_slice(&self.buf.buf[..len]);
            block[len] = 0x80;
            (self.compress)(&mut self.x, &words(&block));
        }
        (self.compress)(&mut self.x, &words(&last));
        let mut bytes = [0u8; 128];
        for i in 0..8 {
            for k in 0..2 {
                bytes[16 * i + 8 * k..16 * i + 8 * k + 8]
                    .copy_from_slice(&self.x[i][k].to_le_bytes());
            }
        }
        out.copy_from_slice(&bytes[128 - self.out_len..]);
    }

    /// Output length in bytes.
    pub fn output_len(&self) -> usize {
        self.out_len
    }
}
