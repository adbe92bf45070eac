//! Go interop for portable states: Go's `crypto/sha3` exports a state
//! (`MarshalBinary`) after a message prefix, or mid-output, keccakx
//! continues it; and keccakx exports, Go continues (`UnmarshalBinary`).
//! Both ways give the one-shot digest. Needs the `go` tool (Go 1.24+);
//! without it the test says so and passes.

use std::path::PathBuf;
use std::process::Command;

use keccakx::registry::state::{from_go_state, Imported};
use keccakx::registry::{Hasher, Params};

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn go_binary() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("go-sha3-state");
    std::fs::create_dir_all(&dir).ok()?;
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/go/main.go");
    let bin = dir.join("gostate");
    let built = Command::new("go")
        .args(["build", "-o"])
        .arg(&bin)
        .arg(&src)
        .env("GOFLAGS", "-mod=mod")
        .env("GO111MODULE", "off")
        .status()
        .ok()?;
    built.success().then_some(bin)
}

fn go(bin: &PathBuf, args: &[&str]) -> String {
    let o = Command::new(bin).args(args).output().unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap().trim().to_string()
}

#[test]
fn go_and_keccakx_continue_each_others_states() {
    let Some(bin) = go_binary() else {
        eprintln!(
            "SKIPPED: the `go` tool (Go 1.24+) is not available: Go state interop not tested"
        );
        return;
    };
    let cases: &[(&str, &str, &str)] = &[
        ("sha3-224", "", ""),
        ("sha3-256", "", ""),
        ("sha3-384", "", ""),
        ("sha3-512", "", ""),
        ("shake128", "", ""),
        ("shake256", "", ""),
        ("cshake128", "Fn", "custom"),
        ("cshake256", "", "S"),
    ];
    for &(name, n, s) in cases {
        let p = Params {
            function_name: n.as_bytes().to_vec(),
            customization: s.as_bytes().to_vec(),
            length: name.contains("shake").then_some(77),
            ..Params::default()
        };
        let proto = Hasher::new(name, &p).unwrap();
        let r = proto.rate_bytes();
        let xof = name.contains("shake");
        for split in [0, 1, r - 1, r, r + 1, 2 * r + 5] {
            let m: Vec<u8> = (0..split + 40).map(|i| (i * 7 + 3) as u8).collect();
            let (a, b) = m.split_at(split);
            let mut one = proto.clone();
            one.update(&m);
            let want = one.finalize();
            // Go exports, keccakx continues.
            let st = unhex(&go(&bin, &["export", name, n, s, &hex(a), "-1"]));
            let Imported::Absorbing(mut h) = from_go_state(name, &p, &st).unwrap() else {
                panic!("{name}: Go's absorbing state imported as squeezing")
            };
            h.update(b);
            assert_eq!(h.finalize(), want, "Go -> keccakx, {name} split {split}");
            // keccakx exports, Go continues.
            let mut h = proto.clone();
            h.update(a);
            let st = h.to_go_state().unwrap();
            let out = go(
                &bin,
                &[
                    "continue",
                    name,
                    n,
                    s,
                    &hex(&st),
                    &hex(b),
                    &want.len().to_string(),
                ],
            );
            assert_eq!(out, hex(&want), "keccakx -> Go, {name} split {split}");
        }
        if !xof {
            continue;
        }
        // Mid-squeeze, both ways.
        let mut one = proto.clone();
        one.update(b"abc");
        let want = one.finalize_reader().read_vec(3 * r);
        for k in [0, 1, r - 1, r, r + 1, 2 * r] {
            let st = unhex(&go(
                &bin,
                &["export", name, n, s, &hex(b"abc"), &k.to_string()],
            ));
            let Imported::Squeezing(mut sq) = from_go_state(name, &p, &st).unwrap() else {
                panic!("{name}: Go's squeezing state imported as absorbing")
            };
            let mut rest = vec![0u8; 3 * r - k];
            sq.read(&mut rest);
            assert_eq!(rest, want[k..], "Go -> keccakx mid-squeeze, {name} at {k}");
            let mut h = proto.clone();
            h.update(b"abc");
            let mut sq = h.into_squeezer();
            sq.read(&mut vec![0u8; k]);
            let st = sq.to_go_state().unwrap();
            let out = go(
                &bin,
                &[
                    "continue",
                    name,
                    n,
                    s,
                    &hex(&st),
                    "",
                    &(3 * r - k).to_string(),
                ],
            );
            assert_eq!(
                out,
                hex(&want[k..]),
                "keccakx -> Go mid-squeeze, {name} at {k}"
            );
        }
    }
}
