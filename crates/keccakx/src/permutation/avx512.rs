//! Keccak-p[1600] ×8: eight states per AVX-512 register, one per 64-bit
//! lane; χ and θ with VPTERNLOGQ, ρ with VPROLQ.

use core::arch::x86_64::*;

use super::multi::{self, Lanes};
use super::State;

/// Whether this CPU has AVX-512F (detected at run time with std; without
/// std, whether the build targets it).
#[inline]
pub fn available() -> bool {
    #[cfg(feature = "std")]
    {
        std::arch::is_x86_feature_detected!("avx512f")
    }
    #[cfg(not(feature = "std"))]
    {
        cfg!(target_feature = "avx512f")
    }
}

// SAFETY: every method is only reached through functions compiled with
// `#[target_feature(enable = "avx512f")]` that are called after `available()`.
unsafe impl Lanes for __m512i {
    const N: usize = 8;
    const FAST_XOR3: bool = true;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: AVX-512F present (trait contract).
        unsafe { _mm512_setzero_si512() }
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: AVX-512F present (trait contract).
        unsafe { _mm512_set1_epi64(x as i64) }
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F present (trait contract).
        unsafe { _mm512_xor_si512(a, b) }
    }
    #[inline(always)]
    unsafe fn and(a: Self, b: Self) -> Self {
        // SAFETY: AVX-512F present (trait contract).
        unsafe { _mm512_and_si512(a, b) }
    }
    #[inline(always)]
    unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F present (trait contract). 0x96 = a ^ b ^ c.
        unsafe { _mm512_ternarylogic_epi64::<0x96>(a, b, c) }
    }
    #[inline(always)]
    unsafe fn chi(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F present (trait contract). 0xD2 = a ^ (!b & c).
        unsafe { _mm512_ternarylogic_epi64::<0xD2>(a, b, c) }
    }
    #[inline(always)]
    unsafe fn rotl<const L: i32, const R: i32>(a: Self) -> Self {
        // SAFETY: AVX-512F present (trait contract).
        unsafe { _mm512_rol_epi64::<L>(a) }
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: AVX-512F present; the caller passes 64 readable bytes.
        unsafe { _mm512_loadu_epi64(p as *const i64) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: AVX-512F present; the caller passes 64 writable bytes.
        unsafe { _mm512_storeu_epi64(p as *mut i64, self) }
    }
    #[inline(always)]
    unsafe fn absorb(state: &mut [Self; 25], ptrs: &[*const u8], words: usize) {
        let p = [
            ptrs[0], ptrs[1], ptrs[2], ptrs[3], ptrs[4], ptrs[5], ptrs[6], ptrs[7],
        ];
        let mut w = 0;
        // SAFETY: AVX-512F present; each pointer is readable for 8 * words
        // bytes (trait contract) and the masked loads touch only words < words.
        unsafe {
            const LO: [i64; 8] = [0, 1, 8, 9, 4, 5, 12, 13];
            const HI: [i64; 8] = [2, 3, 10, 11, 6, 7, 14, 15];
            let lo = _mm512_loadu_epi64(LO.as_ptr());
            let hi = _mm512_loadu_epi64(HI.as_ptr());
            while w < words {
                let k = (words - w).min(8);
                let m: __mmask8 = if k == 8 { 0xFF } else { (1u8 << k) - 1 };
                let mut r = [_mm512_setzero_si512(); 8];
                for j in 0..8 {
                    r[j] = _mm512_maskz_loadu_epi64(m, p[j].add(8 * w) as *const i64);
                }
                // 8×8 transpose of 64-bit words in three stages.
                let t0 = _mm512_unpacklo_epi64(r[0], r[1]);
                let t1 = _mm512_unpackhi_epi64(r[0], r[1]);
                let t2 = _mm512_unpacklo_epi64(r[2], r[3]);
                let t3 = _mm512_unpackhi_epi64(r[2], r[3]);
                let t4 = _mm512_unpacklo_epi64(r[4], r[5]);
                let t5 = _mm512_unpackhi_epi64(r[4], r[5]);
                let t6 = _mm512_unpacklo_epi64(r[6], r[7]);
                let t7 = _mm512_unpackhi_epi64(r[6], r[7]);
                let u0 = _mm512_permutex2var_epi64(t0, lo, t2);
                let u2 = _mm512_permutex2var_epi64(t0, hi, t2);
                let u1 = _mm512_permutex2var_epi64(t1, lo, t3);
                let u3 = _mm512_permutex2var_epi64(t1, hi, t3);
                let v0 = _mm512_permutex2var_epi64(t4, lo, t6);
                let v2 = _mm512_permutex2var_epi64(t4, hi, t6);
                let v1 = _mm512_permutex2var_epi64(t5, lo, t7);
                let v3 = _mm512_permutex2var_epi64(t5, hi, t7);
                let cols = [
                    _mm512_shuffle_i64x2::<0x44>(u0, v0),
                    _mm512_shuffle_i64x2::<0x44>(u1, v1),
                    _mm512_shuffle_i64x2::<0x44>(u2, v2),
                    _mm512_shuffle_i64x2::<0x44>(u3, v3),
                    _mm512_shuffle_i64x2::<0xEE>(u0, v0),
                    _mm512_shuffle_i64x2::<0xEE>(u1, v1),
                    _mm512_shuffle_i64x2::<0xEE>(u2, v2),
                    _mm512_shuffle_i64x2::<0xEE>(u3, v3),
                ];
                for i in 0..k {
                    state[w + i] = _mm512_xor_si512(state[w + i], cols[i]);
                }
                w += k;
            }
        }
    }
}

#[target_feature(enable = "avx512f")]
unsafe fn permute_states_avx512(states: &mut [State], rounds: usize) {
    // SAFETY: this function is compiled with AVX-512F and only called when present.
    unsafe { multi::permute_states::<__m512i>(states, rounds) }
}

/// Permute up to eight states. Panics if the CPU lacks AVX-512F.
pub(crate) fn permute_states(states: &mut [State], rounds: usize) {
    assert!(available(), "AVX-512F not available");
    // SAFETY: AVX-512F checked just above.
    unsafe { permute_states_avx512(states, rounds) }
}
