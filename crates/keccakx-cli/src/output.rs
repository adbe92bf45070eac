//! Standard output that ends quietly when the reader goes away (`| head`)
//! and reports other write errors once; diagnostics that never panic.

use std::io::{self, IsTerminal, Write};

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
}

impl Out {
    pub fn new() -> Out {
        let stdout = io::stdout();
        let line_flush = stdout.is_terminal();
        Out {
            w: io::BufWriter::with_capacity(64 << 10, stdout),
            line_flush,
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
        self.w.write_all(rec).map_err(Self::map)?;
        if self.line_flush {
            self.w.flush().map_err(Self::map)?;
        }
        Ok(())
    }

    pub fn flush(&mut self) -> Result<(), Stop> {
        self.w.flush().map_err(Self::map)
    }
}

/// Print `keccakx: MSG` on stderr; a closed stderr is ignored.
pub fn warn(msg: &str) {
    let mut e = io::stderr().lock();
    let _ = writeln!(e, "keccakx: {msg}");
}

/// Turn a [`Stop`] into the exit status: a broken pipe keeps `status`,
/// another error is reported and gives 1.
pub fn stop_status(stop: Stop, status: i32) -> i32 {
    match stop {
        Stop::BrokenPipe => status,
        Stop::Failed(e) => {
            warn(&format!("write error: {}", crate::input::cause(&e)));
            1
        }
    }
}
