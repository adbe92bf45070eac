//! keccakx-gpu: the CUDA engine of keccakx.
//!
//! Batch hashing of many messages with one width-1600 sponge
//! ([`keccakx::engine::LaneSpec`]) on an NVIDIA GPU, from host memory
//! ([`GpuHasher::hash_many`]) or from device memory
//! ([`GpuHasher::hash_many_device`]); KT128/KT256, ParallelHash and tree LI
//! with their leaves on the GPU, from host memory ([`GpuEngine::kt`],
//! [`GpuEngine::parallelhash`], [`GpuEngine::tree_li`]) or device memory
//! ([`GpuHasher::kt_device`], [`GpuHasher::parallelhash_device`],
//! [`GpuHasher::tree_li_device`]).
//!
//! Nothing CUDA is needed to build or run: the driver (libcuda) and NVRTC
//! are loaded at run time. Without them [`devices`] and [`GpuHasher::new`]
//! return [`GpuError::NoDriver`] / [`GpuError::NoDevice`] (never a panic),
//! and callers fall back to the CPU engines. Kernels (`kernels/*.cu`) are
//! compiled by NVRTC for the device's architecture on first use and cached
//! on disk (see [`kernels`]).
//!
//! ```no_run
//! use keccakx::engine::LaneSpec;
//! let gpu = keccakx_gpu::GpuHasher::new(0)?;
//! let sha3_256 = LaneSpec::new(136, 24, 0x06).unwrap();
//! let msgs: Vec<&[u8]> = vec![b"abc", b"", b"hello"];
//! let mut out = vec![0u8; 3 * 32];
//! gpu.hash_many(&sha3_256, &msgs, 32, &mut out)?;
//! # Ok::<(), keccakx_gpu::GpuError>(())
//! ```
//!
//! Environment: `KECCAKX_GPU_DISABLE=1` hides every GPU; `KECCAKX_NVRTC_LIB`
//! names libnvrtc; `KECCAKX_CACHE_DIR` / `KECCAKX_GPU_CACHE=0` steer the
//! kernel cache.
//!
//! The root only declares modules and re-exports: `device` (what the driver
//! reports), `hasher` (batches on the GPU, in rooms: see its module page),
//! `tree` (device-resident KT, ParallelHash and tree LI), `engine` (the GPU
//! behind keccakx's engine contract), `cost` (where a batch runs fastest).
//!
//! Feature `research`: the kernels and probes kept only for the GPU runs to
//! compare (`PermKernel` and the permutation-throughput runs, copy
//! bandwidths, the batch kernels `Auto` never picks); the GPU benchmark
//! (crates/keccakx-gpu-bench) turns it on, the product leaves it off.

pub mod cost;
mod device;
pub mod driver;
mod engine;
pub mod error;
pub mod hasher;
pub mod kernels;
pub mod mem;
pub mod nvrtc;
pub mod tree;

pub use cost::{CostModel, Route};
pub use cudarc;
pub use device::{device_details, devices, nvrtc_version, DeviceDetails, DeviceInfo};
pub use engine::{GpuEngine, GPU_BATCH_BYTES, GPU_MERKLE_MIN_LEAVES};
pub use error::GpuError;
#[cfg(feature = "research")]
pub use hasher::{perm_reference, PermKernel};
pub use hasher::{
    BatchKernel, GpuHasher, HostInput, HostRegistration, InputPath, Layout, LeavesStats,
    PipelineStats, RawLayout, DEFAULT_REGISTER_MIN_BYTES, FIRST_GROUP_LEAVES, MAX_GROUP_LEAVES,
};
pub use tree::{KtVariant, PhVariant};
