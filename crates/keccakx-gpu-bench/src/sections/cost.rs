//! `cost`: the constants of `keccakx_gpu::CostModel`, measured, and the
//! host-fed crossover against the CPU.

use std::time::Instant;

use keccakx::engine::{current, LaneSpec};
use keccakx_gpu::{CostModel, Layout};

use super::context::Ctx;
use crate::measure::{best_of, check, fail, fill};
use crate::report::{obj, Deadline, Report, J};

/// The cost model's constants, measured, and the host-fed crossover.
pub(super) fn run(cx: &Ctx, r: &mut Report, dl: Deadline) {
    let sha3 = LaneSpec::new(136, 24, 0x06).unwrap_or_else(|e| fail("spec", e));
    let CallCost {
        call_s,
        call_allocating_s,
        repeat_allocs,
    } = call_cost(cx, &sha3);
    r.key(format!(
        "host-fed call of one 64 B message: {:.1} us with kept buffers ({repeat_allocs} allocations in 20 calls), {:.1} us allocating",
        call_s * 1e6,
        call_allocating_s * 1e6
    ));
    let model = measured_model(cx, &sha3, call_s);
    r.key(format!(
        "cost model (measured): KECCAKX_GPU_COST={}",
        model.to_env()
    ));
    let (rows, cross) = crossover(cx, &sha3, &model, dl);
    r.set(
        "cost_model",
        obj![
            ("call_s", model.call_s),
            ("call_allocating_s", call_allocating_s),
            ("allocations_in_20_repeated_calls", repeat_allocs),
            ("msg_s", model.msg_s),
            ("feed_bytes_per_s", model.feed_bytes_per_s),
            ("h2d_bytes_per_s", cx.h2d),
            ("gpu_blocks_per_s", model.gpu_blocks_per_s),
            ("thread_blocks_per_s", model.thread_blocks_per_s),
            ("cpu_blocks_per_s_per_core", model.cpu_blocks_per_s_per_core),
            ("env", model.to_env()),
            ("crossover", J::Arr(rows)),
        ],
    );
    r.key(format!(
        "host-fed SHA3-256 crossover (GPU faster than {} x{}): {}",
        current().name(),
        cx.cores,
        cross.join(", ")
    ));
}

/// The fixed cost of a host-fed call, with and without kept buffers.
struct CallCost {
    call_s: f64,
    call_allocating_s: f64,
    repeat_allocs: u64,
}

fn call_cost(cx: &Ctx, sha3: &LaneSpec) -> CallCost {
    let gpu = &cx.gpu;
    // Fixed cost of a host-fed call: one 64-byte message. First with no
    // buffers kept (what every call would pay without reuse: cuMemAlloc /
    // cuMemHostAlloc), then with the kept ones, counting allocations.
    let one = [7u8; 64];
    let mut o = [0u8; 32];
    gpu.release_buffers()
        .unwrap_or_else(|e| fail("release buffers", e));
    let t = Instant::now();
    gpu.hash_many(sha3, &[&one[..]], 32, &mut o)
        .unwrap_or_else(|e| fail("call", e));
    let call_allocating_s = t.elapsed().as_secs_f64();
    let kept = gpu.buffer_allocations();
    let call_s = best_of(20, || {
        gpu.hash_many(sha3, &[&one[..]], 32, &mut o)
            .unwrap_or_else(|e| fail("call", e))
    });
    let repeat_allocs = gpu.buffer_allocations() - kept;
    CallCost {
        call_s,
        call_allocating_s,
        repeat_allocs,
    }
}

/// The model's rates: whole GPU, one GPU thread, one CPU core.
fn measured_model(cx: &Ctx, sha3: &LaneSpec, call_s: f64) -> CostModel {
    let gpu = &cx.gpu;
    // Whole-GPU and CPU block rates on 1 KiB messages (8 blocks each).
    let (len, n) = (1024usize, if cx.quick { 1 << 16 } else { 1 << 18 });
    let blocks = (n * (len / 136 + 1)) as f64;
    let mut host = vec![0u8; len * n];
    fill(&mut host, 99);
    let msgs: Vec<&[u8]> = host.chunks(len).collect();
    let mut want = vec![0u8; n * 32];
    let cpu_s = best_of(3, || keccakx::engine::hash_many(sha3, &msgs, 32, &mut want));
    let d = gpu.upload(&host).unwrap_or_else(|e| fail("upload", e));
    let mut got = vec![0u8; n * 32];
    let lay = Layout::Uniform {
        count: n,
        stride: len as u64,
        len: len as u64,
    };
    let mut gpu_s = f64::INFINITY;
    for _ in 0..3 {
        gpu.hash_many_device(sha3, &d, lay, 32, &mut got)
            .unwrap_or_else(|e| fail("device batch", e));
        gpu_s = gpu_s.min(gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3);
    }
    check("cost: 1 KiB device batch", &got, &want);
    drop(d);
    // One GPU thread alone: one 1 MiB message.
    let long = &host[..1 << 20];
    let d = gpu.upload(long).unwrap_or_else(|e| fail("upload", e));
    let lay = Layout::Uniform {
        count: 1,
        stride: long.len() as u64,
        len: long.len() as u64,
    };
    let mut one_out = [0u8; 32];
    let mut thread_s = f64::INFINITY;
    for _ in 0..3 {
        gpu.hash_many_device(sha3, &d, lay, 32, &mut one_out)
            .unwrap_or_else(|e| fail("one-thread run", e));
        thread_s = thread_s.min(gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3);
    }
    let mut w = [0u8; 32];
    sha3.hash_one(long, &mut w);
    check("cost: one long message", one_out, w);
    drop(d);
    let (msg_s, feed_bytes_per_s) = feed_cost(cx, sha3, call_s);
    CostModel {
        call_s,
        msg_s,
        feed_bytes_per_s,
        gpu_blocks_per_s: blocks / gpu_s,
        thread_blocks_per_s: CostModel::blocks(sha3, long.len(), 32) / thread_s,
        cpu_blocks_per_s_per_core: blocks / cpu_s / cx.cores as f64,
    }
}

/// The host's share of a host-fed call, per message and per byte: the wall
/// time w = call + (1 + first) (n msg_s + bytes / feed) of two host-fed
/// batches of several pipeline chunks, many small messages (64 B) and few
/// long ones (64 KiB), solved for msg_s and feed (`first`: the batch's
/// share in its first chunk, CostModel::first_chunk_share). Their GPU work
/// overlaps the host's.
fn feed_cost(cx: &Ctx, sha3: &LaneSpec, call_s: f64) -> (f64, f64) {
    let runs: [(usize, usize); 2] = if cx.quick {
        [(64, 1 << 20), (64 << 10, 1 << 12)]
    } else {
        [(64, 1 << 22), (64 << 10, 1 << 14)]
    };
    let mut eq = Vec::new();
    for (len, n) in runs {
        let mut h = vec![0u8; len * n];
        fill(&mut h, 5 + len as u64);
        let ms: Vec<&[u8]> = h.chunks(len).collect();
        let mut got = vec![0u8; n * 32];
        let w = best_of(3, || {
            cx.gpu
                .hash_many(sha3, &ms, 32, &mut got)
                .unwrap_or_else(|e| fail("feed cost", e))
        });
        let mut want = vec![0u8; n * 32];
        keccakx::engine::hash_many(sha3, &ms, 32, &mut want);
        check(&format!("cost: host-fed {len} B x {n}"), &got, &want);
        let k = 1.0 + CostModel::first_chunk_share(n, len * n);
        eq.push((k * n as f64, k * (len * n) as f64, (w - call_s).max(0.0)));
    }
    // Two equations n_i m + b_i / f = w_i.
    let ((n1, b1, w1), (n2, b2, w2)) = (eq[0], eq[1]);
    let det = n1 * b2 - n2 * b1;
    let inv_f = ((n1 * w2 - n2 * w1) / det).max(1e-12);
    let m = ((w1 - b1 * inv_f) / n1).max(0.0);
    (m, 1.0 / inv_f)
}

/// Host-fed GPU against the CPU by batch size and message length: the JSON
/// rows and, per length, the first batch size where the GPU wins.
fn crossover(cx: &Ctx, sha3: &LaneSpec, model: &CostModel, dl: Deadline) -> (Vec<J>, Vec<String>) {
    let gpu = &cx.gpu;
    // The model's choice beside each.
    let counts: &[usize] = if cx.quick {
        &[16, 256, 4096, 65536]
    } else {
        &[16, 256, 4096, 65536, 1 << 20]
    };
    let cap = if cx.quick { 64usize << 20 } else { 1 << 30 };
    let mut rows = Vec::new();
    let mut cross = Vec::new();
    let (mut agree, mut cells) = (0usize, 0usize);
    for len in [64usize, 1024, 16384] {
        let mut first_win = None;
        for &count in counts {
            if len * count > cap {
                continue;
            }
            if dl.passed() {
                rows.push(obj![
                    ("message_bytes", len),
                    ("messages", count),
                    ("skipped", "deadline")
                ]);
                continue;
            }
            let mut h = vec![0u8; len * count];
            fill(&mut h, (len * count) as u64);
            let ms: Vec<&[u8]> = h.chunks(len).collect();
            let mut want = vec![0u8; count * 32];
            let mut got = vec![0u8; count * 32];
            let reps = if len * count < (16 << 20) { 5 } else { 3 };
            let c = best_of(reps, || {
                keccakx::engine::hash_many(sha3, &ms, 32, &mut want)
            });
            let g = best_of(reps, || {
                gpu.hash_many(sha3, &ms, 32, &mut got)
                    .unwrap_or_else(|e| fail("crossover", e))
            });
            check(&format!("crossover {len} B x {count}"), &got, &want);
            let predicted = model.route(sha3, &ms, 32, cx.cores);
            if g < c && first_win.is_none() {
                first_win = Some(count);
            }
            let model_gpu = matches!(
                predicted,
                keccakx_gpu::Route::Gpu | keccakx_gpu::Route::Split(_)
            );
            agree += usize::from(model_gpu == (g < c));
            cells += 1;
            rows.push(obj![
                ("message_bytes", len),
                ("messages", count),
                ("gpu_host_fed_s", g),
                ("cpu_s", c),
                ("gpu_wins", g < c),
                ("model_route", format!("{predicted:?}")),
                (
                    "model_gpu_s",
                    model.gpu_seconds(
                        count,
                        len * count,
                        CostModel::blocks(sha3, len, 32) * count as f64,
                        CostModel::blocks(sha3, len, 32)
                    )
                ),
                (
                    "model_cpu_s",
                    model.cpu_seconds(CostModel::blocks(sha3, len, 32) * count as f64, cx.cores)
                ),
            ]);
        }
        cross.push(format!(
            "{len} B from {}",
            first_win.map_or("never (in range)".to_string(), |n| format!("{n} msgs"))
        ));
    }
    cross.push(format!(
        "the measured model routes {agree} of {cells} cells as measured"
    ));
    (rows, cross)
}
