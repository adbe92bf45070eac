//! Differential tests against the maintained RustCrypto crates on random
//! inputs with random split points, for every function of the crate: the
//! four finalists (blake-hash, groestl, jh, skein; every output length) and
//! the study's other hash rows MD5, SHA-1, SHA-256 and Keccak-256 (md-5,
//! sha1, sha2, sha3). Sequential == parallel == two-thread on everything,
//! and every SIMD level the CPU has gives the same bytes.

use finalists::study::{self, Row};
use finalists::{Algorithm, Impl, Keccak256, Md5, Sha1, Sha256};

/// xorshift64*: deterministic test data without extra dependencies.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545F4914F6CDD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

fn d11<D: digest::Digest>(data: &[u8]) -> Vec<u8> {
    D::digest(data).to_vec()
}

fn d09<D: blake_hash::Digest>(data: &[u8]) -> Vec<u8> {
    D::digest(data).to_vec()
}

/// The maintained crate's digest of `data` for the finalist `alg`.
fn reference(alg: Algorithm, data: &[u8]) -> Vec<u8> {
    use digest::consts::{U16, U20, U28, U48};
    use Algorithm::*;
    match alg {
        Blake224 => d09::<blake_hash::Blake224>(data),
        Blake256 => d09::<blake_hash::Blake256>(data),
        Blake384 => d09::<blake_hash::Blake384>(data),
        Blake512 => d09::<blake_hash::Blake512>(data),
        Groestl224 => d11::<groestl::Groestl224>(data),
        Groestl256 => d11::<groestl::Groestl256>(data),
        Groestl384 => d11::<groestl::Groestl384>(data),
        Groestl512 => d11::<groestl::Groestl512>(data),
        Jh224 => d11::<jh::Jh224>(data),
        Jh256 => d11::<jh::Jh256>(data),
        Jh384 => d11::<jh::Jh384>(data),
        Jh512 => d11::<jh::Jh512>(data),
        Skein256_128 => d11::<skein::Skein256<U16>>(data),
        Skein256_160 => d11::<skein::Skein256<U20>>(data),
        Skein256_224 => d11::<skein::Skein256<U28>>(data),
        Skein256_256 => d11::<skein::Skein256_256>(data),
        Skein512_128 => d11::<skein::Skein512<U16>>(data),
        Skein512_160 => d11::<skein::Skein512<U20>>(data),
        Skein512_224 => d11::<skein::Skein512<U28>>(data),
        Skein512_256 => d11::<skein::Skein512_256>(data),
        Skein512_384 => d11::<skein::Skein512<U48>>(data),
        Skein512_512 => d11::<skein::Skein512_512>(data),
        Skein1024_384 => d11::<skein::Skein1024<U48>>(data),
        Skein1024_512 => d11::<skein::Skein1024_512>(data),
        Skein1024_1024 => d11::<skein::Skein1024_1024>(data),
    }
}

/// The maintained crate's digest of `data` for one of the study's rows that
/// is not a finalist (the finalists' rows are covered through [`reference`]).
fn row_reference(row: Row, data: &[u8]) -> Vec<u8> {
    match row {
        Row::Md5 => d11::<md5::Md5>(data),
        Row::Sha1 => d11::<sha1::Sha1>(data),
        Row::Sha256 => d11::<sha2::Sha256>(data),
        Row::Keccak256 => d11::<sha3::Keccak256>(data),
        _ => unreachable!("the finalists' rows are checked through `reference`"),
    }
}

/// The study's hash rows that are not finalists.
const ROWS: [Row; 4] = [Row::Md5, Row::Sha1, Row::Sha256, Row::Keccak256];

/// Feeds `data` to `update` in random pieces (empty ones included).
fn in_pieces(data: &[u8], rng: &mut Rng, mut update: impl FnMut(&[u8])) {
    let mut rest = data;
    while !rest.is_empty() {
        let n = match rng.below(4) {
            0 => 0,
            1 => 1 + rng.below(3),
            2 => 1 + rng.below(200),
            _ => rest.len(),
        }
        .min(rest.len());
        update(&rest[..n]);
        rest = &rest[n..];
    }
}

/// Streams `data` through our hasher for the finalist `alg` in random pieces.
fn ours_split(alg: Algorithm, imp: Impl, data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut h = finalists::new_hasher(alg, imp);
    in_pieces(data, rng, |piece| h.update(piece));
    h.finalize()
}

/// Streams `data` through our hasher for a non-finalist study row in random pieces.
fn row_ours_split(row: Row, imp: Impl, data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut out = vec![0u8; row.output_len()];
    macro_rules! stream {
        ($h:expr) => {{
            let mut h = $h;
            in_pieces(data, rng, |piece| h.update(piece));
            h.finalize_into(&mut out)
        }};
    }
    match row {
        Row::Md5 => stream!(Md5::new(imp)),
        Row::Sha1 => stream!(Sha1::new(imp)),
        Row::Sha256 => stream!(Sha256::new(imp)),
        Row::Keccak256 => stream!(Keccak256::new(imp)),
        _ => unreachable!("the finalists' rows stream through `ours_split`"),
    }
    out
}

/// Every length up to `upto` (all block boundaries up to three blocks of
/// the largest state), plus twelve random longer ones.
fn lengths(upto: usize, rng: &mut Rng) -> Vec<usize> {
    let mut v: Vec<usize> = (0..=upto).collect();
    for _ in 0..12 {
        v.push(upto + 1 + rng.below(5000));
    }
    v
}

#[test]
fn against_maintained_crates() {
    let mut rng = Rng(0x9E3779B97F4A7C15);
    let lens = lengths(260, &mut rng);
    let data = rng.bytes(*lens.iter().max().unwrap());
    for &alg in Algorithm::all() {
        for &n in &lens {
            let msg = &data[..n];
            let want = reference(alg, msg);
            for imp in [Impl::Sequential, Impl::Parallel] {
                assert_eq!(
                    ours_split(alg, imp, msg, &mut rng),
                    want,
                    "{alg} {imp:?} len {n}"
                );
            }
        }
    }
}

#[test]
fn study_rows_against_maintained_crates() {
    let mut rng = Rng(0x9E3779B97F4A7C15);
    let lens = lengths(300, &mut rng);
    let data = rng.bytes(*lens.iter().max().unwrap());
    for row in ROWS {
        for &n in &lens {
            let msg = &data[..n];
            let want = row_reference(row, msg);
            for imp in [Impl::Sequential, Impl::Parallel] {
                assert_eq!(
                    row_ours_split(row, imp, msg, &mut rng),
                    want,
                    "{} {imp:?} len {n}",
                    row.name()
                );
            }
        }
    }
}

#[test]
fn two_threads_against_maintained_crates() {
    let mut rng = Rng(0xD1B54A32D192ED03);
    for &alg in Algorithm::all() {
        for n in [0, 1, 32, 55, 56, 64, 65, 111, 112, 128, 129, 300] {
            let msg = rng.bytes(n);
            assert_eq!(
                ours_split(alg, Impl::TwoThreads, &msg, &mut rng),
                reference(alg, &msg),
                "{alg} len {n}"
            );
        }
    }
}

#[test]
fn study_rows_two_threads_against_maintained_crates() {
    let mut rng = Rng(0xD1B54A32D192ED03);
    for row in ROWS {
        for n in [0, 1, 55, 56, 63, 64, 65, 119, 135, 136, 137, 300, 1024] {
            let msg = rng.bytes(n);
            assert_eq!(
                row_ours_split(row, Impl::TwoThreads, &msg, &mut rng),
                row_reference(row, &msg),
                "{} len {n}",
                row.name()
            );
        }
    }
}

#[test]
fn all_implementations_agree_on_random_inputs() {
    let mut rng = Rng(42);
    for i in 0..400 {
        let alg = Algorithm::all()[rng.below(Algorithm::all().len())];
        let n = rng.below(3000);
        let msg = rng.bytes(n);
        let a = finalists::hash(alg, Impl::Sequential, &msg);
        assert_eq!(
            ours_split(alg, Impl::Parallel, &msg, &mut rng),
            a,
            "{alg} parallel len {n}"
        );
        if i % 8 == 0 {
            assert_eq!(
                ours_split(alg, Impl::TwoThreads, &msg, &mut rng),
                a,
                "{alg} two threads len {n}"
            );
        }
    }
}

#[test]
fn every_study_row_agrees_across_forms() {
    let mut rng = Rng(7);
    for i in 0..240 {
        let row = Row::ALL[i % Row::ALL.len()];
        let n = rng.below(2000);
        let msg = rng.bytes(n);
        let a = study::hash(row, Impl::Sequential, &msg);
        assert_eq!(a.len(), row.output_len());
        assert_eq!(
            study::hash(row, Impl::Parallel, &msg),
            a,
            "{} parallel len {n}",
            row.name()
        );
        if i % 6 == 0 {
            assert_eq!(
                study::hash(row, Impl::TwoThreads, &msg),
                a,
                "{} two threads len {n}",
                row.name()
            );
        }
    }
    for row in Row::ALL {
        for imp in Impl::ALL {
            assert!(!row.backend(imp).is_empty());
        }
    }
}

/// The step probes run (the benchmark times them) and change the scratch.
#[test]
fn step_probes_run() {
    use finalists::study::{rc5_step, steps, Scratch};
    for s in Row::ALL.map(steps).into_iter().chain([rc5_step()]) {
        let mut sc = Scratch::default();
        let before = (sc.words, sc.block);
        (s.run_moved)(&mut sc);
        (s.run_kept)(&mut sc);
        assert!(before != (sc.words, sc.block), "{}", s.moved);
        assert!(s.per_block >= 1);
    }
}

#[test]
fn names_round_trip() {
    for &alg in Algorithm::all() {
        assert_eq!(Algorithm::from_name(alg.name()), Ok(alg));
        assert_eq!(
            finalists::hash(alg, Impl::Sequential, b"abc").len(),
            alg.output_len()
        );
    }
    assert_eq!(
        Algorithm::from_name("Grøstl-256"),
        Ok(Algorithm::Groestl256)
    );
    assert_eq!(
        Algorithm::from_name("SKEIN512_256"),
        Ok(Algorithm::Skein512_256)
    );
    assert_eq!(
        Algorithm::from_name("skein512"),
        Ok(Algorithm::Skein512_512)
    );
    let err = Algorithm::from_name("md6").unwrap_err().to_string();
    assert!(err.contains("md6") && err.contains("blake256"), "{err}");
    assert_eq!(Impl::from_name("simd"), Ok(Impl::Parallel));
    assert!(Impl::from_name("gpu").is_err());
}

#[test]
fn blake_salt_changes_digest_and_zero_salt_is_default() {
    for imp in Impl::ALL {
        let mut a = finalists::Blake256::with_params(32, &[0; 16], imp);
        a.update(b"abc");
        let mut d0 = [0u8; 32];
        a.finalize_into(&mut d0);
        assert_eq!(
            d0.to_vec(),
            finalists::hash(Algorithm::Blake256, imp, b"abc")
        );
        let mut b = finalists::Blake256::with_params(32, &[1; 16], imp);
        b.update(b"abc");
        let mut d1 = [0u8; 32];
        b.finalize_into(&mut d1);
        assert_ne!(d0, d1);
        let mut c = finalists::Blake512::with_params(64, &[7; 32], imp);
        c.update(b"abc");
        let mut e = [0u8; 64];
        c.finalize_into(&mut e);
        let mut c2 = finalists::Blake512::with_params(64, &[7; 32], Impl::Sequential);
        c2.update(b"abc");
        let mut e2 = [0u8; 64];
        c2.finalize_into(&mut e2);
        assert_eq!(e, e2);
    }
}

/// Every SIMD level the CPU has gives the same bytes, for the finalists and
/// the study's other rows: the levels are capped through FINALISTS_SIMD in
/// child processes of this test binary.
#[test]
fn simd_levels_agree() {
    if std::env::var("FINALISTS_SIMD_CHILD").is_ok() {
        return;
    }
    let exe = std::env::current_exe().unwrap();
    for level in ["off", "sse41", "avx2", "avx512"] {
        for test in [
            "against_maintained_crates",
            "study_rows_against_maintained_crates",
        ] {
            let st = std::process::Command::new(&exe)
                .args([test, "--exact", "--quiet"])
                .env("FINALISTS_SIMD", level)
                .env("FINALISTS_SIMD_CHILD", "1")
                .status()
                .unwrap();
            assert!(st.success(), "{test} with FINALISTS_SIMD={level} failed");
        }
    }
}

#[cfg(feature = "rustcrypto")]
#[test]
fn rustcrypto_traits_match() {
    use digest::Digest;
    let msg = b"The quick brown fox jumps over the lazy dog";
    assert_eq!(
        finalists::rustcrypto::Blake512::digest(msg).to_vec(),
        reference(Algorithm::Blake512, msg)
    );
    assert_eq!(
        finalists::rustcrypto::Groestl256::digest(msg).to_vec(),
        reference(Algorithm::Groestl256, msg)
    );
    assert_eq!(
        finalists::rustcrypto::Jh384::digest(msg).to_vec(),
        reference(Algorithm::Jh384, msg)
    );
    assert_eq!(
        finalists::rustcrypto::Skein1024_1024::digest(msg).to_vec(),
        reference(Algorithm::Skein1024_1024, msg)
    );
    let mut h = finalists::rustcrypto::Skein512_256::new();
    Digest::update(&mut h, &msg[..10]);
    Digest::update(&mut h, &msg[10..]);
    assert_eq!(
        h.finalize_reset().to_vec(),
        reference(Algorithm::Skein512_256, msg)
    );
    assert_eq!(
        h.finalize().to_vec(),
        reference(Algorithm::Skein512_256, b"")
    );
}
