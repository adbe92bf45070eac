//! Host emulation of the CUDA kernels: kernels/*.cu compiled as plain C++
//! with g++ (tests/emulation/harness.cpp drives the kernels' per-lane device
//! functions lane by lane, in the kernels' phase order) and checked against
//! the keccakx CPU library on random batches. This tests the kernels' logic
//! (permutation, staged and direct loads at any alignment, padding,
//! multi-block squeeze, the paper-style round) on machines without a GPU.
//!
//! Needs a C++17 compiler (`$CXX`, else g++ or c++); without one the tests
//! print why they skipped, unless KECCAKX_REQUIRE_GXX=1 (set by `make
//! test-gpu`), which turns that into a failure.
//!
//! `KECCAKX_GPU_MUTATE=1` builds the harness with the kernels' mutation
//! switch (`KX_MUTATE`: one bit of one lane of every output flipped);
//! `the_mutation_switch_fails_every_check` runs the other tests that way
//! and requires each of them to fail.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use keccakx::engine::LaneSpec;

// The rate-specialized direct kernels and the Merkle kernel.
#[path = "emulation/newer.rs"]
mod newer;

const CRATE: &str = env!("CARGO_MANIFEST_DIR");

/// Say why a test skipped, past the test harness's output capture.
fn skip(why: impl std::fmt::Display) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "*** SKIPPED: {why}");
}

fn harness() -> Option<&'static PathBuf> {
    static H: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    let r = H.get_or_init(build_harness);
    match r {
        Ok(p) => Some(p),
        Err(e) => {
            if std::env::var("KECCAKX_REQUIRE_GXX").is_ok_and(|v| v == "1") {
                panic!("KECCAKX_REQUIRE_GXX=1 but the emulation harness could not be built: {e}");
            }
            skip(format!("kernel emulation test: {e}"));
            None
        }
    }
}

fn build_harness() -> Result<PathBuf, String> {
    // Reuse a harness built from the same sources (named by their hash).
    let mut h = keccakx::fips202::Sha3_256::new();
    for f in [
        "tests/emulation/harness.cpp",
        "kernels/keccak_f1600.cuh",
        "kernels/job.cuh",
        "kernels/batch.cu",
        "kernels/perm.cu",
        "kernels/paper.cu",
        "kernels/warp.cu",
        "kernels/merkle.cu",
    ] {
        let text = std::fs::read(format!("{CRATE}/{f}")).map_err(|e| format!("{f}: {e}"))?;
        h.update(&(text.len() as u64).to_le_bytes());
        h.update(&text);
    }
    let mutate = mutated();
    h.update(&[mutate as u8]);
    let key: String = h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("keccakx-gpu-emulation");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let exe = dir.join(format!("harness-{key}"));
    if exe.exists() {
        return Ok(exe);
    }
    let tmp = dir.join(format!("harness-{key}.{}.tmp", std::process::id()));
    let compilers: Vec<String> = match std::env::var("CXX") {
        Ok(c) if !c.is_empty() => vec![c],
        _ => vec!["g++".into(), "c++".into(), "clang++".into()],
    };
    let src = format!("{CRATE}/tests/emulation/harness.cpp");
    let inc = format!("-I{CRATE}/kernels");
    let mut last = String::from("no C++ compiler found");
    for cxx in &compilers {
        // With sanitizers first (catches reads past a message buffer), then without.
        for san in [true, false] {
            let mut cmd = Command::new(cxx);
            cmd.args([
                "-std=c++17",
                "-O1",
                "-fno-strict-aliasing",
                "-Wall",
                "-Wno-unknown-pragmas",
            ]);
            if san {
                cmd.arg("-fsanitize=address,undefined")
                    .arg("-fno-sanitize-recover=all");
            }
            if mutate {
                cmd.arg("-DKX_MUTATE");
            }
            cmd.arg(&inc).arg(&src).arg("-o").arg(&tmp);
            match cmd.output() {
                Ok(o) if o.status.success() => {
                    eprintln!(
                        "emulation harness built with {cxx}{}",
                        if san { " (ASan+UBSan)" } else { "" }
                    );
                    std::fs::rename(&tmp, &exe).map_err(|e| e.to_string())?;
                    return Ok(exe);
                }
                Ok(o) => last = format!("{cxx} failed: {}", String::from_utf8_lossy(&o.stderr)),
                Err(e) => {
                    last = format!("{cxx}: {e}");
                    break;
                }
            }
        }
    }
    Err(last)
}

/// The mutation switch is on for this process (`KECCAKX_GPU_MUTATE=1`).
fn mutated() -> bool {
    std::env::var("KECCAKX_GPU_MUTATE").is_ok_and(|v| v == "1")
}

fn run(input: &[u8]) -> Vec<u8> {
    let exe = harness().expect("harness");
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn harness");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = std::thread::spawn(move || stdin.write_all(&data));
    let out = child.wait_with_output().expect("harness output");
    writer.join().unwrap().unwrap();
    assert!(
        out.status.success(),
        "harness failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next() as u8).collect()
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Staged = 0,
    Direct = 1,
    Paper = 2,
    DoubleBuffered = 4,
    Warp = 5,
    DirectRate = 6,
}

/// Run a batch through the harness. `align` is the packing alignment of
/// message offsets (1 = any), `pad_to` rounds the buffer length up.
#[allow(clippy::too_many_arguments)]
fn emulate(
    mode: Mode,
    lane_u64: bool,
    rounds_template: u64,
    spec: &LaneSpec,
    msgs: &[Vec<u8>],
    out_len: usize,
    uniform: bool,
    align: usize,
    rng: &mut Rng,
) -> Vec<u8> {
    let mut data = Vec::new();
    let mut offs = Vec::new();
    let stride = if uniform {
        msgs[0].len().div_ceil(align.max(1)) * align.max(1)
    } else {
        0
    };
    for m in msgs {
        if uniform {
            offs.push(data.len() as u64);
            data.extend_from_slice(m);
            data.resize(offs.len() * stride, 0xEE);
        } else {
            // Random gap (filled with junk the kernel must not absorb), then align.
            let gap = rng.below(5) as usize;
            data.extend(std::iter::repeat_n(0xCCu8, gap));
            while data.len() % align != 0 {
                data.push(0xDD);
            }
            offs.push(data.len() as u64);
            data.extend_from_slice(m);
        }
    }
    if matches!(mode, Mode::Direct | Mode::DirectRate)
        || (mode == Mode::Warp && align == 8 && rng.below(2) == 0)
    {
        while data.len() % 8 != 0 {
            data.push(0xBB);
        }
    }
    let w = |v: &mut Vec<u8>, x: u64| v.extend_from_slice(&x.to_le_bytes());
    let mut inp = Vec::new();
    for x in [
        mode as u64,
        lane_u64 as u64,
        rounds_template,
        msgs.len() as u64,
        spec.rate_bytes as u64,
        spec.delimited_suffix as u64,
        out_len as u64,
        spec.rounds as u64,
        uniform as u64,
        stride as u64,
        if uniform { msgs[0].len() as u64 } else { 0 },
        data.len() as u64,
    ] {
        w(&mut inp, x);
    }
    if !uniform {
        for o in &offs {
            w(&mut inp, *o);
        }
        for m in msgs {
            w(&mut inp, m.len() as u64);
        }
    }
    inp.extend_from_slice(&data);
    run(&inp)
}

fn reference(spec: &LaneSpec, msgs: &[Vec<u8>], out_len: usize) -> Vec<u8> {
    let mut out = vec![0u8; msgs.len() * out_len];
    for (m, o) in msgs.iter().zip(out.chunks_exact_mut(out_len)) {
        spec.hash_one(m, o);
    }
    out
}

fn random_batch(rng: &mut Rng, spec: &LaneSpec, n: usize, uniform: bool) -> Vec<Vec<u8>> {
    // Lengths 0 ..= 3 blocks + 1, with the block edges over-represented.
    let r = spec.rate_bytes;
    let edges = [0, 1, r - 1, r, r + 1, 2 * r - 1, 2 * r, 3 * r, 3 * r + 1];
    let pick = |rng: &mut Rng| -> usize {
        if rng.below(3) == 0 {
            edges[rng.below(edges.len() as u64) as usize]
        } else {
            rng.below(3 * r as u64 + 2) as usize
        }
    };
    let l0 = pick(rng);
    (0..n)
        .map(|_| {
            let l = if uniform { l0 } else { pick(rng) };
            rng.bytes(l)
        })
        .collect()
}

fn specs() -> Vec<(LaneSpec, usize)> {
    let s = |r, n, d, o| (LaneSpec::new(r, n, d).unwrap(), o);
    vec![
        s(136, 24, 0x06, 32),  // SHA3-256
        s(72, 24, 0x06, 64),   // SHA3-512
        s(144, 24, 0x01, 28),  // Keccak-224
        s(168, 24, 0x1F, 500), // SHAKE128, multi-block squeeze
        s(168, 12, 0x0B, 32),  // KT128 leaf
        s(136, 12, 0x1F, 64),  // TurboSHAKE256
        s(104, 24, 0x06, 48),  // SHA3-384
        s(100, 7, 0x1F, 33),   // raw: rate not a multiple of 8, 7 rounds
        s(1, 24, 0x01, 5),     // raw: one-byte rate
        s(199, 3, 0x7F, 401),  // raw: the largest rate
        s(8, 12, 0x06, 17),    // raw: small rate, odd output
    ]
}

#[test]
fn staged_kernel_matches_the_cpu() {
    if harness().is_none() {
        return;
    }
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for (spec, out_len) in specs() {
        for n in [1usize, 33, 70] {
            for uniform in [false, true] {
                for align in [1usize, 8] {
                    let msgs = random_batch(&mut rng, &spec, n, uniform);
                    let want = reference(&spec, &msgs, out_len);
                    let rt = if spec.rounds == 24 || spec.rounds == 12 {
                        spec.rounds as u64
                    } else {
                        0
                    };
                    for lane_u64 in [false, true] {
                        let got = emulate(
                            Mode::Staged,
                            lane_u64,
                            rt,
                            &spec,
                            &msgs,
                            out_len,
                            uniform,
                            align,
                            &mut rng,
                        );
                        assert_eq!(
                            got, want,
                            "staged {spec:?} n={n} uniform={uniform} align={align} u64={lane_u64}"
                        );
                    }
                    // The run-time-rounds kernel handles every round count.
                    let got = emulate(
                        Mode::Staged,
                        false,
                        0,
                        &spec,
                        &msgs,
                        out_len,
                        uniform,
                        align,
                        &mut rng,
                    );
                    assert_eq!(got, want, "staged rn {spec:?} n={n}");
                }
            }
        }
    }
}

#[test]
fn double_buffered_kernel_matches_the_cpu() {
    // Raw aligned words staged a block ahead, realigned and padded by each
    // thread (kx_stage_raw / kx_absorb_raw): any alignment, messages ending
    // at a buffer end that is not a multiple of 4 (the byte-wise word).
    if harness().is_none() {
        return;
    }
    let mut rng = Rng(0xA5A5_0101_2323_4545);
    for (spec, out_len) in specs() {
        for n in [1usize, 32, 33, 70] {
            for uniform in [false, true] {
                for align in [1usize, 2, 8] {
                    let msgs = random_batch(&mut rng, &spec, n, uniform);
                    let want = reference(&spec, &msgs, out_len);
                    let rt = if spec.rounds == 24 || spec.rounds == 12 {
                        spec.rounds as u64
                    } else {
                        0
                    };
                    for lane_u64 in [false, true] {
                        let got = emulate(
                            Mode::DoubleBuffered,
                            lane_u64,
                            rt,
                            &spec,
                            &msgs,
                            out_len,
                            uniform,
                            align,
                            &mut rng,
                        );
                        assert_eq!(
                            got, want,
                            "double-buffered {spec:?} n={n} uniform={uniform} align={align} u64={lane_u64}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn direct_kernel_matches_the_cpu() {
    if harness().is_none() {
        return;
    }
    let mut rng = Rng(0x0F0F_1234_4321_F0F0);
    for (spec, out_len) in specs() {
        // Direct loads need a rate, offsets and buffer length that are multiples of 8.
        if spec.rate_bytes % 8 != 0 || !(spec.rounds == 24 || spec.rounds == 12) {
            continue;
        }
        for n in [1usize, 31, 64, 65] {
            for uniform in [false, true] {
                let msgs = random_batch(&mut rng, &spec, n, uniform);
                let want = reference(&spec, &msgs, out_len);
                let got = emulate(
                    Mode::Direct,
                    false,
                    spec.rounds as u64,
                    &spec,
                    &msgs,
                    out_len,
                    uniform,
                    8,
                    &mut rng,
                );
                assert_eq!(got, want, "direct {spec:?} n={n} uniform={uniform}");
            }
        }
    }
}

/// The warp-per-message kernel (warp.cu): the shuffle round, 8-byte loads
/// where a block is 8-byte aligned and byte-exact loads elsewhere, padding,
/// multi-block squeeze with stores of any alignment, for every family and
/// odd rates, both layouts, any alignment, all three round variants.
#[test]
fn warp_kernel_matches_the_cpu() {
    if harness().is_none() {
        return;
    }
    let mut rng = Rng(0x3A3A_5C5C_7E7E_9090);
    let s = |r, n, d, o| (LaneSpec::new(r, n, d).unwrap(), o);
    let mut all = specs();
    all.extend([
        s(144, 24, 0x06, 28),  // SHA3-224
        s(136, 24, 0x1F, 300), // SHAKE256, output over two blocks
        s(136, 24, 0x01, 32),  // Keccak-256
        s(168, 12, 0x1F, 345), // TurboSHAKE128, long output
        s(3, 24, 0x01, 7),     // raw Keccak[r, c], odd rates
        s(17, 12, 0x1F, 40),
        s(63, 24, 0x06, 64),
        s(129, 24, 0x1F, 300),
        s(197, 12, 0x0B, 13),
        s(198, 24, 0x06, 199),
    ]);
    for (spec, out_len) in all {
        let rt = if spec.rounds == 24 || spec.rounds == 12 {
            spec.rounds as u64
        } else {
            0
        };
        for n in [1usize, 5, 33] {
            for uniform in [false, true] {
                for align in [1usize, 4, 8] {
                    let msgs = random_batch(&mut rng, &spec, n, uniform);
                    let want = reference(&spec, &msgs, out_len);
                    let got = emulate(
                        Mode::Warp,
                        false,
                        rt,
                        &spec,
                        &msgs,
                        out_len,
                        uniform,
                        align,
                        &mut rng,
                    );
                    assert_eq!(
                        got, want,
                        "warp {spec:?} out {out_len} n={n} uniform={uniform} align={align}"
                    );
                    if rt != 0 {
                        // The run-time-rounds kernel, too.
                        let got = emulate(
                            Mode::Warp,
                            false,
                            0,
                            &spec,
                            &msgs,
                            out_len,
                            uniform,
                            align,
                            &mut rng,
                        );
                        assert_eq!(got, want, "warp rn {spec:?} n={n} uniform={uniform}");
                    }
                }
            }
        }
    }
}

#[test]
fn paper_kernel_matches_the_cpu() {
    if harness().is_none() {
        return;
    }
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    for (spec, out_len) in specs() {
        for n in [1usize, 4, 9] {
            let msgs = random_batch(&mut rng, &spec, n, false);
            let want = reference(&spec, &msgs, out_len);
            let got = emulate(
                Mode::Paper,
                false,
                0,
                &spec,
                &msgs,
                out_len,
                false,
                1,
                &mut rng,
            );
            assert_eq!(got, want, "paper {spec:?} n={n}");
        }
    }
}

#[test]
fn permutations_match_the_cpu() {
    if harness().is_none() {
        return;
    }
    let mut rng = Rng(42);
    let count = 20usize;
    let states: Vec<[u64; 25]> = (0..count)
        .map(|_| {
            let mut a = [0u64; 25];
            a.iter_mut().for_each(|l| *l = rng.next());
            a
        })
        .collect();
    // Lane types: KxSplit, KxU64, and KxSplitImad with every rotation,
    // rho's, and half of rho's (harness.cpp).
    for lane_u64 in [0u64, 1, 2, 3, 4] {
        for (template, rounds) in [
            (24u64, 24usize),
            (12, 12),
            (0, 24),
            (0, 12),
            (0, 1),
            (0, 5),
            (0, 23),
        ] {
            let mut inp = Vec::new();
            for x in [3u64, lane_u64, template, rounds as u64, count as u64] {
                inp.extend_from_slice(&x.to_le_bytes());
            }
            for s in &states {
                for l in s {
                    inp.extend_from_slice(&l.to_le_bytes());
                }
            }
            let out = run(&inp);
            for (k, s) in states.iter().enumerate() {
                let mut want = *s;
                keccakx::permutation::keccak_p1600(&mut want, rounds);
                for (q, &w) in want.iter().enumerate() {
                    let off = 8 * (25 * k + q);
                    let got = u64::from_le_bytes(out[off..off + 8].try_into().unwrap());
                    assert_eq!(
                        got, w,
                        "lane {q} state {k} rounds {rounds} template {template} u64 {lane_u64}"
                    );
                }
            }
        }
    }
}

/// The checks above can fail: with the kernels' mutation switch on (one bit
/// of lane 0 of each output flipped), every one of them must fail. Runs
/// this test binary again, once per check, with `KECCAKX_GPU_MUTATE=1`.
#[test]
fn the_mutation_switch_fails_every_check() {
    if mutated() || harness().is_none() {
        return; // the mutated run itself, or no compiler (said above)
    }
    let exe = std::env::current_exe().expect("test binary");
    for check in [
        "staged_kernel_matches_the_cpu",
        "double_buffered_kernel_matches_the_cpu",
        "direct_kernel_matches_the_cpu",
        "newer::rate_specialized_direct_kernel_matches_the_cpu",
        "warp_kernel_matches_the_cpu",
        "paper_kernel_matches_the_cpu",
        "permutations_match_the_cpu",
        "newer::merkle_kernel_matches_the_cpu_tree",
    ] {
        let out = Command::new(&exe)
            .args([check, "--exact", "--test-threads=1"])
            .env("KECCAKX_GPU_MUTATE", "1")
            .output()
            .expect("run the test binary");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            !out.status.success() && text.contains(&format!("{check} ... FAILED")),
            "{check} passed with the mutation switch on:\n{text}"
        );
    }
}
