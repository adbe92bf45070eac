//! The 2012 study's literal design: one hash split over two cores that
//! synchronise after every step. Here the second core is a helper thread
//! (started once, shared by all hashers, used by one compression at a time),
//! and the state words travel between the two through atomics.
//!
//! This module is the machinery only (`split`, the barrier counters
//! `Steps`, the word hand-over `WordPipe`) and knows no algorithm; each
//! algorithm's two-thread form sits beside its portable and SIMD forms and
//! uses it (what runs on the helper):
//! * BLAKE (`blake/two_threads.rs`): two of the four column G functions and
//!   two of the four diagonal ones; one barrier after every half-round (28
//!   per BLAKE-256 block).
//! * Grøstl (`groestl/two_threads.rs`): Q(m) while the caller computes
//!   P(h ^ m); one join per block.
//! * JH (`jh/two_threads.rs`): the second 64-bit half of every 128-bit word
//!   (the bit-sliced S-boxes, L and the swaps of sizes 1..32 stay inside a
//!   half); the halves meet only at the 64-bit swap every seventh round (6
//!   exchanges per block).
//! * Skein (`skein/two_threads.rs`): the second half of the MIX functions of
//!   every round; one barrier per round (72 or 80 per block) to exchange the
//!   permuted words.
//! * MD5 (`md5.rs`): the loading of the sixteen message words.
//! * SHA-1 / SHA-256 (`sha/two_threads.rs`): the schedule W[16..].
//! * Keccak-f\[1600\] (`keccak.rs`): output rows 3 and 4 of every round.
//! * RC5 (`rc5.rs`): the key expansion.
//!
//! The probes that measure the hand-off cost for the study's speed-up model
//! are at the end of this file.
//!
//! No `unsafe` here: everything shared is an atomic.

use std::boxed::Box;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::*};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;

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
    /// The last step each side has published (a side may also publish a
    /// final marker past its last step for the other to wait on).
    pub(crate) side: [AtomicU32; 2],
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

/// Words handed from the helper to the caller in order of readiness.
pub(crate) struct WordPipe<const N: usize> {
    w: [AtomicU32; N],
    ready: AtomicU32,
}

impl<const N: usize> WordPipe<N> {
    pub(crate) fn new() -> Arc<Self> {
        Arc::new(Self {
            w: core::array::from_fn(|_| AtomicU32::new(0)),
            ready: AtomicU32::new(0),
        })
    }

    /// Publishes word `t` (words are published in increasing `t`).
    #[inline(always)]
    pub(crate) fn publish(&self, t: usize, v: u32) {
        self.w[t].store(v, Relaxed);
        self.ready.store(t as u32 + 1, Release);
    }

    /// Word `t`, waiting until it is published; `seen` caches the last
    /// readiness observed so that the common case is one relaxed load.
    #[inline(always)]
    pub(crate) fn get(&self, t: usize, seen: &mut u32) -> u32 {
        if *seen <= t as u32 {
            wait_at_least(&self.ready, t as u32 + 1);
            *seen = self.ready.load(Acquire);
        }
        self.w[t].load(Relaxed)
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
