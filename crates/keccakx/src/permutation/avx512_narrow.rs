//! Two and four states at once on AVX-512VL: xmm and ymm registers with the
//! same generated rounds as the eight-state zmm code (asm_avx512.rs). On a
//! core whose xmm/ymm/zmm instructions cost the same, a call with two to
//! four messages (KT128 of 16–40 KiB: two to four leaves) then pays for
//! one narrow permutation per block instead of an eight-lane one with most
//! lanes idle (bench/NOTES.md, "Narrow lanes").
//!
//! Only the operations that AVX-512VL does better differ from the SSE2 ×2
//! and AVX2 ×4 lane types (three-way XOR and χ as VPTERNLOGQ, ρ as VPROLQ,
//! the spill-free rounds); loads, stores and the transposing absorb are
//! theirs.

use core::arch::x86_64::*;

use super::multi::Lanes;

macro_rules! narrow_lanes {
    ($name:ident, $vec:ty, $n:literal, $ternlog:ident, $rol:ident, $asm:ident) => {
        /// States in the 64-bit words of one register, AVX-512VL operations.
        #[derive(Clone, Copy)]
        #[repr(transparent)]
        pub(crate) struct $name($vec);

        // SAFETY: every method is only reached through functions compiled
        // with `#[target_feature(enable = "avx512f,avx512vl")]` that are
        // called after `avx512::single_available()`; the delegated methods
        // need SSE2/AVX2, which every AVX-512 CPU has.
        unsafe impl Lanes for $name {
            const N: usize = $n;
            const FAST_XOR3: bool = true;

            #[inline(always)]
            unsafe fn zero() -> Self {
                // SAFETY: trait contract.
                $name(unsafe { <$vec as Lanes>::zero() })
            }
            #[inline(always)]
            unsafe fn splat(x: u64) -> Self {
                // SAFETY: trait contract.
                $name(unsafe { <$vec as Lanes>::splat(x) })
            }
            #[inline(always)]
            unsafe fn xor(a: Self, b: Self) -> Self {
                // SAFETY: trait contract.
                $name(unsafe { <$vec as Lanes>::xor(a.0, b.0) })
            }
            #[inline(always)]
            unsafe fn and(a: Self, b: Self) -> Self {
                // SAFETY: trait contract.
                $name(unsafe { <$vec as Lanes>::and(a.0, b.0) })
            }
            #[inline(always)]
            unsafe fn xor3(a: Self, b: Self, c: Self) -> Self {
                // SAFETY: AVX-512F/VL present (trait contract).
                $name(unsafe { $ternlog::<0x96>(a.0, b.0, c.0) })
            }
            #[inline(always)]
            unsafe fn chi(a: Self, b: Self, c: Self) -> Self {
                // SAFETY: AVX-512F/VL present (trait contract).
                $name(unsafe { $ternlog::<0xD2>(a.0, b.0, c.0) })
            }
            #[inline(always)]
            unsafe fn rotl<const L: i32, const R: i32>(a: Self) -> Self {
                // SAFETY: AVX-512F/VL present (trait contract).
                $name(unsafe { $rol::<L>(a.0) })
            }
            #[inline(always)]
            unsafe fn load(p: *const u64) -> Self {
                // SAFETY: trait contract (N readable words).
                $name(unsafe { <$vec as Lanes>::load(p) })
            }
            #[inline(always)]
            unsafe fn store(self, p: *mut u64) {
                // SAFETY: trait contract (N writable words).
                unsafe { <$vec as Lanes>::store(self.0, p) }
            }
            #[inline(always)]
            unsafe fn absorb(state: &mut [Self; 25], ptrs: &[*const u8], words: usize) {
                // SAFETY: `Self` is a transparent wrapper of the vector
                // type, so the arrays have the same layout; trait contract.
                unsafe {
                    let lanes = &mut *(state as *mut [Self; 25] as *mut [$vec; 25]);
                    <$vec as Lanes>::absorb(lanes, ptrs, words)
                }
            }
            #[inline(always)]
            unsafe fn permute_even(a: &mut [Self; 25], rounds: usize) -> bool {
                // SAFETY: same layout as above; AVX-512F/VL present.
                unsafe {
                    let lanes = &mut *(a as *mut [Self; 25] as *mut [$vec; 25]);
                    super::asm_avx512::$asm(lanes, rounds);
                }
                true
            }
        }
    };
}

narrow_lanes!(
    Two,
    __m128i,
    2,
    _mm_ternarylogic_epi64,
    _mm_rol_epi64,
    permute_xmm
);
narrow_lanes!(
    Four,
    __m256i,
    4,
    _mm256_ternarylogic_epi64,
    _mm256_rol_epi64,
    permute_ymm
);

#[target_feature(enable = "avx512f,avx512vl")]
unsafe fn absorb_interleaved_vl(states: &mut [u8], job: &super::multi::Interleaved) {
    // SAFETY: compiled with AVX-512F/VL, called only when present; the job
    // fits (checked by the caller).
    unsafe {
        if states.len() <= 2 * 200 {
            super::multi::absorb_interleaved::<Two>(states, job)
        } else {
            super::multi::absorb_interleaved::<Four>(states, job)
        }
    }
}

/// [`super::multi::absorb_interleaved`] for up to four states on xmm or
/// ymm lanes. Panics without AVX-512F/VL or with more than four states;
/// the caller checked that the job fits.
pub(crate) fn absorb_interleaved(states: &mut [u8], job: &super::multi::Interleaved) {
    assert!(super::avx512::single_available() && states.len() <= 4 * 200);
    // SAFETY: checked just above; the job fits (caller).
    unsafe { absorb_interleaved_vl(states, job) }
}
