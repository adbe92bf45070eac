//! Errors of the GPU engine: every failure is a value, never a panic.

use std::fmt;

use cudarc::driver::sys::CUresult;
use cudarc::driver::DriverError;

/// What went wrong on the GPU side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GpuError {
    /// The NVIDIA driver library (libcuda) cannot be loaded or is unusable.
    NoDriver(String),
    /// The driver is there but there is no (such) CUDA device.
    NoDevice,
    /// A kernel did not compile, or NVRTC cannot be loaded.
    Compile(String),
    /// A CUDA call failed (including faults raised by a kernel).
    Cuda(String),
    /// Device or pinned host memory is exhausted.
    OutOfMemory,
    /// A request this engine cannot serve (bad parameters included).
    Unsupported(&'static str),
}

impl fmt::Display for GpuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GpuError::NoDriver(why) => write!(f, "no usable NVIDIA driver: {why}"),
            GpuError::NoDevice => f.write_str("no CUDA device (with that ordinal) is present"),
            GpuError::Compile(log) => write!(f, "GPU kernel compilation failed: {log}"),
            GpuError::Cuda(msg) => write!(f, "CUDA error: {msg}"),
            GpuError::OutOfMemory => f.write_str("out of GPU (or pinned host) memory"),
            GpuError::Unsupported(what) => write!(f, "not supported by the GPU engine: {what}"),
        }
    }
}

impl std::error::Error for GpuError {}

/// Describe a driver error without calling back into a driver that may be
/// unusable: the name comes from the enum, the text from the driver if it
/// answers.
pub(crate) fn describe(e: DriverError) -> String {
    match e.error_string() {
        Ok(s) => format!("{:?}: {}", e.0, s.to_string_lossy()),
        Err(_) => format!("{:?}", e.0),
    }
}

impl From<DriverError> for GpuError {
    fn from(e: DriverError) -> Self {
        match e.0 {
            CUresult::CUDA_ERROR_OUT_OF_MEMORY => GpuError::OutOfMemory,
            CUresult::CUDA_ERROR_NO_DEVICE | CUresult::CUDA_ERROR_INVALID_DEVICE => {
                GpuError::NoDevice
            }
            CUresult::CUDA_ERROR_STUB_LIBRARY
            | CUresult::CUDA_ERROR_SYSTEM_DRIVER_MISMATCH
            | CUresult::CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE
            | CUresult::CUDA_ERROR_NOT_INITIALIZED
            | CUresult::CUDA_ERROR_DEINITIALIZED => GpuError::NoDriver(describe(e)),
            _ => GpuError::Cuda(describe(e)),
        }
    }
}
