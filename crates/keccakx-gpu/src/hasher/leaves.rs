//! The tree modes' device-resident work (crate::tree gives it to keccakx's
//! KT, ParallelHash and tree LI as a `ResidentInput`): whole leaves of a
//! device buffer hashed in place, group by group, each group's chaining
//! values copied back while the next group runs; messages gathered from
//! strided pieces of a device buffer into slots and hashed with one
//! indexed launch; and plain reads of a device buffer.

use cudarc::driver::{result, sys, CudaSlice, DevicePtr};
use keccakx::engine::{LaneSpec, Strided};

use super::buffers::Scratch;
use super::handle::{lock, GpuHasher};
use super::layout::{check_out_len, check_spec, raw_job, RawLayout};
use super::pack::round8;
use crate::error::GpuError;

/// Leaves a launch takes at least (when there are that many): one thread a
/// leaf, so fewer leave most of an H100 idle (132 SMs x 2048 threads).
const MIN_GROUP_LEAVES: u64 = 1 << 18;
/// Groups a big leaf job is cut into at most: the final node absorbs one
/// group's chaining values while the GPU hashes the next.
const MAX_GROUPS: u64 = 4;

/// Most bytes of gathered messages per launch (device-resident tree LI).
const MAX_GATHER: usize = 512 << 20;
/// Largest pitch a 2-D copy takes (CU_DEVICE_ATTRIBUTE_MAX_PITCH is 2^31 - 1
/// on current GPUs); larger strides are copied piece by piece.
const MAX_PITCH: u64 = (1 << 31) - 1;

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
    /// i * leaf), in groups of at least [`MIN_GROUP_LEAVES`] and at most
    /// [`MAX_GROUPS`] groups; each group's chaining values go to `sink`
    /// while the GPU hashes the next group. The output buffers are kept
    /// between calls (no per-call allocation).
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
        let out_len32 = u32::try_from(cv_len)
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
        let group = count.div_ceil(MAX_GROUPS).max(MIN_GROUP_LEAVES).min(count);
        let groups = count.div_ceil(group);
        let group_bytes = group as usize * cv_len;
        self.context().bind_to_thread()?;
        let stream = self.stream();
        let (ptr, _record) = data.device_ptr(&stream);
        let mut scratch = lock(&self.scratch);
        let sc = &mut *scratch;
        for b in 0..groups.min(2) as usize {
            sc.d_out[b].reserve(group_bytes)?;
            sc.h_out[b].reserve(group_bytes, false)?;
        }
        let aligned8 = leaf.is_multiple_of(8) && base.is_multiple_of(8);
        let range = |g: u64| (g * group, group.min(count - g * group));
        // Queue group g: its kernel, the copy of its values, an event.
        let enqueue = |sc: &mut Scratch, g: u64| -> Result<(), GpuError> {
            let b = (g % 2) as usize;
            let (first, n) = range(g);
            let at = ptr + base + first * leaf as u64;
            let layout = RawLayout::Uniform {
                count: n,
                stride: leaf as u64,
                len: leaf as u64,
            };
            let job = raw_job(
                spec,
                at,
                end - (base + first * leaf as u64),
                layout,
                sc.d_out[b].ptr(),
                out_len32,
            );
            self.launch(&stream, spec, job, aligned8 && at.is_multiple_of(8))?;
            let bytes = n as usize * cv_len;
            // SAFETY: h_out[b] holds at least `bytes` (reserved above) and is
            // not read until done[b] has fired; d_out[b] holds the kernel's
            // `bytes` of output.
            unsafe {
                result::memcpy_dtoh_async(
                    &mut sc.h_out[b].as_mut_slice()[..bytes],
                    sc.d_out[b].ptr(),
                    stream.cu_stream(),
                )
            }?;
            sc.done[b].record(&stream)?;
            Ok(())
        };
        let t = std::time::Instant::now();
        let mut r = enqueue(sc, 0);
        for g in 0..groups {
            if r.is_err() {
                break;
            }
            if g + 1 < groups {
                // Group g + 1 reuses the buffers of group g - 1, drained below
                // in the previous turn.
                r = enqueue(sc, g + 1);
                if r.is_err() {
                    break;
                }
            }
            let b = (g % 2) as usize;
            r = sc.done[b].synchronize().map_err(GpuError::from);
            if r.is_ok() {
                let bytes = range(g).1 as usize * cv_len;
                r = sink(&sc.h_out[b].as_slice()[..bytes]);
            }
        }
        // Nothing may still use the buffers when they are reused or freed.
        let synced = stream.synchronize();
        *lock(&self.last_kernel_ms) = Some(t.elapsed().as_secs_f32() * 1e3);
        r?;
        synced?;
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
