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

/// Page-locked host memory, zero-initialised.
pub struct Pinned {
    ptr: *mut u8,
    len: usize,
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
        if len == 0 {
            return Ok(Pinned {
                ptr: std::ptr::null_mut(),
                len: 0,
                ctx: ctx.clone(),
            });
        }
        ctx.bind_to_thread()?;
        let flags = if write_combined {
            sys::CU_MEMHOSTALLOC_WRITECOMBINED
        } else {
            0
        };
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
            ctx: ctx.clone(),
        })
    }

    pub fn len(&self) -> usize {
        self.len
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
    pub fn reserve(&mut self, len: usize, write_combined: bool) -> Result<(), GpuError> {
        if len > self.len {
            let grown = len.max(self.len + self.len / 2);
            let ctx = self.ctx.clone();
            *self = Pinned::new(&ctx, 0, write_combined)?;
            *self = Pinned::new(&ctx, grown, write_combined)?;
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
