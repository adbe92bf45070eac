//! Object-store URLs as inputs: `s3://`, `gs://`, `az://`/`abfs://`,
//! `http(s)://` and `file://`, read through Apache Arrow's `object_store`.
//!
//! An object is first looked up ([`Client::open`]: its size, ETag and
//! version), then read pinned to that version: every GET carries
//! `If-Match` (and the version where the store has one), and every
//! answer's ETag is compared with the pinned one, so an object replaced
//! while it is read is an error ([`ErrorKind::Changed`]), never the digest
//! of a mixture.
//!
//! Three ways to read:
//! - [`Client::read_parts_with`] for tree modes whose pieces hash apart
//!   (KT128/KT256, ParallelHash): ranged GETs of `part` bytes, cut on the
//!   mode's chunk boundaries, up to `jobs` in flight, each part's bytes
//!   written as they arrive into a [`PartSink`] of its own on the network
//!   threads (the CLI computes the part's chaining values there); the
//!   sinks' results come back in part order.
//! - [`Client::read_parts`]: the same GETs, each part kept whole and handed
//!   over in order (tree LI); at most `(jobs + 1) * part` bytes are held.
//! - [`Client::read_stream`] for sequential functions: one GET streamed
//!   with read-ahead (at most `READ_AHEAD + 1` blocks of `STREAM_BLOCK`
//!   bytes held), resumed from where it broke off when a connection drops.
//!
//! Transient failures (connection resets, 5xx, timeouts) are retried with
//! exponential backoff; the rest (403, 404, a changed object) end that
//! object's read with an error that names it.

mod client;
mod error;
mod glob;
mod parts;
mod profile;
mod read;
mod settings;
mod store;

use std::path::PathBuf;

pub use client::Client;
pub use error::{Error, ErrorKind};
pub use parts::PartSink;
pub use read::{READ_AHEAD, STREAM_BLOCK};
pub use settings::Settings;
pub use store::Object;

/// The URL schemes read as objects (`scheme://`).
pub const SCHEMES: &[&str] = &[
    "s3", "s3a", "gs", "az", "azure", "abfs", "abfss", "adl", "http", "https", "file",
];

/// Whether `arg` names an object (`SCHEME://...` with a scheme of
/// [`SCHEMES`]); a local file of such a name is given as `./s3://...`.
pub fn is_url(arg: &str) -> bool {
    arg.split_once("://")
        .is_some_and(|(scheme, _)| SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()))
}

/// The local path of a `file://` URL (`None` for other URLs).
pub fn file_path(arg: &str) -> Option<Result<PathBuf, Error>> {
    let (scheme, _) = arg.split_once("://")?;
    if !scheme.eq_ignore_ascii_case("file") {
        return None;
    }
    Some(
        url::Url::parse(arg)
            .ok()
            .and_then(|u| u.to_file_path().ok())
            .ok_or_else(|| Error::usage(format!("not a local file URL: {arg}"))),
    )
}
