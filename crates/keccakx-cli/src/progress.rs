//! Progress on standard error for long work, like rhash's `--percents`
//! and pv: bytes hashed, percent of the total when known, speed, time left.
//!
//! * `--progress`: always; on a terminal one line redrawn in place, into a
//!   file or pipe one line per second and a last line with the totals.
//! * default: only when stderr is a terminal and the work turns out to take
//!   a few seconds (nothing is drawn before the first second, and nothing
//!   when the estimate says the whole run is shorter than `AUTO_MIN`).
//! * `--no-progress`: never.
//!
//! Standard output never carries progress. On a terminal the progress line
//! is erased before a diagnostic, or an output line when stdout is the
//! terminal too, and redrawn at the next tick.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// When progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// On a terminal, for work of a few seconds or more.
    Auto,
    Always,
    Never,
}

/// Below this estimated run time, `Auto` shows nothing.
const AUTO_MIN: Duration = Duration::from_secs(3);
/// Nothing is drawn before this (a short run stays silent).
const AUTO_DELAY: Duration = Duration::from_secs(1);
const TICK_TTY: Duration = Duration::from_millis(200);
const TICK_PIPE: Duration = Duration::from_secs(1);

/// Bytes hashed so far (all files); counted whether or not progress is on
/// (one relaxed add per buffer or window).
static DONE_BYTES: AtomicU64 = AtomicU64::new(0);
/// Inputs finished so far.
static DONE_FILES: AtomicU64 = AtomicU64::new(0);
/// A progress line is on the terminal now (fast check before locking).
static SHOWN: AtomicBool = AtomicBool::new(false);
/// Held while drawing or erasing the line, and while an output line is
/// written to the same terminal.
static SCREEN: Mutex<()> = Mutex::new(());
/// Standard output is a terminal (then output lines erase the line first).
static STDOUT_TTY: OnceLock<bool> = OnceLock::new();

/// Count `n` more bytes hashed.
pub fn add_bytes(n: usize) {
    DONE_BYTES.fetch_add(n as u64, Ordering::Relaxed);
}

/// Count one more input finished (hashed or failed).
pub fn file_done() {
    DONE_FILES.fetch_add(1, Ordering::Relaxed);
}

fn erase(e: &mut impl Write) {
    let _ = e.write_all(b"\r\x1b[K");
    let _ = e.flush();
}

/// Erase the progress line before a diagnostic on stderr.
pub fn clear_line() {
    if SHOWN.load(Ordering::Relaxed) {
        let _g = SCREEN.lock().unwrap_or_else(|p| p.into_inner());
        if SHOWN.swap(false, Ordering::Relaxed) {
            erase(&mut io::stderr().lock());
        }
    }
}

/// Run `write` (an output line) with the progress line out of its way when
/// stdout shares the terminal.
pub fn around_output<T>(write: impl FnOnce() -> T) -> T {
    if !SHOWN.load(Ordering::Relaxed) || !*STDOUT_TTY.get_or_init(|| io::stdout().is_terminal()) {
        return write();
    }
    let _g = SCREEN.lock().unwrap_or_else(|p| p.into_inner());
    if SHOWN.swap(false, Ordering::Relaxed) {
        erase(&mut io::stderr().lock());
    }
    write()
}

/// What the reporter knows about the work.
struct Work {
    /// Total bytes when known (all inputs regular files, or sized).
    total: Option<u64>,
    /// Number of inputs, when known.
    files: Option<u64>,
}

/// The running reporter; [`Reporter::finish`] stops it.
pub struct Reporter {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// Start reporting for `mode`. `inputs`: the files of `sum` (sized in the
/// background), or None when they are not known up front (`--check`
/// streams its lists).
pub fn start(mode: Mode, inputs: Option<Vec<OsString>>) -> Option<Reporter> {
    let tty = io::stderr().is_terminal();
    let show = match mode {
        Mode::Never => false,
        Mode::Always => true,
        Mode::Auto => tty,
    };
    if !show || crate::stdio::closed_at_start(2) {
        return None;
    }
    let forced = mode == Mode::Always;
    // The counters as they stand now, before any input is hashed: read in
    // the thread, they could already include inputs hashed meanwhile.
    let base = (
        DONE_BYTES.load(Ordering::Relaxed),
        DONE_FILES.load(Ordering::Relaxed),
    );
    let stop = Arc::new((Mutex::new(false), Condvar::new()));
    let stop2 = Arc::clone(&stop);
    let thread = std::thread::Builder::new()
        .name("keccakx-progress".into())
        .spawn(move || report(stop2, base, inputs, tty, forced))
        .ok()?;
    Some(Reporter {
        stop,
        thread: Some(thread),
    })
}

impl Reporter {
    /// Stop: erase the line on a terminal; a last line into a file or pipe.
    pub fn finish(mut self) {
        self.stop_now();
    }

    fn stop_now(&mut self) {
        {
            let (m, c) = &*self.stop;
            *m.lock().unwrap_or_else(|p| p.into_inner()) = true;
            c.notify_all();
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Reporter {
    fn drop(&mut self) {
        self.stop_now();
    }
}

/// The size of each input (regular files and a sized stdin), summed; None
/// if any input has no known size.
fn measure(inputs: &[OsString]) -> Work {
    let mut total = Some(0u64);
    for p in inputs {
        let len = if p == "-" {
            stdin_len()
        } else {
            std::fs::metadata(p)
                .ok()
                .filter(|m| m.is_file() && m.len() > 0)
                .map(|m| m.len())
        };
        total = match (total, len) {
            (Some(t), Some(l)) => Some(t + l),
            // A missing file counts as 0 (it will fail at once).
            (Some(t), None) if p != "-" && std::fs::metadata(p).is_err() => Some(t),
            _ => None,
        };
    }
    Work {
        total,
        files: Some(inputs.len() as u64),
    }
}

#[cfg(unix)]
fn stdin_len() -> Option<u64> {
    use std::os::fd::AsRawFd;
    if crate::stdio::closed_at_start(0) {
        return None;
    }
    // SAFETY: fstat writes only the struct we pass.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::fstat(io::stdin().as_raw_fd(), &mut st) };
    (rc == 0 && (st.st_mode & libc::S_IFMT) == libc::S_IFREG && st.st_size > 0)
        .then_some(st.st_size as u64)
}

#[cfg(not(unix))]
fn stdin_len() -> Option<u64> {
    None
}

/// Columns of the terminal on stderr (80 if unknown).
fn width() -> usize {
    #[cfg(unix)]
    {
        // SAFETY: TIOCGWINSZ writes only the winsize struct we pass.
        let mut ws: libc::winsize = unsafe { std::mem::zeroed() };
        if unsafe { libc::ioctl(2, libc::TIOCGWINSZ, &mut ws) } == 0 && ws.ws_col > 0 {
            return ws.ws_col as usize;
        }
    }
    80
}

/// `1.23 GiB`, `456 MiB`, `12 KiB`, `100 B`.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} B")
    } else if v < 10.0 {
        format!("{v:.2} {}", UNITS[u])
    } else if v < 100.0 {
        format!("{v:.1} {}", UNITS[u])
    } else {
        format!("{v:.0} {}", UNITS[u])
    }
}

fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// One progress line (without line end).
fn line(work: &Work, done: u64, files: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let rate = done as f64 / secs;
    let mut s = String::from("keccakx: ");
    match work.total {
        Some(t) if t > 0 => {
            let pct = (done as f64 * 100.0 / t as f64).min(100.0);
            s += &format!("{pct:3.0}% {} / {}", human_bytes(done), human_bytes(t));
        }
        _ => s += &human_bytes(done),
    }
    s += &format!(", {}/s", human_bytes(rate as u64));
    if let Some(t) = work.total.filter(|t| *t >= done && rate > 0.0) {
        s += &format!(
            ", {} left",
            clock(Duration::from_secs_f64((t - done) as f64 / rate))
        );
    }
    match work.files {
        Some(n) if n > 1 => s += &format!(", {files}/{n} files"),
        None if files > 0 => s += &format!(", {files} files"),
        _ => {}
    }
    s
}

fn report(
    stop: Arc<(Mutex<bool>, Condvar)>,
    (base_bytes, base_files): (u64, u64),
    inputs: Option<Vec<OsString>>,
    tty: bool,
    forced: bool,
) {
    let t0 = Instant::now();
    let work = match &inputs {
        Some(v) => measure(v),
        None => Work {
            total: None,
            files: None,
        },
    };
    let tick = if tty { TICK_TTY } else { TICK_PIPE };
    let (m, c) = &*stop;
    let mut stopped = m.lock().unwrap_or_else(|p| p.into_inner());
    loop {
        let (g, _) = c
            .wait_timeout(stopped, tick)
            .unwrap_or_else(|p| p.into_inner());
        stopped = g;
        let done = DONE_BYTES.load(Ordering::Relaxed) - base_bytes;
        let files = DONE_FILES.load(Ordering::Relaxed) - base_files;
        let elapsed = t0.elapsed();
        if *stopped {
            if tty {
                clear_line();
            } else {
                // Into a file or pipe (only with --progress): a last line
                // with the totals, however short the run.
                let mut e = io::stderr().lock();
                let _ = writeln!(
                    e,
                    "{} (done in {})",
                    line(&work, done, files, elapsed),
                    clock(elapsed)
                );
            }
            return;
        }
        if !forced {
            if elapsed < AUTO_DELAY {
                continue;
            }
            // Show only work estimated to last AUTO_MIN or longer.
            let long = match work.total {
                Some(t) if done > 0 => {
                    elapsed.as_secs_f64() * t as f64 / done as f64 >= AUTO_MIN.as_secs_f64()
                }
                _ => elapsed >= AUTO_MIN,
            };
            if !long && !SHOWN.load(Ordering::Relaxed) {
                continue;
            }
        }
        let text = line(&work, done, files, elapsed);
        let _g = SCREEN.lock().unwrap_or_else(|p| p.into_inner());
        let mut e = io::stderr().lock();
        if tty {
            let w = width().saturating_sub(1).max(20);
            let shown: String = text.chars().take(w).collect();
            let _ = write!(e, "\r{shown}\x1b[K");
            let _ = e.flush();
            SHOWN.store(true, Ordering::Relaxed);
        } else {
            let _ = writeln!(e, "{text}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_and_units() {
        assert_eq!(human_bytes(100), "100 B");
        assert_eq!(human_bytes(1536), "1.50 KiB");
        assert_eq!(human_bytes(200 << 20), "200 MiB");
        assert_eq!(human_bytes(3 << 30), "3.00 GiB");
        let w = Work {
            total: Some(4 << 30),
            files: Some(3),
        };
        let l = line(&w, 1 << 30, 1, Duration::from_secs(2));
        assert_eq!(
            l,
            "keccakx:  25% 1.00 GiB / 4.00 GiB, 512 MiB/s, 0:06 left, 1/3 files"
        );
        let w = Work {
            total: None,
            files: None,
        };
        assert_eq!(
            line(&w, 10 << 20, 7, Duration::from_secs(1)),
            "keccakx: 10.0 MiB, 10.0 MiB/s, 7 files"
        );
        assert_eq!(clock(Duration::from_secs(3725)), "1:02:05");
    }
}
