//! Where a host-fed batch runs: GPU, CPU, or split between them.
//!
//! One GPU thread hashes one message, so a long message runs at one
//! thread's speed (tens of MB/s) while a CPU core does hundreds; and a small
//! batch costs the fixed price of a pipeline call (packing, launch, copies,
//! synchronisation) before any hashing. The model prices both:
//!
//! - GPU: `call_s + (1 + first) × (messages × msg_s + bytes / feed) +
//!   max(blocks / gpu_blocks_per_s, longest / thread_blocks_per_s)`, where
//!   `msg_s` and `feed` are the host's share of a host-fed call (packing
//!   into pinned staging, the copies, draining the digests) per message and
//!   per byte once the pipeline runs, and `first` the share of the batch in
//!   its first chunk, which nothing overlaps (GPU runs 1-3 found the host,
//!   not the bus, bounding host-fed batches, and small batches, one or two
//!   chunks, paying their packing and copies in sequence);
//! - CPU: `blocks / (cpu_blocks_per_s_per_core × cores)`,
//!
//! with blocks counted as Keccak-f\[1600\] calls (a message of `len` bytes at
//! rate r takes len/r + 1 absorbing blocks plus its extra squeeze blocks;
//! 12-round blocks count half). [`CostModel::route`] sends a message to the
//! CPU when it alone would keep one GPU thread busy for longer than the GPU
//! needs for all the rest, and the whole batch when the CPU is cheaper.
//!
//! The defaults were measured on an H200 machine (16 host cores, PCIe 5;
//! bench/results/gpu-h200-2026-11-27-run3.json); `keccakx-gpu-bench`
//! measures them on any machine, writes them into its JSON (`cost_model`)
//! and prints them as a `KECCAKX_GPU_COST` value, which
//! [`CostModel::from_env`] reads.

use keccakx::engine::LaneSpec;

use crate::hasher::{DEFAULT_CHUNK_BYTES, MAX_CHUNK_BYTES, MIN_LAUNCH_MESSAGES};

/// The constants of the model (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostModel {
    /// Fixed cost of one host-fed GPU call, seconds.
    pub call_s: f64,
    /// Host-fed cost per message, seconds (packing its slot and index).
    pub msg_s: f64,
    /// Host-fed bytes per second, end to end (pack, copy, drain overlapped).
    pub feed_bytes_per_s: f64,
    /// 24-round blocks per second with the whole GPU busy.
    pub gpu_blocks_per_s: f64,
    /// 24-round blocks per second of one GPU thread (one message).
    pub thread_blocks_per_s: f64,
    /// 24-round blocks per second of one CPU core (the CPU engine).
    pub cpu_blocks_per_s_per_core: f64,
}

impl Default for CostModel {
    /// Measured on an NVIDIA H200 with 16 host cores (PCIe 5, 55 GB/s
    /// copies), GPU run 3 of 2026-11-27
    /// (bench/results/gpu-h200-2026-11-27-run3.json): 42 µs a call; the host
    /// share fitted to that run's two 1 GiB host-fed batches with this
    /// model (64 B × 2^24 in 90.5 ms, 64 KiB × 2^14 in 35.0 ms: 3.6 ns a
    /// message, 38 GB/s); 2.9 G blocks/s on the whole GPU (1 KiB
    /// messages); 479 k blocks/s for one message alone (one warp); 8.9 M
    /// blocks/s per core of that machine's CPU engine (AVX-512, 16 cores).
    fn default() -> Self {
        CostModel {
            call_s: 42e-6,
            msg_s: 3.6e-9,
            feed_bytes_per_s: 38e9,
            gpu_blocks_per_s: 2.9e9,
            thread_blocks_per_s: 479e3,
            cpu_blocks_per_s_per_core: 8.9e6,
        }
    }
}

/// The model's plan for one batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// Everything on the GPU.
    Gpu,
    /// Everything on the CPU (small batch, or the CPU is faster).
    Cpu,
    /// These messages (indices, increasing) on the CPU, the rest on the GPU,
    /// at the same time.
    Split(Vec<usize>),
}

impl CostModel {
    /// The model from `KECCAKX_GPU_COST` (`call_us=..,msg_ns=..,feed_gbps=..,
    /// gpu_gblocks=..,thread_kblocks=..,cpu_mblocks_per_core=..`, any
    /// subset) over the defaults; unknown or malformed fields are ignored.
    pub fn from_env() -> CostModel {
        let mut m = CostModel::default();
        if let Ok(v) = std::env::var("KECCAKX_GPU_COST") {
            m.apply(&v);
        }
        m
    }

    /// Apply `key=value` pairs (see [`CostModel::from_env`]).
    pub fn apply(&mut self, spec: &str) {
        for kv in spec.split(',') {
            let Some((k, v)) = kv.split_once('=') else {
                continue;
            };
            let Ok(x) = v.trim().parse::<f64>() else {
                continue;
            };
            // msg_ns may be 0; the rates and the call may not.
            if !(x.is_finite() && (x > 0.0 || (x == 0.0 && k.trim() == "msg_ns"))) {
                continue;
            }
            match k.trim() {
                "call_us" => self.call_s = x * 1e-6,
                "msg_ns" => self.msg_s = x * 1e-9,
                "feed_gbps" => self.feed_bytes_per_s = x * 1e9,
                "gpu_gblocks" => self.gpu_blocks_per_s = x * 1e9,
                "thread_kblocks" => self.thread_blocks_per_s = x * 1e3,
                "cpu_mblocks_per_core" => self.cpu_blocks_per_s_per_core = x * 1e6,
                _ => {}
            }
        }
    }

    /// The `KECCAKX_GPU_COST` value that gives this model.
    pub fn to_env(&self) -> String {
        format!(
            "call_us={:.1},msg_ns={:.2},feed_gbps={:.2},gpu_gblocks={:.3},thread_kblocks={:.1},cpu_mblocks_per_core={:.3}",
            self.call_s * 1e6,
            self.msg_s * 1e9,
            self.feed_bytes_per_s / 1e9,
            self.gpu_blocks_per_s / 1e9,
            self.thread_blocks_per_s / 1e3,
            self.cpu_blocks_per_s_per_core / 1e6
        )
    }

    /// Keccak-f calls one message costs, in 24-round units.
    pub fn blocks(spec: &LaneSpec, len: usize, out_len: usize) -> f64 {
        let r = spec.rate_bytes.max(1);
        let calls = len / r + 1 + out_len.saturating_sub(1) / r;
        calls as f64 * spec.rounds as f64 / 24.0
    }

    /// Estimated seconds on the GPU, host-fed, for `count` messages of
    /// `bytes` in all costing `blocks`, the longest `longest` blocks.
    pub fn gpu_seconds(&self, count: usize, bytes: usize, blocks: f64, longest: f64) -> f64 {
        self.call_s
            + self.feed_seconds(count, bytes)
            + (blocks / self.gpu_blocks_per_s).max(longest / self.thread_blocks_per_s)
    }

    /// The host's share of a host-fed call of `count` messages, `bytes` in
    /// all: the pipelined rate, and the first chunk once more.
    pub fn feed_seconds(&self, count: usize, bytes: usize) -> f64 {
        (1.0 + Self::first_chunk_share(count, bytes))
            * (count as f64 * self.msg_s + bytes as f64 / self.feed_bytes_per_s)
    }

    /// The share of a host-fed batch in its first pipeline chunk (the
    /// pipeline's rule, hasher/pack.rs: a chunk closes at [`DEFAULT_CHUNK_BYTES`]
    /// and [`MIN_LAUNCH_MESSAGES`] messages, at most [`MAX_CHUNK_BYTES`]).
    pub fn first_chunk_share(count: usize, bytes: usize) -> f64 {
        if count == 0 {
            return 0.0;
        }
        let b = bytes.max(1) as f64;
        let by_rule =
            (DEFAULT_CHUNK_BYTES as f64 / b).max(MIN_LAUNCH_MESSAGES as f64 / count as f64);
        by_rule.min(MAX_CHUNK_BYTES as f64 / b).min(1.0)
    }

    /// Estimated seconds on `cores` CPU cores for `blocks`.
    pub fn cpu_seconds(&self, blocks: f64, cores: usize) -> f64 {
        blocks / (self.cpu_blocks_per_s_per_core * cores.max(1) as f64)
    }

    /// Where to hash `inputs` (see the module doc), with `cores` CPU cores.
    pub fn route(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, cores: usize) -> Route {
        if inputs.is_empty() {
            return Route::Cpu;
        }
        let cost: Vec<f64> = inputs
            .iter()
            .map(|m| Self::blocks(spec, m.len(), out_len))
            .collect();
        let bytes: usize = inputs.iter().map(|m| m.len()).sum();
        let blocks: f64 = cost.iter().sum();
        // A message longer than the GPU's time for the whole batch (at full
        // occupancy, plus the call) would make the batch wait for one thread.
        let budget =
            self.call_s + self.feed_seconds(inputs.len(), bytes) + blocks / self.gpu_blocks_per_s;
        let cut = budget * self.thread_blocks_per_s;
        let long: Vec<usize> = (0..inputs.len()).filter(|&i| cost[i] > cut).collect();
        let (gpu_bytes, gpu_blocks, gpu_longest, cpu_blocks) = if long.is_empty() {
            let longest = cost.iter().cloned().fold(0.0, f64::max);
            (bytes, blocks, longest, 0.0)
        } else {
            let mut is_long = vec![false; inputs.len()];
            long.iter().for_each(|&i| is_long[i] = true);
            let (mut gb, mut gk, mut gl, mut ck) = (0usize, 0.0, 0.0f64, 0.0);
            for (i, m) in inputs.iter().enumerate() {
                if is_long[i] {
                    ck += cost[i];
                } else {
                    gb += m.len();
                    gk += cost[i];
                    gl = gl.max(cost[i]);
                }
            }
            (gb, gk, gl, ck)
        };
        let all_cpu = self.cpu_seconds(blocks, cores);
        let split = if long.len() == inputs.len() {
            f64::INFINITY
        } else {
            self.gpu_seconds(
                inputs.len() - long.len(),
                gpu_bytes,
                gpu_blocks,
                gpu_longest,
            )
            .max(self.cpu_seconds(cpu_blocks, cores))
        };
        if all_cpu <= split {
            Route::Cpu
        } else if long.is_empty() {
            Route::Gpu
        } else {
            Route::Split(long)
        }
    }

    /// Whether a batch of `count` messages of about `bytes` in all (at
    /// `spec`'s rate) is worth the GPU rather than `cores` CPU cores: the
    /// CLI's `--backend auto` before it has read the files.
    pub fn prefers_gpu(
        &self,
        spec: &LaneSpec,
        count: usize,
        bytes: u64,
        out_len: usize,
        cores: usize,
    ) -> bool {
        if count == 0 {
            return false;
        }
        let avg = (bytes / count as u64) as usize;
        let per = Self::blocks(spec, avg, out_len);
        let blocks = per * count as f64;
        self.gpu_seconds(count, bytes as usize, blocks, per) < self.cpu_seconds(blocks, cores)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sha3() -> LaneSpec {
        LaneSpec::new(136, 24, 0x06).unwrap()
    }

    /// The defaults route as the H200 machine measured (run 3's crossover,
    /// 16 cores): small batches on the CPU, big ones on the GPU.
    #[test]
    fn small_batches_stay_on_the_cpu_and_big_ones_go_to_the_gpu() {
        let m = CostModel::default();
        let msg = [0u8; 64];
        let few: Vec<&[u8]> = vec![&msg; 10];
        assert_eq!(m.route(&sha3(), &few, 32, 16), Route::Cpu);
        let kib = [0u8; 1024];
        let many: Vec<&[u8]> = vec![&kib; 1 << 20];
        assert_eq!(m.route(&sha3(), &many, 32, 16), Route::Gpu);
        // Measured GPU against CPU: 1 KiB x 2^20 33 / 56 ms, 16 KiB x 2^16
        // 34 / 40 ms, 64 B x 2^24 90 / 165 ms; 1 KiB x 4096 0.63 / 0.21 ms,
        // 16 KiB x 4096 3.9 / 3.1 ms, 64 B x 65536 0.71 / 0.59 ms.
        assert!(m.prefers_gpu(&sha3(), 1 << 20, 1 << 30, 32, 16));
        assert!(m.prefers_gpu(&sha3(), 1 << 16, 1 << 30, 32, 16));
        assert!(m.prefers_gpu(&sha3(), 1 << 24, 1 << 30, 32, 16));
        assert!(!m.prefers_gpu(&sha3(), 4096, 4 << 20, 32, 16));
        assert!(!m.prefers_gpu(&sha3(), 4096, 64 << 20, 32, 16));
        assert!(!m.prefers_gpu(&sha3(), 65536, 4 << 20, 32, 16));
        assert!(!m.prefers_gpu(&sha3(), 10, 640, 32, 16));
        assert!(!m.prefers_gpu(&sha3(), 0, 0, 32, 16));
    }

    /// A CPU a million times slower and GPU threads that never limit.
    const AUTO_GPU: &str = "cpu_mblocks_per_core=0.000001,thread_kblocks=1000000000";

    #[test]
    fn a_crippled_cpu_rate_sends_every_batch_to_the_gpu() {
        // What the GPU run's CLI check sets to force `--backend auto` onto
        // the GPU route (bench/gpu/run-on-gpu.sh, auto-gpu): the mixed files
        // of that check, in any chunk, go to the GPU whole.
        let mut m = CostModel::default();
        m.apply(AUTO_GPU);
        let sizes = [0usize, 1, 63, 64, 135, 136, 137, 1000, 4096, 70000];
        let data = vec![7u8; 70000];
        for n in [17usize, 100, 3000] {
            let files: Vec<&[u8]> = (0..n).map(|i| &data[..sizes[i % sizes.len()]]).collect();
            assert_eq!(m.route(&sha3(), &files, 32, 16), Route::Gpu, "{n} files");
        }
    }

    #[test]
    fn the_first_chunk_share_follows_the_pipeline_rule() {
        // 1 GiB of 64 B messages: 32 MiB chunks.
        assert!((CostModel::first_chunk_share(1 << 24, 1 << 30) - 1.0 / 32.0).abs() < 1e-9);
        // 1 GiB of 64 KiB messages: 4096 a chunk.
        assert!((CostModel::first_chunk_share(1 << 14, 1 << 30) - 0.25).abs() < 1e-9);
        // 4 GiB of 1 MiB messages: capped at 256 MiB.
        assert!((CostModel::first_chunk_share(4096, 4 << 30) - 1.0 / 16.0).abs() < 1e-9);
        assert_eq!(CostModel::first_chunk_share(10, 640), 1.0);
        assert_eq!(CostModel::first_chunk_share(0, 0), 0.0);
    }

    #[test]
    fn a_long_message_among_short_ones_goes_to_the_cpu() {
        let m = CostModel::default();
        let short = [0u8; 64];
        let long = vec![0u8; 64 << 20];
        let mut v: Vec<&[u8]> = vec![&short; 1 << 20];
        v[12345] = &long;
        assert_eq!(m.route(&sha3(), &v, 32, 16), Route::Split(vec![12345]));
        // A few long messages alone: the CPU.
        let only: Vec<&[u8]> = vec![&long; 4];
        assert_eq!(m.route(&sha3(), &only, 32, 16), Route::Cpu);
    }

    #[test]
    fn block_counts_follow_rate_rounds_and_output() {
        let s = sha3();
        assert_eq!(CostModel::blocks(&s, 0, 32), 1.0);
        assert_eq!(CostModel::blocks(&s, 136, 32), 2.0);
        assert_eq!(CostModel::blocks(&s, 135, 137), 2.0);
        let kt = LaneSpec::new(168, 12, 0x0B).unwrap();
        assert_eq!(CostModel::blocks(&kt, 8192, 32), 49.0 / 2.0);
    }

    #[test]
    fn the_environment_string_round_trips() {
        let mut m = CostModel::default();
        m.apply("call_us=12.5,msg_ns=3.5,feed_gbps=50,gpu_gblocks=3.1,thread_kblocks=200,cpu_mblocks_per_core=2.5,bogus=1,call_us=x");
        assert!((m.call_s - 12.5e-6).abs() < 1e-12);
        assert!((m.msg_s - 3.5e-9).abs() < 1e-15);
        assert_eq!(m.feed_bytes_per_s, 50e9);
        let mut again = CostModel::default();
        again.apply(&m.to_env());
        assert!((again.gpu_blocks_per_s - m.gpu_blocks_per_s).abs() < 1e6);
        assert!((again.cpu_blocks_per_s_per_core - 2.5e6).abs() < 1.0);
        assert!((again.msg_s - 3.5e-9).abs() < 1e-12);
        // Nonsense is ignored.
        let mut z = CostModel::default();
        z.apply("call_us=-1,h2d_gbps=inf,gpu_gblocks=0");
        assert_eq!(z, CostModel::default());
    }
}
