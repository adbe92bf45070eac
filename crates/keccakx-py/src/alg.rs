//! Algorithm names and parameters: Python keywords in, a ready hasher out.
//!
//! The function table itself is `keccakx::registry` (one table for the CLI and
//! this module, tree LI included): names, whether a function is an XOF, its
//! rate and parameters all come from there.

use std::sync::OnceLock;

use keccakx::registry::{self, AlgorithmInfo, Field, Hasher, Param, Params};
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

    fn accepts(self, p: Param) -> bool {
        self.0.accepts(p)
    }
}

/// Keyword parameters as given from Python, before validation.
#[derive(Default, Clone, Debug)]
pub struct Req {
    pub digest_size: Option<usize>,
    pub custom: Option<Vec<u8>>,
    pub function_name: Option<Vec<u8>>,
    pub key: Option<Vec<u8>>,
    pub block_size: Option<usize>,
    pub domain: Option<u8>,
    pub rate: Option<usize>,
    pub capacity: Option<usize>,
    pub width: Option<usize>,
    pub rounds: Option<usize>,
    pub suffix: Option<u8>,
    pub degree: Option<usize>,
    pub height: Option<usize>,
    pub prefix: Option<Vec<u8>>,
}

/// A non-negative integer parameter no larger than `max`.
pub fn int_param(obj: Option<&Bound<'_, PyAny>>, what: &str, max: u64) -> PyResult<Option<u64>> {
    let Some(o) = obj else { return Ok(None) };
    if o.is_none() {
        return Ok(None);
    }
    if o.is_instance_of::<pyo3::types::PyBool>() || !o.is_instance_of::<pyo3::types::PyInt>() {
        let ty = o
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        return Err(PyTypeError::new_err(format!(
            "{what} must be an int, not '{ty}'"
        )));
    }
    let v: i128 = o
        .extract()
        .map_err(|_| PyValueError::new_err(format!("{what} is out of range (0..={max})")))?;
    if v < 0 || v > max as i128 {
        return Err(PyValueError::new_err(format!(
            "{what} must be in 0..={max}, got {v}"
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
            match key.as_str() {
                "digest_size" => {
                    r.digest_size = int_param(v, "digest_size", MAX_LEN)?.map(|x| x as usize)
                }
                "custom" => r.custom = bytes_param(v, "custom")?,
                "function_name" => r.function_name = bytes_param(v, "function_name")?,
                "key" => r.key = bytes_param(v, "key")?,
                "block_size" => {
                    r.block_size = int_param(v, "block_size", u32::MAX as u64)?.map(|x| x as usize)
                }
                "domain" => r.domain = int_param(v, "domain", 255)?.map(|x| x as u8),
                "rate" => r.rate = int_param(v, "rate (bits)", 1600)?.map(|x| x as usize),
                "capacity" => {
                    r.capacity = int_param(v, "capacity (bits)", 1600)?.map(|x| x as usize)
                }
                "width" => r.width = int_param(v, "width (bits)", 1600)?.map(|x| x as usize),
                "rounds" => r.rounds = int_param(v, "rounds", 1000)?.map(|x| x as usize),
                "suffix" => r.suffix = int_param(v, "suffix", 255)?.map(|x| x as u8),
                "degree" => r.degree = int_param(v, "degree", 1 << 16)?.map(|x| x as usize),
                "height" => r.height = int_param(v, "height", 1 << 16)?.map(|x| x as usize),
                "prefix" => r.prefix = bytes_param(v, "prefix")?,
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

    /// The keywords that were given, with the registry field each one
    /// sets (`digest_size`, the length, is checked apart).
    fn given(&self) -> Vec<(&'static str, Field)> {
        [
            ("custom", self.custom.is_some(), Field::Customization),
            (
                "function_name",
                self.function_name.is_some(),
                Field::FunctionName,
            ),
            ("key", self.key.is_some(), Field::Key),
            ("block_size", self.block_size.is_some(), Field::BlockSize),
            ("domain", self.domain.is_some(), Field::Domain),
            ("rate", self.rate.is_some(), Field::Rate),
            ("capacity", self.capacity.is_some(), Field::Capacity),
            ("width", self.width.is_some(), Field::Width),
            ("rounds", self.rounds.is_some(), Field::Rounds),
            ("suffix", self.suffix.is_some(), Field::Suffix),
            ("degree", self.degree.is_some(), Field::Degree),
            ("height", self.height.is_some(), Field::Height),
            ("prefix", self.prefix.is_some(), Field::Prefix),
        ]
        .into_iter()
        .filter(|(_, set, _)| *set)
        .map(|(name, _, f)| (name, f))
        .collect()
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

fn value_error(e: keccakx::Error) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// The registry's parameters for `req`; `out_len` is bound as the length
/// where the function binds it (KMAC, TupleHash, ParallelHash).
pub fn registry_params(alg: Alg, req: &Req, out_len: usize) -> Params {
    let binds = alg.0.variable_len && !alg.0.xof;
    Params {
        length: if binds { Some(out_len) } else { None },
        customization: req.custom.clone().unwrap_or_default(),
        function_name: req.function_name.clone().unwrap_or_default(),
        key: req.key.clone(),
        block_size: req.block_size,
        domain: req.domain,
        width: req.width,
        rate: req.rate,
        capacity: req.capacity,
        rounds: req.rounds,
        suffix: req.suffix,
        degree: req.degree,
        height: req.height,
        prefix: req.prefix.clone(),
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
    if alg.accepts(Param::Key) && req.key.is_none() {
        return Err(PyTypeError::new_err(format!(
            "{fname}() missing required argument 'key' (bytes-like)"
        )));
    }
    if info.accepts(Param::Sponge) && req.rate.is_none() && req.capacity.is_none() {
        return Err(PyValueError::new_err(
            "keccak() needs rate= and/or capacity= (in bits; width defaults to 1600)",
        ));
    }
    let simple = req.given().is_empty() && (req.digest_size.is_none() || xof || !info.variable_len);
    let core = match (simple, &tables().protos[index_of(info)]) {
        (true, Some(h)) => h.clone(),
        _ => {
            let params = registry_params(alg, req, out_len);
            Hasher::new(info.name, &params).map_err(value_error)?
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
