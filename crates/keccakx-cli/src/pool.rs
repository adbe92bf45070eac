//! The worker threads, built with as many as the system grants.
//!
//! A pids limit, `ulimit -u` or an address space too small for the
//! threads' stacks makes spawning fail. rayon builds its global pool once:
//! a failed build would leave its first use panicking. So the global pool
//! is tried at the size asked for; if that fails, a pool of its own at half
//! the size, then a quarter, ..., down to a pool of one whose thread is the
//! calling thread (nothing spawned: rayon's work runs there, in turn). The user hears
//! of it once, and only when they asked for a number of threads.

use keccakx::engine::{default_pool_threads, MAX_POOL_THREADS};

use crate::output::warn;

/// The threads a run has.
pub struct Pool {
    /// Threads that hash (1: the calling thread alone).
    pub threads: usize,
    /// A pool of our own when the global one could not be built.
    local: Option<rayon::ThreadPool>,
}

/// The size asked for: `--threads` (0: one per core), else
/// `RAYON_NUM_THREADS`, else one per core; at most [`MAX_POOL_THREADS`].
/// Whether the user chose it (`--threads N` or the variable).
pub fn requested(explicit: Option<usize>) -> (usize, bool) {
    let env_set = std::env::var_os("RAYON_NUM_THREADS").is_some();
    match explicit {
        Some(n) if n > 0 => (n.min(MAX_POOL_THREADS), true),
        _ => (default_pool_threads(), explicit.is_none() && env_set),
    }
}

/// Build the threads for `explicit` (`--threads`), tell the library how
/// many there are, and warn once when fewer than asked for could start.
pub fn build(explicit: Option<usize>) -> Pool {
    let (want, asked) = requested(explicit);
    let pool = build_sized(
        want.min(fit_address_limit()),
        |n| builder(n).build_global(),
        |n| builder(n).build(),
    );
    keccakx::engine::set_threads(pool.threads);
    if asked && pool.threads < want {
        warn(&format!(
            "could start only {} of {want} threads (resource limit); hashing with {}",
            pool.threads, pool.threads
        ));
    }
    pool
}

/// Address space a thread takes: its stack (Rust's and rayon's default,
/// 2 MiB) and a guard page.
const THREAD_SPACE: u64 = (2 << 20) + 4096;
/// Address space kept free for the buffers and windows of the hashing.
const WORK_SPACE: u64 = 24 << 20;

/// The most threads whose stacks fit the limit on the address space
/// (`ulimit -v`) beside the space the work needs; unbounded without a
/// limit. Near the limit, threads that do start leave too little for
/// glibc's own bookkeeping of them, which it cannot fail gracefully
/// ("failed to register TLS destructor": abort), so the count is fitted
/// up front rather than found by failing.
fn fit_address_limit() -> usize {
    #[cfg(target_os = "linux")]
    {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct given.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } != 0
            || r.rlim_cur == libc::RLIM_INFINITY
        {
            return usize::MAX;
        }
        // Address space in use now: the first field of /proc/self/statm, in pages.
        let used = std::fs::read_to_string("/proc/self/statm")
            .ok()
            .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
            .map_or(0, |pages| pages * 4096);
        #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 everywhere
        let free = (r.rlim_cur as u64).saturating_sub(used + WORK_SPACE);
        (free / THREAD_SPACE).max(1) as usize
    }
    #[cfg(not(target_os = "linux"))]
    usize::MAX
}

/// A pool of `n` threads; one thread is the calling thread itself (no
/// thread is spawned), so a pool of one can always be had, and whatever
/// runs on rayon runs here, in turn.
fn builder(n: usize) -> rayon::ThreadPoolBuilder {
    let b = rayon::ThreadPoolBuilder::new().num_threads(n);
    if n == 1 {
        b.use_current_thread()
    } else {
        b
    }
}

/// [`build`]'s fallback chain, with the builders given (tests).
fn build_sized<E1, E2>(
    want: usize,
    global: impl FnOnce(usize) -> Result<(), E1>,
    mut local: impl FnMut(usize) -> Result<rayon::ThreadPool, E2>,
) -> Pool {
    let want = want.max(1);
    if global(want).is_ok() {
        return Pool {
            threads: want,
            local: None,
        };
    }
    let mut n = (want / 2).max(1);
    loop {
        // The threads of a failed try are on their way out, and count
        // against the limit until they are gone.
        std::thread::sleep(std::time::Duration::from_millis(2));
        if let Ok(p) = local(n) {
            return Pool {
                threads: n,
                local: Some(p),
            };
        }
        if n == 1 {
            break;
        }
        n /= 2;
    }
    Pool {
        threads: 1,
        local: None,
    }
}

impl Pool {
    /// Run `f` with these threads: inside the pool of our own, if any.
    pub fn run<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.local {
            Some(p) => p.install(f),
            None => f(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn falls_back_by_halves_down_to_the_calling_thread() {
        let fail = |_: usize| Err::<(), ()>(());
        let mut tried = Vec::new();
        let p = build_sized(8, fail, |n| {
            tried.push(n);
            Err::<rayon::ThreadPool, ()>(())
        });
        assert_eq!(p.threads, 1);
        assert!(p.local.is_none());
        assert_eq!(tried, [4, 2, 1]);
        let p = build_sized(8, fail, |n| builder(n).build());
        assert_eq!(p.threads, 4);
        assert_eq!(p.run(rayon::current_num_threads), 4);
        // The last resort spawns nothing: rayon's work runs on this thread.
        let p = build_sized(1, fail, |n| builder(n).build());
        assert_eq!(p.threads, 1);
        let me = std::thread::current().id();
        let ids: Vec<_> = p.run(|| {
            use rayon::prelude::*;
            (0..64)
                .into_par_iter()
                .map(|_| std::thread::current().id())
                .collect()
        });
        assert!(ids.iter().all(|&t| t == me));
    }
}
