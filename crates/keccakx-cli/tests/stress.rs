//! The CLI when threads, memory or descriptors run short, and the output a
//! stressed run leaves: limits are set in the child (setrlimit), as an
//! unprivileged user when the tests run as root, since root is
//! exempt from the limit on processes. The rule everywhere: exit 0 with
//! the right digests, or a clear error and exit 1; never a signal, never a
//! panic, never exit 0 with missing output.

mod common;

use common::*;

use keccakx::fips202::{Sha3_256, Sha3_512};

#[test]
fn no_threads_to_spare_hashes_on_the_calling_thread() {
    // `ulimit -u 3` as an unprivileged user: rayon's pool, the read-ahead
    // thread, or both cannot be spawned; the pool was used unbuilt
    // (SIGABRT, "global thread pool has not been initialized").
    let d = Scratch::new("nproc");
    let big = d.random_file("20m", 20 << 20, 1);
    let want_big = hex(&Sha3_256::digest(&big));
    let abc = hex(&Sha3_256::digest(b"abc"));
    for nproc in [1, 2, 3, 4, 6] {
        let lim = [Limit::Nproc(nproc)];
        let o = d.run(&["sum"], &lim, b"abc");
        assert_clean(&o, 0);
        assert_eq!(text(&o.stdout), format!("{abc}  -\n"), "nproc {nproc}");
        let o = d.run(&["sum", "20m"], &lim, b"");
        assert_clean(&o, 0);
        assert_eq!(
            text(&o.stdout),
            format!("{want_big}  20m\n"),
            "nproc {nproc}"
        );
        let o = d.run(&["info"], &lim, b"");
        assert_clean(&o, 0);
        assert!(text(&o.stdout).contains("threads: "));
        // Asked for more than could start: said once, on stderr.
        let o = d.run(&["sum", "--threads", "64", "20m"], &lim, b"");
        assert_clean(&o, 0);
        assert_eq!(text(&o.stdout), format!("{want_big}  20m\n"));
        let e = text(&o.stderr);
        assert!(e.matches("could start only").count() == 1, "{e}");
    }
    // Threads whose stacks do not fit the address space.
    let o = d.run(
        &["sum", "--threads", "300", "20m"],
        &[Limit::As(1_000_000)],
        b"",
    );
    assert_clean(&o, 0);
    assert_eq!(text(&o.stdout), format!("{want_big}  20m\n"));
}

#[test]
fn thread_count_from_the_environment_is_capped() {
    let d = Scratch::new("rayon-env");
    let t0 = std::time::Instant::now();
    let o = d
        .cmd(&["info"])
        .env("RAYON_NUM_THREADS", "100000")
        .output()
        .unwrap();
    assert_clean(&o, 0);
    assert!(
        text(&o.stdout).contains("threads: 1024 "),
        "{}",
        text(&o.stdout)
    );
    assert!(t0.elapsed().as_secs() < 20, "{:?}", t0.elapsed());
}

#[test]
fn short_address_space_falls_back_to_smaller_buffers_and_reads() {
    // `ulimit -v 15000`: the 2 MiB read buffer could not be allocated
    // (abort); `ulimit -v 30000..40000`: a later 16 MiB window could not
    // be mapped (exit 1 where --no-mmap worked).
    let d = Scratch::new("as");
    let f20 = d.random_file("20m", 20 << 20, 2);
    let f40 = d.random_file("40m", 40 << 20, 3);
    let want = format!(
        "{}  20m\n{}  40m\n",
        hex(&Sha3_256::digest(&f20)),
        hex(&Sha3_256::digest(&f40))
    );
    // (Tighter than ~16000 KiB, with the object-store client linked in,
    // the process does not get to `main`: the loader fails, exit 127;
    // tighter still, the start-up faults before any of our code runs.)
    for kib in [12_000, 20_000, 30_000, 40_000] {
        for extra in [&[][..], &["--no-mmap"][..], &["--threads", "1"][..]] {
            let mut args = vec!["sum", "20m", "40m"];
            args.extend_from_slice(extra);
            let o = d.run(&args, &[Limit::As(kib)], b"");
            if o.status.code() == Some(127) && text(&o.stderr).contains("loading shared libraries")
            {
                continue;
            }
            assert_no_signal(&o);
            if o.status.code() == Some(0) {
                assert_eq!(text(&o.stdout), want, "-v {kib} {extra:?}");
            } else {
                // Too tight to start at all is allowed, a wrong digest never.
                assert_clean(&o, 1);
                assert!(want.starts_with(&text(&o.stdout)) || o.stdout.is_empty());
            }
        }
    }
    // From 20000 KiB on, the files hash (30000-40000 KiB: the
    // reproducers): glibc keeps to one arena under such a limit (oom.rs),
    // and no more threads start than their stacks fit (pool.rs).
    for kib in [20_000, 30_000, 40_000] {
        let o = d.run(&["sum", "20m", "40m"], &[Limit::As(kib)], b"");
        assert_clean(&o, 0);
        assert_eq!(text(&o.stdout), want, "-v {kib}");
    }
}

#[test]
fn algorithm_given_restricts_check() {
    let d = Scratch::new("check-a");
    d.write("abc", b"abc");
    // A one-byte SHAKE128 line must not pass a SHA3-512 check.
    d.write("L1", b"SHAKE128 (abc) = 58\n");
    let o = d.run(&["sum", "-a", "sha3-512", "-c", "L1"], &[], b"");
    assert_clean(&o, 1);
    assert_eq!(o.stdout, b"");
    assert!(text(&o.stderr).contains("no properly formatted checksum lines"));
    // Without -a the line keeps its own algorithm (and is right).
    let o = d.run(&["sum", "-c", "L1"], &[], b"");
    assert_clean(&o, 0);
    assert_eq!(text(&o.stdout), "abc: OK\n");
    // A mixed list under -a: only the -a lines are checked.
    let l = format!(
        "SHA3-512 (abc) = {}\nSHA3-256 (abc) = {}\n",
        hex(&Sha3_512::digest(b"abc")),
        hex(&Sha3_256::digest(b"abc"))
    );
    d.write("L2", l.as_bytes());
    let o = d.run(&["sum", "-a", "sha3-512", "-c", "L2"], &[], b"");
    assert_clean(&o, 0);
    assert_eq!(text(&o.stdout), "abc: OK\n");
    assert!(text(&o.stderr).contains("1 line is improperly formatted"));
    let o = d.run(&["sum", "-a", "sha3-512", "--strict", "-c", "L2"], &[], b"");
    assert_eq!(o.status.code(), Some(1));
    // -a shake128: a digest shorter than its default only with -l.
    let o = d.run(&["sum", "-a", "shake128", "-c", "L1"], &[], b"");
    assert_eq!(o.status.code(), Some(1));
    let o = d.run(&["sum", "-a", "shake128", "-l", "1", "-c", "L1"], &[], b"");
    assert_clean(&o, 0);
}

#[test]
fn check_report_escapes_c1_controls_and_invalid_utf8() {
    let d = Scratch::new("check-c1");
    let mut list = Vec::new();
    for name in [&b"c1\xc2\x9b2J"[..], &b"raw\x9b2J"[..], &b"ok\xc3\xb6"[..]] {
        d.write_bytes_name(name, b"x");
        list.extend_from_slice(hex(&Sha3_256::digest(b"x")).as_bytes());
        list.extend_from_slice(b"  ");
        list.extend_from_slice(name);
        list.push(b'\n');
    }
    d.write("L", &list);
    let o = d.run(&["sum", "-c", "L"], &[], b"");
    assert_clean(&o, 0);
    assert_eq!(
        o.stdout,
        b"\\c1\\xc2\\x9b2J: OK\n\\raw\\x9b2J: OK\n"
            .iter()
            .chain("ok\u{f6}: OK\n".as_bytes())
            .copied()
            .collect::<Vec<u8>>()
    );
}

#[test]
fn read_only_stdout_is_a_write_error() {
    // `keccakx sum f 1<f`: every write fails with EBADF, which Rust's
    // stdout took for success (nothing printed, exit 0).
    let d = Scratch::new("ro-stdout");
    let f = d.write("f", b"data");
    d.write(
        "L",
        format!("{}  f\n", hex(&Sha3_256::digest(b"data"))).as_bytes(),
    );
    for args in [
        &["sum", "f"][..],
        &["sum", "-c", "L"][..],
        &["list"][..],
        &["--help"][..],
        &["sum", "--raw", "f"][..],
    ] {
        let o = d
            .cmd(args)
            .stdout(std::fs::File::open(&f).unwrap())
            .output()
            .unwrap();
        assert_clean(&o, 1);
        assert_eq!(
            text(&o.stderr),
            "keccakx: write error: Bad file descriptor\n",
            "{args:?}"
        );
    }
}

#[test]
fn write_only_stdin_is_a_read_error() {
    // `keccakx sum 0>file`: the empty input's digest was printed, exit 0.
    let d = Scratch::new("wo-stdin");
    let f = d.write("f", b"");
    let wo = || std::fs::OpenOptions::new().write(true).open(&f).unwrap();
    let o = d.cmd(&["sum"]).stdin(wo()).output().unwrap();
    assert_clean(&o, 1);
    assert_eq!(o.stdout, b"");
    assert_eq!(text(&o.stderr), "keccakx: -: Bad file descriptor\n");
    let o = d.cmd(&["sum", "-c"]).stdin(wo()).output().unwrap();
    assert_clean(&o, 1);
    assert_eq!(
        text(&o.stderr),
        "keccakx: 'standard input': read error: Bad file descriptor\n"
    );
    // `keccakx merkle` reads its values or dump from standard input alike.
    for args in [
        &["merkle", "build", "--types", "address,uint256"][..],
        &["merkle", "root", "-"][..],
    ] {
        let o = d.cmd(args).stdin(wo()).output().unwrap();
        assert_clean(&o, 1);
        assert_eq!(o.stdout, b"", "{args:?}");
        assert_eq!(
            text(&o.stderr),
            "keccakx: standard input: Bad file descriptor\n",
            "{args:?}"
        );
    }
}

/// A pipe: (read end, write end).
fn pipe() -> (std::fs::File, std::os::fd::OwnedFd) {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: pipe writes two new descriptors, owned from here on.
    // Close-on-exec: children spawned by the tests beside this one must
    // not inherit it (a descriptor they hold counts against `ulimit -n`).
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    unsafe {
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::os::fd::OwnedFd::from_raw_fd(fds[1]),
        )
    }
}

#[test]
fn concurrent_writers_into_one_slow_pipe_leave_whole_lines() {
    // `ls | xargs -P 4 keccakx sum | slow-reader`: writes above PIPE_BUF
    // are not atomic, and lines from the processes interleaved; SIGTERM
    // during a large write left half a line. Now: whole lines, each
    // right, whatever is killed when.
    use std::io::Read;
    let d = Scratch::new("pipe");
    let mut want = std::collections::HashMap::new();
    let mut names = Vec::new();
    for i in 0..240 {
        // Long names: 300 files' lines are ~60 KiB, well above PIPE_BUF.
        let name = format!("{i:03}-{}", "n".repeat(120 + i % 50));
        let body = format!("file {i}");
        d.write(&name, body.as_bytes());
        want.insert(name.clone(), hex(&Sha3_256::digest(body.as_bytes())));
        names.push(name);
    }
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for round in 0..3 {
        let (mut r, w) = pipe();
        let mut kids = Vec::new();
        for _ in 0..4 {
            let mut c = d.cmd(&["sum", "--threads", "1"]);
            c.args(&names).stdout(w.try_clone().unwrap());
            kids.push(c.spawn().unwrap());
        }
        drop(w);
        let reader = std::thread::spawn(move || {
            let mut all = Vec::new();
            let mut b = [0u8; 700];
            loop {
                match r.read(&mut b) {
                    Ok(0) | Err(_) => return all,
                    Ok(n) => all.extend_from_slice(&b[..n]),
                }
                std::thread::sleep(std::time::Duration::from_micros(300));
            }
        });
        // From the second round on, kill two writers at random moments.
        if round > 0 {
            for (k, sig) in [(1, libc::SIGTERM), (3, libc::SIGINT)] {
                std::thread::sleep(std::time::Duration::from_millis(rnd() % 40));
                // SAFETY: signals a child of ours that has not been waited for.
                unsafe { libc::kill(kids[k].id() as i32, sig) };
            }
        }
        let mut complete = 0;
        for mut k in kids {
            let s = k.wait().unwrap();
            if s.success() {
                complete += 1;
            }
        }
        let all = reader.join().unwrap();
        assert!(all.is_empty() || all.ends_with(b"\n"), "partial last line");
        let mut lines = 0;
        for line in text(&all).lines() {
            let (digest, name) = line.split_once("  ").unwrap_or_else(|| panic!("{line:?}"));
            assert_eq!(want.get(name), Some(&digest.to_string()), "line {line:?}");
            lines += 1;
        }
        assert!(
            lines >= complete * names.len(),
            "{lines} lines, {complete} complete"
        );
    }
}

#[test]
fn resource_limit_matrix() {
    // Every subcommand under few processes, little address space, few
    // descriptors and a small output file: exit 0 with the right output,
    // or a clear error and exit 1; never a signal, never a partial line,
    // never exit 0 with output missing.
    let d = Scratch::new("matrix");
    let big = d.random_file("big", 3 << 20, 7);
    d.write("abc", b"abc");
    let sums = format!(
        "{}  big\n{}  abc\n",
        hex(&Sha3_256::digest(&big)),
        hex(&Sha3_256::digest(b"abc"))
    );
    d.write("L", sums.as_bytes());
    let ok_check = "big: OK\nabc: OK\n".to_string();
    // An outboard and a Merkle tree made without limits, for `verify` and
    // `merkle root` under them.
    let made = d.run(
        &["sum", "-a", "kt128", "--outboard", "big.kto", "big"],
        &[],
        b"",
    );
    assert_clean(&made, 0);
    let kt = text(&made.stdout);
    let kt_digest = kt.split_whitespace().next().unwrap().to_string();
    let values: String = (1..=40)
        .map(|i| format!("0x{i:040x},{}\n", i * 7))
        .collect();
    d.write("values.csv", values.as_bytes());
    let tree = d.run(
        &[
            "merkle",
            "build",
            "--types",
            "address,uint256",
            "values.csv",
        ],
        &[],
        b"",
    );
    assert_clean(&tree, 0);
    d.write("tree.json", &tree.stdout);
    let cases: Vec<(Vec<&str>, Option<String>)> = vec![
        (vec!["sum", "big", "abc"], Some(sums.clone())),
        (vec!["sum", "-c", "L"], Some(ok_check)),
        (vec!["sum", "-a", "kt128", "big"], None),
        // Writes a file of its own: the output-size limit bites here.
        (
            vec!["sum", "-a", "kt128", "--outboard", "o.kto", "big"],
            Some(kt.clone()),
        ),
        (vec!["verify", "--digest", &kt_digest, "big"], None),
        (
            vec![
                "merkle",
                "build",
                "--types",
                "address,uint256",
                "values.csv",
            ],
            None,
        ),
        (vec!["merkle", "root", "tree.json"], None),
        (vec!["list"], None),
        (vec!["info"], None),
        (vec!["--help"], None),
    ];
    let mut limits: Vec<Limit> = Vec::new();
    limits.extend([2, 4, 8].map(Limit::Nproc));
    limits.extend([20_000, 60_000].map(Limit::As));
    limits.extend([3, 5, 8].map(Limit::Nofile));
    limits.extend([1024, 65_536].map(Limit::Fsize));
    for (args, want) in &cases {
        let full = d.run(args, &[], b"").stdout;
        for &l in &limits {
            let o = d.run(args, &[l], b"");
            if o.status.code() == Some(127) && text(&o.stderr).contains("loading shared libraries")
            {
                continue;
            }
            assert_no_signal(&o);
            let code = o.status.code();
            assert!(
                matches!(code, Some(0) | Some(1)),
                "{args:?} {l:?}: {code:?}"
            );
            assert!(
                o.stdout.is_empty() || o.stdout.ends_with(b"\n"),
                "{args:?} {l:?}: partial line"
            );
            if code == Some(0) {
                // (`info` reports the threads it got.)
                if args[0] != "info" {
                    assert_eq!(o.stdout, full, "{args:?} {l:?}: exit 0 with other output");
                }
                if let Some(w) = want {
                    assert_eq!(&text(&o.stdout), w, "{args:?} {l:?}");
                }
            } else {
                assert!(
                    !o.stderr.is_empty(),
                    "{args:?} {l:?}: exit 1 without a message"
                );
                assert!(
                    args[0] == "info" || full.starts_with(&o.stdout),
                    "{args:?} {l:?}: wrong output"
                );
            }
        }
    }
}

#[test]
fn no_free_descriptor_fails_each_file_at_once() {
    // `ulimit -n 4; keccakx sum -c LIST` waited 50 × 20 ms per file.
    let d = Scratch::new("nofile");
    let mut list = String::new();
    for i in 0..50 {
        let name = format!("f{i}");
        d.write(&name, b"x");
        list += &format!("{}  {name}\n", hex(&Sha3_256::digest(b"x")));
    }
    d.write("L", list.as_bytes());
    let t0 = std::time::Instant::now();
    let o = d.run(&["sum", "-c", "L"], &[Limit::Nofile(4)], b"");
    assert_clean(&o, 1);
    assert!(t0.elapsed().as_secs_f64() < 5.0, "{:?}", t0.elapsed());
    assert!(
        text(&o.stderr).contains("Too many open files"),
        "{}",
        text(&o.stderr)
    );
}

/// TupleHash128 (no customization, 32 bytes) of `data` as one element.
fn tuplehash128(data: &[u8]) -> String {
    let mut t = keccakx::sp800_185::TupleHash128::new(b"");
    t.push(data);
    hex(&t.finalize_vec(32))
}

#[test]
fn tuplehash_reads_files_that_misreport_their_size_to_the_end() {
    // sysfs files report 4096 bytes and hold fewer: TupleHash, which puts
    // the length first, refused them ("file changed size while being
    // read") where every other algorithm hashed them.
    let candidates = [
        "/sys/kernel/mm/transparent_hugepage/enabled",
        "/sys/devices/system/cpu/online",
        "/sys/kernel/profiling",
    ];
    let Some((path, held)) = candidates.iter().find_map(|p| {
        let held = std::fs::read(p).ok()?;
        let reported = std::fs::metadata(p).ok()?.len();
        (reported as usize != held.len()).then_some((*p, held))
    }) else {
        eprintln!("no sysfs file whose size misreports its content: skipped");
        return;
    };
    let d = Scratch::new("sysfs");
    for args in [
        &["sum", "-a", "tuplehash128", path][..],
        &["sum", "-a", "tuplehash128", "--no-mmap", path],
    ] {
        let o = d.cmd(args).output().unwrap();
        assert_clean(&o, 0);
        assert_eq!(
            text(&o.stdout),
            format!("{}  {path}\n", tuplehash128(&held))
        );
    }
    // The same file on standard input.
    let o = d
        .cmd(&["sum", "-a", "tuplehash128"])
        .stdin(std::fs::File::open(path).unwrap())
        .output()
        .unwrap();
    assert_clean(&o, 0);
    assert_eq!(text(&o.stdout), format!("{}  -\n", tuplehash128(&held)));
}

#[test]
fn tuplehash_from_a_regular_file_on_stdin_streams_it() {
    // TupleHash from standard input held all of it in memory even when
    // standard input is a regular file (300 MiB → 310 MB resident; failed
    // under `ulimit -v 250000`): its size is known, so it is streamed.
    let d = Scratch::new("tuple-stdin");
    let path = d.dir.join("zeros");
    std::fs::File::create(&path)
        .unwrap()
        .set_len(100 << 20)
        .unwrap();
    let o = d
        .cmd(&["sum", "-a", "tuplehash128", "zeros"])
        .output()
        .unwrap();
    assert_clean(&o, 0);
    let want = text(&o.stdout).replace("zeros", "-");
    let mut c = d.cmd(&["sum", "-a", "tuplehash128"]);
    limit(&mut c, &[Limit::As(60_000)]);
    let o = c
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    assert_clean(&o, 0);
    assert_eq!(text(&o.stdout), want);
    // From where standard input stands, not from the file's start.
    let data = d.random_file("r", 5000, 7);
    let mut f = std::fs::File::open(d.dir.join("r")).unwrap();
    std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(1234)).unwrap();
    let o = d
        .cmd(&["sum", "-a", "tuplehash128"])
        .stdin(f)
        .output()
        .unwrap();
    assert_clean(&o, 0);
    assert_eq!(
        text(&o.stdout),
        format!("{}  -\n", tuplehash128(&data[1234..]))
    );
}
