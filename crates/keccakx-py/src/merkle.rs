//! `keccakx.merkle`'s native part: OpenZeppelin-compatible Keccak-256
//! Merkle trees (`keccakx::merkle`). Python values become the core's JSON
//! values (str, int, bool, bytes as `0x` hex, lists and tuples as arrays);
//! building, loading and validating run with the GIL released, on the
//! CPU engine's lanes and threads or on a GPU.

use keccakx::engine::{Engine, Threads};
use keccakx::merkle::{self, ErrorKind, Hash, LeafKind, MerkleError, MerkleTree, Value};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyByteArray, PyBytes, PyInt, PyList, PyString, PyTuple};

/// Trees at least this big go to a GPU under `backend="auto"`, when one opens.
const AUTO_GPU_LEAVES: usize = 1 << 20;

fn err(e: MerkleError) -> PyErr {
    match e.kind {
        ErrorKind::Engine => PyRuntimeError::new_err(e.message),
        _ => PyValueError::new_err(e.message),
    }
}

/// The engine for `backend` ("auto", "cpu", "gpu").
fn engine(backend: &str, leaves: usize) -> PyResult<Box<dyn Engine>> {
    let cpu = || Box::new(Threads::new(keccakx::engine::current())) as Box<dyn Engine>;
    match backend {
        "cpu" => Ok(cpu()),
        "gpu" => gpu()
            .map_err(|e| PyRuntimeError::new_err(format!("backend='gpu': no GPU available ({e})"))),
        "auto" if leaves >= AUTO_GPU_LEAVES => Ok(gpu_or_cpu().unwrap_or_else(cpu)),
        "auto" => Ok(cpu()),
        other => Err(PyValueError::new_err(format!(
            "backend must be 'auto', 'cpu' or 'gpu', not {other:?}"
        ))),
    }
}

#[cfg(feature = "gpu")]
fn gpu() -> Result<Box<dyn Engine>, String> {
    keccakx_gpu::GpuEngine::new(0)
        .map(|g| Box::new(g) as Box<dyn Engine>)
        .map_err(|e| e.to_string())
}

#[cfg(not(feature = "gpu"))]
fn gpu() -> Result<Box<dyn Engine>, String> {
    Err("this build has no GPU support".into())
}

#[cfg(feature = "gpu")]
fn gpu_or_cpu() -> Option<Box<dyn Engine>> {
    keccakx_gpu::GpuEngine::new(0)
        .ok()
        .map(|g| Box::new(keccakx::engine::Fallback::sticky(g)) as Box<dyn Engine>)
}

#[cfg(not(feature = "gpu"))]
fn gpu_or_cpu() -> Option<Box<dyn Engine>> {
    None
}

/// A Python value as a JSON value.
fn to_value(obj: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    if depth > 64 {
        return Err(PyValueError::new_err("value nested more than 64 deep"));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Ok(Value::Str(s.to_cow()?.into_owned()));
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        return Ok(Value::Num(obj.str()?.to_cow()?.into_owned()));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Value::Str(merkle::to_hex(b.as_bytes())));
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Value::Str(merkle::to_hex(&b.to_vec())));
    }
    if let Ok(l) = obj.cast::<PyList>() {
        return l
            .iter()
            .map(|x| to_value(&x, depth + 1))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        return t
            .iter()
            .map(|x| to_value(&x, depth + 1))
            .collect::<PyResult<_>>()
            .map(Value::Array);
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    Err(PyTypeError::new_err(format!(
        "a leaf value holds str, int, bool, bytes, list or tuple, not {}",
        obj.get_type().name()?
    )))
}

/// A JSON value as a Python value (numbers as int, else float).
fn from_value<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Num(n) => match n.parse::<i128>() {
            Ok(i) => i.into_pyobject(py)?.into_any(),
            Err(_) => {
                let builtins = py.import("builtins")?;
                if n.bytes().all(|b| b.is_ascii_digit() || b == b'-') {
                    builtins.getattr("int")?.call1((n.as_str(),))?
                } else {
                    builtins.getattr("float")?.call1((n.as_str(),))?
                }
            }
        },
        Value::Str(s) => PyString::new(py, s).into_any(),
        Value::Array(items) => {
            let l = PyList::empty(py);
            for i in items {
                l.append(from_value(py, i)?)?;
            }
            l.into_any()
        }
        Value::Object(_) => PyString::new(py, &v.to_json()).into_any(),
    })
}

fn kind_of(types: Option<Vec<String>>) -> PyResult<LeafKind> {
    match types {
        Some(t) => LeafKind::standard(&t).map_err(err),
        None => Ok(LeafKind::Simple),
    }
}

fn hash_arg(s: &str) -> PyResult<Hash> {
    merkle::parse_hash(s).map_err(err)
}

fn hashes(v: &[String]) -> PyResult<Vec<Hash>> {
    v.iter().map(|s| hash_arg(s)).collect()
}

fn hex_list(v: &[Hash]) -> Vec<String> {
    v.iter().map(|h| merkle::to_hex(h)).collect()
}

/// A value index (an int) or a value.
fn leaf_ref(obj: &Bound<'_, PyAny>) -> PyResult<Result<usize, Value>> {
    if obj.is_instance_of::<PyInt>() && !obj.is_instance_of::<PyBool>() {
        let i: i64 = obj.extract()?;
        return usize::try_from(i)
            .map(Ok)
            .map_err(|_| PyValueError::new_err("Index out of bounds"));
    }
    Ok(Err(to_value(obj, 0)?))
}

/// A tree (standard or simple) with its values.
#[pyclass(module = "keccakx._keccakx", frozen)]
pub struct MerkleTreeCore {
    tree: MerkleTree,
}

#[pymethods]
impl MerkleTreeCore {
    /// Build over `values` (`types`: the leaf encoding of a standard tree;
    /// None: a simple tree).
    #[staticmethod]
    #[pyo3(signature = (values, types, sort_leaves=true, backend="auto"))]
    fn build(
        py: Python<'_>,
        values: &Bound<'_, PyAny>,
        types: Option<Vec<String>>,
        sort_leaves: bool,
        backend: &str,
    ) -> PyResult<MerkleTreeCore> {
        let kind = kind_of(types)?;
        let mut vals = Vec::new();
        for v in values.try_iter()? {
            let v = v?;
            if v.is_instance_of::<PyInt>() && !v.is_instance_of::<PyBool>() {
                return Err(PyValueError::new_err("Leaf values cannot be numbers"));
            }
            vals.push(to_value(&v, 0)?);
        }
        let e = engine(backend, vals.len())?;
        let tree = py
            .detach(|| MerkleTree::build(kind, vals, sort_leaves, &*e, None))
            .map_err(err)?;
        Ok(MerkleTreeCore { tree })
    }

    /// Load a dump (JSON text); `expect`: the format wanted.
    #[staticmethod]
    #[pyo3(signature = (text, expect=None, backend="auto"))]
    fn load(
        py: Python<'_>,
        text: &str,
        expect: Option<&str>,
        backend: &str,
    ) -> PyResult<MerkleTreeCore> {
        let e = engine(backend, 0)?;
        let tree = py
            .detach(|| MerkleTree::load_json(text, expect, &*e))
            .map_err(err)?;
        Ok(MerkleTreeCore { tree })
    }

    #[getter]
    fn root(&self) -> String {
        merkle::to_hex(&self.tree.root())
    }

    #[getter]
    fn standard(&self) -> bool {
        matches!(self.tree.kind(), LeafKind::Standard { .. })
    }

    #[getter]
    fn leaf_encoding(&self) -> Option<Vec<String>> {
        match self.tree.kind() {
            LeafKind::Standard { encoding, .. } => Some(encoding.clone()),
            LeafKind::Simple => None,
        }
    }

    fn __len__(&self) -> usize {
        self.tree.len()
    }

    /// Value `i` as a Python value.
    fn value<'py>(&self, py: Python<'py>, i: usize) -> PyResult<Bound<'py, PyAny>> {
        let v = self
            .tree
            .values()
            .get(i)
            .ok_or_else(|| PyValueError::new_err("Index out of bounds"))?;
        from_value(py, v)
    }

    /// Where value `i` sits in the node array.
    fn tree_index(&self, i: usize) -> PyResult<usize> {
        self.tree
            .tree_index(i)
            .ok_or_else(|| PyValueError::new_err("Index out of bounds"))
    }

    /// Every node, root first.
    fn nodes(&self) -> Vec<String> {
        hex_list(self.tree.nodes())
    }

    /// The dump, as `JSON.stringify(tree.dump())` writes it.
    fn dump_json(&self, py: Python<'_>) -> String {
        py.detach(|| self.tree.dump_json())
    }

    fn leaf_hash(&self, value: &Bound<'_, PyAny>) -> PyResult<String> {
        let v = to_value(value, 0)?;
        self.tree
            .leaf_hash(&v)
            .map(|h| merkle::to_hex(&h))
            .map_err(err)
    }

    fn leaf_lookup(&self, value: &Bound<'_, PyAny>) -> PyResult<usize> {
        let v = to_value(value, 0)?;
        self.tree.leaf_lookup(&v).map_err(err)
    }

    /// The proof of a value (an index or the value).
    fn proof(&self, leaf: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let i = match leaf_ref(leaf)? {
            Ok(i) => i,
            Err(v) => self.tree.leaf_lookup(&v).map_err(err)?,
        };
        self.tree.proof(i).map(|p| hex_list(&p)).map_err(err)
    }

    /// Every value's proof, in value order.
    fn all_proofs(&self, py: Python<'_>) -> PyResult<Vec<Vec<String>>> {
        let t = &self.tree;
        py.detach(|| {
            (0..t.len())
                .map(|i| t.proof(i).map(|p| hex_list(&p)))
                .collect::<Result<Vec<_>, _>>()
        })
        .map_err(err)
    }

    /// Write every value's proof to `path` as JSON lines (see the core's
    /// `write_proofs_jsonl`), without the GIL.
    fn write_all_proofs(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let t = &self.tree;
        py.detach(|| -> std::io::Result<()> {
            let mut w = std::io::BufWriter::with_capacity(1 << 20, std::fs::File::create(&path)?);
            t.write_proofs_jsonl(&mut w)?;
            std::io::Write::flush(&mut w)
        })
        .map_err(|e| pyo3::exceptions::PyOSError::new_err(e.to_string()))
    }

    /// A multiproof: (value indices of its leaves, proof, flags).
    fn multi_proof(
        &self,
        leaves: &Bound<'_, PyAny>,
    ) -> PyResult<(Vec<usize>, Vec<String>, Vec<bool>)> {
        let mut idx = Vec::new();
        for l in leaves.try_iter()? {
            idx.push(match leaf_ref(&l?)? {
                Ok(i) => i,
                Err(v) => self.tree.leaf_lookup(&v).map_err(err)?,
            });
        }
        let mp = self.tree.multi_proof(&idx).map_err(err)?;
        Ok((mp.leaves, hex_list(&mp.proof), mp.proof_flags))
    }

    fn verify(&self, leaf: &Bound<'_, PyAny>, proof: Vec<String>) -> PyResult<bool> {
        let proof = hashes(&proof)?;
        match leaf_ref(leaf)? {
            Ok(i) => self.tree.verify(Ok(i), &proof),
            Err(v) => self.tree.verify(Err(&v), &proof),
        }
        .map_err(err)
    }

    fn verify_multi(
        &self,
        leaves: &Bound<'_, PyAny>,
        proof: Vec<String>,
        flags: Vec<bool>,
    ) -> PyResult<bool> {
        let mut refs = Vec::new();
        for l in leaves.try_iter()? {
            refs.push(leaf_ref(&l?)?);
        }
        let refs: Vec<Result<usize, &Value>> =
            refs.iter().map(|r| r.as_ref().map(|&i| i)).collect();
        self.tree
            .verify_multi(&refs, &hashes(&proof)?, &flags)
            .map_err(err)
    }

    #[pyo3(signature = (backend="auto"))]
    fn validate(&self, py: Python<'_>, backend: &str) -> PyResult<()> {
        let e = engine(backend, self.tree.len())?;
        py.detach(|| self.tree.validate(&*e)).map_err(err)
    }
}

/// The leaf hash of `value` (`types` None: a simple tree's bytes32 leaf).
#[pyfunction]
#[pyo3(signature = (types, value))]
pub fn _merkle_leaf_hash(types: Option<Vec<String>>, value: &Bound<'_, PyAny>) -> PyResult<String> {
    let kind = kind_of(types)?;
    let v = to_value(value, 0)?;
    merkle::leaf_hash(&kind, &v)
        .map(|h| merkle::to_hex(&h))
        .map_err(err)
}

/// The root a leaf hash and its proof lead to.
#[pyfunction]
pub fn _merkle_process_proof(leaf: &str, proof: Vec<String>) -> PyResult<String> {
    Ok(merkle::to_hex(&merkle::process_proof(
        &hash_arg(leaf)?,
        &hashes(&proof)?,
    )))
}

/// The root a multiproof (leaf hashes) leads to.
#[pyfunction]
pub fn _merkle_process_multi_proof(
    leaves: Vec<String>,
    proof: Vec<String>,
    flags: Vec<bool>,
) -> PyResult<String> {
    let mp = merkle::MultiProof {
        leaves: hashes(&leaves)?,
        proof: hashes(&proof)?,
        proof_flags: flags,
    };
    merkle::process_multi_proof(&mp)
        .map(|h| merkle::to_hex(&h))
        .map_err(err)
}

/// Register the class and functions.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<MerkleTreeCore>()?;
    m.add_function(wrap_pyfunction!(_merkle_leaf_hash, m)?)?;
    m.add_function(wrap_pyfunction!(_merkle_process_proof, m)?)?;
    m.add_function(wrap_pyfunction!(_merkle_process_multi_proof, m)?)?;
    Ok(())
}
