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
    /// Parameters accepted.
    pub params: &'static [Param],
    /// Where it is specified.
    pub spec: &'static str,
}

use Param::*;

macro_rules! info {
    ($name:expr, $display:expr, $len:expr, $var:expr, [$($p:expr),*], $spec:expr) => {
        AlgorithmInfo { name: $name, display: $display, default_len: $len, variable_len: $var, params: &[$($p),*], spec: $spec }
    };
}

static TABLE: &[AlgorithmInfo] = &[
    info!("sha3-224", "SHA3-224", 28, false, [], "FIPS 202"),
    info!("sha3-256", "SHA3-256", 32, false, [], "FIPS 202"),
    info!("sha3-384", "SHA3-384", 48, false, [], "FIPS 202"),
    info!("sha3-512", "SHA3-512", 64, false, [], "FIPS 202"),
    info!("shake128", "SHAKE128", 32, true, [Length], "FIPS 202"),
    info!("shake256", "SHAKE256", 64, true, [Length], "FIPS 202"),
    info!("keccak-224", "Keccak-224", 28, false, [], "Keccak submission v3 (pad 0x01)"),
    info!("keccak-256", "Keccak-256", 32, false, [], "Keccak submission v3 (pad 0x01; Ethereum)"),
    info!("keccak-384", "Keccak-384", 48, false, [], "Keccak submission v3 (pad 0x01)"),
    info!("keccak-512", "Keccak-512", 64, false, [], "Keccak submission v3 (pad 0x01)"),
    info!("cshake128", "cSHAKE128", 32, true, [Length, FunctionName, Customization], "SP 800-185"),
    info!("cshake256", "cSHAKE256", 64, true, [Length, FunctionName, Customization], "SP 800-185"),
    info!("kmac128", "KMAC128", 32, true, [Length, Key, Customization], "SP 800-185"),
    info!("kmac256", "KMAC256", 64, true, [Length, Key, Customization], "SP 800-185"),
    info!("kmacxof128", "KMACXOF128", 32, true, [Length, Key, Customization], "SP 800-185"),
    info!("kmacxof256", "KMACXOF256", 64, true, [Length, Key, Customization], "SP 800-185"),
    info!("tuplehash128", "TupleHash128", 32, true, [Length, Customization], "SP 800-185"),
    info!("tuplehash256", "TupleHash256", 64, true, [Length, Customization], "SP 800-185"),
    info!("tuplehashxof128", "TupleHashXOF128", 32, true, [Length, Customization], "SP 800-185"),
    info!("tuplehashxof256", "TupleHashXOF256", 64, true, [Length, Customization], "SP 800-185"),
    info!("parallelhash128", "ParallelHash128", 32, true, [Length, BlockSize, Customization], "SP 800-185"),
    info!("parallelhash256", "ParallelHash256", 64, true, [Length, BlockSize, Customization], "SP 800-185"),
    info!("parallelhashxof128", "ParallelHashXOF128", 32, true, [Length, BlockSize, Customization], "SP 800-185"),
    info!("parallelhashxof256", "ParallelHashXOF256", 64, true, [Length, BlockSize, Customization], "SP 800-185"),
    info!("turboshake128", "TurboSHAKE128", 32, true, [Length, Domain], "RFC 9861"),
    info!("turboshake256", "TurboSHAKE256", 64, true, [Length, Domain], "RFC 9861"),
    info!("kt128", "KT128", 32, true, [Length, Customization], "RFC 9861 (KangarooTwelve)"),
    info!("kt256", "KT256", 64, true, [Length, Customization], "RFC 9861"),
    info!("keccak", "Keccak[r,c]", 32, true, [Length, Sponge], "Keccak reference v3: any width, rate, rounds, suffix"),
];

/// Every algorithm, in `keccakx list` order.
pub fn list() -> &'static [AlgorithmInfo] {
    TABLE
}

/// Look a name up (case-insensitive; `_` and `-` are interchangeable, and
/// `sha3_256`, `SHA3-256`, `keccak256` all work).
pub fn find(name: &str) -> Option<&'static AlgorithmInfo> {
    let norm = |s: &str| -> Vec<u8> {
        s.bytes().filter(|b| *b != b'-' && *b != b'_').map(|b| b.to_ascii_lowercase()).collect()
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
    pub block_size: Option<usize>,
    pub domain: Option<u8>,
    /// Raw Keccak[r, c]: width in bits (default r + c or 1600).
    pub width: Option<usize>,
    /// Raw Keccak[r, c]: rate in bits.
    pub rate: Option<usize>,
    /// Raw Keccak[r, c]: capacity in bits.
    pub capacity: Option<usize>,
    /// Raw Keccak[r, c]: rounds (default: full 12 + 2ℓ).
    pub rounds: Option<usize>,
    /// Raw Keccak[r, c]: delimited suffix byte (default 0x01, no suffix).
    pub suffix: Option<u8>,
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
}

/// A hasher for any function of the table, chosen at run time.
#[derive(Clone)]
pub struct Hasher {
    info: &'static AlgorithmInfo,
    out_len: usize,
    inner: Inner,
}

fn unsupported(p: Param) -> Error {
    Error::InvalidParameter(match p {
        Length => "this algorithm has a fixed output length; --length is not accepted",
        Customization => "this algorithm takes no customization string",
        FunctionName => "this algorithm takes no function name",
        Key => "this algorithm takes no key",
        BlockSize => "this algorithm takes no block size",
        Domain => "this algorithm takes no domain byte",
        Sponge => "only the raw `keccak` algorithm takes --rate/--capacity/--width/--rounds/--suffix",
    })
}

impl Hasher {
    /// A hasher for `name` with `params`; every invalid combination is an error.
    pub fn new(name: &str, params: &Params) -> Result<Hasher> {
        let info = find(name).ok_or(Error::InvalidParameter(
            "unknown algorithm (run `keccakx list` for the names)",
        ))?;
        let accepts = |p: Param| info.params.contains(&p);
        let given = [
            (Length, params.length.is_some() && params.length != Some(info.default_len)),
            (Customization, !params.customization.is_empty()),
            (FunctionName, !params.function_name.is_empty()),
            (Key, params.key.is_some()),
            (BlockSize, params.block_size.is_some()),
            (Domain, params.domain.is_some()),
            (
                Sponge,
                params.width.is_some()
                    || params.rate.is_some()
                    || params.capacity.is_some()
                    || params.rounds.is_some()
                    || params.suffix.is_some(),
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
            params.key.as_deref().ok_or(Error::InvalidParameter("KMAC needs a key (--key or --key-file)"))
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
            _ => unreachable!("every table entry has a constructor"),
        };
        Ok(Hasher { info, out_len, inner })
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
                return Err(Error::InvalidParameter("--rate + --capacity must equal --width"));
            }
            (r, r + c)
        }
        (Some(r), None, w) => (r, w.unwrap_or(1600)),
        (None, Some(c), w) => {
            let w = w.unwrap_or(1600);
            (w.checked_sub(c).ok_or(Error::InvalidRate { width: w, rate: 0 })?, w)
        }
        (None, None, _) => {
            return Err(Error::InvalidParameter("raw keccak needs --rate and/or --capacity (bits)"))
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
        let mut p = Params { rate: Some(1088), capacity: Some(512), suffix: Some(0x06), ..Default::default() };
        let mut r = Hasher::new("keccak", &p).unwrap();
        r.update(b"abc");
        assert_eq!(r.finalize(), crate::fips202::Sha3_256::digest(b"abc"));
        p.length = Some(7);
        assert!(Hasher::new("sha3-256", &Params { length: Some(7), ..Default::default() }).is_err());
        assert!(Hasher::new("kmac128", &Params::default()).is_err());
        assert!(Hasher::new("nope", &Params::default()).is_err());
        assert!(Hasher::new("keccak", &Params { rate: Some(40), width: Some(1601), ..Default::default() }).is_err());
    }
}
