//! Re-measures the 2012 two-core microcontroller study on this CPU, all nine
//! of its rows: MD5, SHA-1, SHA-256, BLAKE-32 (= BLAKE-256), Grøstl-256,
//! JH-256, Keccak-256, Skein-512-256 (Tables I/II: messages of 0, 55, 56,
//! 64, 119 and 1024 bytes, sequential vs parallel) and RC5-32/12/16 (key
//! expansion, block encryption, the expansion overlapped with encryption,
//! ECB/CBC/CTR), each in the `finalists` crate's three forms (sequential,
//! SIMD, two threads) beside the maintained crates; plus the step timings
//! and hand-off costs for the study's speed-up model (its eqs. 1–4).
//!
//! Time is TSC ticks (see timing.rs), converted to core cycles with the
//! measured ticks per cycle. Every figure is the median over `ROUNDS` rounds
//! (entries alternated forwards and backwards) of per-round medians.
//! Writes JSON to the path given as the first argument (default: stdout).

mod timing;

use finalists::study::{self, Row, Scratch, Step};
use finalists::{Impl, Rc5};
use std::hint::black_box;
use timing::{median, median_f, sample, tsc};

type HashFn = Box<dyn Fn(&[u8]) -> u8>;

fn d11<D: digest::Digest>() -> HashFn {
    Box::new(|m| D::digest(m)[0])
}
fn d09<D: blake_hash::Digest>() -> HashFn {
    Box::new(|m| D::digest(m)[0])
}

fn ours(row: Row, imp: Impl) -> HashFn {
    Box::new(move |m| {
        let mut o = [0u8; 32];
        study::hash_into(row, imp, m, &mut o[..row.output_len()]);
        o[0]
    })
}

fn keccakx256() -> HashFn {
    Box::new(|m| {
        let mut h = keccakx::keccak::Keccak256::new();
        h.update(m);
        h.finalize()[0]
    })
}

struct Entry {
    row: Row,
    variant: String,
    backend: String,
    f: HashFn,
    slow: bool,
}

fn js(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

type Rc5Fn = Box<dyn FnMut()>;

struct Rc5Op {
    operation: &'static str,
    variant: String,
    backend: String,
    f: Rc5Fn,
    slow: bool,
}

fn rc5_ops() -> Vec<Rc5Op> {
    use cipher::{Array, BlockCipherEncrypt, KeyInit};
    type Peer = rc5::RC5<u32, cipher::consts::U12, cipher::consts::U16>;
    let key = [0x5au8; 16];
    let r = Rc5::new_32_12_16(&key);
    let peer = Peer::new_from_slice(&key).unwrap();
    let mut ops: Vec<Rc5Op> = vec![];
    let op = |operation, imp: Impl, f: Rc5Fn| Rc5Op {
        operation,
        variant: imp.name().into(),
        backend: finalists::rc5::backend_name(imp).into(),
        f,
        slow: imp == Impl::TwoThreads,
    };
    ops.push(op(
        "key expansion",
        Impl::Sequential,
        Box::new(move || {
            black_box(Rc5::new_32_12_16(black_box(&key)));
        }),
    ));
    let r1 = r.clone();
    ops.push(op(
        "encrypt 1 block",
        Impl::Sequential,
        Box::new(move || {
            let mut b = [1u8; 8];
            r1.encrypt_block(black_box(&mut b));
            black_box(b);
        }),
    ));
    let r2 = r.clone();
    ops.push(op(
        "decrypt 1 block",
        Impl::Sequential,
        Box::new(move || {
            let mut b = [1u8; 8];
            r2.decrypt_block(black_box(&mut b));
            black_box(b);
        }),
    ));
    for imp in [Impl::Sequential, Impl::TwoThreads] {
        ops.push(op(
            "key expansion + encrypt 1 block",
            imp,
            Box::new(move || {
                let mut b = [1u8; 8];
                black_box(
                    finalists::rc5::expand_and_encrypt(black_box(&key), 12, imp, &mut b).unwrap(),
                );
                black_box(b);
            }),
        ));
    }
    let p1 = peer.clone();
    ops.push(Rc5Op {
        operation: "key expansion + encrypt 1 block",
        variant: "maintained (rc5 0.1)".into(),
        backend: "rc5 crate".into(),
        f: Box::new(move || {
            let p = Peer::new_from_slice(black_box(&key)).unwrap();
            let mut b = Array::from([1u8; 8]);
            p.encrypt_block(&mut b);
            black_box(b);
        }),
        slow: false,
    });
    drop(p1);
    for imp in [Impl::Sequential, Impl::Parallel, Impl::TwoThreads] {
        ops.push(op(
            "key expansion + ECB encrypt 1024 B",
            imp,
            Box::new(move || {
                let mut d = [3u8; 1024];
                black_box(
                    finalists::rc5::expand_and_encrypt(black_box(&key), 12, imp, &mut d).unwrap(),
                );
                black_box(d);
            }),
        ));
    }
    for imp in [Impl::Sequential, Impl::Parallel] {
        let r3 = r.clone();
        ops.push(op(
            "ECB encrypt 1024 B",
            imp,
            Box::new(move || {
                let mut d = [3u8; 1024];
                r3.encrypt_ecb(black_box(&mut d), imp).unwrap();
                black_box(d);
            }),
        ));
        let r4 = r.clone();
        ops.push(op(
            "CTR 1024 B",
            imp,
            Box::new(move || {
                let mut d = [3u8; 1024];
                r4.apply_ctr(&[7; 8], black_box(&mut d), imp);
                black_box(d);
            }),
        ));
        let r5 = r.clone();
        ops.push(op(
            "CBC decrypt 1024 B",
            imp,
            Box::new(move || {
                let mut d = [3u8; 1024];
                r5.decrypt_cbc(&[7; 8], black_box(&mut d), imp).unwrap();
                black_box(d);
            }),
        ));
    }
    let r6 = r.clone();
    ops.push(op(
        "CBC encrypt 1024 B",
        Impl::Sequential,
        Box::new(move || {
            let mut d = [3u8; 1024];
            r6.encrypt_cbc(&[7; 8], black_box(&mut d)).unwrap();
            black_box(d);
        }),
    ));
    let p2 = peer.clone();
    ops.push(Rc5Op {
        operation: "ECB encrypt 1024 B",
        variant: "maintained (rc5 0.1)".into(),
        backend: "rc5 crate".into(),
        f: Box::new(move || {
            let mut d = [3u8; 1024];
            let (blocks, _) = d.as_chunks_mut::<8>();
            for b in blocks {
                let mut a = Array::from(*b);
                p2.encrypt_block(&mut a);
                b.copy_from_slice(&a);
            }
            black_box(d);
        }),
        slow: false,
    });
    ops
}

/// Median ticks of one call of a step half (batches of 32 calls).
fn step_ticks(f: fn(&mut Scratch), overhead: u64) -> f64 {
    let mut s = Scratch::default();
    let mut v = Vec::new();
    for _ in 0..5 {
        f(&mut s);
    }
    for _ in 0..201 {
        let t0 = tsc();
        for _ in 0..32 {
            f(black_box(&mut s));
        }
        v.push((tsc() - t0).saturating_sub(overhead) as f64 / 32.0);
    }
    black_box(&s);
    median_f(v)
}

fn main() {
    let out = std::env::args().nth(1);
    let quick = std::env::var("FINALISTS_BENCH_QUICK").is_ok();
    let rounds = if quick { 2 } else { 7 };
    let sizes = [0usize, 55, 56, 64, 119, 1024];
    let load_before = loadavg();

    let mut entries: Vec<Entry> = vec![];
    let peers: Vec<(Row, &str, HashFn)> = vec![
        (Row::Md5, "maintained (md-5 0.11)", d11::<md5::Md5>()),
        (
            Row::Sha1,
            "maintained (sha1 0.11, SHA-NI if present)",
            d11::<sha1::Sha1>(),
        ),
        (
            Row::Sha256,
            "maintained (sha2 0.11, SHA-NI if present)",
            d11::<sha2::Sha256>(),
        ),
        (
            Row::Blake256,
            "maintained (blake-hash 0.4)",
            d09::<blake_hash::Blake256>(),
        ),
        (
            Row::Groestl256,
            "maintained (groestl 0.11)",
            d11::<groestl::Groestl256>(),
        ),
        (Row::Jh256, "maintained (jh 0.2)", d11::<jh::Jh256>()),
        (
            Row::Keccak256,
            "keccakx core (its own dispatch)",
            keccakx256(),
        ),
        (
            Row::Keccak256,
            "maintained (sha3 0.12)",
            d11::<sha3::Keccak256>(),
        ),
        (
            Row::Skein512_256,
            "maintained (skein 0.2)",
            d11::<skein::Skein512_256>(),
        ),
    ];
    // FINALISTS_BENCH_ONLY=MD5,SHA-1 restricts the hash rows (for quick checks).
    let only: Option<Vec<String>> = std::env::var("FINALISTS_BENCH_ONLY")
        .ok()
        .map(|v| v.split(',').map(str::to_string).collect());
    let wanted = |r: Row| {
        only.as_ref()
            .is_none_or(|o| o.iter().any(|n| n == r.name()))
    };
    let peers: Vec<_> = peers.into_iter().filter(|p| wanted(p.0)).collect();
    let mut peers = peers.into_iter().peekable();
    for row in Row::ALL.into_iter().filter(|&r| wanted(r)) {
        for imp in Impl::ALL {
            entries.push(Entry {
                row,
                variant: imp.name().into(),
                backend: row.backend(imp).into(),
                f: ours(row, imp),
                slow: imp == Impl::TwoThreads,
            });
        }
        while let Some((_, name, f)) = peers.next_if(|p| p.0 == row) {
            entries.push(Entry {
                row,
                variant: name.into(),
                backend: name.into(),
                f,
                slow: false,
            });
        }
    }

    let overhead = timing::overhead();
    let tpc = timing::ticks_per_cycle();
    eprintln!(
        "timer overhead {overhead} ticks; {tpc:.3} TSC ticks per core cycle; load {load_before}"
    );
    let msg = vec![0x5au8; 1024];
    // 64 KiB: long enough for the per-byte rate to settle, short enough (well
    // under a millisecond for most rows) that a run is rarely cut by the
    // scheduler; 256 KiB runs of the slow scalar rows took 5-10 ms and their
    // medians were inflated up to 5x by preemption on a shared VM (see
    // examples/long_messages.rs: median vs minimum of 256 KiB runs; the
    // machine is in bench/NOTES.md).
    let long = vec![0xa5u8; if quick { 16 * 1024 } else { 64 * 1024 }];
    let mut tpcs = vec![tpc];

    // per entry: per size: per-round medians; long-message ticks per byte.
    let mut cyc: Vec<Vec<Vec<u64>>> = vec![vec![vec![]; sizes.len()]; entries.len()];
    let mut runs: Vec<usize> = vec![0; entries.len()];
    let mut mins: Vec<Vec<u64>> = vec![vec![u64::MAX; sizes.len()]; entries.len()];
    let mut cpb: Vec<Vec<f64>> = vec![vec![]; entries.len()];
    let mut ops = rc5_ops();
    let mut rc5_cyc: Vec<Vec<u64>> = vec![vec![]; ops.len()];
    let mut rc5_min: Vec<u64> = vec![u64::MAX; ops.len()];
    for round in 0..rounds {
        let mut order: Vec<usize> = (0..entries.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for &i in &order {
            let e = &entries[i];
            let (samples, budget) = if quick {
                (31, 0.05)
            } else if e.slow {
                (31, 0.4)
            } else {
                (301, 0.5)
            };
            for (k, &n) in sizes.iter().enumerate() {
                let m = &msg[..n];
                let (t, r, lo) = sample(
                    || {
                        black_box((e.f)(black_box(m)));
                    },
                    samples,
                    budget,
                    overhead,
                );
                cyc[i][k].push(t);
                runs[i] += r;
                mins[i][k] = mins[i][k].min(lo);
            }
            if !e.slow {
                for _ in 0..7 {
                    let t0 = tsc();
                    black_box((e.f)(black_box(&long)));
                    cpb[i].push((tsc() - t0) as f64 / long.len() as f64);
                }
            }
        }
        let mut order: Vec<usize> = (0..ops.len()).collect();
        if round % 2 == 1 {
            order.reverse();
        }
        for &i in &order {
            let o = &mut ops[i];
            let (samples, budget) = if quick {
                (31, 0.05)
            } else if o.slow {
                (51, 0.4)
            } else {
                (301, 0.3)
            };
            let (t, _, lo) = sample(&mut o.f, samples, budget, overhead);
            rc5_cyc[i].push(t);
            rc5_min[i] = rc5_min[i].min(lo);
        }
        tpcs.push(timing::ticks_per_cycle());
        eprintln!("round {}/{rounds} done (load {}, {:.3} ticks/cycle)", round + 1, loadavg(), tpcs.last().unwrap());
    }

    let mut rows_json = vec![];
    for (i, e) in entries.iter().enumerate() {
        let med: Vec<u64> = cyc[i].iter().map(|v| median(v.clone())).collect();
        let long_cpb = if cpb[i].is_empty() {
            "null".to_string()
        } else {
            format!("{:.3}", median_f(cpb[i].clone()))
        };
        eprintln!(
            "{:<14} {:<44} {:?} min {:?} {} t/B [{}]",
            e.row.name(),
            e.variant,
            med,
            mins[i],
            long_cpb,
            e.backend
        );
        // Every round's median, in round order (rounds alternate the entry
        // order, so neighbouring entries of one round saw the same load).
        let per_round: Vec<String> = sizes
            .iter()
            .zip(&cyc[i])
            .map(|(n, v)| format!("\"{n}\": {:?}", v))
            .collect();
        rows_json.push(format!(
            "    {{\"algorithm\": {}, \"row\": {}, \"variant\": {}, \"backend\": {}, \"ticks\": {{{}}}, \"ticks_min\": {{{}}}, \"round_medians\": {{{}}}, \"samples\": {}, \"long_message_ticks_per_byte\": {}}}",
            js(e.row.name()),
            js(&format!("{:?}", e.row)),
            js(&e.variant),
            js(&e.backend),
            sizes.iter().zip(&med).map(|(n, c)| format!("\"{n}\": {c}")).collect::<Vec<_>>().join(", "),
            sizes.iter().zip(&mins[i]).map(|(n, c)| format!("\"{n}\": {c}")).collect::<Vec<_>>().join(", "),
            per_round.join(", "),
            runs[i],
            long_cpb
        ));
    }
    let mut rc5_json = vec![];
    for (i, o) in ops.iter().enumerate() {
        let t = median(rc5_cyc[i].clone());
        eprintln!("RC5 {:<36} {:<22} {t}", o.operation, o.variant);
        rc5_json.push(format!(
            "    {{\"operation\": {}, \"variant\": {}, \"backend\": {}, \"ticks\": {}, \"ticks_min\": {}, \"round_medians\": {:?}}}",
            js(o.operation), js(&o.variant), js(&o.backend), t, rc5_min[i], rc5_cyc[i]
        ));
    }

    // The study's model: step halves timed alone, hand-off costs probed.
    let (tau_split, _, tau_split_min) = sample(
        finalists::twothread::probe_split,
        if quick { 31 } else { 401 },
        1.0,
        overhead,
    );
    let nb = 256;
    let (t_bar, _, t_bar_min) = sample(
        || finalists::twothread::probe_barriers(nb),
        if quick { 11 } else { 101 },
        2.0,
        overhead,
    );
    let tau_barrier = t_bar.saturating_sub(tau_split) as f64 / nb as f64;
    let tau_barrier_min = t_bar_min.saturating_sub(tau_split_min) as f64 / nb as f64;
    eprintln!("hand-off: split {tau_split} (min {tau_split_min}) ticks, barrier {tau_barrier:.1} (min {tau_barrier_min:.1}) ticks");
    let mut model = vec![];
    let step_rows: Vec<(&str, Step)> = Row::ALL
        .iter()
        .map(|&r| (r.name(), study::steps(r)))
        .chain([("RC5", study::rc5_step())])
        .collect();
    for (name, s) in step_rows {
        let tm = step_ticks(s.run_moved, overhead);
        let tk = step_ticks(s.run_kept, overhead);
        eprintln!(
            "step {name:<14} moved {tm:.1} kept {tk:.1} x{}",
            s.per_block
        );
        model.push(format!(
            "      {{\"algorithm\": {}, \"moved\": {}, \"kept\": {}, \"ticks_moved\": {:.1}, \"ticks_kept\": {:.1}, \"per_block\": {}, \"barriers_per_block\": {}}}",
            js(name), js(s.moved), js(s.kept), tm, tk, s.per_block, s.barriers_per_block
        ));
    }

    let tpc_all = tpcs.clone();
    let tpc = median_f(tpcs);
    let f = finalists::platform::features();
    let json = format!(
        "{{\n  \"bench\": \"finalists-2012\",\n  \"unit\": \"TSC ticks (rdtsc between lfences); median over rounds of per-round medians; timer overhead subtracted\",\n  \"timer_overhead_ticks\": {overhead},\n  \"tsc_ticks_per_core_cycle\": {tpc:.4},\n  \"tsc_ticks_per_core_cycle_each_round\": {tpc_all:.3?},\n  \"rounds\": {rounds},\n  \"loadavg_before\": {},\n  \"loadavg_after\": {},\n  \"sizes\": {:?},\n  \"long_message_bytes\": {},\n  \"cpu_features\": {{\"sse41\": {}, \"avx2\": {}, \"avx512\": {}, \"avx512_gfni_vbmi\": {}}},\n  \"results\": [\n{}\n  ],\n  \"rc5\": [\n{}\n  ],\n  \"model\": {{\n    \"tau_split_ticks\": {tau_split},\n    \"tau_barrier_ticks\": {tau_barrier:.1},\n    \"tau_split_ticks_min\": {tau_split_min},\n    \"tau_barrier_ticks_min\": {tau_barrier_min:.1},\n    \"steps\": [\n{}\n    ]\n  }}\n}}\n",
        js(&load_before),
        js(&loadavg()),
        sizes,
        long.len(),
        f.sse41, f.avx2, f.avx512, f.avx512_gfni_vbmi,
        rows_json.join(",\n"),
        rc5_json.join(",\n"),
        model.join(",\n")
    );
    match out {
        Some(p) => std::fs::write(&p, json).expect("cannot write the JSON output"),
        None => print!("{json}"),
    }
}
