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
//! Two ways to read, both handing the bytes to a sink in order:
//! - [`Client::read_parts`] for tree modes (KT128/KT256, ParallelHash):
//!   ranged GETs of `part` bytes, cut on the mode's chunk boundaries, up to
//!   `jobs` in flight; at most `(jobs + 1) * part` bytes are held at once.
//! - [`Client::read_stream`] for sequential functions: one GET streamed
//!   with read-ahead (at most `READ_AHEAD + 1` blocks of `STREAM_BLOCK`
//!   bytes held), resumed from where it broke off when a connection drops.
//!
//! Transient failures (connection resets, 5xx, timeouts) are retried with
//! exponential backoff; the rest (403, 404, a changed object) end that
//! object's read with an error that names it.

mod glob;
mod profile;
mod read;
mod settings;
mod store;

use std::collections::HashMap;
use std::fmt;
use std::io;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt};

pub use read::{READ_AHEAD, STREAM_BLOCK};
pub use settings::Settings;

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

/// What went wrong with one object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// No such object (HTTP 404).
    NotFound,
    /// Access refused (HTTP 401/403) or no credentials.
    Denied,
    /// The object changed while it was read (its ETag or version).
    Changed,
    /// Transient failures that outlasted the retries (resets, 5xx,
    /// timeouts), or anything else the store reported.
    Failed,
    /// A URL or setting that cannot work (bad URL, unknown scheme).
    Usage,
}

/// An error for one object (or one URL pattern); its text is meant for the user.
#[derive(Clone, Debug)]
pub struct Error {
    pub kind: ErrorKind,
    msg: String,
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, msg: impl Into<String>) -> Self {
        Error {
            kind,
            msg: msg.into(),
        }
    }
    pub(crate) fn usage(msg: impl Into<String>) -> Self {
        Error::new(ErrorKind::Usage, msg)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for Error {}

impl From<Error> for io::Error {
    fn from(e: Error) -> io::Error {
        let kind = match e.kind {
            ErrorKind::NotFound => io::ErrorKind::NotFound,
            ErrorKind::Denied => io::ErrorKind::PermissionDenied,
            ErrorKind::Usage => io::ErrorKind::InvalidInput,
            ErrorKind::Changed | ErrorKind::Failed => io::ErrorKind::Other,
        };
        io::Error::new(kind, e)
    }
}

/// One object, looked up and pinned: what every read of it must match.
#[derive(Clone, Debug)]
pub struct Object {
    store: Arc<dyn ObjectStore>,
    path: Path,
    /// The URL it was opened by.
    pub url: String,
    pub size: u64,
    pub e_tag: Option<String>,
    pub version: Option<String>,
}

/// Reads objects: one Tokio runtime for the network, stores built once
/// per bucket (or host) from the environment, and the [`Settings`].
pub struct Client {
    rt: tokio::runtime::Runtime,
    settings: Settings,
    stores: Mutex<HashMap<String, Arc<dyn ObjectStore>>>,
}

impl Client {
    /// A client with `settings`; the runtime has two network threads.
    pub fn new(settings: Settings) -> Result<Client, Error> {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("keccakx-net")
            .enable_all()
            .build()
            .map_err(|e| {
                Error::new(
                    ErrorKind::Failed,
                    format!("cannot start the network runtime: {e}"),
                )
            })?;
        Ok(Client {
            rt,
            settings,
            stores: Mutex::new(HashMap::new()),
        })
    }

    /// The process's client, with [`Settings::from_env`] (built on first use).
    pub fn global() -> Result<&'static Client, Error> {
        static CLIENT: OnceLock<Result<Client, Error>> = OnceLock::new();
        CLIENT
            .get_or_init(|| Client::new(Settings::from_env()?))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Look `url` up (HEAD): its size, ETag and version, which pin every
    /// later read of it.
    pub fn open(&self, url: &str) -> Result<Object, Error> {
        let (store, path) = self.store_for(url)?;
        let head = read::with_retries(&self.settings, url, || {
            let (store, path) = (Arc::clone(&store), path.clone());
            async move { store.head(&path).await }
        });
        let meta = self.rt.block_on(head)?;
        Ok(Object {
            store,
            path,
            url: url.to_string(),
            size: meta.size,
            e_tag: meta.e_tag,
            version: meta.version,
        })
    }

    /// The object URLs a pattern names, sorted: a URL without wildcards is
    /// itself; one ending in `/` names every object under that prefix;
    /// `*`, `?` and `[...]` match within one path segment, `**` across
    /// segments. An error when nothing matches.
    pub fn expand(&self, pattern: &str) -> Result<Vec<String>, Error> {
        glob::expand(self, pattern)
    }

    /// Read `obj` in ranged GETs of about `part` bytes (a multiple of
    /// `unit`), up to `jobs` at once, handing each part to `sink` in order.
    pub fn read_parts(
        &self,
        obj: &Object,
        unit: u64,
        sink: &mut dyn FnMut(&[u8]),
    ) -> Result<(), Error> {
        read::parts(self, obj, unit, sink)
    }

    /// Read `obj` in one GET, streamed with read-ahead, handing blocks to
    /// `sink` in order.
    pub fn read_stream(&self, obj: &Object, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        read::stream(self, obj, sink)
    }
}
