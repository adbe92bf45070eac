//! The SHA-1 and SHA-256 rounds, fed with W[t] + K[t] in groups of four by
//! whichever form computes the schedule, and the portable schedule.

use super::spec::{K1, K256};

/// The big-endian message words of a block.
#[inline(always)]
pub(crate) fn load_be(block: &[u8; 64]) -> [u32; 16] {
    core::array::from_fn(|k| u32::from_be_bytes(block[4 * k..4 * k + 4].try_into().unwrap()))
}

/// SHA-1 schedule word W[t] for t >= 16 from the 16 previous ones (ring `w`).
#[inline(always)]
pub(crate) fn sha1_next(w: &[u32; 16], t: usize) -> u32 {
    (w[(t - 3) & 15] ^ w[(t - 8) & 15] ^ w[(t - 14) & 15] ^ w[t & 15]).rotate_left(1)
}

#[inline(always)]
pub(crate) fn small_sigma0(x: u32) -> u32 {
    x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3)
}
#[inline(always)]
pub(crate) fn small_sigma1(x: u32) -> u32 {
    x.rotate_right(17) ^ x.rotate_right(19) ^ (x >> 10)
}

/// SHA-256 schedule word W[t] for t >= 16 from the 16 previous ones (ring `w`).
#[inline(always)]
pub(crate) fn sha256_next(w: &[u32; 16], t: usize) -> u32 {
    small_sigma1(w[(t - 2) & 15])
        .wrapping_add(w[(t - 7) & 15])
        .wrapping_add(small_sigma0(w[(t - 15) & 15]))
        .wrapping_add(w[t & 15])
}

/// The 80 SHA-1 rounds on `h[0..5]`; `wk(g)` returns W[t] + K for t = 4g..4g+4.
#[inline(always)]
pub(crate) fn rounds1(h: &mut [u32; 8], mut wk: impl FnMut(usize) -> [u32; 4]) {
    let (mut a, mut b, mut c, mut d, mut e) = (h[0], h[1], h[2], h[3], h[4]);
    macro_rules! r {
        ($f:expr, $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $w:expr) => {
            $e = $e
                .wrapping_add($a.rotate_left(5))
                .wrapping_add($f($b, $c, $d))
                .wrapping_add($w);
            $b = $b.rotate_left(30);
        };
    }
    // 20 rounds (five groups of four) per stage; the variables rotate every
    // round and come back to their places after five.
    macro_rules! stage {
        ($s:expr, $f:expr) => {
            let g = 5 * $s;
            let (w0, w1, w2, w3, w4) = (wk(g), wk(g + 1), wk(g + 2), wk(g + 3), wk(g + 4));
            let w = [
                w0[0], w0[1], w0[2], w0[3], w1[0], w1[1], w1[2], w1[3], w2[0], w2[1], w2[2], w2[3],
                w3[0], w3[1], w3[2], w3[3], w4[0], w4[1], w4[2], w4[3],
            ];
            for i in 0..4 {
                r!($f, a, b, c, d, e, w[5 * i]);
                r!($f, e, a, b, c, d, w[5 * i + 1]);
                r!($f, d, e, a, b, c, w[5 * i + 2]);
                r!($f, c, d, e, a, b, w[5 * i + 3]);
                r!($f, b, c, d, e, a, w[5 * i + 4]);
            }
        };
    }
    stage!(0, |b: u32, c: u32, d: u32| (b & c) | (!b & d));
    stage!(1, |b: u32, c: u32, d: u32| b ^ c ^ d);
    stage!(2, |b: u32, c: u32, d: u32| (b & c) | (b & d) | (c & d));
    stage!(3, |b: u32, c: u32, d: u32| b ^ c ^ d);
    for (x, v) in h.iter_mut().zip([a, b, c, d, e]) {
        *x = x.wrapping_add(v);
    }
}

/// The 64 SHA-256 rounds; `wk(g)` returns W[t] + K[t] for t = 4g..4g+4.
#[inline(always)]
pub(crate) fn rounds256(h: &mut [u32; 8], mut wk: impl FnMut(usize) -> [u32; 4]) {
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut hh] = *h;
    macro_rules! r {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $w:expr) => {
            let t1 = $h
                .wrapping_add($e.rotate_right(6) ^ $e.rotate_right(11) ^ $e.rotate_right(25))
                .wrapping_add(($e & $f) ^ (!$e & $g))
                .wrapping_add($w);
            let t2 = ($a.rotate_right(2) ^ $a.rotate_right(13) ^ $a.rotate_right(22))
                .wrapping_add(($a & $b) ^ ($a & $c) ^ ($b & $c));
            $d = $d.wrapping_add(t1);
            $h = t1.wrapping_add(t2);
        };
    }
    for i in 0..8 {
        let (w0, w1) = (wk(2 * i), wk(2 * i + 1));
        r!(a, b, c, d, e, f, g, hh, w0[0]);
        r!(hh, a, b, c, d, e, f, g, w0[1]);
        r!(g, hh, a, b, c, d, e, f, w0[2]);
        r!(f, g, hh, a, b, c, d, e, w0[3]);
        r!(e, f, g, hh, a, b, c, d, w1[0]);
        r!(d, e, f, g, hh, a, b, c, w1[1]);
        r!(c, d, e, f, g, hh, a, b, w1[2]);
        r!(b, c, d, e, f, g, hh, a, w1[3]);
    }
    for (x, v) in h.iter_mut().zip([a, b, c, d, e, f, g, hh]) {
        *x = x.wrapping_add(v);
    }
}

/// Sequential SHA-1 compression: four schedule words, then their four rounds.
pub(crate) fn compress1(h: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = load_be(block);
    rounds1(h, |g| {
        let k = K1[g / 5];
        core::array::from_fn(|j| {
            let t = 4 * g + j;
            if t >= 16 {
                w[t & 15] = sha1_next(&w, t);
            }
            w[t & 15].wrapping_add(k)
        })
    });
}

/// Sequential SHA-256 compression: four schedule words, then their four rounds.
pub(crate) fn compress256(h: &mut [u32; 8], block: &[u8; 64]) {
    let mut w = load_be(block);
    rounds256(h, |g| {
        core::array::from_fn(|j| {
            let t = 4 * g + j;
            if t >= 16 {
                w[t & 15] = sha256_next(&w, t);
            }
            w[t & 15].wrapping_add(K256[t])
        })
    });
}
