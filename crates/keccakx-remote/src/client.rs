//! The client: one Tokio runtime for the network, the stores built so
//! far, and the settings; what the crate's users call.

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use object_store::ObjectStoreExt;

use crate::error::{Error, ErrorKind};
use crate::parts::{self, PartSink};
use crate::settings::Settings;
use crate::store::{Object, Stores};
use crate::{glob, read};

/// Reads objects: one Tokio runtime for the network, stores built once
/// per bucket (or host) from the environment, and the [`Settings`].
pub struct Client {
    rt: tokio::runtime::Runtime,
    settings: Settings,
    stores: Stores,
}

impl Client {
    /// A client with `settings`: a runtime of `settings.threads` network
    /// threads (one per core for 0, at most 64; one when more cannot start).
    pub fn new(settings: Settings) -> Result<Client, Error> {
        let want = match settings.threads {
            0 => std::thread::available_parallelism().map_or(2, |n| n.get()),
            n => n,
        }
        .clamp(1, 64);
        let build = |n: usize| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(n)
                .thread_name("keccakx-net")
                .enable_all()
                .build()
        };
        let rt = build(want).or_else(|_| build(1)).map_err(|e| {
            Error::new(
                ErrorKind::Failed,
                format!("cannot start the network runtime: {e}"),
            )
        })?;
        Ok(Client {
            rt,
            settings,
            stores: Stores::default(),
        })
    }

    /// The process's client, with [`Settings::from_env`] and
    /// `threads` network threads (built on first use; later calls return
    /// it whatever they ask).
    pub fn global_with_threads(threads: usize) -> Result<&'static Client, Error> {
        static CLIENT: OnceLock<Result<Client, Error>> = OnceLock::new();
        CLIENT
            .get_or_init(|| {
                let mut s = Settings::from_env()?;
                s.threads = threads;
                Client::new(s)
            })
            .as_ref()
            .map_err(Clone::clone)
    }

    /// The process's client, with [`Settings::from_env`] and a network
    /// thread per core (see [`Client::global_with_threads`]).
    pub fn global() -> Result<&'static Client, Error> {
        Client::global_with_threads(0)
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Look `url` up (HEAD): its size, ETag and version, which pin every
    /// later read of it.
    pub fn open(&self, url: &str) -> Result<Object, Error> {
        let (store, path) = self.stores.get(&self.settings, url)?;
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
        glob::expand(&self.rt, &self.stores, &self.settings, pattern)
    }

    /// Read `obj` in ranged GETs of about `part` bytes (a multiple of
    /// `unit`), up to `jobs` at once, handing each whole part to `sink` in
    /// order: at most `(jobs + 1) * part` bytes held
    /// ([`Settings::parts_bound`]).
    pub fn read_parts(
        &self,
        obj: &Object,
        unit: u64,
        sink: &mut dyn FnMut(&[u8]),
    ) -> Result<(), Error> {
        let jobs = self.settings.jobs;
        // Buffers handed back after their part was consumed, for the next
        // parts: reused memory, not fresh pages to fault in for every part.
        let spare = std::cell::RefCell::new(Vec::<Vec<u8>>::new());
        parts::read(
            &self.rt,
            &self.settings,
            obj,
            unit,
            jobs,
            &mut |range| {
                let want = (range.end - range.start) as usize;
                let mut buf = spare.borrow_mut().pop().unwrap_or_default();
                buf.clear();
                buf.reserve(want);
                buf
            },
            &mut |part: Vec<u8>| {
                sink(&part);
                spare.borrow_mut().push(part);
                Ok(())
            },
        )
    }

    /// Read `obj` in ranged GETs of about `part` bytes (a multiple of
    /// `unit`), up to `jobs` at once, each part's bytes written as they
    /// arrive into a sink of its own, `make(range)`, on the network
    /// threads; `done` gets each finished sink's result in part order.
    /// Up to `ahead` parts (at least `jobs`) are started before the
    /// oldest is handed over: the memory held is `ahead` sinks'. An error
    /// from `done` ends the read.
    pub fn read_parts_with<S: PartSink>(
        &self,
        obj: &Object,
        unit: u64,
        ahead: usize,
        make: &mut dyn FnMut(Range<u64>) -> S,
        done: &mut dyn FnMut(S::Done) -> Result<(), Error>,
    ) -> Result<(), Error> {
        parts::read(&self.rt, &self.settings, obj, unit, ahead, make, done)
    }

    /// Bytes `range` of `obj` (clipped to its size): one ranged GET pinned
    /// to its ETag (and version), resumed from the byte reached if cut,
    /// retried as the parts are. For reading a few ranges of a large
    /// object (verifying a range against an outboard).
    pub fn read_range(&self, obj: &Object, range: Range<u64>) -> Result<Vec<u8>, Error> {
        let range = range.start.min(obj.size)..range.end.min(obj.size);
        if range.is_empty() {
            return Ok(Vec::new());
        }
        let sink = Vec::with_capacity((range.end - range.start) as usize);
        let permits = Arc::new(tokio::sync::Semaphore::new(1));
        self.rt.block_on(parts::get_part(
            obj.clone(),
            range,
            self.settings.clone(),
            sink,
            permits,
        ))
    }

    /// Read `obj` in one GET, streamed with read-ahead, handing blocks to
    /// `sink` in order.
    pub fn read_stream(&self, obj: &Object, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        read::stream(&self.rt, &self.settings, obj, sink)
    }
}
