//! keccakx-gpu-bench: everything the first GPU runs measure, in one run
//! (docs/gpu.md), each figure beside its ceiling or its
//! CPU peer measured in the same run on the same machine:
//!
//! 1. `copy`: host-to-device / device-to-host bandwidth (pinned);
//! 2. `perm`: Keccak-f\[1600\] permutations/s, 24 and 12 rounds, the fast
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
//!
//! Layout: `args` (the command line), `preflight` (`--preflight`,
//! `--precompile`), `sections/` (one file per section, run in order by
//! `sections::run_all`), `measure` (timing, checks, the CPU peer),
//! `report` (the JSON record, key figures, deadlines); this file opens the
//! device and records what the run ran on.

mod args;
mod measure;
mod preflight;
mod report;
mod sections;

use std::path::PathBuf;
use std::process::exit;
use std::sync::Arc;

use keccakx::engine::current;
use keccakx_gpu::{device_details, devices, nvrtc_version, DeviceDetails, GpuHasher};

use args::Args;
use measure::fail;
use measure::INSTR_PER_ROUND;
use report::{obj, Report};
use sections::Ctx;

/// 32-bit integer operations per SM per clock (Hopper, Ampere: 64).
const INT_OPS_PER_SM_CLOCK: f64 = 64.0;

/// The commit measured: `KECCAKX_COMMIT` (the packed run has no .git), else git's HEAD.
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

fn main() {
    let args = args::parse().unwrap_or_else(|e| {
        eprintln!("keccakx-gpu-bench: {e}");
        exit(2)
    });
    if let Some(arch) = &args.precompile {
        exit(preflight::precompile(arch));
    }
    if args.preflight {
        exit(preflight::preflight());
    }
    require_device(args.device);
    let budget = args.budget_s.unwrap_or(if args.focus {
        170.0
    } else if args.quick {
        60.0
    } else {
        220.0
    });
    let mut r = Report::new(args.out.as_ref().map(PathBuf::from), budget);
    let mut cx = start(&args, budget, &mut r);
    if args.focus {
        r.set("focus", true.into());
        sections::run_focus(&mut cx, &mut r, args.focus_part.as_deref());
    } else {
        sections::run_all(&mut cx, &mut r, args.only.as_deref());
    }
    r.set("complete", true.into());
    println!("{}", r.to_json().to_string_pretty());
}

/// Exit with status 2 unless there is a GPU with this ordinal.
fn require_device(ordinal: usize) {
    let devs = match devices() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("keccakx-gpu-bench: no GPU: {e}. Nothing measured (run it on a machine with an NVIDIA GPU).");
            exit(2);
        }
    };
    if ordinal >= devs.len() {
        eprintln!(
            "keccakx-gpu-bench: no GPU with ordinal {} ({} present)",
            ordinal,
            devs.len()
        );
        exit(2);
    }
}

/// Open the device and record the run's setting: the device, NVRTC, the
/// CPU peer and the ALU bound (JSON and the first key line).
fn start(args: &Args, budget: f64, r: &mut Report) -> Ctx {
    let det = device_details(args.device).unwrap_or_else(|e| fail("device details", e));
    let gpu = Arc::new(GpuHasher::new(args.device).unwrap_or_else(|e| fail("opening the GPU", e)));
    let (nv_ver, nv_path) = nvrtc_version()
        .map(|(v, p)| (format!("{}.{}", v.0, v.1), p))
        .unwrap_or_else(|e| ("none".into(), format!("{e}")));
    let cores = keccakx::engine::effective_threads();
    let alu24 = alu_bound_24(&det);
    r.set("schema", "keccakx-gpu-bench/2".into());
    r.set("commit", commit().into());
    r.set("quick", args.quick.into());
    r.set("budget_s", budget.into());
    r.set("device", device_json(&det, &gpu, &nv_ver, &nv_path));
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
    Ctx {
        gpu,
        quick: args.quick,
        cores,
        h2d: f64::NAN,
        alu24,
    }
}

/// 24-round Keccak-f\[1600\] permutations/s the integer ALUs allow at the
/// peak SM clock; `None` when the driver reports no clock.
fn alu_bound_24(det: &DeviceDetails) -> Option<f64> {
    let clock_hz = det.clock_khz.map(|k| k as f64 * 1e3);
    clock_hz.map(|c| det.sm_count as f64 * INT_OPS_PER_SM_CLOCK * c / (24.0 * INSTR_PER_ROUND))
}

fn device_json(det: &DeviceDetails, gpu: &GpuHasher, nv_ver: &str, nv_path: &str) -> report::J {
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
        ("nvrtc_version", nv_ver),
        ("nvrtc_path", nv_path),
        ("kernel_target", gpu.target()),
        ("kernel_image", gpu.image_source()),
    ]
}
