//! `batch`: SHA3-256 of 64 B, 1 KiB and 64 KiB messages, device-resident,
//! host-fed (copies, mapped) and on the CPU; then the warp-per-message
//! kernel against one thread per message for few long messages (64 KiB,
//! 64 .. 16384 of them: where `Auto` should switch).

use keccakx::engine::{current, LaneSpec};
use keccakx_gpu::{BatchKernel, InputPath, Layout, PipelineStats};

use super::context::Ctx;
use crate::measure::{best_of, check, fail, fill, gbs, poison};
use crate::report::{obj, Deadline, Report, J};

/// SHA3-256 batches of `len`-byte messages: device-resident, host-fed
/// (copies, mapped), CPU peer. Returns the JSON row.
fn batch_row(cx: &Ctx, r: &mut Report, len: usize, count: usize) -> J {
    let sha3 = LaneSpec::new(136, 24, 0x06).unwrap_or_else(|e| fail("spec", e));
    let bytes = (len * count) as f64;
    let mut host = vec![0u8; len * count];
    fill(&mut host, len as u64);
    let msgs: Vec<&[u8]> = host.chunks(len).collect();
    let reps = if cx.quick { 2 } else { 3 };
    // The CPU peer; its digests are the reference.
    let mut want = vec![0u8; count * 32];
    let cpu_s = best_of(reps, || {
        keccakx::engine::hash_many(&sha3, &msgs, 32, &mut want)
    });
    let mut spot = [0u8; 32];
    sha3.hash_one(msgs[count / 2], &mut spot);
    check(
        "CPU engine against the sponge",
        &want[count / 2 * 32..count / 2 * 32 + 32],
        &spot[..],
    );
    let (dev_rows, dev_auto) = device_resident(cx, &sha3, &host, len, reps, &want);
    let (fed, fed_s) = host_fed(cx, &sha3, &host, &msgs, len, reps, &want);
    r.key(format!(
        "SHA3-256 {len} B x {count}: device {:.1} GB/s ({:.0} M msg/s), host-fed {:.1} GB/s (mapped {:.1}; {:.0}% of H2D; one strided buffer {:.1}, {:.0}%), CPU {} x{} {:.1} GB/s; host-fed/CPU {:.2}x",
        gbs(bytes, dev_auto),
        count as f64 / dev_auto / 1e6,
        gbs(bytes, fed_s[0]),
        gbs(bytes, fed_s[1]),
        100.0 * bytes / fed_s[0] / cx.h2d,
        gbs(bytes, fed_s[2]),
        100.0 * bytes / fed_s[2] / cx.h2d,
        current().name(),
        cx.cores,
        gbs(bytes, cpu_s),
        cpu_s / fed_s[0]
    ));
    obj![
        ("message_bytes", len),
        ("messages", count),
        ("device_resident", J::Arr(dev_rows)),
        ("host_fed", J::Arr(fed)),
        (
            "cpu",
            obj![
                ("engine", current().name()),
                ("threads", cx.cores),
                ("seconds", cpu_s),
                ("bytes_per_s", bytes / cpu_s),
                ("messages_per_s", count as f64 / cpu_s),
            ]
        ),
    ]
}

/// Every batch kernel (64 B) or the main ones on `host` uploaded first:
/// kernel time (events), checked against `want`. The JSON rows and the
/// time `Auto` takes for all the messages.
fn device_resident(
    cx: &Ctx,
    sha3: &LaneSpec,
    host: &[u8],
    len: usize,
    reps: usize,
    want: &[u8],
) -> (Vec<J>, f64) {
    let gpu = &cx.gpu;
    let count = host.len() / len;
    let d_data = gpu.upload(host).unwrap_or_else(|e| fail("upload", e));
    let mut d_out = gpu
        .alloc_zeros(count * 32)
        .unwrap_or_else(|e| fail("alloc", e));
    let kernels: &[BatchKernel] = if len == 64 {
        BatchKernel::ALL
    } else {
        &[
            BatchKernel::Auto,
            BatchKernel::Direct,
            BatchKernel::DirectAnyRate,
            BatchKernel::DoubleBuffered,
            BatchKernel::Staged,
            BatchKernel::DirectImad,
            BatchKernel::Warp,
        ]
    };
    let mut dev_rows = Vec::new();
    let mut dev_auto = f64::NAN;
    for &k in kernels {
        gpu.set_batch_kernel(k);
        // The paper's kernel (25 threads a state) gets a sixteenth.
        let n = if k == BatchKernel::Paper {
            count.div_ceil(16)
        } else {
            count
        };
        let lay = Layout::Uniform {
            count: n,
            stride: len as u64,
            len: len as u64,
        };
        let mut best = f64::INFINITY;
        poison(gpu, &mut d_out);
        for rep in 0..reps {
            gpu.hash_many_device_to_device(sha3, &d_data, lay, 32, &mut d_out)
                .unwrap_or_else(|e| fail("device-resident batch", e));
            best = best.min(gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3);
            if rep == 0 {
                let out = gpu.download(&d_out).unwrap_or_else(|e| fail("download", e));
                check(
                    &format!("{k:?} {len} B device-resident"),
                    &out[..n * 32],
                    &want[..n * 32],
                );
            }
        }
        if k == BatchKernel::Auto {
            dev_auto = best * count as f64 / n as f64;
        }
        dev_rows.push(obj![
            ("kernel", format!("{k:?}")),
            ("messages", n),
            ("kernel_s", best),
            ("bytes_per_s", (n * len) as f64 / best),
            ("messages_per_s", n as f64 / best),
            (
                "ratio_to_alu_bound",
                cx.alu24.map(|b| {
                    let blocks = (len / 136 + 1) as f64 * n as f64;
                    blocks / best / b
                })
            ),
        ]);
    }
    gpu.set_batch_kernel(BatchKernel::Auto);
    drop(d_out);
    drop(d_data);
    (dev_rows, dev_auto)
}

/// Host-fed, from pageable memory through the pipeline: a slice per
/// message with copies, then mapped; then the same bytes as one strided
/// buffer (`hash_strided`, copies). The JSON rows and the three times.
fn host_fed(
    cx: &Ctx,
    sha3: &LaneSpec,
    host: &[u8],
    msgs: &[&[u8]],
    len: usize,
    reps: usize,
    want: &[u8],
) -> (Vec<J>, [f64; 3]) {
    let gpu = &cx.gpu;
    let count = msgs.len();
    let bytes = (len * count) as f64;
    let mut fed = Vec::new();
    let mut fed_s = [f64::NAN; 3];
    for (i, (path, strided)) in [
        (InputPath::Copy, false),
        (InputPath::Mapped, false),
        (InputPath::Copy, true),
    ]
    .into_iter()
    .enumerate()
    {
        gpu.set_input_path(path);
        let mut out = vec![0u8; count * 32];
        let s = best_of(reps, || {
            if strided {
                gpu.hash_strided(sha3, host, len, len, count, 32, &mut out)
            } else {
                gpu.hash_many(sha3, msgs, 32, &mut out)
            }
            .unwrap_or_else(|e| fail("host-fed batch", e))
        });
        check(
            &format!(
                "{len} B host-fed {path:?}{}",
                if strided { " strided" } else { "" }
            ),
            &out[..],
            want,
        );
        let st = gpu.last_pipeline_stats();
        fed_s[i] = s;
        fed.push(obj![
            (
                "input",
                format!(
                    "{path:?}{}",
                    if strided { ", one strided buffer" } else { "" }
                )
            ),
            ("seconds", s),
            ("bytes_per_s", bytes / s),
            ("messages_per_s", count as f64 / s),
            ("ratio_to_h2d", bytes / s / cx.h2d),
            ("breakdown", stats_json(&st)),
        ]);
    }
    gpu.set_input_path(InputPath::Copy);
    (fed, fed_s)
}

pub(super) fn run(cx: &Ctx, r: &mut Report, dl: Deadline) {
    // 64 KiB x 2^14 (1 GiB) is one thread a message on 124 threads a SM:
    // latency-bound. 2^16 of them (4 GiB) fill every SM (full run only).
    let sizes: [(usize, usize, usize); 4] = [
        (64, 1 << 24, 1 << 20),
        (1024, 1 << 20, 1 << 16),
        (65536, 16384, 1024),
        (65536, 1 << 16, 0),
    ];
    let mut rows = Vec::new();
    for (len, full, quick) in sizes {
        if cx.quick && quick == 0 {
            continue;
        }
        if dl.passed() {
            rows.push(obj![("message_bytes", len), ("skipped", "deadline")]);
            continue;
        }
        rows.push(batch_row(cx, r, len, if cx.quick { quick } else { full }));
        r.set("sha3_256_batches", J::Arr(rows.clone()));
    }
    r.set("sha3_256_batches", J::Arr(rows));
    if dl.passed() {
        r.set("warp_crossover", obj![("skipped", "deadline")]);
    } else {
        warp_crossover(cx, r);
    }
}

/// SHA3-256 of n 64 KiB messages device-resident (distinct data, uniform
/// layout) for n = 64 .. 16384: kernel time of `Warp` (one warp a message),
/// `Direct` (one thread a message) and `Auto`, checked against the CPU. The
/// KEY line names the crossover: the smallest n where `Direct` beats
/// `Warp` (BatchKernel::WARP_MESSAGES_PER_SM is the guess to compare).
/// About 1 GiB on the device; well under 5 s on an H100.
fn warp_crossover(cx: &Ctx, r: &mut Report) {
    let gpu = &cx.gpu;
    let sha3 = LaneSpec::new(136, 24, 0x06).unwrap_or_else(|e| fail("spec", e));
    let len = 65536usize;
    let counts = [64usize, 256, 1024, 4096, 16384];
    let top = counts[counts.len() - 1];
    let mut host = vec![0u8; len * top];
    fill(&mut host, 0x3A11);
    let msgs: Vec<&[u8]> = host.chunks(len).collect();
    let mut want = vec![0u8; top * 32];
    keccakx::engine::hash_many(&sha3, &msgs, 32, &mut want);
    let d_data = gpu.upload(&host).unwrap_or_else(|e| fail("upload", e));
    drop(msgs);
    drop(host);
    let mut d_out = gpu
        .alloc_zeros(top * 32)
        .unwrap_or_else(|e| fail("alloc", e));
    let reps = if cx.quick { 2 } else { 3 };
    let mut rows = Vec::new();
    let mut crossover = None;
    let mut line = Vec::new();
    for &n in &counts {
        let lay = Layout::Uniform {
            count: n,
            stride: len as u64,
            len: len as u64,
        };
        let mut secs = Vec::new();
        for k in [BatchKernel::Warp, BatchKernel::Direct, BatchKernel::Auto] {
            gpu.set_batch_kernel(k);
            let mut best = f64::INFINITY;
            poison(gpu, &mut d_out);
            for rep in 0..reps {
                gpu.hash_many_device_to_device(&sha3, &d_data, lay, 32, &mut d_out)
                    .unwrap_or_else(|e| fail("device-resident batch", e));
                best = best.min(gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3);
                if rep == 0 {
                    let out = gpu.download(&d_out).unwrap_or_else(|e| fail("download", e));
                    check(
                        &format!("{k:?} 64 KiB x {n} device-resident"),
                        &out[..n * 32],
                        &want[..n * 32],
                    );
                }
            }
            let bytes = (n * len) as f64;
            rows.push(obj![
                ("messages", n),
                ("kernel", format!("{k:?}")),
                ("kernel_s", best),
                ("bytes_per_s", bytes / best),
                (
                    "permutations_per_s",
                    (len / 136 + 1) as f64 * n as f64 / best
                ),
            ]);
            secs.push(best);
        }
        if crossover.is_none() && secs[1] < secs[0] {
            crossover = Some(n);
        }
        line.push(format!(
            "n={n} warp {:.2} ms ({:.1} GB/s) direct {:.2} ms ({:.1} GB/s) auto {:.2} ms",
            secs[0] * 1e3,
            gbs((n * len) as f64, secs[0]),
            secs[1] * 1e3,
            gbs((n * len) as f64, secs[1]),
            secs[2] * 1e3
        ));
    }
    gpu.set_batch_kernel(BatchKernel::Auto);
    drop(d_out);
    drop(d_data);
    let sms = keccakx_gpu::device_details(gpu.device().ordinal)
        .map(|d| d.sm_count as u64)
        .unwrap_or(0);
    let guess = BatchKernel::WARP_MESSAGES_PER_SM * sms;
    r.key(format!(
        "warp crossover, SHA3-256 64 KiB device-resident: Direct beats Warp from n = {} (Auto's guess: Warp below {guess} = {} x {sms} SMs); {}",
        crossover.map_or_else(|| format!("> {top} (never here)"), |n| n.to_string()),
        BatchKernel::WARP_MESSAGES_PER_SM,
        line.join("; ")
    ));
    r.set(
        "warp_crossover",
        obj![
            ("message_bytes", len),
            ("crossover_messages", crossover),
            ("auto_threshold_messages", guess),
            ("rows", J::Arr(rows)),
        ],
    );
}

pub(super) fn stats_json(st: &PipelineStats) -> J {
    obj![
        ("chunks", st.chunks),
        ("messages", st.messages),
        ("bytes", st.bytes),
        ("plan_s", st.plan_s),
        ("pack_s", st.pack_s),
        ("h2d_s", st.h2d_s),
        ("kernel_s", st.kernel_s),
        ("d2h_s", st.d2h_s),
        ("drain_s", st.drain_s),
        ("wait_s", st.wait_s),
        ("wall_s", st.wall_s),
    ]
}
