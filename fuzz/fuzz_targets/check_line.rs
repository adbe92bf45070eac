//! The `--check` line parser: any line parses or is refused without a
//! panic, a parsed name never holds a NUL, and every line `keccakx sum`
//! writes (GNU and BSD-tag formats, escaped names, sha3sum's marks, base64
//! digests) parses back to the same name, digest, algorithm and reading
//! mode.
#![no_main]

use golden::Src;
use keccakx::registry::Params;
use keccakx_cli::algo::{find, Algo, InputMode};
use keccakx_cli::check::{parse_check_line, parse_line};
use keccakx_cli::sum::{format_line, Format};
use libfuzzer_sys::fuzz_target;

/// (`-a` or None, parameters) the parser may run with.
fn context(src: &mut Src) -> (Option<&'static str>, Params) {
    const ALGS: [Option<&str>; 8] = [
        None,
        Some("sha3-256"),
        Some("sha3-512"),
        Some("shake128"),
        Some("kt128"),
        Some("kmac128"),
        Some("keccak-256"),
        Some("blake256"),
    ];
    let alg = ALGS[src.range(0, ALGS.len() - 1)];
    let mut p = Params::default();
    if alg == Some("kmac128") {
        p.key = Some(b"key".to_vec());
    }
    if matches!(alg, Some("shake128") | Some("kt128") | Some("kmac128")) && src.bool() {
        p.length = Some(src.range(1, 100));
    }
    (alg, p)
}

fuzz_target!(|data: &[u8]| {
    let mut src = Src::new(data);
    let mode = src.u8();
    let (alg, params) = context(&mut src);
    if mode & 1 == 0 {
        // Any line at all.
        let line = src.rest();
        if let Some(e) = parse_line(line, alg, &params) {
            assert!(!e.name.contains(&0), "a name with a NUL was accepted");
            assert!(!e.expected.is_empty());
            if let Some(l) = params.length {
                assert_eq!(e.expected.len(), l);
            }
        }
        // `sum -a ALG --check`: no line of another algorithm may verify,
        // nor a digest shorter than ALG's default unless -l says so.
        if let (Some(a), Some(e)) = (alg, parse_check_line(line, alg, &params)) {
            let want = find(a).unwrap();
            assert_eq!(e.info.name, want.name, "-a {a} accepted another algorithm's line");
            match params.length {
                Some(l) => assert_eq!(e.expected.len(), l),
                None => assert!(e.expected.len() >= want.default_len, "-a {a}: short digest"),
            }
        }
        return;
    }
    // A line as `sum` writes it, back through the parser.
    let info = find(alg.unwrap_or("sha3-256")).unwrap();
    let algo = Algo::new(info, &params).unwrap();
    let digest: Vec<u8> = (0..algo.out_len).map(|_| src.u8()).collect();
    let tag = src.bool();
    let (input, binary) = match src.range(0, 3) {
        0 => (InputMode::Bytes, false),
        1 => (InputMode::Bytes, true),
        2 => (InputMode::Universal, false),
        _ => (InputMode::Bits, false),
    };
    // `sum` refuses --tag with a reading mode.
    let input = if tag { InputMode::Bytes } else { input };
    // Base64 digests (cksum --base64) are read from tagged lines, and from
    // untagged ones when -a names the algorithm.
    let base64 = src.bool() && (tag || alg.is_some());
    let fmt = Format {
        tag,
        mark: input.mark(binary),
        base64,
        ..Format::default()
    };
    let name = src.rest().to_vec();
    // `sum` never writes these: no file has an empty name or a NUL in it.
    if name.is_empty() || name.contains(&0) {
        return;
    }
    let mut line = format_line(fmt, algo.display(), &digest, &name);
    assert_eq!(line.pop(), Some(b'\n'));
    // The reader strips one carriage return before the newline; a name
    // ending in one is escaped, so the line does not end in a raw one.
    assert!(!line.ends_with(b"\r"));
    let parsed = parse_line(&line, alg, &params);
    // Untagged lines name no algorithm: without -a only the lengths sha3sum
    // writes parse.
    if !fmt.tag && alg.is_none() && !matches!(digest.len(), 28 | 32 | 48 | 64 | 136 | 168) {
        return;
    }
    let e = parsed.unwrap_or_else(|| panic!("line {:?} did not parse back", String::from_utf8_lossy(&line)));
    assert_eq!(e.name, name, "name");
    assert_eq!(e.expected, digest, "digest");
    assert_eq!(e.input, input, "reading mode");
    if fmt.tag || alg.is_some() {
        assert_eq!(e.info.name, info.name, "algorithm");
    }
});
