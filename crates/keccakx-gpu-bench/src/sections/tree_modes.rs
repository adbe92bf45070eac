//! `trees`: KT128, KT256, ParallelHash128/256 device-resident and host-fed
//! against keccakx on all cores.

use keccakx_gpu::{GpuEngine, GpuHasher, KtVariant, PhVariant};

use super::context::Ctx;
use crate::measure::{best_of, check, fail, fill, gbs};
use crate::report::{obj, Deadline, Report, J};

#[derive(Clone, Copy, Debug)]
enum Mode {
    Kt(KtVariant),
    Ph(PhVariant),
}

impl Mode {
    const PH_BLOCK: usize = 8192;
    fn name(self) -> &'static str {
        match self {
            Mode::Kt(KtVariant::Kt128) => "KT128",
            Mode::Kt(KtVariant::Kt256) => "KT256",
            Mode::Ph(PhVariant::Ph128) => "ParallelHash128",
            Mode::Ph(PhVariant::Ph256) => "ParallelHash256",
        }
    }
    fn cpu(self, data: &[u8], out: &mut [u8]) {
        use keccakx::rfc9861::{Kt128, Kt256};
        use keccakx::sp800_185::{ParallelHash128, ParallelHash256};
        match self {
            Mode::Kt(KtVariant::Kt128) => {
                let mut h = Kt128::new(b"");
                h.update(data);
                h.finalize_into(out)
            }
            Mode::Kt(KtVariant::Kt256) => {
                let mut h = Kt256::new(b"");
                h.update(data);
                h.finalize_into(out)
            }
            Mode::Ph(PhVariant::Ph128) => {
                let mut h =
                    ParallelHash128::new(Self::PH_BLOCK, b"").unwrap_or_else(|e| fail("PH", e));
                h.update(data);
                h.finalize_into(out)
            }
            Mode::Ph(PhVariant::Ph256) => {
                let mut h =
                    ParallelHash256::new(Self::PH_BLOCK, b"").unwrap_or_else(|e| fail("PH", e));
                h.update(data);
                h.finalize_into(out)
            }
        }
    }
    /// KT's serial part, on one core: the final node absorbing the chaining
    /// values of `n` bytes of input (S_0, then CV_LEN bytes per further
    /// 8 KiB chunk). No engine can hash KT faster than n / this time.
    fn final_node_s(self, n: usize) -> Option<f64> {
        use keccakx::rfc9861::KtFinalNode;
        /// Best of 3 of one final node of rate R over `leaves` values.
        fn time<const R: usize>(leaves: usize) -> f64 {
            let s0 = vec![7u8; KtFinalNode::<R>::CHUNK_LEN];
            let cvs = vec![0x5au8; leaves * KtFinalNode::<R>::CV_LEN];
            best_of(3, || {
                let mut node = KtFinalNode::<R>::new();
                node.absorb_first_chunk(&s0);
                node.absorb_chaining_values(&cvs)
                    .unwrap_or_else(|e| fail("final node", e));
                std::hint::black_box(node.finalize_vec(KtFinalNode::<R>::CV_LEN));
            })
        }
        let Mode::Kt(v) = self else { return None };
        let leaves = n.saturating_sub(1) / KtFinalNode::<168>::CHUNK_LEN;
        Some(match v {
            KtVariant::Kt128 => time::<168>(leaves),
            KtVariant::Kt256 => time::<136>(leaves),
        })
    }
    fn host(self, e: &GpuEngine, data: &[u8], out: &mut [u8]) {
        match self {
            Mode::Kt(v) => e.kt(v, data, b"", out),
            Mode::Ph(v) => e.parallelhash(v, data, Self::PH_BLOCK, b"", false, out),
        }
        .unwrap_or_else(|err| fail(&format!("{} host-fed", self.name()), err))
    }
    fn device(self, g: &GpuHasher, d: &keccakx_gpu::cudarc::driver::CudaSlice<u8>, out: &mut [u8]) {
        match self {
            Mode::Kt(v) => g.kt_device(v, d, b"", out),
            Mode::Ph(v) => g.parallelhash_device(v, d, Self::PH_BLOCK, b"", false, out),
        }
        .unwrap_or_else(|err| fail(&format!("{} device-resident", self.name()), err))
    }
}

/// KT128, KT256, ParallelHash128/256 from 64 KiB to 4 GiB.
pub(super) fn run(cx: &Ctx, r: &mut Report, dl: Deadline) {
    let sizes: &[usize] = if cx.quick {
        &[64 << 10, 16 << 20, 256 << 20]
    } else {
        &[64 << 10, 1 << 20, 16 << 20, 256 << 20, 1 << 30, 4 << 30]
    };
    let modes = [
        Mode::Kt(KtVariant::Kt128),
        Mode::Kt(KtVariant::Kt256),
        Mode::Ph(PhVariant::Ph128),
        Mode::Ph(PhVariant::Ph256),
    ];
    let max = *sizes.last().unwrap_or(&0);
    let mut big = vec![0u8; max];
    fill(&mut big, 21);
    // Every leaf batch on the GPU (no cost routing): the GPU's own figure.
    let engine = GpuEngine::from_hasher(cx.gpu.clone()).with_routing(false);
    let mut rows = Vec::new();
    let mut last: Vec<String> = Vec::new();
    for &n in sizes {
        if dl.passed() {
            rows.push(obj![("bytes", n), ("skipped", "deadline")]);
            continue;
        }
        let data = &big[..n];
        let d = cx.gpu.upload(data).unwrap_or_else(|e| fail("upload", e));
        let reps = if n >= 1 << 30 { 2 } else { 3 };
        last.clear();
        for m in modes {
            let (mut want, mut got) = ([0u8; 64], [0u8; 64]);
            let c = best_of(reps, || m.cpu(data, &mut want));
            let dev = best_of(reps, || m.device(&cx.gpu, &d, &mut got));
            check(&format!("{} device-resident {n} B", m.name()), got, want);
            // The last device-resident run's split (CUDA events around each
            // leaf launch; CPU time in the final node's sink).
            let lv = cx.gpu.last_leaves_stats();
            got = [0u8; 64];
            let host = best_of(reps, || m.host(&engine, data, &mut got));
            check(&format!("{} host-fed {n} B", m.name()), got, want);
            let final_s = m.final_node_s(n);
            // One more host-fed hash with the pipeline's totals over its
            // calls (KT and ParallelHash make one call per batch of leaves):
            // where the host-fed time goes.
            cx.gpu.reset_pipeline_totals();
            let t = std::time::Instant::now();
            m.host(&engine, data, &mut got);
            let once_s = t.elapsed().as_secs_f64();
            let (calls, totals) = cx.gpu.pipeline_totals();
            rows.push(obj![
                ("mode", m.name()),
                ("bytes", n),
                ("device_resident_s", dev),
                ("leaves_kernel_s", lv.kernel_s),
                ("sink_s", lv.sink_s),
                ("leaves_wall_s", lv.wall_s),
                ("first_group_ready_s", lv.first_ready_s),
                ("leaf_groups", lv.groups),
                ("host_fed_s", host),
                ("cpu_s", c),
                ("device_resident_bytes_per_s", n as f64 / dev),
                ("host_fed_bytes_per_s", n as f64 / host),
                ("cpu_bytes_per_s", n as f64 / c),
                ("host_fed_ratio_to_h2d", n as f64 / host / cx.h2d),
                ("final_node_one_core_s", final_s),
                ("host_fed_once_s", once_s),
                ("host_fed_gpu_calls", calls),
                (
                    "host_fed_pipeline_totals",
                    super::batch::stats_json(&totals)
                ),
                (
                    "final_node_bound_bytes_per_s",
                    final_s.map(|f| n as f64 / f)
                ),
            ]);
            last.push(format!(
                "{} {:.1}/{:.1}/{:.1}{}",
                m.name(),
                gbs(n as f64, dev),
                gbs(n as f64, host),
                gbs(n as f64, c),
                final_s
                    .map(|f| format!(
                        " (final node on one core bounds it at {:.1})",
                        gbs(n as f64, f)
                    ))
                    .unwrap_or_default()
            ));
            r.set("tree_modes", J::Arr(rows.clone()));
        }
        drop(d);
        r.set("tree_modes", J::Arr(rows.clone()));
        if n == 16 << 20 || n == max {
            r.key(format!(
                "GB/s device/host-fed/CPU x{} at {} MiB: {}",
                cx.cores,
                n >> 20,
                last.join(", ")
            ));
        }
    }
}
