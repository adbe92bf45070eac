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

pub struct Out {
    w: io::BufWriter<io::Stdout>,
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

impl Out {
    pub fn new() -> Out {
        let stdout = io::stdout();
        let line_flush = stdout.is_terminal();
        Out {
            w: io::BufWriter::with_capacity(64 << 10, stdout),
            line_flush,
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

    /// Write one record (a whole line).
    pub fn write(&mut self, rec: &[u8]) -> Result<(), Stop> {
        if self.closed {
            return Err(Stop::Failed(crate::stdio::bad_fd()));
        }
        let (w, line_flush) = (&mut self.w, self.line_flush);
        crate::progress::around_output(|| {
            w.write_all(rec).map_err(Self::map)?;
            if line_flush {
                w.flush().map_err(Self::map)?;
            }
            Ok(())
        })
    }

    pub fn flush(&mut self) -> Result<(), Stop> {
        self.w.flush().map_err(Self::map)
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
