//! Parameters from outside: `Params` with any field values through
//! `registry::Hasher::new` for every function, and `keccakx sum` command
//! lines (a dictionary of options with random values) through clap,
//! `params_from` and `Algo::new`. Refusals are fine; panics, aborts and
//! hangs are not, and an accepted hasher must hash.
#![no_main]

use clap::Parser;
use golden::Src;
use keccakx::registry::{self, Hasher, Params};
use keccakx_cli::algo::{find, Algo};
use keccakx_cli::cli::{Cli, Command};
use keccakx_cli::params::params_from;
use libfuzzer_sys::fuzz_target;

/// Longest output hashed (the CLI allows 1 MiB, Python 2**48 lazily).
const MAX_OUT: usize = 1 << 16;

fn any_usize(src: &mut Src) -> usize {
    match src.u8() % 6 {
        0 => src.u8() as usize,
        1 => src.u16() as usize,
        2 => src.u32() as usize,
        3 => usize::MAX - src.u8() as usize,
        4 => 1usize << src.range(0, 63),
        _ => src.range(0, 2000),
    }
}

fn opt_usize(src: &mut Src) -> Option<usize> {
    src.bool().then(|| any_usize(src))
}

fn registry_params(src: &mut Src) {
    let list = registry::list();
    let info = &list[src.range(0, list.len() - 1)];
    let p = Params {
        length: opt_usize(src),
        customization: src.bytes(40),
        function_name: src.bytes(40),
        key: src.bool().then(|| src.bytes(40)),
        block_size: opt_usize(src),
        domain: src.bool().then(|| src.u8()),
        width: opt_usize(src),
        rate: opt_usize(src),
        capacity: opt_usize(src),
        rounds: opt_usize(src),
        suffix: src.bool().then(|| src.u8()),
        degree: opt_usize(src),
        height: opt_usize(src),
        prefix: src.bool().then(|| src.bytes(300)),
    };
    if let Ok(mut h) = Hasher::new(info.name, &p) {
        let msg = src.rest();
        h.update(msg);
        h.update(msg);
        let n = h.output_len();
        let mut r = h.clone().finalize_reader();
        let mut out = vec![0u8; n.min(MAX_OUT)];
        r.read(&mut out);
        if n <= MAX_OUT {
            assert_eq!(h.finalize(), out);
        }
    }
}

/// Option names of `keccakx sum`, with value makers.
const OPTS: &[&str] = &[
    "-a", "-l", "--customization", "--function-name", "--key-hex", "--block-size", "--domain",
    "--rate", "--capacity", "--width", "--rounds", "--suffix", "--degree", "--height", "--prefix",
    "--prefix-hex", "--allow-empty-key", "--tag", "-z", "--progress", "--no-mmap",
];

fn value(src: &mut Src, opt: &str) -> String {
    match opt {
        "-a" => {
            let names: Vec<&str> = keccakx_cli::algo::all().iter().map(|a| a.name).collect();
            let n = names[src.range(0, names.len() - 1)];
            if src.u8() < 30 {
                n.to_uppercase().replace('-', "_")
            } else {
                n.to_string()
            }
        }
        "--key-hex" | "--prefix-hex" => src.bytes(20).iter().map(|b| format!("{b:02x}")).collect(),
        "--customization" | "--function-name" | "--prefix" => {
            String::from_utf8_lossy(&src.bytes(20)).into_owned()
        }
        "--domain" | "--suffix" => match src.u8() % 3 {
            0 => format!("0x{:x}", src.u8()),
            1 => src.u16().to_string(),
            _ => src.u8().to_string(),
        },
        _ => match src.u8() % 4 {
            0 => any_usize(src).to_string(),
            1 => format!("-{}", src.u8()),
            2 => String::from_utf8_lossy(&src.bytes(6)).into_owned(),
            _ => src.range(0, 2000).to_string(),
        },
    }
}

fn command_line(src: &mut Src) {
    let mut argv: Vec<String> = vec!["keccakx".into(), "sum".into()];
    for _ in 0..src.range(0, 10) {
        let opt = OPTS[src.range(0, OPTS.len() - 1)];
        argv.push(opt.into());
        if !matches!(opt, "--allow-empty-key" | "--tag" | "-z" | "--progress" | "--no-mmap") {
            argv.push(value(src, opt));
        }
    }
    let Ok(cli) = Cli::try_parse_from(&argv) else { return };
    let Command::Sum(a) = cli.command else { return };
    let Ok(params) = params_from(&a) else { return };
    let Some(info) = find(a.algorithm.as_deref().unwrap_or("sha3-256")) else { return };
    if let Ok(algo) = Algo::new(info, &params) {
        assert!(algo.out_len >= 1 && algo.out_len <= keccakx_cli::cli::MAX_LENGTH.max(info.default_len));
        let d = algo.digest(b"abc");
        assert_eq!(d.len(), algo.out_len);
    }
}

fuzz_target!(|data: &[u8]| {
    let mut src = Src::new(data);
    if src.bool() {
        registry_params(&mut src);
    } else {
        command_line(&mut src);
    }
});
