//! `keccakx`: a sha3sum/b3sum-compatible hasher for the whole Keccak family.
//! Thin: parse the command line, stream the inputs, print. The modules
//! live in the crate's library (src/lib.rs), which the fuzz targets share.

use std::ffi::OsString;
use std::sync::Arc;

use clap::Parser;
use keccakx::engine::EngineChoice;

use keccakx_cli::algo::{find, params_for, Algo, DEFAULT_ALGORITHM};
use keccakx_cli::cli::{self, Cli, Command, GlobalArgs, SumArgs};
use keccakx_cli::input::ReadOpts;
use keccakx_cli::output::{self, stop_status, warn, Out};
use keccakx_cli::params::params_from;
use keccakx_cli::{backend, bench, check, info, progress, sum};

fn main() {
    std::process::exit(real_main());
}

fn real_main() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => return clap_exit(&e),
    };
    let engine_source = match setup(&cli.global) {
        Ok(s) => s,
        Err(code) => return code,
    };
    match &cli.command {
        Command::Sum(args) => sum_main(args, &cli.global),
        Command::List => info::list(),
        Command::Info => info::info(&engine_source),
        Command::Bench(args) => bench::bench_main(args),
    }
}

/// Print clap's message (usage error, help, version) and give the exit
/// status. Help and version go to standard output, and failing to write
/// them is an error (exit 1, "write error"), as in coreutils; a reader
/// that went away (`| head`) is not.
fn clap_exit(e: &clap::Error) -> i32 {
    let text = e.render().to_string();
    if e.use_stderr() {
        output::clear_and_print_err(&text);
        return e.exit_code();
    }
    let mut out = Out::new();
    match out.write(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => e.exit_code(),
        Err(s) => stop_status(s, e.exit_code()),
    }
}

/// Threads and engine; returns where the engine choice came from.
fn setup(g: &GlobalArgs) -> Result<String, i32> {
    let n = g.threads.unwrap_or(0);
    // Fails only if a pool already exists, which cannot happen here.
    let _ = rayon::ThreadPoolBuilder::new()
        .num_threads(n)
        .build_global();
    keccakx::engine::set_threads(n);
    if let Some(name) = &g.engine {
        return match keccakx::engine::set_engine(name) {
            Ok(EngineChoice::Auto) => Ok("auto".into()),
            Ok(_) => Ok("--engine".into()),
            Err(e) => {
                warn(&format!("--engine {name}: {e}"));
                Err(2)
            }
        };
    }
    match keccakx::engine::engine_from_env() {
        Ok(Some(choice)) => Ok(format!("KECCAKX_ENGINE={}", choice.name())),
        Ok(None) => Ok("auto".into()),
        Err(msg) => {
            warn(&format!("{msg}; using auto"));
            Ok("auto".into())
        }
    }
}

fn sum_main(a: &SumArgs, g: &GlobalArgs) -> i32 {
    let name = a.algorithm.as_deref().unwrap_or(DEFAULT_ALGORITHM);
    let Some(info) = find(name) else {
        warn(&format!(
            "-a {name}: unknown algorithm (run `keccakx list` for the names)"
        ));
        return 2;
    };
    let params = match params_from(a) {
        Ok(p) => p,
        Err((code, msg)) => {
            warn(&msg);
            return code;
        }
    };
    // In check mode without -a the parameters may be meant for the
    // algorithms the tag lines name: keep only what the default takes.
    let own = if a.check && a.algorithm.is_none() {
        params_for(info, &params)
    } else {
        params.clone()
    };
    let algo = match Algo::new(info, &own) {
        Ok(x) => Arc::new(x),
        Err(msg) => {
            warn(&msg);
            return 2;
        }
    };
    let files: Vec<OsString> = if a.files.is_empty() {
        vec![OsString::from("-")]
    } else {
        a.files.clone()
    };
    let ropts = ReadOpts { no_mmap: a.no_mmap };
    let parallel = g.threads != Some(1);
    let mode = if a.no_progress {
        progress::Mode::Never
    } else if a.progress {
        progress::Mode::Always
    } else {
        progress::Mode::Auto
    };
    // --check streams its lists: the files are not known up front.
    let _progress = progress::start(mode, (!a.check).then(|| files.clone()));
    if a.check {
        if g.backend == cli::Backend::Gpu {
            warn("--backend gpu: --check hashes on the CPU; use --backend gpu when creating checksums");
            return 2;
        }
        let opts = check::CheckOpts {
            quiet: a.quiet,
            status: a.status,
            strict: a.strict,
            warn: a.warn,
            ignore_missing: a.ignore_missing,
        };
        let mut ctx = check::Context::new(algo, a.algorithm.is_some(), params);
        check::run(&files, &mut ctx, opts, ropts, parallel)
    } else {
        let batch = match backend::batch_for(g.backend, &algo, files.len()) {
            Ok(b) => b,
            Err(msg) => {
                warn(&format!("--backend gpu: {msg}"));
                return 1;
            }
        };
        let fmt = sum::Format {
            tag: a.tag,
            zero: a.zero,
            binary: a.binary,
        };
        sum::run(&files, algo, fmt, ropts, parallel, batch.as_ref())
    }
}
