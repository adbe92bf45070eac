//! The `keccakx` command line as a library: the binary (src/main.rs) is a
//! thin `main` over these modules, and the fuzz targets (fuzz/) call the
//! parsers directly. Not a stable API.
//!
//! Modules import only downward (`tools/module_cycles.py`, run by `make
//! test-rust`, checks there is no cycle); this root only declares them.
//!
//! * commands: [`sum`], [`check`] (`sum --check`), [`info`] (`list`,
//!   `info`), [`bench`](mod@bench), [`merkle`] (OpenZeppelin Merkle trees);
//! * hashing many inputs: [`backend`] (CPU or GPU batches), [`exec`]
//!   (parallel, results in order), [`input`] (one input, bounded memory;
//!   [`openlimit`]; guarded maps come from the `keccakx_mapped` crate);
//! * the command line: [`cli`] (clap), [`params`] (to the library's
//!   parameters), [`algo`] (the algorithms and their validation),
//!   [`reading`] (sha3sum's reading modes: universal newlines, bits);
//! * around them: [`output`] (standard output, broken pipes), [`progress`],
//!   [`escape`] (file names as coreutils writes them), [`base64`]
//!   (cksum's base64 digests), [`stdio`], [`pool`] (the worker threads), [`oom`]
//!   (running out of memory);
//! * [`error`] (a leaf): how a command ends, and the one table from that to
//!   the exit status.

pub mod algo;
pub mod backend;
pub use keccakx::sumfile::base64;
pub mod bench;
pub mod check;
pub mod cli;
pub mod error;
pub mod escape;
pub mod exec;
pub mod info;
pub mod input;
pub mod merkle;
pub mod oom;
pub mod openlimit;
pub mod outboard;
pub mod output;
pub mod params;
pub mod pool;
pub mod progress;
pub mod reading;
pub mod remote;
pub mod remote_parts;
pub mod stdio;
pub mod sum;
pub mod verify;
