//! Bounded memory on large inputs: the largest resident set of any child
//! (getrusage RUSAGE_CHILDREN) while hashing 512 MiB through a pipe, a 512 MiB
//! sparse file with `--no-mmap`, and the same file memory-mapped.
//! Alone in its own test binary so that no other child skews the figure.

use std::io::Write;
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_keccakx");
/// Input size: 256 times the 2 MiB read buffer, 32 map windows.
const SIZE: u64 = 512 << 20;

/// Peak resident set of all waited-for children so far, in KiB.
fn children_max_rss_kib() -> i64 {
    // SAFETY: getrusage only writes the struct we pass.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) };
    assert_eq!(rc, 0);
    ru.ru_maxrss
}

fn digest_of(out: &[u8]) -> String {
    String::from_utf8_lossy(out)
        .split(' ')
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn large_inputs_use_bounded_memory() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("keccakx-cli-memory");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();

    // Zeros through a pipe (the streaming path).
    let mut child = Command::new(BIN)
        .args(["sum", "-a", "kt128", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        let mut w = child.stdin.take().unwrap();
        let block = vec![0u8; 1 << 20];
        for _ in 0..SIZE >> 20 {
            w.write_all(&block).unwrap();
        }
    }
    let piped = child.wait_with_output().unwrap();
    assert!(piped.status.success());
    let after_pipe = children_max_rss_kib();

    // A sparse file: read with buffers, then mapped.
    let path = dir.join("sparse.bin");
    std::fs::File::create(&path).unwrap().set_len(SIZE).unwrap();
    let read = Command::new(BIN)
        .args(["sum", "-a", "kt128", "--no-mmap"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(read.status.success());
    let after_read = children_max_rss_kib();
    let mapped = Command::new(BIN)
        .args(["sum", "-a", "kt128"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(mapped.status.success());
    let after_map = children_max_rss_kib();
    let _ = std::fs::remove_file(&path);

    let d = digest_of(&piped.stdout);
    assert_eq!(d, digest_of(&read.stdout));
    assert_eq!(d, digest_of(&mapped.stdout));
    eprintln!(
        "peak RSS hashing 512 MiB: pipe {after_pipe} KiB, --no-mmap {after_read} KiB (cumulative max), mmap {after_map} KiB (cumulative max)"
    );
    // Streaming: a 2 MiB buffer plus the program itself.
    assert!(
        after_read < 32 * 1024,
        "streaming peak RSS {after_read} KiB"
    );
    // Mapped: one 16 MiB window of file pages at a time on top of that.
    assert!(after_map < 64 * 1024, "mmap peak RSS {after_map} KiB");
}
