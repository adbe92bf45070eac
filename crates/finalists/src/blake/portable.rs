//! Portable scalar BLAKE compression functions (sequential reference).
//!
//! BLAKE-256 and BLAKE-512 are the same algorithm on 32- and 64-bit words
//! (different constants, rotations, round count, block size): one template,
//! instantiated twice.

use super::spec::{C32, C64, SIGMA};

/// Lanes (a, b, c, d) of the eight G functions: four columns, four diagonals.
const G_LANES: [[usize; 4]; 8] = [
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
    [0, 5, 10, 15],
    [1, 6, 11, 12],
    [2, 7, 8, 13],
    [3, 4, 9, 14],
];

macro_rules! blake_portable {
    (
        word = $w:ty, counter = $t:ty, consts = $c:ident, block = $bytes:expr,
        rot = [$r0:expr, $r1:expr, $r2:expr, $r3:expr], rounds = $rounds:expr,
        g = $g:ident, init = $init:ident, words = $words:ident,
        step = $step:ident, compress = $compress:ident, name = $name:expr
    ) => {
        #[inline(always)]
        fn $g(v: &mut [$w; 16], m: &[$w; 16], s: &[usize; 16], i: usize) {
            let [a, b, c, d] = G_LANES[i];
            let (x, y) = (s[2 * i], s[2 * i + 1]);
            v[a] = v[a].wrapping_add(v[b]).wrapping_add(m[x] ^ $c[y]);
            v[d] = (v[d] ^ v[a]).rotate_right($r0);
            v[c] = v[c].wrapping_add(v[d]);
            v[b] = (v[b] ^ v[c]).rotate_right($r1);
            v[a] = v[a].wrapping_add(v[b]).wrapping_add(m[y] ^ $c[x]);
            v[d] = (v[d] ^ v[a]).rotate_right($r2);
            v[c] = v[c].wrapping_add(v[d]);
            v[b] = (v[b] ^ v[c]).rotate_right($r3);
        }

        #[doc = concat!("Initial state v_0..v_15 of ", $name, "'s compression.")]
        #[inline(always)]
        pub(crate) fn $init(h: &[$w; 8], s: &[$w; 4], t: $t) -> [$w; 16] {
            let (t0, t1) = (t as $w, (t >> <$w>::BITS) as $w);
            [
                h[0],
                h[1],
                h[2],
                h[3],
                h[4],
                h[5],
                h[6],
                h[7],
                s[0] ^ $c[0],
                s[1] ^ $c[1],
                s[2] ^ $c[2],
                s[3] ^ $c[3],
                t0 ^ $c[4],
                t0 ^ $c[5],
                t1 ^ $c[6],
                t1 ^ $c[7],
            ]
        }

        /// The message block as 16 big-endian words.
        #[inline(always)]
        pub(crate) fn $words(block: &[u8; $bytes]) -> [$w; 16] {
            const N: usize = core::mem::size_of::<$w>();
            let mut m = [0 as $w; 16];
            for (i, w) in m.iter_mut().enumerate() {
                *w = <$w>::from_be_bytes(block[N * i..N * i + N].try_into().unwrap());
            }
            m
        }

        #[doc = concat!("One G function of ", $name, " (index `i` in 0..8 of round `r`) on `v`.")]
        #[inline(always)]
        pub(crate) fn $step(v: &mut [$w; 16], m: &[$w; 16], r: usize, i: usize) {
            $g(v, m, &SIGMA[r % 10], i);
        }

        #[doc = concat!($name, " compression (", stringify!($rounds), " rounds).")]
        pub(crate) fn $compress(h: &mut [$w; 8], s: &[$w; 4], block: &[u8; $bytes], t: $t) {
            let m = $words(block);
            let mut v = $init(h, s, t);
            for r in 0..$rounds {
                for i in 0..8 {
                    $step(&mut v, &m, r, i);
                }
            }
            for i in 0..8 {
                h[i] ^= s[i % 4] ^ v[i] ^ v[i + 8];
            }
        }
    };
}

#[rustfmt::skip]
blake_portable!(
    word = u32, counter = u64, consts = C32, block = 64, rot = [16, 12, 8, 7], rounds = 14,
    g = g32, init = init32, words = words32, step = g32_step, compress = compress32,
    name = "BLAKE-224/256"
);
#[rustfmt::skip]
blake_portable!(
    word = u64, counter = u128, consts = C64, block = 128, rot = [32, 25, 16, 11], rounds = 16,
    g = g64, init = init64, words = words64, step = g64_step, compress = compress64,
    name = "BLAKE-384/512"
);
