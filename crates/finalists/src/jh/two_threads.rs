//! JH split over the caller and the helper thread of [`crate::twothread`]
//! (the 2012 study's two-core form): the low 64-bit half of every 128-bit
//! word here, the high half on the helper (the bit-sliced S-boxes, L and the
//! swaps of sizes 1..32 stay inside a half); the halves meet only at the
//! 64-bit swap every seventh round (6 exchanges per block).

use super::portable::{half_round, RC_STATIC};
use super::spec::State;
use crate::twothread::{split, wait_at_least, Steps};
use std::sync::atomic::{AtomicU64, Ordering::*};
use std::sync::Arc;

struct JhShared {
    /// Odd words of each half, posted for the 64-bit swap: [side][word/2].
    post: [[AtomicU64; 4]; 2],
    out: [AtomicU64; 8],
    steps: Steps,
}

/// F8 with the low 64-bit halves here and the high halves on the helper.
pub(crate) fn compress(x: &mut State, m: &[u64; 8]) {
    let mut lo = [0u64; 8];
    let mut hi = [0u64; 8];
    for j in 0..8 {
        lo[j] = x[j][0];
        hi[j] = x[j][1];
    }
    // message into the first half: x[i>>1][i&1] ^= m[i]
    for i in 0..4 {
        lo[i] ^= m[2 * i];
        hi[i] ^= m[2 * i + 1];
    }
    let sh = Arc::new(JhShared {
        post: core::array::from_fn(|_| core::array::from_fn(|_| AtomicU64::new(0))),
        out: core::array::from_fn(|_| AtomicU64::new(0)),
        steps: Steps::new(),
    });
    fn run(sh: &JhShared, mut w: [u64; 8], side: usize) -> [u64; 8] {
        let mut k = 0;
        for r in 0..42 {
            let c = &RC_STATIC[r];
            half_round(&mut w, c[side], c[2 + side], r % 7);
            if r % 7 == 6 {
                for j in 0..4 {
                    sh.post[side][j].store(w[2 * j + 1], Relaxed);
                }
                k += 1;
                sh.steps.barrier(side, k);
                for j in 0..4 {
                    w[2 * j + 1] = sh.post[1 - side][j].load(Relaxed);
                }
                // second barrier: the other side has read our post before we overwrite it
                k += 1;
                sh.steps.barrier(side, k);
            }
        }
        w
    }
    let sh2 = Arc::clone(&sh);
    let lo = split(
        move || {
            let w = run(&sh2, hi, 1);
            for j in 0..8 {
                sh2.out[j].store(w[j], Relaxed);
            }
            sh2.steps.side[1].store(1000, Release);
        },
        || {
            let w = run(&sh, lo, 0);
            wait_at_least(&sh.steps.side[1], 1000);
            w
        },
    );
    for j in 0..8 {
        x[j][0] = lo[j];
        x[j][1] = sh.out[j].load(Relaxed);
    }
    for i in 0..8 {
        x[4 + (i >> 1)][i & 1] ^= m[i];
    }
}
