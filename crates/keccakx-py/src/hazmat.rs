//! `keccakx.hazmat`'s native part: the pieces of KT128/KT256 and
//! ParallelHash (`keccakx::hazmat`) for computing one message's chaining
//! values in several places (`keccakx.distributed`), and the registry facts
//! the cluster command needs to write `keccakx sum`'s lines.
//!
//! Chaining values are computed with the GIL released, on the engine's SIMD
//! lanes and threads. Every misuse the core can detect is a ValueError that
//! says which argument was wrong and by how much.

use std::sync::Mutex;

use keccakx::hazmat::{
    kt_leaf_chaining_values, parallelhash_block_chaining_values, Kt128Final, Kt256Final, KtPlan,
    ParallelHash128Final, ParallelHash256Final, KT_CHUNK_LEN,
};
use keccakx::registry::{self, Param};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffer::{bytes_param, Input};
use crate::gil::{lock_py, GIL_RELEASE_MIN, PIECE_BYTES};
use crate::objects::length_arg;

pub(crate) fn value_error(what: &str, e: keccakx::Error, context: String) -> PyErr {
    PyValueError::new_err(format!("{what}: {e} ({context})"))
}

/// Which tree function a name stands for: (rate bytes, XOF).
pub(crate) fn tree_variant(name: &str, family: &str) -> PyResult<(usize, bool)> {
    let found = registry::find(name).map(|a| a.name);
    let r = match (family, found) {
        ("kt", Some("kt128")) => (168, true),
        ("kt", Some("kt256")) => (136, true),
        ("ph", Some("parallelhash128")) => (168, false),
        ("ph", Some("parallelhash256")) => (136, false),
        ("ph", Some("parallelhashxof128")) => (168, true),
        ("ph", Some("parallelhashxof256")) => (136, true),
        _ => {
            let want = if family == "kt" {
                "'kt128' or 'kt256'"
            } else {
                "'parallelhash128', 'parallelhash256', 'parallelhashxof128' or 'parallelhashxof256'"
            };
            return Err(PyValueError::new_err(format!(
                "algorithm must be {want}, not {name:?}"
            )));
        }
    };
    Ok(r)
}

/// Bytes per chaining value of the tree function at `rate`: 32 (rate
/// 168, the 128-bit functions) or 64 (rate 136).
pub(crate) fn cv_len_of(rate: usize) -> usize {
    if rate == 168 {
        32
    } else {
        64
    }
}

/// A new `bytes` of `n` bytes filled by `fill` (without the GIL when `big`).
fn new_bytes<'py>(
    py: Python<'py>,
    n: usize,
    big: bool,
    fill: impl FnOnce(&mut [u8]) -> keccakx::Result<()> + Send,
) -> PyResult<(Bound<'py, PyBytes>, keccakx::Result<()>)> {
    let mut result = Ok(());
    let b = PyBytes::new_with(py, n, |out| {
        result = if big {
            py.detach(|| fill(out))
        } else {
            fill(out)
        };
        Ok(())
    })?;
    Ok((b, result))
}

/// A new `bytes` of `n` chaining values' bytes for `data`, made of units
/// of `unit` bytes (leaves, blocks) with one `cv_len`-byte value each:
/// `cvs(k, part, out)` computes the values of `part`, whose first unit is
/// unit `k` of `data`. Large data goes in pieces of whole units, each with
/// the GIL released, Ctrl-C seen between them (then nothing is returned).
fn in_pieces<'py>(
    py: Python<'py>,
    data: &[u8],
    n: usize,
    unit: usize,
    cv_len: usize,
    cvs: impl Fn(u64, &[u8], &mut [u8]) -> keccakx::Result<()> + Sync,
) -> PyResult<(Bound<'py, PyBytes>, keccakx::Result<()>)> {
    if data.len() <= PIECE_BYTES {
        return new_bytes(py, n, data.len() >= GIL_RELEASE_MIN, |out| {
            cvs(0, data, out)
        });
    }
    let units = (PIECE_BYTES / unit).max(1);
    let mut result = Ok(());
    let out = PyBytes::new_with(py, n, |out| {
        let mut k = 0usize;
        for part in data.chunks(units.saturating_mul(unit)) {
            let here = part.len().div_ceil(unit).min(n / cv_len - k) * cv_len;
            let dst = &mut out[k * cv_len..k * cv_len + here];
            result = py.detach(|| cvs(k as u64, part, dst));
            if result.is_err() {
                return Ok(());
            }
            k += here / cv_len;
            py.check_signals()?;
        }
        Ok(())
    })?;
    Ok((out, result))
}

/// `kt_chaining_values(data, chunk_index, algorithm="kt128")`.
#[pyfunction]
#[pyo3(signature = (data, chunk_index, algorithm="kt128"))]
pub fn _kt_chaining_values<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    chunk_index: u64,
    algorithm: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let (rate, _) = tree_variant(algorithm, "kt")?;
    let input = Input::new(data, "kt_chaining_values()")?;
    let bytes = input.as_slice();
    let cv_len = cv_len_of(rate);
    let n = bytes.len() / KT_CHUNK_LEN * cv_len;
    let (out, r) = in_pieces(py, bytes, n, KT_CHUNK_LEN, cv_len, |k, data, out| {
        let index = chunk_index.saturating_add(k);
        keccakx::with_rate!(rate, R => kt_leaf_chaining_values::<R>(index, data, out))
    })?;
    r.map_err(|e| {
        value_error(
            "kt_chaining_values",
            e,
            format!(
                "chunk_index={chunk_index}, {} bytes = {} chunks + {} bytes",
                bytes.len(),
                bytes.len() / KT_CHUNK_LEN,
                bytes.len() % KT_CHUNK_LEN
            ),
        )
    })?;
    Ok(out)
}

/// `parallelhash_chaining_values(data, block_index, message_len, block_size, algorithm)`.
#[pyfunction]
#[pyo3(signature = (data, block_index, message_len, block_size=8192, algorithm="parallelhash128"))]
pub fn _parallelhash_chaining_values<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    block_index: u64,
    message_len: u64,
    block_size: usize,
    algorithm: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let (rate, _) = tree_variant(algorithm, "ph")?;
    let input = Input::new(data, "parallelhash_chaining_values()")?;
    let bytes = input.as_slice();
    let cv_len = cv_len_of(rate);
    let n = bytes.len().div_ceil(block_size.max(1)) * cv_len;
    let (out, r) = in_pieces(py, bytes, n, block_size.max(1), cv_len, |k, data, out| {
        let index = block_index.saturating_add(k);
        keccakx::with_rate!(rate, R => parallelhash_block_chaining_values::<R>(block_size, index, message_len, data, out))
    })?;
    r.map_err(|e| {
        let start = (block_index as u128) * block_size as u128;
        value_error(
            "parallelhash_chaining_values",
            e,
            format!(
                "block_size={block_size}, block_index={block_index}: bytes {start}..{} of a {message_len}-byte message",
                start + bytes.len() as u128
            ),
        )
    })?;
    Ok(out)
}

/// `kt_plan(message_len)`: (head_len, first_leaf, end_leaf, tail_offset, tail_len).
#[pyfunction]
pub fn _kt_plan(message_len: u64) -> (usize, u64, u64, u64, usize) {
    let p = KtPlan::new(message_len);
    (
        p.head_len,
        p.leaves.start,
        p.leaves.end,
        p.tail_offset,
        p.tail_len,
    )
}

/// A final node at either rate; [`each!`] runs one expression on
/// whichever it holds.
#[derive(Clone)]
enum KtInner {
    K128(Kt128Final),
    K256(Kt256Final),
}

#[derive(Clone)]
enum PhInner {
    P128(ParallelHash128Final),
    P256(ParallelHash256Final),
}

/// `$body` with `$f` bound to the node inside a [`KtInner`] or
/// [`PhInner`] (the same code at both rates).
macro_rules! each {
    (Kt, $node:expr, $f:ident => $body:expr) => {
        match $node {
            KtInner::K128($f) => $body,
            KtInner::K256($f) => $body,
        }
    };
    (Ph, $node:expr, $f:ident => $body:expr) => {
        match $node {
            PhInner::P128($f) => $body,
            PhInner::P256($f) => $body,
        }
    };
}

/// The final node of KT128/KT256 for a message of known length (see
/// `keccakx.hazmat`): `absorb_head(head)`, then `update(cvs)` with the
/// whole leaves' chaining values in chunk order, then `finalize(tail,
/// length)`.
#[pyclass(module = "keccakx.hazmat", name = "KtFinalNode", frozen)]
pub struct KtFinalNode {
    /// "kt128" or "kt256".
    #[pyo3(get)]
    name: &'static str,
    #[pyo3(get)]
    message_len: u64,
    /// Bytes per chaining value: 32 (KT128) or 64 (KT256).
    #[pyo3(get)]
    cv_len: usize,
    state: Mutex<Option<KtInner>>,
}

fn finished() -> PyErr {
    PyValueError::new_err("the final node is finished: finalize() was already called")
}

#[pymethods]
impl KtFinalNode {
    #[new]
    #[pyo3(signature = (message_len, custom=None, algorithm="kt128"))]
    fn new(message_len: u64, custom: Option<&Bound<'_, PyAny>>, algorithm: &str) -> PyResult<Self> {
        let (rate, _) = tree_variant(algorithm, "kt")?;
        let c = bytes_param(custom, "custom")?.unwrap_or_default();
        let (name, inner) = if rate == 168 {
            ("kt128", KtInner::K128(Kt128Final::new(message_len, &c)))
        } else {
            ("kt256", KtInner::K256(Kt256Final::new(message_len, &c)))
        };
        let cv_len = cv_len_of(rate);
        Ok(KtFinalNode {
            name,
            message_len,
            cv_len,
            state: Mutex::new(Some(inner)),
        })
    }

    /// Absorb bytes of the head, M[0 : min(message_len, 8192)] (one call or several).
    fn absorb_head(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let input = Input::new(data, "absorb_head()")?;
        let bytes = input.as_slice();
        let mut s = lock_py(py, &self.state);
        let r = each!(Kt, s.as_mut().ok_or_else(finished)?, f => f.absorb_head(bytes));
        r.map_err(|e| {
            value_error(
                "absorb_head",
                e,
                format!(
                    "{} more bytes for a {}-byte message",
                    bytes.len(),
                    self.message_len
                ),
            )
        })
    }

    /// Absorb the chaining values of the next whole leaves, in chunk order.
    fn update(&self, py: Python<'_>, cvs: &Bound<'_, PyAny>) -> PyResult<()> {
        let input = Input::new(cvs, "update()")?;
        let bytes = input.as_slice();
        let mut s = lock_py(py, &self.state);
        let node = s.as_mut().ok_or_else(finished)?;
        let absorb = |node: &mut KtInner| each!(Kt, node, f => f.absorb_chaining_values(bytes));
        let r = if bytes.len() >= GIL_RELEASE_MIN {
            py.detach(|| absorb(node))
        } else {
            absorb(node)
        };
        r.map_err(|e| {
            let p = KtPlan::new(self.message_len);
            value_error(
                "update",
                e,
                format!(
                    "{} bytes of {}-byte values; the message has {} whole leaves",
                    bytes.len(),
                    self.cv_len,
                    p.leaves.end - p.leaves.start
                ),
            )
        })
    }

    /// Hash the tail M[tail_offset:] with the customization and return
    /// `length` output bytes. The node is used up only when this succeeds:
    /// a bad tail, a bad length or a failed allocation (MemoryError) leave
    /// it as it was.
    fn finalize<'py>(
        &self,
        py: Python<'py>,
        tail: &Bound<'py, PyAny>,
        length: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let length = length_arg(length, "length")?;
        let input = Input::new(tail, "finalize()")?;
        let bytes = input.as_slice();
        lock_py(py, &self.state).as_ref().ok_or_else(finished)?;
        // The output exists before the node is taken.
        let mut result = Ok(());
        let out = PyBytes::new_with(py, length, |out| {
            let mut s = lock_py(py, &self.state);
            let node = s.as_ref().ok_or_else(finished)?.clone();
            result = py.detach(|| each!(Kt, node, f => f.finalize_into(bytes, out)));
            if result.is_ok() {
                *s = None;
            }
            Ok(())
        })?;
        if let Err(e) = result {
            let p = KtPlan::new(self.message_len);
            return Err(value_error(
                "finalize",
                e,
                format!(
                    "tail of {} bytes; the message's tail is M[{}:{}], {} bytes",
                    bytes.len(),
                    p.tail_offset,
                    self.message_len,
                    p.tail_len
                ),
            ));
        }
        Ok(out)
    }

    /// Whole-leaf chaining values absorbed so far.
    #[getter]
    fn leaves_absorbed(&self, py: Python<'_>) -> PyResult<u64> {
        let s = lock_py(py, &self.state);
        Ok(each!(Kt, s.as_ref().ok_or_else(finished)?, f => f.leaves_absorbed()))
    }

    fn __repr__(&self) -> String {
        format!(
            "<keccakx.hazmat.KtFinalNode {} message_len={}>",
            self.name, self.message_len
        )
    }
}

/// The outer node of ParallelHash(XOF)128/256 for a message of known
/// length: `update(cvs)` with every block's chaining value in block order,
/// then `finalize(length)`.
#[pyclass(module = "keccakx.hazmat", name = "ParallelHashFinalNode", frozen)]
pub struct ParallelHashFinalNode {
    /// The registry's name ("parallelhash128", "parallelhashxof256", ...).
    #[pyo3(get)]
    name: &'static str,
    xof: bool,
    #[pyo3(get)]
    message_len: u64,
    #[pyo3(get)]
    block_size: usize,
    /// Bytes per chaining value: 32 (128) or 64 (256).
    #[pyo3(get)]
    cv_len: usize,
    state: Mutex<Option<PhInner>>,
}

#[pymethods]
impl ParallelHashFinalNode {
    #[new]
    #[pyo3(signature = (message_len, block_size=8192, custom=None, algorithm="parallelhash128"))]
    fn new(
        message_len: u64,
        block_size: usize,
        custom: Option<&Bound<'_, PyAny>>,
        algorithm: &str,
    ) -> PyResult<Self> {
        let (rate, xof) = tree_variant(algorithm, "ph")?;
        let c = bytes_param(custom, "custom")?.unwrap_or_default();
        let err = |e| {
            value_error(
                "ParallelHashFinalNode",
                e,
                format!("block_size={block_size}"),
            )
        };
        let inner = if rate == 168 {
            PhInner::P128(ParallelHash128Final::new(block_size, &c, message_len).map_err(err)?)
        } else {
            PhInner::P256(ParallelHash256Final::new(block_size, &c, message_len).map_err(err)?)
        };
        let cv_len = cv_len_of(rate);
        let name = registry::find(algorithm)
            .map(|a| a.name)
            .unwrap_or("parallelhash");
        Ok(ParallelHashFinalNode {
            name,
            xof,
            message_len,
            block_size,
            cv_len,
            state: Mutex::new(Some(inner)),
        })
    }

    /// Absorb the chaining values of the next blocks, in block order.
    fn update(&self, py: Python<'_>, cvs: &Bound<'_, PyAny>) -> PyResult<()> {
        let input = Input::new(cvs, "update()")?;
        let bytes = input.as_slice();
        let mut s = lock_py(py, &self.state);
        let node = s.as_mut().ok_or_else(finished)?;
        let absorb = |node: &mut PhInner| each!(Ph, node, f => f.absorb_chaining_values(bytes));
        let r = if bytes.len() >= GIL_RELEASE_MIN {
            py.detach(|| absorb(node))
        } else {
            absorb(node)
        };
        r.map_err(|e| {
            value_error(
                "update",
                e,
                format!(
                    "{} bytes of {}-byte values; the message has {} blocks",
                    bytes.len(),
                    self.cv_len,
                    self.message_len.div_ceil(self.block_size as u64)
                ),
            )
        })
    }

    /// `length` output bytes: ParallelHash binds the length into the
    /// result, ParallelHashXOF does not. The node is used up only when this
    /// succeeds (see `KtFinalNode.finalize`).
    fn finalize<'py>(
        &self,
        py: Python<'py>,
        length: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let length = length_arg(length, "length")?;
        lock_py(py, &self.state).as_ref().ok_or_else(finished)?;
        let xof = self.xof;
        let mut result = Ok(());
        let out = PyBytes::new_with(py, length, |out| {
            let mut s = lock_py(py, &self.state);
            let node = s.as_ref().ok_or_else(finished)?.clone();
            let reader = |f: Result<keccakx::sponge::XofReader, keccakx::Error>, out: &mut [u8]| {
                f.map(|mut r| r.read(out))
            };
            let run = move || {
                each!(Ph, node, f => if xof {
                    reader(f.finalize_xof(), out)
                } else {
                    f.finalize_into(out)
                })
            };
            result = if length >= GIL_RELEASE_MIN {
                py.detach(run)
            } else {
                run()
            };
            if result.is_ok() {
                *s = None;
            }
            Ok(())
        })?;
        if let Err(e) = result {
            return Err(value_error(
                "finalize",
                e,
                format!(
                    "{} of {} blocks absorbed",
                    self.blocks_absorbed(py)?,
                    self.message_len.div_ceil(self.block_size as u64)
                ),
            ));
        }
        Ok(out)
    }

    /// Chaining values absorbed so far.
    #[getter]
    fn blocks_absorbed(&self, py: Python<'_>) -> PyResult<u64> {
        let s = lock_py(py, &self.state);
        Ok(each!(Ph, s.as_ref().ok_or_else(finished)?, f => f.blocks_absorbed()))
    }

    /// The number of blocks n = ceil(message_len / block_size).
    #[getter]
    fn block_count(&self) -> u64 {
        self.message_len.div_ceil(self.block_size as u64)
    }

    fn __repr__(&self) -> String {
        format!(
            "<keccakx.hazmat.ParallelHashFinalNode {} block_size={} message_len={}>",
            self.name, self.block_size, self.message_len
        )
    }
}

/// SP 800-185 left_encode(x).
#[pyfunction]
pub fn _left_encode(py: Python<'_>, x: u128) -> Bound<'_, PyBytes> {
    PyBytes::new(py, keccakx::sp800_185::left_encode(x).as_ref())
}

/// SP 800-185 right_encode(x).
#[pyfunction]
pub fn _right_encode(py: Python<'_>, x: u128) -> Bound<'_, PyBytes> {
    PyBytes::new(py, keccakx::sp800_185::right_encode(x).as_ref())
}

/// The registry's entry for a name, as `keccakx sum` uses it: (canonical
/// name, `--tag` name, default length, length selectable, XOF, parameters
/// taken: "length", "customization", "function_name", "key",
/// "block_size", "domain", "sponge", "tree").
#[pyfunction]
#[allow(clippy::type_complexity)]
pub fn _registry_entry(
    name: &str,
) -> PyResult<(
    &'static str,
    &'static str,
    usize,
    bool,
    bool,
    Vec<&'static str>,
)> {
    let a = registry::find(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown algorithm {name:?} (see keccakx.algorithms_available)"
        ))
    })?;
    let params = a.params.iter().map(|p| group_name(*p)).collect();
    Ok((
        a.name,
        a.display,
        a.default_len,
        a.variable_len,
        a.xof,
        params,
    ))
}

/// How `_registry_entry` and `_registry_keywords` name a parameter group.
fn group_name(p: Param) -> &'static str {
    match p {
        Param::Length => "length",
        Param::Customization => "customization",
        Param::FunctionName => "function_name",
        Param::Key => "key",
        Param::BlockSize => "block_size",
        Param::Domain => "domain",
        Param::Sponge => "sponge",
        Param::Tree => "tree",
    }
}

/// Every keyword of `keccakx.new` that sets a registry parameter, with the
/// groups that take it (a function takes the keyword when its
/// `_registry_entry` lists any of them; the first names it in refusals).
#[pyfunction]
pub fn _registry_keywords() -> Vec<(&'static str, Vec<&'static str>)> {
    crate::alg::keywords()
        .map(|(name, f)| (name, f.groups().iter().map(|p| group_name(*p)).collect()))
        .collect()
}

/// Every registry name, in `keccakx list` order.
#[pyfunction]
pub fn _registry_names() -> Vec<&'static str> {
    registry::list().iter().map(|a| a.name).collect()
}

/// Register the functions and classes above on the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<KtFinalNode>()?;
    m.add_class::<ParallelHashFinalNode>()?;
    m.add_function(wrap_pyfunction!(_kt_chaining_values, m)?)?;
    m.add_function(wrap_pyfunction!(_parallelhash_chaining_values, m)?)?;
    m.add_function(wrap_pyfunction!(_kt_plan, m)?)?;
    m.add_function(wrap_pyfunction!(_left_encode, m)?)?;
    m.add_function(wrap_pyfunction!(_right_encode, m)?)?;
    m.add_function(wrap_pyfunction!(_registry_entry, m)?)?;
    m.add_function(wrap_pyfunction!(_registry_names, m)?)?;
    m.add_function(wrap_pyfunction!(_registry_keywords, m)?)?;
    Ok(())
}
