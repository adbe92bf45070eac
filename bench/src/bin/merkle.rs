//! The Merkle benchmark's Rust side (bench/merkle/bench.py runs it):
//!
//! `merkle-bench rs-merkle VALUES.csv OUT`: the Rust peer end to end:
//! (address, uint256) CSV rows, ABI-encoded and hashed twice with
//! tiny-keccak into OpenZeppelin's standard leaves, sorted, a tree built by
//! `rs_merkle` with a Keccak-256 hasher that sorts each pair as
//! `MerkleProof.sol` does, its root and every leaf's proof written to OUT.
//! (`rs_merkle` carries an odd node up a level instead of OpenZeppelin's
//! one-array layout, so its root differs unless the count is a power of two:
//! the same leaves and hash, its own tree shape.)
//!
//! `merkle-bench levels N REPS`: JSON on stdout: the batch engine's rate on
//! N − 1 messages of 64 bytes (Keccak-256, one call) and the tree's inner
//! nodes over N leaf hashes, level by level (`keccakx::merkle::build_nodes_into`
//! on the same engine, into a reused array as the batch writes a reused
//! output), and both again into fresh memory (`build_nodes`, a new output),
//! alternated, medians of REPS runs.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::time::Instant;

use keccakx::engine::{Engine, LaneSpec, Threads};
use keccakx::merkle::{build_nodes, build_nodes_into, Hash};
use rs_merkle::{Hasher, MerkleTree};
use tiny_keccak::{Hasher as _, Keccak};

fn keccak(data: &[u8]) -> [u8; 32] {
    let mut k = Keccak::v256();
    k.update(data);
    let mut out = [0u8; 32];
    k.finalize(&mut out);
    out
}

/// Keccak-256 of the sorted pair (an odd node is carried up as it is).
#[derive(Clone)]
struct SortedKeccak;

impl Hasher for SortedKeccak {
    type Hash = [u8; 32];
    fn hash(data: &[u8]) -> [u8; 32] {
        keccak(data)
    }
    fn concat_and_hash(left: &[u8; 32], right: Option<&[u8; 32]>) -> [u8; 32] {
        match right {
            Some(r) => {
                let (a, b) = if left <= r { (left, r) } else { (r, left) };
                let mut m = [0u8; 64];
                m[..32].copy_from_slice(a);
                m[32..].copy_from_slice(b);
                keccak(&m)
            }
            None => *left,
        }
    }
}

fn hex(b: &[u8]) -> String {
    let mut s = String::with_capacity(2 + b.len() * 2);
    s.push_str("0x");
    for x in b {
        s.push_str(&format!("{x:02x}"));
    }
    s
}

fn unhex(s: &str) -> Vec<u8> {
    let s = s.trim_start_matches("0x");
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// A decimal string as a 256-bit big-endian word.
fn decimal_word(s: &str) -> [u8; 32] {
    let mut w = [0u8; 32];
    for c in s.bytes() {
        let mut carry = (c - b'0') as u32;
        for b in w.iter_mut().rev() {
            let x = *b as u32 * 10 + carry;
            *b = x as u8;
            carry = x >> 8;
        }
    }
    w
}

fn rs_merkle_peer(values: &str, out: &str) {
    let text = std::fs::read_to_string(values).expect("read values");
    let mut leaves: Vec<[u8; 32]> = text
        .lines()
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (a, v) = l.split_once(',').expect("two columns");
            let mut enc = [0u8; 64];
            let addr = unhex(a);
            enc[32 - addr.len()..32].copy_from_slice(&addr);
            enc[32..].copy_from_slice(&decimal_word(v.trim()));
            keccak(&keccak(&enc))
        })
        .collect();
    leaves.sort_unstable();
    let tree = MerkleTree::<SortedKeccak>::from_leaves(&leaves);
    let mut w = BufWriter::new(File::create(out).expect("create out"));
    writeln!(w, "{}", hex(&tree.root().expect("a root"))).unwrap();
    for i in 0..leaves.len() {
        let p = tree.proof(&[i]);
        let hs: Vec<String> = p.proof_hashes().iter().map(|h| hex(h)).collect();
        writeln!(w, "{}", hs.join(",")).unwrap();
    }
    w.flush().unwrap();
}

/// CPU time of every thread of this process so far, in seconds
/// (`/proc/self/task/*/schedstat`, nanoseconds on a CPU; 0 elsewhere).
fn cpu_s() -> f64 {
    let mut ns = 0u64;
    if let Ok(d) = std::fs::read_dir("/proc/self/task") {
        for t in d.flatten() {
            if let Ok(s) = std::fs::read_to_string(t.path().join("schedstat")) {
                ns += s
                    .split_whitespace()
                    .next()
                    .and_then(|x| x.parse().ok())
                    .unwrap_or(0);
            }
        }
    }
    ns as f64 * 1e-9
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn levels(n: usize, reps: usize) {
    let spec = LaneSpec::new(136, 24, 0x01).unwrap();
    let engine = Threads::new(keccakx::engine::current());
    let mut x = 0x9e3779b97f4a7c15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let leaves: Vec<Hash> = (0..n)
        .map(|_| {
            let mut h = [0u8; 32];
            for c in h.chunks_mut(8) {
                c.copy_from_slice(&next().to_le_bytes());
            }
            h
        })
        .collect();
    let msgs: Vec<[u8; 64]> = (0..n - 1)
        .map(|i| {
            let mut m = [0u8; 64];
            m[..32].copy_from_slice(&leaves[i]);
            m[32..].copy_from_slice(&leaves[i + 1]);
            m
        })
        .collect();
    let refs: Vec<&[u8]> = msgs.iter().map(|m| &m[..]).collect();
    let mut out = vec![0u8; 32 * refs.len()];
    // Level sizes as build_nodes walks them (root last).
    let mut sizes = Vec::new();
    let mut hi = n - 1;
    while hi > 0 {
        sizes.push(hi - hi / 2);
        hi /= 2;
    }
    let mut batch = Vec::new();
    let mut batch_cold = Vec::new();
    let (mut batch_cpu, mut tree_cpu) = (Vec::new(), Vec::new());
    let mut tree_total = Vec::new();
    let mut tree_cold = Vec::new();
    let mut setup = Vec::new();
    let mut per_level: Vec<Vec<f64>> = vec![Vec::new(); sizes.len()];
    let mut tree: Vec<Hash> = Vec::new();
    // One warm-up of each (page faults, thread pool), then REPS runs, the
    // four measurements alternated within each run.
    for rep in 0..=reps {
        // Warm: the batch into its reused output, the tree into its reused array.
        let (t, c) = (Instant::now(), cpu_s());
        engine.hash_many(&spec, &refs, 32, &mut out);
        let batch_rate = (n - 1) as f64 / t.elapsed().as_secs_f64();
        let batch_cpu_rate = (n - 1) as f64 / (cpu_s() - c);
        let mut stamps = Vec::new();
        let (t, c) = (Instant::now(), cpu_s());
        let mut done = 0usize;
        build_nodes_into(&leaves, &mut tree, &engine, &mut |k| {
            done += k;
            stamps.push((done, t.elapsed().as_secs_f64()));
        })
        .unwrap();
        let total = t.elapsed().as_secs_f64();
        let tree_cpu_rate = (n - 1) as f64 / (cpu_s() - c);
        std::hint::black_box(&tree);
        // Cold: a fresh output, a fresh array (first touch of every page).
        let t = Instant::now();
        let mut fresh = vec![0u8; 32 * refs.len()];
        engine.hash_many(&spec, &refs, 32, &mut fresh);
        let batch_cold_rate = (n - 1) as f64 / t.elapsed().as_secs_f64();
        drop(std::hint::black_box(fresh));
        let t = Instant::now();
        let nodes = build_nodes(&leaves, &engine, &mut |_| {}).unwrap();
        let tree_cold_rate = (n - 1) as f64 / t.elapsed().as_secs_f64();
        drop(std::hint::black_box(nodes));
        if rep == 0 {
            continue;
        }
        batch.push(batch_rate);
        batch_cpu.push(batch_cpu_rate);
        tree_cpu.push(tree_cpu_rate);
        batch_cold.push(batch_cold_rate);
        tree_total.push((n - 1) as f64 / total);
        tree_cold.push(tree_cold_rate);
        setup.push(stamps[0].1);
        // Levels are timed from the first tick (leaves in place).
        let (mut at, mut prev_t, mut level) = (0usize, stamps[0].1, 0usize);
        let mut want = sizes[0];
        for &(d, ts) in &stamps[1..] {
            if d == at + want {
                per_level[level].push(want as f64 / (ts - prev_t).max(1e-9));
                at = d;
                prev_t = ts;
                level += 1;
                if level < sizes.len() {
                    want = sizes[level];
                }
            }
        }
    }
    let lv: Vec<String> = sizes
        .iter()
        .zip(&per_level)
        .map(|(s, r)| format!("{{\"nodes\":{s},\"nodes_per_s\":{:.1}}}", median(r.clone())))
        .collect();
    println!(
        "{{\"leaves\":{n},\"reps\":{reps},\"engine\":\"{}\",\"threads\":{},\"batch_64B_msgs_per_s\":{:.1},\"tree_nodes_per_s\":{:.1},\"batch_64B_fresh_output_msgs_per_s\":{:.1},\"tree_fresh_array_nodes_per_s\":{:.1},\"leaf_placement_s\":{:.6},\"batch_64B_msgs_per_cpu_s\":{:.1},\"tree_nodes_per_cpu_s\":{:.1},\"best_batch_64B_msgs_per_s\":{:.1},\"best_tree_nodes_per_s\":{:.1},\"note\":\"alternated in each run; tree_nodes_per_s: the whole build_nodes_into call (leaves placed into a reused array, then every level) against the batch into a reused output; *_fresh_*: build_nodes into a new array against the batch into a new output (every page first touched); levels: from the leaves in place; *_per_cpu_s: per second of CPU time of all threads (the machine's load left out); best_*: the fastest run\",\"levels\":[{}]}}",
        keccakx::engine::current().name(),
        rayon::current_num_threads(),
        median(batch.clone()),
        median(tree_total.clone()),
        median(batch_cold),
        median(tree_cold),
        median(setup),
        median(batch_cpu),
        median(tree_cpu),
        batch.iter().cloned().fold(0.0, f64::max),
        tree_total.iter().cloned().fold(0.0, f64::max),
        lv.join(",")
    );
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    match a.get(1).map(String::as_str) {
        Some("rs-merkle") if a.len() == 4 => rs_merkle_peer(&a[2], &a[3]),
        Some("levels") if a.len() == 4 => {
            levels(a[2].parse().expect("N"), a[3].parse().expect("REPS"))
        }
        _ => {
            eprintln!("usage: merkle-bench rs-merkle VALUES.csv OUT | merkle-bench levels N REPS");
            std::process::exit(2);
        }
    }
}
