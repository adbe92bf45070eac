//! Where the multi-core paths get their helper threads: rayon's global
//! pool, or, in a child process after `fork()`, a pool of the child's own.
//!
//! A forked child has only the thread that called `fork()`. The parent's
//! pool threads do not exist there, and a lock one of them held at the
//! moment of the fork (rayon's sleep/wake state) stays locked forever: the
//! child's first hand-off to the global pool can block for good. rayon's
//! global pool cannot be replaced, so after [`forget_pool_after_fork`] the
//! child builds a fresh pool on first use and never touches the parent's
//! again (each further fork does the same). The parent's stale pool is
//! leaked, never dropped: dropping it would wake threads that are not there.

use alloc::boxed::Box;
use core::ptr;
use core::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

/// Set in a child after `fork()`: the global pool is the parent's.
static FORKED: AtomicBool = AtomicBool::new(false);

/// The pool built in this (forked) process; null until first use, and
/// after every fork (the old one leaked).
static OWN: AtomicPtr<rayon::ThreadPool> = AtomicPtr::new(ptr::null_mut());

/// Call in the child right after `fork()` (a `pthread_atfork` child
/// handler, `os.register_at_fork(after_in_child=...)`): the multi-core
/// paths stop using the parent's pool and build a new one on first use.
/// Async-signal-safe: two atomic stores, no allocation, no lock.
pub fn forget_pool_after_fork() {
    FORKED.store(true, Ordering::SeqCst);
    OWN.store(ptr::null_mut(), Ordering::SeqCst);
}

/// The child's own pool, built on first use; None when no thread can be
/// started (the caller then works alone).
fn own_pool() -> Option<&'static rayon::ThreadPool> {
    let p = OWN.load(Ordering::Acquire);
    if !p.is_null() {
        // SAFETY: every non-null value stored is a leaked Box, never freed.
        return Some(unsafe { &*p });
    }
    let fresh = Box::into_raw(Box::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(default_pool_threads())
            .build()
            .ok()?,
    ));
    match OWN.compare_exchange(ptr::null_mut(), fresh, Ordering::AcqRel, Ordering::Acquire) {
        // SAFETY: just leaked above; never freed.
        Ok(_) => Some(unsafe { &*fresh }),
        Err(other) => {
            // Another thread won the race: use its pool, drop ours (its
            // threads are alive, so dropping it is an ordinary shutdown).
            // SAFETY: `fresh` came from Box::into_raw above and was not
            // published; `other` is a leaked Box, never freed.
            drop(unsafe { Box::from_raw(fresh) });
            Some(unsafe { &*other })
        }
    }
}

/// Threads of the pool the multi-core paths use (at least 1).
pub(crate) fn current_num_threads() -> usize {
    if FORKED.load(Ordering::Acquire) {
        own_pool().map_or(1, |p| p.current_num_threads()).max(1)
    } else if rayon::current_thread_index().is_none() && !global_pool_ok() {
        // No thread could be started for the global pool: work alone.
        1
    } else {
        rayon::current_num_threads().max(1)
    }
}

/// Run `job` on a helper thread of that pool. Returns false when there is
/// no pool to run it (the caller does the work itself).
pub(crate) fn spawn(job: impl FnOnce() + Send + 'static) -> bool {
    if FORKED.load(Ordering::Acquire) {
        match own_pool() {
            Some(p) => p.spawn(job),
            None => return false,
        }
    } else if rayon::current_thread_index().is_none() && !global_pool_ok() {
        return false;
    } else {
        rayon::spawn(job);
    }
    true
}

/// Most threads the default pool starts, whatever `RAYON_NUM_THREADS` asks
/// (100000 would create threads for minutes).
pub const MAX_POOL_THREADS: usize = 1024;

/// The size of the default pool: `RAYON_NUM_THREADS` when it is a positive
/// number, else one thread per core; at most [`MAX_POOL_THREADS`].
pub fn default_pool_threads() -> usize {
    let from_env = std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0);
    from_env
        .or_else(|| std::thread::available_parallelism().ok().map(|n| n.get()))
        .unwrap_or(1)
        .min(MAX_POOL_THREADS)
}

/// Whether rayon's global pool exists or could be built now. rayon builds
/// it once: a failed build (threads that could not be spawned) leaves
/// every later use of it panicking, so the first use goes through here,
/// which builds it with [`default_pool_threads`] unless someone (the
/// command line, with its own fallback) built it first.
pub(crate) fn global_pool_ok() -> bool {
    static OK: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *OK.get_or_init(|| {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(default_pool_threads())
            .build_global()
        {
            Ok(()) => true,
            // Built before (by the application): it works, or the
            // application, which saw the error, keeps rayon out of it.
            Err(e) => e.to_string().contains("already"),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::sync::Arc;
    use core::sync::atomic::AtomicUsize;

    #[test]
    fn after_forget_the_own_pool_runs_the_jobs() {
        // In this process the "parent's" pool is alive, but after the call
        // it is never used again: jobs go to a pool built here, and a
        // second call (a fork of the fork) builds another.
        for _ in 0..2 {
            forget_pool_after_fork();
            assert!(current_num_threads() >= 1);
            let done = Arc::new(AtomicUsize::new(0));
            let mut spawned = 0;
            for _ in 0..8 {
                let d = Arc::clone(&done);
                spawned += spawn(move || {
                    d.fetch_add(1, Ordering::SeqCst);
                }) as usize;
            }
            let t0 = std::time::Instant::now();
            while done.load(Ordering::SeqCst) < spawned {
                assert!(t0.elapsed() < std::time::Duration::from_secs(10));
                std::thread::yield_now();
            }
            assert_eq!(spawned, 8);
            assert!(own_pool_runs_code());
        }
    }

    /// An own pool was built, and code installed in it runs on its threads.
    fn own_pool_runs_code() -> bool {
        let own = OWN.load(Ordering::Acquire);
        // SAFETY: non-null values are leaked pools, never freed.
        !own.is_null()
            && unsafe { &*own }
                .install(rayon::current_thread_index)
                .is_some()
    }
}
