//! Single-state Keccak-p[1600] for the sequential modes (one SHA3 stream):
//! the implementations and the run-time choice behind [`super::keccak_p1600`].
//!
//! - `portable`: the unrolled scalar round of [`super::fast`], any CPU.
//! - `bmi`: the same code compiled with BMI1/BMI2 (ANDN for χ, RORX for ρ:
//!   no lane complementing needed, no register copies before rotates).
//! - `avx512`: one lane per xmm register, VPTERNLOGQ for θ/χ, VPROLQ for ρ
//!   (AVX-512F + VL); all 25 lanes stay in registers.

use super::State;

/// A single-state implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Single {
    /// The core's original scalar code (fast.rs), kept for comparison.
    Reference,
    Portable,
    Bmi,
    Avx512,
    /// Five rows in zmm registers, diagonals and lane permutes.
    Avx512Rows,
}

impl Single {
    pub const ALL: [Single; 5] = [
        Single::Avx512Rows,
        Single::Avx512,
        Single::Bmi,
        Single::Portable,
        Single::Reference,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Single::Reference => "reference",
            Single::Portable => "portable",
            Single::Bmi => "bmi",
            Single::Avx512 => "avx512",
            Single::Avx512Rows => "avx512rows",
        }
    }

    /// Whether this CPU runs it.
    pub fn is_available(self) -> bool {
        match self {
            Single::Portable | Single::Reference => true,
            #[cfg(all(target_arch = "x86_64", feature = "std"))]
            Single::Bmi => {
                std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
            }
            #[cfg(target_arch = "x86_64")]
            Single::Avx512 => super::avx512::single_available(),
            #[cfg(target_arch = "x86_64")]
            Single::Avx512Rows => super::avx512::available(),
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }
}

/// Keccak-p[1600, rounds] with a chosen implementation (benchmarks, tests).
/// Panics if `rounds` is not in 1..=24 or `s` is not available here.
pub fn keccak_p1600_using(s: Single, a: &mut State, rounds: usize) {
    assert!(
        (1..=24).contains(&rounds),
        "Keccak-p[1600] takes 1..=24 rounds"
    );
    assert!(s.is_available(), "{s:?} is not supported by this CPU");
    match s {
        Single::Reference => super::fast::keccak_p1600_portable(a, rounds),
        Single::Portable => super::multi::keccak_p1600_generic_scalar(a, rounds),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: BMI1/BMI2 checked by is_available above.
        Single::Bmi => unsafe { bmi::keccak_p1600_bmi(a, rounds) },
        #[cfg(target_arch = "x86_64")]
        Single::Avx512 => super::avx512::keccak_p1600_single(a, rounds),
        #[cfg(target_arch = "x86_64")]
        Single::Avx512Rows => super::avx512::keccak_p1600_rows(a, rounds),
        #[allow(unreachable_patterns)]
        _ => unreachable!("checked by is_available"),
    }
}

#[cfg(target_arch = "x86_64")]
mod bmi {
    use super::State;

    #[target_feature(enable = "bmi1,bmi2")]
    pub(super) unsafe fn keccak_p1600_bmi(a: &mut State, rounds: usize) {
        super::super::multi::keccak_p1600_generic_scalar(a, rounds)
    }
}

/// Cached choice of [`best`] (0: not chosen yet).
static BEST: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Whether [`best`] may pick an AVX-512 implementation: 0 not decided (with
/// std, `KECCAKX_ENGINE` decides), 1 yes, 2 no.
static AVX512_ALLOWED: core::sync::atomic::AtomicU8 = core::sync::atomic::AtomicU8::new(0);

/// Forcing a multi-state engine below AVX-512 (`avx2`, `sse2`, `scalar`)
/// also keeps the single-state permutation off AVX-512, so that a forced
/// engine means no AVX-512 instruction anywhere (what a user avoiding it,
/// or measuring a machine without it, expects). Called by
/// `engine::set_engine` with the chosen engine's name.
#[cfg(feature = "std")]
pub(crate) fn follow_engine(engine_name: &str) {
    use core::sync::atomic::Ordering;
    let allowed = if engine_allows_avx512(engine_name) {
        1
    } else {
        2
    };
    AVX512_ALLOWED.store(allowed, Ordering::Relaxed);
    // Every implementation computes the same function, so a hash already
    // running may switch between them without changing its result.
    BEST.store(0, Ordering::Relaxed);
}

#[cfg(feature = "std")]
fn engine_allows_avx512(engine_name: &str) -> bool {
    !matches!(engine_name, "avx2" | "sse2" | "scalar")
}

fn avx512_allowed() -> bool {
    use core::sync::atomic::Ordering;
    match AVX512_ALLOWED.load(Ordering::Relaxed) {
        1 => true,
        2 => false,
        _ => {
            #[cfg(feature = "std")]
            {
                // The same variable the engine selection reads; an invalid
                // name means auto there, so it allows AVX-512 here.
                std::env::var("KECCAKX_ENGINE").map_or(true, |v| engine_allows_avx512(v.trim()))
            }
            #[cfg(not(feature = "std"))]
            {
                true
            }
        }
    }
}

/// The implementation [`super::keccak_p1600`] uses: the first available of
/// the fastest-first preference list, chosen once; without AVX-512 when
/// the engine was forced below it (`set_engine`, `KECCAKX_ENGINE`).
pub fn best() -> Single {
    use core::sync::atomic::Ordering;
    let code = |s: Single| match s {
        Single::Reference => 1,
        Single::Portable => 2,
        Single::Bmi => 3,
        Single::Avx512 => 4,
        Single::Avx512Rows => 5,
    };
    match BEST.load(Ordering::Relaxed) {
        1 => Single::Reference,
        2 => Single::Portable,
        3 => Single::Bmi,
        4 => Single::Avx512,
        5 => Single::Avx512Rows,
        _ => {
            let avx512 = avx512_allowed();
            let s = PREFERENCE
                .iter()
                .copied()
                .filter(|s| avx512 || !matches!(s, Single::Avx512 | Single::Avx512Rows))
                .find(|s| s.is_available())
                .unwrap_or(Single::Portable);
            BEST.store(code(s), Ordering::Relaxed);
            s
        }
    }
}

/// Fastest first, as measured (bench/NOTES.md).
const PREFERENCE: [Single; 3] = [Single::Avx512, Single::Bmi, Single::Portable];

/// Keccak-p[1600, rounds] on [`best`] (callers check `rounds`).
#[inline]
pub(crate) fn dispatch(a: &mut State, rounds: usize) {
    match best() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `best` only returns Avx512 after `single_available()`.
        Single::Avx512 => unsafe { super::avx512::keccak_p1600_single_unchecked(a, rounds) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `best` only returns Avx512Rows after `avx512::available()`.
        Single::Avx512Rows => unsafe { super::avx512::keccak_p1600_rows_unchecked(a, rounds) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `best` only returns Bmi after detecting BMI1 and BMI2.
        Single::Bmi => unsafe { bmi::keccak_p1600_bmi(a, rounds) },
        _ => super::multi::keccak_p1600_generic_scalar(a, rounds),
    }
}

/// Absorb as many whole `rate`-byte blocks of `data` into `a` as the fused
/// absorb loop can (XOR a block, Keccak-p[1600, rounds], next block, with the
/// state in registers throughout), and return the bytes consumed: 0 when it
/// does not apply here (no AVX-512VL, odd `rounds`, a rate outside
/// 72..=168 bytes or not a multiple of 8); the caller's loop does the rest.
#[inline]
pub(crate) fn absorb_blocks(a: &mut State, data: &[u8], rate: usize, rounds: usize) -> usize {
    #[cfg(target_arch = "x86_64")]
    {
        // Cheap tests first: most calls from small updates stop here.
        if data.len() >= rate
            && (72..=168).contains(&rate)
            && rate.is_multiple_of(8)
            && rounds.is_multiple_of(2)
            && (2..=24).contains(&rounds)
            && best() == Single::Avx512
        {
            let blocks = data.len() / rate;
            // SAFETY: `best` returns Avx512 only after AVX-512F/VL were
            // detected; rounds, words = rate / 8 in 9..=21 and blocks ≥ 1 are
            // checked above, and `data` holds blocks * rate bytes.
            unsafe {
                super::asm_avx512::absorb_xmm(a, data.as_ptr(), blocks, rate / 8, rounds);
            }
            return blocks * rate;
        }
    }
    let _ = (a, data, rate, rounds);
    0
}
