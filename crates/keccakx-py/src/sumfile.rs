//! The library's checksum files ([`keccakx::sumfile`]) for
//! `keccakx-cluster`: the lines it writes and reads, the escaping of names,
//! a check's report, and the refusal of parameters an algorithm does not
//! take, spelled with the command line's flags (`keccakx sum`'s, which
//! `keccakx-cluster` shares), so both commands say the same bytes.

use keccakx::registry::{AlgorithmInfo, Hasher, Params};
use keccakx::sumfile::report::{Result as Line, Said, Tally, Verbosity};
use keccakx::sumfile::{self, reading, Mode, Registry, Rules};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Mutex;

/// One output line, byte for byte as `keccakx sum` writes it.
#[pyfunction]
fn _sumfile_format_line<'py>(
    py: Python<'py>,
    tag: bool,
    zero: bool,
    mark: u8,
    display: &str,
    digest: &str,
    name: &[u8],
) -> Bound<'py, PyBytes> {
    PyBytes::new(
        py,
        &sumfile::format_line(tag, zero, mark, display, digest, name),
    )
}

/// A name quoted for a diagnostic, as `keccakx sum` quotes it.
#[pyfunction]
fn _sumfile_quote(name: &[u8]) -> String {
    sumfile::escape::quote(name)
}

/// Why `keccakx sum -a ALGORITHM` with these parameters is refused, in its
/// words (`-a NAME: ...`), or None: the algorithm (a registry name or one
/// of sha3sum's numbers) with `length` and `keccakx.new`'s keywords.
/// `check_list`: for a check without `-a`, where the default algorithm
/// keeps only the parameters it takes.
#[pyfunction]
#[pyo3(signature = (algorithm, length, check_list, **params))]
fn _sumfile_refusal(
    algorithm: &str,
    length: Option<usize>,
    check_list: bool,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<String>> {
    let info = Registry::find(algorithm)
        .ok_or_else(|| PyValueError::new_err(format!("unknown algorithm {algorithm:?}")))?;
    let p = given(info, length, check_list, params)?;
    Ok(Hasher::new(info.name, &p)
        .err()
        .map(|e| format!("-a {}: {}", info.name, keccakx_flags::spelled(&e))))
}

/// The registry parameters the keywords give (only those `info` takes
/// where `only_taken`).
fn given(
    info: &'static AlgorithmInfo,
    length: Option<usize>,
    only_taken: bool,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<Params> {
    let req = crate::alg::Req::from_kwargs(params, "refusal")?;
    let mut p = if only_taken {
        req.params.kept_for(info)
    } else {
        req.params
    };
    p.length = length;
    Ok(p)
}

/// One checksum list being checked: its parser (the library's rules for
/// `algorithm` and `length`) and its report.
#[pyclass(module = "keccakx._keccakx")]
pub struct CheckList {
    parser: sumfile::Parser,
    rules: Rules<&'static AlgorithmInfo>,
    tally: Tally,
}

fn said(py: Python<'_>, s: Said) -> (Option<String>, Option<Bound<'_, PyBytes>>) {
    (s.warning, s.out.map(|o| PyBytes::new(py, &o)))
}

#[pymethods]
impl CheckList {
    /// `label`: the list's name in messages, quoted; `chosen`: the
    /// algorithm was chosen (`-a`), and restricts the list.
    #[new]
    #[pyo3(signature = (label, algorithm, chosen, length, quiet, status, strict, warn, ignore_missing))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        label: &str,
        algorithm: &str,
        chosen: bool,
        length: Option<usize>,
        quiet: bool,
        status: bool,
        strict: bool,
        warn: bool,
        ignore_missing: bool,
    ) -> PyResult<CheckList> {
        let rules = Registry::rules(algorithm, chosen, length)
            .ok_or_else(|| PyValueError::new_err(format!("unknown algorithm {algorithm:?}")))?;
        let v = Verbosity {
            quiet,
            status,
            strict,
            warn,
            ignore_missing,
        };
        Ok(CheckList {
            parser: sumfile::Parser::new(),
            rules,
            tally: Tally::new(label, rules.alg.display, v),
        })
    }

    /// One line of the list as read (with its newline): None for a comment
    /// or an empty line, False when improperly formatted, else (name,
    /// expected digest, algorithm name, how the file is read: its mode's
    /// mark, `' '` for the bytes as they are, `'U'` or `'^'`).
    fn parse<'py>(&mut self, py: Python<'py>, raw: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        let Some(text) = sumfile::line_text(raw) else {
            return Ok(py.None().into_bound(py));
        };
        Ok(match self.parser.parse(text, &Registry, &self.rules) {
            None => false.into_pyobject(py)?.to_owned().into_any(),
            Some(e) => (
                PyBytes::new(py, &e.name),
                PyBytes::new(py, &e.expected),
                e.alg.name,
                char::from(e.mode.mark(false)),
            )
                .into_pyobject(py)?
                .into_any(),
        })
    }

    /// Why `keccakx sum` refuses the algorithm of a parsed line with its
    /// output of `length` bytes, its reading mode (`mode`: the mark) and
    /// the list's parameters, or None.
    #[pyo3(signature = (algorithm, length, mode=' ', **params))]
    fn refusal(
        &self,
        algorithm: &str,
        length: usize,
        mode: char,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Option<String>> {
        let info = Registry::find(algorithm)
            .ok_or_else(|| PyValueError::new_err(format!("unknown algorithm {algorithm:?}")))?;
        let own = std::ptr::eq(info, self.rules.alg);
        let mut p = given(info, None, !own, params)?;
        p.length = info.variable_len.then_some(length);
        if let Err(e) = Hasher::new(info.name, &p) {
            return Ok(Some(format!(
                "-a {}: {}",
                info.name,
                keccakx_flags::spelled(&e)
            )));
        }
        let why = reading::refusal(info.takes_bits(), info.needs_input_length(), mode_of(mode)?);
        Ok(why.map(|w| format!("-a {}: {w}", info.name)))
    }

    /// An improperly formatted line (its number; why, when there is more
    /// to say): (warning, line for standard output).
    #[pyo3(signature = (lineno, why=None))]
    fn malformed<'py>(
        &mut self,
        py: Python<'py>,
        lineno: usize,
        why: Option<&str>,
    ) -> (Option<String>, Option<Bound<'py, PyBytes>>) {
        said(py, self.tally.line(Line::Malformed(lineno, why)))
    }

    /// A listed file that could not be read (`cause`: the error's words).
    fn unread<'py>(
        &mut self,
        py: Python<'py>,
        name: &[u8],
        missing: bool,
        cause: &str,
    ) -> (Option<String>, Option<Bound<'py, PyBytes>>) {
        said(
            py,
            self.tally.line(Line::Unread {
                name,
                missing,
                cause,
            }),
        )
    }

    /// A listed file hashed: whether its digest matched.
    fn hashed<'py>(
        &mut self,
        py: Python<'py>,
        name: &[u8],
        matched: bool,
    ) -> (Option<String>, Option<Bound<'py, PyBytes>>) {
        said(py, self.tally.line(Line::Hashed { name, matched }))
    }

    /// The end of the list: (flush standard output first, warnings, passed).
    fn summary(&self) -> (bool, Vec<String>, bool) {
        let s = self.tally.summary();
        (s.flush_first, s.warnings, s.passed)
    }

    /// The end of a list that could not be read to its end.
    fn read_error(&self, cause: &str) -> (bool, Vec<String>, bool) {
        let s = self.tally.read_error(cause);
        (s.flush_first, s.warnings, s.passed)
    }
}

/// A reading mode from its mark (`' '` or `'*'`, `'U'`, `'^'`).
fn mode_of(mark: char) -> PyResult<Mode> {
    u8::try_from(mark)
        .ok()
        .and_then(Mode::from_mark)
        .ok_or_else(|| PyValueError::new_err(format!("{mark:?} is not a checksum line's mark")))
}

/// A listed file hashed as `keccakx sum --check` hashes it for a line with
/// a reading mode's mark: its bytes translated (universal newlines, or
/// '0'/'1' characters as bits) on their way into the function.
#[pyclass(module = "keccakx._keccakx")]
pub struct ReadingHasher {
    state: Mutex<Option<(reading::Translator, Hasher)>>,
}

#[pymethods]
impl ReadingHasher {
    /// `algorithm` (a registry name) with `length` output bytes (for a
    /// variable-length function) and `keccakx.new`'s keywords, reading in
    /// `mode` (the line's mark). ValueError: the refusal `keccakx sum`
    /// gives for such a line.
    #[new]
    #[pyo3(signature = (algorithm, mode, length, **params))]
    fn new(
        algorithm: &str,
        mode: char,
        length: usize,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<ReadingHasher> {
        let info = Registry::find(algorithm)
            .ok_or_else(|| PyValueError::new_err(format!("unknown algorithm {algorithm:?}")))?;
        let mode = mode_of(mode)?;
        let mut p = given(info, None, false, params)?;
        p.length = info.variable_len.then_some(length);
        let h = Hasher::new(info.name, &p).map_err(|e| {
            PyValueError::new_err(format!("-a {}: {}", info.name, keccakx_flags::spelled(&e)))
        })?;
        if let Some(why) = reading::refusal(info.takes_bits(), info.needs_input_length(), mode) {
            return Err(PyValueError::new_err(format!("-a {}: {why}", info.name)));
        }
        Ok(ReadingHasher {
            state: Mutex::new(Some((reading::Translator::new(mode), h))),
        })
    }

    /// The next piece of the file (any buffer), translated and absorbed
    /// with the GIL released.
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let input = crate::buffer::Input::new(data, "update()")?;
        let bytes = input.as_slice();
        let mut s = crate::gil::lock_py(py, &self.state);
        let Some((t, h)) = s.as_mut() else {
            return Err(PyValueError::new_err("update() after digest()"));
        };
        py.detach(|| t.feed(bytes, &mut |m| h.update(m)));
        Ok(())
    }

    /// The digest of the file (the object is spent).
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mut s = crate::gil::lock_py(py, &self.state);
        let Some((mut t, mut h)) = s.take() else {
            return Err(PyValueError::new_err("digest() called twice"));
        };
        if let Some((byte, n)) = t.finish(&mut |m| h.update(m)) {
            h.update_bits(&[byte], n.into())
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
        }
        let out = h
            .try_finalize()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(PyBytes::new(py, &out))
    }
}

/// Register the functions and the class above on the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<CheckList>()?;
    m.add_class::<ReadingHasher>()?;
    m.add_function(wrap_pyfunction!(_sumfile_format_line, m)?)?;
    m.add_function(wrap_pyfunction!(_sumfile_quote, m)?)?;
    m.add_function(wrap_pyfunction!(_sumfile_refusal, m)?)?;
    Ok(())
}
