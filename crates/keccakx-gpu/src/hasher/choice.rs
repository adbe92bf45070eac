//! Which batch kernel runs a job: a pure function of the hasher's setting,
//! the sponge, the job's shape and the device ([`choose_kernel`]), so every
//! rule is tested without a GPU.

use keccakx::engine::LaneSpec;

#[cfg(feature = "research")]
use crate::kernels::PAPER_STATES;
use crate::kernels::{self, BatchJob, Module, BATCH_THREADS};

/// Which batch kernel runs a job (see kernels/batch.cu and warp.cu). The
/// product has what `Auto` chooses among; the kernels kept only for the
/// GPU runs to compare (register caps, IMAD rotations, 64-bit lanes, the
/// 2011 paper's design) exist with the `research` feature.
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
    /// At rates 136 and 168 (SHA3-256, Keccak-256, SHAKE, TurboSHAKE, KT
    /// leaves) a kernel compiled for that rate absorbs each whole block with
    /// back-to-back loads ([`RATE_SPECIALIZED`]).
    Direct,
    /// One warp per message (kernels/warp.cu): lane x + 5y of the warp holds
    /// lane `A[x][y]`, a round is 18 shuffles in three dependent levels. For
    /// latency: a few long messages. Any layout, alignment and rounds.
    Warp,
    /// `Direct` with the rate read at run time at every rate (the kernel
    /// `Direct` ran before the rate-specialized ones; for comparison).
    #[cfg(feature = "research")]
    DirectAnyRate,
    /// `Staged` with native 64-bit lanes (24 rounds only; for comparison).
    #[cfg(feature = "research")]
    StagedU64,
    /// The 2011 paper's design: 25 threads per state in shared memory.
    #[cfg(feature = "research")]
    Paper,
    /// `Staged` capped at 80 registers (`__launch_bounds__(128, 6)`; 24
    /// rounds only, else `Staged`).
    #[cfg(feature = "research")]
    StagedCapped,
    /// `Direct` capped at 80 registers (24 rounds; else as `Direct`).
    #[cfg(feature = "research")]
    DirectCapped,
    /// `Staged` with rho's rotations from IMAD on the FMA pipe (24 rounds
    /// only, else `Staged`; kernels/keccak_f1600.cuh, KxImadRho).
    #[cfg(feature = "research")]
    StagedImad,
    /// `Direct` with rho's rotations from IMAD (24 rounds; else as `Direct`;
    /// `StagedImad` where `Direct` cannot run).
    #[cfg(feature = "research")]
    DirectImad,
}

impl BatchKernel {
    /// Every choice this build has, for benchmarks and tests.
    pub const ALL: &'static [BatchKernel] = &[
        BatchKernel::Auto,
        BatchKernel::Staged,
        BatchKernel::DoubleBuffered,
        BatchKernel::Direct,
        BatchKernel::Warp,
        #[cfg(feature = "research")]
        BatchKernel::DirectAnyRate,
        #[cfg(feature = "research")]
        BatchKernel::StagedU64,
        #[cfg(feature = "research")]
        BatchKernel::Paper,
        #[cfg(feature = "research")]
        BatchKernel::StagedCapped,
        #[cfg(feature = "research")]
        BatchKernel::DirectCapped,
        #[cfg(feature = "research")]
        BatchKernel::StagedImad,
        #[cfg(feature = "research")]
        BatchKernel::DirectImad,
    ];
    /// `Auto` takes `Warp` below this many messages per SM: one thread per
    /// message then leaves most of each SM idle (32 threads = one warp a
    /// SM, latency-bound). A first guess from the instruction counts (a
    /// warp-per-message round executes 18 shuffles at about one warp shuffle a
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
    pub(crate) fn code(self) -> u8 {
        self as u8
    }
    pub(crate) fn from_code(c: u8) -> BatchKernel {
        BatchKernel::ALL
            .iter()
            .copied()
            .find(|k| k.code() == c)
            .unwrap_or(BatchKernel::Auto)
    }
}

/// Rates (bytes) with direct kernels compiled for them, at 24 and 12
/// rounds (kernels/batch.cu, `kx_batch_direct_r{24,12}_{136,168}`).
pub const RATE_SPECIALIZED: [usize; 2] = [136, 168];

/// What the choice of kernel looks at in a job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobShape {
    /// Messages.
    pub n: u64,
    /// Bytes per message: the length (uniform layout), or the buffer's
    /// bytes per message (indexed layout, an estimate of the mean).
    pub mean_len: u64,
    /// 8-byte loads can run: every message offset (or the stride), the
    /// buffer's address and its length are multiples of 8.
    pub aligned8: bool,
}

impl JobShape {
    /// The shape of `job`; `aligned8`: the caller knows every message
    /// offset (or the stride) to be a multiple of 8.
    pub fn of(job: &BatchJob, aligned8: bool) -> JobShape {
        JobShape {
            n: job.n,
            mean_len: if job.offsets == 0 {
                job.msg_len
            } else {
                job.data_len / job.n.max(1)
            },
            aligned8: aligned8 && job.data.is_multiple_of(8) && job.data_len.is_multiple_of(8),
        }
    }
}

/// What the choice of kernel looks at in the device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceProps {
    /// Streaming multiprocessors.
    pub sms: u64,
    /// Compute capability, major (8: sm_80, cp.async).
    pub compute_major: u32,
}

/// The kernel a job runs and its launch shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelPick {
    /// The kernel that runs (never `Auto`).
    pub kernel: BatchKernel,
    /// Its module and entry point.
    pub module: Module,
    pub entry: &'static str,
    /// Threads per block, messages per block, dynamic shared memory bytes.
    pub threads: u32,
    pub per_block: u64,
    pub shared_bytes: u32,
}

/// The kernel that runs a job: `choice` resolved for the sponge, the job's
/// shape and the device (a kernel that cannot run the job gives way to one
/// that can, see [`BatchKernel`]), with its entry point and launch shape.
pub fn choose_kernel(
    choice: BatchKernel,
    spec: &LaneSpec,
    shape: &JobShape,
    dev: &DeviceProps,
) -> KernelPick {
    let kernel = resolve(choice, spec, shape, dev);
    let (module, entry, threads, per_block, shared_bytes) = entry_of(kernel, spec);
    KernelPick {
        kernel,
        module,
        entry,
        threads,
        per_block,
        shared_bytes,
    }
}

/// `choice` as the kernel that can run this job.
fn resolve(
    choice: BatchKernel,
    spec: &LaneSpec,
    shape: &JobShape,
    dev: &DeviceProps,
) -> BatchKernel {
    let rounds_ok = spec.rounds == 24 || spec.rounds == 12;
    let direct_ok = shape.aligned8 && spec.rate_bytes.is_multiple_of(8) && rounds_ok;
    // Few long messages: one warp per message (latency), see `Auto`.
    let few_long = shape.mean_len >= BatchKernel::WARP_MIN_BLOCKS * spec.rate_bytes as u64
        && shape.n < BatchKernel::WARP_MESSAGES_PER_SM * dev.sms;
    #[cfg(feature = "research")]
    let r24 = spec.rounds == 24;
    match choice {
        BatchKernel::Auto if few_long => BatchKernel::Warp,
        BatchKernel::Auto if direct_ok => BatchKernel::Direct,
        BatchKernel::Auto if rounds_ok && dev.compute_major >= 8 => BatchKernel::DoubleBuffered,
        BatchKernel::Auto => BatchKernel::Staged,
        BatchKernel::Direct if !direct_ok => BatchKernel::Staged,
        #[cfg(feature = "research")]
        BatchKernel::DirectAnyRate if !direct_ok => BatchKernel::Staged,
        BatchKernel::DoubleBuffered if !rounds_ok => BatchKernel::Staged,
        #[cfg(feature = "research")]
        BatchKernel::DirectCapped if !direct_ok => BatchKernel::Staged,
        #[cfg(feature = "research")]
        BatchKernel::DirectCapped if !r24 => BatchKernel::Direct,
        #[cfg(feature = "research")]
        BatchKernel::DirectImad if !r24 && direct_ok => BatchKernel::Direct,
        #[cfg(feature = "research")]
        BatchKernel::DirectImad | BatchKernel::StagedImad if !r24 => BatchKernel::Staged,
        #[cfg(feature = "research")]
        BatchKernel::DirectImad if !direct_ok => BatchKernel::StagedImad,
        #[cfg(feature = "research")]
        BatchKernel::StagedU64 | BatchKernel::StagedCapped if !r24 => BatchKernel::Staged,
        k => k,
    }
}

/// Module, entry point, threads per block, messages per block and dynamic
/// shared memory of a resolved kernel.
fn entry_of(kernel: BatchKernel, spec: &LaneSpec) -> (Module, &'static str, u32, u64, u32) {
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
    match kernel {
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
        BatchKernel::Direct => batch(
            match (r24, spec.rate_bytes) {
                (true, 136) => "kx_batch_direct_r24_136",
                (true, 168) => "kx_batch_direct_r24_168",
                (true, _) => "kx_batch_direct_r24",
                (false, 136) => "kx_batch_direct_r12_136",
                (false, 168) => "kx_batch_direct_r12_168",
                (false, _) => "kx_batch_direct_r12",
            },
            0,
        ),
        #[cfg(feature = "research")]
        BatchKernel::DirectAnyRate if r24 => batch("kx_batch_direct_r24", 0),
        #[cfg(feature = "research")]
        BatchKernel::DirectAnyRate => batch("kx_batch_direct_r12", 0),
        BatchKernel::DoubleBuffered => batch(
            if r24 {
                "kx_batch_async_r24"
            } else {
                "kx_batch_async_r12"
            },
            kernels::batch_async_smem_bytes(spec.rate_bytes),
        ),
        #[cfg(feature = "research")]
        BatchKernel::Paper => (
            Module::Paper,
            "kx_paper_batch",
            25 * PAPER_STATES,
            PAPER_STATES as u64,
            0,
        ),
        #[cfg(feature = "research")]
        BatchKernel::DirectCapped => batch("kx_batch_direct_lb6_r24", 0),
        #[cfg(feature = "research")]
        BatchKernel::StagedU64 => batch("kx_batch_u64_r24", staged_smem),
        #[cfg(feature = "research")]
        BatchKernel::StagedCapped => batch("kx_batch_lb6_r24", staged_smem),
        #[cfg(feature = "research")]
        BatchKernel::DirectImad => batch("kx_batch_direct_imad_r24", 0),
        #[cfg(feature = "research")]
        BatchKernel::StagedImad => batch("kx_batch_imad_r24", staged_smem),
        _ => match spec.rounds {
            24 => batch("kx_batch_r24", staged_smem),
            12 => batch("kx_batch_r12", staged_smem),
            _ => batch("kx_batch_rn", staged_smem),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H200: DeviceProps = DeviceProps {
        sms: 132,
        compute_major: 9,
    };
    const VOLTA: DeviceProps = DeviceProps {
        sms: 80,
        compute_major: 7,
    };

    fn spec(rate: usize, rounds: usize) -> LaneSpec {
        LaneSpec::new(rate, rounds, 0x06).unwrap()
    }
    fn shape(n: u64, mean_len: u64, aligned8: bool) -> JobShape {
        JobShape {
            n,
            mean_len,
            aligned8,
        }
    }
    fn pick(choice: BatchKernel, s: &LaneSpec, sh: JobShape, d: DeviceProps) -> KernelPick {
        choose_kernel(choice, s, &sh, &d)
    }

    #[test]
    fn auto_takes_one_warp_a_message_only_for_few_long_messages() {
        let sha3 = spec(136, 24);
        let long = BatchKernel::WARP_MIN_BLOCKS * 136;
        let few = BatchKernel::WARP_MESSAGES_PER_SM * H200.sms - 1;
        let p = pick(BatchKernel::Auto, &sha3, shape(few, long, true), H200);
        assert_eq!(
            (p.kernel, p.module, p.entry),
            (BatchKernel::Warp, Module::Warp, "kx_warp_r24")
        );
        assert_eq!(p.per_block, (kernels::WARP_THREADS / 32) as u64);
        // One more message, or a byte shorter on average: one thread each.
        let p = pick(BatchKernel::Auto, &sha3, shape(few + 1, long, true), H200);
        assert_eq!(p.kernel, BatchKernel::Direct);
        let p = pick(BatchKernel::Auto, &sha3, shape(few, long - 1, true), H200);
        assert_eq!(p.kernel, BatchKernel::Direct);
        // The SM count sets the line.
        let p = pick(BatchKernel::Auto, &sha3, shape(few, long, true), VOLTA);
        assert_eq!(p.kernel, BatchKernel::Direct);
        let p = pick(
            BatchKernel::Auto,
            &spec(168, 12),
            shape(10, 1 << 16, true),
            H200,
        );
        assert_eq!(p.entry, "kx_warp_r12");
        let p = pick(
            BatchKernel::Auto,
            &spec(168, 7),
            shape(10, 1 << 16, false),
            H200,
        );
        assert_eq!(p.entry, "kx_warp_rn");
    }

    #[test]
    fn auto_follows_alignment_rounds_and_architecture() {
        let many = 1 << 20;
        let cases = [
            // (rate, rounds, aligned8, device) -> kernel, entry
            (
                136,
                24,
                true,
                H200,
                BatchKernel::Direct,
                "kx_batch_direct_r24_136",
            ),
            (
                168,
                12,
                true,
                H200,
                BatchKernel::Direct,
                "kx_batch_direct_r12_168",
            ),
            (
                168,
                24,
                true,
                H200,
                BatchKernel::Direct,
                "kx_batch_direct_r24_168",
            ),
            (
                136,
                12,
                true,
                H200,
                BatchKernel::Direct,
                "kx_batch_direct_r12_136",
            ),
            (
                72,
                24,
                true,
                H200,
                BatchKernel::Direct,
                "kx_batch_direct_r24",
            ),
            (
                144,
                12,
                true,
                H200,
                BatchKernel::Direct,
                "kx_batch_direct_r12",
            ),
            (
                136,
                24,
                false,
                H200,
                BatchKernel::DoubleBuffered,
                "kx_batch_async_r24",
            ),
            (
                168,
                12,
                false,
                H200,
                BatchKernel::DoubleBuffered,
                "kx_batch_async_r12",
            ),
            (
                135,
                24,
                true,
                H200,
                BatchKernel::DoubleBuffered,
                "kx_batch_async_r24",
            ),
            (136, 24, false, VOLTA, BatchKernel::Staged, "kx_batch_r24"),
            (
                136,
                24,
                true,
                VOLTA,
                BatchKernel::Direct,
                "kx_batch_direct_r24_136",
            ),
            (136, 10, true, H200, BatchKernel::Staged, "kx_batch_rn"),
            (168, 12, false, VOLTA, BatchKernel::Staged, "kx_batch_r12"),
        ];
        for (rate, rounds, aligned, dev, kernel, entry) in cases {
            let s = spec(rate, rounds);
            let p = pick(BatchKernel::Auto, &s, shape(many, 64, aligned), dev);
            assert_eq!(
                (p.kernel, p.entry),
                (kernel, entry),
                "{rate} {rounds} {aligned}"
            );
            let module = match rounds {
                24 => Module::Batch24,
                12 => Module::Batch12,
                _ => Module::BatchN,
            };
            assert_eq!(p.module, module);
            let smem = match kernel {
                BatchKernel::Direct => 0,
                BatchKernel::DoubleBuffered => kernels::batch_async_smem_bytes(rate),
                _ => kernels::batch_smem_bytes(rate),
            };
            assert_eq!(
                (p.threads, p.per_block, p.shared_bytes),
                (BATCH_THREADS, 128, smem)
            );
        }
    }

    #[test]
    fn a_named_kernel_gives_way_only_where_it_cannot_run() {
        let many = 1 << 20;
        let k = |c, rate, rounds, aligned, dev| {
            pick(c, &spec(rate, rounds), shape(many, 64, aligned), dev).kernel
        };
        use BatchKernel::*;
        assert_eq!(k(Direct, 136, 24, false, H200), Staged);
        assert_eq!(k(Direct, 135, 24, true, H200), Staged);
        assert_eq!(k(Direct, 136, 10, true, H200), Staged);
        assert_eq!(k(Direct, 136, 24, true, VOLTA), Direct);
        assert_eq!(k(DoubleBuffered, 136, 10, false, H200), Staged);
        assert_eq!(k(DoubleBuffered, 135, 12, false, H200), DoubleBuffered);
        assert_eq!(k(Staged, 136, 24, true, H200), Staged);
        // Warp runs anything, however many messages.
        assert_eq!(k(Warp, 135, 3, false, H200), Warp);
    }

    #[cfg(feature = "research")]
    #[test]
    fn comparison_kernels_give_way_as_documented() {
        let many = 1 << 20;
        let k = |c, rounds, aligned| pick(c, &spec(136, rounds), shape(many, 64, aligned), H200);
        use BatchKernel::*;
        assert_eq!(k(DirectAnyRate, 24, true).entry, "kx_batch_direct_r24");
        assert_eq!(k(DirectAnyRate, 12, true).entry, "kx_batch_direct_r12");
        assert_eq!(k(DirectAnyRate, 24, false).kernel, Staged);
        assert_eq!(k(DirectImad, 24, true).entry, "kx_batch_direct_imad_r24");
        assert_eq!(k(DirectImad, 24, false).kernel, StagedImad);
        assert_eq!(k(DirectImad, 12, true).kernel, Direct);
        assert_eq!(k(DirectImad, 12, false).kernel, Staged);
        assert_eq!(k(StagedImad, 10, true).kernel, Staged);
        assert_eq!(k(DirectCapped, 24, true).entry, "kx_batch_direct_lb6_r24");
        assert_eq!(k(DirectCapped, 12, true).kernel, Direct);
        assert_eq!(k(DirectCapped, 24, false).kernel, Staged);
        assert_eq!(k(StagedCapped, 24, false).entry, "kx_batch_lb6_r24");
        assert_eq!(k(StagedCapped, 12, false).kernel, Staged);
        assert_eq!(k(StagedU64, 24, false).entry, "kx_batch_u64_r24");
        assert_eq!(k(StagedU64, 12, false).kernel, Staged);
        let p = k(Paper, 5, false);
        assert_eq!((p.module, p.entry), (Module::Paper, "kx_paper_batch"));
        assert_eq!(p.per_block, PAPER_STATES as u64);
    }

    #[test]
    fn every_choice_is_a_kernel_its_module_defines() {
        for &choice in BatchKernel::ALL {
            assert_eq!(BatchKernel::from_code(choice.code()), choice);
            for rate in [8usize, 72, 135, 136, 168, 199] {
                for rounds in [1usize, 6, 12, 13, 24] {
                    for (n, mean) in [(1u64, 0u64), (5, 1 << 20), (1 << 20, 64)] {
                        for aligned in [false, true] {
                            for dev in [H200, VOLTA] {
                                let s = spec(rate, rounds);
                                let sh = shape(n, mean, aligned);
                                let p = choose_kernel(choice, &s, &sh, &dev);
                                assert_ne!(p.kernel, BatchKernel::Auto);
                                assert!(
                                    p.module.entry_points().contains(&p.entry),
                                    "{choice:?} -> {p:?}"
                                );
                                assert!(p.threads > 0 && p.per_block > 0);
                                assert_eq!(p, choose_kernel(choice, &s, &sh, &dev));
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_job_shape_reads_layout_and_alignment() {
        let uniform = BatchJob {
            n: 10,
            msg_len: 300,
            stride: 304,
            data: 0x1000,
            data_len: 3040,
            ..BatchJob::default()
        };
        assert_eq!(JobShape::of(&uniform, true), shape(10, 300, true));
        assert!(!JobShape::of(&uniform, false).aligned8);
        let odd_base = BatchJob {
            data: 0x1004,
            ..uniform
        };
        assert!(!JobShape::of(&odd_base, true).aligned8);
        let odd_len = BatchJob {
            data_len: 3041,
            ..uniform
        };
        assert!(!JobShape::of(&odd_len, true).aligned8);
        let indexed = BatchJob {
            offsets: 0x2000,
            lengths: 0x3000,
            msg_len: 0,
            ..uniform
        };
        assert_eq!(JobShape::of(&indexed, true).mean_len, 304);
    }
}
