//! Every algorithm the CLI offers, with its parameters, and the streaming
//! hasher it feeds file data to: the library's registry (FIPS 202, Keccak,
//! SP 800-185, RFC 9861, raw Keccak[r, c], tree mode LI), and the SHA-3
//! finalists (BLAKE, Grøstl, JH, Skein, another crate) for comparison.

use std::sync::OnceLock;

use keccakx::registry::{self, AlgorithmInfo, Hasher, Param, Params};

pub use crate::reading::InputMode;
use crate::reading::Translator;

/// The default `-a`.
pub const DEFAULT_ALGORITHM: &str = "sha3-256";

/// The algorithm sha3sum's `-a NAME` means, and the output length it implies
/// when `-l` is not given (None: the algorithm's own): the checksum-file
/// library's table (`keccakx::sumfile::sha3sum_name`), as this CLI's entry.
pub fn sha3sum_name(name: &str) -> Option<(&'static AlgInfo, Option<usize>)> {
    let (canonical, len) = keccakx::sumfile::sha3sum_name(name)?;
    Some((find(canonical)?, len))
}

/// The algorithm and output length of an untagged checksum line of
/// `hex_len` hex digits when no `-a` was given: what sha3sum writes
/// (SHA3-224/256/384/512, SHAKE128/256 of one rate), from the
/// checksum-file library's table.
pub fn sha3sum_by_hex_len(hex_len: usize) -> Option<(&'static AlgInfo, usize)> {
    let (canonical, len) = keccakx::sumfile::sha3sum_by_hex_len(hex_len)?;
    Some((find(canonical)?, len))
}

/// Which code computes an algorithm.
#[derive(Clone, Copy, Debug)]
pub enum Family {
    Registry(&'static AlgorithmInfo),
    #[cfg(feature = "finalists")]
    Finalist(finalists::Algorithm),
}

/// One algorithm of `keccakx list`.
#[derive(Debug)]
pub struct AlgInfo {
    /// Canonical `-a` name.
    pub name: &'static str,
    /// Name in `--tag` lines.
    pub display: &'static str,
    /// Default output length in bytes.
    pub default_len: usize,
    /// Whether `-l` may choose the length.
    pub variable_len: bool,
    /// Options it takes, for `keccakx list`.
    pub options: String,
    /// Where it is specified.
    pub spec: &'static str,
    pub family: Family,
}

fn registry_options(a: &AlgorithmInfo) -> String {
    let tree = a.accepts(Param::Tree);
    let v: Vec<&str> = a
        .params
        .iter()
        .map(|p| match p {
            Param::Length => "-l BYTES",
            Param::Customization => "--customization S",
            Param::FunctionName => "--function-name N",
            Param::Key => "--key-hex/--key-file (required)",
            Param::BlockSize if tree => "--block-size B (rate)",
            Param::BlockSize => "--block-size B (8192)",
            Param::Domain => "--domain D (0x1F)",
            Param::Sponge => "--rate --capacity --width --rounds --suffix",
            Param::Tree => {
                "--degree D (4), --height H (4), --rate/--capacity (1088/512), \
                 --prefix/--prefix-hex P"
            }
        })
        .collect();
    if v.is_empty() {
        "-".into()
    } else {
        v.join(", ")
    }
}

/// The tag name of a finalist: `BLAKE-256`, `Groestl-256`, `JH-256`, `Skein-512-256`.
#[cfg(feature = "finalists")]
fn finalist_display(a: finalists::Algorithm) -> String {
    let n = a.name();
    let (fam, rest) = match a.family() {
        finalists::Family::Blake => ("BLAKE", &n[5..]),
        finalists::Family::Groestl => ("Groestl", &n[7..]),
        finalists::Family::Jh => ("JH", &n[2..]),
        finalists::Family::Skein => ("Skein", &n[5..]),
    };
    format!("{fam}-{rest}")
}

/// Every algorithm, in `keccakx list` order.
pub fn all() -> &'static [AlgInfo] {
    static ALL: OnceLock<Vec<AlgInfo>> = OnceLock::new();
    ALL.get_or_init(|| {
        #[cfg_attr(not(feature = "finalists"), allow(unused_mut))]
        let mut v: Vec<AlgInfo> = registry::list()
            .iter()
            .map(|a| AlgInfo {
                name: a.name,
                display: a.display,
                default_len: a.default_len,
                variable_len: a.variable_len,
                options: registry_options(a),
                spec: a.spec,
                family: Family::Registry(a),
            })
            .collect();
        #[cfg(feature = "finalists")]
        for &f in finalists::Algorithm::all() {
            v.push(AlgInfo {
                name: f.name(),
                display: Box::leak(finalist_display(f).into_boxed_str()),
                default_len: f.output_len(),
                variable_len: false,
                options: "-".into(),
                spec: "SHA-3 finalist (final round)",
                family: Family::Finalist(f),
            });
        }
        v
    })
}

fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Look an algorithm up by `-a` name: case-insensitive, `-`/`_` optional
/// (`sha3_256`, `SHA3-256`, `keccak256`, `treeli`, `Skein512-256`), or
/// one of sha3sum's numbers (`256`, `128000`; see [`sha3sum_name`]).
pub fn find(name: &str) -> Option<&'static AlgInfo> {
    // `-` and `_` go between the parts of a name: not first, last or twice
    // in a row (`skein512-` is no name).
    if name.split(['-', '_']).any(|part| part.is_empty()) {
        return None;
    }
    if let Some((info, _)) = sha3sum_name(name) {
        return Some(info);
    }
    if let Some(r) = registry::find(name) {
        return all().iter().find(|a| a.name == r.name);
    }
    let n = squash(name);
    if let Some(a) = all().iter().find(|a| squash(a.name) == n) {
        return Some(a);
    }
    finalist(name)
}

/// A finalist's entry by any of its names.
#[cfg(feature = "finalists")]
fn finalist(name: &str) -> Option<&'static AlgInfo> {
    let f = finalists::Algorithm::from_name(name).ok()?;
    all().iter().find(|a| a.name == f.name())
}

/// No finalist is known without the finalists feature.
#[cfg(not(feature = "finalists"))]
fn finalist(_: &str) -> Option<&'static AlgInfo> {
    None
}

/// Look an algorithm up by the name in a BSD tag line (`SHA3-256 (f) = ..`):
/// its tag name (any case) or any `-a` spelling.
pub fn find_tag(tag: &str) -> Option<&'static AlgInfo> {
    all()
        .iter()
        .find(|a| a.display.eq_ignore_ascii_case(tag))
        .or_else(|| find(tag))
}

/// Keep only the parameters `info` takes (for tagged `--check` lines whose
/// algorithm differs from `-a`); the length is left to the caller.
pub fn params_for(info: &AlgInfo, p: &Params) -> Params {
    match info.family {
        Family::Registry(r) => p.kept_for(r),
        #[cfg(feature = "finalists")]
        Family::Finalist(_) => Params::default(),
    }
}

/// A fully parameterised algorithm, shared by every file it hashes.
#[derive(Clone)]
pub struct Algo {
    pub info: &'static AlgInfo,
    /// The parameters it was built with.
    pub params: Params,
    /// Output bytes.
    pub out_len: usize,
    /// How file bytes become the message.
    pub input: InputMode,
    /// Output bytes skipped before the `out_len` written (b3sum's
    /// `--seek`; extendable-output functions only).
    pub seek: u64,
    kind: Kind,
}

/// The largest `--seek`: a sponge reaches an offset only by squeezing
/// every block before it, so the time grows with the offset.
pub const MAX_SEEK: u64 = 1 << 32;

// The registry's hasher is the large, common variant: boxing it would add
// an indirection to every file for an enum that is never stored in bulk.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
enum Kind {
    /// Any registry function fed in pieces (TupleHash: the whole input is
    /// one tuple element, its length announced first).
    Stream(Hasher),
    #[cfg(feature = "finalists")]
    Finalist(finalists::Algorithm),
}

impl Algo {
    /// Validate `params` for `info`; the error is a message for the user.
    pub fn new(info: &'static AlgInfo, params: &Params) -> Result<Algo, String> {
        let name = info.name;
        let (out_len, kind) = match info.family {
            Family::Registry(r) => {
                let proto = Hasher::new(r.name, params)
                    .map_err(|e| format!("-a {name}: {}", keccakx_flags::spelled(&e)))?;
                (proto.output_len(), Kind::Stream(proto))
            }
            #[cfg(feature = "finalists")]
            Family::Finalist(f) => {
                if params.given(f.output_len()).next().is_some() {
                    return Err(format!(
                        "-a {name}: this algorithm takes no parameters (fixed {}-byte output)",
                        f.output_len()
                    ));
                }
                (f.output_len(), Kind::Finalist(f))
            }
        };
        Ok(Algo {
            info,
            params: params.clone(),
            out_len,
            input: InputMode::Bytes,
            seek: 0,
            kind,
        })
    }

    /// The same algorithm reading its input in `mode`; an error for bits
    /// into a function whose messages are bytes, and for a reading mode
    /// under TupleHash (its message's length comes first, and a reading
    /// mode knows it only at the end: the whole file would have to be held).
    pub fn with_input(mut self, mode: InputMode) -> Result<Algo, String> {
        let bits_ok = matches!(self.info.family, Family::Registry(r) if r.takes_bits());
        if let Some(why) = keccakx::sumfile::reading::refusal(bits_ok, self.needs_length(), mode) {
            return Err(format!("-a {}: {why}", self.info.name));
        }
        self.input = mode;
        Ok(self)
    }

    /// The same algorithm writing its output from byte `seek` on; an error
    /// unless it is an extendable-output function.
    pub fn with_seek(mut self, seek: u64) -> Result<Algo, String> {
        let xof = matches!(self.info.family, Family::Registry(r) if r.xof);
        if seek > 0 && !xof {
            return Err(format!(
                "--seek: -a {} is not an extendable-output function (its output is not one \
                 stream that any length reads a prefix of)",
                self.info.name
            ));
        }
        if seek > MAX_SEEK {
            return Err(format!(
                "--seek: at most {MAX_SEEK} (a sponge squeezes every byte before the offset)"
            ));
        }
        self.seek = seek;
        Ok(self)
    }

    /// Whether it hashes the bytes as they are and writes its output from
    /// the start: what a batch of messages on the GPU computes.
    pub fn is_plain(&self) -> bool {
        self.input == InputMode::Bytes && self.seek == 0
    }

    /// The tag written by `--tag`.
    pub fn display(&self) -> &'static str {
        self.info.display
    }

    /// Whether the input length must be known before the first byte.
    pub fn needs_length(&self) -> bool {
        matches!(self.info.family, Family::Registry(r) if r.needs_input_length())
    }

    /// A hasher for one input of `len` bytes (`len` is required when
    /// [`needs_length`](Self::needs_length); a different byte count at the
    /// end is reported by [`Stream::finish`]).
    pub fn start(&self, len: Option<u64>) -> Stream {
        let inner = match &self.kind {
            Kind::Stream(h) if self.needs_length() => {
                Inner::Reg(h.clone().with_input_length(len.unwrap_or(0)))
            }
            Kind::Stream(h) => Inner::Reg(h.clone()),
            #[cfg(feature = "finalists")]
            Kind::Finalist(f) => Inner::Fin(finalists::new_hasher(*f, finalists::Impl::Parallel)),
        };
        Stream {
            inner,
            reading: Translator::new(self.input),
            out_len: self.out_len,
            seek: self.seek,
        }
    }

    /// One-shot digest of an in-memory input.
    pub fn digest(&self, data: &[u8]) -> Vec<u8> {
        let mut s = self.start(Some(data.len() as u64));
        s.update(data);
        // The length was given exactly, so finishing cannot fail.
        s.finish().unwrap_or_default()
    }
}

// As for `Kind`: the large variant is the common one.
#[allow(clippy::large_enum_variant)]
enum Inner {
    Reg(Hasher),
    #[cfg(feature = "finalists")]
    Fin(Box<dyn finalists::DynHasher>),
}

impl Inner {
    fn update(&mut self, data: &[u8]) {
        match self {
            Inner::Reg(h) => h.update(data),
            #[cfg(feature = "finalists")]
            Inner::Fin(h) => h.update(data),
        }
    }
}

/// A hasher in progress over one input.
pub struct Stream {
    inner: Inner,
    reading: Translator,
    out_len: usize,
    seek: u64,
}

impl Stream {
    pub fn update(&mut self, data: &[u8]) {
        let inner = &mut self.inner;
        self.reading.feed(data, &mut |m| inner.update(m));
    }

    /// The digest, or an error when the input did not have the length
    /// announced to [`Algo::start`] (a file that changed while being read).
    pub fn finish(mut self) -> Result<Vec<u8>, String> {
        let inner = &mut self.inner;
        if let Some((byte, n)) = self.reading.finish(&mut |m| inner.update(m)) {
            // Only the plain sponges take bits (checked by `with_input`).
            #[allow(irrefutable_let_patterns)] // without the finalists
            let Inner::Reg(h) = inner
            else {
                return Err("bits mode on a function of bytes".into());
            };
            h.update_bits(&[byte], n.into())
                .map_err(|e| e.to_string())?;
        }
        let hasher = match self.inner {
            #[cfg(feature = "finalists")]
            Inner::Fin(h) => return Ok(h.finalize()),
            Inner::Reg(h) => h,
        };
        // Only a TupleHash input announced with another length fails.
        let mut reader = hasher
            .try_finalize_reader()
            .map_err(|_| String::from("file changed size while being read"))?;
        let mut skip = self.seek;
        let mut sink = [0u8; 4096];
        while skip > 0 {
            let n = skip.min(sink.len() as u64) as usize;
            reader.read(&mut sink[..n]);
            skip -= n as u64;
        }
        Ok(reader.read_vec(self.out_len))
    }
}

/// Lower-case hexadecimal.
pub fn to_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut s = String::with_capacity(bytes.len() * 2);
    for &b in bytes {
        s.push(HEX[(b >> 4) as usize] as char);
        s.push(HEX[(b & 15) as usize] as char);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use keccakx::sp800_185::{TupleHash128, TupleHash256};

    fn with(p: Params) -> Params {
        p
    }

    #[test]
    fn single_element_tuplehash_matches_library() {
        for len in [0usize, 1, 135, 136, 168, 1000] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            for (name, xof) in [("tuplehash128", false), ("tuplehashxof128", true)] {
                let p = with(Params {
                    customization: b"S".to_vec(),
                    length: Some(40),
                    ..Default::default()
                });
                let a = Algo::new(find(name).unwrap(), &p).unwrap();
                let mut t = TupleHash128::new(b"S");
                t.push(&data);
                let want = if xof {
                    t.finalize_xof().read_vec(40)
                } else {
                    t.finalize_vec(40)
                };
                assert_eq!(a.digest(&data), want, "{name} len {len}");
            }
            let a = Algo::new(find("tuplehash256").unwrap(), &Params::default()).unwrap();
            let mut t = TupleHash256::new(b"");
            t.push(&data);
            assert_eq!(a.digest(&data), t.finalize_vec(64));
        }
    }

    #[test]
    fn length_mismatch_is_an_error() {
        let a = Algo::new(find("tuplehash128").unwrap(), &Params::default()).unwrap();
        let mut s = a.start(Some(5));
        s.update(b"abc");
        assert!(s.finish().is_err());
    }

    #[test]
    fn tree_li_and_finalists_match_their_crates() {
        let data: Vec<u8> = (0..50_000u32).map(|i| (i % 253) as u8).collect();
        let p = Params {
            degree: Some(3),
            height: Some(2),
            prefix: Some(b"salt".to_vec()),
            length: Some(48),
            ..Default::default()
        };
        let a = Algo::new(find("tree-li").unwrap(), &p).unwrap();
        let t = keccakx::tree_li::TreeLiParams {
            degree: 3,
            height: 2,
            prefix: b"salt".to_vec(),
            ..keccakx::tree_li::TreeLiParams::default()
        };
        let mut want = vec![0u8; 48];
        keccakx::tree_li::tree_li(&t, &data, &mut want).unwrap();
        assert_eq!(a.digest(&data), want);
        #[cfg(feature = "finalists")]
        {
            for &f in finalists::Algorithm::all() {
                let a = Algo::new(find(f.name()).unwrap(), &Params::default()).unwrap();
                assert_eq!(
                    a.digest(&data),
                    finalists::hash(f, finalists::Impl::Sequential, &data),
                    "{}",
                    f.name()
                );
                assert_eq!(find_tag(a.display()).unwrap().name, f.name());
            }
            assert_eq!(find("Skein512-256").unwrap().display, "Skein-512-256");
            assert_eq!(find("Grøstl-256").unwrap().display, "Groestl-256");
            assert!(Algo::new(
                find("blake256").unwrap(),
                &with(Params {
                    length: Some(20),
                    ..Default::default()
                })
            )
            .is_err());
        }
        #[cfg(not(feature = "finalists"))]
        assert!(find("blake256").is_none() && find("Skein512-256").is_none());
        assert!(Algo::new(
            find("tree-li").unwrap(),
            &with(Params {
                rounds: Some(12),
                ..Default::default()
            })
        )
        .is_err());
        assert!(Algo::new(
            find("tree-li").unwrap(),
            &Params {
                degree: Some(0),
                ..Default::default()
            }
        )
        .is_err());
        assert!(Algo::new(
            find("sha3-256").unwrap(),
            &Params {
                height: Some(2),
                ..Default::default()
            }
        )
        .is_err());
    }

    #[test]
    fn bits_only_into_functions_of_bit_strings() {
        for (name, ok) in [
            ("sha3-256", true),
            ("shake128", true),
            ("keccak-256", true),
            ("kt128", false),
            ("blake256", false),
        ] {
            let Some(info) = find(name) else {
                // Only a finalist, and only without the finalists feature.
                if cfg!(feature = "finalists") {
                    panic!("{name} is not found");
                }
                continue;
            };
            let a = Algo::new(info, &Params::default()).unwrap();
            assert_eq!(a.with_input(InputMode::Bits).is_ok(), ok, "{name}");
        }
    }

    #[test]
    fn no_reading_mode_under_tuplehash() {
        let a = Algo::new(find("tuplehash128").unwrap(), &Params::default()).unwrap();
        assert!(a.clone().with_input(InputMode::Universal).is_err());
        assert!(a.clone().with_input(InputMode::Bits).is_err());
        assert!(a.with_input(InputMode::Bytes).is_ok());
    }

    #[test]
    fn seek_reads_further_along_the_output() {
        for (name, len, seek) in [
            ("shake128", 6usize, 10u64),
            ("kt128", 40, 5000),
            ("keccak", 3, 1),
        ] {
            let p = Params {
                length: Some(len),
                rate: (name == "keccak").then_some(1088),
                ..Default::default()
            };
            let short = Algo::new(find(name).unwrap(), &p).unwrap();
            let long = Algo::new(
                find(name).unwrap(),
                &Params {
                    length: Some(len + seek as usize),
                    ..p.clone()
                },
            )
            .unwrap();
            let data = b"seek test input";
            let want = long.digest(data)[seek as usize..].to_vec();
            assert_eq!(short.with_seek(seek).unwrap().digest(data), want, "{name}");
        }
        let sha3 = Algo::new(find("sha3-256").unwrap(), &Params::default()).unwrap();
        assert!(sha3.clone().with_seek(1).is_err());
        assert!(sha3.with_seek(0).is_ok());
        let kmac = Algo::new(
            find("kmac128").unwrap(),
            &Params {
                key: Some(b"k".to_vec()),
                ..Default::default()
            },
        )
        .unwrap();
        assert!(
            kmac.with_seek(1).is_err(),
            "KMAC binds L: no stream to seek in"
        );
        let shake = Algo::new(find("shake128").unwrap(), &Params::default()).unwrap();
        assert!(shake.with_seek(MAX_SEEK + 1).is_err());
    }

    #[test]
    fn sha3sum_names() {
        for (n, canonical, len) in [
            ("224", "sha3-224", None),
            ("512", "sha3-512", None),
            ("128000", "shake128", Some(168)),
            ("256000", "shake256", Some(136)),
        ] {
            let (info, l) = sha3sum_name(n).unwrap();
            assert_eq!((info.name, l), (canonical, len));
            assert_eq!(find(n).unwrap().name, canonical);
        }
        assert!(find("1024").is_none());
        assert_eq!(sha3sum_by_hex_len(64).unwrap().0.name, "sha3-256");
        let by_len = |n| sha3sum_by_hex_len(n).map(|(a, l)| (a.name, l));
        assert_eq!(by_len(336), Some(("shake128", 168)));
        assert_eq!(by_len(272), Some(("shake256", 136)));
        assert!(sha3sum_by_hex_len(40).is_none());
    }

    #[test]
    fn names_and_tags() {
        assert_eq!(find_tag("SHA3-256").unwrap().name, "sha3-256");
        assert_eq!(find_tag("kt128").unwrap().name, "kt128");
        assert_eq!(find_tag("Keccak[r,c]").unwrap().name, "keccak");
        assert_eq!(find_tag("TreeLI").unwrap().name, "tree-li");
        assert_eq!(find("tree_li").unwrap().name, "tree-li");
        assert!(find_tag("SHA256").is_none());
        let mut seen = std::collections::HashSet::new();
        for a in all() {
            assert!(seen.insert(squash(a.name)), "duplicate name {}", a.name);
            assert!(
                seen.insert(format!("tag:{}", a.display.to_lowercase())),
                "duplicate tag {}",
                a.display
            );
            assert!(!a.display.contains(' ') && !a.display.contains('('));
        }
    }
}
