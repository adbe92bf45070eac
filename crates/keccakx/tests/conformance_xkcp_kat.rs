//! The Keccak team's known-answer files, every vector:
//! - XKCP ShortMsgKAT (tests/vectors/xkcp): SHA3-224/256/384/512 and
//!   SHAKE128/256 on bit strings of 0..2047 bits, and the plain sponge
//!   Keccak[r, c] on the widths 200, 400 and 800 (rates 40..640 bits);
//! - the original Keccak-224/256/384/512 KATs (pad 0x01; tests/vectors/keccak):
//!   ShortMsg, LongMsg and ExtremelyLongMsg (1 GiB each; these four are
//!   `#[ignore]`d to keep the default run short: `-- --ignored` runs them).

mod common;

use common::{check, load_records, msg_bits, Record};
use keccakx::fips202::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256};
use keccakx::keccak::{Keccak224, Keccak256, Keccak384, Keccak512};
use keccakx::sponge::{Sponge, SpongeParams};

fn kat_records(file: &str) -> Vec<Record> {
    let recs: Vec<Record> = load_records(file)
        .into_iter()
        .filter(|r| r.has("Len"))
        .collect();
    assert!(!recs.is_empty(), "{file}: no vectors");
    recs
}

macro_rules! fixed_bits {
    ($t:ty, $m:expr, $n:expr, $split:expr) => {{
        let (m, n, split): (&[u8], usize, usize) = ($m, $n, $split);
        let mut h = <$t>::new();
        let cut = split.min(n / 8);
        h.update(&m[..cut]);
        h.update_bits(&m[cut..], n - cut * 8)
            .expect("update_bits on a long enough buffer");
        h.finalize().to_vec()
    }};
}

/// XKCP ShortMsgKAT_SHA3-n: Len 0..2047 bits, MD.
fn sha3_kat(file: &str, bits: usize) {
    let recs = kat_records(file);
    assert_eq!(recs.len(), 2048, "{file}");
    for (k, rec) in recs.iter().enumerate() {
        let n = rec.usize("Len");
        let m = msg_bits(rec.req("Msg"), n);
        let split = (k * 29) % (m.len() + 1);
        let got = match bits {
            224 => fixed_bits!(Sha3_224, &m, n, split),
            256 => fixed_bits!(Sha3_256, &m, n, split),
            384 => fixed_bits!(Sha3_384, &m, n, split),
            512 => fixed_bits!(Sha3_512, &m, n, split),
            _ => unreachable!(),
        };
        check(
            &got,
            &rec.hex("MD"),
            &format!("{} SHA3-{bits} Len={n}", rec.at()),
        );
    }
}

#[test]
fn xkcp_sha3_224() {
    sha3_kat("xkcp/ShortMsgKAT_SHA3-224.txt", 224);
}

#[test]
fn xkcp_sha3_256() {
    sha3_kat("xkcp/ShortMsgKAT_SHA3-256.txt", 256);
}

#[test]
fn xkcp_sha3_384() {
    sha3_kat("xkcp/ShortMsgKAT_SHA3-384.txt", 384);
}

#[test]
fn xkcp_sha3_512() {
    sha3_kat("xkcp/ShortMsgKAT_SHA3-512.txt", 512);
}

/// XKCP ShortMsgKAT_SHAKEn: Len 0..2047 bits, 512 squeezed bytes (read in
/// pieces of varying size for every fourth vector).
fn shake_kat(file: &str, sec: usize) {
    let recs = kat_records(file);
    assert_eq!(recs.len(), 2048, "{file}");
    for (k, rec) in recs.iter().enumerate() {
        let n = rec.usize("Len");
        let m = msg_bits(rec.req("Msg"), n);
        let want = rec.hex("Squeezed");
        assert_eq!(want.len(), 512);
        let mut r = match sec {
            128 => {
                let mut h = Shake128::new();
                h.update_bits(&m, n).expect("update_bits");
                h.finalize_xof()
            }
            _ => {
                let mut h = Shake256::new();
                h.update_bits(&m, n).expect("update_bits");
                h.finalize_xof()
            }
        };
        let mut got = vec![0u8; want.len()];
        if k % 4 == 0 {
            let step = 1 + k % 200;
            for c in got.chunks_mut(step) {
                r.read(c);
            }
        } else {
            r.read(&mut got);
        }
        check(&got, &want, &format!("{} SHAKE{sec} Len={n}", rec.at()));
    }
}

#[test]
fn xkcp_shake128() {
    shake_kat("xkcp/ShortMsgKAT_SHAKE128.txt", 128);
}

#[test]
fn xkcp_shake256() {
    shake_kat("xkcp/ShortMsgKAT_SHAKE256.txt", 256);
}

/// XKCP ShortMsgKAT_Keccakr<r>c<c>: the plain sponge Keccak[r, c] (pad10*1, no
/// suffix, full rounds of Keccak-f[r + c]) on bit strings, 512 squeezed bytes.
/// Every vector through `Sponge` (the public incremental sponge), and every
/// 64th also through the one-shot `golden_sponge`.
fn keccak_rc_kat(rate: usize, capacity: usize) {
    let file = format!("xkcp/ShortMsgKAT_Keccakr{rate}c{capacity}.txt");
    let params = SpongeParams::keccak(rate, capacity)
        .unwrap_or_else(|e| panic!("Keccak[r={rate}, c={capacity}]: {e}"));
    assert_eq!(params.width(), rate + capacity);
    let recs = kat_records(&file);
    assert_eq!(recs.len(), 2048, "{file}");
    for (k, rec) in recs.iter().enumerate() {
        let n = rec.usize("Len");
        let m = msg_bits(rec.req("Msg"), n);
        let want = rec.hex("Squeezed");
        assert_eq!(want.len(), 512);
        let what = format!("{} Keccak[r={rate}, c={capacity}] Len={n}", rec.at());
        let mut s = Sponge::new(params);
        // Feed whole bytes first in two pieces, then the bit tail.
        let cut = (k * 7) % (n / 8 + 1);
        s.update(&m[..cut]);
        s.update_bits(&m[cut..], n - 8 * cut).expect("update_bits");
        let mut got = vec![0u8; want.len()];
        s.finalize_into(&mut got);
        check(&got, &want, &what);
        if k % 64 == 0 {
            let g = keccakx::sponge::golden_sponge(&params, &m, n, want.len() * 8);
            check(&g, &want, &format!("{what} (golden_sponge)"));
        }
    }
}

#[test]
fn xkcp_keccak_r40_c160() {
    keccak_rc_kat(40, 160);
}

#[test]
fn xkcp_keccak_r144_c256() {
    keccak_rc_kat(144, 256);
}

#[test]
fn xkcp_keccak_r240_c160() {
    keccak_rc_kat(240, 160);
}

#[test]
fn xkcp_keccak_r288_c512() {
    keccak_rc_kat(288, 512);
}

#[test]
fn xkcp_keccak_r544_c256() {
    keccak_rc_kat(544, 256);
}

#[test]
fn xkcp_keccak_r640_c160() {
    keccak_rc_kat(640, 160);
}

/// Original Keccak (the submission's pad 0x01): ShortMsg and LongMsg KATs.
fn keccak_kat(file: &str, bits: usize, expect: usize) {
    let recs = kat_records(file);
    assert_eq!(recs.len(), expect, "{file}");
    for (k, rec) in recs.iter().enumerate() {
        let n = rec.usize("Len");
        assert_eq!(n % 8, 0, "{}: byte-aligned file", rec.at());
        let m = msg_bits(rec.req("Msg"), n);
        let split = (k * 31) % (m.len() + 1);
        let (a, b) = m.split_at(split);
        macro_rules! go {
            ($t:ty) => {{
                let one = <$t>::digest(&m).to_vec();
                let mut h = <$t>::new();
                h.update(a);
                h.update(b);
                (one, h.finalize().to_vec())
            }};
        }
        let (one, two) = match bits {
            224 => go!(Keccak224),
            256 => go!(Keccak256),
            384 => go!(Keccak384),
            512 => go!(Keccak512),
            _ => unreachable!(),
        };
        let want = rec.hex("MD");
        let what = format!("{} Keccak-{bits} Len={n}", rec.at());
        check(&one, &want, &what);
        check(&two, &want, &format!("{what} (split at {split})"));
    }
}

#[test]
fn keccak_224_short_and_long() {
    keccak_kat("keccak/ShortMsgKAT_224.txt", 224, 256);
    keccak_kat("keccak/LongMsgKAT_224.txt", 224, 65);
}

#[test]
fn keccak_256_short_and_long() {
    keccak_kat("keccak/ShortMsgKAT_256.txt", 256, 256);
    keccak_kat("keccak/LongMsgKAT_256.txt", 256, 65);
}

#[test]
fn keccak_384_short_and_long() {
    keccak_kat("keccak/ShortMsgKAT_384.txt", 384, 256);
    keccak_kat("keccak/LongMsgKAT_384.txt", 384, 65);
}

#[test]
fn keccak_512_short_and_long() {
    keccak_kat("keccak/ShortMsgKAT_512.txt", 512, 256);
    keccak_kat("keccak/LongMsgKAT_512.txt", 512, 65);
}

/// ExtremelyLongMsgKAT: `Text` (64 bytes) repeated `Repeat` times = 1 GiB.
fn keccak_extremely_long(file: &str, bits: usize) {
    let recs = load_records(file);
    let rec = recs
        .iter()
        .find(|r| r.has("Repeat"))
        .unwrap_or_else(|| panic!("{file}: no vector"));
    let repeat = rec.usize("Repeat");
    let text = rec.req("Text").as_bytes().to_vec();
    assert_eq!((repeat, text.len()), (16_777_216, 64), "{file}");
    // Feed 1 MiB slices of the repeated text.
    let block: Vec<u8> = text.iter().copied().cycle().take(1 << 20).collect();
    let per_block = block.len() / text.len();
    assert_eq!(repeat % per_block, 0);
    macro_rules! go {
        ($t:ty) => {{
            let mut h = <$t>::new();
            for _ in 0..repeat / per_block {
                h.update(&block);
            }
            h.finalize().to_vec()
        }};
    }
    let got = match bits {
        224 => go!(Keccak224),
        256 => go!(Keccak256),
        384 => go!(Keccak384),
        512 => go!(Keccak512),
        _ => unreachable!(),
    };
    check(
        &got,
        &rec.hex("MD"),
        &format!("{} Keccak-{bits} of 1 GiB", rec.at()),
    );
}

#[test]
#[ignore = "hashes 1 GiB; run with: cargo test --release -p keccakx --test conformance_xkcp_kat -- --ignored"]
fn keccak_224_extremely_long() {
    keccak_extremely_long("keccak/ExtremelyLongMsgKAT_224.txt", 224);
}

#[test]
#[ignore = "hashes 1 GiB; run with: cargo test --release -p keccakx --test conformance_xkcp_kat -- --ignored"]
fn keccak_256_extremely_long() {
    keccak_extremely_long("keccak/ExtremelyLongMsgKAT_256.txt", 256);
}

#[test]
#[ignore = "hashes 1 GiB; run with: cargo test --release -p keccakx --test conformance_xkcp_kat -- --ignored"]
fn keccak_384_extremely_long() {
    keccak_extremely_long("keccak/ExtremelyLongMsgKAT_384.txt", 384);
}

#[test]
#[ignore = "hashes 1 GiB; run with: cargo test --release -p keccakx --test conformance_xkcp_kat -- --ignored"]
fn keccak_512_extremely_long() {
    keccak_extremely_long("keccak/ExtremelyLongMsgKAT_512.txt", 512);
}
