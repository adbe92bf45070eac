//! Owned device and pinned host buffers (RAII over the driver's raw calls).
//!
//! The batch pipeline copies sub-ranges of its staging buffers on its own
//! streams and synchronises explicitly, so it uses raw allocations instead
//! of cudarc's event-tracked `CudaSlice`.
//!
//! Owners keep their buffers between calls and only grow them
//! ([`DevBuf::reserve`], [`Pinned::reserve`]): `cuMemAlloc` costs tens of
//! microseconds and `cuMemFree` waits for the whole device, far more than a
//! small batch. [`allocations`] counts what was allocated per context, so a
//! test can check that repeated calls allocate nothing.

use std::sync::{Arc, Mutex};

use cudarc::driver::{result, sys, CudaContext};

use crate::error::GpuError;

/// Allocations (device and pinned host) per context, keyed by the
/// address of the owner's `Arc<CudaContext>` (each `GpuHasher` has its own).
static ALLOCATIONS: Mutex<Vec<(usize, u64)>> = Mutex::new(Vec::new());

fn context_key(ctx: &Arc<CudaContext>) -> usize {
    Arc::as_ptr(ctx) as usize
}

fn note_allocation(ctx: &Arc<CudaContext>) {
    let key = context_key(ctx);
    let mut all = ALLOCATIONS.lock().unwrap_or_else(|p| p.into_inner());
    match all.iter_mut().find(|(k, _)| *k == key) {
        Some((_, n)) => *n += 1,
        None => all.push((key, 1)),
    }
}

/// Device and pinned host buffers allocated so far through `ctx` (this
/// handle: another `Arc<CudaContext>` of the same device counts apart).
pub fn allocations(ctx: &Arc<CudaContext>) -> u64 {
    let key = context_key(ctx);
    let all = ALLOCATIONS.lock().unwrap_or_else(|p| p.into_inner());
    all.iter().find(|(k, _)| *k == key).map_or(0, |(_, n)| *n)
}

/// The size a kept buffer of `have` bytes grows to for a call that needs
/// `need` (None: it is big enough). Growing by at least half keeps a run of
/// growing calls to a few allocations.
pub fn grown_len(have: usize, need: usize) -> Option<usize> {
    (need > have).then(|| need.max(have + have / 2))
}

/// Device memory.
pub struct DevBuf {
    ptr: sys::CUdeviceptr,
    len: usize,
    ctx: Arc<CudaContext>,
}

impl DevBuf {
    /// An empty buffer (no allocation).
    pub fn empty(ctx: &Arc<CudaContext>) -> DevBuf {
        DevBuf {
            ptr: 0,
            len: 0,
            ctx: ctx.clone(),
        }
    }

    /// Allocate `len` bytes (uninitialised device memory).
    pub fn new(ctx: &Arc<CudaContext>, len: usize) -> Result<DevBuf, GpuError> {
        if len == 0 {
            return Ok(DevBuf::empty(ctx));
        }
        ctx.bind_to_thread()?;
        // SAFETY: the context is current; the memory is only ever accessed
        // by kernels and copies within its length.
        let ptr = unsafe { result::malloc_sync(len) }?;
        note_allocation(ctx);
        Ok(DevBuf {
            ptr,
            len,
            ctx: ctx.clone(),
        })
    }

    pub fn ptr(&self) -> u64 {
        self.ptr
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Grow to at least `len` bytes (contents are not kept). The caller
    /// guarantees no work on the old buffer is still queued.
    pub fn reserve(&mut self, len: usize) -> Result<(), GpuError> {
        if let Some(grown) = grown_len(self.len, len) {
            *self = DevBuf::empty(&self.ctx);
            *self = DevBuf::new(&self.ctx, grown)?;
        }
        Ok(())
    }
}

impl Drop for DevBuf {
    fn drop(&mut self) {
        if self.ptr != 0 {
            let _ = self.ctx.bind_to_thread();
            // SAFETY: allocated by malloc_sync in this context and freed once;
            // owners synchronise their streams before dropping buffers.
            let _ = unsafe { result::free_sync(self.ptr) };
        }
    }
}

/// Page-locked host memory, zero-initialised; optionally mapped into the
/// device's address space (zero-copy: kernels read it over the bus).
pub struct Pinned {
    ptr: *mut u8,
    len: usize,
    mapped: bool,
    ctx: Arc<CudaContext>,
}

// SAFETY: the buffer is plain memory owned by this value; access goes
// through &self / &mut self like a Vec<u8>.
unsafe impl Send for Pinned {}
unsafe impl Sync for Pinned {}

impl Pinned {
    /// Allocate `len` bytes; `write_combined` for buffers the CPU only
    /// writes (host-to-device staging), plain for buffers the CPU reads.
    pub fn new(
        ctx: &Arc<CudaContext>,
        len: usize,
        write_combined: bool,
    ) -> Result<Pinned, GpuError> {
        Pinned::with_mapping(ctx, len, write_combined, false)
    }

    /// [`Pinned::new`], mapped into the device's address space when `mapped`.
    pub fn with_mapping(
        ctx: &Arc<CudaContext>,
        len: usize,
        write_combined: bool,
        mapped: bool,
    ) -> Result<Pinned, GpuError> {
        if len == 0 {
            return Ok(Pinned {
                ptr: std::ptr::null_mut(),
                len: 0,
                mapped,
                ctx: ctx.clone(),
            });
        }
        ctx.bind_to_thread()?;
        let mut flags = if write_combined {
            sys::CU_MEMHOSTALLOC_WRITECOMBINED
        } else {
            0
        };
        if mapped {
            flags |= sys::CU_MEMHOSTALLOC_DEVICEMAP;
        }
        // SAFETY: the context is current; the returned memory is owned here.
        let ptr = unsafe { result::malloc_host(len, flags) }? as *mut u8;
        if ptr.is_null() {
            return Err(GpuError::OutOfMemory);
        }
        note_allocation(ctx);
        // SAFETY: `len` writable bytes were just allocated; zeroing makes
        // every later slice over them initialised memory.
        unsafe { std::ptr::write_bytes(ptr, 0, len) };
        Ok(Pinned {
            ptr,
            len,
            mapped,
            ctx: ctx.clone(),
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer is mapped for the device.
    pub fn is_mapped(&self) -> bool {
        self.mapped
    }

    /// The device address of a mapped buffer (None when not mapped or empty).
    pub fn device_ptr(&self) -> Result<Option<u64>, GpuError> {
        if !self.mapped || self.len == 0 {
            return Ok(None);
        }
        let mut d: sys::CUdeviceptr = 0;
        // SAFETY: the buffer was allocated with CU_MEMHOSTALLOC_DEVICEMAP in
        // this context; valid out-pointer.
        unsafe { sys::cuMemHostGetDevicePointer_v2(&mut d, self.ptr as *mut std::ffi::c_void, 0) }
            .result()
            .map_err(GpuError::from)?;
        Ok(Some(d))
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn as_slice(&self) -> &[u8] {
        if self.len == 0 {
            return &[];
        }
        // SAFETY: `len` initialised bytes owned by self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        if self.len == 0 {
            return &mut [];
        }
        // SAFETY: `len` initialised bytes owned by self, borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }

    /// Grow to at least `len` bytes (contents are not kept).
    /// Keeps the mapping choice the buffer was made with.
    pub fn reserve(&mut self, len: usize, write_combined: bool) -> Result<(), GpuError> {
        if let Some(grown) = grown_len(self.len, len) {
            let (ctx, mapped) = (self.ctx.clone(), self.mapped);
            *self = Pinned::with_mapping(&ctx, 0, write_combined, mapped)?;
            *self = Pinned::with_mapping(&ctx, grown, write_combined, mapped)?;
        }
        Ok(())
    }
}

impl Drop for Pinned {
    fn drop(&mut self) {
        if !self.ptr.is_null() {
            let _ = self.ctx.bind_to_thread();
            // SAFETY: allocated by malloc_host and freed once; owners
            // synchronise their streams before dropping buffers.
            let _ = unsafe { result::free_host(self.ptr as *mut std::ffi::c_void) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::grown_len;

    #[test]
    fn kept_buffers_grow_rarely() {
        assert_eq!(grown_len(0, 0), None);
        assert_eq!(grown_len(100, 100), None);
        assert_eq!(grown_len(100, 7), None);
        assert_eq!(grown_len(0, 64), Some(64));
        assert_eq!(grown_len(100, 101), Some(150));
        assert_eq!(grown_len(100, 1000), Some(1000));
        // A call growing by one byte each time allocates O(log n) times.
        let (mut have, mut allocs) = (0usize, 0);
        for need in 1..=1_000_000 {
            if let Some(g) = grown_len(have, need) {
                have = g;
                allocs += 1;
            }
        }
        assert!(allocs <= 36, "{allocs} allocations");
    }
}
