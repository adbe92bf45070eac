//! The kernels by name (each module loaded on first use) and a job's
//! launch: the kernel [`choose_kernel`] picks, its grid split for very
//! large batches.

use cudarc::driver::{sys, CudaFunction, CudaStream, LaunchConfig, PushKernelArg};
use keccakx::engine::LaneSpec;

use super::choice::{choose_kernel, DeviceProps, JobShape};
use super::handle::{lock, GpuHasher};
use super::load::load_module;
use crate::error::GpuError;
use crate::kernels::{self, BatchJob, Module};

/// Most messages one kernel launch takes (the grid is split beyond).
const MAX_LAUNCH_MESSAGES: u64 = 1 << 30;

impl GpuHasher {
    /// Launch the batch kernel for `job` on `stream` (split into several
    /// grids for very large batches); `aligned8`: every message offset (or
    /// the stride) is a multiple of 8.
    pub(super) fn launch(
        &self,
        stream: &CudaStream,
        spec: &LaneSpec,
        job: BatchJob,
        aligned8: bool,
    ) -> Result<(), GpuError> {
        if job.n == 0 {
            return Ok(());
        }
        let dev = DeviceProps {
            sms: self.sm_count()?,
            compute_major: self.info.compute_capability.0,
        };
        let pick = choose_kernel(
            self.batch_kernel(),
            spec,
            &JobShape::of(&job, aligned8),
            &dev,
        );
        let (module, name, threads, per_block, smem) = (
            pick.module,
            pick.entry,
            pick.threads,
            pick.per_block,
            pick.shared_bytes,
        );
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

    /// A kernel by name, loading (or compiling) its module on first use.
    pub(super) fn function(
        &self,
        module: Module,
        name: &'static str,
    ) -> Result<CudaFunction, GpuError> {
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
}
