//! KECCAKX_GPU_DISABLE hides every GPU: a deterministic no-GPU run on any
//! machine (this file is its own test process, so the variable is set
//! before the driver is probed).

use keccakx_gpu::{devices, GpuEngine, GpuError, GpuHasher};

#[test]
fn disabled_gpu_is_a_no_driver_error_everywhere() {
    std::env::set_var("KECCAKX_GPU_DISABLE", "1");
    let e = devices().unwrap_err();
    assert!(
        matches!(&e, GpuError::NoDriver(m) if m.contains("KECCAKX_GPU_DISABLE")),
        "{e:?}"
    );
    assert!(matches!(GpuHasher::new(0), Err(GpuError::NoDriver(_))));
    assert!(GpuEngine::new(0).is_err());
    assert!(keccakx_gpu::device_details(0).is_err());
}
