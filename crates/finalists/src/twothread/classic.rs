//! The study's two-core forms of MD5, SHA-1, SHA-256, Keccak-f[1600] and
//! RC5 (its §III-A..C, §III-D Keccak, §III-E), on the helper thread of
//! [`super`]:
//!
//! * MD5: the helper loads the sixteen message words (the study's byte swap)
//!   and hands them over one by one while the caller runs the 64 steps.
//! * SHA-1 / SHA-256: the helper computes the schedule W[16..] and hands each
//!   word over as soon as it is ready; the caller runs the rounds, waiting
//!   only if a word is not there yet.
//! * Keccak-f[1600]: the caller computes output rows y = 0, 1, 2 and the
//!   helper rows 3, 4 of every round; both read the whole previous state
//!   (each computes θ's column parities itself, which is cheaper than
//!   exchanging them), so there is one barrier per round (24 per block).
//! * RC5: the helper runs the key expansion and publishes each word of the
//!   expanded key S as soon as it is final; the caller encrypts, waiting for
//!   S[2i], S[2i+1] before half-round i.

use super::{split, wait_at_least, Steps};
use crate::sha::portable::{load_be, rounds1, rounds256, sha1_next, sha256_next};
use crate::sha::{K1, K256};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::*};
use std::sync::Arc;

/// Words handed from the helper to the caller in order of readiness.
struct WordPipe<const N: usize> {
    w: [AtomicU32; N],
    ready: AtomicU32,
}

impl<const N: usize> WordPipe<N> {
    fn new() -> Arc<Self> {
        Arc::new(Self {
            w: core::array::from_fn(|_| AtomicU32::new(0)),
            ready: AtomicU32::new(0),
        })
    }

    /// Publishes word `t` (words are published in increasing `t`).
    #[inline(always)]
    fn publish(&self, t: usize, v: u32) {
        self.w[t].store(v, Relaxed);
        self.ready.store(t as u32 + 1, Release);
    }

    /// Word `t`, waiting until it is published; `seen` caches the last
    /// readiness observed so that the common case is one relaxed load.
    #[inline(always)]
    fn get(&self, t: usize, seen: &mut u32) -> u32 {
        if *seen <= t as u32 {
            wait_at_least(&self.ready, t as u32 + 1);
            *seen = self.ready.load(Acquire);
        }
        self.w[t].load(Relaxed)
    }
}

/// MD5 with the message words loaded on the helper.
pub(crate) fn md5_compress(h: &mut [u32; 8], block: &[u8; 64]) {
    let pipe = WordPipe::<16>::new();
    let p2 = Arc::clone(&pipe);
    let b = *block;
    split(
        move || {
            for k in 0..16 {
                p2.publish(
                    k,
                    u32::from_le_bytes(b[4 * k..4 * k + 4].try_into().unwrap()),
                );
            }
        },
        || {
            let mut seen = 0;
            crate::md5::steps(h, |k| pipe.get(k, &mut seen));
        },
    )
}

/// SHA-1 with W[16..80] computed on the helper.
pub(crate) fn sha1_compress(h: &mut [u32; 8], block: &[u8; 64]) {
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
pub(crate) fn sha256_compress(h: &mut [u32; 8], block: &[u8; 64]) {
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

// ---------------------------------------------------------------- Keccak-f

struct KeccakShared {
    /// The state after round r lives in buf[r % 2] (double buffer).
    buf: [[AtomicU64; 25]; 2],
    steps: Steps,
}

/// Rows y = 0..3 here, 3..5 on the helper (3:2, the nearest to even that
/// whole rows allow: χ works on rows, so a side owning whole rows needs no
/// exchange inside a round).
const KECCAK_CALLER_ROWS: core::ops::Range<usize> = 0..3;
const KECCAK_HELPER_ROWS: core::ops::Range<usize> = 3..5;

/// Keccak-f[1600] split by rows over the caller and the helper.
pub(crate) fn keccak_f1600(a: &mut [u64; 25]) {
    let sh = Arc::new(KeccakShared {
        buf: core::array::from_fn(|_| core::array::from_fn(|_| AtomicU64::new(0))),
        steps: Steps::new(),
    });
    for (l, v) in sh.buf[0].iter().zip(a.iter()) {
        l.store(*v, Relaxed);
    }
    fn run(sh: &KeccakShared, rows: core::ops::Range<usize>, side: usize) {
        let rho = keccakx::permutation::golden::rho_offsets();
        for (r, &rc) in keccakx::permutation::ROUND_CONSTANTS.iter().enumerate() {
            let s: [u64; 25] = core::array::from_fn(|i| sh.buf[r % 2][i].load(Relaxed));
            let dst = &sh.buf[(r + 1) % 2];
            crate::keccak::round_rows(&s, rows.clone(), rc, &rho, |i, v| dst[i].store(v, Relaxed));
            sh.steps.barrier(side, r as u32 + 1);
        }
    }
    let sh2 = Arc::clone(&sh);
    split(
        move || run(&sh2, KECCAK_HELPER_ROWS, 1),
        || run(&sh, KECCAK_CALLER_ROWS, 0),
    );
    // Past barrier 24 on the caller's side: the helper's last rows are in buf[0].
    for (v, l) in a.iter_mut().zip(sh.buf[0].iter()) {
        *v = l.load(Relaxed);
    }
}

// ---------------------------------------------------------------- RC5

/// RC5 key expansion on the helper, encryption of `blocks` here, each
/// half-round waiting for its two words of S. Returns the expanded key.
pub(crate) fn rc5_expand_and_encrypt(
    key: &[u8],
    rounds: usize,
    blocks: &mut [[u8; 8]],
) -> crate::rc5::Rc5 {
    use crate::rc5::{expand_key_with, Rc5};
    let t = 2 * rounds + 2;
    let pipe = Arc::new(S32Pipe {
        s: core::array::from_fn(|_| AtomicU32::new(0)),
        ready: AtomicU32::new(0),
    });
    let p2 = Arc::clone(&pipe);
    let mut k = [0u8; 255];
    k[..key.len()].copy_from_slice(key);
    let klen = key.len();
    split(
        move || {
            expand_key_with(&k[..klen], rounds, |i, v, in_order| {
                p2.s[i].store(v, Relaxed);
                if in_order {
                    p2.ready.store(i as u32 + 1, Release);
                }
            });
            // Key bytes beyond 4*t words finish out of order: publish all at the end.
            p2.ready.store(t as u32, Release);
        },
        || {
            let mut seen = 0u32;
            let mut word = |i: usize| {
                if seen <= i as u32 {
                    wait_at_least(&pipe.ready, i as u32 + 1);
                    seen = pipe.ready.load(Acquire);
                }
                pipe.s[i].load(Relaxed)
            };
            for b in blocks.iter_mut() {
                crate::rc5::encrypt_with(b, rounds, &mut word);
            }
            wait_at_least(&pipe.ready, t as u32);
            Rc5::from_expanded(rounds, |i| pipe.s[i].load(Relaxed))
        },
    )
}

struct S32Pipe {
    s: [AtomicU32; crate::rc5::MAX_TABLE],
    ready: AtomicU32,
}
