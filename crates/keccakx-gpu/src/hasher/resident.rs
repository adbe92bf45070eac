//! Device-resident jobs: messages already in GPU memory, given as a
//! cudarc buffer and a [`Layout`], or at raw device addresses (buffers of
//! other libraries: CuPy, PyTorch) with a [`RawLayout`]; one launch (split
//! only for huge batches), timed with CUDA events.

use std::sync::Arc;

use cudarc::driver::{result, sys, CudaSlice, CudaStream, DevicePtr, DevicePtrMut};
use keccakx::engine::LaneSpec;

use super::buffers::Scratch;
use super::handle::{lock, GpuHasher};
use super::layout::{check_out_len, check_spec, raw_job, Layout, RawLayout};
use crate::error::GpuError;

impl GpuHasher {
    /// Hash messages already in device memory; digests come back to `out`.
    pub fn hash_many_device(
        &self,
        spec: &LaneSpec,
        data: &CudaSlice<u8>,
        layout: Layout<'_>,
        out_len: usize,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        let n = layout.count();
        if n.checked_mul(out_len) != Some(out.len()) {
            return Err(GpuError::Unsupported(
                "output buffer size must equal the message count * out_len",
            ));
        }
        if n == 0 || out_len == 0 {
            check_spec(spec)?;
            return Ok(());
        }
        let mut scratch = lock(&self.scratch);
        scratch.d_out[0].reserve(out.len())?;
        let d_out = scratch.d_out[0].ptr();
        self.device_job(&mut scratch, spec, data, layout, out_len, d_out)?;
        // SAFETY: d_out holds out.len() bytes written by the (finished) job.
        unsafe { result::memcpy_dtoh_sync(out, d_out) }?;
        Ok(())
    }

    /// Hash messages already in device memory into a device buffer
    /// (`out[i * out_len ..]`; `out` must hold count * out_len bytes).
    pub fn hash_many_device_to_device(
        &self,
        spec: &LaneSpec,
        data: &CudaSlice<u8>,
        layout: Layout<'_>,
        out_len: usize,
        out: &mut CudaSlice<u8>,
    ) -> Result<(), GpuError> {
        let need = layout
            .count()
            .checked_mul(out_len)
            .ok_or(GpuError::Unsupported("output size overflows"))?;
        if out.len() < need {
            return Err(GpuError::Unsupported(
                "device output buffer is smaller than count * out_len",
            ));
        }
        let stream = self.stream();
        let (out_ptr, _record) = out.device_ptr_mut(&stream);
        self.device_job(
            &mut lock(&self.scratch),
            spec,
            data,
            layout,
            out_len,
            out_ptr,
        )
    }

    fn device_job(
        &self,
        scratch: &mut Scratch,
        spec: &LaneSpec,
        data: &CudaSlice<u8>,
        layout: Layout<'_>,
        out_len: usize,
        out_ptr: u64,
    ) -> Result<(), GpuError> {
        check_spec(spec)?;
        let out_len32 = check_out_len(out_len)?;
        if data.context().ordinal() != self.info.ordinal {
            return Err(GpuError::Unsupported(
                "the device buffer lives on another GPU",
            ));
        }
        layout.check(data.len() as u64)?;
        self.ctx.bind_to_thread()?;
        let stream = self.stream();
        let (data_ptr, _record) = data.device_ptr(&stream);
        let host: Vec<u8>;
        let (raw, aligned8) = match layout {
            Layout::Uniform { count, stride, len } => (
                RawLayout::Uniform {
                    count: count as u64,
                    stride,
                    len,
                },
                stride % 8 == 0,
            ),
            Layout::Indexed { offsets, lengths } => {
                let n = offsets.len();
                host = offsets
                    .iter()
                    .chain(lengths)
                    .flat_map(|v| v.to_le_bytes())
                    .collect();
                scratch.d_idx.reserve(host.len())?;
                let buf = &scratch.d_idx;
                // On the job's own stream: a synchronous copy would run on the
                // legacy default stream, which does not order against this
                // non-blocking stream, so the kernel could read stale indices.
                // SAFETY: buf holds host.len() bytes; `host` lives until
                // run_raw below has synchronised the stream.
                unsafe { result::memcpy_htod_async(buf.ptr(), &host, stream.cu_stream()) }?;
                let raw = RawLayout::Indexed {
                    count: n as u64,
                    offsets: buf.ptr(),
                    lengths: buf.ptr() + 8 * n as u64,
                };
                (raw, offsets.iter().all(|o| o % 8 == 0))
            }
        };
        self.run_raw(
            &stream,
            spec,
            data_ptr,
            data.len() as u64,
            raw,
            out_ptr,
            out_len32,
            aligned8,
        )
    }

    /// Hash messages at raw device addresses (for buffers owned by other
    /// libraries: CuPy, PyTorch). Runs on `stream` (a CUstream of this
    /// device's primary context) or this hasher's own, and waits for the
    /// result before returning.
    ///
    /// # Safety
    /// `data` must address `data_len` readable device bytes, the layout must
    /// stay inside them (its index arrays, if any, must be readable device
    /// memory of `count` u64 each), `out` must address `count * out_len`
    /// writable device bytes, and `stream`, if given, must be a live stream
    /// of this device's primary context.
    #[allow(clippy::too_many_arguments)]
    pub unsafe fn hash_many_raw(
        &self,
        spec: &LaneSpec,
        data: u64,
        data_len: u64,
        layout: RawLayout,
        out: u64,
        out_len: usize,
        stream: Option<sys::CUstream>,
    ) -> Result<(), GpuError> {
        check_spec(spec)?;
        let out_len32 = check_out_len(out_len)?;
        self.ctx.bind_to_thread()?;
        let stream = match stream {
            // SAFETY: the caller vouches for the stream (see above).
            Some(s) => unsafe { self.ctx.wrap_borrowed_stream(s) },
            None => self.stream(),
        };
        let aligned8 = match layout {
            RawLayout::Uniform { stride, .. } => stride % 8 == 0,
            RawLayout::Indexed { .. } => false,
        };
        self.run_raw(
            &stream, spec, data, data_len, layout, out, out_len32, aligned8,
        )
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn run_raw(
        &self,
        stream: &Arc<CudaStream>,
        spec: &LaneSpec,
        data: u64,
        data_len: u64,
        layout: RawLayout,
        out: u64,
        out_len: u32,
        aligned8: bool,
    ) -> Result<(), GpuError> {
        let job = raw_job(spec, data, data_len, layout, out, out_len);
        if job.n == 0 || out_len == 0 {
            return Ok(());
        }
        // Kept events when free (another thread's job may hold them).
        let own;
        let kept = self.timing.try_lock();
        let [start, end] = match &kept {
            Ok(events) => &**events,
            Err(_) => {
                let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
                own = [self.ctx.new_event(timing)?, self.ctx.new_event(timing)?];
                &own
            }
        };
        start.record(stream)?;
        self.launch(stream, spec, job, aligned8)?;
        end.record(stream)?;
        stream.synchronize()?;
        *lock(&self.last_kernel_ms) = start.elapsed_ms(end).ok();
        Ok(())
    }
}
