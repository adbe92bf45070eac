//! NIST CAVP SHA3VS vectors (tests/vectors/cavp, byte-oriented; and
//! tests/vectors/cavp-bit, bit-oriented excerpts), every vector through
//! keccakx::fips202: ShortMsg, LongMsg, the full Monte Carlo tests
//! (100 checkpoints × 1000 iterations) and SHAKE VariableOut.

mod common;

use common::{check, load_records, msg_bits, rightmost_u16, Record};
use keccakx::fips202::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};

/// SHA3-`bits` over the first `nbits` bits of `m`; `split` > 0 feeds the
/// byte part in two updates cut at `split`.
fn sha3(bits: usize, m: &[u8], nbits: usize, split: usize) -> Vec<u8> {
    macro_rules! go {
        ($t:ty) => {{
            let mut h = <$t>::new();
            let whole = nbits / 8;
            let cut = split.min(whole);
            h.update(&m[..cut]);
            h.update_bits(&m[cut..], nbits - cut * 8)
                .expect("update_bits on a long enough buffer");
            h.finalize().to_vec()
        }};
    }
    match bits {
        224 => go!(Sha3_224),
        256 => go!(Sha3_256),
        384 => go!(Sha3_384),
        512 => go!(Sha3_512),
        _ => panic!("no SHA3-{bits}"),
    }
}

/// SHAKE`sec` over the first `nbits` bits of `m`, `out_len` bytes.
fn shake(sec: usize, m: &[u8], nbits: usize, out_len: usize, split: usize) -> Vec<u8> {
    macro_rules! go {
        ($t:ty) => {{
            let mut h = <$t>::new();
            let cut = split.min(nbits / 8);
            h.update(&m[..cut]);
            h.update_bits(&m[cut..], nbits - cut * 8)
                .expect("update_bits on a long enough buffer");
            let mut out = vec![0u8; out_len];
            h.finalize_into(&mut out);
            out
        }};
    }
    match sec {
        128 => go!(Shake128),
        256 => go!(Shake256),
        _ => panic!("no SHAKE{sec}"),
    }
}

/// ShortMsg / LongMsg for SHA3-`bits`: Len (bits), Msg, MD.
fn sha3_msg_file(file: &str, bits: usize, expect: usize) {
    let recs: Vec<Record> = load_records(file)
        .into_iter()
        .filter(|r| r.has("Len"))
        .collect();
    assert_eq!(recs.len(), expect, "{file}: vector count");
    for (k, rec) in recs.iter().enumerate() {
        assert_eq!(rec.header_usize("L"), bits, "{}", rec.at());
        let nbits = rec.usize("Len");
        let m = msg_bits(rec.req("Msg"), nbits);
        let want = rec.hex("MD");
        check(
            &sha3(bits, &m, nbits, 0),
            &want,
            &format!("{} SHA3-{bits} Len={nbits}", rec.at()),
        );
        let split = (k * 37) % (m.len() + 1);
        check(
            &sha3(bits, &m, nbits, split),
            &want,
            &format!("{} SHA3-{bits} Len={nbits} split at {split}", rec.at()),
        );
    }
}

/// ShortMsg / LongMsg for SHAKE`sec`: [Outputlen = n], Len, Msg, Output.
fn shake_msg_file(file: &str, sec: usize, expect: usize) {
    let recs: Vec<Record> = load_records(file)
        .into_iter()
        .filter(|r| r.has("Len"))
        .collect();
    assert_eq!(recs.len(), expect, "{file}: vector count");
    for (k, rec) in recs.iter().enumerate() {
        let out_bits = rec.header_usize("Outputlen");
        assert_eq!(out_bits % 8, 0);
        let nbits = rec.usize("Len");
        let m = msg_bits(rec.req("Msg"), nbits);
        let want = rec.hex("Output");
        assert_eq!(want.len() * 8, out_bits, "{}", rec.at());
        let split = (k * 53) % (m.len() + 1);
        check(
            &shake(sec, &m, nbits, want.len(), split),
            &want,
            &format!("{} SHAKE{sec} Len={nbits}", rec.at()),
        );
    }
}

#[test]
fn sha3_224_short_and_long() {
    sha3_msg_file("cavp/SHA3_224ShortMsg.rsp", 224, 145);
    sha3_msg_file("cavp/SHA3_224LongMsg.rsp", 224, 100);
}

#[test]
fn sha3_256_short_and_long() {
    sha3_msg_file("cavp/SHA3_256ShortMsg.rsp", 256, 137);
    sha3_msg_file("cavp/SHA3_256LongMsg.rsp", 256, 100);
}

#[test]
fn sha3_384_short_and_long() {
    sha3_msg_file("cavp/SHA3_384ShortMsg.rsp", 384, 105);
    sha3_msg_file("cavp/SHA3_384LongMsg.rsp", 384, 100);
}

#[test]
fn sha3_512_short_and_long() {
    sha3_msg_file("cavp/SHA3_512ShortMsg.rsp", 512, 73);
    sha3_msg_file("cavp/SHA3_512LongMsg.rsp", 512, 100);
}

#[test]
fn shake128_short_and_long() {
    shake_msg_file("cavp/SHAKE128ShortMsg.rsp", 128, 337);
    shake_msg_file("cavp/SHAKE128LongMsg.rsp", 128, 100);
}

#[test]
fn shake256_short_and_long() {
    shake_msg_file("cavp/SHAKE256ShortMsg.rsp", 256, 273);
    shake_msg_file("cavp/SHAKE256LongMsg.rsp", 256, 100);
}

/// SHA3VS Monte Carlo for SHA-3: MD_0 = Seed; for each of 100 checkpoints,
/// 1000 times MD_i = SHA3(MD_{i-1}); the checkpoint is MD_1000, which seeds
/// the next one.
fn sha3_monte(file: &str, bits: usize) {
    let recs = load_records(file);
    let seed = recs
        .iter()
        .find(|r| r.has("Seed"))
        .unwrap_or_else(|| panic!("{file}: no Seed"))
        .hex("Seed");
    let checkpoints: Vec<&Record> = recs.iter().filter(|r| r.has("COUNT")).collect();
    assert_eq!(checkpoints.len(), 100, "{file}: 100 checkpoints");
    let mut md = seed;
    for (j, rec) in checkpoints.iter().enumerate() {
        assert_eq!(rec.usize("COUNT"), j);
        for _ in 0..1000 {
            md = sha3(bits, &md, md.len() * 8, 0);
        }
        check(
            &md,
            &rec.hex("MD"),
            &format!("{} SHA3-{bits} Monte Carlo checkpoint {j}", rec.at()),
        );
    }
}

#[test]
fn sha3_224_monte_carlo() {
    sha3_monte("cavp/SHA3_224Monte.rsp", 224);
}

#[test]
fn sha3_256_monte_carlo() {
    sha3_monte("cavp/SHA3_256Monte.rsp", 256);
}

#[test]
fn sha3_384_monte_carlo() {
    sha3_monte("cavp/SHA3_384Monte.rsp", 384);
}

#[test]
fn sha3_512_monte_carlo() {
    sha3_monte("cavp/SHA3_512Monte.rsp", 512);
}

/// SHA3VS Monte Carlo for SHAKE (§6.3.3): Output_0 = Msg (128 bits);
/// Outputlen starts at the maximum, in whole bytes. Each iteration hashes the
/// leftmost 128 bits of the previous output (zero-padded on the right when
/// the output is shorter) into Outputlen bytes, then sets
/// Outputlen = minbytes + (rightmost 16 bits of that output) mod (maxbytes − minbytes + 1).
/// Each of the 100 checkpoints records the 1000th output and its length.
fn shake_monte(file: &str, sec: usize) {
    let recs = load_records(file);
    let msg = recs
        .iter()
        .find(|r| r.has("Msg"))
        .unwrap_or_else(|| panic!("{file}: no Msg"))
        .hex("Msg");
    assert_eq!(msg.len(), 16, "{file}: the MCT seed message is 128 bits");
    let checkpoints: Vec<&Record> = recs.iter().filter(|r| r.has("COUNT")).collect();
    assert_eq!(checkpoints.len(), 100, "{file}: 100 checkpoints");
    let min_bytes = checkpoints[0].header_usize("Minimum Output Length (bits)") / 8;
    let max_bytes = checkpoints[0].header_usize("Maximum Output Length (bits)") / 8;
    let range = max_bytes - min_bytes + 1;
    let mut out_len = max_bytes;
    let mut output = msg;
    for (j, rec) in checkpoints.iter().enumerate() {
        assert_eq!(rec.usize("COUNT"), j);
        let mut used = out_len;
        for _ in 0..1000 {
            let mut m = [0u8; 16];
            let n = output.len().min(16);
            m[..n].copy_from_slice(&output[..n]);
            used = out_len;
            output = shake(sec, &m, 128, out_len, 0);
            out_len = min_bytes + rightmost_u16(&output) % range;
        }
        let what = format!("{} SHAKE{sec} Monte Carlo checkpoint {j}", rec.at());
        assert_eq!(used * 8, rec.usize("Outputlen"), "{what}: output length");
        check(&output, &rec.hex("Output"), &what);
    }
}

#[test]
fn shake128_monte_carlo() {
    shake_monte("cavp/SHAKE128Monte.rsp", 128);
}

#[test]
fn shake256_monte_carlo() {
    shake_monte("cavp/SHAKE256Monte.rsp", 256);
}

/// SHAKE VariableOut: a fixed-length message, outputs of many lengths
/// (all whole bytes in the byte-oriented files); each is also read in two pieces.
fn shake_variable_out(file: &str, sec: usize, expect: usize) {
    let recs: Vec<Record> = load_records(file)
        .into_iter()
        .filter(|r| r.has("COUNT"))
        .collect();
    assert_eq!(recs.len(), expect, "{file}: vector count");
    for rec in &recs {
        let out_bits = rec.usize("Outputlen");
        assert_eq!(out_bits % 8, 0, "{}: byte-oriented output", rec.at());
        let m = rec.hex("Msg");
        assert_eq!(
            m.len() * 8,
            rec.header_usize("Input Length"),
            "{}",
            rec.at()
        );
        let want = rec.hex("Output");
        assert_eq!(want.len() * 8, out_bits, "{}", rec.at());
        let what = format!("{} SHAKE{sec} Outputlen={out_bits}", rec.at());
        check(&shake(sec, &m, m.len() * 8, want.len(), 0), &want, &what);
        // The same output read as two pieces from the reader.
        let cut = want.len() / 3;
        let mut got = vec![0u8; want.len()];
        let mut r = match sec {
            128 => {
                let mut h = Shake128::new();
                h.update(&m);
                h.finalize_xof()
            }
            _ => {
                let mut h = Shake256::new();
                h.update(&m);
                h.finalize_xof()
            }
        };
        r.read(&mut got[..cut]);
        r.read(&mut got[cut..]);
        check(&got, &want, &format!("{what}, read in two pieces"));
    }
}

#[test]
fn shake128_variable_out() {
    shake_variable_out("cavp/SHAKE128VariableOut.rsp", 128, 1126);
}

#[test]
fn shake256_variable_out() {
    shake_variable_out("cavp/SHAKE256VariableOut.rsp", 256, 1246);
}

/// Bit-oriented CAVP files (SHA3AllBits): the message is a bit string,
/// `Len` in bits, its last partial byte in the low-order bits (the FIPS 202
/// bit order that `update_bits` takes); MD is the digest (the files' `MDuni`
/// lines are not used).
#[test]
fn sha3_bit_oriented_excerpts() {
    let mut total = 0;
    let mut partial = 0;
    for (file, bits) in [
        ("cavp-bit/SHA3_224ShortMsg_bit_excerpt.rsp", 224),
        ("cavp-bit/SHA3_256ShortMsg_bit_excerpt.rsp", 256),
    ] {
        for rec in load_records(file).into_iter().filter(|r| r.has("Len")) {
            assert_eq!(rec.header_usize("L"), bits);
            let nbits = rec.usize("Len");
            let m = msg_bits(rec.req("Msg"), nbits);
            check(
                &sha3(bits, &m, nbits, 0),
                &rec.hex("MD"),
                &format!("{} SHA3-{bits} Len={nbits} (bits)", rec.at()),
            );
            check(
                &sha3(bits, &m, nbits, nbits / 16),
                &rec.hex("MD"),
                &format!("{} SHA3-{bits} Len={nbits} (bits, split)", rec.at()),
            );
            total += 1;
            partial += (nbits % 8 != 0) as usize;
        }
    }
    assert_eq!(total, 96, "two excerpts of 48 entries");
    assert_eq!(partial, 84, "42 non-byte lengths in each excerpt");
}
