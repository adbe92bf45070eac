//! Base64 digests (RFC 4648 §4, standard alphabet, `=` padding), as GNU
//! `cksum --base64` writes them and `cksum --check` reads them.

use alloc::string::String;
use alloc::vec::Vec;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Whether `c` can appear in a base64 digest (padding included).
pub fn is_base64_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'='
}

/// `bytes` in base64, padded to a multiple of four characters.
pub fn encode(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let v = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                s.push(ALPHABET[(v >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

fn value(c: u8) -> Option<u32> {
    ALPHABET.iter().position(|&a| a == c).map(|p| p as u32)
}

/// The bytes of a padded base64 string, or None unless it is exactly what
/// [`encode`] writes for them (so one digest has one spelling).
pub fn decode(s: &[u8]) -> Option<Vec<u8>> {
    if s.is_empty() || !s.len().is_multiple_of(4) {
        return None;
    }
    let pad = s.iter().rev().take_while(|&&c| c == b'=').count();
    if pad > 2 {
        return None;
    }
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    for quad in s[..s.len() - pad].chunks(4) {
        let mut v = 0u32;
        for (k, &c) in quad.iter().enumerate() {
            v |= value(c)? << (18 - 6 * k);
        }
        let n = quad.len() - 1; // bytes this group holds: 3, or 1-2 at a padded end
        out.extend_from_slice(&v.to_be_bytes()[1..1 + n]);
    }
    (encode(&out).as_bytes() == s).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc4648_vectors_and_canonical_form() {
        // RFC 4648 §10.
        for (plain, b64) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(plain.as_bytes()), b64);
            if !plain.is_empty() {
                assert_eq!(decode(b64.as_bytes()).unwrap(), plain.as_bytes());
            }
        }
        let all: Vec<u8> = (0..=255).collect();
        for n in 0..all.len() {
            assert_eq!(decode(encode(&all[n..]).as_bytes()).unwrap(), &all[n..]);
        }
        for bad in ["", "Zg=", "Zg", "Zh==", "Z===", "Zm9v=", "Zm$v", "Zg==Zg=="] {
            assert!(decode(bad.as_bytes()).is_none(), "{bad}");
        }
    }
}
