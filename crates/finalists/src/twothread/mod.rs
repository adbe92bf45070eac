//! The 2012 study's literal design: one hash split over two cores that
//! synchronise after every step. Here the second core is a helper thread
//! (started once, shared by all hashers, used by one compression at a time),
//! and the state words travel between the two through atomics.
//!
//! Splits (what runs on the helper):
//! * BLAKE: two of the four column G functions and two of the four diagonal
//!   ones; one barrier after every half-round (28 per BLAKE-256 block).
//! * Grøstl: Q(m) while the caller computes P(h ^ m); one join per block.
//! * JH: the second 64-bit half of every 128-bit word (the bit-sliced S-boxes,
//!   L and the swaps of sizes 1..32 stay inside a half); the halves meet only
//!   at the 64-bit swap every seventh round (6 exchanges per block).
//! * Skein: the second half of the MIX functions of every round; one barrier
//!   per round (72 or 80 per block) to exchange the permuted words.
//!
//! The study's other rows (MD5, SHA-1, SHA-256, Keccak-f, RC5) are in
//! [`classic`]; the probes that measure the hand-off cost for the study's
//! speed-up model are at the end of this file.
//!
//! No `unsafe` here: everything shared is an atomic.

use std::boxed::Box;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::*};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;

mod classic;
pub(crate) use classic::*;

type Job = Box<dyn FnOnce() + Send>;

struct Helper {
    slot: Mutex<Option<Job>>,
    has_job: AtomicBool,
    thread: thread::Thread,
    /// Held by the caller for the duration of one split compression.
    busy: Mutex<()>,
}

fn helper() -> &'static Helper {
    static H: OnceLock<&'static Helper> = OnceLock::new();
    H.get_or_init(|| {
        let (tx, rx) = std::sync::mpsc::channel::<&'static Helper>();
        let t = thread::Builder::new()
            .name("finalists-helper".into())
            .spawn(move || {
                let me: &'static Helper = rx.recv().expect("helper handle");
                loop {
                    let mut spins = 0u32;
                    while !me.has_job.load(Acquire) {
                        spins += 1;
                        if spins < 20_000 {
                            std::hint::spin_loop();
                        } else {
                            thread::park();
                        }
                    }
                    me.has_job.store(false, Relaxed);
                    let job = me.slot.lock().unwrap_or_else(|e| e.into_inner()).take();
                    if let Some(job) = job {
                        job();
                    }
                }
            })
            .expect("cannot start the finalists helper thread");
        let h: &'static Helper = Box::leak(Box::new(Helper {
            slot: Mutex::new(None),
            has_job: AtomicBool::new(false),
            thread: t.thread().clone(),
            busy: Mutex::new(()),
        }));
        tx.send(h).expect("helper thread alive");
        h
    })
}

/// Runs `on_helper` on the helper thread and `on_caller` here, concurrently;
/// `on_caller` must itself wait for whatever it needs from the helper.
pub(crate) fn split<R>(
    on_helper: impl FnOnce() + Send + 'static,
    on_caller: impl FnOnce() -> R,
) -> R {
    let h = helper();
    let _g = h.busy.lock().unwrap_or_else(|e| e.into_inner());
    *h.slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(on_helper));
    h.has_job.store(true, Release);
    h.thread.unpark();
    on_caller()
}

/// Spin (then yield) until `c >= k`.
#[inline]
pub(crate) fn wait_at_least(c: &AtomicU32, k: u32) {
    let mut n = 0u32;
    while c.load(Acquire) < k {
        n += 1;
        if n < 4_000 {
            std::hint::spin_loop();
        } else {
            thread::yield_now();
        }
    }
}

/// Two step counters, one per side; a barrier after step k is
/// "publish k, wait until the other side has published k".
pub(crate) struct Steps {
    side: [AtomicU32; 2],
}
impl Steps {
    pub(crate) fn new() -> Self {
        Steps {
            side: [AtomicU32::new(0), AtomicU32::new(0)],
        }
    }
    pub(crate) fn barrier(&self, me: usize, k: u32) {
        self.side[me].store(k, Release);
        wait_at_least(&self.side[1 - me], k);
    }
}

// ---------------------------------------------------------------- BLAKE

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
    blake_compress32,
    u32,
    AtomicU32,
    64,
    u64,
    14,
    crate::blake::portable::words32,
    crate::blake::portable::init32,
    crate::blake::portable::g32_step
);
blake_two!(
    blake_compress64,
    u64,
    AtomicU64,
    128,
    u128,
    16,
    crate::blake::portable::words64,
    crate::blake::portable::init64,
    crate::blake::portable::g64_step
);

// ---------------------------------------------------------------- Grøstl

struct Done<const C: usize> {
    q: [AtomicU64; C],
    done: AtomicU32,
}

/// P(h ^ m) here, Q(m) on the helper, joined once per block.
pub(crate) fn groestl_compress<const C: usize>(h: &mut [u64; C], m: &[u64; C]) {
    let sh = Arc::new(Done::<C> {
        q: core::array::from_fn(|_| AtomicU64::new(0)),
        done: AtomicU32::new(0),
    });
    let sh2 = Arc::clone(&sh);
    let mq = *m;
    split(
        move || {
            let mut q = mq;
            crate::groestl::portable::perm_q(&mut q);
            for j in 0..C {
                sh2.q[j].store(q[j], Relaxed);
            }
            sh2.done.store(1, Release);
        },
        || {
            let mut p = [0u64; C];
            for j in 0..C {
                p[j] = h[j] ^ m[j];
            }
            crate::groestl::portable::perm_p(&mut p);
            wait_at_least(&sh.done, 1);
            for j in 0..C {
                h[j] ^= p[j] ^ sh.q[j].load(Relaxed);
            }
        },
    )
}

// ---------------------------------------------------------------- JH

struct JhShared {
    /// Odd words of each half, posted for the 64-bit swap: [side][word/2].
    post: [[AtomicU64; 4]; 2],
    out: [AtomicU64; 8],
    steps: Steps,
}

/// F8 with the low 64-bit halves here and the high halves on the helper.
pub(crate) fn jh_compress(x: &mut crate::jh::State, m: &[u64; 8]) {
    use crate::jh::portable::half_round;
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
            let c = &crate::jh::portable::RC_STATIC[r];
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

// ---------------------------------------------------------------- Skein

struct SkeinShared<const NW: usize> {
    /// Double-buffered words after the MIX layer of a round.
    buf: [[AtomicU64; NW]; 2],
    steps: Steps,
}

/// UBI with Threefish split: side 0 computes the MIX functions on words
/// 0..NW/2, side 1 on words NW/2..NW, exchanging the permuted words per round.
pub(crate) fn skein_ubi<const NW: usize>(h: &mut [u64; NW], m: &[u64; NW], tweak: [u64; 2]) {
    use crate::skein::portable::{expand, pi, rot, rounds, subkey_word};
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

// ---------------------------------------------------------------- probes

/// The hand-off alone: one split whose two sides do nothing (wake the helper,
/// run an empty job, join). The study's τ for a step that is started once.
pub fn probe_split() {
    let sh = Arc::new(AtomicU32::new(0));
    let sh2 = Arc::clone(&sh);
    split(move || sh2.store(1, Release), || wait_at_least(&sh, 1));
}

/// One split whose two sides meet at `n` barriers with no work between them:
/// (ticks(n) - ticks(0)) / n is the cost of one synchronisation, the τ of a
/// step that is exchanged per round.
pub fn probe_barriers(n: u32) {
    let sh = Arc::new(Steps::new());
    let sh2 = Arc::clone(&sh);
    split(
        move || {
            for k in 1..=n {
                sh2.barrier(1, k);
            }
        },
        || {
            for k in 1..=n {
                sh.barrier(0, k);
            }
        },
    );
}
