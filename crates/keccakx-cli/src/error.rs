//! How a command ends: its [`Outcome`] when it ran to the end, or the
//! [`Error`] that stopped it, and [`exit_status`], the one table from
//! either to the exit status: 0 success, 1 a failed input or a write error
//! (as coreutils' `sha*sum`), 2 invalid arguments, 3 (`verify`'s and
//! `sum --outboard`'s own) an outboard that cannot be used. coreutils and
//! sha3sum exit 1 for invalid arguments too; `keccakx` keeps them apart on
//! purpose, as `cmp`, `diff` and `grep` do, so that a script tells "the data
//! failed" (1: a mismatch, damage found, a proof that does not hold) from
//! "the command was wrong" (2), which `verify` and `merkle verify` document.
//! Run through a link named `sha3sum`, the statuses are sha3sum's
//! ([`Statuses::Sha3sum`]: invalid arguments exit 1). A leaf module: every
//! other module may use it.
//!
//! Problems with one input (an unreadable file, a checksum that does not
//! match, a malformed `--check` line) do not stop a run: they are reported
//! where they happen, in order with the output, and make the outcome
//! [`Outcome::Failed`]. An [`Error`] is printed once, by `main`, after the
//! command returned.

use std::fmt;
use std::io;

/// A command that ran to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Every input hashed, every checksum matched.
    Success,
    /// An input could not be read, a checksum did not match or could not be
    /// checked, or a forced GPU failed (its files were hashed on the CPU);
    /// each was reported when it happened.
    Failed,
}

/// Why a command stopped (or never started).
#[derive(Debug)]
pub enum Error {
    /// What clap has to say about the command line: a usage error, or the
    /// text of `--help` / `--version` (written on standard output).
    Clap(clap::Error),
    /// A name or option refused: an unknown algorithm or engine, an option
    /// that does not go with another.
    Usage(String),
    /// Parameters the algorithm refuses (a length, a key, a sponge shape).
    Params(String),
    /// A file an option names could not be read (`what`: the option and
    /// the quoted path).
    Read { what: String, err: io::Error },
    /// `--backend gpu` cannot run (no GPU, or an algorithm it does not run).
    Gpu(String),
    /// Writing standard output failed (a full disk, a closed descriptor).
    /// A reader that went away (`| head`) is not an error: the run ends
    /// quietly with its outcome so far.
    Write(io::Error),
    /// An outboard that cannot be used: not an outboard, damaged, of
    /// another file or version, or not matching the trusted digest.
    Outboard(String),
}

impl fmt::Display for Error {
    /// The message after `keccakx: ` (clap's text as clap renders it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Clap(e) => write!(f, "{}", e.render()),
            Error::Usage(msg) | Error::Params(msg) => f.write_str(msg),
            Error::Read { what, err } => write!(f, "{what}: {}", cause(err)),
            Error::Gpu(msg) => write!(f, "--backend gpu: {msg}"),
            Error::Write(err) => write!(f, "write error: {}", cause(err)),
            Error::Outboard(msg) => f.write_str(msg),
        }
    }
}

impl std::error::Error for Error {}

/// Whose exit statuses a run gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Statuses {
    /// `keccakx`'s: 2 for invalid arguments, apart from 1, a failed input.
    Keccakx,
    /// Perl's sha3sum's (the `sha3sum` link), as coreutils': invalid
    /// arguments exit 1.
    Sha3sum,
}

/// The exit status of a run: the one place that maps outcomes and errors
/// to statuses (see the module's text for the table).
pub fn exit_status(result: &Result<Outcome, Error>, statuses: Statuses) -> u8 {
    let status = keccakx_status(result);
    match statuses {
        Statuses::Sha3sum if status == 2 => 1,
        _ => status,
    }
}

fn keccakx_status(result: &Result<Outcome, Error>) -> u8 {
    match result {
        Ok(Outcome::Success) => 0,
        Ok(Outcome::Failed) => 1,
        // 2 for a usage error, 0 for --help and --version.
        Err(Error::Clap(e)) => u8::try_from(e.exit_code()).unwrap_or(2),
        Err(Error::Usage(_) | Error::Params(_)) => 2,
        Err(Error::Read { .. } | Error::Gpu(_) | Error::Write(_)) => 1,
        // Its own status: the data may be fine, the outboard is not.
        Err(Error::Outboard(_)) => 3,
    }
}

/// The message for an I/O error, as `strerror` words it (no "(os error N)").
pub fn cause(e: &io::Error) -> String {
    let s = e.to_string();
    match s.rfind(" (os error ") {
        Some(i) if s.ends_with(')') => s[..i].to_string(),
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::error::ErrorKind;

    #[test]
    fn statuses_are_coreutils() {
        let status = |r: Result<Outcome, Error>| exit_status(&r, Statuses::Keccakx);
        let sha3sum = |r: Result<Outcome, Error>| exit_status(&r, Statuses::Sha3sum);
        assert_eq!(sha3sum(Err(Error::Usage("x".into()))), 1);
        assert_eq!(sha3sum(Ok(Outcome::Success)), 0);
        assert_eq!(
            sha3sum(Err(Error::Clap(clap::Error::new(
                ErrorKind::DisplayVersion
            )))),
            0
        );
        assert_eq!(status(Ok(Outcome::Success)), 0);
        assert_eq!(status(Ok(Outcome::Failed)), 1);
        assert_eq!(status(Err(Error::Usage("x".into()))), 2);
        assert_eq!(status(Err(Error::Params("x".into()))), 2);
        let enoent = || io::Error::from_raw_os_error(2);
        let read = Error::Read {
            what: "--key-file 'k'".into(),
            err: enoent(),
        };
        assert_eq!(
            read.to_string(),
            "--key-file 'k': No such file or directory"
        );
        assert_eq!(status(Err(read)), 1);
        assert_eq!(status(Err(Error::Gpu("no GPU".into()))), 1);
        let write = Error::Write(io::Error::from_raw_os_error(28));
        assert_eq!(write.to_string(), "write error: No space left on device");
        assert_eq!(status(Err(write)), 1);
        let clap = |kind| Error::Clap(clap::Error::new(kind));
        assert_eq!(status(Err(clap(ErrorKind::UnknownArgument))), 2);
        assert_eq!(status(Err(clap(ErrorKind::DisplayHelp))), 0);
        assert_eq!(status(Err(clap(ErrorKind::DisplayVersion))), 0);
        assert_eq!(Outcome::Success.max(Outcome::Failed), Outcome::Failed);
    }

    #[test]
    fn cause_strips_os_error() {
        assert_eq!(
            cause(&io::Error::from_raw_os_error(2)),
            "No such file or directory"
        );
        assert_eq!(cause(&io::Error::other("plain")), "plain");
    }
}
