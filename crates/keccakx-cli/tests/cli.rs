//! End-to-end tests of the `keccakx` binary: output format byte for byte
//! against GNU coreutils (`sha256sum` has the same format as a SHA3-256
//! sum tool; coreutils 9.1 computes no SHA-3 itself), `--check` messages
//! and exit codes against `sha256sum --check`, errors, pipes, parameters.

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use keccakx::fips202::Sha3_256;

const BIN: &str = env!("CARGO_BIN_EXE_keccakx");

/// A fresh, empty scratch directory for one test.
fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("keccakx-cli-tests")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run_in(dir: &Path, args: &[&OsStr], stdin: &[u8]) -> Output {
    run_prog(BIN, dir, args, stdin)
}

fn run_prog(prog: &str, dir: &Path, args: &[&OsStr], stdin: &[u8]) -> Output {
    let mut child = Command::new(prog)
        .args(args)
        .current_dir(dir)
        .env_remove("KECCAKX_ENGINE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {prog}: {e}"));
    let mut sin = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = sin.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    out
}

fn os(s: &str) -> &OsStr {
    OsStr::new(s)
}

fn args<'a>(v: &'a [&'a str]) -> Vec<&'a OsStr> {
    v.iter().map(|s| OsStr::new(*s)).collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn have(prog: &str) -> bool {
    Command::new(prog)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

fn code(o: &Output) -> i32 {
    o.status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {o:?}"))
}

fn no_panic(o: &Output) {
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        !e.contains("panicked") && !e.contains("RUST_BACKTRACE"),
        "panic: {e}"
    );
    assert!(o.status.code().is_some(), "killed by a signal: {o:?}");
}

/// Files whose names exercise escaping and quoting.
fn awkward_names() -> Vec<&'static [u8]> {
    vec![
        b"plain",
        b"a b",
        b"back\\slash",
        b"nl\nname",
        b"cr\rname",
        b"quo'te",
        b"both\\\nmix",
        "utf8-\u{e9}".as_bytes(),
        b"tab\tname",
    ]
}

fn make_files(dir: &Path) -> Vec<Vec<u8>> {
    let names: Vec<Vec<u8>> = awkward_names().iter().map(|n| n.to_vec()).collect();
    for (i, n) in names.iter().enumerate() {
        let content: Vec<u8> = (0..(i * 37 + 5)).map(|j| (j * 31 + i) as u8).collect();
        std::fs::write(dir.join(OsStr::from_bytes(n)), content).unwrap();
    }
    names
}

/// Replace every SHA-256 hex digest in coreutils output by the SHA3-256 of
/// the same file: the line keccakx must write.
fn sha256_to_sha3(out: &[u8], dir: &Path, names: &[Vec<u8>]) -> Vec<u8> {
    let mut s = out.to_vec();
    for n in names {
        let data = std::fs::read(dir.join(OsStr::from_bytes(n))).unwrap();
        let h256 = sha256_hex(dir, n);
        let h3 = hex(&Sha3_256::digest(&data));
        s = replace(&s, h256.as_bytes(), h3.as_bytes());
    }
    s
}

fn sha256_hex(dir: &Path, name: &[u8]) -> String {
    let o = run_prog(
        "sha256sum",
        dir,
        &[OsStr::new("-z"), OsStr::from_bytes(name)],
        b"",
    );
    String::from_utf8(o.stdout[..64].to_vec()).unwrap()
}

fn replace(hay: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(hay.len());
    let mut i = 0;
    while i < hay.len() {
        if hay[i..].starts_with(from) {
            out.extend_from_slice(to);
            i += from.len();
        } else {
            out.push(hay[i]);
            i += 1;
        }
    }
    out
}

#[test]
fn output_format_equals_coreutils_byte_for_byte() {
    if !have("sha256sum") {
        eprintln!("SKIPPED output_format_equals_coreutils: GNU sha256sum not installed");
        return;
    }
    let dir = scratch("format");
    let names = make_files(&dir);
    let name_args: Vec<&OsStr> = names.iter().map(|n| OsStr::from_bytes(n)).collect();
    for flags in [
        &[][..],
        &["--tag"],
        &["-z"],
        &["--tag", "-z"],
        &["-b"],
        &["-t"],
    ] {
        let mut a: Vec<&OsStr> = flags.iter().map(|f| os(f)).collect();
        a.extend(&name_args);
        let gnu = run_prog("sha256sum", &dir, &a, b"");
        assert_eq!(code(&gnu), 0);
        let want = replace(
            &sha256_to_sha3(&gnu.stdout, &dir, &names),
            b"SHA256 (",
            b"SHA3-256 (",
        );
        let mut ka = vec![os("sum"), os("-a"), os("sha3-256")];
        ka.extend(&a);
        let got = run_in(&dir, &ka, b"");
        assert_eq!(
            code(&got),
            0,
            "{flags:?}: {}",
            String::from_utf8_lossy(&got.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&got.stdout),
            String::from_utf8_lossy(&want),
            "flags {flags:?}"
        );
        assert_eq!(got.stdout, want, "flags {flags:?}");
    }
    // Standard input is named `-`.
    let gnu = run_prog("sha256sum", &dir, &[], b"abc");
    let got = run_in(&dir, &args(&["sum"]), b"abc");
    let h256 = String::from_utf8(gnu.stdout[..64].to_vec()).unwrap();
    let want = replace(
        &gnu.stdout,
        h256.as_bytes(),
        hex(&Sha3_256::digest(b"abc")).as_bytes(),
    );
    assert_eq!(got.stdout, want);
}

#[test]
fn error_messages_equal_coreutils() {
    if !have("sha256sum") {
        eprintln!("SKIPPED error_messages_equal_coreutils: GNU sha256sum not installed");
        return;
    }
    let dir = scratch("errors-gnu");
    let names = make_files(&dir);
    std::fs::create_dir(dir.join("subdir")).unwrap();
    let mut a: Vec<&OsStr> = vec![
        os("no such"),
        os("plain"),
        os("subdir"),
        OsStr::from_bytes(b"no\nsuch"),
    ];
    a.extend([os("no'such"), os("a:b"), os("a b")]);
    let gnu = run_prog("sha256sum", &dir, &a, b"");
    let mut ka = vec![os("sum")];
    ka.extend(&a);
    let got = run_in(&dir, &ka, b"");
    assert_eq!(code(&gnu), 1);
    assert_eq!(code(&got), 1);
    assert_eq!(got.stdout, sha256_to_sha3(&gnu.stdout, &dir, &names));
    assert_eq!(
        String::from_utf8_lossy(&got.stderr),
        String::from_utf8_lossy(&gnu.stderr).replace("sha256sum:", "keccakx:")
    );
}

/// Build analogous checksum files for sha256sum and keccakx and compare
/// `--check` output, diagnostics and exit status under every option.
/// GNU's `--check` output with the one deliberate difference applied:
/// keccakx escapes every control byte in a reported name (GNU only names
/// with a newline), here the carriage return and tab of two awkward names.
fn without_raw_controls(gnu: &[u8]) -> Vec<u8> {
    let s = replace(gnu, b"cr\rname:", b"\\cr\\rname:");
    replace(&s, b"tab\tname:", b"\\tab\\tname:")
}

#[test]
fn check_mode_equals_coreutils() {
    if !have("sha256sum") {
        eprintln!("SKIPPED check_mode_equals_coreutils: GNU sha256sum not installed");
        return;
    }
    let dir = scratch("check-gnu");
    let names = make_files(&dir);
    std::fs::create_dir(dir.join("subdir")).unwrap();
    let name_args: Vec<&OsStr> = names.iter().map(|n| OsStr::from_bytes(n)).collect();
    let gnu_sums = run_prog("sha256sum", &dir, &name_args, b"").stdout;
    let mut ka = vec![os("sum")];
    ka.extend(&name_args);
    let k_sums = run_in(&dir, &ka, b"").stdout;
    let zeros = "0".repeat(64);
    let plain256 = sha256_hex(&dir, b"plain");
    let plain3 = hex(&Sha3_256::digest(
        &std::fs::read(dir.join("plain")).unwrap(),
    ));
    let extra = |h: &str, tag: &str| -> Vec<u8> {
        format!(
            "bad line\n\n# comment\n{zeros}  missing\n{zeros}  a b\n{h}  subdir\n{h}  plain\r\n\
             {tag} (plain) = {h}\n{tag}(plain)={h}\n  {h}  plain\n\\{h}  bad\\q\n{h} plain\n\
             {tag} (plain) = {h}x\n{h}\tplain\n"
        )
        .into_bytes()
    };
    let mut gnu_file = gnu_sums.clone();
    gnu_file.extend(extra(&plain256, "SHA256"));
    let mut k_file = k_sums.clone();
    k_file.extend(extra(&plain3, "SHA3-256"));
    std::fs::write(dir.join("gnu.sums"), &gnu_file).unwrap();
    std::fs::write(dir.join("k.sums"), &k_file).unwrap();
    // Only missing files, and only a mismatch, for --ignore-missing.
    std::fs::write(dir.join("gnu.missing"), format!("{plain256}  gone\n")).unwrap();
    std::fs::write(dir.join("k.missing"), format!("{plain3}  gone\n")).unwrap();
    std::fs::write(
        dir.join("gnu.bad"),
        format!("{zeros}  plain\n{plain256}  gone\n"),
    )
    .unwrap();
    std::fs::write(
        dir.join("k.bad"),
        format!("{zeros}  plain\n{plain3}  gone\n"),
    )
    .unwrap();
    std::fs::write(dir.join("gnu.ok"), &gnu_sums).unwrap();
    std::fs::write(dir.join("k.ok"), &k_sums).unwrap();
    std::fs::write(dir.join("gnu.empty"), "\n# nothing\n").unwrap();
    std::fs::write(dir.join("k.empty"), "\n# nothing\n").unwrap();
    std::fs::write(dir.join("gnu.junk"), "junk\n").unwrap();
    std::fs::write(dir.join("k.junk"), "junk\n").unwrap();
    let variants: &[&[&str]] = &[
        &[],
        &["--quiet"],
        &["--status"],
        &["-w"],
        &["--strict"],
        &["--ignore-missing"],
        &["-w", "--strict", "--ignore-missing", "--quiet"],
    ];
    let mut compared = 0;
    for set in ["sums", "missing", "bad", "ok", "empty", "junk", "absent"] {
        for v in variants {
            let gname = format!("gnu.{set}");
            let kname = format!("k.{set}");
            let mut ga: Vec<&OsStr> = vec![os("-c")];
            ga.extend(v.iter().map(|s| os(s)));
            ga.push(os(&gname));
            let gnu = run_prog("sha256sum", &dir, &ga, b"");
            let mut kargs: Vec<&OsStr> = vec![os("sum"), os("-c")];
            kargs.extend(v.iter().map(|s| os(s)));
            kargs.push(os(&kname));
            let got = run_in(&dir, &kargs, b"");
            no_panic(&got);
            let ctx = format!("set {set} options {v:?}");
            let gnu_stdout = without_raw_controls(&gnu.stdout);
            assert_eq!(
                String::from_utf8_lossy(&got.stdout),
                String::from_utf8_lossy(&gnu_stdout),
                "{ctx}"
            );
            assert_eq!(got.stdout, gnu_stdout, "{ctx}");
            let want_err = String::from_utf8_lossy(&gnu.stderr)
                .replace("sha256sum:", "keccakx:")
                .replace("SHA256 checksum line", "SHA3-256 checksum line")
                .replace(&gname, &kname);
            assert_eq!(String::from_utf8_lossy(&got.stderr), want_err, "{ctx}");
            assert_eq!(code(&got), code(&gnu), "{ctx}");
            compared += 1;
        }
    }
    // The checksum list on standard input.
    let gnu = run_prog("sha256sum", &dir, &args(&["-c", "-w"]), &gnu_file);
    let got = run_in(&dir, &args(&["sum", "-c", "-w"]), &k_file);
    assert_eq!(got.stdout, without_raw_controls(&gnu.stdout));
    assert_eq!(
        String::from_utf8_lossy(&got.stderr),
        String::from_utf8_lossy(&gnu.stderr)
            .replace("sha256sum:", "keccakx:")
            .replace("SHA256 checksum line", "SHA3-256 checksum line")
    );
    assert_eq!(code(&got), code(&gnu));
    assert_eq!(compared, 49);
}

#[test]
fn check_round_trip_every_algorithm_and_tag() {
    let dir = scratch("roundtrip");
    make_files(&dir);
    let big: Vec<u8> = (0..300_000u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    std::fs::write(dir.join("big.bin"), &big).unwrap();
    let files = ["plain", "a b", "back\\slash", "big.bin"];
    // Every name `keccakx list` shows (registry, tree-li, finalists).
    let list = run_in(&dir, &args(&["list"]), b"");
    let listed = String::from_utf8_lossy(&list.stdout).to_string();
    let rows: Vec<(String, String)> = listed
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .map(|l| {
            let mut w = l.split_whitespace();
            (w.next().unwrap().to_string(), w.next().unwrap().to_string())
        })
        .collect();
    assert!(rows.len() > keccakx::registry::list().len(), "{listed}");
    for (name, display) in &rows {
        let mut base: Vec<String> = vec!["-a".into(), name.clone()];
        if name.starts_with("kmac") {
            base.extend(["--key-hex".into(), "000102030405".into()]);
        }
        if name == "keccak" {
            base.extend([
                "--rate".into(),
                "1344".into(),
                "--capacity".into(),
                "256".into(),
            ]);
        }
        if name == "tree-li" {
            base.extend([
                "--height".into(),
                "2".into(),
                "--prefix".into(),
                "salt".into(),
            ]);
        }
        for tag in [false, true] {
            let mut sa: Vec<&OsStr> = vec![os("sum")];
            sa.extend(base.iter().map(|s| os(s)));
            if tag {
                sa.push(os("--tag"));
            }
            sa.extend(files.iter().map(|s| os(s)));
            let sums = run_in(&dir, &sa, b"");
            assert_eq!(
                code(&sums),
                0,
                "{name}: {}",
                String::from_utf8_lossy(&sums.stderr)
            );
            let line = String::from_utf8_lossy(&sums.stdout)
                .lines()
                .next()
                .unwrap()
                .to_string();
            if tag {
                assert!(line.starts_with(&format!("{display} (plain) = ")), "{line}");
            }
            std::fs::write(dir.join("SUMS"), &sums.stdout).unwrap();
            let mut ca: Vec<&OsStr> = vec![os("sum"), os("-c")];
            // Tagged lines name their algorithm; untagged ones need -a.
            if tag {
                ca.extend(base.iter().skip(2).map(|s| os(s)));
            } else {
                ca.extend(base.iter().map(|s| os(s)));
            }
            ca.push(os("SUMS"));
            let chk = run_in(&dir, &ca, b"");
            assert_eq!(
                code(&chk),
                0,
                "{name} tag={tag}: {}",
                String::from_utf8_lossy(&chk.stderr)
            );
            let out = String::from_utf8_lossy(&chk.stdout);
            assert_eq!(out.matches(": OK\n").count(), files.len(), "{name}: {out}");
            // Corrupt big.bin's digest: exactly one FAILED.
            let text = String::from_utf8_lossy(&sums.stdout).to_string();
            let bad: String = text
                .lines()
                .map(|l| {
                    if l.contains("big.bin") {
                        let mut l = l.to_string();
                        let c = if l.ends_with('0') || l.starts_with('0') {
                            '1'
                        } else {
                            '0'
                        };
                        if tag {
                            l.pop();
                            l.push(c);
                        } else {
                            l.replace_range(0..1, &c.to_string());
                        }
                        l
                    } else {
                        l.to_string()
                    }
                })
                .map(|l| l + "\n")
                .collect();
            std::fs::write(dir.join("SUMS"), bad).unwrap();
            let chk = run_in(&dir, &ca, b"");
            assert_eq!(code(&chk), 1, "{name}");
            assert!(String::from_utf8_lossy(&chk.stdout).contains("big.bin: FAILED\n"));
            assert!(String::from_utf8_lossy(&chk.stderr)
                .contains("WARNING: 1 computed checksum did NOT match"));
        }
    }
}

#[test]
fn check_uses_tag_algorithm_and_infers_lengths() {
    let dir = scratch("mixed");
    std::fs::write(dir.join("f"), b"hello").unwrap();
    let mut lines = Vec::new();
    for a in [
        &["-a", "sha3-512"][..],
        &["-a", "kt128", "-l", "100"],
        &["-a", "shake256", "-l", "7"],
        &["-a", "keccak-256"],
    ] {
        let mut v = vec!["sum", "--tag"];
        v.extend(a);
        v.push("f");
        let o = run_in(&dir, &args(&v), b"");
        assert_eq!(code(&o), 0);
        lines.extend(o.stdout);
    }
    // Untagged SHA3-384 line: found by its length without -a.
    lines.extend(run_in(&dir, &args(&["sum", "-a", "sha3-384", "f"]), b"").stdout);
    std::fs::write(dir.join("S"), &lines).unwrap();
    let o = run_in(&dir, &args(&["sum", "-c", "S"]), b"");
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(String::from_utf8_lossy(&o.stdout), "f: OK\n".repeat(5));
    // Untagged SHAKE128 lines with -a: shorter than its default (32
    // bytes) only when -l says so, and -l must then match.
    let s = run_in(
        &dir,
        &args(&["sum", "-a", "shake128", "-l", "20", "f"]),
        b"",
    )
    .stdout;
    std::fs::write(dir.join("S2"), &s).unwrap();
    assert_eq!(
        code(&run_in(
            &dir,
            &args(&["sum", "-c", "-a", "shake128", "S2"]),
            b""
        )),
        1
    );
    let s40 = run_in(
        &dir,
        &args(&["sum", "-a", "shake128", "-l", "40", "f"]),
        b"",
    )
    .stdout;
    std::fs::write(dir.join("S40"), &s40).unwrap();
    assert_eq!(
        code(&run_in(
            &dir,
            &args(&["sum", "-c", "-a", "shake128", "S40"]),
            b""
        )),
        0
    );
    assert_eq!(
        code(&run_in(
            &dir,
            &args(&["sum", "-c", "-a", "shake128", "-l", "20", "S2"]),
            b""
        )),
        0
    );
    let o = run_in(
        &dir,
        &args(&["sum", "-c", "-a", "shake128", "-l", "21", "S2"]),
        b"",
    );
    assert_eq!(code(&o), 1);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no properly formatted checksum lines found")
    );
    // A KMAC tag line with and without the key.
    let k = run_in(
        &dir,
        &args(&["sum", "--tag", "-a", "kmac256", "--key-hex", "4b4559", "f"]),
        b"",
    )
    .stdout;
    std::fs::write(dir.join("S3"), &k).unwrap();
    let o = run_in(
        &dir,
        &args(&["sum", "-c", "--key-hex", "4b4559", "S3"]),
        b"",
    );
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let o = run_in(
        &dir,
        &args(&["sum", "-c", "--key-hex", "4b455a", "S3"]),
        b"",
    );
    assert_eq!(
        (code(&o), String::from_utf8_lossy(&o.stdout).to_string()),
        (1, "f: FAILED\n".to_string())
    );
    let o = run_in(&dir, &args(&["sum", "-c", "S3"]), b"");
    assert_eq!(code(&o), 1);
    assert!(
        String::from_utf8_lossy(&o.stderr)
            .contains("S3: 1: -a kmac256: KMAC256 needs --key-hex or --key-file"),
        "{o:?}"
    );
}

#[test]
fn failing_files_are_reported_and_the_rest_hashed() {
    let dir = scratch("failing");
    std::fs::write(dir.join("ok1"), b"one").unwrap();
    std::fs::write(dir.join("ok2"), b"two").unwrap();
    std::fs::create_dir(dir.join("d")).unwrap();
    for threads in ["1", "4"] {
        for mmap in ["--no-mmap", "--backend=cpu"] {
            let o = run_in(
                &dir,
                &args(&[
                    "sum",
                    "--threads",
                    threads,
                    mmap,
                    "ok1",
                    "missing",
                    "d",
                    "ok2",
                ]),
                b"",
            );
            no_panic(&o);
            assert_eq!(code(&o), 1);
            let want = format!(
                "{}  ok1\n{}  ok2\n",
                hex(&Sha3_256::digest(b"one")),
                hex(&Sha3_256::digest(b"two"))
            );
            assert_eq!(String::from_utf8_lossy(&o.stdout), want);
            assert_eq!(
                String::from_utf8_lossy(&o.stderr),
                "keccakx: missing: No such file or directory\nkeccakx: d: Is a directory\n"
            );
        }
    }
    // Permission denied (root reads everything, so the check is skipped there).
    let locked = dir.join("locked");
    std::fs::write(&locked, b"secret").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    if unsafe { libc::geteuid() } == 0 {
        eprintln!("SKIPPED permission-denied case: running as root, chmod 000 does not deny reads");
    } else {
        let o = run_in(&dir, &args(&["sum", "locked", "ok1"]), b"");
        assert_eq!(code(&o), 1);
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            "keccakx: locked: Permission denied\n"
        );
        assert!(String::from_utf8_lossy(&o.stdout).ends_with("  ok1\n"));
    }
    let _ = std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o600));
    // A read error after a successful open: /proc/self/mem at offset 0 (EIO).
    if Path::new("/proc/self/mem").exists() {
        for extra in ["--no-mmap", "--threads=1"] {
            let o = run_in(&dir, &args(&["sum", extra, "/proc/self/mem", "ok1"]), b"");
            assert_eq!(code(&o), 1);
            assert_eq!(
                String::from_utf8_lossy(&o.stderr),
                "keccakx: /proc/self/mem: Input/output error\n"
            );
            assert!(String::from_utf8_lossy(&o.stdout).ends_with("  ok1\n"));
        }
    }
    // A name with a newline still gives a one-line diagnostic.
    let o = run_in(&dir, &[os("sum"), OsStr::from_bytes(b"x\ny")], b"");
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "keccakx: 'x'$'\\n''y': No such file or directory\n"
    );
}

#[test]
fn closed_stdout_ends_quietly() {
    let dir = scratch("pipe");
    let mut names = Vec::new();
    for i in 0..400 {
        let n = format!("f{i:04}");
        std::fs::write(dir.join(&n), n.as_bytes()).unwrap();
        names.push(n);
    }
    for extra in [&["--threads", "1"][..], &["--threads", "3"]] {
        let mut child = Command::new(BIN)
            // 2000-hex-digit lines: far more than a pipe buffer holds.
            .args(["sum", "-a", "shake128", "-l", "1000"])
            .args(extra)
            .args(&names)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 10];
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut first)
            .unwrap();
        drop(child.stdout.take());
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(0), "{extra:?}: {o:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), "", "{extra:?}");
    }
    // A full disk is an error, reported once.
    if Path::new("/dev/full").exists() {
        let o = Command::new(BIN)
            .args(["sum", "-a", "kt128"])
            .args(&names)
            .current_dir(&dir)
            .stdout(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open("/dev/full")
                    .unwrap(),
            )
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            String::from_utf8_lossy(&o.stderr),
            "keccakx: write error: No space left on device\n"
        );
    }
}

#[test]
fn stdin_and_dash() {
    let dir = scratch("stdin");
    std::fs::write(dir.join("f"), b"file").unwrap();
    let o = run_in(&dir, &args(&["sum", "f", "-", "f"]), b"from stdin");
    assert_eq!(code(&o), 0);
    let hf = hex(&Sha3_256::digest(b"file"));
    let hs = hex(&Sha3_256::digest(b"from stdin"));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("{hf}  f\n{hs}  -\n{hf}  f\n")
    );
    // TupleHash buffers a pipe (its length comes first) and equals the file.
    let big: Vec<u8> = (0..3_000_000u32).map(|i| (i % 251) as u8).collect();
    std::fs::write(dir.join("big"), &big).unwrap();
    for a in [
        "tuplehash128",
        "tuplehashxof256",
        "kt128",
        "parallelhash256",
        "keccak-512",
    ] {
        let from_pipe = run_in(&dir, &args(&["sum", "-a", a]), &big);
        let from_file = run_in(&dir, &args(&["sum", "-a", a, "big"]), b"");
        let from_read = run_in(&dir, &args(&["sum", "-a", a, "--no-mmap", "big"]), b"");
        let h = |o: &Output| {
            String::from_utf8_lossy(&o.stdout)
                .split(' ')
                .next()
                .unwrap()
                .to_string()
        };
        assert_eq!(h(&from_pipe), h(&from_file), "{a}");
        assert_eq!(h(&from_read), h(&from_file), "{a}");
        // A path of unknown size (a pipe opened by name): its read buffer
        // starts small and grows as reads fill it.
        let from_named_pipe = run_in(&dir, &args(&["sum", "-a", a, "/dev/stdin"]), &big);
        assert_eq!(h(&from_named_pipe), h(&from_file), "{a}");
    }
    // Around the first buffer sizes of input of unknown size (64 KiB, then
    // doubling): every length gives the library's digest.
    for n in [0, 1, 65535, 65536, 65537, 131072, 131073, 2_100_000] {
        let data = &big[..n];
        let want = hex(&Sha3_256::digest(data));
        for path in ["-", "/dev/stdin"] {
            let o = run_in(&dir, &args(&["sum", path]), data);
            assert_eq!(code(&o), 0);
            let out = String::from_utf8_lossy(&o.stdout).into_owned();
            assert_eq!(out, format!("{want}  {path}\n"), "{n} bytes from {path}");
        }
    }
}

#[test]
fn parallel_output_is_in_argument_order() {
    let dir = scratch("order");
    let mut names = Vec::new();
    for i in 0..60usize {
        let n = format!("file{i}");
        // Sizes vary so that workers finish out of order.
        let len = if i % 7 == 0 { 3_000_000 } else { i * 1000 };
        std::fs::write(dir.join(&n), vec![i as u8; len]).unwrap();
        names.push(n);
    }
    let mut a1 = vec!["sum", "-a", "sha3-512", "--threads", "1"];
    a1.extend(names.iter().map(|s| s.as_str()));
    let one = run_in(&dir, &args(&a1), b"");
    let mut a4 = vec!["sum", "-a", "sha3-512", "--threads", "4"];
    a4.extend(names.iter().map(|s| s.as_str()));
    let four = run_in(&dir, &args(&a4), b"");
    assert_eq!(code(&one), 0);
    assert_eq!(one.stdout, four.stdout);
    let text = String::from_utf8_lossy(&one.stdout);
    for (line, n) in text.lines().zip(&names) {
        assert!(line.ends_with(&format!("  {n}")));
    }
}

/// One thread reads file after file through the read buffer it keeps
/// from one file to the next: each file's digest is of its own bytes,
/// whatever the size of the file read before it (larger, smaller, empty),
/// with glibc returning large buffers to the kernel
/// (MALLOC_TRIM_THRESHOLD_, as Dask sets it) or not.
#[test]
fn kept_read_buffer_gives_each_file_its_own_bytes() {
    let dir = scratch("kept-buffer");
    let sizes = [
        1_500_000usize,
        10,
        0,
        70_000,
        2_000_000,
        65_536,
        1,
        2_000_000,
        3,
    ];
    let mut names = Vec::new();
    let mut want = String::new();
    for (i, &n) in sizes.iter().enumerate() {
        let data: Vec<u8> = (0..n).map(|j| (j * 31 + i * 7 + j / 253) as u8).collect();
        let name = format!("f{i}");
        std::fs::write(dir.join(&name), &data).unwrap();
        want.push_str(&format!("{}  {name}\n", hex(&Sha3_256::digest(&data))));
        names.push(name);
    }
    for trim in [false, true] {
        let mut a = vec!["sum", "-a", "sha3-256", "--threads", "1"];
        a.extend(names.iter().map(|s| s.as_str()));
        let mut cmd = Command::new(BIN);
        cmd.args(&a).current_dir(&dir).env_remove("KECCAKX_ENGINE");
        if trim {
            cmd.env("MALLOC_TRIM_THRESHOLD_", "65536");
        }
        let out = cmd.output().unwrap();
        assert_eq!(code(&out), 0, "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stdout), want, "trim={trim}");
    }
}

#[test]
fn invalid_arguments_exit_2_without_panic() {
    let dir = scratch("invalid");
    std::fs::write(dir.join("f"), b"x").unwrap();
    let cases: &[&[&str]] = &[
        &["sum", "-a", "nope", "f"],
        &["sum", "-a", "sha3-256", "-l", "7", "f"],
        &["sum", "-a", "shake128", "-l", "0", "f"],
        &["sum", "-a", "shake128", "-l", "-3", "f"],
        &[
            "sum",
            "-a",
            "shake128",
            "-l",
            "99999999999999999999999",
            "f",
        ],
        &["sum", "-a", "shake128", "-l", "1048577", "f"],
        &["sum", "-a", "kmac128", "f"],
        &["sum", "-a", "turboshake128", "--domain", "0", "f"],
        &["sum", "-a", "turboshake128", "--domain", "0x80", "f"],
        &["sum", "-a", "turboshake128", "--domain", "300", "f"],
        &["sum", "-a", "keccak", "f"],
        &["sum", "-a", "keccak", "--rate", "1601", "f"],
        &["sum", "-a", "keccak", "--rate", "0", "f"],
        &["sum", "-a", "keccak", "--rate", "40", "--width", "7", "f"],
        &[
            "sum",
            "-a",
            "keccak",
            "--rate",
            "40",
            "--capacity",
            "160",
            "--width",
            "400",
            "f",
        ],
        &["sum", "-a", "keccak", "--capacity", "2000", "f"],
        &[
            "sum", "-a", "keccak", "--rate", "1088", "--rounds", "0", "f",
        ],
        &[
            "sum", "-a", "keccak", "--rate", "1088", "--rounds", "25", "f",
        ],
        &[
            "sum", "-a", "keccak", "--rate", "1088", "--suffix", "0", "f",
        ],
        &[
            "sum", "-a", "keccak", "--width", "25", "--rate", "24", "--rounds", "13", "f",
        ],
        &["sum", "-a", "parallelhash128", "--block-size", "0", "f"],
        &["sum", "-a", "sha3-256", "--customization", "x", "f"],
        &["sum", "-a", "sha3-256", "--rate", "8", "f"],
        &["sum", "-a", "kmac128", "--key-hex", "zz", "f"],
        &["sum", "-a", "kmac128", "--key-hex", "abc", "f"],
        &["sum", "-a", "blake256", "-l", "16", "f"],
        &["sum", "-a", "skein512-256", "--customization", "x", "f"],
        &["sum", "-a", "tree-li", "--degree", "0", "f"],
        &["sum", "-a", "tree-li", "--height", "17", "f"],
        &[
            "sum", "-a", "tree-li", "--degree", "255", "--height", "3", "f",
        ],
        &["sum", "-a", "tree-li", "--rate", "1001", "f"],
        &["sum", "-a", "tree-li", "--rounds", "12", "f"],
        &["sum", "-a", "tree-li", "--prefix-hex", "zz", "f"],
        &["sum", "-a", "sha3-256", "--height", "2", "f"],
        &["sum", "--tag", "-c", "f"],
        &["sum", "-z", "-c", "f"],
        &["sum", "--quiet", "f"],
        &["sum", "--status", "f"],
        &["sum", "--strict", "f"],
        &["sum", "-w", "f"],
        &["sum", "--ignore-missing", "f"],
        &["sum", "-b", "-t", "f"],
        &["sum", "--engine", "bogus", "f"],
        &["sum", "--threads", "x", "f"],
        &["sum", "--threads", "100000", "f"],
        &["sum", "--backend", "tpu", "f"],
        &["--backend", "gpu", "sum", "-c", "f"],
        &["sum", "--bogus-flag"],
        &["frobnicate"],
        &[],
    ];
    for c in cases {
        let o = run_in(&dir, &args(c), b"");
        no_panic(&o);
        assert_eq!(code(&o), 2, "{c:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(!o.stderr.is_empty(), "{c:?}: no message");
        assert!(o.stdout.is_empty(), "{c:?}: wrote to stdout");
    }
    // A key file that cannot be read is an I/O error (1).
    let o = run_in(
        &dir,
        &args(&["sum", "-a", "kmac128", "--key-file", "nokey", "f"]),
        b"",
    );
    assert_eq!(code(&o), 1);
    assert_eq!(
        String::from_utf8_lossy(&o.stderr),
        "keccakx: --key-file nokey: No such file or directory\n"
    );
    // An error is reported once, before progress's last line (--progress
    // into a pipe).
    let o = run_in(
        &dir,
        &args(&["--backend", "gpu", "sum", "--progress", "-c", "f"]),
        b"",
    );
    assert_eq!(code(&o), 2);
    let err = String::from_utf8_lossy(&o.stderr);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert_eq!(
        lines[0],
        "keccakx: --backend gpu: --check hashes on the CPU; use --backend gpu when creating checksums"
    );
    assert!(lines[1].contains("(done in "), "{err}");
}

#[test]
fn raw_keccak_parameters() {
    use keccakx::sponge::{golden_sponge, SpongeParams, Suffix};
    let dir = scratch("raw");
    let msg: Vec<u8> = (0..1000u32).map(|i| (i * 13) as u8).collect();
    std::fs::write(dir.join("m"), &msg).unwrap();
    let first = |o: &Output| {
        String::from_utf8_lossy(&o.stdout)
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    // Keccak[1088, 512] with the SHA-3 suffix is SHA3-256.
    let o = run_in(
        &dir,
        &args(&[
            "sum",
            "-a",
            "keccak",
            "--rate",
            "1088",
            "--capacity",
            "512",
            "--suffix",
            "0x06",
            "m",
        ]),
        b"",
    );
    assert_eq!(first(&o), hex(&Sha3_256::digest(&msg)));
    // Keccak[1088, 512] without suffix is Keccak-256.
    let o = run_in(
        &dir,
        &args(&["sum", "-a", "keccak", "--capacity", "512", "m"]),
        b"",
    );
    assert_eq!(first(&o), hex(&keccakx::keccak::Keccak256::digest(&msg)));
    // Small widths, odd rates, reduced rounds, against the golden sponge.
    for (w, r, nr, sfx, len) in [
        (200usize, 40usize, 18usize, 0x01u8, 10usize),
        (400, 144, 5, 0x06, 33),
        (25, 9, 12, 0x1F, 3),
        (800, 500, 22, 0x04, 100),
        (1600, 1027, 24, 0x01, 64),
    ] {
        let (ws, rs, ns, ss, ls) = (
            w.to_string(),
            r.to_string(),
            nr.to_string(),
            format!("0x{sfx:02x}"),
            len.to_string(),
        );
        let o = run_in(
            &dir,
            &args(&[
                "sum", "-a", "keccak", "--width", &ws, "--rate", &rs, "--rounds", &ns, "--suffix",
                &ss, "-l", &ls, "m",
            ]),
            b"",
        );
        assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
        let p = SpongeParams::new(w, r, nr, Suffix::from_delimited(sfx).unwrap()).unwrap();
        let want = golden_sponge(&p, &msg, msg.len() * 8, len * 8);
        assert_eq!(first(&o), hex(&want), "width {w} rate {r} rounds {nr}");
    }
}

#[test]
fn list_info_help_version() {
    let dir = scratch("misc");
    let o = run_in(&dir, &args(&["list"]), b"");
    assert_eq!(code(&o), 0);
    let text = String::from_utf8_lossy(&o.stdout);
    for a in keccakx::registry::list() {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("{} ", a.name))),
            "list lacks {}",
            a.name
        );
    }
    // The finalists are an optional (default) feature of the CLI.
    let finalists: &[&str] = if cfg!(feature = "finalists") {
        &["blake256 ", "groestl256 ", "jh256 ", "skein512-256 "]
    } else {
        &[]
    };
    for &extra in ["tree-li "].iter().chain(finalists) {
        assert!(
            text.lines().any(|l| l.starts_with(extra)),
            "list lacks {extra}"
        );
    }
    let o = run_in(&dir, &args(&["info"]), b"");
    assert_eq!(code(&o), 0);
    let text = String::from_utf8_lossy(&o.stdout);
    for key in ["keccakx ", "cpu: ", "engines: ", "engine: ", "threads: "] {
        assert!(text.contains(key), "info lacks {key}: {text}");
    }
    let o = run_in(&dir, &args(&["--threads", "3", "info"]), b"");
    assert!(String::from_utf8_lossy(&o.stdout).contains("threads: 3"));
    let o = run_in(&dir, &args(&["--version"]), b"");
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("keccakx {}\n", env!("CARGO_PKG_VERSION"))
    );
    for sub in [
        &["--help"][..],
        &["sum", "--help"],
        &["list", "--help"],
        &["info", "--help"],
        &["help", "sum"],
    ] {
        let o = run_in(&dir, &args(sub), b"");
        assert_eq!(code(&o), 0, "{sub:?}");
        assert!(
            String::from_utf8_lossy(&o.stdout).contains("Usage: keccakx"),
            "{sub:?}"
        );
    }
    let o = run_in(&dir, &args(&["sum", "--help"]), b"");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Output length in BYTES (not bits)"));
    for flag in [
        "--algorithm",
        "--length",
        "--customization",
        "--function-name",
        "--key-hex",
        "--key-file",
        "--block-size",
        "--domain",
        "--rate",
        "--capacity",
        "--width",
        "--rounds",
        "--suffix",
        "--tag",
        "--zero",
        "--check",
        "--quiet",
        "--status",
        "--strict",
        "--warn",
        "--ignore-missing",
        "--no-mmap",
        "--threads",
        "--engine",
        "--backend",
        "KECCAKX_ENGINE",
    ] {
        assert!(text.contains(flag), "sum --help lacks {flag}");
    }
    // Engine choice: --engine and the environment variable.
    let o = run_in(&dir, &args(&["--engine", "scalar", "info"]), b"");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("engine: scalar (--engine)"));
    // A forced engine below AVX-512 keeps SHA-3's permutation off it too,
    // by the option and by the environment variable.
    assert!(text.contains("single state: ") && !text.contains("single state: avx512"));
    let o = Command::new(BIN)
        .arg("info")
        .env("KECCAKX_ENGINE", "scalar")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("engine: scalar (KECCAKX_ENGINE=scalar)"),
        "{text}"
    );
    assert!(text.contains("single state: ") && !text.contains("single state: avx512"));
    let o = Command::new(BIN)
        .args(["sum", "-"])
        .env("KECCAKX_ENGINE", "nonsense")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(code(&o), 0);
    assert!(String::from_utf8_lossy(&o.stderr).contains("KECCAKX_ENGINE=nonsense"));
}

#[test]
fn backend_choice() {
    let dir = scratch("backend");
    std::fs::write(dir.join("f"), b"x").unwrap();
    let cpu = run_in(&dir, &args(&["sum", "--backend", "cpu", "f"]), b"");
    let auto = run_in(&dir, &args(&["sum", "--backend", "auto", "f"]), b"");
    assert_eq!(code(&cpu), 0);
    assert_eq!(cpu.stdout, auto.stdout);
    let gpu = run_in(&dir, &args(&["sum", "--backend", "gpu", "f"]), b"");
    no_panic(&gpu);
    if code(&gpu) == 0 {
        assert_eq!(gpu.stdout, cpu.stdout, "GPU digest differs from CPU");
    } else {
        assert_eq!(code(&gpu), 1);
        let e = String::from_utf8_lossy(&gpu.stderr);
        assert!(
            e.starts_with("keccakx: --backend gpu: no GPU available ("),
            "{e}"
        );
    }
    // Many files: `auto` may pick a GPU; without one it is silent and equal to the CPU.
    let mut names = Vec::new();
    for i in 0..300 {
        let n = format!("m{i}");
        std::fs::write(dir.join(&n), vec![i as u8; i * 3]).unwrap();
        names.push(n);
    }
    let mut a = vec!["sum", "-a", "sha3-384"];
    a.extend(names.iter().map(|s| s.as_str()));
    let auto = run_in(&dir, &args(&a), b"");
    a.extend(["--backend", "cpu"]);
    let cpu = run_in(&dir, &args(&a), b"");
    assert_eq!(code(&auto), 0);
    assert_eq!(auto.stdout, cpu.stdout);
    let e = String::from_utf8_lossy(&auto.stderr);
    assert!(e.is_empty() || e.starts_with("keccakx: GPU"), "{e}");
}

#[test]
fn bench_measures_and_rejects_bad_arguments() {
    let dir = scratch("bench");
    let o = run_in(
        &dir,
        &args(&[
            "bench",
            "--json",
            "--seconds",
            "0.05",
            "--size",
            "64,4096",
            "-a",
            "sha3-256",
            "-a",
            "kt128",
            "--batch",
            "100",
        ]),
        b"",
    );
    no_panic(&o);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    // 2 algorithms x 2 sizes + the batch row, each with a positive rate.
    assert_eq!(text.matches("\"mb_per_s\": ").count(), 5, "{text}");
    assert!(
        text.contains("\"algorithm\": \"kt128\", \"bytes\": 4096"),
        "{text}"
    );
    assert!(!text.contains("\"mb_per_s\": 0.0"), "{text}");
    assert!(text.contains("\"single_state\": \""), "{text}");
    for bad in [
        &["bench", "-a", "nope"][..],
        &["bench", "--size", "0"],
        &["bench", "--seconds", "100"],
    ] {
        let o = run_in(&dir, &args(bad), b"");
        no_panic(&o);
        assert_eq!(code(&o), 2, "{bad:?}");
    }
}

/// Files are read or mapped one buffer or window ahead on a second thread
/// when more than one thread is allowed (src/input.rs): the digests equal
/// the library's at the small-file, 2 MiB buffer (read or mapped) and
/// 16 MiB window edges, on one thread and on all, and through a named pipe.
#[test]
fn read_ahead_equals_library_at_buffer_and_window_edges() {
    let dir = scratch("read-ahead");
    const MIB: usize = 1 << 20;
    // Small files are read into a buffer of their own size (at least
    // 64 KiB); files past one 2 MiB buffer are mapped.
    let sizes = [
        0,
        1,
        64 * 1024 - 1,
        64 * 1024,
        64 * 1024 + 1,
        MIB + 3,
        2 * MIB - 1,
        2 * MIB,
        2 * MIB + 1,
        4 * MIB + 5,
        16 * MIB,
        16 * MIB + 1,
        35 * MIB + 7,
    ];
    let data: Vec<u8> = (0..*sizes.iter().max().unwrap())
        .map(|i| {
            (i as u64)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(17) as u8
        })
        .collect();
    let lib = |algo: &str, msg: &[u8]| {
        let mut h = keccakx::registry::Hasher::new(algo, &Default::default()).unwrap();
        h.update(msg);
        hex(&h.finalize_reader().read_vec(32))
    };
    for &n in &sizes {
        let name = format!("f{n}");
        std::fs::write(dir.join(&name), &data[..n]).unwrap();
        for algo in ["kt128", "sha3-256"] {
            let want = lib(algo, &data[..n]);
            for extra in [&[][..], &["--no-mmap"][..]] {
                for threads in ["1", "0"] {
                    let mut a = vec!["--threads", threads, "sum", "-a", algo];
                    a.extend_from_slice(extra);
                    a.push(&name);
                    let o = run_in(&dir, &args(&a), b"");
                    assert_eq!(code(&o), 0, "{a:?}: {}", String::from_utf8_lossy(&o.stderr));
                    let got = String::from_utf8_lossy(&o.stdout);
                    assert!(got.starts_with(&want), "{a:?}: {got} vs {want}");
                }
            }
        }
    }
    // A named pipe: a file of unknown length, read ahead as well.
    let fifo = dir.join("fifo");
    let c = std::ffi::CString::new(fifo.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let n = 5 * MIB + 3;
    let writer = {
        let (fifo, msg) = (fifo.clone(), data[..n].to_vec());
        std::thread::spawn(move || std::fs::write(fifo, msg).unwrap())
    };
    let o = run_in(&dir, &args(&["sum", "-a", "kt128", "fifo"]), b"");
    writer.join().unwrap();
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with(&lib("kt128", &data[..n])));
}

/// b3sum's output options (--no-names, --raw, --seek, --num-threads) and
/// sha3sum's reading modes end to end (their digests against sha3sum itself:
/// tests/cli/sha3sum_compat.py).
#[test]
fn b3sum_and_sha3sum_options() {
    let dir = scratch("compat-options");
    std::fs::write(dir.join("f"), b"first\r\nfile\r\n").unwrap();
    std::fs::write(dir.join("g"), b"second").unwrap();
    let hf = hex(&Sha3_256::digest(b"first\r\nfile\r\n"));
    let hg = hex(&Sha3_256::digest(b"second"));
    let ok = |a: &[&str]| {
        let o = run_in(&dir, &args(a), b"");
        no_panic(&o);
        assert_eq!(code(&o), 0, "{a:?}: {}", String::from_utf8_lossy(&o.stderr));
        o.stdout
    };
    let refused = |a: &[&str], why: &str| {
        let o = run_in(&dir, &args(a), b"");
        no_panic(&o);
        assert_eq!(code(&o), 2, "{a:?}");
        assert!(o.stdout.is_empty(), "{a:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(why), "{a:?}: {e}");
    };
    assert_eq!(
        ok(&["sum", "--no-names", "f", "g"]),
        format!("{hf}\n{hg}\n").as_bytes()
    );
    assert_eq!(
        ok(&["sum", "--no-names", "-z", "g"]),
        format!("{hg}\0").as_bytes()
    );
    assert_eq!(ok(&["sum", "--raw", "g"]), Sha3_256::digest(b"second"));
    let long = ok(&["sum", "--raw", "-a", "shake128", "-l", "300", "g"]);
    assert_eq!(long.len(), 300);
    let seek = ok(&[
        "sum", "--raw", "-a", "shake128", "-l", "20", "--seek", "280", "g",
    ]);
    assert_eq!(seek, long[280..]);
    assert_eq!(
        ok(&["sum", "--num-threads", "1", "f", "g"]),
        ok(&["sum", "--threads", "1", "f", "g"])
    );
    refused(&["sum", "--raw", "f", "g"], "--raw");
    refused(
        &["sum", "--seek", "1", "f"],
        "not an extendable-output function",
    );
    refused(&["sum", "--no-names", "--tag", "f"], "--tag");
    refused(&["sum", "-U", "--tag", "f"], "--tag");
    refused(&["sum", "-0", "-a", "kt128", "f"], "bits mode");
    refused(&["sum", "-U", "-a", "tuplehash128", "f"], "TupleHash");
    refused(&["sum", "-a", "1024", "f"], "unknown algorithm");
    // The GPU hashes bytes as they are; the reading modes stay on the CPU.
    let o = run_in(&dir, &args(&["sum", "-U", "--backend", "gpu", "f"]), b"");
    assert_eq!(code(&o), 1);
    assert!(String::from_utf8_lossy(&o.stderr).contains("run on the CPU"));

    // GNU cksum's --base64 (coreutils 9.8+: `cksum -a sha3 -l 256 --base64`
    // writes `SHA3-256 (g) = <base64>`; the digests below are Python's
    // base64 of hashlib's), and --check reads it back, tagged, or untagged
    // with -a.
    let tagged = ok(&["sum", "--tag", "--base64", "g"]);
    assert_eq!(
        tagged,
        b"SHA3-256 (g) = fIi8VQM1GiLUhRfurA8URycmvZGc/0gYyRdQtNtMFZ0=\n"
    );
    let untagged = ok(&["sum", "--base64", "-a", "shake128", "-l", "20", "g"]);
    assert_eq!(untagged, b"c/8/gicCCdo1BVQjDkT8zmObgEQ=  g\n");
    std::fs::write(dir.join("B64"), [tagged, untagged].concat()).unwrap();
    // With -a, the SHA3-256 line is another algorithm's: improperly
    // formatted, as cksum -a has it.
    let o = run_in(
        &dir,
        &args(&["sum", "-c", "-a", "shake128", "-l", "20", "B64"]),
        b"",
    );
    assert_eq!((code(&o), o.stdout.as_slice()), (0, &b"g: OK\n"[..]));
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 line is improperly formatted"));
    assert_eq!(
        ok(&["sum", "-c", "B64"]),
        b"g: OK\n",
        "the untagged line needs -a"
    );
    refused(&["sum", "--base64", "--raw", "g"], "--raw");

    // Through a link named sha3sum: `keccakx sum` with sha3sum's default, SHA3-224.
    let link = dir.join("sha3sum");
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    let o = run_prog(link.to_str().unwrap(), &dir, &args(&["g"]), b"");
    assert_eq!(code(&o), 0);
    let h224 = hex(&keccakx::fips202::Sha3_224::digest(b"second"));
    assert_eq!(o.stdout, format!("{h224}  g\n").as_bytes());
    let o = run_prog(link.to_str().unwrap(), &dir, &args(&["--version"]), b"");
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("keccakx"));

    // sha3sum's modes and names: marks in the lines, and --check reads them.
    let universal = hex(&Sha3_256::digest(b"first\nfile\n"));
    assert_eq!(
        ok(&["sum", "-a", "256", "-U", "f"]),
        format!("{universal} Uf\n").as_bytes()
    );
    std::fs::write(dir.join("bits"), b"0110 0001\n").unwrap();
    let a = hex(&Sha3_256::digest(b"a"));
    assert_eq!(
        ok(&["sum", "-0", "bits"]),
        format!("{a} ^bits\n").as_bytes()
    );
    let mut list = ok(&["sum", "-U", "f", "g"]);
    list.extend(ok(&["sum", "--01", "bits"]));
    list.extend(ok(&["sum", "-a", "128000", "g", "f"]));
    list.extend(ok(&["sum", "-b", "f"]));
    assert_eq!(list.iter().filter(|&&c| c == b'\n').count(), 6);
    assert!(list
        .windows(337)
        .any(|w| w[336] == b' ' && w[..336].iter().all(u8::is_ascii_hexdigit)));
    std::fs::write(dir.join("SUMS"), &list).unwrap();
    assert_eq!(
        ok(&["sum", "-c", "SUMS"]),
        b"f: OK\ng: OK\nbits: OK\ng: OK\nf: OK\nf: OK\n"
    );
    assert_eq!(ok(&["sum", "-c", "-q", "SUMS"]), b"");
    // -a 128000 when checking: the SHAKE line's own length; a SHAKE128
    // line shorter than SHAKE128's default is refused (sha3sum ignores -a
    // when checking; keccakx lets -a restrict the check, as cksum -a does),
    // and read without -a.
    let mut mixed = ok(&["sum", "-a", "128000", "g"]);
    mixed.extend(ok(&["sum", "--tag", "-a", "shake128", "-l", "16", "g"]));
    std::fs::write(dir.join("MIXED"), &mixed).unwrap();
    let o = run_in(&dir, &args(&["sum", "-c", "-a", "128000", "MIXED"]), b"");
    assert_eq!((code(&o), o.stdout.as_slice()), (0, &b"g: OK\n"[..]));
    assert_eq!(ok(&["sum", "-c", "MIXED"]), b"g: OK\ng: OK\n");
    // One changed file fails its lines, and only those.
    std::fs::write(dir.join("bits"), b"0110 0000").unwrap();
    let o = run_in(&dir, &args(&["sum", "-c", "-s", "SUMS"]), b"");
    assert_eq!((code(&o), o.stdout.len()), (1, 0));
    let o = run_in(&dir, &args(&["sum", "-c", "SUMS"]), b"");
    assert_eq!(code(&o), 1);
    assert_eq!(
        o.stdout,
        b"f: OK\ng: OK\nbits: FAILED\ng: OK\nf: OK\nf: OK\n"
    );
}
