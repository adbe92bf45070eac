//! The module's constructors: one per function (`sha3_256`, `kmac128`,
//! `keccak`, `tree_li`, ...) and `new(name, **params)`, each reading its
//! arguments into a [`Req`] and building a hash object.

use keccakx::registry::Field;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};

use crate::alg::{self, int_param, Alg, Core, Meta, Req, MAX_LEN};
use crate::buffer::Input;
use crate::objects::{construct, construct_plain};

macro_rules! plain_ctor {
    ($fname:ident, $reg:literal, $doc:literal) => {
        #[doc = $doc]
        #[pyfunction]
        #[pyo3(signature = (data=None, *, usedforsecurity=None))]
        pub(crate) fn $fname<'py>(
            py: Python<'py>,
            data: Option<&Bound<'py, PyAny>>,
            usedforsecurity: Option<&Bound<'py, PyAny>>,
        ) -> PyResult<Bound<'py, PyAny>> {
            // hashlib compatibility: any object, ignored (hashlib only
            // takes its truth value).
            let _ = usedforsecurity;
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
        pub(crate) fn $fname<'py>(
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
        pub(crate) fn $fname<'py>(
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
        pub(crate) fn $fname<'py>(
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
        pub(crate) fn $fname<'py>(
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
        pub(crate) fn $fname<'py>(
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
        pub(crate) fn $fname<'py>(
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
        pub(crate) fn $fname<'py>(
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
        pub(crate) fn $fname<'py>(
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
        pub(crate) fn $fname<'py>(
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
pub(crate) fn keccak<'py>(
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
pub(crate) fn tree_li<'py>(
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
pub(crate) fn new<'py>(
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
pub(crate) fn _algorithm_names() -> Vec<&'static str> {
    alg::all_names()
}

/// Whether a name is an XOF and its default length: (is_xof, default_len,
/// canonical Python name).
#[pyfunction]
pub(crate) fn _algorithm_info(name: &str) -> PyResult<(bool, usize, &'static str)> {
    let a = Alg::find(name)?;
    Ok((a.is_xof(), a.default_len(), a.py_name()))
}
