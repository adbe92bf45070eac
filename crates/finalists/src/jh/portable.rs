//! Portable bit-sliced JH on 64-bit words (each 128-bit word x_i as two halves).
//! `const fn` so that the initial values H(0) are computed at compile time.

use super::spec::{State, RC};

/// The round constants as a static, so run-time code reads one table
/// (a `const` array indexed at run time may be copied at every use).
pub(crate) static RC_STATIC: [[u64; 4]; 42] = RC;

#[inline(always)]
const fn sbox(m0: u64, m1: u64, m2: u64, m3: u64, cc: u64) -> (u64, u64, u64, u64) {
    let (mut m0, mut m1, mut m2, mut m3) = (m0, m1, m2, m3);
    m3 = !m3;
    m0 ^= !m2 & cc;
    let t = cc ^ (m0 & m1);
    m0 ^= m2 & m3;
    m3 ^= !m1 & m2;
    m1 ^= m0 & m2;
    m2 ^= m0 & !m3;
    m0 ^= m1 | m3;
    m3 ^= m1 & m2;
    m1 ^= t & m0;
    m2 ^= t;
    (m0, m1, m2, m3)
}

#[inline(always)]
pub(crate) const fn swap(x: u64, kind: usize) -> u64 {
    match kind {
        0 => ((x & 0x5555555555555555) << 1) | ((x & 0xaaaaaaaaaaaaaaaa) >> 1),
        1 => ((x & 0x3333333333333333) << 2) | ((x & 0xcccccccccccccccc) >> 2),
        2 => ((x & 0x0f0f0f0f0f0f0f0f) << 4) | ((x & 0xf0f0f0f0f0f0f0f0) >> 4),
        3 => ((x & 0x00ff00ff00ff00ff) << 8) | ((x & 0xff00ff00ff00ff00) >> 8),
        4 => ((x & 0x0000ffff0000ffff) << 16) | ((x & 0xffff0000ffff0000) >> 16),
        5 => x.rotate_left(32),
        _ => x,
    }
}

/// S-boxes and linear layer of round `r` on half `k` of every word, then the
/// in-half part of the swap (kinds 0..=5; kind 6 swaps the halves and is done
/// by the caller).
#[inline(always)]
pub(crate) const fn half_round(x: &mut [u64; 8], ce: u64, co: u64, kind: usize) {
    let (a0, a1, a2, a3) = sbox(x[0], x[2], x[4], x[6], ce);
    let (b0, b1, b2, b3) = sbox(x[1], x[3], x[5], x[7], co);
    // L(m0..m7) with m = (x0,x2,x4,x6,x1,x3,x5,x7)
    let (mut m0, mut m1, mut m2, mut m3, mut m4, mut m5, mut m6, mut m7) =
        (a0, a1, a2, a3, b0, b1, b2, b3);
    m4 ^= m1;
    m5 ^= m2;
    m6 ^= m0 ^ m3;
    m7 ^= m0;
    m0 ^= m5;
    m1 ^= m6;
    m2 ^= m4 ^ m7;
    m3 ^= m4;
    x[0] = m0;
    x[2] = m1;
    x[4] = m2;
    x[6] = m3;
    x[1] = swap(m4, kind);
    x[3] = swap(m5, kind);
    x[5] = swap(m6, kind);
    x[7] = swap(m7, kind);
}

/// E8 on the state split into its two 64-bit halves.
#[inline(always)]
pub(crate) const fn e8_halves(lo: &mut [u64; 8], hi: &mut [u64; 8]) {
    let mut r = 0;
    while r < 42 {
        half_round(lo, RC[r][0], RC[r][2], r % 7);
        half_round(hi, RC[r][1], RC[r][3], r % 7);
        if r % 7 == 6 {
            let mut j = 1;
            while j < 8 {
                let t = lo[j];
                lo[j] = hi[j];
                hi[j] = t;
                j += 2;
            }
        }
        r += 1;
    }
}

/// F8 (compile-time usable).
pub(crate) const fn f8_const(mut x: State, m: &[u64; 8]) -> State {
    let mut i = 0;
    while i < 8 {
        x[i >> 1][i & 1] ^= m[i];
        i += 1;
    }
    let mut lo = [0u64; 8];
    let mut hi = [0u64; 8];
    let mut j = 0;
    while j < 8 {
        lo[j] = x[j][0];
        hi[j] = x[j][1];
        j += 1;
    }
    e8_halves(&mut lo, &mut hi);
    let mut j = 0;
    while j < 8 {
        x[j][0] = lo[j];
        x[j][1] = hi[j];
        j += 1;
    }
    let mut i = 0;
    while i < 8 {
        x[4 + (i >> 1)][i & 1] ^= m[i];
        i += 1;
    }
    x
}

/// One round with a compile-time swap kind `K` (= r mod 7), on both halves.
#[inline(always)]
fn round_k<const K: usize>(lo: &mut [u64; 8], hi: &mut [u64; 8], r: usize) {
    let c = &RC_STATIC[r];
    half_round(lo, c[0], c[2], K);
    half_round(hi, c[1], c[3], K);
    if K == 6 {
        for j in [1, 3, 5, 7] {
            core::mem::swap(&mut lo[j], &mut hi[j]);
        }
    }
}

/// F8, the JH compression function (run-time version: the seven round kinds
/// are spelled out so that every swap is a fixed shift-and-mask).
pub(crate) fn compress(x: &mut State, m: &[u64; 8]) {
    for i in 0..8 {
        x[i >> 1][i & 1] ^= m[i];
    }
    let mut lo = [0u64; 8];
    let mut hi = [0u64; 8];
    for j in 0..8 {
        lo[j] = x[j][0];
        hi[j] = x[j][1];
    }
    for g in 0..6 {
        let r = 7 * g;
        round_k::<0>(&mut lo, &mut hi, r);
        round_k::<1>(&mut lo, &mut hi, r + 1);
        round_k::<2>(&mut lo, &mut hi, r + 2);
        round_k::<3>(&mut lo, &mut hi, r + 3);
        round_k::<4>(&mut lo, &mut hi, r + 4);
        round_k::<5>(&mut lo, &mut hi, r + 5);
        round_k::<6>(&mut lo, &mut hi, r + 6);
    }
    for j in 0..8 {
        x[j][0] = lo[j];
        x[j][1] = hi[j];
    }
    for i in 0..8 {
        x[4 + (i >> 1)][i & 1] ^= m[i];
    }
}
