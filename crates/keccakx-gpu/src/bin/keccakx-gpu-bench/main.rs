//! keccakx-gpu-bench: everything the first GPU runs measure, in one run
//! (issues 20 and 21; docs/gpu.md), each figure beside its ceiling or its
//! CPU peer measured in the same run on the same machine:
//!
//! 1. `copy`: host-to-device / device-to-host bandwidth (pinned);
//! 2. `perm`: Keccak-f[1600] permutations/s, 24 and 12 rounds, the fast
//!    kernels and the 2011 paper's 25-threads-per-state kernel, against the
//!    ALU bound from the device's SM count and clock;
//! 3. `batch`: SHA3-256 of 64 B, 1 KiB and 64 KiB messages: device-resident
//!    (every batch kernel at 64 B), host-fed with explicit copies and with
//!    mapped (zero-copy) input, a plan/pack/copy/kernel/drain breakdown, the
//!    CPU engine on all cores on the same messages;
//! 4. `cost`: the constants of keccakx_gpu::CostModel (call cost, GPU and
//!    one-thread block rates, CPU rate per core) and the host-fed crossover
//!    (batch size and message length where the GPU beats the CPU);
//! 5. `trees`: KT128, KT256, ParallelHash128/256 (B = 8 KiB) from 64 KiB to
//!    4 GiB, device-resident and host-fed, against keccakx on all cores;
//! 6. `treeli`: tree LI at the 2011 paper's Table 1 sizes, H = 0..4, D = 4,
//!    r = 1024, c = 576 (full runs also r = 1088, c = 512), device-resident
//!    (leaves gathered on the GPU by 2-D copies) and host-fed on the GPU
//!    against the CPU (MD5 of the same sizes is measured by run-on-gpu.sh in
//!    the same run).
//!
//! Every GPU result is compared with the CPU's before it is timed. The JSON
//! (`--out FILE`) is rewritten after every section, so a run cut short keeps
//! what it measured; `key_figures` holds one line per headline figure. Each
//! section has a deadline (a share of `--budget-s`) after which it starts
//! no new size. Exit status: 0 done, 1 a GPU result was wrong or a step
//! failed, 2 no GPU.

mod report;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use keccakx::engine::{current, Engine, LaneSpec, Threads};
use keccakx::tree_li::TreeLiParams;
use keccakx_gpu::{
    device_details, devices, nvrtc_version, perm_reference, BatchKernel, CostModel, GpuEngine,
    GpuHasher, InputPath, KtVariant, Layout, PermKernel, PhVariant, PipelineStats,
};
use rayon::prelude::*;
use report::{obj, Deadline, Report, J};

/// Integer instructions per Keccak-f[1600] round in the ceiling model
/// (../shared/GPU.md: LOP3 for chi/theta, two funnel shifts per 64-bit
/// rotation, about 180 per round; the sm_90 SASS has 193.7, docs/gpu.md).
const INSTR_PER_ROUND: f64 = 180.0;
/// 32-bit integer operations per SM per clock (Hopper, Ampere: 64).
const INT_OPS_PER_SM_CLOCK: f64 = 64.0;

const SECTIONS: [&str; 6] = ["copy", "perm", "batch", "cost", "trees", "treeli"];

struct Args {
    out: Option<String>,
    device: usize,
    quick: bool,
    preflight: bool,
    precompile: Option<String>,
    only: Option<String>,
    budget_s: Option<f64>,
}

const USAGE: &str = "usage: keccakx-gpu-bench [--out FILE.json] [--device N] [--quick] [--budget-s S]
                         [--only copy|perm|batch|cost|trees|treeli]
       keccakx-gpu-bench --preflight          driver, NVRTC (path, builtins), devices; exit 2 without a GPU
       keccakx-gpu-bench --precompile sm_XY   compile every kernel module into $KECCAKX_CACHE_DIR (no GPU needed)
--budget-s: seconds for all sections (default 220, --quick 60); a section past its share starts no new size.";

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        out: None,
        device: 0,
        quick: false,
        preflight: false,
        precompile: None,
        only: None,
        budget_s: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(x) = it.next() {
        match x.as_str() {
            "--out" => a.out = Some(it.next().ok_or("--out needs a file name")?),
            "--device" => {
                a.device = it
                    .next()
                    .ok_or("--device needs a number")?
                    .parse()
                    .map_err(|_| "--device: not a number")?
            }
            "--budget-s" => {
                let v: f64 = it
                    .next()
                    .ok_or("--budget-s needs seconds")?
                    .parse()
                    .map_err(|_| "--budget-s: not a number")?;
                if !(v.is_finite() && v > 0.0) {
                    return Err("--budget-s must be positive".into());
                }
                a.budget_s = Some(v)
            }
            "--quick" => a.quick = true,
            "--preflight" => a.preflight = true,
            "--precompile" => {
                a.precompile = Some(
                    it.next()
                        .ok_or("--precompile needs an architecture (sm_90)")?,
                )
            }
            "--only" => {
                let v = it.next().ok_or("--only needs a section")?;
                if !SECTIONS.contains(&v.as_str()) {
                    return Err(format!(
                        "--only {v:?}: not a section ({})",
                        SECTIONS.join(", ")
                    ));
                }
                a.only = Some(v)
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument {other:?} (try --help)")),
        }
    }
    Ok(a)
}

/// Fill `buf` with pseudo-random bytes on all cores (xorshift per 1 MiB).
fn fill(buf: &mut [u8], seed: u64) {
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

fn commit() -> String {
    if let Ok(c) = std::env::var("KECCAKX_COMMIT") {
        return c;
    }
    std::process::Command::new("git")
        .args(["rev-parse", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    eprintln!("keccakx-gpu-bench: {what}: {e}");
    std::process::exit(1);
}

fn check<T: PartialEq>(what: &str, ok: T, want: T) {
    if ok != want {
        eprintln!("keccakx-gpu-bench: WRONG RESULT in {what}");
        std::process::exit(1);
    }
}

/// Best wall time of `reps` runs of `f`, in seconds.
fn best_of(reps: usize, mut f: impl FnMut()) -> f64 {
    (0..reps.max(1))
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The CPU engine on all cores (the peer of every GPU figure).
fn cpu() -> Threads {
    Threads::new(current())
}

fn gbs(bytes: f64, s: f64) -> f64 {
    bytes / s / 1e9
}

/// Compile every module for `arch` (sm_XY) into the kernel cache; 0 on success.
fn precompile(arch: &str) -> i32 {
    let Some((a, b)) = arch
        .strip_prefix("sm_")
        .filter(|d| d.len() >= 2)
        .and_then(|d| {
            Some((
                d[..d.len() - 1].parse().ok()?,
                d[d.len() - 1..].parse().ok()?,
            ))
        })
    else {
        eprintln!("keccakx-gpu-bench: --precompile {arch:?}: expected sm_XY, e.g. sm_90");
        return 2;
    };
    let target = keccakx_gpu::nvrtc::Target::Cubin(a, b);
    for m in keccakx_gpu::kernels::Module::ALL {
        match keccakx_gpu::kernels::image(m, target) {
            Ok((img, from)) => eprintln!(
                "precompiled {} for {arch}: {} bytes ({from})",
                m.name(),
                img.len()
            ),
            Err(e) => {
                eprintln!(
                    "keccakx-gpu-bench: precompiling {} for {arch}: {e}",
                    m.name()
                );
                return 1;
            }
        }
    }
    0
}

/// What the GPU machine offers, in a few lines; 2 when there is no GPU.
fn preflight() -> i32 {
    match keccakx_gpu::driver::driver_version() {
        Ok((a, b)) => println!("== driver CUDA API: {a}.{b}"),
        Err(e) => println!("== driver: {e}"),
    }
    match keccakx_gpu::nvrtc::Nvrtc::get() {
        Ok(n) => println!(
            "== NVRTC {}.{} loaded from {} (builtins: {}); sm archs {:?}",
            n.version().0,
            n.version().1,
            n.path(),
            n.builtins_path().unwrap_or("through the system loader"),
            n.supported_archs()
        ),
        Err(e) => println!("== NVRTC: {e} (cached kernels only)"),
    }
    match devices() {
        Ok(d) => {
            for dev in d {
                let det = device_details(dev.ordinal);
                println!(
                    "== device {}: {} sm_{}{} {:.1} GiB{}",
                    dev.ordinal,
                    dev.name,
                    dev.compute_capability.0,
                    dev.compute_capability.1,
                    dev.memory_bytes as f64 / (1u64 << 30) as f64,
                    det.map(|x| format!(
                        ", {} SMs, SM clock {:?} kHz, PCI {}",
                        x.sm_count, x.clock_khz, x.pci
                    ))
                    .unwrap_or_default()
                );
            }
            match GpuHasher::new(0) {
                Ok(h) => println!(
                    "== kernels: {} from {} (KECCAKX_CACHE_DIR={})",
                    h.target(),
                    h.image_source(),
                    std::env::var("KECCAKX_CACHE_DIR").unwrap_or_default()
                ),
                Err(e) => println!("== opening device 0: {e}"),
            }
            0
        }
        Err(e) => {
            println!("== no GPU: {e}");
            2
        }
    }
}

fn stats_json(st: &PipelineStats) -> J {
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

/// What later sections need from earlier ones.
struct Ctx {
    gpu: Arc<GpuHasher>,
    quick: bool,
    cores: usize,
    h2d: f64,
    /// The ALU bound for 24-round Keccak-f[1600], permutations/s.
    alu24: Option<f64>,
}

fn section_copy(cx: &mut Ctx, r: &mut Report) {
    let bytes = if cx.quick { 64 << 20 } else { 256 << 20 };
    let h2d = cx
        .gpu
        .h2d_bandwidth(bytes, 5)
        .unwrap_or_else(|e| fail("H2D bandwidth", e));
    let d2h = cx
        .gpu
        .d2h_bandwidth(bytes, 5)
        .unwrap_or_else(|e| fail("D2H bandwidth", e));
    cx.h2d = h2d;
    r.set(
        "copy",
        obj![
            ("bytes", bytes as usize),
            ("h2d_bytes_per_s", h2d),
            ("d2h_bytes_per_s", d2h)
        ],
    );
    r.key(format!(
        "copy (pinned, {} MiB): H2D {:.1} GB/s, D2H {:.1} GB/s",
        bytes >> 20,
        h2d / 1e9,
        d2h / 1e9
    ));
}

fn section_perm(cx: &Ctx, r: &mut Report, dl: Deadline) {
    let gpu = &cx.gpu;
    let mut rows = Vec::new();
    let mut rate_of = std::collections::HashMap::new();
    for k in [
        PermKernel::Fast24,
        PermKernel::FastU64,
        PermKernel::Fast12,
        PermKernel::Paper,
    ] {
        if dl.passed() {
            rows.push(obj![("kernel", format!("{k:?}")), ("skipped", "deadline")]);
            continue;
        }
        // One whole wave (every block resident at once; no partial tail wave).
        let states = gpu
            .perm_wave_states(k)
            .unwrap_or_else(|e| fail("occupancy", e));
        let (_, v) = gpu
            .perm_run(k, states.min(4096), 2)
            .unwrap_or_else(|e| fail("permutation kernel", e));
        for s in [0u64, 1, 777, 4095]
            .into_iter()
            .filter(|s| *s < v.len() as u64)
        {
            check(
                &format!("{k:?} state {s}"),
                v[s as usize],
                perm_reference(s, 2, k.rounds()),
            );
        }
        // Calibrate to about 200 ms (quick: 50 ms) of kernel time, best of 3.
        let target = if cx.quick { 0.05 } else { 0.2 };
        let mut iters = 4u32;
        loop {
            let (t, _) = gpu
                .perm_run(k, states, iters)
                .unwrap_or_else(|e| fail("permutation kernel", e));
            if t > target / 4.0 || iters > 1 << 20 {
                iters = ((iters as f64) * (target / t.max(1e-6))).clamp(1.0, 1e7) as u32;
                break;
            }
            iters *= 4;
        }
        let best = (0..3)
            .map(|_| {
                gpu.perm_run(k, states, iters)
                    .unwrap_or_else(|e| fail("permutation kernel", e))
                    .0
            })
            .fold(f64::INFINITY, f64::min);
        let rate = states as f64 * iters as f64 / best;
        let bound = cx.alu24.map(|c| if k.rounds() == 12 { 2.0 * c } else { c });
        rate_of.insert(format!("{k:?}"), rate);
        rows.push(obj![
            ("kernel", format!("{k:?}")),
            ("rounds", k.rounds()),
            ("states", states),
            ("iters", iters),
            ("seconds", best),
            ("perms_per_s", rate),
            ("alu_bound_perms_per_s", bound),
            ("ratio_to_alu_bound", bound.map(|b| rate / b)),
        ]);
        r.set("permutations", J::Arr(rows.clone()));
    }
    r.set("permutations", J::Arr(rows));
    let g = |n: &str| rate_of.get(n).copied().unwrap_or(f64::NAN);
    r.key(format!(
        "perm/s: 24 rounds {:.2} G ({}), 12 rounds {:.2} G, u64 kernel {:.2} G, paper kernel {:.2} G (fast/paper {:.1}x)",
        g("Fast24") / 1e9,
        cx.alu24
            .map(|b| format!("{:.0}% of the ALU bound {:.2} G at {INSTR_PER_ROUND} instr/round", 100.0 * g("Fast24") / b, b / 1e9))
            .unwrap_or_else(|| "no clock reported: no ALU bound".into()),
        g("Fast12") / 1e9,
        g("FastU64") / 1e9,
        g("Paper") / 1e9,
        g("Fast24") / g("Paper")
    ));
}

/// SHA3-256 batches of `len`-byte messages: device-resident, host-fed
/// (copies, mapped), CPU peer. Returns the JSON row.
fn batch_row(cx: &Ctx, r: &mut Report, len: usize, count: usize) -> J {
    let gpu = &cx.gpu;
    let sha3 = LaneSpec::new(136, 24, 0x06).unwrap_or_else(|e| fail("spec", e));
    let bytes = (len * count) as f64;
    let mut host = vec![0u8; len * count];
    fill(&mut host, len as u64);
    let msgs: Vec<&[u8]> = host.chunks(len).collect();
    let reps = if cx.quick { 2 } else { 3 };
    // The CPU peer; its digests are the reference.
    let mut want = vec![0u8; count * 32];
    let cpu_s = best_of(reps, || cpu().hash_many(&sha3, &msgs, 32, &mut want));
    let mut spot = [0u8; 32];
    sha3.hash_one(msgs[count / 2], &mut spot);
    check(
        "CPU engine against the sponge",
        &want[count / 2 * 32..count / 2 * 32 + 32],
        &spot[..],
    );
    // Device-resident: kernel time (events), every kernel at 64 B.
    let d_data = gpu.upload(&host).unwrap_or_else(|e| fail("upload", e));
    let mut d_out = gpu
        .alloc_zeros(count * 32)
        .unwrap_or_else(|e| fail("alloc", e));
    let kernels: &[BatchKernel] = if len == 64 {
        &BatchKernel::ALL
    } else {
        &[
            BatchKernel::Auto,
            BatchKernel::Direct,
            BatchKernel::DoubleBuffered,
            BatchKernel::Staged,
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
        for rep in 0..reps {
            gpu.hash_many_device_to_device(&sha3, &d_data, lay, 32, &mut d_out)
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
    // Host-fed, from pageable memory through the pipeline: copies, then mapped.
    let mut fed = Vec::new();
    let mut fed_s = [f64::NAN; 2];
    for (i, path) in [InputPath::Copy, InputPath::Mapped].into_iter().enumerate() {
        gpu.set_input_path(path);
        let mut out = vec![0u8; count * 32];
        let s = best_of(reps, || {
            gpu.hash_many(&sha3, &msgs, 32, &mut out)
                .unwrap_or_else(|e| fail("host-fed batch", e))
        });
        check(&format!("{len} B host-fed {path:?}"), &out, &want);
        let st = gpu.last_pipeline_stats();
        fed_s[i] = s;
        fed.push(obj![
            ("input", format!("{path:?}")),
            ("seconds", s),
            ("bytes_per_s", bytes / s),
            ("messages_per_s", count as f64 / s),
            ("ratio_to_h2d", bytes / s / cx.h2d),
            ("breakdown", stats_json(&st)),
        ]);
    }
    gpu.set_input_path(InputPath::Copy);
    r.key(format!(
        "SHA3-256 {len} B x {count}: device {:.1} GB/s ({:.0} M msg/s), host-fed {:.1} GB/s (mapped {:.1}; {:.0}% of H2D), CPU {} x{} {:.1} GB/s; host-fed/CPU {:.2}x",
        gbs(bytes, dev_auto),
        count as f64 / dev_auto / 1e6,
        gbs(bytes, fed_s[0]),
        gbs(bytes, fed_s[1]),
        100.0 * bytes / fed_s[0] / cx.h2d,
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

fn section_batch(cx: &Ctx, r: &mut Report, dl: Deadline) {
    let sizes: [(usize, usize, usize); 3] = [
        (64, 1 << 24, 1 << 20),
        (1024, 1 << 20, 1 << 16),
        (65536, 16384, 1024),
    ];
    let mut rows = Vec::new();
    for (len, full, quick) in sizes {
        if dl.passed() {
            rows.push(obj![("message_bytes", len), ("skipped", "deadline")]);
            continue;
        }
        rows.push(batch_row(cx, r, len, if cx.quick { quick } else { full }));
        r.set("sha3_256_batches", J::Arr(rows.clone()));
    }
    r.set("sha3_256_batches", J::Arr(rows));
}

/// The cost model's constants, measured, and the host-fed crossover.
fn section_cost(cx: &Ctx, r: &mut Report, dl: Deadline) {
    let gpu = &cx.gpu;
    let sha3 = LaneSpec::new(136, 24, 0x06).unwrap_or_else(|e| fail("spec", e));
    // Fixed cost of a host-fed call: one 64-byte message. First with no
    // buffers kept (what every call would pay without reuse: cuMemAlloc /
    // cuMemHostAlloc), then with the kept ones, counting allocations.
    let one = [7u8; 64];
    let mut o = [0u8; 32];
    gpu.release_buffers()
        .unwrap_or_else(|e| fail("release buffers", e));
    let t = Instant::now();
    gpu.hash_many(&sha3, &[&one[..]], 32, &mut o)
        .unwrap_or_else(|e| fail("call", e));
    let call_allocating_s = t.elapsed().as_secs_f64();
    let kept = gpu.buffer_allocations();
    let call_s = best_of(20, || {
        gpu.hash_many(&sha3, &[&one[..]], 32, &mut o)
            .unwrap_or_else(|e| fail("call", e))
    });
    let repeat_allocs = gpu.buffer_allocations() - kept;
    r.key(format!(
        "host-fed call of one 64 B message: {:.1} us with kept buffers ({repeat_allocs} allocations in 20 calls), {:.1} us allocating",
        call_s * 1e6,
        call_allocating_s * 1e6
    ));
    // Whole-GPU and CPU block rates on 1 KiB messages (8 blocks each).
    let (len, n) = (1024usize, if cx.quick { 1 << 16 } else { 1 << 18 });
    let blocks = (n * (len / 136 + 1)) as f64;
    let mut host = vec![0u8; len * n];
    fill(&mut host, 99);
    let msgs: Vec<&[u8]> = host.chunks(len).collect();
    let mut want = vec![0u8; n * 32];
    let cpu_s = best_of(3, || cpu().hash_many(&sha3, &msgs, 32, &mut want));
    let d = gpu.upload(&host).unwrap_or_else(|e| fail("upload", e));
    let mut got = vec![0u8; n * 32];
    let lay = Layout::Uniform {
        count: n,
        stride: len as u64,
        len: len as u64,
    };
    let mut gpu_s = f64::INFINITY;
    for _ in 0..3 {
        gpu.hash_many_device(&sha3, &d, lay, 32, &mut got)
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
        gpu.hash_many_device(&sha3, &d, lay, 32, &mut one_out)
            .unwrap_or_else(|e| fail("one-thread run", e));
        thread_s = thread_s.min(gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3);
    }
    let mut w = [0u8; 32];
    sha3.hash_one(long, &mut w);
    check("cost: one long message", one_out, w);
    drop(d);
    let model = CostModel {
        call_s,
        h2d_bytes_per_s: cx.h2d,
        gpu_blocks_per_s: blocks / gpu_s,
        thread_blocks_per_s: CostModel::blocks(&sha3, long.len(), 32) / thread_s,
        cpu_blocks_per_s_per_core: blocks / cpu_s / cx.cores as f64,
    };
    r.key(format!(
        "cost model (measured): KECCAKX_GPU_COST={}",
        model.to_env()
    ));
    // The crossover: host-fed GPU against the CPU engine, by batch size and
    // message length, with the model's choice beside each.
    let counts: &[usize] = if cx.quick {
        &[16, 256, 4096, 65536]
    } else {
        &[16, 256, 4096, 65536, 1 << 20]
    };
    let cap = if cx.quick { 64usize << 20 } else { 256 << 20 };
    let mut rows = Vec::new();
    let mut cross = Vec::new();
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
            let c = best_of(reps, || cpu().hash_many(&sha3, &ms, 32, &mut want));
            let g = best_of(reps, || {
                gpu.hash_many(&sha3, &ms, 32, &mut got)
                    .unwrap_or_else(|e| fail("crossover", e))
            });
            check(&format!("crossover {len} B x {count}"), &got, &want);
            let predicted = model.route(&sha3, &ms, 32, cx.cores);
            if g < c && first_win.is_none() {
                first_win = Some(count);
            }
            rows.push(obj![
                ("message_bytes", len),
                ("messages", count),
                ("gpu_host_fed_s", g),
                ("cpu_s", c),
                ("gpu_wins", g < c),
                ("model_route", format!("{predicted:?}")),
            ]);
        }
        cross.push(format!(
            "{len} B from {}",
            first_win.map_or("never (in range)".to_string(), |n| format!("{n} msgs"))
        ));
    }
    r.set(
        "cost_model",
        obj![
            ("call_s", model.call_s),
            ("call_allocating_s", call_allocating_s),
            ("allocations_in_20_repeated_calls", repeat_allocs),
            ("h2d_bytes_per_s", model.h2d_bytes_per_s),
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
fn section_trees(cx: &Ctx, r: &mut Report, dl: Deadline) {
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
            let leaves_s = cx.gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3;
            got = [0u8; 64];
            let host = best_of(reps, || m.host(&engine, data, &mut got));
            check(&format!("{} host-fed {n} B", m.name()), got, want);
            rows.push(obj![
                ("mode", m.name()),
                ("bytes", n),
                ("device_resident_s", dev),
                ("device_leaves_s", leaves_s),
                ("host_fed_s", host),
                ("cpu_s", c),
                ("device_resident_bytes_per_s", n as f64 / dev),
                ("host_fed_bytes_per_s", n as f64 / host),
                ("cpu_bytes_per_s", n as f64 / c),
                ("host_fed_ratio_to_h2d", n as f64 / host / cx.h2d),
            ]);
            last.push(format!(
                "{} {:.1}/{:.1}/{:.1}",
                m.name(),
                gbs(n as f64, dev),
                gbs(n as f64, host),
                gbs(n as f64, c)
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

/// Tree LI at the 2011 paper's Table 1 sizes, H = 0..4, D = 4, r = 1024
/// (and 1088), device-resident and host-fed on the GPU against the CPU.
fn section_treeli(cx: &Ctx, r: &mut Report, dl: Deadline) {
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

fn main() {
    let args = parse_args().unwrap_or_else(|e| {
        eprintln!("keccakx-gpu-bench: {e}");
        std::process::exit(2)
    });
    if let Some(arch) = &args.precompile {
        std::process::exit(precompile(arch));
    }
    if args.preflight {
        std::process::exit(preflight());
    }
    let devs = match devices() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("keccakx-gpu-bench: no GPU: {e}. Nothing measured (run it on a machine with an NVIDIA GPU).");
            std::process::exit(2);
        }
    };
    if args.device >= devs.len() {
        eprintln!(
            "keccakx-gpu-bench: no GPU with ordinal {} ({} present)",
            args.device,
            devs.len()
        );
        std::process::exit(2);
    }
    let budget = args
        .budget_s
        .unwrap_or(if args.quick { 60.0 } else { 220.0 });
    let mut r = Report::new(args.out.as_ref().map(PathBuf::from), budget);
    let det = device_details(args.device).unwrap_or_else(|e| fail("device details", e));
    let gpu = Arc::new(GpuHasher::new(args.device).unwrap_or_else(|e| fail("opening the GPU", e)));
    let (nv_ver, nv_path) = nvrtc_version()
        .map(|(v, p)| (format!("{}.{}", v.0, v.1), p))
        .unwrap_or_else(|e| ("none".into(), format!("{e}")));
    let cores = keccakx::engine::effective_threads();
    let clock_hz = det.clock_khz.map(|k| k as f64 * 1e3);
    let alu24 =
        clock_hz.map(|c| det.sm_count as f64 * INT_OPS_PER_SM_CLOCK * c / (24.0 * INSTR_PER_ROUND));
    r.set("schema", "keccakx-gpu-bench/2".into());
    r.set("commit", commit().into());
    r.set("quick", args.quick.into());
    r.set("budget_s", budget.into());
    r.set(
        "device",
        obj![
            ("name", det.info.name.as_str()),
            ("ordinal", det.info.ordinal),
            (
                "compute_capability",
                format!(
                    "{}.{}",
                    det.info.compute_capability.0, det.info.compute_capability.1
                )
            ),
            ("sm_count", det.sm_count),
            ("clock_khz", det.clock_khz),
            ("memory_clock_khz", det.memory_clock_khz),
            ("memory_bus_bits", det.memory_bus_bits),
            ("memory_bytes", det.info.memory_bytes),
            ("pci", det.pci.as_str()),
            (
                "driver_cuda",
                format!("{}.{}", det.driver_cuda.0, det.driver_cuda.1)
            ),
            ("nvrtc_version", nv_ver.as_str()),
            ("nvrtc_path", nv_path.as_str()),
            ("kernel_target", gpu.target()),
            ("kernel_image", gpu.image_source()),
        ],
    );
    r.set(
        "cpu",
        obj![("engine", current().name()), ("threads", cores)],
    );
    r.set(
        "alu_bound",
        obj![
            ("int_ops_per_sm_per_clock", INT_OPS_PER_SM_CLOCK),
            ("instructions_per_round", INSTR_PER_ROUND),
            (
                "clock_source",
                "CU_DEVICE_ATTRIBUTE_CLOCK_RATE (peak SM clock)"
            ),
            ("keccak_f1600_per_s", alu24),
        ],
    );
    r.key(format!(
        "{} sm_{}{} {} SMs {:?} kHz, driver CUDA {}.{}, NVRTC {nv_ver}, kernels {} ({}); CPU peer {} on {cores} threads",
        det.info.name,
        det.info.compute_capability.0,
        det.info.compute_capability.1,
        det.sm_count,
        det.clock_khz,
        det.driver_cuda.0,
        det.driver_cuda.1,
        gpu.target(),
        gpu.image_source(),
        current().name()
    ));
    let mut cx = Ctx {
        gpu,
        quick: args.quick,
        cores,
        h2d: f64::NAN,
        alu24,
    };
    let run = |s: &str| args.only.as_deref().is_none_or(|o| o == s);
    // Shares of the budget (estimates for an H100: docs/gpu.md).
    r.section("copy", 0.02);
    section_copy(&mut cx, &mut r); // the others use its H2D figure
    if run("perm") {
        let d = r.section("perm", 0.08);
        section_perm(&cx, &mut r, d);
    }
    if run("batch") {
        let d = r.section("batch", 0.25);
        section_batch(&cx, &mut r, d);
    }
    if run("cost") {
        let d = r.section("cost", 0.15);
        section_cost(&cx, &mut r, d);
    }
    if run("trees") {
        let d = r.section("trees", 0.35);
        section_trees(&cx, &mut r, d);
    }
    if run("treeli") {
        let d = r.section("treeli", 0.15);
        section_treeli(&cx, &mut r, d);
    }
    r.set("complete", true.into());
    println!("{}", r.to_json().to_string_pretty());
}
