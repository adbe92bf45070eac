//! `xkcp-k12sum FILE...`: KT128 (KangarooTwelve, empty customization, 32
//! bytes) of each file with XKCP's K12 on one thread, the file memory-mapped
//! whole: the peer of `keccakx --threads 1 sum -a kt128` in the CLI
//! benchmark (bench/cli.py, bench/NOTES.md "KT128 from the shell"). Prints
//! `HASH  FILE` lines like keccakx and b3sum.

#[cfg(feature = "xkcp")]
fn hash_file(path: &str) -> std::io::Result<String> {
    use std::os::fd::AsRawFd;
    let f = std::fs::File::open(path)?;
    let len = f.metadata()?.len() as usize;
    let mut h = kangarootwelve_xkcp::Hasher::new();
    if len > 0 {
        // SAFETY: a private read-only mapping of the whole file, unmapped
        // below; the benchmark's files are not changed while it runs.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                len,
                libc::PROT_READ,
                libc::MAP_PRIVATE,
                f.as_raw_fd(),
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(std::io::Error::last_os_error());
        }
        // SAFETY: `p` maps `len` readable bytes until the munmap.
        h.update(unsafe { std::slice::from_raw_parts(p as *const u8, len) });
        unsafe { libc::munmap(p, len) };
    }
    Ok(h.finalize().to_hex().to_string())
}

#[cfg(feature = "xkcp")]
fn main() {
    let mut status = 0;
    for path in std::env::args().skip(1) {
        match hash_file(&path) {
            Ok(d) => println!("{d}  {path}"),
            Err(e) => {
                eprintln!("xkcp-k12sum: {path}: {e}");
                status = 1;
            }
        }
    }
    std::process::exit(status);
}

#[cfg(not(feature = "xkcp"))]
fn main() {
    eprintln!("xkcp-k12sum: built without the `xkcp` feature (XKCP needs libclang-dev)");
    std::process::exit(2);
}
