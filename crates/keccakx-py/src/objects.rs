//! The hash objects: `Hash` (fixed-length digests) and `XOF`
//! (extendable output), shaped like hashlib's, over the registry's
//! `Hasher`; input read in place and the GIL released while hashing
//! large inputs or squeezing long outputs.

use std::sync::{Mutex, MutexGuard};

use keccakx::sponge::XofReader;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::alg::{build, index_arg, Alg, Core, Meta, Req, MAX_LEN};
use crate::buffer::Input;
use crate::gil::{lock_py, GIL_RELEASE_MIN, GIL_RELEASE_OUT, PIECE_BYTES};

struct State {
    core: Core,
    /// The output stream of `read(n)`, started at the first read.
    reader: Option<XofReader>,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Absorb `data` (any buffer) into the state; big inputs without the GIL.
///
/// Input longer than a piece is absorbed a piece at a time, Ctrl-C seen
/// between pieces; an exception there (KeyboardInterrupt) puts the state
/// back as it was before the call, so the object stays usable and
/// unchanged. (A TupleHash element is one piece, whatever its length.)
fn absorb(
    py: Python<'_>,
    meta: &Meta,
    state: &Mutex<State>,
    data: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let input = Input::new(data, "update()")?;
    let bytes = input.as_slice();
    let mut s = lock_py(py, state);
    if s.reader.is_some() {
        return Err(PyValueError::new_err(format!(
            "{}: update() after read(): the output stream has started; \
             use copy() before reading to keep absorbing",
            meta.name
        )));
    }
    let st: &mut State = &mut s;
    if bytes.len() < GIL_RELEASE_MIN {
        st.core.update(bytes);
    } else if bytes.len() <= PIECE_BYTES || st.core.info().needs_input_length() {
        py.detach(|| st.core.update(bytes));
    } else {
        let before = st.core.clone();
        for part in bytes.chunks(PIECE_BYTES) {
            py.detach(|| st.core.update(part));
            if let Err(e) = py.check_signals() {
                st.core = before;
                return Err(e);
            }
        }
    }
    Ok(())
}

/// Squeeze `n` bytes from a finished copy of the state into new `bytes`.
fn squeeze_new<'py>(
    py: Python<'py>,
    mut reader: XofReader,
    n: usize,
) -> PyResult<Bound<'py, PyBytes>> {
    PyBytes::new_with(py, n, |out| {
        if n >= GIL_RELEASE_OUT {
            py.detach(|| reader.read(out));
        } else {
            reader.read(out);
        }
        Ok(())
    })
}

fn finished(py: Python<'_>, state: &Mutex<State>) -> XofReader {
    let core = lock_py(py, state).core.clone();
    core.finalize_reader()
}

/// An output length from Python: an int or any object with `__index__`
/// (a NumPy integer), not a bool; ValueError when negative or above
/// [`MAX_LEN`].
pub(crate) fn length_arg(length: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    let v = index_arg(length, what)?;
    if v < 0 {
        return Err(PyValueError::new_err(format!(
            "{what} must be non-negative, got {v}"
        )));
    }
    if v > MAX_LEN as i128 {
        return Err(PyValueError::new_err(format!(
            "{what} is too large (at most 2**48 bytes)"
        )));
    }
    Ok(v as usize)
}

/// A zeroed buffer of `n` bytes; MemoryError instead of an abort when the
/// allocation fails.
fn out_vec(n: usize) -> PyResult<Vec<u8>> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| pyo3::exceptions::PyMemoryError::new_err(()))?;
    v.resize(n, 0);
    Ok(v)
}

fn hex(bytes: &[u8]) -> PyResult<String> {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::new();
    s.try_reserve_exact(bytes.len().saturating_mul(2))
        .map_err(|_| pyo3::exceptions::PyMemoryError::new_err(()))?;
    for b in bytes {
        s.push(DIGITS[(b >> 4) as usize] as char);
        s.push(DIGITS[(b & 15) as usize] as char);
    }
    Ok(s)
}

/// A hash object with a digest size fixed at construction: SHA3-*,
/// Keccak-*, and KMAC/TupleHash/ParallelHash (whose length L is bound into
/// the output). Shaped like hashlib's objects.
#[pyclass(module = "keccakx", name = "Hash", frozen, freelist = 64)]
pub struct Hash {
    meta: Meta,
    state: Mutex<State>,
}

/// An extendable-output object: SHAKE, cSHAKE, the *XOF variants of
/// SP 800-185, TurboSHAKE, KT128/KT256, raw Keccak[r, c], tree LI.
/// `digest(n)` / `hexdigest(n)` as hashlib's SHAKE; `read(n)` streams.
#[pyclass(module = "keccakx", name = "XOF", frozen, freelist = 64)]
pub struct Xof {
    meta: Meta,
    state: Mutex<State>,
}

fn new_object<'py>(py: Python<'py>, meta: Meta, core: Core) -> PyResult<Bound<'py, PyAny>> {
    let state = Mutex::new(State { core, reader: None });
    Ok(if meta.xof {
        Bound::new(py, Xof { meta, state })?.into_any()
    } else {
        Bound::new(py, Hash { meta, state })?.into_any()
    })
}

/// An object of `core`'s function in its state, `reader` set when output
/// was being read (`keccakx.import_state`).
pub(crate) fn object_with_state(
    py: Python<'_>,
    core: Core,
    reader: Option<XofReader>,
) -> PyResult<Bound<'_, PyAny>> {
    let alg = crate::alg::Alg(core.info());
    let xof = alg.is_xof();
    let meta = Meta {
        name: alg.py_name(),
        digest_size: if xof { 0 } else { core.output_len() },
        block_size: core.rate_bytes(),
        xof,
    };
    let state = Mutex::new(State { core, reader });
    Ok(if xof {
        Bound::new(py, Xof { meta, state })?.into_any()
    } else {
        Bound::new(py, Hash { meta, state })?.into_any()
    })
}

/// Construct, then absorb the initial data (if any).
pub(crate) fn construct<'py>(
    py: Python<'py>,
    alg: Alg,
    req: &Req,
    data: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (meta, core) = build(alg, req, true)?;
    let obj = new_object(py, meta, core)?;
    if let Some(d) = data {
        if !d.is_none() {
            obj.call_method1(pyo3::intern!(py, "update"), (d,))?;
        }
    }
    Ok(obj)
}

/// Fast path for the constructors without parameters: a prepared hasher
/// per function (built once), cloned; data absorbed directly.
pub(crate) fn construct_plain<'py>(
    py: Python<'py>,
    cache: &'static std::sync::OnceLock<(Meta, Core)>,
    reg_name: &str,
    data: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let (meta, core) = match cache.get() {
        Some((m, c)) => (*m, c.clone()),
        None => {
            let built = build(Alg::reg(reg_name), &Req::default(), true)?;
            let _ = cache.set(built.clone());
            built
        }
    };
    let state = Mutex::new(State { core, reader: None });
    if let Some(d) = data {
        if !d.is_none() {
            absorb(py, &meta, &state, d)?;
        }
    }
    Ok(if meta.xof {
        Bound::new(py, Xof { meta, state })?.into_any()
    } else {
        Bound::new(py, Hash { meta, state })?.into_any()
    })
}

#[pymethods]
impl Hash {
    /// The running state as a portable blob (bytes), for
    /// keccakx.import_state() (KT and ParallelHash: their final node and
    /// partial chunk, at most ~8.5 KiB / ~256 KiB); ValueError for tree LI.
    /// A KMAC state is as secret as its key. (Pickling is refused.)
    fn export_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let s = lock_py(py, &self.state);
        let blob = crate::state::export(&s.core, s.reader.as_ref())?;
        Ok(crate::state::to_bytes(py, &blob))
    }

    /// Absorb a bytes-like object (any buffer: bytes, bytearray, memoryview,
    /// NumPy array, mmap). For TupleHash, each call is one tuple element.
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        absorb(py, &self.meta, &self.state, data)
    }

    /// The digest of everything absorbed so far (the object stays usable).
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        squeeze_new(py, finished(py, &self.state), self.meta.digest_size)
    }

    /// The digest as a string of hexadecimal digits.
    fn hexdigest(&self, py: Python<'_>) -> PyResult<String> {
        let mut out = out_vec(self.meta.digest_size)?;
        finished(py, &self.state).read(&mut out);
        hex(&out)
    }

    /// An independent copy of the current state.
    fn copy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Hash>> {
        let s = lock_py(py, &self.state);
        let state = Mutex::new(State {
            core: s.core.clone(),
            reader: s.reader.clone(),
        });
        drop(s);
        Bound::new(
            py,
            Hash {
                meta: self.meta,
                state,
            },
        )
    }

    /// Compare the digest with `tag` in constant time (the length is not
    /// secret): True when equal. For KMAC this verifies a MAC.
    fn verify(&self, py: Python<'_>, tag: &Bound<'_, PyAny>) -> PyResult<bool> {
        let tag = Input::new(tag, "verify()")?;
        let mut out = out_vec(self.meta.digest_size)?;
        finished(py, &self.state).read(&mut out);
        Ok(keccakx::ct_eq(&out, tag.as_slice()))
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.meta.name
    }

    #[getter]
    fn digest_size(&self) -> usize {
        self.meta.digest_size
    }

    /// The rate in bytes (for ParallelHash this is not its block_size B).
    #[getter]
    fn block_size(&self) -> usize {
        self.meta.block_size
    }

    fn __repr__(&self) -> String {
        format!(
            "<keccakx.Hash {} digest_size={}>",
            self.meta.name, self.meta.digest_size
        )
    }
}

#[pymethods]
impl Xof {
    /// The running state as a portable blob (bytes), for
    /// keccakx.import_state() (KT and ParallelHash: their final node and
    /// partial chunk, at most ~8.5 KiB / ~256 KiB); ValueError for tree LI.
    /// A KMAC state is as secret as its key. (Pickling is refused.)
    fn export_state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let s = lock_py(py, &self.state);
        let blob = crate::state::export(&s.core, s.reader.as_ref())?;
        Ok(crate::state::to_bytes(py, &blob))
    }

    /// Absorb a bytes-like object (any buffer). Not allowed after read().
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        absorb(py, &self.meta, &self.state, data)
    }

    /// The first `length` output bytes for everything absorbed so far (the
    /// object stays usable; independent of read()).
    fn digest<'py>(
        &self,
        py: Python<'py>,
        length: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let n = length_arg(length, "length")?;
        squeeze_new(py, finished(py, &self.state), n)
    }

    /// digest(length) as hexadecimal digits.
    fn hexdigest(&self, py: Python<'_>, length: &Bound<'_, PyAny>) -> PyResult<String> {
        let n = length_arg(length, "length")?;
        let mut out = out_vec(n)?;
        finished(py, &self.state).read(&mut out);
        hex(&out)
    }

    /// The next `n` bytes of the output stream: successive reads continue
    /// where the last one stopped (read(3) + read(5) == digest(8)). The
    /// stream starts at the first read; update() is refused after it.
    fn read<'py>(&self, py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let n = length_arg(n, "n")?;
        PyBytes::new_with(py, n, |out| {
            let fill = |s: &mut State, out: &mut [u8]| {
                if s.reader.is_none() {
                    s.reader = Some(s.core.clone().finalize_reader());
                }
                if let Some(r) = s.reader.as_mut() {
                    r.read(out);
                }
            };
            if n >= GIL_RELEASE_OUT {
                py.detach(|| fill(&mut lock(&self.state), out));
            } else {
                fill(&mut lock_py(py, &self.state), out);
            }
            Ok(())
        })
    }

    /// An independent copy (absorbing state and read position).
    fn copy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Xof>> {
        let s = lock_py(py, &self.state);
        let state = Mutex::new(State {
            core: s.core.clone(),
            reader: s.reader.clone(),
        });
        drop(s);
        Bound::new(
            py,
            Xof {
                meta: self.meta,
                state,
            },
        )
    }

    #[getter]
    fn name(&self) -> &'static str {
        self.meta.name
    }

    /// 0, as hashlib's SHAKE objects: the length is chosen per digest().
    #[getter]
    fn digest_size(&self) -> usize {
        0
    }

    /// The rate in bytes.
    #[getter]
    fn block_size(&self) -> usize {
        self.meta.block_size
    }

    fn __repr__(&self) -> String {
        format!("<keccakx.XOF {}>", self.meta.name)
    }
}

/// import_state(blob) -> hash object
/// --
///
/// A new hash (or XOF) object in the state `blob` holds, as written by
/// `export_state()` in this or another process (or by keccakx's Rust
/// library). ValueError for a blob that is not a keccakx state, of another
/// format version, or corrupted.
#[pyfunction]
pub fn import_state<'py>(py: Python<'py>, blob: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let (core, reader) = crate::state::import(blob)?;
    object_with_state(py, core, reader)
}
