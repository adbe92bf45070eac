//! NIST SP 800-185 samples (tests/vectors/sp800-185): all 40 NIST examples of
//! cSHAKE, KMAC, KMACXOF, TupleHash(XOF) and ParallelHash(XOF), and
//! pycryptodome's cSHAKE sample files, through keccakx's public API:
//! one-shot, fed in pieces, output read in pieces.

mod common;

use common::{check, hex, load_records, Record};
use keccakx::sp800_185::{
    CShake128, CShake256, Kmac128, Kmac256, ParallelHash128, ParallelHash256, TupleHash128,
    TupleHash256,
};
use keccakx::sponge::XofReader;

/// How a record's function ends: fixed length L (output bound into the
/// computation) or an XOF read.
enum Out {
    Fixed(Vec<u8>),
    Xof(Box<XofReader>),
}

/// Runs one record; `piece` > 0 feeds the main input in pieces of that size.
fn run(rec: &Record, piece: usize) -> Out {
    let out_len = rec.usize("L") / 8;
    let x = if rec.has("X") {
        rec.bytes("X")
    } else {
        Vec::new()
    };
    let s = rec.bytes("S");
    let pieces: Vec<&[u8]> = if piece == 0 || x.is_empty() {
        vec![&x[..]]
    } else {
        x.chunks(piece).collect()
    };
    let mut fixed = vec![0u8; out_len];
    macro_rules! fin {
        ($h:expr, $xof:expr) => {{
            let h = $h;
            if $xof {
                Out::Xof(Box::new(h.finalize_xof()))
            } else {
                h.finalize_into(&mut fixed);
                Out::Fixed(fixed)
            }
        }};
    }
    let f = rec.req("Function");
    let xof = f.contains("XOF");
    match f {
        "cSHAKE128" | "cSHAKE256" => {
            let n = rec.bytes("N");
            if f == "cSHAKE128" {
                let mut h = CShake128::new(&n, &s);
                pieces.iter().for_each(|p| h.update(p));
                Out::Xof(Box::new(h.finalize_xof()))
            } else {
                let mut h = CShake256::new(&n, &s);
                pieces.iter().for_each(|p| h.update(p));
                Out::Xof(Box::new(h.finalize_xof()))
            }
        }
        "KMAC128" | "KMACXOF128" => {
            let mut h = Kmac128::new(&rec.bytes("K"), &s);
            pieces.iter().for_each(|p| h.update(p));
            fin!(h, xof)
        }
        "KMAC256" | "KMACXOF256" => {
            let mut h = Kmac256::new(&rec.bytes("K"), &s);
            pieces.iter().for_each(|p| h.update(p));
            fin!(h, xof)
        }
        "TupleHash128" | "TupleHashXOF128" => {
            let mut h = TupleHash128::new(&s);
            for t in rec.all("T") {
                h.push(&common::byte_string(t));
            }
            fin!(h, xof)
        }
        "TupleHash256" | "TupleHashXOF256" => {
            let mut h = TupleHash256::new(&s);
            for t in rec.all("T") {
                h.push(&common::byte_string(t));
            }
            fin!(h, xof)
        }
        "ParallelHash128" | "ParallelHashXOF128" => {
            let mut h = ParallelHash128::new(rec.usize("B"), &s)
                .unwrap_or_else(|e| panic!("{}: {e}", rec.at()));
            pieces.iter().for_each(|p| h.update(p));
            fin!(h, xof)
        }
        "ParallelHash256" | "ParallelHashXOF256" => {
            let mut h = ParallelHash256::new(rec.usize("B"), &s)
                .unwrap_or_else(|e| panic!("{}: {e}", rec.at()));
            pieces.iter().for_each(|p| h.update(p));
            fin!(h, xof)
        }
        other => panic!("{}: unknown function {other}", rec.at()),
    }
}

fn output(rec: &Record, piece: usize, read_step: usize) -> Vec<u8> {
    let n = rec.usize("L") / 8;
    match run(rec, piece) {
        Out::Fixed(v) => v,
        Out::Xof(mut r) => {
            let mut v = vec![0u8; n];
            for c in v.chunks_mut(read_step.max(1)) {
                r.read(c);
            }
            v
        }
    }
}

fn describe(rec: &Record) -> String {
    format!(
        "{} {} sample {}",
        rec.at(),
        rec.req("Function"),
        rec.req("Sample")
    )
}

#[test]
fn nist_sp800_185_samples() {
    let recs = load_records("sp800-185/sp800_185_samples.txt");
    assert_eq!(
        recs.len(),
        40,
        "7 sample sets: 4 cSHAKE + 6 each of the others"
    );
    for rec in &recs {
        check(&output(rec, 0, usize::MAX), &rec.hex("Out"), &describe(rec));
    }
}

#[test]
fn nist_sp800_185_samples_in_pieces() {
    for rec in &load_records("sp800-185/sp800_185_samples.txt") {
        for (piece, step) in [(1usize, 1usize), (3, 7), (7, 5), (13, 64)] {
            check(
                &output(rec, piece, step),
                &rec.hex("Out"),
                &format!("{} (input by {piece}, read by {step})", describe(rec)),
            );
        }
    }
}

/// KMAC binds the output length: the first bytes of KMAC with a longer L
/// differ from KMAC with the sample's L, while KMACXOF output is a stream.
#[test]
fn kmac_binds_output_length_kmacxof_does_not() {
    for rec in load_records("sp800-185/sp800_185_samples.txt")
        .iter()
        .filter(|r| r.req("Function").starts_with("KMAC"))
    {
        let want = rec.hex("Out");
        let mut longer = rec.clone();
        let l = rec.usize("L");
        for (k, v) in longer.fields.iter_mut() {
            if k == "L" {
                *v = (l + 64).to_string();
            }
        }
        let got = output(&longer, 0, usize::MAX);
        let prefix_equal = got[..want.len()] == want[..];
        if rec.req("Function").contains("XOF") {
            assert!(
                prefix_equal,
                "{}: KMACXOF output must be a prefix-stable stream",
                describe(rec)
            );
        } else {
            assert!(
                !prefix_equal,
                "{}: KMAC with L+64 must not extend KMAC with L",
                describe(rec)
            );
        }
    }
}

#[test]
fn parallelhash_rejects_zero_block_size() {
    assert!(ParallelHash128::new(0, b"").is_err());
    assert!(ParallelHash256::new(0, b"x").is_err());
}

/// pycryptodome's cSHAKE files: NLen/SLen/Len in bits, N/S/Msg in hex
/// ("00" when the length is 0), MD of any length.
#[test]
fn pycryptodome_cshake_files() {
    let mut n = 0;
    for (file, rate) in [
        ("sp800-185/ShortMsgSamples_cSHAKE128.txt", 128),
        ("sp800-185/CustomMsgSamples_cSHAKE128.txt", 128),
        ("sp800-185/ShortMsgSamples_cSHAKE256.txt", 256),
        ("sp800-185/CustomMsgSamples_cSHAKE256.txt", 256),
    ] {
        for rec in load_records(file) {
            let field = |name: &str, len: &str| {
                let bits = rec.usize(len);
                assert_eq!(bits % 8, 0, "{}: byte-oriented file", rec.at());
                common::msg_bits(rec.req(name), bits)
            };
            let (nm, s, m) = (field("N", "NLen"), field("S", "SLen"), field("Msg", "Len"));
            let want = hex(rec.req("MD"));
            let mut got = vec![0u8; want.len()];
            if rate == 128 {
                let mut h = CShake128::new(&nm, &s);
                h.update(&m);
                h.finalize_into(&mut got);
            } else {
                let mut h = CShake256::new(&nm, &s);
                h.update(&m);
                h.finalize_into(&mut got);
            }
            check(&got, &want, &rec.at());
            n += 1;
        }
    }
    assert_eq!(n, 28);
}
