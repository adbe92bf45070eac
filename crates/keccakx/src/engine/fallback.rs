//! The one fallback wrapper: an engine that can fail (a GPU) made
//! infallible by doing a failed call on the CPU engines instead, keeping the
//! first error for the caller's notice. The CLI, the Python module and the
//! GPU crate's own mode entry points all use it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

use super::contract::{BatchHint, Engine, EngineError, LaneSpec};
use super::select::on_cores;

/// `primary`, with every failed call redone on the CPU (same bytes).
///
/// `sticky`: after the first failure every later call goes to the CPU
/// directly (a GPU that failed once is not retried; the CLI's behaviour).
/// The first error stays available through [`Fallback::take_error`].
pub struct Fallback<E> {
    primary: E,
    sticky: bool,
    failed: AtomicBool,
    error: Mutex<Option<EngineError>>,
}

impl<E: Engine> Fallback<E> {
    /// Retry the primary on every call.
    pub fn new(primary: E) -> Self {
        Fallback {
            primary,
            sticky: false,
            failed: AtomicBool::new(false),
            error: Mutex::new(None),
        }
    }

    /// Give up on the primary after its first failure.
    pub fn sticky(primary: E) -> Self {
        Fallback {
            sticky: true,
            ..Fallback::new(primary)
        }
    }

    /// The wrapped engine.
    pub fn primary(&self) -> &E {
        &self.primary
    }

    /// The first error since the last call of this (None: no fallback).
    pub fn take_error(&self) -> Option<EngineError> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    /// Whether a call has failed over to the CPU.
    pub fn has_failed(&self) -> bool {
        self.failed.load(Ordering::Relaxed)
    }

    fn record(&self, e: EngineError) {
        self.failed.store(true, Ordering::Relaxed);
        self.error
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get_or_insert(e);
    }
}

impl<E: Engine> Engine for Fallback<E> {
    fn name(&self) -> &'static str {
        self.primary.name()
    }
    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
        self.hash_many_beside(spec, inputs, out_len, out, &mut || {})
    }
    fn hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) {
        if self.sticky && self.has_failed() {
            return on_cores(|cpu| cpu.hash_many_beside(spec, inputs, out_len, out, side));
        }
        let mut ran = false;
        let r = self
            .primary
            .try_hash_many_beside(spec, inputs, out_len, out, &mut || {
                ran = true;
                side()
            });
        if let Err(e) = r {
            self.record(e);
            if !ran {
                side();
            }
            on_cores(|cpu| cpu.hash_many(spec, inputs, out_len, out));
        }
    }
    fn batch_hint(&self) -> BatchHint {
        if self.sticky && self.has_failed() {
            BatchHint::CPU
        } else {
            self.primary.batch_hint()
        }
    }
    fn parallelism(&self) -> crate::permutation::Parallelism {
        self.primary.parallelism()
    }
    fn threads(&self) -> usize {
        self.primary.threads()
    }
    fn merkle_nodes(&self, tree: &mut [[u8; 32]]) -> Option<Result<(), EngineError>> {
        // A failure is recorded and the Merkle mode batches the levels on
        // the CPU (`None`).
        if self.sticky && self.has_failed() {
            return None;
        }
        match self.primary.merkle_nodes(tree)? {
            Ok(()) => Some(Ok(())),
            Err(e) => {
                self.record(e);
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    /// Fails on the calls listed, hashes with the scalar engine otherwise.
    struct Flaky {
        calls: AtomicUsize,
        fail: &'static [usize],
    }
    impl Engine for Flaky {
        fn name(&self) -> &'static str {
            "flaky"
        }
        fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
            super::super::scalar::Scalar.hash_many(spec, inputs, out_len, out)
        }
        fn try_hash_many_beside(
            &self,
            spec: &LaneSpec,
            inputs: &[&[u8]],
            out_len: usize,
            out: &mut [u8],
            side: &mut dyn FnMut(),
        ) -> Result<(), EngineError> {
            let c = self.calls.fetch_add(1, Ordering::SeqCst);
            if self.fail.contains(&c) {
                out.fill(0xEE);
                return Err(EngineError {
                    engine: "flaky",
                    message: format!("call {c} failed"),
                });
            }
            side();
            self.hash_many(spec, inputs, out_len, out);
            Ok(())
        }
    }

    #[test]
    fn failed_calls_give_cpu_digests_and_the_first_error() {
        let spec = LaneSpec::new(136, 24, 0x06).unwrap();
        let msgs: Vec<&[u8]> = vec![b"abc", b"", &[7u8; 300]];
        let mut want = vec![0u8; 96];
        super::super::scalar::Scalar.hash_many(&spec, &msgs, 32, &mut want);
        for sticky in [false, true] {
            let f = Flaky {
                calls: AtomicUsize::new(0),
                fail: &[1, 2],
            };
            let e = if sticky {
                Fallback::sticky(f)
            } else {
                Fallback::new(f)
            };
            for call in 0..4 {
                let mut out = vec![0u8; 96];
                let mut sides = 0;
                e.hash_many_beside(&spec, &msgs, 32, &mut out, &mut || sides += 1);
                assert_eq!(out, want, "call {call} sticky {sticky}");
                assert_eq!(sides, 1);
                let err = e.take_error();
                assert_eq!(
                    err.is_some(),
                    call == 1 || (!sticky && call == 2),
                    "call {call}"
                );
                if let Some(err) = err {
                    assert!(err.to_string().contains("flaky engine: call"), "{err}");
                }
            }
            // Sticky: after the failure the primary is not asked again.
            let asked = e.primary().calls.load(Ordering::SeqCst);
            assert_eq!(asked, if sticky { 2 } else { 4 });
            assert_eq!(e.batch_hint(), BatchHint::CPU);
        }
    }
}
