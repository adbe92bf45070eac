//! keccakx's CPU benchmark: every function at every size, side by side with
//! its peers in the same run, as medians of repeated samples.
//!
//! Time is wall-clock (`Instant`); "cycles" are time-stamp-counter ticks
//! (`rdtsc`, constant rate on current x86-64 CPUs, so reference cycles at
//! the TSC frequency, not core cycles when the core boosts). Both are taken
//! around the same samples; `cycles/byte` = median ticks per op / bytes.
//!
//! [`run`] is a library function so front ends (`keccakx bench`) can call it;
//! the `keccakx-bench` binary writes the JSON that `bench/plot.py` draws.

use std::hint::black_box;
use std::time::{Duration, Instant};

use keccakx::engine;

mod calls;
pub mod scaling;
mod stats;

use calls::{batch_sha3_256, kt128_digest};
pub use scaling::ScalingRecord;
use stats::median;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Shorter samples and sizes up to 1 MiB only (a smoke run).
    pub quick: bool,
    /// Largest input size in bytes.
    pub max_size: usize,
    /// Only functions whose name contains this (case-insensitive).
    pub filter: Option<String>,
    /// Measure as on a CPU without AVX-512: keccakx forced to its AVX2
    /// engine (which keeps the single-state permutation off AVX-512 too),
    /// XKCP switched off AVX-512 (needs the `xkcp-avx2` feature, else its
    /// rows are left out), BLAKE3 left out (no run-time switch).
    pub no_avx512: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            quick: false,
            max_size: 64 << 20,
            filter: None,
            no_avx512: false,
        }
    }
}

/// One measured point.
#[derive(Clone, Debug)]
pub struct Record {
    pub function: &'static str,
    pub size: usize,
    pub implementation: &'static str,
    /// 1, or the number of cores used ("all").
    pub threads: usize,
    /// Wall-clock median.
    pub ns_per_op: f64,
    /// Wall-clock fastest sample.
    pub ns_min: f64,
    /// Thread CPU time median (one-thread cases only).
    pub cpu_ns_per_op: Option<f64>,
    /// TSC ticks (wall) median.
    pub ticks_per_op: f64,
    pub samples: usize,
    pub iters: usize,
    /// Messages per op (batch rows), 1 otherwise.
    pub messages: usize,
}

impl Record {
    /// The time the figures use: thread CPU time for one-thread cases (a
    /// shared machine's load does not count against them), wall time for
    /// multi-thread ones.
    pub fn effective_ns(&self) -> f64 {
        match self.cpu_ns_per_op {
            Some(c) if c.is_finite() && c > 0.0 => c,
            _ => self.ns_per_op,
        }
    }
    /// Throughput in MB/s (10^6 bytes per second) on [`Self::effective_ns`].
    pub fn mb_per_s(&self) -> f64 {
        self.size as f64 / self.effective_ns() * 1e3
    }
    /// Throughput on the wall-clock median.
    pub fn wall_mb_per_s(&self) -> f64 {
        self.size as f64 / self.ns_per_op * 1e3
    }
    /// Effective time in TSC reference cycles (at `tsc_ghz`) per byte.
    pub fn cycles_per_byte(&self, tsc_ghz: f64) -> f64 {
        self.effective_ns() * tsc_ghz / self.size as f64
    }
    pub fn messages_per_s(&self) -> f64 {
        self.messages as f64 / self.effective_ns() * 1e9
    }
}

/// A whole run with the facts needed to reproduce it.
#[derive(Clone, Debug)]
pub struct Report {
    pub date: String,
    pub commit: String,
    pub rustc: String,
    pub cpu_model: String,
    pub cpu_flags: Vec<String>,
    pub cores: usize,
    pub kernel: String,
    pub engine: String,
    pub tsc_ghz: Option<f64>,
    pub load_before: String,
    pub load_after: String,
    pub notes: Vec<String>,
    pub records: Vec<Record>,
    /// Multi-core scaling in alternated rounds (scaling.rs).
    pub scaling: Vec<ScalingRecord>,
    pub permutations: Vec<PermRecord>,
}

/// Keccak-p[1600] alone: thread-CPU nanoseconds (and wall TSC ticks) per
/// state permuted.
#[derive(Clone, Debug)]
pub struct PermRecord {
    /// `single/<name>` or `multi/x<N>`.
    pub implementation: String,
    pub rounds: usize,
    pub ns_per_state: f64,
    pub ticks_per_state: f64,
}

#[cfg(feature = "xkcp-avx2")]
extern "C" {
    // XKCP's switches, compiled only with KeccakP1600_enable_simd_options
    // (the `xkcp-avx2` feature; `make bench-cpu-no-avx512` sets the define).
    fn KangarooTwelve_DisableAVX512() -> core::ffi::c_int;
    fn KangarooTwelve_EnableAllCpuFeatures();
}

/// Keep keccakx (and XKCP, when built with its switch) off AVX-512, or let
/// them choose freely again.
fn limit_below_avx512(on: bool) {
    let name = if !on {
        "auto"
    } else if engine::by_name("avx2").is_ok() {
        "avx2"
    } else {
        "sse2"
    };
    // Both names exist on every x86-64 CPU this runs on; elsewhere "auto"
    // (the only engine there is below AVX-512 anyway).
    let _ = engine::set_engine(name).or_else(|_| engine::set_engine("auto"));
    #[cfg(feature = "xkcp-avx2")]
    // SAFETY: plain C functions without arguments that set XKCP's globals.
    unsafe {
        if on {
            KangarooTwelve_DisableAVX512();
        } else {
            KangarooTwelve_EnableAllCpuFeatures();
        }
    }
}

/// Every single-state and multi-state permutation this CPU runs, 24 and 12
/// rounds (without the AVX-512 ones when `no_avx512`).
pub fn run_permutations(quick: bool, no_avx512: bool) -> Vec<PermRecord> {
    use keccakx::permutation::{keccak_p1600_using, keccak_p1600_with, Parallelism, Single, State};
    let mut v = Vec::new();
    for rounds in [24, 12] {
        for s in Single::ALL {
            if !s.is_available() || (no_avx512 && matches!(s, Single::Avx512 | Single::Avx512Rows))
            {
                continue;
            }
            let mut st: State = [7; 25];
            let t = measure(quick, &mut || {
                for _ in 0..16 {
                    keccak_p1600_using(s, black_box(&mut st), rounds);
                }
            });
            v.push(PermRecord {
                implementation: format!("single/{}", s.name()),
                rounds,
                ns_per_state: t.cpu_ns / 16.0,
                ticks_per_state: t.ticks / 16.0,
            });
        }
        for p in [Parallelism::X2, Parallelism::X4, Parallelism::X8] {
            if !p.is_available() || (no_avx512 && p == Parallelism::X8) {
                continue;
            }
            let mut st: Vec<State> = vec![[7; 25]; 64];
            let t = measure(quick, &mut || {
                keccak_p1600_with(p, black_box(&mut st), rounds)
            });
            v.push(PermRecord {
                implementation: format!("multi/x{}", p.states()),
                rounds,
                ns_per_state: t.cpu_ns / 64.0,
                ticks_per_state: t.ticks / 64.0,
            });
        }
    }
    v
}

/// Sizes of the full run.
pub const SIZES: [usize; 5] = [64, 1 << 10, 16 << 10, 1 << 20, 64 << 20];

fn rdtsc() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC exists on every x86-64 CPU and reads a counter only.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        0
    }
}

/// CPU time of the calling thread in nanoseconds (immune to time spent
/// descheduled on a loaded machine; meaningful for one-thread cases only).
fn thread_cpu_ns() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 * 1e9 + ts.tv_nsec as f64
}

/// Timings of one case: medians over samples, and the fastest sample.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub ns: f64,
    pub ns_min: f64,
    pub ticks: f64,
    pub cpu_ns: f64,
    pub samples: usize,
    pub iters: usize,
}

/// Median of `samples` timings of `iters` calls each, after a warm-up and a
/// calibration call.
fn measure(quick: bool, f: &mut dyn FnMut()) -> Timing {
    f();
    let t = Instant::now();
    f();
    let once = t.elapsed().max(Duration::from_nanos(20));
    let target = Duration::from_millis(if quick { 4 } else { 40 });
    let iters = (target.as_nanos() / once.as_nanos()).clamp(1, 10_000_000) as usize;
    let samples = match (quick, once > Duration::from_millis(40)) {
        (true, _) => 3,
        (false, true) => 5,
        (false, false) => 9,
    };
    let mut ns = Vec::with_capacity(samples);
    let mut ticks = Vec::with_capacity(samples);
    let mut cpu = Vec::with_capacity(samples);
    for _ in 0..samples {
        let p0 = thread_cpu_ns();
        let c0 = rdtsc();
        let t0 = Instant::now();
        for _ in 0..iters {
            f();
        }
        let dt = t0.elapsed().as_nanos() as f64;
        let dc = rdtsc().wrapping_sub(c0) as f64;
        let dp = thread_cpu_ns() - p0;
        ns.push(dt / iters as f64);
        ticks.push(dc / iters as f64);
        cpu.push(dp / iters as f64);
    }
    let ns_min = ns.iter().copied().fold(f64::INFINITY, f64::min);
    Timing {
        ns: median(&mut ns),
        ns_min,
        ticks: median(&mut ticks),
        cpu_ns: median(&mut cpu),
        samples,
        iters,
    }
}

/// A contender: name, thread count, and the work for one input.
struct Case<'a> {
    implementation: &'static str,
    threads: usize,
    run: Box<dyn FnMut(&[u8]) + 'a>,
}

fn case<'a>(implementation: &'static str, threads: usize, run: impl FnMut(&[u8]) + 'a) -> Case<'a> {
    Case {
        implementation,
        threads,
        run: Box::new(run),
    }
}

/// Set keccakx's thread limit for a case (1, or 0 = all cores).
fn kx_threads(all: bool) {
    engine::set_threads(if all { 0 } else { 1 });
}

/// The implementations timed for `function` (one of [`FUNCTIONS`]),
/// keccakx first; `all`: the thread count of the all-thread rows.
fn cases_for(function: &'static str, all: usize, no_avx512: bool) -> Vec<Case<'static>> {
    match function {
        "SHA3-256" => sha3_256_cases(),
        "SHAKE128" => shake128_cases(),
        "Keccak-256" => keccak256_cases(),
        "KT128" => kt128_cases(all, no_avx512),
        "KT256" => kt256_cases(all),
        "ParallelHash128" => parallelhash128_cases(all),
        "batch SHA3-256 (64-B msgs)" => batch_sha3_256_cases(all),
        _ => unreachable!("unknown benchmark function"),
    }
}

/// SHA3-256: keccakx and its peers.
fn sha3_256_cases() -> Vec<Case<'static>> {
    use keccakx::fips202::Sha3_256;
    use sha3::digest::Digest;
    use tiny_keccak::Hasher as _;
    let mut v: Vec<Case<'static>> = Vec::new();
    v.push(case("keccakx", 1, |d| {
        black_box(Sha3_256::digest(d));
    }));
    #[cfg(feature = "openssl")]
    {
        let mut h = openssl::hash::Hasher::new(openssl::hash::MessageDigest::sha3_256()).unwrap();
        v.push(case("OpenSSL", 1, move |d| {
            h.update(d).unwrap();
            black_box(h.finish().unwrap());
        }));
    }
    v.push(case("RustCrypto sha3", 1, |d| {
        black_box(sha3::Sha3_256::digest(d));
    }));
    v.push(case("tiny-keccak", 1, |d| {
        let mut h = tiny_keccak::Sha3::v256();
        h.update(d);
        let mut o = [0u8; 32];
        h.finalize(&mut o);
        black_box(o);
    }));
    v
}

/// SHAKE128: keccakx and its peers.
fn shake128_cases() -> Vec<Case<'static>> {
    use keccakx::fips202::Shake128;
    use sha3::digest::{ExtendableOutput, Update};
    use tiny_keccak::Hasher as _;
    let mut v: Vec<Case<'static>> = Vec::new();
    v.push(case("keccakx", 1, |d| {
        let mut h = Shake128::new();
        h.update(d);
        let mut o = [0u8; 32];
        h.finalize_into(&mut o);
        black_box(o);
    }));
    #[cfg(feature = "openssl")]
    {
        let mut h = openssl::hash::Hasher::new(openssl::hash::MessageDigest::shake_128()).unwrap();
        v.push(case("OpenSSL", 1, move |d| {
            h.update(d).unwrap();
            let mut o = [0u8; 32];
            h.finish_xof(&mut o).unwrap();
            black_box(o);
        }));
    }
    v.push(case("RustCrypto shake", 1, |d| {
        let mut h = shake::Shake128::default();
        h.update(d);
        let mut o = [0u8; 32];
        h.finalize_xof_into(&mut o);
        black_box(o);
    }));
    v.push(case("tiny-keccak", 1, |d| {
        let mut h = tiny_keccak::Shake::v128();
        h.update(d);
        let mut o = [0u8; 32];
        h.finalize(&mut o);
        black_box(o);
    }));
    v
}

/// Keccak-256: keccakx and its peers.
fn keccak256_cases() -> Vec<Case<'static>> {
    use keccakx::keccak::Keccak256;
    use sha3::digest::Digest;
    use tiny_keccak::Hasher as _;
    let mut v: Vec<Case<'static>> = Vec::new();
    v.push(case("keccakx", 1, |d| {
        black_box(Keccak256::digest(d));
    }));
    v.push(case("RustCrypto sha3", 1, |d| {
        black_box(sha3::Keccak256::digest(d));
    }));
    v.push(case("tiny-keccak", 1, |d| {
        let mut h = tiny_keccak::Keccak::v256();
        h.update(d);
        let mut o = [0u8; 32];
        h.finalize(&mut o);
        black_box(o);
    }));
    v
}

/// KT128: keccakx and its peers.
fn kt128_cases(all: usize, no_avx512: bool) -> Vec<Case<'static>> {
    use sha3::digest::{ExtendableOutput, Update};
    use tiny_keccak::Hasher as _;
    let mut v: Vec<Case<'static>> = Vec::new();
    for t in [1, all] {
        v.push(case("keccakx", t, move |d| {
            kx_threads(t > 1);
            kt128_digest(d);
        }));
    }
    v.push(case("RustCrypto k12", 1, |d| {
        let mut h = k12::Kt128::default();
        h.update(d);
        let mut o = [0u8; 32];
        h.finalize_xof_into(&mut o);
        black_box(o);
    }));
    v.push(case("tiny-keccak", 1, |d| {
        let mut h = tiny_keccak::KangarooTwelve::new(b"");
        h.update(d);
        let mut o = [0u8; 32];
        h.finalize(&mut o);
        black_box(o);
    }));
    // Without the switch XKCP would run its AVX-512 code.
    #[cfg(feature = "xkcp")]
    if !no_avx512 || cfg!(feature = "xkcp-avx2") {
        v.push(case("XKCP K12", 1, |d| {
            let mut h = kangarootwelve_xkcp::Hasher::new();
            h.update(d);
            black_box(h.finalize());
        }));
        if all > 1 {
            v.push(case("XKCP K12", all, |d| {
                let mut h = kangarootwelve_xkcp::Hasher::new_rayon();
                h.update(d);
                black_box(h.finalize());
            }));
        }
    }
    if !no_avx512 {
        v.push(case("BLAKE3", 1, |d| {
            black_box(blake3::hash(d));
        }));
    }
    if all > 1 && !no_avx512 {
        v.push(case("BLAKE3", all, |d| {
            let mut h = blake3::Hasher::new();
            h.update_rayon(d);
            black_box(h.finalize());
        }));
    }
    v
}

/// KT256: keccakx and its peers.
fn kt256_cases(all: usize) -> Vec<Case<'static>> {
    use keccakx::rfc9861::Kt256;
    use sha3::digest::{ExtendableOutput, Update};
    let mut v: Vec<Case<'static>> = Vec::new();
    for t in [1, all] {
        v.push(case("keccakx", t, move |d| {
            kx_threads(t > 1);
            let mut h = Kt256::new(b"");
            h.update(d);
            let mut o = [0u8; 64];
            h.finalize_into(&mut o);
            black_box(o);
        }));
    }
    v.push(case("RustCrypto k12", 1, |d| {
        let mut h = k12::Kt256::default();
        h.update(d);
        let mut o = [0u8; 64];
        h.finalize_xof_into(&mut o);
        black_box(o);
    }));
    v
}

/// ParallelHash128: keccakx and its peers.
fn parallelhash128_cases(all: usize) -> Vec<Case<'static>> {
    use keccakx::sp800_185::ParallelHash128;
    use tiny_keccak::Hasher as _;
    let mut v: Vec<Case<'static>> = Vec::new();
    for t in [1, all] {
        v.push(case("keccakx", t, move |d| {
            kx_threads(t > 1);
            let mut h = ParallelHash128::new(8192, b"").unwrap();
            h.update(d);
            let mut o = [0u8; 32];
            h.finalize_into(&mut o);
            black_box(o);
        }));
    }
    v.push(case("tiny-keccak", 1, |d| {
        let mut h = tiny_keccak::ParallelHash::v128(b"", 8192);
        h.update(d);
        let mut o = [0u8; 32];
        h.finalize(&mut o);
        black_box(o);
    }));
    v
}

/// batch SHA3-256 (64-B msgs): keccakx and its peers.
fn batch_sha3_256_cases(all: usize) -> Vec<Case<'static>> {
    use keccakx::fips202::Sha3_256;
    use sha3::digest::Digest;
    use tiny_keccak::Hasher as _;
    let mut v: Vec<Case<'static>> = Vec::new();
    for t in [1, all] {
        let mut out = Vec::new();
        v.push(case("keccakx batch", t, move |d| {
            kx_threads(t > 1);
            batch_sha3_256(d, &mut out);
        }));
    }
    v.push(case("keccakx one-at-a-time", 1, |d| {
        for m in d.chunks(64) {
            black_box(Sha3_256::digest(m));
        }
    }));
    #[cfg(feature = "openssl")]
    {
        let mut h = openssl::hash::Hasher::new(openssl::hash::MessageDigest::sha3_256()).unwrap();
        v.push(case("OpenSSL one-at-a-time", 1, move |d| {
            for m in d.chunks(64) {
                h.update(m).unwrap();
                black_box(h.finish().unwrap());
            }
        }));
    }
    v.push(case("RustCrypto sha3 one-at-a-time", 1, |d| {
        for m in d.chunks(64) {
            black_box(sha3::Sha3_256::digest(m));
        }
    }));
    v.push(case("tiny-keccak one-at-a-time", 1, |d| {
        for m in d.chunks(64) {
            let mut h = tiny_keccak::Sha3::v256();
            h.update(m);
            let mut o = [0u8; 32];
            h.finalize(&mut o);
            black_box(o);
        }
    }));
    v
}
/// Functions in the run, in order.
pub const FUNCTIONS: [&str; 7] = [
    "SHA3-256",
    "SHAKE128",
    "Keccak-256",
    "KT128",
    "KT256",
    "ParallelHash128",
    "batch SHA3-256 (64-B msgs)",
];

/// The scaling rounds (scaling.rs) for KT128 (keccakx and BLAKE3) and the
/// batch at the run's sizes of 1 MiB and up, when there are several cores.
fn run_scaling(
    opts: &Options,
    all: usize,
    sizes: &[usize],
    data: &[u8],
    progress: &mut dyn FnMut(&ScalingRecord),
) -> Vec<ScalingRecord> {
    use scaling::Job;
    if all < 2 {
        return Vec::new();
    }
    let wanted = |j: &Job| {
        opts.filter
            .as_ref()
            .is_none_or(|f| j.function().to_lowercase().contains(&f.to_lowercase()))
            && !(opts.no_avx512 && *j == Job::Blake3)
    };
    let jobs: Vec<Job> = [Job::Kt128, Job::Blake3, Job::BatchSha3_256]
        .into_iter()
        .filter(wanted)
        .collect();
    let big: Vec<usize> = sizes.iter().copied().filter(|&s| s >= 1 << 20).collect();
    let (rounds, round_ms) = if opts.quick { (3, 4.0) } else { (15, 20.0) };
    scaling::measure_scaling(&jobs, &big, data, all, rounds, round_ms, progress)
}

/// Run the benchmark; `progress` sees each record as it is measured.
pub fn run(opts: &Options, progress: impl FnMut(&Record)) -> Report {
    run_with(opts, progress, |_| {})
}

/// [`run`], with `progress_scaling` seeing each scaling record too.
pub fn run_with(
    opts: &Options,
    mut progress: impl FnMut(&Record),
    mut progress_scaling: impl FnMut(&ScalingRecord),
) -> Report {
    let all = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    if opts.no_avx512 {
        limit_below_avx512(true);
    }
    let max = if opts.quick {
        opts.max_size.min(1 << 20)
    } else {
        opts.max_size
    };
    let sizes: Vec<usize> = SIZES.iter().copied().filter(|&s| s <= max).collect();
    let biggest = sizes.iter().copied().max().unwrap_or(0);
    // Pseudo-random input (xorshift): no page is all zeros.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let data: Vec<u8> = (0..biggest)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    let load_before = loadavg();
    let mut records = Vec::new();
    let (mut tot_ns, mut tot_ticks) = (0f64, 0f64);
    for function in FUNCTIONS {
        if let Some(f) = &opts.filter {
            if !function.to_lowercase().contains(&f.to_lowercase()) {
                continue;
            }
        }
        let mut cases = cases_for(function, all, opts.no_avx512);
        for &size in &sizes {
            for c in cases.iter_mut() {
                let input = &data[..size];
                let run = &mut c.run;
                let t = measure(opts.quick, &mut || run(input));
                tot_ns += t.ns * (t.samples * t.iters) as f64;
                tot_ticks += t.ticks * (t.samples * t.iters) as f64;
                let messages = if function.starts_with("batch") {
                    size.div_ceil(64)
                } else {
                    1
                };
                let r = Record {
                    function,
                    size,
                    implementation: c.implementation,
                    threads: c.threads,
                    ns_per_op: t.ns,
                    ns_min: t.ns_min,
                    cpu_ns_per_op: (c.threads == 1).then_some(t.cpu_ns),
                    ticks_per_op: t.ticks,
                    samples: t.samples,
                    iters: t.iters,
                    messages,
                };
                progress(&r);
                records.push(r);
            }
        }
    }
    let scaling = run_scaling(opts, all, &sizes, &data, &mut progress_scaling);
    engine::set_threads(0);
    let engine_name = engine::current().name().to_string();
    let single_name = keccakx::permutation::best_single().name();
    let permutations = if opts.filter.is_none() || opts.filter.as_deref() == Some("perm") {
        run_permutations(opts.quick, opts.no_avx512)
    } else {
        Vec::new()
    };
    if opts.no_avx512 {
        limit_below_avx512(false);
    }
    let mut notes = vec![
        "MB/s = 10^6 bytes per second; medians of 9 samples of >= 40 ms each (5 samples of one call when a call takes over 40 ms)".into(),
        "ns_per_op: thread CPU time (CLOCK_THREAD_CPUTIME_ID) for 1-thread rows, so other jobs on a shared machine do not count; wall clock for multi-thread rows; wall_* fields have the wall-clock median and fastest sample for every row".into(),
        "cycles_per_byte = ns_per_op x tsc_ghz / bytes: TSC reference cycles (rdtsc ticks per wall ns measured over the run), not boosted core cycles".into(),
        "threads > 1: keccakx engine::set_threads(0) (rayon), BLAKE3 update_rayon, XKCP new_rayon".into(),
        "scaling: per size, rounds of the 1-thread call, the all-thread call and the host ceiling (the 1-thread call on every core at once, independent copies on persistent threads) timed back to back; scaling = one/all, host_ceiling = one/ceiling, efficiency = ceiling/all, each the median of the per-round ratios".into(),
        "OpenSSL 3.0 has no Keccak-256 (pad 0x01) digest: no OpenSSL row for it".into(),
    ];
    if !cfg!(feature = "xkcp") {
        notes.push("XKCP K12 not built in this run (feature `xkcp` off)".into());
    }
    if !cfg!(feature = "openssl") {
        notes.push("OpenSSL not built in this run (feature `openssl` off)".into());
    }
    if opts.no_avx512 {
        notes.push(format!(
            "run as on a CPU without AVX-512: keccakx engine forced to {engine_name} (single-state permutation {single_name}), {}; BLAKE3 left out (its crate has no run-time switch off AVX-512); OpenSSL, RustCrypto and tiny-keccak use scalar code either way",
            if cfg!(feature = "xkcp-avx2") {
                "XKCP K12 with KangarooTwelve_DisableAVX512() (its AVX2 code)"
            } else {
                "XKCP K12 left out (built without the `xkcp-avx2` feature, so it cannot be kept off AVX-512)"
            }
        ));
    }
    Report {
        date: today(),
        commit: command("git", &["describe", "--always", "--dirty", "--abbrev=12"]),
        rustc: command("rustc", &["--version"]),
        cpu_model: cpuinfo_field("model name"),
        cpu_flags: cpuinfo_field("flags")
            .split_whitespace()
            .map(String::from)
            .collect(),
        cores: all,
        kernel: command("uname", &["-sr"]),
        engine: engine_name,
        tsc_ghz: (tot_ticks > 0.0).then(|| tot_ticks / tot_ns),
        load_before,
        load_after: loadavg(),
        notes,
        records,
        scaling,
        permutations,
    }
}

fn command(cmd: &str, args: &[&str]) -> String {
    std::process::Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

fn cpuinfo_field(key: &str) -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.split(':').next().map(str::trim) == Some(key))
                .and_then(|l| l.split_once(':').map(|(_, v)| v.trim().to_string()))
        })
        .unwrap_or_else(|| "unknown".into())
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Today's UTC date, YYYY-MM-DD (civil-from-days, proleptic Gregorian).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let z = (secs / 86400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

fn json_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

fn json_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.4}")
    } else {
        "null".into()
    }
}

impl Report {
    /// The report as JSON (the format bench/plot.py reads).
    pub fn to_json(&self) -> String {
        let flags: Vec<String> = self.cpu_flags.iter().map(|f| json_str(f)).collect();
        let notes: Vec<String> = self.notes.iter().map(|f| json_str(f)).collect();
        let mut s = String::from("{\n");
        s += &format!("  \"date\": {},\n", json_str(&self.date));
        s += &format!("  \"commit\": {},\n", json_str(&self.commit));
        s += &format!("  \"rustc\": {},\n", json_str(&self.rustc));
        s += "  \"machine\": {\n";
        s += &format!("    \"cpu_model\": {},\n", json_str(&self.cpu_model));
        s += &format!("    \"cores\": {},\n", self.cores);
        s += &format!("    \"kernel\": {},\n", json_str(&self.kernel));
        s += &format!(
            "    \"tsc_ghz\": {},\n",
            self.tsc_ghz.map_or("null".into(), json_num)
        );
        s += &format!("    \"load_before\": {},\n", json_str(&self.load_before));
        s += &format!("    \"load_after\": {},\n", json_str(&self.load_after));
        s += &format!("    \"cpu_flags\": [{}]\n", flags.join(", "));
        s += "  },\n";
        s += &format!("  \"keccakx_engine\": {},\n", json_str(&self.engine));
        s += &format!("  \"notes\": [\n    {}\n  ],\n", notes.join(",\n    "));
        s += "  \"results\": [\n";
        let rows: Vec<String> = self
            .records
            .iter()
            .map(|r| {
                format!(
                    "    {{\"function\": {}, \"size\": {}, \"impl\": {}, \"threads\": {}, \"ns_per_op\": {}, \"wall_ns_per_op\": {}, \"wall_ns_min\": {}, \"cpu_ns_per_op\": {}, \"mb_per_s\": {}, \"wall_mb_per_s\": {}, \"cycles_per_byte\": {}, \"messages\": {}, \"messages_per_s\": {}, \"samples\": {}, \"iters\": {}}}",
                    json_str(r.function),
                    r.size,
                    json_str(r.implementation),
                    r.threads,
                    json_num(r.effective_ns()),
                    json_num(r.ns_per_op),
                    json_num(r.ns_min),
                    r.cpu_ns_per_op.map_or("null".into(), json_num),
                    json_num(r.mb_per_s()),
                    json_num(r.wall_mb_per_s()),
                    json_num(r.cycles_per_byte(self.tsc_ghz.unwrap_or(f64::NAN))),
                    r.messages,
                    json_num(r.messages_per_s()),
                    r.samples,
                    r.iters
                )
            })
            .collect();
        s += &rows.join(",\n");
        s += "\n  ],\n  \"scaling\": [\n";
        let list = |v: &[f64]| {
            v.iter()
                .map(|&x| json_num(x))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let scaling: Vec<String> = self
            .scaling
            .iter()
            .map(|r| {
                format!(
                    "    {{\"function\": {}, \"size\": {}, \"impl\": {}, \"threads\": {}, \"rounds\": {}, \"calls_per_round\": {}, \"scaling\": {}, \"host_ceiling\": {}, \"efficiency\": {}, \"one_ns\": [{}], \"all_ns\": [{}], \"ceiling_ns\": [{}]}}",
                    json_str(r.job.function()),
                    r.size,
                    json_str(r.job.implementation()),
                    r.threads,
                    r.one_ns.len(),
                    r.calls_per_round,
                    json_num(r.scaling()),
                    json_num(r.host_ceiling()),
                    json_num(r.efficiency()),
                    list(&r.one_ns),
                    list(&r.all_ns),
                    list(&r.ceiling_ns)
                )
            })
            .collect();
        s += &scaling.join(",\n");
        s += "\n  ],\n  \"permutations\": [\n";
        let perms: Vec<String> = self
            .permutations
            .iter()
            .map(|p| {
                format!(
                    "    {{\"impl\": {}, \"rounds\": {}, \"ns_per_state\": {}, \"cycles_per_state\": {}}}",
                    json_str(&p.implementation),
                    p.rounds,
                    json_num(p.ns_per_state),
                    json_num(p.ticks_per_state)
                )
            })
            .collect();
        s += &perms.join(",\n");
        s += "\n  ]\n}\n";
        s
    }
}

/// Human-readable size: 64 B, 1 KiB, 64 MiB.
pub fn size_name(n: usize) -> String {
    if n >= 1 << 20 {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} B")
    }
}
