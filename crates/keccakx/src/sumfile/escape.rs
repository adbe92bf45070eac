//! File names the way GNU coreutils writes and reads them (byte strings;
//! a front end turns its own file names into bytes).
//!
//! * Checksum lines (`sha256sum` format): a name containing `\`, newline or
//!   carriage return is written with those three escaped (`\\`, `\n`, `\r`)
//!   and the whole line starts with a backslash; NUL-terminated lines are not escaped.
//! * A check report (`NAME: OK`) escapes names that hold control bytes
//!   ([`push_display_name`]; GNU escapes only newlines).
//! * Diagnostics quote names like gnulib's `quotef` (shell-escape style), so
//!   a message is always one line whatever the name holds.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Whether a name must be escaped in a checksum line.
pub fn needs_escape(name: &[u8]) -> bool {
    name.iter().any(|&c| c == b'\\' || c == b'\n' || c == b'\r')
}

/// Append `name` with `\`, newline and carriage return escaped.
pub fn push_escaped(out: &mut Vec<u8>, name: &[u8]) {
    for &c in name {
        match c {
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.push(c),
        }
    }
}

/// Whether a byte is a control character (C0 or DEL) that must not reach
/// a terminal raw.
pub fn is_control(c: u8) -> bool {
    c < 0x20 || c == 0x7f
}

/// A name as a check reports it (`NAME: OK`): as it is, unless it holds
/// a control character (C0, DEL or C1, such as the one-byte CSI U+009B a
/// terminal obeys) or a byte that is not UTF-8; then a leading backslash
/// and `\\`, `\n`, `\r`, `\t` and `\xHH` for each byte of the others.
/// GNU coreutils escapes only names with a newline (and writes carriage
/// returns, tabs and escape sequences raw, where a crafted name can
/// rewrite the terminal line).
pub fn push_display_name(out: &mut Vec<u8>, name: &[u8]) {
    let parts = pieces(name);
    if parts.iter().all(|p| matches!(p, Piece::Text(_))) {
        out.extend_from_slice(name);
        return;
    }
    out.push(b'\\');
    for part in parts {
        match part {
            Piece::Text(t) => {
                for &c in t.as_bytes() {
                    if c == b'\\' {
                        out.extend_from_slice(b"\\\\");
                    } else {
                        out.push(c);
                    }
                }
            }
            Piece::Byte(b'\n') => out.extend_from_slice(b"\\n"),
            Piece::Byte(b'\r') => out.extend_from_slice(b"\\r"),
            Piece::Byte(b'\t') => out.extend_from_slice(b"\\t"),
            Piece::Byte(c) => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(&[
                    b'\\',
                    b'x',
                    HEX[(c >> 4) as usize],
                    HEX[(c & 15) as usize],
                ]);
            }
        }
    }
}

/// Undo [`push_escaped`]; `None` for a lone trailing backslash, an escape
/// other than `\\`, `\n`, `\r`, or a NUL byte (coreutils rejects those lines).
pub fn unescape(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut it = s.iter();
    while let Some(&c) = it.next() {
        match c {
            b'\\' => match it.next()? {
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b'\\' => out.push(b'\\'),
                _ => return None,
            },
            0 => return None,
            _ => out.push(c),
        }
    }
    Some(out)
}

/// Characters that never need quoting in a diagnostic.
fn is_plain(c: u8, first: bool) -> bool {
    match c {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => true,
        b'%' | b'+' | b',' | b'-' | b'.' | b'/' | b'@' | b']' | b'_' | b'{' | b'}' => true,
        b'#' | b'~' => !first,
        _ => false,
    }
}

/// The `$'..'` escape of a byte that cannot appear raw.
fn push_ansi_c(out: &mut String, c: u8) {
    match c {
        0x07 => out.push_str("\\a"),
        0x08 => out.push_str("\\b"),
        0x0c => out.push_str("\\f"),
        b'\n' => out.push_str("\\n"),
        b'\r' => out.push_str("\\r"),
        b'\t' => out.push_str("\\t"),
        0x0b => out.push_str("\\v"),
        _ => out.push_str(&format!("\\{c:03o}")),
    }
}

/// Split a name into runs of printable text and single unprintable bytes
/// (control characters, DEL, invalid UTF-8).
enum Piece<'a> {
    Text(&'a str),
    Byte(u8),
}

fn pieces(mut b: &[u8]) -> Vec<Piece<'_>> {
    let mut out = Vec::new();
    while !b.is_empty() {
        let (valid, rest) = match std::str::from_utf8(b) {
            Ok(s) => (s, &b[b.len()..]),
            Err(e) => {
                let (v, r) = b.split_at(e.valid_up_to());
                // `v` is valid UTF-8 by construction.
                (std::str::from_utf8(v).unwrap_or(""), r)
            }
        };
        let mut start = 0;
        for (i, ch) in valid.char_indices() {
            if ch.is_control() {
                if start < i {
                    out.push(Piece::Text(&valid[start..i]));
                }
                let mut buf = [0u8; 4];
                for &byte in ch.encode_utf8(&mut buf).as_bytes() {
                    out.push(Piece::Byte(byte));
                }
                start = i + ch.len_utf8();
            }
        }
        if start < valid.len() {
            out.push(Piece::Text(&valid[start..]));
        }
        if let Some((&bad, tail)) = rest.split_first() {
            out.push(Piece::Byte(bad));
            b = tail;
        } else {
            b = rest;
        }
    }
    out
}

/// Quote a file name for a diagnostic like gnulib's `quotef`: unchanged when
/// it holds only plain characters, else in single quotes (double quotes when
/// that avoids escaping a single quote), with unprintable bytes as `$'\n'`.
pub fn quote(name: &[u8]) -> String {
    if name.is_empty() {
        return "''".to_string();
    }
    let printable_utf8 = |b: &[u8]| -> bool {
        std::str::from_utf8(b)
            .map(|s| !s.chars().any(char::is_control))
            .unwrap_or(false)
    };
    if name
        .iter()
        .enumerate()
        .all(|(i, &c)| is_plain(c, i == 0) || c >= 0x80)
        && printable_utf8(name)
    {
        return String::from_utf8_lossy(name).into_owned();
    }
    let has_single = name.contains(&b'\'');
    if has_single
        && printable_utf8(name)
        && !name
            .iter()
            .any(|&c| matches!(c, b'"' | b'$' | b'`' | b'\\' | b'!'))
    {
        return format!("\"{}\"", String::from_utf8_lossy(name));
    }
    let mut out = String::from("'");
    let mut open = true;
    for p in pieces(name) {
        match p {
            Piece::Text(t) => {
                if !open {
                    out.push('\'');
                    open = true;
                }
                for ch in t.chars() {
                    if ch == '\'' {
                        out.push_str("'\\''");
                    } else {
                        out.push(ch);
                    }
                }
            }
            Piece::Byte(c) => {
                if open {
                    out.push('\'');
                    open = false;
                }
                out.push_str("$'");
                push_ansi_c(&mut out, c);
                out.push('\'');
            }
        }
    }
    if open {
        out.push('\'');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_round_trip() {
        let name = b"a\\b\nc\rd";
        let mut e = Vec::new();
        push_escaped(&mut e, name);
        assert_eq!(e, b"a\\\\b\\nc\\rd");
        assert_eq!(unescape(&e).unwrap(), name);
        assert!(unescape(b"a\\").is_none());
        assert!(unescape(b"a\\q").is_none());
        assert!(unescape(b"a\0").is_none());
    }

    #[test]
    fn display_names_carry_no_control_bytes() {
        let show = |n: &[u8]| {
            let mut v = Vec::new();
            push_display_name(&mut v, n);
            v
        };
        assert_eq!(show(b"plain name"), b"plain name");
        assert_eq!(show(b"back\\slash"), b"back\\slash");
        assert_eq!(show(b"nl\nx\\y"), b"\\nl\\nx\\\\y");
        assert_eq!(show(b"cr\rtab\t"), b"\\cr\\rtab\\t");
        assert_eq!(
            show(b"esc\x1b[2Jbel\x07del\x7f"),
            b"\\esc\\x1b[2Jbel\\x07del\\x7f"
        );
        for c in 0u8..=255 {
            let v = show(&[b'a', c, b'b']);
            assert!(!v.iter().any(|&b| is_control(b)), "{c}");
        }
        // C1 controls (U+009B, CSI, clears a screen as `\x1b[` does) and
        // bytes that are not UTF-8 never pass raw.
        assert_eq!(show(b"c1\xc2\x9b2J"), b"\\c1\\xc2\\x9b2J");
        assert_eq!(show(b"raw\x9b2J"), b"\\raw\\x9b2J");
        assert_eq!(show("n\u{f6}".as_bytes()), "n\u{f6}".as_bytes());
        for c in 0x80u32..0xa0 {
            let mut name = b"a\\".to_vec();
            name.extend_from_slice(char::from_u32(c).unwrap().to_string().as_bytes());
            assert!(display_is_safe(&show(&name)), "{c:x}");
        }
    }

    /// What [`push_display_name`] promises: valid UTF-8 without a control
    /// character (C0, DEL, C1).
    pub fn display_is_safe(v: &[u8]) -> bool {
        std::str::from_utf8(v).is_ok_and(|s| !s.chars().any(char::is_control))
    }

    #[test]
    fn quoting_like_gnulib() {
        // Expected strings observed from GNU coreutils 9.1 `sha256sum` diagnostics.
        let cases: &[(&[u8], &str)] = &[
            (b"plain/file.txt", "plain/file.txt"),
            (b"no such", "'no such'"),
            (b"no\nsuch", "'no'$'\\n''such'"),
            (b"no'such", "\"no'such\""),
            ("n\u{f6}".as_bytes(), "n\u{f6}"),
            (b"~x", "'~x'"),
            (b"a#b", "a#b"),
            (b"#a", "'#a'"),
            (b"a=b", "'a=b'"),
            (b"", "''"),
            (b"a:b", "'a:b'"),
            (b"a,b", "a,b"),
            (b"a\\b", "'a\\b'"),
            (b"a'b\"c", "'a'\\''b\"c'"),
            (b"a'b c", "\"a'b c\""),
            (b"a\tb", "'a'$'\\t''b'"),
            (b"a\x01b", "'a'$'\\001''b'"),
            (b"a\xffb", "'a'$'\\377''b'"),
            (b"a?b", "'a?b'"),
            (b"'", "\"'\""),
            (b"\"", "'\"'"),
        ];
        for (name, want) in cases {
            assert_eq!(quote(name), *want, "{:?}", String::from_utf8_lossy(name));
        }
    }
}
