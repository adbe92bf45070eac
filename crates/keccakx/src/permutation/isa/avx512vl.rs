//! AVX-512VL on xmm and ymm registers: one state (`One`, one lane per xmm
//! register: the single-state permutation of the sequential functions),
//! and two or four states at once (`Two`, `Four`) with the same generated
//! rounds as the eight-state zmm code (asm_avx512.rs). On a
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

use super::asm_avx512;
use crate::permutation::golden::State;
use crate::permutation::lanes::{permute, Lanes};

macro_rules! narrow_lanes {
    ($name:ident, $vec:ty, $n:literal, $ternlog:ident, $rol:ident, $asm:ident) => {
        /// States in the 64-bit words of one register, AVX-512VL operations.
        #[derive(Clone, Copy)]
        #[repr(transparent)]
        pub(crate) struct $name($vec);

        // SAFETY: every method is only reached through functions compiled
        // with `#[target_feature(enable = "avx512f,avx512vl")]` that the
        // dispatcher calls after detecting both; the delegated methods
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
                    asm_avx512::$asm(lanes, rounds);
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

/// One lane in the low word of an xmm register: the single-state AVX-512
/// permutation. All 25 lanes live in registers (32 of them with AVX-512),
/// θ and χ are one VPTERNLOGQ per lane, ρ one VPROLQ: about 90 vector
/// instructions per round against ~130 scalar ones.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(crate) struct One(__m128i);

// SAFETY: every method is only reached through `keccak_p1600_single`,
// compiled with AVX-512F/VL, which the dispatcher calls after detecting them.
unsafe impl Lanes for One {
    const N: usize = 1;
    // θ written as plain xors (LLVM still fuses some into VPTERNLOGQ):
    // measured ~8% faster than explicit three-way xors (bench/NOTES.md).
    const FAST_XOR3: bool = false;

    #[inline(always)]
    unsafe fn zero() -> Self {
        // SAFETY: SSE2 baseline.
        One(unsafe { _mm_setzero_si128() })
    }
    #[inline(always)]
    unsafe fn splat(x: u64) -> Self {
        // SAFETY: SSE2 baseline.
        One(unsafe { _mm_cvtsi64_si128(x as i64) })
    }
    #[inline(always)]
    unsafe fn xor(a: Self, b: Self) -> Self {
        // SAFETY: SSE2 baseline.
        One(unsafe { _mm_xor_si128(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn and(a: Self, b: Self) -> Self {
        // SAFETY: SSE2 baseline.
        One(unsafe { _mm_and_si128(a.0, b.0) })
    }
    #[inline(always)]
    unsafe fn chi(a: Self, b: Self, c: Self) -> Self {
        // SAFETY: AVX-512F/VL present (trait contract).
        One(unsafe { _mm_ternarylogic_epi64::<0xD2>(a.0, b.0, c.0) })
    }
    #[inline(always)]
    unsafe fn rotl<const L: i32, const R: i32>(a: Self) -> Self {
        // SAFETY: AVX-512F/VL present (trait contract).
        One(unsafe { _mm_rol_epi64::<L>(a.0) })
    }
    #[inline(always)]
    unsafe fn load(p: *const u64) -> Self {
        // SAFETY: the caller passes 8 readable bytes.
        One(unsafe { _mm_loadl_epi64(p as *const __m128i) })
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u64) {
        // SAFETY: the caller passes 8 writable bytes.
        unsafe { _mm_storel_epi64(p as *mut __m128i, self.0) }
    }
    #[inline(always)]
    unsafe fn permute_even(a: &mut [Self; 25], rounds: usize) -> bool {
        // SAFETY: `One` is a transparent wrapper of __m128i, so the arrays
        // have the same layout; AVX-512F/VL present (trait contract).
        unsafe {
            let lanes = &mut *(a as *mut [One; 25] as *mut [__m128i; 25]);
            asm_avx512::permute_xmm(lanes, rounds);
        }
        true
    }
    #[inline(always)]
    unsafe fn absorb(state: &mut [Self; 25], ptrs: &[*const u8], words: usize) {
        for w in 0..words {
            // SAFETY: ptrs[0] is readable for 8 * words bytes (trait contract).
            unsafe {
                let x = _mm_loadl_epi64(ptrs[0].add(8 * w) as *const __m128i);
                state[w] = One(_mm_xor_si128(state[w].0, x));
            }
        }
    }
}

/// Keccak-p[1600, rounds] on one state, one lane per xmm register.
///
/// # Safety
/// The CPU must have AVX-512F and AVX-512VL; `1 <= rounds <= 24`.
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) unsafe fn keccak_p1600_single(a: &mut State, rounds: usize) {
    // SAFETY: compiled with AVX-512F/VL, called only when present; each
    // load/store touches one lane of `a`.
    unsafe {
        let mut v = [One::zero(); 25];
        for i in 0..25 {
            v[i] = One::load(&a[i]);
        }
        permute(&mut v, rounds);
        for i in 0..25 {
            v[i].store(&mut a[i]);
        }
    }
}
