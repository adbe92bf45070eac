//! Zero-copy input: any object with the buffer protocol (bytes, bytearray,
//! memoryview, array.array, NumPy arrays, mmap, ...) is read in place.
//!
//! PyO3's `PyBuffer` is only compiled for the limited API from Python 3.11 on,
//! but this module is an abi3 wheel for CPython >= 3.9. The two buffer
//! functions used here, `PyObject_GetBuffer` and `PyBuffer_Release`, are
//! exported by every CPython 3.x, and the `Py_buffer` layout below has not
//! changed since 3.3 (3.11 added it, unchanged, to the stable ABI), so the
//! declarations are written out here.

use std::ffi::{c_char, c_int, c_void};

use pyo3::exceptions::{PyBufferError, PyTypeError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

/// `Py_buffer` as CPython defines it (Include/pybuffer.h, 3.3 and later).
#[repr(C)]
struct RawBuffer {
    buf: *mut c_void,
    obj: *mut ffi::PyObject,
    len: ffi::Py_ssize_t,
    itemsize: ffi::Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut ffi::Py_ssize_t,
    strides: *mut ffi::Py_ssize_t,
    suboffsets: *mut ffi::Py_ssize_t,
    internal: *mut c_void,
}

/// `PyBUF_SIMPLE`: a C-contiguous run of bytes, no format, no shape.
const PYBUF_SIMPLE: c_int = 0;

extern "C" {
    fn PyObject_GetBuffer(obj: *mut ffi::PyObject, view: *mut RawBuffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut RawBuffer);
}

/// A buffer export held open: the exporter keeps the memory alive and
/// unresizable (a `bytearray` refuses to resize while exported) until drop.
/// Not `Send`: it is released with the interpreter attached.
pub struct Export {
    // Boxed so the view never moves while the exporter may refer to it.
    view: Box<RawBuffer>,
}

impl Export {
    fn new(obj: &Bound<'_, PyAny>) -> PyResult<Export> {
        let mut view = Box::new(RawBuffer {
            buf: std::ptr::null_mut(),
            obj: std::ptr::null_mut(),
            len: 0,
            itemsize: 0,
            readonly: 0,
            ndim: 0,
            format: std::ptr::null_mut(),
            shape: std::ptr::null_mut(),
            strides: std::ptr::null_mut(),
            suboffsets: std::ptr::null_mut(),
            internal: std::ptr::null_mut(),
        });
        // SAFETY: `obj` is a live object (we hold a reference and are
        // attached to the interpreter); `view` points to a writable
        // Py_buffer-shaped struct that outlives the call.
        let rc = unsafe { PyObject_GetBuffer(obj.as_ptr(), &mut *view, PYBUF_SIMPLE) };
        if rc != 0 {
            return Err(PyErr::fetch(obj.py()));
        }
        if view.len < 0 || (view.buf.is_null() && view.len != 0) {
            // SAFETY: the export succeeded, so it must be released once.
            unsafe { PyBuffer_Release(&mut *view) };
            return Err(PyBufferError::new_err("object exported an invalid buffer"));
        }
        Ok(Export { view })
    }

    fn as_slice(&self) -> &[u8] {
        if self.view.len == 0 {
            return &[];
        }
        // SAFETY: PyBUF_SIMPLE guarantees `len` contiguous bytes at `buf`,
        // valid until PyBuffer_Release (in Drop); the lifetime of the slice
        // is tied to `self`.
        unsafe { std::slice::from_raw_parts(self.view.buf as *const u8, self.view.len as usize) }
    }
}

impl Drop for Export {
    fn drop(&mut self) {
        // SAFETY: the view was filled by a successful PyObject_GetBuffer and
        // is released exactly once; `Export` is not Send, so this runs on a
        // thread attached to the interpreter.
        unsafe { PyBuffer_Release(&mut *self.view) };
    }
}

/// Bytes borrowed from a Python object for as long as this value lives.
pub enum Input<'py> {
    /// `bytes` (immutable): read directly, no export needed.
    Bytes(Bound<'py, PyBytes>),
    /// Anything else with the buffer protocol.
    Export(Export),
}

impl<'py> Input<'py> {
    /// Borrow the bytes of `obj`; `what` names the argument in errors.
    pub fn new(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Input<'py>> {
        if let Ok(b) = obj.cast_exact::<PyBytes>() {
            return Ok(Input::Bytes(b.clone()));
        }
        if obj.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(format!(
                "{what}: strings must be encoded before hashing (str given; use .encode())"
            )));
        }
        match Export::new(obj) {
            Ok(e) => Ok(Input::Export(e)),
            Err(err) => {
                if err.is_instance_of::<PyTypeError>(obj.py()) {
                    let ty = obj
                        .get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_else(|_| "?".to_string());
                    Err(PyTypeError::new_err(format!(
                        "{what}: a bytes-like object (buffer protocol) is required, not '{ty}'"
                    )))
                } else {
                    // e.g. BufferError for a non-contiguous array: keep the
                    // exporter's message, say where it came from.
                    let msg = err.value(obj.py()).to_string();
                    Err(PyBufferError::new_err(format!(
                        "{what}: {msg} (pass a C-contiguous buffer, e.g. numpy.ascontiguousarray(x))"
                    )))
                }
            }
        }
    }

    pub fn as_slice(&self) -> &[u8] {
        match self {
            Input::Bytes(b) => b.as_bytes(),
            Input::Export(e) => e.as_slice(),
        }
    }
}

/// An optional bytes-like parameter (key, customization, ...) copied out.
pub fn bytes_param(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<Vec<u8>>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => Ok(Some(Input::new(o, what)?.as_slice().to_vec())),
    }
}
