//! `keccakx sum --outboard`, `keccakx verify` and `--resume`, end to end:
//! outboards of every function and parameter set give the plain `sum`
//! digest; random damage (bit flips at chunk edges and inside, zeroed
//! ranges, truncation, extension) is reported chunk for chunk; tampered,
//! truncated and mismatched outboards are refused with status 3; killed
//! and truncated outboards resume to the one-shot digest.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_keccakx");

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("keccakx-outboard")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

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

fn run(dir: &Path, args: &[&str]) -> Output {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .env_remove("KECCAKX_ENGINE")
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(!e.contains("panicked"), "{e}");
    o
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The digest field of a GNU line.
fn digest_of(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout(o).split_whitespace().next().unwrap().to_string()
}

/// The chunk indexes `verify` reported damaged.
fn damaged(o: &Output) -> Vec<u64> {
    stdout(o)
        .lines()
        .filter_map(|l| l.split("(chunk ").nth(1))
        .map(|t| t.trim_end_matches(')').parse().unwrap())
        .collect()
}

const SETS: &[&[&str]] = &[
    &["sum", "-a", "kt128"],
    &["sum", "-a", "kt128", "--customization", "app", "-l", "64"],
    &["sum", "-a", "kt256"],
    &["sum", "-a", "kt256", "--customization", "c", "-l", "20"],
    &["sum", "-a", "parallelhash128"],
    &[
        "sum",
        "-a",
        "parallelhash128",
        "--block-size",
        "1000",
        "--customization",
        "s",
    ],
    &[
        "sum",
        "-a",
        "parallelhash256",
        "--block-size",
        "333",
        "-l",
        "48",
    ],
    &[
        "sum",
        "-a",
        "parallelhashxof128",
        "--block-size",
        "4096",
        "-l",
        "100",
    ],
    &["sum", "-a", "parallelhashxof256", "--block-size", "168"],
];

fn chunk_of(set: &[&str]) -> u64 {
    set.iter()
        .position(|a| *a == "--block-size")
        .map(|i| set[i + 1].parse().unwrap())
        .unwrap_or(8192)
}

#[test]
fn outboard_sum_equals_plain_sum_and_verifies() {
    let d = scratch("every");
    let mut rng = Rng(1);
    for set in SETS {
        let c = chunk_of(set) as usize;
        for len in [0, 1, c - 1, c, c + 1, 8192, 8193, 3 * 8192 + 17, 100_000] {
            std::fs::write(d.join("f"), rng.bytes(len)).unwrap();
            let plain = digest_of(&run(&d, &[set, &["f"][..]].concat()));
            let ob = run(&d, &[set, &["--outboard", "f.kto", "f"][..]].concat());
            assert_eq!(digest_of(&ob), plain, "{set:?} len {len}");
            let v = run(&d, &["verify", "--digest", &plain, "f"]);
            assert_eq!(
                v.status.code(),
                Some(0),
                "{set:?} len {len}: {}",
                stdout(&v)
            );
            std::fs::write(d.join("SUMS"), &ob.stdout).unwrap();
            let v = run(&d, &["verify", "-c", "SUMS", "--outboard", "f.kto", "f"]);
            assert_eq!(
                v.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&v.stderr)
            );
        }
    }
}

#[test]
fn damage_reports_exactly_the_damaged_chunks() {
    let d = scratch("damage");
    let mut rng = Rng(2);
    for set in SETS {
        let chunk = chunk_of(set);
        for round in 0..4 {
            let len = rng.below(20 * chunk.min(8192)) + 1;
            let m = rng.bytes(len as usize);
            std::fs::write(d.join("f"), &m).unwrap();
            let digest = digest_of(&run(&d, &[set, &["--outboard", "f.kto", "f"][..]].concat()));
            let mut bad = m.clone();
            match round {
                0 | 1 => {
                    // Bit flips at chunk edges and inside.
                    for _ in 0..3 {
                        let i = match rng.below(3) {
                            0 => rng.below(len),
                            1 => rng.below(len.div_ceil(chunk)) * chunk,
                            _ => (rng.below(len.div_ceil(chunk)) * chunk + chunk - 1).min(len - 1),
                        };
                        bad[i as usize] ^= 1 << rng.below(8);
                    }
                }
                2 => {
                    let s = rng.below(len);
                    let e = (s + rng.below(2 * chunk) + 1).min(len);
                    bad[s as usize..e as usize].fill(0);
                }
                _ => bad.truncate(rng.below(len) as usize),
            }
            std::fs::write(d.join("f"), &bad).unwrap();
            let want: Vec<u64> = (0..len.div_ceil(chunk))
                .filter(|&i| {
                    let r = (i * chunk) as usize..((i + 1) * chunk).min(len) as usize;
                    bad.get(r.clone()) != Some(&m[r])
                })
                .collect();
            let v = run(&d, &["verify", "--digest", &digest, "f"]);
            assert_eq!(damaged(&v), want, "{set:?} round {round} len {len}");
            assert_eq!(v.status.code(), Some(if want.is_empty() { 0 } else { 1 }));
            // A range: only the chunks it touches.
            let s = rng.below(len);
            let e = s + rng.below(len - s) + 1;
            let r = format!("{s}..{e}");
            let v = run(&d, &["verify", "--digest", &digest, "--range", &r, "f"]);
            let in_range: Vec<u64> = want
                .iter()
                .copied()
                .filter(|&i| i >= s / chunk && i < e.div_ceil(chunk))
                .collect();
            assert_eq!(damaged(&v), in_range, "{set:?} range {r}");
        }
    }
    // Extra bytes past the end are reported too.
    std::fs::write(d.join("g"), b"abc").unwrap();
    let digest = digest_of(&run(
        &d,
        &["sum", "-a", "kt128", "--outboard", "g.kto", "g"],
    ));
    std::fs::write(d.join("g"), b"abcd").unwrap();
    let v = run(&d, &["verify", "--digest", &digest, "g"]);
    assert_eq!(v.status.code(), Some(1));
    assert!(stdout(&v).contains("bytes 3..4 damaged"), "{}", stdout(&v));
}

#[test]
fn unusable_outboards_are_their_own_error() {
    let d = scratch("tamper");
    let mut rng = Rng(3);
    std::fs::write(d.join("f"), rng.bytes(70_000)).unwrap();
    let digest = digest_of(&run(
        &d,
        &["sum", "-a", "kt128", "--outboard", "f.kto", "f"],
    ));
    let good = std::fs::read(d.join("f.kto")).unwrap();
    let status = |ob: &[u8], digest: &str| {
        std::fs::write(d.join("t.kto"), ob).unwrap();
        let v = run(
            &d,
            &["verify", "--digest", digest, "--outboard", "t.kto", "f"],
        );
        (
            v.status.code(),
            String::from_utf8_lossy(&v.stderr).into_owned(),
        )
    };
    assert_eq!(status(&good, &digest).0, Some(0));
    for _ in 0..40 {
        let mut t = good.clone();
        let i = rng.below(t.len() as u64) as usize;
        t[i] ^= 1 << rng.below(8);
        let (code, err) = status(&t, &digest);
        assert_eq!(code, Some(3), "byte {i}: {err}");
        let mut t = good.clone();
        t.truncate(rng.below(good.len() as u64) as usize);
        assert_eq!(status(&t, &digest).0, Some(3));
    }
    let mut long = good.clone();
    long.push(0);
    assert!(status(&long, &digest).1.contains("extra bytes"));
    let other = "00".repeat(32);
    assert!(status(&good, &other)
        .1
        .contains("does not match the digest"));
    assert!(status(b"not an outboard", &digest).1.contains("bad magic"));
    // The outboard of another file.
    std::fs::write(d.join("g"), b"other").unwrap();
    run(&d, &["sum", "-a", "kt128", "--outboard", "g.kto", "g"]);
    let v = run(
        &d,
        &["verify", "--digest", &digest, "--outboard", "g.kto", "f"],
    );
    assert_eq!(v.status.code(), Some(3));
}

#[test]
fn truncated_outboards_resume_to_the_one_shot_digest() {
    // Power loss, simulated: the outboard cut at random points, then
    // `--resume`, many times on small files and both tree modes.
    let d = scratch("resume");
    let mut rng = Rng(4);
    for (k, set) in [
        &["sum", "-a", "kt128"][..],
        &["sum", "-a", "parallelhash256", "--block-size", "1500"],
    ]
    .iter()
    .enumerate()
    {
        for _ in 0..60 {
            let len = rng.below(200_000) + 1;
            std::fs::write(d.join("f"), rng.bytes(len as usize)).unwrap();
            let plain = digest_of(&run(&d, &[set, &["f"][..]].concat()));
            let base = [*set, &["--outboard", "f.kto", "--checkpoint", "20000", "f"]].concat();
            run(&d, &base);
            let full = std::fs::read(d.join("f.kto")).unwrap();
            let cut = rng.below(full.len() as u64 + 1);
            std::fs::write(d.join("f.kto"), &full[..cut as usize]).unwrap();
            let resumed = run(&d, &[&base[..], &["--resume"]].concat());
            assert_eq!(digest_of(&resumed), plain, "set {k} len {len} cut {cut}");
            assert_eq!(std::fs::read(d.join("f.kto")).unwrap(), full);
        }
    }
    // A changed file is refused: content (same size and time), size.
    std::fs::write(d.join("f"), vec![7u8; 300_000]).unwrap();
    run(
        &d,
        &[
            "sum",
            "-a",
            "kt128",
            "--outboard",
            "f.kto",
            "--checkpoint",
            "8192",
            "f",
        ],
    );
    let full = std::fs::read(d.join("f.kto")).unwrap();
    std::fs::write(d.join("f.kto"), &full[..full.len() - 5000]).unwrap();
    let f = std::fs::File::options()
        .write(true)
        .open(d.join("f"))
        .unwrap();
    let t = f.metadata().unwrap().modified().unwrap();
    use std::os::unix::fs::FileExt;
    // The last chunk kept is always among the sampled ones.
    f.write_all_at(&[8u8; 8192], 8192 * 35).unwrap();
    f.set_modified(t).unwrap();
    let v = run(
        &d,
        &[
            "sum",
            "-a",
            "kt128",
            "--outboard",
            "f.kto",
            "--checkpoint",
            "8192",
            "--resume",
            "f",
        ],
    );
    assert_eq!(
        v.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&v.stderr)
    );
    f.set_len(100).unwrap();
    let v = run(
        &d,
        &["sum", "-a", "kt128", "--outboard", "f.kto", "--resume", "f"],
    );
    assert_eq!(v.status.code(), Some(3));
    // Another algorithm's outboard is refused too.
    let v = run(
        &d,
        &["sum", "-a", "kt256", "--outboard", "f.kto", "--resume", "f"],
    );
    assert_eq!(v.status.code(), Some(3));
}

#[test]
fn killed_runs_resume_to_the_one_shot_digest() {
    let d = scratch("kill");
    let mut rng = Rng(5);
    let len = 48 << 20;
    std::fs::write(d.join("f"), rng.bytes(len)).unwrap();
    let plain = digest_of(&run(&d, &["sum", "-a", "kt128", "f"]));
    let args = [
        "sum",
        "-a",
        "kt128",
        "--outboard",
        "f.kto",
        "--checkpoint",
        "1048576",
        "f",
    ];
    for i in 0..6 {
        let _ = std::fs::remove_file(d.join("f.kto"));
        let mut child = Command::new(BIN)
            .args(args)
            .current_dir(&d)
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(5 + rng.below(60)));
        let _ = child.kill(); // SIGKILL
        let _ = child.wait();
        let r = run(&d, &[&args[..], &["--resume"]].concat());
        assert_eq!(digest_of(&r), plain, "kill {i}");
        let v = run(&d, &["verify", "--digest", &plain, "f"]);
        assert_eq!(v.status.code(), Some(0));
    }
}
