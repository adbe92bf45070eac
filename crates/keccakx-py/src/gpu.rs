//! The CUDA backend (crate `keccakx-gpu`): availability, and batch hashing
//! of messages that already live in GPU memory (CuPy, PyTorch, Numba: the
//! pure-Python layer reads `__cuda_array_interface__` and allocates the
//! output array with the same library). Without the `gpu` feature, or
//! without a driver or a device, every entry point says why.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Whether the CUDA backend can run here: (available, description or reason).
#[pyfunction]
pub fn _gpu_status() -> (bool, String) {
    imp::status()
}

/// `_gpu_hash_many_raw(ordinal, name, digest_size, data_ptr, count, stride,
/// msg_len, out_ptr, stream, **params)`: hash `count` messages of `msg_len`
/// bytes at device address `data_ptr + i * stride` into `out_ptr + i *
/// out_len` (device memory), on device `ordinal`. Returns out_len.
#[pyfunction]
#[pyo3(signature = (ordinal, name, digest_size, data_ptr, count, stride, msg_len, out_ptr, stream=None, **params))]
#[allow(clippy::too_many_arguments)]
pub fn _gpu_hash_many_raw(
    py: Python<'_>,
    ordinal: usize,
    name: &str,
    digest_size: Option<&Bound<'_, PyAny>>,
    data_ptr: u64,
    count: u64,
    stride: u64,
    msg_len: u64,
    out_ptr: u64,
    stream: Option<u64>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<usize> {
    imp::hash_many_raw(
        py,
        ordinal,
        name,
        digest_size,
        (data_ptr, count, stride, msg_len),
        out_ptr,
        stream,
        params,
    )
}

/// `_gpu_hash_host(ordinal, name, digest_size, data, count, stride,
/// msg_len, register=False, **params)`: hash `count` messages of `msg_len`
/// bytes at `i * stride` in the host buffer `data` on GPU `ordinal`
/// (host-fed: copied straight from `data` when it is page-locked, e.g.
/// CuPy's or PyTorch's pinned memory, or registered for the call with
/// `register`; else staged). Returns (digests, how the input went:
/// "staged", "registered" or "page-locked").
#[pyfunction]
#[pyo3(signature = (ordinal, name, digest_size, data, count, stride, msg_len, register=false, **params))]
#[allow(clippy::too_many_arguments)]
pub fn _gpu_hash_host<'py>(
    py: Python<'py>,
    ordinal: usize,
    name: &str,
    digest_size: Option<&Bound<'py, PyAny>>,
    data: &Bound<'py, PyAny>,
    count: usize,
    stride: usize,
    msg_len: usize,
    register: bool,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<(Vec<u8>, &'static str)> {
    imp::hash_host(
        py,
        ordinal,
        name,
        digest_size,
        data,
        (count, stride, msg_len),
        register,
        params,
    )
}

/// `_gpu_merkle_raw(ordinal, leaves_ptr, n, stream=None, nodes=False)`:
/// the OpenZeppelin tree of the `n` 32-byte leaves (leaf order) at device
/// address `leaves_ptr`, built in device memory; returns (root, the node
/// array as bytes, root first, or None).
#[pyfunction]
#[pyo3(signature = (ordinal, leaves_ptr, n, stream=None, nodes=false))]
pub fn _gpu_merkle_raw(
    py: Python<'_>,
    ordinal: usize,
    leaves_ptr: u64,
    n: u64,
    stream: Option<u64>,
    nodes: bool,
) -> PyResult<(Vec<u8>, Option<Vec<u8>>)> {
    imp::merkle_raw(py, ordinal, leaves_ptr, n, stream, nodes)
}

/// The output length `hash_many` would produce for `name` and `params`
/// (to size a device output array before hashing).
#[pyfunction]
#[pyo3(signature = (name, digest_size=None, **params))]
pub fn _batch_out_len(
    name: &str,
    digest_size: Option<&Bound<'_, PyAny>>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<usize> {
    Ok(crate::batch::prepare(name, digest_size, params)?.out_len)
}

#[cfg(feature = "gpu")]
mod imp {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex, OnceLock};

    use keccakx_gpu::cudarc::driver::sys;
    use keccakx_gpu::{GpuError, GpuHasher, RawLayout};
    use pyo3::exceptions::{PyTypeError, PyValueError};

    use super::*;
    use crate::alg::registry_params;
    use keccakx::registry::Param;

    fn describe() -> Result<String, GpuError> {
        let devs = keccakx_gpu::devices()?;
        let parts: Vec<String> = devs
            .iter()
            .map(|d| {
                format!(
                    "cuda:{} {} (compute {}.{}, {} MiB)",
                    d.ordinal,
                    d.name,
                    d.compute_capability.0,
                    d.compute_capability.1,
                    d.memory_bytes >> 20
                )
            })
            .collect();
        Ok(parts.join(", "))
    }

    pub fn status() -> (bool, String) {
        // Probing loads the driver once; the answer does not change while
        // the process runs.
        static STATUS: OnceLock<(bool, String)> = OnceLock::new();
        STATUS
            .get_or_init(|| match describe() {
                Ok(d) => (true, d),
                Err(e) => (false, e.to_string()),
            })
            .clone()
    }

    fn hasher(ordinal: usize) -> Result<Arc<GpuHasher>, GpuError> {
        static HASHERS: OnceLock<Mutex<HashMap<usize, Arc<GpuHasher>>>> = OnceLock::new();
        let map = HASHERS.get_or_init(|| Mutex::new(HashMap::new()));
        let mut m = map.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(h) = m.get(&ordinal) {
            return Ok(h.clone());
        }
        let h = Arc::new(GpuHasher::new(ordinal)?);
        m.insert(ordinal, h.clone());
        Ok(h)
    }

    fn gpu_err(e: GpuError) -> PyErr {
        PyRuntimeError::new_err(format!("keccakx GPU backend: {e}"))
    }

    #[allow(clippy::too_many_arguments)]
    pub fn hash_many_raw(
        py: Python<'_>,
        ordinal: usize,
        name: &str,
        digest_size: Option<&Bound<'_, PyAny>>,
        (data_ptr, count, stride, msg_len): (u64, u64, u64, u64),
        out_ptr: u64,
        stream: Option<u64>,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<usize> {
        let (ok, why) = status();
        if !ok {
            return Err(PyRuntimeError::new_err(format!(
                "GPU arrays need the CUDA backend; none available: {why}"
            )));
        }
        let job = crate::batch::prepare(name, digest_size, params)?;
        let out_len = job.out_len;
        let info = job.alg.info();
        if info.accepts(Param::Tree) {
            return Err(PyTypeError::new_err(
                "hash_many on GPU arrays: tree_li is not a plain sponge; \
                 copy the data to the host for it",
            ));
        }
        let mut p = registry_params(job.alg, &job.req, out_len);
        if info.variable_len {
            p.length = Some(out_len);
        }
        let Ok(Some(spec)) = keccakx::batch::lane_spec(info.name, &p) else {
            return Err(PyTypeError::new_err(format!(
                "hash_many on GPU arrays supports the plain sponges (sha3_*, shake_*, keccak_*, \
                 turboshake*, cshake* without name/custom, raw keccak of width 1600 with a byte \
                 rate), not {}: copy the data to the host for it",
                job.alg.py_name()
            )));
        };
        if count == 0 || out_len == 0 {
            return Ok(out_len);
        }
        let data_len = (count - 1)
            .checked_mul(stride)
            .and_then(|x| x.checked_add(msg_len))
            .ok_or_else(|| PyValueError::new_err("device array layout overflows"))?;
        let h = py.detach(|| hasher(ordinal)).map_err(gpu_err)?;
        let layout = RawLayout::Uniform {
            count,
            stride,
            len: msg_len,
        };
        py.detach(|| {
            let stream = stream.map(|s| s as usize as sys::CUstream);
            // SAFETY: the Python layer took `data_ptr`, the shape and the
            // strides from the input's __cuda_array_interface__ (the object
            // is alive for the whole call: the caller holds it), so
            // `data_len` bytes from `data_ptr` are readable device memory;
            // `out_ptr` comes from an output array of count * out_len bytes
            // it just allocated on the same device; `stream` is the input's
            // own stream (CuPy and PyTorch use the primary context).
            unsafe { h.hash_many_raw(&spec, data_ptr, data_len, layout, out_ptr, out_len, stream) }
        })
        .map_err(gpu_err)?;
        Ok(out_len)
    }

    /// The plain sponge `name` names (as hash_many_raw takes it).
    fn sponge(
        name: &str,
        digest_size: Option<&Bound<'_, PyAny>>,
        params: Option<&Bound<'_, PyDict>>,
        what: &str,
    ) -> PyResult<(keccakx::engine::LaneSpec, usize)> {
        let job = crate::batch::prepare(name, digest_size, params)?;
        let out_len = job.out_len;
        let info = job.alg.info();
        let mut p = registry_params(job.alg, &job.req, out_len);
        if info.variable_len {
            p.length = Some(out_len);
        }
        match keccakx::batch::lane_spec(info.name, &p) {
            Ok(Some(spec)) if !info.accepts(Param::Tree) => Ok((spec, out_len)),
            _ => Err(PyTypeError::new_err(format!(
                "{what} supports the plain sponges (sha3_*, shake_*, keccak_*, turboshake*, \
                 cshake* without name/custom, raw keccak of width 1600 with a byte rate), not {}",
                job.alg.py_name()
            ))),
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub fn hash_host<'py>(
        py: Python<'py>,
        ordinal: usize,
        name: &str,
        digest_size: Option<&Bound<'py, PyAny>>,
        data: &Bound<'py, PyAny>,
        (count, stride, msg_len): (usize, usize, usize),
        register: bool,
        params: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(Vec<u8>, &'static str)> {
        let (ok, why) = status();
        if !ok {
            return Err(PyRuntimeError::new_err(format!(
                "gpu_hash_many needs the CUDA backend; none available: {why}"
            )));
        }
        let (spec, out_len) = sponge(name, digest_size, params, "gpu_hash_many")?;
        let input = crate::buffer::Input::new(data, "gpu_hash_many")?;
        let bytes = input.as_slice();
        let fits = count == 0
            || (count - 1)
                .checked_mul(stride)
                .and_then(|x| x.checked_add(msg_len))
                .is_some_and(|end| end <= bytes.len());
        if !fits || (count > 1 && stride < msg_len) {
            return Err(PyValueError::new_err(
                "gpu_hash_many: the messages reach past the buffer or overlap",
            ));
        }
        let h = py.detach(|| hasher(ordinal)).map_err(gpu_err)?;
        let mut out = vec![0u8; count * out_len];
        let how = py
            .detach(|| {
                // Registered for the call where asked and the driver agrees
                // (else staged); page-locked memory is recognised anyway.
                let _reg = if register && !bytes.is_empty() {
                    h.register_host(bytes).ok()
                } else {
                    None
                };
                h.hash_strided(
                    &spec,
                    bytes,
                    stride.max(1),
                    msg_len,
                    count,
                    out_len,
                    &mut out,
                )
                .map(|()| h.last_pipeline_stats().host_input)
            })
            .map_err(gpu_err)?;
        let how = match how {
            keccakx_gpu::HostInput::Staged => "staged",
            keccakx_gpu::HostInput::Registered => "registered",
            keccakx_gpu::HostInput::PageLocked => "page-locked",
        };
        Ok((out, how))
    }

    pub fn merkle_raw(
        py: Python<'_>,
        ordinal: usize,
        leaves_ptr: u64,
        n: u64,
        stream: Option<u64>,
        nodes: bool,
    ) -> PyResult<(Vec<u8>, Option<Vec<u8>>)> {
        let (ok, why) = status();
        if !ok {
            return Err(PyRuntimeError::new_err(format!(
                "GPU arrays need the CUDA backend; none available: {why}"
            )));
        }
        if n == 0 {
            return Err(PyValueError::new_err("Expected non-zero number of leaves"));
        }
        let h = py.detach(|| hasher(ordinal)).map_err(gpu_err)?;
        py.detach(|| {
            let mut all = if nodes {
                Some(vec![0u8; (2 * n as usize - 1) * 32])
            } else {
                None
            };
            let stream = stream.map(|s| s as usize as sys::CUstream);
            // SAFETY: the Python layer took `leaves_ptr` and `n` from the
            // leaves' __cuda_array_interface__ (an (n, 32) contiguous uint8
            // array the caller holds for the whole call) on this device;
            // `stream` is the array's own.
            let root = unsafe { h.merkle_tree_raw(leaves_ptr, n, stream, all.as_deref_mut()) }?;
            Ok((root.to_vec(), all))
        })
        .map_err(gpu_err)
    }
}

#[cfg(not(feature = "gpu"))]
mod imp {
    use super::*;

    const WHY: &str = "this build of the keccakx Python module has no CUDA engine \
                       (built without the `gpu` feature)";

    pub fn status() -> (bool, String) {
        (false, WHY.to_string())
    }

    #[allow(clippy::too_many_arguments)]
    pub fn hash_many_raw(
        _py: Python<'_>,
        _ordinal: usize,
        _name: &str,
        _digest_size: Option<&Bound<'_, PyAny>>,
        _msgs: (u64, u64, u64, u64),
        _out_ptr: u64,
        _stream: Option<u64>,
        _params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<usize> {
        Err(PyRuntimeError::new_err(format!(
            "GPU arrays need the CUDA backend; none available: {WHY}"
        )))
    }

    #[allow(clippy::too_many_arguments)]
    pub fn hash_host<'py>(
        _py: Python<'py>,
        _ordinal: usize,
        _name: &str,
        _digest_size: Option<&Bound<'py, PyAny>>,
        _data: &Bound<'py, PyAny>,
        _msgs: (usize, usize, usize),
        _register: bool,
        _params: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<(Vec<u8>, &'static str)> {
        Err(PyRuntimeError::new_err(format!(
            "gpu_hash_many needs the CUDA backend; none available: {WHY}"
        )))
    }

    pub fn merkle_raw(
        _py: Python<'_>,
        _ordinal: usize,
        _leaves_ptr: u64,
        _n: u64,
        _stream: Option<u64>,
        _nodes: bool,
    ) -> PyResult<(Vec<u8>, Option<Vec<u8>>)> {
        Err(PyRuntimeError::new_err(format!(
            "GPU arrays need the CUDA backend; none available: {WHY}"
        )))
    }
}
