//! What later sections need from earlier ones.

use std::sync::Arc;

use keccakx_gpu::GpuHasher;

/// What later sections need from earlier ones.
pub(crate) struct Ctx {
    pub gpu: Arc<GpuHasher>,
    pub quick: bool,
    pub cores: usize,
    pub h2d: f64,
    /// The ALU bound for 24-round Keccak-f\[1600\], permutations/s.
    pub alu24: Option<f64>,
}
