//! A check's report, line by line and at the end of each list, with the
//! messages of GNU coreutils' `sha256sum --check` (9.x): what a front end
//! prints on standard output and as warnings, in order.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::escape::{push_display_name, quote};

/// How much a check says, and what passes.
#[derive(Clone, Copy, Debug, Default)]
pub struct Verbosity {
    /// No line for a file that matched.
    pub quiet: bool,
    /// Nothing on standard output, no summary: the exit status only.
    pub status: bool,
    /// An improperly formatted line fails the list.
    pub strict: bool,
    /// Warn about each improperly formatted line.
    pub warn: bool,
    /// A listed file that does not exist is skipped silently.
    pub ignore_missing: bool,
}

/// What one line of a list became, in line order.
#[derive(Clone, Copy, Debug)]
pub enum Result<'a> {
    /// Improperly formatted: the line's number, and why when there is more
    /// to say than that.
    Malformed(usize, Option<&'a str>),
    /// The listed file could not be read (`missing`: it does not exist).
    Unread {
        name: &'a [u8],
        missing: bool,
        cause: &'a str,
    },
    /// The file was hashed: whether its digest matched.
    Hashed { name: &'a [u8], matched: bool },
}

/// One line's report: a warning first, then a line for standard output.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Said {
    pub warning: Option<String>,
    pub out: Option<Vec<u8>>,
}

/// The end of one list: warnings (after standard output is flushed when
/// `flush_first`), and whether the list passed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    pub flush_first: bool,
    pub warnings: Vec<String>,
    pub passed: bool,
}

/// The name as a check prints it: never with a raw control byte
/// ([`push_display_name`]).
pub fn check_name(name: &[u8]) -> Vec<u8> {
    let mut v = Vec::with_capacity(name.len() + 2);
    push_display_name(&mut v, name);
    v
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("WARNING: {n} {}", if n == 1 { one } else { many })
}

/// The counts of one list, and its label in messages (`label`: already
/// quoted, e.g. `'standard input'`... as the front end names the list).
#[derive(Clone, Debug)]
pub struct Tally {
    label: String,
    /// The algorithm's tag name, for "improperly formatted ... line".
    display: String,
    v: Verbosity,
    properly_formatted: usize,
    misformatted: usize,
    read_failures: usize,
    mismatched: usize,
    matched_any: bool,
}

impl Tally {
    /// A new list, named `label` in messages (quoted by the caller).
    pub fn new(label: &str, display: &str, v: Verbosity) -> Tally {
        Tally {
            label: label.into(),
            display: display.into(),
            v,
            properly_formatted: 0,
            misformatted: 0,
            read_failures: 0,
            mismatched: 0,
            matched_any: false,
        }
    }

    /// Count one line's result, and say what it says.
    pub fn line(&mut self, r: Result<'_>) -> Said {
        let v = self.v;
        let mut said = Said::default();
        match r {
            Result::Malformed(n, why) => {
                self.misformatted += 1;
                if let Some(why) = why {
                    said.warning = Some(format!("{}: {n}: {why}", self.label));
                } else if v.warn {
                    said.warning = Some(format!(
                        "{}: {n}: improperly formatted {} checksum line",
                        self.label, self.display
                    ));
                }
            }
            Result::Unread {
                name,
                missing,
                cause,
            } => {
                self.properly_formatted += 1;
                if v.ignore_missing && missing {
                    return said;
                }
                said.warning = Some(format!("{}: {cause}", quote(name)));
                self.read_failures += 1;
                if !v.status {
                    let mut l = check_name(name);
                    l.extend_from_slice(b": FAILED open or read\n");
                    said.out = Some(l);
                }
            }
            Result::Hashed { name, matched } => {
                self.properly_formatted += 1;
                if matched {
                    self.matched_any = true;
                } else {
                    self.mismatched += 1;
                }
                if !v.status && (!matched || !v.quiet) {
                    let mut l = check_name(name);
                    l.extend_from_slice(if matched { b": OK\n" } else { b": FAILED\n" });
                    said.out = Some(l);
                }
            }
        }
        said
    }

    /// The end of the list (read to its end).
    pub fn summary(&self) -> Summary {
        let v = self.v;
        let label = &self.label;
        if self.properly_formatted == 0 {
            return Summary {
                flush_first: false,
                warnings: alloc::vec![format!(
                    "{label}: no properly formatted checksum lines found"
                )],
                passed: false,
            };
        }
        let mut warnings = Vec::new();
        if !v.status {
            if self.misformatted > 0 {
                warnings.push(plural(
                    self.misformatted,
                    "line is improperly formatted",
                    "lines are improperly formatted",
                ));
            }
            if self.read_failures > 0 {
                warnings.push(plural(
                    self.read_failures,
                    "listed file could not be read",
                    "listed files could not be read",
                ));
            }
            if self.mismatched > 0 {
                warnings.push(plural(
                    self.mismatched,
                    "computed checksum did NOT match",
                    "computed checksums did NOT match",
                ));
            }
            if v.ignore_missing && !self.matched_any {
                warnings.push(format!("{label}: no file was verified"));
            }
        }
        Summary {
            flush_first: !v.status,
            warnings,
            passed: self.matched_any
                && self.mismatched == 0
                && self.read_failures == 0
                && (!v.strict || self.misformatted == 0),
        }
    }

    /// The end of a list that could not be read to its end: no summary.
    pub fn read_error(&self, cause: &str) -> Summary {
        Summary {
            flush_first: true,
            warnings: alloc::vec![format!("{}: read error: {cause}", self.label)],
            passed: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_messages() {
        let v = Verbosity {
            warn: true,
            ..Verbosity::default()
        };
        let mut t = Tally::new("l", "SHA3-256", v);
        let s = t.line(Result::Malformed(3, None));
        assert_eq!(
            s.warning.as_deref(),
            Some("l: 3: improperly formatted SHA3-256 checksum line")
        );
        let s = t.line(Result::Hashed {
            name: b"a\nb",
            matched: true,
        });
        assert_eq!(s.out.as_deref(), Some(&b"\\a\\nb: OK\n"[..]));
        let s = t.line(Result::Unread {
            name: b"x y",
            missing: true,
            cause: "No such file or directory",
        });
        assert_eq!(
            s.warning.as_deref(),
            Some("'x y': No such file or directory")
        );
        let sum = t.summary();
        assert!(!sum.passed);
        assert_eq!(sum.warnings.len(), 2);
        let t = Tally::new("l", "X", v);
        assert_eq!(
            t.summary().warnings,
            ["l: no properly formatted checksum lines found"]
        );
    }
}
