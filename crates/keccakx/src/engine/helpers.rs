//! Running numbered pieces of work on the calling thread plus rayon helpers,
//! without ever putting the caller to sleep.
//!
//! Why not `rayon::scope`: called from a thread outside rayon's pool (a
//! program's main thread, the CLI) it queues the whole job in the pool and
//! blocks the caller on a lock until a pool thread has woken up, run it and
//! woken the caller again. Each of those wake-ups was measured at ~20 µs
//! (an empty `rayon::scope` round trip: median 22-26 µs, minimum 0.6 µs),
//! a third of a two-thread KT128 of 1 MiB (bench/NOTES.md, "Waking
//! threads", says on which machine). Here the caller starts on the
//! pieces at once; helpers join whenever rayon starts them and take pieces
//! from the same counter; when the pieces run out the caller only waits
//! (spinning) for helpers still inside a piece, and a helper that starts
//! after that finds the work closed and touches nothing.

use alloc::sync::Arc;
use core::sync::atomic::{AtomicUsize, Ordering};

/// Set in `Shared::active` once the caller stops admitting helpers.
const CLOSED: usize = 1 << (usize::BITS - 1);

/// Spins before the caller starts yielding its core while a helper
/// finishes its last piece (a piece is tens of microseconds at most).
const SPINS_BEFORE_YIELD: u32 = 1 << 12;

/// The task with its borrow's lifetime erased. Only dereferenced by a
/// helper that entered `Shared::active` before `CLOSED` was set; the caller
/// does not return (or unwind) before every such helper has left.
#[derive(Clone, Copy)]
struct TaskPtr(*const (dyn Fn(usize) + Sync + 'static));

// SAFETY: the pointee is `Sync`; the pointer is only used under the
// enter/close protocol above.
unsafe impl Send for TaskPtr {}
unsafe impl Sync for TaskPtr {}

struct Shared {
    task: TaskPtr,
    pieces: usize,
    /// Next piece to take.
    next: AtomicUsize,
    /// Helpers inside the work, plus the `CLOSED` bit.
    active: AtomicUsize,
}

impl Shared {
    /// Take pieces until none is left.
    ///
    /// # Safety
    /// The task must still be alive: the caller itself, or a helper that
    /// entered before `CLOSED`.
    unsafe fn work(&self) {
        // SAFETY: see above.
        let task = unsafe { &*self.task.0 };
        loop {
            let i = self.next.fetch_add(1, Ordering::Relaxed);
            if i >= self.pieces {
                break;
            }
            task(i);
        }
    }

    /// A helper's whole life: enter unless closed, work, leave.
    fn help(&self) {
        let mut seen = self.active.load(Ordering::Relaxed);
        loop {
            if seen & CLOSED != 0 {
                return;
            }
            match self.active.compare_exchange_weak(
                seen,
                seen + 1,
                Ordering::Acquire,
                Ordering::Relaxed,
            ) {
                Ok(_) => break,
                Err(now) => seen = now,
            }
        }
        // Leaves even if the task panics (rayon then aborts the process,
        // but the caller must not be left spinning or freed under us).
        struct Leave<'a>(&'a AtomicUsize);
        impl Drop for Leave<'_> {
            fn drop(&mut self) {
                self.0.fetch_sub(1, Ordering::Release);
            }
        }
        let _leave = Leave(&self.active);
        // SAFETY: entered before CLOSED, so the caller is still waiting.
        unsafe { self.work() }
    }

    /// Stop admitting helpers and wait until those inside have left; their
    /// writes are visible afterwards (Release on leave, Acquire here).
    fn close_and_wait(&self) {
        self.active.fetch_or(CLOSED, Ordering::AcqRel);
        let mut spins = 0u32;
        while self.active.load(Ordering::Acquire) & !CLOSED != 0 {
            if spins < SPINS_BEFORE_YIELD {
                spins += 1;
                core::hint::spin_loop();
            } else {
                std::thread::yield_now();
            }
        }
    }
}

/// Runs `task(0)`, ..., `task(pieces - 1)`, each exactly once, on the
/// calling thread and up to `helpers` rayon threads; returns when all are
/// done. Pieces are taken in order, first come first served. `side` runs
/// once on the calling thread while the helpers already take pieces: serial
/// work of the caller's (a tree's first chunk, the previous call's chaining
/// values) that would otherwise wait for, or hold up, the parallel part.
pub(crate) fn run_pieces(
    pieces: usize,
    helpers: usize,
    task: &(dyn Fn(usize) + Sync),
    side: &mut dyn FnMut(),
) {
    if helpers == 0 || pieces <= 1 {
        side();
        return (0..pieces).for_each(task);
    }
    // SAFETY (lifetime erasure): `Wait` below closes the work and waits for
    // every entered helper before this frame is left, by return or unwind.
    let task: *const (dyn Fn(usize) + Sync + '_) = task;
    let task = unsafe {
        core::mem::transmute::<
            *const (dyn Fn(usize) + Sync + '_),
            *const (dyn Fn(usize) + Sync + 'static),
        >(task)
    };
    let shared = Arc::new(Shared {
        task: TaskPtr(task),
        pieces,
        next: AtomicUsize::new(0),
        active: AtomicUsize::new(0),
    });
    struct Wait<'a>(&'a Shared);
    impl Drop for Wait<'_> {
        fn drop(&mut self) {
            self.0.close_and_wait();
        }
    }
    let wait = Wait(&shared);
    for _ in 0..helpers.min(pieces - 1) {
        let mine = Arc::clone(&shared);
        if !super::pool::spawn(move || mine.help()) {
            break;
        }
    }
    side();
    // SAFETY: the caller's own task borrow is alive here.
    unsafe { shared.work() };
    drop(wait);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn every_piece_runs_exactly_once() {
        for pieces in [0, 1, 2, 3, 8, 64, 1000] {
            for helpers in [0, 1, 3, 16] {
                let hits: Vec<AtomicUsize> = (0..pieces).map(|_| AtomicUsize::new(0)).collect();
                let mut sides = 0;
                run_pieces(
                    pieces,
                    helpers,
                    &|i| {
                        hits[i].fetch_add(1, Ordering::Relaxed);
                    },
                    &mut || sides += 1,
                );
                assert_eq!(sides, 1);
                assert!(
                    hits.iter().all(|h| h.load(Ordering::Relaxed) == 1),
                    "pieces {pieces} helpers {helpers}"
                );
            }
        }
    }

    #[test]
    fn nested_calls_from_helpers_finish() {
        // A piece that itself splits work (batch of tree-mode messages):
        // no thread may wait on work only it could do.
        let total = AtomicUsize::new(0);
        run_pieces(
            16,
            3,
            &|_| {
                run_pieces(
                    16,
                    3,
                    &|j| {
                        total.fetch_add(j, Ordering::Relaxed);
                    },
                    &mut || {},
                );
            },
            &mut || {},
        );
        assert_eq!(total.load(Ordering::Relaxed), 16 * (0..16).sum::<usize>());
    }

    #[test]
    fn a_panicking_caller_waits_for_helpers_before_unwinding() {
        // The caller (not a rayon thread) panics in its first piece while
        // helpers are inside theirs: the unwind must not leave this frame,
        // freeing what the helpers read, before they are out.
        let inside = AtomicUsize::new(0);
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            run_pieces(
                16,
                3,
                &|_| {
                    if rayon::current_thread_index().is_none() {
                        // Panic only once a helper is inside a piece.
                        let t0 = std::time::Instant::now();
                        while inside.load(Ordering::SeqCst) == 0
                            && t0.elapsed() < std::time::Duration::from_secs(5)
                        {
                            std::thread::yield_now();
                        }
                        panic!("caller's piece");
                    }
                    inside.fetch_add(1, Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    inside.fetch_sub(1, Ordering::SeqCst);
                },
                &mut || {},
            )
        }));
        assert!(r.is_err());
        assert_eq!(inside.load(Ordering::SeqCst), 0);
    }
}
