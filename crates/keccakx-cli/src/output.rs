//! Standard output that ends quietly when the reader goes away (`| head`)
//! and turns other write errors into [`Error::Write`] (reported once, by
//! `main`); diagnostics that never panic.

use std::io::{self, IsTerminal, Write};

use crate::error::{Error, Outcome};

/// Why writing stopped.
pub enum Stop {
    /// The reader closed the pipe: end quietly.
    BrokenPipe,
    /// Another write error (disk full...): report it.
    Failed(io::Error),
}

/// Bytes buffered before a write to a file or terminal.
const FILE_BUF: usize = 64 << 10;
/// Writes to a pipe or FIFO of at most this many bytes are atomic (POSIX
/// PIPE_BUF; 4096 on Linux): lines from several processes sharing one
/// pipe never interleave, and a process killed between writes leaves only
/// whole lines.
const PIPE_BUF: usize = 4096;

pub struct Out {
    fd: crate::stdio::Raw,
    buf: Vec<u8>,
    /// Standard output is a pipe, FIFO or socket: write whole lines, at
    /// most [`PIPE_BUF`] bytes per write (a longer line alone).
    pipe: bool,
    /// Flush after every record (interactive use).
    line_flush: bool,
    /// Standard output was closed when the process started (Rust put
    /// /dev/null there): every write fails with EBADF, as it would in C.
    closed: bool,
}

impl Default for Out {
    fn default() -> Self {
        Self::new()
    }
}

/// Whether standard output is a pipe, FIFO or socket.
fn stdout_is_pipe() -> bool {
    #[cfg(unix)]
    {
        // SAFETY: fstat writes the struct given; fd 1 is always open.
        let mut st: libc::stat = unsafe { std::mem::zeroed() };
        if unsafe { libc::fstat(1, &mut st) } != 0 {
            return false;
        }
        let kind = st.st_mode & libc::S_IFMT;
        kind == libc::S_IFIFO || kind == libc::S_IFSOCK
    }
    #[cfg(not(unix))]
    false
}

impl Out {
    pub fn new() -> Out {
        let pipe = stdout_is_pipe();
        Out {
            fd: crate::stdio::raw(1),
            buf: Vec::with_capacity(if pipe { PIPE_BUF } else { FILE_BUF }),
            pipe,
            line_flush: io::stdout().is_terminal(),
            closed: crate::stdio::closed_at_start(1),
        }
    }

    fn map(e: io::Error) -> Stop {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Stop::BrokenPipe
        } else {
            Stop::Failed(e)
        }
    }

    /// Write what is buffered (whole records), in one write where the
    /// kernel takes it whole.
    fn flush_buf(&mut self) -> io::Result<()> {
        let r = self.fd.write_all(&self.buf);
        self.buf.clear();
        r
    }

    /// Add one unit (a line, or a record) to the buffer, writing first
    /// what would not fit in one write with it; a unit longer than a write
    /// goes alone.
    fn push(&mut self, unit: &[u8], cap: usize) -> io::Result<()> {
        if self.buf.len() + unit.len() > cap && !self.buf.is_empty() {
            self.flush_buf()?;
        }
        if unit.len() >= cap {
            return self.fd.write_all(unit);
        }
        self.buf.extend_from_slice(unit);
        Ok(())
    }

    fn write_record(&mut self, rec: &[u8]) -> io::Result<()> {
        if !self.pipe {
            return self.push(rec, FILE_BUF);
        }
        if rec.len() <= PIPE_BUF {
            return self.push(rec, PIPE_BUF);
        }
        // A long report (`--help`, `list`): line by line.
        for line in rec.split_inclusive(|&c| c == b'\n') {
            self.push(line, PIPE_BUF)?;
        }
        Ok(())
    }

    /// Write one record (a whole line).
    pub fn write(&mut self, rec: &[u8]) -> Result<(), Stop> {
        if self.closed {
            return Err(Stop::Failed(crate::stdio::bad_fd()));
        }
        crate::progress::around_output(|| {
            self.write_record(rec).map_err(Self::map)?;
            if self.line_flush {
                self.flush_buf().map_err(Self::map)?;
            }
            Ok(())
        })
    }

    pub fn flush(&mut self) -> Result<(), Stop> {
        if self.closed && !self.buf.is_empty() {
            return Err(Stop::Failed(crate::stdio::bad_fd()));
        }
        self.flush_buf().map_err(Self::map)
    }
}

impl Drop for Out {
    fn drop(&mut self) {
        if !self.closed {
            let _ = self.flush_buf();
        }
    }
}

/// Print `keccakx: MSG` on stderr; a closed stderr is ignored.
pub fn warn(msg: &str) {
    crate::progress::clear_line();
    let mut e = io::stderr().lock();
    let _ = writeln!(e, "keccakx: {msg}");
}

/// Print `text` as it is on stderr (clap's messages); a closed stderr is
/// ignored.
pub fn clear_and_print_err(text: &str) {
    crate::progress::clear_line();
    let mut e = io::stderr().lock();
    let _ = e.write_all(text.as_bytes());
    let _ = e.flush();
}

impl Stop {
    /// How a run that stopped writing ends: a reader that went away ends
    /// it quietly with the outcome it had (`so_far`); another write error
    /// is [`Error::Write`].
    pub fn into_result(self, so_far: Outcome) -> Result<Outcome, Error> {
        match self {
            Stop::BrokenPipe => Ok(so_far),
            Stop::Failed(e) => Err(Error::Write(e)),
        }
    }
}

/// Write `text` (a whole report: `list`, `info`, `bench`, `--help`) on
/// standard output and flush it.
pub fn print_all(text: &[u8]) -> Result<Outcome, Error> {
    let mut out = Out::new();
    match out.write(text).and_then(|()| out.flush()) {
        Ok(()) => Ok(Outcome::Success),
        Err(stop) => stop.into_result(Outcome::Success),
    }
}
