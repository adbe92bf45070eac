//! Threefish with SIMD: the MIX functions of a round run as one vector MIX on
//! A = the first words of all pairs and B = the second words.
//!
//! * Threefish-512 (AVX2, or AVX-512VL for `vprolvq`): A and B are 4 x u64.
//!   A never moves; only B is shuffled after each round so that the pairs of
//!   the next round meet lane by lane (in-lane `vpshufd` and cross-lane
//!   `vpermq` alternate), and after four rounds the layout is the natural
//!   one again, exactly when the next subkey is added.
//! * Threefish-256 (AVX2 on 128-bit vectors): A = (x0, x2), B = (x1, x3); the
//!   word permutation is a swap of B's two lanes.
//! * Threefish-1024 (AVX-512F): A and B are 8 x u64, permuted with `vpermq`.
//!
//! `unsafe`: calling `#[target_feature]` functions after run-time detection,
//! and unaligned loads of arrays of exactly the loaded size.

use super::portable::{expand, PI16, R16, R4, R8};
use super::spec::UbiFn;
use core::arch::x86_64::*;

pub(crate) fn select<const NW: usize>() -> Option<(UbiFn<NW>, &'static str)> {
    let f = crate::platform::capped();
    match NW {
        4 if f.avx512 => Some((ubi_generic::<NW, 1>, "avx512vl (2 MIX per vector op)")),
        4 if f.avx2 => Some((ubi_generic::<NW, 0>, "avx2 (2 MIX per vector op)")),
        8 if f.avx512 => Some((ubi_generic::<NW, 1>, "avx512vl (4 MIX per vector op)")),
        8 if f.avx2 => Some((ubi_generic::<NW, 0>, "avx2 (4 MIX per vector op)")),
        16 if f.avx512 => Some((ubi_generic::<NW, 1>, "avx512f (8 MIX per vector op)")),
        _ => None,
    }
}

/// Dispatches on the state size; `LEVEL` 0 = AVX2, 1 = AVX-512.
fn ubi_generic<const NW: usize, const LEVEL: usize>(h: &mut [u64; NW], m: &[u64; NW], t: [u64; 2]) {
    let (k, tw) = expand::<NW>(h, t);
    // SAFETY: `select` returned this function only after detecting AVX2
    // (LEVEL 0) or AVX-512F+VL (LEVEL 1); the slices have NW words.
    let c: [u64; NW] = unsafe {
        let mut out = [0u64; NW];
        match (NW, LEVEL) {
            (4, 0) => tf256_avx2(&k, &tw, m.as_ptr(), out.as_mut_ptr()),
            (4, _) => tf256_avx512(&k, &tw, m.as_ptr(), out.as_mut_ptr()),
            (8, 0) => tf512_avx2(&k, &tw, m.as_ptr(), out.as_mut_ptr()),
            (8, _) => tf512_avx512(&k, &tw, m.as_ptr(), out.as_mut_ptr()),
            _ => tf1024_avx512(&k, &tw, m.as_ptr(), out.as_mut_ptr()),
        }
        out
    };
    for i in 0..NW {
        h[i] = c[i] ^ m[i];
    }
}

/// Rotation vectors of Threefish-512 in the moving-B layout: round k of a group
/// of four handles pair j in lane (j + k) mod 4.
const fn rot512() -> [[u64; 4]; 8] {
    let mut r = [[0u64; 4]; 8];
    let mut d = 0;
    while d < 8 {
        let mut j = 0;
        while j < 4 {
            r[d][(j + d) % 4] = R8[d][j] as u64;
            j += 1;
        }
        d += 1;
    }
    r
}
static ROT512: [[u64; 4]; 8] = rot512();

macro_rules! tf512_body {
    ($k:ident, $t:ident, $m:ident, $out:ident, $rolv:expr) => {{
        // SAFETY: `$m`/`$out` point to 8 words, `ROT512` rows and `kk` windows are 4 words.
        unsafe {
            let mut kk = [0u64; 18];
            kk[..9].copy_from_slice(&$k[..9]);
            kk[9..18].copy_from_slice(&$k[..9]);
            let subkey = |s: usize| {
                let lo = _mm256_loadu_si256(kk.as_ptr().add(s % 9) as *const __m256i);
                let hi = _mm256_loadu_si256(kk.as_ptr().add(s % 9 + 4) as *const __m256i);
                let e = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(lo, hi), 0xd8);
                let o = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(lo, hi), 0xd8);
                let te = _mm256_setr_epi64x(0, 0, 0, $t[(s + 1) % 3] as i64);
                let to = _mm256_setr_epi64x(0, 0, $t[s % 3] as i64, s as i64);
                (_mm256_add_epi64(e, te), _mm256_add_epi64(o, to))
            };
            let lo = _mm256_loadu_si256($m as *const __m256i);
            let hi = _mm256_loadu_si256($m.add(4) as *const __m256i);
            let mut a = _mm256_permute4x64_epi64(_mm256_unpacklo_epi64(lo, hi), 0xd8);
            let mut b = _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(lo, hi), 0xd8);
            let rv: [__m256i; 8] =
                core::array::from_fn(|d| _mm256_loadu_si256(ROT512[d].as_ptr() as *const __m256i));
            for s in 0..18 {
                let (ke, ko) = subkey(s);
                a = _mm256_add_epi64(a, ke);
                b = _mm256_add_epi64(b, ko);
                let base = 4 * (s % 2);
                for k in 0..4 {
                    a = _mm256_add_epi64(a, b);
                    b = _mm256_xor_si256($rolv(b, rv[base + k]), a);
                    b = if k % 2 == 0 {
                        _mm256_shuffle_epi32(b, 0x4e) // lanes [1,0,3,2]
                    } else {
                        _mm256_permute4x64_epi64(b, 0x1b) // lanes [3,2,1,0]
                    };
                }
            }
            let (ke, ko) = subkey(18);
            a = _mm256_add_epi64(a, ke);
            b = _mm256_add_epi64(b, ko);
            let lo = _mm256_unpacklo_epi64(a, b); // x0 x1 x4 x5
            let hi = _mm256_unpackhi_epi64(a, b); // x2 x3 x6 x7
            _mm256_storeu_si256(
                $out as *mut __m256i,
                _mm256_permute2x128_si256(lo, hi, 0x20),
            );
            _mm256_storeu_si256(
                $out.add(4) as *mut __m256i,
                _mm256_permute2x128_si256(lo, hi, 0x31),
            );
        }
    }};
}

#[inline(always)]
fn rolv_avx2(x: __m256i, r: __m256i) -> __m256i {
    // SAFETY: only inlined into functions compiled with AVX2.
    unsafe {
        _mm256_or_si256(
            _mm256_sllv_epi64(x, r),
            _mm256_srlv_epi64(x, _mm256_sub_epi64(_mm256_set1_epi64x(64), r)),
        )
    }
}

#[target_feature(enable = "avx2")]
unsafe fn tf512_avx2(k: &[u64; 17], t: &[u64; 3], m: *const u64, out: *mut u64) {
    tf512_body!(k, t, m, out, rolv_avx2)
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn tf512_avx512(k: &[u64; 17], t: &[u64; 3], m: *const u64, out: *mut u64) {
    tf512_body!(k, t, m, out, |x, r| _mm256_rolv_epi64(x, r))
}

macro_rules! tf256_body {
    ($k:ident, $t:ident, $m:ident, $out:ident, $rolv:expr) => {{
        // SAFETY: `$m`/`$out` point to 4 words.
        unsafe {
            let sub = |s: usize| {
                let w = |i: usize| super::portable::subkey_word::<4>($k, $t, s, i) as i64;
                (_mm_set_epi64x(w(2), w(0)), _mm_set_epi64x(w(3), w(1)))
            };
            let lo = _mm_loadu_si128($m as *const __m128i);
            let hi = _mm_loadu_si128($m.add(2) as *const __m128i);
            let mut a = _mm_unpacklo_epi64(lo, hi);
            let mut b = _mm_unpackhi_epi64(lo, hi);
            // pair 1 sits in lane 1 of A; after the swap of B the pairs stay lane-aligned
            let rv: [__m128i; 8] =
                core::array::from_fn(|d| _mm_set_epi64x(R4[d][1] as i64, R4[d][0] as i64));
            for s in 0..18 {
                let (ke, ko) = sub(s);
                a = _mm_add_epi64(a, ke);
                b = _mm_add_epi64(b, ko);
                for k in 0..4 {
                    let d = 4 * (s % 2) + k;
                    a = _mm_add_epi64(a, b);
                    b = _mm_xor_si128($rolv(b, rv[d]), a);
                    b = _mm_shuffle_epi32(b, 0x4e);
                }
            }
            let (ke, ko) = sub(18);
            a = _mm_add_epi64(a, ke);
            b = _mm_add_epi64(b, ko);
            _mm_storeu_si128($out as *mut __m128i, _mm_unpacklo_epi64(a, b));
            _mm_storeu_si128($out.add(2) as *mut __m128i, _mm_unpackhi_epi64(a, b));
        }
    }};
}

#[inline(always)]
fn rolv_avx2_128(x: __m128i, r: __m128i) -> __m128i {
    // SAFETY: only inlined into functions compiled with AVX2.
    unsafe {
        _mm_or_si128(
            _mm_sllv_epi64(x, r),
            _mm_srlv_epi64(x, _mm_sub_epi64(_mm_set1_epi64x(64), r)),
        )
    }
}

#[target_feature(enable = "avx2")]
unsafe fn tf256_avx2(k: &[u64; 17], t: &[u64; 3], m: *const u64, out: *mut u64) {
    tf256_body!(k, t, m, out, rolv_avx2_128)
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn tf256_avx512(k: &[u64; 17], t: &[u64; 3], m: *const u64, out: *mut u64) {
    tf256_body!(k, t, m, out, |x, r| _mm_rolv_epi64(x, r))
}

#[target_feature(enable = "avx512f")]
unsafe fn tf1024_avx512(k: &[u64; 17], t: &[u64; 3], m: *const u64, out: *mut u64) {
    // SAFETY: `m`/`out` point to 16 words.
    unsafe {
        let sub = |s: usize| {
            let w = |i: usize| super::portable::subkey_word::<16>(k, t, s, i) as i64;
            (
                _mm512_setr_epi64(w(0), w(2), w(4), w(6), w(8), w(10), w(12), w(14)),
                _mm512_setr_epi64(w(1), w(3), w(5), w(7), w(9), w(11), w(13), w(15)),
            )
        };
        let even = _mm512_setr_epi64(0, 2, 4, 6, 8, 10, 12, 14);
        let odd = _mm512_setr_epi64(1, 3, 5, 7, 9, 11, 13, 15);
        let lo = _mm512_loadu_si512(m as *const _);
        let hi = _mm512_loadu_si512(m.add(8) as *const _);
        let mut a = _mm512_permutex2var_epi64(lo, even, hi);
        let mut b = _mm512_permutex2var_epi64(lo, odd, hi);
        let pa: [i64; 8] = core::array::from_fn(|j| (PI16[2 * j] / 2) as i64);
        let pb: [i64; 8] = core::array::from_fn(|j| ((PI16[2 * j + 1] - 1) / 2) as i64);
        let pa = _mm512_loadu_si512(pa.as_ptr() as *const _);
        let pb = _mm512_loadu_si512(pb.as_ptr() as *const _);
        let rv: [__m512i; 8] = core::array::from_fn(|d| {
            let r: [i64; 8] = core::array::from_fn(|j| R16[d][j] as i64);
            _mm512_loadu_si512(r.as_ptr() as *const _)
        });
        for s in 0..20 {
            let (ke, ko) = sub(s);
            a = _mm512_add_epi64(a, ke);
            b = _mm512_add_epi64(b, ko);
            for k in 0..4 {
                let d = 4 * (s % 2) + k;
                a = _mm512_add_epi64(a, b);
                b = _mm512_xor_si512(_mm512_rolv_epi64(b, rv[d]), a);
                a = _mm512_permutexvar_epi64(pa, a);
                b = _mm512_permutexvar_epi64(pb, b);
            }
        }
        let (ke, ko) = sub(20);
        a = _mm512_add_epi64(a, ke);
        b = _mm512_add_epi64(b, ko);
        let i_lo = _mm512_setr_epi64(0, 8, 1, 9, 2, 10, 3, 11);
        let i_hi = _mm512_setr_epi64(4, 12, 5, 13, 6, 14, 7, 15);
        _mm512_storeu_si512(out as *mut _, _mm512_permutex2var_epi64(a, i_lo, b));
        _mm512_storeu_si512(out.add(8) as *mut _, _mm512_permutex2var_epi64(a, i_hi, b));
    }
}
