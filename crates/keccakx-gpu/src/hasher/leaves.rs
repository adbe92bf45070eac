//! The tree modes' device-resident work (crate::tree gives it to keccakx's
//! KT, ParallelHash and tree LI as a `ResidentInput`): whole leaves of a
//! device buffer hashed in place, in groups of growing size (`groups.rs`),
//! each group's chaining values copied back while the next group runs; messages gathered from
//! strided pieces of a device buffer into slots and hashed with one
//! indexed launch; and plain reads of a device buffer.

use std::ops::Range;
use std::sync::Arc;

use cudarc::driver::{result, sys, CudaSlice, CudaStream, DevicePtr};
use keccakx::engine::{LaneSpec, Strided};

use super::buffers::Scratch;
use super::groups::{leaf_groups, run_leaf_groups, GroupRunner};
use super::handle::{lock, GpuHasher};
use super::layout::{check_out_len, check_spec, raw_job, RawLayout};
use super::pack::round8;
use crate::error::GpuError;

/// Most bytes of gathered messages per launch (device-resident tree LI).
const MAX_GATHER: usize = 512 << 20;
/// Largest pitch a 2-D copy takes (CU_DEVICE_ATTRIBUTE_MAX_PITCH is 2^31 - 1
/// on current GPUs); larger strides are copied piece by piece.
const MAX_PITCH: u64 = (1 << 31) - 1;

/// [`GroupRunner`] on the GPU: group g's kernel between two timing events,
/// the copy of its values to pinned memory, an event when they are there.
struct DeviceGroups<'a> {
    hasher: &'a GpuHasher,
    sc: &'a mut Scratch,
    stream: &'a Arc<CudaStream>,
    spec: &'a LaneSpec,
    ptr: u64,
    base: u64,
    leaf: u64,
    end: u64,
    cv_len: usize,
    out_len: u32,
    aligned8: bool,
}

impl GroupRunner for DeviceGroups<'_> {
    fn enqueue(&mut self, b: usize, leaves: Range<u64>) -> Result<(), GpuError> {
        let sc = &mut *self.sc;
        let n = leaves.end - leaves.start;
        let from = self.base + leaves.start * self.leaf;
        let at = self.ptr + from;
        let layout = RawLayout::Uniform {
            count: n,
            stride: self.leaf,
            len: self.leaf,
        };
        let job = raw_job(
            self.spec,
            at,
            self.end - from,
            layout,
            sc.d_out[b].ptr(),
            self.out_len,
        );
        sc.group_events[b][0].record(self.stream)?;
        self.hasher.launch(
            self.stream,
            self.spec,
            job,
            self.aligned8 && at.is_multiple_of(8),
        )?;
        sc.group_events[b][1].record(self.stream)?;
        let bytes = n as usize * self.cv_len;
        // SAFETY: h_out[b] holds at least `bytes` (reserved for the largest
        // group) and is not read until done[b] has fired; d_out[b] holds the
        // kernel's `bytes` of output.
        unsafe {
            result::memcpy_dtoh_async(
                &mut sc.h_out[b].as_mut_slice()[..bytes],
                sc.d_out[b].ptr(),
                self.stream.cu_stream(),
            )
        }?;
        sc.done[b].record(self.stream)?;
        Ok(())
    }

    fn wait(&mut self, b: usize, leaves: Range<u64>) -> Result<(&[u8], f64), GpuError> {
        let sc = &*self.sc;
        sc.done[b].synchronize()?;
        let [start, stop] = &sc.group_events[b];
        let kernel_s = start.elapsed_ms(stop).map_or(0.0, |ms| ms as f64 / 1e3);
        let bytes = (leaves.end - leaves.start) as usize * self.cv_len;
        Ok((&sc.h_out[b].as_slice()[..bytes], kernel_s))
    }
}

/// Device-to-device 2-D copy of `height` rows of `width` bytes on `stream`.
fn copy_2d(
    src: u64,
    src_pitch: usize,
    dst: u64,
    dst_pitch: usize,
    width: usize,
    height: usize,
    stream: sys::CUstream,
) -> Result<(), GpuError> {
    if width == 0 || height == 0 {
        return Ok(());
    }
    let p = sys::CUDA_MEMCPY2D {
        srcXInBytes: 0,
        srcY: 0,
        srcMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_DEVICE,
        srcHost: std::ptr::null(),
        srcDevice: src,
        srcArray: std::ptr::null_mut(),
        srcPitch: src_pitch,
        dstXInBytes: 0,
        dstY: 0,
        dstMemoryType: sys::CUmemorytype::CU_MEMORYTYPE_DEVICE,
        dstHost: std::ptr::null_mut(),
        dstDevice: dst,
        dstArray: std::ptr::null_mut(),
        dstPitch: dst_pitch,
        WidthInBytes: width,
        Height: height,
    };
    // SAFETY: callers pass device ranges they checked: `height` rows of
    // `width` bytes at `src + i * src_pitch` inside the source buffer and
    // at `dst + i * dst_pitch` inside the destination.
    unsafe { sys::cuMemcpy2DAsync_v2(&p, stream) }
        .result()
        .map_err(GpuError::from)
}

impl GpuHasher {
    /// Hash `count` full leaves of a device buffer (leaf i at data + base +
    /// i * leaf) in launches of growing size ([`leaf_groups`]: a small
    /// first group, then doubling); each group's chaining values go to
    /// `sink` while the GPU hashes the next ([`run_leaf_groups`]). The
    /// output buffers are kept between calls (no per-call allocation); the
    /// time split is kept for [`GpuHasher::last_leaves_stats`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn leaves_device(
        &self,
        spec: &LaneSpec,
        data: &CudaSlice<u8>,
        base: u64,
        leaf: usize,
        count: u64,
        cv_len: usize,
        sink: &mut dyn FnMut(&[u8]) -> Result<(), GpuError>,
    ) -> Result<(), GpuError> {
        check_spec(spec)?;
        let out_len = u32::try_from(cv_len)
            .map_err(|_| GpuError::Unsupported("chaining values must be below 4 GiB"))?;
        if count == 0 || cv_len == 0 {
            return Ok(());
        }
        let end = count
            .checked_mul(leaf as u64)
            .and_then(|b| b.checked_add(base))
            .filter(|&e| e <= data.len() as u64)
            .ok_or(GpuError::Unsupported(
                "leaves reach past the end of the device buffer",
            ))?;
        let (first, max) = self.leaf_groups();
        let groups = leaf_groups(count, first, max);
        let most = groups.iter().map(|g| g.end - g.start).max().unwrap_or(0);
        let group_bytes = most as usize * cv_len;
        self.context().bind_to_thread()?;
        let stream = self.stream();
        let (ptr, _record) = data.device_ptr(&stream);
        let mut scratch = lock(&self.scratch);
        let sc = &mut *scratch;
        for b in 0..groups.len().min(2) {
            sc.d_out[b].reserve(group_bytes)?;
            sc.h_out[b].reserve(group_bytes, false)?;
        }
        let mut runner = DeviceGroups {
            hasher: self,
            sc,
            stream: &stream,
            spec,
            ptr,
            base,
            leaf: leaf as u64,
            end,
            cv_len,
            out_len,
            aligned8: leaf.is_multiple_of(8) && base.is_multiple_of(8),
        };
        let r = run_leaf_groups(&groups, &mut runner, sink);
        // Nothing may still use the buffers when they are reused or freed.
        let synced = stream.synchronize();
        let st = r?;
        synced?;
        *lock(&self.last_kernel_ms) = Some((st.kernel_s * 1e3) as f32);
        *lock(&self.last_leaves) = st;
        Ok(())
    }

    /// Hash `prefix || message` for messages gathered from a device buffer
    /// ([`Strided`]): the prefixes and pieces are copied into slots of one
    /// device buffer (one 2-D copy for all prefixes, one per message for
    /// its pieces: source pitch = the stride), then one indexed launch
    /// hashes the slots. Groups of at most [`MAX_GATHER`] bytes.
    pub(crate) fn gathered_device(
        &self,
        spec: &LaneSpec,
        data: &CudaSlice<u8>,
        prefix: &[u8],
        msgs: &[Strided],
        out_len: usize,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        check_spec(spec)?;
        let out_len32 = check_out_len(out_len)?;
        if msgs.len().checked_mul(out_len) != Some(out.len()) {
            return Err(GpuError::Unsupported(
                "output size must be the message count * out_len",
            ));
        }
        if msgs.is_empty() || out_len == 0 {
            return Ok(());
        }
        let dlen = data.len() as u64;
        for m in msgs {
            let end = if m.tail > 0 {
                m.count
                    .checked_mul(m.stride)
                    .and_then(|x| x.checked_add(m.first + m.tail as u64))
            } else if m.count > 0 {
                (m.count - 1)
                    .checked_mul(m.stride)
                    .and_then(|x| x.checked_add(m.first + m.piece as u64))
            } else {
                Some(m.first)
            };
            if end.is_none_or(|e| e > dlen) || (m.count > 1 && m.stride < m.piece as u64) {
                return Err(GpuError::Unsupported(
                    "a gathered message reaches past the device buffer",
                ));
            }
        }
        let hdr = prefix.len();
        let body = msgs.iter().map(|m| m.len()).max().unwrap_or(0) as usize;
        let slot = round8(hdr + body).max(8);
        let per = (MAX_GATHER / slot).max(1);
        self.context().bind_to_thread()?;
        let stream = self.stream();
        let cu = stream.cu_stream();
        let (src, _record) = data.device_ptr(&stream);
        let mut scratch = lock(&self.scratch);
        let sc = &mut *scratch;
        for (g, group) in msgs.chunks(per).enumerate() {
            let k = group.len();
            sc.gather.reserve(k * slot)?;
            sc.d_idx.reserve(16 * k)?;
            sc.d_out[0].reserve(k * out_len)?;
            let dst = sc.gather.ptr();
            // The prefixes: k copies uploaded, then one 2-D copy into the slots.
            let prefixes: Vec<u8> = prefix.repeat(k);
            if hdr > 0 {
                sc.prefixes.reserve(k * hdr)?;
                // SAFETY: prefixes holds k * hdr bytes; the host vector
                // lives until run_raw below has synchronised the stream.
                unsafe { result::memcpy_htod_async(sc.prefixes.ptr(), &prefixes, cu) }?;
                copy_2d(sc.prefixes.ptr(), hdr, dst, slot, hdr, k, cu)?;
            }
            let mut idx: Vec<u8> = Vec::with_capacity(16 * k);
            for (j, m) in group.iter().enumerate() {
                let at = dst + (j * slot + hdr) as u64;
                if m.count > 0 {
                    if m.stride <= MAX_PITCH {
                        copy_2d(
                            src + m.first,
                            m.stride as usize,
                            at,
                            m.piece,
                            m.piece,
                            m.count as usize,
                            cu,
                        )?;
                    } else {
                        for c in 0..m.count {
                            // SAFETY: inside `data` (checked above) and the slot.
                            unsafe {
                                result::memcpy_dtod_async(
                                    at + c * m.piece as u64,
                                    src + m.first + c * m.stride,
                                    m.piece,
                                    cu,
                                )
                            }?;
                        }
                    }
                }
                if m.tail > 0 {
                    let from = src + m.first + m.count * m.stride;
                    // SAFETY: inside `data` (checked above) and the slot.
                    unsafe {
                        result::memcpy_dtod_async(at + m.count * m.piece as u64, from, m.tail, cu)
                    }?;
                }
            }
            for (j, _) in group.iter().enumerate() {
                idx.extend_from_slice(&((j * slot) as u64).to_le_bytes());
            }
            for m in group {
                idx.extend_from_slice(&(hdr as u64 + m.len()).to_le_bytes());
            }
            // SAFETY: d_idx holds 16 k bytes; `idx` lives until run_raw
            // has synchronised the stream.
            unsafe { result::memcpy_htod_async(sc.d_idx.ptr(), &idx, cu) }?;
            let layout = RawLayout::Indexed {
                count: k as u64,
                offsets: sc.d_idx.ptr(),
                lengths: sc.d_idx.ptr() + 8 * k as u64,
            };
            self.run_raw(
                &stream,
                spec,
                dst,
                (k * slot) as u64,
                layout,
                sc.d_out[0].ptr(),
                out_len32,
                true,
            )?;
            let start = g * per;
            // SAFETY: d_out[0] holds the finished kernel's k * out_len bytes.
            unsafe {
                result::memcpy_dtoh_sync(
                    &mut out[start * out_len..(start + k) * out_len],
                    sc.d_out[0].ptr(),
                )
            }?;
            drop(prefixes);
        }
        Ok(())
    }

    /// Copy `buf.len()` bytes at `pos` of a device buffer to `buf`.
    pub(crate) fn read_device(
        &self,
        data: &CudaSlice<u8>,
        pos: u64,
        buf: &mut [u8],
    ) -> Result<(), GpuError> {
        if buf.is_empty() {
            return Ok(());
        }
        if pos
            .checked_add(buf.len() as u64)
            .is_none_or(|e| e > data.len() as u64)
        {
            return Err(GpuError::Unsupported(
                "read past the end of the device buffer",
            ));
        }
        let stream = self.stream();
        let (ptr, _record) = data.device_ptr(&stream);
        stream.synchronize()?;
        // SAFETY: [pos, pos + len) lies inside the buffer (checked above).
        unsafe { result::memcpy_dtoh_sync(buf, ptr + pos) }?;
        Ok(())
    }
}
