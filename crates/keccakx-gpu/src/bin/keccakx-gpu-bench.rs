//! keccakx-gpu-bench: GPU throughput next to its ceilings and peers, in one run.
//!
//! Measures (see docs/gpu.md):
//! - host-to-device and device-to-host copy bandwidth (pinned memory);
//! - Keccak-f[1600] permutations/s: the fast kernel (32-bit halves, native
//!   u64, 12-round variant) and the 2011 paper's 25-threads-per-state kernel,
//!   against the compute ceiling of the device;
//! - batch SHA3-256 of 64-byte messages, device-resident (kernel time) for
//!   every batch kernel, and host-fed (wall time, from pageable host memory);
//! - KT128 of one large buffer, device-resident and host-fed;
//! - the CPU engine on all cores of the same machine as the peer.
//!
//! Every result is checked against the CPU before it is timed. Writes JSON
//! (`--out FILE`) with device, clocks, driver, NVRTC and commit.
//! Exit status: 0 done, 1 a GPU result was wrong or a step failed, 2 no GPU.

use std::fmt::Write as _;
use std::time::Instant;

use keccakx::engine::LaneSpec;
use keccakx_gpu::{
    device_details, devices, nvrtc_version, perm_reference, BatchKernel, GpuHasher, Layout,
    PermKernel,
};

/// Integer instructions per Keccak-f[1600] round in the ceiling model
/// (../shared/GPU.md: LOP3 for chi/theta, two funnel shifts per 64-bit
/// rotation, about 180 per round).
const INSTR_PER_ROUND: f64 = 180.0;
/// 32-bit integer operations per SM per clock (Hopper, Ampere: 64).
const INT_OPS_PER_SM_CLOCK: f64 = 64.0;

struct Args {
    out: Option<String>,
    device: usize,
    quick: bool,
    preflight: bool,
    precompile: Option<String>,
    only: Option<String>,
}

const USAGE: &str = "usage: keccakx-gpu-bench [--out FILE.json] [--device N] [--quick] [--only perm|batch|kt]
       keccakx-gpu-bench --preflight          driver, NVRTC (path, builtins), devices; exit 2 without a GPU
       keccakx-gpu-bench --precompile sm_XY   compile every kernel module into $KECCAKX_CACHE_DIR (no GPU needed)";

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        out: None,
        device: 0,
        quick: false,
        preflight: false,
        precompile: None,
        only: None,
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
            "--quick" => a.quick = true,
            "--preflight" => a.preflight = true,
            "--precompile" => {
                a.precompile = Some(it.next().ok_or("--precompile needs an architecture (sm_90)")?)
            }
            "--only" => {
                let v = it.next().ok_or("--only needs a section: perm, batch or kt")?;
                if !["perm", "batch", "kt"].contains(&v.as_str()) {
                    return Err(format!("--only {v:?}: not a section (perm, batch, kt)"));
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

struct Rng(u64);
impl Rng {
    fn fill(&mut self, buf: &mut [u8]) {
        for c in buf.chunks_mut(8) {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            let b = self.0.to_le_bytes();
            c.copy_from_slice(&b[..c.len()]);
        }
    }
}

/// A tiny JSON writer (objects of numbers and strings).
struct Json;
impl Json {
    fn esc(s: &str) -> String {
        let mut o = String::new();
        for ch in s.chars() {
            match ch {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(o, "\\u{:04x}", c as u32);
                }
                c => o.push(c),
            }
        }
        o
    }
    fn obj(fields: &[(&str, String)]) -> String {
        let inner: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("\"{}\": {}", Json::esc(k), v))
            .collect();
        format!("{{{}}}", inner.join(", "))
    }
    fn s(v: &str) -> String {
        format!("\"{}\"", Json::esc(v))
    }
    fn n(v: f64) -> String {
        if v.is_finite() {
            format!("{v:.6e}")
        } else {
            "null".into()
        }
    }
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

fn check<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) {
    if got != want {
        eprintln!("keccakx-gpu-bench: WRONG RESULT in {what}: got {got:?}, want {want:?}");
        std::process::exit(1);
    }
}

/// Compile every module for `arch` (sm_XY) into the kernel cache; 0 on success.
fn precompile(arch: &str) -> i32 {
    let Some((a, b)) = arch
        .strip_prefix("sm_")
        .filter(|d| d.len() >= 2)
        .and_then(|d| Some((d[..d.len() - 1].parse().ok()?, d[d.len() - 1..].parse().ok()?)))
    else {
        eprintln!("keccakx-gpu-bench: --precompile {arch:?}: expected sm_XY, e.g. sm_90");
        return 2;
    };
    let target = keccakx_gpu::nvrtc::Target::Cubin(a, b);
    for m in keccakx_gpu::kernels::Module::ALL {
        match keccakx_gpu::kernels::image(m, target) {
            Ok((img, from)) => eprintln!("precompiled {} for {arch}: {} bytes ({from})", m.name(), img.len()),
            Err(e) => {
                eprintln!("keccakx-gpu-bench: precompiling {} for {arch}: {e}", m.name());
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
    let det = device_details(args.device).unwrap_or_else(|e| fail("device details", e));
    let gpu = GpuHasher::new(args.device).unwrap_or_else(|e| fail("opening the GPU", e));
    let (nv_ver, nv_path) = nvrtc_version()
        .map(|(v, p)| (format!("{}.{}", v.0, v.1), p))
        .unwrap_or_else(|e| ("none".into(), format!("{e}")));
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    eprintln!(
        "device {}: {} (sm_{}{}, {} SMs, {:.1} GiB, clock {:?} kHz), driver CUDA {}.{}, kernels {} from {}",
        det.info.ordinal,
        det.info.name,
        det.info.compute_capability.0,
        det.info.compute_capability.1,
        det.sm_count,
        det.info.memory_bytes as f64 / (1u64 << 30) as f64,
        det.clock_khz,
        det.driver_cuda.0,
        det.driver_cuda.1,
        gpu.target(),
        gpu.image_source()
    );
    let q = args.quick;
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);

    // ---- copy bandwidth
    let copy_bytes = if q { 64 << 20 } else { 256 << 20 };
    let h2d = gpu
        .h2d_bandwidth(copy_bytes, 5)
        .unwrap_or_else(|e| fail("H2D bandwidth", e));
    let d2h = gpu
        .d2h_bandwidth(copy_bytes, 5)
        .unwrap_or_else(|e| fail("D2H bandwidth", e));
    eprintln!(
        "copy: H2D {:.1} GB/s, D2H {:.1} GB/s (pinned, {} MiB)",
        h2d / 1e9,
        d2h / 1e9,
        copy_bytes >> 20
    );

    // ---- permutations
    let clock_hz = det.clock_khz.map(|k| k as f64 * 1e3);
    let ceiling24 =
        clock_hz.map(|c| det.sm_count as f64 * INT_OPS_PER_SM_CLOCK * c / (24.0 * INSTR_PER_ROUND));
    let mut perm_json = Vec::new();
    let mut fast24 = f64::NAN;
    let mut paper24 = f64::NAN;
    for k in [
        PermKernel::Fast24,
        PermKernel::FastU64,
        PermKernel::Fast12,
        PermKernel::Paper,
    ] {
        // One whole wave (every block resident at once; no partial tail wave).
        let states: u64 = gpu
            .perm_wave_states(k)
            .unwrap_or_else(|e| fail("occupancy", e));
        // Correctness on a short run.
        let (_, v) = gpu
            .perm_run(k, states.min(4096), 2)
            .unwrap_or_else(|e| fail("permutation kernel", e));
        for s in [0u64, 1, 777, 4095].iter().filter(|s| **s < v.len() as u64) {
            check(
                &format!("{k:?} state {s}"),
                v[*s as usize],
                perm_reference(*s, 2, k.rounds()),
            );
        }
        // Calibrate to about 200 ms of kernel time, best of 3.
        let mut iters = 4u32;
        loop {
            let (t, _) = gpu
                .perm_run(k, states, iters)
                .unwrap_or_else(|e| fail("permutation kernel", e));
            if t > 0.05 || iters > 1 << 20 {
                iters = ((iters as f64) * (0.2 / t.max(1e-6))).clamp(1.0, 1e7) as u32;
                break;
            }
            iters *= 4;
        }
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let (t, _) = gpu
                .perm_run(k, states, iters)
                .unwrap_or_else(|e| fail("permutation kernel", e));
            best = best.min(t);
        }
        let rate = states as f64 * iters as f64 / best;
        let ceiling = ceiling24.map(|c| if k == PermKernel::Fast12 { 2.0 * c } else { c });
        if k == PermKernel::Fast24 {
            fast24 = rate;
        }
        if k == PermKernel::Paper {
            paper24 = rate;
        }
        eprintln!(
            "perm {k:?}: {:.3} G/s{}",
            rate / 1e9,
            ceiling
                .map(|c| format!(
                    " = {:.1}% of the {:.2} G/s ceiling",
                    100.0 * rate / c,
                    c / 1e9
                ))
                .unwrap_or_default()
        );
        perm_json.push(Json::obj(&[
            ("kernel", Json::s(&format!("{k:?}"))),
            ("rounds", Json::n(k.rounds() as f64)),
            ("states", Json::n(states as f64)),
            ("iters", Json::n(iters as f64)),
            ("seconds", Json::n(best)),
            ("perms_per_s", Json::n(rate)),
            (
                "ceiling_perms_per_s",
                ceiling.map(Json::n).unwrap_or("null".into()),
            ),
            (
                "ratio_to_ceiling",
                ceiling.map(|c| Json::n(rate / c)).unwrap_or("null".into()),
            ),
        ]));
    }
    eprintln!("fast / paper-style kernel: {:.1}x", fast24 / paper24);
    if args.only.as_deref() == Some("perm") {
        return;
    }

    // ---- batch SHA3-256 of 64-byte messages
    let sha3 = LaneSpec::new(136, 24, 0x06).unwrap_or_else(|e| fail("spec", e));
    let n: usize = if q { 1 << 20 } else { 1 << 24 };
    let mut host = vec![0u8; n * 64];
    rng.fill(&mut host);
    let d_data = gpu.upload(&host).unwrap_or_else(|e| fail("upload", e));
    let mut d_out = gpu.alloc_zeros(n * 32).unwrap_or_else(|e| fail("alloc", e));
    let sample: Vec<usize> = (0..64)
        .map(|i| (i * 2_654_435_761usize) % n)
        .chain([0, n - 1])
        .collect();
    let verify = |what: &str, out: &[u8]| {
        for &i in &sample {
            let mut want = [0u8; 32];
            sha3.hash_one(&host[i * 64..i * 64 + 64], &mut want);
            check(
                &format!("{what} message {i}"),
                &out[i * 32..i * 32 + 32],
                &want[..],
            );
        }
    };
    let mut dev_json = Vec::new();
    for k in BatchKernel::ALL {
        gpu.set_batch_kernel(k);
        let count = if k == BatchKernel::Paper { n / 16 } else { n };
        let lay = Layout::Uniform {
            count,
            stride: 64,
            len: 64,
        };
        let mut best = f64::INFINITY;
        for rep in 0..3 {
            gpu.hash_many_device_to_device(&sha3, &d_data, lay, 32, &mut d_out)
                .unwrap_or_else(|e| fail("device-resident batch", e));
            best = best.min(gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3);
            if rep == 0 {
                let out = gpu.download(&d_out).unwrap_or_else(|e| fail("download", e));
                let ok: Vec<usize> = sample.iter().copied().filter(|i| *i < count).collect();
                for &i in &ok {
                    let mut want = [0u8; 32];
                    sha3.hash_one(&host[i * 64..i * 64 + 64], &mut want);
                    check(
                        &format!("{k:?} message {i}"),
                        &out[i * 32..i * 32 + 32],
                        &want[..],
                    );
                }
            }
        }
        let bps = count as f64 * 64.0 / best;
        let ceiling_bps = ceiling24.map(|c| c * 64.0);
        eprintln!(
            "SHA3-256 64 B device-resident {k:?}: {:.1} GB/s, {:.0} M msg/s{}",
            bps / 1e9,
            count as f64 / best / 1e6,
            ceiling_bps
                .map(|c| format!(" ({:.1}% of ceiling)", 100.0 * bps / c))
                .unwrap_or_default()
        );
        dev_json.push(Json::obj(&[
            ("kernel", Json::s(&format!("{k:?}"))),
            ("messages", Json::n(count as f64)),
            ("kernel_seconds", Json::n(best)),
            ("bytes_per_s", Json::n(bps)),
            ("messages_per_s", Json::n(count as f64 / best)),
            (
                "ratio_to_ceiling",
                ceiling_bps
                    .map(|c| Json::n(bps / c))
                    .unwrap_or("null".into()),
            ),
        ]));
    }
    gpu.set_batch_kernel(BatchKernel::Auto);
    drop(d_out);

    // Host-fed: from pageable host memory through the pinned pipeline.
    let msgs: Vec<&[u8]> = host.chunks(64).collect();
    let mut out = vec![0u8; n * 32];
    let mut host_best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        gpu.hash_many(&sha3, &msgs, 32, &mut out)
            .unwrap_or_else(|e| fail("host-fed batch", e));
        host_best = host_best.min(t.elapsed().as_secs_f64());
    }
    verify("host-fed", &out);
    let stats_copy = gpu.last_pipeline_stats();
    // The zero-copy input path (mapped pinned memory) for comparison.
    gpu.set_input_path(keccakx_gpu::InputPath::Mapped);
    let mut mapped_best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        gpu.hash_many(&sha3, &msgs, 32, &mut out)
            .unwrap_or_else(|e| fail("host-fed batch (mapped)", e));
        mapped_best = mapped_best.min(t.elapsed().as_secs_f64());
    }
    verify("host-fed mapped", &out);
    let stats_mapped = gpu.last_pipeline_stats();
    gpu.set_input_path(keccakx_gpu::InputPath::Copy);
    let breakdown = |st: &keccakx_gpu::PipelineStats| {
        Json::obj(&[
            ("chunks", Json::n(st.chunks as f64)),
            ("plan_s", Json::n(st.plan_s)),
            ("pack_s", Json::n(st.pack_s)),
            ("h2d_s", Json::n(st.h2d_s)),
            ("kernel_s", Json::n(st.kernel_s)),
            ("d2h_s", Json::n(st.d2h_s)),
            ("drain_s", Json::n(st.drain_s)),
            ("wait_s", Json::n(st.wait_s)),
            ("wall_s", Json::n(st.wall_s)),
        ])
    };
    eprintln!(
        "SHA3-256 64 B host-fed breakdown (copy): {:?}; mapped input {:.1} GB/s",
        stats_copy,
        n as f64 * 64.0 / mapped_best / 1e9
    );
    let host_bps = n as f64 * 64.0 / host_best;
    eprintln!(
        "SHA3-256 64 B host-fed: {:.1} GB/s = {:.1}% of H2D copy bandwidth",
        host_bps / 1e9,
        100.0 * host_bps / h2d
    );

    // ---- KT128 of one buffer
    let kt_bytes: usize = if q { 64 << 20 } else { 1 << 30 };
    let mut big = vec![0u8; kt_bytes];
    rng.fill(&mut big);
    let mut want = [0u8; 32];
    let t = Instant::now();
    let mut h = keccakx::rfc9861::Kt128::new(b"");
    h.update(&big);
    h.finalize_into(&mut want);
    let cpu_kt = kt_bytes as f64 / t.elapsed().as_secs_f64();
    let d_big = gpu.upload(&big).unwrap_or_else(|e| fail("upload", e));
    let mut kt_dev_best = f64::INFINITY;
    let mut kt_dev_kernel = f64::INFINITY;
    let mut got = [0u8; 32];
    for _ in 0..3 {
        let t = Instant::now();
        gpu.kt128_device(&d_big, b"", &mut got)
            .unwrap_or_else(|e| fail("KT128 device", e));
        kt_dev_best = kt_dev_best.min(t.elapsed().as_secs_f64());
        kt_dev_kernel = kt_dev_kernel.min(gpu.last_kernel_ms().unwrap_or(f32::NAN) as f64 / 1e3);
        check("KT128 device-resident", got, want);
    }
    drop(d_big);
    // Host-fed KT through keccakx's KT on the GPU engine (every leaf batch
    // on the GPU: no cost routing).
    let engine = keccakx_gpu::GpuEngine::from_hasher(std::sync::Arc::new(
        GpuHasher::new(args.device).unwrap_or_else(|e| fail("opening the GPU", e)),
    ))
    .with_routing(false);
    let mut kt_host_best = f64::INFINITY;
    for _ in 0..3 {
        let t = Instant::now();
        engine
            .kt(keccakx_gpu::KtVariant::Kt128, &big, b"", &mut got)
            .unwrap_or_else(|e| fail("KT128 host", e));
        kt_host_best = kt_host_best.min(t.elapsed().as_secs_f64());
        check("KT128 host-fed", got, want);
    }
    eprintln!(
        "KT128 {} MiB: device-resident {:.1} GB/s end to end ({:.1} GB/s leaves kernel), host-fed {:.1} GB/s = {:.1}% of H2D, CPU {:.2} GB/s",
        kt_bytes >> 20,
        kt_bytes as f64 / kt_dev_best / 1e9,
        kt_bytes as f64 / kt_dev_kernel / 1e9,
        kt_bytes as f64 / kt_host_best / 1e9,
        100.0 * kt_bytes as f64 / kt_host_best / h2d,
        cpu_kt / 1e9
    );

    // ---- CPU peer: SHA3-256 of the same 64-byte messages on every core.
    let engine = keccakx::engine::current();
    let t = Instant::now();
    let per = n.div_ceil(cores);
    std::thread::scope(|s| {
        for (ms, o) in msgs.chunks(per).zip(out.chunks_mut(per * 32)) {
            s.spawn(move || engine.hash_many(&sha3, ms, 32, o));
        }
    });
    let cpu_sha3 = n as f64 * 64.0 / t.elapsed().as_secs_f64();
    verify("CPU", &out);
    eprintln!(
        "CPU peer ({} on {cores} threads): SHA3-256 64 B {:.2} GB/s",
        engine.name(),
        cpu_sha3 / 1e9
    );

    let json = Json::obj(&[
        ("schema", Json::s("keccakx-gpu-bench/1")),
        ("commit", Json::s(&commit())),
        (
            "unix_time",
            Json::n(
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0.0, |d| d.as_secs_f64()),
            ),
        ),
        ("quick", (if q { "true" } else { "false" }).into()),
        (
            "device",
            Json::obj(&[
                ("name", Json::s(&det.info.name)),
                ("ordinal", Json::n(det.info.ordinal as f64)),
                (
                    "compute_capability",
                    Json::s(&format!(
                        "{}.{}",
                        det.info.compute_capability.0, det.info.compute_capability.1
                    )),
                ),
                ("sm_count", Json::n(det.sm_count as f64)),
                (
                    "clock_khz",
                    det.clock_khz
                        .map(|c| Json::n(c as f64))
                        .unwrap_or("null".into()),
                ),
                (
                    "memory_clock_khz",
                    det.memory_clock_khz
                        .map(|c| Json::n(c as f64))
                        .unwrap_or("null".into()),
                ),
                (
                    "memory_bus_bits",
                    det.memory_bus_bits
                        .map(|c| Json::n(c as f64))
                        .unwrap_or("null".into()),
                ),
                ("memory_bytes", Json::n(det.info.memory_bytes as f64)),
                ("pci", Json::s(&det.pci)),
                (
                    "driver_cuda",
                    Json::s(&format!("{}.{}", det.driver_cuda.0, det.driver_cuda.1)),
                ),
            ]),
        ),
        (
            "nvrtc",
            Json::obj(&[("version", Json::s(&nv_ver)), ("path", Json::s(&nv_path))]),
        ),
        ("kernel_target", Json::s(&gpu.target())),
        ("kernel_image", Json::s(gpu.image_source())),
        ("cpu_threads", Json::n(cores as f64)),
        (
            "ceiling_model",
            Json::obj(&[
                ("int_ops_per_sm_per_clock", Json::n(INT_OPS_PER_SM_CLOCK)),
                ("instructions_per_round", Json::n(INSTR_PER_ROUND)),
                (
                    "keccak_f1600_per_s",
                    ceiling24.map(Json::n).unwrap_or("null".into()),
                ),
            ]),
        ),
        (
            "copy",
            Json::obj(&[
                ("bytes", Json::n(copy_bytes as f64)),
                ("h2d_bytes_per_s", Json::n(h2d)),
                ("d2h_bytes_per_s", Json::n(d2h)),
            ]),
        ),
        ("permutations", format!("[{}]", perm_json.join(", "))),
        ("fast_over_paper", Json::n(fast24 / paper24)),
        (
            "sha3_256_64B",
            Json::obj(&[
                ("device_resident", format!("[{}]", dev_json.join(", "))),
                (
                    "host_fed",
                    Json::obj(&[
                        ("messages", Json::n(n as f64)),
                        ("seconds", Json::n(host_best)),
                        ("bytes_per_s", Json::n(host_bps)),
                        ("ratio_to_h2d", Json::n(host_bps / h2d)),
                        ("breakdown_copy", breakdown(&stats_copy)),
                        ("mapped_bytes_per_s", Json::n(n as f64 * 64.0 / mapped_best)),
                        ("breakdown_mapped", breakdown(&stats_mapped)),
                    ]),
                ),
                ("cpu_peer_bytes_per_s", Json::n(cpu_sha3)),
                ("cpu_engine", Json::s(engine.name())),
            ]),
        ),
        (
            "kt128",
            Json::obj(&[
                ("bytes", Json::n(kt_bytes as f64)),
                (
                    "device_resident_bytes_per_s",
                    Json::n(kt_bytes as f64 / kt_dev_best),
                ),
                (
                    "device_leaves_kernel_bytes_per_s",
                    Json::n(kt_bytes as f64 / kt_dev_kernel),
                ),
                (
                    "host_fed_bytes_per_s",
                    Json::n(kt_bytes as f64 / kt_host_best),
                ),
                (
                    "host_fed_ratio_to_h2d",
                    Json::n(kt_bytes as f64 / kt_host_best / h2d),
                ),
                ("cpu_bytes_per_s", Json::n(cpu_kt)),
            ]),
        ),
    ]);
    println!("{json}");
    if let Some(path) = args.out {
        if let Err(e) = std::fs::write(&path, format!("{json}\n")) {
            fail(&format!("writing {path}"), e);
        }
        eprintln!("wrote {path}");
    }
}
