//! JH with 128-bit SIMD: the eight 128-bit words of the bit-sliced state are
//! eight vectors, so each S-box layer (1024 bits of 4-bit S-boxes), the
//! linear layer and the swaps are a few whole-vector operations. The same
//! code is compiled twice: for SSSE3 (byte shuffles for the 8/16/32/64-bit
//! swaps) and for AVX-512VL, where the compiler folds the Boolean S-box
//! expressions into `vpternlogq`.
//!
//! `unsafe`: calling the `#[target_feature]` functions after detection, and
//! unaligned loads/stores of the 128-byte state and the 32-byte constants.

use super::portable::RC_STATIC as RC;
use super::spec::State;
use core::arch::x86_64::*;

macro_rules! jh_body {
    ($x:ident, $m:ident) => {{
        // SAFETY: `State` is [[u64; 2]; 8] (8 x 16 bytes), `m` is [u64; 8], RC rows are 32 bytes.
        unsafe {
            let xp = $x.as_mut_ptr() as *mut __m128i;
            let mp = $m.as_ptr() as *const __m128i;
            let mut x = [_mm_setzero_si128(); 8];
            for i in 0..8 {
                x[i] = _mm_loadu_si128(xp.add(i));
            }
            let mv = [
                _mm_loadu_si128(mp),
                _mm_loadu_si128(mp.add(1)),
                _mm_loadu_si128(mp.add(2)),
                _mm_loadu_si128(mp.add(3)),
            ];
            for i in 0..4 {
                x[i] = _mm_xor_si128(x[i], mv[i]);
            }
            let m55 = _mm_set1_epi8(0x55);
            let m33 = _mm_set1_epi8(0x33);
            let m0f = _mm_set1_epi8(0x0f);
            let sh8 = _mm_setr_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
            let sh16 = _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13);
            for g in 0..6 {
                for k in 0..7 {
                    let r = 7 * g + k;
                    let ce = _mm_loadu_si128(RC[r].as_ptr() as *const __m128i);
                    let co = _mm_loadu_si128(RC[r].as_ptr().add(2) as *const __m128i);
                    macro_rules! sbox {
                        ($a:expr, $b:expr, $c:expr, $d:expr, $cc:expr) => {{
                            let (mut m0, mut m1, mut m2, mut m3) = ($a, $b, $c, $d);
                            let ones = _mm_set1_epi32(-1);
                            m3 = _mm_xor_si128(m3, ones);
                            m0 = _mm_xor_si128(m0, _mm_andnot_si128(m2, $cc));
                            let t = _mm_xor_si128($cc, _mm_and_si128(m0, m1));
                            m0 = _mm_xor_si128(m0, _mm_and_si128(m2, m3));
                            m3 = _mm_xor_si128(m3, _mm_andnot_si128(m1, m2));
                            m1 = _mm_xor_si128(m1, _mm_and_si128(m0, m2));
                            m2 = _mm_xor_si128(m2, _mm_andnot_si128(m3, m0));
                            m0 = _mm_xor_si128(m0, _mm_or_si128(m1, m3));
                            m3 = _mm_xor_si128(m3, _mm_and_si128(m1, m2));
                            m1 = _mm_xor_si128(m1, _mm_and_si128(t, m0));
                            m2 = _mm_xor_si128(m2, t);
                            (m0, m1, m2, m3)
                        }};
                    }
                    let (a0, a1, a2, a3) = sbox!(x[0], x[2], x[4], x[6], ce);
                    let (b0, b1, b2, b3) = sbox!(x[1], x[3], x[5], x[7], co);
                    // L(m0..m7) with m = (x0,x2,x4,x6,x1,x3,x5,x7)
                    let m4 = _mm_xor_si128(b0, a1);
                    let m5 = _mm_xor_si128(b1, a2);
                    let m6 = _mm_xor_si128(b2, _mm_xor_si128(a0, a3));
                    let m7 = _mm_xor_si128(b3, a0);
                    let m0 = _mm_xor_si128(a0, m5);
                    let m1 = _mm_xor_si128(a1, m6);
                    let m2 = _mm_xor_si128(a2, _mm_xor_si128(m4, m7));
                    let m3 = _mm_xor_si128(a3, m4);
                    x[0] = m0;
                    x[2] = m1;
                    x[4] = m2;
                    x[6] = m3;
                    let odd = [m4, m5, m6, m7];
                    for (j, v) in odd.into_iter().enumerate() {
                        x[2 * j + 1] = match k {
                            0 => _mm_or_si128(
                                _mm_slli_epi64(_mm_and_si128(v, m55), 1),
                                _mm_and_si128(_mm_srli_epi64(v, 1), m55),
                            ),
                            1 => _mm_or_si128(
                                _mm_slli_epi64(_mm_and_si128(v, m33), 2),
                                _mm_and_si128(_mm_srli_epi64(v, 2), m33),
                            ),
                            2 => _mm_or_si128(
                                _mm_slli_epi64(_mm_and_si128(v, m0f), 4),
                                _mm_and_si128(_mm_srli_epi64(v, 4), m0f),
                            ),
                            3 => _mm_shuffle_epi8(v, sh8),
                            4 => _mm_shuffle_epi8(v, sh16),
                            5 => _mm_shuffle_epi32(v, 0xb1),
                            _ => _mm_shuffle_epi32(v, 0x4e),
                        };
                    }
                }
            }
            for i in 0..4 {
                x[4 + i] = _mm_xor_si128(x[4 + i], mv[i]);
            }
            for i in 0..8 {
                _mm_storeu_si128(xp.add(i), x[i]);
            }
        }
    }};
}

#[target_feature(enable = "sse2,ssse3")]
unsafe fn compress_ssse3_inner(x: &mut State, m: &[u64; 8]) {
    jh_body!(x, m)
}

#[target_feature(enable = "sse2,ssse3,avx2,avx512f,avx512vl")]
unsafe fn compress_avx512_inner(x: &mut State, m: &[u64; 8]) {
    jh_body!(x, m)
}

/// F8 with SSSE3. Selected only after SSSE3 (and SSE4.1) were detected.
pub(crate) fn compress_ssse3(x: &mut State, m: &[u64; 8]) {
    // SAFETY: the dispatcher (`jh::select`) checked SSSE3 at run time.
    unsafe { compress_ssse3_inner(x, m) }
}

/// F8 compiled for AVX-512VL. Selected only after AVX-512F/VL were detected.
pub(crate) fn compress_avx512(x: &mut State, m: &[u64; 8]) {
    // SAFETY: the dispatcher (`jh::select`) checked AVX-512F and AVX-512VL at run time.
    unsafe { compress_avx512_inner(x, m) }
}
