//! Multi-core: split one large `hash_many` call across threads (rayon), each
//! part on a single-core engine. The split is by estimated work (blocks),
//! contiguous, so every part writes its own slice of the output.

use super::{Engine, LaneSpec};

/// Work below this many bytes per call stays on the calling thread: the
/// hand-off costs a few microseconds.
const MIN_PARALLEL_BYTES: usize = 64 * 1024;

/// Runs an engine on up to [`super::threads`] cores (0: all cores).
pub struct Threads {
    inner: &'static dyn Engine,
}

impl Threads {
    pub fn new(inner: &'static dyn Engine) -> Self {
        Threads { inner }
    }

    /// The per-core engine.
    pub fn inner(&self) -> &'static dyn Engine {
        self.inner
    }
}

/// Threads the multi-core paths use now: the [`super::set_threads`] limit,
/// or all of rayon's pool (one per core) when it is 0.
pub fn effective_threads() -> usize {
    let pool = rayon::current_num_threads().max(1);
    match super::threads() {
        0 => pool,
        n => n.min(pool),
    }
}

impl Engine for Threads {
    fn name(&self) -> &'static str {
        "threads"
    }

    fn is_available(&self) -> bool {
        self.inner.is_available()
    }

    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
        assert_eq!(
            out.len(),
            inputs.len() * out_len,
            "hash_many: output size mismatch"
        );
        let t = effective_threads();
        let rate = spec.rate_bytes;
        // Cost of a message: its blocks plus the squeezing blocks.
        let cost = |m: &[u8]| m.len() / rate + 1 + out_len / rate;
        let total: usize = inputs.iter().map(|m| cost(m)).sum();
        let parts = t.min(inputs.len());
        if parts <= 1 || out_len == 0 || total * rate < MIN_PARALLEL_BYTES {
            return self.inner.hash_many(spec, inputs, out_len, out);
        }
        // Contiguous ranges of about total/parts blocks each.
        let mut bounds = alloc::vec::Vec::with_capacity(parts + 1);
        bounds.push(0usize);
        let mut acc = 0usize;
        let mut k = 1;
        for (i, m) in inputs.iter().enumerate() {
            acc += cost(m);
            if k < parts && acc * parts >= total * k && i + 1 < inputs.len() {
                bounds.push(i + 1);
                k += 1;
            }
        }
        bounds.push(inputs.len());
        let inner = self.inner;
        rayon::scope(|s| {
            let mut rest = out;
            for w in bounds.windows(2) {
                let (lo, hi) = (w[0], w[1]);
                let (mine, tail) = core::mem::take(&mut rest).split_at_mut((hi - lo) * out_len);
                rest = tail;
                let part = &inputs[lo..hi];
                if hi == inputs.len() {
                    // The last part runs here, on the calling thread.
                    inner.hash_many(spec, part, out_len, mine);
                } else {
                    s.spawn(move |_| inner.hash_many(spec, part, out_len, mine));
                }
            }
        });
    }
}
