//! The study's MD5, SHA-1, SHA-256 and Keccak-256 rows against the maintained
//! RustCrypto crates (md-5, sha1, sha2, sha3) on every length around the
//! block boundaries and random longer ones, with random split points; all
//! eight study rows agree across the three forms; every SIMD level the CPU
//! has gives the same bytes.

use finalists::study::{hash, Row};
use finalists::{Impl, Keccak256, Md5, Sha1, Sha256};

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

fn reference(row: Row, data: &[u8]) -> Vec<u8> {
    use digest::Digest;
    match row {
        Row::Md5 => md5::Md5::digest(data).to_vec(),
        Row::Sha1 => sha1::Sha1::digest(data).to_vec(),
        Row::Sha256 => sha2::Sha256::digest(data).to_vec(),
        Row::Keccak256 => sha3::Keccak256::digest(data).to_vec(),
        _ => unreachable!("the finalists have their own differential tests"),
    }
}

/// Our streaming hasher fed in random pieces.
fn ours_split(row: Row, imp: Impl, data: &[u8], rng: &mut Rng) -> Vec<u8> {
    enum H {
        M(Md5),
        S1(Sha1),
        S2(Sha256),
        K(Keccak256),
    }
    let mut h = match row {
        Row::Md5 => H::M(Md5::new(imp)),
        Row::Sha1 => H::S1(Sha1::new(imp)),
        Row::Sha256 => H::S2(Sha256::new(imp)),
        Row::Keccak256 => H::K(Keccak256::new(imp)),
        _ => unreachable!(),
    };
    let mut rest = data;
    while !rest.is_empty() {
        let n = match rng.below(4) {
            0 => 0,
            1 => 1 + rng.below(3),
            2 => 1 + rng.below(200),
            _ => rest.len(),
        }
        .min(rest.len());
        match &mut h {
            H::M(x) => x.update(&rest[..n]),
            H::S1(x) => x.update(&rest[..n]),
            H::S2(x) => x.update(&rest[..n]),
            H::K(x) => x.update(&rest[..n]),
        }
        rest = &rest[n..];
    }
    let mut out = vec![0u8; row.output_len()];
    match h {
        H::M(x) => x.finalize_into(&mut out),
        H::S1(x) => x.finalize_into(&mut out),
        H::S2(x) => x.finalize_into(&mut out),
        H::K(x) => x.finalize_into(&mut out),
    }
    out
}

const ROWS: [Row; 4] = [Row::Md5, Row::Sha1, Row::Sha256, Row::Keccak256];

#[test]
fn against_maintained_crates() {
    let mut rng = Rng(0x9E3779B97F4A7C15);
    let mut lens: Vec<usize> = (0..=300).collect();
    for _ in 0..12 {
        lens.push(301 + rng.below(5000));
    }
    let data = rng.bytes(*lens.iter().max().unwrap());
    for row in ROWS {
        for &n in &lens {
            let msg = &data[..n];
            let want = reference(row, msg);
            for imp in [Impl::Sequential, Impl::Parallel] {
                assert_eq!(
                    ours_split(row, imp, msg, &mut rng),
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
    for row in ROWS {
        for n in [0, 1, 55, 56, 63, 64, 65, 119, 135, 136, 137, 300, 1024] {
            let msg = rng.bytes(n);
            assert_eq!(
                ours_split(row, Impl::TwoThreads, &msg, &mut rng),
                reference(row, &msg),
                "{} len {n}",
                row.name()
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
        let a = hash(row, Impl::Sequential, &msg);
        assert_eq!(a.len(), row.output_len());
        assert_eq!(
            hash(row, Impl::Parallel, &msg),
            a,
            "{} parallel len {n}",
            row.name()
        );
        if i % 6 == 0 {
            assert_eq!(
                hash(row, Impl::TwoThreads, &msg),
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
fn simd_levels_agree() {
    if std::env::var("FINALISTS_SIMD_CHILD").is_ok() {
        return;
    }
    let exe = std::env::current_exe().unwrap();
    for level in ["off", "sse41", "avx2", "avx512"] {
        let st = std::process::Command::new(&exe)
            .args(["against_maintained_crates", "--exact", "--quiet"])
            .env("FINALISTS_SIMD", level)
            .env("FINALISTS_SIMD_CHILD", "1")
            .status()
            .unwrap();
        assert!(st.success(), "FINALISTS_SIMD={level} failed");
    }
}
