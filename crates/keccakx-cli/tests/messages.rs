//! Names, messages and exit statuses at the edges: the `sha3sum` link's
//! version and statuses, engine names from the environment, names with a
//! newline in errors, malformed algorithm names, a capacity larger than
//! the permutation, the KMAC key from standard input.

mod common;

use common::*;
use std::os::unix::ffi::OsStrExt;

/// The binary through a link named `sha3sum`, in `d`.
fn sha3sum_link(d: &Scratch) -> std::path::PathBuf {
    let link = d.dir.join("sha3sum");
    std::os::unix::fs::symlink(&d.bin, &link).unwrap();
    link
}

#[test]
fn sha3sum_link_has_its_version_numbers_and_statuses() {
    let d = Scratch::new("sha3sum-link");
    d.write("f", b"abc");
    let link = sha3sum_link(&d);
    let run = |args: &[&str]| {
        let o = std::process::Command::new(&link)
            .args(args)
            .current_dir(&d.dir)
            .output()
            .unwrap();
        assert_no_signal(&o);
        o
    };
    // sha3sum -v prints its version, exit 0.
    let o = run(&["-v"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains(env!("CARGO_PKG_VERSION")));
    // A file named -v after `--` stays a file.
    let o = run(&["--", "-v"]);
    assert_eq!(o.status.code(), Some(1));
    // -a 0256 is 256, as sha3sum compares numbers.
    let o = run(&["-a", "0256", "f"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532  f\n"
    );
    // Usage errors exit 1, as sha3sum and coreutils.
    for args in [
        &["--bogus"][..],
        &["-a", "999", "f"],
        &["-a", "256", "-l", "x", "f"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", text(&o.stderr));
    }
    // keccakx itself keeps 2 for invalid arguments, apart from 1, a failed file.
    let o = d.cmd(&["sum", "-a", "999x", "f"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
    let o = d.cmd(&["sum", "--bogus"]).output().unwrap();
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn engine_from_the_environment_not_utf8_warns_and_names_ignore_case() {
    let d = Scratch::new("engine-env");
    let o = d
        .cmd(&["info"])
        .env("KECCAKX_ENGINE", std::ffi::OsStr::from_bytes(b"sc\xffalar"))
        .output()
        .unwrap();
    assert_clean(&o, 0);
    let e = text(&o.stderr);
    assert!(
        e.contains("KECCAKX_ENGINE") && e.contains("not UTF-8"),
        "{e}"
    );
    let o = d
        .cmd(&["info"])
        .env("KECCAKX_ENGINE", "Scalar")
        .output()
        .unwrap();
    assert_clean(&o, 0);
    assert_eq!(text(&o.stderr), "");
    assert!(
        text(&o.stdout).contains("KECCAKX_ENGINE=scalar"),
        "{}",
        text(&o.stdout)
    );
    let o = d.cmd(&["--engine", "SCALAR", "sum"]).output().unwrap();
    assert_clean(&o, 0);
}

#[test]
fn names_with_a_newline_are_quoted_in_errors() {
    let d = Scratch::new("nl-names");
    for args in [&["sum", "-a", "a\nb"][..], &["--engine", "a\nb", "sum"]] {
        let o = d.cmd(args).output().unwrap();
        assert_clean(&o, 2);
        let e = text(&o.stderr);
        assert_eq!(e.lines().count(), 1, "{args:?}: {e}");
        assert!(e.contains(r"'a'$'\n''b'"), "{e}");
    }
}

#[test]
fn malformed_algorithm_names_are_refused() {
    let d = Scratch::new("alg-names");
    for bad in [
        "skein512-",
        "-skein512x",
        "skein--512",
        "sha3_256_",
        "sha3-_256",
    ] {
        let o = d
            .cmd(&["sum", &format!("--algorithm={bad}")])
            .output()
            .unwrap();
        assert_clean(&o, 2);
        assert!(
            text(&o.stderr).contains("unknown algorithm"),
            "{bad}: {}",
            text(&o.stderr)
        );
    }
    for good in [
        "skein512-256",
        "Skein_512",
        "SHA3-256",
        "sha3_256",
        "skein-256",
    ] {
        let o = d.cmd(&["sum", "-a", good]).output().unwrap();
        assert_clean(&o, 0);
    }
    let o = d.cmd(&["list"]).output().unwrap();
    assert!(text(&o.stdout).contains("skein256 = skein-256 = Skein-256-256"));
}

#[test]
fn a_capacity_wider_than_the_permutation_says_so() {
    let d = Scratch::new("capacity");
    for c in ["18446744073709551615", "1601"] {
        let o = d
            .cmd(&["sum", "-a", "keccak", "--capacity", c])
            .output()
            .unwrap();
        assert_clean(&o, 2);
        let e = text(&o.stderr);
        assert!(
            e.contains("--capacity must be less than the permutation's width")
                && !e.contains("rate 0"),
            "{e}"
        );
    }
}

#[test]
fn key_file_dash_reads_the_key_from_stdin() {
    let d = Scratch::new("key-stdin");
    d.write("k", b"secret key");
    d.write("m", b"message");
    let o = d
        .cmd(&["sum", "-a", "kmac256", "--key-file", "k", "m"])
        .output()
        .unwrap();
    assert_clean(&o, 0);
    let o2 = d
        .cmd(&["sum", "-a", "kmac256", "--key-file", "-", "m"])
        .stdin(std::fs::File::open(d.dir.join("k")).unwrap())
        .output()
        .unwrap();
    assert_clean(&o2, 0);
    assert_eq!(text(&o2.stdout), text(&o.stdout));
    // Standard input cannot be the key and an input at once.
    let o = d
        .cmd(&["sum", "-a", "kmac256", "--key-file", "-"])
        .output()
        .unwrap();
    assert_clean(&o, 2);
    assert!(
        text(&o.stderr).contains("--key-file -"),
        "{}",
        text(&o.stderr)
    );
}
