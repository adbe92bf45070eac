//! Algorithm names and parameters: Python keywords in, a ready hasher out.
//!
//! The function table itself is `keccakx::registry` (one table for the CLI and
//! this module, tree LI included): names, whether a function is an XOF, its
//! rate and parameters all come from there.

use std::sync::OnceLock;

use keccakx::registry::{self, AlgorithmInfo, Field, Hasher, Params};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::buffer::bytes_param;

/// One function of the family: its registry entry.
#[derive(Clone, Copy, Debug)]
pub struct Alg(pub &'static AlgorithmInfo);

/// Per-process tables derived from the registry once.
struct Tables {
    /// Python names, index-parallel to `registry::list()`.
    names: Vec<&'static str>,
    /// A fresh hasher with default parameters, where the function has one
    /// (not KMAC, which needs a key, nor raw Keccak, which needs a rate).
    protos: Vec<Option<Hasher>>,
}

fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let list = registry::list();
        let names = list
            .iter()
            .map(|a| &*Box::leak(python_name(a.name).into_boxed_str()))
            .collect();
        let protos = list
            .iter()
            .map(|a| Hasher::new(a.name, &Params::default()).ok())
            .collect();
        Tables { names, protos }
    })
}

/// hashlib's spelling for the FIPS 202 names (`sha3_256`, `shake_128`), the
/// registry's name with `_` for `-` otherwise (`keccak_256`, `kmac128`).
fn python_name(reg: &str) -> String {
    match reg {
        "shake128" => "shake_128".into(),
        "shake256" => "shake_256".into(),
        n => n.replace('-', "_"),
    }
}

fn index_of(info: &'static AlgorithmInfo) -> usize {
    registry::list()
        .iter()
        .position(|a| std::ptr::eq(a, info))
        .expect("info comes from the registry table")
}

/// Every name `new()` accepts, in the module's spelling.
pub fn all_names() -> Vec<&'static str> {
    tables().names.clone()
}

impl Alg {
    /// Look a name up the way `registry::find` does (case, `-` and `_`
    /// insensitive).
    pub fn find(name: &str) -> PyResult<Alg> {
        registry::find(name).map(Alg).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unsupported hash type {name:?} (see keccakx.algorithms_available)"
            ))
        })
    }

    /// The registry entry with this exact registry name (for constructors).
    pub fn reg(reg_name: &str) -> Alg {
        Alg(registry::find(reg_name).expect("constructor names are registry names"))
    }

    /// The registry entry.
    pub fn info(self) -> &'static AlgorithmInfo {
        self.0
    }

    pub fn py_name(self) -> &'static str {
        tables().names[index_of(self.0)]
    }

    /// Output of any length read with `digest(n)` / `read(n)` (hashlib's
    /// HASHXOF shape) rather than a digest size fixed at construction: the
    /// registry's `xof` (not KMAC, TupleHash, ParallelHash, which bind the
    /// output length L, nor the fixed-length functions).
    pub fn is_xof(self) -> bool {
        self.0.xof
    }

    /// The default output length in bytes (digest size, or what
    /// `hash_many` produces for an XOF when no length is given).
    pub fn default_len(self) -> usize {
        self.0.default_len
    }
}

/// How a keyword's value is read from Python, and where it goes in the
/// registry's parameters.
#[derive(Clone, Copy)]
enum Read {
    /// Any bytes-like object.
    Bytes(fn(&mut Params, Vec<u8>)),
    /// An int in `0..=max`; `what` names it in errors.
    Int {
        what: &'static str,
        min: u64,
        max: u64,
        store: fn(&mut Params, u64),
    },
}

/// A Python keyword that sets one field of the registry's [`Params`].
struct Keyword {
    name: &'static str,
    field: Field,
    read: Read,
}

/// Every keyword that sets a registry field (`digest_size`, the length, is
/// read apart: it is checked against the function's default). Which
/// function takes which keyword is the registry's ([`AlgorithmInfo::takes`]);
/// a new parameter is a [`Field`] there and a row here. `build` reports
/// the first keyword a function does not take in this order.
#[rustfmt::skip] // a table: one row per keyword
const KEYWORDS: [Keyword; 13] = [
    bytes("custom", Field::Customization, |p, v| p.customization = v),
    bytes("function_name", Field::FunctionName, |p, v| p.function_name = v),
    bytes("key", Field::Key, |p, v| p.key = Some(v)),
    // SP 800-185 takes any B > 0 that left_encode can write: up to
    // 2**64 - 1 here (usize::MAX; the CLI and keccakx.hazmat take the same).
    int_from("block_size", Field::BlockSize, "block_size", 1, usize::MAX as u64, |p, v| p.block_size = Some(v as usize)),
    int("domain", Field::Domain, "domain", 255, |p, v| p.domain = Some(v as u8)),
    int("rate", Field::Rate, "rate (bits)", 1600, |p, v| p.rate = Some(v as usize)),
    int("capacity", Field::Capacity, "capacity (bits)", 1600, |p, v| p.capacity = Some(v as usize)),
    int("width", Field::Width, "width (bits)", 1600, |p, v| p.width = Some(v as usize)),
    int("rounds", Field::Rounds, "rounds", 1000, |p, v| p.rounds = Some(v as usize)),
    int("suffix", Field::Suffix, "suffix", 255, |p, v| p.suffix = Some(v as u8)),
    int("degree", Field::Degree, "degree", 1 << 16, |p, v| p.degree = Some(v as usize)),
    int("height", Field::Height, "height", 1 << 16, |p, v| p.height = Some(v as usize)),
    bytes("prefix", Field::Prefix, |p, v| p.prefix = Some(v)),
];

/// A keyword whose value is any bytes-like object.
const fn bytes(name: &'static str, field: Field, store: fn(&mut Params, Vec<u8>)) -> Keyword {
    Keyword {
        name,
        field,
        read: Read::Bytes(store),
    }
}

/// A keyword whose value is an int in `0..=max`, named `what` in errors.
const fn int(
    name: &'static str,
    field: Field,
    what: &'static str,
    max: u64,
    store: fn(&mut Params, u64),
) -> Keyword {
    int_from(name, field, what, 0, max, store)
}

/// A keyword whose value is an int in `min..=max`.
const fn int_from(
    name: &'static str,
    field: Field,
    what: &'static str,
    min: u64,
    max: u64,
    store: fn(&mut Params, u64),
) -> Keyword {
    Keyword {
        name,
        field,
        read: Read::Int {
            what,
            min,
            max,
            store,
        },
    }
}

/// Every keyword that sets a registry field, with its field (for the
/// pure-Python package's checks: `_registry_keywords`).
pub fn keywords() -> impl Iterator<Item = (&'static str, Field)> {
    KEYWORDS.iter().map(|k| (k.name, k.field))
}

/// Keyword parameters as given from Python, read into the registry's
/// [`Params`] (the length is bound in [`registry_params`]).
#[derive(Default, Clone, Debug)]
pub struct Req {
    pub digest_size: Option<usize>,
    pub(crate) params: Params,
    /// The rows of [`KEYWORDS`] given (bit i: row i).
    given: u32,
}

/// An integer from Python: an int or any object with `__index__` (a NumPy
/// integer), as hashlib takes lengths; a bool is refused (True as a size
/// is a slip). Values beyond i128 are reported as out of range.
pub fn index_arg(o: &Bound<'_, PyAny>, what: &str) -> PyResult<i128> {
    let not_int = || {
        let ty = o
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        PyTypeError::new_err(format!("{what} must be an int, not '{ty}'"))
    };
    if o.is_instance_of::<pyo3::types::PyBool>() {
        return Err(not_int());
    }
    let i = if o.is_instance_of::<pyo3::types::PyInt>() {
        o.clone()
    } else {
        // SAFETY: `o` is a live object and we are attached; the result is
        // a new reference or NULL with an exception set.
        let r = unsafe { pyo3::ffi::PyNumber_Index(o.as_ptr()) };
        if r.is_null() {
            let err = PyErr::fetch(o.py());
            return Err(if err.is_instance_of::<PyTypeError>(o.py()) {
                not_int()
            } else {
                err
            });
        }
        // SAFETY: a new, owned reference.
        unsafe { Bound::from_owned_ptr(o.py(), r) }
    };
    i.extract::<i128>().or_else(|_| {
        let negative = i.lt(0i32).unwrap_or(false);
        Ok(if negative { i128::MIN } else { i128::MAX })
    })
}

/// A non-negative integer parameter no larger than `max`.
pub fn int_param(obj: Option<&Bound<'_, PyAny>>, what: &str, max: u64) -> PyResult<Option<u64>> {
    int_param_in(obj, what, 0, max)
}

/// An integer parameter in `min..=max` (int or `__index__`; None: not given).
pub fn int_param_in(
    obj: Option<&Bound<'_, PyAny>>,
    what: &str,
    min: u64,
    max: u64,
) -> PyResult<Option<u64>> {
    let Some(o) = obj else { return Ok(None) };
    if o.is_none() {
        return Ok(None);
    }
    let v = index_arg(o, what)?;
    if v < min as i128 || v > max as i128 {
        let got = if v == i128::MAX || v == i128::MIN {
            o.str().map(|s| s.to_string()).unwrap_or_default()
        } else {
            v.to_string()
        };
        return Err(PyValueError::new_err(format!(
            "{what} must be in {min}..={max}, got {got}"
        )));
    }
    Ok(Some(v as u64))
}

/// Largest output length accepted (bytes); allocation beyond the machine's
/// memory raises MemoryError before this bound matters.
pub const MAX_LEN: u64 = 1 << 48;

impl Req {
    /// Parse keyword arguments (`new(name, **params)`, `hash_many`,
    /// `file_digest`). Unknown keywords are a TypeError.
    pub fn from_kwargs(kwargs: Option<&Bound<'_, PyDict>>, fname: &str) -> PyResult<Req> {
        let mut r = Req::default();
        let Some(kw) = kwargs else { return Ok(r) };
        for (k, v) in kw.iter() {
            let key = k.cast::<PyString>()?.to_cow()?.into_owned();
            let v = Some(&v);
            if let Some(row) = KEYWORDS.iter().position(|k| k.name == key) {
                r.read(row, v, None)?;
                continue;
            }
            match key.as_str() {
                "digest_size" => {
                    r.digest_size = int_param(v, "digest_size", MAX_LEN)?.map(|x| x as usize)
                }
                // hashlib compatibility: accepted and ignored.
                "usedforsecurity" => {}
                other => {
                    return Err(PyTypeError::new_err(format!(
                        "{fname}() got an unexpected keyword argument '{other}'"
                    )))
                }
            }
        }
        Ok(r)
    }

    /// Read the value of the keyword for `f` (absent or None: not given),
    /// as `new(**params)` would.
    pub fn set(&mut self, f: Field, v: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        self.read(Self::row(f), v, None)
    }

    /// [`set`](Self::set) for an argument spelled `what` (cSHAKE's `name`).
    pub fn set_named(
        &mut self,
        f: Field,
        v: Option<&Bound<'_, PyAny>>,
        what: &str,
    ) -> PyResult<()> {
        self.read(Self::row(f), v, Some(what))
    }

    /// Set the bytes field `f` to `bytes` read already (KMAC's key).
    pub fn set_bytes(&mut self, f: Field, bytes: Vec<u8>) {
        let row = Self::row(f);
        if let Read::Bytes(store) = KEYWORDS[row].read {
            store(&mut self.params, bytes);
            self.given |= 1 << row;
        }
    }

    fn row(f: Field) -> usize {
        KEYWORDS
            .iter()
            .position(|k| k.field == f)
            .expect("every field but the length has a keyword")
    }

    fn read(
        &mut self,
        row: usize,
        v: Option<&Bound<'_, PyAny>>,
        what: Option<&str>,
    ) -> PyResult<()> {
        let k = &KEYWORDS[row];
        let set = match k.read {
            Read::Bytes(store) => bytes_param(v, what.unwrap_or(k.name))?
                .map(|b| store(&mut self.params, b))
                .is_some(),
            Read::Int {
                what: w,
                min,
                max,
                store,
            } => int_param_in(v, what.unwrap_or(w), min, max)?
                .map(|x| store(&mut self.params, x))
                .is_some(),
        };
        if set {
            self.given |= 1 << row;
        } else {
            self.given &= !(1 << row);
        }
        Ok(())
    }

    /// The keywords that were given, with the registry field each one
    /// sets (`digest_size`, the length, is checked apart).
    fn given(&self) -> impl Iterator<Item = (&'static str, Field)> + '_ {
        KEYWORDS
            .iter()
            .enumerate()
            .filter(|(i, _)| self.given & (1 << i) != 0)
            .map(|(_, k)| (k.name, k.field))
    }
}

/// A hasher of any function; `Clone` forks the state.
pub type Core = Hasher;

/// What a Python hash object reports about itself.
#[derive(Clone, Copy, Debug)]
pub struct Meta {
    pub name: &'static str,
    /// Output length in bytes (L-binding and fixed functions); 0 for XOFs,
    /// as hashlib's `shake_128().digest_size`.
    pub digest_size: usize,
    /// Rate in bytes (hashlib's `block_size`).
    pub block_size: usize,
    pub xof: bool,
}

/// The keyword that sets `f`: how Python spells a library field.
fn keyword(f: Field) -> String {
    KEYWORDS
        .iter()
        .find(|k| k.field == f)
        .map_or("digest_size", |k| k.name)
        .into()
}

/// A registry error in Python's words: a missing key is a missing
/// argument (TypeError, as for any required argument), the rest a
/// ValueError naming the keywords.
fn registry_error(fname: &str, e: keccakx::Error) -> PyErr {
    match e {
        keccakx::Error::Missing { fields, .. } if fields == [Field::Key] => PyTypeError::new_err(
            format!("{fname}() missing required argument 'key' (bytes-like)"),
        ),
        e => PyValueError::new_err(e.spelled(&keyword)),
    }
}

/// The registry's parameters for `req`; `out_len` is bound as the length
/// where the function binds it (KMAC, TupleHash, ParallelHash).
pub fn registry_params(alg: Alg, req: &Req, out_len: usize) -> Params {
    let binds = alg.0.variable_len && !alg.0.xof;
    Params {
        length: if binds { Some(out_len) } else { None },
        ..req.params.clone()
    }
}

/// Build a hasher for `alg` with `req`. `object`: for a hash object (an
/// XOF then takes no digest_size); otherwise for batch/file use, where an
/// XOF's digest_size is the number of bytes to produce.
pub fn build(alg: Alg, req: &Req, object: bool) -> PyResult<(Meta, Core)> {
    let fname = alg.py_name();
    let xof = alg.is_xof();
    for (pname, f) in req.given() {
        if !alg.0.takes(f) {
            return Err(PyTypeError::new_err(format!(
                "{fname}() got an unexpected keyword argument '{pname}'"
            )));
        }
    }
    let out_len = match req.digest_size {
        Some(n) if xof && object => {
            return Err(PyTypeError::new_err(format!(
                "{fname} is an extendable-output function: give the length to digest(length), \
                 hexdigest(length) or read(n), not digest_size={n}"
            )))
        }
        Some(n) if !alg.0.variable_len && n != alg.default_len() => {
            return Err(PyValueError::new_err(format!(
                "{fname} has a fixed digest size of {} bytes, not {n}",
                alg.default_len()
            )))
        }
        Some(n) => n,
        None => alg.default_len(),
    };
    let info = alg.0;
    let simple = req.given == 0 && (req.digest_size.is_none() || xof || !info.variable_len);
    let core = match (simple, &tables().protos[index_of(info)]) {
        (true, Some(h)) => h.clone(),
        _ => {
            let params = registry_params(alg, req, out_len);
            Hasher::new(info.name, &params).map_err(|e| registry_error(fname, e))?
        }
    };
    let meta = Meta {
        name: fname,
        digest_size: if xof { 0 } else { out_len },
        block_size: core.rate_bytes(),
        xof,
    };
    Ok((meta, core))
}
