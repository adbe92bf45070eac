//! The CLI under hostile conditions: closed standard
//! descriptors, unwritable output, a file truncated while it is mapped,
//! checksum lists that never end or hold a 100 MB line, NUL and control
//! bytes in names, a low limit on open files, empty KMAC keys, progress.
//! Each case is a reproducer from the issue; coreutils' `sha256sum` is the
//! reference where it has the same case.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use keccakx::fips202::Sha3_256;

const BIN: &str = env!("CARGO_BIN_EXE_keccakx");

fn scratch(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("keccakx-hostile")
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn no_panic(o: &Output) {
    let e = text(&o.stderr);
    assert!(
        !e.contains("panicked") && !e.contains("RUST_BACKTRACE"),
        "{e}"
    );
}

/// Run `prog args` in `dir` with standard descriptors in `closed` (0, 1,
/// 2) closed, the others piped (stdin empty).
fn run_closed(prog: &str, dir: &Path, args: &[&str], closed: &'static [i32]) -> Output {
    let mut c = Command::new(prog);
    c.args(args).current_dir(dir).env_remove("KECCAKX_ENGINE");
    c.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: close() is async-signal-safe; the child closes its own fds.
    unsafe {
        c.pre_exec(move || {
            for &fd in closed {
                libc::close(fd);
            }
            Ok(())
        });
    }
    c.output().unwrap()
}

fn have(prog: &str) -> bool {
    Command::new(prog)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok()
}

#[test]
fn closed_stdin_is_bad_file_descriptor() {
    let dir = scratch("closed-stdin");
    std::fs::write(dir.join("f"), b"data").unwrap();
    for args in [
        &["sum"][..],
        &["sum", "-"][..],
        &["sum", "-a", "kt128", "-"][..],
    ] {
        let o = run_closed(BIN, &dir, args, &[0]);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert_eq!(o.stdout, b"", "{args:?}: no digest of an empty input");
        assert_eq!(text(&o.stderr), "keccakx: -: Bad file descriptor\n");
        if have("sha256sum") && args.len() <= 2 {
            let g = run_closed("sha256sum", &dir, &args[1..], &[0]);
            assert_eq!(g.status.code(), Some(1));
            assert!(text(&g.stderr).starts_with("sha256sum: -: Bad file descriptor\n"));
        }
    }
    // A file argument does not need stdin; "-" among files fails alone.
    let o = run_closed(BIN, &dir, &["sum", "f", "-", "f"], &[0]);
    assert_eq!(o.status.code(), Some(1));
    let line = format!("{}  f\n", hex(&Sha3_256::digest(b"data")));
    assert_eq!(text(&o.stdout), format!("{line}{line}"));
    // The checksum list on a closed stdin.
    for args in [&["sum", "-c"][..], &["sum", "-c", "-"][..]] {
        let o = run_closed(BIN, &dir, args, &[0]);
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1));
        assert_eq!(
            text(&o.stderr),
            "keccakx: 'standard input': Bad file descriptor\n"
        );
    }
}

#[test]
fn closed_or_full_stdout_is_a_write_error() {
    let dir = scratch("closed-stdout");
    std::fs::write(dir.join("f"), b"data").unwrap();
    let o = run_closed(BIN, &dir, &["sum", "f"], &[1]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "keccakx: write error: Bad file descriptor\n"
    );
    let o = run_closed(BIN, &dir, &["--help"], &[1]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "keccakx: write error: Bad file descriptor\n"
    );
    // Nothing to write (--status): a closed stdout is no error, as GNU.
    let sums = format!("{}  f\n", hex(&Sha3_256::digest(b"data")));
    std::fs::write(dir.join("SUMS"), &sums).unwrap();
    let o = run_closed(BIN, &dir, &["sum", "-c", "--status", "SUMS"], &[1]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    if !Path::new("/dev/full").exists() {
        eprintln!("SKIPPED /dev/full cases: no /dev/full");
        return;
    }
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [
        &["--help"][..],
        &["sum", "--help"],
        &["--version"],
        &["help"],
        &["list"],
        &["info"],
        &["sum", "f"],
        &["sum", "-c", "SUMS"],
    ] {
        let o = Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .stdout(full())
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        no_panic(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o.stderr));
        assert_eq!(
            text(&o.stderr),
            "keccakx: write error: No space left on device\n",
            "{args:?}"
        );
        if args[0] == "--help" && have("sha256sum") {
            let g = Command::new("sha256sum")
                .arg("--help")
                .stdout(full())
                .output()
                .unwrap();
            assert_eq!(g.status.code(), Some(1));
        }
    }
    // A reader that goes away is not an error (`keccakx --help | head -1`).
    let mut c = Command::new(BIN)
        .arg("--help")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(c.stdout.take());
    let o = c.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(o.stderr, b"");
}

/// Whether `path` is mapped by process `pid` now.
fn mapped_by(pid: u32, path: &Path) -> bool {
    let maps = std::fs::read_to_string(format!("/proc/{pid}/maps")).unwrap_or_default();
    let p = path.to_string_lossy();
    maps.lines().any(|l| l.ends_with(&*p))
}

/// Start keccakx on `args`, wait until it maps `big`, truncate `big` to
/// `cut` bytes, and collect the output. A slow algorithm (raw Keccak, eight
/// bytes per permutation: about a second per 16 MiB window) keeps the
/// window in use long after the truncation.
fn truncate_while_mapped(dir: &Path, args: &[&str], big: &Path, cut: u64) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while !mapped_by(child.id(), big) {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "keccakx never mapped {}",
            big.display()
        );
        if let Ok(Some(st)) = child.try_wait() {
            panic!("keccakx ended before mapping: {st:?}");
        }
        std::thread::sleep(Duration::from_micros(200));
    }
    std::fs::OpenOptions::new()
        .write(true)
        .open(big)
        .unwrap()
        .set_len(cut)
        .unwrap();
    child.wait_with_output().unwrap()
}

const SLOW: &[&str] = &["-a", "keccak", "--rate", "64", "--capacity", "1536"];

#[test]
fn file_truncated_while_mapped_loses_no_other_line() {
    // Was: SIGBUS, exit 135, and SUMS empty (the finished line for `small`
    // lost with the process).
    let dir = scratch("sigbus");
    let small = dir.join("small");
    std::fs::write(&small, b"small file").unwrap();
    let want_small = {
        let o = Command::new(BIN)
            .args(["sum"])
            .args(SLOW)
            .arg("small")
            .current_dir(&dir)
            .output()
            .unwrap();
        text(&o.stdout)
    };
    let big = dir.join("big");
    for (threads, cut) in [("1", 0u64), ("2", (1 << 20) + 100), ("2", 20 << 20)] {
        std::fs::write(&big, vec![0x5Au8; 24 << 20]).unwrap();
        let mut args = vec!["--threads", threads, "sum"];
        args.extend(SLOW);
        args.extend(["small", "big"]);
        let o = truncate_while_mapped(&dir, &args, &big, cut);
        no_panic(&o);
        assert_eq!(
            o.status.code(),
            Some(1),
            "threads {threads} cut {cut}: {o:?}"
        );
        assert_eq!(text(&o.stdout), want_small, "threads {threads} cut {cut}");
        assert_eq!(
            text(&o.stderr),
            "keccakx: big: file shrank while being read\n"
        );
    }
    // `sum -c` the same: small checks OK, big fails alone.
    std::fs::write(&big, vec![0x5Au8; 24 << 20]).unwrap();
    let digest = want_small.split(' ').next().unwrap().to_string();
    std::fs::write(
        dir.join("SUMS"),
        format!("{digest}  small\n{}  big\n", "0".repeat(64)),
    )
    .unwrap();
    let mut args = vec!["sum", "-c"];
    args.extend(SLOW);
    args.push("SUMS");
    let o = truncate_while_mapped(&dir, &args, &big, 0);
    no_panic(&o);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert_eq!(text(&o.stdout), "small: OK\nbig: FAILED open or read\n");
    assert_eq!(
        text(&o.stderr),
        "keccakx: big: file shrank while being read\n\
         keccakx: WARNING: 1 listed file could not be read\n"
    );
}

/// Spawn, drain stdout and stderr, wait with wait4: the output and the
/// child's own peak resident set (KiB).
fn output_and_rss(
    mut child: Child,
    feed: Option<Box<dyn FnOnce() + Send>>,
) -> (Vec<u8>, Vec<u8>, i32, i64) {
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let a = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    let b = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = se.read_to_end(&mut v);
        v
    });
    if let Some(f) = feed {
        f();
    }
    let mut status = 0;
    // SAFETY: wait4 writes only the status and the rusage we pass; the
    // child is ours and not waited for elsewhere.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    assert_eq!(r, pid);
    (a.join().unwrap(), b.join().unwrap(), status, ru.ru_maxrss)
}

#[test]
fn check_reads_line_by_line_in_bounded_memory() {
    let dir = scratch("check-lines");
    std::fs::write(dir.join("f"), b"data").unwrap();
    let good = format!("{}  f\n", hex(&Sha3_256::digest(b"data")));
    // A 100 MB line, then a good one (was: 491 MB resident; GNU 99 MB).
    {
        let mut w = std::io::BufWriter::new(std::fs::File::create(dir.join("LONG")).unwrap());
        let chunk = vec![b'a'; 1 << 20];
        for _ in 0..100 {
            w.write_all(&chunk).unwrap();
        }
        w.write_all(b"\n").unwrap();
        // A long comment is still a comment.
        w.write_all(b"#").unwrap();
        for _ in 0..3 {
            w.write_all(&chunk).unwrap();
        }
        w.write_all(b"\n").unwrap();
        w.write_all(good.as_bytes()).unwrap();
    }
    let child = Command::new(BIN)
        .args(["sum", "-c", "-w", "LONG"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (out, err, status, rss) = output_and_rss(child, None);
    assert_eq!(text(&out), "f: OK\n");
    assert_eq!(
        text(&err),
        "keccakx: LONG: 1: improperly formatted SHA3-256 checksum line\n\
         keccakx: WARNING: 1 line is improperly formatted\n"
    );
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    eprintln!("peak RSS, --check of a 100 MB line: {rss} KiB");
    assert!(rss < 32 * 1024, "peak RSS {rss} KiB");

    // An endless list (was: out of memory): bounded while it runs.
    let mut child = Command::new(BIN)
        .args(["sum", "-c", "/dev/urandom"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(child.try_wait().unwrap().is_none(), "still reading");
    let pid = child.id() as libc::pid_t;
    // SAFETY: signalling our own child.
    unsafe { libc::kill(pid, libc::SIGKILL) };
    let (_, _, _, rss) = output_and_rss(child, None);
    eprintln!("peak RSS, --check /dev/urandom for 1.5 s: {rss} KiB");
    assert!(rss < 32 * 1024, "peak RSS {rss} KiB");
}

#[test]
fn check_from_a_pipe_answers_as_lines_arrive() {
    // Was: nothing printed until EOF.
    let dir = scratch("check-pipe");
    std::fs::write(dir.join("f"), b"data").unwrap();
    std::fs::write(dir.join("g"), b"other").unwrap();
    let mut child = Command::new(BIN)
        .args(["sum", "-c", "-"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut sin = child.stdin.take().unwrap();
    let mut sout = BufReader::new(child.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        for _ in 0..2 {
            let mut l = String::new();
            sout.read_line(&mut l).unwrap();
            tx.send(l).unwrap();
        }
    });
    writeln!(sin, "{}  f", hex(&Sha3_256::digest(b"data"))).unwrap();
    sin.flush().unwrap();
    let first = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("an answer before EOF");
    assert_eq!(first, "f: OK\n");
    writeln!(sin, "{}  g", hex(&Sha3_256::digest(b"data"))).unwrap();
    sin.flush().unwrap();
    let second = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("a second answer before EOF");
    assert_eq!(second, "g: FAILED\n");
    drop(sin);
    reader.join().unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        text(&o.stderr),
        "keccakx: WARNING: 1 computed checksum did NOT match\n"
    );
}

#[test]
fn check_never_echoes_nul_or_control_bytes() {
    let dir = scratch("check-nul");
    std::fs::write(dir.join("f"), b"data").unwrap();
    std::fs::write(dir.join(OsStr::new("e\x1b[2Jx")), b"data").unwrap();
    let h = hex(&Sha3_256::digest(b"data"));
    // `HASH  f\0junk`: was echoed with the raw NUL. No file name holds a
    // NUL, so the line is improperly formatted.
    let mut list = format!("{h}  f\0junk\n").into_bytes();
    list.extend(format!("{h}  e\x1b[2Jx\n").as_bytes());
    list.extend(format!("SHA3-256 (f\0x) = {h}\n").as_bytes());
    std::fs::write(dir.join("SUMS"), &list).unwrap();
    let o = Command::new(BIN)
        .args(["sum", "-c", "-w", "SUMS"])
        .current_dir(&dir)
        .output()
        .unwrap();
    no_panic(&o);
    assert!(
        !o.stdout.iter().any(|&c| c < 0x20 && c != b'\n'),
        "{:?}",
        text(&o.stdout)
    );
    assert_eq!(text(&o.stdout), "\\e\\x1b[2Jx: OK\n");
    assert_eq!(
        text(&o.stderr),
        "keccakx: SUMS: 1: improperly formatted SHA3-256 checksum line\n\
         keccakx: SUMS: 3: improperly formatted SHA3-256 checksum line\n\
         keccakx: WARNING: 2 lines are improperly formatted\n"
    );
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn many_files_under_a_low_open_file_limit() {
    // Was: `ulimit -n 256; keccakx --threads 1024 sum` over 20,000 files
    // failed 572 of them with EMFILE.
    let dir = scratch("emfile");
    let n = 20_000;
    let mut names = Vec::with_capacity(n);
    for i in 0..n {
        let name = format!("f{i:05}");
        std::fs::write(dir.join(&name), (i as u32).to_le_bytes().repeat(1024)).unwrap();
        names.push(name);
    }
    let mut c = Command::new(BIN);
    c.args(["--threads", "1024", "sum", "-a", "kt128"])
        .args(&names)
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: setrlimit is async-signal-safe; it limits the child alone.
    unsafe {
        c.pre_exec(|| {
            let r = libc::rlimit {
                rlim_cur: 256,
                rlim_max: 256,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &r) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let o = c.output().unwrap();
    no_panic(&o);
    assert_eq!(text(&o.stderr), "");
    assert_eq!(o.status.code(), Some(0));
    let lines: Vec<&str> = std::str::from_utf8(&o.stdout).unwrap().lines().collect();
    assert_eq!(lines.len(), n);
    for (i, l) in [0usize, 1, 9_999, 19_999].iter().map(|&i| (i, lines[i])) {
        let data = (i as u32).to_le_bytes().repeat(1024);
        assert_eq!(l, format!("{}  f{i:05}", hex(&kt128(&data))));
    }
}

/// KT128 of `data`, 32 bytes.
fn kt128(data: &[u8]) -> Vec<u8> {
    let mut k = keccakx::rfc9861::Kt128::new(b"");
    k.update(data);
    k.finalize_vec(32)
}

#[test]
fn empty_kmac_keys_are_refused_unless_allowed() {
    let dir = scratch("kmac-key");
    std::fs::write(dir.join("f"), b"data").unwrap();
    std::fs::write(dir.join("empty"), b"").unwrap();
    let run = |args: &[&str]| {
        let o = Command::new(BIN)
            .args(args)
            .current_dir(&dir)
            .output()
            .unwrap();
        no_panic(&o);
        o
    };
    let o = run(&["sum", "-a", "kmac128", "--key-hex", "", "f"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(o.stdout, b"");
    assert!(
        text(&o.stderr).contains("--key-hex: the key is empty"),
        "{}",
        text(&o.stderr)
    );
    assert!(text(&o.stderr).contains("--allow-empty-key"));
    let o = run(&["sum", "-a", "kmac256", "--key-file", "empty", "f"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--key-file empty: the file is empty"));
    // Explicitly allowed: the keyless MAC, the same from both options.
    let a = run(&[
        "sum",
        "-a",
        "kmac128",
        "--key-hex",
        "",
        "--allow-empty-key",
        "f",
    ]);
    let b = run(&[
        "sum",
        "-a",
        "kmac128",
        "--key-file",
        "empty",
        "--allow-empty-key",
        "f",
    ]);
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(a.stdout, b.stdout);
    let mut k = keccakx::sp800_185::Kmac128::new(b"", b"");
    k.update(b"data");
    assert_eq!(
        text(&a.stdout),
        format!("{}  f\n", hex(&k.finalize_vec(32)))
    );
    // No key at all: the message names options that exist.
    let o = run(&["sum", "-a", "kmac128", "f"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        text(&o.stderr),
        "keccakx: -a kmac128: KMAC128 needs --key-hex or --key-file\n"
    );
}

/// Feed `chunks` to the child's stdin with `pause` between them.
fn slow_feeder(
    mut w: std::process::ChildStdin,
    chunks: usize,
    pause: Duration,
) -> Box<dyn FnOnce() + Send> {
    Box::new(move || {
        let block = vec![7u8; 1 << 20];
        for _ in 0..chunks {
            std::thread::sleep(pause);
            if w.write_all(&block).is_err() {
                return;
            }
        }
    })
}

#[test]
fn progress_goes_to_stderr_only() {
    // --progress into a pipe: lines on stderr (one a second, and the
    // totals at the end); stdout carries the checksum line alone.
    let mut child = Command::new(BIN)
        .args(["sum", "--progress", "-a", "kt128", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let feed = slow_feeder(child.stdin.take().unwrap(), 3, Duration::from_millis(700));
    let (out, err, status, _) = output_and_rss(child, Some(feed));
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0);
    assert_eq!(
        text(&out),
        format!("{}  -\n", hex(&kt128(&vec![7u8; 3 << 20])))
    );
    let err = text(&err);
    let lines: Vec<&str> = err.lines().collect();
    assert!(lines.len() >= 2, "{err:?}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("keccakx: ") && l.contains("/s")),
        "{err:?}"
    );
    assert!(
        lines.last().unwrap().contains("3.00 MiB") && lines.last().unwrap().contains("done in"),
        "{err:?}"
    );
    assert!(!err.contains('\r'));

    // Without --progress and stderr not a terminal: nothing.
    let dir = scratch("progress");
    std::fs::write(dir.join("f"), vec![1u8; 4 << 20]).unwrap();
    let o = Command::new(BIN)
        .args(["sum", "f"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert_eq!(o.stderr, b"");
    // --progress with a known size: percent and the total.
    let o = Command::new(BIN)
        .args(["sum", "--progress", "f", "f"])
        .current_dir(&dir)
        .output()
        .unwrap();
    let e = text(&o.stderr);
    assert!(
        e.contains("100% 8.00 MiB / 8.00 MiB") && e.contains("2/2 files"),
        "{e:?}"
    );
    assert_eq!(text(&o.stdout).lines().count(), 2);
}

/// A pseudo-terminal pair: (controller, device path).
fn pty() -> (std::fs::File, PathBuf) {
    use std::os::fd::FromRawFd;
    // SAFETY: openpty writes the two descriptors it opens.
    let (mut m, mut s) = (0, 0);
    let r = unsafe {
        libc::openpty(
            &mut m,
            &mut s,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(r, 0, "openpty");
    let path = std::fs::read_link(format!("/proc/self/fd/{s}")).unwrap();
    // SAFETY: both descriptors were just opened for us.
    unsafe { libc::close(s) };
    (unsafe { std::fs::File::from_raw_fd(m) }, path)
}

/// Run keccakx with stderr on a terminal; what the terminal received.
fn on_tty(args: &[&str], chunks: usize, pause: Duration) -> (String, String) {
    let (mut ctl, dev) = pty();
    let _ = &mut ctl;
    let tty = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&dev)
        .unwrap();
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(tty)
        .spawn()
        .unwrap();
    let feed = slow_feeder(child.stdin.take().unwrap(), chunks, pause);
    let mut so = child.stdout.take().unwrap();
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = so.read_to_end(&mut v);
        v
    });
    // The terminal's side, read until the last writer closes it (EIO).
    let term = std::thread::spawn(move || {
        let mut seen = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = ctl.read(&mut buf) {
            if n == 0 {
                break;
            }
            seen.extend_from_slice(&buf[..n]);
        }
        seen
    });
    feed();
    let st = child.wait().unwrap();
    assert!(st.success());
    (text(&out.join().unwrap()), text(&term.join().unwrap()))
}

#[test]
fn progress_on_a_terminal() {
    // Forced: drawn in place at once, erased at the end.
    let (out, tty) = on_tty(&["sum", "--progress", "-"], 3, Duration::from_millis(300));
    assert!(
        out.ends_with("  -\n") && out.lines().count() == 1,
        "{out:?}"
    );
    assert!(
        tty.contains("\rkeccakx: ") && tty.contains("\x1b[K"),
        "{tty:?}"
    );
    assert!(tty.ends_with("\r\x1b[K"), "{tty:?}");
    // Automatic: nothing for a short run ...
    let (_, tty) = on_tty(&["sum", "-"], 1, Duration::from_millis(10));
    assert_eq!(tty, "");
    // ... something for a run of several seconds (no size known: after 3 s).
    let (_, tty) = on_tty(&["sum", "-"], 5, Duration::from_millis(800));
    assert!(tty.contains("\rkeccakx: "), "{tty:?}");
    // --no-progress: never.
    let (_, tty) = on_tty(
        &["sum", "--no-progress", "-"],
        5,
        Duration::from_millis(800),
    );
    assert_eq!(tty, "");
}
