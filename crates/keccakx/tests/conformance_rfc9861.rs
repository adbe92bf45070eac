//! RFC 9861 §5 test vectors (tests/vectors/rfc9861/rfc9861.txt) and XKCP's
//! KangarooTwelve.txt, every vector, through keccakx's TurboSHAKE128/256,
//! KT128 and KT256: one-shot, fed in pieces, and read out in pieces.

mod common;

use common::{check, load_records, ptn, read_vector_file, Record};
use keccakx::rfc9861::{Kt128, Kt256, TurboShake128, TurboShake256};
use keccakx::sponge::XofReader;

const FILE: &str = "rfc9861/rfc9861.txt";

/// Feeds `m` in pieces whose sizes cycle through `sizes` (0 = the whole rest).
fn feed(m: &[u8], sizes: &[usize], mut update: impl FnMut(&[u8])) {
    let mut rest = m;
    let mut k = 0;
    while !rest.is_empty() {
        let n = match sizes[k % sizes.len()] {
            0 => rest.len(),
            n => n.min(rest.len()),
        };
        update(&rest[..n]);
        rest = &rest[n..];
        k += 1;
    }
}

/// The last `tail` bytes of `total` bytes read from `r`, read in pieces of `step`.
fn read_tail(mut r: XofReader, total: usize, tail: usize, step: usize) -> Vec<u8> {
    let mut out = vec![0u8; total];
    for chunk in out.chunks_mut(step.max(1)) {
        r.read(chunk);
    }
    out[total - tail..].to_vec()
}

/// The XOF reader for one record, message fed in pieces of the given sizes.
fn reader(rec: &Record, sizes: &[usize]) -> XofReader {
    let m = rec.bytes("M");
    match rec.req("Function") {
        "TurboSHAKE128" => {
            let d = common::hex(rec.req("D"))[0];
            let mut h = TurboShake128::new(d)
                .unwrap_or_else(|e| panic!("{}: domain {d:#04x}: {e}", rec.at()));
            feed(&m, sizes, |p| h.update(p));
            h.finalize_xof()
        }
        "TurboSHAKE256" => {
            let d = common::hex(rec.req("D"))[0];
            let mut h = TurboShake256::new(d)
                .unwrap_or_else(|e| panic!("{}: domain {d:#04x}: {e}", rec.at()));
            feed(&m, sizes, |p| h.update(p));
            h.finalize_xof()
        }
        "KT128" => {
            let mut h = Kt128::new(&rec.bytes("C"));
            feed(&m, sizes, |p| h.update(p));
            h.finalize_xof()
        }
        "KT256" => {
            let mut h = Kt256::new(&rec.bytes("C"));
            feed(&m, sizes, |p| h.update(p));
            h.finalize_xof()
        }
        f => panic!("{}: unknown function {f}", rec.at()),
    }
}

fn describe(rec: &Record) -> String {
    let mut s = format!("{} {}(M={}", rec.at(), rec.req("Function"), rec.req("M"));
    if let Some(d) = rec.get("D") {
        s += &format!(", D={d}");
    }
    if let Some(c) = rec.get("C") {
        s += &format!(", C={c}");
    }
    s + &format!(", L={})", rec.req("L"))
}

#[test]
fn rfc9861_all_vectors_one_shot() {
    let recs = load_records(FILE);
    assert_eq!(recs.len(), 67, "RFC 9861 §5 has 67 vectors");
    for rec in &recs {
        let want = rec.hex("Out");
        let total = rec.usize("L");
        let got = read_tail(reader(rec, &[0]), total, want.len(), total);
        check(&got, &want, &describe(rec));
    }
}

#[test]
fn rfc9861_all_vectors_in_pieces() {
    // Update sizes that straddle the rates (168/136) and the 8192-byte KT chunks;
    // output read in odd pieces.
    let schedules: [&[usize]; 3] = [&[1, 7, 168, 8191, 3], &[135, 137, 8193], &[4096, 1]];
    for (k, rec) in load_records(FILE).iter().enumerate() {
        let m_len = rec.bytes("M").len();
        if m_len > 17usize.pow(4) {
            continue; // the largest messages are covered whole above; keep this test quick
        }
        let want = rec.hex("Out");
        let total = rec.usize("L");
        let sched = schedules[k % schedules.len()];
        let step = [1usize, 31, 167, 1000][k % 4];
        let got = read_tail(reader(rec, sched), total, want.len(), step);
        check(
            &got,
            &want,
            &format!("{} in pieces {sched:?}, read by {step}", describe(rec)),
        );
    }
}

#[test]
fn rfc9861_domain_byte_range_is_enforced() {
    for d in [0x00u8, 0x80, 0xFF] {
        assert!(
            TurboShake128::new(d).is_err(),
            "TurboSHAKE128 must reject D = {d:#04x}"
        );
        assert!(
            TurboShake256::new(d).is_err(),
            "TurboSHAKE256 must reject D = {d:#04x}"
        );
    }
    for d in [0x01u8, 0x7F] {
        assert!(TurboShake128::new(d).is_ok());
        assert!(TurboShake256::new(d).is_ok());
    }
}

/// XKCP's KangarooTwelve.txt: "KangarooTwelve(M=..., C=..., n bytes)[, last k bytes]:"
/// followed by a line of hex bytes.
#[test]
fn xkcp_kangarootwelve_file() {
    let text = read_vector_file("xkcp/KangarooTwelve.txt");
    let lines: Vec<&str> = text.lines().collect();
    let mut n = 0;
    let mut i = 0;
    while i < lines.len() {
        let title = lines[i].trim();
        if !title.starts_with("KangarooTwelve(") {
            i += 1;
            continue;
        }
        let want = common::hex(lines[i + 1]);
        let inner = &title["KangarooTwelve(".len()..title.find(')').unwrap()];
        let parts: Vec<&str> = inner.split(", ").collect();
        assert_eq!(parts.len(), 3, "xkcp/KangarooTwelve.txt:{}: {title}", i + 1);
        let parse_input = |p: &str| -> Vec<u8> {
            let v = p.split_once('=').unwrap().1;
            if v == "empty" {
                Vec::new()
            } else if let Some(r) = v.strip_prefix("pattern 0x00 to 0xFA for ") {
                // "17^k bytes" / "41^k bytes"
                let e = r.trim_end_matches(" bytes");
                let (b, k) = e.split_once('^').unwrap();
                ptn(b.parse::<usize>().unwrap().pow(k.parse().unwrap()))
            } else if let Some(r) = v.strip_suffix(" times byte 0xFF") {
                vec![0xFF; r.parse().unwrap()]
            } else {
                panic!("xkcp/KangarooTwelve.txt:{}: cannot read {p:?}", i + 1)
            }
        };
        let m = parse_input(parts[0]);
        let c = parse_input(parts[1]);
        let total: usize = parts[2].trim_end_matches(" bytes").parse().unwrap();
        let mut h = Kt128::new(&c);
        h.update(&m);
        let got = read_tail(h.finalize_xof(), total, want.len(), total);
        check(
            &got,
            &want,
            &format!("xkcp/KangarooTwelve.txt:{}: {title}", i + 1),
        );
        n += 1;
        i += 2;
    }
    assert!(
        n >= 14,
        "expected the 14+ KangarooTwelve vectors, found {n}"
    );
}
