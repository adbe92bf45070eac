//! The hasher itself: `GpuHasher` (device, context, kernels loaded so far,
//! the pipeline's stages, the buffers kept between calls), its settings,
//! the statistics of host-fed calls, and plain copies to and from the
//! device. The work is done in the sibling rooms (see `hasher/mod.rs`).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use cudarc::driver::{
    result, sys, CudaContext, CudaEvent, CudaFunction, CudaModule, CudaSlice, CudaStream,
};

use crate::device::{device_info, DeviceInfo};
use crate::driver;
use crate::error::GpuError;
use crate::kernels::Module;
use crate::nvrtc::Target;

use super::buffers::{Scratch, Stage, STAGES};
use super::choice::BatchKernel;
use super::groups::{LeavesStats, FIRST_GROUP_LEAVES, MAX_GROUP_LEAVES};
use super::host::{HostInput, HostRegistration, DEFAULT_REGISTER_MIN_BYTES};
use super::load::{choose_target, load_module};
use super::pack::DEFAULT_CHUNK_BYTES;

/// How host-fed batches reach the GPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum InputPath {
    /// Pinned staging buffers, explicit asynchronous copies (the default).
    Copy,
    /// Pinned buffers mapped into the device (zero-copy): kernels read the
    /// messages over the bus, no copy engine involved.
    Mapped,
}

/// Where the time of the last host-fed call went (seconds, summed over its
/// chunks). CPU sides: `plan`, `pack`, `drain`, `wait` (blocked on the GPU);
/// GPU sides from CUDA events: `h2d`, `kernel`, `d2h`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PipelineStats {
    pub chunks: usize,
    pub messages: usize,
    pub bytes: usize,
    pub plan_s: f64,
    pub pack_s: f64,
    pub drain_s: f64,
    pub wait_s: f64,
    pub h2d_s: f64,
    pub kernel_s: f64,
    pub d2h_s: f64,
    pub wall_s: f64,
    /// How the input reached the device (host-fed strided batches can skip
    /// the staging copy).
    pub host_input: HostInput,
}

impl PipelineStats {
    /// Field-wise sum (the totals over several calls).
    pub fn add(&mut self, o: &PipelineStats) {
        self.chunks += o.chunks;
        self.messages += o.messages;
        self.bytes += o.bytes;
        self.plan_s += o.plan_s;
        self.pack_s += o.pack_s;
        self.drain_s += o.drain_s;
        self.wait_s += o.wait_s;
        self.h2d_s += o.h2d_s;
        self.kernel_s += o.kernel_s;
        self.d2h_s += o.d2h_s;
        self.wall_s += o.wall_s;
        self.host_input = o.host_input;
    }
}

/// Hashes batches on one CUDA device.
pub struct GpuHasher {
    pub(super) info: DeviceInfo,
    /// SM count, from the driver on first use (`sm_count`).
    pub(super) sms: std::sync::OnceLock<u64>,
    pub(super) ctx: Arc<CudaContext>,
    pub(super) target: Target,
    pub(super) image_source: String,
    pub(super) modules: Mutex<Vec<(Module, Arc<CudaModule>)>>,
    pub(super) functions: Mutex<Vec<(&'static str, CudaFunction)>>,
    pub(super) stages: Mutex<Vec<Stage>>,
    pub(super) chunk_bytes: AtomicUsize,
    /// Strided host batches this large register the caller's buffer.
    pub(super) register_min: AtomicUsize,
    /// Device-resident leaf jobs: first and largest launch, in leaves.
    pub(super) leaf_group_first: AtomicU64,
    pub(super) leaf_group_max: AtomicU64,
    pub(super) kernel: AtomicU8,
    pub(super) mapped_input: AtomicBool,
    pub(super) last_kernel_ms: Mutex<Option<f32>>,
    /// The time split of the last device-resident leaf job (KT, ParallelHash).
    pub(super) last_leaves: Mutex<LeavesStats>,
    /// Start/end events timing device-resident jobs, kept between calls
    /// (a job that finds them busy makes its own).
    pub(super) timing: Mutex<[CudaEvent; 2]>,
    pub(super) last_stats: Mutex<PipelineStats>,
    /// Host-fed calls and their stats summed since the last reset (a mode
    /// such as KT makes many calls per hash).
    pub(super) total_stats: Mutex<(u64, PipelineStats)>,
    pub(super) scratch: Mutex<Scratch>,
}

/// A mutex's guard, also after a panic elsewhere (the data are buffers
/// and counters, valid either way).
pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
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
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        let stages = (0..STAGES)
            .map(|_| Stage::new(&ctx))
            .collect::<Result<Vec<_>, _>>()?;
        let scratch = Scratch::new(&ctx)?;
        let job_timing = [ctx.new_event(timing)?, ctx.new_event(timing)?];
        Ok(GpuHasher {
            info,
            sms: std::sync::OnceLock::new(),
            ctx,
            target,
            image_source,
            modules: Mutex::new(vec![(Module::Batch24, module)]),
            functions: Mutex::new(Vec::new()),
            stages: Mutex::new(stages),
            chunk_bytes: AtomicUsize::new(DEFAULT_CHUNK_BYTES),
            register_min: AtomicUsize::new(DEFAULT_REGISTER_MIN_BYTES),
            leaf_group_first: AtomicU64::new(FIRST_GROUP_LEAVES),
            leaf_group_max: AtomicU64::new(MAX_GROUP_LEAVES),
            kernel: AtomicU8::new(BatchKernel::Auto.code()),
            mapped_input: AtomicBool::new(false),
            last_kernel_ms: Mutex::new(None),
            last_leaves: Mutex::new(LeavesStats::default()),
            timing: Mutex::new(job_timing),
            last_stats: Mutex::new(PipelineStats::default()),
            total_stats: Mutex::new((0, PipelineStats::default())),
            scratch: Mutex::new(scratch),
        })
    }

    /// Choose how host-fed batches reach the GPU (default [`InputPath::Copy`]).
    pub fn set_input_path(&self, path: InputPath) {
        self.mapped_input
            .store(path == InputPath::Mapped, Ordering::Relaxed);
    }

    /// How host-fed batches reach the GPU.
    pub fn input_path(&self) -> InputPath {
        if self.mapped_input.load(Ordering::Relaxed) {
            InputPath::Mapped
        } else {
            InputPath::Copy
        }
    }

    /// Device and pinned host buffers this hasher has allocated so far.
    /// Buffers are kept between calls and only grow, so repeating a call
    /// of the same size allocates nothing.
    pub fn buffer_allocations(&self) -> u64 {
        crate::mem::allocations(&self.ctx)
    }

    /// Free the buffers kept between calls (pinned host memory above all;
    /// the next call allocates again). Waits for the device's queued work.
    pub fn release_buffers(&self) -> Result<(), GpuError> {
        self.ctx.bind_to_thread()?;
        let mut stages = lock(&self.stages);
        let mut scratch = lock(&self.scratch);
        self.ctx.synchronize()?;
        for st in stages.iter_mut() {
            st.release(&self.ctx)?;
        }
        scratch.release(&self.ctx)?;
        Ok(())
    }

    /// Where the time of the last host-fed call went.
    pub fn last_pipeline_stats(&self) -> PipelineStats {
        *lock(&self.last_stats)
    }

    /// Host-fed calls since [`GpuHasher::reset_pipeline_totals`] and their
    /// stats summed (a KT or ParallelHash hash makes one call per batch of
    /// leaves).
    pub fn pipeline_totals(&self) -> (u64, PipelineStats) {
        *lock(&self.total_stats)
    }

    /// Start [`GpuHasher::pipeline_totals`] again from zero.
    pub fn reset_pipeline_totals(&self) {
        *lock(&self.total_stats) = (0, PipelineStats::default());
    }

    /// Finish a host-fed call's stats and add them to the totals.
    pub(super) fn record_call(&self, messages: usize, bytes: usize, plan_s: f64, wall_s: f64) {
        let mut st = lock(&self.last_stats);
        st.plan_s = plan_s;
        st.messages = messages;
        st.bytes = bytes;
        st.wall_s = wall_s;
        let mut t = lock(&self.total_stats);
        t.0 += 1;
        t.1.add(&st);
    }

    /// The device's SM count (DeviceInfo has none), asked of the driver
    /// once and kept: `launch` needs it for every `Auto` batch.
    pub(super) fn sm_count(&self) -> Result<u64, GpuError> {
        if let Some(&n) = self.sms.get() {
            return Ok(n);
        }
        let sms = self
            .device_attribute(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?;
        Ok(*self.sms.get_or_init(|| sms.max(1) as u64))
    }

    /// A device attribute, from the driver.
    pub(super) fn device_attribute(&self, a: sys::CUdevice_attribute) -> Result<i32, GpuError> {
        let dev = result::device::get(self.info.ordinal as i32)?;
        // SAFETY: the driver is initialised and `dev` is its handle.
        Ok(unsafe { result::device::get_attribute(dev, a) }?)
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
        lock(&self.stages)[0].stream().clone()
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

    pub(super) fn chunk_bytes(&self) -> usize {
        self.chunk_bytes.load(Ordering::Relaxed)
    }

    /// Kernel time of the last device-resident job, in milliseconds (CUDA
    /// events; for a leaf job, its launches' time summed).
    pub fn last_kernel_ms(&self) -> Option<f32> {
        *lock(&self.last_kernel_ms)
    }

    /// Leaves of the first and of the largest launch of a device-resident
    /// leaf job (default [`FIRST_GROUP_LEAVES`], [`MAX_GROUP_LEAVES`]; both
    /// at least 1). `(1 << 18, 1 << 18)` gives the earlier fixed groups,
    /// for the benchmark's baseline.
    pub fn set_leaf_groups(&self, first: u64, max: u64) {
        self.leaf_group_first.store(first.max(1), Ordering::Relaxed);
        self.leaf_group_max.store(max.max(1), Ordering::Relaxed);
    }

    pub(super) fn leaf_groups(&self) -> (u64, u64) {
        (
            self.leaf_group_first.load(Ordering::Relaxed),
            self.leaf_group_max.load(Ordering::Relaxed),
        )
    }

    /// Where the time of the last device-resident leaf job (KT,
    /// ParallelHash) went: launches, kernel time, the final node's time in
    /// the sink, wall time.
    pub fn last_leaves_stats(&self) -> LeavesStats {
        *lock(&self.last_leaves)
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
}

impl Drop for GpuHasher {
    fn drop(&mut self) {
        // Buffers may be freed only after their streams are idle.
        let _ = self.ctx.bind_to_thread();
        for st in lock(&self.stages).iter() {
            st.wait_idle();
        }
    }
}

/// The page size (for aligning registrations).
fn page_size() -> usize {
    4096
}

/// Host memory registered with the driver (hasher/host.rs has the rest of
/// host-fed input without staging).
impl GpuHasher {
    /// Register `data` with the driver (page-locked, read-only where the
    /// device supports that) until the guard is dropped: host-fed calls on
    /// it then copy straight from it. Fails with the driver's reason (no
    /// support, out of lockable memory); callers fall back to staging.
    pub fn register_host<'a>(&self, data: &'a [u8]) -> Result<HostRegistration<'a>, GpuError> {
        if data.is_empty() {
            return Err(GpuError::Unsupported("cannot register an empty buffer"));
        }
        self.ctx.bind_to_thread()?;
        let start = data.as_ptr() as usize & !(page_size() - 1);
        let end = (data.as_ptr() as usize + data.len()).div_ceil(page_size()) * page_size();
        let base = start as *mut std::ffi::c_void;
        let read_only = self.device_attribute(
            sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED,
        )? != 0;
        // SAFETY: [start, end) covers the pages of `data`, which the guard
        // borrows for its whole life; registration changes no byte.
        let register = |flags| unsafe { sys::cuMemHostRegister_v2(base, end - start, flags) };
        // Read-only where the device says it can (then also read-only
        // mappings register); else, or if that is refused, plain.
        let r = if read_only {
            register(sys::CU_MEMHOSTREGISTER_READ_ONLY).result()
        } else {
            Err(cudarc::driver::DriverError(
                sys::cudaError_enum::CUDA_ERROR_NOT_SUPPORTED,
            ))
        };
        r.or_else(|_| register(0).result())?;
        Ok(HostRegistration {
            data,
            base,
            ctx: self.ctx.clone(),
        })
    }

    /// Host-fed strided batches of at least `bytes` register the caller's
    /// buffer for the call (default [`DEFAULT_REGISTER_MIN_BYTES`];
    /// `usize::MAX`: never).
    pub fn set_register_min_bytes(&self, bytes: usize) {
        self.register_min
            .store(bytes, std::sync::atomic::Ordering::Relaxed);
    }

    pub(super) fn register_min_bytes(&self) -> usize {
        self.register_min.load(std::sync::atomic::Ordering::Relaxed)
    }
}
