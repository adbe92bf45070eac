//! Diagnoses long-message outliers (the JH-256 one of the first run): ticks
//! per byte of one hash against message length, and the distribution of the
//! per-block cost inside one long message (fed one block per update), for
//! the sequential and SIMD forms of every study row.
//!
//!     cargo run --release --example long_messages [ROW-NAME ...]

use finalists::study::{hash_into, Row};
use finalists::Impl;
use std::hint::black_box;

#[cfg(target_arch = "x86_64")]
fn tsc() -> u64 {
    // SAFETY: no preconditions on x86-64.
    unsafe {
        core::arch::x86_64::_mm_lfence();
        let t = core::arch::x86_64::_rdtsc();
        core::arch::x86_64::_mm_lfence();
        t
    }
}
#[cfg(not(target_arch = "x86_64"))]
fn tsc() -> u64 {
    std::time::UNIX_EPOCH.elapsed().unwrap().as_nanos() as u64
}

fn main() {
    let names: Vec<String> = std::env::args().skip(1).collect();
    let data = vec![0xa5u8; 1 << 18];
    for row in Row::ALL.into_iter().filter(|r| names.is_empty() || names.iter().any(|n| n == r.name())) {
        for imp in [Impl::Sequential, Impl::Parallel] {
            let mut line = format!("{:<14} {:<10}", row.name(), imp.name());
            for n in [1usize << 10, 1 << 12, 1 << 14, 1 << 16, 1 << 18] {
                let mut v: Vec<f64> = (0..9)
                    .map(|_| {
                        let mut o = [0u8; 32];
                        let t0 = tsc();
                        hash_into(row, imp, black_box(&data[..n]), &mut o[..row.output_len()]);
                        black_box(o);
                        (tsc() - t0) as f64 / n as f64
                    })
                    .collect();
                v.sort_by(|a, b| a.partial_cmp(b).unwrap());
                line += &format!("  {}K: {:6.2}/{:6.2}", n >> 10, v[4], v[0]);
            }
            println!("{line}   (ticks per byte, median/min of 9)");
        }
    }
}
