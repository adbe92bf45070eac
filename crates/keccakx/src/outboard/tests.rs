use super::*;
use crate::registry::{Hasher, Params};

/// xorshift64*: deterministic test data without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

/// The one-shot digest from the registry (the golden path).
fn one_shot(a: Algorithm, block: Option<usize>, c: &[u8], m: &[u8], out_len: usize) -> Vec<u8> {
    let p = Params {
        length: Some(out_len),
        customization: c.to_vec(),
        block_size: block,
        ..Params::default()
    };
    let mut h = Hasher::new(a.name(), &p).unwrap();
    h.update(m);
    h.finalize()
}

fn cases() -> Vec<(Algorithm, Option<usize>)> {
    let mut v = vec![(Algorithm::Kt128, None), (Algorithm::Kt256, None)];
    for a in &Algorithm::ALL[2..] {
        for b in [1usize, 7, 168, 1000, 8192] {
            v.push((*a, Some(b)));
        }
    }
    v
}

#[test]
fn outboard_digest_is_the_one_shot_digest() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (a, block) in cases() {
        let chunk = block.unwrap_or(8192);
        let lens = [
            0,
            1,
            chunk - 1,
            chunk,
            chunk + 1,
            2 * chunk,
            3 * chunk + 5,
            8191,
            8192,
            8193,
            16384,
            16385,
            40_000,
        ];
        for &len in &lens {
            if block == Some(1) && len > 5000 {
                continue;
            }
            let m = rng.bytes(len);
            let c: &[u8] = if len % 2 == 0 { b"" } else { b"cust" };
            let h = Header::new(a, len as u64, block, c).unwrap();
            let out_len = if len % 3 == 0 { 32 } else { 17 };
            let (ob, d) = Outboard::build(h, &m, out_len).unwrap();
            assert_eq!(
                d,
                one_shot(a, block, c, &m, out_len),
                "{a:?} B={block:?} len={len}"
            );
            let parsed = Outboard::parse(ob.as_bytes()).unwrap();
            parsed.check_digest(&d).unwrap();
            assert!(parsed.damaged(&m).unwrap().is_empty());
            // Fed in random pieces: the same outboard.
            let mut b = Builder::new(parsed.header.clone()).unwrap();
            let mut body = parsed.header.encode();
            let mut rest = &m[..];
            while !rest.is_empty() {
                let k = (rng.below(3 * chunk as u64) as usize + 1).min(rest.len());
                b.update(&rest[..k], &mut |x| body.extend_from_slice(x))
                    .unwrap();
                rest = &rest[k..];
            }
            let mut d2 = vec![0u8; out_len];
            b.finish(&mut |x| body.extend_from_slice(x), &mut d2)
                .unwrap();
            assert_eq!(d2, d);
            assert_eq!(body, ob.as_bytes());
        }
    }
}

#[test]
fn damage_is_located_exactly() {
    let mut rng = Rng(42);
    for (a, block) in cases() {
        let chunk = block.unwrap_or(8192) as u64;
        for _ in 0..6 {
            let len = rng.below(12 * chunk.min(4096)) + 1;
            let m = rng.bytes(len as usize);
            let h = Header::new(a, len, block, b"").unwrap();
            let (ob, _) = Outboard::build(h.clone(), &m, 32).unwrap();
            // Bit flips at chunk edges and inside.
            let mut bad = m.clone();
            let mut want = Vec::new();
            let mut flipped = Vec::new();
            for _ in 0..rng.below(4) + 1 {
                let i = match rng.below(3) {
                    0 => rng.below(len),
                    1 => (rng.below(h.chunk_count()) * chunk).min(len - 1),
                    _ => ((rng.below(h.chunk_count()) + 1) * chunk).min(len) - 1,
                };
                if flipped.contains(&i) {
                    continue; // a second flip could undo the first
                }
                flipped.push(i);
                bad[i as usize] ^= 1 << rng.below(8);
                want.push(i / chunk);
            }
            want.sort();
            want.dedup();
            let got: Vec<u64> = ob
                .damaged(&bad)
                .unwrap()
                .iter()
                .map(|r| r.start / chunk)
                .collect();
            assert_eq!(got, want, "{a:?} B={block:?} len={len}");
            // A zeroed range.
            let (s, e) = {
                let s = rng.below(len);
                (s, (s + rng.below(3 * chunk) + 1).min(len))
            };
            let mut z = m.clone();
            z[s as usize..e as usize].fill(0);
            let want: Vec<u64> = (s / chunk..=(e - 1) / chunk)
                .filter(|&i| {
                    let r = h.chunk_range(i);
                    z[r.start as usize..r.end as usize] != m[r.start as usize..r.end as usize]
                })
                .collect();
            let got: Vec<u64> = ob
                .damaged(&z)
                .unwrap()
                .iter()
                .map(|r| r.start / chunk)
                .collect();
            assert_eq!(got, want);
            // Truncation: every chunk from the cut on.
            let cut = rng.below(len);
            let got: Vec<u64> = ob
                .damaged(&m[..cut as usize])
                .unwrap()
                .iter()
                .map(|r| r.start / chunk)
                .collect();
            let want: Vec<u64> = (cut / chunk..h.chunk_count()).collect();
            assert_eq!(got, want, "truncated at {cut} of {len}");
            // Extension: one extra range.
            let mut long = m.clone();
            long.extend_from_slice(b"xy");
            assert_eq!(ob.damaged(&long).unwrap(), vec![len..len + 2]);
        }
    }
}

#[test]
fn tampered_outboards_are_refused() {
    let mut rng = Rng(7);
    let m = rng.bytes(50_000);
    let h = Header::new(Algorithm::Kt128, m.len() as u64, None, b"c").unwrap();
    let (ob, d) = Outboard::build(h.clone(), &m, 32).unwrap();
    let bytes = ob.as_bytes().to_vec();
    let hl = h.encoded_len();
    // Every header byte flipped: refused by the parser.
    for i in 0..hl {
        let mut t = bytes.clone();
        t[i] ^= 0x01;
        assert!(Outboard::parse(&t).is_err(), "header byte {i}");
    }
    // Every body byte: parsed, but no longer matches the digest.
    for i in (hl..bytes.len()).step_by(97) {
        let mut t = bytes.clone();
        t[i] ^= 0x80;
        assert_eq!(
            Outboard::parse(&t).unwrap().check_digest(&d),
            Err(OutboardError::DigestMismatch)
        );
    }
    // Truncated anywhere: its own error.
    for cut in [0, 3, 8, 40, hl - 1, hl, hl + 10, bytes.len() - 1] {
        let e = Outboard::parse(&bytes[..cut]).unwrap_err();
        assert!(
            matches!(
                e,
                OutboardError::Incomplete { .. } | OutboardError::TruncatedHeader
            ),
            "cut {cut}: {e:?}"
        );
    }
    let mut long = bytes.clone();
    long.push(0);
    assert!(matches!(
        Outboard::parse(&long),
        Err(OutboardError::TrailingBytes { .. })
    ));
    assert_eq!(Outboard::parse(b"hello"), Err(OutboardError::NotAnOutboard));
    // Another message's digest, or another customization's.
    let other = one_shot(Algorithm::Kt128, None, b"d", &m, 32);
    assert_eq!(ob.check_digest(&other), Err(OutboardError::DigestMismatch));
    // A version this code does not read (checksum recomputed).
    let mut v2 = h.encode();
    v2[8] = 2;
    let n = v2.len() - format::CHECKSUM_LEN;
    let sum = crate::fips202::Sha3_256::digest(&v2[..n]);
    v2[n..].copy_from_slice(&sum[..format::CHECKSUM_LEN]);
    assert_eq!(Header::parse(&v2), Err(OutboardError::Version(2)));
}

#[test]
fn resume_after_any_prefix_gives_the_one_shot_digest() {
    let mut rng = Rng(99);
    for (a, block) in cases() {
        if block == Some(1) {
            continue;
        }
        let chunk = block.unwrap_or(8192) as u64;
        let len = rng.below(9 * chunk) + 1;
        let m = rng.bytes(len as usize);
        let h = Header::new(a, len, block, b"r").unwrap();
        let (ob, d) = Outboard::build(h.clone(), &m, 32).unwrap();
        let l = ob.layout().clone();
        let cv = h.cv_len() as u64;
        let whole = if a.is_kt() { l.cv_count } else { len / chunk };
        for n in 0..=whole {
            let bytes = ob.as_bytes();
            let head = &bytes[l.head.start as usize..l.head.end as usize];
            let cvs = &bytes[l.cvs.start as usize..(l.cvs.start + n * cv) as usize];
            let mut b = Builder::resume(h.clone(), head, cvs).unwrap();
            let mut body = bytes[..(l.cvs.start + n * cv) as usize].to_vec();
            let pos = b.position() as usize;
            b.update(&m[pos..], &mut |x| body.extend_from_slice(x))
                .unwrap();
            let mut d2 = vec![0u8; 32];
            b.finish(&mut |x| body.extend_from_slice(x), &mut d2)
                .unwrap();
            assert_eq!(d2, d, "{a:?} n={n}");
            assert_eq!(body, bytes);
        }
        let too_many = vec![0u8; ((whole + 1) * cv) as usize];
        let head = &ob.as_bytes()[l.head.start as usize..l.head.end as usize];
        assert!(Builder::resume(h.clone(), head, &too_many).is_err());
    }
}

/// The range reader (`source::OutboardReader`, behind `keccakx verify`,
/// Python and URLs) agrees with the in-memory checks: the digest, the
/// damaged chunks of any range, and its refusals.
#[cfg(feature = "std")]
#[test]
fn range_reader_agrees_with_the_in_memory_checks() {
    use super::source::{CheckError, OutboardReader};
    let mut rng = Rng(0x5eed_0b0a_4d00_0001);
    for (a, block) in cases() {
        if block == Some(1) {
            continue;
        }
        let chunk = block.unwrap_or(8192) as u64;
        let len = 11 * chunk + rng.below(chunk);
        let m = rng.bytes(len as usize);
        let h = Header::new(a, len, block, b"r").unwrap();
        let (ob, d) = Outboard::build(h, &m, 32).unwrap();
        let mut r = OutboardReader::open(ob.as_bytes()).unwrap();
        r.check_digest(&d).unwrap();
        let mut wrong = d.clone();
        wrong[0] ^= 1;
        assert!(matches!(
            r.check_digest(&wrong),
            Err(CheckError::Outboard(OutboardError::DigestMismatch))
        ));
        let mut bad = m.clone();
        for _ in 0..3 {
            let p = rng.below(len) as usize;
            bad[p] ^= 0x40;
        }
        let want: Vec<u64> = ob
            .damaged(&bad)
            .unwrap()
            .iter()
            .map(|r| r.start / chunk)
            .collect();
        let all = r.chunks_of(0..len).unwrap();
        assert_eq!(r.damaged_chunks(&mut &bad[..], all).unwrap(), want, "{a:?}");
        // A range: only its chunks.
        let (s, e) = (3 * chunk + 1, 5 * chunk);
        let some = r.chunks_of(s..e).unwrap();
        assert_eq!(some, 3..5);
        let inside: Vec<u64> = want.iter().copied().filter(|i| some.contains(i)).collect();
        assert_eq!(r.damaged_chunks(&mut &bad[..], some).unwrap(), inside);
        assert!(r.chunks_of(0..len + 1).is_err());
        // Truncated and extended outboards are refused on opening.
        let b = ob.as_bytes();
        assert!(OutboardReader::open(&b[..b.len() - 1]).is_err());
        let longer = [b, &[0u8][..]].concat();
        assert!(OutboardReader::open(&longer[..]).is_err());
    }
}
