//! A store for a URL's bucket (or host), built once from the environment.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::http::HttpBuilder;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{BackoffConfig, ClientOptions, ObjectStore, ObjectStoreScheme, RetryConfig};
use url::Url;

use crate::error::{Error, ErrorKind};
use crate::profile;
use crate::settings::Settings;

/// One object, looked up and pinned: what every read of it must match.
#[derive(Clone, Debug)]
pub struct Object {
    pub(crate) store: Arc<dyn ObjectStore>,
    pub(crate) path: Path,
    /// The URL it was opened by.
    pub url: String,
    pub size: u64,
    pub e_tag: Option<String>,
    pub version: Option<String>,
}

/// The stores built so far, one per bucket (or host).
#[derive(Default)]
pub(crate) struct Stores(Mutex<HashMap<String, Arc<dyn ObjectStore>>>);

impl Stores {
    /// The store holding `url` and the object's path in it.
    pub(crate) fn get(
        &self,
        settings: &Settings,
        url: &str,
    ) -> Result<(Arc<dyn ObjectStore>, Path), Error> {
        let parsed =
            Url::parse(url).map_err(|e| Error::usage(format!("{url}: not a URL ({e})")))?;
        let (scheme, path) =
            ObjectStoreScheme::parse(&parsed).map_err(|e| Error::usage(format!("{url}: {e}")))?;
        let key = format!("{}://{}", parsed.scheme(), parsed.authority());
        let mut stores = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = stores.get(&key) {
            return Ok((Arc::clone(s), path));
        }
        let store = build(settings, scheme, &parsed)
            .map_err(|e| Error::new(ErrorKind::Usage, format!("{url}: {e}")))?;
        stores.insert(key, Arc::clone(&store));
        Ok((store, path))
    }
}

fn client_options(settings: &Settings, allow_http: bool) -> ClientOptions {
    ClientOptions::new()
        .with_allow_http(allow_http)
        .with_connect_timeout(settings.timeout)
        // A whole GET of a large object takes as long as it takes: what
        // fails it is a stall (no byte for `timeout`), not its length.
        .with_timeout_disabled()
        .with_read_timeout(settings.timeout)
}

fn retry(settings: &Settings) -> RetryConfig {
    RetryConfig {
        backoff: BackoffConfig {
            init_backoff: settings.backoff,
            max_backoff: settings.backoff * 16,
            base: 2.0,
        },
        max_retries: settings.retries as usize,
        retry_timeout: settings.timeout * 4,
    }
}

fn build(
    settings: &Settings,
    scheme: ObjectStoreScheme,
    url: &Url,
) -> object_store::Result<Arc<dyn ObjectStore>> {
    let s = url.as_str();
    Ok(match scheme {
        ObjectStoreScheme::AmazonS3 => {
            let mut b = AmazonS3Builder::from_env();
            let endpoint_http = profile::fill_s3(&mut b);
            Arc::new(
                b.with_url(s)
                    .with_client_options(client_options(settings, endpoint_http))
                    .with_retry(retry(settings))
                    .build()?,
            )
        }
        ObjectStoreScheme::GoogleCloudStorage => Arc::new(
            GoogleCloudStorageBuilder::from_env()
                .with_url(s)
                .with_client_options(client_options(settings, false))
                .with_retry(retry(settings))
                .build()?,
        ),
        ObjectStoreScheme::MicrosoftAzure => Arc::new(
            MicrosoftAzureBuilder::from_env()
                .with_url(s)
                .with_client_options(client_options(settings, false))
                .with_retry(retry(settings))
                .build()?,
        ),
        ObjectStoreScheme::Http => {
            let origin = url.origin().ascii_serialization();
            Arc::new(
                HttpBuilder::new()
                    .with_url(origin)
                    .with_client_options(client_options(settings, url.scheme() == "http"))
                    .with_retry(retry(settings))
                    .build()?,
            )
        }
        ObjectStoreScheme::Local => Arc::new(LocalFileSystem::new()),
        _ => {
            return Err(object_store::Error::NotSupported {
                source: format!("scheme {}", url.scheme()).into(),
            })
        }
    })
}
