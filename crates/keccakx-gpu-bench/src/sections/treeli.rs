//! `treeli`: tree LI at the 2011 paper's Table 1 sizes.

use keccakx::tree_li::TreeLiParams;
use keccakx_gpu::GpuEngine;

use super::context::Ctx;
use crate::measure::{best_of, check, fail, fill, gbs};
use crate::report::{obj, Deadline, Report, J};

/// Tree LI at the 2011 paper's Table 1 sizes, H = 0..4, D = 4, r = 1024
/// (and 1088), device-resident and host-fed on the GPU against the CPU.
pub(super) fn run(cx: &Ctx, r: &mut Report, dl: Deadline) {
    let sizes: &[usize] = if cx.quick {
        &[1_050_112, 10_500_096]
    } else {
        &[1_050_112, 10_500_096, 25_200_000, 50_400_000]
    };
    let mut msg = vec![0u8; *sizes.last().unwrap_or(&0)];
    fill(&mut msg, 2011);
    let engine = GpuEngine::from_hasher(cx.gpu.clone()).with_routing(false);
    let mut rows = Vec::new();
    let mut summary = Vec::new();
    // The paper's Keccak[r = 1024, c = 576], and (full runs) SHA3-256's
    // Keccak[1088, 512] as in docs/reproduction-gpu-2011.md.
    let rates: &[usize] = if cx.quick { &[1024] } else { &[1024, 1088] };
    for &n in sizes {
        let d = cx
            .gpu
            .upload(&msg[..n])
            .unwrap_or_else(|e| fail("upload", e));
        for (height, &rate) in (0..=4usize).flat_map(|h| rates.iter().map(move |r| (h, r))) {
            if dl.passed() {
                rows.push(obj![
                    ("bytes", n),
                    ("height", height),
                    ("rate_bits", rate),
                    ("skipped", "deadline")
                ]);
                continue;
            }
            let p = TreeLiParams {
                rate_bits: rate,
                capacity_bits: 1600 - rate,
                ..TreeLiParams::paper(height)
            };
            let m = &msg[..n];
            let (mut want, mut got) = ([0u8; 72], [0u8; 72]);
            let c = best_of(3, || {
                keccakx::tree_li::tree_li(&p, m, &mut want).unwrap_or_else(|e| fail("tree LI", e))
            });
            let g = best_of(3, || {
                engine
                    .tree_li(&p, m, &mut got)
                    .unwrap_or_else(|e| fail("tree LI on the GPU", e))
            });
            check(
                &format!("tree LI H={height} r={rate} {n} B host-fed"),
                got,
                want,
            );
            got = [0u8; 72];
            let dev = best_of(3, || {
                cx.gpu
                    .tree_li_device(&p, &d, None, &mut got)
                    .unwrap_or_else(|e| fail("tree LI device-resident", e))
            });
            check(
                &format!("tree LI H={height} r={rate} {n} B device-resident"),
                got,
                want,
            );
            rows.push(obj![
                ("bytes", n),
                ("height", height),
                ("degree", 4usize),
                ("rate_bits", rate),
                ("capacity_bits", 1600 - rate),
                ("host_fed_s", g),
                ("device_resident_s", dev),
                ("cpu_s", c),
                ("host_fed_bytes_per_s", n as f64 / g),
                ("device_resident_bytes_per_s", n as f64 / dev),
                ("cpu_bytes_per_s", n as f64 / c),
            ]);
            if n == *sizes.last().unwrap_or(&0) && rate == 1024 {
                summary.push(format!(
                    "H={height} {:.2}/{:.2}/{:.2}",
                    gbs(n as f64, dev),
                    gbs(n as f64, g),
                    gbs(n as f64, c)
                ));
            }
            r.set("tree_li", obj![("rows", J::Arr(rows.clone()))]);
        }
    }
    r.set("tree_li", obj![("rows", J::Arr(rows))]);
    if !summary.is_empty() {
        r.key(format!(
            "tree LI (D=4, r=1024) GB/s device-resident/host-fed/CPU at {} B: {} (MD5: run-on-gpu.sh md5 step)",
            sizes.last().unwrap_or(&0),
            summary.join(", ")
        ));
    }
}
