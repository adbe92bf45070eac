//! Kernel modules: the compilation target for a device, a module's image
//! from the disk cache or NVRTC loaded into the driver (a cached image the
//! driver rejects is compiled again), the hasher loads each module on first use
//! (`launch`).

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaModule};
use cudarc::nvrtc::Ptx;

use crate::error::GpuError;
use crate::kernels::{self, Module};
use crate::nvrtc::{Nvrtc, Target};

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
pub(super) fn load_module(
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
