//! keccakx-gpu: the CUDA engine of keccakx.
//!
//! Batch hashing of many messages with one width-1600 sponge
//! ([`keccakx::engine::LaneSpec`]) on an NVIDIA GPU, from host memory
//! ([`GpuHasher::hash_many`]) or from device memory
//! ([`GpuHasher::hash_many_device`]); KT128/KT256 and ParallelHash with
//! their leaves on the GPU ([`GpuHasher::kt_host`], [`GpuHasher::kt_device`],
//! [`GpuHasher::parallelhash_host`]).
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

pub mod cost;
pub mod driver;
pub mod error;
pub mod hasher;
pub mod kernels;
pub mod mem;
pub mod nvrtc;
pub mod tree;

use std::sync::Mutex;

use cudarc::driver::{result, sys};
use keccakx::engine::{Engine, LaneSpec};
use keccakx::registry::Params;

pub use cudarc;
pub use error::GpuError;
pub use cost::{CostModel, Route};
pub use hasher::{
    perm_reference, BatchKernel, GpuHasher, InputPath, Layout, PermKernel, PipelineStats, RawLayout,
};
pub use tree::{KtVariant, PhVariant};

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

/// Which registry algorithms are one plain width-1600 sponge, and with what
/// output length: sha3-*, shake*, keccak-*, turboshake* (any domain byte),
/// cshake* with empty function name and customization (= SHAKE), and raw
/// `keccak` with width 1600, a byte-aligned rate and any rounds/suffix.
/// None for everything else (tree modes, KMAC, TupleHash, invalid params).
pub fn lane_spec_for(name: &str, params: &Params) -> Option<(LaneSpec, usize)> {
    // Let the registry validate the combination first.
    let h = keccakx::registry::Hasher::new(name, params).ok()?;
    let out_len = h.output_len();
    let info = h.info();
    let spec = |rate, rounds, suffix| LaneSpec::new(rate, rounds, suffix).ok();
    let s = match info.name {
        "sha3-224" => spec(144, 24, 0x06),
        "sha3-256" => spec(136, 24, 0x06),
        "sha3-384" => spec(104, 24, 0x06),
        "sha3-512" => spec(72, 24, 0x06),
        "shake128" => spec(168, 24, 0x1F),
        "shake256" => spec(136, 24, 0x1F),
        "keccak-224" => spec(144, 24, 0x01),
        "keccak-256" => spec(136, 24, 0x01),
        "keccak-384" => spec(104, 24, 0x01),
        "keccak-512" => spec(72, 24, 0x01),
        "cshake128" if params.function_name.is_empty() && params.customization.is_empty() => {
            spec(168, 24, 0x1F)
        }
        "cshake256" if params.function_name.is_empty() && params.customization.is_empty() => {
            spec(136, 24, 0x1F)
        }
        "turboshake128" => spec(168, 12, params.domain.unwrap_or(0x1F)),
        "turboshake256" => spec(136, 12, params.domain.unwrap_or(0x1F)),
        "keccak" => {
            let (rate, width) = match (params.rate, params.capacity, params.width) {
                (Some(r), Some(c), _) => (r, r + c),
                (Some(r), None, w) => (r, w.unwrap_or(1600)),
                (None, Some(c), w) => {
                    let w = w.unwrap_or(1600);
                    (w.checked_sub(c)?, w)
                }
                (None, None, _) => return None,
            };
            if width != 1600 || rate % 8 != 0 {
                return None;
            }
            spec(
                rate / 8,
                params.rounds.unwrap_or(24),
                params.suffix.unwrap_or(0x01),
            )
        }
        _ => None,
    }?;
    Some((s, out_len))
}

/// The GPU as a `keccakx::engine::Engine` (name "cuda"): batches go to the
/// GPU; if the GPU fails, that call is done by the scalar CPU engine (same
/// digests) and the error is kept for [`GpuEngine::take_error`], so callers
/// can print their one-line notice.
pub struct GpuEngine {
    hasher: GpuHasher,
    error: Mutex<Option<GpuError>>,
}

impl GpuEngine {
    /// Open device `ordinal`.
    pub fn new(ordinal: usize) -> Result<GpuEngine, GpuError> {
        Ok(GpuEngine {
            hasher: GpuHasher::new(ordinal)?,
            error: Mutex::new(None),
        })
    }
    /// The hasher behind it.
    pub fn hasher(&self) -> &GpuHasher {
        &self.hasher
    }
    /// The first GPU error since the last call, if a fallback happened.
    pub fn take_error(&self) -> Option<GpuError> {
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

impl Engine for GpuEngine {
    fn name(&self) -> &'static str {
        "cuda"
    }
    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
        if let Err(e) = self.hasher.hash_many(spec, inputs, out_len, out) {
            let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
            slot.get_or_insert(e);
            keccakx::engine::Scalar.hash_many(spec, inputs, out_len, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lane_specs_of_the_plain_sponges() {
        let p = Params::default();
        let (s, n) = lane_spec_for("sha3-256", &p).unwrap();
        assert_eq!(
            (s.rate_bytes, s.rounds, s.delimited_suffix, n),
            (136, 24, 0x06, 32)
        );
        let (s, n) = lane_spec_for(
            "SHAKE128",
            &Params {
                length: Some(100),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!((s.rate_bytes, s.delimited_suffix, n), (168, 0x1F, 100));
        let (s, n) = lane_spec_for("keccak256", &p).unwrap();
        assert_eq!((s.rate_bytes, s.delimited_suffix, n), (136, 0x01, 32));
        let (s, _) = lane_spec_for(
            "turboshake128",
            &Params {
                domain: Some(0x0B),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(
            (s.rate_bytes, s.rounds, s.delimited_suffix),
            (168, 12, 0x0B)
        );
        let raw = Params {
            rate: Some(1088),
            capacity: Some(512),
            rounds: Some(12),
            suffix: Some(0x06),
            ..Default::default()
        };
        let (s, n) = lane_spec_for("keccak", &raw).unwrap();
        assert_eq!(
            (s.rate_bytes, s.rounds, s.delimited_suffix, n),
            (136, 12, 0x06, 32)
        );
        assert!(lane_spec_for("cshake128", &p).is_some());
    }

    #[test]
    fn no_lane_spec_for_modes_and_bad_params() {
        let p = Params::default();
        for name in ["kt128", "kt256", "parallelhash128", "tuplehash256", "nope"] {
            assert!(lane_spec_for(name, &p).is_none(), "{name}");
        }
        assert!(lane_spec_for(
            "kmac128",
            &Params {
                key: Some(vec![1]),
                ..Default::default()
            }
        )
        .is_none());
        assert!(lane_spec_for(
            "cshake128",
            &Params {
                customization: b"x".to_vec(),
                ..Default::default()
            }
        )
        .is_none());
        assert!(lane_spec_for(
            "sha3-256",
            &Params {
                length: Some(7),
                ..Default::default()
            }
        )
        .is_none());
        // Width 800, or a rate that is not whole bytes: not a lane sponge.
        let w800 = Params {
            rate: Some(544),
            capacity: Some(256),
            ..Default::default()
        };
        assert!(lane_spec_for("keccak", &w800).is_none());
        let bits = Params {
            rate: Some(1087),
            capacity: Some(513),
            ..Default::default()
        };
        assert!(lane_spec_for("keccak", &bits).is_none());
    }

    #[test]
    fn lane_specs_give_the_registry_digest() {
        // The mapping is right iff hashing with the spec on the CPU gives
        // the registry's digest.
        let msg = b"The quick brown fox jumps over the lazy dog";
        let cases: [(&str, Params); 6] = [
            ("sha3-224", Params::default()),
            (
                "shake256",
                Params {
                    length: Some(300),
                    ..Default::default()
                },
            ),
            ("keccak-512", Params::default()),
            (
                "turboshake256",
                Params {
                    domain: Some(0x23),
                    length: Some(70),
                    ..Default::default()
                },
            ),
            ("cshake256", Params::default()),
            (
                "keccak",
                Params {
                    rate: Some(8),
                    capacity: Some(1592),
                    rounds: Some(5),
                    suffix: Some(0x1F),
                    ..Default::default()
                },
            ),
        ];
        for (name, p) in cases {
            let (spec, n) = lane_spec_for(name, &p).unwrap();
            let mut h = keccakx::registry::Hasher::new(name, &p).unwrap();
            h.update(msg);
            let mut got = vec![0u8; n];
            spec.hash_one(msg, &mut got);
            assert_eq!(got, h.finalize(), "{name}");
        }
    }
}
