//! Running out of memory ends the run with a message and exit status 1,
//! not Rust's abort (SIGABRT, "memory allocation of N bytes failed"), which
//! a caller cannot tell from a crash. Large buffers are allocated fallibly
//! inside [`fallible`] (the caller then takes a smaller one, or fails that
//! input alone); any other allocation that fails ends the process here.
//! The binary installs [`ExitOnOom`] as its global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

thread_local! {
    /// Inside [`fallible`]: a failed allocation is returned as null.
    static FALLIBLE: Cell<bool> = const { Cell::new(false) };
}

/// The system allocator, but an allocation that fails outside
/// [`fallible`] prints `keccakx: out of memory` and exits with status 1.
pub struct ExitOnOom;

/// Run `f` with failed allocations returned to their caller (`try_reserve`
/// then says so) instead of ending the process.
pub fn fallible<R>(f: impl FnOnce() -> R) -> R {
    let old = FALLIBLE.with(|c| c.replace(true));
    let r = f();
    FALLIBLE.with(|c| c.set(old));
    r
}

fn failed(size: usize) {
    if FALLIBLE.try_with(Cell::get).unwrap_or(false) {
        return;
    }
    // No allocation from here on: the message is formatted on the stack.
    let mut msg = *b"keccakx: out of memory (allocating                      ";
    let mut end = 35;
    let mut digits = [0u8; 20];
    let (mut n, mut k) = (size, 0);
    loop {
        digits[k] = b'0' + (n % 10) as u8;
        k += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in digits[..k].iter().rev() {
        msg[end] = d;
        end += 1;
    }
    let tail = b" bytes)\n";
    let mut out = [0u8; 80];
    out[..end].copy_from_slice(&msg[..end]);
    out[end..end + tail.len()].copy_from_slice(tail);
    // SAFETY: write(2) and _exit(2) are async-signal-safe and allocate
    // nothing; the buffer is valid for its length.
    unsafe {
        libc::write(2, out.as_ptr().cast(), end + tail.len());
        libc::_exit(1);
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged; only
// a null result is acted on.
unsafe impl GlobalAlloc for ExitOnOom {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let p = System.alloc(l);
        if p.is_null() {
            failed(l.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(l);
        if p.is_null() {
            failed(l.size());
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, l: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, l, new_size);
        if p.is_null() {
            failed(new_size);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, l: Layout) {
        System.dealloc(ptr, l)
    }
}

/// Under a limit on the address space (`ulimit -v`), keep glibc's malloc
/// to one arena: each thread's first allocation otherwise reserves an
/// arena of 64 MiB of address space, which a tight limit cannot give, and
/// glibc aborts ("failed to register TLS destructor: out of memory") when
/// a thread then cannot allocate its thread-local bookkeeping. Without
/// such a limit, nothing changes.
pub fn fit_malloc_to_address_limit() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut r = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit writes the struct given; mallopt only sets a
        // malloc parameter, before any thread is started.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_AS, &mut r) == 0 && r.rlim_cur != libc::RLIM_INFINITY {
                libc::mallopt(libc::M_ARENA_MAX, 1);
            }
        }
    }
}
