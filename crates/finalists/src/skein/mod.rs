//! Skein v1.3 (final round): Skein-256, Skein-512 and Skein-1024, plain
//! hashing with any output length (UBI chaining over Threefish).
//!
//! Written from "The Skein Hash Function Family", version 1.3, 1 October 2010
//! (Ferguson, Lucks, Schneier, Whiting, Bellare, Kohno, Callas, Walker). The
//! rotation constants, word permutations and the key-schedule constant
//! C240 are facts taken from that document.

pub(crate) mod portable;
mod spec;
#[cfg(feature = "std")]
mod two_threads;
#[cfg(target_arch = "x86_64")]
pub(crate) mod x86;

use crate::api::Impl;
use crate::buffer::Buffer;
use spec::{UbiFn, FINAL, FIRST, TYPE_CFG, TYPE_MSG, TYPE_OUT};

fn select<const NW: usize>(imp: Impl) -> (UbiFn<NW>, &'static str) {
    match imp {
        Impl::Sequential => (portable::ubi::<NW>, "portable"),
        Impl::Parallel => {
            #[cfg(target_arch = "x86_64")]
            if let Some(x) = x86::select::<NW>() {
                return x;
            }
            (portable::ubi::<NW>, "portable (no SIMD available)")
        }
        #[cfg(feature = "std")]
        Impl::TwoThreads => (two_threads::ubi::<NW>, "two threads (half the MIXes each)"),
        #[cfg(not(feature = "std"))]
        Impl::TwoThreads => (portable::ubi::<NW>, "portable (two threads need std)"),
    }
}

pub(crate) fn backend_name(state_bits: usize, imp: Impl) -> &'static str {
    match state_bits {
        256 => select::<4>(imp).1,
        512 => select::<8>(imp).1,
        _ => select::<16>(imp).1,
    }
}

/// The chaining value after the configuration block for an output of `out_bits`.
const fn config_iv<const NW: usize>(out_bits: u64) -> [u64; NW] {
    let mut c = [0u64; NW];
    c[0] = 0x0000_0001_3341_4853; // "SHA3", version 1
    c[1] = out_bits;
    // c[2]: tree parameters Yl = Yf = Ym = 0 (sequential hashing)
    let mut h =
        portable::threefish_const::<NW>(&[0; NW], [32, (TYPE_CFG << 56) | FIRST | FINAL], &c);
    let mut i = 0;
    while i < NW {
        h[i] ^= c[i];
        i += 1;
    }
    h
}

/// Skein with an `NW`-word state (`NB == 8 * NW` bytes per block).
#[derive(Clone)]
pub struct SkeinCore<const NW: usize, const NB: usize> {
    h: [u64; NW],
    pos: u128,
    first: bool,
    buf: Buffer<NB>,
    out_len: usize,
    ubi: UbiFn<NW>,
}

/// Skein-256-n.
pub type Skein256 = SkeinCore<4, 32>;
/// Skein-512-n.
pub type Skein512 = SkeinCore<8, 64>;
/// Skein-1024-n.
pub type Skein1024 = SkeinCore<16, 128>;

fn words<const NW: usize, const NB: usize>(block: &[u8; NB]) -> [u64; NW] {
    let mut m = [0u64; NW];
    for (i, w) in m.iter_mut().enumerate() {
        *w = u64::from_le_bytes(block[8 * i..8 * i + 8].try_into().unwrap());
    }
    m
}

impl<const NW: usize, const NB: usize> SkeinCore<NW, NB> {
    const IV_FULL: [u64; NW] = config_iv::<NW>(64 * NW as u64);
    const IV_HALF: [u64; NW] = config_iv::<NW>(32 * NW as u64);
    const IV_256: [u64; NW] = config_iv::<NW>(256);
    const IV_224: [u64; NW] = config_iv::<NW>(224);
    const IV_384: [u64; NW] = config_iv::<NW>(384);

    /// Skein with an output of `out_len` bytes (1 or more).
    ///
    /// # Panics
    /// If `out_len == 0` (a programming error).
    pub fn with_output_len(out_len: usize, imp: Impl) -> Self {
        assert!(out_len > 0, "Skein output length must be at least one byte");
        let bits = 8 * out_len as u64;
        let h = if bits == 64 * NW as u64 {
            Self::IV_FULL
        } else if bits == 32 * NW as u64 {
            Self::IV_HALF
        } else if bits == 256 {
            Self::IV_256
        } else if bits == 224 {
            Self::IV_224
        } else if bits == 384 {
            Self::IV_384
        } else {
            config_iv::<NW>(bits)
        };
        Self {
            h,
            pos: 0,
            first: true,
            buf: Buffer::new(),
            out_len,
            ubi: select::<NW>(imp).0,
        }
    }

    /// Absorbs more message bytes.
    pub fn update(&mut self, data: &[u8]) {
        let (h, pos, first, f) = (&mut self.h, &mut self.pos, &mut self.first, self.ubi);
        self.buf.absorb_lazy(data, |b| {
            *pos += NB as u128;
            let t1 = ((*pos >> 64) as u64) | (TYPE_MSG << 56) | if *first { FIRST } else { 0 };
            *first = false;
            f(h, &words::<NW, NB>(b), [*pos as u64, t1]);
        });
    }

    /// Writes the digest into `out` (exactly the output length).
    pub fn finalize_into(mut self, out: &mut [u8]) {
        let len = self.buf.len;
        let mut block = [0u8; NB];
        block[..len].copy_from_slice(&self.buf.buf[..len]);
        self.pos += len as u128;
        let t1 = ((self.pos >> 64) as u64)
            | (TYPE_MSG << 56)
            | FINAL
            | if self.first { FIRST } else { 0 };
        (self.ubi)(&mut self.h, &words::<NW, NB>(&block), [self.pos as u64, t1]);
        for (i, chunk) in out.chunks_mut(NB).enumerate() {
            let mut ctr = [0u64; NW];
            ctr[0] = i as u64;
            let mut o = self.h;
            (self.ubi)(&mut o, &ctr, [8, (TYPE_OUT << 56) | FIRST | FINAL]);
            for (j, b) in chunk.iter_mut().enumerate() {
                *b = (o[j / 8] >> (8 * (j % 8))) as u8;
            }
        }
    }

    /// Output length in bytes.
    pub fn output_len(&self) -> usize {
        self.out_len
    }
}
