//! Owned device and pinned host buffers (RAII over the driver's raw calls).
//!
//! The batch pipeline copies sub-ranges of its staging buffers on its own
//! streams and synchronises explicitly, so it uses raw allocations instead
//! of cudarc's event-tracked `CudaSlice`.

use std::sync::Arc;

use cudarc::driver::{result, sys, CudaContext};

use crate::error::GpuError;

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
        if len > self.len {
            let grown = len.max(self.len + self.len / 2);
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
        if len > self.len {
            let grown = len.max(self.len + self.len / 2);
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
