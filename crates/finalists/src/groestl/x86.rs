//! Grøstl with AVX-512 (F, BW, VBMI) and GFNI: P and Q are computed side by
//! side in one loop (the two independent permutations of a compression), and
//! inside each permutation all columns at once:
//!
//! * AddRoundConstant: one XOR with a per-round constant vector;
//! * SubBytes: `vgf2p8affineinvqb` (the AES S-box is inversion in GF(2^8)
//!   followed by an affine map, which GFNI computes in one instruction);
//! * ShiftBytes: one byte permutation (`vpermb`, or `vpermt2b` across the two
//!   vectors of the 1024-bit state);
//! * MixBytes: each 64-bit lane is a column, and the circulant matrix
//!   circ(02,02,03,04,05,03,05,07) becomes XORs of lane rotations of x, 2x, 4x.
//!
//! `unsafe` is used for calling the `#[target_feature]` functions (after the
//! dispatcher detected the features) and for unaligned loads/stores of arrays
//! of exactly the loaded size.

use super::portable::{SHIFT_P16, SHIFT_P8, SHIFT_Q16, SHIFT_Q8};
use core::arch::x86_64::*;

const fn shift_index(c: usize, sigma: &[usize; 8]) -> [u8; 128] {
    let mut idx = [0u8; 128];
    let mut i = 0;
    while i < 8 * c {
        let (j, r) = (i / 8, i % 8);
        idx[i] = (8 * ((j + sigma[r]) % c) + r) as u8;
        i += 1;
    }
    idx
}

/// Byte 8j (row 0) of column j holds j<<4 (P); byte 8j+7 (row 7) holds j<<4 (Q).
const fn column_bytes(row: usize) -> [u8; 128] {
    let mut b = [0u8; 128];
    let mut j = 0;
    while j < 16 {
        b[8 * j + row] = (j << 4) as u8;
        j += 1;
    }
    b
}

static IDX_P8: [u8; 128] = shift_index(8, &SHIFT_P8);
static IDX_Q8: [u8; 128] = shift_index(8, &SHIFT_Q8);
static IDX_P16: [u8; 128] = shift_index(16, &SHIFT_P16);
static IDX_Q16: [u8; 128] = shift_index(16, &SHIFT_Q16);
static COL_P: [u8; 128] = column_bytes(0);
static COL_Q: [u8; 128] = column_bytes(7);

/// The AES affine transformation as a GFNI bit matrix (with constant 0x63).
const AES_AFFINE: i64 = 0xF1E3C78F1F3E7CF8u64 as i64;

#[inline(always)]
unsafe fn load(p: *const u8) -> __m512i {
    // SAFETY: callers pass pointers to at least 64 readable bytes.
    unsafe { _mm512_loadu_si512(p as *const _) }
}

#[inline(always)]
fn mix_bytes(x: __m512i) -> __m512i {
    // SAFETY (all intrinsics below): only inlined into functions compiled
    // with avx512f/avx512bw/gfni enabled.
    unsafe {
        let two = _mm512_set1_epi8(2);
        let x2 = _mm512_gf2p8mul_epi8(x, two);
        let x4 = _mm512_gf2p8mul_epi8(x2, two);
        let x3 = _mm512_xor_si512(x2, x);
        let x5 = _mm512_xor_si512(x4, x);
        let x7 = _mm512_xor_si512(x5, x2);
        // new[i] = sum_d b[d] * old[i + d], b = (2,2,3,4,5,3,5,7): rotate lanes right by 8d bits
        let a = _mm512_xor_si512(x2, _mm512_ror_epi64::<8>(x2));
        let b = _mm512_xor_si512(_mm512_ror_epi64::<16>(x3), _mm512_ror_epi64::<24>(x4));
        let c = _mm512_xor_si512(_mm512_ror_epi64::<32>(x5), _mm512_ror_epi64::<40>(x3));
        let d = _mm512_xor_si512(_mm512_ror_epi64::<48>(x5), _mm512_ror_epi64::<56>(x7));
        _mm512_xor_si512(_mm512_xor_si512(a, b), _mm512_xor_si512(c, d))
    }
}

/// Rounds of P (if `do_p`) and Q (if `do_q`) on W = 1 or 2 vectors each.
#[inline(always)]
unsafe fn rounds<const W: usize>(
    p: &mut [__m512i; W],
    q: &mut [__m512i; W],
    do_p: bool,
    do_q: bool,
) {
    // SAFETY: callers are compiled with avx512f, avx512bw, avx512vbmi and gfni;
    // every static table is 128 bytes, and W <= 2 vectors are read from it.
    unsafe {
        let (ip, iq, nr): (&[u8; 128], &[u8; 128], usize) = if W == 1 {
            (&IDX_P8, &IDX_Q8, 10)
        } else {
            (&IDX_P16, &IDX_Q16, 14)
        };
        let mut idx_p = [_mm512_setzero_si512(); W];
        let mut idx_q = [_mm512_setzero_si512(); W];
        let mut col_p = [_mm512_setzero_si512(); W];
        let mut col_q = [_mm512_setzero_si512(); W];
        for w in 0..W {
            idx_p[w] = load(ip.as_ptr().add(64 * w));
            idx_q[w] = load(iq.as_ptr().add(64 * w));
            col_p[w] = load(COL_P.as_ptr().add(64 * w));
            col_q[w] = load(COL_Q.as_ptr().add(64 * w));
        }
        let affine = _mm512_set1_epi64(AES_AFFINE);
        for i in 0..nr {
            let rcp = _mm512_set1_epi64(i as i64);
            let rcq = _mm512_set1_epi64(!((i as i64) << 56));
            let mut sp = [_mm512_setzero_si512(); W];
            let mut sq = [_mm512_setzero_si512(); W];
            for w in 0..W {
                if do_p {
                    let x = _mm512_xor_si512(p[w], _mm512_xor_si512(col_p[w], rcp));
                    sp[w] = _mm512_gf2p8affineinv_epi64_epi8::<0x63>(x, affine);
                }
                if do_q {
                    let x = _mm512_xor_si512(q[w], _mm512_xor_si512(col_q[w], rcq));
                    sq[w] = _mm512_gf2p8affineinv_epi64_epi8::<0x63>(x, affine);
                }
            }
            for w in 0..W {
                if do_p {
                    let s = if W == 1 {
                        _mm512_permutexvar_epi8(idx_p[0], sp[0])
                    } else {
                        _mm512_permutex2var_epi8(sp[0], idx_p[w], sp[W - 1])
                    };
                    p[w] = mix_bytes(s);
                }
                if do_q {
                    let s = if W == 1 {
                        _mm512_permutexvar_epi8(idx_q[0], sq[0])
                    } else {
                        _mm512_permutex2var_epi8(sq[0], idx_q[w], sq[W - 1])
                    };
                    q[w] = mix_bytes(s);
                }
            }
        }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
unsafe fn compress_inner<const C: usize, const W: usize>(h: &mut [u64; C], m: &[u64; C]) {
    // SAFETY: `h` and `m` hold C = 8W words = 64W bytes; W vectors are loaded/stored.
    unsafe {
        let mut hv = [_mm512_setzero_si512(); W];
        let mut p = [_mm512_setzero_si512(); W];
        let mut q = [_mm512_setzero_si512(); W];
        for w in 0..W {
            hv[w] = load((h.as_ptr() as *const u8).add(64 * w));
            q[w] = load((m.as_ptr() as *const u8).add(64 * w));
            p[w] = _mm512_xor_si512(hv[w], q[w]);
        }
        rounds::<W>(&mut p, &mut q, true, true);
        for w in 0..W {
            let r = _mm512_xor_si512(hv[w], _mm512_xor_si512(p[w], q[w]));
            _mm512_storeu_si512((h.as_mut_ptr() as *mut u8).add(64 * w) as *mut _, r);
        }
    }
}

#[target_feature(enable = "avx512f,avx512bw,avx512vbmi,gfni")]
unsafe fn perm_p_inner<const C: usize, const W: usize>(x: &mut [u64; C]) {
    // SAFETY: `x` holds 64W bytes.
    unsafe {
        let mut p = [_mm512_setzero_si512(); W];
        let mut q = [_mm512_setzero_si512(); W];
        for w in 0..W {
            p[w] = load((x.as_ptr() as *const u8).add(64 * w));
        }
        rounds::<W>(&mut p, &mut q, true, false);
        for w in 0..W {
            _mm512_storeu_si512((x.as_mut_ptr() as *mut u8).add(64 * w) as *mut _, p[w]);
        }
    }
}

// SAFETY (the four wrappers): `select_backend` returns them only when
// `platform::capped().avx512_gfni_vbmi` saw AVX-512F/BW/VL/VBMI and GFNI.
pub(crate) fn compress_8(h: &mut [u64; 8], m: &[u64; 8]) {
    unsafe { compress_inner::<8, 1>(h, m) }
}
pub(crate) fn compress_16(h: &mut [u64; 16], m: &[u64; 16]) {
    unsafe { compress_inner::<16, 2>(h, m) }
}
pub(crate) fn perm_p_8(x: &mut [u64; 8]) {
    unsafe { perm_p_inner::<8, 1>(x) }
}
pub(crate) fn perm_p_16(x: &mut [u64; 16]) {
    unsafe { perm_p_inner::<16, 2>(x) }
}
