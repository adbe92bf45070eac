//! `keccakx`: a sha3sum/b3sum-compatible hasher for the whole Keccak family.
//! Thin: parse the command line, run the command, report how it ended. The
//! modules live in the crate's library (src/lib.rs), which the fuzz targets
//! share.
//!
//! Every command returns `Result<Outcome, Error>` (src/error.rs); `main`
//! prints the error, if any, once, and `error::exit_status` alone turns
//! the result into the exit status.

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use keccakx::engine::EngineChoice;

use keccakx_cli::algo::{find, params_for, sha3sum_name, Algo, InputMode, DEFAULT_ALGORITHM};
use keccakx_cli::cli::{self, Cli, Command, GlobalArgs, SumArgs};
use keccakx_cli::error::{exit_status, Error, Outcome, Statuses};
use keccakx_cli::input::ReadOpts;
use keccakx_cli::output::{self, print_all, warn};
use keccakx_cli::params::params_from;
use keccakx_cli::{
    backend, bench, check, info, merkle, outboard, pool, progress, remote, sum, verify,
};

/// Out of memory: a message and exit status 1, not an abort (src/oom.rs).
#[global_allocator]
static ALLOC: keccakx_cli::oom::ExitOnOom = keccakx_cli::oom::ExitOnOom;

fn main() -> ExitCode {
    keccakx_cli::oom::fit_malloc_to_address_limit();
    // Past `ulimit -f`, a write fails (EFBIG: "write error: File too
    // large", exit 1) instead of the process dying of SIGXFSZ.
    // SAFETY: setting a signal's disposition to ignore, before any thread.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    // Kept until the error is reported: progress's last line (with
    // --progress into a file or pipe) comes after the command's messages.
    let mut progress = None;
    let (argv, default_algorithm, statuses) = personality(std::env::args_os().collect());
    let result = report(run(argv, default_algorithm, &mut progress));
    drop(progress);
    ExitCode::from(exit_status(&result, statuses))
}

fn run(
    argv: Vec<OsString>,
    default_algorithm: &'static str,
    progress: &mut Option<progress::Reporter>,
) -> Result<Outcome, Error> {
    let cli = Cli::try_parse_from(argv).map_err(Error::Clap)?;
    let engine_source = setup(&cli.global)?;
    let threads = pool::build(cli.global.threads);
    threads.run(|| match &cli.command {
        Command::Sum(args) => sum_main(args, &cli.global, default_algorithm, progress),
        Command::List => info::list(),
        Command::Info => info::info(&engine_source),
        Command::Bench(args) => bench::bench_main(args),
        Command::Merkle(args) => merkle::run(args, merkle_where(cli.global.backend)),
        Command::Verify(args) => verify::run(args),
    })
}

fn merkle_where(b: cli::Backend) -> merkle::Where {
    match b {
        cli::Backend::Auto => merkle::Where::Auto,
        cli::Backend::Cpu => merkle::Where::Cpu,
        cli::Backend::Gpu => merkle::Where::Gpu,
    }
}

/// `keccakx` run through a link named `sha3sum` is `keccakx sum` with
/// sha3sum's default algorithm, SHA3-224: a drop-in for Perl's sha3sum,
/// whose options and lines `sum` shares, `-v` (its version) and its exit
/// statuses (a usage error is 1) included. Returns the arguments to parse,
/// the default `-a` and the table of exit statuses.
fn personality(mut argv: Vec<OsString>) -> (Vec<OsString>, &'static str, Statuses) {
    let as_sha3sum = argv
        .first()
        .and_then(|a| std::path::Path::new(a).file_name())
        .is_some_and(|n| n == "sha3sum");
    if as_sha3sum {
        // Messages and help name what runs: `keccakx sum`.
        argv[0] = OsString::from("keccakx");
        argv.insert(1, OsString::from("sum"));
        // sha3sum's -v is its version (keccakx sum has no -v); an
        // argument after `--` is a file name.
        if let Some(v) = argv
            .iter_mut()
            .skip(2)
            .take_while(|a| *a != "--")
            .find(|a| *a == "-v")
        {
            *v = OsString::from("--version");
        }
        return (argv, "sha3-224", Statuses::Sha3sum);
    }
    (argv, DEFAULT_ALGORITHM, Statuses::Keccakx)
}

/// Print the error a run ended with: `keccakx: MESSAGE` on standard error,
/// or clap's text as it is (usage errors on standard error; help and
/// version on standard output, where failing to write them is an error,
/// as in coreutils, and a reader that went away, `| head`, is not).
fn report(result: Result<Outcome, Error>) -> Result<Outcome, Error> {
    match result {
        Err(Error::Clap(e)) if !e.use_stderr() => {
            match print_all(e.render().to_string().as_bytes()) {
                Ok(_) => Err(Error::Clap(e)),
                Err(write) => report(Err(write)),
            }
        }
        Err(Error::Clap(e)) => {
            output::clear_and_print_err(&e.render().to_string());
            Err(Error::Clap(e))
        }
        Err(e) => {
            warn(&e.to_string());
            Err(e)
        }
        Ok(outcome) => Ok(outcome),
    }
}

/// The engine; returns where its choice came from.
fn setup(g: &GlobalArgs) -> Result<String, Error> {
    if let Some(name) = &g.engine {
        return match keccakx::engine::set_engine(name) {
            Ok(EngineChoice::Auto) => Ok("auto".into()),
            Ok(_) => Ok("--engine".into()),
            Err(e) => Err(Error::Usage(format!(
                "--engine {}: {e}",
                keccakx_cli::escape::quote(name.as_bytes())
            ))),
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

/// `keccakx sum`: validate, then hash or check. The progress reporter it
/// starts is handed to the caller (see `main`).
fn sum_main(
    a: &SumArgs,
    g: &GlobalArgs,
    default_algorithm: &str,
    progress: &mut Option<progress::Reporter>,
) -> Result<Outcome, Error> {
    let name = a.algorithm.as_deref().unwrap_or(default_algorithm);
    let info = find(name).ok_or_else(|| {
        Error::Usage(format!(
            "-a {}: unknown algorithm (run `keccakx list` for the names)",
            keccakx_cli::escape::quote(name.as_bytes())
        ))
    })?;
    let mut params = params_from(a)?;
    // sha3sum's 128000/256000: SHAKE of one whole rate, unless -l says
    // otherwise (when checking, each line's length is its own).
    if let Some((_, Some(len))) = sha3sum_name(name).filter(|_| !a.check) {
        params.length = params.length.or(Some(len));
    }
    let input = if a.universal {
        InputMode::Universal
    } else if a.bits {
        InputMode::Bits
    } else {
        InputMode::Bytes
    };
    // In check mode without -a the parameters may be meant for the
    // algorithms the tag lines name: keep only what the default takes.
    let own = if a.check && a.algorithm.is_none() {
        params_for(info, &params)
    } else {
        params.clone()
    };
    let algo = Algo::new(info, &own)
        .and_then(|x| x.with_input(input))
        .and_then(|x| x.with_seek(a.seek.unwrap_or(0)))
        .map_err(Error::Params)?;
    let algo = Arc::new(algo);
    let files: Vec<OsString> = if a.files.is_empty() {
        vec![OsString::from("-")]
    } else {
        a.files.clone()
    };
    // URL patterns (s3://b/dir/, s3://b/*.tar) become the objects they name.
    let (files, listed) = if a.check {
        (files, Outcome::Success)
    } else {
        remote::expand_args(files)
    };
    if a.raw && files.len() > 1 {
        return Err(Error::Usage(
            "--raw writes one digest's bytes: give one input only".into(),
        ));
    }
    let ropts = ReadOpts { no_mmap: a.no_mmap };
    let parallel = keccakx::engine::effective_threads() > 1;
    let mode = if a.no_progress {
        progress::Mode::Never
    } else if a.progress {
        progress::Mode::Always
    } else {
        progress::Mode::Auto
    };
    // --check streams its lists: the files are not known up front.
    *progress = progress::start(mode, (!a.check).then(|| files.clone()));
    if a.check {
        if g.backend == cli::Backend::Gpu {
            return Err(Error::Usage(
                "--backend gpu: --check hashes on the CPU; use --backend gpu when creating \
                 checksums"
                    .into(),
            ));
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
        let fmt = sum::Format {
            tag: a.tag,
            zero: a.zero,
            mark: input.mark(a.binary),
            names: !a.no_names,
            raw: a.raw,
            base64: a.base64,
        };
        if let Some(path) = &a.outboard {
            if files.len() != 1 || g.backend == cli::Backend::Gpu {
                return Err(Error::Usage(
                    "--outboard: give one input file (hashed on the CPU)".into(),
                ));
            }
            let opts = outboard::SumOutboard {
                outboard: path,
                resume: a.resume,
                checkpoint: a.checkpoint.unwrap_or(outboard::DEFAULT_CHECKPOINT),
            };
            return outboard::run(&files[0], &algo, fmt, opts);
        }
        let batch = backend::batch_for(g.backend, &algo, files.len())?;
        sum::run(&files, algo, fmt, ropts, parallel, batch.as_ref()).map(|o| o.max(listed))
    }
}
