//! A store for a URL's bucket (or host), built once from the environment.

use std::sync::Arc;

use object_store::aws::AmazonS3Builder;
use object_store::azure::MicrosoftAzureBuilder;
use object_store::gcp::GoogleCloudStorageBuilder;
use object_store::http::HttpBuilder;
use object_store::local::LocalFileSystem;
use object_store::path::Path;
use object_store::{BackoffConfig, ClientOptions, ObjectStore, ObjectStoreScheme, RetryConfig};
use url::Url;

use crate::{profile, Client, Error, ErrorKind};

impl Client {
    /// The store holding `url` and the object's path in it.
    pub(crate) fn store_for(&self, url: &str) -> Result<(Arc<dyn ObjectStore>, Path), Error> {
        let parsed =
            Url::parse(url).map_err(|e| Error::usage(format!("{url}: not a URL ({e})")))?;
        let (scheme, path) =
            ObjectStoreScheme::parse(&parsed).map_err(|e| Error::usage(format!("{url}: {e}")))?;
        let key = format!("{}://{}", parsed.scheme(), parsed.authority());
        let mut stores = self.stores.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(s) = stores.get(&key) {
            return Ok((Arc::clone(s), path));
        }
        let store = self
            .build(scheme, &parsed)
            .map_err(|e| Error::new(ErrorKind::Usage, format!("{url}: {e}")))?;
        stores.insert(key, Arc::clone(&store));
        Ok((store, path))
    }

    fn client_options(&self, allow_http: bool) -> ClientOptions {
        ClientOptions::new()
            .with_allow_http(allow_http)
            .with_connect_timeout(self.settings.timeout)
            // A whole GET of a large object takes as long as it takes: what
            // fails it is a stall (no byte for `timeout`), not its length.
            .with_timeout_disabled()
            .with_read_timeout(self.settings.timeout)
    }

    fn retry(&self) -> RetryConfig {
        RetryConfig {
            backoff: BackoffConfig {
                init_backoff: self.settings.backoff,
                max_backoff: self.settings.backoff * 16,
                base: 2.0,
            },
            max_retries: self.settings.retries as usize,
            retry_timeout: self.settings.timeout * 4,
        }
    }

    fn build(
        &self,
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
                        .with_client_options(self.client_options(endpoint_http))
                        .with_retry(self.retry())
                        .build()?,
                )
            }
            ObjectStoreScheme::GoogleCloudStorage => Arc::new(
                GoogleCloudStorageBuilder::from_env()
                    .with_url(s)
                    .with_client_options(self.client_options(false))
                    .with_retry(self.retry())
                    .build()?,
            ),
            ObjectStoreScheme::MicrosoftAzure => Arc::new(
                MicrosoftAzureBuilder::from_env()
                    .with_url(s)
                    .with_client_options(self.client_options(false))
                    .with_retry(self.retry())
                    .build()?,
            ),
            ObjectStoreScheme::Http => {
                let origin = url.origin().ascii_serialization();
                Arc::new(
                    HttpBuilder::new()
                        .with_url(origin)
                        .with_client_options(self.client_options(url.scheme() == "http"))
                        .with_retry(self.retry())
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
}
