//! Batch hashing: many independent messages (equal or different lengths)
//! with any function of the [registry], the shape Merkle trees and
//! deduplication need.
//!
//! Functions that are one plain width-1600 sponge (SHA3-*, SHAKE*,
//! Keccak-*, TurboSHAKE*, raw Keccak[r, c] with b = 1600 and a byte rate)
//! run on the multi-lane engine (SIMD lanes, then cores). The others
//! (cSHAKE, KMAC, TupleHash, ParallelHash, KT, tree LI) hash message by
//! message, messages spread over threads.
//!
//! ```
//! use keccakx::{batch, registry::Params};
//! let msgs: Vec<&[u8]> = vec![b"abc", b"", b"hello"];
//! let out = batch::hash_many("sha3-256", &Params::default(), &msgs, 32).unwrap();
//! assert_eq!(&out[..32], &keccakx::fips202::Sha3_256::digest(b"abc"));
//! ```

use alloc::vec;
use alloc::vec::Vec;

use crate::engine::LaneSpec;
use crate::error::{Error, Result};
use crate::registry::{self, Hasher, Params};

/// Hash every message with the function `name` (a [`registry`] name) and
/// `params`; output `i` is `out[i * out_len..(i + 1) * out_len]`.
///
/// `out_len` must be the digest size for fixed-output functions; for the
/// others it is the output length (bound into the result for KMAC,
/// TupleHash and ParallelHash, as `--length` would be). For TupleHash each
/// message is a tuple of one element.
pub fn hash_many(
    name: &str,
    params: &Params,
    messages: &[&[u8]],
    out_len: usize,
) -> Result<Vec<u8>> {
    let n = messages
        .len()
        .checked_mul(out_len)
        .ok_or(Error::InvalidParameter("batch output too large"))?;
    let mut out = vec![0u8; n];
    hash_many_into(name, params, messages, out_len, &mut out)?;
    Ok(out)
}

/// [`hash_many`] into a caller's buffer (reused across calls, no
/// allocation on the lane path); `out.len()` must be `messages.len() * out_len`.
pub fn hash_many_into(
    name: &str,
    params: &Params,
    messages: &[&[u8]],
    out_len: usize,
    out: &mut [u8],
) -> Result<()> {
    crate::engine::EngineRef::Current
        .with(|e| hash_many_into_with(e, name, params, messages, out_len, out))
}

/// [`hash_many_into`] with the plain sponges on `engine` (a GPU, a chosen
/// CPU engine); the other functions hash message by message on the CPU.
pub fn hash_many_into_with(
    engine: &dyn crate::engine::Engine,
    name: &str,
    params: &Params,
    messages: &[&[u8]],
    out_len: usize,
    out: &mut [u8],
) -> Result<()> {
    if Some(out.len()) != messages.len().checked_mul(out_len) {
        return Err(Error::InvalidParameter(
            "batch output buffer must hold messages × out_len bytes",
        ));
    }
    let info = registry::find(name).ok_or(Error::InvalidParameter(
        "unknown algorithm (run `keccakx list` for the names)",
    ))?;
    let mut p = params.clone();
    if info.variable_len {
        p.length = Some(out_len);
    } else if out_len != info.default_len {
        return Err(Error::InvalidParameter(
            "this algorithm has a fixed output length: out_len must be its digest size",
        ));
    }
    // Validates every parameter, whichever path runs below.
    let proto = Hasher::new(name, &p)?;
    if out_len == 0 {
        return Ok(());
    }
    if let Some(spec) = lane_spec(info.name, &p)? {
        engine.hash_many(&spec, messages, out_len, out);
        return Ok(());
    }
    per_message(&proto, messages, out_len, out);
    Ok(())
}

/// The plain sponge behind `name`, if it is one (see the module doc).
pub fn lane_spec(name: &str, p: &Params) -> Result<Option<LaneSpec>> {
    match registry::find(name) {
        Some(info) => info.construction.lane_spec(p),
        None => Ok(None),
    }
}

fn hash_range(proto: &Hasher, messages: &[&[u8]], out_len: usize, out: &mut [u8]) {
    for (m, o) in messages.iter().zip(out.chunks_exact_mut(out_len)) {
        let mut h = proto.clone();
        h.update(m);
        h.finalize_reader().read(o);
    }
}

/// Message by message, spread over up to [`crate::engine::threads`] cores.
fn per_message(proto: &Hasher, messages: &[&[u8]], out_len: usize, out: &mut [u8]) {
    // Contiguous ranges of about equal bytes, several per thread.
    #[cfg(feature = "std")]
    crate::engine::for_each_piece(
        messages,
        out,
        out_len,
        |m| m.len() + 64,
        1,
        &mut || {},
        |part, mine| hash_range(proto, part, out_len, mine),
    );
    #[cfg(not(feature = "std"))]
    hash_range(proto, messages, out_len, out)
}
