//! Multi-core scaling measured against what the host gives at that moment.
//!
//! A virtual machine shares its host: for seconds at a time a second vCPU
//! can run at a fraction of its speed, so two cases timed a second apart
//! (the main table's 1-thread and all-thread rows) were measured to differ
//! by 1.1× to 1.9× with no change in the code (bench/NOTES.md, "Two threads
//! on a shared host", says on which machine). Here each round times, back
//! to back:
//! - `one`: the 1-thread call;
//! - `all`: the all-thread call;
//! - `ceiling`: the 1-thread call run on every core at once, one
//!   independent copy per core (persistent threads, each timing itself): what
//!   perfect parallelism would reach on the host in that moment.
//!
//! Each ratio is taken within a round and the median over rounds reported:
//! `scaling` = one/all (ideal: the core count), `host_ceiling` = one/ceiling,
//! `efficiency` = ceiling/all (1.0: as fast as independent copies).

use std::sync::{Barrier, Mutex};
use std::time::Instant;

use keccakx::engine;

/// What one call hashes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Job {
    /// keccakx KT128 of the whole input.
    Kt128,
    /// keccakx batch SHA3-256 of the input's 64-byte messages.
    BatchSha3_256,
    /// BLAKE3 of the whole input (`update_rayon` on all threads).
    Blake3,
}

impl Job {
    pub fn function(self) -> &'static str {
        match self {
            Job::Kt128 | Job::Blake3 => "KT128",
            Job::BatchSha3_256 => "batch SHA3-256 (64-B msgs)",
        }
    }

    pub fn implementation(self) -> &'static str {
        match self {
            Job::Kt128 => "keccakx",
            Job::BatchSha3_256 => "keccakx batch",
            Job::Blake3 => "BLAKE3",
        }
    }

    /// One call on one thread (`all` false) or on all of them; `out` is the
    /// caller's reusable output buffer.
    fn call(self, all: bool, d: &[u8], out: &mut Vec<u8>) {
        match self {
            Job::Kt128 => crate::calls::kt128_digest(d),
            Job::BatchSha3_256 => crate::calls::batch_sha3_256(d, out),
            Job::Blake3 if all => {
                let mut h = blake3::Hasher::new();
                h.update_rayon(d);
                std::hint::black_box(h.finalize());
            }
            Job::Blake3 => {
                std::hint::black_box(blake3::hash(d));
            }
        }
    }
}

/// One job at one size: the per-round times (ns per call) and their medians.
#[derive(Clone, Debug)]
pub struct ScalingRecord {
    pub job: Job,
    pub size: usize,
    pub threads: usize,
    pub calls_per_round: usize,
    pub one_ns: Vec<f64>,
    pub all_ns: Vec<f64>,
    pub ceiling_ns: Vec<f64>,
}

impl ScalingRecord {
    fn median_of(&self, f: impl Fn(usize) -> f64) -> f64 {
        let mut v: Vec<f64> = (0..self.one_ns.len()).map(f).collect();
        crate::stats::median(&mut v)
    }
    /// Median over rounds of one-thread time / all-thread time.
    pub fn scaling(&self) -> f64 {
        self.median_of(|r| self.one_ns[r] / self.all_ns[r])
    }
    /// Median over rounds of what independent copies on every core reach.
    pub fn host_ceiling(&self) -> f64 {
        self.median_of(|r| self.one_ns[r] / self.ceiling_ns[r])
    }
    /// Median over rounds of all-thread speed / the ceiling's.
    pub fn efficiency(&self) -> f64 {
        self.median_of(|r| self.ceiling_ns[r] / self.all_ns[r])
    }
}

/// Persistent threads that run a job's 1-thread call together, each timing
/// its own calls (no start-up or wake-up of threads inside the timing).
struct Crew<'a> {
    start: Barrier,
    done: Barrier,
    /// The job, its calls per thread and input; `None` ends the crew.
    order: Mutex<Option<(Job, usize, &'a [u8])>>,
    /// Each thread's time for its calls, in ns.
    elapsed: Mutex<Vec<f64>>,
}

impl<'a> Crew<'a> {
    fn worker(&self) {
        let mut out = Vec::new();
        let mut warm = None;
        loop {
            self.start.wait();
            let Some((job, calls, d)) = *self.order.lock().unwrap() else {
                return;
            };
            // First round of a job: one untimed call, so this thread's
            // output buffer and caches are as warm as the other two
            // measurements have them.
            if warm != Some((job, d.len())) {
                job.call(false, d, &mut out);
                warm = Some((job, d.len()));
            }
            let t = Instant::now();
            for _ in 0..calls {
                job.call(false, d, &mut out);
            }
            let ns = t.elapsed().as_nanos() as f64;
            self.elapsed.lock().unwrap().push(ns);
            self.done.wait();
        }
    }

    /// ns per call of `threads` copies running at once: the slowest copy's
    /// time over all the calls made.
    fn run(&self, job: Job, calls: usize, d: &'a [u8], threads: usize) -> f64 {
        *self.order.lock().unwrap() = Some((job, calls, d));
        self.elapsed.lock().unwrap().clear();
        self.start.wait();
        self.done.wait();
        let slowest = self
            .elapsed
            .lock()
            .unwrap()
            .iter()
            .copied()
            .fold(0.0, f64::max);
        slowest / (calls * threads) as f64
    }
}

/// Time one call on this thread, `calls` times.
fn timed(job: Job, all: bool, calls: usize, d: &[u8], out: &mut Vec<u8>) -> f64 {
    engine::set_threads(if all { 0 } else { 1 });
    let t = Instant::now();
    for _ in 0..calls {
        job.call(all, d, out);
    }
    t.elapsed().as_nanos() as f64 / calls as f64
}

/// Measures every job at every size on `threads` cores (`threads` > 1),
/// `rounds` rounds each of about `round_ms` per measurement; `progress`
/// sees each record as it is done.
pub fn measure_scaling(
    jobs: &[Job],
    sizes: &[usize],
    data: &[u8],
    threads: usize,
    rounds: usize,
    round_ms: f64,
    progress: &mut dyn FnMut(&ScalingRecord),
) -> Vec<ScalingRecord> {
    let crew = Crew {
        start: Barrier::new(threads + 1),
        done: Barrier::new(threads + 1),
        order: Mutex::new(None),
        elapsed: Mutex::new(Vec::new()),
    };
    let mut records = Vec::new();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| crew.worker());
        }
        let mut out = Vec::new();
        for &job in jobs {
            for &size in sizes {
                let d = &data[..size];
                // Warm-up and calibration on one thread.
                timed(job, false, 1, d, &mut out);
                let once = timed(job, false, 1, d, &mut out);
                let calls = ((round_ms * 1e6 / once).ceil() as usize).clamp(1, 100_000);
                timed(job, true, 1, d, &mut out);
                let mut rec = ScalingRecord {
                    job,
                    size,
                    threads,
                    calls_per_round: calls,
                    one_ns: Vec::new(),
                    all_ns: Vec::new(),
                    ceiling_ns: Vec::new(),
                };
                for r in 0..rounds {
                    // Alternate the order so no measurement always follows
                    // the same one.
                    let ceiling = || {
                        engine::set_threads(1);
                        crew.run(job, calls, d, threads)
                    };
                    if r % 2 == 0 {
                        rec.one_ns.push(timed(job, false, calls, d, &mut out));
                        rec.all_ns.push(timed(job, true, calls, d, &mut out));
                        rec.ceiling_ns.push(ceiling());
                    } else {
                        rec.ceiling_ns.push(ceiling());
                        rec.all_ns.push(timed(job, true, calls, d, &mut out));
                        rec.one_ns.push(timed(job, false, calls, d, &mut out));
                    }
                }
                progress(&rec);
                records.push(rec);
            }
        }
        *crew.order.lock().unwrap() = None;
        crew.start.wait();
    });
    engine::set_threads(0);
    records
}
