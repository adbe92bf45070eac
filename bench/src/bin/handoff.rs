//! `cargo run --release -p keccakx-bench --bin keccakx-handoff`: what handing
//! work to a second core costs on this machine, to read the 2-thread rows of
//! the CPU benchmark by (bench/NOTES.md).
//!
//! 1. `rayon::join` of two 50 µs busy loops, with 0/5/20/100 µs of serial
//!    work between joins: the ideal is 50 µs a join; the excess is the
//!    hand-off (queueing, stealing, waking a sleeping worker).
//! 2. The 127 KT128 leaves of a 1 MiB input through `engine::hash_many` on 1
//!    and on all threads, and the serial rest of KT128 (first chunk and
//!    final node), so the 1 MiB scaling can be split into its parts.
//!
//! Wall clock, best of three rounds of a few thousand repetitions each.

use std::hint::black_box;
use std::time::Instant;

use keccakx::engine;
use keccakx::rfc9861::{Kt128, Kt128FinalNode};

fn spin(us: f64) {
    let s = Instant::now();
    while s.elapsed().as_secs_f64() * 1e6 < us {}
}

/// Best of three rounds of `n` calls, in µs per call.
fn best_us(n: usize, mut f: impl FnMut()) -> f64 {
    (0..3)
        .map(|_| {
            let s = Instant::now();
            for _ in 0..n {
                f();
            }
            s.elapsed().as_secs_f64() / n as f64 * 1e6
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    println!(
        "cores: {}",
        std::thread::available_parallelism().map_or(1, |n| n.get())
    );
    for gap in [0.0f64, 5.0, 20.0, 100.0] {
        let per = best_us(2000, || {
            rayon::join(|| spin(50.0), || spin(50.0));
            spin(gap);
        }) - gap;
        println!("rayon::join of 2 x 50 us, {gap:>5.1} us serial between: {per:6.1} us a join (ideal 50.0)");
    }
    let data: Vec<u8> = (0..1u32 << 20)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
        .collect();
    let spec = Kt128FinalNode::LEAF_SPEC;
    let leaves: Vec<&[u8]> = data[Kt128FinalNode::CHUNK_LEN..]
        .chunks(Kt128FinalNode::CHUNK_LEN)
        .collect();
    let mut cvs = vec![0u8; leaves.len() * Kt128FinalNode::CV_LEN];
    for (label, t) in [("1 thread", 1usize), ("all threads", 0)] {
        engine::set_threads(t);
        let leaves_us = best_us(1000, || {
            engine::hash_many(&spec, &leaves, Kt128FinalNode::CV_LEN, &mut cvs)
        });
        let kt_us = best_us(1000, || {
            let mut k = Kt128::new(b"");
            k.update(&data);
            black_box(k.finalize_vec(32));
        });
        println!(
            "KT128 1 MiB, {label:>11}: {} leaves {leaves_us:6.1} us, whole KT128 {kt_us:6.1} us",
            leaves.len()
        );
    }
    let serial_us = best_us(1000, || {
        let mut f = Kt128FinalNode::new();
        f.absorb_first_chunk(&data[..Kt128FinalNode::CHUNK_LEN]);
        f.absorb_chaining_values(&cvs).expect("whole values");
        black_box(f.finalize_vec(32));
    });
    println!("KT128 1 MiB, serial part (first chunk + final node): {serial_us:6.1} us");
    engine::set_threads(0);
}
