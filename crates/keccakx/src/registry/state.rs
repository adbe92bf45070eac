//! Portable sponge states: a [`Hasher`] (absorbing) or a [`Squeezer`]
//! (mid-output) of any sequential function saved as a versioned blob and
//! restored in another process, machine or language (Python's
//! `export_state` / `keccakx.import_state`), and Go's `crypto/sha3`
//! `MarshalBinary` states read and written for SHA-3, SHAKE, cSHAKE and
//! Keccak. Layout and rules: docs/outboard.md, "Portable states".
//!
//! A blob binds the function's name and all its parameters (never a KMAC
//! key: the key's effect is in the sponge state, which is therefore as
//! secret as the key) and ends with a checksum; a blob of another version,
//! a corrupted one, or one of another function when restoring into a given
//! hasher, is refused with its own [`StateError`].

use alloc::string::String;
use alloc::vec::Vec;

use super::{Hasher, Inner, Params};
use crate::fips202::Sha3_256;
use crate::sponge::{RawSponge, XofReader};

const CHECKSUM: usize = 16;
/// The longest output length a blob may carry (16 MiB): `finalize()`
/// allocates that many bytes at once, so a blob from outside must not be
/// able to ask for more than any front end's digest (the CLI's
/// `--length` stops at 1 MiB). Longer output is read through a reader
/// (`Squeezer`), whose position a blob does carry.
const MAX_OUT_LEN: u64 = 1 << 24;
/// The phase byte of a KT / ParallelHash state being absorbed (0: a
/// sponge absorbing, 1: any function being read).
const PHASE_TREE: u8 = 2;

mod tree;
mod wire;

use wire::{put_bytes, Reader};
pub use wire::{StateError, STATE_MAGIC, STATE_VERSION};

/// A function's output being read: [`Hasher::into_squeezer`]; its state
/// exports mid-output.
#[derive(Clone)]
pub struct Squeezer {
    proto: Hasher,
    reader: XofReader,
}

impl Squeezer {
    /// The next `out.len()` output bytes.
    pub fn read(&mut self, out: &mut [u8]) {
        self.reader.read(out)
    }

    pub fn hasher_info(&self) -> &Hasher {
        &self.proto
    }

    /// A squeezer of `reader`, which must come from `hasher`'s (or an
    /// identical hasher's) `finalize_reader` (else the exported blob
    /// names the wrong function).
    pub fn from_reader(hasher: &Hasher, reader: XofReader) -> Squeezer {
        Squeezer {
            proto: hasher.fresh(),
            reader,
        }
    }

    /// The reader.
    pub fn into_reader(self) -> XofReader {
        self.reader
    }

    /// The state as a portable blob.
    pub fn export_state(&self) -> Result<Vec<u8>, StateError> {
        encode(&self.proto, 1, &self.reader.raw(), None, None)
    }

    /// The state as Go's `crypto/sha3` `MarshalBinary` bytes (SHA3-*,
    /// SHAKE*, cSHAKE*, Keccak-*).
    pub fn to_go_state(&self) -> Result<Vec<u8>, StateError> {
        go_encode(&self.proto, &self.reader.raw(), true)
    }
}

/// What a blob holds.
#[allow(clippy::large_enum_variant)] // one value per import: no array of them
pub enum Imported {
    Absorbing(Hasher),
    Squeezing(Squeezer),
}

impl Hasher {
    /// Finish absorbing and read output through a [`Squeezer`], whose
    /// state can be exported between reads.
    pub fn into_squeezer(self) -> Squeezer {
        let proto = self.fresh();
        Squeezer {
            proto,
            reader: self.finalize_reader(),
        }
    }

    /// A new hasher of the same function and parameters.
    fn fresh(&self) -> Hasher {
        // Only a KMAC needs its key, which is not kept: any key gives a
        // hasher of the same shape, whose state is then overwritten.
        let mut p = (*self.params).clone();
        if p.key.is_none() && self.info.accepts(super::Param::Key) {
            p.key = Some(alloc::vec![0]);
        }
        Hasher::new(self.info.name, &p).unwrap_or_else(|_| self.clone())
    }

    fn raw_absorbing(&self) -> Result<(RawSponge, Option<(u64, u64)>), StateError> {
        let mut h = self.clone();
        let byte = |s: &mut crate::sponge::ByteSponge| {
            let (lanes, _, _, pos) = s.raw();
            RawSponge {
                golden: false,
                lanes,
                pos,
                pending: None,
            }
        };
        Ok(match &mut h.inner {
            Inner::Sponge(s) => (s.raw(), None),
            Inner::CShake128(x) => (byte(x.sponge_mut()), None),
            Inner::CShake256(x) => (byte(x.sponge_mut()), None),
            Inner::Kmac128(x, _) => (byte(x.sponge_mut()), None),
            Inner::Kmac256(x, _) => (byte(x.sponge_mut()), None),
            Inner::Tuple128(x, _) => (byte(x.sponge_mut()), None),
            Inner::Tuple256(x, _) => (byte(x.sponge_mut()), None),
            Inner::TupleStream128(x, _) => {
                let (s, e, n) = x.parts_mut();
                (byte(s), Some((*e, *n)))
            }
            Inner::TupleStream256(x, _) => {
                let (s, e, n) = x.parts_mut();
                (byte(s), Some((*e, *n)))
            }
            Inner::Turbo128(x) => (byte(x.sponge_mut()), None),
            Inner::Turbo256(x) => (byte(x.sponge_mut()), None),
            Inner::Kt128(_) | Inner::Kt256(_) => return Err(no_sponge("KT")),
            Inner::Parallel128(..) | Inner::Parallel256(..) => {
                return Err(no_sponge("ParallelHash"))
            }
            Inner::Tree(_) => return Err(no_sponge("tree LI")),
        })
    }

    fn set_raw_absorbing(&mut self, r: &RawSponge, tuple: Option<(u64, u64)>) -> bool {
        let byte = |s: &mut crate::sponge::ByteSponge| {
            let (_, rate, _, _) = s.raw();
            if r.golden || r.pending.is_some() || r.pos >= rate {
                return false;
            }
            s.set_raw(r.lanes, r.pos);
            true
        };
        if let Some((e, _)) = tuple {
            let h = core::mem::replace(self, self.fresh());
            *self = h.with_input_length(e);
        }
        match (&mut self.inner, tuple) {
            (Inner::Sponge(s), None) => s.set_raw(r),
            (Inner::CShake128(x), None) => byte(x.sponge_mut()),
            (Inner::CShake256(x), None) => byte(x.sponge_mut()),
            (Inner::Kmac128(x, _), None) => byte(x.sponge_mut()),
            (Inner::Kmac256(x, _), None) => byte(x.sponge_mut()),
            (Inner::Tuple128(x, _), None) => byte(x.sponge_mut()),
            (Inner::Tuple256(x, _), None) => byte(x.sponge_mut()),
            (Inner::TupleStream128(x, _), Some((_, n))) => {
                let (s, _, seen) = x.parts_mut();
                *seen = n;
                byte(s)
            }
            (Inner::TupleStream256(x, _), Some((_, n))) => {
                let (s, _, seen) = x.parts_mut();
                *seen = n;
                byte(s)
            }
            (Inner::Turbo128(x), None) => byte(x.sponge_mut()),
            (Inner::Turbo256(x), None) => byte(x.sponge_mut()),
            _ => false,
        }
    }

    /// The absorbing state as a portable blob: the sponge, or for KT and
    /// ParallelHash their final node, CV count and partial chunk (see
    /// `state/tree.rs`); an error for tree LI, whose running state is
    /// many sponges.
    pub fn export_state(&self) -> Result<Vec<u8>, StateError> {
        if let Some(t) = tree::export(&self.inner) {
            let raw = RawSponge {
                golden: false,
                lanes: t.node,
                pos: t.node_pos,
                pending: None,
            };
            return encode(self, PHASE_TREE, &raw, None, Some(&t));
        }
        let (raw, tuple) = self.raw_absorbing()?;
        encode(self, 0, &raw, tuple, None)
    }

    /// Replace this hasher's state with `blob`'s, which must be an
    /// absorbing state of the same function and parameters.
    pub fn restore_state(&mut self, blob: &[u8]) -> Result<(), StateError> {
        match import_state(blob)? {
            Imported::Absorbing(h) if identity(&h) == identity(self) => {
                *self = h;
                Ok(())
            }
            Imported::Absorbing(h) => Err(StateError::OtherFunction(describe(&h))),
            Imported::Squeezing(_) => Err(StateError::Unsupported(
                "the state is of a function being read (squeezing): import it with import_state",
            )),
        }
    }

    /// The absorbing state as Go's `crypto/sha3` `MarshalBinary` bytes
    /// (SHA3-*, SHAKE*, cSHAKE*, Keccak-*).
    pub fn to_go_state(&self) -> Result<Vec<u8>, StateError> {
        let (raw, _) = self.raw_absorbing()?;
        go_encode(self, &raw, false)
    }
}

fn no_sponge(what: &'static str) -> StateError {
    StateError::Unsupported(match what {
        "KT" => "KT128/KT256 have no Go state (Go's crypto/sha3 has no KT)",
        "ParallelHash" => "ParallelHash has no Go state (Go's crypto/sha3 has no ParallelHash)",
        _ => "tree LI has no portable state (its running state is many sponges)",
    })
}

/// The function and parameters a blob binds (the key left out).
fn identity(h: &Hasher) -> Vec<u8> {
    let p = &h.params;
    let mut v = Vec::new();
    put_bytes(&mut v, h.info.name.as_bytes());
    v.extend_from_slice(&(h.out_len as u64).to_le_bytes());
    put_bytes(&mut v, &p.customization);
    put_bytes(&mut v, &p.function_name);
    let opt = |v: &mut Vec<u8>, x: Option<usize>| {
        v.push(x.is_some() as u8);
        v.extend_from_slice(&(x.unwrap_or(0) as u64).to_le_bytes());
    };
    opt(&mut v, p.domain.map(usize::from));
    opt(&mut v, p.width);
    opt(&mut v, p.rate);
    opt(&mut v, p.capacity);
    opt(&mut v, p.rounds);
    opt(&mut v, p.suffix.map(usize::from));
    // ParallelHash's B, after the fields every blob has (so the other
    // functions' identities are as before).
    if h.info.accepts(super::Param::BlockSize) {
        opt(&mut v, p.block_size);
    }
    v
}

fn describe(h: &Hasher) -> String {
    String::from(h.info.display)
}

fn encode(
    h: &Hasher,
    phase: u8,
    r: &RawSponge,
    tuple: Option<(u64, u64)>,
    tree: Option<&tree::TreeState>,
) -> Result<Vec<u8>, StateError> {
    if h.out_len as u64 > MAX_OUT_LEN {
        return Err(StateError::Unsupported(
            "an output length over 16 MiB has no portable state (finish it, or read it through a reader)",
        ));
    }
    let mut v = Vec::with_capacity(320);
    v.extend_from_slice(&STATE_MAGIC);
    v.push(STATE_VERSION);
    v.push(phase);
    let id = identity(h);
    put_bytes(&mut v, &id);
    v.push(r.golden as u8);
    v.extend_from_slice(&(r.pos as u32).to_le_bytes());
    let (bits, n) = r.pending.unwrap_or((0, 0));
    v.push(n);
    v.push(bits);
    for lane in r.lanes {
        v.extend_from_slice(&lane.to_le_bytes());
    }
    v.push(tuple.is_some() as u8);
    let (e, s) = tuple.unwrap_or((0, 0));
    v.extend_from_slice(&e.to_le_bytes());
    v.extend_from_slice(&s.to_le_bytes());
    if let Some(t) = tree {
        tree::encode(&mut v, t);
    }
    let sum = Sha3_256::digest(&v);
    v.extend_from_slice(&sum[..CHECKSUM]);
    Ok(v)
}

/// The hasher a blob's identity describes (fresh: its state not set).
fn hasher_for(id: &[u8]) -> Result<Hasher, StateError> {
    let bad = StateError::Corrupted("invalid function or parameters");
    let mut r = Reader(id);
    let name = core::str::from_utf8(r.bytes()?).map_err(|_| bad.clone())?;
    let out_len = r.u64()?;
    if out_len > MAX_OUT_LEN {
        return Err(StateError::Corrupted("output length over 16 MiB"));
    }
    let mut p = Params {
        length: Some(usize::try_from(out_len).map_err(|_| bad.clone())?),
        customization: r.bytes()?.to_vec(),
        function_name: r.bytes()?.to_vec(),
        ..Params::default()
    };
    let mut opt = || -> Result<Option<usize>, StateError> {
        let some = r.u8()?;
        let x = r.u64()?;
        Ok((some == 1).then_some(x as usize))
    };
    let small = |x: Option<usize>| {
        x.map(|v| u8::try_from(v).map_err(|_| bad.clone()))
            .transpose()
    };
    p.domain = small(opt()?)?;
    p.width = opt()?;
    p.rate = opt()?;
    p.capacity = opt()?;
    p.rounds = opt()?;
    p.suffix = small(opt()?)?;
    let info = super::find(name).ok_or(bad.clone())?;
    if info.accepts(super::Param::BlockSize) {
        p.block_size = opt()?;
    }
    if !r.0.is_empty() {
        return Err(bad);
    }
    if info.name != name {
        return Err(bad);
    }
    if !info.variable_len {
        p.length = (out_len as usize != info.default_len).then_some(out_len as usize);
    }
    if info.accepts(super::Param::Key) {
        p.key = Some(alloc::vec![0]);
    }
    Hasher::new(name, &p).map_err(|_| bad)
}

/// Restore a hasher or a squeezer from a blob written by `export_state`.
pub fn import_state(blob: &[u8]) -> Result<Imported, StateError> {
    if blob.len() < 8 || blob[..8] != STATE_MAGIC {
        return Err(StateError::NotAState);
    }
    if blob.len() < 10 + CHECKSUM {
        return Err(StateError::Corrupted("truncated"));
    }
    if blob[8] != STATE_VERSION {
        return Err(StateError::Version(blob[8]));
    }
    let (body, sum) = blob.split_at(blob.len() - CHECKSUM);
    if !crate::ct_eq(&Sha3_256::digest(body)[..CHECKSUM], sum) {
        return Err(StateError::Corrupted("checksum mismatch"));
    }
    let mut r = Reader(&body[9..]);
    let phase = r.u8()?;
    let id = r.bytes()?;
    let golden = r.u8()?;
    let pos = r.u32()? as usize;
    let (n, bits) = (r.u8()?, r.u8()?);
    let mut lanes = [0u64; 25];
    for l in lanes.iter_mut() {
        *l = r.u64()?;
    }
    let tuple_some = r.u8()?;
    let tuple = (r.u64()?, r.u64()?);
    let tree = if phase == PHASE_TREE {
        Some(tree::decode(&mut r, lanes, pos)?)
    } else {
        None
    };
    if !r.0.is_empty() || golden > 1 || phase > PHASE_TREE || tuple_some > 1 {
        return Err(StateError::Corrupted("invalid structure"));
    }
    let raw = RawSponge {
        golden: golden == 1,
        lanes,
        pos,
        pending: (n > 0).then_some((bits, n)),
    };
    let mut h = hasher_for(id)?;
    let bad = StateError::Corrupted("the sponge state does not fit the function");
    if let Some(t) = tree {
        if golden != 0 || n != 0 || tuple_some != 0 || !tree::import(&mut h.inner, &t) {
            return Err(bad);
        }
        return Ok(Imported::Absorbing(h));
    }
    if phase == 0 {
        if !h.set_raw_absorbing(&raw, (tuple_some == 1).then_some(tuple)) {
            return Err(bad);
        }
        Ok(Imported::Absorbing(h))
    } else {
        if tuple_some == 1 {
            return Err(bad);
        }
        let rate_bits = h.rate_bytes * 8;
        let proto = h.fresh();
        let mut reader = h.finalize_reader();
        if !reader.set_raw(&raw, go_rate_bits(&proto, rate_bits)) {
            return Err(bad);
        }
        Ok(Imported::Squeezing(Squeezer { proto, reader }))
    }
}

/// The rate in bits of the sponge underneath (raw Keccak's may not be
/// whole bytes).
fn go_rate_bits(h: &Hasher, byte_rate_bits: usize) -> usize {
    match &h.inner {
        Inner::Sponge(s) => s.params().rate_bits(),
        _ => byte_rate_bits,
    }
}

// ---------------------------------------------------------------- Go

/// Go's magics ("sha" and a byte) by its domain-separation byte, and the
/// layout: magic || rate || 200-byte state || n || direction (0 absorbing,
/// 1 squeezing), then, for SHAKE/cSHAKE, cSHAKE's initBlock
/// (encode_string(N) || encode_string(S)). From Go's
/// src/crypto/internal/fips140/sha3/{sha3,shake}.go (Go 1.24+).
const GO_SHA3: u8 = 0x08;
const GO_SHAKE: u8 = 0x09;
const GO_CSHAKE: u8 = 0x0a;
const GO_KECCAK: u8 = 0x0b;
const GO_LEN: usize = 4 + 1 + 200 + 1 + 1;

fn left_encode(x: u64) -> Vec<u8> {
    let b = x.to_be_bytes();
    let skip = b.iter().take_while(|&&c| c == 0).count().min(7);
    let mut v = alloc::vec![(8 - skip) as u8];
    v.extend_from_slice(&b[skip..]);
    v
}

/// Go's kind byte and initBlock for a hasher, if Go has it.
fn go_kind(h: &Hasher) -> Result<(u8, Vec<u8>), StateError> {
    use super::Construction as C;
    let p = &h.params;
    let none = StateError::Unsupported(
        "Go's crypto/sha3 states exist for SHA3-*, SHAKE*, cSHAKE* and Keccak-* only",
    );
    Ok(match h.info.construction {
        C::Sponge(spec) => match spec.delimited_suffix {
            0x06 => (GO_SHA3, Vec::new()),
            0x1F => (GO_SHAKE, Vec::new()),
            0x01 => (GO_KECCAK, Vec::new()),
            _ => return Err(none),
        },
        C::CShake(_) if p.function_name.is_empty() && p.customization.is_empty() => {
            (GO_SHAKE, Vec::new())
        }
        C::CShake(_) => {
            let mut init = left_encode(p.function_name.len() as u64 * 8);
            init.extend_from_slice(&p.function_name);
            init.extend_from_slice(&left_encode(p.customization.len() as u64 * 8));
            init.extend_from_slice(&p.customization);
            (GO_CSHAKE, init)
        }
        _ => return Err(none),
    })
}

fn go_encode(h: &Hasher, r: &RawSponge, squeezing: bool) -> Result<Vec<u8>, StateError> {
    let (kind, init) = go_kind(h)?;
    if r.golden || r.pending.is_some() {
        return Err(StateError::Unsupported(
            "Go's states hold whole bytes only (this state has a partial byte)",
        ));
    }
    let mut v = Vec::with_capacity(GO_LEN + init.len());
    v.extend_from_slice(b"sha");
    v.push(kind);
    v.push(h.rate_bytes as u8);
    for lane in r.lanes {
        v.extend_from_slice(&lane.to_le_bytes());
    }
    v.push(r.pos as u8);
    v.push(squeezing as u8);
    v.extend_from_slice(&init);
    Ok(v)
}

/// Read a Go `crypto/sha3` `MarshalBinary` state for the function `name`
/// with `params` (its kind, rate and cSHAKE strings must match).
pub fn from_go_state(name: &str, params: &Params, go: &[u8]) -> Result<Imported, StateError> {
    let mut h = Hasher::new(name, params)
        .map_err(|_| StateError::Corrupted("invalid function or parameters"))?;
    let (kind, init) = go_kind(&h)?;
    if go.len() < GO_LEN || &go[..3] != b"sha" {
        return Err(StateError::NotAState);
    }
    if go[3] != kind || usize::from(go[4]) != h.rate_bytes || go[GO_LEN..] != init[..] {
        return Err(StateError::OtherFunction(String::from(
            "a Go state of another function",
        )));
    }
    let mut lanes = [0u64; 25];
    for (i, l) in lanes.iter_mut().enumerate() {
        *l = u64::from_le_bytes(go[5 + 8 * i..13 + 8 * i].try_into().unwrap_or([0; 8]));
    }
    let (pos, dir) = (usize::from(go[205]), go[206]);
    let raw = RawSponge {
        golden: false,
        lanes,
        pos,
        pending: None,
    };
    let bad = StateError::Corrupted("invalid Go state");
    match dir {
        0 => {
            // Go permutes as soon as a block fills; n == rate is not a
            // state it writes while absorbing.
            if !h.set_raw_absorbing(&raw, None) {
                return Err(bad);
            }
            Ok(Imported::Absorbing(h))
        }
        1 => {
            let proto = h.fresh();
            let mut reader = h.finalize_reader();
            if !reader.set_raw(&raw, proto.rate_bytes * 8) {
                return Err(bad);
            }
            Ok(Imported::Squeezing(Squeezer { proto, reader }))
        }
        _ => Err(bad),
    }
}

#[cfg(test)]
mod tests;
