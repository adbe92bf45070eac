//! The CUDA sources (kernels/*.cu), how they are compiled, and the on-disk
//! cache of compiled images.
//!
//! Sources are embedded in the binary; at run time NVRTC compiles a module
//! for the device's architecture (cubin for `sm_XY`, or PTX for the newest
//! architecture NVRTC knows when the device is newer than NVRTC). Images are
//! cached in `$KECCAKX_CACHE_DIR` or `$XDG_CACHE_HOME/keccakx/kernels` or
//! `~/.cache/keccakx/kernels`, named by module, target, a hash of the
//! sources and options, and the NVRTC version; `KECCAKX_GPU_CACHE=0`
//! disables the cache. A cached image is used even when NVRTC is absent.

use std::path::PathBuf;

use cudarc::driver::DeviceRepr;

use crate::error::GpuError;
use crate::nvrtc::{Compiled, Nvrtc, Target};

/// Threads per block of the batch kernels (also passed to NVRTC).
pub const BATCH_THREADS: u32 = 128;
/// Threads per block of the permutation-throughput kernels.
pub const PERM_THREADS: u32 = 128;
/// States per block of the paper-style kernels (25 threads each).
pub const PAPER_STATES: u32 = 4;
/// Threads per block of the warp-per-message kernels (warp.cu): 4 warps,
/// 4 messages a block (small grids spread over the SMs).
pub const WARP_THREADS: u32 = 128;

/// Threads per block of the Merkle kernels (merkle.cu).
pub const MERKLE_THREADS: u32 = 128;

/// Headers every module may include, by the name used in `#include`.
pub const HEADERS: [(&str, &str); 2] = [
    (
        "keccak_f1600.cuh",
        include_str!("../kernels/keccak_f1600.cuh"),
    ),
    ("job.cuh", include_str!("../kernels/job.cuh")),
];

/// A compilation unit: a file of kernels/ with its own defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Module {
    /// Batch hashing, one thread per message, 24 rounds (batch.cu).
    Batch24,
    /// Batch hashing, 12 rounds (batch.cu).
    Batch12,
    /// Batch hashing, any rounds (batch.cu).
    BatchN,
    /// Permutation throughput, one thread per state (perm.cu; feature
    /// `research`).
    #[cfg(feature = "research")]
    Perm,
    /// The 2011 paper's design: 25 threads per state (paper.cu; feature
    /// `research`).
    #[cfg(feature = "research")]
    Paper,
    /// Batch hashing, one warp per message (warp.cu): 24, 12 and any rounds.
    Warp,
    /// The inner nodes of an OpenZeppelin Merkle tree, device-resident
    /// (merkle.cu).
    Merkle,
}

impl Module {
    /// Every module of this build, in build order (the comparison modules
    /// only with the `research` feature).
    pub const ALL: &'static [Module] = &[
        Module::Batch24,
        Module::Batch12,
        Module::BatchN,
        #[cfg(feature = "research")]
        Module::Perm,
        #[cfg(feature = "research")]
        Module::Paper,
        Module::Warp,
        Module::Merkle,
    ];

    /// Short name (cache files, messages).
    pub fn name(self) -> &'static str {
        match self {
            Module::Batch24 => "batch24",
            Module::Batch12 => "batch12",
            Module::BatchN => "batchn",
            #[cfg(feature = "research")]
            Module::Perm => "perm",
            #[cfg(feature = "research")]
            Module::Paper => "paper",
            Module::Warp => "warp",
            Module::Merkle => "merkle",
        }
    }

    /// File name under kernels/.
    pub fn file(self) -> &'static str {
        match self {
            Module::Batch24 | Module::Batch12 | Module::BatchN => "batch.cu",
            #[cfg(feature = "research")]
            Module::Perm => "perm.cu",
            #[cfg(feature = "research")]
            Module::Paper => "paper.cu",
            Module::Warp => "warp.cu",
            Module::Merkle => "merkle.cu",
        }
    }

    /// Source text.
    pub fn source(self) -> &'static str {
        match self {
            Module::Batch24 | Module::Batch12 | Module::BatchN => {
                include_str!("../kernels/batch.cu")
            }
            #[cfg(feature = "research")]
            Module::Perm => include_str!("../kernels/perm.cu"),
            #[cfg(feature = "research")]
            Module::Paper => include_str!("../kernels/paper.cu"),
            Module::Warp => include_str!("../kernels/warp.cu"),
            Module::Merkle => include_str!("../kernels/merkle.cu"),
        }
    }

    /// `extern "C"` kernels the module must define.
    pub fn entry_points(self) -> &'static [&'static str] {
        match self {
            Module::Batch24 => &[
                "kx_batch_r24",
                "kx_batch_async_r24",
                "kx_batch_direct_r24",
                "kx_batch_direct_r24_136",
                "kx_batch_direct_r24_168",
                #[cfg(feature = "research")]
                "kx_batch_u64_r24",
                #[cfg(feature = "research")]
                "kx_batch_lb6_r24",
                #[cfg(feature = "research")]
                "kx_batch_direct_lb6_r24",
                #[cfg(feature = "research")]
                "kx_batch_imad_r24",
                #[cfg(feature = "research")]
                "kx_batch_direct_imad_r24",
            ],
            Module::Batch12 => &[
                "kx_batch_r12",
                "kx_batch_async_r12",
                "kx_batch_direct_r12",
                "kx_batch_direct_r12_168",
                "kx_batch_direct_r12_136",
            ],
            Module::BatchN => &["kx_batch_rn"],
            #[cfg(feature = "research")]
            Module::Perm => &[
                "kx_perm_r24",
                "kx_perm_full_r24",
                "kx_perm_by6_r24",
                "kx_perm_r12",
                "kx_perm_u64_r24",
                "kx_perm_imad_r24",
                "kx_perm_imad_rho_r24",
                "kx_perm_imad_half_r24",
            ],
            #[cfg(feature = "research")]
            Module::Paper => &["kx_paper_batch", "kx_paper_perm"],
            Module::Warp => &["kx_warp_r24", "kx_warp_r12", "kx_warp_rn"],
            Module::Merkle => &["kx_merkle_nodes", "kx_merkle_leaves"],
        }
    }

    /// Module-specific defines.
    pub fn defines(self) -> &'static [&'static str] {
        match self {
            Module::Batch24 => &["-DKX_BATCH_SET=24"],
            Module::Batch12 => &["-DKX_BATCH_SET=12"],
            Module::BatchN => &["-DKX_BATCH_SET=0"],
            _ => &[],
        }
    }
}

/// NVRTC options of a module (the target comes separately).
pub fn compile_options(module: Module) -> Vec<String> {
    let mut v: Vec<String> = module.defines().iter().map(|d| d.to_string()).collect();
    v.extend([
        "-std=c++17".into(),
        format!("-DKX_BATCH_THREADS={BATCH_THREADS}"),
        format!("-DKX_PERM_THREADS={PERM_THREADS}"),
        format!("-DKX_PAPER_STATES={PAPER_STATES}"),
        // Line tables for profilers (ncu); no effect on the code.
        "-lineinfo".into(),
    ]);
    // The comparison kernels (register caps, IMAD rotations, 64-bit lanes)
    // are compiled only into the `research` build's modules.
    #[cfg(feature = "research")]
    v.push("-DKX_RESEARCH".into());
    if module == Module::Warp {
        v.push(format!("-DKX_WARP_THREADS={WARP_THREADS}"));
    }
    if module == Module::Merkle {
        v.push(format!("-DKX_MERKLE_THREADS={MERKLE_THREADS}"));
    }
    // The test-only mutation switch (kernels/keccak_f1600.cuh, KX_MUTATE):
    // compiled in only with the `mutation` feature, on only under
    // KECCAKX_GPU_MUTATE=1 (the define is part of the cache key).
    #[cfg(feature = "mutation")]
    if std::env::var("KECCAKX_GPU_MUTATE").is_ok_and(|x| x == "1") {
        v.push("-DKX_MUTATE".into());
    }
    v
}

/// Compile one module with a given NVRTC (no cache).
pub fn compile(nvrtc: &Nvrtc, module: Module, target: Target) -> Result<Compiled, GpuError> {
    nvrtc.compile(
        module.source(),
        module.file(),
        &HEADERS,
        &compile_options(module),
        target,
    )
}

/// Hex digest (16 bytes) of everything that determines a module's image
/// except the compiler: sources, headers, options, target.
pub fn source_key(module: Module, target: Target) -> String {
    let mut h = keccakx::fips202::Sha3_256::new();
    let mut field = |b: &[u8]| {
        h.update(&(b.len() as u64).to_le_bytes());
        h.update(b);
    };
    field(module.file().as_bytes());
    field(module.source().as_bytes());
    for (n, s) in HEADERS {
        field(n.as_bytes());
        field(s.as_bytes());
    }
    for o in compile_options(module) {
        field(o.as_bytes());
    }
    field(target.arch_flag().as_bytes());
    h.finalize()[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The cache directory, or None when caching is disabled or no home is known.
pub fn cache_dir() -> Option<PathBuf> {
    if std::env::var("KECCAKX_GPU_CACHE").is_ok_and(|v| v == "0") {
        return None;
    }
    if let Some(d) = std::env::var_os("KECCAKX_CACHE_DIR") {
        return Some(PathBuf::from(d));
    }
    let base = match std::env::var_os("XDG_CACHE_HOME") {
        Some(x) if !x.is_empty() => PathBuf::from(x),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".cache"),
    };
    Some(base.join("keccakx").join("kernels"))
}

fn stem(module: Module, target: Target) -> String {
    format!(
        "{}-{}-{}",
        module.name(),
        target.arch_flag(),
        source_key(module, target)
    )
}

/// Where a module's image compiled by NVRTC `version` is cached.
pub fn cache_path(module: Module, target: Target, version: (u32, u32)) -> Option<PathBuf> {
    cache_dir().map(|d| {
        d.join(format!(
            "{}-nvrtc{}.{}.{}",
            stem(module, target),
            version.0,
            version.1,
            target.extension()
        ))
    })
}

/// A module image: from the cache, else compiled (and cached).
/// Returns the image and where it came from (for `info`).
pub fn image(module: Module, target: Target) -> Result<(Vec<u8>, String), GpuError> {
    let nvrtc = Nvrtc::get();
    if let Ok(nv) = nvrtc {
        if let Some(p) = cache_path(module, target, nv.version()) {
            if let Ok(img) = std::fs::read(&p) {
                if !img.is_empty() {
                    return Ok((img, format!("cache {}", p.display())));
                }
            }
        }
        let c = compile(nv, module, target)?;
        if let Some(p) = cache_path(module, target, nv.version()) {
            store(&p, &c.image);
        }
        return Ok((
            c.image,
            format!(
                "NVRTC {}.{} ({})",
                nv.version().0,
                nv.version().1,
                nv.path()
            ),
        ));
    }
    // No NVRTC: any cached image of these sources for this target will do.
    if let Some(dir) = cache_dir() {
        let prefix = format!("{}-nvrtc", stem(module, target));
        if let Ok(rd) = std::fs::read_dir(&dir) {
            for e in rd.flatten() {
                let n = e.file_name().to_string_lossy().into_owned();
                if n.starts_with(&prefix) && n.ends_with(target.extension()) {
                    if let Ok(img) = std::fs::read(e.path()) {
                        if !img.is_empty() {
                            return Ok((img, format!("cache {}", e.path().display())));
                        }
                    }
                }
            }
        }
    }
    Err(nvrtc
        .err()
        .unwrap_or(GpuError::Compile("NVRTC unavailable".into())))
}

/// Forget a cached image (used when the driver rejects it).
pub fn evict(module: Module, target: Target) {
    if let Ok(nv) = Nvrtc::get() {
        if let Some(p) = cache_path(module, target, nv.version()) {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Write atomically (temporary file, then rename); failures only lose the cache.
fn store(path: &std::path::Path, data: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        std::process::id()
    ));
    if std::fs::write(&tmp, data).is_ok() && std::fs::rename(&tmp, path).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// The batch kernels' parameter block: the twin of `struct KxBatchJob` in
/// kernels/job.cuh (same field order, same types, C layout).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BatchJob {
    pub data: u64,
    pub data_len: u64,
    pub offsets: u64,
    pub lengths: u64,
    pub stride: u64,
    pub msg_len: u64,
    pub out: u64,
    pub n: u64,
    pub rate: u32,
    pub suffix: u32,
    pub out_len: u32,
    pub rounds: u32,
}

// SAFETY: plain-old-data of u64/u32 fields with C layout, identical to the
// device-side struct; passed by value as a kernel parameter.
unsafe impl DeviceRepr for BatchJob {}

/// Dynamic shared memory of a staged batch kernel block for a rate in bytes:
/// per warp a 32-entry message table (3 × u64) and 33-word-strided slots,
/// rounded up to an even number of words (kx_warp_smem_words in batch.cu).
pub fn batch_smem_bytes(rate: usize) -> u32 {
    let warps = BATCH_THREADS / 32;
    let words = rate.div_ceil(4) as u32;
    let per_warp = (32 * 3 * 2 + words * 33 + 1) & !1;
    warps * per_warp * 4
}

/// Kernels compiled only for the GPU runs to compare (a register cap that
/// spills a few bytes): exempt from the no-local-memory check of the SASS
/// test, never chosen by `BatchKernel::Auto`.
pub const EXPERIMENTAL: &[&str] = &["kx_batch_lb6_r24", "kx_batch_direct_lb6_r24"];

/// Dynamic shared memory of a double-buffered batch kernel block: per warp
/// the message table and two buffers of 32 slots of rate/4 + 1 raw words,
/// 33-word strided, an even number of words (kx_warp_async_words in batch.cu).
pub fn batch_async_smem_bytes(rate: usize) -> u32 {
    let warps = BATCH_THREADS / 32;
    let raw = rate.div_ceil(4) as u32 + 1;
    let per_warp = (32 * 3 * 2 + 2 * raw * 33 + 1) & !1;
    warps * per_warp * 4
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_buffered_shared_memory_fits_an_sm() {
        for rate in 1..200 {
            let bytes = batch_async_smem_bytes(rate);
            assert_eq!((bytes / (BATCH_THREADS / 32)) % 8, 0, "rate {rate}");
            // Above 48 KiB the kernel needs the opt-in attribute; every
            // architecture from sm_80 allows at least 99 KiB per block.
            assert!(bytes <= 99 * 1024, "rate {rate}: {bytes}");
        }
        assert!(batch_async_smem_bytes(199) > 48 * 1024);
    }

    #[test]
    fn job_layout_matches_the_cuda_struct() {
        // 8 u64 then 4 u32, no padding: 80 bytes, as in kernels/job.cuh.
        assert_eq!(std::mem::size_of::<BatchJob>(), 80);
        assert_eq!(std::mem::align_of::<BatchJob>(), 8);
        let src = include_str!("../kernels/job.cuh");
        let body = &src[src.find("struct KxBatchJob {").unwrap()..];
        let body = &body[..body.find("};").unwrap()];
        let fields: Vec<(&str, &str)> = body
            .lines()
            .skip(1)
            .filter_map(|l| {
                let l = l.trim();
                let decl = l.split(';').next()?;
                let mut it = decl.split_whitespace();
                Some((it.next()?, it.next()?))
            })
            .collect();
        let expect = [
            ("kx_u64", "data"),
            ("kx_u64", "data_len"),
            ("kx_u64", "offsets"),
            ("kx_u64", "lengths"),
            ("kx_u64", "stride"),
            ("kx_u64", "msg_len"),
            ("kx_u64", "out"),
            ("kx_u64", "n"),
            ("kx_u32", "rate"),
            ("kx_u32", "suffix"),
            ("kx_u32", "out_len"),
            ("kx_u32", "rounds"),
        ];
        assert_eq!(fields, expect);
    }

    #[test]
    fn shared_memory_keeps_every_warp_table_aligned() {
        for rate in 1..200 {
            let bytes = batch_smem_bytes(rate);
            let per_warp = bytes / (BATCH_THREADS / 32);
            assert_eq!(per_warp % 8, 0, "rate {rate}");
            assert!(per_warp >= 768 + rate.div_ceil(4) as u32 * 33 * 4);
            assert!(
                bytes <= 48 * 1024,
                "rate {rate}: {bytes} bytes exceed the default limit"
            );
        }
    }

    #[test]
    fn cache_key_depends_on_target_and_module() {
        let a = source_key(Module::Batch24, Target::Cubin(9, 0));
        assert_eq!(a.len(), 32);
        assert_ne!(a, source_key(Module::Batch24, Target::Cubin(8, 0)));
        assert_ne!(a, source_key(Module::Batch12, Target::Cubin(9, 0)));
        assert_ne!(a, source_key(Module::Warp, Target::Cubin(9, 0)));
        assert_eq!(a, source_key(Module::Batch24, Target::Cubin(9, 0)));
    }

    #[test]
    fn every_entry_point_is_defined_in_its_source() {
        for m in Module::ALL {
            for e in m.entry_points() {
                assert!(
                    m.source().contains(&format!("({e},"))
                        || m.source().contains(&format!(" {e}(")),
                    "{e} not found in {}",
                    m.file()
                );
            }
        }
    }
}
