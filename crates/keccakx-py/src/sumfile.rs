//! The library's checksum files ([`keccakx::sumfile`]) for
//! `keccakx-cluster`: the lines it writes and reads, the escaping of names,
//! a check's report, and the refusal of parameters an algorithm does not
//! take, spelled with the command line's flags (`keccakx sum`'s, which
//! `keccakx-cluster` shares), so both commands say the same bytes.

use keccakx::registry::{AlgorithmInfo, Hasher, Params};
use keccakx::sumfile::report::{Result as Line, Said, Tally, Verbosity};
use keccakx::sumfile::{self, Registry, Rules};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

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
    /// expected digest, algorithm name, whether the file is read as bytes).
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
                e.mode == sumfile::Mode::Bytes,
            )
                .into_pyobject(py)?
                .into_any(),
        })
    }

    /// Why `keccakx sum` refuses the algorithm of a parsed line with its
    /// output of `length` bytes and the list's parameters, or None.
    #[pyo3(signature = (algorithm, length, **params))]
    fn refusal(
        &self,
        algorithm: &str,
        length: usize,
        params: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Option<String>> {
        let info = Registry::find(algorithm)
            .ok_or_else(|| PyValueError::new_err(format!("unknown algorithm {algorithm:?}")))?;
        let own = std::ptr::eq(info, self.rules.alg);
        let mut p = given(info, None, !own, params)?;
        p.length = info.variable_len.then_some(length);
        Ok(Hasher::new(info.name, &p)
            .err()
            .map(|e| format!("-a {}: {}", info.name, keccakx_flags::spelled(&e))))
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

/// Register the functions and the class above on the native module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<CheckList>()?;
    m.add_function(wrap_pyfunction!(_sumfile_format_line, m)?)?;
    m.add_function(wrap_pyfunction!(_sumfile_quote, m)?)?;
    m.add_function(wrap_pyfunction!(_sumfile_refusal, m)?)?;
    Ok(())
}
