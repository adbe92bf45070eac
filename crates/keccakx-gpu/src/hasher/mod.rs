//! `GpuHasher`: batch hashing on one GPU, in rooms (this file only declares
//! them and re-exports; a room never reads this file):
//!
//! - `handle`: the hasher, its settings, statistics and plain copies;
//! - `buffers`: the pipeline's stages and the buffers kept between calls;
//! - `choice`: which kernel runs a job, a pure function of the choice, the
//!   sponge, the job's shape and the device ([`choose_kernel`], tested
//!   without a GPU);
//! - `load`: kernel modules (disk cache or NVRTC, then the driver);
//! - `launch`: the kernels by name and a job's launch;
//! - `pipeline`: host-fed batches through [`STAGES`] stages, each with its
//!   own stream, pinned staging buffers and device buffers: while the GPU
//!   copies and hashes chunk c on one stream, the CPU packs chunk c + 1 into
//!   the next stage's pinned buffer, and the copy engines overlap the next
//!   chunk's upload with the current kernel;
//! - `host`: host-fed input copied straight from the caller's page-locked
//!   (or registered) memory, and the ramped chunk sizes of such batches;
//! - `merkle`: OpenZeppelin Merkle trees built level by level in device
//!   memory (leaves from the host or left on the device);
//! - `pack`: cutting a batch into chunks and packing messages on all cores;
//! - `layout`: where messages lie in a device buffer, the parameter checks
//!   and the kernel's parameter block;
//! - `resident`: device-resident and raw-address jobs (data already in GPU
//!   memory launches directly);
//! - `groups`: how device-resident leaves are cut into launches (small
//!   first, then doubling) and the two-buffer loop that runs them beside
//!   the mode's final node (CPU-tested);
//! - `leaves`: the tree modes' device-resident work (leaves in groups,
//!   gathered messages, reads), the only door `crate::tree` uses;
//! - `research` (feature `research`): permutation-throughput kernels and
//!   copy bandwidths, for the GPU benchmark.

mod buffers;
mod choice;
mod groups;
mod handle;
mod host;
mod launch;
mod layout;
mod leaves;
mod load;
mod merkle;
mod pack;
mod pipeline;
#[cfg(feature = "research")]
mod research;
mod resident;

pub use buffers::STAGES;
pub use choice::{choose_kernel, BatchKernel, DeviceProps, JobShape, KernelPick, RATE_SPECIALIZED};
pub use groups::{leaf_groups, LeavesStats, FIRST_GROUP_LEAVES, MAX_GROUP_LEAVES};
pub use handle::{GpuHasher, InputPath, PipelineStats};
pub use host::{ramp_chunks, HostInput, HostRegistration, DEFAULT_REGISTER_MIN_BYTES};
pub use layout::{check_spec, Layout, RawLayout};
pub use load::choose_target;
pub use merkle::merkle_runs;
pub use pack::{DEFAULT_CHUNK_BYTES, MAX_CHUNK_BYTES, MIN_LAUNCH_MESSAGES};
#[cfg(feature = "research")]
pub use research::{perm_reference, PermKernel};
