//! Portable scalar BLAKE compression functions (sequential reference).

use super::{C32, C64, SIGMA};

#[inline(always)]
fn g32(
    v: &mut [u32; 16],
    m: &[u32; 16],
    s: &[usize; 16],
    i: usize,
    a: usize,
    b: usize,
    c: usize,
    d: usize,
) {
    let (x, y) = (s[2 * i], s[2 * i + 1]);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(m[x] ^ C32[y]);
    v[d] = (v[d] ^ v[a]).rotate_right(16);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(12);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(m[y] ^ C32[x]);
    v[d] = (v[d] ^ v[a]).rotate_right(8);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(7);
}

/// Initial state v_0..v_15 of BLAKE-256's compression.
#[inline(always)]
pub(crate) fn init32(h: &[u32; 8], s: &[u32; 4], t: u64) -> [u32; 16] {
    let (t0, t1) = (t as u32, (t >> 32) as u32);
    [
        h[0],
        h[1],
        h[2],
        h[3],
        h[4],
        h[5],
        h[6],
        h[7],
        s[0] ^ C32[0],
        s[1] ^ C32[1],
        s[2] ^ C32[2],
        s[3] ^ C32[3],
        t0 ^ C32[4],
        t0 ^ C32[5],
        t1 ^ C32[6],
        t1 ^ C32[7],
    ]
}

#[inline(always)]
pub(crate) fn words32(block: &[u8; 64]) -> [u32; 16] {
    let mut m = [0u32; 16];
    for (i, w) in m.iter_mut().enumerate() {
        *w = u32::from_be_bytes(block[4 * i..4 * i + 4].try_into().unwrap());
    }
    m
}

/// One G function of BLAKE-256 (index `i` in 0..8 of round `r`) on `v`.
#[inline(always)]
pub(crate) fn g32_step(v: &mut [u32; 16], m: &[u32; 16], r: usize, i: usize) {
    const IDX: [[usize; 4]; 8] = [
        [0, 4, 8, 12],
        [1, 5, 9, 13],
        [2, 6, 10, 14],
        [3, 7, 11, 15],
        [0, 5, 10, 15],
        [1, 6, 11, 12],
        [2, 7, 8, 13],
        [3, 4, 9, 14],
    ];
    let [a, b, c, d] = IDX[i];
    g32(v, m, &SIGMA[r % 10], i, a, b, c, d);
}

/// BLAKE-224/256 compression (14 rounds).
pub(crate) fn compress32(h: &mut [u32; 8], s: &[u32; 4], block: &[u8; 64], t: u64) {
    let m = words32(block);
    let mut v = init32(h, s, t);
    for r in 0..14 {
        for i in 0..8 {
            g32_step(&mut v, &m, r, i);
        }
    }
    for i in 0..8 {
        h[i] ^= s[i % 4] ^ v[i] ^ v[i + 8];
    }
}

#[inline(always)]
fn g64(
    v: &mut [u64; 16],
    m: &[u64; 16],
    s: &[usize; 16],
    i: usize,
    a: usize,
    b: usize,
    c: usize,
    d: usize,
) {
    let (x, y) = (s[2 * i], s[2 * i + 1]);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(m[x] ^ C64[y]);
    v[d] = (v[d] ^ v[a]).rotate_right(32);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(25);
    v[a] = v[a].wrapping_add(v[b]).wrapping_add(m[y] ^ C64[x]);
    v[d] = (v[d] ^ v[a]).rotate_right(16);
    v[c] = v[c].wrapping_add(v[d]);
    v[b] = (v[b] ^ v[c]).rotate_right(11);
}

#[inline(always)]
pub(crate) fn init64(h: &[u64; 8], s: &[u64; 4], t: u128) -> [u64; 16] {
    let (t0, t1) = (t as u64, (t >> 64) as u64);
    [
        h[0],
        h[1],
        h[2],
        h[3],
        h[4],
        h[5],
        h[6],
        h[7],
        s[0] ^ C64[0],
        s[1] ^ C64[1],
        s[2] ^ C64[2],
        s[3] ^ C64[3],
        t0 ^ C64[4],
        t0 ^ C64[5],
        t1 ^ C64[6],
        t1 ^ C64[7],
    ]
}

#[inline(always)]
pub(crate) fn words64(block: &[u8; 128]) -> [u64; 16] {
    let mut m = [0u64; 16];
    for (i, w) in m.iter_mut().enumerate() {
        *w = u64::from_be_bytes(block[8 * i..8 * i + 8].try_into().unwrap());
    }
    m
}

/// One G function of BLAKE-512 (index `i` in 0..8 of round `r`) on `v`.
#[inline(always)]
pub(crate) fn g64_step(v: &mut [u64; 16], m: &[u64; 16], r: usize, i: usize) {
    const IDX: [[usize; 4]; 8] = [
        [0, 4, 8, 12],
        [1, 5, 9, 13],
        [2, 6, 10, 14],
        [3, 7, 11, 15],
        [0, 5, 10, 15],
        [1, 6, 11, 12],
        [2, 7, 8, 13],
        [3, 4, 9, 14],
    ];
    let [a, b, c, d] = IDX[i];
    g64(v, m, &SIGMA[r % 10], i, a, b, c, d);
}

/// BLAKE-384/512 compression (16 rounds).
pub(crate) fn compress64(h: &mut [u64; 8], s: &[u64; 4], block: &[u8; 128], t: u128) {
    let m = words64(block);
    let mut v = init64(h, s, t);
    for r in 0..16 {
        for i in 0..8 {
            g64_step(&mut v, &m, r, i);
        }
    }
    for i in 0..8 {
        h[i] ^= s[i % 4] ^ v[i] ^ v[i + 8];
    }
}
