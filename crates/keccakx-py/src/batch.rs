//! Batch hashing: N independent messages with the same function and
//! parameters, one output row each, with the GIL released and the messages
//! spread over the cores.
//!
//! Every function (tree LI included) goes through `keccakx::batch::hash_many`
//! (multi-lane SIMD engines for the plain sponges, then cores; message by
//! message on threads for the rest). For TupleHash each message is a
//! one-element tuple.

use pyo3::exceptions::{PyMemoryError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView, PyString};

use crate::alg::{build, int_param, registry_params, Alg, Req, MAX_LEN};
use crate::buffer::Input;

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

/// Run the batch with the GIL released, into a new bytearray of n*out_len.
fn run<'py>(py: Python<'py>, job: &Job, msgs: &[&[u8]]) -> PyResult<Bound<'py, PyByteArray>> {
    let out_len = job.out_len;
    let total = msgs
        .len()
        .checked_mul(out_len)
        .filter(|t| *t <= isize::MAX as usize)
        .ok_or_else(|| PyMemoryError::new_err("hash_many: output too large"))?;
    // The core allocates the output itself: make sure it can.
    let mut probe: Vec<u8> = Vec::new();
    probe
        .try_reserve_exact(total)
        .map_err(|_| PyMemoryError::new_err("hash_many: output too large"))?;
    drop(probe);
    let name = job.alg.info().name;
    let params = registry_params(job.alg, &job.req, out_len);
    let out = py
        .detach(|| keccakx::batch::hash_many(name, &params, msgs, out_len))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(PyByteArray::new(py, &out))
}

/// `_hash_many_list(messages, name, digest_size=None, **params)`: messages is
/// an iterable of bytes-like objects. Returns (bytearray, n, out_len).
#[pyfunction]
#[pyo3(signature = (messages, name, digest_size=None, **params))]
pub fn _hash_many_list<'py>(
    py: Python<'py>,
    messages: &Bound<'py, PyAny>,
    name: &str,
    digest_size: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyByteArray>, usize, usize)> {
    if messages.is_instance_of::<PyBytes>()
        || messages.is_instance_of::<PyByteArray>()
        || messages.is_instance_of::<PyMemoryView>()
        || messages.is_instance_of::<PyString>()
    {
        return Err(PyTypeError::new_err(
            "hash_many: messages must be a sequence of bytes-like objects (one per message) \
             or a 2-D uint8 array, not a single bytes/str object; for one message use new()",
        ));
    }
    let job = prepare(name, digest_size, params)?;
    let iter = messages.try_iter().map_err(|_| {
        let ty = messages.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        PyTypeError::new_err(format!(
            "hash_many: messages must be a sequence of bytes-like objects or a 2-D array, not '{ty}'"
        ))
    })?;
    let mut inputs = Vec::with_capacity(messages.len().unwrap_or(0));
    for (i, item) in iter.enumerate() {
        let item = item?;
        match Input::new(&item, "hash_many") {
            Ok(inp) => inputs.push(inp),
            Err(e) => {
                let msg = format!("message {i}: {}", e.value(py));
                return Err(PyErr::from_type(e.get_type(py), msg));
            }
        }
    }
    let slices: Vec<&[u8]> = inputs.iter().map(|i| i.as_slice()).collect();
    let out = run(py, &job, &slices)?;
    Ok((out, slices.len(), job.out_len))
}

/// `_hash_many_rows(array, rows, cols, name, digest_size=None, **params)`:
/// a C-contiguous buffer of rows*cols bytes, one message per row.
#[pyfunction]
#[pyo3(signature = (array, rows, cols, name, digest_size=None, **params))]
pub fn _hash_many_rows<'py>(
    py: Python<'py>,
    array: &Bound<'py, PyAny>,
    rows: usize,
    cols: usize,
    name: &str,
    digest_size: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Bound<'py, PyByteArray>, usize, usize)> {
    let job = prepare(name, digest_size, params)?;
    let input = Input::new(array, "hash_many")?;
    let buf = input.as_slice();
    if rows.checked_mul(cols) != Some(buf.len()) {
        return Err(PyValueError::new_err(format!(
            "hash_many: buffer of {} bytes is not {rows} rows of {cols} bytes",
            buf.len()
        )));
    }
    let slices: Vec<&[u8]> = if cols == 0 {
        vec![&[][..]; rows]
    } else {
        buf.chunks_exact(cols).collect()
    };
    let out = run(py, &job, &slices)?;
    Ok((out, rows, job.out_len))
}
