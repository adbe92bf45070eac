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
