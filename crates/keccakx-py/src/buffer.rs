//! Zero-copy input: any object with the buffer protocol (bytes, bytearray,
//! memoryview, array.array, NumPy arrays, mmap, ...) is read in place.
//! An exporter's own exception (a non-contiguous array, a released view, a
//! `__buffer__` that raises) passes through unchanged, as with hashlib; a
//! buffer of object references (format 'O') is refused.
//!
//! PyO3's `PyBuffer` is only compiled for the limited API from Python 3.11 on,
//! but this module is an abi3 wheel for CPython >= 3.9. The two buffer
//! functions used here, `PyObject_GetBuffer` and `PyBuffer_Release`, are
//! exported by every CPython 3.x, and the `Py_buffer` layout below has not
//! changed since 3.3 (3.11 added it, unchanged, to the stable ABI), so the
//! declarations are written out here.

use std::ffi::{c_char, c_int, c_void};

use pyo3::exceptions::{PyBufferError, PyTypeError, PyValueError};
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
/// `PyBUF_FORMAT`: the item format.
const PYBUF_FORMAT: c_int = 0x0004;
/// `PyBUF_RECORDS_RO`: shape, strides and format; any layout.
const PYBUF_RECORDS_RO: c_int = 0x0018 | PYBUF_FORMAT;

extern "C" {
    fn PyObject_GetBuffer(obj: *mut ffi::PyObject, view: *mut RawBuffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut RawBuffer);
    fn PyObject_CheckBuffer(obj: *mut ffi::PyObject) -> c_int;
}

/// Whether `obj` is an array of object references (NumPy's `dtype.hasobject`):
/// NumPy exports one as raw pointers when no format is asked for.
fn holds_objects(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    use pyo3::types::{PyByteArray, PyMemoryView};
    if obj.is_exact_instance_of::<PyByteArray>() || obj.is_exact_instance_of::<PyMemoryView>() {
        return Ok(false);
    }
    let py = obj.py();
    match obj.getattr_opt(pyo3::intern!(py, "dtype"))? {
        Some(dt) => Ok(dt
            .getattr_opt(pyo3::intern!(py, "hasobject"))?
            .map(|h| h.is_truthy())
            .transpose()?
            .unwrap_or(false)),
        None => Ok(false),
    }
}

/// Whether `obj`'s type implements the buffer protocol (the export may
/// still fail).
pub fn has_buffer(obj: &Bound<'_, PyAny>) -> bool {
    // SAFETY: `obj` is a live object and we are attached to the interpreter.
    unsafe { PyObject_CheckBuffer(obj.as_ptr()) != 0 }
}

/// A buffer export held open: the exporter keeps the memory alive and
/// unresizable (a `bytearray` refuses to resize while exported) until drop.
/// Not `Send`: it is released with the interpreter attached.
pub struct Export {
    // Boxed so the view never moves while the exporter may refer to it.
    view: Box<RawBuffer>,
}

impl Export {
    fn new(obj: &Bound<'_, PyAny>, flags: c_int) -> PyResult<Export> {
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
        let rc = unsafe { PyObject_GetBuffer(obj.as_ptr(), &mut *view, flags) };
        if rc != 0 {
            return Err(PyErr::fetch(obj.py()));
        }
        // From here on `export` releases the view when it is dropped.
        let export = Export { view };
        let v = &export.view;
        if v.len < 0 || (v.buf.is_null() && v.len != 0) {
            return Err(PyBufferError::new_err("object exported an invalid buffer"));
        }
        if export.holds_objects() || holds_objects(obj)? {
            let ty = type_name(obj);
            return Err(PyTypeError::new_err(format!(
                "a buffer of Python object references ('{ty}' of dtype object) has no bytes \
                 to hash: its bytes are addresses; hash the objects' own bytes"
            )));
        }
        Ok(export)
    }

    /// The item format, when the exporter gave one.
    fn format(&self) -> &[u8] {
        if self.view.format.is_null() {
            return b"B";
        }
        // SAFETY: a non-null format is a NUL-terminated string owned by the
        // exporter, valid until PyBuffer_Release.
        unsafe { std::ffi::CStr::from_ptr(self.view.format) }.to_bytes()
    }

    /// Whether the items are (or contain) object references: their bytes
    /// are addresses, different in every run.
    fn holds_objects(&self) -> bool {
        self.format().contains(&b'O')
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
        if !has_buffer(obj) {
            let ty = type_name(obj);
            return Err(PyTypeError::new_err(format!(
                "{what}: a bytes-like object (buffer protocol) is required, not '{ty}'"
            )));
        }
        // What the exporter raises (BufferError or ValueError for a
        // non-contiguous array, ValueError for a released memoryview or a
        // closed mmap, or anything a `__buffer__` raises, KeyboardInterrupt
        // included) passes through unchanged, as with hashlib.
        Export::new(obj, PYBUF_SIMPLE).map(Input::Export)
    }

    pub fn as_slice(&self) -> &[u8] {
        match self {
            Input::Bytes(b) => b.as_bytes(),
            Input::Export(e) => e.as_slice(),
        }
    }
}

/// A 2-D buffer of one-byte items seen through its strides (a broadcast,
/// sliced or reversed NumPy array), one message per row, read in place.
pub struct Rows {
    export: Export,
    pub rows: usize,
    pub cols: usize,
}

impl Rows {
    /// Export `obj` with its shape and strides. `None` when the rows are
    /// not each contiguous (the caller copies); errors as [`Input::new`].
    pub fn new(obj: &Bound<'_, PyAny>) -> PyResult<Option<Rows>> {
        let export = Export::new(obj, PYBUF_RECORDS_RO)?;
        let v = &export.view;
        if v.ndim != 2 || v.itemsize != 1 || v.shape.is_null() || !v.suboffsets.is_null() {
            return Err(PyValueError::new_err(
                "hash_many: an array of messages must be 2-D with one-byte items",
            ));
        }
        // SAFETY: ndim == 2, so shape (and strides, when not null) hold two
        // entries, valid until PyBuffer_Release.
        let (shape, strides) = unsafe {
            let shape = std::slice::from_raw_parts(v.shape, 2);
            let strides = if v.strides.is_null() {
                [shape[1], 1]
            } else {
                let s = std::slice::from_raw_parts(v.strides, 2);
                [s[0], s[1]]
            };
            ([shape[0], shape[1]], strides)
        };
        if shape[0] < 0 || shape[1] < 0 {
            return Err(PyBufferError::new_err("object exported an invalid buffer"));
        }
        let (rows, cols) = (shape[0] as usize, shape[1] as usize);
        if cols > 1 && strides[1] != 1 {
            return Ok(None);
        }
        Ok(Some(Rows { export, rows, cols }))
    }

    /// Row `i` (< rows).
    pub fn row(&self, i: usize) -> &[u8] {
        if self.cols == 0 {
            return &[];
        }
        let v = &self.export.view;
        // SAFETY: strides is null only for a C-contiguous export; then the
        // row stride is cols.
        let stride = if v.strides.is_null() {
            self.cols as isize
        } else {
            unsafe { *v.strides }
        };
        // SAFETY: the exporter guarantees that buf + i*strides[0] +
        // j*strides[1] is readable for every index in its shape (PEP 3118),
        // and strides[1] == 1 here, so the row's `cols` bytes are one run;
        // valid until PyBuffer_Release (in Drop), tied to `self`.
        unsafe {
            let p = (v.buf as *const u8).offset(stride * i as isize);
            std::slice::from_raw_parts(p, self.cols)
        }
    }
}

/// The name of `obj`'s type, for messages.
pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".to_string())
}

/// An optional bytes-like parameter (key, customization, ...) copied out.
pub fn bytes_param(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<Vec<u8>>> {
    match obj {
        None => Ok(None),
        Some(o) if o.is_none() => Ok(None),
        Some(o) => Ok(Some(Input::new(o, what)?.as_slice().to_vec())),
    }
}
