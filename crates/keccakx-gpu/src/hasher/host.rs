//! Host-fed input without the staging copy: the caller's own memory, when
//! it is page-locked (pinned by CUDA, or registered here), is the copy
//! engines' source. Staging moves three bytes of host memory traffic per
//! payload byte (read, write into pinned memory, the DMA's read); a
//! page-locked source moves one.
//!
//! - `GpuHasher::register_host` (handle.rs): register a caller's buffer for as long
//!   as the returned guard lives (callers that hash the same buffer many
//!   times: the Python module's pinned input);
//! - `hash_strided` (pipeline.rs) uploads straight from a span that is
//!   already page-locked, or registers a span of at least
//!   `GpuHasher::set_register_min_bytes` bytes for the call (off by
//!   default, see [`DEFAULT_REGISTER_MIN_BYTES`]); both are
//!   device-side behaviours (the driver says whether it can), checked at
//!   run time, and any refusal falls back to staging.
//! - [`ramp_chunks`]: the chunks of such a batch, a quarter-size chunk
//!   first (the GPU starts sooner) and the last full chunk split in
//!   halves and quarters (less of the last copy and kernel left unhidden).

use std::ops::Range;

use cudarc::driver::sys;

/// How a host-fed call's input reached the device (`PipelineStats`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HostInput {
    /// Packed into pinned staging buffers, then copied.
    #[default]
    Staged,
    /// Copied straight from the caller's memory, registered for the call.
    Registered,
    /// Copied straight from the caller's memory, page-locked already.
    PageLocked,
}

/// By default no span is registered for a single call: pinning pages
/// (cuMemHostRegister) is thought to cost more than staging them once
/// (bench/NOTES.md, "GPU round 2: expected"); the benchmark's `--focus`
/// measures both, and this default follows the measurement. Page-locked
/// input is always used as it is.
pub const DEFAULT_REGISTER_MIN_BYTES: usize = usize::MAX;

/// Chunks of `count` messages, about `per` each: `per / 4` first, then
/// whole chunks, the last `per` split as `per / 2`, `per / 4`, `per / 4`.
/// In order, disjoint, covering `0..count`; none empty.
pub fn ramp_chunks(count: usize, per: usize) -> Vec<Range<usize>> {
    let per = per.max(1);
    let mut sizes = Vec::new();
    let mut left = count;
    let q = (per / 4).max(1);
    if left > 2 * per {
        sizes.push(q);
        left -= q;
    }
    while left > 2 * per {
        sizes.push(per);
        left -= per;
    }
    // The end: at most 2 * per left.
    if left > per {
        sizes.push(left - per);
        left = per;
    }
    if per >= 4 && left == per {
        let h = per / 2;
        sizes.extend([h, (per - h) / 2, per - h - (per - h) / 2]);
    } else if left > 0 {
        sizes.push(left);
    }
    let mut at = 0;
    sizes
        .into_iter()
        .filter(|&n| n > 0)
        .map(|n| {
            at += n;
            at - n..at
        })
        .collect()
}

/// Whether `[p, p + len)` is page-locked host memory the driver knows
/// (its first and last byte; registrations cover whole ranges).
pub(super) fn page_locked(p: *const u8, len: usize) -> bool {
    if len == 0 {
        return false;
    }
    // cuMemHostGetFlags knows cuMemHostAlloc'd memory; registered memory
    // is host memory to cuPointerGetAttribute (unregistered memory is an
    // error to both).
    let probe = |q: *const u8| {
        let mut flags = 0u32;
        // SAFETY: both calls only look the address up in the driver's
        // tables; they read no memory; `ty` is a 4-byte attribute value.
        unsafe {
            if sys::cuMemHostGetFlags(&mut flags, q as *mut _)
                .result()
                .is_ok()
            {
                return true;
            }
            let mut ty = 0u32;
            sys::cuPointerGetAttribute(
                (&mut ty as *mut u32).cast(),
                sys::CUpointer_attribute::CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                q as sys::CUdeviceptr,
            )
            .result()
            .is_ok()
                && ty == sys::CUmemorytype::CU_MEMORYTYPE_HOST as u32
        }
    };
    // SAFETY: p + len - 1 is inside the caller's slice.
    probe(p) && probe(unsafe { p.add(len - 1) })
}

/// A caller's host buffer registered with the driver (page-locked) until
/// this guard is dropped; the guard borrows the buffer, so it cannot be
/// freed or moved meanwhile.
pub struct HostRegistration<'a> {
    pub(super) data: &'a [u8],
    /// The page-aligned range registered.
    pub(super) base: *mut std::ffi::c_void,
    pub(super) ctx: std::sync::Arc<cudarc::driver::CudaContext>,
}

impl HostRegistration<'_> {
    /// The registered bytes.
    pub fn bytes(&self) -> &[u8] {
        self.data
    }
}

impl Drop for HostRegistration<'_> {
    fn drop(&mut self) {
        let _ = self.ctx.bind_to_thread();
        // SAFETY: `base` was registered by register_host and is
        // unregistered once; callers have finished every copy from it (the
        // pipeline synchronises its streams before returning).
        let _ = unsafe { sys::cuMemHostUnregister(self.base) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ramped_chunks_cover_in_order_with_small_ends() {
        for per in [1usize, 2, 3, 4, 7, 8, 100, 1000] {
            for count in [0usize, 1, 2, 3, 5, 8, 99, 100, 101, 250, 1000, 4321] {
                let c = ramp_chunks(count, per);
                let mut at = 0;
                for r in &c {
                    assert_eq!(r.start, at, "count {count} per {per}");
                    assert!(
                        !r.is_empty() && r.len() <= per.max(1),
                        "count {count} per {per}: {c:?}"
                    );
                    at = r.end;
                }
                assert_eq!(at, count, "count {count} per {per}");
                if count > 2 * per && per >= 4 {
                    assert_eq!(c[0].len(), per / 4, "first chunk: count {count} per {per}");
                    assert!(c.last().unwrap().len() <= per.div_ceil(4), "last: {c:?}");
                }
            }
        }
    }
}
