//! `keccakx bench`: how fast keccakx's own functions run on this machine,
//! with the engine and threads chosen on the command line. The comparison
//! with other implementations (OpenSSL, RustCrypto, XKCP, BLAKE3) is the
//! benchmark crate's job (`make bench-cpu`), which links all of them.

use std::hint::black_box;
use std::io::Write;
use std::time::{Duration, Instant};

use keccakx::registry::Params;

use crate::algo::{self, Algo};
use crate::cli::BenchArgs;
use crate::error::{Error, Outcome};
use crate::output::print_all;

/// Default algorithms: the ones the project's benchmark tables report.
const DEFAULT_ALGS: &[&str] = &[
    "sha3-256",
    "shake128",
    "keccak-256",
    "turboshake128",
    "kt128",
    "kt256",
    "parallelhash128",
    "tree-li",
];

/// Median seconds per call of `f`, sampling for about `budget` in total.
fn time_per_call(budget: Duration, mut f: impl FnMut()) -> f64 {
    f(); // warm-up: page-in, caches, lazy engine choice
    let mut samples = Vec::new();
    let start = Instant::now();
    while samples.len() < 3 || (start.elapsed() < budget && samples.len() < 1000) {
        let t = Instant::now();
        let mut calls = 0u32;
        // Each sample lasts at least 2 ms so the clock's resolution does not matter.
        while calls == 0 || t.elapsed() < Duration::from_millis(2) {
            f();
            calls += 1;
        }
        samples.push(t.elapsed().as_secs_f64() / calls as f64);
    }
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

struct Row {
    what: String,
    size: usize,
    secs: f64,
}

pub fn bench_main(a: &BenchArgs) -> Result<Outcome, Error> {
    let names: Vec<String> = if a.algorithms.is_empty() {
        DEFAULT_ALGS.iter().map(|s| s.to_string()).collect()
    } else {
        a.algorithms.clone()
    };
    let mut algos = Vec::new();
    for n in &names {
        let info = algo::find(n).ok_or_else(|| {
            Error::Usage(format!(
                "bench: unknown algorithm '{n}' (see `keccakx list`)"
            ))
        })?;
        let mut p = Params::default();
        if info.name.starts_with("kmac") {
            p.key = Some(vec![0x4B; 32]); // KMAC needs a key; any fixed one measures the same.
        }
        if info.name == "keccak" {
            (p.rate, p.capacity) = (Some(1088), Some(512));
        }
        let al = Algo::new(info, &algo::params_for(info, &p))
            .map_err(|e| Error::Params(format!("bench: {e}")))?;
        algos.push(al);
    }
    let budget = Duration::from_secs_f64(a.seconds);
    let mut rows = Vec::new();
    for &size in &a.sizes {
        let data: Vec<u8> = (0..size).map(|i| (i % 251) as u8).collect();
        for al in &algos {
            let secs = time_per_call(budget, || {
                black_box(al.digest(black_box(&data)));
            });
            rows.push(Row {
                what: al.info.name.to_string(),
                size,
                secs,
            });
        }
    }
    // Batch: many 64-byte messages in one call, the Merkle/dedup shape.
    if a.batch > 0 {
        let blob: Vec<u8> = (0..a.batch * 64).map(|i| (i % 253) as u8).collect();
        let msgs: Vec<&[u8]> = blob.chunks(64).collect();
        let mut out = vec![0u8; a.batch * 32];
        let p = Params::default();
        let batch = |out: &mut [u8]| keccakx::batch::hash_many_into("sha3-256", &p, &msgs, 32, out);
        // Checked once here, so that the timed calls cannot fail.
        batch(&mut out).map_err(|e| Error::Params(format!("bench: --batch: {e}")))?;
        let secs = time_per_call(budget, || {
            let _ = batch(&mut out);
            black_box(&out);
        });
        rows.push(Row {
            what: format!("batch sha3-256 ({} x 64 B)", a.batch),
            size: a.batch * 64,
            secs,
        });
    }
    print_rows(&rows, a.json)
}

fn print_rows(rows: &[Row], json: bool) -> Result<Outcome, Error> {
    let engine = keccakx::engine::current().name();
    let single = keccakx::permutation::best_single().name();
    let threads = match keccakx::engine::threads() {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let mut text = Vec::new();
    if json {
        let _ = writeln!(
            text,
            "{{\"version\": \"{}\", \"engine\": \"{engine}\", \"single_state\": \"{single}\", \"threads\": {threads}, \"results\": [",
            env!("CARGO_PKG_VERSION")
        );
        for (i, r) in rows.iter().enumerate() {
            let _ = writeln!(
                text,
                "  {{\"algorithm\": \"{}\", \"bytes\": {}, \"seconds_per_call\": {:.9}, \"mb_per_s\": {:.1}}}{}",
                r.what,
                r.size,
                r.secs,
                r.size as f64 / r.secs / 1e6,
                if i + 1 < rows.len() { "," } else { "" }
            );
        }
        let _ = writeln!(text, "]}}");
    } else {
        let _ = writeln!(
            text,
            "engine {engine} (single state {single}), {threads} thread(s); MB/s = 10^6 bytes/s, median of samples"
        );
        let _ = writeln!(
            text,
            "{:<34} {:>12} {:>12} {:>12}",
            "ALGORITHM", "BYTES", "MB/s", "µs/CALL"
        );
        for r in rows {
            let _ = writeln!(
                text,
                "{:<34} {:>12} {:>12.1} {:>12.2}",
                r.what,
                r.size,
                r.size as f64 / r.secs / 1e6,
                r.secs * 1e6
            );
        }
    }
    print_all(&text)
}
