//! BLAKE split over the caller and the helper thread of [`crate::twothread`]
//! (the 2012 study's two-core form): side 0 runs G functions 0, 1 (columns)
//! and 4, 5 (diagonals), side 1 runs 2, 3 and 6, 7; the sixteen state words
//! travel through atomics, with one barrier after every half-round (28 per
//! BLAKE-256 block, 32 per BLAKE-512 block).

use super::portable;
use crate::twothread::{split, Steps};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::*};
use std::sync::Arc;

struct BlakeShared<W> {
    v: [W; 16],
    steps: Steps,
}

macro_rules! blake_two {
    ($fname:ident, $word:ty, $atomic:ident, $nb:literal, $t:ty, $rounds:literal,
     $words:path, $init:path, $g:path) => {
        pub(crate) fn $fname(h: &mut [$word; 8], s: &[$word; 4], block: &[u8; $nb], t: $t) {
            let m = $words(block);
            let v0 = $init(h, s, t);
            let sh = Arc::new(BlakeShared::<$atomic> {
                v: core::array::from_fn(|i| $atomic::new(v0[i])),
                steps: Steps::new(),
            });
            // side 0 runs G functions (0,1) and (4,5); side 1 runs (2,3) and (6,7)
            fn run(sh: &BlakeShared<$atomic>, m: &[$word; 16], side: usize) {
                let mut v = [0 as $word; 16];
                let mut k = 0u32;
                for r in 0..$rounds {
                    for half in 0..2 {
                        for v_i in 0..16 {
                            v[v_i] = sh.v[v_i].load(Relaxed);
                        }
                        let g0 = 4 * half + 2 * side;
                        $g(&mut v, m, r, g0);
                        $g(&mut v, m, r, g0 + 1);
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
                        for g in [g0, g0 + 1] {
                            for &w in &IDX[g] {
                                sh.v[w].store(v[w], Relaxed);
                            }
                        }
                        k += 1;
                        sh.steps.barrier(side, k);
                    }
                }
            }
            let sh2 = Arc::clone(&sh);
            split(move || run(&sh2, &m, 1), || run(&sh, &m, 0));
            for i in 0..8 {
                h[i] ^= s[i % 4] ^ sh.v[i].load(Relaxed) ^ sh.v[i + 8].load(Relaxed);
            }
        }
    };
}

blake_two!(
    compress32,
    u32,
    AtomicU32,
    64,
    u64,
    14,
    portable::words32,
    portable::init32,
    portable::g32_step
);
blake_two!(
    compress64,
    u64,
    AtomicU64,
    128,
    u128,
    16,
    portable::words64,
    portable::init64,
    portable::g64_step
);
