//! Pinned reads: one streamed GET (ranged parts: parts.rs); errors
//! classified, retries.

use std::future::Future;
use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use futures::StreamExt;
use object_store::{GetOptions, GetRange, ObjectMeta};

use crate::error::{Error, ErrorKind};
use crate::settings::{Retries, Settings};
use crate::store::Object;

/// Bytes per block handed over by a streamed read.
pub const STREAM_BLOCK: usize = 1 << 20;
/// Blocks a streamed read holds ahead of the hasher.
pub const READ_AHEAD: usize = 8;

/// An error from the store for the object at `url`, classified.
pub(crate) fn classify(url: &str, e: object_store::Error) -> (Error, bool) {
    use object_store::Error as E;
    let (kind, transient, what) = match &e {
        E::NotFound { .. } => (ErrorKind::NotFound, false, "No such object".to_string()),
        E::PermissionDenied { .. } => {
            (ErrorKind::Denied, false, format!("Permission denied ({e})"))
        }
        E::Unauthenticated { .. } => (ErrorKind::Denied, false, format!("Not authenticated ({e})")),
        E::Precondition { .. } => (
            ErrorKind::Changed,
            false,
            "the object changed while being read (its ETag no longer matches)".to_string(),
        ),
        E::Generic { .. } => (ErrorKind::Failed, true, e.to_string()),
        _ => (ErrorKind::Failed, false, e.to_string()),
    };
    let _ = url;
    (Error::new(kind, what), transient)
}

/// Why an answer's object is not the one pinned (its ETag, version or
/// size differs), or `None`.
pub(crate) fn changed(pinned: &Object, got: &ObjectMeta) -> Option<Error> {
    let differs =
        |a: &Option<String>, b: &Option<String>| matches!((a, b), (Some(x), Some(y)) if x != y);
    let what = if differs(&pinned.e_tag, &got.e_tag) {
        format!(
            "its ETag {} became {}",
            pinned.e_tag.as_deref().unwrap_or("-"),
            got.e_tag.as_deref().unwrap_or("-")
        )
    } else if differs(&pinned.version, &got.version) {
        format!(
            "its version {} became {}",
            pinned.version.as_deref().unwrap_or("-"),
            got.version.as_deref().unwrap_or("-")
        )
    } else if got.size != pinned.size {
        format!(
            "it was listed with a size of {} bytes and read with a size of {} bytes, under the same ETag",
            pinned.size, got.size
        )
    } else {
        return None;
    };
    Some(Error::new(
        ErrorKind::Changed,
        format!("the object changed while being read ({what})"),
    ))
}

/// One failed attempt: the error, and whether trying again may help.
type Attempt<T> = Result<T, (Error, bool)>;

/// Run `attempt` until it succeeds, fails for good, or has been retried
/// `settings.retries` times (exponential backoff); each attempt is bounded
/// by the timeout.
pub(crate) async fn with_retries<T, F, Fut>(
    settings: &Settings,
    url: &str,
    mut attempt: F,
) -> Result<T, Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = object_store::Result<T>>,
{
    retrying(settings, Some(settings.timeout * 2), || {
        let fut = attempt();
        async move { fut.await.map_err(|e| classify(url, e)) }
    })
    .await
}

/// `limit` bounds each attempt as a whole (a request without a body);
/// reads of bodies are bounded by the client's idle timeout instead.
async fn retrying<T, F, Fut>(
    settings: &Settings,
    limit: Option<std::time::Duration>,
    mut attempt: F,
) -> Result<T, Error>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Attempt<T>>,
{
    let mut retries = Retries::new(settings);
    loop {
        let r = match limit {
            None => attempt().await,
            Some(limit) => match tokio::time::timeout(limit, attempt()).await {
                Ok(r) => r,
                Err(_) => Err((
                    Error::new(
                        ErrorKind::Failed,
                        format!("timed out (no answer within {limit:.1?})"),
                    ),
                    true,
                )),
            },
        };
        match r {
            Ok(v) => return Ok(v),
            Err((e, transient)) => {
                if !retries.again(transient).await {
                    return Err(retries.give_up(e, transient));
                }
            }
        }
    }
}

/// [`Client::read_stream`].
pub(crate) fn stream(
    rt: &tokio::runtime::Runtime,
    settings: &Settings,
    obj: &Object,
    sink: &mut dyn FnMut(&[u8]),
) -> Result<(), Error> {
    if obj.size == 0 {
        return Ok(());
    }
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Result<Bytes, Error>>(READ_AHEAD);
    let task = rt.spawn(produce(obj.clone(), settings.clone(), tx));
    let mut got = 0u64;
    let mut result = Ok(());
    while let Some(item) = rx.blocking_recv() {
        match item {
            Ok(b) => {
                got += b.len() as u64;
                sink(&b);
            }
            Err(e) => {
                result = Err(e);
                break;
            }
        }
    }
    task.abort();
    result?;
    if got != obj.size {
        return Err(Error::new(
            ErrorKind::Changed,
            format!("read {got} bytes of an object of {} bytes", obj.size),
        ));
    }
    Ok(())
}

/// The producer of a streamed read: GETs from the offset reached (the
/// whole object first, the rest after a broken connection), in blocks of
/// [`STREAM_BLOCK`] sent to `tx`.
async fn produce(obj: Object, s: Settings, tx: tokio::sync::mpsc::Sender<Result<Bytes, Error>>) {
    let obj = Arc::new(obj);
    let mut off = 0u64;
    let mut block = BytesMut::with_capacity(STREAM_BLOCK);
    let mut retries = Retries::new(&s);
    while off + (block.len() as u64) < obj.size {
        let start = off + block.len() as u64;
        let attempt = async {
            let opts = GetOptions {
                if_match: obj.e_tag.clone(),
                version: obj.version.clone(),
                range: (start > 0).then_some(GetRange::Offset(start)),
                ..Default::default()
            };
            let r = obj
                .store
                .get_opts(&obj.path, opts)
                .await
                .map_err(|e| classify(&obj.url, e))?;
            if let Some(e) = changed(&obj, &r.meta) {
                return Err((e, false));
            }
            Ok(r.into_stream())
        };
        let body = match tokio::time::timeout(s.timeout * 2, attempt).await {
            Ok(r) => r,
            Err(_) => Err((
                Error::new(ErrorKind::Failed, "timed out waiting for an answer"),
                true,
            )),
        };
        let failure = match body {
            Ok(mut body) => loop {
                match tokio::time::timeout(s.timeout * 2, body.next()).await {
                    Ok(Some(Ok(chunk))) => {
                        retries.progressed();
                        let mut chunk = &chunk[..];
                        while !chunk.is_empty() {
                            let n = chunk.len().min(STREAM_BLOCK - block.len());
                            block.extend_from_slice(&chunk[..n]);
                            chunk = &chunk[n..];
                            if block.len() == STREAM_BLOCK {
                                off += STREAM_BLOCK as u64;
                                let full = std::mem::replace(
                                    &mut block,
                                    BytesMut::with_capacity(STREAM_BLOCK),
                                );
                                if tx.send(Ok(full.freeze())).await.is_err() {
                                    return;
                                }
                            }
                        }
                    }
                    Ok(Some(Err(e))) => break classify(&obj.url, e),
                    Ok(None) => {
                        if off + (block.len() as u64) < obj.size {
                            break (
                                Error::new(ErrorKind::Failed, "the connection ended early"),
                                true,
                            );
                        }
                        break (Error::new(ErrorKind::Failed, ""), false);
                    }
                    Err(_) => {
                        break (
                            Error::new(ErrorKind::Failed, "timed out in the middle of the object"),
                            true,
                        )
                    }
                }
            },
            Err(f) => f,
        };
        if off + (block.len() as u64) >= obj.size {
            break;
        }
        let (e, transient) = failure;
        if retries.again(transient).await {
            continue;
        }
        let _ = tx.send(Err(retries.give_up(e, transient))).await;
        return;
    }
    if !block.is_empty() {
        let _ = tx.send(Ok(block.freeze())).await;
    }
}
