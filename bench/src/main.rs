//! `cargo run --release -p keccakx-bench [-- --quick] [--no-avx512]
//! [--max-size BYTES] [--filter NAME] [--out PATH]`: runs the CPU benchmark,
//! prints each point, writes the JSON report (default
//! bench/results/cpu-<date>.json). `--no-avx512` measures as on a CPU
//! without AVX-512 (`make bench-cpu-no-avx512`).

use std::path::PathBuf;
use std::process::ExitCode;

use keccakx_bench::{run_with, size_name, Options};

fn usage() -> &'static str {
    "usage: keccakx-bench [--quick] [--no-avx512] [--max-size BYTES] [--filter NAME] [--out PATH]"
}

fn main() -> ExitCode {
    let mut opts = Options::default();
    let mut out: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--quick" => opts.quick = true,
            "--no-avx512" => opts.no_avx512 = true,
            "--max-size" => match args.next().and_then(|v| v.parse().ok()) {
                Some(n) => opts.max_size = n,
                None => {
                    eprintln!("--max-size needs a number of bytes\n{}", usage());
                    return ExitCode::from(2);
                }
            },
            "--filter" => match args.next() {
                Some(f) => opts.filter = Some(f),
                None => {
                    eprintln!("--filter needs a name\n{}", usage());
                    return ExitCode::from(2);
                }
            },
            "--out" => match args.next() {
                Some(p) => out = Some(p.into()),
                None => {
                    eprintln!("--out needs a path\n{}", usage());
                    return ExitCode::from(2);
                }
            },
            "-h" | "--help" => {
                println!("{}", usage());
                return ExitCode::SUCCESS;
            }
            other => {
                eprintln!("unknown argument {other:?}\n{}", usage());
                return ExitCode::from(2);
            }
        }
    }
    println!(
        "{:<28} {:>8} {:<32} {:>3} {:>11} {:>8}",
        "function", "size", "implementation", "thr", "MB/s", "tick/B"
    );
    let report = run_with(
        &opts,
        |r| {
            println!(
                "{:<28} {:>8} {:<32} {:>3} {:>11.1} {:>8.2}",
                r.function,
                size_name(r.size),
                r.implementation,
                r.threads,
                r.mb_per_s(),
                r.ticks_per_op / r.size as f64
            );
        },
        |s| {
            println!(
                "scaling {:<28} {:>8} {:<16} {} threads: {:.2}x, host ceiling {:.2}x, efficiency {:.3} ({} rounds)",
                s.job.function(),
                size_name(s.size),
                s.job.implementation(),
                s.threads,
                s.scaling(),
                s.host_ceiling(),
                s.efficiency(),
                s.one_ns.len()
            );
        },
    );
    for p in &report.permutations {
        println!(
            "permutation {:<16} {:>2} rounds {:>8.1} ns/state {:>8.0} cycles/state",
            p.implementation, p.rounds, p.ns_per_state, p.ticks_per_state
        );
    }
    let path = out.unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("results")
            .join(format!("cpu-{}.json", report.date))
    });
    if let Some(dir) = path.parent() {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("cannot create {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    }
    if let Err(e) = std::fs::write(&path, report.to_json()) {
        eprintln!("cannot write {}: {e}", path.display());
        return ExitCode::FAILURE;
    }
    println!(
        "wrote {} (engine {}, {} cores, load {} -> {})",
        path.display(),
        report.engine,
        report.cores,
        report.load_before,
        report.load_after
    );
    ExitCode::SUCCESS
}
