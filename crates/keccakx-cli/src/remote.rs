//! Object-store URLs as inputs of `sum` and `sum -c` (`s3://`, `gs://`,
//! `az://`/`abfs://`, `http(s)://`, `file://`): the reading lives in the
//! `keccakx-remote` crate (feature `remote`, on by default); this module
//! only picks how an algorithm reads an object and expands URL patterns.
//!
//! Tree modes (KT128/KT256, ParallelHash*, tree LI) read ranged parts on
//! their chunk boundaries, several at once, and feed them in order to the
//! same hasher as a local file, whose engines compute the chaining values;
//! sequential functions read one streamed GET.

use std::ffi::{OsStr, OsString};
use std::io;

use crate::algo::{Algo, Family};
use crate::error::Outcome;
use crate::output::warn;

/// The schemes read as objects; kept beside the crate's list so that a
/// build without the feature still recognises (and refuses) them.
const SCHEMES: &[&str] = &[
    "s3", "s3a", "gs", "az", "azure", "abfs", "abfss", "adl", "http", "https", "file",
];

/// Whether an argument or a check-list name is an object URL.
pub fn is_url(arg: &OsStr) -> bool {
    arg.to_str()
        .and_then(|s| s.split_once("://"))
        .is_some_and(|(scheme, _)| SCHEMES.contains(&scheme.to_ascii_lowercase().as_str()))
}

/// The byte unit on which an algorithm's input splits into independent
/// pieces (KT's 8192-byte chunks, ParallelHash's B); `None` for sequential
/// functions.
pub fn parallel_unit(algo: &Algo) -> Option<u64> {
    let Family::Registry(r) = algo.info.family else {
        return None;
    };
    let block = algo.params.block_size.unwrap_or(8192) as u64;
    match r.name {
        "kt128" | "kt256" => Some(8192),
        n if n.starts_with("parallelhash") || n == "tree-li" => Some(block),
        _ => None,
    }
}

#[cfg(feature = "remote")]
mod on {
    use super::*;
    use keccakx_remote::Client;

    pub fn local_path(url: &str) -> Option<io::Result<std::path::PathBuf>> {
        keccakx_remote::file_path(url).map(|r| r.map_err(io::Error::from))
    }

    /// Hash the object at `url`.
    /// The client, with as many network threads (which hash the parts of
    /// tree modes) as the run has hashing threads (`--threads`).
    fn client() -> Result<&'static Client, keccakx_remote::Error> {
        Client::global_with_threads(keccakx::engine::threads())
    }

    pub fn hash_url(url: &str, algo: &Algo) -> io::Result<Vec<u8>> {
        let client = client()?;
        let obj = client.open(url)?;
        if let Some(digest) = crate::remote_parts::digest(client, &obj, algo) {
            return Ok(digest?);
        }
        let mut s = algo.start(Some(obj.size));
        let mut sink = |b: &[u8]| {
            s.update(b);
            crate::progress::add_bytes(b.len());
        };
        match parallel_unit(algo) {
            Some(unit) => client.read_parts(&obj, unit, &mut sink)?,
            None => client.read_stream(&obj, &mut sink)?,
        }
        s.finish().map_err(io::Error::other)
    }

    pub fn expand_one(arg: &str) -> Result<Vec<String>, String> {
        let client = client().map_err(|e| e.to_string())?;
        client.expand(arg).map_err(|e| e.to_string())
    }

    /// An object read by ranged GETs, pinned to the version first seen.
    struct Ranges {
        client: &'static Client,
        obj: keccakx_remote::Object,
    }

    impl keccakx::outboard::source::ReadAt for Ranges {
        fn read_at(&mut self, off: u64, buf: &mut [u8]) -> io::Result<usize> {
            let end = off.saturating_add(buf.len() as u64);
            let got = self.client.read_range(&self.obj, off..end)?;
            buf[..got.len()].copy_from_slice(&got);
            crate::progress::add_bytes(got.len());
            Ok(got.len())
        }
        fn size(&mut self) -> io::Result<u64> {
            Ok(self.obj.size)
        }
    }

    pub fn open_ranges(url: &str) -> io::Result<Box<dyn keccakx::outboard::source::ReadAt>> {
        if let Some(p) = local_path(url) {
            return Ok(Box::new(std::fs::File::open(p?)?));
        }
        let client = client()?;
        let obj = client.open(url)?;
        Ok(Box::new(Ranges { client, obj }))
    }
}

#[cfg(not(feature = "remote"))]
mod on {
    use super::*;

    const OFF: &str = "this keccakx was built without object storage (cargo feature `remote`)";

    pub fn local_path(_url: &str) -> Option<io::Result<std::path::PathBuf>> {
        None
    }

    pub fn hash_url(_url: &str, _algo: &Algo) -> io::Result<Vec<u8>> {
        Err(io::Error::new(io::ErrorKind::Unsupported, OFF))
    }

    pub fn expand_one(_arg: &str) -> Result<Vec<String>, String> {
        Err(OFF.into())
    }

    pub fn open_ranges(_url: &str) -> io::Result<Box<dyn keccakx::outboard::source::ReadAt>> {
        Err(io::Error::new(io::ErrorKind::Unsupported, OFF))
    }
}

/// The local path a `file://` URL names (`None` for other URLs, and in a
/// build without the feature).
pub fn local_path(url: &OsStr) -> Option<io::Result<std::path::PathBuf>> {
    on::local_path(url.to_str()?)
}

/// Hash the object at `url` (not a `file://` URL: see [`local_path`]).
pub fn hash_url(url: &OsStr, algo: &Algo) -> io::Result<Vec<u8>> {
    let url = url
        .to_str()
        .ok_or_else(|| io::Error::other("not a UTF-8 URL"))?;
    on::hash_url(url, algo)
}

/// The object at `url` read by byte ranges (ranged GETs pinned to its
/// version; a `file://` URL is the local file).
pub fn open_ranges(url: &OsStr) -> io::Result<Box<dyn keccakx::outboard::source::ReadAt>> {
    let url = url
        .to_str()
        .ok_or_else(|| io::Error::other("not a UTF-8 URL"))?;
    on::open_ranges(url)
}

/// The inputs with URL patterns expanded: a URL ending in `/` (every
/// object under that prefix) or holding `*`, `[` (wildcards) becomes the
/// objects it names, sorted. A pattern that matches nothing, or whose
/// store cannot be listed, is reported and makes the run fail, as a
/// missing file does; the others go on.
pub fn expand_args(files: Vec<OsString>) -> (Vec<OsString>, Outcome) {
    let mut out = Vec::with_capacity(files.len());
    let mut outcome = Outcome::Success;
    for f in files {
        let pattern = f
            .to_str()
            .filter(|_| is_url(f.as_os_str()))
            .filter(|s| s.ends_with('/') || s.contains(['*', '[']));
        match pattern {
            None => out.push(f),
            Some(p) => match on::expand_one(p) {
                Ok(urls) => out.extend(urls.into_iter().map(OsString::from)),
                Err(e) => {
                    warn(&e);
                    outcome = Outcome::Failed;
                }
            },
        }
    }
    (out, outcome)
}
