//! An algorithm with its parameters, chosen at run time from the library's
//! registry, and the streaming hasher the CLI feeds file data to.

use keccakx::registry::{self, AlgorithmInfo, Hasher, Param, Params};
use keccakx::sp800_185::{left_encode, right_encode};

/// The default `-a`.
pub const DEFAULT_ALGORITHM: &str = "sha3-256";

/// A fully parameterised algorithm, shared by every file it hashes.
#[derive(Clone)]
pub struct Algo {
    pub info: &'static AlgorithmInfo,
    /// The parameters it was built with (also what the GPU path needs).
    pub params: Params,
    /// Output bytes.
    pub out_len: usize,
    kind: Kind,
}

#[derive(Clone)]
enum Kind {
    /// Any registry function fed in pieces.
    Stream(Hasher),
    /// TupleHash of the 1-tuple (whole input): encode_string needs the input
    /// length first, so it runs as cSHAKE(N = "TupleHash", S) over
    /// left_encode(8·len) || input || right_encode(L) (SP 800-185 §5.2).
    Tuple { cshake: Hasher, l_bits: u128 },
}

/// Look an algorithm up by `-a` name (see [`registry::find`]).
pub fn find(name: &str) -> Option<&'static AlgorithmInfo> {
    registry::find(name)
}

/// Look an algorithm up by the name in a BSD tag line (`SHA3-256 (f) = ..`):
/// the display name (any case) or any `-a` spelling.
pub fn find_tag(tag: &str) -> Option<&'static AlgorithmInfo> {
    registry::list()
        .iter()
        .find(|a| a.display.eq_ignore_ascii_case(tag))
        .or_else(|| registry::find(tag))
}

/// Keep only the parameters `info` takes (for tagged `--check` lines whose
/// algorithm differs from `-a`); the length is set by the caller.
pub fn params_for(info: &AlgorithmInfo, p: &Params) -> Params {
    let takes = |x: Param| info.params.contains(&x);
    let mut q = Params::default();
    if takes(Param::Customization) {
        q.customization = p.customization.clone();
    }
    if takes(Param::FunctionName) {
        q.function_name = p.function_name.clone();
    }
    if takes(Param::Key) {
        q.key = p.key.clone();
    }
    if takes(Param::BlockSize) {
        q.block_size = p.block_size;
    }
    if takes(Param::Domain) {
        q.domain = p.domain;
    }
    if takes(Param::Sponge) {
        q.width = p.width;
        q.rate = p.rate;
        q.capacity = p.capacity;
        q.rounds = p.rounds;
        q.suffix = p.suffix;
    }
    q
}

impl Algo {
    /// Validate `params` for `info`; the error is a message for the user.
    pub fn new(info: &'static AlgorithmInfo, params: &Params) -> Result<Algo, String> {
        let proto = Hasher::new(info.name, params).map_err(|e| format!("-a {}: {e}", info.name))?;
        let out_len = proto.output_len();
        let kind = match info.name {
            "tuplehash128" | "tuplehash256" | "tuplehashxof128" | "tuplehashxof256" => {
                let wide = info.name.ends_with("256");
                let xof = info.name.contains("xof");
                let cp = Params {
                    length: Some(out_len),
                    function_name: b"TupleHash".to_vec(),
                    customization: params.customization.clone(),
                    ..Params::default()
                };
                let cshake = Hasher::new(if wide { "cshake256" } else { "cshake128" }, &cp)
                    .map_err(|e| format!("-a {}: {e}", info.name))?;
                Kind::Tuple {
                    cshake,
                    l_bits: if xof { 0 } else { out_len as u128 * 8 },
                }
            }
            _ => Kind::Stream(proto),
        };
        Ok(Algo {
            info,
            params: params.clone(),
            out_len,
            kind,
        })
    }

    /// The tag written by `--tag`.
    pub fn display(&self) -> &'static str {
        self.info.display
    }

    /// Whether the input length must be known before the first byte.
    pub fn needs_length(&self) -> bool {
        matches!(self.kind, Kind::Tuple { .. })
    }

    /// A hasher for one input of `len` bytes (`len` is required when
    /// [`needs_length`](Self::needs_length); a different byte count at the
    /// end is reported by [`Stream::finish`]).
    pub fn start(&self, len: Option<u64>) -> Stream {
        match &self.kind {
            Kind::Stream(h) => Stream {
                h: h.clone(),
                tuple: None,
            },
            Kind::Tuple { cshake, l_bits } => {
                let mut h = cshake.clone();
                let n = len.unwrap_or(0);
                h.update(left_encode(n as u128 * 8).as_ref());
                Stream {
                    h,
                    tuple: Some(TupleState {
                        l_bits: *l_bits,
                        expected: n,
                        seen: 0,
                    }),
                }
            }
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

struct TupleState {
    l_bits: u128,
    expected: u64,
    seen: u64,
}

/// A hasher in progress over one input.
pub struct Stream {
    h: Hasher,
    tuple: Option<TupleState>,
}

impl Stream {
    pub fn update(&mut self, data: &[u8]) {
        if let Some(t) = &mut self.tuple {
            t.seen += data.len() as u64;
        }
        self.h.update(data);
    }

    /// The digest, or an error when the input did not have the length
    /// announced to [`Algo::start`] (a file that changed while being read).
    pub fn finish(mut self) -> Result<Vec<u8>, String> {
        if let Some(t) = &self.tuple {
            if t.seen != t.expected {
                return Err("file changed size while being read".into());
            }
            let tail = right_encode(t.l_bits);
            self.h.update(tail.as_ref());
        }
        Ok(self.h.finalize())
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

    #[test]
    fn single_element_tuplehash_matches_library() {
        for len in [0usize, 1, 135, 136, 168, 1000] {
            let data: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            for (name, xof) in [("tuplehash128", false), ("tuplehashxof128", true)] {
                let a = Algo::new(
                    find(name).unwrap(),
                    &Params {
                        customization: b"S".to_vec(),
                        length: Some(40),
                        ..Default::default()
                    },
                )
                .unwrap();
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
    fn tags() {
        assert_eq!(find_tag("SHA3-256").unwrap().name, "sha3-256");
        assert_eq!(find_tag("kt128").unwrap().name, "kt128");
        assert_eq!(find_tag("Keccak[r,c]").unwrap().name, "keccak");
        assert!(find_tag("SHA256").is_none());
    }
}
