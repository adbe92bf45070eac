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
#[cfg(feature = "std")]
mod pool;
mod scalar;
mod select;
mod simd;
#[cfg(feature = "std")]
mod threads;

pub use contract::{BatchHint, BlockJob, EngineError, EngineRef, ResidentInput, Strided};
#[cfg(feature = "std")]
pub use fallback::Fallback;
#[cfg(feature = "std")]
pub use pool::forget_pool_after_fork;
#[cfg(feature = "std")]
pub use pool::{default_pool_threads, MAX_POOL_THREADS};
pub use scalar::Scalar;
#[cfg(feature = "std")]
pub use select::all_cores;
pub use simd::Simd;
#[cfg(feature = "std")]
pub(crate) use threads::for_each_piece;
#[cfg(feature = "std")]
pub use threads::{effective_threads, Threads};

pub use crate::policy::EngineChoice;
pub use contract::{Engine, LaneSpec};
pub use select::{
    all, available, by_name, current, engine_from_env, for_choice, hash_many, on_cores, set_engine,
    set_threads, threads,
};
