//! Chaining values of a byte range of an open file, read by the native
//! library: what a cluster task computes for its part of a local (or
//! shared-file-system) object. The range is mapped one window at a time
//! with its pages faulted in by the `mmap` call (MAP_POPULATE) and hashed
//! in place, as `keccakx sum` reads files: cheaper than copying the page
//! cache into a Python buffer (bench/NOTES.md, "Dask cluster"). Each
//! window is guarded against SIGBUS (crates/keccakx-mapped), so a file
//! truncated meanwhile is an OSError, not a killed worker; a window that
//! cannot be mapped is read with `pread` instead.

use std::fs::File;
use std::io;
use std::os::fd::FromRawFd;
use std::os::unix::fs::FileExt;

use keccakx::hazmat::{kt_leaf_chaining_values, parallelhash_block_chaining_values, KT_CHUNK_LEN};
use keccakx_mapped::Window;
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::hazmat::{cv_len_of, tree_variant, value_error};

/// Bytes mapped (and hashed with the GIL released) at a time: as many
/// whole units as fit, enough to give every core work, few enough that
/// Ctrl-C is seen soon.
const WINDOW: u64 = 16 << 20;

/// A descriptor of our own for `fd` (the caller keeps and closes its own).
fn dup(fd: i32) -> io::Result<File> {
    // SAFETY: fcntl accepts any integer: one that is not an open
    // descriptor gives EBADF.
    let d = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    if d < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `d` is a new descriptor that nothing else owns.
    Ok(unsafe { File::from_raw_fd(d) })
}

/// The file is shorter than the range it had when the range was planned.
fn shrank() -> PyErr {
    PyOSError::new_err((libc::EIO, "file changed size while being read"))
}

/// `e` as Python's own OSError for its errno (`FileNotFoundError`,
/// `e.errno`, `e.strerror` as `os.strerror` words it).
fn os_error(e: io::Error) -> PyErr {
    match e.raw_os_error() {
        Some(code) => {
            let text = e.to_string();
            let words = text.split(" (os error").next().unwrap_or(&text).to_owned();
            PyOSError::new_err((code, words))
        }
        None => e.into(),
    }
}

/// What went wrong inside a window, kept until the GIL is back.
enum Fault {
    Io(io::Error),
    Shrank,
    Hash(keccakx::Error),
}

/// `file[off..off + len)` as `hash` sees it: mapped, or read into `buf`.
fn with_window(
    file: &File,
    off: u64,
    len: usize,
    buf: &mut Vec<u8>,
    hash: impl FnOnce(&[u8]) -> keccakx::Result<()>,
) -> Result<(), Fault> {
    if let Ok(Some(w)) = Window::map(file, off, len, true) {
        hash(w.bytes()).map_err(Fault::Hash)?;
        return if w.shrank() {
            Err(Fault::Shrank)
        } else {
            Ok(())
        };
    }
    if buf.len() < len {
        buf.clear();
        buf.try_reserve_exact(len)
            .map_err(|_| Fault::Io(io::Error::from(io::ErrorKind::OutOfMemory)))?;
        buf.resize(len, 0);
    }
    let mut got = 0;
    while got < len {
        match file.read_at(&mut buf[got..len], off + got as u64) {
            Ok(0) => return Err(Fault::Shrank),
            Ok(k) => got += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Fault::Io(e)),
        }
    }
    hash(&buf[..len]).map_err(Fault::Hash)
}

/// A new `bytes` of the chaining values of `file[start..end)`: `units`
/// units of `unit` bytes with one `cv_len`-byte value each:
/// `cvs(k, part, out)` computes the values of `part`, whose first unit is
/// unit `k` of the range. `context` words a hashing error's arguments.
#[allow(clippy::too_many_arguments)]
fn file_cvs<'py>(
    py: Python<'py>,
    what: &str,
    fd: i32,
    start: u64,
    end: u64,
    unit: usize,
    units: u64,
    cv_len: usize,
    context: impl Fn() -> String,
    cvs: impl Fn(u64, &[u8], &mut [u8]) -> keccakx::Result<()> + Sync,
) -> PyResult<Bound<'py, PyBytes>> {
    if end < start {
        return Err(PyValueError::new_err(format!(
            "{what}: end ({end}) is before start ({start})"
        )));
    }
    let n = usize::try_from(units)
        .ok()
        .and_then(|u| u.checked_mul(cv_len))
        .ok_or_else(|| PyValueError::new_err(format!("{what}: the range is too large")))?;
    let file = dup(fd).map_err(os_error)?;
    let size = file.metadata().map_err(os_error)?.len();
    if size < end {
        return Err(shrank());
    }
    let step = (WINDOW / unit as u64).max(1) * unit as u64;
    let mut buf = Vec::new();
    let mut fault = None;
    let out = PyBytes::new_with(py, n, |out| {
        let mut off = start;
        let mut k = 0usize;
        while off < end && fault.is_none() {
            let len = (end - off).min(step) as usize;
            let units = len.div_ceil(unit).min(n / cv_len - k);
            let dst = &mut out[k * cv_len..(k + units) * cv_len];
            let r = py.detach(|| {
                with_window(&file, off, len, &mut buf, |bytes| cvs(k as u64, bytes, dst))
            });
            if let Err(f) = r {
                fault = Some(f);
                break;
            }
            k += units;
            off += len as u64;
            py.check_signals()?;
        }
        Ok(())
    })?;
    match fault {
        Some(Fault::Hash(e)) => Err(value_error(what, e, context())),
        Some(Fault::Io(e)) => Err(os_error(e)),
        Some(Fault::Shrank) => Err(shrank()),
        // A truncation inside the last window's last page faults nowhere
        // (the page's tail reads as zeros): the size tells.
        None if file.metadata().map_err(os_error)?.len() < end => Err(shrank()),
        None => Ok(out),
    }
}

/// `kt_chaining_values_file(fd, start, end, algorithm="kt128")`.
#[pyfunction]
#[pyo3(signature = (fd, start, end, algorithm="kt128"))]
pub fn _kt_chaining_values_file<'py>(
    py: Python<'py>,
    fd: i32,
    start: u64,
    end: u64,
    algorithm: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let (rate, _) = tree_variant(algorithm, "kt")?;
    let cv_len = cv_len_of(rate);
    let chunk_index = start / KT_CHUNK_LEN as u64;
    if !start.is_multiple_of(KT_CHUNK_LEN as u64) {
        return Err(PyValueError::new_err(format!(
            "kt_chaining_values_file: start ({start}) is not on a chunk boundary (a multiple of {KT_CHUNK_LEN})"
        )));
    }
    file_cvs(
        py,
        "kt_chaining_values_file",
        fd,
        start,
        end,
        KT_CHUNK_LEN,
        end.saturating_sub(start) / KT_CHUNK_LEN as u64,
        cv_len,
        || format!("bytes {start}..{end} = chunks from {chunk_index}"),
        |k, data, out| {
            let index = chunk_index.saturating_add(k);
            keccakx::with_rate!(rate, R => kt_leaf_chaining_values::<R>(index, data, out))
        },
    )
}

/// `parallelhash_chaining_values_file(fd, start, end, message_len, block_size=8192, algorithm)`.
#[pyfunction]
#[pyo3(signature = (fd, start, end, message_len, block_size=8192, algorithm="parallelhash128"))]
pub fn _parallelhash_chaining_values_file<'py>(
    py: Python<'py>,
    fd: i32,
    start: u64,
    end: u64,
    message_len: u64,
    block_size: usize,
    algorithm: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let (rate, _) = tree_variant(algorithm, "ph")?;
    let cv_len = cv_len_of(rate);
    let b = block_size.max(1) as u64;
    if !start.is_multiple_of(b) {
        return Err(PyValueError::new_err(format!(
            "parallelhash_chaining_values_file: start ({start}) is not on a block boundary (a multiple of block_size={block_size})"
        )));
    }
    let block_index = start / b;
    file_cvs(
        py,
        "parallelhash_chaining_values_file",
        fd,
        start,
        end,
        block_size.max(1),
        end.saturating_sub(start).div_ceil(b),
        cv_len,
        || format!("block_size={block_size}: bytes {start}..{end} of a {message_len}-byte message"),
        |k, data, out| {
            let index = block_index.saturating_add(k);
            keccakx::with_rate!(rate, R => parallelhash_block_chaining_values::<R>(block_size, index, message_len, data, out))
        },
    )
}

/// Register the functions above on the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_kt_chaining_values_file, m)?)?;
    m.add_function(wrap_pyfunction!(_parallelhash_chaining_values_file, m)?)?;
    Ok(())
}
