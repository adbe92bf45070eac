//! Re-measures the 2012 two-core microcontroller study of the SHA-3 finalists
//! on this CPU: TSC cycles (median of many runs) per message of 0, 55, 56, 64,
//! 119 and 1024 bytes, sequential vs parallel (SIMD) vs two threads, long-message
//! cycles per byte, beside the maintained crates. Writes JSON to the path given
//! as the first argument (default: stdout).

use finalists::{Algorithm, Blake256, Groestl256, Impl, Jh, Skein512};
use std::hint::black_box;

#[cfg(target_arch = "x86_64")]
fn tsc() -> u64 {
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
fn tsc() -> u64 {
    use std::time::Instant;
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_nanos() as u64
}

type HashFn = Box<dyn Fn(&[u8]) -> u8>;

fn d11<D: digest::Digest>() -> HashFn {
    Box::new(|m| D::digest(m)[0])
}
fn d09<D: blake_hash::Digest>() -> HashFn {
    Box::new(|m| D::digest(m)[0])
}

fn ours(alg: Algorithm, imp: Impl) -> HashFn {
    match alg {
        Algorithm::Blake256 => Box::new(move |m| {
            let mut h = Blake256::new_256(imp);
            h.update(m);
            let mut o = [0u8; 32];
            h.finalize_into(&mut o);
            o[0]
        }),
        Algorithm::Groestl256 => Box::new(move |m| {
            let mut h = Groestl256::with_output_len(32, imp);
            h.update(m);
            let mut o = [0u8; 32];
            h.finalize_into(&mut o);
            o[0]
        }),
        Algorithm::Jh256 => Box::new(move |m| {
            let mut h = Jh::with_output_len(32, imp);
            h.update(m);
            let mut o = [0u8; 32];
            h.finalize_into(&mut o);
            o[0]
        }),
        Algorithm::Skein512_256 => Box::new(move |m| {
            let mut h = Skein512::with_output_len(32, imp);
            h.update(m);
            let mut o = [0u8; 32];
            h.finalize_into(&mut o);
            o[0]
        }),
        _ => unreachable!("only the study's algorithms are benchmarked"),
    }
}

fn keccakx256() -> HashFn {
    Box::new(|m| {
        let mut h = keccakx::keccak::Keccak256::new();
        h.update(m);
        h.finalize()[0]
    })
}

fn median(mut v: Vec<u64>) -> u64 {
    v.sort_unstable();
    v[v.len() / 2]
}

/// Median TSC ticks of one hash of `msg` (minus the timer's own overhead).
fn cycles(f: &HashFn, msg: &[u8], samples: usize, overhead: u64) -> u64 {
    for _ in 0..samples / 10 + 3 {
        black_box(f(black_box(msg)));
    }
    let mut v = Vec::with_capacity(samples);
    for _ in 0..samples {
        let t0 = tsc();
        black_box(f(black_box(msg)));
        let t1 = tsc();
        v.push((t1 - t0).saturating_sub(overhead));
    }
    median(v)
}

/// Long-message cost in ticks per byte (median over runs of hashing `n` bytes).
fn per_byte(f: &HashFn, n: usize, runs: usize) -> f64 {
    let msg = vec![0xa5u8; n];
    black_box(f(&msg));
    let mut v = Vec::new();
    for _ in 0..runs {
        let t0 = tsc();
        black_box(f(black_box(&msg)));
        v.push(tsc() - t0);
    }
    median(v) as f64 / n as f64
}

struct Entry {
    name: &'static str,
    family: &'static str,
    variant: &'static str,
    backend: String,
    f: HashFn,
}

fn main() {
    let out = std::env::args().nth(1);
    let quick = std::env::var("FINALISTS_BENCH_QUICK").is_ok();
    let sizes = [0usize, 55, 56, 64, 119, 1024];
    let mut entries: Vec<Entry> = vec![
        Entry { name: "MD5", family: "md5", variant: "maintained (md-5 0.11)", backend: "md-5".into(), f: d11::<md5::Md5>() },
        Entry { name: "SHA-1", family: "sha1", variant: "maintained (sha1 0.11)", backend: "sha1 (SHA-NI if detected)".into(), f: d11::<sha1::Sha1>() },
        Entry { name: "SHA-256", family: "sha256", variant: "maintained (sha2 0.11)", backend: "sha2 (SHA-NI if detected)".into(), f: d11::<sha2::Sha256>() },
        Entry { name: "Keccak-256", family: "keccak", variant: "ours (keccakx)", backend: "keccakx::keccak::Keccak256".into(), f: keccakx256() },
        Entry { name: "Keccak-256", family: "keccak", variant: "maintained (sha3 0.12)", backend: "sha3::Keccak256".into(), f: d11::<sha3::Keccak256>() },
    ];
    let study = [
        (Algorithm::Blake256, "BLAKE-256", "blake", d09::<blake_hash::Blake256>() as HashFn, "maintained (blake-hash 0.4)"),
        (Algorithm::Groestl256, "Grøstl-256", "groestl", d11::<groestl::Groestl256>(), "maintained (groestl 0.11)"),
        (Algorithm::Jh256, "JH-256", "jh", d11::<jh::Jh256>(), "maintained (jh 0.2)"),
        (Algorithm::Skein512_256, "Skein-512-256", "skein", d11::<skein::Skein512_256>(), "maintained (skein 0.2)"),
    ];
    for (alg, name, fam, peer, peer_name) in study {
        for imp in Impl::ALL {
            entries.push(Entry {
                name,
                family: fam,
                variant: imp.name(),
                backend: finalists::backend_name(alg, imp).into(),
                f: ours(alg, imp),
            });
        }
        entries.push(Entry { name, family: fam, variant: peer_name, backend: peer_name.into(), f: peer });
    }

    let overhead = {
        let mut v = Vec::new();
        for _ in 0..1001 {
            let t0 = tsc();
            let t1 = tsc();
            v.push(t1 - t0);
        }
        median(v)
    };
    let msg = vec![0x5au8; 1024];
    let mut rows = Vec::new();
    for e in &entries {
        let slow = e.variant == "two-threads";
        let samples = if quick { 31 } else if slow { 51 } else { 2001 };
        let mut cyc = Vec::new();
        for &n in &sizes {
            cyc.push(cycles(&e.f, &msg[..n], samples, overhead));
        }
        let long = if slow { 4 * 1024 } else { 256 * 1024 };
        let cpb = per_byte(&e.f, if quick { 16 * 1024 } else { long }, if quick || slow { 5 } else { 21 });
        eprintln!("{:<14} {:<28} {:?} {:.2} c/B  [{}]", e.name, e.variant, cyc, cpb, e.backend);
        rows.push(format!(
            "    {{\"algorithm\": \"{}\", \"family\": \"{}\", \"variant\": \"{}\", \"backend\": \"{}\", \"cycles\": {{{}}}, \"long_message_cycles_per_byte\": {:.3}}}",
            e.name,
            e.family,
            e.variant,
            e.backend,
            sizes.iter().zip(&cyc).map(|(n, c)| format!("\"{n}\": {c}")).collect::<Vec<_>>().join(", "),
            cpb
        ));
    }
    let f = finalists::platform::features();
    let json = format!(
        "{{\n  \"bench\": \"finalists-2012\",\n  \"unit\": \"TSC ticks (rdtsc, median of runs), timer overhead {} ticks subtracted\",\n  \"sizes\": {:?},\n  \"cpu_features\": {{\"sse41\": {}, \"avx2\": {}, \"avx512\": {}, \"avx512_gfni_vbmi\": {}}},\n  \"results\": [\n{}\n  ]\n}}\n",
        overhead,
        sizes,
        f.sse41,
        f.avx2,
        f.avx512,
        f.avx512_gfni_vbmi,
        rows.join(",\n")
    );
    match out {
        Some(p) => std::fs::write(&p, json).expect("cannot write the JSON output"),
        None => print!("{json}"),
    }
}
