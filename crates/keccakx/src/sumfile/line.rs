//! Checksum lines: written ([`format_line`]) and read ([`Parser`]) in the
//! formats of GNU coreutils (`HEX  NAME`, `HEX *NAME`), its tagged BSD
//! form (`ALG (NAME) = HEX`), sha3sum's marks (`U` universal newlines,
//! `^` bits) and base64 digests as `cksum --base64` writes them.

use alloc::vec::Vec;

use super::base64;
use super::escape::{needs_escape, push_escaped, unescape};

/// How a listed file is read: the mark of an untagged line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Mode {
    /// The bytes as they are (marks ` ` text and `*` binary).
    #[default]
    Bytes,
    /// sha3sum's `U`: universal newlines (CRLF and CR read as LF).
    Universal,
    /// sha3sum's `^`: the file holds the message as '0'/'1' characters.
    Bits,
}

impl Mode {
    /// The mode an untagged line's mark stands for (None: not a mark).
    pub fn from_mark(mark: u8) -> Option<Mode> {
        match mark {
            b' ' | b'*' => Some(Mode::Bytes),
            b'U' => Some(Mode::Universal),
            b'^' => Some(Mode::Bits),
            _ => None,
        }
    }

    /// The mark written for this mode (`binary`: `*` rather than ` `).
    pub fn mark(self, binary: bool) -> u8 {
        match self {
            Mode::Bytes if binary => b'*',
            Mode::Bytes => b' ',
            Mode::Universal => b'U',
            Mode::Bits => b'^',
        }
    }
}

/// One checksum line, ending in a newline (or a NUL when `zero`):
/// `digest` as the front end spells it (hex or base64), `display` the
/// algorithm's tag name. A name holding `\`, a newline or a carriage
/// return is escaped and the line starts with `\`, unless `zero`.
pub fn format_line(
    tag: bool,
    zero: bool,
    mark: u8,
    display: &str,
    digest: &str,
    name: &[u8],
) -> Vec<u8> {
    let mut l = Vec::with_capacity(name.len() + digest.len() + display.len() + 8);
    let esc = !zero && needs_escape(name);
    if esc {
        l.push(b'\\');
    }
    let push_name = |l: &mut Vec<u8>| {
        if esc {
            push_escaped(l, name);
        } else {
            l.extend_from_slice(name);
        }
    };
    if tag {
        l.extend_from_slice(display.as_bytes());
        l.extend_from_slice(b" (");
        push_name(&mut l);
        l.extend_from_slice(b") = ");
        l.extend_from_slice(digest.as_bytes());
    } else {
        l.extend_from_slice(digest.as_bytes());
        l.push(b' ');
        l.push(mark);
        push_name(&mut l);
    }
    l.push(if zero { 0 } else { b'\n' });
    l
}

/// The algorithms a list may name: a front end's own table (the library's
/// registry, and whatever else the front end computes).
pub trait Catalog {
    /// A handle on one algorithm.
    type Alg: Copy;
    /// The algorithm a tagged line names (its tag name in any case, or
    /// another of its names).
    fn by_tag(&self, tag: &str) -> Option<Self::Alg>;
    /// The algorithm of an untagged line of `hex_len` hex digits when none
    /// was chosen (what sha3sum writes: [`sha3sum_by_hex_len`]).
    fn by_hex_len(&self, hex_len: usize) -> Option<Self::Alg>;
    /// Whether two handles are the same algorithm.
    fn same(&self, a: Self::Alg, b: Self::Alg) -> bool;
    /// Its default output length in bytes, and whether the length may vary.
    fn lengths(&self, a: Self::Alg) -> (usize, bool);
}

/// The registry names and output lengths of sha3sum's untagged lines:
/// SHA3-224/256/384/512, and SHAKE128/256 of one whole rate (168 / 136
/// bytes), told apart by their number of hex digits (None: no such line).
pub fn sha3sum_by_hex_len(hex_len: usize) -> Option<(&'static str, usize)> {
    const LINES: [(&str, usize); 6] = [
        ("sha3-224", 28),
        ("sha3-256", 32),
        ("sha3-384", 48),
        ("sha3-512", 64),
        ("shake128", 168),
        ("shake256", 136),
    ];
    LINES.iter().copied().find(|&(_, n)| 2 * n == hex_len)
}

/// What the reader of a list was told: the algorithm chosen, and the length.
#[derive(Clone, Copy, Debug)]
pub struct Rules<A> {
    /// The algorithm chosen (or the default).
    pub alg: A,
    /// Whether it was chosen: then an untagged digest is this algorithm's
    /// (hex or base64); otherwise its number of hex digits names it.
    pub chosen: bool,
    /// A chosen algorithm restricts the list: lines of other algorithms,
    /// and digests shorter than its default unless `length` allows them,
    /// are improperly formatted (as `cksum -a` does: a choice must not let
    /// a weaker check pass). Off where a caller judges the algorithm itself.
    pub restrict: bool,
    /// The output length chosen, in bytes.
    pub length: Option<usize>,
    /// The longest digest, in bytes, of a variable-length algorithm.
    pub max_len: usize,
}

impl<A: Copy> Rules<A> {
    /// Whether `hex_len` hex digits fit `alg`.
    pub fn fits<C: Catalog<Alg = A>>(&self, cat: &C, alg: A, hex_len: usize) -> bool {
        if hex_len < 2 || !hex_len.is_multiple_of(2) {
            return false;
        }
        let n = hex_len / 2;
        let (default_len, variable) = cat.lengths(alg);
        if !variable {
            return n == default_len;
        }
        match self.length {
            Some(l) => n == l,
            None if self.restrict && self.chosen => (default_len..=self.max_len).contains(&n),
            None => n <= self.max_len,
        }
    }

    /// The digest a line's field spells for `alg`: hexadecimal, or base64
    /// where it is not hex of a length `alg` takes (hex digits are base64
    /// characters too: hex wins).
    fn digest<C: Catalog<Alg = A>>(&self, cat: &C, alg: A, field: &[u8]) -> Option<Vec<u8>> {
        if field.iter().all(u8::is_ascii_hexdigit) && self.fits(cat, alg, field.len()) {
            return decode_hex(field);
        }
        let bytes = base64::decode(field)?;
        self.fits(cat, alg, 2 * bytes.len()).then_some(bytes)
    }
}

/// A parsed checksum line.
#[derive(Clone, Debug)]
pub struct Entry<A> {
    /// The file name (unescaped).
    pub name: Vec<u8>,
    /// The digest the line expects.
    pub expected: Vec<u8>,
    /// Its algorithm.
    pub alg: A,
    /// How to read the file.
    pub mode: Mode,
}

fn is_white(c: u8) -> bool {
    c == b' ' || c == b'\t'
}

fn hex_val(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

fn decode_hex(h: &[u8]) -> Option<Vec<u8>> {
    h.chunks(2)
        .map(|p| Some(hex_val(p[0])? << 4 | hex_val(*p.get(1)?)?))
        .collect()
}

/// The text of one line of a list (its newline and a carriage return
/// before it removed), or None for a comment or an empty line.
pub fn line_text(raw: &[u8]) -> Option<&[u8]> {
    if raw.first() == Some(&b'#') {
        return None;
    }
    let line = raw.strip_suffix(b"\n").unwrap_or(raw);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    (!line.is_empty()).then_some(line)
}

/// The lines of one checksum list: untagged lines with a single space
/// (`md5 -r` style) may not be mixed with two-column lines.
#[derive(Clone, Debug)]
pub struct Parser {
    /// -1: undecided; 0: two-column lines seen; 1: reversed lines seen.
    bsd_reversed: i8,
}

impl Default for Parser {
    fn default() -> Self {
        Parser { bsd_reversed: -1 }
    }
}

impl Parser {
    /// A parser for a new list.
    pub fn new() -> Parser {
        Parser::default()
    }

    /// Parse one line (without its newline), as coreutils' split_3 does;
    /// None when it is improperly formatted.
    pub fn parse<C: Catalog>(
        &mut self,
        s: &[u8],
        cat: &C,
        rules: &Rules<C::Alg>,
    ) -> Option<Entry<C::Alg>> {
        let mut i = 0;
        while i < s.len() && is_white(s[i]) {
            i += 1;
        }
        let escaped = s.get(i) == Some(&b'\\');
        if escaped {
            i += 1;
        }
        // Tagged: NAME, an optional space, '('.
        let rest = &s[i..];
        let name_end = rest
            .iter()
            .position(|&c| c == b' ' || c == b'(')
            .unwrap_or(rest.len());
        if name_end > 0 {
            if let Some(alg) = core::str::from_utf8(&rest[..name_end])
                .ok()
                .and_then(|t| cat.by_tag(t))
            {
                if rules.restrict && rules.chosen && !cat.same(alg, rules.alg) {
                    return None;
                }
                let mut j = name_end;
                if rest.get(j) == Some(&b' ') {
                    j += 1;
                }
                if rest.get(j) != Some(&b'(') {
                    return None;
                }
                return parse_tagged(&rest[j + 1..], escaped, alg, cat, rules);
            }
        }
        // Untagged: DIGEST, whitespace, a mark (' ' | '*' | 'U' | '^'), NAME.
        let hex_len = rest.iter().take_while(|c| c.is_ascii_hexdigit()).count();
        let (alg, field_len) = if rules.chosen {
            let len = rest
                .iter()
                .take_while(|&&c| base64::is_base64_char(c))
                .count();
            (rules.alg, len)
        } else {
            (cat.by_hex_len(hex_len)?, hex_len)
        };
        if !rest.get(field_len).is_some_and(|&c| is_white(c)) {
            return None;
        }
        let expected = rules.digest(cat, alg, &rest[..field_len])?;
        let mut k = field_len + 1;
        let left = rest.len() - k;
        let mark = rest.get(k).copied().and_then(Mode::from_mark);
        let mut mode = Mode::Bytes;
        if left == 1 || mark.is_none() {
            if self.bsd_reversed == 0 {
                return None;
            }
            self.bsd_reversed = 1;
        } else if self.bsd_reversed != 1 {
            self.bsd_reversed = 0;
            mode = mark.unwrap_or_default();
            k += 1;
        }
        let name = unescaped(&rest[k..], escaped)?;
        Some(Entry {
            name,
            expected,
            alg,
            mode,
        })
    }
}

/// A name as the line holds it, unescaped where the line says so; None
/// for a bad escape or a NUL (no file name holds one).
fn unescaped(name: &[u8], escaped: bool) -> Option<Vec<u8>> {
    let name = if escaped {
        unescape(name)?
    } else {
        name.to_vec()
    };
    (!name.contains(&0)).then_some(name)
}

fn parse_tagged<C: Catalog>(
    s: &[u8],
    escaped: bool,
    alg: C::Alg,
    cat: &C,
    rules: &Rules<C::Alg>,
) -> Option<Entry<C::Alg>> {
    let close = s.iter().rposition(|&c| c == b')')?;
    let name = unescaped(&s[..close], escaped)?;
    let mut i = close + 1;
    while i < s.len() && is_white(s[i]) {
        i += 1;
    }
    if s.get(i) != Some(&b'=') {
        return None;
    }
    i += 1;
    while i < s.len() && is_white(s[i]) {
        i += 1;
    }
    Some(Entry {
        name,
        expected: rules.digest(cat, alg, &s[i..])?,
        alg,
        mode: Mode::Bytes,
    })
}
