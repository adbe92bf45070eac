//! Portable sponge states from Python: `h.export_state()` on a hash or
//! XOF object (absorbing, or part-way through `read()`), and
//! `keccakx.import_state(blob)`, which returns a new object of the blob's
//! function and parameters in the same state. The blob is the Rust
//! library's (`keccakx::registry`, docs/outboard.md): versioned, bound to
//! the function and its parameters, checksummed. Pickling stays refused,
//! as in hashlib: a KMAC state is as secret as its key, and pickling
//! happens implicitly (multiprocessing, caches); exporting is explicit.

use keccakx::registry::state::{import_state as import_blob, Imported, Squeezer, StateError};
use keccakx::registry::Hasher;
use keccakx::sponge::XofReader;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::Input;

fn value_error(e: StateError) -> PyErr {
    PyValueError::new_err(format!("keccakx state: {e}"))
}

/// The blob of an object's state: `reader` set once output was read.
pub(crate) fn export(core: &Hasher, reader: Option<&XofReader>) -> PyResult<Vec<u8>> {
    match reader {
        None => core.export_state(),
        Some(r) => Squeezer::from_reader(core, r.clone()).export_state(),
    }
    .map_err(value_error)
}

/// The state a blob holds: the hasher, and the reader when output was
/// being read (`keccakx.import_state`, in objects.rs, makes the object).
pub(crate) fn import(blob: &Bound<'_, PyAny>) -> PyResult<(Hasher, Option<XofReader>)> {
    let input = Input::new(blob, "import_state()")?;
    Ok(match import_blob(input.as_slice()).map_err(value_error)? {
        Imported::Absorbing(h) => (h, None),
        Imported::Squeezing(s) => {
            let proto = s.hasher_info().clone();
            (proto, Some(s.into_reader()))
        }
    })
}

/// The bytes object for a blob.
pub(crate) fn to_bytes<'py>(py: Python<'py>, blob: &[u8]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, blob)
}
