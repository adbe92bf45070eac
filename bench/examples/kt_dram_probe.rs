//! In-process probe of one-thread KT128 from DRAM and from cache: keccakx
//! against XKCP's K12 (bench/NOTES.md "KT128 from the
//! shell", "KT128 ×8 leaves"). Thread CPU time (CLOCK_THREAD_CPUTIME_ID)
//! per call, the two implementations alternated (order swapped every
//! round), medians.
//!   cargo run --release -p keccakx-bench --example kt_dram_probe -- [ROUNDS]
//! Rows: ~256 MiB hashed once per sample (8x the L3: every byte comes from
//! DRAM; `HUGE=1` puts it on 2 MiB pages), 8 MiB x32 (L3), 1 MiB x256 and
//! 256 KiB x1024 (L2), each 8 KiB (S_0) plus a multiple of 64 KiB, so
//! that every leaf goes through both libraries' 8-leaf kernels.

fn thread_ns() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e9 + ts.tv_nsec as f64
}

fn kx(d: &[u8]) -> [u8; 32] {
    let mut h = keccakx::rfc9861::Kt128::new(b"");
    h.update(d);
    let mut o = [0u8; 32];
    h.finalize_into(&mut o);
    o
}

fn xkcp(d: &[u8]) -> [u8; 32] {
    let mut h = kangarootwelve_xkcp::Hasher::new();
    h.update(d);
    *h.finalize().as_bytes()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(15);
    keccakx::engine::set_threads(1);
    // HUGE=1: the 256 MiB buffer on 2 MiB pages (as a file with large
    // folios is mapped), else 4 KiB pages (THP is `madvise` here).
    let huge = std::env::var("HUGE").is_ok_and(|v| v == "1");
    let len = 256 << 20;
    // SAFETY: a fresh private anonymous mapping, never unmapped (process life).
    let big: &mut [u8] = unsafe {
        let p = libc::mmap(
            std::ptr::null_mut(),
            len + (2 << 20),
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
            -1,
            0,
        );
        assert!(p != libc::MAP_FAILED);
        let a = ((p as usize + (2 << 20) - 1) & !((2 << 20) - 1)) as *mut u8;
        if huge {
            libc::madvise(a as *mut libc::c_void, len, libc::MADV_HUGEPAGE);
        }
        std::slice::from_raw_parts_mut(a, len)
    };
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for w in big.chunks_mut(8) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        w.copy_from_slice(&x.to_le_bytes());
    }
    assert_eq!(kx(big), xkcp(big), "digests differ");
    let big: &[u8] = big;
    type Row<'a> = (&'static str, &'a [u8], usize);
    // Sizes S_0 + a multiple of 8 leaves: every leaf goes through the ×8
    // kernel in both libraries (no 4/2/1-leaf remainders).
    let tail = 8 << 10;
    let rows: [Row; 4] = [
        ("256 MiB DRAM", &big[..(256 << 20) - (64 << 10) + tail], 1),
        ("8 MiB x32 L3", &big[..(8 << 20) + tail], 32),
        ("1 MiB x256 L2", &big[..(1 << 20) + tail], 256),
        ("256 KiB x1024 L2", &big[..(256 << 10) + tail], 1024),
    ];

    for (name, d, reps) in rows {
        let mut t = [Vec::new(), Vec::new()];
        for r in 0..rounds {
            for k in 0..2 {
                let which = (k + r) % 2;
                let t0 = thread_ns();
                for _ in 0..reps {
                    std::hint::black_box(if which == 0 { kx(d) } else { xkcp(d) });
                }
                t[which].push((thread_ns() - t0) / 1e6);
            }
        }
        let mut ratios: Vec<f64> = t[0].iter().zip(&t[1]).map(|(a, b)| a / b).collect();
        let (mk, mx) = (median(&mut t[0].clone()), median(&mut t[1].clone()));
        let fk = t[0].iter().cloned().fold(f64::MAX, f64::min);
        let fx = t[1].iter().cloned().fold(f64::MAX, f64::min);
        println!(
            "{name:18} keccakx {mk:6.2} ms (min {fk:6.2})  XKCP {mx:6.2} ms (min {fx:6.2})  kx/xkcp median-of-ratios {:.3}",
            median(&mut ratios)
        );
    }
}
