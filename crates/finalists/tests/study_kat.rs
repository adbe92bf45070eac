//! Known answers for the 2012 study's other hash rows, for every form:
//! RFC 1321 (MD5); NIST CAVP ShortMsg, LongMsg and Monte, and the FIPS 180-2
//! examples (SHA-1, SHA-256); the Keccak team's KATs (Keccak-256). Vectors
//! and their sources: tests/vectors/{md5,sha1,sha256,keccak}/README.md.

use finalists::study::{hash, Row};
use finalists::Impl;
use std::io::Read;
use std::path::PathBuf;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

fn read(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/vectors")
        .join(rel);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    if rel.ends_with(".gz") {
        let mut s = String::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut s)
            .unwrap();
        s
    } else {
        String::from_utf8(bytes).unwrap()
    }
}

/// Records of `Field = value` lines, separated by blank lines; `#` comments
/// and `[..]` headers skipped.
fn records(text: &str) -> Vec<Vec<(String, String)>> {
    let mut out = vec![];
    let mut cur = vec![];
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            continue;
        }
        if line.starts_with('#') || line.starts_with('[') {
            continue;
        }
        if let Some((k, v)) = line.split_once(" = ") {
            cur.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn field<'a>(r: &'a [(String, String)], k: &str) -> Option<&'a str> {
    r.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str())
}

/// (message, digest) pairs of a NIST `Len`/`Msg`/`MD` file (bit lengths; only
/// whole bytes occur in byte-oriented files).
fn len_msg_md(rel: &str) -> Vec<(Vec<u8>, Vec<u8>)> {
    let v: Vec<_> = records(&read(rel))
        .into_iter()
        .filter_map(|r| {
            let bits: usize = field(&r, "Len")?.parse().unwrap();
            assert_eq!(bits % 8, 0, "{rel}: bit-length entry");
            let mut m = unhex(field(&r, "Msg")?);
            m.truncate(bits / 8);
            Some((m, unhex(field(&r, "MD")?)))
        })
        .collect();
    assert!(!v.is_empty(), "{rel}: no vectors");
    v
}

fn check_file(row: Row, rel: &str, two_thread_every: usize) {
    let v = len_msg_md(rel);
    for imp in Impl::ALL {
        for (i, (m, md)) in v.iter().enumerate() {
            if imp == Impl::TwoThreads && i % two_thread_every != 0 {
                continue;
            }
            assert_eq!(
                &hash(row, imp, m),
                md,
                "{} {imp:?} {rel} vector {i} ({} bytes)",
                row.name(),
                m.len()
            );
        }
    }
    println!("{rel}: {} vectors", v.len());
}

#[test]
fn md5_rfc1321() {
    check_file(Row::Md5, "md5/rfc-1321.txt", 1);
}

#[test]
fn sha1_cavp_short_and_long() {
    check_file(Row::Sha1, "sha1/SHA1ShortMsg.rsp", 4);
    check_file(Row::Sha1, "sha1/SHA1LongMsg.rsp.gz", 16);
}

#[test]
fn sha256_cavp_short_and_long() {
    check_file(Row::Sha256, "sha256/SHA256ShortMsg.rsp", 4);
    check_file(Row::Sha256, "sha256/SHA256LongMsg.rsp.gz", 16);
}

#[test]
fn keccak256_team_kats() {
    check_file(Row::Keccak256, "keccak/ShortMsgKAT_256.txt", 8);
    check_file(Row::Keccak256, "keccak/LongMsgKAT_256.txt", 64);
}

/// SHAVS Monte Carlo (SHAVS §6.4): MD0 = MD1 = MD2 = Seed; 1000 times
/// M_i = MD_{i-3} || MD_{i-2} || MD_{i-1}, MD_i = H(M_i); checkpoint, reseed.
fn monte(row: Row, rel: &str, imp: Impl, checkpoints: usize) {
    let recs = records(&read(rel));
    let mut seed = unhex(field(&recs[0], "Seed").expect("Seed first"));
    let mut n = 0;
    for r in recs.iter().skip(1).take(checkpoints) {
        let want = unhex(field(r, "MD").unwrap());
        let mut md = [seed.clone(), seed.clone(), seed.clone()];
        for _ in 0..1000 {
            let m = [md[0].as_slice(), &md[1], &md[2]].concat();
            let next = hash(row, imp, &m);
            md = [md[1].clone(), md[2].clone(), next];
        }
        assert_eq!(md[2], want, "{} {imp:?} {rel} COUNT {n}", row.name());
        seed = md[2].clone();
        n += 1;
    }
    assert!(n > 0);
}

#[test]
fn sha_monte_carlo() {
    for imp in [Impl::Sequential, Impl::Parallel] {
        monte(Row::Sha1, "sha1/SHA1Monte.rsp", imp, 100);
        monte(Row::Sha256, "sha256/SHA256Monte.rsp", imp, 100);
    }
    // Two threads: the first checkpoint (1000 chained hashes) only.
    monte(Row::Sha1, "sha1/SHA1Monte.rsp", Impl::TwoThreads, 1);
    monte(Row::Sha256, "sha256/SHA256Monte.rsp", Impl::TwoThreads, 1);
}

#[test]
fn fips180_examples() {
    for (row, rel) in [
        (Row::Sha1, "sha1/fips180_examples.txt"),
        (Row::Sha256, "sha256/fips180_examples.txt"),
    ] {
        let recs = records(&read(rel));
        assert_eq!(recs.len(), 3);
        for r in recs {
            let text = field(&r, "Msg").unwrap().trim_matches('"');
            let repeat: usize = field(&r, "Repeat").unwrap().parse().unwrap();
            let msg = text.repeat(repeat).into_bytes();
            let want = unhex(field(&r, "MD").unwrap());
            for imp in Impl::ALL {
                assert_eq!(
                    hash(row, imp, &msg),
                    want,
                    "{} {imp:?} {text} x{repeat}",
                    row.name()
                );
            }
        }
    }
}
