//! The dispatcher: the only place in keccakx that looks at CPU features.
//!
//! - The single-state Keccak-p[1600] of the sequential functions (one SHA3
//!   stream): [`best_single`] picks the fastest [`Single`] this CPU runs,
//!   once; [`keccak_p1600`] and the sponge's fused absorb go through it.
//! - The multi-state permutations of the engines: [`Parallelism`] says how
//!   many states a vector holds and whether this CPU has it;
//!   [`keccak_p1600_with`], `absorb_interleaved_with` and `run_lanes_for`
//!   run code generic over `Lanes` compiled for the chosen instruction set.
//!   `run_lanes_for` holds the one rule that picks narrower lanes than
//!   asked for: ×8 with at most four states runs on AVX-512VL xmm/ymm
//!   lanes (bench/NOTES.md, "Narrow lanes").

use super::golden::State;
#[cfg(target_arch = "x86_64")]
use super::isa;
use super::lanes::{AbsorbInterleaved, Interleaved, LanesKernel, PermuteStates};
use super::portable;

/// The CPU features the fast paths use: detected at run time with std
/// (`is_x86_feature_detected!` caches them), without std the features the
/// build targets.
mod cpu {
    #[cfg(target_arch = "x86_64")]
    macro_rules! has {
        ($($f:tt),+) => {{
            #[cfg(feature = "std")]
            {
                true $(&& std::arch::is_x86_feature_detected!($f))+
            }
            #[cfg(not(feature = "std"))]
            {
                true $(&& cfg!(target_feature = $f))+
            }
        }};
    }

    /// AVX2: the ×4 lanes.
    #[inline]
    pub(super) fn avx2() -> bool {
        #[cfg(target_arch = "x86_64")]
        return has!("avx2");
        #[allow(unreachable_code)]
        false
    }

    /// AVX-512F: the ×8 lanes and the row-layout single state.
    #[inline]
    pub(super) fn avx512f() -> bool {
        #[cfg(target_arch = "x86_64")]
        return has!("avx512f");
        #[allow(unreachable_code)]
        false
    }

    /// AVX-512F and VL: the single state in xmm registers, the narrow
    /// ×2/×4 lanes and the fused absorb.
    #[inline]
    pub(super) fn avx512vl() -> bool {
        #[cfg(target_arch = "x86_64")]
        return has!("avx512f", "avx512vl");
        #[allow(unreachable_code)]
        false
    }

    /// BMI1 and BMI2 (detected with std only: without it the portable
    /// build is used).
    #[inline]
    pub(super) fn bmi() -> bool {
        #[cfg(all(target_arch = "x86_64", feature = "std"))]
        return std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2");
        #[allow(unreachable_code)]
        false
    }
}

/// The CPU features this CPU has among those keccakx's paths (or a user
/// comparing engines) care about, for `keccakx info`.
#[cfg(feature = "std")]
pub fn cpu_features() -> alloc::vec::Vec<&'static str> {
    #[allow(unused_mut)]
    let mut f = alloc::vec::Vec::new();
    #[cfg(target_arch = "x86_64")]
    {
        macro_rules! probe {
            ($($name:tt),*) => { $( if std::arch::is_x86_feature_detected!($name) { f.push($name); } )* };
        }
        probe!(
            "sse2", "ssse3", "sse4.1", "avx", "avx2", "bmi1", "bmi2", "avx512f", "avx512vl",
            "avx512bw", "avx512dq"
        );
    }
    #[cfg(target_arch = "aarch64")]
    {
        macro_rules! probe {
            ($($name:tt),*) => { $( if std::arch::is_aarch64_feature_detected!($name) { f.push($name); } )* };
        }
        probe!("neon", "sha3");
    }
    f
}

/// A single-state implementation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Single {
    /// The first scalar code, unrolled by hand; kept only to compare with.
    #[doc(hidden)]
    Reference,
    /// The generic round on `u64` lanes, any CPU.
    Portable,
    /// The portable round compiled with BMI1/BMI2 (ANDN, RORX).
    Bmi,
    /// One lane per xmm register, VPTERNLOGQ for θ/χ, VPROLQ for ρ
    /// (AVX-512F + VL); all 25 lanes stay in registers.
    Avx512,
    /// Five rows in zmm registers, diagonals and lane permutes; kept only
    /// to compare with (benchmarks, the finalists study).
    #[doc(hidden)]
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
            Single::Bmi => cpu::bmi(),
            Single::Avx512 => cpu::avx512vl(),
            Single::Avx512Rows => cpu::avx512f(),
        }
    }
}

/// Keccak-p[1600, rounds] with a chosen implementation, to compare them
/// (benchmarks, tests, the finalists study).
/// Panics if `rounds` is not in 1..=24 or `s` is not available here.
#[doc(hidden)]
pub fn keccak_p1600_using(s: Single, a: &mut State, rounds: usize) {
    assert!(
        (1..=24).contains(&rounds),
        "Keccak-p[1600] takes 1..=24 rounds"
    );
    assert!(s.is_available(), "{s:?} is not supported by this CPU");
    match s {
        Single::Reference => portable::keccak_p1600_unrolled(a, rounds),
        Single::Portable => portable::keccak_p1600(a, rounds),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: BMI1/BMI2 checked by is_available above.
        Single::Bmi => unsafe { isa::bmi::keccak_p1600(a, rounds) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512F/VL checked by is_available above.
        Single::Avx512 => unsafe { isa::avx512vl::keccak_p1600_single(a, rounds) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: AVX-512F checked by is_available above.
        Single::Avx512Rows => unsafe { isa::avx512::keccak_p1600_rows(a, rounds) },
        #[allow(unreachable_patterns)]
        _ => unreachable!("checked by is_available"),
    }
}

/// The implementation [`keccak_p1600`] uses: the first available of the
/// fastest-first preference list, without AVX-512 when the engine policy
/// forbids it (an engine forced below AVX-512: `engine::set_engine`,
/// `KECCAKX_ENGINE`); chosen once per policy (memoised in it).
#[inline]
pub fn best_single() -> Single {
    let policy = crate::policy::get();
    match policy.memo() {
        1 => Single::Reference,
        2 => Single::Portable,
        3 => Single::Bmi,
        4 => Single::Avx512,
        5 => Single::Avx512Rows,
        _ => choose_single(policy),
    }
}

#[cold]
fn choose_single(policy: crate::policy::Policy) -> Single {
    let avx512 = policy.engine().allows_avx512();
    let s = PREFERENCE
        .iter()
        .copied()
        .filter(|s| avx512 || !matches!(s, Single::Avx512 | Single::Avx512Rows))
        .find(|s| s.is_available())
        .unwrap_or(Single::Portable);
    let code = match s {
        Single::Reference => 1,
        Single::Portable => 2,
        Single::Bmi => 3,
        Single::Avx512 => 4,
        Single::Avx512Rows => 5,
    };
    crate::policy::set_memo(policy, code);
    s
}

/// Fastest first, as measured (bench/NOTES.md).
const PREFERENCE: [Single; 3] = [Single::Avx512, Single::Bmi, Single::Portable];

/// Keccak-p[1600, rounds] for 1 ≤ rounds ≤ 24 (the last `rounds` rounds),
/// on the fastest single-state implementation of this CPU
/// ([`best_single`]).
#[inline]
pub fn keccak_p1600(a: &mut State, rounds: usize) {
    assert!(
        (1..=24).contains(&rounds),
        "Keccak-p[1600] takes 1..=24 rounds"
    );
    permute_single(a, rounds)
}

/// Keccak-f\[1600\] = Keccak-p[1600, 24].
#[inline]
pub fn keccak_f1600(a: &mut State) {
    keccak_p1600(a, 24)
}

/// Keccak-p[1600, rounds] on [`best_single`] (callers check `rounds`).
#[inline]
fn permute_single(a: &mut State, rounds: usize) {
    match best_single() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `best_single` only returns Avx512 after detecting AVX-512F/VL.
        Single::Avx512 => unsafe { isa::avx512vl::keccak_p1600_single(a, rounds) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `best_single` only returns Avx512Rows after detecting AVX-512F.
        Single::Avx512Rows => unsafe { isa::avx512::keccak_p1600_rows(a, rounds) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `best_single` only returns Bmi after detecting BMI1 and BMI2.
        Single::Bmi => unsafe { isa::bmi::keccak_p1600(a, rounds) },
        _ => portable::keccak_p1600(a, rounds),
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
            && best_single() == Single::Avx512
        {
            let blocks = data.len() / rate;
            // SAFETY: `best_single` returns Avx512 only after AVX-512F/VL were
            // detected; rounds, words = rate / 8 in 9..=21 and blocks ≥ 1 are
            // checked above, and `data` holds blocks * rate bytes.
            unsafe {
                isa::asm_avx512::absorb_xmm(a, data.as_ptr(), blocks, rate / 8, rounds);
            }
            return blocks * rate;
        }
    }
    let _ = (a, data, rate, rounds);
    0
}

/// Which multi-state permutation a CPU runs best.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parallelism {
    /// One state at a time (the scalar permutation).
    X1,
    /// Two states per SSE2 register.
    X2,
    /// Four states per AVX2 register.
    X4,
    /// Eight states per AVX-512 register.
    X8,
}

impl Parallelism {
    /// States permuted at once.
    pub fn states(self) -> usize {
        match self {
            Parallelism::X1 => 1,
            Parallelism::X2 => 2,
            Parallelism::X4 => 4,
            Parallelism::X8 => 8,
        }
    }

    /// The widest this CPU supports.
    pub fn detect() -> Parallelism {
        if !cfg!(target_arch = "x86_64") {
            Parallelism::X1
        } else if cpu::avx512f() {
            Parallelism::X8
        } else if cpu::avx2() {
            Parallelism::X4
        } else {
            Parallelism::X2
        }
    }

    /// Whether this CPU can run it.
    pub fn is_available(self) -> bool {
        match self {
            Parallelism::X1 => true,
            // SSE2 is in the x86-64 baseline.
            Parallelism::X2 => cfg!(target_arch = "x86_64"),
            Parallelism::X4 => cpu::avx2(),
            Parallelism::X8 => cpu::avx512f(),
        }
    }
}

/// The lane types the multi-state code is compiled for.
#[derive(Clone, Copy)]
enum LaneSet {
    Sse2,
    Avx2,
    Avx512,
    /// AVX-512VL xmm (two states) or ymm (four states) lanes.
    Avx512Narrow,
}

impl LaneSet {
    /// The lanes of `p` itself; None for `X1` or when this CPU lacks it.
    fn exactly(p: Parallelism) -> Option<LaneSet> {
        if !p.is_available() {
            return None;
        }
        match p {
            Parallelism::X1 => None,
            Parallelism::X2 => Some(LaneSet::Sse2),
            Parallelism::X4 => Some(LaneSet::Avx2),
            Parallelism::X8 => Some(LaneSet::Avx512),
        }
    }

    /// The lanes that run `states` states for `p`: those of `p`, except ×8
    /// with at most four states, which runs on as many narrow lanes as
    /// states: one narrow permutation a block instead of an eight-lane one
    /// with most lanes idle (bench/NOTES.md, "Narrow lanes").
    fn for_states(p: Parallelism, states: usize) -> Option<LaneSet> {
        match LaneSet::exactly(p)? {
            LaneSet::Avx512 if states <= 4 && cpu::avx512vl() => Some(LaneSet::Avx512Narrow),
            set => Some(set),
        }
    }

    /// Run `k` compiled for these lanes (`states`: how many the narrow
    /// lanes hold, two or four).
    ///
    /// # Safety
    /// The set must come from `exactly` or `for_states` (which detected it).
    #[inline]
    unsafe fn run<K: LanesKernel>(self, states: usize, k: K) -> K::Output {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: forwarded contract: the CPU has the set's instructions.
        unsafe {
            match self {
                LaneSet::Sse2 => x86::sse2(k),
                LaneSet::Avx2 => x86::avx2(k),
                LaneSet::Avx512 => x86::avx512(k),
                LaneSet::Avx512Narrow => x86::avx512_narrow(k, states),
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (states, k);
            unreachable!("no lane set without x86-64")
        }
    }
}

/// Kernels instantiated inside functions compiled for each instruction set.
#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::isa::avx512vl::{Four, Two};
    use super::LanesKernel;
    use core::arch::x86_64::{__m128i, __m256i, __m512i};

    /// # Safety
    /// None beyond `K`'s: SSE2 is in the x86-64 baseline.
    pub(super) unsafe fn sse2<K: LanesKernel>(k: K) -> K::Output {
        // SAFETY: SSE2 is in the x86-64 baseline.
        unsafe { k.run::<__m128i>() }
    }

    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn avx2<K: LanesKernel>(k: K) -> K::Output {
        // SAFETY: compiled with AVX2, called only when the CPU has it.
        unsafe { k.run::<__m256i>() }
    }

    /// # Safety
    /// The CPU must have AVX-512F.
    #[target_feature(enable = "avx512f")]
    pub(super) unsafe fn avx512<K: LanesKernel>(k: K) -> K::Output {
        // SAFETY: compiled with AVX-512F, called only when the CPU has it.
        unsafe { k.run::<__m512i>() }
    }

    /// Up to two states on xmm lanes, three or four on ymm lanes.
    ///
    /// # Safety
    /// The CPU must have AVX-512F and AVX-512VL.
    #[target_feature(enable = "avx512f,avx512vl")]
    pub(super) unsafe fn avx512_narrow<K: LanesKernel>(k: K, states: usize) -> K::Output {
        // SAFETY: compiled with AVX-512F/VL, called only when the CPU has them.
        unsafe {
            if states <= 2 {
                k.run::<Two>()
            } else {
                k.run::<Four>()
            }
        }
    }
}

/// Run `k`, a job on `states` independent states, on the lanes of `p` (×8
/// with at most four states: narrow lanes, see `LaneSet::for_states`).
/// Gives `k` back for `X1` or when this CPU lacks `p`.
#[inline]
pub(crate) fn run_lanes_for<K: LanesKernel>(
    p: Parallelism,
    states: usize,
    k: K,
) -> Result<K::Output, K> {
    match LaneSet::for_states(p, states) {
        // SAFETY: `for_states` detected the set.
        Some(set) => Ok(unsafe { set.run(states, k) }),
        None => Err(k),
    }
}

/// Keccak-p[1600, rounds] on every state of `states`, `p.states()` at a time
/// (the tail on the same vectors with idle lanes).
/// Panics if `rounds` is not in 1..=24 or `p` is not available on this CPU.
pub fn keccak_p1600_with(p: Parallelism, states: &mut [State], rounds: usize) {
    assert!(
        (1..=24).contains(&rounds),
        "Keccak-p[1600] takes 1..=24 rounds"
    );
    assert!(p.is_available(), "{p:?} is not supported by this CPU");
    let set = LaneSet::exactly(p);
    for group in states.chunks_mut(p.states()) {
        match set {
            // SAFETY: `exactly` detected the set; rounds checked above.
            Some(set) => unsafe {
                set.run(
                    group.len(),
                    PermuteStates {
                        states: group,
                        rounds,
                    },
                )
            },
            None => keccak_p1600(&mut group[0], rounds),
        }
    }
}

/// Keccak-p[1600, rounds] on every state of `states` with the widest
/// multi-state permutation this CPU has.
pub fn keccak_p1600_many(states: &mut [State], rounds: usize) {
    keccak_p1600_with(Parallelism::detect(), states, rounds)
}

/// `lanes::absorb_interleaved` on the lanes of `p` (narrow for up to four
/// states on ×8); returns false (and does nothing) for `X1` or when this
/// CPU lacks `p`. Panics if the job does not fit the states.
pub(crate) fn absorb_interleaved_with(
    p: Parallelism,
    states: &mut [u8],
    job: &Interleaved,
) -> bool {
    assert!(
        states.len().is_multiple_of(200) && job.fits(states.len() / 200),
        "absorb_interleaved: job does not fit the states"
    );
    let count = states.len() / 200;
    run_lanes_for(p, count, AbsorbInterleaved { states, job }).is_ok()
}
