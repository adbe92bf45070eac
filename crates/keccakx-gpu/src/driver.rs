//! The CUDA driver, loaded at run time through cudarc, behind a guard.
//!
//! cudarc's dynamic loader panics when libcuda is missing or lacks a symbol,
//! and release builds abort on panic, so nothing may reach cudarc before
//! [`ensure`] has checked that the library loads, that every entry point
//! this crate uses is exported, and that `cuInit` succeeds. The result is
//! computed once per process.

use std::sync::OnceLock;

use cudarc::driver::{result, sys};

use crate::error::{describe, GpuError};

/// Driver entry points reached through cudarc by this crate (names as
/// cudarc's 12.8 bindings resolve them).
const REQUIRED: &[&str] = &[
    "cuInit",
    "cuDriverGetVersion",
    "cuGetErrorName",
    "cuGetErrorString",
    "cuDeviceGetCount",
    "cuDeviceGet",
    "cuDeviceGetName",
    "cuDeviceTotalMem_v2",
    "cuDeviceGetAttribute",
    "cuDevicePrimaryCtxRetain",
    "cuDevicePrimaryCtxRelease_v2",
    "cuCtxGetCurrent",
    "cuCtxSetCurrent",
    "cuCtxSynchronize",
    "cuStreamCreate",
    "cuStreamDestroy_v2",
    "cuStreamSynchronize",
    "cuStreamWaitEvent",
    "cuEventCreate",
    "cuEventRecord",
    "cuEventSynchronize",
    "cuEventElapsedTime",
    "cuEventQuery",
    "cuEventDestroy_v2",
    "cuModuleLoadData",
    "cuModuleGetFunction",
    "cuModuleUnload",
    "cuLaunchKernel",
    "cuMemAlloc_v2",
    "cuMemFree_v2",
    "cuMemAllocAsync",
    "cuMemFreeAsync",
    "cuMemHostAlloc",
    "cuMemFreeHost",
    "cuMemcpyHtoDAsync_v2",
    "cuMemcpyDtoHAsync_v2",
    "cuMemcpyDtoDAsync_v2",
    "cuMemcpy2DAsync_v2",
    "cuMemcpyHtoD_v2",
    "cuMemcpyDtoH_v2",
    "cuMemsetD8Async",
    "cuMemGetInfo_v2",
    "cuMemHostGetDevicePointer_v2",
    "cuFuncSetAttribute",
    "cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
];

static STATE: OnceLock<Result<(), GpuError>> = OnceLock::new();

/// Check once that the driver is usable; every entry into cudarc goes
/// through here first.
pub fn ensure() -> Result<(), GpuError> {
    STATE.get_or_init(probe).clone()
}

fn probe() -> Result<(), GpuError> {
    if std::env::var("KECCAKX_GPU_DISABLE").is_ok_and(|v| !v.is_empty() && v != "0") {
        return Err(GpuError::NoDriver("disabled by KECCAKX_GPU_DISABLE".into()));
    }
    // SAFETY: only tries to dlopen the driver library under its usual names.
    if !unsafe { sys::is_culib_present() } {
        return Err(GpuError::NoDriver(
            "the NVIDIA driver library (libcuda.so.1) is not installed or not on the loader path"
                .into(),
        ));
    }
    // SAFETY: the library is present (checked just above), so cudarc's
    // loader succeeds instead of panicking; symbols are only looked up here.
    let lib = unsafe { sys::culib() };
    for name in REQUIRED {
        // SAFETY: a symbol lookup; the pointer is not called.
        if unsafe { lib.get::<unsafe extern "C" fn()>(name.as_bytes()) }.is_err() {
            return Err(GpuError::NoDriver(format!(
                "the NVIDIA driver is too old: libcuda lacks {name} (CUDA 12.8 or newer is needed)"
            )));
        }
    }
    result::init().map_err(|e| match e.0 {
        sys::CUresult::CUDA_ERROR_NO_DEVICE => GpuError::NoDevice,
        _ => GpuError::NoDriver(format!("cuInit failed: {}", describe(e))),
    })
}

/// The driver's CUDA version as (major, minor), e.g. (13, 0).
pub fn driver_version() -> Result<(u32, u32), GpuError> {
    ensure()?;
    let mut v: std::ffi::c_int = 0;
    // SAFETY: the driver is loaded and initialised; valid out-pointer.
    unsafe { sys::cuDriverGetVersion(&mut v) }
        .result()
        .map_err(GpuError::from)?;
    Ok(((v / 1000) as u32, ((v % 1000) / 10) as u32))
}
