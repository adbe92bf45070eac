//! Nodes and leaves: Keccak-256, the sorted pair hash, the standard leaf,
//! and nodes as hex.

use alloc::string::String;

use super::abi::{self, encode, AbiType};
use super::error::MerkleError;
use super::json::Value;
use crate::engine::LaneSpec;

/// A 32-byte tree node.
pub type Hash = [u8; 32];

/// Keccak-256 (original padding 0x01, rate 136, 24 rounds).
pub(crate) const KECCAK256: LaneSpec = LaneSpec::fixed(136, 24, 0x01);

/// `keccak256(data)` on the one-state path.
pub fn keccak256(data: &[u8]) -> Hash {
    let mut out = [0u8; 32];
    KECCAK256.hash_one(data, &mut out);
    out
}

/// The inner-node hash: `keccak256` of the two children in ascending order.
pub fn node_hash(a: &Hash, b: &Hash) -> Hash {
    let mut m = [0u8; 64];
    sorted_pair(a, b, &mut m);
    keccak256(&m)
}

/// `min(a, b) ‖ max(a, b)` into `m`.
#[inline]
pub(crate) fn sorted_pair(a: &Hash, b: &Hash, m: &mut [u8; 64]) {
    let (lo, hi) = if le(a, b) { (a, b) } else { (b, a) };
    m[..32].copy_from_slice(lo);
    m[32..].copy_from_slice(hi);
}

/// `a <= b` as byte strings: the first eight bytes as one big-endian word
/// decide all but one pair in 2^64 of random nodes without a `memcmp` call.
#[inline]
fn le(a: &Hash, b: &Hash) -> bool {
    let word = |h: &Hash| u64::from_be_bytes([h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]]);
    match word(a).cmp(&word(b)) {
        core::cmp::Ordering::Less => true,
        core::cmp::Ordering::Greater => false,
        core::cmp::Ordering::Equal => a[8..] <= b[8..],
    }
}

/// A standard leaf: `keccak256(keccak256(abi.encode(types, values)))`.
pub fn standard_leaf_hash(types: &[AbiType], values: &[Value]) -> Result<Hash, MerkleError> {
    let enc = encode(types, values)?;
    Ok(keccak256(&keccak256(&enc)))
}

/// Lower-case `0x`-prefixed hex.
pub fn to_hex(bytes: &[u8]) -> String {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(2 + 2 * bytes.len());
    s.push_str("0x");
    for &b in bytes {
        s.push(D[(b >> 4) as usize] as char);
        s.push(D[(b & 15) as usize] as char);
    }
    s
}

/// `0x` and a node's 64 lower-case hex digits onto `s`, without a
/// string of its own.
pub fn push_hex(h: &Hash, s: &mut String) {
    const D: &[u8; 16] = b"0123456789abcdef";
    let mut buf = [0u8; 66];
    buf[0] = b'0';
    buf[1] = b'x';
    for (k, &b) in h.iter().enumerate() {
        buf[2 + 2 * k] = D[(b >> 4) as usize];
        buf[3 + 2 * k] = D[(b & 15) as usize];
    }
    s.push_str(core::str::from_utf8(&buf).expect("hex digits are ASCII"));
}

/// A node from `0x` + 64 hex digits (either case).
pub fn parse_hash(s: &str) -> Result<Hash, MerkleError> {
    let bad = || MerkleError::arg(alloc::format!("not a 32-byte hex node: {:?}", short(s)));
    let hex = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or_else(bad)?;
    if hex.len() != 64 {
        return Err(bad());
    }
    let v = abi::hex_decode(hex).ok_or_else(bad)?;
    let mut h = [0u8; 32];
    h.copy_from_slice(&v);
    Ok(h)
}

fn short(s: &str) -> &str {
    let mut cut = s.len().min(80);
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    &s[..cut]
}
