//! The engine policy from Python: which CPU engine runs, how many threads,
//! and the warning for an unusable `KECCAKX_ENGINE` (the core parses it).

use pyo3::prelude::*;

/// The CPU engine keccakx selected (scalar, or a SIMD engine when built in).
#[pyfunction]
pub(crate) fn engine() -> &'static str {
    keccakx::engine::current().name()
}

/// Limit the threads batch hashing may use (0 = all cores, the default).
#[pyfunction]
pub(crate) fn set_threads(n: usize) {
    keccakx::engine::set_threads(n)
}

/// Force the CPU engine for this process: "auto", "avx512", "avx2",
/// "sse2" or "scalar", in any case (what `KECCAKX_ENGINE` and `keccakx --engine`
/// take). ValueError for a name keccakx does not know or an engine this
/// CPU does not run.
#[pyfunction]
pub(crate) fn set_engine(name: &str) -> PyResult<()> {
    keccakx::engine::set_engine(name)
        .map(|_| ())
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("engine {name:?}: {e}")))
}

/// A RuntimeWarning when `KECCAKX_ENGINE` names no engine, or one this CPU
/// does not run (the hashing then uses auto, as the CLI says too).
pub(crate) fn warn_about_engine_variable(py: Python<'_>) -> PyResult<()> {
    if let Err(msg) = keccakx::engine::engine_from_env() {
        let msg = std::ffi::CString::new(format!("{msg}; using auto"))
            .unwrap_or_else(|_| c"KECCAKX_ENGINE: unusable value; using auto".to_owned());
        let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        PyErr::warn(py, category.as_any(), &msg, 1)?;
    }
    Ok(())
}
