//! SHA-1 and SHA-256 split over the caller and the helper thread of
//! [`crate::twothread`] (the 2012 study's two-core form, its §III-B/C): the
//! helper computes the schedule W[16..] and hands each word over as soon as
//! it is ready; the caller runs the rounds, waiting only if a word is not
//! there yet.

use super::portable::{load_be, rounds1, rounds256, sha1_next, sha256_next};
use super::spec::{K1, K256};
use crate::twothread::{split, WordPipe};
use std::sync::Arc;

/// SHA-1 with W[16..80] computed on the helper.
pub(crate) fn compress1(h: &mut [u32; 8], block: &[u8; 64]) {
    let pipe = WordPipe::<80>::new();
    let p2 = Arc::clone(&pipe);
    let b = *block;
    split(
        move || {
            let mut w = load_be(&b);
            for t in 16..80 {
                w[t & 15] = sha1_next(&w, t);
                p2.publish(t, w[t & 15]);
            }
        },
        || {
            let w0 = load_be(block);
            let mut seen = 16;
            rounds1(h, |g| {
                let k = K1[g / 5];
                core::array::from_fn(|j| {
                    let t = 4 * g + j;
                    let w = if t < 16 {
                        w0[t]
                    } else {
                        pipe.get(t, &mut seen)
                    };
                    w.wrapping_add(k)
                })
            });
        },
    )
}

/// SHA-256 with W[16..64] computed on the helper.
pub(crate) fn compress256(h: &mut [u32; 8], block: &[u8; 64]) {
    let pipe = WordPipe::<64>::new();
    let p2 = Arc::clone(&pipe);
    let b = *block;
    split(
        move || {
            let mut w = load_be(&b);
            for t in 16..64 {
                w[t & 15] = sha256_next(&w, t);
                p2.publish(t, w[t & 15]);
            }
        },
        || {
            let w0 = load_be(block);
            let mut seen = 16;
            rounds256(h, |g| {
                core::array::from_fn(|j| {
                    let t = 4 * g + j;
                    let w = if t < 16 {
                        w0[t]
                    } else {
                        pipe.get(t, &mut seen)
                    };
                    w.wrapping_add(K256[t])
                })
            });
        },
    )
}
