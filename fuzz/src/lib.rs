//! The golden model of every registry function, for the differential fuzz
//! target: each function written out from its standard on the crate's
//! golden sponge (`keccakx::sponge::golden_sponge`: the generic Keccak-p,
//! one bit at a time, FIPS 202 §4) and nothing else of the crate. The
//! encodings (left_encode, right_encode, encode_string, bytepad,
//! length_encode) are written again here, from SP 800-185 §2.3 and
//! RFC 9861 §3.3, so the fast paths' own helpers are not trusted either.

use keccakx::sponge::{golden_sponge, SpongeParams, Suffix};

/// Keccak[r, c] on width `width`, `rounds` rounds, with the delimited
/// suffix byte `d`, over `msg`, `n` output bytes: the golden sponge.
pub fn sponge(width: usize, rate_bits: usize, rounds: usize, d: u8, msg: &[u8], n: usize) -> Vec<u8> {
    let suffix = Suffix::from_delimited(d).expect("valid delimited suffix");
    let p = SpongeParams::new(width, rate_bits, rounds, suffix).expect("valid sponge parameters");
    golden_sponge(&p, msg, msg.len() * 8, n * 8)
}

/// Width 1600, 24 rounds, rate in bytes.
fn k1600(rate: usize, d: u8, msg: &[u8], n: usize) -> Vec<u8> {
    sponge(1600, rate * 8, 24, d, msg, n)
}

// ---- SP 800-185 §2.3 ----

fn be_min(x: u128) -> Vec<u8> {
    let b = x.to_be_bytes();
    let skip = b.iter().take_while(|&&v| v == 0).count().min(15);
    b[skip..].to_vec()
}

pub fn left_encode(x: u128) -> Vec<u8> {
    let v = be_min(x);
    let mut out = vec![v.len() as u8];
    out.extend(v);
    out
}

pub fn right_encode(x: u128) -> Vec<u8> {
    let mut v = be_min(x);
    let n = v.len() as u8;
    v.push(n);
    v
}

pub fn encode_string(s: &[u8]) -> Vec<u8> {
    let mut v = left_encode(s.len() as u128 * 8);
    v.extend_from_slice(s);
    v
}

pub fn bytepad(x: &[u8], w: usize) -> Vec<u8> {
    let mut z = left_encode(w as u128);
    z.extend_from_slice(x);
    while z.len() % w != 0 {
        z.push(0);
    }
    z
}

fn rate(sec: usize) -> usize {
    if sec == 128 {
        168
    } else {
        136
    }
}

/// cSHAKE (SP 800-185 §3): SHAKE when N and S are both empty.
pub fn cshake(sec: usize, x: &[u8], n: usize, name: &[u8], s: &[u8]) -> Vec<u8> {
    let r = rate(sec);
    if name.is_empty() && s.is_empty() {
        return k1600(r, 0x1F, x, n);
    }
    let mut m = encode_string(name);
    m.extend(encode_string(s));
    let mut msg = bytepad(&m, r);
    msg.extend_from_slice(x);
    k1600(r, 0x04, &msg, n)
}

/// KMAC and KMACXOF (§4): L = 8n bits, or 0 for the XOF.
pub fn kmac(sec: usize, key: &[u8], x: &[u8], n: usize, s: &[u8], xof: bool) -> Vec<u8> {
    let mut m = bytepad(&encode_string(key), rate(sec));
    m.extend_from_slice(x);
    m.extend(right_encode(if xof { 0 } else { n as u128 * 8 }));
    cshake(sec, &m, n, b"KMAC", s)
}

/// TupleHash and TupleHashXOF (§5).
pub fn tuplehash(sec: usize, elems: &[&[u8]], n: usize, s: &[u8], xof: bool) -> Vec<u8> {
    let mut m = Vec::new();
    for e in elems {
        m.extend(encode_string(e));
    }
    m.extend(right_encode(if xof { 0 } else { n as u128 * 8 }));
    cshake(sec, &m, n, b"TupleHash", s)
}

/// ParallelHash and ParallelHashXOF (§6), block size `b`.
pub fn parallelhash(sec: usize, x: &[u8], b: usize, n: usize, s: &[u8], xof: bool) -> Vec<u8> {
    let cv = sec / 4;
    let mut m = left_encode(b as u128);
    let blocks = x.len().div_ceil(b);
    for i in 0..blocks {
        let block = &x[i * b..((i + 1) * b).min(x.len())];
        m.extend(cshake(sec, block, cv, b"", b""));
    }
    m.extend(right_encode(blocks as u128));
    m.extend(right_encode(if xof { 0 } else { n as u128 * 8 }));
    cshake(sec, &m, n, b"ParallelHash", s)
}

// ---- RFC 9861 ----

/// TurboSHAKE128/256 with domain byte `d` (§2).
pub fn turboshake(sec: usize, x: &[u8], d: u8, n: usize) -> Vec<u8> {
    sponge(1600, rate(sec) * 8, 12, d, x, n)
}

/// length_encode (§3.3).
pub fn length_encode(x: u64) -> Vec<u8> {
    let b = x.to_be_bytes();
    let skip = b.iter().take_while(|&&v| v == 0).count();
    let mut v = b[skip..].to_vec();
    v.push(v.len() as u8);
    v
}

/// KT128 / KT256 (§3), customization `c`.
pub fn kt(sec: usize, m: &[u8], c: &[u8], n: usize) -> Vec<u8> {
    const CHUNK: usize = 8192;
    let mut s = m.to_vec();
    s.extend_from_slice(c);
    s.extend(length_encode(c.len() as u64));
    if s.len() <= CHUNK {
        return turboshake(sec, &s, 0x07, n);
    }
    let cv = sec / 4;
    let mut node = s[..CHUNK].to_vec();
    node.extend_from_slice(&[0x03, 0, 0, 0, 0, 0, 0, 0]);
    let leaves: Vec<&[u8]> = s[CHUNK..].chunks(CHUNK).collect();
    for leaf in &leaves {
        node.extend(turboshake(sec, leaf, 0x0B, cv));
    }
    node.extend(length_encode(leaves.len() as u64));
    node.extend_from_slice(&[0xFF, 0xFF]);
    turboshake(sec, &node, 0x06, n)
}

// ---- tree mode LI (docs/tree-li.md §5) ----

/// Tree LI with degree `d`, height `h`, leaf block `b`, rate `r_bits`
/// (capacity 1600 − r), prefix `p`; `n` output bytes.
pub fn tree_li(d: usize, h: usize, b: usize, r_bits: usize, p: &[u8], msg: &[u8], n: usize) -> Vec<u8> {
    let r = r_bits / 8;
    let cv = (1600 - r_bits) / 8;
    let mut hdr = vec![
        if h == 0 { 0 } else { d as u8 },
        h as u8,
    ];
    hdr.extend((if h == 0 { 0u32 } else { b as u32 }).to_le_bytes());
    hdr.push(if h == 0 { 0 } else { cv as u8 });
    hdr.push(r as u8);
    hdr.push(p.len() as u8);
    hdr.extend_from_slice(p);
    while hdr.len() % r != 0 {
        hdr.push(0);
    }
    let node = |body: &[u8], suffix: u8, len: usize| {
        let mut x = hdr.clone();
        x.extend_from_slice(body);
        sponge(1600, r_bits, 24, suffix, &x, len)
    };
    if h == 0 {
        return node(msg, 0x07, n);
    }
    let leaves = d.pow(h as u32);
    let mut bodies = vec![Vec::new(); leaves];
    for (j, block) in msg.chunks(b).enumerate() {
        bodies[j % leaves].extend_from_slice(block);
    }
    let mut cvs: Vec<Vec<u8>> = bodies.iter().map(|s| node(s, 0x0B, cv)).collect();
    for _ in 1..h {
        cvs = cvs.chunks(d).map(|kids| node(&kids.concat(), 0x0A, cv)).collect();
    }
    node(&cvs.concat(), 0x06, n)
}

/// Reads fuzz input as a stream of small decisions; past its end every
/// read is 0, so any input is a complete case.
pub struct Src<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Src<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Src { data, pos: 0 }
    }

    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }

    /// A value in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        if hi <= lo {
            return lo;
        }
        lo + (self.u32() as usize) % (hi - lo + 1)
    }

    pub fn bool(&mut self) -> bool {
        self.u8() & 1 == 1
    }

    /// Up to `max` raw bytes (a length byte, then the bytes).
    pub fn bytes(&mut self, max: usize) -> Vec<u8> {
        let n = self.range(0, max);
        (0..n).map(|_| self.u8()).collect()
    }

    /// What is left of the input.
    pub fn rest(&mut self) -> &'a [u8] {
        let r = self.data.get(self.pos..).unwrap_or(&[]);
        self.pos = self.data.len();
        r
    }

    /// A message: the remaining raw bytes for a small one, or (when the
    /// first decision says so) a long one grown from them, of a length
    /// near the edges that matter (rate blocks, KT's 8192-byte chunks, the
    /// 8-lane groups of leaves) or anywhere up to `max_long`.
    pub fn message(&mut self, max_long: usize) -> Vec<u8> {
        // One case in four: the golden model is bit by bit, and slow.
        let long = self.u8() >= 192;
        let len = if long {
            const EDGES: [usize; 12] = [136, 168, 8192, 8193, 16384, 16385, 65536, 73728, 73729, 8192 * 9 - 1, 8192 * 17, 200_000];
            let base = match self.u8() % 3 {
                0 => EDGES[self.range(0, EDGES.len() - 1)],
                1 => 8192 * self.range(1, 20),
                _ => self.range(0, max_long),
            };
            let delta = self.range(0, 4) as isize - 2;
            ((base as isize + delta).max(0) as usize).min(max_long)
        } else {
            usize::MAX
        };
        let seed = self.bytes(64);
        if !long {
            let mut m = seed;
            m.extend_from_slice(self.rest());
            return m;
        }
        let seed = if seed.is_empty() { vec![0x5a] } else { seed };
        (0..len)
            .map(|i| seed[i % seed.len()] ^ (i / seed.len()) as u8 ^ (i >> 13) as u8)
            .collect()
    }
}

/// The golden model checked against the published vectors: run once by
/// the differential fuzz target before it trusts the model, and by
/// `cargo test --manifest-path fuzz/Cargo.toml`.
pub mod selftest {
    use super::*;
    use std::collections::HashMap;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    fn unhex(s: &str) -> Vec<u8> {
        (0..s.len() / 2)
            .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
            .collect()
    }

    /// A byte string of the vector files: hex, "ASCII", or ptn(n).
    fn bytes(v: &str) -> Vec<u8> {
        if let Some(q) = v.strip_prefix('"') {
            return q.trim_end_matches('"').as_bytes().to_vec();
        }
        if let Some(n) = v.strip_prefix("ptn(") {
            let n: usize = n.trim_end_matches(')').parse().unwrap();
            return (0..n).map(|i| (i % 251) as u8).collect();
        }
        unhex(v)
    }

    /// Records of a vector file (tests/vectors/README.md format), with
    /// repeated fields (TupleHash's T) kept in order.
    fn records(rel: &str) -> Vec<HashMap<String, Vec<String>>> {
        let path = format!("{}/../tests/vectors/{rel}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        let mut out = Vec::new();
        let mut cur: HashMap<String, Vec<String>> = HashMap::new();
        for line in text.lines().chain(std::iter::once("")) {
            let line = line.trim();
            if line.starts_with('#') {
                continue;
            }
            if line.is_empty() {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                continue;
            }
            let (k, v) = line.split_once('=').unwrap();
            cur.entry(k.trim().to_string()).or_default().push(v.trim().to_string());
        }
        out
    }

    /// Every SP 800-185 sample and every RFC 9861 vector up to 100 KB of
    /// message (the golden sponge is slow), and docs/tree-li.md §6; the
    /// number of vectors checked.
    pub fn check_vectors() -> usize {
        let mut checked = 0;
        for r in records("sp800-185/sp800_185_samples.txt") {
            let f = r["Function"][0].as_str();
            let one = |k: &str| r.get(k).map(|v| bytes(&v[0])).unwrap_or_default();
            let n: usize = r["L"][0].parse::<usize>().unwrap() / 8;
            let sec = if f.ends_with("128") { 128 } else { 256 };
            let xof = f.contains("XOF");
            let got = if f.starts_with("cSHAKE") {
                cshake(sec, &one("X"), n, &one("N"), &one("S"))
            } else if f.starts_with("KMAC") {
                kmac(sec, &one("K"), &one("X"), n, &one("S"), xof)
            } else if f.starts_with("TupleHash") {
                let t: Vec<Vec<u8>> = r.get("T").map(|v| v.iter().map(|x| bytes(x)).collect()).unwrap_or_default();
                let refs: Vec<&[u8]> = t.iter().map(|x| x.as_slice()).collect();
                tuplehash(sec, &refs, n, &one("S"), xof)
            } else {
                let b: usize = r["B"][0].parse().unwrap();
                parallelhash(sec, &one("X"), b, n, &one("S"), xof)
            };
            assert_eq!(hex(&got), r["Out"][0].to_lowercase(), "{f} sample {:?}", r.get("Sample"));
            checked += 1;
        }
        for r in records("rfc9861/rfc9861.txt") {
            let f = r["Function"][0].as_str();
            let m = bytes(&r["M"][0]);
            if m.len() > 100_000 {
                continue;
            }
            let l: usize = r["L"][0].parse().unwrap();
            let want = r["Out"][0].to_lowercase();
            let sec = if f.ends_with("128") { 128 } else { 256 };
            let got = if f.starts_with("TurboSHAKE") {
                turboshake(sec, &m, u8::from_str_radix(&r["D"][0], 16).unwrap(), l)
            } else {
                kt(sec, &m, &bytes(r.get("C").map(|c| c[0].as_str()).unwrap_or("")), l)
            };
            assert_eq!(hex(&got[l - want.len() / 2..]), want, "{f} {:?}", r["M"]);
            checked += 1;
        }
        assert!(checked > 60, "{checked}");
        let m: Vec<u8> = (0..20).collect();
        assert_eq!(
            hex(&tree_li(2, 2, 3, 1088, b"salt", &m, 32)),
            "2eaf9fc213213cb7022b040bb8b7008a8ee63dad199436caf35c858d153705ff"
        );
        assert_eq!(
            hex(&tree_li(4, 4, 136, 1088, b"", b"abc", 32)),
            "fb0fd165d3e59a69aaf01e64e2bc6009caa79dfb8bc947677638fec13b29adee"
        );
        assert_eq!(
            hex(&tree_li(4, 0, 136, 1088, b"", b"abc", 32)),
            "a59e752d78ed64e30016b93f664e6b9e251b555451c33678b5872c2157fbcc77"
        );
        assert_eq!(
            hex(&k1600(136, 0x06, b"abc", 32)),
            "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"
        );
        checked + 4
    }

    #[test]
    fn golden_model_matches_published_vectors() {
        assert!(check_vectors() > 60);
    }
}

