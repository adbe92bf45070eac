//! Engines: "absorb N independent inputs with the same parameters and return
//! N outputs". Modes cut their input into independent pieces (leaves,
//! chunks, messages) and hand them here; they never know which engine runs.
//!
//! The engine is chosen once at run time (CPU features) and can be forced
//! with [`set_engine`] or the `KECCAKX_ENGINE` environment variable; an
//! engine forced below AVX-512 also keeps the single-state permutation (SHA-3
//! and the other sequential functions) off AVX-512.

#[cfg(feature = "std")]
mod helpers;
mod scalar;
mod simd;
#[cfg(feature = "std")]
mod threads;

pub use scalar::Scalar;
pub use simd::Simd;
#[cfg(feature = "std")]
pub(crate) use threads::for_each_piece;
#[cfg(feature = "std")]
pub use threads::{effective_threads, Threads};

use crate::error::{Error, Result};
use crate::sponge::ByteSponge;

/// A width-1600 sponge with a byte-aligned rate: what every standardized
/// function and tree leaf uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LaneSpec {
    /// Rate in bytes, 1..200.
    pub rate_bytes: usize,
    /// Rounds of Keccak-p[1600], 1..=24 (24: SHA3/SHAKE; 12: TurboSHAKE/KT).
    pub rounds: usize,
    /// Suffix bits followed by the first padding 1 (0x06 SHA3, 0x1F SHAKE,
    /// 0x01 Keccak, 0x0B KT leaf, ...).
    pub delimited_suffix: u8,
}

impl LaneSpec {
    pub fn new(rate_bytes: usize, rounds: usize, delimited_suffix: u8) -> Result<Self> {
        if rate_bytes == 0 || rate_bytes >= 200 {
            return Err(Error::InvalidParameter("lane rate must be 1..199 bytes"));
        }
        if rounds == 0 || rounds > 24 {
            return Err(Error::InvalidRounds {
                width: 1600,
                rounds,
                max: 24,
            });
        }
        if delimited_suffix == 0 {
            return Err(Error::InvalidParameter("delimited suffix 0x00 is invalid"));
        }
        Ok(LaneSpec {
            rate_bytes,
            rounds,
            delimited_suffix,
        })
    }

    pub(crate) const fn fixed(rate_bytes: usize, rounds: usize, delimited_suffix: u8) -> Self {
        LaneSpec {
            rate_bytes,
            rounds,
            delimited_suffix,
        }
    }

    /// Hash one input on the scalar path (the reference for every engine).
    pub fn hash_one(&self, input: &[u8], out: &mut [u8]) {
        let mut s = ByteSponge::new(self.rate_bytes, self.rounds);
        s.absorb(input);
        s.pad_delimited(self.delimited_suffix);
        s.squeeze(out);
    }
}

/// An implementation of many independent sponges.
pub trait Engine: Send + Sync {
    /// Short name used by `--engine` and `KECCAKX_ENGINE`.
    fn name(&self) -> &'static str;
    /// Whether this CPU can run it.
    fn is_available(&self) -> bool {
        true
    }
    /// Hash each `inputs[i]` into `out[i*out_len..(i+1)*out_len]`.
    /// `out.len()` must equal `inputs.len() * out_len`.
    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]);
    /// The multi-state permutation behind it, for modes that keep states
    /// of their own between calls (tree LI's leaves); `X1` for one state
    /// at a time.
    fn parallelism(&self) -> crate::permutation::Parallelism {
        crate::permutation::Parallelism::X1
    }
    /// Threads it spreads work over: 1 for a per-core kernel.
    fn threads(&self) -> usize {
        1
    }
}

static SCALAR: Scalar = Scalar;
#[cfg(target_arch = "x86_64")]
static AVX512: Simd = Simd::AVX512;
#[cfg(target_arch = "x86_64")]
static AVX2: Simd = Simd::AVX2;
#[cfg(target_arch = "x86_64")]
static SSE2: Simd = Simd::SSE2;

/// Every single-core engine compiled into this build, best first. Each one
/// is a per-core kernel; [`hash_many`] spreads big calls over
/// [`threads`] cores with whichever is selected.
pub fn all() -> &'static [&'static dyn Engine] {
    #[cfg(target_arch = "x86_64")]
    static ALL: [&dyn Engine; 4] = [&AVX512, &AVX2, &SSE2, &SCALAR];
    #[cfg(not(target_arch = "x86_64"))]
    static ALL: [&dyn Engine; 1] = [&SCALAR];
    &ALL
}

/// The engines this CPU can run.
pub fn available() -> impl Iterator<Item = &'static dyn Engine> {
    all().iter().copied().filter(|e| e.is_available())
}

/// Look an engine up by name ("auto" gives the best available).
pub fn by_name(name: &str) -> Result<&'static dyn Engine> {
    if name == "auto" {
        return Ok(best());
    }
    match all().iter().find(|e| e.name() == name) {
        Some(e) if e.is_available() => Ok(*e),
        Some(_) => Err(Error::InvalidParameter("engine not supported by this CPU")),
        None => Err(Error::InvalidParameter(
            "unknown engine name (see `keccakx info`)",
        )),
    }
}

fn best() -> &'static dyn Engine {
    available().next().unwrap_or(&SCALAR)
}

#[cfg(feature = "std")]
mod selection {
    use super::*;
    use std::sync::RwLock;

    static FORCED: RwLock<Option<&'static dyn Engine>> = RwLock::new(None);
    static FROM_ENV: std::sync::OnceLock<&'static dyn Engine> = std::sync::OnceLock::new();

    /// Force the engine `name` ("auto" or a name from [`all`]). Forcing one
    /// below AVX-512 (`avx2`, `sse2`, `scalar`) also keeps the single-state
    /// permutation of the sequential functions off AVX-512.
    pub fn set_engine(name: &str) -> Result<()> {
        let e = by_name(name)?;
        *FORCED.write().unwrap_or_else(|p| p.into_inner()) = Some(e);
        crate::permutation::follow_engine(e.name());
        Ok(())
    }

    pub fn current() -> &'static dyn Engine {
        if let Some(e) = *FORCED.read().unwrap_or_else(|p| p.into_inner()) {
            return e;
        }
        *FROM_ENV.get_or_init(|| match std::env::var("KECCAKX_ENGINE") {
            // An unusable name falls back to auto rather than failing every hash;
            // front ends validate the variable and report it (see `keccakx info`).
            Ok(name) => by_name(name.trim()).unwrap_or_else(|_| best()),
            Err(_) => best(),
        })
    }
}

#[cfg(feature = "std")]
pub use selection::{current, set_engine};

/// Worker threads the multi-core paths may use; 0 means all cores.
static THREADS: core::sync::atomic::AtomicUsize = core::sync::atomic::AtomicUsize::new(0);

/// Limit the multi-core paths to `n` threads (0: all cores, the default).
pub fn set_threads(n: usize) {
    THREADS.store(n, core::sync::atomic::Ordering::Relaxed);
}

/// The thread limit set by [`set_threads`] (0: all cores).
pub fn threads() -> usize {
    THREADS.load(core::sync::atomic::Ordering::Relaxed)
}

/// Without std there is no global state: the best available engine.
#[cfg(not(feature = "std"))]
pub fn current() -> &'static dyn Engine {
    best()
}

/// Hash many inputs with the current engine, on up to [`threads`] cores
/// (with std; one core without).
pub fn hash_many(spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
    assert_eq!(
        out.len(),
        inputs.len() * out_len,
        "hash_many: output size mismatch"
    );
    #[cfg(feature = "std")]
    {
        Threads::new(current()).hash_many(spec, inputs, out_len, out)
    }
    #[cfg(not(feature = "std"))]
    {
        current().hash_many(spec, inputs, out_len, out)
    }
}

/// [`hash_many`], running `side()` once on the calling thread while other
/// threads (if any) already hash the inputs: the modes put their serial
/// work there (KT's first chunk, absorbing the previous call's chaining
/// values), so it no longer adds to the parallel part's time.
pub(crate) fn hash_many_beside(
    spec: &LaneSpec,
    inputs: &[&[u8]],
    out_len: usize,
    out: &mut [u8],
    side: &mut dyn FnMut(),
) {
    #[cfg(feature = "std")]
    {
        Threads::new(current()).hash_many_beside(spec, inputs, out_len, out, side)
    }
    #[cfg(not(feature = "std"))]
    {
        side();
        hash_many(spec, inputs, out_len, out)
    }
}
