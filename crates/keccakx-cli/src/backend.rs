//! `--backend auto|cpu|gpu`: where `keccakx sum` hashes.
//!
//! The GPU engine (crates/keccakx-gpu) is not part of this build yet: `gpu`
//! reports that no GPU can be used, `auto` and `cpu` hash on the CPU.

use crate::cli::Backend;
use crate::sum::Batch;

/// Why no GPU can be used by this build.
const NO_GPU: &str = "this build of keccakx has no GPU engine";

/// The GPUs this build can use, one description each, or why there are none.
pub fn gpu_devices() -> Result<Vec<String>, String> {
    Err(NO_GPU.to_string())
}

/// The batch hasher for `backend`: `Ok(None)` hashes on the CPU; an error
/// (only for a forced `gpu`) is the message after `--backend gpu: `.
pub fn batch_for(backend: Backend) -> Result<Option<Box<dyn Batch>>, String> {
    match backend {
        Backend::Cpu | Backend::Auto => Ok(None),
        Backend::Gpu => Err(format!("no GPU available ({NO_GPU})")),
    }
}
