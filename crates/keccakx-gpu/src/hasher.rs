//! `GpuHasher`: batch hashing on one GPU.
//!
//! Host-fed batches go through a pipeline of [`STAGES`] stages, each with
//! its own stream, pinned staging buffers and device buffers: while the GPU
//! copies and hashes chunk c on one stream, the CPU packs chunk c + 1 into
//! the next stage's pinned buffer (with several threads for big chunks), and
//! the copy engines overlap the next chunk's upload with the current kernel.
//! Device-resident batches (data already in GPU memory) launch directly.

use std::ops::Range;
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use cudarc::driver::{
    result, sys, CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtr,
    DevicePtrMut, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use keccakx::engine::LaneSpec;

use crate::error::GpuError;
use crate::kernels::{self, BatchJob, Module, BATCH_THREADS, PAPER_STATES, PERM_THREADS};
use crate::mem::{DevBuf, Pinned};
use crate::nvrtc::{Nvrtc, Target};
use crate::{device_info, driver, DeviceInfo};

/// Pipeline stages (streams with their own buffers) for host-fed batches.
pub const STAGES: usize = 3;
/// Default bytes of message data per pipeline chunk.
pub const DEFAULT_CHUNK_BYTES: usize = 32 << 20;
/// Most messages one kernel launch takes (the grid is split beyond).
const MAX_LAUNCH_MESSAGES: u64 = 1 << 30;

/// Which batch kernel runs a job (see kernels/batch.cu and paper.cu).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BatchKernel {
    /// The default choice (currently `Staged`; to be revisited with measurements).
    Auto,
    /// One thread per message, blocks staged through shared memory by the warp.
    Staged,
    /// One thread per message reading its own blocks with 8-byte loads; used
    /// only where every message offset, the rate and the buffer length are
    /// multiples of 8 and the rounds are 12 or 24 (otherwise `Staged` runs).
    Direct,
    /// `Staged` with native 64-bit lanes (24 rounds only; for comparison).
    StagedU64,
    /// The 2011 paper's design: 25 threads per state in shared memory.
    Paper,
}

impl BatchKernel {
    fn code(self) -> u8 {
        self as u8
    }
    fn from_code(c: u8) -> BatchKernel {
        match c {
            1 => BatchKernel::Staged,
            2 => BatchKernel::Direct,
            3 => BatchKernel::StagedU64,
            4 => BatchKernel::Paper,
            _ => BatchKernel::Auto,
        }
    }
}

/// Permutation-throughput kernels (benchmarks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PermKernel {
    /// One thread per state, 32-bit halves, 24 rounds (kx_perm_r24).
    Fast24,
    /// One thread per state, 32-bit halves, 12 rounds (kx_perm_r12).
    Fast12,
    /// One thread per state, native 64-bit lanes, 24 rounds (kx_perm_u64_r24).
    FastU64,
    /// 25 threads per state in shared memory, 24 rounds (kx_paper_perm).
    Paper,
}

impl PermKernel {
    /// Rounds per permutation.
    pub fn rounds(self) -> usize {
        if self == PermKernel::Fast12 {
            12
        } else {
            24
        }
    }
}

/// Where messages lie in a device buffer.
#[derive(Clone, Copy, Debug)]
pub enum Layout<'a> {
    /// Message i = data[i * stride .. i * stride + len], i < count.
    Uniform { count: usize, stride: u64, len: u64 },
    /// Message i = data[offsets[i] .. offsets[i] + lengths[i]].
    Indexed {
        offsets: &'a [u64],
        lengths: &'a [u64],
    },
}

impl Layout<'_> {
    /// Number of messages.
    pub fn count(&self) -> usize {
        match self {
            Layout::Uniform { count, .. } => *count,
            Layout::Indexed { offsets, .. } => offsets.len(),
        }
    }

    fn check(&self, data_len: u64) -> Result<(), GpuError> {
        match *self {
            Layout::Uniform { count, stride, len } => {
                if count > 0 {
                    let last = (count as u64 - 1)
                        .checked_mul(stride)
                        .and_then(|o| o.checked_add(len))
                        .ok_or(GpuError::Unsupported("uniform layout overflows"))?;
                    if last > data_len {
                        return Err(GpuError::Unsupported(
                            "uniform layout reaches past the end of the device buffer",
                        ));
                    }
                }
            }
            Layout::Indexed { offsets, lengths } => {
                if offsets.len() != lengths.len() {
                    return Err(GpuError::Unsupported(
                        "offsets and lengths differ in length",
                    ));
                }
                for (o, l) in offsets.iter().zip(lengths) {
                    match o.checked_add(*l) {
                        Some(end) if end <= data_len => {}
                        _ => {
                            return Err(GpuError::Unsupported(
                                "a message reaches past the end of the device buffer",
                            ))
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The same layout with the index arrays already on the device.
#[derive(Clone, Copy, Debug)]
pub enum RawLayout {
    /// As [`Layout::Uniform`].
    Uniform { count: u64, stride: u64, len: u64 },
    /// `count` u64 offsets and `count` u64 lengths at these device addresses.
    Indexed {
        count: u64,
        offsets: u64,
        lengths: u64,
    },
}

/// Check a LaneSpec built outside `LaneSpec::new` (its fields are public).
pub fn check_spec(spec: &LaneSpec) -> Result<(), GpuError> {
    if spec.rate_bytes == 0 || spec.rate_bytes >= 200 {
        return Err(GpuError::Unsupported("rate must be 1..199 bytes"));
    }
    if spec.rounds == 0 || spec.rounds > 24 {
        return Err(GpuError::Unsupported("rounds must be 1..24"));
    }
    if spec.delimited_suffix == 0 {
        return Err(GpuError::Unsupported("delimited suffix 0x00 is invalid"));
    }
    Ok(())
}

fn check_out_len(out_len: usize) -> Result<u32, GpuError> {
    u32::try_from(out_len)
        .map_err(|_| GpuError::Unsupported("output length per message must be below 4 GiB"))
}

/// One pipeline stage: a stream and its buffers.
pub(crate) struct Stage {
    pub(crate) stream: Arc<CudaStream>,
    pub(crate) h_in: Pinned,
    pub(crate) h_idx: Pinned,
    h_out: Pinned,
    d_in: DevBuf,
    d_idx: DevBuf,
    d_out: DevBuf,
    pending: Option<(usize, usize)>, // (chunk, output bytes)
}

/// What a pipeline fill step put into a stage's host buffers.
pub(crate) struct ChunkPlan {
    /// Bytes of `h_in` to upload.
    pub(crate) data_bytes: usize,
    /// Indexed layout: `h_idx` holds n offsets then n lengths (u64 LE).
    pub(crate) indexed: bool,
    /// Messages, layout and parameters; device pointers are set by the runner.
    pub(crate) job: BatchJob,
    /// Every message offset (or the stride) is a multiple of 8.
    pub(crate) aligned8: bool,
}

/// Hashes batches on one CUDA device.
pub struct GpuHasher {
    info: DeviceInfo,
    ctx: Arc<CudaContext>,
    target: Target,
    image_source: String,
    modules: Mutex<Vec<(Module, Arc<CudaModule>)>>,
    functions: Mutex<Vec<(&'static str, CudaFunction)>>,
    stages: Mutex<Vec<Stage>>,
    chunk_bytes: AtomicUsize,
    kernel: AtomicU8,
    last_kernel_ms: Mutex<Option<f32>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The compilation target for a device: its own `sm_XY` when NVRTC knows
/// it (or when NVRTC is absent and only a cached image can serve), else PTX
/// for the newest architecture NVRTC knows, JIT-compiled by the driver.
pub fn choose_target(cc: (u32, u32)) -> Result<Target, GpuError> {
    let dev = cc.0 * 10 + cc.1;
    let Ok(nv) = Nvrtc::get() else {
        return Ok(Target::Cubin(cc.0, cc.1));
    };
    let archs = nv.supported_archs();
    if archs.is_empty() || archs.contains(&dev) {
        return Ok(Target::Cubin(cc.0, cc.1));
    }
    match archs.iter().copied().filter(|a| *a <= dev).max() {
        Some(best) => Ok(Target::Ptx(best / 10, best % 10)),
        None => Err(GpuError::Unsupported(
            "this GPU is older than the oldest architecture this NVRTC supports",
        )),
    }
}

fn load_image(
    ctx: &Arc<CudaContext>,
    target: Target,
    image: Vec<u8>,
) -> Result<Arc<CudaModule>, GpuError> {
    let ptx = match target {
        Target::Cubin(..) => Ptx::from_binary(image),
        Target::Ptx(..) => {
            let end = image.iter().position(|b| *b == 0).unwrap_or(image.len());
            let text = String::from_utf8(image[..end].to_vec())
                .map_err(|_| GpuError::Compile("PTX image is not UTF-8".into()))?;
            Ptx::from_src(text)
        }
    };
    Ok(ctx.load_module(ptx)?)
}

/// Load a module: cached image or fresh compile; a cached image the driver
/// rejects is evicted and compiled again.
fn load_module(
    ctx: &Arc<CudaContext>,
    module: Module,
    target: Target,
) -> Result<(Arc<CudaModule>, String), GpuError> {
    let (img, source) = kernels::image(module, target)?;
    match load_image(ctx, target, img) {
        Ok(m) => Ok((m, source)),
        Err(e) if source.starts_with("cache") && Nvrtc::get().is_ok() => {
            kernels::evict(module, target);
            let (img, source) = kernels::image(module, target)?;
            let m = load_image(ctx, target, img).map_err(|e2| match e2 {
                GpuError::Cuda(m) => GpuError::Cuda(format!(
                    "loading {}: {m} (cached image: {e})",
                    module.file()
                )),
                other => other,
            })?;
            Ok((m, source))
        }
        Err(e) => Err(e),
    }
}

impl GpuHasher {
    /// Open device `ordinal`: create its context and streams and load (or
    /// compile) the 24-round batch kernels for its architecture (the other
    /// kernel sets are loaded on first use).
    pub fn new(ordinal: usize) -> Result<GpuHasher, GpuError> {
        driver::ensure()?;
        let count = result::device::get_count()?;
        if ordinal >= count.max(0) as usize {
            return Err(GpuError::NoDevice);
        }
        let info = device_info(ordinal)?;
        let target = choose_target(info.compute_capability)?;
        let ctx = CudaContext::new(ordinal)?;
        let (module, image_source) = load_module(&ctx, Module::Batch24, target)?;
        let mut stages = Vec::with_capacity(STAGES);
        for _ in 0..STAGES {
            stages.push(Stage {
                stream: ctx.new_stream()?,
                h_in: Pinned::new(&ctx, 0, true)?,
                h_idx: Pinned::new(&ctx, 0, true)?,
                h_out: Pinned::new(&ctx, 0, false)?,
                d_in: DevBuf::empty(&ctx),
                d_idx: DevBuf::empty(&ctx),
                d_out: DevBuf::empty(&ctx),
                pending: None,
            });
        }
        Ok(GpuHasher {
            info,
            ctx,
            target,
            image_source,
            modules: Mutex::new(vec![(Module::Batch24, module)]),
            functions: Mutex::new(Vec::new()),
            stages: Mutex::new(stages),
            chunk_bytes: AtomicUsize::new(DEFAULT_CHUNK_BYTES),
            kernel: AtomicU8::new(BatchKernel::Auto.code()),
            last_kernel_ms: Mutex::new(None),
        })
    }

    /// The device.
    pub fn device(&self) -> &DeviceInfo {
        &self.info
    }

    /// The cudarc context (for allocating device buffers to hand back).
    pub fn context(&self) -> &Arc<CudaContext> {
        &self.ctx
    }

    /// The stream device-resident jobs run on (stage 0's).
    pub fn stream(&self) -> Arc<CudaStream> {
        lock(&self.stages)[0].stream.clone()
    }

    /// What the kernels were compiled for (`sm_90`, or `compute_XY` PTX).
    pub fn target(&self) -> String {
        self.target.arch_flag()
    }

    /// Where the batch kernels' image came from (cache file or NVRTC).
    pub fn image_source(&self) -> &str {
        &self.image_source
    }

    /// Choose the batch kernel (default `Auto`).
    pub fn set_batch_kernel(&self, k: BatchKernel) {
        self.kernel.store(k.code(), Ordering::Relaxed);
    }

    /// The batch kernel choice.
    pub fn batch_kernel(&self) -> BatchKernel {
        BatchKernel::from_code(self.kernel.load(Ordering::Relaxed))
    }

    /// Bytes of message data per pipeline chunk (default 32 MiB; at least 64 KiB).
    pub fn set_chunk_bytes(&self, bytes: usize) {
        self.chunk_bytes
            .store(bytes.max(64 << 10), Ordering::Relaxed);
    }

    pub(crate) fn chunk_bytes(&self) -> usize {
        self.chunk_bytes.load(Ordering::Relaxed)
    }

    /// Kernel time of the last device-resident job, in milliseconds (CUDA events).
    pub fn last_kernel_ms(&self) -> Option<f32> {
        *lock(&self.last_kernel_ms)
    }

    /// Upload bytes to a new device buffer (synchronous).
    pub fn upload(&self, data: &[u8]) -> Result<CudaSlice<u8>, GpuError> {
        let stream = self.stream();
        let s = stream.clone_htod(data)?;
        stream.synchronize()?;
        Ok(s)
    }

    /// A device buffer of `len` zero bytes.
    pub fn alloc_zeros(&self, len: usize) -> Result<CudaSlice<u8>, GpuError> {
        let stream = self.stream();
        let s = stream.alloc_zeros::<u8>(len)?;
        stream.synchronize()?;
        Ok(s)
    }

    /// Copy a device buffer back to the host (synchronous).
    pub fn download(&self, data: &CudaSlice<u8>) -> Result<Vec<u8>, GpuError> {
        let stream = self.stream();
        let v = stream.clone_dtoh(data)?;
        stream.synchronize()?;
        Ok(v)
    }

    /// A kernel by name, loading (or compiling) its module on first use.
    fn function(&self, module: Module, name: &'static str) -> Result<CudaFunction, GpuError> {
        if let Some((_, f)) = lock(&self.functions).iter().find(|(n, _)| *n == name) {
            return Ok(f.clone());
        }
        let m = {
            let mut mods = lock(&self.modules);
            match mods.iter().find(|(k, _)| *k == module) {
                Some((_, m)) => m.clone(),
                None => {
                    let (m, _) = load_module(&self.ctx, module, self.target)?;
                    mods.push((module, m.clone()));
                    m
                }
            }
        };
        let f = m.load_function(name)?;
        lock(&self.functions).push((name, f.clone()));
        Ok(f)
    }

    /// Launch the batch kernel for `job` on `stream` (split into several
    /// grids for very large batches).
    fn launch(
        &self,
        stream: &CudaStream,
        spec: &LaneSpec,
        job: BatchJob,
        aligned8: bool,
    ) -> Result<(), GpuError> {
        if job.n == 0 {
            return Ok(());
        }
        let mut kind = self.batch_kernel();
        if kind == BatchKernel::Auto {
            kind = BatchKernel::Staged;
        }
        let direct_ok = aligned8
            && spec.rate_bytes.is_multiple_of(8)
            && (spec.rounds == 24 || spec.rounds == 12)
            && job.data.is_multiple_of(8)
            && job.data_len.is_multiple_of(8);
        if (kind == BatchKernel::Direct && !direct_ok)
            || (kind == BatchKernel::StagedU64 && spec.rounds != 24)
        {
            kind = BatchKernel::Staged;
        }
        let staged_smem = kernels::batch_smem_bytes(spec.rate_bytes);
        let (module, name, threads, per_block, smem) = match kind {
            BatchKernel::Paper => (
                Module::Paper,
                "kx_paper_batch",
                25 * PAPER_STATES,
                PAPER_STATES as u64,
                0,
            ),
            BatchKernel::Direct if spec.rounds == 24 => (
                Module::Batch24,
                "kx_batch_direct_r24",
                BATCH_THREADS,
                BATCH_THREADS as u64,
                0,
            ),
            BatchKernel::Direct => (
                Module::Batch12,
                "kx_batch_direct_r12",
                BATCH_THREADS,
                BATCH_THREADS as u64,
                0,
            ),
            BatchKernel::StagedU64 => (
                Module::Batch24,
                "kx_batch_u64_r24",
                BATCH_THREADS,
                BATCH_THREADS as u64,
                staged_smem,
            ),
            _ => match spec.rounds {
                24 => (
                    Module::Batch24,
                    "kx_batch_r24",
                    BATCH_THREADS,
                    BATCH_THREADS as u64,
                    staged_smem,
                ),
                12 => (
                    Module::Batch12,
                    "kx_batch_r12",
                    BATCH_THREADS,
                    BATCH_THREADS as u64,
                    staged_smem,
                ),
                _ => (
                    Module::BatchN,
                    "kx_batch_rn",
                    BATCH_THREADS,
                    BATCH_THREADS as u64,
                    staged_smem,
                ),
            },
        };
        let func = self.function(module, name)?;
        let func = &func;
        let mut first = 0u64;
        while first < job.n {
            let count = (job.n - first).min(MAX_LAUNCH_MESSAGES);
            let mut part = job;
            part.n = count;
            part.out = job.out + first * job.out_len as u64;
            if job.offsets == 0 {
                part.data = job.data + first * job.stride;
                part.data_len = job.data_len - first * job.stride;
            } else {
                part.offsets = job.offsets + 8 * first;
                part.lengths = job.lengths + 8 * first;
            }
            let cfg = LaunchConfig {
                grid_dim: (count.div_ceil(per_block) as u32, 1, 1),
                block_dim: (threads, 1, 1),
                shared_mem_bytes: smem,
            };
            let mut b = stream.launch_builder(func);
            b.arg(&part);
            // SAFETY: the kernel reads only [data, data + data_len), the
            // index arrays for n messages and writes n * out_len bytes at
            // out; callers size and keep alive those buffers until the
            // stream is synchronised. The parameter block matches the
            // kernel's signature (one KxBatchJob by value).
            unsafe { b.launch(cfg) }?;
            first += count;
        }
        Ok(())
    }

    /// Hash `inputs[i]` into `out[i * out_len .. (i + 1) * out_len]` on the
    /// GPU: the contract of `keccakx::engine::Engine::hash_many`, fallible.
    pub fn hash_many(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
    ) -> Result<(), GpuError> {
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
        let chunks = plan_chunks(inputs, out_len, self.chunk_bytes.load(Ordering::Relaxed));
        let mut fill = |c: usize, st: &mut Stage| -> Result<ChunkPlan, GpuError> {
            let msgs = &inputs[chunks[c].clone()];
            pack_messages(st, msgs, spec, out_len32)
        };
        let mut drain = |c: usize, bytes: &[u8]| -> Result<(), GpuError> {
            let r = &chunks[c];
            out[r.start * out_len..r.end * out_len].copy_from_slice(bytes);
            Ok(())
        };
        self.pipeline(spec, chunks.len(), &mut fill, &mut drain)
    }

    /// Run `n_chunks` chunks through the stages: `fill` packs chunk c into a
    /// stage's host buffers, `drain` receives chunk c's output bytes, in
    /// chunk order.
    pub(crate) fn pipeline(
        &self,
        spec: &LaneSpec,
        n_chunks: usize,
        fill: &mut dyn FnMut(usize, &mut Stage) -> Result<ChunkPlan, GpuError>,
        drain: &mut dyn FnMut(usize, &[u8]) -> Result<(), GpuError>,
    ) -> Result<(), GpuError> {
        self.ctx.bind_to_thread()?;
        let mut stages = lock(&self.stages);
        let result = (|| {
            for c in 0..n_chunks {
                let st = &mut stages[c % STAGES];
                finish(st, drain)?;
                let plan = fill(c, st)?;
                self.issue(spec, st, plan, c)?;
            }
            for k in 0..STAGES {
                let c = n_chunks + k;
                finish(&mut stages[c % STAGES], drain)?;
            }
            Ok(())
        })();
        if result.is_err() {
            // Leave no copy in flight into buffers that may be reused or freed.
            for st in stages.iter_mut() {
                let _ = st.stream.synchronize();
                st.pending = None;
            }
        }
        result
    }

    /// Upload a filled stage, launch, and queue the download of the output.
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
        st.d_in.reserve(plan.data_bytes)?;
        st.d_idx.reserve(idx_bytes)?;
        st.d_out.reserve(out_bytes)?;
        st.h_out.reserve(out_bytes, false)?;
        let cs = st.stream.cu_stream();
        // SAFETY: source ranges lie inside the pinned buffers, destinations
        // inside device buffers at least as large (reserved above); the
        // buffers stay untouched until `finish` synchronises this stream.
        unsafe {
            if plan.data_bytes > 0 {
                result::memcpy_htod_async(
                    st.d_in.ptr(),
                    &st.h_in.as_slice()[..plan.data_bytes],
                    cs,
                )?;
            }
            if idx_bytes > 0 {
                result::memcpy_htod_async(st.d_idx.ptr(), &st.h_idx.as_slice()[..idx_bytes], cs)?;
            }
        }
        job.data = st.d_in.ptr();
        job.data_len = plan.data_bytes as u64;
        if plan.indexed {
            job.offsets = st.d_idx.ptr();
            job.lengths = st.d_idx.ptr() + 8 * n as u64;
        }
        job.out = st.d_out.ptr();
        self.launch(&st.stream, spec, job, plan.aligned8)?;
        // SAFETY: as above, into the pinned output buffer of out_bytes.
        unsafe {
            result::memcpy_dtoh_async(
                &mut st.h_out.as_mut_slice()[..out_bytes],
                st.d_out.ptr(),
                cs,
            )
        }?;
        st.pending = Some((c, out_bytes));
        Ok(())
    }

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
        let d_out = DevBuf::new(&self.ctx, out.len())?;
        self.device_job(spec, data, layout, out_len, d_out.ptr())?;
        // SAFETY: d_out holds out.len() bytes written by the (finished) job.
        unsafe { result::memcpy_dtoh_sync(out, d_out.ptr()) }?;
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
        self.device_job(spec, data, layout, out_len, out_ptr)
    }

    fn device_job(
        &self,
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
        let (raw, _idx, aligned8) = match layout {
            Layout::Uniform { count, stride, len } => (
                RawLayout::Uniform {
                    count: count as u64,
                    stride,
                    len,
                },
                None,
                stride % 8 == 0,
            ),
            Layout::Indexed { offsets, lengths } => {
                let n = offsets.len();
                let mut host = Vec::with_capacity(16 * n);
                for v in offsets.iter().chain(lengths) {
                    host.extend_from_slice(&v.to_le_bytes());
                }
                let buf = DevBuf::new(&self.ctx, host.len())?;
                // SAFETY: buf holds host.len() bytes.
                unsafe { result::memcpy_htod_sync(buf.ptr(), &host) }?;
                let raw = RawLayout::Indexed {
                    count: n as u64,
                    offsets: buf.ptr(),
                    lengths: buf.ptr() + 8 * n as u64,
                };
                (raw, Some(buf), offsets.iter().all(|o| o % 8 == 0))
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
    fn run_raw(
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
        let mut job = BatchJob {
            data,
            data_len,
            out,
            rate: spec.rate_bytes as u32,
            suffix: spec.delimited_suffix as u32,
            out_len,
            rounds: spec.rounds as u32,
            ..BatchJob::default()
        };
        match layout {
            RawLayout::Uniform { count, stride, len } => {
                job.n = count;
                job.stride = stride;
                job.msg_len = len;
            }
            RawLayout::Indexed {
                count,
                offsets,
                lengths,
            } => {
                job.n = count;
                job.offsets = offsets;
                job.lengths = lengths;
            }
        }
        if job.n == 0 || out_len == 0 {
            return Ok(());
        }
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let start = self.ctx.new_event(timing)?;
        let end = self.ctx.new_event(timing)?;
        start.record(stream)?;
        self.launch(stream, spec, job, aligned8)?;
        end.record(stream)?;
        stream.synchronize()?;
        *lock(&self.last_kernel_ms) = start.elapsed_ms(&end).ok();
        Ok(())
    }

    /// Run a permutation-throughput kernel on `states` states of `iters`
    /// permutations each; returns the kernel time in seconds (CUDA events)
    /// and each state's XOR of lanes (see [`perm_reference`]).
    pub fn perm_run(
        &self,
        kernel: PermKernel,
        states: u64,
        iters: u32,
    ) -> Result<(f64, Vec<u64>), GpuError> {
        if states == 0 {
            return Ok((0.0, Vec::new()));
        }
        let (module, name, threads, per_block) = match kernel {
            PermKernel::Fast24 => (
                Module::Perm,
                "kx_perm_r24",
                PERM_THREADS,
                PERM_THREADS as u64,
            ),
            PermKernel::Fast12 => (
                Module::Perm,
                "kx_perm_r12",
                PERM_THREADS,
                PERM_THREADS as u64,
            ),
            PermKernel::FastU64 => (
                Module::Perm,
                "kx_perm_u64_r24",
                PERM_THREADS,
                PERM_THREADS as u64,
            ),
            PermKernel::Paper => (
                Module::Paper,
                "kx_paper_perm",
                25 * PAPER_STATES,
                PAPER_STATES as u64,
            ),
        };
        let func = self.function(module, name)?;
        let blocks = u32::try_from(states.div_ceil(per_block))
            .map_err(|_| GpuError::Unsupported("too many states for one grid"))?;
        self.ctx.bind_to_thread()?;
        let stream = self.stream();
        let out = DevBuf::new(&self.ctx, 8 * states as usize)?;
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let start = self.ctx.new_event(timing)?;
        let end = self.ctx.new_event(timing)?;
        let out_ptr = out.ptr();
        start.record(&stream)?;
        let mut b = stream.launch_builder(&func);
        b.arg(&out_ptr).arg(&iters).arg(&states);
        let cfg = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: 0,
        };
        // SAFETY: the kernel writes `states` u64 at out (allocated above,
        // freed after the synchronisation below); arguments match its
        // signature (u64*, u32, u64).
        unsafe { b.launch(cfg) }?;
        end.record(&stream)?;
        stream.synchronize()?;
        let ms = start.elapsed_ms(&end)?;
        let mut host = vec![0u8; 8 * states as usize];
        // SAFETY: out holds that many bytes, written by the finished kernel.
        unsafe { result::memcpy_dtoh_sync(&mut host, out.ptr()) }?;
        let v = host
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
            .collect();
        Ok((ms as f64 / 1e3, v))
    }

    /// Host-to-device copy bandwidth from pinned memory, in bytes/s (best of
    /// `reps` copies of `bytes`, timed with CUDA events).
    pub fn h2d_bandwidth(&self, bytes: usize, reps: u32) -> Result<f64, GpuError> {
        self.copy_bandwidth(bytes, reps, true)
    }

    /// Device-to-host copy bandwidth into pinned memory, in bytes/s.
    pub fn d2h_bandwidth(&self, bytes: usize, reps: u32) -> Result<f64, GpuError> {
        self.copy_bandwidth(bytes, reps, false)
    }

    fn copy_bandwidth(&self, bytes: usize, reps: u32, h2d: bool) -> Result<f64, GpuError> {
        if bytes == 0 {
            return Err(GpuError::Unsupported("copy size must be positive"));
        }
        self.ctx.bind_to_thread()?;
        let stream = self.stream();
        let mut host = Pinned::new(&self.ctx, bytes, h2d)?;
        let dev = DevBuf::new(&self.ctx, bytes)?;
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let start = self.ctx.new_event(timing)?;
        let end = self.ctx.new_event(timing)?;
        let mut best = f64::INFINITY;
        for _ in 0..reps.max(1) {
            start.record(&stream)?;
            // SAFETY: both buffers hold `bytes` bytes and outlive the
            // synchronisation below.
            unsafe {
                if h2d {
                    result::memcpy_htod_async(dev.ptr(), host.as_slice(), stream.cu_stream())?;
                } else {
                    result::memcpy_dtoh_async(host.as_mut_slice(), dev.ptr(), stream.cu_stream())?;
                }
            }
            end.record(&stream)?;
            stream.synchronize()?;
            best = best.min(start.elapsed_ms(&end)? as f64 / 1e3);
        }
        Ok(bytes as f64 / best)
    }
}

impl Drop for GpuHasher {
    fn drop(&mut self) {
        // Buffers may be freed only after their streams are idle.
        let _ = self.ctx.bind_to_thread();
        for st in lock(&self.stages).iter() {
            let _ = st.stream.synchronize();
        }
    }
}

/// Wait for a stage's chunk and hand its output to `drain`.
fn finish(
    st: &mut Stage,
    drain: &mut dyn FnMut(usize, &[u8]) -> Result<(), GpuError>,
) -> Result<(), GpuError> {
    if let Some((c, bytes)) = st.pending.take() {
        st.stream.synchronize()?;
        drain(c, &st.h_out.as_slice()[..bytes])?;
    }
    Ok(())
}

fn round8(x: usize) -> usize {
    (x + 7) & !7
}

/// Cut a batch into chunks of at most `chunk_bytes` packed bytes (and as
/// many output bytes); a message larger than that gets a chunk of its own.
fn plan_chunks(inputs: &[&[u8]], out_len: usize, chunk_bytes: usize) -> Vec<Range<usize>> {
    let max_msgs = (chunk_bytes / 8).max(1);
    let mut chunks = Vec::new();
    let (mut start, mut bytes, mut outb) = (0usize, 0usize, 0usize);
    for (i, m) in inputs.iter().enumerate() {
        let b = round8(m.len());
        if i > start
            && (bytes + b > chunk_bytes || outb + out_len > chunk_bytes || i - start >= max_msgs)
        {
            chunks.push(start..i);
            start = i;
            bytes = 0;
            outb = 0;
        }
        bytes += b;
        outb += out_len;
    }
    chunks.push(start..inputs.len());
    chunks
}

/// Threads for copying `bytes` into a staging buffer.
fn pack_threads(bytes: usize) -> usize {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let limit = match keccakx::engine::threads() {
        0 => cores,
        n => n.min(cores),
    };
    (bytes / (4 << 20)).clamp(1, limit.clamp(1, 8))
}

/// Copy messages to their offsets in `dst` (offsets increasing; each
/// message fits before the next offset), with several threads for big
/// batches.
fn copy_messages(dst: &mut [u8], msgs: &[&[u8]], offsets: &[usize]) {
    let total = dst.len();
    let threads = pack_threads(total);
    if threads <= 1 || msgs.len() < 2 {
        for (m, &o) in msgs.iter().zip(offsets) {
            dst[o..o + m.len()].copy_from_slice(m);
        }
        return;
    }
    // Split at message boundaries into `threads` pieces of similar size.
    let mut cuts = vec![0usize];
    for t in 1..threads {
        let target = total * t / threads;
        let i = offsets.partition_point(|&o| o < target);
        if i > *cuts.last().unwrap_or(&0) && i < msgs.len() {
            cuts.push(i);
        }
    }
    cuts.push(msgs.len());
    std::thread::scope(|s| {
        let mut rest = dst;
        let mut base = 0usize;
        for w in cuts.windows(2) {
            let (a, b) = (w[0], w[1]);
            let end = if b < msgs.len() { offsets[b] } else { total };
            let (mine, tail) = rest.split_at_mut(end - base);
            rest = tail;
            let my_base = base;
            base = end;
            let my_msgs = &msgs[a..b];
            let my_offs = &offsets[a..b];
            s.spawn(move || {
                for (m, &o) in my_msgs.iter().zip(my_offs) {
                    let o = o - my_base;
                    mine[o..o + m.len()].copy_from_slice(m);
                }
            });
        }
    });
}

/// Pack messages into a stage: 8-byte aligned offsets; the uniform layout
/// (no index upload) when every message has the same length.
fn pack_messages(
    st: &mut Stage,
    msgs: &[&[u8]],
    spec: &LaneSpec,
    out_len: u32,
) -> Result<ChunkPlan, GpuError> {
    let n = msgs.len();
    let first = msgs.first().map_or(0, |m| m.len());
    let uniform = msgs.iter().all(|m| m.len() == first);
    let mut job = BatchJob {
        n: n as u64,
        rate: spec.rate_bytes as u32,
        suffix: spec.delimited_suffix as u32,
        out_len,
        rounds: spec.rounds as u32,
        ..BatchJob::default()
    };
    let mut offsets = Vec::with_capacity(n);
    let mut pos = 0usize;
    for m in msgs {
        offsets.push(pos);
        pos += round8(m.len());
    }
    let data_bytes = pos;
    st.h_in.reserve(data_bytes, true)?;
    copy_messages(&mut st.h_in.as_mut_slice()[..data_bytes], msgs, &offsets);
    if uniform {
        job.stride = round8(first) as u64;
        job.msg_len = first as u64;
    } else {
        st.h_idx.reserve(16 * n, true)?;
        let idx = st.h_idx.as_mut_slice();
        for (k, (m, o)) in msgs.iter().zip(&offsets).enumerate() {
            idx[8 * k..8 * k + 8].copy_from_slice(&(*o as u64).to_le_bytes());
            idx[8 * (n + k)..8 * (n + k) + 8].copy_from_slice(&(m.len() as u64).to_le_bytes());
        }
    }
    Ok(ChunkPlan {
        data_bytes,
        indexed: !uniform,
        job,
        aligned8: true,
    })
}

/// The value `perm_run` reports for state `s`: the XOR of the lanes of
/// state s (lane q = ((s << 5) | q) * 0x9E3779B97F4A7C15) after `iters`
/// permutations of `rounds` rounds, computed on the CPU.
pub fn perm_reference(s: u64, iters: u32, rounds: usize) -> u64 {
    let mut a = [0u64; 25];
    for (q, lane) in a.iter_mut().enumerate() {
        *lane = ((s << 5) | q as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    for _ in 0..iters {
        keccakx::permutation::keccak_p1600(&mut a, rounds);
    }
    a.iter().fold(0, |x, y| x ^ y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_the_batch_in_order() {
        let data = vec![0u8; 1000];
        let msgs: Vec<&[u8]> = (0..500).map(|i| &data[..(i * 7) % 300]).collect();
        for cap in [64usize, 1000, 5000, 1 << 20] {
            let ch = plan_chunks(&msgs, 32, cap);
            assert_eq!(ch.first().unwrap().start, 0);
            assert_eq!(ch.last().unwrap().end, msgs.len());
            for w in ch.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            for r in &ch {
                assert!(!r.is_empty());
                let bytes: usize = msgs[r.clone()].iter().map(|m| round8(m.len())).sum();
                assert!(r.len() == 1 || bytes <= cap, "chunk over capacity");
            }
        }
    }

    #[test]
    fn parallel_copy_places_every_message() {
        let src: Vec<u8> = (0..(20usize << 20)).map(|i| (i % 251) as u8).collect();
        let msgs: Vec<&[u8]> = src.chunks(12345).collect();
        let mut offs = Vec::new();
        let mut pos = 0;
        for m in &msgs {
            offs.push(pos);
            pos += round8(m.len());
        }
        let mut dst = vec![0u8; pos];
        copy_messages(&mut dst, &msgs, &offs);
        for (m, &o) in msgs.iter().zip(&offs) {
            assert_eq!(&dst[o..o + m.len()], *m);
        }
    }

    #[test]
    fn layouts_are_bounds_checked() {
        assert!(Layout::Uniform {
            count: 4,
            stride: 64,
            len: 64
        }
        .check(256)
        .is_ok());
        assert!(Layout::Uniform {
            count: 4,
            stride: 64,
            len: 65
        }
        .check(256)
        .is_err());
        assert!(Layout::Uniform {
            count: 2,
            stride: u64::MAX,
            len: 1
        }
        .check(256)
        .is_err());
        assert!(Layout::Indexed {
            offsets: &[0, 10],
            lengths: &[10, 5]
        }
        .check(15)
        .is_ok());
        assert!(Layout::Indexed {
            offsets: &[0, 10],
            lengths: &[10, 6]
        }
        .check(15)
        .is_err());
        assert!(Layout::Indexed {
            offsets: &[0],
            lengths: &[]
        }
        .check(15)
        .is_err());
        assert!(Layout::Indexed {
            offsets: &[u64::MAX],
            lengths: &[2]
        }
        .check(15)
        .is_err());
    }

    #[test]
    fn spec_check_rejects_hand_built_nonsense() {
        let ok = LaneSpec::new(136, 24, 0x06).unwrap();
        assert!(check_spec(&ok).is_ok());
        for bad in [
            LaneSpec {
                rate_bytes: 0,
                ..ok
            },
            LaneSpec {
                rate_bytes: 200,
                ..ok
            },
            LaneSpec { rounds: 0, ..ok },
            LaneSpec { rounds: 25, ..ok },
            LaneSpec {
                delimited_suffix: 0,
                ..ok
            },
        ] {
            assert!(check_spec(&bad).is_err());
        }
    }

    #[test]
    fn perm_reference_matches_the_known_answer_for_the_zero_state() {
        // Keccak-f[1600] of the all-zero state: lane 0 is 0xF1258F7940E1DDE7
        // (the Keccak team's KeccakF-1600-IntermediateValues.txt).
        let mut a = [0u64; 25];
        keccakx::permutation::keccak_f1600(&mut a);
        assert_eq!(a[0], 0xF125_8F79_40E1_DDE7);
        assert_ne!(perm_reference(0, 1, 24), perm_reference(1, 1, 24));
    }
}
