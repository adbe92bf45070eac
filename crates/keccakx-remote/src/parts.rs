//! Ranged reads of an object in parts, several in flight, each part's
//! bytes handed as they arrive to a sink of its own on the network
//! threads; the sinks' results come back to the caller in part order.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Arc;

use futures::StreamExt;
use object_store::{GetOptions, GetRange};
use tokio::sync::Semaphore;

use crate::error::{Error, ErrorKind};
use crate::read::{changed, classify};
use crate::settings::{part_size, Retries, Settings};
use crate::store::Object;

/// Where the bytes of one part go, in order, as they arrive: on a network
/// thread, so that the thread that received them works on them while they
/// are in its cache (a hasher computes chaining values there), or keeps
/// them ([`Vec<u8>`]).
pub trait PartSink: Send + 'static {
    /// What a finished part gives back to the caller.
    type Done: Send + 'static;
    /// The next bytes of the part.
    fn write(&mut self, data: &[u8]);
    /// The whole part has been written.
    fn finish(self) -> Self::Done;
}

/// A part kept whole.
impl PartSink for Vec<u8> {
    type Done = Vec<u8>;
    fn write(&mut self, data: &[u8]) {
        self.extend_from_slice(data);
    }
    fn finish(self) -> Vec<u8> {
        self
    }
}

/// One part of `obj`: ranged GETs pinned to its ETag (and version), the
/// body streamed into `sink`; a GET that breaks off is resumed from the
/// byte reached. At most `settings.jobs` parts hold a `permit` at once.
pub(crate) async fn get_part<S: PartSink>(
    obj: Object,
    range: Range<u64>,
    settings: Settings,
    mut sink: S,
    permits: Arc<Semaphore>,
) -> Result<S::Done, Error> {
    let _permit = permits
        .acquire_owned()
        .await
        .map_err(|_| Error::new(ErrorKind::Failed, "the read was cancelled"))?;
    let s = &settings;
    let mut pos = range.start;
    let mut retries = Retries::new(s);
    loop {
        let failure = read_from(&obj, pos..range.end, s, &mut sink, &mut pos).await;
        let (e, transient) = match failure {
            None => return Ok(sink.finish()),
            Some(f) => f,
        };
        if !retries.again(transient).await {
            return Err(retries.give_up(e, transient));
        }
    }
}

/// One GET of `range` into `sink`, `pos` advanced past what was written;
/// `None` when the range is complete, else the failure and whether it is
/// transient.
async fn read_from<S: PartSink>(
    obj: &Object,
    range: Range<u64>,
    s: &Settings,
    sink: &mut S,
    pos: &mut u64,
) -> Option<(Error, bool)> {
    let end = range.end;
    let opts = GetOptions {
        if_match: obj.e_tag.clone(),
        version: obj.version.clone(),
        range: Some(GetRange::Bounded(range)),
        ..Default::default()
    };
    let answer = async {
        let r = obj
            .store
            .get_opts(&obj.path, opts)
            .await
            .map_err(|e| classify(&obj.url, e))?;
        match changed(obj, &r.meta) {
            Some(e) => Err((e, false)),
            None => Ok(r.into_stream()),
        }
    };
    let mut body = match tokio::time::timeout(s.timeout * 2, answer).await {
        Ok(Ok(body)) => body,
        Ok(Err(f)) => return Some(f),
        Err(_) => {
            return Some((
                Error::new(ErrorKind::Failed, "timed out waiting for an answer"),
                true,
            ))
        }
    };
    loop {
        match tokio::time::timeout(s.timeout * 2, body.next()).await {
            Ok(Some(Ok(chunk))) => {
                if chunk.len() as u64 > end - *pos {
                    return Some((
                        Error::new(
                            ErrorKind::Changed,
                            format!(
                                "the store sent more bytes than asked for (range ending at byte {end}): \
                                 the object is not the size it was listed with"
                            ),
                        ),
                        false,
                    ));
                }
                sink.write(&chunk);
                *pos += chunk.len() as u64;
            }
            Ok(Some(Err(e))) => return Some(classify(&obj.url, e)),
            Ok(None) if *pos < end => {
                return Some((
                    Error::new(ErrorKind::Failed, "the connection ended early"),
                    true,
                ))
            }
            Ok(None) => return None,
            Err(_) => {
                return Some((
                    Error::new(ErrorKind::Failed, "timed out in the middle of the object"),
                    true,
                ))
            }
        }
    }
}

/// [`Client::read_parts_with`](crate::Client::read_parts_with).
pub(crate) fn read<S: PartSink>(
    rt: &tokio::runtime::Runtime,
    settings: &Settings,
    obj: &Object,
    unit: u64,
    ahead: usize,
    make: &mut dyn FnMut(Range<u64>) -> S,
    done: &mut dyn FnMut(S::Done) -> Result<(), Error>,
) -> Result<(), Error> {
    let s = settings;
    let part = part_size(s.part, unit);
    let size = obj.size;
    let count = size.div_ceil(part);
    let ahead = ahead.max(s.jobs).max(1) as u64;
    let permits = Arc::new(Semaphore::new(s.jobs.max(1)));
    let mut next = 0u64;
    let mut pending = VecDeque::new();
    let mut spawn = |i: u64| {
        let range = i * part..((i + 1) * part).min(size);
        let sink = make(range.clone());
        rt.spawn(get_part(
            obj.clone(),
            range,
            s.clone(),
            sink,
            Arc::clone(&permits),
        ))
    };
    let result = (|| {
        while next < count && (pending.len() as u64) < ahead {
            pending.push_back(spawn(next));
            next += 1;
        }
        while let Some(h) = pending.pop_front() {
            let got = rt
                .block_on(h)
                .map_err(|e| Error::new(ErrorKind::Failed, format!("a read task failed: {e}")))??;
            if next < count {
                pending.push_back(spawn(next));
                next += 1;
            }
            done(got)?;
        }
        Ok(())
    })();
    for h in pending {
        h.abort();
    }
    result
}
