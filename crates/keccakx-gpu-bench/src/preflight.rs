//! The runs that measure nothing: `--precompile` (fill the kernel cache, no
//! GPU needed) and `--preflight` (what the GPU machine offers).

use keccakx_gpu::{device_details, devices, GpuHasher};

/// Compile every module for `arch` (sm_XY) into the kernel cache; 0 on success.
pub(crate) fn precompile(arch: &str) -> i32 {
    let Some((a, b)) = arch
        .strip_prefix("sm_")
        .filter(|d| d.len() >= 2)
        .and_then(|d| {
            Some((
                d[..d.len() - 1].parse().ok()?,
                d[d.len() - 1..].parse().ok()?,
            ))
        })
    else {
        eprintln!("keccakx-gpu-bench: --precompile {arch:?}: expected sm_XY, e.g. sm_90");
        return 2;
    };
    let target = keccakx_gpu::nvrtc::Target::Cubin(a, b);
    for &m in keccakx_gpu::kernels::Module::ALL {
        match keccakx_gpu::kernels::image(m, target) {
            Ok((img, from)) => eprintln!(
                "precompiled {} for {arch}: {} bytes ({from})",
                m.name(),
                img.len()
            ),
            Err(e) => {
                eprintln!(
                    "keccakx-gpu-bench: precompiling {} for {arch}: {e}",
                    m.name()
                );
                return 1;
            }
        }
    }
    0
}

/// What the GPU machine offers, in a few lines; 2 when there is no GPU.
pub(crate) fn preflight() -> i32 {
    match keccakx_gpu::driver::driver_version() {
        Ok((a, b)) => println!("== driver CUDA API: {a}.{b}"),
        Err(e) => println!("== driver: {e}"),
    }
    match keccakx_gpu::nvrtc::Nvrtc::get() {
        Ok(n) => println!(
            "== NVRTC {}.{} loaded from {} (builtins: {}); sm archs {:?}",
            n.version().0,
            n.version().1,
            n.path(),
            n.builtins_path().unwrap_or("through the system loader"),
            n.supported_archs()
        ),
        Err(e) => println!("== NVRTC: {e} (cached kernels only)"),
    }
    match devices() {
        Ok(d) => {
            for dev in d {
                let det = device_details(dev.ordinal);
                println!(
                    "== device {}: {} sm_{}{} {:.1} GiB{}",
                    dev.ordinal,
                    dev.name,
                    dev.compute_capability.0,
                    dev.compute_capability.1,
                    dev.memory_bytes as f64 / (1u64 << 30) as f64,
                    det.map(|x| format!(
                        ", {} SMs, SM clock {:?} kHz, PCI {}",
                        x.sm_count, x.clock_khz, x.pci
                    ))
                    .unwrap_or_default()
                );
            }
            match GpuHasher::new(0) {
                Ok(h) => println!(
                    "== kernels: {} from {} (KECCAKX_CACHE_DIR={})",
                    h.target(),
                    h.image_source(),
                    std::env::var("KECCAKX_CACHE_DIR").unwrap_or_default()
                ),
                Err(e) => println!("== opening device 0: {e}"),
            }
            0
        }
        Err(e) => {
            println!("== no GPU: {e}");
            2
        }
    }
}
