//! The client: one Tokio runtime for the network, the stores built so
//! far, and the settings; what the crate's users call.

use std::sync::{Arc, OnceLock};

use object_store::ObjectStoreExt;

use crate::error::{Error, ErrorKind};
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
            stores: Stores::default(),
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
    /// `unit`), up to `jobs` at once, handing each part to `sink` in order.
    pub fn read_parts(
        &self,
        obj: &Object,
        unit: u64,
        sink: &mut dyn FnMut(&[u8]),
    ) -> Result<(), Error> {
        read::parts(&self.rt, &self.settings, obj, unit, sink)
    }

    /// Read `obj` in one GET, streamed with read-ahead, handing blocks to
    /// `sink` in order.
    pub fn read_stream(&self, obj: &Object, sink: &mut dyn FnMut(&[u8])) -> Result<(), Error> {
        read::stream(&self.rt, &self.settings, obj, sink)
    }
}
