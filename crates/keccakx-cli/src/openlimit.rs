//! Open input files within the process's limit on open files.
//!
//! With `--threads 1024` and `ulimit -n 256`, 1024 files hashed at once
//! ran out of descriptors (EMFILE) and hundreds failed. Inputs are opened
//! through one counter bounded by RLIMIT_NOFILE (less the descriptors open
//! at the start and a margin for everything else: the checksum list, the
//! GPU driver); a thread over the bound waits for another file to close.
//! If `open` still says EMFILE or ENFILE (descriptors held elsewhere), the
//! open waits for one of ours to close and tries again, and gives up with
//! the error only when none of ours is open to wait for.

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering::SeqCst};
use std::sync::{Condvar, Mutex, OnceLock};

/// Input files open now, and threads waiting for one to close. Taking and
/// giving back a place is one atomic operation each; the lock and the
/// condition variable are used only when the limit is reached (a wake-up
/// per file cost a system call each: ~3% on 4096 files of 64 KiB).
struct Limiter {
    open: AtomicUsize,
    waiting: AtomicUsize,
    lock: Mutex<()>,
    closed: Condvar,
    max: usize,
}

fn limiter() -> &'static Limiter {
    static L: OnceLock<Limiter> = OnceLock::new();
    L.get_or_init(|| Limiter {
        open: AtomicUsize::new(0),
        waiting: AtomicUsize::new(0),
        lock: Mutex::new(()),
        closed: Condvar::new(),
        max: max_open(),
    })
}

/// Files we may hold open at once.
fn max_open() -> usize {
    let soft = soft_limit();
    let in_use = descriptors_in_use();
    let margin = (soft / 8).clamp(4, 64);
    soft.saturating_sub(in_use + margin).max(1)
}

#[cfg(unix)]
fn soft_limit() -> usize {
    // SAFETY: getrlimit writes only the struct we pass.
    let mut r: libc::rlimit = unsafe { std::mem::zeroed() };
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut r) } != 0
        || r.rlim_cur == libc::RLIM_INFINITY
    {
        return 1 << 20;
    }
    usize::try_from(r.rlim_cur).unwrap_or(1 << 20).min(1 << 20)
}

#[cfg(not(unix))]
fn soft_limit() -> usize {
    1 << 20
}

/// Descriptors open now (Linux: /proc/self/fd, counting the one that
/// lists it); 3 elsewhere.
fn descriptors_in_use() -> usize {
    std::fs::read_dir("/proc/self/fd")
        .map(|d| d.count())
        .unwrap_or(3)
}

/// An input file and its place under the limit (given back on drop, after
/// the file is closed).
pub struct OpenFile {
    file: Option<File>,
}

impl OpenFile {
    pub fn file(&self) -> &File {
        self.file.as_ref().expect("present until drop")
    }

    pub fn file_mut(&mut self) -> &mut File {
        self.file.as_mut().expect("present until drop")
    }
}

impl Drop for OpenFile {
    fn drop(&mut self) {
        drop(self.file.take());
        let l = limiter();
        l.open.fetch_sub(1, SeqCst);
        // A waiter registers before it checks the count (both SeqCst), so
        // either it sees this decrement or this sees it waiting.
        if l.waiting.load(SeqCst) > 0 {
            let _g = l.lock.lock().unwrap_or_else(|p| p.into_inner());
            l.closed.notify_one();
        }
    }
}

impl Limiter {
    /// Take a place, waiting while all are taken.
    fn acquire(&self) {
        loop {
            let n = self.open.load(SeqCst);
            if n < self.max {
                if self.open.compare_exchange(n, n + 1, SeqCst, SeqCst).is_ok() {
                    return;
                }
                continue;
            }
            let g = self.lock.lock().unwrap_or_else(|p| p.into_inner());
            self.waiting.fetch_add(1, SeqCst);
            let g = if self.open.load(SeqCst) >= self.max {
                self.closed.wait(g).unwrap_or_else(|p| p.into_inner())
            } else {
                g
            };
            self.waiting.fetch_sub(1, SeqCst);
            drop(g);
        }
    }

    /// Wait (a little) for one of our files to close.
    fn wait_for_close(&self) {
        let g = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        self.waiting.fetch_add(1, SeqCst);
        let _ = self
            .closed
            .wait_timeout(g, std::time::Duration::from_millis(100));
        self.waiting.fetch_sub(1, SeqCst);
    }
}

fn out_of_descriptors(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::EMFILE) | Some(libc::ENFILE))
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// Open `path` for reading, within the limit.
pub fn open(path: &OsStr) -> io::Result<OpenFile> {
    let l = limiter();
    l.acquire();
    // From here the place is ours: `slot` gives it back if opening fails.
    let mut slot = OpenFile { file: None };
    loop {
        match File::open(path) {
            Ok(f) => {
                slot.file = Some(f);
                return Ok(slot);
            }
            Err(e) if out_of_descriptors(&e) => {
                if l.open.load(SeqCst) > 1 {
                    // Another of our files will close: wait for it.
                    l.wait_for_close();
                } else {
                    // None of ours will close (descriptors held elsewhere,
                    // `ulimit -n` below what the run needs): this file
                    // fails now, as in coreutils, rather than after waiting.
                    return Err(e);
                }
            }
            Err(e) => return Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_leaves_room() {
        let m = max_open();
        assert!(m >= 1 && m < soft_limit().max(2));
        assert!(descriptors_in_use() >= 3);
        // Thousands of opens in turn: every slot is given back (else this
        // would wait forever once `max` slots leaked).
        for _ in 0..(m + 10).min(5000) {
            assert!(open(OsStr::new("Cargo.toml")).is_ok());
            assert!(open(OsStr::new("/nonexistent/keccakx")).is_err());
        }
    }
}
