//! Shared helpers for keccakx's conformance tests: locating and reading the
//! vector files in `tests/vectors` (plain or `.gz`), a parser for the
//! `Key = value` record format shared by NIST CAVP `.rsp`, the Keccak team's
//! KAT files and our own text files, and small byte-string utilities.
//!
//! Test code: a malformed vector file is a broken test fixture, so these
//! helpers panic with a message naming the file and line.

#![allow(dead_code)]

pub mod keccakf;
pub mod prng;
pub mod refmodel;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::PathBuf;

/// `tests/vectors` at the repository root.
pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/vectors")
}

/// Reads `tests/vectors/<rel>`; if only `<rel>.gz` exists (or `rel` ends in
/// `.gz`), decompresses it.
pub fn read_vector_file(rel: &str) -> String {
    let dir = vectors_dir();
    let plain = dir.join(rel);
    let (path, gz) = if rel.ends_with(".gz") {
        (plain, true)
    } else if plain.exists() {
        (plain, false)
    } else {
        (dir.join(format!("{rel}.gz")), true)
    };
    let raw = std::fs::read(&path)
        .unwrap_or_else(|e| panic!("cannot read vector file {}: {e}", path.display()));
    let bytes = if gz {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&raw[..])
            .read_to_end(&mut out)
            .unwrap_or_else(|e| panic!("cannot gunzip {}: {e}", path.display()));
        out
    } else {
        raw
    };
    String::from_utf8(bytes).unwrap_or_else(|_| panic!("{} is not UTF-8", path.display()))
}

/// Decodes hex (upper or lower case; spaces ignored).
pub fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(
        digits.len().is_multiple_of(2),
        "odd number of hex digits in {s:?}"
    );
    digits
        .chunks(2)
        .map(|p| {
            let v = |c: u8| match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => panic!("bad hex digit {:?} in {s:?}", c as char),
            };
            v(p[0]) << 4 | v(p[1])
        })
        .collect()
}

/// Lower-case hex, for failure messages.
pub fn to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// RFC 9861's ptn(n): 00 01 .. F9 FA repeated, truncated to n bytes.
pub fn ptn(n: usize) -> Vec<u8> {
    (0..n).map(|i| (i % 251) as u8).collect()
}

/// A byte string in our vector text format: hex (possibly empty),
/// `"ASCII text"`, or `ptn(n)`.
pub fn byte_string(v: &str) -> Vec<u8> {
    let v = v.trim();
    if let Some(q) = v.strip_prefix('"') {
        let text = q
            .strip_suffix('"')
            .unwrap_or_else(|| panic!("unterminated string {v:?}"));
        return text.as_bytes().to_vec();
    }
    if let Some(n) = v.strip_prefix("ptn(").and_then(|r| r.strip_suffix(')')) {
        let n: usize = n
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("bad ptn length in {v:?}"));
        return ptn(n);
    }
    hex(v)
}

/// The first `nbits` bits of a CAVP/KAT message field: "Msg = 00" with
/// Len = 0 is the empty string; otherwise the first ceil(Len/8) bytes.
pub fn msg_bits(msg_hex: &str, nbits: usize) -> Vec<u8> {
    let mut m = hex(msg_hex);
    assert!(
        m.len() * 8 >= nbits,
        "message {msg_hex:?} shorter than {nbits} bits"
    );
    m.truncate(nbits.div_ceil(8));
    m
}

/// One record of a `Key = value` file: the fields in order, the `[..]`
/// header parameters in force, and the line where it started.
#[derive(Clone, Debug)]
pub struct Record {
    pub file: String,
    pub line: usize,
    pub fields: Vec<(String, String)>,
    pub header: BTreeMap<String, String>,
}

impl Record {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
    /// A required field.
    pub fn req(&self, key: &str) -> &str {
        self.get(key)
            .unwrap_or_else(|| panic!("{}:{}: record has no field {key:?}", self.file, self.line))
    }
    /// Every value of a repeated field, in order.
    pub fn all(&self, key: &str) -> Vec<&str> {
        self.fields
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .collect()
    }
    pub fn usize(&self, key: &str) -> usize {
        let v = self.req(key);
        v.parse().unwrap_or_else(|_| {
            panic!(
                "{}:{}: field {key} = {v:?} is not a number",
                self.file, self.line
            )
        })
    }
    pub fn hex(&self, key: &str) -> Vec<u8> {
        hex(self.req(key))
    }
    pub fn bytes(&self, key: &str) -> Vec<u8> {
        byte_string(self.req(key))
    }
    /// A header parameter such as `[L = 256]`.
    pub fn header_usize(&self, key: &str) -> usize {
        let v = self.header.get(key).unwrap_or_else(|| {
            panic!(
                "{}:{}: no header [{key} = ..] in force",
                self.file, self.line
            )
        });
        v.parse()
            .unwrap_or_else(|_| panic!("{}: header {key} = {v:?} is not a number", self.file))
    }
    /// `file:line`, for failure messages.
    pub fn at(&self) -> String {
        format!("{}:{}", self.file, self.line)
    }
}

/// Parses the record format shared by CAVP `.rsp`, Keccak-team KAT files and
/// our own text files: `#` comments, `[Key = value]` header lines (which also
/// end a record), `Key = value` fields, records separated by blank lines.
/// Header lines without `=` (e.g. `[Tested for ...]`) are kept with an empty value.
pub fn parse_records(file: &str, text: &str) -> Vec<Record> {
    let mut out = Vec::new();
    let mut header = BTreeMap::new();
    let mut cur: Option<Record> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            if let Some(r) = cur.take() {
                out.push(r);
            }
            continue;
        }
        if let Some(inner) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            if let Some(r) = cur.take() {
                out.push(r);
            }
            match inner.split_once('=') {
                Some((k, v)) => header.insert(k.trim().to_string(), v.trim().to_string()),
                None => header.insert(inner.trim().to_string(), String::new()),
            };
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .unwrap_or_else(|| panic!("{file}:{}: expected `Key = value`, got {raw:?}", i + 1));
        let rec = cur.get_or_insert_with(|| Record {
            file: file.to_string(),
            line: i + 1,
            fields: Vec::new(),
            header: header.clone(),
        });
        rec.fields
            .push((k.trim().to_string(), v.trim().to_string()));
    }
    if let Some(r) = cur.take() {
        out.push(r);
    }
    out
}

/// Reads and parses a vector file.
pub fn load_records(rel: &str) -> Vec<Record> {
    parse_records(rel, &read_vector_file(rel))
}

/// Asserts equality of byte strings with a readable message.
#[track_caller]
pub fn check(got: &[u8], want: &[u8], what: &dyn std::fmt::Display) {
    if got != want {
        panic!(
            "MISMATCH {what}\n  got:  {}\n  want: {}",
            to_hex(got),
            to_hex(want)
        );
    }
}

/// The rightmost `n` bits of a big-endian-read byte string, as CAVP's SHAKE
/// Monte Carlo test reads them ("rightmost 16 bits of Output").
pub fn rightmost_u16(b: &[u8]) -> usize {
    assert!(b.len() >= 2);
    ((b[b.len() - 2] as usize) << 8) | b[b.len() - 1] as usize
}
