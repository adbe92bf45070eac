//! Shared by the stress tests: a scratch folder an unprivileged user can
//! read, holding a copy of the binary, and runs under resource limits.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

pub const BIN: &str = env!("CARGO_BIN_EXE_keccakx");
/// The unprivileged user a limited run takes when the tests run as root:
/// one of its own per run and test, so that the limit on processes (which
/// counts every process of the user) sees only this run's, not those of
/// tests running beside it or of other programs run as "nobody" (65534).
pub fn test_uid() -> u32 {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    50_000 + (std::process::id() * 16 + n) % 15_000
}

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A resource limit for the child (soft and hard).
#[derive(Clone, Copy, Debug)]
pub enum Limit {
    /// Processes and threads of the user (`ulimit -u`).
    Nproc(u64),
    /// Address space, KiB (`ulimit -v`).
    As(u64),
    /// Open descriptors (`ulimit -n`).
    Nofile(u64),
    /// Largest file written, bytes (`ulimit -f` × 1024).
    Fsize(u64),
}

/// A folder under the system's temporary folder, world-readable, with a
/// copy of the binary in it (the build folder may not be open to others).
pub struct Scratch {
    pub dir: PathBuf,
    pub bin: PathBuf,
}

/// The folder of this test process's copy of the binary.
fn bin_dir() -> PathBuf {
    std::env::temp_dir().join(format!("keccakx-stress-{}-bin", std::process::id()))
}

/// Removes the copy of the binary when the test process exits (a static
/// is never dropped).
extern "C" fn remove_bin_copy() {
    let _ = std::fs::remove_dir_all(bin_dir());
}

/// Removes the scratch folders (`keccakx-stress-PID-*`) of test processes
/// that are gone: a run killed before its exit handler left them.
fn remove_stale_scratch() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(rest) = name
            .to_str()
            .and_then(|n| n.strip_prefix("keccakx-stress-"))
        else {
            continue;
        };
        let Some(pid) = rest.split('-').next().and_then(|p| p.parse::<u32>().ok()) else {
            continue;
        };
        if pid != std::process::id() && !std::path::Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// One copy of the binary for the whole test process, made before any
/// test spawns: a copy written while another thread forks stays open in
/// that child and its exec fails ("Text file busy"). It is removed when
/// the process exits.
fn shared_bin() -> &'static PathBuf {
    static BIN_COPY: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    BIN_COPY.get_or_init(|| {
        remove_stale_scratch();
        let dir = bin_dir();
        let _ = std::fs::remove_dir_all(&dir);
        // SAFETY: registers a plain function with no arguments, run once
        // by exit(); it only removes a folder.
        if unsafe { libc::atexit(remove_bin_copy) } != 0 {
            eprintln!(
                "warning: {} will stay behind (atexit failed)",
                dir.display()
            );
        }
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let bin = dir.join("keccakx");
        std::fs::copy(BIN, &bin).unwrap();
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755)).unwrap();
        bin
    })
}

impl Scratch {
    pub fn new(name: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("keccakx-stress-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        Scratch {
            dir,
            bin: shared_bin().clone(),
        }
    }

    pub fn write(&self, name: &str, data: &[u8]) -> PathBuf {
        self.write_bytes_name(name.as_bytes(), data)
    }

    pub fn write_bytes_name(&self, name: &[u8], data: &[u8]) -> PathBuf {
        let p = self.dir.join(OsStr::from_bytes(name));
        std::fs::write(&p, data).unwrap();
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
        p
    }

    /// A file of `len` pseudo-random bytes (xorshift from `seed`); returns them.
    pub fn random_file(&self, name: &str, len: usize, seed: u64) -> Vec<u8> {
        let mut x = 0x9E37_79B9_7F4A_7C15u64 ^ seed.wrapping_mul(0x2545_F491_4F6C_DD1D);
        let mut v = Vec::with_capacity(len + 8);
        while v.len() < len {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            v.extend_from_slice(&x.to_le_bytes());
        }
        v.truncate(len);
        self.write(name, &v);
        v
    }

    /// The binary with `args`, in this folder, engine and threads as the
    /// environment leaves them (no KECCAKX_ENGINE, no RAYON_NUM_THREADS).
    pub fn cmd(&self, args: &[&str]) -> Command {
        let mut c = Command::new(&self.bin);
        c.args(args)
            .current_dir(&self.dir)
            .env_remove("KECCAKX_ENGINE")
            .env_remove("RAYON_NUM_THREADS")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        c
    }

    /// Run with `limits` (as a [`test_uid`] when root), `stdin` fed in.
    pub fn run(&self, args: &[&str], limits: &[Limit], stdin: &[u8]) -> Output {
        let mut c = self.cmd(args);
        limit(&mut c, limits);
        c.stdin(Stdio::piped());
        let mut child = c.spawn().unwrap();
        let mut i = child.stdin.take().unwrap();
        let data = stdin.to_vec();
        let feeder = std::thread::spawn(move || {
            let _ = i.write_all(&data);
        });
        let o = child.wait_with_output().unwrap();
        let _ = feeder.join();
        o
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Set `limits` in the child before it runs, and drop to a [`test_uid`] when
/// running as root (root is exempt from the limit on processes).
pub fn limit(c: &mut Command, limits: &[Limit]) {
    let limits = limits.to_vec();
    let uid = test_uid();
    // SAFETY: setrlimit, setgroups, setgid and setuid are async-signal-safe
    // system calls; nothing is allocated between fork and exec.
    unsafe {
        c.pre_exec(move || {
            for l in &limits {
                let (res, v) = match *l {
                    Limit::Nproc(n) => (libc::RLIMIT_NPROC, n),
                    Limit::As(kib) => (libc::RLIMIT_AS, kib * 1024),
                    Limit::Nofile(n) => (libc::RLIMIT_NOFILE, n),
                    Limit::Fsize(b) => (libc::RLIMIT_FSIZE, b),
                };
                let r = libc::rlimit {
                    rlim_cur: v as libc::rlim_t,
                    rlim_max: v as libc::rlim_t,
                };
                if libc::setrlimit(res, &r) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            if libc::geteuid() == 0
                && (libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setgid(uid) != 0
                    || libc::setuid(uid) != 0)
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

/// Ended by exit, not by a signal, and no panic message.
pub fn assert_no_signal(o: &Output) {
    assert!(
        o.status.signal().is_none(),
        "killed by signal {:?}; stderr: {}",
        o.status.signal(),
        text(&o.stderr)
    );
    let e = text(&o.stderr);
    assert!(
        !e.contains("panicked")
            && !e.contains("RUST_BACKTRACE")
            && !e.contains("memory allocation"),
        "{e}"
    );
}

/// Exit status `code`, no signal, no panic; every stderr line a
/// `keccakx: ` message; stdout whole lines.
pub fn assert_clean(o: &Output, code: i32) {
    assert_no_signal(o);
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout: {} stderr: {}",
        text(&o.stdout),
        text(&o.stderr)
    );
    for l in text(&o.stderr).lines() {
        assert!(l.starts_with("keccakx: "), "stderr line {l:?}");
    }
    assert!(
        o.stdout.is_empty() || o.stdout.ends_with(b"\n"),
        "partial line: {}",
        text(&o.stdout)
    );
}
