//! Host-fed batches: a pipeline of [`STAGES`] stages (a stream, pinned
//! staging buffers, device buffers and events each). Chunk c is packed on
//! the CPU into a free stage while the stages before it copy and hash; the
//! digests of the chunk a stage ran before are drained as it is refilled.

use std::ops::Range;
use std::time::Instant;

use cudarc::driver::{result, CudaEvent};
use keccakx::engine::LaneSpec;

use super::buffers::{ChunkPlan, HostBufs, HostSpan, Stage, STAGES};
use super::handle::{lock, GpuHasher, InputPath, PipelineStats};
use super::host::{page_locked, ramp_chunks, HostInput};
use super::layout::{check_out_len, check_spec};
use super::pack::{
    copy_parallel, pack_messages, plan_chunks, MAX_CHUNK_BYTES, MIN_LAUNCH_MESSAGES,
};
use crate::error::GpuError;
use crate::kernels::BatchJob;
use crate::mem::Pinned;

/// A pipeline's fill step: pack chunk c into a stage's host buffers.
type Fill<'a> = dyn FnMut(usize, &mut HostBufs) -> Result<ChunkPlan, GpuError> + Send + 'a;
/// A pipeline's drain step: chunk c's output bytes.
type Drain<'a> = dyn FnMut(usize, &[u8]) -> Result<(), GpuError> + Send + 'a;

impl GpuHasher {
    /// Hash `inputs[i]` into `out[i * out_len .. (i + 1) * out_len]` on the
    /// GPU: the contract of `keccakx::engine::Engine::hash_many`, fallible.
    /// Every message goes to the GPU (the engine, [`crate::GpuEngine`],
    /// routes by cost first).
    pub fn hash_many(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        self.hash_many_beside(spec, inputs, out_len, out, &mut || {})
    }

    /// [`GpuHasher::hash_many`], running `side()` once on the calling thread
    /// after the first chunk is queued on the GPU (the modes' serial work:
    /// KT's final node absorbing the previous call's chaining values). It
    /// runs even when the call fails.
    pub fn hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) -> Result<(), GpuError> {
        let mut side_done = false;
        let r = (|| {
            check_spec(spec)?;
            let out_len32 = check_out_len(out_len)?;
            if inputs.len().checked_mul(out_len) != Some(out.len()) {
                return Err(GpuError::Unsupported(
                    "output buffer size must equal inputs.len() * out_len",
                ));
            }
            if inputs.is_empty() || out_len == 0 {
                return Ok(());
            }
            let t0 = Instant::now();
            let chunks = plan_chunks(inputs, out_len, self.chunk_bytes());
            let plan_s = t0.elapsed().as_secs_f64();
            let mut fill = |c: usize, host: &mut HostBufs| -> Result<ChunkPlan, GpuError> {
                pack_messages(host, &inputs[chunks[c].clone()], spec, out_len32)
            };
            let mut drain = drain_into(out, &chunks, out_len);
            let mut beside = || {
                side_done = true;
                side()
            };
            let r = self.pipeline(spec, chunks.len(), &mut fill, &mut drain, &mut beside);
            self.record_call(
                inputs.len(),
                inputs.iter().map(|m| m.len()).sum(),
                plan_s,
                t0.elapsed().as_secs_f64(),
            );
            r
        })();
        if !side_done {
            side();
        }
        r
    }

    /// Hash `count` messages of `len` bytes lying `stride` bytes apart in
    /// one host buffer (message i = `data[i * stride .. i * stride + len]`,
    /// fixed-size records, the rows of a 2-D array) into
    /// `out[i * out_len ..]`. The same pipeline as [`GpuHasher::hash_many`],
    /// but a chunk is packed with one parallel copy of its span of `data`
    /// rather than a copy per message: many small messages pack at the
    /// host's memory bandwidth.
    #[allow(clippy::too_many_arguments)]
    pub fn hash_strided(
        &self,
        spec: &LaneSpec,
        data: &[u8],
        stride: usize,
        len: usize,
        count: usize,
        out_len: usize,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
        check_spec(spec)?;
        let out_len32 = check_out_len(out_len)?;
        if count.checked_mul(out_len) != Some(out.len()) {
            return Err(GpuError::Unsupported(
                "output buffer size must equal count * out_len",
            ));
        }
        if count == 0 || out_len == 0 {
            return Ok(());
        }
        if stride < len
            || (count - 1)
                .checked_mul(stride)
                .and_then(|x| x.checked_add(len))
                .is_none_or(|end| end > data.len())
        {
            return Err(GpuError::Unsupported(
                "strided messages must not overlap and must lie inside the buffer",
            ));
        }
        let t0 = Instant::now();
        // Chunks of about chunk_bytes of data, at least MIN_LAUNCH_MESSAGES
        // messages, at most MAX_CHUNK_BYTES of data and of output; a small
        // first and small last ones (ramp_chunks).
        let step = stride.max(1);
        let per = (self.chunk_bytes() / step)
            .max(MIN_LAUNCH_MESSAGES)
            .min(MAX_CHUNK_BYTES / step)
            .min(MAX_CHUNK_BYTES / out_len)
            .max(1);
        let chunks = ramp_chunks(count, per);
        // The caller's memory as the copies' source when it is page-locked
        // already, or registered here for a big enough batch; else staged
        // (also when the driver refuses the registration).
        let all = &data[..(count - 1) * stride + len];
        self.ctx.bind_to_thread()?;
        let mut registration = None;
        let host_input = if self.input_path() == InputPath::Mapped {
            HostInput::Staged
        } else if page_locked(all.as_ptr(), all.len()) {
            HostInput::PageLocked
        } else if all.len() >= self.register_min_bytes() {
            match self.register_host(all) {
                Ok(g) => {
                    registration = Some(g);
                    HostInput::Registered
                }
                Err(_) => HostInput::Staged,
            }
        } else {
            HostInput::Staged
        };
        let direct = host_input != HostInput::Staged;
        // (The kernel reads the device copy, whose alignment launch() checks.)
        let aligned8 = stride.is_multiple_of(8);
        let mut fill = |c: usize, host: &mut HostBufs| -> Result<ChunkPlan, GpuError> {
            let Range {
                start: first,
                end: last,
            } = chunks[c].clone();
            let span = &data[first * stride..(last - 1) * stride + len];
            if !direct {
                host.h_in.reserve(span.len(), true)?;
                copy_parallel(&mut host.h_in.as_mut_slice()[..span.len()], span);
            }
            Ok(ChunkPlan {
                data_bytes: span.len(),
                indexed: false,
                job: BatchJob {
                    n: (last - first) as u64,
                    stride: stride as u64,
                    msg_len: len as u64,
                    rate: spec.rate_bytes as u32,
                    suffix: spec.delimited_suffix as u32,
                    out_len: out_len32,
                    rounds: spec.rounds as u32,
                    ..BatchJob::default()
                },
                aligned8,
                direct: direct.then_some(HostSpan(span.as_ptr())),
            })
        };
        let mut drain = drain_into(out, &chunks, out_len);
        let r = self.pipeline(spec, chunks.len(), &mut fill, &mut drain, &mut || {});
        // Every copy from the caller's memory is done (the pipeline waits
        // for every stage, also on errors): unregister.
        drop(registration);
        lock(&self.last_stats).host_input = host_input;
        self.record_call(count, count * len, 0.0, t0.elapsed().as_secs_f64());
        r
    }

    /// Run `n_chunks` chunks through the stages: `fill` packs chunk c into a
    /// stage's host buffers while `drain` receives the output bytes of the
    /// chunk that stage ran before (in chunk order, on two threads at once);
    /// `side` runs once, after the first chunk is queued.
    fn pipeline(
        &self,
        spec: &LaneSpec,
        n_chunks: usize,
        fill: &mut Fill<'_>,
        drain: &mut Drain<'_>,
        side: &mut dyn FnMut(),
    ) -> Result<(), GpuError> {
        self.ctx.bind_to_thread()?;
        let mapped = self.input_path() == InputPath::Mapped;
        let mut stages = lock(&self.stages);
        let mut stats = PipelineStats::default();
        let mut side = Some(side);
        let result = (|| {
            for st in stages.iter_mut() {
                if st.host.h_in.is_mapped() != mapped {
                    // The input path changed: new host buffers of that kind.
                    st.host.h_in = Pinned::with_mapping(&self.ctx, 0, true, mapped)?;
                    st.host.h_idx = Pinned::with_mapping(&self.ctx, 0, true, mapped)?;
                }
            }
            for c in 0..n_chunks + STAGES {
                let st = &mut stages[c % STAGES];
                let previous = wait_stage(st, &mut stats)?;
                let Stage { host, h_out, .. } = st;
                let mut fill_c =
                    |host: &mut HostBufs| -> Result<Option<(ChunkPlan, f64)>, GpuError> {
                        if c >= n_chunks {
                            return Ok(None);
                        }
                        let t = Instant::now();
                        let p = fill(c, host)?;
                        Ok(Some((p, t.elapsed().as_secs_f64())))
                    };
                let mut drain_prev = |h_out: &Pinned| -> Result<f64, GpuError> {
                    let t = Instant::now();
                    if let Some((pc, bytes)) = previous {
                        drain(pc, &h_out.as_slice()[..bytes])?;
                    }
                    Ok(t.elapsed().as_secs_f64())
                };
                let (plan, drained) = if previous.is_some() && c < n_chunks {
                    let (d, f) = rayon::join(|| drain_prev(h_out), || fill_c(host));
                    (f?, d?)
                } else {
                    let d = drain_prev(h_out)?;
                    (fill_c(host)?, d)
                };
                stats.drain_s += drained;
                if let Some((plan, packed)) = plan {
                    stats.pack_s += packed;
                    self.issue(spec, st, plan, c)?;
                    stats.chunks += 1;
                    if let Some(f) = side.take() {
                        f();
                    }
                }
            }
            Ok(())
        })();
        if let Some(f) = side.take() {
            f();
        }
        if result.is_err() {
            // Leave no copy in flight into buffers that may be reused or freed.
            for st in stages.iter_mut() {
                let _ = st.stream.synchronize();
                st.pending = None;
            }
        }
        *lock(&self.last_stats) = stats;
        result
    }

    /// Upload a filled stage (or, mapped, point the kernel at it), launch,
    /// and queue the download of the output, with events between the steps.
    fn issue(
        &self,
        spec: &LaneSpec,
        st: &mut Stage,
        plan: ChunkPlan,
        c: usize,
    ) -> Result<(), GpuError> {
        let mut job = plan.job;
        let n = job.n as usize;
        let out_bytes = n * job.out_len as usize;
        let idx_bytes = if plan.indexed { 16 * n } else { 0 };
        st.d_out.reserve(out_bytes)?;
        st.h_out.reserve(out_bytes, false)?;
        let cs = st.stream.cu_stream();
        st.events[0].record(&st.stream)?;
        let (data_ptr, idx_ptr) = match (st.host.h_in.device_ptr()?, plan.data_bytes) {
            _ if plan.direct.is_some() && plan.data_bytes > 0 => {
                let src = plan.direct.map_or(std::ptr::null(), |h| h.0);
                st.d_in.reserve(plan.data_bytes)?;
                // SAFETY: `src` is data_bytes of the caller's page-locked
                // buffer, borrowed for the whole pipeline call, which waits
                // for this stream before returning.
                unsafe {
                    let span = std::slice::from_raw_parts(src, plan.data_bytes);
                    result::memcpy_htod_async(st.d_in.ptr(), span, cs)?;
                }
                (st.d_in.ptr(), 0)
            }
            (Some(d), _) => {
                let i = if idx_bytes > 0 {
                    st.host.h_idx.device_ptr()?.unwrap_or(0)
                } else {
                    0
                };
                (d, i)
            }
            (None, 0) => (0, 0),
            (None, _) => {
                st.d_in.reserve(plan.data_bytes)?;
                st.d_idx.reserve(idx_bytes)?;
                // SAFETY: source ranges lie inside the pinned buffers,
                // destinations inside device buffers at least as large
                // (reserved above); the buffers stay untouched until `finish`
                // synchronises this stream.
                unsafe {
                    result::memcpy_htod_async(
                        st.d_in.ptr(),
                        &st.host.h_in.as_slice()[..plan.data_bytes],
                        cs,
                    )?;
                    if idx_bytes > 0 {
                        result::memcpy_htod_async(
                            st.d_idx.ptr(),
                            &st.host.h_idx.as_slice()[..idx_bytes],
                            cs,
                        )?;
                    }
                }
                (st.d_in.ptr(), st.d_idx.ptr())
            }
        };
        st.events[1].record(&st.stream)?;
        job.data = data_ptr;
        job.data_len = plan.data_bytes as u64;
        if plan.indexed {
            job.offsets = idx_ptr;
            job.lengths = idx_ptr + 8 * n as u64;
        }
        job.out = st.d_out.ptr();
        self.launch(&st.stream, spec, job, plan.aligned8)?;
        st.events[2].record(&st.stream)?;
        // SAFETY: as above, into the pinned output buffer of out_bytes.
        unsafe {
            result::memcpy_dtoh_async(
                &mut st.h_out.as_mut_slice()[..out_bytes],
                st.d_out.ptr(),
                cs,
            )
        }?;
        st.events[3].record(&st.stream)?;
        st.pending = Some((c, out_bytes));
        Ok(())
    }
}

/// Wait for a stage's chunk (if any), add its event times to `stats`, and
/// say which chunk it was and how many output bytes it left in `h_out`.
fn wait_stage(
    st: &mut Stage,
    stats: &mut PipelineStats,
) -> Result<Option<(usize, usize)>, GpuError> {
    let Some(p) = st.pending.take() else {
        return Ok(None);
    };
    let t = Instant::now();
    st.stream.synchronize()?;
    stats.wait_s += t.elapsed().as_secs_f64();
    let ms = |a: &CudaEvent, b: &CudaEvent| a.elapsed_ms(b).map(|x| x as f64 / 1e3).unwrap_or(0.0);
    stats.h2d_s += ms(&st.events[0], &st.events[1]);
    stats.kernel_s += ms(&st.events[1], &st.events[2]);
    stats.d2h_s += ms(&st.events[2], &st.events[3]);
    Ok(Some(p))
}

/// The pipeline's `drain` for a batch whose chunk c is messages `chunks[c]`
/// (disjoint, in order, covering `out.len() / out_len` messages): copies
/// each chunk's digests into its part of `out`.
fn drain_into<'a>(
    out: &'a mut [u8],
    chunks: &'a [Range<usize>],
    out_len: usize,
) -> impl FnMut(usize, &[u8]) -> Result<(), GpuError> + Send + 'a {
    debug_assert!(chunks.last().is_none_or(|r| r.end * out_len <= out.len()));
    let out_ptr = SendPtr(out.as_mut_ptr());
    move |c: usize, bytes: &[u8]| {
        let r = &chunks[c];
        let p = out_ptr;
        // SAFETY: chunk c owns out[r.start * out_len .. r.end * out_len]
        // (chunks are disjoint and inside `out`, borrowed mutably for 'a,
        // the whole pipeline call), so no two calls write the same bytes.
        let dst = unsafe {
            std::slice::from_raw_parts_mut(p.0.add(r.start * out_len), r.len() * out_len)
        };
        copy_parallel(dst, bytes);
        Ok(())
    }
}

/// A raw pointer the drain closure may carry to another thread.
#[derive(Clone, Copy)]
struct SendPtr(*mut u8);
// SAFETY: used only to rebuild disjoint per-chunk slices of one buffer.
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}
