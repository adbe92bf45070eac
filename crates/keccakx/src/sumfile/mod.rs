//! Checksum files, for every front end: the lines (GNU coreutils' two
//! columns, the tagged BSD form, sha3sum's marks, base64 digests), the
//! escaping of file names in them and in messages, and the report of a
//! check with coreutils' words, and sha3sum's reading modes of a listed
//! file ([`reading`]). A front end reads the list, hashes the
//! files and prints; what a line means and what the report says is here,
//! once.
//!
//! ```
//! use keccakx::sumfile::{format_line, Parser, Registry, Rules};
//! let line = format_line(false, false, b' ', "SHA3-256", &"ab".repeat(32), b"a\nb");
//! assert!(line.starts_with(b"\\abab"));
//! let text = keccakx::sumfile::line_text(&line).unwrap();
//! let rules = Registry::rules("sha3-256", false, None).unwrap();
//! let e = Parser::new().parse(text, &Registry, &rules).unwrap();
//! assert_eq!((e.name.as_slice(), e.alg.name), (&b"a\nb"[..], "sha3-256"));
//! ```

pub mod base64;
pub mod escape;
mod line;
pub mod reading;
pub mod report;

pub use line::{format_line, line_text, sha3sum_by_hex_len, Catalog, Entry, Mode, Parser, Rules};

use crate::registry::{self, AlgorithmInfo};

/// The longest digest, in bytes, a variable-length algorithm's line may
/// hold (1 MiB).
pub const MAX_LEN: usize = 1 << 20;

/// sha3sum's (Perl Digest::SHA3) algorithm numbers: the digest size in
/// bits, and 128000 / 256000 for SHAKE128 / SHAKE256 of one whole rate;
/// the registry name and the output length it implies (None: the
/// algorithm's own).
pub fn sha3sum_name(name: &str) -> Option<(&'static str, Option<usize>)> {
    const NAMES: [(&str, &str, Option<usize>); 6] = [
        ("224", "sha3-224", None),
        ("256", "sha3-256", None),
        ("384", "sha3-384", None),
        ("512", "sha3-512", None),
        ("128000", "shake128", Some(168)),
        ("256000", "shake256", Some(136)),
    ];
    // sha3sum compares the number as a number: `0256` is 256.
    let n = name.trim();
    let n = if n.bytes().all(|b| b.is_ascii_digit()) {
        n.trim_start_matches('0')
    } else {
        n
    };
    NAMES
        .iter()
        .find(|(s, _, _)| *s == n)
        .map(|&(_, c, l)| (c, l))
}

/// The library's registry as a [`Catalog`].
#[derive(Clone, Copy, Debug, Default)]
pub struct Registry;

impl Registry {
    /// The algorithm a name means: a registry name or sha3sum's number.
    pub fn find(name: &str) -> Option<&'static AlgorithmInfo> {
        match sha3sum_name(name) {
            Some((canonical, _)) => registry::find(canonical),
            None => registry::find(name),
        }
    }

    /// The rules for reading a list with `alg` (`chosen`: chosen by the
    /// user, and then restricting the list) and an output length.
    pub fn rules(
        alg: &str,
        chosen: bool,
        length: Option<usize>,
    ) -> Option<Rules<&'static AlgorithmInfo>> {
        Some(Rules {
            alg: Registry::find(alg)?,
            chosen,
            restrict: chosen,
            length,
            max_len: MAX_LEN,
        })
    }
}

impl Catalog for Registry {
    type Alg = &'static AlgorithmInfo;

    fn by_tag(&self, tag: &str) -> Option<Self::Alg> {
        registry::list()
            .iter()
            .find(|a| a.display.eq_ignore_ascii_case(tag))
            .or_else(|| Registry::find(tag))
    }

    fn by_hex_len(&self, hex_len: usize) -> Option<Self::Alg> {
        registry::find(sha3sum_by_hex_len(hex_len)?.0)
    }

    fn same(&self, a: Self::Alg, b: Self::Alg) -> bool {
        core::ptr::eq(a, b)
    }

    fn lengths(&self, a: Self::Alg) -> (usize, bool) {
        (a.default_len, a.variable_len)
    }
}
