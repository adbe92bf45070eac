//! SIMD BLAKE compression (x86-64): the four column G functions run as one
//! vector G on the rows (v0..3), (v4..7), (v8..11), (v12..15), then the rows
//! are rotated so that the four diagonal G functions run as one vector G too.
//! BLAKE-256 uses 128-bit vectors (SSE4.1, or AVX-512VL for native rotates);
//! BLAKE-512 uses 256-bit vectors (AVX2, or AVX-512VL).
//!
//! All `unsafe` here is (a) calling `#[target_feature]` functions after the
//! dispatcher checked those features at run time and (b) unaligned vector
//! loads/stores from/to arrays of exactly the loaded size.

use super::spec::{C32, C64, SIGMA};
use core::arch::x86_64::*;

/// For round r (mod 10) and half-step k (column x, column y, diagonal x,
/// diagonal y), the constant word XORed into each lane's message word.
const fn const_table32() -> [[[u32; 4]; 4]; 10] {
    let mut t = [[[0u32; 4]; 4]; 10];
    let mut r = 0;
    while r < 10 {
        let s = &SIGMA[r];
        let mut i = 0;
        while i < 4 {
            t[r][0][i] = C32[s[2 * i + 1]];
            t[r][1][i] = C32[s[2 * i]];
            t[r][2][i] = C32[s[8 + 2 * i + 1]];
            t[r][3][i] = C32[s[8 + 2 * i]];
            i += 1;
        }
        r += 1;
    }
    t
}
const fn const_table64() -> [[[u64; 4]; 4]; 10] {
    let mut t = [[[0u64; 4]; 4]; 10];
    let mut r = 0;
    while r < 10 {
        let s = &SIGMA[r];
        let mut i = 0;
        while i < 4 {
            t[r][0][i] = C64[s[2 * i + 1]];
            t[r][1][i] = C64[s[2 * i]];
            t[r][2][i] = C64[s[8 + 2 * i + 1]];
            t[r][3][i] = C64[s[8 + 2 * i]];
            i += 1;
        }
        r += 1;
    }
    t
}
static CT32: [[[u32; 4]; 4]; 10] = const_table32();
static CT64: [[[u64; 4]; 4]; 10] = const_table64();

macro_rules! blake32_body {
    ($h:ident, $s:ident, $block:ident, $t:ident, $r16:expr, $r12:expr, $r8:expr, $r7:expr) => {{
        let m = super::portable::words32($block);
        // SAFETY: `h` is [u32; 8] (two 16-byte loads), `s` is [u32; 4].
        let (h0, h1, sv) = unsafe {
            (
                _mm_loadu_si128($h.as_ptr() as *const __m128i),
                _mm_loadu_si128($h.as_ptr().add(4) as *const __m128i),
                _mm_loadu_si128($s.as_ptr() as *const __m128i),
            )
        };
        let (t0, t1) = ($t as u32 as i32, ($t >> 32) as u32 as i32);
        let mut a = h0;
        let mut b = h1;
        let mut c = _mm_xor_si128(
            sv,
            _mm_setr_epi32(C32[0] as i32, C32[1] as i32, C32[2] as i32, C32[3] as i32),
        );
        let mut d = _mm_xor_si128(
            _mm_setr_epi32(t0, t0, t1, t1),
            _mm_setr_epi32(C32[4] as i32, C32[5] as i32, C32[6] as i32, C32[7] as i32),
        );
        for r in 0..14 {
            let sg = &SIGMA[r % 10];
            let ct = &CT32[r % 10];
            // SAFETY: each ct[k] is [u32; 4], a 16-byte load.
            let cv = |k: usize| unsafe { _mm_loadu_si128(ct[k].as_ptr() as *const __m128i) };
            let gather = |o: usize| {
                _mm_setr_epi32(
                    m[sg[o]] as i32,
                    m[sg[o + 2]] as i32,
                    m[sg[o + 4]] as i32,
                    m[sg[o + 6]] as i32,
                )
            };
            // column step
            let mx = _mm_xor_si128(gather(0), cv(0));
            let my = _mm_xor_si128(gather(1), cv(1));
            a = _mm_add_epi32(_mm_add_epi32(a, b), mx);
            d = $r16(_mm_xor_si128(d, a));
            c = _mm_add_epi32(c, d);
            b = $r12(_mm_xor_si128(b, c));
            a = _mm_add_epi32(_mm_add_epi32(a, b), my);
            d = $r8(_mm_xor_si128(d, a));
            c = _mm_add_epi32(c, d);
            b = $r7(_mm_xor_si128(b, c));
            // diagonalise
            b = _mm_shuffle_epi32(b, 0x39);
            c = _mm_shuffle_epi32(c, 0x4e);
            d = _mm_shuffle_epi32(d, 0x93);
            let mx = _mm_xor_si128(gather(8), cv(2));
            let my = _mm_xor_si128(gather(9), cv(3));
            a = _mm_add_epi32(_mm_add_epi32(a, b), mx);
            d = $r16(_mm_xor_si128(d, a));
            c = _mm_add_epi32(c, d);
            b = $r12(_mm_xor_si128(b, c));
            a = _mm_add_epi32(_mm_add_epi32(a, b), my);
            d = $r8(_mm_xor_si128(d, a));
            c = _mm_add_epi32(c, d);
            b = $r7(_mm_xor_si128(b, c));
            // undiagonalise
            b = _mm_shuffle_epi32(b, 0x93);
            c = _mm_shuffle_epi32(c, 0x4e);
            d = _mm_shuffle_epi32(d, 0x39);
        }
        let n0 = _mm_xor_si128(_mm_xor_si128(h0, sv), _mm_xor_si128(a, c));
        let n1 = _mm_xor_si128(_mm_xor_si128(h1, sv), _mm_xor_si128(b, d));
        // SAFETY: `h` is [u32; 8], two 16-byte stores.
        unsafe {
            _mm_storeu_si128($h.as_mut_ptr() as *mut __m128i, n0);
            _mm_storeu_si128($h.as_mut_ptr().add(4) as *mut __m128i, n1);
        }
    }};
}

#[inline(always)]
fn rot16_ssse3(x: __m128i) -> __m128i {
    // SAFETY: only called from functions compiled with SSSE3 enabled.
    unsafe {
        _mm_shuffle_epi8(
            x,
            _mm_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13),
        )
    }
}
#[inline(always)]
fn rot8_ssse3(x: __m128i) -> __m128i {
    // SAFETY: only called from functions compiled with SSSE3 enabled.
    unsafe {
        _mm_shuffle_epi8(
            x,
            _mm_setr_epi8(1, 2, 3, 0, 5, 6, 7, 4, 9, 10, 11, 8, 13, 14, 15, 12),
        )
    }
}
#[inline(always)]
fn rot12_sse2(x: __m128i) -> __m128i {
    unsafe { _mm_or_si128(_mm_srli_epi32(x, 12), _mm_slli_epi32(x, 20)) }
}
#[inline(always)]
fn rot7_sse2(x: __m128i) -> __m128i {
    unsafe { _mm_or_si128(_mm_srli_epi32(x, 7), _mm_slli_epi32(x, 25)) }
}

#[target_feature(enable = "sse2,ssse3,sse4.1")]
unsafe fn compress32_sse41_inner(h: &mut [u32; 8], s: &[u32; 4], block: &[u8; 64], t: u64) {
    blake32_body!(
        h,
        s,
        block,
        t,
        rot16_ssse3,
        rot12_sse2,
        rot8_ssse3,
        rot7_sse2
    )
}

#[target_feature(enable = "sse2,ssse3,sse4.1,avx2,avx512f,avx512vl")]
unsafe fn compress32_avx512_inner(h: &mut [u32; 8], s: &[u32; 4], block: &[u8; 64], t: u64) {
    blake32_body!(
        h,
        s,
        block,
        t,
        |x| _mm_ror_epi32::<16>(x),
        |x| _mm_ror_epi32::<12>(x),
        |x| _mm_ror_epi32::<8>(x),
        |x| _mm_ror_epi32::<7>(x)
    )
}

/// BLAKE-256 compression with SSE4.1. Only selected when SSE4.1/SSSE3 were detected.
pub(crate) fn compress32_sse41(h: &mut [u32; 8], s: &[u32; 4], block: &[u8; 64], t: u64) {
    // SAFETY: the dispatcher (`select32`) picks this only after detecting SSE4.1 and SSSE3.
    unsafe { compress32_sse41_inner(h, s, block, t) }
}

/// BLAKE-256 compression with AVX-512VL rotates. Only selected when AVX-512F/VL were detected.
pub(crate) fn compress32_avx512(h: &mut [u32; 8], s: &[u32; 4], block: &[u8; 64], t: u64) {
    // SAFETY: the dispatcher picks this only after detecting AVX-512F and AVX-512VL
    // (which imply the SSE levels and AVX2 on every CPU that has them).
    unsafe { compress32_avx512_inner(h, s, block, t) }
}

macro_rules! blake64_body {
    ($h:ident, $s:ident, $block:ident, $t:ident, $r32:expr, $r25:expr, $r16:expr, $r11:expr) => {{
        let m = super::portable::words64($block);
        // SAFETY: `h` is [u64; 8] (two 32-byte loads), `s` is [u64; 4].
        let (h0, h1, sv) = unsafe {
            (
                _mm256_loadu_si256($h.as_ptr() as *const __m256i),
                _mm256_loadu_si256($h.as_ptr().add(4) as *const __m256i),
                _mm256_loadu_si256($s.as_ptr() as *const __m256i),
            )
        };
        let (t0, t1) = ($t as u64 as i64, ($t >> 64) as u64 as i64);
        let mut a = h0;
        let mut b = h1;
        let mut c = _mm256_xor_si256(
            sv,
            _mm256_setr_epi64x(C64[0] as i64, C64[1] as i64, C64[2] as i64, C64[3] as i64),
        );
        let mut d = _mm256_xor_si256(
            _mm256_setr_epi64x(t0, t0, t1, t1),
            _mm256_setr_epi64x(C64[4] as i64, C64[5] as i64, C64[6] as i64, C64[7] as i64),
        );
        for r in 0..16 {
            let sg = &SIGMA[r % 10];
            let ct = &CT64[r % 10];
            // SAFETY: each ct[k] is [u64; 4], a 32-byte load.
            let cv = |k: usize| unsafe { _mm256_loadu_si256(ct[k].as_ptr() as *const __m256i) };
            let gather = |o: usize| {
                _mm256_setr_epi64x(
                    m[sg[o]] as i64,
                    m[sg[o + 2]] as i64,
                    m[sg[o + 4]] as i64,
                    m[sg[o + 6]] as i64,
                )
            };
            let mx = _mm256_xor_si256(gather(0), cv(0));
            let my = _mm256_xor_si256(gather(1), cv(1));
            a = _mm256_add_epi64(_mm256_add_epi64(a, b), mx);
            d = $r32(_mm256_xor_si256(d, a));
            c = _mm256_add_epi64(c, d);
            b = $r25(_mm256_xor_si256(b, c));
            a = _mm256_add_epi64(_mm256_add_epi64(a, b), my);
            d = $r16(_mm256_xor_si256(d, a));
            c = _mm256_add_epi64(c, d);
            b = $r11(_mm256_xor_si256(b, c));
            b = _mm256_permute4x64_epi64(b, 0x39);
            c = _mm256_permute4x64_epi64(c, 0x4e);
            d = _mm256_permute4x64_epi64(d, 0x93);
            let mx = _mm256_xor_si256(gather(8), cv(2));
            let my = _mm256_xor_si256(gather(9), cv(3));
            a = _mm256_add_epi64(_mm256_add_epi64(a, b), mx);
            d = $r32(_mm256_xor_si256(d, a));
            c = _mm256_add_epi64(c, d);
            b = $r25(_mm256_xor_si256(b, c));
            a = _mm256_add_epi64(_mm256_add_epi64(a, b), my);
            d = $r16(_mm256_xor_si256(d, a));
            c = _mm256_add_epi64(c, d);
            b = $r11(_mm256_xor_si256(b, c));
            b = _mm256_permute4x64_epi64(b, 0x93);
            c = _mm256_permute4x64_epi64(c, 0x4e);
            d = _mm256_permute4x64_epi64(d, 0x39);
        }
        let n0 = _mm256_xor_si256(_mm256_xor_si256(h0, sv), _mm256_xor_si256(a, c));
        let n1 = _mm256_xor_si256(_mm256_xor_si256(h1, sv), _mm256_xor_si256(b, d));
        // SAFETY: `h` is [u64; 8], two 32-byte stores.
        unsafe {
            _mm256_storeu_si256($h.as_mut_ptr() as *mut __m256i, n0);
            _mm256_storeu_si256($h.as_mut_ptr().add(4) as *mut __m256i, n1);
        }
    }};
}

#[inline(always)]
fn rot32_avx2(x: __m256i) -> __m256i {
    // SAFETY: only called from functions compiled with AVX2 enabled.
    unsafe { _mm256_shuffle_epi32(x, 0xb1) }
}
#[inline(always)]
fn rot16_avx2(x: __m256i) -> __m256i {
    // SAFETY: only called from functions compiled with AVX2 enabled.
    unsafe {
        _mm256_shuffle_epi8(
            x,
            _mm256_setr_epi8(
                2, 3, 4, 5, 6, 7, 0, 1, 10, 11, 12, 13, 14, 15, 8, 9, 2, 3, 4, 5, 6, 7, 0, 1, 10,
                11, 12, 13, 14, 15, 8, 9,
            ),
        )
    }
}
#[inline(always)]
fn rot25_avx2(x: __m256i) -> __m256i {
    unsafe { _mm256_or_si256(_mm256_srli_epi64(x, 25), _mm256_slli_epi64(x, 39)) }
}
#[inline(always)]
fn rot11_avx2(x: __m256i) -> __m256i {
    unsafe { _mm256_or_si256(_mm256_srli_epi64(x, 11), _mm256_slli_epi64(x, 53)) }
}

#[target_feature(enable = "avx2")]
unsafe fn compress64_avx2_inner(h: &mut [u64; 8], s: &[u64; 4], block: &[u8; 128], t: u128) {
    blake64_body!(h, s, block, t, rot32_avx2, rot25_avx2, rot16_avx2, rot11_avx2)
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
unsafe fn compress64_avx512_inner(h: &mut [u64; 8], s: &[u64; 4], block: &[u8; 128], t: u128) {
    blake64_body!(
        h,
        s,
        block,
        t,
        |x| _mm256_ror_epi64::<32>(x),
        |x| _mm256_ror_epi64::<25>(x),
        |x| _mm256_ror_epi64::<16>(x),
        |x| _mm256_ror_epi64::<11>(x)
    )
}

/// BLAKE-512 compression with AVX2. Only selected when AVX2 was detected.
pub(crate) fn compress64_avx2(h: &mut [u64; 8], s: &[u64; 4], block: &[u8; 128], t: u128) {
    // SAFETY: the dispatcher (`select64`) picks this only after detecting AVX2.
    unsafe { compress64_avx2_inner(h, s, block, t) }
}

/// BLAKE-512 compression with AVX-512VL rotates. Only selected when AVX-512F/VL were detected.
pub(crate) fn compress64_avx512(h: &mut [u64; 8], s: &[u64; 4], block: &[u8; 128], t: u128) {
    // SAFETY: the dispatcher picks this only after detecting AVX-512F and AVX-512VL.
    unsafe { compress64_avx512_inner(h, s, block, t) }
}
