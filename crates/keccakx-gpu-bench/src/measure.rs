//! What every section uses: test data, best-of timing, the check of a GPU
//! result against the CPU's (a wrong one ends the run with status 1), the
//! CPU peer.

use std::time::Instant;

use rayon::prelude::*;

/// Integer instructions per Keccak-f\[1600\] round in the ceiling model
/// (../shared/GPU.md: LOP3 for chi/theta, two funnel shifts per 64-bit
/// rotation, about 180 per round; the sm_90 SASS has 193.7, docs/gpu.md).
pub(crate) const INSTR_PER_ROUND: f64 = 180.0;

/// Fill `buf` with pseudo-random bytes on all cores (xorshift per 1 MiB).
pub(crate) fn fill(buf: &mut [u8], seed: u64) {
    buf.par_chunks_mut(1 << 20).enumerate().for_each(|(i, c)| {
        let mut s = seed ^ (i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for w in c.chunks_mut(8) {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            w.copy_from_slice(&s.to_le_bytes()[..w.len()]);
        }
    });
}

pub(crate) fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    eprintln!("keccakx-gpu-bench: {what}: {e}");
    std::process::exit(1);
}

pub(crate) fn check<T: PartialEq>(what: &str, ok: T, want: T) {
    if ok != want {
        eprintln!("keccakx-gpu-bench: WRONG RESULT in {what}");
        std::process::exit(1);
    }
}

/// Best wall time of `reps` runs of `f`, in seconds.
pub(crate) fn best_of(reps: usize, mut f: impl FnMut()) -> f64 {
    (0..reps.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

pub(crate) fn gbs(bytes: f64, s: f64) -> f64 {
    bytes / s / 1e9
}

/// Fill a device output buffer with 0xA5 before a kernel's checked run, so
/// that a kernel writing nothing cannot pass on the digests an earlier
/// kernel left there.
pub(crate) fn poison(
    gpu: &keccakx_gpu::GpuHasher,
    d: &mut keccakx_gpu::cudarc::driver::CudaSlice<u8>,
) {
    let stream = gpu.stream();
    let host = vec![0xA5u8; d.len()];
    stream
        .memcpy_htod(&host, d)
        .and_then(|()| stream.synchronize())
        .unwrap_or_else(|e| fail("poisoning the output buffer", e));
}
