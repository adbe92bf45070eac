//! Outboards from Python (`keccakx.outboard`): build one while hashing
//! bytes or a file, check one against a trusted digest, and find the
//! damaged chunks of data (all, or a byte range) — the Rust library's
//! `keccakx::outboard` (format and rules in docs/outboard.md). Data and
//! outboards are bytes-like objects or paths; files are read by range
//! (only the chunks asked for). The GIL is released while hashing.

use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::PathBuf;

use keccakx::outboard::source::{CheckError, OutboardReader, ReadAt};
use keccakx::outboard::{Algorithm, Builder, Header, OutboardError};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::Input;

pyo3::create_exception!(
    _keccakx,
    OutboardMismatch,
    PyValueError,
    "An outboard that cannot be used: not an outboard, another version, a damaged header, incomplete, extra bytes, or not matching the digest."
);

fn ob_err(e: OutboardError) -> PyErr {
    OutboardMismatch::new_err(format!("outboard: {e}"))
}

fn check_err(e: CheckError) -> PyErr {
    match e {
        CheckError::Outboard(e) => ob_err(e),
        CheckError::ReadOutboard(e) => PyOSError::new_err(format!("reading the outboard: {e}")),
        CheckError::ReadMessage(e) => PyOSError::new_err(format!("reading the data: {e}")),
    }
}

fn io_err(what: &str) -> impl Fn(io::Error) -> PyErr + '_ {
    move |e| PyOSError::new_err(format!("{what}: {e}"))
}

/// The header of a new outboard: algorithm name, message length, block
/// size (ParallelHash), customization.
fn header(algorithm: &str, len: u64, block: Option<usize>, custom: &[u8]) -> PyResult<Header> {
    let alg = Algorithm::from_name(algorithm).ok_or_else(|| {
        PyValueError::new_err(format!(
            "outboard: {algorithm} has none (KT128, KT256 and ParallelHash* have one)"
        ))
    })?;
    if alg.is_kt() && block.is_some() {
        return Err(PyValueError::new_err(
            "outboard: block_size is ParallelHash's, not KT's",
        ));
    }
    Header::new(alg, len, block, custom).map_err(ob_err)
}

fn out_len(h: &Header, length: Option<usize>) -> PyResult<usize> {
    let d = keccakx::registry::find(h.algorithm.name()).map_or(32, |i| i.default_len);
    match length {
        Some(0) => Err(PyValueError::new_err("outboard: length must be at least 1")),
        Some(n) => Ok(n),
        None => Ok(d),
    }
}

/// _outboard_build(data, algorithm, custom, block_size, length) -> (digest, outboard)
#[pyfunction]
#[pyo3(signature = (data, algorithm, custom, block_size=None, length=None))]
pub fn _outboard_build<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    algorithm: &str,
    custom: &[u8],
    block_size: Option<usize>,
    length: Option<usize>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let input = Input::new(data, "outboard data")?;
    let m = input.as_slice();
    let h = header(algorithm, m.len() as u64, block_size, custom)?;
    let n = out_len(&h, length)?;
    let (ob, digest) = py
        .detach(|| keccakx::outboard::Outboard::build(h, m, n))
        .map_err(ob_err)?;
    Ok((PyBytes::new(py, &digest), PyBytes::new(py, ob.as_bytes())))
}

/// _outboard_write_file(path, outboard_path, algorithm, custom, block_size, length) -> digest
#[pyfunction]
#[pyo3(signature = (path, outboard_path, algorithm, custom, block_size=None, length=None))]
pub fn _outboard_write_file<'py>(
    py: Python<'py>,
    path: PathBuf,
    outboard_path: PathBuf,
    algorithm: &str,
    custom: &[u8],
    block_size: Option<usize>,
    length: Option<usize>,
) -> PyResult<Bound<'py, PyBytes>> {
    let mut src = File::open(&path).map_err(io_err("opening the data"))?;
    let meta = src.metadata().map_err(io_err("reading the data"))?;
    let len = meta.len();
    let mut h = header(algorithm, len, block_size, custom)?;
    // As `keccakx sum --outboard` writes it (a note for its --resume).
    h.source_mtime_ns = keccakx::outboard::source::source_mtime_ns(&meta);
    let n = out_len(&h, length)?;
    let digest = py.detach(|| -> PyResult<Vec<u8>> {
        let rerr = io_err("reading the data");
        let werr = io_err("writing the outboard");
        let of = File::create(&outboard_path).map_err(&werr)?;
        let mut w = BufWriter::with_capacity(1 << 20, of);
        w.write_all(&h.encode()).map_err(&werr)?;
        let mut b = Builder::new(h).map_err(ob_err)?;
        let mut buf = vec![0u8; 16 << 20];
        let mut wres = Ok(());
        loop {
            let k = src.read(&mut buf).map_err(&rerr)?;
            if k == 0 {
                break;
            }
            b.update(&buf[..k], &mut |x| {
                if wres.is_ok() {
                    wres = w.write_all(x);
                }
            })
            .map_err(ob_err)?;
        }
        let mut d = vec![0u8; n];
        b.finish(
            &mut |x| {
                if wres.is_ok() {
                    wres = w.write_all(x);
                }
            },
            &mut d,
        )
        .map_err(ob_err)?;
        wres.map_err(&werr)?;
        w.flush().map_err(&werr)?;
        w.get_ref().sync_data().map_err(&werr)?;
        Ok(d)
    })?;
    Ok(PyBytes::new(py, &digest))
}

/// Bytes or a file, read by range.
enum Src {
    Bytes(Vec<u8>),
    File(File),
}

impl ReadAt for Src {
    fn read_at(&mut self, off: u64, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Src::Bytes(b) => (&b[..]).read_at(off, buf),
            Src::File(f) => f.read_at(off, buf),
        }
    }
    fn size(&mut self) -> io::Result<u64> {
        match self {
            Src::Bytes(b) => Ok(b.len() as u64),
            Src::File(f) => ReadAt::size(f),
        }
    }
}

fn src(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<Src> {
    if let Ok(p) = obj.extract::<PathBuf>() {
        if !obj.is_instance_of::<PyBytes>() {
            return File::open(&p)
                .map(Src::File)
                .map_err(|e| PyOSError::new_err(format!("{what} {}: {e}", p.display())));
        }
    }
    Ok(Src::Bytes(Input::new(obj, what)?.as_slice().to_vec()))
}

/// _outboard_info(outboard) -> dict of the header's fields
#[pyfunction]
pub fn _outboard_info<'py>(
    py: Python<'py>,
    outboard: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let r = OutboardReader::open(src(outboard, "outboard")?).map_err(check_err)?;
    let h = &r.header;
    let d = pyo3::types::PyDict::new(py);
    d.set_item("algorithm", h.algorithm.name())?;
    d.set_item("message_len", h.message_len)?;
    d.set_item("chunk_len", h.chunk_len)?;
    d.set_item("cv_len", h.cv_len())?;
    d.set_item("chunks", h.chunk_count())?;
    d.set_item("customization", PyBytes::new(py, &h.customization))?;
    d.set_item("outboard_len", r.layout.total_len())?;
    Ok(d)
}

/// _outboard_verify(outboard, digest, data=None, start=None, end=None)
/// -> list of damaged (start, end) byte ranges; the outboard checked
/// against the digest first (OutboardMismatch), then, with data, the
/// chunks holding [start, end) (all by default).
#[pyfunction]
#[pyo3(signature = (outboard, digest, data=None, start=None, end=None))]
pub fn _outboard_verify(
    py: Python<'_>,
    outboard: &Bound<'_, PyAny>,
    digest: &[u8],
    data: Option<&Bound<'_, PyAny>>,
    start: Option<u64>,
    end: Option<u64>,
) -> PyResult<Vec<(u64, u64)>> {
    if digest.is_empty() {
        return Err(PyValueError::new_err("outboard: the digest is empty"));
    }
    let mut r = OutboardReader::open(src(outboard, "outboard")?).map_err(check_err)?;
    let mut data = data.map(|d| src(d, "data")).transpose()?;
    py.detach(|| -> PyResult<Vec<(u64, u64)>> {
        r.check_digest(digest).map_err(check_err)?;
        let Some(data) = data.as_mut() else {
            return Ok(Vec::new());
        };
        let len = r.header.message_len;
        let whole = start.is_none() && end.is_none();
        let range = start.unwrap_or(0)..end.unwrap_or(len);
        let chunks = r.chunks_of(range).map_err(ob_err)?;
        let bad = r.damaged_chunks(data, chunks).map_err(check_err)?;
        let mut out: Vec<(u64, u64)> = bad
            .into_iter()
            .map(|i| {
                let c = r.header.chunk_range(i);
                (c.start, c.end)
            })
            .collect();
        let have = data.size().map_err(io_err("reading the data"))?;
        if whole && have > len {
            out.push((len, have));
        }
        Ok(out)
    })
}
