//! Keccak-p[1600] ×2: two states per SSE2 register (the x86-64 baseline, so
//! no run-time detection is needed).

use core::arch::x86_64::*;

use crate::permutation::lanes::Lanes;

// SAFETY: SSE2 is part of the x86-64 baseline: every method runs on every
// x86-64 CPU.
unsafe impl Lanes for __m128i {
    const N: usize = 2;
    const FAST_XOR3: bool = false;
    const BY_ROWS: bool = true;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: SSE2 is in the x86-64 baseline.
        unsafe { _mm_setzero_si128() }
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: SSE2 is in the x86-64 baseline.
        unsafe { _mm_set1_epi64x(x as i64) }
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: SSE2 is in the x86-64 baseline.
        unsafe { _mm_xor_si128(a, b) }
    }
    #[inline(always)]
    unsafe fn and(a: Self, b: Self) -> Self {
        // SAFETY: SSE2 is in the x86-64 baseline.
        unsafe { _mm_and_si128(a, b) }
    }
    #[inline(always)]
    unsafe fn chi(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: SSE2 is in the x86-64 baseline.
        unsafe { _mm_xor_si128(a, _mm_andnot_si128(b, c)) }
    }
    #[inline(always)]
    unsafe fn rotl<const L: i32, const R: i32>(a: Self) -> Self {
        // SAFETY: SSE2 is in the x86-64 baseline.
        unsafe { _mm_or_si128(_mm_slli_epi64::<L>(a), _mm_srli_epi64::<R>(a)) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: the caller passes 16 readable bytes.
        unsafe { _mm_loadu_si128(p as *const __m128i) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: the caller passes 16 writable bytes.
        unsafe { _mm_storeu_si128(p as *mut __m128i, self) }
    }
    #[inline(always)]
    unsafe fn absorb(state: &mut [Self; 25], ptrs: &[*const u8], words: usize) {
        let (p0, p1) = (ptrs[0], ptrs[1]);
        let mut w = 0;
        // SAFETY: each pointer is readable for 8 * words bytes (trait
        // contract); full loads read words w, w+1 < words, the last
        // single word is read with an 8-byte load.
        unsafe {
            while w + 2 <= words {
                let r0 = _mm_loadu_si128(p0.add(8 * w) as *const __m128i);
                let r1 = _mm_loadu_si128(p1.add(8 * w) as *const __m128i);
                state[w] = _mm_xor_si128(state[w], _mm_unpacklo_epi64(r0, r1));
                state[w + 1] = _mm_xor_si128(state[w + 1], _mm_unpackhi_epi64(r0, r1));
                w += 2;
            }
            if w < words {
                let r0 = _mm_loadl_epi64(p0.add(8 * w) as *const __m128i);
                let r1 = _mm_loadl_epi64(p1.add(8 * w) as *const __m128i);
                state[w] = _mm_xor_si128(state[w], _mm_unpacklo_epi64(r0, r1));
            }
        }
    }
}
