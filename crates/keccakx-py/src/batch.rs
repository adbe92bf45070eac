//! Batch hashing: N independent messages with the same function and
//! parameters, one output row each, with the GIL released and the messages
//! spread over the cores.
//!
//! Every function (tree LI included) goes through `keccakx::batch::hash_many_into`
//! (multi-lane SIMD engines for the plain sponges, then cores; message by
//! message on threads for the rest). For TupleHash each message is a
//! one-element tuple.
//!
//! Sizes come from Python and may be anything (a 2**33-row array of empty
//! rows, a `__len__` that returns 2**40): nothing is allocated from them
//! before it is checked, and every allocation that depends on them is
//! fallible (MemoryError), so no call aborts the interpreter or panics.
//! The work runs in pieces of bounded size (a message longer than a piece
//! is streamed in pieces of its own); between pieces the optional progress
//! callback runs and Ctrl-C is seen.
//!
//! Messages from a list or tuple are read in place; from any other
//! iterable (a generator that refills one buffer) each item that is not
//! `bytes` is copied as it is yielded.

use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString, PyTuple};

use crate::alg::{build, int_param, registry_params, Alg, Req, MAX_LEN};
use crate::buffer::{has_buffer, type_name, Input, Rows};
use crate::gil::PIECE_BYTES;

/// A piece of the batch ends after `PIECE_BYTES` input bytes or this many
/// messages (bounds the per-piece slice table).
const PIECE_MESSAGES: usize = 1 << 16;
/// At most this many entries are reserved from a `__len__` up front; a
/// longer iterable grows the table as items arrive.
const LEN_HINT_MAX: usize = 1 << 12;

/// A validated batch job: the function, its parameters, the output length.
pub(crate) struct Job {
    pub alg: Alg,
    pub req: Req,
    pub out_len: usize,
}

/// Prepare the hasher and output length for a batch call.
pub(crate) fn prepare(
    name: &str,
    digest_size: Option<&Bound<'_, PyAny>>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Job> {
    let alg = Alg::find(name)?;
    let mut req = Req::from_kwargs(params, "hash_many")?;
    req.digest_size = int_param(digest_size, "digest_size", MAX_LEN)?.map(|x| x as usize);
    // Validates every parameter with the same messages as new().
    let (meta, _) = build(alg, &req, false)?;
    let out_len = if meta.xof {
        req.digest_size.unwrap_or(alg.default_len())
    } else {
        meta.digest_size
    };
    Ok(Job { alg, req, out_len })
}

fn too_large() -> PyErr {
    PyMemoryError::new_err("hash_many: output too large for this machine's memory")
}

/// An empty vector with room for `n` items, or MemoryError.
fn try_vec<T>(n: usize) -> PyResult<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n).map_err(|_| too_large())?;
    Ok(v)
}

/// `n * out_len` output bytes, or MemoryError when that cannot exist.
fn output_len(n: usize, out_len: usize) -> PyResult<usize> {
    n.checked_mul(out_len)
        .filter(|t| *t <= isize::MAX as usize)
        .ok_or_else(too_large)
}

/// The digests of a batch: `n` messages, `out_len` bytes each.
struct Shape {
    n: usize,
    out_len: usize,
    /// Input bytes in all, for the progress figures.
    total: u64,
}

/// Run the batch into a new bytearray, or into a list of `bytes` (one per
/// message) with `as_list`. `fill(out)` writes all the digests.
fn collect<'py>(
    py: Python<'py>,
    shape: &Shape,
    as_list: bool,
    fill: impl FnOnce(&mut [u8]) -> PyResult<()>,
) -> PyResult<Bound<'py, PyAny>> {
    let len = output_len(shape.n, shape.out_len)?;
    // Reserved (not touched) and freed first: CPython 3.11's bytearray
    // constructor, when its allocation fails, frees a half-built object and
    // prints "SystemError: deallocated bytearray object has exported
    // buffers". Sizes that cannot be had stop here with MemoryError.
    drop(try_vec::<u8>(len)?);
    let out = PyByteArray::new_with(py, len, fill)?;
    if !as_list {
        return Ok(out.into_any());
    }
    let list = PyList::empty(py);
    // SAFETY: the bytearray is ours alone (not yet returned) and nothing
    // resizes it while this slice lives; only `bytes` objects are created.
    let digests = unsafe { out.as_bytes() };
    for i in 0..shape.n {
        let d = &digests[i * shape.out_len..(i + 1) * shape.out_len];
        list.append(PyBytes::new_with(py, d.len(), |b| {
            b.copy_from_slice(d);
            Ok(())
        })?)?;
    }
    Ok(list.into_any())
}

/// Hash `shape.n` messages, produced piece by piece by `piece(start, end,
/// table)`, into `out`. `size(i)` is message i's length (bytes), for the
/// pieces' bounds and the progress figures. A message longer than a piece
/// is hashed alone, streamed in pieces of its own, so that the progress
/// callback and Ctrl-C are seen within it too.
#[allow(clippy::too_many_arguments)]
fn run_pieces<'m>(
    py: Python<'_>,
    job: &Job,
    shape: &Shape,
    size: &dyn Fn(usize) -> usize,
    mut piece: impl FnMut(usize, usize, &mut Vec<&'m [u8]>),
    out: &mut [u8],
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let out_len = job.out_len;
    let (count, total) = (shape.n, shape.total);
    if count == 0 || out_len == 0 {
        // Nothing to compute (the parameters were validated by prepare()).
        if let Some(cb) = progress {
            cb.call1((total, total))?;
        }
        return Ok(());
    }
    let name = job.alg.info().name;
    let params = registry_params(job.alg, &job.req, out_len);
    let mut done = 0u64;
    let mut slices: Vec<&'m [u8]> = try_vec(count.min(PIECE_MESSAGES))?;
    let mut start = 0;
    while start < count {
        let dst_of = |a: usize, b: usize| a * out_len..b * out_len;
        if size(start) > PIECE_BYTES {
            slices.clear();
            piece(start, start + 1, &mut slices);
            let dst = &mut out[dst_of(start, start + 1)];
            stream_one(
                py, name, &params, slices[0], dst, &mut done, total, progress,
            )?;
            start += 1;
            continue;
        }
        // At least one message, at most PIECE_MESSAGES and about
        // PIECE_BYTES, and no message longer than a piece.
        let mut end = start;
        let mut bytes = 0usize;
        while end < count
            && end - start < PIECE_MESSAGES
            && (end == start || (bytes < PIECE_BYTES && size(end) <= PIECE_BYTES))
        {
            bytes = bytes.saturating_add(size(end));
            end += 1;
        }
        slices.clear();
        piece(start, end, &mut slices);
        let dst = &mut out[dst_of(start, end)];
        let r = py.detach(|| keccakx::batch::hash_many_into(name, &params, &slices, out_len, dst));
        r.map_err(|e| PyValueError::new_err(e.to_string()))?;
        done += bytes as u64;
        if let Some(cb) = progress {
            cb.call1((done, total))?;
        }
        py.check_signals()?;
        start = end;
    }
    Ok(())
}

/// One message longer than a piece, absorbed a piece at a time (the GIL
/// released for each), the progress callback and Ctrl-C between pieces.
#[allow(clippy::too_many_arguments)]
fn stream_one(
    py: Python<'_>,
    name: &str,
    params: &keccakx::registry::Params,
    msg: &[u8],
    dst: &mut [u8],
    done: &mut u64,
    total: u64,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let value_error = |e: keccakx::Error| PyValueError::new_err(e.to_string());
    // The whole message is one TupleHash element (its length announced).
    let mut h = keccakx::registry::Hasher::new(name, params)
        .map_err(value_error)?
        .with_input_length(msg.len() as u64);
    for part in msg.chunks(PIECE_BYTES) {
        py.detach(|| h.update(part));
        *done += part.len() as u64;
        if let Some(cb) = progress {
            cb.call1((*done, total))?;
        }
        py.check_signals()?;
    }
    let mut reader = h.try_finalize_reader().map_err(value_error)?;
    py.detach(|| reader.read(dst));
    Ok(())
}

fn check_progress<'py>(
    progress: Option<&Bound<'py, PyAny>>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    match progress {
        Some(p) if p.is_none() => Ok(None),
        Some(p) if !p.is_callable() => Err(PyTypeError::new_err(
            "hash_many: progress must be a callable progress(done_bytes, total_bytes) or None",
        )),
        p => Ok(p.cloned()),
    }
}

/// `_hash_many_list(messages, name, digest_size=None, progress=None,
/// as_list=False, **params)`: messages is an iterable of bytes-like
/// objects. Returns (bytearray or list of bytes, n, out_len).
#[pyfunction]
#[pyo3(signature = (messages, name, digest_size=None, progress=None, as_list=false, **params))]
pub fn _hash_many_list<'py>(
    py: Python<'py>,
    messages: &Bound<'py, PyAny>,
    name: &str,
    digest_size: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
    as_list: bool,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyAny>, usize, usize)> {
    if messages.is_instance_of::<PyString>() || has_buffer(messages) {
        // bytes, bytearray, memoryview, mmap, array.array, ...: one rule
        // for every buffer (iterating an mmap would give one-byte messages).
        let ty = type_name(messages);
        return Err(PyTypeError::new_err(format!(
            "hash_many: messages must be a sequence of bytes-like objects (one per message) \
             or a 2-D uint8 array, not a single bytes-like or str object ('{ty}'); \
             for one message use new()"
        )));
    }
    let job = prepare(name, digest_size, params)?;
    let progress = check_progress(progress)?;
    // A list or tuple holds its items for the whole call: they are read in
    // place. Any other iterable (a generator) may hand out one buffer again
    // and again, refilled between items: each item that is not `bytes`
    // (immutable) is copied as it comes.
    let in_place = messages.is_instance_of::<PyList>() || messages.is_instance_of::<PyTuple>();
    let iter = messages.try_iter().map_err(|_| {
        let ty = type_name(messages);
        PyTypeError::new_err(format!(
            "hash_many: messages must be a sequence of bytes-like objects or a 2-D array, not '{ty}'"
        ))
    })?;
    // `__len__` is only a hint (it may lie, or be 2**40): reserve a little,
    // grow fallibly as the items really arrive.
    let hint = messages.len().unwrap_or(0).min(LEN_HINT_MAX);
    let mut inputs: Vec<Held<'py>> = try_vec(hint)?;
    for (i, item) in iter.enumerate() {
        let item = item?;
        let held = match Input::new(&item, "hash_many") {
            Ok(inp @ Input::Bytes(_)) => Held::In(inp),
            Ok(inp) if in_place => Held::In(inp),
            Ok(inp) => {
                let b = inp.as_slice();
                let mut v = try_vec(b.len())?;
                v.extend_from_slice(b);
                Held::Copy(v)
            }
            Err(e) if e.is_instance_of::<PyTypeError>(py) => {
                // Our own refusal: say which message.
                let msg = format!("message {i}: {}", e.value(py));
                return Err(PyTypeError::new_err(msg));
            }
            // The exporter's own exception, unchanged.
            Err(e) => return Err(e),
        };
        inputs.try_reserve(1).map_err(|_| too_large())?;
        inputs.push(held);
    }
    let n = inputs.len();
    let views: Vec<&[u8]> = {
        let mut v = try_vec(n)?;
        v.extend(inputs.iter().map(|i| i.as_slice()));
        v
    };
    let shape = Shape {
        n,
        out_len: job.out_len,
        total: views.iter().map(|v| v.len() as u64).sum(),
    };
    let out = collect(py, &shape, as_list, |out| {
        run_pieces(
            py,
            &job,
            &shape,
            &|i| views[i].len(),
            |a, b, s| s.extend_from_slice(&views[a..b]),
            out,
            progress.as_ref(),
        )
    })?;
    Ok((out, n, job.out_len))
}

/// A message of `_hash_many_list`: read in place, or a copy.
enum Held<'py> {
    In(Input<'py>),
    Copy(Vec<u8>),
}

impl Held<'_> {
    fn as_slice(&self) -> &[u8] {
        match self {
            Held::In(i) => i.as_slice(),
            Held::Copy(v) => v,
        }
    }
}

/// `_hash_many_rows(array, name, digest_size=None, progress=None,
/// **params)`: a 2-D buffer of one-byte items, one message per row, read
/// in place through its strides (a broadcast or sliced array is not
/// copied). Returns None when its rows are not contiguous (the caller
/// copies it), else (bytearray, rows, out_len).
#[pyfunction]
#[pyo3(signature = (array, name, digest_size=None, progress=None, **params))]
pub fn _hash_many_rows<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    name: &str,
    digest_size: Option<&Bound<'py, PyAny>>,
    progress: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Option<(Bound<'py, PyAny>, usize, usize)>> {
    let job = prepare(name, digest_size, params)?;
    let progress = check_progress(progress)?;
    let Some(rows) = Rows::new(array)? else {
        return Ok(None);
    };
    let (n, cols) = (rows.rows, rows.cols);
    // The output is checked (and allocated) before anything of `n`
    // entries exists: a (2**33, 0) array asks for 2**33 digests.
    let shape = Shape {
        n,
        out_len: job.out_len,
        total: (n as u64).saturating_mul(cols as u64),
    };
    let out = collect(py, &shape, false, |out| {
        run_pieces(
            py,
            &job,
            &shape,
            &|_| cols,
            |a, b, s| s.extend((a..b).map(|r| rows.row(r))),
            out,
            progress.as_ref(),
        )
    })?;
    Ok(Some((out, n, job.out_len)))
}
