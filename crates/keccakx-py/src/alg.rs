//! Algorithm names and parameters: Python keywords in, a ready hasher out.
//!
//! The function table itself is `keccakx::registry` (one table for the CLI and
//! this module); tree LI, which the registry does not list, is added here.

use std::sync::OnceLock;

use keccakx::registry::{self, AlgorithmInfo, Hasher, Param, Params};
use keccakx::sponge::XofReader;
use keccakx::tree_li::{TreeLi, TreeLiParams};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use crate::buffer::bytes_param;

/// Name of tree LI in this module (not in the registry).
pub const TREE_LI: &str = "tree_li";

/// One function of the family.
#[derive(Clone, Copy, Debug)]
pub enum Alg {
    Reg(&'static AlgorithmInfo),
    TreeLi,
}

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
    let mut v = tables().names.clone();
    v.push(TREE_LI);
    v
}

impl Alg {
    /// Look a name up the way `registry::find` does (case, `-` and `_`
    /// insensitive), plus `tree_li`.
    pub fn find(name: &str) -> PyResult<Alg> {
        let squashed: String = name
            .chars()
            .filter(|c| *c != '-' && *c != '_')
            .collect::<String>()
            .to_ascii_lowercase();
        if squashed == "treeli" {
            return Ok(Alg::TreeLi);
        }
        registry::find(name).map(Alg::Reg).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unsupported hash type {name:?} (see keccakx.algorithms_available)"
            ))
        })
    }

    /// The registry entry with this exact registry name (for constructors).
    pub fn reg(reg_name: &str) -> Alg {
        Alg::Reg(registry::find(reg_name).expect("constructor names are registry names"))
    }

    pub fn py_name(self) -> &'static str {
        match self {
            Alg::Reg(info) => tables().names[index_of(info)],
            Alg::TreeLi => TREE_LI,
        }
    }

    /// Output of any length read with `digest(n)` / `read(n)` (hashlib's
    /// HASHXOF shape) rather than a digest size fixed at construction.
    pub fn is_xof(self) -> bool {
        match self {
            Alg::TreeLi => true,
            Alg::Reg(info) => {
                // SP 800-185's KMAC, TupleHash and ParallelHash bind the output
                // length L into the result: fixed at construction. Their XOF
                // variants (L = 0) and every other variable-length function
                // are XOFs.
                let binds_l = ["kmac", "tuplehash", "parallelhash"]
                    .iter()
                    .any(|p| info.name.starts_with(p) && !info.name.contains("xof"));
                info.variable_len && !binds_l
            }
        }
    }

    /// The default output length in bytes (digest size, or what
    /// `hash_many` produces for an XOF when no length is given).
    pub fn default_len(self) -> usize {
        match self {
            Alg::Reg(info) => info.default_len,
            Alg::TreeLi => 32,
        }
    }

    fn accepts(self, p: Param) -> bool {
        match self {
            Alg::Reg(info) => info.params.contains(&p),
            Alg::TreeLi => false,
        }
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

    /// Names of the parameters that were given.
    fn given(&self) -> Vec<(&'static str, Option<Param>)> {
        let mut v = Vec::new();
        let mut push = |set: bool, name: &'static str, p: Option<Param>| {
            if set {
                v.push((name, p));
            }
        };
        push(self.custom.is_some(), "custom", Some(Param::Customization));
        push(
            self.function_name.is_some(),
            "function_name",
            Some(Param::FunctionName),
        );
        push(self.key.is_some(), "key", Some(Param::Key));
        push(
            self.block_size.is_some(),
            "block_size",
            Some(Param::BlockSize),
        );
        push(self.domain.is_some(), "domain", Some(Param::Domain));
        push(self.rate.is_some(), "rate", Some(Param::Sponge));
        push(self.capacity.is_some(), "capacity", Some(Param::Sponge));
        push(self.width.is_some(), "width", Some(Param::Sponge));
        push(self.rounds.is_some(), "rounds", Some(Param::Sponge));
        push(self.suffix.is_some(), "suffix", Some(Param::Sponge));
        push(self.degree.is_some(), "degree", None);
        push(self.height.is_some(), "height", None);
        push(self.prefix.is_some(), "prefix", None);
        v
    }
}

/// A hasher of either kind; `Clone` forks the state.
// Both variants are a few hundred bytes; boxing would add an allocation to
// every hash object.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum Core {
    Reg(Hasher),
    Tree(TreeLi),
}

impl Core {
    #[inline]
    pub fn update(&mut self, data: &[u8]) {
        match self {
            Core::Reg(h) => h.update(data),
            Core::Tree(t) => t.update(data),
        }
    }

    #[inline]
    pub fn finalize_reader(self) -> XofReader {
        match self {
            Core::Reg(h) => h.finalize_reader(),
            Core::Tree(t) => t.finalize_xof(),
        }
    }
}

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

/// Rate in bytes: for the standard functions 200 - n/4 bytes with n the
/// number in the name (SHA3-256 and the *256 functions 136, *128 168).
fn rate_bytes(alg: Alg, req: &Req) -> usize {
    match alg {
        Alg::TreeLi => match (req.rate, req.capacity) {
            (Some(r), _) => r / 8,
            (None, Some(c)) => 1600usize.saturating_sub(c) / 8,
            (None, None) => TreeLiParams::default().rate_bytes(),
        },
        Alg::Reg(info) if info.name == "keccak" => match (req.rate, req.capacity) {
            (Some(r), _) => r / 8,
            (None, Some(c)) => req.width.unwrap_or(1600).saturating_sub(c) / 8,
            (None, None) => 0,
        },
        Alg::Reg(info) => {
            let digits: String = info
                .name
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            let n: usize = digits
                .chars()
                .rev()
                .collect::<String>()
                .parse()
                .unwrap_or(0);
            200usize.saturating_sub(n / 4)
        }
    }
}

/// The registry's parameters for `req`; `out_len` is bound as the length
/// where the function binds it (KMAC, TupleHash, ParallelHash).
pub fn registry_params(alg: Alg, req: &Req, out_len: usize) -> Params {
    let binds = matches!(alg, Alg::Reg(i) if i.variable_len) && !alg.is_xof();
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
    }
}

/// Build a hasher for `alg` with `req`. `object`: for a hash object (an
/// XOF then takes no digest_size); otherwise for batch/file use, where an
/// XOF's digest_size is the number of bytes to produce.
pub fn build(alg: Alg, req: &Req, object: bool) -> PyResult<(Meta, Core)> {
    let fname = alg.py_name();
    let xof = alg.is_xof();
    for (pname, p) in req.given() {
        let ok = match (alg, p) {
            (Alg::TreeLi, _) => matches!(
                pname,
                "degree" | "height" | "block_size" | "rate" | "capacity" | "prefix"
            ),
            (Alg::Reg(_), Some(p)) => alg.accepts(p),
            (Alg::Reg(_), None) => false,
        };
        if !ok {
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
        Some(n)
            if !xof && matches!(alg, Alg::Reg(i) if !i.variable_len) && n != alg.default_len() =>
        {
            return Err(PyValueError::new_err(format!(
                "{fname} has a fixed digest size of {} bytes, not {n}",
                alg.default_len()
            )))
        }
        Some(n) => n,
        None => alg.default_len(),
    };
    let meta = Meta {
        name: fname,
        digest_size: if xof { 0 } else { out_len },
        block_size: rate_bytes(alg, req),
        xof,
    };
    let core = match alg {
        Alg::TreeLi => {
            let d = TreeLiParams::default();
            let (rate_bits, capacity_bits) = match (req.rate, req.capacity) {
                (Some(r), Some(c)) => (r, c),
                (Some(r), None) => (r, 1600usize.saturating_sub(r)),
                (None, Some(c)) => (1600usize.saturating_sub(c), c),
                (None, None) => (d.rate_bits, d.capacity_bits),
            };
            let p = TreeLiParams {
                degree: req.degree.unwrap_or(d.degree),
                height: req.height.unwrap_or(d.height),
                block_size: req.block_size,
                rate_bits,
                capacity_bits,
                prefix: req.prefix.clone().unwrap_or_default(),
            };
            Core::Tree(TreeLi::new(p).map_err(value_error)?)
        }
        Alg::Reg(info) => {
            if alg.accepts(Param::Key) && req.key.is_none() {
                return Err(PyTypeError::new_err(format!(
                    "{fname}() missing required argument 'key' (bytes-like)"
                )));
            }
            if info.name == "keccak" && req.rate.is_none() && req.capacity.is_none() {
                return Err(PyValueError::new_err(
                    "keccak() needs rate= and/or capacity= (in bits; width defaults to 1600)",
                ));
            }
            let simple =
                req.given().is_empty() && (req.digest_size.is_none() || xof || !info.variable_len);
            match (simple, &tables().protos[index_of(info)]) {
                (true, Some(h)) => Core::Reg(h.clone()),
                _ => {
                    let params = registry_params(alg, req, out_len);
                    Core::Reg(Hasher::new(info.name, &params).map_err(value_error)?)
                }
            }
        }
    };
    Ok((meta, core))
}
