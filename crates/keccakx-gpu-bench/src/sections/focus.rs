//! `--focus`: only what the second GPU round measures, each new path beside
//! the one it replaces in the same run (sized for about 2-3 minutes on an
//! H100/H200; bench/NOTES.md has the figures expected before the run):
//! - `batch64`: SHA3-256 of 64 KiB × 2^16 device-resident, the run-time-rate
//!   direct kernel (`DirectAnyRate`) against the rate-specialized one
//!   (`Direct`) and `Auto`, alternated;
//! - `kt`: KT128 of 1 and 4 GiB device-resident, the old setting (run-time
//!   rate kernel, fixed groups of 2^18 leaves) against the new (small first
//!   launch, doubling), with the kernel / final node / wall split;
//! - `host`: SHA3-256 host-fed strided (64 KiB × 2^14, 4 KiB × 2^18: 1 GiB
//!   each) staged, registered for the call and from memory the caller
//!   keeps registered, against the H2D copy bandwidth of this run;
//! - `merkle`: an OpenZeppelin tree of 2^24 leaves built in device memory
//!   (leaves uploaded first), root checked against the CPU, beside the
//!   CPU's own build on all cores.
//!
//! Every result is checked against the CPU (a wrong one ends the run).

use keccakx::engine::LaneSpec;
use keccakx_gpu::cudarc::driver::DevicePtr;
use keccakx_gpu::{BatchKernel, HostInput, KtVariant, Layout};

use super::context::Ctx;
use crate::measure::{best_of, check, fail, fill, gbs, poison};
use crate::report::{obj, Deadline, Report, J};

/// The parts `--focus-part` may name.
pub(crate) const PARTS: [&str; 4] = ["batch64", "kt", "host", "merkle"];

pub(crate) fn run(cx: &Ctx, r: &mut Report, dl: Deadline, part: Option<&str>) {
    let want = |p: &str| part.is_none_or(|x| x == p) && !dl.passed();
    if want("batch64") {
        batch64(cx, r);
    }
    if want("kt") {
        kt(cx, r);
    }
    if want("host") {
        host(cx, r);
    }
    if want("merkle") {
        merkle(cx, r);
    }
}

fn sha3() -> LaneSpec {
    LaneSpec::new(136, 24, 0x06).unwrap_or_else(|e| fail("spec", e))
}

fn batch64(cx: &Ctx, r: &mut Report) {
    let gpu = &cx.gpu;
    let (len, count) = (64usize << 10, 1usize << 16);
    let spec = sha3();
    let mut host = vec![0u8; len * count];
    fill(&mut host, 64);
    let msgs: Vec<&[u8]> = host.chunks(len).collect();
    let mut want = vec![0u8; count * 32];
    keccakx::engine::hash_many(&spec, &msgs, 32, &mut want);
    let d = gpu.upload(&host).unwrap_or_else(|e| fail("upload", e));
    drop(host);
    let mut d_out = gpu
        .alloc_zeros(count * 32)
        .unwrap_or_else(|e| fail("alloc", e));
    let lay = Layout::Uniform {
        count,
        stride: len as u64,
        len: len as u64,
    };
    let kernels = [
        BatchKernel::DirectAnyRate,
        BatchKernel::Direct,
        BatchKernel::Auto,
    ];
    let mut best = [f64::INFINITY; 3];
    // Alternated, three rounds; the first run of each checked.
    for round in 0..3 {
        for (k, &kernel) in kernels.iter().enumerate() {
            gpu.set_batch_kernel(kernel);
            if round == 0 {
                poison(gpu, &mut d_out);
            }
            gpu.hash_many_device_to_device(&spec, &d, lay, 32, &mut d_out)
                .unwrap_or_else(|e| fail("64 KiB batch", e));
            best[k] = best[k].min(gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3);
            if round == 0 {
                let out = gpu.download(&d_out).unwrap_or_else(|e| fail("download", e));
                check(&format!("{kernel:?} 64 KiB x 2^16"), out == want, true);
            }
        }
    }
    gpu.set_batch_kernel(BatchKernel::Auto);
    let bytes = (len * count) as f64;
    let row = |k: usize| {
        obj![
            ("kernel", format!("{:?}", kernels[k])),
            ("kernel_s", best[k]),
            ("bytes_per_s", bytes / best[k]),
            (
                "ratio_to_alu_bound",
                cx.alu24.map(|b| (bytes / 136.0).ceil() / best[k] / b)
            ),
        ]
    };
    r.set(
        "focus_batch64",
        obj![
            ("message_bytes", len),
            ("messages", count),
            ("kernels", J::Arr((0..3).map(row).collect())),
            ("speedup_new_over_old", best[0] / best[1]),
        ],
    );
    r.key(format!(
        "focus SHA3-256 64 KiB x 2^16 device-resident: run-time-rate direct {:.1} GB/s, rate-specialized {:.1} GB/s ({:.2}x), Auto {:.1} GB/s (target 450)",
        gbs(bytes, best[0]),
        gbs(bytes, best[1]),
        best[0] / best[1],
        gbs(bytes, best[2])
    ));
}

fn kt(cx: &Ctx, r: &mut Report) {
    let gpu = &cx.gpu;
    let mut rows = Vec::new();
    let mut line = Vec::new();
    let mut big = vec![0u8; 4 << 30];
    fill(&mut big, 128);
    for n in [1usize << 30, 4 << 30] {
        let data = &big[..n];
        let mut want = [0u8; 32];
        let mut h = keccakx::rfc9861::Kt128::new(b"");
        h.update(data);
        h.finalize_into(&mut want);
        let d = gpu.upload(data).unwrap_or_else(|e| fail("upload", e));
        // (label, kernel, first group, largest group)
        let settings = [
            ("old", BatchKernel::DirectAnyRate, 1u64 << 18, 1u64 << 18),
            (
                "new",
                BatchKernel::Auto,
                keccakx_gpu::FIRST_GROUP_LEAVES,
                keccakx_gpu::MAX_GROUP_LEAVES,
            ),
        ];
        let mut best = [(f64::INFINITY, keccakx_gpu::LeavesStats::default()); 2];
        for _round in 0..3 {
            for (k, &(_, kernel, first, max)) in settings.iter().enumerate() {
                gpu.set_batch_kernel(kernel);
                gpu.set_leaf_groups(first, max);
                let mut got = [0xA5u8; 32];
                let s = best_of(1, || {
                    gpu.kt_device(KtVariant::Kt128, &d, b"", &mut got)
                        .unwrap_or_else(|e| fail("KT128 device-resident", e))
                });
                check(&format!("KT128 {n} B ({})", settings[k].0), got, want);
                if s < best[k].0 {
                    best[k] = (s, gpu.last_leaves_stats());
                }
            }
        }
        gpu.set_batch_kernel(BatchKernel::Auto);
        gpu.set_leaf_groups(
            keccakx_gpu::FIRST_GROUP_LEAVES,
            keccakx_gpu::MAX_GROUP_LEAVES,
        );
        for (k, (s, st)) in best.iter().enumerate() {
            rows.push(obj![
                ("bytes", n),
                ("setting", settings[k].0),
                ("kernel", format!("{:?}", settings[k].1)),
                ("wall_s", *s),
                ("bytes_per_s", n as f64 / s),
                ("leaf_groups", st.groups),
                ("leaves_kernel_s", st.kernel_s),
                ("sink_s", st.sink_s),
                ("leaves_wall_s", st.wall_s),
                ("first_group_ready_s", st.first_ready_s),
            ]);
        }
        line.push(format!(
            "{} GiB old {:.0} / new {:.0} GB/s (new: kernels {:.1} ms, final node {:.1} ms, first values after {:.2} ms, {} launches)",
            n >> 30,
            gbs(n as f64, best[0].0),
            gbs(n as f64, best[1].0),
            best[1].1.kernel_s * 1e3,
            best[1].1.sink_s * 1e3,
            best[1].1.first_ready_s * 1e3,
            best[1].1.groups
        ));
        r.set("focus_kt128", J::Arr(rows.clone()));
    }
    r.key(format!(
        "focus KT128 device-resident: {} (targets 220 at 1 GiB, 280 at 4 GiB)",
        line.join("; ")
    ));
}

fn host(cx: &Ctx, r: &mut Report) {
    let gpu = &cx.gpu;
    let spec = sha3();
    let mut rows = Vec::new();
    let mut line = Vec::new();
    for (len, count) in [(64usize << 10, 1usize << 14), (4 << 10, 1 << 18)] {
        let mut data = vec![0u8; len * count];
        fill(&mut data, len as u64 + 7);
        let msgs: Vec<&[u8]> = data.chunks(len).collect();
        let mut want = vec![0u8; count * 32];
        keccakx::engine::hash_many(&spec, &msgs, 32, &mut want);
        drop(msgs);
        let bytes = data.len() as f64;
        let mut best = [f64::INFINITY; 3];
        let mut how = [HostInput::Staged; 3];
        let mut out = vec![0u8; count * 32];
        for _round in 0..3 {
            for k in 0..3 {
                out.fill(0xA5);
                let s = match k {
                    0 | 1 => {
                        gpu.set_register_min_bytes(if k == 0 { usize::MAX } else { 0 });
                        best_of(1, || {
                            gpu.hash_strided(&spec, &data, len, len, count, 32, &mut out)
                                .unwrap_or_else(|e| fail("host-fed strided", e))
                        })
                    }
                    _ => {
                        let reg = gpu
                            .register_host(&data)
                            .unwrap_or_else(|e| fail("register_host", e));
                        let s = best_of(1, || {
                            gpu.hash_strided(&spec, reg.bytes(), len, len, count, 32, &mut out)
                                .unwrap_or_else(|e| fail("host-fed strided", e))
                        });
                        drop(reg);
                        s
                    }
                };
                how[k] = gpu.last_pipeline_stats().host_input;
                check(&format!("host-fed {len} B ({:?})", how[k]), &out, &want);
                best[k] = best[k].min(s);
            }
        }
        gpu.set_register_min_bytes(keccakx_gpu::DEFAULT_REGISTER_MIN_BYTES);
        for k in 0..3 {
            rows.push(obj![
                ("message_bytes", len),
                ("messages", count),
                ("input", format!("{:?}", how[k])),
                ("seconds", best[k]),
                ("bytes_per_s", bytes / best[k]),
                ("ratio_to_h2d", bytes / best[k] / cx.h2d),
            ]);
        }
        line.push(format!(
            "{} KiB staged {:.0}% / registered per call {:.0}% / kept registered {:.0}% of H2D",
            len >> 10,
            100.0 * bytes / best[0] / cx.h2d,
            100.0 * bytes / best[1] / cx.h2d,
            100.0 * bytes / best[2] / cx.h2d
        ));
        r.set("focus_host_fed", J::Arr(rows.clone()));
    }
    r.key(format!(
        "focus host-fed SHA3-256 strided (H2D {:.1} GB/s): {} (target 80%)",
        cx.h2d / 1e9,
        line.join("; ")
    ));
}

fn merkle(cx: &Ctx, r: &mut Report) {
    let gpu = &cx.gpu;
    let n = 1usize << 24;
    let mut raw = vec![0u8; n * 32];
    fill(&mut raw, 24);
    let leaves: Vec<[u8; 32]> = raw
        .chunks_exact(32)
        .map(|c| c.try_into().unwrap_or([0; 32]))
        .collect();
    let t = std::time::Instant::now();
    let cpu_tree =
        keccakx::engine::on_cores(|e| keccakx::merkle::build_nodes(&leaves, e, &mut |_| {}))
            .unwrap_or_else(|e| fail("CPU Merkle tree", e));
    let cpu_s = t.elapsed().as_secs_f64();
    let d = gpu.upload(&raw).unwrap_or_else(|e| fail("upload", e));
    let stream = gpu.stream();
    let (ptr, _sync) = d.device_ptr(&stream);
    let (mut wall, mut kernel) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..3 {
        let t = std::time::Instant::now();
        // SAFETY: `d` holds n * 32 bytes on this hasher's device.
        let root = unsafe { gpu.merkle_tree_raw(ptr, n as u64, None, None) }
            .unwrap_or_else(|e| fail("Merkle tree on the device", e));
        wall = wall.min(t.elapsed().as_secs_f64());
        kernel = kernel.min(gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3);
        check("Merkle root of 2^24 leaves", root, cpu_tree[0]);
    }
    r.set(
        "focus_merkle",
        obj![
            ("leaves", n),
            ("device_kernels_s", kernel),
            ("device_wall_s", wall),
            ("cpu_s", cpu_s),
            ("cpu_threads", cx.cores),
            ("nodes_per_s", (n - 1) as f64 / kernel),
        ],
    );
    r.key(format!(
        "focus Merkle 2^24 leaves device-resident: root in {:.1} ms (kernels {:.1} ms; target 20), CPU x{} {:.0} ms",
        wall * 1e3,
        kernel * 1e3,
        cx.cores,
        cpu_s * 1e3
    ));
}
