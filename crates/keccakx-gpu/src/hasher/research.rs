//! Research probes for the GPU benchmark (feature `research`): the
//! permutation-throughput kernels ([`PermKernel`]) with their CPU reference,
//! and the copy bandwidths a host-fed run is compared with. Nothing in the
//! product calls them.

use std::time::Instant;

use cudarc::driver::{result, sys, LaunchConfig, PushKernelArg};

use super::handle::GpuHasher;
use super::pack::copy_parallel;
use crate::error::GpuError;
use crate::kernels::{Module, PAPER_STATES, PERM_THREADS};
use crate::mem::{DevBuf, Pinned};

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

impl GpuHasher {
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

/// A permutation kernel: module, entry point, threads per block, states per block.
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

#[cfg(test)]
mod tests {
    use super::*;

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
