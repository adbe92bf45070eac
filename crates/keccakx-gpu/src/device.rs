//! The CUDA devices: what the driver says about them (`devices`,
//! `device_details`, for `keccakx info` and benchmark records) and the
//! NVRTC kernels are compiled with.

use cudarc::driver::{result, sys};

use crate::driver;
use crate::error::GpuError;
use crate::nvrtc;

/// A CUDA device as the driver describes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    pub ordinal: usize,
    pub name: String,
    pub compute_capability: (u32, u32),
    pub memory_bytes: u64,
}

/// More about a device, for `keccakx info` and benchmark records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceDetails {
    pub info: DeviceInfo,
    /// Streaming multiprocessors.
    pub sm_count: u32,
    /// Peak SM clock in kHz, if the driver reports it.
    pub clock_khz: Option<u32>,
    /// Peak memory clock in kHz, if reported.
    pub memory_clock_khz: Option<u32>,
    /// Memory bus width in bits, if reported.
    pub memory_bus_bits: Option<u32>,
    /// PCI bus id "domain:bus:device".
    pub pci: String,
    /// The driver's CUDA version (major, minor).
    pub driver_cuda: (u32, u32),
}

fn attr(dev: sys::CUdevice, a: sys::CUdevice_attribute) -> Result<i32, GpuError> {
    // SAFETY: the driver is initialised (callers passed driver::ensure) and
    // `dev` is a device handle it returned.
    Ok(unsafe { result::device::get_attribute(dev, a) }?)
}

pub(crate) fn device_info(ordinal: usize) -> Result<DeviceInfo, GpuError> {
    driver::ensure()?;
    let dev = result::device::get(ordinal as i32)?;
    let name = result::device::get_name(dev)?;
    // SAFETY: as in `attr`.
    let memory_bytes = unsafe { result::device::total_mem(dev) }? as u64;
    use sys::CUdevice_attribute::*;
    let major = attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
    let minor = attr(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
    Ok(DeviceInfo {
        ordinal,
        name,
        compute_capability: (major.max(0) as u32, minor.max(0) as u32),
        memory_bytes,
    })
}

/// Every CUDA device. `Err(NoDriver)` when libcuda cannot be loaded,
/// `Err(NoDevice)` when it reports no device; never panics.
pub fn devices() -> Result<Vec<DeviceInfo>, GpuError> {
    driver::ensure()?;
    let n = result::device::get_count()?;
    if n <= 0 {
        return Err(GpuError::NoDevice);
    }
    (0..n as usize).map(device_info).collect()
}

/// Details of device `ordinal`.
pub fn device_details(ordinal: usize) -> Result<DeviceDetails, GpuError> {
    let info = device_info(ordinal)?;
    let dev = result::device::get(ordinal as i32)?;
    use sys::CUdevice_attribute::*;
    let opt = |a| attr(dev, a).ok().filter(|v| *v > 0).map(|v| v as u32);
    let sm_count = attr(dev, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?.max(0) as u32;
    let pci = format!(
        "{:04x}:{:02x}:{:02x}",
        opt(CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID).unwrap_or(0),
        opt(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID).unwrap_or(0),
        opt(CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID).unwrap_or(0)
    );
    Ok(DeviceDetails {
        info,
        sm_count,
        clock_khz: opt(CU_DEVICE_ATTRIBUTE_CLOCK_RATE),
        memory_clock_khz: opt(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE),
        memory_bus_bits: opt(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH),
        pci,
        driver_cuda: driver::driver_version()?,
    })
}

/// The NVRTC that kernels are compiled with: (version, path), or why not.
pub fn nvrtc_version() -> Result<((u32, u32), String), GpuError> {
    let n = nvrtc::Nvrtc::get()?;
    Ok((n.version(), n.path().to_string()))
}
