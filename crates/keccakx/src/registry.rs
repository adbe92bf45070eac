//! Every function of the family by name, with run-time parameters: the one
//! table the CLI (`keccakx list`, `-a NAME`) and the Python module share.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::engine::LaneSpec;
use crate::error::{Error, Result, SumRule};
use crate::rfc9861::{Kt128, Kt256, TurboShake128, TurboShake256};
use crate::sp800_185::{
    CShake128, CShake256, Kmac128, Kmac256, ParallelHash128, ParallelHash256, TupleHash128,
    TupleHash256,
};
use crate::sp800_185::{TupleHash128Stream, TupleHash256Stream};
use crate::sponge::{Sponge, SpongeParams, Suffix, XofReader};
use crate::tree_li::{TreeLi, TreeLiParams};
use crate::{fips202, keccak};

pub mod state;

pub use crate::field::{Field, Param};

/// One entry of the table.
#[derive(Clone, Copy, Debug)]
pub struct AlgorithmInfo {
    /// Canonical lower-case name (`-a` value).
    pub name: &'static str,
    /// Display name (as in the standards; used by `--tag`).
    pub display: &'static str,
    /// Default output length in bytes.
    pub default_len: usize,
    /// Whether the output length can be chosen.
    pub variable_len: bool,
    /// Whether it is an extendable-output function: the output length is
    /// not bound into the result (any prefix of a longer output is the
    /// shorter output). SHAKE, cSHAKE, KMACXOF, TupleHashXOF,
    /// ParallelHashXOF, TurboSHAKE, KT, raw Keccak and tree LI; not KMAC,
    /// TupleHash and ParallelHash, which bind the length L.
    pub xof: bool,
    /// Rate (block size) in bytes where it is fixed; `None` where the
    /// parameters choose it (raw Keccak, tree LI): see [`Hasher::rate_bytes`].
    pub rate_bytes: Option<usize>,
    /// Parameters accepted.
    pub params: &'static [Param],
    /// Where it is specified.
    pub spec: &'static str,
    /// What it computes: the sponge underneath and the mode on top (the
    /// registry builds its hasher and its lane spec from this).
    pub construction: Construction,
}

/// The two strengths of the SP 800-185 and RFC 9861 functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// 128-bit security: rate 168 bytes (cSHAKE128, KT128, ...).
    S128,
    /// 256-bit security: rate 136 bytes.
    S256,
}

impl Strength {
    /// Rate in bytes.
    pub const fn rate_bytes(self) -> usize {
        match self {
            Strength::S128 => 168,
            Strength::S256 => 136,
        }
    }
}

/// What a row of the table computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Construction {
    /// One Keccak-f\[1600\] sponge with a fixed rate and suffix (SHA-3,
    /// SHAKE, Keccak-n): its lane spec, from the mode's module.
    Sponge(LaneSpec),
    /// cSHAKE (SP 800-185 §3).
    CShake(Strength),
    /// KMAC, or KMACXOF when `xof` (§4).
    Kmac { strength: Strength, xof: bool },
    /// TupleHash, or TupleHashXOF when `xof` (§5).
    TupleHash { strength: Strength, xof: bool },
    /// ParallelHash, or ParallelHashXOF when `xof` (§6).
    ParallelHash { strength: Strength, xof: bool },
    /// TurboSHAKE (RFC 9861), domain byte from the parameters.
    TurboShake(Strength),
    /// KangarooTwelve: KT128 / KT256 (RFC 9861).
    Kt(Strength),
    /// Raw Keccak[r, c]: width, rate, rounds and suffix from the parameters.
    RawKeccak,
    /// Tree mode LI (docs/tree-li.md).
    TreeLi,
}

impl Construction {
    /// Rate in bytes where it is fixed (None: the parameters choose it).
    pub const fn rate_bytes(self) -> Option<usize> {
        match self {
            Construction::Sponge(spec) => Some(spec.rate_bytes),
            Construction::CShake(s)
            | Construction::Kmac { strength: s, .. }
            | Construction::TupleHash { strength: s, .. }
            | Construction::ParallelHash { strength: s, .. }
            | Construction::TurboShake(s)
            | Construction::Kt(s) => Some(s.rate_bytes()),
            Construction::RawKeccak | Construction::TreeLi => None,
        }
    }

    /// The one sponge of width 1600 with a byte rate that the function is
    /// for `p` (what the engines hash many of at once), if it is one:
    /// the fixed sponges, TurboSHAKE, cSHAKE with empty N and S (SHAKE),
    /// raw Keccak[r, c] of width 1600 with a rate of whole words. `p` must
    /// have been validated by [`Hasher::new`].
    pub fn lane_spec(self, p: &Params) -> Result<Option<LaneSpec>> {
        let (rate, rounds, suffix) = match self {
            Construction::Sponge(spec) => return Ok(Some(spec)),
            Construction::TurboShake(s) => (
                s.rate_bytes(),
                TurboShake128::ROUNDS,
                p.domain.unwrap_or(TurboShake128::DEFAULT_DOMAIN),
            ),
            // cSHAKE with empty function name and customization is SHAKE.
            Construction::CShake(s) if p.function_name.is_empty() && p.customization.is_empty() => {
                (s.rate_bytes(), 24, 0x1F)
            }
            Construction::RawKeccak => {
                // The registry's resolution of width and rate, for
                // parameters it has validated (anything else: no lanes).
                let width = match (p.width, p.rate, p.capacity) {
                    (Some(w), _, _) => w,
                    (None, Some(r), Some(c)) => r + c,
                    _ => 1600,
                };
                let rate = match (p.rate, p.capacity) {
                    (Some(r), _) => r,
                    (None, Some(c)) => width.saturating_sub(c),
                    (None, None) => return Ok(None),
                };
                if width != 1600 || rate % 8 != 0 {
                    return Ok(None);
                }
                (rate / 8, p.rounds.unwrap_or(24), p.suffix.unwrap_or(0x01))
            }
            _ => return Ok(None),
        };
        LaneSpec::new(rate, rounds, suffix).map(Some)
    }

    /// Whether the input's length must be known before its first byte
    /// when it is hashed as one piece (TupleHash: encode_string puts the
    /// element's length first; see [`Hasher::with_input_length`]).
    pub fn needs_input_length(self) -> bool {
        matches!(self, Construction::TupleHash { .. })
    }

    /// Whether a message may end inside a byte (FIPS 202's bit strings:
    /// the plain sponges, SHA3-*, SHAKE*, Keccak-* and raw Keccak[r, c]);
    /// see [`Hasher::update_bits`].
    pub fn takes_bits(self) -> bool {
        matches!(self, Construction::Sponge(_) | Construction::RawKeccak)
    }
}

use Param::*;

/// `info!(name, display, default_len, variable_len, xof, construction, [params], spec)`
macro_rules! info {
    ($name:expr, $display:expr, $len:expr, $var:expr, $xof:expr, $c:expr, [$($p:expr),*], $spec:expr) => {
        AlgorithmInfo {
            name: $name,
            display: $display,
            default_len: $len,
            variable_len: $var,
            xof: $xof,
            rate_bytes: $c.rate_bytes(),
            params: &[$($p),*],
            spec: $spec,
            construction: $c,
        }
    };
}

const XOF: bool = true;
const FIXED: bool = false;

use Construction::{CShake as Cs, Kt, RawKeccak, TreeLi as Tli, TurboShake as Ts};
use Strength::{S128, S256};

const fn kmac(strength: Strength, xof: bool) -> Construction {
    Construction::Kmac { strength, xof }
}
const fn tuple(strength: Strength, xof: bool) -> Construction {
    Construction::TupleHash { strength, xof }
}
const fn parallel(strength: Strength, xof: bool) -> Construction {
    Construction::ParallelHash { strength, xof }
}
const fn sp(spec: LaneSpec) -> Construction {
    Construction::Sponge(spec)
}

#[rustfmt::skip]
static TABLE: &[AlgorithmInfo] = &[
    info!("sha3-224", "SHA3-224", 28, false, FIXED, sp(fips202::Sha3_224::SPEC), [], "FIPS 202"),
    info!("sha3-256", "SHA3-256", 32, false, FIXED, sp(fips202::Sha3_256::SPEC), [], "FIPS 202"),
    info!("sha3-384", "SHA3-384", 48, false, FIXED, sp(fips202::Sha3_384::SPEC), [], "FIPS 202"),
    info!("sha3-512", "SHA3-512", 64, false, FIXED, sp(fips202::Sha3_512::SPEC), [], "FIPS 202"),
    info!("shake128", "SHAKE128", 32, true, XOF, sp(fips202::Shake128::SPEC), [Length], "FIPS 202"),
    info!("shake256", "SHAKE256", 64, true, XOF, sp(fips202::Shake256::SPEC), [Length], "FIPS 202"),
    info!("keccak-224", "Keccak-224", 28, false, FIXED, sp(keccak::Keccak224::SPEC), [], "Keccak submission v3 (pad 0x01)"),
    info!("keccak-256", "Keccak-256", 32, false, FIXED, sp(keccak::Keccak256::SPEC), [], "Keccak submission v3 (pad 0x01; Ethereum)"),
    info!("keccak-384", "Keccak-384", 48, false, FIXED, sp(keccak::Keccak384::SPEC), [], "Keccak submission v3 (pad 0x01)"),
    info!("keccak-512", "Keccak-512", 64, false, FIXED, sp(keccak::Keccak512::SPEC), [], "Keccak submission v3 (pad 0x01)"),
    info!("cshake128", "cSHAKE128", 32, true, XOF, Cs(S128), [Length, FunctionName, Customization], "SP 800-185"),
    info!("cshake256", "cSHAKE256", 64, true, XOF, Cs(S256), [Length, FunctionName, Customization], "SP 800-185"),
    info!("kmac128", "KMAC128", 32, true, FIXED, kmac(S128, false), [Length, Key, Customization], "SP 800-185"),
    info!("kmac256", "KMAC256", 64, true, FIXED, kmac(S256, false), [Length, Key, Customization], "SP 800-185"),
    info!("kmacxof128", "KMACXOF128", 32, true, XOF, kmac(S128, true), [Length, Key, Customization], "SP 800-185"),
    info!("kmacxof256", "KMACXOF256", 64, true, XOF, kmac(S256, true), [Length, Key, Customization], "SP 800-185"),
    info!("tuplehash128", "TupleHash128", 32, true, FIXED, tuple(S128, false), [Length, Customization], "SP 800-185"),
    info!("tuplehash256", "TupleHash256", 64, true, FIXED, tuple(S256, false), [Length, Customization], "SP 800-185"),
    info!("tuplehashxof128", "TupleHashXOF128", 32, true, XOF, tuple(S128, true), [Length, Customization], "SP 800-185"),
    info!("tuplehashxof256", "TupleHashXOF256", 64, true, XOF, tuple(S256, true), [Length, Customization], "SP 800-185"),
    info!("parallelhash128", "ParallelHash128", 32, true, FIXED, parallel(S128, false), [Length, BlockSize, Customization], "SP 800-185"),
    info!("parallelhash256", "ParallelHash256", 64, true, FIXED, parallel(S256, false), [Length, BlockSize, Customization], "SP 800-185"),
    info!("parallelhashxof128", "ParallelHashXOF128", 32, true, XOF, parallel(S128, true), [Length, BlockSize, Customization], "SP 800-185"),
    info!("parallelhashxof256", "ParallelHashXOF256", 64, true, XOF, parallel(S256, true), [Length, BlockSize, Customization], "SP 800-185"),
    info!("turboshake128", "TurboSHAKE128", 32, true, XOF, Ts(S128), [Length, Domain], "RFC 9861"),
    info!("turboshake256", "TurboSHAKE256", 64, true, XOF, Ts(S256), [Length, Domain], "RFC 9861"),
    info!("kt128", "KT128", 32, true, XOF, Kt(S128), [Length, Customization], "RFC 9861 (KangarooTwelve)"),
    info!("kt256", "KT256", 64, true, XOF, Kt(S256), [Length, Customization], "RFC 9861"),
    info!("keccak", "Keccak[r,c]", 32, true, XOF, RawKeccak, [Length, Sponge], "Keccak reference v3: any width, rate, rounds, suffix"),
    info!("tree-li", "TreeLI", 32, true, XOF, Tli, [Length, BlockSize, Tree], "tree mode LI, docs/tree-li.md"),
];

/// Every algorithm, in `keccakx list` order.
pub fn list() -> &'static [AlgorithmInfo] {
    TABLE
}

/// Look a name up (case-insensitive; `_` and `-` are interchangeable, and
/// `sha3_256`, `SHA3-256`, `keccak256` all work).
pub fn find(name: &str) -> Option<&'static AlgorithmInfo> {
    let norm = |s: &str| -> Vec<u8> {
        s.bytes()
            .filter(|b| *b != b'-' && *b != b'_')
            .map(|b| b.to_ascii_lowercase())
            .collect()
    };
    let n = norm(name);
    TABLE.iter().find(|a| norm(a.name) == n)
}

/// Run-time parameters; unset fields take the function's defaults.
#[derive(Clone, Debug, Default)]
pub struct Params {
    /// Output length in bytes (None: the default).
    pub length: Option<usize>,
    pub customization: Vec<u8>,
    pub function_name: Vec<u8>,
    pub key: Option<Vec<u8>>,
    /// ParallelHash's B (default 8192); tree LI's leaf block size B (default
    /// one rate block).
    pub block_size: Option<usize>,
    pub domain: Option<u8>,
    /// Raw Keccak[r, c]: width in bits (default r + c or 1600).
    pub width: Option<usize>,
    /// Raw Keccak[r, c] and tree LI: rate in bits (tree LI: a multiple of 8,
    /// r + c = 1600; default 1088).
    pub rate: Option<usize>,
    /// Raw Keccak[r, c] and tree LI: capacity in bits (tree LI: default 512).
    pub capacity: Option<usize>,
    /// Raw Keccak[r, c]: rounds (default: full 12 + 2ℓ).
    pub rounds: Option<usize>,
    /// Raw Keccak[r, c]: delimited suffix byte (default 0x01, no suffix).
    pub suffix: Option<u8>,
    /// Tree LI: degree D, 1..=255 (default 4).
    pub degree: Option<usize>,
    /// Tree LI: height H, 0..=16 with D^H <= 65536 (default 4).
    pub height: Option<usize>,
    /// Tree LI: prefix P (key or salt), at most 255 bytes (default none).
    pub prefix: Option<Vec<u8>>,
}

impl Params {
    /// Whether the field `f` is set; the length counts as set when it
    /// differs from `default_len` (a function of fixed length accepts its
    /// own length).
    pub fn has(&self, f: Field, default_len: usize) -> bool {
        match f {
            Field::Degree => self.degree.is_some(),
            Field::Height => self.height.is_some(),
            Field::Prefix => self.prefix.is_some(),
            Field::Length => self.length.is_some_and(|l| l != default_len),
            Field::Customization => !self.customization.is_empty(),
            Field::FunctionName => !self.function_name.is_empty(),
            Field::Key => self.key.is_some(),
            Field::BlockSize => self.block_size.is_some(),
            Field::Domain => self.domain.is_some(),
            Field::Width => self.width.is_some(),
            Field::Rounds => self.rounds.is_some(),
            Field::Suffix => self.suffix.is_some(),
            Field::Rate => self.rate.is_some(),
            Field::Capacity => self.capacity.is_some(),
        }
    }

    /// The fields set (see [`has`](Self::has)), in [`Field::ALL`] order.
    pub fn given(&self, default_len: usize) -> impl Iterator<Item = Field> + '_ {
        Field::ALL
            .into_iter()
            .filter(move |f| self.has(*f, default_len))
    }

    /// Copy the field `f` from `from`.
    pub fn take(&mut self, f: Field, from: &Params) {
        match f {
            Field::Degree => self.degree = from.degree,
            Field::Height => self.height = from.height,
            Field::Prefix => self.prefix = from.prefix.clone(),
            Field::Length => self.length = from.length,
            Field::Customization => self.customization = from.customization.clone(),
            Field::FunctionName => self.function_name = from.function_name.clone(),
            Field::Key => self.key = from.key.clone(),
            Field::BlockSize => self.block_size = from.block_size,
            Field::Domain => self.domain = from.domain,
            Field::Width => self.width = from.width,
            Field::Rounds => self.rounds = from.rounds,
            Field::Suffix => self.suffix = from.suffix,
            Field::Rate => self.rate = from.rate,
            Field::Capacity => self.capacity = from.capacity,
        }
    }

    /// Only the fields `info` takes, the length left unset (parameters
    /// given for one function, applied to another: tagged `--check` lines).
    pub fn kept_for(&self, info: &AlgorithmInfo) -> Params {
        let mut q = Params::default();
        for f in Field::ALL {
            if f != Field::Length && info.takes(f) {
                q.take(f, self);
            }
        }
        q
    }

    /// The tree-LI parameters these stand for (unset fields: the defaults
    /// of [`TreeLiParams::default`]); validated.
    pub fn tree_li(&self) -> Result<TreeLiParams> {
        let d = TreeLiParams::default();
        let (rate_bits, capacity_bits) = match (self.rate, self.capacity) {
            (Some(r), Some(c)) => (r, c),
            (Some(r), None) => (r, 1600usize.saturating_sub(r)),
            (None, Some(c)) => (1600usize.saturating_sub(c), c),
            (None, None) => (d.rate_bits, d.capacity_bits),
        };
        let t = TreeLiParams {
            degree: self.degree.unwrap_or(d.degree),
            height: self.height.unwrap_or(d.height),
            block_size: self.block_size,
            rate_bits,
            capacity_bits,
            prefix: self.prefix.clone().unwrap_or_default(),
        };
        t.validate()?;
        Ok(t)
    }
}

#[derive(Clone)]
enum Inner {
    Sponge(Sponge),
    CShake128(CShake128),
    CShake256(CShake256),
    Kmac128(Kmac128, bool),
    Kmac256(Kmac256, bool),
    Tuple128(TupleHash128, bool),
    Tuple256(TupleHash256, bool),
    TupleStream128(TupleHash128Stream, bool),
    TupleStream256(TupleHash256Stream, bool),
    Parallel128(ParallelHash128, bool),
    Parallel256(ParallelHash256, bool),
    Turbo128(TurboShake128),
    Turbo256(TurboShake256),
    Kt128(Kt128),
    Kt256(Kt256),
    Tree(TreeLi),
}

/// A hasher for any function of the table, chosen at run time.
#[derive(Clone)]
pub struct Hasher {
    info: &'static AlgorithmInfo,
    /// The parameters it was built with, the key left out (portable
    /// states bind them).
    params: Box<Params>,
    out_len: usize,
    /// Rate in bytes (hashlib's `block_size`).
    rate_bytes: usize,
    inner: Inner,
}

impl AlgorithmInfo {
    /// Whether it takes parameter `p`.
    pub fn accepts(&self, p: Param) -> bool {
        self.params.contains(&p)
    }

    /// Its name in the library's messages: the standards' name, tree LI's
    /// as its documents write it.
    pub fn function_name(&self) -> &'static str {
        match self.construction {
            Construction::TreeLi => crate::tree_li::NAME,
            _ => self.display,
        }
    }

    /// Whether it takes `rate`/`capacity` (raw Keccak and tree LI).
    pub fn accepts_rate(&self) -> bool {
        self.takes(Field::Rate)
    }

    /// Whether it takes the field `f`.
    pub fn takes(&self, f: Field) -> bool {
        f.groups().iter().any(|p| self.accepts(*p))
    }

    /// Whether the input's length must be known before its first byte
    /// (see [`Construction::needs_input_length`]).
    pub fn needs_input_length(&self) -> bool {
        self.construction.needs_input_length()
    }

    /// Whether [`Hasher::update_bits`] works for it
    /// (see [`Construction::takes_bits`]).
    pub fn takes_bits(&self) -> bool {
        self.construction.takes_bits()
    }
}

/// The error for a field the row `info` does not take.
fn not_taken(info: &AlgorithmInfo, field: Field) -> Error {
    Error::NotTaken {
        function: info.function_name(),
        field,
    }
}

impl Hasher {
    /// A hasher for `name` with `params`; every invalid combination is an error.
    pub fn new(name: &str, params: &Params) -> Result<Hasher> {
        let info = find(name).ok_or(Error::InvalidParameter(
            "unknown algorithm (run `keccakx list` for the names)",
        ))?;
        if let Some(f) = params.given(info.default_len).find(|f| !info.takes(*f)) {
            return Err(not_taken(info, f));
        }
        let out_len = params.length.unwrap_or(info.default_len);
        let cust = &params.customization[..];
        let key = || -> Result<&[u8]> {
            params.key.as_deref().ok_or(Error::Missing {
                function: info.function_name(),
                fields: &[Field::Key],
            })
        };
        let block = || params.block_size.unwrap_or(8192);
        use Construction as C;
        let inner = match info.construction {
            C::Sponge(spec) => {
                let suffix = Suffix::from_delimited(spec.delimited_suffix)?;
                Inner::Sponge(Sponge::new(SpongeParams::fixed1600(
                    spec.rate_bytes,
                    spec.rounds,
                    suffix,
                )))
            }
            C::CShake(S128) => Inner::CShake128(CShake128::new(&params.function_name, cust)),
            C::CShake(S256) => Inner::CShake256(CShake256::new(&params.function_name, cust)),
            C::Kmac {
                strength: S128,
                xof,
            } => Inner::Kmac128(Kmac128::new(key()?, cust), xof),
            C::Kmac {
                strength: S256,
                xof,
            } => Inner::Kmac256(Kmac256::new(key()?, cust), xof),
            C::TupleHash {
                strength: S128,
                xof,
            } => Inner::Tuple128(TupleHash128::new(cust), xof),
            C::TupleHash {
                strength: S256,
                xof,
            } => Inner::Tuple256(TupleHash256::new(cust), xof),
            C::ParallelHash {
                strength: S128,
                xof,
            } => Inner::Parallel128(ParallelHash128::new(block(), cust)?, xof),
            C::ParallelHash {
                strength: S256,
                xof,
            } => Inner::Parallel256(ParallelHash256::new(block(), cust)?, xof),
            C::TurboShake(S128) => Inner::Turbo128(TurboShake128::new(
                params.domain.unwrap_or(TurboShake128::DEFAULT_DOMAIN),
            )?),
            C::TurboShake(S256) => Inner::Turbo256(TurboShake256::new(
                params.domain.unwrap_or(TurboShake256::DEFAULT_DOMAIN),
            )?),
            C::Kt(S128) => Inner::Kt128(Kt128::new(cust)),
            C::Kt(S256) => Inner::Kt256(Kt256::new(cust)),
            C::RawKeccak => Inner::Sponge(Sponge::new(raw_params(params)?)),
            C::TreeLi => Inner::Tree(TreeLi::new(params.tree_li()?)?),
        };
        let rate_bytes = match &inner {
            Inner::Sponge(s) => s.params().rate_bits() / 8,
            Inner::Tree(_) => params.tree_li()?.rate_bytes(),
            _ => info
                .rate_bytes
                .expect("every keyed-mode entry has a fixed rate"),
        };
        let kept = Params {
            key: None,
            ..params.clone()
        };
        Ok(Hasher {
            info,
            params: Box::new(kept),
            out_len,
            rate_bytes,
            inner,
        })
    }

    /// Rate in bytes of the sponge underneath (hashlib's `block_size`):
    /// the table's [`AlgorithmInfo::rate_bytes`] where it is fixed, the
    /// parameters' rate (rounded down to whole bytes) for raw Keccak and
    /// tree LI.
    pub fn rate_bytes(&self) -> usize {
        self.rate_bytes
    }

    pub fn info(&self) -> &'static AlgorithmInfo {
        self.info
    }

    /// Output length in bytes this hasher will produce by default.
    pub fn output_len(&self) -> usize {
        self.out_len
    }

    /// Absorb data. For TupleHash, each call is one tuple element.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.inner {
            Inner::Sponge(h) => h.update(data),
            Inner::CShake128(h) => h.update(data),
            Inner::CShake256(h) => h.update(data),
            Inner::Kmac128(h, _) => h.update(data),
            Inner::Kmac256(h, _) => h.update(data),
            Inner::Tuple128(h, _) => h.push(data),
            Inner::Tuple256(h, _) => h.push(data),
            Inner::TupleStream128(h, _) => h.update(data),
            Inner::TupleStream256(h, _) => h.update(data),
            Inner::Parallel128(h, _) => h.update(data),
            Inner::Parallel256(h, _) => h.update(data),
            Inner::Turbo128(h) => h.update(data),
            Inner::Turbo256(h) => h.update(data),
            Inner::Kt128(h) => h.update(data),
            Inner::Kt256(h) => h.update(data),
            Inner::Tree(h) => h.update(data),
        }
    }

    /// Absorb the first `nbits` bits of `data` (FIPS 202 bit order: bit i
    /// is bit i % 8 of byte i / 8), for the functions whose messages are
    /// bit strings ([`AlgorithmInfo::takes_bits`]); an error for the
    /// others, and when `data` holds fewer than `nbits` bits. After a
    /// length that is not a whole number of bytes, further input is
    /// absorbed bit by bit (slowly): put the partial byte last.
    pub fn update_bits(&mut self, data: &[u8], nbits: usize) -> Result<()> {
        match &mut self.inner {
            Inner::Sponge(h) => h.update_bits(data, nbits),
            _ => Err(Error::InvalidParameter(
                "bit-length input is taken only by SHA3-*, SHAKE*, Keccak-* and raw keccak",
            )),
        }
    }

    /// Announce the length of the input that [`update`](Self::update)
    /// will feed next, for hashing it as one piece: TupleHash then hashes
    /// the whole input as one tuple element (encode_string needs its length
    /// first; [`AlgorithmInfo::needs_input_length`]) and
    /// [`try_finalize`](Self::try_finalize) checks that `len` bytes came;
    /// the other functions need no length and ignore it.
    pub fn with_input_length(mut self, len: u64) -> Hasher {
        self.inner = match self.inner {
            Inner::Tuple128(h, x) => Inner::TupleStream128(h.stream_element(len), x),
            Inner::Tuple256(h, x) => Inner::TupleStream256(h.stream_element(len), x),
            other => other,
        };
        self
    }

    /// [`finalize`](Self::finalize), or an error when an input announced
    /// with [`with_input_length`](Self::with_input_length) had another
    /// length.
    pub fn try_finalize(self) -> Result<Vec<u8>> {
        let n = self.out_len;
        Ok(self.try_finalize_reader()?.read_vec(n))
    }

    /// [`finalize_reader`](Self::finalize_reader), or an error when an
    /// input announced with [`with_input_length`](Self::with_input_length)
    /// had another length.
    pub fn try_finalize_reader(self) -> Result<XofReader> {
        let l = self.out_len as u128 * 8;
        let bound = |xof: bool| if xof { 0 } else { l };
        match self.inner {
            Inner::TupleStream128(h, x) => h.try_finish(bound(x)),
            Inner::TupleStream256(h, x) => h.try_finish(bound(x)),
            inner => Ok(Hasher { inner, ..self }.finalize_reader()),
        }
    }

    /// Finish and return a reader; L-binding functions (KMAC, TupleHash,
    /// ParallelHash) bind `output_len()` into the result. (An input
    /// announced with [`with_input_length`](Self::with_input_length) that
    /// had another length gives bytes that are no TupleHash:
    /// [`try_finalize`](Self::try_finalize) reports it.)
    pub fn finalize_reader(self) -> XofReader {
        let l = self.out_len as u128 * 8;
        let bound = |xof: bool| if xof { 0 } else { l };
        match self.inner {
            Inner::TupleStream128(h, x) => h.finish_unchecked(bound(x)),
            Inner::TupleStream256(h, x) => h.finish_unchecked(bound(x)),
            Inner::Sponge(h) => h.finalize_xof(),
            Inner::CShake128(h) => h.finalize_xof(),
            Inner::CShake256(h) => h.finalize_xof(),
            Inner::Kmac128(h, x) => h.finish(bound(x)),
            Inner::Kmac256(h, x) => h.finish(bound(x)),
            Inner::Tuple128(h, x) => h.finish(bound(x)),
            Inner::Tuple256(h, x) => h.finish(bound(x)),
            Inner::Parallel128(h, x) => h.finish(bound(x)),
            Inner::Parallel256(h, x) => h.finish(bound(x)),
            Inner::Turbo128(h) => h.finalize_xof(),
            Inner::Turbo256(h) => h.finalize_xof(),
            Inner::Kt128(h) => h.finalize_xof(),
            Inner::Kt256(h) => h.finalize_xof(),
            Inner::Tree(h) => h.finalize_xof(),
        }
    }

    /// Finish into a vector of `output_len()` bytes.
    pub fn finalize(self) -> Vec<u8> {
        let n = self.out_len;
        self.finalize_reader().read_vec(n)
    }
}

/// Raw Keccak's name in messages.
const RAW_KECCAK: &str = "raw Keccak[r, c]";

/// Raw Keccak[r, c]'s (rate, width) in bits; None when neither the rate
/// nor the capacity is given.
fn raw_rate_width(p: &Params) -> Result<Option<(usize, usize)>> {
    Ok(Some(match (p.rate, p.capacity, p.width) {
        (Some(r), Some(c), w) => {
            // Sizes come from users (CLI, Python): r + c may overflow.
            let sum = r.checked_add(c).ok_or(Error::Sum {
                function: RAW_KECCAK,
                parts: [Field::Rate, Field::Capacity],
                rule: SumRule::AtMost(1600),
            })?;
            if w.is_some_and(|w| w != sum) {
                return Err(Error::Sum {
                    function: RAW_KECCAK,
                    parts: [Field::Rate, Field::Capacity],
                    rule: SumRule::EqualsField(Field::Width),
                });
            }
            (r, sum)
        }
        (Some(r), None, w) => (r, w.unwrap_or(1600)),
        (None, Some(c), w) => {
            let w = w.unwrap_or(1600);
            (
                w.checked_sub(c).ok_or(Error::OutOfRange {
                    function: RAW_KECCAK,
                    field: Field::Capacity,
                    range: "less than the permutation's width (1600 bits unless given)",
                })?,
                w,
            )
        }
        (None, None, _) => return Ok(None),
    }))
}

fn raw_params(p: &Params) -> Result<SpongeParams> {
    let Some((rate, width)) = raw_rate_width(p)? else {
        return Err(Error::Missing {
            function: RAW_KECCAK,
            fields: &[Field::Rate, Field::Capacity],
        });
    };
    let rounds = match p.rounds {
        Some(r) => r,
        None => crate::permutation::max_rounds(width)?,
    };
    let suffix = Suffix::from_delimited(p.suffix.unwrap_or(0x01))?;
    SpongeParams::new(width, rate, rounds, suffix)
}

/// The boxed form, for callers that keep hashers of mixed types.
pub fn new_boxed(name: &str, params: &Params) -> Result<Box<Hasher>> {
    Hasher::new(name, params).map(Box::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_input_where_messages_are_bit_strings() {
        let data = [0xa5u8, 0x3c, 0x0f];
        for nbits in [0usize, 1, 5, 8, 13, 23, 24] {
            let mut r = Hasher::new("sha3-256", &Params::default()).unwrap();
            r.update(b"prefix");
            r.update_bits(&data, nbits).unwrap();
            let mut f = fips202::Sha3_256::new();
            f.update(b"prefix");
            f.update_bits(&data, nbits).unwrap();
            assert_eq!(r.finalize(), f.finalize(), "{nbits} bits");
        }
        for a in list() {
            assert_eq!(
                a.takes_bits(),
                matches!(
                    a.construction,
                    Construction::Sponge(_) | Construction::RawKeccak
                ),
                "{}",
                a.name
            );
        }
        let mut kt = Hasher::new("kt128", &Params::default()).unwrap();
        assert!(kt.update_bits(&data, 5).is_err());
        let mut sha = Hasher::new("sha3-256", &Params::default()).unwrap();
        assert!(sha.update_bits(&data, 25).is_err(), "more bits than bytes");
    }

    #[test]
    fn checked_reader_reports_a_wrong_announced_length() {
        let h = Hasher::new("tuplehash128", &Params::default()).unwrap();
        let mut short = h.clone().with_input_length(5);
        short.update(b"abc");
        assert!(short.try_finalize_reader().is_err());
        let mut right = h.with_input_length(3);
        right.update(b"abc");
        let mut reader = right.clone().try_finalize_reader().unwrap();
        assert_eq!(reader.read_vec(32), right.finalize());
    }

    #[test]
    fn every_entry_constructs_with_defaults() {
        for a in list() {
            let mut p = Params::default();
            if a.params.contains(&Key) {
                p.key = Some(b"key".to_vec());
            }
            if a.name == "keccak" {
                p.rate = Some(1088);
                p.capacity = Some(512);
            }
            let mut h = Hasher::new(a.name, &p).unwrap_or_else(|e| panic!("{}: {e}", a.name));
            h.update(b"abc");
            assert_eq!(h.finalize().len(), a.default_len);
        }
    }

    /// Found by the `params` fuzz target: r + c overflowed (a panic with
    /// overflow checks, a wrapped width without).
    #[test]
    fn huge_rate_and_capacity_are_an_error() {
        for (r, c, w) in [
            (usize::MAX, 2, None),
            (usize::MAX, usize::MAX, Some(1600)),
            (2, usize::MAX, None),
            (usize::MAX, 0, None),
        ] {
            let p = Params {
                rate: Some(r),
                capacity: Some(c),
                width: w,
                ..Default::default()
            };
            assert!(Hasher::new("keccak", &p).is_err(), "r={r} c={c}");
        }
        let e = Hasher::new(
            "keccak",
            &Params {
                rate: Some(usize::MAX),
                capacity: Some(8),
                ..Default::default()
            },
        )
        .err()
        .unwrap();
        assert!(
            e.to_string().contains("larger than any Keccak width"),
            "{e}"
        );
    }

    #[test]
    fn registry_matches_typed_api() {
        let h = |n: &str| {
            let mut h = Hasher::new(n, &Params::default()).unwrap();
            h.update(b"abc");
            h.finalize()
        };
        assert_eq!(h("SHA3_256"), crate::fips202::Sha3_256::digest(b"abc"));
        assert_eq!(h("keccak256"), crate::keccak::Keccak256::digest(b"abc"));
        let mut p = Params {
            rate: Some(1088),
            capacity: Some(512),
            suffix: Some(0x06),
            ..Default::default()
        };
        let mut r = Hasher::new("keccak", &p).unwrap();
        r.update(b"abc");
        assert_eq!(r.finalize(), crate::fips202::Sha3_256::digest(b"abc"));
        p.length = Some(7);
        assert!(Hasher::new(
            "sha3-256",
            &Params {
                length: Some(7),
                ..Default::default()
            }
        )
        .is_err());
        assert!(Hasher::new("kmac128", &Params::default()).is_err());
        assert!(Hasher::new("nope", &Params::default()).is_err());
        assert!(Hasher::new(
            "keccak",
            &Params {
                rate: Some(40),
                width: Some(1601),
                ..Default::default()
            }
        )
        .is_err());
    }

    fn digest(name: &str, p: &Params, msg: &[u8]) -> Vec<u8> {
        let mut h = Hasher::new(name, p).unwrap_or_else(|e| panic!("{name}: {e}"));
        h.update(msg);
        h.finalize()
    }

    fn sample_params(a: &AlgorithmInfo) -> Params {
        let mut p = Params::default();
        if a.accepts(Key) {
            p.key = Some(b"key".to_vec());
        }
        if a.accepts(Sponge) {
            p.rate = Some(1088);
            p.capacity = Some(512);
        }
        p
    }

    #[test]
    fn xof_flag_matches_behaviour() {
        // An XOF's short output is a prefix of its long one; a function
        // that binds L gives unrelated outputs.
        let msg = [0x5Au8; 300];
        for a in list() {
            if !a.variable_len {
                assert!(!a.xof, "{}", a.name);
                continue;
            }
            let mut p = sample_params(a);
            p.length = Some(20);
            let short = digest(a.name, &p, &msg);
            p.length = Some(40);
            let long = digest(a.name, &p, &msg);
            assert_eq!(short == long[..20], a.xof, "{}", a.name);
        }
    }

    #[test]
    fn rate_bytes_of_the_sponges() {
        for a in list() {
            let h = Hasher::new(a.name, &sample_params(a)).unwrap();
            if let Inner::Sponge(s) = &h.inner {
                assert_eq!(s.params().rate_bits(), h.rate_bytes() * 8, "{}", a.name);
            }
            if let Some(r) = a.rate_bytes {
                assert_eq!(h.rate_bytes(), r, "{}", a.name);
            }
        }
        let raw = Params {
            width: Some(800),
            capacity: Some(256),
            ..Default::default()
        };
        assert_eq!(Hasher::new("keccak", &raw).unwrap().rate_bytes(), 68);
        let tree = Params {
            capacity: Some(576),
            ..Default::default()
        };
        assert_eq!(Hasher::new("tree-li", &tree).unwrap().rate_bytes(), 128);
        assert_eq!(
            Hasher::new("tree-li", &Params::default())
                .unwrap()
                .rate_bytes(),
            136
        );
    }

    #[test]
    fn tree_li_matches_the_mode() {
        let msg: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        let p = Params {
            length: Some(48),
            degree: Some(3),
            height: Some(2),
            prefix: Some(b"salt".to_vec()),
            block_size: Some(100),
            rate: Some(1024),
            ..Default::default()
        };
        let t = TreeLiParams {
            degree: 3,
            height: 2,
            prefix: b"salt".to_vec(),
            block_size: Some(100),
            rate_bits: 1024,
            capacity_bits: 576,
        };
        let mut want = vec![0u8; 48];
        crate::tree_li::tree_li(&t, &msg, &mut want).unwrap();
        assert_eq!(digest("treeli", &p, &msg), want);
        let mut want = vec![0u8; 32];
        crate::tree_li::tree_li(&TreeLiParams::default(), &msg, &mut want).unwrap();
        assert_eq!(digest("tree_li", &Params::default(), &msg), want);
        assert_eq!(find("tree-li").unwrap().display, "TreeLI");
    }

    #[test]
    fn tree_li_rejects_with_messages() {
        let err = |name: &str, p: Params| match Hasher::new(name, &p) {
            Err(e) => alloc::string::ToString::to_string(&e),
            Ok(_) => panic!("{name} {p:?} accepted"),
        };
        assert_eq!(
            err(
                "tree-li",
                Params {
                    rounds: Some(12),
                    ..Default::default()
                }
            ),
            "tree-LI takes no rounds"
        );
        assert!(err(
            "tree-li",
            Params {
                width: Some(1600),
                ..Default::default()
            }
        )
        .contains("takes no width"));
        assert!(err(
            "tree-li",
            Params {
                key: Some(vec![1]),
                ..Default::default()
            }
        )
        .contains("use prefix for a key"));
        assert!(err(
            "tree-li",
            Params {
                degree: Some(0),
                ..Default::default()
            }
        )
        .contains("degree"));
        assert!(err(
            "tree-li",
            Params {
                height: Some(17),
                ..Default::default()
            }
        )
        .contains("height"));
        assert!(err(
            "tree-li",
            Params {
                degree: Some(255),
                height: Some(3),
                ..Default::default()
            }
        )
        .contains("65536"));
        assert!(err(
            "tree-li",
            Params {
                rate: Some(1001),
                ..Default::default()
            }
        )
        .contains("rate"));
        assert!(err(
            "tree-li",
            Params {
                rate: Some(1088),
                capacity: Some(256),
                ..Default::default()
            }
        )
        .contains("1600"));
        assert!(err(
            "tree-li",
            Params {
                prefix: Some(vec![0; 256]),
                ..Default::default()
            }
        )
        .contains("255"));
        assert!(err(
            "sha3-256",
            Params {
                height: Some(2),
                ..Default::default()
            }
        )
        .contains("tree-LI parameters"));
        assert!(err(
            "keccak",
            Params {
                prefix: Some(vec![]),
                rate: Some(8),
                ..Default::default()
            }
        )
        .contains("tree-LI parameters"));
        assert!(err(
            "shake128",
            Params {
                rate: Some(1088),
                ..Default::default()
            }
        )
        .contains("only raw Keccak takes rate"));
    }

    /// Every refusal the registry can give names fields, never a front
    /// end's flag; a front end's spelling reaches every field it names.
    #[test]
    fn errors_name_fields_not_flags() {
        use alloc::format;
        use alloc::string::{String, ToString};
        let full = Params {
            length: Some(7),
            customization: b"c".to_vec(),
            function_name: b"n".to_vec(),
            key: Some(vec![1]),
            block_size: Some(3),
            domain: Some(0x1f),
            width: Some(800),
            rate: Some(64),
            capacity: Some(736),
            rounds: Some(12),
            suffix: Some(1),
            degree: Some(2),
            height: Some(1),
            prefix: Some(vec![2]),
        };
        // A front end's spelling, distinct from the plain names.
        let flag = |f: Field| format!("<{}>", f.name());
        let mut seen = 0;
        for info in list() {
            for f in Field::ALL {
                let mut p = Params::default();
                p.take(f, &full);
                if info.takes(f) {
                    continue;
                }
                let Err(e) = Hasher::new(info.name, &p) else {
                    continue; // a length equal to the default is no length
                };
                seen += 1;
                let plain = e.to_string();
                assert!(
                    !plain.contains("--") && !plain.contains('<'),
                    "{}: {plain}",
                    info.name
                );
                assert_eq!(e.field(), Some(f), "{}: {plain}", info.name);
                let spelled = e.spelled(&flag);
                assert!(spelled.contains(&flag(f)), "{}: {spelled}", info.name);
            }
        }
        assert!(seen > 100, "only {seen} refusals checked");
        let kmac = Hasher::new("kmac128", &Params::default()).err().unwrap();
        assert_eq!(kmac.to_string(), "KMAC128 needs key");
        let raw = Hasher::new("keccak", &Params::default()).err().unwrap();
        assert_eq!(
            raw.spelled(&|f| String::from(f.name()) + "="),
            "raw Keccak[r, c] needs rate= and/or capacity="
        );
        let sum = Params {
            rate: Some(64),
            capacity: Some(64),
            width: Some(200),
            ..Default::default()
        };
        assert_eq!(
            Hasher::new("keccak", &sum).err().unwrap().spelled(&flag),
            "raw Keccak[r, c]: <rate> + <capacity> must equal <width>"
        );
    }
}
