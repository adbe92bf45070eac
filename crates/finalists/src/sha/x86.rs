//! The SHA-1 / SHA-256 message schedule in SIMD registers beside the scalar
//! rounds: four schedule words per vector step, on the vector units, while
//! the integer units run the rounds (x86-64; the out-of-order core overlaps
//! the vector schedule loop with the first rounds). The rounds are the
//! shared scalar ones of `portable`; only W[t] + K[t] comes from here.
//!
//! SHA-256: W[t..t+4] needs σ1 of W[t-2], W[t-1] for its first two lanes and
//! σ1 of its own first two lanes for the last two, so each vector step makes
//! two σ1 passes. SHA-1: W[t+3] needs W[t]; the vector step computes all four
//! lanes without it and then XORs rotl1(W[t]) into lane 3 (rotation is
//! linear over XOR).
//!
//! `unsafe`: calling `#[target_feature]` functions after run-time detection,
//! and unaligned 16-byte loads/stores from/to arrays of at least 16 bytes.

use super::portable::{rounds1, rounds256};
use super::spec::{K1, K256};
use core::arch::x86_64::*;

macro_rules! schedule_impl {
    ($c1:ident, $c256:ident, $inner1:ident, $inner256:ident, $feat:literal, $rotl:ident) => {
        /// SHA-1 compression with the SIMD schedule.
        pub(crate) fn $c1(h: &mut [u32; 8], block: &[u8; 64]) {
            // SAFETY: selected only after run-time detection of these features.
            unsafe { $inner1(h, block) }
        }

        /// SHA-256 compression with the SIMD schedule.
        pub(crate) fn $c256(h: &mut [u32; 8], block: &[u8; 64]) {
            // SAFETY: selected only after run-time detection of these features.
            unsafe { $inner256(h, block) }
        }

        #[target_feature(enable = $feat)]
        unsafe fn $inner1(h: &mut [u32; 8], block: &[u8; 64]) {
            let mut x = load_be4(block);
            let mut wk = Wk::<20>::new();
            rounds1(h, |g| {
                let k = _mm_set1_epi32(K1[g / 5] as i32);
                wk.put(g, _mm_add_epi32(x[g & 3], k));
                if g < 16 {
                    let (x0, x1, x2, x3) =
                        (x[g & 3], x[(g + 1) & 3], x[(g + 2) & 3], x[(g + 3) & 3]);
                    let w14 = _mm_alignr_epi8::<8>(x1, x0);
                    let w3 = _mm_srli_si128::<4>(x3);
                    let r =
                        $rotl::<1>(_mm_xor_si128(_mm_xor_si128(x0, w14), _mm_xor_si128(x2, w3)));
                    let fix = $rotl::<1>(_mm_slli_si128::<12>(r));
                    x[g & 3] = _mm_xor_si128(r, fix);
                }
                wk.get(g)
            });
        }

        #[target_feature(enable = $feat)]
        unsafe fn $inner256(h: &mut [u32; 8], block: &[u8; 64]) {
            let mut x = load_be4(block);
            let mut wk = Wk::<16>::new();
            rounds256(h, |g| {
                // SAFETY: K256[4g..4g + 4] is 16 bytes inside the table (g < 16).
                let k = unsafe { _mm_loadu_si128(K256.as_ptr().add(4 * g) as *const __m128i) };
                wk.put(g, _mm_add_epi32(x[g & 3], k));
                if g < 12 {
                    let (x0, x1, x2, x3) =
                        (x[g & 3], x[(g + 1) & 3], x[(g + 2) & 3], x[(g + 3) & 3]);
                    let w15 = _mm_alignr_epi8::<4>(x1, x0);
                    let w7 = _mm_alignr_epi8::<4>(x3, x2);
                    let s0 = _mm_xor_si128(
                        _mm_xor_si128($rotl::<25>(w15), $rotl::<14>(w15)),
                        _mm_srli_epi32::<3>(w15),
                    );
                    let s = _mm_add_epi32(_mm_add_epi32(x0, s0), w7);
                    let sigma1 = |y: __m128i| {
                        _mm_xor_si128(
                            _mm_xor_si128($rotl::<15>(y), $rotl::<13>(y)),
                            _mm_srli_epi32::<10>(y),
                        )
                    };
                    let lo = _mm_add_epi32(s, sigma1(_mm_shuffle_epi32::<0b11_10_11_10>(x3)));
                    let hi = _mm_add_epi32(s, sigma1(_mm_shuffle_epi32::<0b01_00_01_00>(lo)));
                    x[g & 3] = _mm_blend_epi16::<0xf0>(lo, hi);
                }
                wk.get(g)
            });
        }
    };
}

/// Left rotation of each 32-bit lane with two shifts (SSE2).
#[inline(always)]
fn rotl_sse<const N: i32>(x: __m128i) -> __m128i {
    // SAFETY: SSE2 is part of x86-64.
    unsafe {
        _mm_or_si128(
            _mm_slli_epi32::<N>(x),
            _mm_srl_epi32(x, _mm_cvtsi32_si128(32 - N)),
        )
    }
}

/// Left rotation of each 32-bit lane with `vprold` (AVX-512F + VL).
#[inline(always)]
fn rotl_avx512<const N: i32>(x: __m128i) -> __m128i {
    // SAFETY: only reached from functions compiled with avx512f,avx512vl,
    // which the dispatcher selected after detecting them.
    unsafe { _mm_rol_epi32::<N>(x) }
}

/// The 16 big-endian message words of a block in four vectors.
#[inline(always)]
fn load_be4(block: &[u8; 64]) -> [__m128i; 4] {
    // SAFETY: SSSE3 was detected by the caller's dispatcher; each load reads
    // 16 bytes at offset 16*i < 64 of the block.
    unsafe {
        let swap = _mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
        core::array::from_fn(|i| {
            _mm_shuffle_epi8(
                _mm_loadu_si128(block.as_ptr().add(16 * i) as *const __m128i),
                swap,
            )
        })
    }
}

/// W[t] + K[t] in memory: the rounds load their words as scalars (moving
/// lanes from vector to integer registers one by one, which the compiler
/// does if it keeps the words in registers, costs more than the vector
/// schedule saves).
#[repr(align(16))]
struct Wk<const G: usize>([[u32; 4]; G]);

impl<const G: usize> Wk<G> {
    #[inline(always)]
    fn new() -> Self {
        Wk([[0; 4]; G])
    }
    #[inline(always)]
    fn put(&mut self, g: usize, v: __m128i) {
        // SAFETY: row g of the table is 16 bytes (g < G, bounds-checked).
        unsafe { _mm_store_si128(self.0[g].as_mut_ptr() as *mut __m128i, v) }
    }
    /// The four words as scalar loads from memory (volatile, so that the
    /// compiler cannot forward the vector store as lane extractions).
    #[inline(always)]
    fn get(&self, g: usize) -> [u32; 4] {
        let row = &self.0[g];
        // SAFETY: reads of initialised u32s inside `row`.
        core::array::from_fn(|j| unsafe { core::ptr::read_volatile(&row[j]) })
    }
}

schedule_impl!(
    compress1_ssse3,
    compress256_ssse3,
    sha1_ssse3,
    sha256_ssse3,
    "sse2,ssse3,sse4.1",
    rotl_sse
);
schedule_impl!(
    compress1_avx512,
    compress256_avx512,
    sha1_avx512,
    sha256_avx512,
    "sse2,ssse3,sse4.1,avx,avx2,avx512f,avx512vl",
    rotl_avx512
);
