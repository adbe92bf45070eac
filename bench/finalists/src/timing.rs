//! Time in TSC ticks (`rdtsc` between `lfence`s), medians of many samples,
//! and the TSC-to-core-cycle ratio measured with a chain of dependent adds.

use std::hint::black_box;
use std::time::Instant;

#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub fn tsc() -> u64 {
    // SAFETY: `_mm_lfence` and `_rdtsc` have no preconditions on x86-64; the
    // fences keep the timed work from moving across the reads.
    unsafe {
        core::arch::x86_64::_mm_lfence();
        let t = core::arch::x86_64::_rdtsc();
        core::arch::x86_64::_mm_lfence();
        t
    }
}
#[cfg(not(target_arch = "x86_64"))]
pub fn tsc() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

pub fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

pub fn median_f(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// The timer's own cost (median of back-to-back reads).
pub fn overhead() -> u64 {
    median(
        (0..2001)
            .map(|_| {
                let t0 = tsc();
                tsc() - t0
            })
            .collect(),
    )
}

/// Median ticks of `f()` over at most `samples` runs (after a warm-up),
/// stopping early once `budget_s` seconds have passed (at least 3 runs).
/// Returns (median, runs, minimum).
pub fn sample(
    mut f: impl FnMut(),
    samples: usize,
    budget_s: f64,
    overhead: u64,
) -> (u64, usize, u64) {
    for _ in 0..samples / 10 + 2 {
        f();
    }
    let start = Instant::now();
    let mut v = Vec::with_capacity(samples);
    while v.len() < samples {
        let t0 = tsc();
        f();
        let t1 = tsc();
        v.push((t1 - t0).saturating_sub(overhead));
        if v.len() >= 3 && start.elapsed().as_secs_f64() > budget_s {
            break;
        }
    }
    let n = v.len();
    let min = *v.iter().min().unwrap();
    (median(v), n, min)
}

/// TSC ticks per core clock cycle: a loop whose every iteration is one
/// dependent 1-cycle `add` (the loop counter's chain runs beside it) takes one
/// core cycle per iteration, whatever the TSC's own rate.
#[cfg(target_arch = "x86_64")]
pub fn ticks_per_cycle() -> f64 {
    const N: u64 = 2_000_000;
    let run = || {
        let mut x = black_box(0u64);
        let t0 = tsc();
        // SAFETY: pure register arithmetic; no memory, no stack.
        unsafe {
            core::arch::asm!(
                "2:",
                "add {x}, 1",
                "dec {n}",
                "jnz 2b",
                x = inout(reg) x,
                n = inout(reg) N => _,
                options(nomem, nostack),
            );
        }
        let t1 = tsc();
        black_box(x);
        (t1 - t0) as f64 / N as f64
    };
    run();
    median_f((0..31).map(|_| run()).collect())
}
#[cfg(not(target_arch = "x86_64"))]
pub fn ticks_per_cycle() -> f64 {
    f64::NAN
}
