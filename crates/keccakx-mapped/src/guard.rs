//! Memory maps that survive the file shrinking under them.
//!
//! Reading a mapped page that lies past the end of a file (another process
//! truncated it) raises SIGBUS, which kills the process: the lines already
//! hashed for other files were lost with it (`keccakx sum small big >
//! SUMS`, SUMS empty). Each mapped window is registered here while it is
//! hashed; a SIGBUS handler that finds the faulting address in a registered
//! window puts zero pages over the rest of that window (one `mmap` with
//! MAP_FIXED), marks the window, and returns, so the read goes on and the
//! hasher finishes. The caller then sees [`Guard::hit`] and reports the file
//! instead of its (meaningless) digest. A SIGBUS anywhere else goes to the
//! handler that was there before (Rust's, or the default action).
//!
//! Mapping stays as fast as before: one slot claimed and released per
//! 16 MiB window, one `sigaction` query to see that the handler is still
//! the one in force (another library, Python's `faulthandler` for one, may
//! have put its own there since), and nothing more until a fault.

#[cfg(target_os = "linux")]
mod imp {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
    use std::sync::{Mutex, OnceLock};

    /// Windows registered at once: each file being hashed has at most two
    /// mapped (the one hashed, the one read ahead), and at most 1024 files
    /// are hashed at once (`--threads` ≤ 1024).
    const SLOTS: usize = 4096;

    struct Slot {
        /// First byte of the window (0: slot free).
        start: AtomicUsize,
        /// One past its last byte.
        end: AtomicUsize,
        /// A fault happened in it: part of it now reads as zeros.
        hit: AtomicBool,
    }

    #[allow(clippy::declare_interior_mutable_const)]
    const FREE: Slot = Slot {
        start: AtomicUsize::new(0),
        end: AtomicUsize::new(0),
        hit: AtomicBool::new(false),
    };
    static TABLE: [Slot; SLOTS] = [FREE; SLOTS];

    /// An action that was installed before ours (a function pointer,
    /// flags and a signal mask: plain data, written once, then only read).
    struct Prev(libc::sigaction);
    // SAFETY: see above; the handler only reads it.
    unsafe impl Sync for Prev {}
    unsafe impl Send for Prev {}

    /// How many times the handler may be put back after another one
    /// replaced it (a Python program enabling `faulthandler` after its
    /// first map, say); past that, windows are not guarded and the callers
    /// read instead of mapping.
    const REINSTALLS: usize = 8;
    #[allow(clippy::declare_interior_mutable_const)]
    const NO_PREV: OnceLock<Prev> = OnceLock::new();
    /// The action ours replaced at each installation, oldest first.
    static PREV: [OnceLock<Prev>; REINSTALLS] = [NO_PREV; REINSTALLS];
    /// 1 + the index in PREV of the action ours replaced most recently
    /// (0: never installed). Set after that entry, before our handler.
    static CURRENT: AtomicUsize = AtomicUsize::new(0);
    static PAGE: OnceLock<usize> = OnceLock::new();
    static INSTALLING: Mutex<()> = Mutex::new(());

    fn our_handler() -> usize {
        on_sigbus as *const () as usize
    }

    /// The SIGBUS action now in force, or None if it cannot be read.
    fn current_action() -> Option<libc::sigaction> {
        // SAFETY: sigaction with a null new action only reads the current
        // one into `cur` (all-zero is a valid value to overwrite).
        unsafe {
            let mut cur: libc::sigaction = std::mem::zeroed();
            (libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut cur) == 0).then_some(cur)
        }
    }

    /// Make sure our handler is the one in force: true if it is. Checked
    /// at every registration (one system call per window), because any
    /// library may install its own SIGBUS handler after ours; ours then
    /// goes back on top, passing other faults to that one.
    fn install() -> bool {
        let page = *PAGE.get_or_init(|| {
            // SAFETY: sysconf has no preconditions.
            let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
            usize::try_from(p).unwrap_or(0)
        });
        if page == 0 {
            return false;
        }
        match current_action() {
            Some(cur) if cur.sa_sigaction == our_handler() => return true,
            None => return false,
            Some(_) => {}
        }
        let _one = INSTALLING.lock().unwrap_or_else(|p| p.into_inner());
        let Some(cur) = current_action() else {
            return false;
        };
        if cur.sa_sigaction == our_handler() {
            return true;
        }
        let next = CURRENT.load(SeqCst);
        if next >= REINSTALLS || PREV[next].set(Prev(cur)).is_err() {
            return false;
        }
        CURRENT.store(next + 1, SeqCst);
        // SAFETY: `act` is fully set: our handler, SA_SIGINFO (it takes
        // siginfo), SA_ONSTACK (runs on the alternate stack where a thread
        // has one), an empty mask. Its data (PAGE, PREV) is set above.
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = our_handler();
            act.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut act.sa_mask);
            libc::sigaction(libc::SIGBUS, &act, std::ptr::null_mut()) == 0
        }
    }

    /// SIGBUS handler. Only async-signal-safe work: atomic loads and
    /// stores, `mmap`, `sigaction`, and a call of the previous handler.
    extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        let (Some(&page), Some(prev)) = (
            PAGE.get(),
            CURRENT
                .load(SeqCst)
                .checked_sub(1)
                .and_then(|i| PREV[i].get()),
        ) else {
            return;
        };
        // SAFETY: the kernel passes a valid siginfo for an SA_SIGINFO handler.
        let addr = unsafe { (*info).si_addr() } as usize;
        for slot in TABLE.iter() {
            let start = slot.start.load(SeqCst);
            if start == 0 || addr < start {
                continue;
            }
            let end = slot.end.load(SeqCst);
            if addr >= end {
                continue;
            }
            let page = addr & !(page - 1);
            // SAFETY: [page, end) lies inside a window this process mapped
            // and still holds (registered until it is unmapped); replacing
            // it with private zero pages changes what it reads, nothing else.
            let r = unsafe {
                libc::mmap(
                    page as *mut libc::c_void,
                    end - page,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if r != libc::MAP_FAILED {
                slot.hit.store(true, SeqCst);
                return;
            }
            break;
        }
        // Not ours: the action that was there before ours takes over again
        // (so a handler that re-raises does not come back through ours), and
        // handles this fault.
        let prev = &prev.0;
        // SAFETY: sigaction is async-signal-safe; `prev` is a complete
        // action read from the kernel.
        unsafe { libc::sigaction(sig, prev, std::ptr::null_mut()) };
        let h = prev.sa_sigaction;
        if h == libc::SIG_DFL || h == libc::SIG_IGN {
            // Returning re-runs the faulting access, which now gets the
            // default action, as it would have without us.
            if h == libc::SIG_IGN {
                // SAFETY: as above; `dfl` is complete.
                unsafe {
                    let mut dfl: libc::sigaction = std::mem::zeroed();
                    dfl.sa_sigaction = libc::SIG_DFL;
                    libc::sigemptyset(&mut dfl.sa_mask);
                    libc::sigaction(sig, &dfl, std::ptr::null_mut());
                }
            }
        } else if prev.sa_flags & libc::SA_SIGINFO != 0 {
            // SAFETY: the previous action was installed with SA_SIGINFO, so
            // `h` is a handler of this signature.
            let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                unsafe { std::mem::transmute(h) };
            f(sig, info, ctx);
        } else {
            // SAFETY: without SA_SIGINFO the handler takes the signal alone.
            let f: extern "C" fn(libc::c_int) = unsafe { std::mem::transmute(h) };
            f(sig);
        }
    }

    /// A registered window; released on drop (before the window is unmapped).
    pub struct Guard {
        slot: &'static Slot,
    }

    /// Register `[ptr, ptr + len)`; None if the handler cannot be installed
    /// or the table is full (the caller then does not map).
    pub fn register(ptr: *const u8, len: usize) -> Option<Guard> {
        if len == 0 || !install() {
            return None;
        }
        let start = ptr as usize;
        for slot in TABLE.iter() {
            if slot
                .start
                .compare_exchange(0, usize::MAX, SeqCst, SeqCst)
                .is_ok()
            {
                // Claimed (start = MAX matches no address); fill it in, the
                // start last, before any byte of the window is read.
                slot.hit.store(false, SeqCst);
                slot.end.store(start + len, SeqCst);
                slot.start.store(start, SeqCst);
                return Some(Guard { slot });
            }
        }
        None
    }

    impl Guard {
        /// Whether part of the window was past the end of the file when read
        /// (it read as zeros).
        pub fn hit(&self) -> bool {
            self.slot.hit.load(SeqCst)
        }
    }

    impl Drop for Guard {
        fn drop(&mut self) {
            self.slot.start.store(usize::MAX, SeqCst);
            self.slot.end.store(0, SeqCst);
            self.slot.start.store(0, SeqCst);
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    /// Without the handler (not Linux), windows are not guarded: `register`
    /// says so and the caller reads the file instead of mapping it.
    pub struct Guard;

    pub fn register(_ptr: *const u8, _len: usize) -> Option<Guard> {
        None
    }

    impl Guard {
        pub fn hit(&self) -> bool {
            false
        }
    }
}

pub use imp::{register, Guard};

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::io::Write;

    /// Held by the tests that change the process's SIGBUS action or
    /// raise the signal: the action is shared by every test thread.
    static SIGBUS_TESTS: std::sync::Mutex<()> = std::sync::Mutex::new(());

    fn sigbus_tests() -> std::sync::MutexGuard<'static, ()> {
        SIGBUS_TESTS.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Truncate a mapped file between the map and the read: the read
    /// completes (zeros past the new end) and the guard reports it.
    #[test]
    fn truncation_between_map_and_read_is_reported_not_fatal() {
        let _one = sigbus_tests();
        truncate_mapped_file();
    }

    fn truncate_mapped_file() {
        let path = std::env::temp_dir().join(format!(
            "keccakx-mapguard-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let size = 4usize << 20;
        {
            let mut f = std::fs::File::create(&path).unwrap();
            f.write_all(&vec![0xA5u8; size]).unwrap();
        }
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .unwrap();
        // SAFETY: the test owns the file; the guard covers the truncation.
        let m = unsafe {
            memmap2::MmapOptions::new()
                .len(size)
                .populate()
                .map(&f)
                .unwrap()
        };
        let g = register(m.as_ptr(), m.len()).expect("guard");
        assert!(!g.hit());
        // Keep the first 1 MiB and 100 bytes: the page holding byte 1 MiB +
        // 100 stays (zero past the end), every later page faults.
        f.set_len((1 << 20) + 100).unwrap();
        let sum: u64 = m.iter().map(|&b| b as u64).sum();
        assert!(g.hit());
        assert_eq!(sum, 0xA5 * ((1 << 20) + 100));
        drop(g);
        // A second window, untouched: no hit.
        let m2 = unsafe { memmap2::MmapOptions::new().len(4096).map(&f).unwrap() };
        let g2 = register(m2.as_ptr(), m2.len()).unwrap();
        assert_eq!(m2[0], 0xA5);
        assert!(!g2.hit());
        drop(g2);
        drop(m);
        let _ = std::fs::remove_file(&path);
    }

    /// Another library's handler. Should it ever see a fault (ours not
    /// put back), it restores the default action, so the test process dies
    /// of the re-run fault instead of looping on it.
    extern "C" fn other_handler(sig: libc::c_int) {
        // SAFETY: sigaction is async-signal-safe; `dfl` is complete.
        unsafe {
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            libc::sigemptyset(&mut dfl.sa_mask);
            libc::sigaction(sig, &dfl, std::ptr::null_mut());
        }
    }

    /// Another handler installed after ours (as `faulthandler.enable()`
    /// in a Python program that mapped before) is replaced again at the
    /// next registration, so a truncation is still caught.
    #[test]
    fn handler_replaced_by_another_is_put_back() {
        let _one = sigbus_tests();
        let buf = [1u8; 64];
        drop(register(buf.as_ptr(), buf.len()).unwrap());
        // SAFETY: a complete action with a do-nothing handler.
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = other_handler as *const () as usize;
            libc::sigemptyset(&mut act.sa_mask);
            assert_eq!(libc::sigaction(libc::SIGBUS, &act, std::ptr::null_mut()), 0);
        }
        let g = register(buf.as_ptr(), buf.len()).unwrap();
        // SAFETY: reads the action only.
        let now = unsafe {
            let mut cur: libc::sigaction = std::mem::zeroed();
            libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut cur);
            cur.sa_sigaction
        };
        assert_ne!(now, other_handler as *const () as usize);
        drop(g);
        truncate_mapped_file();
    }

    #[test]
    fn slots_are_reused() {
        let buf = [1u8; 64];
        for _ in 0..10_000 {
            let g = register(buf.as_ptr(), buf.len()).unwrap();
            assert!(!g.hit());
        }
    }
}
