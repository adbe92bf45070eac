//! The `keccakx` command line as a library: the binary (src/main.rs) is a
//! thin `main` over these modules, and the fuzz targets (fuzz/) call the
//! parsers directly. Not a stable API.

pub mod algo;
pub mod backend;
pub mod bench;
pub mod check;
pub mod cli;
pub mod error;
pub mod escape;
pub mod exec;
pub mod info;
pub mod input;
pub mod mapguard;
pub mod openlimit;
pub mod output;
pub mod params;
pub mod progress;
pub mod stdio;
pub mod sum;
