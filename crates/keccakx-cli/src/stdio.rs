//! Which standard descriptors were closed when the process started.
//!
//! Rust's runtime opens /dev/null on a closed fd 0, 1 or 2 before `main`
//! (so that a later `open` cannot land there by accident). That hides
//! `keccakx sum <&-` (coreutils: "-: Bad file descriptor", exit 1) and
//! `keccakx sum f >&-` ("write error: Bad file descriptor"): the empty
//! input would be hashed, the output silently dropped. A constructor in
//! `.init_array`, which the C runtime runs before Rust's `main`, records
//! the descriptors' state first.

use std::io;
use std::sync::atomic::{AtomicU8, Ordering};

/// Bit `fd` set: descriptor `fd` (0, 1, 2) was closed at start.
static CLOSED_AT_START: AtomicU8 = AtomicU8::new(0);

#[cfg(target_os = "linux")]
extern "C" fn record_closed_fds() {
    let mut closed = 0u8;
    for fd in 0..3 {
        // SAFETY: F_GETFD only reads the descriptor table; it fails (EBADF)
        // exactly when `fd` is not open.
        if unsafe { libc::fcntl(fd, libc::F_GETFD) } == -1 {
            closed |= 1 << fd;
        }
    }
    CLOSED_AT_START.store(closed, Ordering::Relaxed);
}

// Run by the C runtime before `main` (and so before Rust's runtime replaces
// closed descriptors), as the constructors of C programs are.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RECORD_CLOSED_FDS: extern "C" fn() = record_closed_fds;

/// Whether standard descriptor `fd` (0, 1 or 2) was closed at start.
pub fn closed_at_start(fd: u8) -> bool {
    fd < 3 && CLOSED_AT_START.load(Ordering::Relaxed) & (1 << fd) != 0
}

/// The error for a descriptor that was closed at start.
pub fn bad_fd() -> io::Error {
    #[cfg(unix)]
    {
        io::Error::from_raw_os_error(libc::EBADF)
    }
    #[cfg(not(unix))]
    {
        io::Error::other("Bad file descriptor")
    }
}

/// A standard descriptor read and written as it is. Rust's `Stdin` and
/// `Stdout` take EBADF for an empty input and a successful write (stdin
/// opened write-only, `0>file`: the empty input's digest; stdout opened
/// read-only, `1<file`: nothing printed, exit 0); coreutils reports both.
pub struct Raw(std::mem::ManuallyDrop<std::fs::File>);

/// Descriptor `fd` (0 or 1), never closed by the value.
#[cfg(unix)]
pub fn raw(fd: i32) -> Raw {
    use std::os::unix::io::FromRawFd;
    // SAFETY: 0 and 1 stay open for the life of the process (Rust's
    // runtime reopens a closed one on /dev/null); ManuallyDrop never
    // closes them.
    Raw(std::mem::ManuallyDrop::new(unsafe {
        std::fs::File::from_raw_fd(fd)
    }))
}

impl Raw {
    /// The descriptor as a file (its metadata, its offset).
    pub fn file(&self) -> &std::fs::File {
        &self.0
    }
}

impl io::Read for Raw {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        (&*self.0).read(buf)
    }
}

impl io::Write for Raw {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        (&*self.0).write(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Standard input, or EBADF when it was closed at start; read errors
/// (EBADF when opened write-only) are reported, not taken as its end.
pub fn stdin_checked() -> io::Result<Raw> {
    if closed_at_start(0) {
        return Err(bad_fd());
    }
    Ok(raw(0))
}
