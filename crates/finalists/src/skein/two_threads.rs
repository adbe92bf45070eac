//! Skein's UBI split over the caller and the helper thread of
//! [`crate::twothread`] (the 2012 study's two-core form): each side computes
//! the MIX functions on its half of the Threefish words, and the permuted
//! words are exchanged after every round (one barrier per round: 72 or 80
//! per block).

use super::portable::{expand, pi, rot, rounds, subkey_word};
use crate::twothread::{split, wait_at_least, Steps};
use std::sync::atomic::{AtomicU64, Ordering::*};
use std::sync::Arc;

struct SkeinShared<const NW: usize> {
    /// Double-buffered words after the MIX layer of a round.
    buf: [[AtomicU64; NW]; 2],
    steps: Steps,
}

/// UBI with Threefish split: side 0 computes the MIX functions on words
/// 0..NW/2, side 1 on words NW/2..NW, exchanging the permuted words per round.
pub(crate) fn ubi<const NW: usize>(h: &mut [u64; NW], m: &[u64; NW], tweak: [u64; 2]) {
    let (k, t) = expand::<NW>(h, tweak);
    let sh = Arc::new(SkeinShared::<NW> {
        buf: core::array::from_fn(|_| core::array::from_fn(|_| AtomicU64::new(0))),
        steps: Steps::new(),
    });
    fn run<const NW: usize>(
        sh: &SkeinShared<NW>,
        k: &[u64; 17],
        t: &[u64; 3],
        m: &[u64; NW],
        side: usize,
    ) -> [u64; NW] {
        let half = NW / 2;
        let lo = side * half;
        // the words this side owns (positions lo..lo+half of the full state)
        let mut v = [0u64; NW];
        v[lo..lo + half].copy_from_slice(&m[lo..lo + half]);
        let nr = rounds(NW);
        for d in 0..nr {
            if d % 4 == 0 {
                for i in lo..lo + half {
                    v[i] = v[i].wrapping_add(subkey_word::<NW>(k, t, d / 4, i));
                }
            }
            for j in lo / 2..(lo + half) / 2 {
                let a = v[2 * j].wrapping_add(v[2 * j + 1]);
                v[2 * j + 1] = v[2 * j + 1].rotate_left(rot(NW, d, j)) ^ a;
                v[2 * j] = a;
            }
            let b = &sh.buf[d % 2];
            for i in lo..lo + half {
                b[i].store(v[i], Relaxed);
            }
            sh.steps.barrier(side, d as u32 + 1);
            for i in lo..lo + half {
                v[i] = b[pi(NW, i)].load(Relaxed);
            }
        }
        for i in lo..lo + half {
            v[i] = v[i].wrapping_add(subkey_word::<NW>(k, t, nr / 4, i));
        }
        v
    }
    let sh2 = Arc::clone(&sh);
    let mm = *m;
    let nr = rounds(NW) as u32;
    let v = split(
        move || {
            let v = run::<NW>(&sh2, &k, &t, &mm, 1);
            let b = &sh2.buf[0];
            // publish the final words once side 0 is past its last read
            wait_at_least(&sh2.steps.side[0], nr);
            for i in NW / 2..NW {
                b[i].store(v[i], Relaxed);
            }
            sh2.steps.side[1].store(nr + 1, Release);
        },
        || {
            let mut v = run::<NW>(&sh, &k, &t, m, 0);
            wait_at_least(&sh.steps.side[1], nr + 1);
            for i in NW / 2..NW {
                v[i] = sh.buf[0][i].load(Relaxed);
            }
            v
        },
    );
    for i in 0..NW {
        h[i] = v[i] ^ m[i];
    }
}
