//! Keccak-p[1600] ×8: eight states per AVX-512 register, one per 64-bit
//! lane; χ and θ with VPTERNLOGQ, ρ with VPROLQ.

use core::arch::x86_64::*;

use super::asm_avx512;
use crate::permutation::golden::{State, ROUND_CONSTANTS};
use crate::permutation::lanes::Lanes;

// SAFETY: every method is only reached through functions compiled with
// `#[target_feature(enable = "avx512f")]` that the dispatcher calls after
// detecting AVX-512F.
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
    unsafe fn permute_even(a: &mut [Self; 25], rounds: usize) -> bool {
        // SAFETY: AVX-512F present (trait contract); rounds even (caller).
        unsafe { asm_avx512::permute_zmm(a, rounds) };
        true
    }
    #[inline(always)]
    unsafe fn absorb_run(
        state: &mut [Self; 25],
        ptrs: &[*const u8],
        words: usize,
        rounds: usize,
        blocks: usize,
    ) -> bool {
        if blocks == 0 || !rounds.is_multiple_of(2) || !(2..=24).contains(&rounds) {
            return false;
        }
        let p = [
            ptrs[0], ptrs[1], ptrs[2], ptrs[3], ptrs[4], ptrs[5], ptrs[6], ptrs[7],
        ];
        // SAFETY: AVX-512F present (trait contract); rounds even in 2..=24,
        // blocks >= 1 (checked above); each pointer readable for
        // `blocks * 8 * words` bytes (trait contract).
        unsafe {
            match words {
                21 => asm_avx512::absorb_zmm_21(state, &p, blocks, rounds),
                17 => asm_avx512::absorb_zmm_17(state, &p, blocks, rounds),
                _ => return false,
            }
        }
        true
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

/// ρ offsets (FIPS 202 Table 2, mod 64) by lane x + 5y.
const RHO: [u32; 25] = [
    0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14,
];

/// Per-diagonal tables of the row-layout permutation (see
/// [`keccak_p1600_rows`]): for diagonal s, the ρ offsets of its lanes
/// (lane j holds A[j, j − s]) and the three lane permutations that turn it
/// into output row 2s (rotated by s, s + 1, s + 2 lanes for χ).
struct DiagTables {
    rho: [[u64; 8]; 5],
    rot: [[[u64; 8]; 3]; 5],
}

const DIAG: DiagTables = {
    let mut rho = [[0u64; 8]; 5];
    let mut rot = [[[0u64; 8]; 3]; 5];
    let mut s = 0;
    while s < 5 {
        let mut j = 0;
        while j < 5 {
            let y = (j + 5 - s) % 5;
            rho[s][j] = RHO[j + 5 * y] as u64;
            let mut k = 0;
            while k < 3 {
                rot[s][k][j] = ((j + s + k) % 5) as u64;
                k += 1;
            }
            j += 1;
        }
        s += 1;
    }
    DiagTables { rho, rot }
};

/// Single-state Keccak-p[1600] with the state as five rows in zmm registers
/// (lanes x = 0..4 of row y; lanes 5..7 unused).
///
/// Per round: θ's column parity is two VPTERNLOGQ over the rows; the rows
/// are re-cut into the five diagonals M_s[j] = A[j, j − s] with mask blends
/// (off the critical path, in parallel with θ's parity); θ's effect and ρ
/// (VPROLVQ) act on the diagonals, whose lane j is still column j; π sends
/// diagonal s to row 2s rotated by s lanes, so one VPERMQ per χ operand
/// (rotations by s, s+1, s+2) feeds χ's VPTERNLOGQ directly. About 55
/// instructions and a ~13-cycle dependency chain per round.
///
/// Comparison only (`Single::Avx512Rows`: benchmarks, tests, the
/// finalists study); not in the dispatcher's preference list.
///
/// # Safety
/// The CPU must have AVX-512F; `1 <= rounds <= 24`.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn keccak_p1600_rows(a: &mut State, rounds: usize) {
    // SAFETY: compiled with AVX-512F and only called when present; loads and
    // stores are masked to the 5 lanes of row y inside `a` (25 words).
    unsafe {
        let m5: __mmask8 = 0x1F;
        let p = a.as_mut_ptr() as *mut i64;
        let mut r = [_mm512_setzero_si512(); 5];
        for y in 0..5 {
            r[y] = _mm512_maskz_loadu_epi64(m5, p.add(5 * y));
        }
        let rho: [__m512i; 5] = [
            _mm512_loadu_epi64(DIAG.rho[0].as_ptr() as *const i64),
            _mm512_loadu_epi64(DIAG.rho[1].as_ptr() as *const i64),
            _mm512_loadu_epi64(DIAG.rho[2].as_ptr() as *const i64),
            _mm512_loadu_epi64(DIAG.rho[3].as_ptr() as *const i64),
            _mm512_loadu_epi64(DIAG.rho[4].as_ptr() as *const i64),
        ];
        let mut rot = [[_mm512_setzero_si512(); 3]; 5];
        for s in 0..5 {
            for k in 0..3 {
                rot[s][k] = _mm512_loadu_epi64(DIAG.rot[s][k].as_ptr() as *const i64);
            }
        }
        // θ: C[x-1] in lane x, and C[x+1] in lane x.
        let prev = rot[4][0];
        let next = rot[1][0];
        for ir in 24 - rounds..24 {
            let c = _mm512_ternarylogic_epi64::<0x96>(
                _mm512_ternarylogic_epi64::<0x96>(r[0], r[1], r[2]),
                r[3],
                r[4],
            );
            let cm1 = _mm512_permutexvar_epi64(prev, c);
            let cp1 = _mm512_rol_epi64::<1>(_mm512_permutexvar_epi64(next, c));
            let mut out = [_mm512_setzero_si512(); 5];
            for s in 0..5 {
                // Diagonal s: lane j from row (j − s) mod 5.
                let row = |j: usize| r[(j + 5 - s) % 5];
                let lo = _mm512_mask_blend_epi64(0b0_0010, row(0), row(1));
                let hi = _mm512_mask_blend_epi64(0b0_1000, row(2), row(3));
                let m = _mm512_mask_blend_epi64(0b0_1100, lo, hi);
                let m = _mm512_mask_blend_epi64(0b1_0000, m, row(4));
                // θ's effect, then ρ.
                let m = _mm512_ternarylogic_epi64::<0x96>(m, cm1, cp1);
                let m = _mm512_rolv_epi64(m, rho[s]);
                // π: row 2s = m rotated by s lanes; χ on that row.
                let b0 = if s == 0 {
                    m
                } else {
                    _mm512_permutexvar_epi64(rot[s][0], m)
                };
                let b1 = _mm512_permutexvar_epi64(rot[s][1], m);
                let b2 = _mm512_permutexvar_epi64(rot[s][2], m);
                out[(2 * s) % 5] = _mm512_ternarylogic_epi64::<0xD2>(b0, b1, b2);
            }
            // ι
            out[0] = _mm512_xor_si512(
                out[0],
                _mm512_maskz_set1_epi64(1, ROUND_CONSTANTS[ir] as i64),
            );
            r = out;
        }
        for y in 0..5 {
            _mm512_mask_storeu_epi64(p.add(5 * y), m5, r[y]);
        }
    }
}
