//! Every function of the family by name, with run-time parameters: the one
//! table the CLI (`keccakx list`, `-a NAME`) and the Python module share.

use alloc::boxed::Box;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::rfc9861::{Kt128, Kt256, TurboShake128, TurboShake256};
use crate::sp800_185::{
    CShake128, CShake256, Kmac128, Kmac256, ParallelHash128, ParallelHash256, TupleHash128,
    TupleHash256,
};
use crate::sponge::{Sponge, SpongeParams, Suffix, XofReader};
use crate::tree_li::{TreeLi, TreeLiParams};

/// What parameters a function takes (for `list` and validation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// `--length`: output bytes (XOFs and L-binding functions).
    Length,
    /// `--customization`: the customization string S / C.
    Customization,
    /// `--function-name`: cSHAKE's N.
    FunctionName,
    /// `--key` / `--key-file`: KMAC's key.
    Key,
    /// `--block-size`: ParallelHash's B.
    BlockSize,
    /// `--domain`: TurboSHAKE's domain byte.
    Domain,
    /// `--rate/--capacity/--width/--rounds/--suffix`: raw Keccak[r, c].
    Sponge,
    /// `--degree/--height/--prefix`: tree LI's D, H and P (tree LI also
    /// takes `--rate/--capacity` for its Keccak[r, c], width 1600).
    Tree,
}

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
}

use Param::*;

/// `info!(name, display, default_len, variable_len, xof, rate, [params], spec)`
macro_rules! info {
    ($name:expr, $display:expr, $len:expr, $var:expr, $xof:expr, $rate:expr, [$($p:expr),*], $spec:expr) => {
        AlgorithmInfo {
            name: $name,
            display: $display,
            default_len: $len,
            variable_len: $var,
            xof: $xof,
            rate_bytes: $rate,
            params: &[$($p),*],
            spec: $spec,
        }
    };
}

const XOF: bool = true;
const FIXED: bool = false;

#[rustfmt::skip]
static TABLE: &[AlgorithmInfo] = &[
    info!("sha3-224", "SHA3-224", 28, false, FIXED, Some(144), [], "FIPS 202"),
    info!("sha3-256", "SHA3-256", 32, false, FIXED, Some(136), [], "FIPS 202"),
    info!("sha3-384", "SHA3-384", 48, false, FIXED, Some(104), [], "FIPS 202"),
    info!("sha3-512", "SHA3-512", 64, false, FIXED, Some(72), [], "FIPS 202"),
    info!("shake128", "SHAKE128", 32, true, XOF, Some(168), [Length], "FIPS 202"),
    info!("shake256", "SHAKE256", 64, true, XOF, Some(136), [Length], "FIPS 202"),
    info!("keccak-224", "Keccak-224", 28, false, FIXED, Some(144), [], "Keccak submission v3 (pad 0x01)"),
    info!("keccak-256", "Keccak-256", 32, false, FIXED, Some(136), [], "Keccak submission v3 (pad 0x01; Ethereum)"),
    info!("keccak-384", "Keccak-384", 48, false, FIXED, Some(104), [], "Keccak submission v3 (pad 0x01)"),
    info!("keccak-512", "Keccak-512", 64, false, FIXED, Some(72), [], "Keccak submission v3 (pad 0x01)"),
    info!("cshake128", "cSHAKE128", 32, true, XOF, Some(168), [Length, FunctionName, Customization], "SP 800-185"),
    info!("cshake256", "cSHAKE256", 64, true, XOF, Some(136), [Length, FunctionName, Customization], "SP 800-185"),
    info!("kmac128", "KMAC128", 32, true, FIXED, Some(168), [Length, Key, Customization], "SP 800-185"),
    info!("kmac256", "KMAC256", 64, true, FIXED, Some(136), [Length, Key, Customization], "SP 800-185"),
    info!("kmacxof128", "KMACXOF128", 32, true, XOF, Some(168), [Length, Key, Customization], "SP 800-185"),
    info!("kmacxof256", "KMACXOF256", 64, true, XOF, Some(136), [Length, Key, Customization], "SP 800-185"),
    info!("tuplehash128", "TupleHash128", 32, true, FIXED, Some(168), [Length, Customization], "SP 800-185"),
    info!("tuplehash256", "TupleHash256", 64, true, FIXED, Some(136), [Length, Customization], "SP 800-185"),
    info!("tuplehashxof128", "TupleHashXOF128", 32, true, XOF, Some(168), [Length, Customization], "SP 800-185"),
    info!("tuplehashxof256", "TupleHashXOF256", 64, true, XOF, Some(136), [Length, Customization], "SP 800-185"),
    info!("parallelhash128", "ParallelHash128", 32, true, FIXED, Some(168), [Length, BlockSize, Customization], "SP 800-185"),
    info!("parallelhash256", "ParallelHash256", 64, true, FIXED, Some(136), [Length, BlockSize, Customization], "SP 800-185"),
    info!("parallelhashxof128", "ParallelHashXOF128", 32, true, XOF, Some(168), [Length, BlockSize, Customization], "SP 800-185"),
    info!("parallelhashxof256", "ParallelHashXOF256", 64, true, XOF, Some(136), [Length, BlockSize, Customization], "SP 800-185"),
    info!("turboshake128", "TurboSHAKE128", 32, true, XOF, Some(168), [Length, Domain], "RFC 9861"),
    info!("turboshake256", "TurboSHAKE256", 64, true, XOF, Some(136), [Length, Domain], "RFC 9861"),
    info!("kt128", "KT128", 32, true, XOF, Some(168), [Length, Customization], "RFC 9861 (KangarooTwelve)"),
    info!("kt256", "KT256", 64, true, XOF, Some(136), [Length, Customization], "RFC 9861"),
    info!("keccak", "Keccak[r,c]", 32, true, XOF, None, [Length, Sponge], "Keccak reference v3: any width, rate, rounds, suffix"),
    info!("tree-li", "TreeLI", 32, true, XOF, None, [Length, BlockSize, Tree], "tree mode LI, docs/tree-li.md"),
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
    out_len: usize,
    /// Rate in bytes (hashlib's `block_size`).
    rate_bytes: usize,
    inner: Inner,
}

fn unsupported(p: Param) -> Error {
    Error::InvalidParameter(match p {
        Tree => "--degree, --height and --prefix are tree-li parameters",
        Length => "this algorithm has a fixed output length; --length is not accepted",
        Customization => "this algorithm takes no customization string",
        FunctionName => "this algorithm takes no function name",
        Key => "this algorithm takes no key",
        BlockSize => "this algorithm takes no block size",
        Domain => "this algorithm takes no domain byte",
        Sponge => {
            "only the raw `keccak` algorithm takes --rate/--capacity/--width/--rounds/--suffix"
        }
    })
}

/// The message for a parameter tree LI does not take.
fn tree_rejects(p: &Params) -> Option<&'static str> {
    let rejects = [
        (
            !p.customization.is_empty(),
            "tree-LI takes no --customization",
        ),
        (
            !p.function_name.is_empty(),
            "tree-LI takes no --function-name",
        ),
        (
            p.key.is_some(),
            "tree-LI takes no --key-hex/--key-file (use --prefix for a key)",
        ),
        (p.domain.is_some(), "tree-LI takes no --domain"),
        (
            p.width.is_some(),
            "tree-LI takes no --width (tree-LI uses Keccak-f[1600])",
        ),
        (p.rounds.is_some(), "tree-LI takes no --rounds"),
        (p.suffix.is_some(), "tree-LI takes no --suffix"),
    ];
    rejects.iter().find(|(set, _)| *set).map(|(_, m)| *m)
}

impl AlgorithmInfo {
    /// Whether it takes parameter `p`.
    pub fn accepts(&self, p: Param) -> bool {
        self.params.contains(&p)
    }

    /// Whether it takes `rate`/`capacity` (raw Keccak and tree LI).
    pub fn accepts_rate(&self) -> bool {
        self.accepts(Sponge) || self.accepts(Tree)
    }
}

impl Hasher {
    /// A hasher for `name` with `params`; every invalid combination is an error.
    pub fn new(name: &str, params: &Params) -> Result<Hasher> {
        let info = find(name).ok_or(Error::InvalidParameter(
            "unknown algorithm (run `keccakx list` for the names)",
        ))?;
        let accepts = |p: Param| info.params.contains(&p);
        if accepts(Tree) {
            if let Some(msg) = tree_rejects(params) {
                return Err(Error::InvalidParameter(msg));
            }
        }
        let given = [
            (
                Tree,
                params.degree.is_some() || params.height.is_some() || params.prefix.is_some(),
            ),
            (
                Length,
                params.length.is_some() && params.length != Some(info.default_len),
            ),
            (Customization, !params.customization.is_empty()),
            (FunctionName, !params.function_name.is_empty()),
            (Key, params.key.is_some()),
            (BlockSize, params.block_size.is_some()),
            (Domain, params.domain.is_some()),
            (
                Sponge,
                params.width.is_some()
                    || params.rounds.is_some()
                    || params.suffix.is_some()
                    // tree LI takes a rate and capacity too (width 1600).
                    || ((params.rate.is_some() || params.capacity.is_some()) && !accepts(Tree)),
            ),
        ];
        for (p, set) in given {
            if set && !accepts(p) {
                return Err(unsupported(p));
            }
        }
        let out_len = params.length.unwrap_or(info.default_len);
        let fixed = |rate: usize, suffix: Suffix| {
            Inner::Sponge(Sponge::new(SpongeParams::fixed1600(rate, 24, suffix)))
        };
        let cust = &params.customization[..];
        let key = || -> Result<&[u8]> {
            params.key.as_deref().ok_or(Error::InvalidParameter(
                "KMAC needs a key (--key-hex or --key-file)",
            ))
        };
        let block = || params.block_size.unwrap_or(8192);
        let inner = match info.name {
            "sha3-224" => fixed(144, Suffix::SHA3),
            "sha3-256" => fixed(136, Suffix::SHA3),
            "sha3-384" => fixed(104, Suffix::SHA3),
            "sha3-512" => fixed(72, Suffix::SHA3),
            "shake128" => fixed(168, Suffix::SHAKE),
            "shake256" => fixed(136, Suffix::SHAKE),
            "keccak-224" => fixed(144, Suffix::NONE),
            "keccak-256" => fixed(136, Suffix::NONE),
            "keccak-384" => fixed(104, Suffix::NONE),
            "keccak-512" => fixed(72, Suffix::NONE),
            "cshake128" => Inner::CShake128(CShake128::new(&params.function_name, cust)),
            "cshake256" => Inner::CShake256(CShake256::new(&params.function_name, cust)),
            "kmac128" => Inner::Kmac128(Kmac128::new(key()?, cust), false),
            "kmac256" => Inner::Kmac256(Kmac256::new(key()?, cust), false),
            "kmacxof128" => Inner::Kmac128(Kmac128::new(key()?, cust), true),
            "kmacxof256" => Inner::Kmac256(Kmac256::new(key()?, cust), true),
            "tuplehash128" => Inner::Tuple128(TupleHash128::new(cust), false),
            "tuplehash256" => Inner::Tuple256(TupleHash256::new(cust), false),
            "tuplehashxof128" => Inner::Tuple128(TupleHash128::new(cust), true),
            "tuplehashxof256" => Inner::Tuple256(TupleHash256::new(cust), true),
            "parallelhash128" => Inner::Parallel128(ParallelHash128::new(block(), cust)?, false),
            "parallelhash256" => Inner::Parallel256(ParallelHash256::new(block(), cust)?, false),
            "parallelhashxof128" => Inner::Parallel128(ParallelHash128::new(block(), cust)?, true),
            "parallelhashxof256" => Inner::Parallel256(ParallelHash256::new(block(), cust)?, true),
            "turboshake128" => Inner::Turbo128(TurboShake128::new(params.domain.unwrap_or(0x1F))?),
            "turboshake256" => Inner::Turbo256(TurboShake256::new(params.domain.unwrap_or(0x1F))?),
            "kt128" => Inner::Kt128(Kt128::new(cust)),
            "kt256" => Inner::Kt256(Kt256::new(cust)),
            "keccak" => Inner::Sponge(Sponge::new(raw_params(params)?)),
            "tree-li" => Inner::Tree(TreeLi::new(params.tree_li()?)?),
            _ => unreachable!("every table entry has a constructor"),
        };
        let rate_bytes = match &inner {
            Inner::Sponge(s) => s.params().rate_bits() / 8,
            Inner::Tree(_) => params.tree_li()?.rate_bytes(),
            _ => info
                .rate_bytes
                .expect("every keyed-mode entry has a fixed rate"),
        };
        Ok(Hasher {
            info,
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
            Inner::Parallel128(h, _) => h.update(data),
            Inner::Parallel256(h, _) => h.update(data),
            Inner::Turbo128(h) => h.update(data),
            Inner::Turbo256(h) => h.update(data),
            Inner::Kt128(h) => h.update(data),
            Inner::Kt256(h) => h.update(data),
            Inner::Tree(h) => h.update(data),
        }
    }

    /// Finish and return a reader; L-binding functions (KMAC, TupleHash,
    /// ParallelHash) bind `output_len()` into the result.
    pub fn finalize_reader(self) -> XofReader {
        let l = self.out_len as u128 * 8;
        let bound = |xof: bool| if xof { 0 } else { l };
        match self.inner {
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

fn raw_params(p: &Params) -> Result<SpongeParams> {
    let (rate, width) = match (p.rate, p.capacity, p.width) {
        (Some(r), Some(c), w) => {
            if w.is_some_and(|w| w != r + c) {
                return Err(Error::InvalidParameter(
                    "--rate + --capacity must equal --width",
                ));
            }
            (r, r + c)
        }
        (Some(r), None, w) => (r, w.unwrap_or(1600)),
        (None, Some(c), w) => {
            let w = w.unwrap_or(1600);
            (
                w.checked_sub(c)
                    .ok_or(Error::InvalidRate { width: w, rate: 0 })?,
                w,
            )
        }
        (None, None, _) => {
            return Err(Error::InvalidParameter(
                "raw keccak needs --rate and/or --capacity (bits)",
            ))
        }
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
            "tree-LI takes no --rounds"
        );
        assert!(err(
            "tree-li",
            Params {
                width: Some(1600),
                ..Default::default()
            }
        )
        .contains("--width"));
        assert!(err(
            "tree-li",
            Params {
                key: Some(vec![1]),
                ..Default::default()
            }
        )
        .contains("--prefix"));
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
        .contains("tree-li"));
        assert!(err(
            "keccak",
            Params {
                prefix: Some(vec![]),
                rate: Some(8),
                ..Default::default()
            }
        )
        .contains("tree-li"));
        assert!(err(
            "shake128",
            Params {
                rate: Some(1088),
                ..Default::default()
            }
        )
        .contains("raw `keccak`"));
    }
}
