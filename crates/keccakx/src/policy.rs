//! The engine policy: the one record of what the user chose for the CPU
//! engines (which engine: `--engine`, `KECCAKX_ENGINE`,
//! `engine::set_engine`, or auto; how many threads), and the one parser of
//! engine names and of `KECCAKX_ENGINE`.
//!
//! It sits below the engines and the permutation dispatcher and imports
//! neither: `engine` maps the choice to an engine; the dispatcher reads
//! whether the sequential functions may use AVX-512 and keeps its own
//! choice memoised in the same word, so a new policy clears it.

use core::sync::atomic::Ordering;

// The policy word is 64 bits where the target has 64-bit atomics, else 32
// (Cortex-M4: thread limit up to 65535); Cortex-M0 has no compare-and-swap
// at all, only atomic loads and stores (see `update`).
#[cfg(target_has_atomic = "64")]
type Word = u64;
#[cfg(target_has_atomic = "64")]
type AtomicWord = core::sync::atomic::AtomicU64;
#[cfg(not(target_has_atomic = "64"))]
type Word = u32;
#[cfg(not(target_has_atomic = "64"))]
type AtomicWord = core::sync::atomic::AtomicU32;

use crate::error::{Error, Result};

/// An engine as the user names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineChoice {
    /// The best engine this CPU runs.
    Auto,
    Avx512,
    Avx2,
    Sse2,
    Scalar,
}

impl EngineChoice {
    /// Every choice, `auto` first.
    pub const ALL: [EngineChoice; 5] = [
        EngineChoice::Auto,
        EngineChoice::Avx512,
        EngineChoice::Avx2,
        EngineChoice::Sse2,
        EngineChoice::Scalar,
    ];

    /// The name `--engine`, `KECCAKX_ENGINE` and `keccakx info` use.
    pub const fn name(self) -> &'static str {
        match self {
            EngineChoice::Auto => "auto",
            EngineChoice::Avx512 => "avx512",
            EngineChoice::Avx2 => "avx2",
            EngineChoice::Sse2 => "sse2",
            EngineChoice::Scalar => "scalar",
        }
    }

    /// The parser of engine names (every front end's, and the
    /// environment's).
    pub fn parse(name: &str) -> Result<EngineChoice> {
        EngineChoice::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name))
            .ok_or(Error::InvalidParameter(
                "unknown engine name (see `keccakx info`)",
            ))
    }

    /// Whether the sequential functions' single-state permutation may use
    /// AVX-512 under this choice: an engine forced below AVX-512 means no
    /// AVX-512 instruction anywhere (what a user avoiding it, or measuring
    /// a machine without it, expects).
    pub fn allows_avx512(self) -> bool {
        matches!(self, EngineChoice::Auto | EngineChoice::Avx512)
    }

    fn code(self) -> Word {
        match self {
            EngineChoice::Auto => 1,
            EngineChoice::Avx512 => 2,
            EngineChoice::Avx2 => 3,
            EngineChoice::Sse2 => 4,
            EngineChoice::Scalar => 5,
        }
    }

    fn from_code(code: Word) -> EngineChoice {
        match code {
            2 => EngineChoice::Avx512,
            3 => EngineChoice::Avx2,
            4 => EngineChoice::Sse2,
            5 => EngineChoice::Scalar,
            _ => EngineChoice::Auto,
        }
    }
}

/// `KECCAKX_ENGINE`, parsed: `Ok(None)` when it is not set (always, without
/// std); `Err` is a message naming the value. The one reader of the
/// variable; the engines fall back to auto on an error, front ends report
/// it (`engine::engine_from_env` adds whether this CPU runs the engine).
pub fn engine_from_env() -> core::result::Result<Option<EngineChoice>, alloc::string::String> {
    #[cfg(feature = "std")]
    {
        match std::env::var("KECCAKX_ENGINE") {
            Ok(v) => EngineChoice::parse(v.trim())
                .map(Some)
                .map_err(|e| alloc::format!("KECCAKX_ENGINE={v}: {e}")),
            // Set, but no name can be read from it: said, as for any
            // name that is not an engine's.
            Err(std::env::VarError::NotUnicode(v)) => Err(alloc::format!(
                "KECCAKX_ENGINE={:?}: not UTF-8, so not an engine name (see `keccakx info`)",
                v
            )),
            Err(std::env::VarError::NotPresent) => Ok(None),
        }
    }
    #[cfg(not(feature = "std"))]
    {
        Ok(None)
    }
}

/// The policy, one word: bits 0..8 the engine choice (0: not read from the
/// environment yet), bits 8..16 the dispatcher's memo (0: none), bits
/// 16.. the thread limit (0: all cores).
static POLICY: AtomicWord = AtomicWord::new(0);

const ENGINE_BITS: Word = 0xFF;
const MEMO_SHIFT: u32 = 8;
const MEMO_BITS: Word = 0xFF << MEMO_SHIFT;
const THREADS_SHIFT: u32 = 16;

/// A snapshot of the policy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy(Word);

impl Policy {
    /// The engine chosen (auto unless forced).
    pub fn engine(self) -> EngineChoice {
        EngineChoice::from_code(self.0 & ENGINE_BITS)
    }

    /// The thread limit of the multi-core paths (0: all cores).
    pub fn threads(self) -> usize {
        (self.0 >> THREADS_SHIFT) as usize
    }

    /// The dispatcher's memo for this policy (0: none yet).
    pub(crate) fn memo(self) -> u8 {
        ((self.0 & MEMO_BITS) >> MEMO_SHIFT) as u8
    }
}

/// The policy now (read from `KECCAKX_ENGINE` on first use).
#[inline]
pub fn get() -> Policy {
    let w = POLICY.load(Ordering::Relaxed);
    if w & ENGINE_BITS != 0 {
        return Policy(w);
    }
    init_from_env()
}

#[cold]
fn init_from_env() -> Policy {
    // An unusable value means auto rather than failing every hash.
    let code = engine_from_env()
        .ok()
        .flatten()
        .unwrap_or(EngineChoice::Auto)
        .code();
    update(|w| if w & ENGINE_BITS == 0 { w | code } else { w })
}

/// Apply `f` to the word atomically; returns the new policy.
#[cfg(target_has_atomic = "32")]
fn update(f: impl Fn(Word) -> Word) -> Policy {
    let mut w = POLICY.load(Ordering::Relaxed);
    loop {
        let new = f(w);
        match POLICY.compare_exchange_weak(w, new, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Policy(new),
            Err(now) => w = now,
        }
    }
}

/// Without compare-and-swap (Cortex-M0: one core, and this crate starts no
/// threads without std) a load and a store are the whole update; a policy
/// changed from an interrupt handler at the same moment could be lost.
#[cfg(not(target_has_atomic = "32"))]
fn update(f: impl Fn(Word) -> Word) -> Policy {
    let new = f(POLICY.load(Ordering::Relaxed));
    POLICY.store(new, Ordering::Relaxed);
    Policy(new)
}

/// Choose the engine (the dispatcher's memo is cleared: every
/// implementation computes the same function, so a hash already running
/// may switch between them without changing its result).
pub fn set_engine(choice: EngineChoice) {
    update(|w| (w & !(ENGINE_BITS | MEMO_BITS)) | choice.code());
}

/// Limit the multi-core paths to `n` threads (0: all cores).
pub fn set_threads(n: usize) {
    get();
    let n = n.min((Word::MAX >> THREADS_SHIFT) as usize) as Word;
    update(|w| (w & (ENGINE_BITS | MEMO_BITS)) | (n << THREADS_SHIFT));
}

/// Record the dispatcher's memo for the policy `seen` (kept only if the
/// policy has not changed since).
pub(crate) fn set_memo(seen: Policy, memo: u8) {
    let new = (seen.0 & !MEMO_BITS) | (Word::from(memo) << MEMO_SHIFT);
    #[cfg(target_has_atomic = "32")]
    let _ = POLICY.compare_exchange(seen.0, new, Ordering::Relaxed, Ordering::Relaxed);
    #[cfg(not(target_has_atomic = "32"))]
    if POLICY.load(Ordering::Relaxed) == seen.0 {
        POLICY.store(new, Ordering::Relaxed);
    }
}
