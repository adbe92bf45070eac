//! Solidity ABI encoding (`abi.encode`) of leaf values, as OpenZeppelin's
//! trees use it: the types `address`, `uint<N>`/`int<N>` (`uint`/`int` =
//! 256), `bytes<N>`, `bool`, `bytes`, `string`, tuples `(T1,T2,...)` and
//! arrays `T[]`/`T[k]` of them.
//!
//! Which values a type accepts follows `@metamask/abi-utils` 2.x (the
//! encoder `@openzeppelin/merkle-tree` 1.0.8 calls; its `parsers/*.js` and
//! `@metamask/utils`' `createBytes`/`createBigInt`):
//! - bytes-like (`address`, `bytes<N>`, `bytes`): a string `0x` followed by
//!   hex digits (either case; an odd count gets a leading zero), or `0x`
//!   alone (empty). An address takes at most 20 bytes (zeros in front),
//!   `bytes<N>` at most N (zeros behind).
//! - numbers: a JSON integer, or a string as JavaScript's `BigInt(string)`
//!   reads it (decimal with an optional sign, `0x`/`0o`/`0b` without sign,
//!   surrounding white space; the empty string is 0), in the type's range.
//! - `bool`: `true`/`false`, or the strings `"true"`/`"false"`.
//! - `string`: a string (UTF-8).
//! - tuples and arrays: a JSON array of the right length.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::error::MerkleError;
use super::json::Value;

/// One ABI type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AbiType {
    Address,
    /// `uint<bits>`.
    Uint(u16),
    /// `int<bits>`.
    Int(u16),
    Bool,
    /// `bytes<N>`, 1 ≤ N ≤ 32.
    FixedBytes(u8),
    Bytes,
    String,
    /// `T[]` (None) or `T[k]`.
    Array(Box<AbiType>, Option<usize>),
    Tuple(Vec<AbiType>),
}

fn type_err(t: &str, why: &str) -> MerkleError {
    MerkleError::abi(format!("invalid ABI type \"{t}\": {why}"))
}

impl AbiType {
    /// Parse a type as the encoder names it (`"uint256"`, `"(address,uint8)[]"`).
    pub fn parse(t: &str) -> Result<AbiType, MerkleError> {
        match t {
            "address" => return Ok(AbiType::Address),
            "bool" => return Ok(AbiType::Bool),
            "bytes" => return Ok(AbiType::Bytes),
            "string" => return Ok(AbiType::String),
            _ => {}
        }
        // Arrays before tuples: "(a,b)[]" is an array of tuples.
        if let Some(body) = t.strip_suffix(']') {
            if let Some(open) = body.rfind('[') {
                let (inner, len) = (&body[..open], &body[open + 1..]);
                if !inner.is_empty() && len.bytes().all(|b| b.is_ascii_digit()) {
                    let len = if len.is_empty() {
                        None
                    } else {
                        match len.parse::<usize>() {
                            Ok(0) | Err(_) => {
                                return Err(type_err(t, "array length must be 1 or more"))
                            }
                            Ok(k) => Some(k),
                        }
                    };
                    return Ok(AbiType::Array(Box::new(AbiType::parse(inner)?), len));
                }
            }
        }
        if let Some(rest) = t.strip_prefix("bytes") {
            if !rest.is_empty() && rest.len() <= 2 && rest.bytes().all(|b| b.is_ascii_digit()) {
                let n: u8 = rest.parse().unwrap_or(0);
                if n == 0 || n > 32 {
                    return Err(type_err(t, "byte length must be 1..32"));
                }
                return Ok(AbiType::FixedBytes(n));
            }
        }
        let (signed, rest) = if let Some(r) = t.strip_prefix("uint") {
            (false, Some(r))
        } else {
            (true, t.strip_prefix("int"))
        };
        if let Some(rest) = rest {
            if rest.bytes().all(|b| b.is_ascii_digit()) {
                let bits = if rest.is_empty() {
                    256
                } else {
                    match rest.parse::<u16>() {
                        Ok(b) if (8..=256).contains(&b) && b % 8 == 0 => b,
                        _ => {
                            return Err(type_err(t, "bit length must be a multiple of 8 in 8..256"))
                        }
                    }
                };
                return Ok(if signed {
                    AbiType::Int(bits)
                } else {
                    AbiType::Uint(bits)
                });
            }
        }
        if let Some(body) = t.strip_prefix('(').and_then(|b| b.strip_suffix(')')) {
            let mut elems = Vec::new();
            let (mut depth, mut start) = (0i32, 0usize);
            for (i, c) in body.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    ',' if depth == 0 => {
                        elems.push(AbiType::parse(body[start..i].trim())?);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            let last = body[start..].trim();
            if !last.is_empty() {
                elems.push(AbiType::parse(last)?);
            }
            if elems.is_empty() {
                return Err(type_err(t, "a tuple needs at least one element"));
            }
            return Ok(AbiType::Tuple(elems));
        }
        Err(MerkleError::abi(format!(
            "the type \"{t}\" is not supported"
        )))
    }

    /// Whether the encoding goes to the tail behind an offset word.
    pub fn is_dynamic(&self) -> bool {
        match self {
            AbiType::Bytes | AbiType::String => true,
            AbiType::Array(inner, len) => len.is_none() || inner.is_dynamic(),
            AbiType::Tuple(ts) => ts.iter().any(AbiType::is_dynamic),
            _ => false,
        }
    }

    /// Bytes the value takes in the head of its enclosing sequence.
    fn head_len(&self) -> usize {
        if self.is_dynamic() {
            return 32;
        }
        match self {
            AbiType::Array(inner, Some(k)) => inner.head_len() * k,
            AbiType::Tuple(ts) => ts.iter().map(AbiType::head_len).sum(),
            _ => 32,
        }
    }
}

/// Parse a list of types (a leaf encoding).
pub fn parse_types<S: AsRef<str>>(types: &[S]) -> Result<Vec<AbiType>, MerkleError> {
    types.iter().map(|t| AbiType::parse(t.as_ref())).collect()
}

/// `abi.encode(types, values)` appended to `out`.
pub fn encode_into(
    types: &[AbiType],
    values: &[Value],
    out: &mut Vec<u8>,
) -> Result<(), MerkleError> {
    if types.len() != values.len() {
        return Err(MerkleError::abi(format!(
            "the number of types ({}) does not match the number of values ({})",
            types.len(),
            values.len()
        )));
    }
    let base = out.len();
    let head: usize = types.iter().map(AbiType::head_len).sum();
    out.resize(base + head, 0);
    let mut at = base;
    for (t, v) in types.iter().zip(values) {
        if t.is_dynamic() {
            let offset = out.len() - base;
            put_usize(&mut out[at..at + 32], offset);
            encode_tail(t, v, out)?;
            at += 32;
        } else {
            let n = t.head_len();
            encode_static(t, v, out, at)?;
            at += n;
        }
    }
    Ok(())
}

/// `abi.encode(types, values)`.
pub fn encode(types: &[AbiType], values: &[Value]) -> Result<Vec<u8>, MerkleError> {
    let mut out = Vec::new();
    encode_into(types, values, &mut out)?;
    Ok(out)
}

fn put_usize(word: &mut [u8], n: usize) {
    word.fill(0);
    word[24..].copy_from_slice(&(n as u64).to_be_bytes());
}

fn seq<'v>(t: &AbiType, v: &'v Value, len: Option<usize>) -> Result<&'v [Value], MerkleError> {
    match v {
        Value::Array(items) => match len {
            Some(k) if items.len() != k => Err(MerkleError::abi(format!(
                "{}: expected {k} values, got {}",
                type_name(t),
                items.len()
            ))),
            _ => Ok(items),
        },
        _ => Err(MerkleError::abi(format!(
            "{}: expected an array, got {}",
            type_name(t),
            v.short()
        ))),
    }
}

/// A static value into `out[at..at + head_len]`.
fn encode_static(t: &AbiType, v: &Value, out: &mut Vec<u8>, at: usize) -> Result<(), MerkleError> {
    match t {
        AbiType::Array(inner, Some(k)) => {
            let items = seq(t, v, Some(*k))?;
            let n = inner.head_len();
            for (i, item) in items.iter().enumerate() {
                encode_static(inner, item, out, at + i * n)?;
            }
            Ok(())
        }
        AbiType::Tuple(ts) => {
            let items = seq(t, v, Some(ts.len()))?;
            let mut p = at;
            for (et, item) in ts.iter().zip(items) {
                encode_static(et, item, out, p)?;
                p += et.head_len();
            }
            Ok(())
        }
        _ => {
            let mut word = [0u8; 32];
            encode_word(t, v, &mut word)?;
            out[at..at + 32].copy_from_slice(&word);
            Ok(())
        }
    }
}

/// A dynamic value appended to `out` (its tail).
fn encode_tail(t: &AbiType, v: &Value, out: &mut Vec<u8>) -> Result<(), MerkleError> {
    match t {
        AbiType::Bytes | AbiType::String => {
            let bytes: Vec<u8>;
            let data: &[u8] = match (t, v) {
                (AbiType::String, Value::Str(s)) => s.as_bytes(),
                (AbiType::String, _) => {
                    return Err(MerkleError::abi(format!(
                        "string: expected a string, got {}",
                        v.short()
                    )))
                }
                _ => {
                    bytes = bytes_like(t, v)?;
                    &bytes
                }
            };
            let mut word = [0u8; 32];
            put_usize(&mut word, data.len());
            out.extend_from_slice(&word);
            out.extend_from_slice(data);
            let pad = (32 - data.len() % 32) % 32;
            out.resize(out.len() + pad, 0);
            Ok(())
        }
        AbiType::Array(inner, len) => {
            let items = seq(t, v, *len)?;
            if len.is_none() {
                let mut word = [0u8; 32];
                put_usize(&mut word, items.len());
                out.extend_from_slice(&word);
            }
            let types: Vec<AbiType> = items.iter().map(|_| (**inner).clone()).collect();
            encode_into(&types, items, out)
        }
        AbiType::Tuple(ts) => {
            let items = seq(t, v, Some(ts.len()))?;
            encode_into(ts, items, out)
        }
        _ => unreachable!("static types have no tail"),
    }
}

/// A type's name as written (for errors).
pub fn type_name(t: &AbiType) -> String {
    match t {
        AbiType::Address => "address".to_string(),
        AbiType::Uint(b) => format!("uint{b}"),
        AbiType::Int(b) => format!("int{b}"),
        AbiType::Bool => "bool".to_string(),
        AbiType::FixedBytes(n) => format!("bytes{n}"),
        AbiType::Bytes => "bytes".to_string(),
        AbiType::String => "string".to_string(),
        AbiType::Array(inner, Some(k)) => format!("{}[{k}]", type_name(inner)),
        AbiType::Array(inner, None) => format!("{}[]", type_name(inner)),
        AbiType::Tuple(ts) => {
            let parts: Vec<String> = ts.iter().map(type_name).collect();
            format!("({})", parts.join(","))
        }
    }
}

/// One 32-byte word of an elementary static type.
fn encode_word(t: &AbiType, v: &Value, word: &mut [u8; 32]) -> Result<(), MerkleError> {
    match t {
        AbiType::Address => {
            let b = bytes_like(t, v)?;
            if b.len() > 20 {
                return Err(MerkleError::abi(format!(
                    "invalid address {}: {} bytes, at most 20",
                    v.short(),
                    b.len()
                )));
            }
            word[32 - b.len()..].copy_from_slice(&b);
        }
        AbiType::FixedBytes(n) => {
            let b = bytes_like(t, v)?;
            if b.len() > *n as usize {
                return Err(MerkleError::abi(format!(
                    "bytes{n} value {}: {} bytes, at most {n}",
                    v.short(),
                    b.len()
                )));
            }
            word[..b.len()].copy_from_slice(&b);
        }
        AbiType::Bool => {
            let b = match v {
                Value::Bool(b) => *b,
                Value::Str(s) if s == "true" => true,
                Value::Str(s) if s == "false" => false,
                _ => {
                    return Err(MerkleError::abi(format!(
                        "invalid boolean {}: expected true, false, \"true\" or \"false\"",
                        v.short()
                    )))
                }
            };
            word[31] = b as u8;
        }
        AbiType::Uint(bits) | AbiType::Int(bits) => {
            let signed = matches!(t, AbiType::Int(_));
            let (neg, mag) = parse_int(v)?;
            let fits = fits(&mag, neg, signed, *bits as usize);
            if !fits {
                return Err(MerkleError::abi(format!(
                    "number {} is out of range for type \"{}\"",
                    v.short(),
                    type_name(t)
                )));
            }
            *word = mag;
            if neg {
                // Two's complement: invert and add one.
                let mut carry = true;
                for b in word.iter_mut().rev() {
                    let (x, c) = (!*b).overflowing_add(carry as u8);
                    *b = x;
                    carry = c;
                }
            }
        }
        _ => unreachable!("not an elementary static type"),
    }
    Ok(())
}

/// Whether `mag` (big-endian magnitude, sign `neg`) fits the type.
fn fits(mag: &[u8; 32], neg: bool, signed: bool, bits: usize) -> bool {
    if neg && !signed {
        return mag.iter().all(|&b| b == 0);
    }
    // Highest set bit + 1 (0 for zero).
    let mut width = 0;
    for (i, &b) in mag.iter().enumerate() {
        if b != 0 {
            width = (32 - i) * 8 - b.leading_zeros() as usize;
            break;
        }
    }
    if !signed {
        return width <= bits;
    }
    if !neg {
        return width < bits;
    }
    // -2^(bits-1) is the one negative value of width `bits`.
    if width < bits {
        return true;
    }
    if width > bits {
        return false;
    }
    let top = 32 - bits / 8;
    mag[top] == 0x80 && mag[top + 1..].iter().all(|&b| b == 0)
}

/// A number value as (negative, big-endian magnitude below 2^256).
fn parse_int(v: &Value) -> Result<(bool, [u8; 32]), MerkleError> {
    let bad = || MerkleError::abi(format!("invalid number {}", v.short()));
    let s = match v {
        Value::Num(s) => s.as_str(),
        Value::Str(s) => s.as_str(),
        _ => return Err(bad()),
    };
    // JavaScript's StringToBigInt trims white space (ASCII and Unicode).
    let s = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    let (neg, body, radix) = if let Some(r) = strip_radix(s, 'x') {
        (false, r, 16)
    } else if let Some(r) = strip_radix(s, 'o') {
        (false, r, 8)
    } else if let Some(r) = strip_radix(s, 'b') {
        (false, r, 2)
    } else if let Some(r) = s.strip_prefix('-') {
        (true, r, 10)
    } else {
        (false, s.strip_prefix('+').unwrap_or(s), 10)
    };
    if body.is_empty() && (radix != 10 || !s.is_empty()) {
        return Err(bad());
    }
    let mut mag = [0u8; 32];
    for c in body.chars() {
        let d = c.to_digit(radix).ok_or_else(bad)?;
        // mag = mag * radix + d, failing past 2^256.
        let mut carry = d;
        for b in mag.iter_mut().rev() {
            let x = *b as u32 * radix + carry;
            *b = x as u8;
            carry = x >> 8;
        }
        if carry != 0 {
            return Err(MerkleError::abi(format!(
                "number {} does not fit 256 bits",
                v.short()
            )));
        }
    }
    let neg = neg && mag.iter().any(|&b| b != 0);
    Ok((neg, mag))
}

fn strip_radix(s: &str, letter: char) -> Option<&str> {
    let b = s.as_bytes();
    if b.len() >= 2 && b[0] == b'0' && (b[1] as char).eq_ignore_ascii_case(&letter) {
        Some(&s[2..])
    } else {
        None
    }
}

/// A bytes-like value: `0x` + hex digits.
pub(crate) fn bytes_like(t: &AbiType, v: &Value) -> Result<Vec<u8>, MerkleError> {
    let bad = || {
        MerkleError::abi(format!(
            "{}: expected a 0x-prefixed hex string, got {}",
            type_name(t),
            v.short()
        ))
    };
    let Value::Str(s) = v else { return Err(bad()) };
    let hex = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(bad)?;
    if hex.is_empty() {
        return Ok(Vec::new());
    }
    hex_decode(hex).ok_or_else(bad)
}

/// Hex digits (either case, odd count allowed: a leading 0) to bytes.
pub(crate) fn hex_decode(hex: &str) -> Option<Vec<u8>> {
    let b = hex.as_bytes();
    let mut out = Vec::with_capacity(b.len().div_ceil(2));
    let nib = |c: u8| -> Option<u8> {
        match c {
            b'0'..=b'9' => Some(c - b'0'),
            b'a'..=b'f' => Some(c - b'a' + 10),
            b'A'..=b'F' => Some(c - b'A' + 10),
            _ => None,
        }
    };
    let mut i = 0;
    if b.len() % 2 == 1 {
        out.push(nib(b[0])?);
        i = 1;
    }
    while i < b.len() {
        out.push(nib(b[i])? << 4 | nib(b[i + 1])?);
        i += 2;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn s(x: &str) -> Value {
        Value::Str(x.to_string())
    }

    #[test]
    fn types_parse() {
        assert_eq!(AbiType::parse("uint").unwrap(), AbiType::Uint(256));
        assert_eq!(AbiType::parse("int8").unwrap(), AbiType::Int(8));
        assert_eq!(
            AbiType::parse("(address, uint8)[2]").unwrap(),
            AbiType::Array(
                Box::new(AbiType::Tuple(vec![AbiType::Address, AbiType::Uint(8)])),
                Some(2)
            )
        );
        for bad in [
            "uint7", "uint264", "bytes0", "bytes33", "foo", "()", "uint8[0]", "",
        ] {
            assert!(AbiType::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn encodes_like_solidity() {
        // abi.encode(address(0x11..11), uint256(5)): two words.
        let t = parse_types(&["address", "uint256"]).unwrap();
        let e = encode(
            &t,
            &[s("0x1111111111111111111111111111111111111111"), s("5")],
        )
        .unwrap();
        assert_eq!(e.len(), 64);
        assert_eq!(&e[12..32], &[0x11; 20]);
        assert_eq!(e[63], 5);
        // abi.encode("abc"): offset 0x20, length 3, "abc" padded.
        let e = encode(&[AbiType::String], &[s("abc")]).unwrap();
        assert_eq!(e.len(), 96);
        assert_eq!(e[31], 0x20);
        assert_eq!(e[63], 3);
        assert_eq!(&e[64..67], b"abc");
        // int8(-1) is all ones; int8(-129) does not fit, int8(-128) does.
        let e = encode(&[AbiType::Int(8)], &[s("-1")]).unwrap();
        assert_eq!(e, vec![0xff; 32]);
        assert!(encode(&[AbiType::Int(8)], &[s("-129")]).is_err());
        assert!(encode(&[AbiType::Int(8)], &[s("-128")]).is_ok());
        assert!(encode(&[AbiType::Int(8)], &[s("128")]).is_err());
        assert!(encode(&[AbiType::Uint(8)], &[s("256")]).is_err());
        assert!(encode(&[AbiType::Uint(8)], &[s("0xff")]).is_ok());
        assert!(encode(&[AbiType::Uint(8)], &[s("-1")]).is_err());
        assert!(encode(&[AbiType::Address], &[s("1111")]).is_err());
        assert!(encode(&[AbiType::Address], &[s("0x")]).is_ok());
    }
}
