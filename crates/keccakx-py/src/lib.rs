//! `keccakx._keccakx`: the native part of the Python module `keccakx`.
//!
//! hashlib-shaped objects over `keccakx::registry::Hasher` (tree LI included),
//! zero-copy input through the buffer protocol, the GIL released while
//! hashing large inputs, and batch hashing of many messages at once. The
//! pure-Python package (`python/keccakx/__init__.py`) re-exports these and
//! adds `file_digest`, NumPy handling and the GPU/device-array checks.

use std::sync::{Mutex, MutexGuard};

use keccakx::registry::Field;
use keccakx::sponge::XofReader;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};

mod alg;
mod batch;
mod buffer;
mod gil;
mod gpu;
mod hazmat;

use alg::{build, int_param, Alg, Core, Meta, Req, MAX_LEN};
use buffer::Input;
use gil::{GIL_RELEASE_MIN, GIL_RELEASE_OUT};

struct State {
    core: Core,
    /// The output stream of `read(n)`, started at the first read.
    reader: Option<XofReader>,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// Absorb `data` (any buffer) into the state; big inputs without the GIL.
fn absorb(
    py: Python<'_>,
    meta: &Meta,
    state: &Mutex<State>,
    data: &Bound<'_, PyAny>,
) -> PyResult<()> {
    let input = Input::new(data, "update()")?;
    let bytes = input.as_slice();
    let go = |s: &mut State| -> Result<(), &'static str> {
        if s.reader.is_some() {
            return Err("update() after read(): the output stream has started; \
                        use copy() before reading to keep absorbing");
        }
        s.core.update(bytes);
        Ok(())
    };
    let r = if bytes.len() >= GIL_RELEASE_MIN {
        py.detach(|| go(&mut lock(state)))
    } else {
        go(&mut lock(state))
    };
    r.map_err(|m| PyValueError::new_err(format!("{}: {m}", meta.name)))
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

fn finished(state: &Mutex<State>) -> XofReader {
    let core = lock(state).core.clone();
    core.finalize_reader()
}

fn length_arg(length: &Bound<'_, PyAny>, what: &str) -> PyResult<usize> {
    if !length.is_instance_of::<pyo3::types::PyInt>()
        || length.is_instance_of::<pyo3::types::PyBool>()
    {
        let ty = length
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, not '{ty}'"
        )));
    }
    let v: i128 = length
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{what} is too large")))?;
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

/// Construct, then absorb the initial data (if any).
fn construct<'py>(
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
fn construct_plain<'py>(
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
    /// Absorb a bytes-like object (any buffer: bytes, bytearray, memoryview,
    /// NumPy array, mmap). For TupleHash, each call is one tuple element.
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        absorb(py, &self.meta, &self.state, data)
    }

    /// The digest of everything absorbed so far (the object stays usable).
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        squeeze_new(py, finished(&self.state), self.meta.digest_size)
    }

    /// The digest as a string of hexadecimal digits.
    fn hexdigest(&self) -> PyResult<String> {
        let mut out = out_vec(self.meta.digest_size)?;
        finished(&self.state).read(&mut out);
        hex(&out)
    }

    /// An independent copy of the current state.
    fn copy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Hash>> {
        let s = lock(&self.state);
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
    fn verify(&self, tag: &Bound<'_, PyAny>) -> PyResult<bool> {
        let tag = Input::new(tag, "verify()")?;
        let mut out = out_vec(self.meta.digest_size)?;
        finished(&self.state).read(&mut out);
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
        squeeze_new(py, finished(&self.state), n)
    }

    /// digest(length) as hexadecimal digits.
    fn hexdigest(&self, length: &Bound<'_, PyAny>) -> PyResult<String> {
        let n = length_arg(length, "length")?;
        let mut out = out_vec(n)?;
        finished(&self.state).read(&mut out);
        hex(&out)
    }

    /// The next `n` bytes of the output stream: successive reads continue
    /// where the last one stopped (read(3) + read(5) == digest(8)). The
    /// stream starts at the first read; update() is refused after it.
    fn read<'py>(&self, py: Python<'py>, n: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let n = length_arg(n, "n")?;
        PyBytes::new_with(py, n, |out| {
            let fill = |out: &mut [u8]| {
                let mut s = lock(&self.state);
                if s.reader.is_none() {
                    s.reader = Some(s.core.clone().finalize_reader());
                }
                if let Some(r) = s.reader.as_mut() {
                    r.read(out);
                }
            };
            if n >= GIL_RELEASE_OUT {
                py.detach(|| fill(out));
            } else {
                fill(out);
            }
            Ok(())
        })
    }

    /// An independent copy (absorbing state and read position).
    fn copy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, Xof>> {
        let s = lock(&self.state);
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

macro_rules! plain_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (data=None, *, usedforsecurity=true))]
        fn $fname<'py>(
            py: Python<'py>,
            data: Option<&Bound<'py, PyAny>>,
            usedforsecurity: bool,
        ) -> PyResult<Bound<'py, PyAny>> {
            let _ = usedforsecurity; // hashlib compatibility
            static CACHE: std::sync::OnceLock<(Meta, Core)> = std::sync::OnceLock::new();
            construct_plain(py, &CACHE, $reg, data)
        }
    };
}

plain_ctor!(
    sha3_224,
    "sha3-224",
    "SHA3-224 (FIPS 202): `sha3_224(data=b'')`."
);
plain_ctor!(
    sha3_256,
    "sha3-256",
    "SHA3-256 (FIPS 202): `sha3_256(data=b'')`."
);
plain_ctor!(
    sha3_384,
    "sha3-384",
    "SHA3-384 (FIPS 202): `sha3_384(data=b'')`."
);
plain_ctor!(
    sha3_512,
    "sha3-512",
    "SHA3-512 (FIPS 202): `sha3_512(data=b'')`."
);
plain_ctor!(
    shake_128,
    "shake128",
    "SHAKE128 (FIPS 202), an XOF: `shake_128(data).digest(n)`."
);
plain_ctor!(
    shake_256,
    "shake256",
    "SHAKE256 (FIPS 202), an XOF: `shake_256(data).digest(n)`."
);
plain_ctor!(
    keccak_224,
    "keccak-224",
    "Keccak-224 of the original submission (pad 0x01)."
);
plain_ctor!(
    keccak_256,
    "keccak-256",
    "Keccak-256 of the original submission (pad 0x01; Ethereum's)."
);
plain_ctor!(
    keccak_384,
    "keccak-384",
    "Keccak-384 of the original submission (pad 0x01)."
);
plain_ctor!(
    keccak_512,
    "keccak-512",
    "Keccak-512 of the original submission (pad 0x01)."
);

fn req_with(
    custom: Option<&Bound<'_, PyAny>>,
    digest_size: Option<&Bound<'_, PyAny>>,
) -> PyResult<Req> {
    let mut req = Req::default();
    req.set(Field::Customization, custom)?;
    req.digest_size = int_param(digest_size, "digest_size", MAX_LEN)?.map(|x| x as usize);
    Ok(req)
}

macro_rules! cshake_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (data=None, name=None, custom=None))]
        fn $fname<'py>(
            py: Python<'py>,
            data: Option<&Bound<'py, PyAny>>,
            name: Option<&Bound<'py, PyAny>>,
            custom: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let mut req = req_with(custom, None)?;
            req.set_named(Field::FunctionName, name, "name")?;
            construct(py, Alg::reg($reg), &req, data)
        }
    };
}

cshake_ctor!(cshake128, "cshake128", "cSHAKE128 (SP 800-185), an XOF: `cshake128(data=b'', name=b'', custom=b'')`; `name` is the function name N, `custom` the customization S.");
cshake_ctor!(
    cshake256,
    "cshake256",
    "cSHAKE256 (SP 800-185), an XOF: `cshake256(data=b'', name=b'', custom=b'')`."
);

macro_rules! kmac_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (key, data=None, custom=None, digest_size=None))]
        fn $fname<'py>(
            py: Python<'py>,
            key: &Bound<'py, PyAny>,
            data: Option<&Bound<'py, PyAny>>,
            custom: Option<&Bound<'py, PyAny>>,
            digest_size: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let mut req = req_with(custom, digest_size)?;
            req.set_bytes(Field::Key, Input::new(key, "key")?.as_slice().to_vec());
            construct(py, Alg::reg($reg), &req, data)
        }
    };
}

kmac_ctor!(kmac128, "kmac128",
    "KMAC128 (SP 800-185): `kmac128(key, data=b'', custom=b'', digest_size=32)`; the digest size is bound into the MAC. `verify(tag)` compares in constant time.");
kmac_ctor!(
    kmac256,
    "kmac256",
    "KMAC256 (SP 800-185): `kmac256(key, data=b'', custom=b'', digest_size=64)`."
);
macro_rules! kmacxof_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (key, data=None, custom=None))]
        fn $fname<'py>(
            py: Python<'py>,
            key: &Bound<'py, PyAny>,
            data: Option<&Bound<'py, PyAny>>,
            custom: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let mut req = req_with(custom, None)?;
            req.set_bytes(Field::Key, Input::new(key, "key")?.as_slice().to_vec());
            construct(py, Alg::reg($reg), &req, data)
        }
    };
}

kmacxof_ctor!(
    kmacxof128,
    "kmacxof128",
    "KMACXOF128 (SP 800-185), an XOF: `kmacxof128(key, data=b'', custom=b'').digest(n)`."
);
kmacxof_ctor!(
    kmacxof256,
    "kmacxof256",
    "KMACXOF256 (SP 800-185), an XOF: `kmacxof256(key, data=b'', custom=b'').digest(n)`."
);

macro_rules! tuple_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (elements=None, custom=None, digest_size=None))]
        fn $fname<'py>(
            py: Python<'py>,
            elements: Option<&Bound<'py, PyAny>>,
            custom: Option<&Bound<'py, PyAny>>,
            digest_size: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let req = req_with(custom, digest_size)?;
            let obj = construct(py, Alg::reg($reg), &req, None)?;
            push_elements(&obj, elements)?;
            Ok(obj)
        }
    };
}

/// TupleHash: every element of the iterable is one tuple element.
fn push_elements(obj: &Bound<'_, PyAny>, elements: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    let Some(els) = elements else { return Ok(()) };
    if els.is_none() {
        return Ok(());
    }
    if els.is_instance_of::<PyBytes>()
        || els.is_instance_of::<PyByteArray>()
        || els.is_instance_of::<PyString>()
    {
        return Err(PyTypeError::new_err(
            "elements must be an iterable of bytes-like objects (one per tuple element), \
             not a single bytes/str object; e.g. tuplehash128([b'a', b'bc'])",
        ));
    }
    for e in els.try_iter()? {
        obj.call_method1(pyo3::intern!(obj.py(), "update"), (e?,))?;
    }
    Ok(())
}

tuple_ctor!(tuplehash128, "tuplehash128",
    "TupleHash128 (SP 800-185): `tuplehash128(elements=(), custom=b'', digest_size=32)`. Each item of `elements`, and each later update(x) call, is one tuple element: update(b'ab'); update(b'c') hashes the tuple (b'ab', b'c'), not b'abc'.");
tuple_ctor!(tuplehash256, "tuplehash256",
    "TupleHash256 (SP 800-185): `tuplehash256(elements=(), custom=b'', digest_size=64)`; each update() call is one tuple element.");

macro_rules! tuplexof_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (elements=None, custom=None))]
        fn $fname<'py>(
            py: Python<'py>,
            elements: Option<&Bound<'py, PyAny>>,
            custom: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let req = req_with(custom, None)?;
            let obj = construct(py, Alg::reg($reg), &req, None)?;
            push_elements(&obj, elements)?;
            Ok(obj)
        }
    };
}

tuplexof_ctor!(
    tuplehashxof128,
    "tuplehashxof128",
    "TupleHashXOF128 (SP 800-185), an XOF; each update() call is one tuple element."
);
tuplexof_ctor!(
    tuplehashxof256,
    "tuplehashxof256",
    "TupleHashXOF256 (SP 800-185), an XOF; each update() call is one tuple element."
);

macro_rules! parallel_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (data=None, block_size=None, custom=None, digest_size=None))]
        fn $fname<'py>(
            py: Python<'py>,
            data: Option<&Bound<'py, PyAny>>,
            block_size: Option<&Bound<'py, PyAny>>,
            custom: Option<&Bound<'py, PyAny>>,
            digest_size: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let mut req = req_with(custom, digest_size)?;
            req.set(Field::BlockSize, block_size)?;
            construct(py, Alg::reg($reg), &req, data)
        }
    };
}

parallel_ctor!(parallelhash128, "parallelhash128",
    "ParallelHash128 (SP 800-185): `parallelhash128(data=b'', block_size=8192, custom=b'', digest_size=32)`; block_size is B in bytes.");
parallel_ctor!(parallelhash256, "parallelhash256",
    "ParallelHash256 (SP 800-185): `parallelhash256(data=b'', block_size=8192, custom=b'', digest_size=64)`.");
macro_rules! parallelxof_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (data=None, block_size=None, custom=None))]
        fn $fname<'py>(
            py: Python<'py>,
            data: Option<&Bound<'py, PyAny>>,
            block_size: Option<&Bound<'py, PyAny>>,
            custom: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let mut req = req_with(custom, None)?;
            req.set(Field::BlockSize, block_size)?;
            construct(py, Alg::reg($reg), &req, data)
        }
    };
}

parallelxof_ctor!(parallelhashxof128, "parallelhashxof128",
    "ParallelHashXOF128 (SP 800-185), an XOF: `parallelhashxof128(data=b'', block_size=8192, custom=b'')`.");
parallelxof_ctor!(parallelhashxof256, "parallelhashxof256",
    "ParallelHashXOF256 (SP 800-185), an XOF: `parallelhashxof256(data=b'', block_size=8192, custom=b'')`.");

macro_rules! turbo_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (data=None, domain=None))]
        fn $fname<'py>(
            py: Python<'py>,
            data: Option<&Bound<'py, PyAny>>,
            domain: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            let mut req = Req::default();
            req.set(Field::Domain, domain)?;
            construct(py, Alg::reg($reg), &req, data)
        }
    };
}

turbo_ctor!(turboshake128, "turboshake128", "TurboSHAKE128 (RFC 9861), an XOF: `turboshake128(data=b'', domain=0x1F)`, domain in 0x01..0x7F.");
turbo_ctor!(
    turboshake256,
    "turboshake256",
    "TurboSHAKE256 (RFC 9861), an XOF: `turboshake256(data=b'', domain=0x1F)`."
);

macro_rules! kt_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (data=None, custom=None))]
        fn $fname<'py>(
            py: Python<'py>,
            data: Option<&Bound<'py, PyAny>>,
            custom: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            construct(py, Alg::reg($reg), &req_with(custom, None)?, data)
        }
    };
}

kt_ctor!(
    kt128,
    "kt128",
    "KT128 (KangarooTwelve, RFC 9861), an XOF: `kt128(data=b'', custom=b'')`."
);
kt_ctor!(
    kt256,
    "kt256",
    "KT256 (RFC 9861), an XOF: `kt256(data=b'', custom=b'')`."
);

/// Raw Keccak[r, c] sponge, an XOF: `keccak(data=b'', *, rate=None,
/// capacity=None, width=1600, rounds=None, suffix=0x01)`. `rate`,
/// `capacity`, `width` in bits (r + c = width in {25, 50, ..., 1600});
/// `rounds` default 12 + 2*log2(width/25); `suffix` is the delimited suffix
/// byte (0x01 none, 0x06 SHA-3, 0x1F SHAKE).
#[pyfunction]
#[pyo3(signature = (data=None, *, rate=None, capacity=None, width=None, rounds=None, suffix=None))]
#[allow(clippy::too_many_arguments)]
fn keccak<'py>(
    py: Python<'py>,
    data: Option<&Bound<'py, PyAny>>,
    rate: Option<&Bound<'py, PyAny>>,
    capacity: Option<&Bound<'py, PyAny>>,
    width: Option<&Bound<'py, PyAny>>,
    rounds: Option<&Bound<'py, PyAny>>,
    suffix: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut req = Req::default();
    req.set(Field::Rate, rate)?;
    req.set(Field::Capacity, capacity)?;
    req.set(Field::Width, width)?;
    req.set(Field::Rounds, rounds)?;
    req.set(Field::Suffix, suffix)?;
    construct(py, Alg::reg("keccak"), &req, data)
}

/// Tree mode LI (docs/tree-li.md), an XOF: `tree_li(data=b'', *, degree=4,
/// height=4, block_size=None, rate=1088, capacity=512, prefix=b'')`.
/// Leaf block size B defaults to one rate block; rate + capacity = 1600.
#[pyfunction]
#[pyo3(signature = (data=None, *, degree=None, height=None, block_size=None, rate=None, capacity=None, prefix=None))]
#[allow(clippy::too_many_arguments)]
fn tree_li<'py>(
    py: Python<'py>,
    data: Option<&Bound<'py, PyAny>>,
    degree: Option<&Bound<'py, PyAny>>,
    height: Option<&Bound<'py, PyAny>>,
    block_size: Option<&Bound<'py, PyAny>>,
    rate: Option<&Bound<'py, PyAny>>,
    capacity: Option<&Bound<'py, PyAny>>,
    prefix: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let mut req = Req::default();
    req.set(Field::Degree, degree)?;
    req.set(Field::Height, height)?;
    req.set(Field::BlockSize, block_size)?;
    req.set(Field::Rate, rate)?;
    req.set(Field::Capacity, capacity)?;
    req.set(Field::Prefix, prefix)?;
    construct(py, Alg::reg("tree-li"), &req, data)
}

/// `new(name, data=None, **params)`: a hash object for any function by name
/// (case-insensitive, `-`/`_` optional: "SHA3-256", "sha3_256", "kt128").
/// Parameters: digest_size, custom, function_name, key, block_size, domain,
/// rate, capacity, width, rounds, suffix, degree, height, prefix, elements
/// (TupleHash) — each only where the function takes it.
#[pyfunction]
#[pyo3(signature = (name, data=None, **params))]
fn new<'py>(
    py: Python<'py>,
    name: &Bound<'py, PyAny>,
    data: Option<&Bound<'py, PyAny>>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyAny>> {
    let name: String = name
        .cast::<PyString>()
        .map_err(|_| PyTypeError::new_err("new(): name must be a str"))?
        .to_cow()?
        .into_owned();
    let alg = Alg::find(&name)?;
    let mut elements = None;
    let params = match params {
        Some(p) if p.contains("elements")? => {
            let p = p.copy()?;
            elements = p.get_item("elements")?;
            p.del_item("elements")?;
            Some(p)
        }
        Some(p) => Some(p.clone()),
        None => None,
    };
    let req = Req::from_kwargs(params.as_ref(), alg.py_name())?;
    let obj = construct(py, alg, &req, data)?;
    if let Some(e) = elements {
        if !alg.py_name().starts_with("tuplehash") {
            return Err(PyTypeError::new_err(format!(
                "{}() got an unexpected keyword argument 'elements'",
                alg.py_name()
            )));
        }
        push_elements(&obj, Some(&e))?;
    }
    Ok(obj)
}

/// Names for `algorithms_available`, in registry order.
#[pyfunction]
fn _algorithm_names() -> Vec<&'static str> {
    alg::all_names()
}

/// Whether a name is an XOF and its default length: (is_xof, default_len,
/// canonical Python name).
#[pyfunction]
fn _algorithm_info(name: &str) -> PyResult<(bool, usize, &'static str)> {
    let a = Alg::find(name)?;
    Ok((a.is_xof(), a.default_len(), a.py_name()))
}

/// The CPU engine keccakx selected (scalar, or a SIMD engine when built in).
#[pyfunction]
fn engine() -> &'static str {
    keccakx::engine::current().name()
}

/// Limit the threads batch hashing may use (0 = all cores, the default).
#[pyfunction]
fn set_threads(n: usize) {
    keccakx::engine::set_threads(n)
}

/// Force the CPU engine for this process: "auto", "avx512", "avx2",
/// "sse2" or "scalar" (what `KECCAKX_ENGINE` and `keccakx --engine`
/// take). ValueError for a name keccakx does not know or an engine this
/// CPU does not run.
#[pyfunction]
fn set_engine(name: &str) -> PyResult<()> {
    keccakx::engine::set_engine(name)
        .map(|_| ())
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("engine {name:?}: {e}")))
}

/// A RuntimeWarning when `KECCAKX_ENGINE` names no engine, or one this CPU
/// does not run (the hashing then uses auto, as the CLI says too).
fn warn_about_engine_variable(py: Python<'_>) -> PyResult<()> {
    if let Err(msg) = keccakx::engine::engine_from_env() {
        let msg = std::ffi::CString::new(format!("{msg}; using auto"))
            .unwrap_or_else(|_| c"KECCAKX_ENGINE: unusable value; using auto".to_owned());
        let category = py.get_type::<pyo3::exceptions::PyRuntimeWarning>();
        PyErr::warn(py, category.as_any(), &msg, 1)?;
    }
    Ok(())
}

#[pymodule]
fn _keccakx(m: &Bound<'_, PyModule>) -> PyResult<()> {
    warn_about_engine_variable(m.py())?;
    m.add_class::<Hash>()?;
    m.add_class::<Xof>()?;
    m.add_function(wrap_pyfunction!(sha3_224, m)?)?;
    m.add_function(wrap_pyfunction!(sha3_256, m)?)?;
    m.add_function(wrap_pyfunction!(sha3_384, m)?)?;
    m.add_function(wrap_pyfunction!(sha3_512, m)?)?;
    m.add_function(wrap_pyfunction!(shake_128, m)?)?;
    m.add_function(wrap_pyfunction!(shake_256, m)?)?;
    m.add_function(wrap_pyfunction!(keccak_224, m)?)?;
    m.add_function(wrap_pyfunction!(keccak_256, m)?)?;
    m.add_function(wrap_pyfunction!(keccak_384, m)?)?;
    m.add_function(wrap_pyfunction!(keccak_512, m)?)?;
    m.add_function(wrap_pyfunction!(cshake128, m)?)?;
    m.add_function(wrap_pyfunction!(cshake256, m)?)?;
    m.add_function(wrap_pyfunction!(kmac128, m)?)?;
    m.add_function(wrap_pyfunction!(kmac256, m)?)?;
    m.add_function(wrap_pyfunction!(kmacxof128, m)?)?;
    m.add_function(wrap_pyfunction!(kmacxof256, m)?)?;
    m.add_function(wrap_pyfunction!(tuplehash128, m)?)?;
    m.add_function(wrap_pyfunction!(tuplehash256, m)?)?;
    m.add_function(wrap_pyfunction!(tuplehashxof128, m)?)?;
    m.add_function(wrap_pyfunction!(tuplehashxof256, m)?)?;
    m.add_function(wrap_pyfunction!(parallelhash128, m)?)?;
    m.add_function(wrap_pyfunction!(parallelhash256, m)?)?;
    m.add_function(wrap_pyfunction!(parallelhashxof128, m)?)?;
    m.add_function(wrap_pyfunction!(parallelhashxof256, m)?)?;
    m.add_function(wrap_pyfunction!(turboshake128, m)?)?;
    m.add_function(wrap_pyfunction!(turboshake256, m)?)?;
    m.add_function(wrap_pyfunction!(kt128, m)?)?;
    m.add_function(wrap_pyfunction!(kt256, m)?)?;
    m.add_function(wrap_pyfunction!(keccak, m)?)?;
    m.add_function(wrap_pyfunction!(tree_li, m)?)?;
    m.add_function(wrap_pyfunction!(new, m)?)?;
    m.add_function(wrap_pyfunction!(_algorithm_names, m)?)?;
    m.add_function(wrap_pyfunction!(_algorithm_info, m)?)?;
    m.add_function(wrap_pyfunction!(engine, m)?)?;
    m.add_function(wrap_pyfunction!(set_threads, m)?)?;
    m.add_function(wrap_pyfunction!(set_engine, m)?)?;
    m.add_function(wrap_pyfunction!(gpu::_gpu_status, m)?)?;
    m.add_function(wrap_pyfunction!(gpu::_gpu_hash_many_raw, m)?)?;
    m.add_function(wrap_pyfunction!(gpu::_batch_out_len, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_hash_many_list, m)?)?;
    m.add_function(wrap_pyfunction!(batch::_hash_many_rows, m)?)?;
    m.add("GIL_RELEASE_MIN", GIL_RELEASE_MIN)?;
    hazmat::register(m)?;
    Ok(())
}
