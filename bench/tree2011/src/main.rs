//! keccakx-tree2011: the CPU half of Table 1 of the 2011 GPU Keccak tree-mode
//! paper, re-measured on this machine (DESIGN.md, "Reproductions of the
//! source papers", item 1).
//!
//! Tree LI (docs/tree-li.md) with D = 4 and H = 0..4, with the paper's
//! Keccak[r = 1024, c = 576] and with SHA3-256's Keccak[r = 1088, c = 512],
//! on the files of the paper (1,050,112 / 10,500,096 / 25,200,000 /
//! 50,400,000 bytes, deterministic content), on three CPU engines:
//!
//! * `scalar-1t`: the scalar engine on one thread;
//! * `simd-1t`:   the best multi-lane SIMD engine of this CPU on one thread;
//! * `simd-all`:  the best engine on every core (keccakx's thread engine).
//!
//! Beside them MD5 (OpenSSL) and plain SHA3-256 (keccakx and OpenSSL) on the
//! same data. Each case is timed on bytes in memory and, end to end, from a
//! file in the page cache (read + hash).
//!
//! Then the paper's Table 2 (the Keccak reference implementation on one
//! core): the sequential sponge Keccak[r = 1024, c = 576] on its sizes
//! (128,000 .. 128,000,000 bytes), fed in 128-byte updates as the paper did
//! and in one call, with SHA3-256 and MD5 beside it, in seconds and in
//! time-stamp-counter cycles (the paper's cycles are its 3.00 GHz clock's).
//!
//! Medians of several runs go to a JSON file; `plot.py` draws the figure and
//! the tables from it, beside the published figures (paper2011.json).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use keccakx::engine::{self, Engine, Threads};
use keccakx::fips202::Sha3_256;
use keccakx::registry::{Hasher, Params};
use keccakx::tree_li::{tree_li_with_engine, TreeLiParams};
use openssl::hash::{hash, MessageDigest};

/// The paper's Table 1 file sizes (bytes; as in paper2011.json, which
/// plot.py checks the measured sizes against).
const PAPER_SIZES: [usize; 4] = [1_050_112, 10_500_096, 25_200_000, 50_400_000];
/// The paper's Table 2 sizes (bytes): its reference CPU timings.
const REF_SIZES: [usize; 4] = [128_000, 1_280_000, 12_800_000, 128_000_000];
/// Table 2 fed the reference implementation 128-byte blocks (r = 1024 bits).
const REF_UPDATE_BYTES: usize = 128;
const HEIGHTS: [usize; 5] = [0, 1, 2, 3, 4];
const DEGREE: usize = 4;
/// Digest length of every tree-LI run (the paper's 256-bit output).
const OUT_LEN: usize = 32;

struct Options {
    out: PathBuf,
    runs: usize,
    tmpdir: PathBuf,
    files: bool,
    quick: bool,
}

const USAGE: &str = concat!(
    "usage: keccakx-tree2011 --out FILE.json [--runs N] [--tmpdir DIR] [--no-files] [--quick]\n",
    "  --out FILE     where the JSON goes (required)\n",
    "  --runs N       at least N timed runs per case, median reported (default 5; 1..=50);\n",
    "                 short cases run more, until 0.25 s (at most 200 runs)\n",
    "  --tmpdir DIR   where the files for the end-to-end runs are written (default: $TMPDIR or /tmp)\n",
    "  --no-files     skip the end-to-end runs from files in the page cache\n",
    "  --quick        2 runs, the largest reference size 12,800,000 B (a smoke test, not for the table)",
);

fn parse_args() -> Result<Options, String> {
    let mut out = None;
    let mut runs = None;
    let mut tmpdir = std::env::temp_dir();
    let mut files = true;
    let mut quick = false;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(args.next().ok_or("--out needs a file name")?)),
            "--runs" => {
                let v = args.next().ok_or("--runs needs a number")?;
                let n: usize = v
                    .parse()
                    .map_err(|_| format!("--runs: '{v}' is not a number"))?;
                if !(1..=50).contains(&n) {
                    return Err(format!("--runs: {n} is out of range 1..=50"));
                }
                runs = Some(n);
            }
            "--tmpdir" => tmpdir = PathBuf::from(args.next().ok_or("--tmpdir needs a directory")?),
            "--no-files" => files = false,
            "--quick" => quick = true,
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            other => return Err(format!("unknown argument '{other}'\n{USAGE}")),
        }
    }
    let out = out.ok_or_else(|| format!("--out is required\n{USAGE}"))?;
    let runs = runs.unwrap_or(if quick { 2 } else { 5 });
    Ok(Options {
        out,
        runs,
        tmpdir,
        files,
        quick,
    })
}

/// Deterministic content: xorshift64* from a fixed seed (the same bytes on
/// every machine and every run).
fn content(len: usize) -> Vec<u8> {
    let mut x: u64 = 0x2011_5EED_CAFE_F00D;
    let mut v = Vec::with_capacity(len + 8);
    while v.len() < len {
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        v.extend_from_slice(&x.wrapping_mul(0x2545_F491_4F6C_DD1D).to_le_bytes());
    }
    v.truncate(len);
    v
}

fn hex(b: &[u8]) -> String {
    b.iter().fold(String::new(), |mut s, x| {
        let _ = write!(s, "{x:02x}");
        s
    })
}

/// Timings of one case: one untimed warm-up, then `runs` timed runs. Wall
/// time is what the table reports; process CPU time (all threads) and the
/// involuntary context switches show how much other load took the cores;
/// time-stamp-counter ticks are the cycles of Table 2.
struct Timing {
    samples: Vec<f64>,
    cpu: Vec<f64>,
    preempted: Vec<i64>,
    ticks: Vec<f64>,
}

/// The time-stamp counter: on x86-64 with an invariant TSC (cpuinfo's
/// `constant_tsc nonstop_tsc`, recorded in the JSON) it counts at a fixed
/// reference clock whatever the core's frequency, as the paper's cycles do
/// at its 3.00 GHz; None elsewhere.
fn tsc() -> Option<u64> {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC exists on every x86-64 CPU and has no preconditions.
        Some(unsafe { core::arch::x86_64::_rdtsc() })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        None
    }
}

/// The TSC's rate in Hz, measured against the monotonic clock over 200 ms.
fn tsc_hz() -> Option<f64> {
    let (t0, c0) = (Instant::now(), tsc()?);
    while t0.elapsed() < Duration::from_millis(200) {
        std::hint::spin_loop();
    }
    let (c1, dt) = (tsc()?, t0.elapsed().as_secs_f64());
    Some(c1.wrapping_sub(c0) as f64 / dt)
}

/// CPU time of the whole process (every thread), seconds.
fn process_cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: a valid clock id and a valid pointer to a timespec.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return f64::NAN;
    }
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Involuntary context switches of the process so far (preemptions).
fn involuntary_switches() -> i64 {
    // SAFETY: zeroed rusage is a valid value; getrusage fills it.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid `who` and a valid pointer.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) } != 0 {
        return -1;
    }
    ru.ru_nivcsw as i64
}

fn median_of(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.total_cmp(b));
    let n = s.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

impl Timing {
    fn median(&self) -> f64 {
        median_of(&self.samples)
    }
    fn min(&self) -> f64 {
        self.samples.iter().copied().fold(f64::INFINITY, f64::min)
    }
    fn max(&self) -> f64 {
        self.samples.iter().copied().fold(0.0, f64::max)
    }
    fn json(&self, bytes: usize) -> String {
        let med = self.median();
        let samples: Vec<String> = self.samples.iter().map(|s| format!("{s:.6}")).collect();
        format!(
            "\"median_s\": {med:.6}, \"min_s\": {:.6}, \"max_s\": {:.6}, \"mb_per_s\": {:.1}, \"cpu_median_s\": {:.6}, \"preempted_median\": {}, \"tsc_cycles_median\": {}, \"runs\": {}, \"samples_s\": [{}]",
            self.min(),
            self.max(),
            bytes as f64 / med / 1e6,
            median_of(&self.cpu),
            median_of(&self.preempted.iter().map(|&x| x as f64).collect::<Vec<_>>()),
            if self.ticks.is_empty() {
                "null".to_string()
            } else {
                format!("{:.0}", median_of(&self.ticks))
            },
            self.samples.len(),
            samples.join(", ")
        )
    }
}

/// Short cases run until they have taken at least this long (more samples,
/// steadier medians on a shared machine), up to [`MAX_RUNS`] runs.
const MIN_CASE_SECS: f64 = 0.25;
const MAX_RUNS: usize = 200;

/// Time `f` (which returns a digest): a warm-up, then at least `runs` runs,
/// more for short cases (until [`MIN_CASE_SECS`]). Every run must give the
/// warm-up's digest.
fn measure<F>(runs: usize, mut f: F) -> Result<(Timing, Vec<u8>), String>
where
    F: FnMut() -> Result<Vec<u8>, String>,
{
    let first = f()?;
    let mut samples = Vec::with_capacity(runs);
    let mut cpu = Vec::with_capacity(runs);
    let mut preempted = Vec::with_capacity(runs);
    let mut ticks = Vec::with_capacity(runs);
    let mut total = 0.0;
    while samples.len() < runs || (total < MIN_CASE_SECS && samples.len() < MAX_RUNS) {
        let (c0, p0) = (process_cpu(), involuntary_switches());
        let t = Instant::now();
        let k0 = tsc();
        let d = f()?;
        let k1 = tsc();
        let dt = t.elapsed().as_secs_f64();
        if let (Some(a), Some(b)) = (k0, k1) {
            ticks.push(b.wrapping_sub(a) as f64);
        }
        cpu.push(process_cpu() - c0);
        preempted.push(involuntary_switches() - p0);
        samples.push(dt);
        total += dt;
        if d != first {
            return Err("a digest changed between runs of the same case".into());
        }
    }
    Ok((
        Timing {
            samples,
            cpu,
            preempted,
            ticks,
        },
        first,
    ))
}

fn tree(e: &dyn Engine, p: &TreeLiParams, msg: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = vec![0u8; OUT_LEN];
    tree_li_with_engine(e, p, msg, &mut out).map_err(|err| format!("tree LI: {err}"))?;
    Ok(out)
}

fn md5(msg: &[u8]) -> Result<Vec<u8>, String> {
    hash(MessageDigest::md5(), msg)
        .map(|d| d.to_vec())
        .map_err(|e| format!("OpenSSL MD5: {e}"))
}

fn sha3_openssl(msg: &[u8]) -> Result<Vec<u8>, String> {
    hash(MessageDigest::sha3_256(), msg)
        .map(|d| d.to_vec())
        .map_err(|e| format!("OpenSSL SHA3-256: {e}"))
}

fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("reading {}: {e}", path.display()))
}

/// A parameter set of the table: the paper's Keccak[1024, 576] or SHA3-256's.
fn params(set: &str, h: usize) -> TreeLiParams {
    match set {
        "paper" => TreeLiParams::paper(h),
        _ => TreeLiParams {
            degree: DEGREE,
            height: h,
            rate_bits: 1088,
            capacity_bits: 512,
            ..TreeLiParams::default()
        },
    }
}

fn sh(cmd: &str, args: &[&str]) -> Option<String> {
    let o = Command::new(cmd).args(args).output().ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).trim().to_string())
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn jstr(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\u{:04x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// UTC civil date and time from the Unix clock (no dependency for it).
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or(Duration::ZERO)
        .as_secs() as i64;
    let (days, rem) = (secs.div_euclid(86400), secs.rem_euclid(86400));
    // Howard Hinnant's days-to-civil algorithm.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

fn machine_json(load_before: &str) -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let field = |name: &str| {
        cpuinfo
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_once(':'))
            .map(|(_, v)| v.trim().to_string())
            .unwrap_or_else(|| "unknown".into())
    };
    let flags: Vec<String> = field("flags")
        .split_whitespace()
        .filter(|f| {
            [
                "sse",
                "ssse3",
                "avx",
                "bmi",
                "sha_ni",
                "aes",
                "pclmul",
                "vpclmul",
                "constant_tsc",
                "nonstop_tsc",
            ]
            .iter()
            .any(|p| f.starts_with(p))
        })
        .map(jstr)
        .collect();
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| m.lines().next().map(|l| l.to_string()))
        .unwrap_or_default();
    format!(
        "{{\"cpu_model\": {}, \"cpu_family_model_stepping\": {}, \"logical_cpus\": {cpus}, \"cpu_mhz\": {}, \"tsc_hz\": {}, \"cpu_flags_relevant\": [{}], \"mem\": {}, \"kernel\": {}, \"rustc\": {}, \"openssl\": {}, \"loadavg_before\": {}}}",
        jstr(&field("model name")),
        // "AMD EPYC" alone does not tell a Zen 4 host (family 25) from a
        // Zen 5 one (family 26), whose AVX-512 datapaths differ.
        jstr(&format!(
            "{}/{}/{}",
            field("cpu family"),
            field("model\t"),
            field("stepping")
        )),
        jstr(&field("cpu MHz")),
        tsc_hz().map_or("null".to_string(), |hz| format!("{hz:.0}")),
        flags.join(", "),
        jstr(&mem),
        jstr(&sh("uname", &["-sr"]).unwrap_or_else(|| "unknown".into())),
        jstr(&sh("rustc", &["--version"]).unwrap_or_else(|| "unknown".into())),
        jstr(openssl::version::version()),
        jstr(load_before),
    )
}

fn commit_json() -> String {
    let commit = sh("git", &["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    // Uncommitted changes in what is measured: the library and this program.
    let dirty = sh(
        "git",
        &["status", "--porcelain", "--", "../../crates/keccakx", "."],
    )
    .map(|s| !s.is_empty());
    format!(
        "\"commit\": {}, \"dirty\": {}",
        jstr(&commit),
        dirty.map_or("null".to_string(), |d| d.to_string())
    )
}

/// One engine column of the table.
struct Column {
    key: &'static str,
    engine: &'static dyn Engine,
    threads: usize,
    describe: String,
}

/// The JSON rows of the report, by table.
#[derive(Default)]
struct Rows {
    tree_li: Vec<String>,
    others: Vec<String>,
    reference: Vec<String>,
}

fn run() -> Result<(), String> {
    let opt = parse_args()?;
    // Fail now, not after the run, if the result cannot be written.
    if let Some(dir) = opt.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    }
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&opt.out)
        .map_err(|e| format!("cannot write {}: {e}", opt.out.display()))?;
    let load_before = loadavg();
    let started = Instant::now();
    let columns = engine_columns()?;
    eprintln!(
        "tree2011: engines {} / {} / {}; {} runs per case; load {load_before}",
        columns[0].describe, columns[1].describe, columns[2].describe, opt.runs
    );

    let mut rows = Rows::default();
    let mut file_paths = Vec::new();
    let result = PAPER_SIZES
        .iter()
        .try_for_each(|&size| paper_size(&opt, &columns, size, &mut rows, &mut file_paths));
    for p in &file_paths {
        let _ = std::fs::remove_file(p);
    }
    result?;
    reference_timings(&opt, &mut rows)?;

    let json = report_json(&opt, &columns, &rows, &load_before, started);
    if let Some(dir) = opt.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    }
    std::fs::write(&opt.out, json).map_err(|e| format!("writing {}: {e}", opt.out.display()))?;
    eprintln!(
        "tree2011: wrote {} in {:.0} s",
        opt.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The three engine columns: scalar, the best SIMD engine of this CPU, and
/// the best on every core.
fn engine_columns() -> Result<[Column; 3], String> {
    engine::set_threads(0);
    let best: &'static dyn Engine = engine::available()
        .next()
        .ok_or("no keccakx engine is available")?;
    let simd: &'static dyn Engine = engine::available()
        .find(|e| e.name() != "scalar")
        .unwrap_or(best);
    let scalar = engine::by_name("scalar").map_err(|e| format!("scalar engine: {e}"))?;
    static THREADS: std::sync::OnceLock<Threads> = std::sync::OnceLock::new();
    let threads: &'static dyn Engine = THREADS.get_or_init(|| Threads::new(best));
    let all = engine::effective_threads();
    Ok([
        Column {
            key: "scalar-1t",
            engine: scalar,
            threads: 1,
            describe: "scalar engine, 1 thread".into(),
        },
        Column {
            key: "simd-1t",
            engine: simd,
            threads: 1,
            describe: format!("{} engine, 1 thread", simd.name()),
        },
        Column {
            key: "simd-all",
            engine: threads,
            threads: all,
            describe: format!("{} engine on {all} threads (rayon)", best.name()),
        },
    ])
}

/// Everything measured on one of the paper's sizes: tree LI at every height
/// on every column (and from a file), MD5 and SHA3-256, a copy, a read.
/// Files written are added to `file_paths` (the caller removes them).
fn paper_size(
    opt: &Options,
    columns: &[Column; 3],
    size: usize,
    rows: &mut Rows,
    file_paths: &mut Vec<PathBuf>,
) -> Result<(), String> {
    let data = content(size);
    let path = opt.tmpdir.join(format!("keccakx-tree2011-{size}.bin"));
    if opt.files {
        std::fs::write(&path, &data).map_err(|e| format!("writing {}: {e}", path.display()))?;
        file_paths.push(path.clone());
        // Into the page cache (and check it reads back).
        if read_file(&path)? != data {
            return Err(format!("{} did not read back equal", path.display()));
        }
    }
    for set in ["paper", "sha3-256"] {
        for &h in &HEIGHTS {
            tree_height(opt, columns, set, h, &data, &path, rows)?;
        }
    }
    other_functions(opt, &data, &path, rows)?;
    copy_and_read(opt, &data, &path, rows)
}

/// Tree LI with parameter set `set` at height `h` on `data`: every column
/// (their digests must agree), then from the file on every core.
fn tree_height(
    opt: &Options,
    columns: &[Column; 3],
    set: &str,
    h: usize,
    data: &[u8],
    path: &Path,
    rows: &mut Rows,
) -> Result<(), String> {
    let size = data.len();
    let p = params(set, h);
    let leaves = p.leaves().unwrap_or(0);
    let mut digest: Option<Vec<u8>> = None;
    for col in columns {
        let (t, d) = measure(opt.runs, || tree(col.engine, &p, data))?;
        if let Some(prev) = &digest {
            if *prev != d {
                return Err(format!(
                    "engines disagree: {set} H={h} size={size}: {} gives {}, scalar {}",
                    col.key,
                    hex(&d),
                    hex(prev)
                ));
            }
        }
        eprintln!(
            "  {set:8} H={h} {size:>10} B {:10} memory {:9.4} s",
            col.key,
            t.median()
        );
        rows.tree_li.push(format!(
            "{{\"params\": {}, \"r\": {}, \"c\": {}, \"D\": {DEGREE}, \"H\": {h}, \"leaves\": {leaves}, \"size\": {size}, \"engine\": {}, \"engine_name\": {}, \"threads\": {}, \"source\": \"memory\", \"digest\": {}, {}}}",
            jstr(set), p.rate_bits, p.capacity_bits, jstr(col.key), jstr(col.engine.name()), col.threads,
            jstr(&hex(&d)), t.json(size)
        ));
        digest = Some(d);
    }
    if opt.files {
        // End to end: read the file (page cache) and hash it on every core.
        let col = &columns[2];
        let (t, d) = measure(opt.runs, || tree(col.engine, &p, &read_file(path)?))?;
        if Some(&d) != digest.as_ref() {
            return Err(format!("file digest differs: {set} H={h} size={size}"));
        }
        eprintln!(
            "  {set:8} H={h} {size:>10} B {:10} file   {:9.4} s",
            col.key,
            t.median()
        );
        rows.tree_li.push(format!(
            "{{\"params\": {}, \"r\": {}, \"c\": {}, \"D\": {DEGREE}, \"H\": {h}, \"leaves\": {leaves}, \"size\": {size}, \"engine\": {}, \"engine_name\": {}, \"threads\": {}, \"source\": \"file\", \"digest\": {}, {}}}",
            jstr(set), p.rate_bits, p.capacity_bits, jstr(col.key), jstr(col.engine.name()), col.threads,
            jstr(&hex(&d)), t.json(size)
        ));
    }
    Ok(())
}

/// MD5 and SHA3-256 on the same data (and from the file).
fn other_functions(opt: &Options, data: &[u8], path: &Path, rows: &mut Rows) -> Result<(), String> {
    let size = data.len();
    type Fun = fn(&[u8]) -> Result<Vec<u8>, String>;
    let others: [(&str, Fun); 3] = [
        ("md5-openssl", md5),
        ("sha3-256-openssl", sha3_openssl),
        ("sha3-256-keccakx", |m| Ok(Sha3_256::digest(m).to_vec())),
    ];
    for (name, f) in others {
        let (t, d) = measure(opt.runs, || f(data))?;
        eprintln!("  {name:17} {size:>10} B memory {:9.4} s", t.median());
        rows.others.push(format!(
            "{{\"algorithm\": {}, \"size\": {size}, \"source\": \"memory\", \"digest\": {}, {}}}",
            jstr(name),
            jstr(&hex(&d)),
            t.json(size)
        ));
        if opt.files {
            let (t, fd) = measure(opt.runs, || f(&read_file(path)?))?;
            if fd != d {
                return Err(format!("{name}: file digest differs at size {size}"));
            }
            eprintln!("  {name:17} {size:>10} B file   {:9.4} s", t.median());
            rows.others.push(format!(
                "{{\"algorithm\": {}, \"size\": {size}, \"source\": \"file\", \"digest\": {}, {}}}",
                jstr(name),
                jstr(&hex(&d)),
                t.json(size)
            ));
        }
    }
    Ok(())
}

/// A copy of the message into a fresh buffer: the memory traffic of the
/// one-shot tree LI's leaf gathering (tree_li.rs copies every leaf's
/// interleaved blocks into one buffer before hashing); and the file's read
/// alone, the I/O share of the end-to-end figures.
fn copy_and_read(opt: &Options, data: &[u8], path: &Path, rows: &mut Rows) -> Result<(), String> {
    let size = data.len();
    let (t, _) = measure(opt.runs, || {
        let v = std::hint::black_box(data.to_vec());
        Ok(vec![v[v.len() / 2]])
    })?;
    eprintln!(
        "  copy-only         {size:>10} B memory {:9.4} s",
        t.median()
    );
    rows.others.push(format!(
        "{{\"algorithm\": \"copy-only\", \"size\": {size}, \"source\": \"memory\", \"digest\": \"\", {}}}",
        t.json(size)
    ));
    if opt.files {
        let (t, _) = measure(opt.runs, || read_file(path).map(|v| vec![v.len() as u8]))?;
        rows.others.push(format!(
            "{{\"algorithm\": \"read-only\", \"size\": {size}, \"source\": \"file\", \"digest\": \"\", {}}}",
            t.json(size)
        ));
    }
    Ok(())
}

/// The sequential sponge Keccak[r = 1024, c = 576] of Table 2 (32 bytes out),
/// fed `update` bytes at a time.
fn keccak_sequential(msg: &[u8], update: usize) -> Result<Vec<u8>, String> {
    let p = Params {
        rate: Some(1024),
        capacity: Some(576),
        length: Some(OUT_LEN),
        ..Params::default()
    };
    let mut h = Hasher::new("keccak", &p).map_err(|e| format!("Keccak[1024, 576]: {e}"))?;
    for part in msg.chunks(update.max(1)) {
        h.update(part);
    }
    Ok(h.finalize())
}

/// The paper's Table 2 (its reference CPU timings) on its sizes, one core:
/// Keccak[1024, 576] in 128-byte updates as the paper fed it and in one
/// call, SHA3-256 (keccakx) and MD5 (OpenSSL) beside it.
fn reference_timings(opt: &Options, rows: &mut Rows) -> Result<(), String> {
    let ref_sizes = REF_SIZES
        .iter()
        .copied()
        .filter(|&s| !opt.quick || s <= 12_800_000);
    type Fun = fn(&[u8]) -> Result<Vec<u8>, String>;
    let cases: [(&str, Option<usize>, Fun); 4] = [
        ("keccak-1024-576-updates-128", Some(REF_UPDATE_BYTES), |m| {
            keccak_sequential(m, REF_UPDATE_BYTES)
        }),
        ("keccak-1024-576-one-call", None, |m| {
            keccak_sequential(m, m.len())
        }),
        ("sha3-256-keccakx", None, |m| {
            Ok(Sha3_256::digest(m).to_vec())
        }),
        ("md5-openssl", None, md5),
    ];
    for size in ref_sizes {
        let data = content(size);
        let mut one_call = None;
        for (name, update, f) in cases {
            let (t, d) = measure(opt.runs, || f(&data))?;
            // The same sponge fed two ways must give the same digest.
            if name.starts_with("keccak-1024-576") {
                if one_call.get_or_insert_with(|| d.clone()) != &d {
                    return Err(format!(
                        "{name}: digest differs from the other feeding at {size} B"
                    ));
                }
            }
            eprintln!("  table 2 {name:28} {size:>11} B {:9.4} s", t.median());
            rows.reference.push(format!(
                "{{\"algorithm\": {}, \"update_bytes\": {}, \"size\": {size}, \"digest\": {}, {}}}",
                jstr(name),
                update.map_or("null".to_string(), |u| u.to_string()),
                jstr(&hex(&d)),
                t.json(size)
            ));
        }
    }
    Ok(())
}

/// The report: settings, machine, columns and the three tables.
fn report_json(
    opt: &Options,
    columns: &[Column; 3],
    rows: &Rows,
    load_before: &str,
    started: Instant,
) -> String {
    let cols: Vec<String> = columns
        .iter()
        .map(|c| {
            format!(
                "{}: {{\"engine\": {}, \"threads\": {}, \"describe\": {}}}",
                jstr(c.key),
                jstr(c.engine.name()),
                c.threads,
                jstr(&c.describe)
            )
        })
        .collect();
    format!(
        "{{\n\"benchmark\": \"tree2011\",\n\"what\": \"CPU half of Table 1 of the 2011 GPU Keccak tree-mode paper: tree LI D=4 H=0..4, MD5, SHA3-256; its Table 2: sequential Keccak[1024,576] on 128,000..128,000,000 bytes, in seconds and TSC cycles\",\n\"date\": {},\n{},\n\"machine\": {},\n\"loadavg_after\": {},\n\"wall_s\": {:.1},\n\"settings\": {{\"runs\": {}, \"warmup_runs\": 1, \"min_case_s\": {MIN_CASE_SECS}, \"max_runs\": {MAX_RUNS}, \"quick\": {}, \"files\": {}, \"out_len\": {OUT_LEN}, \"content\": \"xorshift64* seed 0x20115EEDCAFEF00D\"}},\n\"gpu\": \"not measured: no GPU lent to this run\",\n\"columns\": {{{}}},\n\"tree_li\": [\n{}\n],\n\"others\": [\n{}\n],\n\"reference\": [\n{}\n]\n}}\n",
        jstr(&utc_now()),
        commit_json(),
        machine_json(load_before),
        jstr(&loadavg()),
        started.elapsed().as_secs_f64(),
        opt.runs,
        opt.quick,
        opt.files,
        cols.join(", "),
        rows.tree_li.join(",\n"),
        rows.others.join(",\n"),
        rows.reference.join(",\n"),
    )
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("keccakx-tree2011: error: {e}");
            ExitCode::from(2)
        }
    }
}
