//! `GpuHasher`: batch hashing on one GPU.
//!
//! Host-fed batches go through a pipeline of [`STAGES`] stages, each with
//! its own stream, pinned staging buffers and device buffers: while the GPU
//! copies and hashes chunk c on one stream, the CPU packs chunk c + 1 into
//! the next stage's pinned buffer (with several threads for big chunks), and
//! the copy engines overlap the next chunk's upload with the current kernel.
//! Device-resident batches (data already in GPU memory) launch directly.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

use cudarc::driver::{
    result, sys, CudaContext, CudaEvent, CudaFunction, CudaModule, CudaSlice, CudaStream,
    DevicePtr, DevicePtrMut, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use keccakx::engine::LaneSpec;
use rayon::prelude::*;

use crate::device::{device_info, DeviceInfo};
use crate::driver;
use crate::error::GpuError;
use crate::kernels::{self, BatchJob, Module, BATCH_THREADS, PAPER_STATES, PERM_THREADS};
use crate::mem::{DevBuf, Pinned};
use crate::nvrtc::{Nvrtc, Target};

/// Pipeline stages (streams with their own buffers) for host-fed batches.
pub const STAGES: usize = 3;
/// Default bytes of message data per pipeline chunk (a chunk also takes at
/// least [`MIN_LAUNCH_MESSAGES`] messages, up to [`MAX_CHUNK_BYTES`]).
pub const DEFAULT_CHUNK_BYTES: usize = 32 << 20;
/// Messages a chunk takes at least (when they fit [`MAX_CHUNK_BYTES`]), so
/// that its kernel keeps up with the copies: n messages of L bytes take
/// n L / h2d to upload and at least (L / rate) one-thread permutation
/// latencies to hash, which is shorter once n > latency × h2d / rate:
/// 6.9 µs × 55 GB/s / 136 B ≈ 2,800 on the H200 (run 2). It was 100,000,
/// which made every 256 MiB call of 8 KiB KT leaves one chunk: packing,
/// copy and kernel in sequence, 21-32 GB/s host-fed (run 2).
pub const MIN_LAUNCH_MESSAGES: usize = 4096;
/// Most bytes of message data (or of output) in one chunk.
pub const MAX_CHUNK_BYTES: usize = 256 << 20;
/// Most messages per packing piece (one rayon task).
const PACK_PIECE: usize = 8192;
/// Packed bytes a piece aims at: a chunk of few long messages still spreads
/// over every core (with 8192 messages a piece, a 256 MiB chunk of 64 KiB
/// messages was one piece: one core packed at 7 GB/s on the H200 machine,
/// bench/results/gpu-h200-2026-11-27-run1.json).
const PACK_PIECE_BYTES: usize = 2 << 20;
/// Most messages one kernel launch takes (the grid is split beyond).
const MAX_LAUNCH_MESSAGES: u64 = 1 << 30;

/// Which batch kernel runs a job (see kernels/batch.cu and paper.cu).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BatchKernel {
    /// `Warp` for a batch too small to fill the GPU with one thread per
    /// message (fewer than [`BatchKernel::WARP_MESSAGES_PER_SM`] × SMs
    /// messages) of long messages (at least
    /// [`BatchKernel::WARP_MIN_BLOCKS`] rate blocks on average); else
    /// `Direct` where the layout allows it (8-byte aligned offsets, rate and
    /// buffer; 12 or 24 rounds), else `DoubleBuffered` (sm_80 and newer),
    /// else `Staged`. To be revisited with the GPU runs' measurements.
    Auto,
    /// One thread per message, blocks staged through shared memory by the warp.
    Staged,
    /// `Staged` with block t + 1 copied (cp.async, raw words) while block t
    /// is permuted; 12 or 24 rounds (otherwise `Staged` runs).
    DoubleBuffered,
    /// One thread per message reading its own blocks with 8-byte loads; used
    /// only where every message offset, the rate and the buffer length are
    /// multiples of 8 and the rounds are 12 or 24 (otherwise `Staged` runs).
    Direct,
    /// `Staged` with native 64-bit lanes (24 rounds only; for comparison).
    StagedU64,
    /// The 2011 paper's design: 25 threads per state in shared memory.
    Paper,
    /// `Staged` capped at 80 registers (`__launch_bounds__(128, 6)`; 24
    /// rounds only, else `Staged`): for the GPU runs to compare.
    StagedCapped,
    /// `Direct` capped at 80 registers (24 rounds; else as `Direct`).
    DirectCapped,
    /// `Staged` with rho's rotations from IMAD on the FMA pipe (24 rounds
    /// only, else `Staged`; kernels/keccak_f1600.cuh, KxImadRho).
    StagedImad,
    /// `Direct` with rho's rotations from IMAD (24 rounds; else as `Direct`;
    /// `StagedImad` where `Direct` cannot run).
    DirectImad,
    /// One warp per message (kernels/warp.cu): lane x + 5y of the warp holds
    /// lane A[x][y], a round is 18 shuffles in three dependent levels. For
    /// latency: a few long messages. Any layout, alignment and rounds.
    Warp,
}

impl BatchKernel {
    /// Every choice, for benchmarks and tests.
    pub const ALL: [BatchKernel; 11] = [
        BatchKernel::Auto,
        BatchKernel::Staged,
        BatchKernel::DoubleBuffered,
        BatchKernel::Direct,
        BatchKernel::StagedU64,
        BatchKernel::Paper,
        BatchKernel::StagedCapped,
        BatchKernel::DirectCapped,
        BatchKernel::StagedImad,
        BatchKernel::DirectImad,
        BatchKernel::Warp,
    ];
    /// `Auto` takes `Warp` below this many messages per SM: one thread per
    /// message then leaves most of each SM idle (32 threads = one warp a
    /// SM, latency-bound). A first guess from the instruction counts (a
    /// warp-per-message round issues 18 shuffles at about one warp shuffle a
    /// clock per SM, a one-thread round 180 ALU instructions for 32
    /// messages), to be replaced by the crossover the GPU bench measures
    /// (`keccakx-gpu-bench`, section batch: "warp crossover"). First H200
    /// run (docs/gpu.md): 64 KiB messages, `Warp` 1.2× faster at n = 4096,
    /// 3.2× slower at 16384; the crossover lies between.
    pub const WARP_MESSAGES_PER_SM: u64 = 32;
    /// ... and only for messages of at least this many rate blocks on
    /// average (short messages: the launch and the loads dominate, not the
    /// permutation's latency). Also a first guess.
    pub const WARP_MIN_BLOCKS: u64 = 4;
    fn code(self) -> u8 {
        self as u8
    }
    fn from_code(c: u8) -> BatchKernel {
        BatchKernel::ALL
            .get(c as usize)
            .copied()
            .unwrap_or(BatchKernel::Auto)
    }
}

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
    }
}

/// Permutation-throughput kernels (benchmarks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PermKernel {
    /// One thread per state, 32-bit halves, 24 rounds (kx_perm_r24): two
    /// straight 12-round stretches in a loop (KX_ROUND_UNROLL).
    Fast24,
    /// Fast24 with all 24 rounds straight-line (kx_perm_full_r24).
    Fast24Unrolled,
    /// Fast24 in four 6-round stretches (kx_perm_by6_r24).
    Fast24By6,
    /// One thread per state, 32-bit halves, 12 rounds (kx_perm_r12).
    Fast12,
    /// One thread per state, native 64-bit lanes, 24 rounds (kx_perm_u64_r24).
    FastU64,
    /// 25 threads per state in shared memory, 24 rounds (kx_paper_perm).
    Paper,
    /// Fast24 with every rotation built from IMAD/IMAD.HI on the FMA pipe
    /// (kx_perm_imad_r24; kernels/keccak_f1600.cuh, KxSplitImad).
    Imad24,
    /// Rho's rotations from IMAD, theta's by funnel shifts (kx_perm_imad_rho_r24).
    ImadRho24,
    /// Half of rho's rotations from IMAD (kx_perm_imad_half_r24).
    ImadHalf24,
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

pub(crate) fn check_out_len(out_len: usize) -> Result<u32, GpuError> {
    u32::try_from(out_len)
        .map_err(|_| GpuError::Unsupported("output length per message must be below 4 GiB"))
}

/// The host buffers a pipeline fill step packs into.
pub(crate) struct HostBufs {
    pub(crate) h_in: Pinned,
    pub(crate) h_idx: Pinned,
}

/// One pipeline stage: a stream, its buffers, and events around its copies
/// and kernel (for [`PipelineStats`]).
pub(crate) struct Stage {
    pub(crate) stream: Arc<CudaStream>,
    pub(crate) host: HostBufs,
    h_out: Pinned,
    d_in: DevBuf,
    d_idx: DevBuf,
    d_out: DevBuf,
    events: [CudaEvent; 4],
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
    /// SM count, from the driver on first use (`sm_count`).
    sms: std::sync::OnceLock<u64>,
    ctx: Arc<CudaContext>,
    target: Target,
    image_source: String,
    modules: Mutex<Vec<(Module, Arc<CudaModule>)>>,
    functions: Mutex<Vec<(&'static str, CudaFunction)>>,
    stages: Mutex<Vec<Stage>>,
    chunk_bytes: AtomicUsize,
    kernel: AtomicU8,
    mapped_input: AtomicBool,
    pub(crate) last_kernel_ms: Mutex<Option<f32>>,
    /// Start/end events timing device-resident jobs, kept between calls
    /// (a job that finds them busy makes its own).
    timing: Mutex<[CudaEvent; 2]>,
    last_stats: Mutex<PipelineStats>,
    /// Host-fed calls and their stats summed since the last reset (a mode
    /// such as KT makes many calls per hash).
    total_stats: Mutex<(u64, PipelineStats)>,
    pub(crate) scratch: Mutex<Scratch>,
}

/// Buffers the device-resident calls keep between calls: allocating and
/// freeing per call would cost a cuMemFree each, which waits for the whole
/// device. Two of each for the leaves' pipeline (group k drains while group
/// k + 1 runs).
pub(crate) struct Scratch {
    pub(crate) d_out: [DevBuf; 2],
    pub(crate) d_idx: DevBuf,
    /// Gathered messages (device-resident tree LI) and their prefixes.
    pub(crate) gather: DevBuf,
    pub(crate) prefixes: DevBuf,
    pub(crate) h_out: [Pinned; 2],
    pub(crate) done: [CudaEvent; 2],
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
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
        let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
        for _ in 0..STAGES {
            stages.push(Stage {
                stream: ctx.new_stream()?,
                host: HostBufs {
                    h_in: Pinned::new(&ctx, 0, true)?,
                    h_idx: Pinned::new(&ctx, 0, true)?,
                },
                h_out: Pinned::new(&ctx, 0, false)?,
                d_in: DevBuf::empty(&ctx),
                d_idx: DevBuf::empty(&ctx),
                d_out: DevBuf::empty(&ctx),
                events: [
                    ctx.new_event(timing)?,
                    ctx.new_event(timing)?,
                    ctx.new_event(timing)?,
                    ctx.new_event(timing)?,
                ],
                pending: None,
            });
        }
        let scratch = Scratch {
            d_out: [DevBuf::empty(&ctx), DevBuf::empty(&ctx)],
            d_idx: DevBuf::empty(&ctx),
            gather: DevBuf::empty(&ctx),
            prefixes: DevBuf::empty(&ctx),
            h_out: [Pinned::new(&ctx, 0, false)?, Pinned::new(&ctx, 0, false)?],
            done: [ctx.new_event(None)?, ctx.new_event(None)?],
        };
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
            kernel: AtomicU8::new(BatchKernel::Auto.code()),
            mapped_input: AtomicBool::new(false),
            last_kernel_ms: Mutex::new(None),
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
            let mapped = st.host.h_in.is_mapped();
            st.host.h_in = Pinned::with_mapping(&self.ctx, 0, true, mapped)?;
            st.host.h_idx = Pinned::with_mapping(&self.ctx, 0, true, mapped)?;
            st.h_out = Pinned::new(&self.ctx, 0, false)?;
            st.d_in = DevBuf::empty(&self.ctx);
            st.d_idx = DevBuf::empty(&self.ctx);
            st.d_out = DevBuf::empty(&self.ctx);
            st.pending = None;
        }
        let sc = &mut *scratch;
        sc.d_out = [DevBuf::empty(&self.ctx), DevBuf::empty(&self.ctx)];
        sc.d_idx = DevBuf::empty(&self.ctx);
        sc.gather = DevBuf::empty(&self.ctx);
        sc.prefixes = DevBuf::empty(&self.ctx);
        sc.h_out = [
            Pinned::new(&self.ctx, 0, false)?,
            Pinned::new(&self.ctx, 0, false)?,
        ];
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
    fn record_call(&self, messages: usize, bytes: usize, plan_s: f64, wall_s: f64) {
        let mut st = lock(&self.last_stats);
        st.plan_s = plan_s;
        st.messages = messages;
        st.bytes = bytes;
        st.wall_s = wall_s;
        let mut t = lock(&self.total_stats);
        t.0 += 1;
        t.1.add(&st);
    }

    /// States that fill the device exactly once with a permutation kernel
    /// (resident blocks per SM from the occupancy API × SMs × states per
    /// block): a grid of a whole number of waves has no partial last wave.
    pub fn perm_wave_states(&self, kernel: PermKernel) -> Result<u64, GpuError> {
        let (module, name, threads, per_block) = perm_kernel(kernel);
        let func = self.function(module, name)?;
        self.ctx.bind_to_thread()?;
        let blocks = func.occupancy_max_active_blocks_per_multiprocessor(threads, 0, None)?;
        Ok(blocks.max(1) as u64 * self.sm_count()? * per_block)
    }

    /// The device's SM count (DeviceInfo has none), asked of the driver
    /// once and kept: `launch` needs it for every `Auto` batch.
    fn sm_count(&self) -> Result<u64, GpuError> {
        if let Some(&n) = self.sms.get() {
            return Ok(n);
        }
        let dev = result::device::get(self.info.ordinal as i32)?;
        // SAFETY: the driver is initialised and `dev` is its handle.
        let sms = unsafe {
            result::device::get_attribute(
                dev,
                sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
            )
        }?;
        Ok(*self.sms.get_or_init(|| sms.max(1) as u64))
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
        if name.starts_with("kx_batch_async") {
            // Above the default 48 KiB of dynamic shared memory: opt in up
            // to what the largest rate needs.
            f.set_attribute(
                sys::CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                kernels::batch_async_smem_bytes(199) as i32,
            )?;
        }
        lock(&self.functions).push((name, f.clone()));
        Ok(f)
    }

    /// Launch the batch kernel for `job` on `stream` (split into several
    /// grids for very large batches).
    pub(crate) fn launch(
        &self,
        stream: &CudaStream,
        spec: &LaneSpec,
        job: BatchJob,
        aligned8: bool,
    ) -> Result<(), GpuError> {
        if job.n == 0 {
            return Ok(());
        }
        let rounds_ok = spec.rounds == 24 || spec.rounds == 12;
        let direct_ok = aligned8
            && spec.rate_bytes.is_multiple_of(8)
            && rounds_ok
            && job.data.is_multiple_of(8)
            && job.data_len.is_multiple_of(8);
        let choice = self.batch_kernel();
        // Few long messages: one warp per message (latency), see `Auto`.
        // Indexed layouts: the buffer's bytes per message estimate the mean.
        let warp_auto = choice == BatchKernel::Auto && {
            let mean = if job.offsets == 0 {
                job.msg_len
            } else {
                job.data_len / job.n
            };
            mean >= BatchKernel::WARP_MIN_BLOCKS * spec.rate_bytes as u64
                && job.n < BatchKernel::WARP_MESSAGES_PER_SM * self.sm_count()?
        };
        let kind = match choice {
            BatchKernel::Auto if warp_auto => BatchKernel::Warp,
            BatchKernel::Auto if direct_ok => BatchKernel::Direct,
            BatchKernel::Auto if rounds_ok && self.info.compute_capability.0 >= 8 => {
                BatchKernel::DoubleBuffered
            }
            BatchKernel::Auto => BatchKernel::Staged,
            BatchKernel::Direct | BatchKernel::DirectCapped if !direct_ok => BatchKernel::Staged,
            BatchKernel::DirectCapped if spec.rounds != 24 => BatchKernel::Direct,
            BatchKernel::DirectImad if spec.rounds != 24 && direct_ok => BatchKernel::Direct,
            BatchKernel::DirectImad | BatchKernel::StagedImad if spec.rounds != 24 => {
                BatchKernel::Staged
            }
            BatchKernel::DirectImad if !direct_ok => BatchKernel::StagedImad,
            BatchKernel::StagedU64 | BatchKernel::StagedCapped if spec.rounds != 24 => {
                BatchKernel::Staged
            }
            BatchKernel::DoubleBuffered if !rounds_ok => BatchKernel::Staged,
            k => k,
        };
        let staged_smem = kernels::batch_smem_bytes(spec.rate_bytes);
        let r24 = spec.rounds == 24;
        let batch = |name: &'static str, smem: u32| {
            let module = match spec.rounds {
                24 => Module::Batch24,
                12 => Module::Batch12,
                _ => Module::BatchN,
            };
            (module, name, BATCH_THREADS, BATCH_THREADS as u64, smem)
        };
        let (module, name, threads, per_block, smem) = match kind {
            BatchKernel::Warp => (
                Module::Warp,
                match spec.rounds {
                    24 => "kx_warp_r24",
                    12 => "kx_warp_r12",
                    _ => "kx_warp_rn",
                },
                kernels::WARP_THREADS,
                (kernels::WARP_THREADS / 32) as u64,
                0,
            ),
            BatchKernel::Paper => (
                Module::Paper,
                "kx_paper_batch",
                25 * PAPER_STATES,
                PAPER_STATES as u64,
                0,
            ),
            BatchKernel::Direct if r24 => batch("kx_batch_direct_r24", 0),
            BatchKernel::Direct => batch("kx_batch_direct_r12", 0),
            BatchKernel::DirectCapped => batch("kx_batch_direct_lb6_r24", 0),
            BatchKernel::StagedU64 => batch("kx_batch_u64_r24", staged_smem),
            BatchKernel::StagedCapped => batch("kx_batch_lb6_r24", staged_smem),
            BatchKernel::DirectImad => batch("kx_batch_direct_imad_r24", 0),
            BatchKernel::StagedImad => batch("kx_batch_imad_r24", staged_smem),
            BatchKernel::DoubleBuffered => batch(
                if r24 {
                    "kx_batch_async_r24"
                } else {
                    "kx_batch_async_r12"
                },
                kernels::batch_async_smem_bytes(spec.rate_bytes),
            ),
            _ => match spec.rounds {
                24 => batch("kx_batch_r24", staged_smem),
                12 => batch("kx_batch_r12", staged_smem),
                _ => batch("kx_batch_rn", staged_smem),
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
        // Chunks of equal message counts: chunk_bytes of data, at least
        // MIN_LAUNCH_MESSAGES messages, at most MAX_CHUNK_BYTES of data and
        // of output.
        let step = stride.max(1);
        let per = (self.chunk_bytes() / step)
            .max(MIN_LAUNCH_MESSAGES)
            .min(MAX_CHUNK_BYTES / step)
            .min(MAX_CHUNK_BYTES / out_len)
            .max(1);
        let chunks: Vec<Range<usize>> = (0..count.div_ceil(per))
            .map(|c| c * per..((c + 1) * per).min(count))
            .collect();
        // (The kernel reads the device copy, whose alignment launch() checks.)
        let aligned8 = stride.is_multiple_of(8);
        let mut fill = |c: usize, host: &mut HostBufs| -> Result<ChunkPlan, GpuError> {
            let Range {
                start: first,
                end: last,
            } = chunks[c].clone();
            let span = &data[first * stride..(last - 1) * stride + len];
            host.h_in.reserve(span.len(), true)?;
            copy_parallel(&mut host.h_in.as_mut_slice()[..span.len()], span);
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
            })
        };
        let mut drain = drain_into(out, &chunks, out_len);
        let r = self.pipeline(spec, chunks.len(), &mut fill, &mut drain, &mut || {});
        self.record_call(count, count * len, 0.0, t0.elapsed().as_secs_f64());
        r
    }

    /// Run `n_chunks` chunks through the stages: `fill` packs chunk c into a
    /// stage's host buffers while `drain` receives the output bytes of the
    /// chunk that stage ran before (in chunk order, on two threads at once);
    /// `side` runs once, after the first chunk is queued.
    pub(crate) fn pipeline(
        &self,
        spec: &LaneSpec,
        n_chunks: usize,
        fill: &mut (dyn FnMut(usize, &mut HostBufs) -> Result<ChunkPlan, GpuError> + Send),
        drain: &mut (dyn FnMut(usize, &[u8]) -> Result<(), GpuError> + Send),
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
    pub(crate) fn run_raw(
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
        let (module, name, threads, per_block) = perm_kernel(kernel);
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

    /// The host side of a host-fed batch, in bytes/s (best of `reps`, all
    /// cores, the pipeline's own copy): `fill` copies pageable memory into
    /// write-combined pinned staging (packing), else plain pinned memory
    /// into pageable memory (draining digests).
    pub fn host_copy_bandwidth(
        &self,
        bytes: usize,
        reps: u32,
        fill: bool,
    ) -> Result<f64, GpuError> {
        if bytes == 0 {
            return Err(GpuError::Unsupported("copy size must be positive"));
        }
        self.ctx.bind_to_thread()?;
        let mut pinned = Pinned::new(&self.ctx, bytes, fill)?;
        let mut pageable: Vec<u8> = (0..bytes).map(|i| (i % 251) as u8).collect();
        let mut best = f64::INFINITY;
        for _ in 0..reps.max(1) {
            let t = Instant::now();
            if fill {
                copy_parallel(pinned.as_mut_slice(), &pageable);
            } else {
                copy_parallel(&mut pageable, pinned.as_slice());
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        Ok(bytes as f64 / best)
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

/// A permutation kernel: module, entry point, threads per block, states per block.
/// The kernel's parameter block for messages at raw device addresses.
pub(crate) fn raw_job(
    spec: &LaneSpec,
    data: u64,
    data_len: u64,
    layout: RawLayout,
    out: u64,
    out_len: u32,
) -> BatchJob {
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
    job
}

fn perm_kernel(kernel: PermKernel) -> (Module, &'static str, u32, u64) {
    match kernel {
        PermKernel::Fast24 => (
            Module::Perm,
            "kx_perm_r24",
            PERM_THREADS,
            PERM_THREADS as u64,
        ),
        PermKernel::Fast24Unrolled => (
            Module::Perm,
            "kx_perm_full_r24",
            PERM_THREADS,
            PERM_THREADS as u64,
        ),
        PermKernel::Fast24By6 => (
            Module::Perm,
            "kx_perm_by6_r24",
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
        PermKernel::Imad24 => (
            Module::Perm,
            "kx_perm_imad_r24",
            PERM_THREADS,
            PERM_THREADS as u64,
        ),
        PermKernel::ImadHalf24 => (
            Module::Perm,
            "kx_perm_imad_half_r24",
            PERM_THREADS,
            PERM_THREADS as u64,
        ),
        PermKernel::ImadRho24 => (
            Module::Perm,
            "kx_perm_imad_rho_r24",
            PERM_THREADS,
            PERM_THREADS as u64,
        ),
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

pub(crate) fn round8(x: usize) -> usize {
    (x + 7) & !7
}

/// Messages per block of the parallel planning pass.
const PLAN_BLOCK: usize = 1024;

/// Cut a batch into chunks: a chunk closes once it has at least
/// [`MIN_LAUNCH_MESSAGES`] messages and `chunk_bytes` packed bytes, or
/// before it would pass [`MAX_CHUNK_BYTES`] of data or of output; a message
/// larger than that gets a chunk of its own. Packed sizes are summed per
/// block of messages on all cores; the serial pass looks at single messages
/// only where a chunk may close inside a block.
fn plan_chunks(inputs: &[&[u8]], out_len: usize, chunk_bytes: usize) -> Vec<Range<usize>> {
    plan_chunks_with(
        inputs,
        out_len,
        chunk_bytes,
        MIN_LAUNCH_MESSAGES,
        MAX_CHUNK_BYTES,
    )
}

fn plan_chunks_with(
    inputs: &[&[u8]],
    out_len: usize,
    chunk_bytes: usize,
    min_msgs: usize,
    max_bytes: usize,
) -> Vec<Range<usize>> {
    let max_bytes = max_bytes.max(chunk_bytes);
    let sums: Vec<usize> = inputs
        .par_chunks(PLAN_BLOCK)
        .map(|b| b.iter().map(|m| round8(m.len())).sum())
        .collect();
    let mut chunks = Vec::new();
    let (mut start, mut bytes) = (0usize, 0usize);
    let full = |count: usize, bytes: usize| count >= min_msgs && bytes >= chunk_bytes;
    for (k, &sb) in sums.iter().enumerate() {
        let first = k * PLAN_BLOCK;
        let end = (first + PLAN_BLOCK).min(inputs.len());
        let fits = bytes + sb <= max_bytes && (end - start) * out_len <= max_bytes;
        if fits && !full(end - start, bytes + sb) {
            bytes += sb;
            continue;
        }
        // A chunk closes inside this block: message by message.
        for (i, m) in inputs.iter().enumerate().take(end).skip(first) {
            let b = round8(m.len());
            if i > start && (bytes + b > max_bytes || (i - start + 1) * out_len > max_bytes) {
                chunks.push(start..i);
                start = i;
                bytes = 0;
            }
            bytes += b;
            if full(i + 1 - start, bytes) {
                chunks.push(start..i + 1);
                start = i + 1;
                bytes = 0;
            }
        }
    }
    if start < inputs.len() || chunks.is_empty() {
        chunks.push(start..inputs.len());
    }
    chunks
}

/// memcpy with several threads for big copies (pinned staging is filled at
/// memory bandwidth, not at one core's copy speed).
pub(crate) fn copy_parallel(dst: &mut [u8], src: &[u8]) {
    const PIECE: usize = 1 << 20;
    if src.len() < 2 * PIECE {
        dst.copy_from_slice(src);
        return;
    }
    dst.par_chunks_mut(PIECE)
        .zip(src.par_chunks(PIECE))
        .for_each(|(d, s)| d.copy_from_slice(s));
}

/// Pack messages into a stage's host buffers on all cores: 8-byte aligned
/// offsets; the uniform layout (no index upload) when every message has the
/// same length. Pieces of equal message counts ([`piece_messages`]): their
/// packed sizes are summed in parallel, then each piece writes its bytes,
/// offsets and lengths into its own part of the buffers.
fn pack_messages(
    host: &mut HostBufs,
    msgs: &[&[u8]],
    spec: &LaneSpec,
    out_len: u32,
) -> Result<ChunkPlan, GpuError> {
    let n = msgs.len();
    let piece = piece_messages(msgs);
    let sizes = piece_sizes(msgs, piece);
    let data_bytes: usize = sizes.iter().map(|s| s.0).sum();
    let lo = sizes.iter().map(|s| s.1).min().unwrap_or(0);
    let hi = sizes.iter().map(|s| s.2).max().unwrap_or(0);
    let uniform = lo == hi;
    let mut job = BatchJob {
        n: n as u64,
        rate: spec.rate_bytes as u32,
        suffix: spec.delimited_suffix as u32,
        out_len,
        rounds: spec.rounds as u32,
        ..BatchJob::default()
    };
    host.h_in.reserve(data_bytes, true)?;
    let idx = if uniform {
        job.stride = round8(lo) as u64;
        job.msg_len = lo as u64;
        None
    } else {
        host.h_idx.reserve(16 * n, true)?;
        Some(&mut host.h_idx.as_mut_slice()[..16 * n])
    };
    pack_into(
        &mut host.h_in.as_mut_slice()[..data_bytes],
        idx,
        msgs,
        piece,
        &sizes,
    );
    Ok(ChunkPlan {
        data_bytes,
        indexed: !uniform,
        job,
        aligned8: true,
    })
}

/// Messages per packing piece for `msgs`: about [`PACK_PIECE_BYTES`] of
/// packed data at their mean length, from 1 to [`PACK_PIECE`].
fn piece_messages(msgs: &[&[u8]]) -> usize {
    let total: usize = msgs
        .par_chunks(PACK_PIECE)
        .map(|p| p.iter().map(|m| round8(m.len())).sum::<usize>())
        .sum();
    let mean = total.div_ceil(msgs.len().max(1)).max(1);
    (PACK_PIECE_BYTES / mean).clamp(1, PACK_PIECE)
}

/// Per piece of `piece` messages: packed bytes, shortest and longest length.
fn piece_sizes(msgs: &[&[u8]], piece: usize) -> Vec<(usize, usize, usize)> {
    msgs.par_chunks(piece)
        .map(|p| {
            p.iter().fold((0, usize::MAX, 0), |(b, lo, hi), m| {
                (b + round8(m.len()), lo.min(m.len()), hi.max(m.len()))
            })
        })
        .collect()
}

/// Write `msgs` at 8-byte aligned offsets into `data` (exactly their packed
/// size) and, if given, n u64 offsets then n u64 lengths into `idx`, each
/// piece of messages on its own thread.
fn pack_into(
    data: &mut [u8],
    idx: Option<&mut [u8]>,
    msgs: &[&[u8]],
    piece: usize,
    sizes: &[(usize, usize, usize)],
) {
    let n = msgs.len();
    let mut data_parts = Vec::with_capacity(sizes.len());
    let mut bases = Vec::with_capacity(sizes.len());
    let (mut rest, mut pos) = (data, 0usize);
    for s in sizes {
        let (mine, tail) = rest.split_at_mut(s.0);
        data_parts.push(mine);
        bases.push(pos);
        rest = tail;
        pos += s.0;
    }
    let (offs, lens): (Vec<Option<&mut [u8]>>, Vec<Option<&mut [u8]>>) = match idx {
        Some(idx) => {
            let (o, l) = idx.split_at_mut(8 * n);
            (
                o.chunks_mut(8 * piece).map(Some).collect(),
                l.chunks_mut(8 * piece).map(Some).collect(),
            )
        }
        None => (
            (0..sizes.len()).map(|_| None).collect(),
            (0..sizes.len()).map(|_| None).collect(),
        ),
    };
    let work: Vec<_> = msgs
        .chunks(piece)
        .zip(data_parts)
        .zip(bases)
        .zip(offs.into_iter().zip(lens))
        .collect();
    work.into_par_iter().for_each(|(((m, d), base), (o, l))| {
        let mut at = 0usize;
        for msg in m {
            if msg.len() >= 1 << 20 {
                copy_parallel(&mut d[at..at + msg.len()], msg);
            } else {
                d[at..at + msg.len()].copy_from_slice(msg);
            }
            at += round8(msg.len());
        }
        if let (Some(o), Some(l)) = (o, l) {
            let mut at = base;
            for (k, msg) in m.iter().enumerate() {
                o[8 * k..8 * k + 8].copy_from_slice(&(at as u64).to_le_bytes());
                l[8 * k..8 * k + 8].copy_from_slice(&(msg.len() as u64).to_le_bytes());
                at += round8(msg.len());
            }
        }
    });
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
        let msgs: Vec<&[u8]> = (0..5000).map(|i| &data[..(i * 7) % 300]).collect();
        for (target, min, max) in [
            (64usize, 1usize, 64usize),
            (1000, 1, 5000),
            (5000, 300, 20000),
            (1 << 20, 100_000, 1 << 20),
            (4096, 2000, 1 << 30),
        ] {
            let ch = plan_chunks_with(&msgs, 32, target, min, max);
            assert_eq!(ch.first().unwrap().start, 0);
            assert_eq!(ch.last().unwrap().end, msgs.len());
            for w in ch.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            for (k, r) in ch.iter().enumerate() {
                assert!(!r.is_empty());
                let bytes: usize = msgs[r.clone()].iter().map(|m| round8(m.len())).sum();
                assert!(
                    r.len() == 1 || bytes <= max.max(target),
                    "chunk over the cap"
                );
                assert!(
                    r.len() == 1 || r.len() * 32 <= max.max(target),
                    "output over the cap"
                );
                // Every chunk but the last is full, or stopped by a cap.
                if k + 1 < ch.len() {
                    let next = round8(msgs[r.end].len());
                    assert!(
                        (r.len() >= min && bytes >= target)
                            || bytes + next > max.max(target)
                            || (r.len() + 1) * 32 > max.max(target),
                        "chunk {k} closed early: {r:?} {bytes}"
                    );
                }
            }
        }
        // A huge message has a chunk of its own; many tiny ones share one.
        let big = vec![0u8; 3000];
        let mixed: Vec<&[u8]> = vec![&data[..10], &big, &data[..10]];
        let ch = plan_chunks_with(&mixed, 32, 64, 1, 1000);
        assert_eq!(ch, vec![0..1, 1..2, 2..3]);
        let tiny: Vec<&[u8]> = vec![&data[..1]; 300_000];
        assert_eq!(plan_chunks(&tiny, 32, DEFAULT_CHUNK_BYTES).len(), 1);
    }

    #[test]
    fn packing_places_every_message_and_index() {
        let src: Vec<u8> = (0..(20usize << 20)).map(|i| (i % 251) as u8).collect();
        for shape in 0..4 {
            let msgs: Vec<&[u8]> = match shape {
                0 => src.chunks(12345).collect(),
                1 => (0..30_000).map(|i| &src[i..i + (i * 13) % 200]).collect(),
                2 => src.chunks(64 << 10).collect(),
                _ => vec![&src[..3 << 20], &src[5..6], &src[7..(7 + (2 << 20))]],
            };
            let auto = piece_messages(&msgs);
            assert!((1..=PACK_PIECE).contains(&auto));
            if shape == 2 {
                // Few long messages still make many pieces.
                assert_eq!(auto, PACK_PIECE_BYTES / (64 << 10));
            }
            for piece in [auto, 1, 7, PACK_PIECE] {
                let sizes = piece_sizes(&msgs, piece);
                let total: usize = sizes.iter().map(|s| s.0).sum();
                let mut dst = vec![0u8; total];
                let mut idx = vec![0u8; 16 * msgs.len()];
                pack_into(&mut dst, Some(&mut idx), &msgs, piece, &sizes);
                let n = msgs.len();
                let mut pos = 0;
                for (k, m) in msgs.iter().enumerate() {
                    let o = u64::from_le_bytes(idx[8 * k..8 * k + 8].try_into().unwrap()) as usize;
                    let l =
                        u64::from_le_bytes(idx[8 * (n + k)..8 * (n + k) + 8].try_into().unwrap())
                            as usize;
                    assert_eq!(
                        (o, l),
                        (pos, m.len()),
                        "shape {shape} piece {piece} message {k}"
                    );
                    assert_eq!(&dst[o..o + l], *m);
                    pos += round8(m.len());
                }
            }
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
