//! Engine selection: the engines this build has, the one the engine
//! policy (`crate::policy`) names, and the calls that hash with it.

use super::contract::{Engine, EngineRef, LaneSpec};
use super::scalar::Scalar;
#[cfg(target_arch = "x86_64")]
use super::simd::Simd;
#[cfg(feature = "std")]
use super::threads::Threads;
use crate::error::{Error, Result};
use crate::policy::{self, EngineChoice};

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

/// The engine a choice names; `Err` when this CPU does not run it.
pub fn for_choice(choice: EngineChoice) -> Result<&'static dyn Engine> {
    let e: &'static dyn Engine = match choice {
        EngineChoice::Auto => return Ok(best()),
        EngineChoice::Scalar => &SCALAR,
        #[cfg(target_arch = "x86_64")]
        EngineChoice::Avx512 => &AVX512,
        #[cfg(target_arch = "x86_64")]
        EngineChoice::Avx2 => &AVX2,
        #[cfg(target_arch = "x86_64")]
        EngineChoice::Sse2 => &SSE2,
        #[allow(unreachable_patterns)]
        _ => return Err(Error::InvalidParameter("engine not supported by this CPU")),
    };
    if e.is_available() {
        Ok(e)
    } else {
        Err(Error::InvalidParameter("engine not supported by this CPU"))
    }
}

/// Look an engine up by name ("auto" gives the best available).
pub fn by_name(name: &str) -> Result<&'static dyn Engine> {
    for_choice(EngineChoice::parse(name)?)
}

fn best() -> &'static dyn Engine {
    available().next().unwrap_or(&SCALAR)
}

/// Force the engine `name` ("auto" or a name from [`all`]), for this
/// process (the engine policy, `crate::policy`). Forcing one below AVX-512
/// (`avx2`, `sse2`, `scalar`) also keeps the single-state permutation of
/// the sequential functions off AVX-512. Returns the choice.
pub fn set_engine(name: &str) -> Result<EngineChoice> {
    let choice = EngineChoice::parse(name)?;
    for_choice(choice)?;
    policy::set_engine(choice);
    Ok(choice)
}

/// `KECCAKX_ENGINE` as the front ends report it: `Ok(None)` when unset,
/// `Err` (a message naming the value) when it names no engine or one this
/// CPU does not run; the hashing itself then uses auto.
pub fn engine_from_env() -> core::result::Result<Option<EngineChoice>, alloc::string::String> {
    match policy::engine_from_env()? {
        Some(c) => match for_choice(c) {
            Ok(_) => Ok(Some(c)),
            Err(e) => Err(alloc::format!("KECCAKX_ENGINE={}: {e}", c.name())),
        },
        None => Ok(None),
    }
}

/// The engine of the policy: forced, from `KECCAKX_ENGINE`, or the best
/// available (also when the one named is not available here).
pub fn current() -> &'static dyn Engine {
    for_choice(policy::get().engine()).unwrap_or_else(|_| best())
}

/// Limit the multi-core paths to `n` threads (0: all cores, the default).
pub fn set_threads(n: usize) {
    policy::set_threads(n)
}

/// The thread limit set by [`set_threads`] (0: all cores).
pub fn threads() -> usize {
    policy::get().threads()
}

/// Run `f` with "the current engine on all cores": [`current`] spread over
/// up to [`threads`] cores (with std; the engine as is without). The one
/// place that builds it: [`hash_many`], `EngineRef::Current`, the fallback
/// wrapper's CPU side, the GPU engine's CPU route and the one-shot modes
/// all come here; a mode is handed this engine and never builds one.
pub fn on_cores<R>(f: impl FnOnce(&dyn Engine) -> R) -> R {
    #[cfg(feature = "std")]
    {
        f(&all_cores())
    }
    #[cfg(not(feature = "std"))]
    {
        f(current())
    }
}

/// [`on_cores`]'s engine as a value, for a front end that keeps it (one
/// that chooses between it and a GPU engine once): [`current`] on up to
/// [`threads`] cores.
#[cfg(feature = "std")]
pub fn all_cores() -> Threads {
    Threads::new(current())
}

/// Hash many inputs with the current engine, on up to [`threads`] cores
/// (with std; one core without).
pub fn hash_many(spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
    assert_eq!(
        out.len(),
        inputs.len() * out_len,
        "hash_many: output size mismatch"
    );
    on_cores(|e| e.hash_many(spec, inputs, out_len, out))
}

impl EngineRef {
    /// Run `f` with the engine ([`on_cores`] for `Current`).
    pub fn with<R>(&self, f: impl FnOnce(&dyn Engine) -> R) -> R {
        match self {
            EngineRef::Shared(e) => f(&**e),
            EngineRef::Current => on_cores(f),
        }
    }
}
