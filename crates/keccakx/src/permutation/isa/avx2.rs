//! Keccak-p[1600] ×4: four states per AVX2 register, one per 64-bit lane.

use core::arch::x86_64::*;

use crate::permutation::lanes::Lanes;

// SAFETY: every method is only reached through functions compiled with
// `#[target_feature(enable = "avx2")]` that the dispatcher calls after
// detecting AVX2.
unsafe impl Lanes for __m256i {
    const N: usize = 4;
    const FAST_XOR3: bool = false;
    const BY_ROWS: bool = true;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX2 present (trait contract).
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: AVX2 present (trait contract).
        unsafe { _mm256_set1_epi64x(x as i64) }
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: AVX2 present (trait contract).
        unsafe { _mm256_xor_si256(a, b) }
    }
    #[inline(always)]
    unsafe fn and(a: Self, b: Self) -> Self {
        // SAFETY: AVX2 present (trait contract).
        unsafe { _mm256_and_si256(a, b) }
    }
    #[inline(always)]
    unsafe fn chi(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX2 present (trait contract).
        unsafe { _mm256_xor_si256(a, _mm256_andnot_si256(b, c)) }
    }
    #[inline(always)]
    unsafe fn rotl<const L: i32, const R: i32>(a: Self) -> Self {
        // SAFETY: AVX2 present (trait contract).
        unsafe {
            // Whole-byte rotations are one byte shuffle.
            if L == 8 {
                let idx = _mm256_setr_epi8(
                    7, 0, 1, 2, 3, 4, 5, 6, 15, 8, 9, 10, 11, 12, 13, 14, 7, 0, 1, 2, 3, 4, 5, 6,
                    15, 8, 9, 10, 11, 12, 13, 14,
                );
                _mm256_shuffle_epi8(a, idx)
            } else if L == 56 {
                let idx = _mm256_setr_epi8(
                    1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8, 1, 2, 3, 4, 5, 6, 7, 0,
                    9, 10, 11, 12, 13, 14, 15, 8,
                );
                _mm256_shuffle_epi8(a, idx)
            } else {
                _mm256_or_si256(_mm256_slli_epi64::<L>(a), _mm256_srli_epi64::<R>(a))
            }
        }
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: AVX2 present; the caller passes 32 readable bytes.
        unsafe { _mm256_loadu_si256(p as *const __m256i) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: AVX2 present; the caller passes 32 writable bytes.
        unsafe { _mm256_storeu_si256(p as *mut __m256i, self) }
    }
    #[inline(always)]
    unsafe fn absorb(state: &mut [Self; 25], ptrs: &[*const u8], words: usize) {
        let p = [ptrs[0], ptrs[1], ptrs[2], ptrs[3]];
        let mut w = 0;
        // SAFETY: AVX2 present; each pointer is readable for 8 * words
        // bytes (trait contract): full loads read words w..w+4 <= words,
        // the last group uses a masked load that touches only words < words.
        unsafe {
            while w < words {
                let k = (words - w).min(4);
                let mut r = [_mm256_setzero_si256(); 4];
                if k == 4 {
                    for j in 0..4 {
                        r[j] = _mm256_loadu_si256(p[j].add(8 * w) as *const __m256i);
                    }
                } else {
                    let m = _mm256_setr_epi64x(
                        -1,
                        if k > 1 { -1 } else { 0 },
                        if k > 2 { -1 } else { 0 },
                        0,
                    );
                    for j in 0..4 {
                        r[j] = _mm256_maskload_epi64(p[j].add(8 * w) as *const i64, m);
                    }
                }
                // 4×4 transpose of 64-bit words.
                let t0 = _mm256_unpacklo_epi64(r[0], r[1]);
                let t1 = _mm256_unpackhi_epi64(r[0], r[1]);
                let t2 = _mm256_unpacklo_epi64(r[2], r[3]);
                let t3 = _mm256_unpackhi_epi64(r[2], r[3]);
                let cols = [
                    _mm256_permute2x128_si256::<0x20>(t0, t2),
                    _mm256_permute2x128_si256::<0x20>(t1, t3),
                    _mm256_permute2x128_si256::<0x31>(t0, t2),
                    _mm256_permute2x128_si256::<0x31>(t1, t3),
                ];
                for i in 0..k {
                    state[w + i] = _mm256_xor_si256(state[w + i], cols[i]);
                }
                w += k;
            }
        }
    }
}
