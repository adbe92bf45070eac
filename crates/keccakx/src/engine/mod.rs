//! Engines: "absorb N independent inputs with the same parameters and return
//! N outputs". Modes cut their input into independent pieces (leaves,
//! chunks, messages) and hand them here; they never know which engine runs.
//!
//! The engine is chosen once at run time (CPU features) and can be forced
//! with [`set_engine`] or the `KECCAKX_ENGINE` environment variable (both
//! kept in the one engine policy, `crate::policy`); an engine forced below
//! AVX-512 also keeps the single-state permutation (SHA-3 and the other
//! sequential functions) off AVX-512.

pub(crate) mod contract;
#[cfg(feature = "std")]
mod fallback;
#[cfg(feature = "std")]
mod helpers;
mod scalar;
mod simd;
#[cfg(feature = "std")]
mod threads;

pub use contract::{BatchHint, BlockJob, EngineError, EngineRef, ResidentInput, Strided};
#[cfg(feature = "std")]
pub use fallback::Fallback;
pub use scalar::Scalar;
pub use simd::Simd;
#[cfg(feature = "std")]
pub(crate) use threads::for_each_piece;
#[cfg(feature = "std")]
pub use threads::{effective_threads, Threads};

use crate::error::{Error, Result};
pub use crate::policy::EngineChoice;
use crate::policy;
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

/// An implementation of many independent sponges: the one contract every
/// engine (CPU lanes, threads, a GPU) fulfils and every mode runs on.
///
/// A CPU engine implements [`hash_many`](Engine::hash_many) and, if it has
/// SIMD lanes, [`parallelism`](Engine::parallelism); everything else has
/// defaults. An accelerator that can fail implements
/// [`try_hash_many_beside`](Engine::try_hash_many_beside) (and
/// `hash_many` through [`Fallback`]), gives a larger
/// [`batch_hint`](Engine::batch_hint), and keeps `parallelism` at `X1`
/// (the modes then take their one-state paths for the serial parts).
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
    /// [`hash_many`](Engine::hash_many), running `side()` once on the
    /// calling thread while the engine already works on the inputs (the
    /// modes' serial work: KT's first chunk, the previous call's chaining
    /// values). Default: `side()` first.
    fn hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) {
        side();
        self.hash_many(spec, inputs, out_len, out)
    }
    /// The fallible form, for engines that can fail (a GPU): `Err` leaves
    /// `out` unspecified. Default: [`hash_many`](Engine::hash_many), never
    /// failing.
    fn try_hash_many(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
    ) -> core::result::Result<(), EngineError> {
        self.try_hash_many_beside(spec, inputs, out_len, out, &mut || {})
    }
    /// [`try_hash_many`](Engine::try_hash_many) with `side()` as in
    /// [`hash_many_beside`](Engine::hash_many_beside); `side()` runs exactly
    /// once, also when the call fails.
    fn try_hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) -> core::result::Result<(), EngineError> {
        self.hash_many_beside(spec, inputs, out_len, out, side);
        Ok(())
    }
    /// How much work one call should carry (modes gather this much before
    /// a call when their input arrives in small pieces).
    fn batch_hint(&self) -> BatchHint {
        BatchHint::CPU
    }
    /// The multi-state permutation behind it, for modes that keep states
    /// of their own between calls (tree LI's leaves); `X1` for one state
    /// at a time.
    fn parallelism(&self) -> crate::permutation::Parallelism {
        crate::permutation::Parallelism::X1
    }
    /// Whole blocks into states the mode keeps (tree LI's leaves, KT's
    /// first chunk beside its first leaves), side by side: see [`BlockJob`].
    /// `states` holds 200 little-endian bytes per state. Returns false, with
    /// nothing done, when the engine has no lanes for it (the mode then
    /// takes its one-state path). Panics if the job does not fit the states.
    fn absorb_blocks(&self, states: &mut [u8], job: &BlockJob<'_>) -> bool {
        job.run(self.parallelism(), states)
    }
    /// Keccak-p[1600, rounds] on every state, side by side where the
    /// engine has lanes.
    fn permute_states(&self, states: &mut [crate::permutation::State], rounds: usize) {
        let p = self.parallelism();
        let p = if p.is_available() {
            p
        } else {
            crate::permutation::Parallelism::X1
        };
        crate::permutation::keccak_p1600_with(p, states, rounds)
    }
    /// Threads it spreads work over: 1 for a per-core kernel.
    fn threads(&self) -> usize {
        1
    }
}

/// A borrowed engine is an engine (every method forwarded).
/// An engine behind a reference or a smart pointer is the same engine.
macro_rules! forward_engine {
    ($($ptr:ty),*) => {$(
impl<E: Engine + ?Sized> Engine for $ptr {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn is_available(&self) -> bool {
        (**self).is_available()
    }
    fn hash_many(&self, spec: &LaneSpec, inputs: &[&[u8]], out_len: usize, out: &mut [u8]) {
        (**self).hash_many(spec, inputs, out_len, out)
    }
    fn hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) {
        (**self).hash_many_beside(spec, inputs, out_len, out, side)
    }
    fn try_hash_many(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
    ) -> core::result::Result<(), EngineError> {
        (**self).try_hash_many(spec, inputs, out_len, out)
    }
    fn try_hash_many_beside(
        &self,
        spec: &LaneSpec,
        inputs: &[&[u8]],
        out_len: usize,
        out: &mut [u8],
        side: &mut dyn FnMut(),
    ) -> core::result::Result<(), EngineError> {
        (**self).try_hash_many_beside(spec, inputs, out_len, out, side)
    }
    fn batch_hint(&self) -> BatchHint {
        (**self).batch_hint()
    }
    fn parallelism(&self) -> crate::permutation::Parallelism {
        (**self).parallelism()
    }
    fn absorb_blocks(&self, states: &mut [u8], job: &BlockJob<'_>) -> bool {
        (**self).absorb_blocks(states, job)
    }
    fn permute_states(&self, states: &mut [crate::permutation::State], rounds: usize) {
        (**self).permute_states(states, rounds)
    }
    fn threads(&self) -> usize {
        (**self).threads()
    }
}
    )*};
}

forward_engine!(&E);
#[cfg(feature = "std")]
forward_engine!(alloc::boxed::Box<E>, alloc::sync::Arc<E>);

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

