//! Reading inputs with bounded memory: regular files are memory-mapped one
//! 16 MiB window at a time; everything else
//! (stdin, pipes, devices, `--no-mmap`) is read with 2 MiB buffers.
//! For files (regular, pipes, devices, not standard input), with more than
//! one thread allowed, a second thread maps or reads the next window or
//! buffer while this one hashes the current one (two windows, or three
//! buffers, at a time).
//!
//! A file that changes while it is read gives the digest of what was read,
//! or, when a mapped file shrank (the bytes past its new end read as zeros,
//! see `keccakx_mapped`), an error for that file alone. Files are opened within
//! the limit on open files (`openlimit`).

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::sync::mpsc;

use crate::algo::Algo;
use crate::{openlimit, progress, stdio};
use keccakx_mapped::Window;

/// Read buffer for the streaming path.
pub const BUF_SIZE: usize = 2 << 20;
/// Smallest read buffer for a file of known size.
const SMALL_BUF: usize = 64 << 10;
/// Files up to one read buffer are read, not mapped: one `read` into a
/// buffer of the file's size beats mapping and unmapping it, by most when
/// threads hash files in parallel (each unmap interrupts the other cores to
/// flush their TLBs). 4096 files of 64 KiB, KT128 on two threads: 1.4 →
/// 4.0 GB/s; 256 files of 1 MiB 7.2 → 9.9 GB/s; from 4 MiB on, mapping
/// wins (bench/NOTES.md, "Many files").
const MMAP_MIN: u64 = BUF_SIZE as u64 + 1;
/// Mapped bytes fed to the hasher per call; pages are dropped afterwards.
/// Large enough to give the tree modes (KT, ParallelHash) work for every
/// core, small enough to bound the resident set.
const MAP_WINDOW: usize = 16 << 20;

#[derive(Clone, Copy, Debug, Default)]
pub struct ReadOpts {
    pub no_mmap: bool,
}

fn is_a_directory() -> io::Error {
    #[cfg(unix)]
    {
        io::Error::from_raw_os_error(libc::EISDIR)
    }
    #[cfg(not(unix))]
    {
        io::Error::new(io::ErrorKind::Other, "Is a directory")
    }
}

/// Hash the file at `path` (`-` is standard input).
pub fn hash_path(path: &OsStr, algo: &Algo, opts: ReadOpts) -> io::Result<Vec<u8>> {
    let r = hash_path_inner(path, algo, opts);
    progress::file_done();
    r
}

fn hash_path_inner(path: &OsStr, algo: &Algo, opts: ReadOpts) -> io::Result<Vec<u8>> {
    if crate::remote::is_url(path) {
        // A file:// URL is a local file: mapped and read as paths are.
        return match crate::remote::local_path(path) {
            Some(p) => hash_local(p?.as_os_str(), algo, opts),
            None => crate::remote::hash_url(path, algo),
        };
    }
    hash_local(path, algo, opts)
}

/// Hash a local file (`-` is standard input).
fn hash_local(path: &OsStr, algo: &Algo, opts: ReadOpts) -> io::Result<Vec<u8>> {
    if path == "-" {
        let stdin = stdio::stdin_checked()?;
        // TupleHash from a regular file on standard input: its size from
        // where the input starts, so the input is streamed, not held.
        if algo.needs_length() {
            let meta = stdin.file().metadata()?;
            if meta.is_file() {
                return hash_with_length(stdin.file(), algo, Some(meta.len()));
            }
        }
        return hash_reader(stdin, algo, None);
    }
    let open = openlimit::open(path)?;
    let meta = open.file().metadata()?;
    if meta.is_dir() {
        return Err(is_a_directory());
    }
    if meta.is_file() {
        let len = meta.len();
        if !opts.no_mmap && len >= MMAP_MIN && usize::try_from(len).is_ok() {
            if let Some(d) = hash_mapped(open.file(), len, algo) {
                return d;
            }
        }
        // Some files report a size other than what they hold (procfs: 0,
        // sysfs: 4096): the size is a hint, and the file is read to its end.
        if algo.needs_length() {
            return hash_with_length(open.file(), algo, Some(len));
        }
        return hash_file_reader(open.file(), algo, (len > 0).then_some(len));
    }
    hash_file_reader(open.file(), algo, None)
}

/// Whether reading ahead on a second thread can pay: more than one thread
/// allowed (`--threads`), and more than one buffer of input (or unknown).
fn read_ahead(len: Option<u64>, unit: usize) -> bool {
    // `map_or`, not `is_none_or`: the crate builds on Rust 1.80.
    #[allow(clippy::unnecessary_map_or)]
    let more = len.map_or(true, |l| l > unit as u64);
    keccakx::engine::effective_threads() > 1 && more
}

/// Runs `use_item` on every item `next` produces, in order. With `ahead`,
/// `next` runs on a second thread, one item ahead, so reading or mapping
/// the next piece of input overlaps hashing this one (double buffering:
/// the producer hands an item over only when this thread takes it);
/// without (or when no thread can be spawned), both run here in turn.
/// `use_item` may give its item back for
/// reuse, and `next` gets it when there is one; `next` returns `Ok(None)`
/// at the end, and its first error ends the run.
fn pipeline<T: Send>(
    ahead: bool,
    next: impl FnMut(Option<T>) -> io::Result<Option<T>> + Send,
    mut use_item: impl FnMut(T) -> Option<T>,
) -> io::Result<()> {
    // `next` waits here until a producer thread takes it; when none can
    // be spawned (a limit on processes, no memory for its stack), this
    // thread runs it in turn instead.
    let next = std::sync::Mutex::new(Some(next));
    let take = || next.lock().ok().and_then(|mut n| n.take());
    if ahead {
        let done = std::thread::scope(|scope| {
            // Created in here so that an early return drops them before the
            // scope joins the producer, which then stops at its next send.
            let (full_tx, full_rx) = mpsc::sync_channel::<io::Result<T>>(0);
            let (back_tx, back_rx) = mpsc::channel::<T>();
            let spawned = std::thread::Builder::new().spawn_scoped(scope, move || {
                let Some(mut next) = take() else { return };
                loop {
                    match next(back_rx.try_recv().ok()) {
                        Ok(Some(item)) => {
                            if full_tx.send(Ok(item)).is_err() {
                                return;
                            }
                        }
                        Ok(None) => return,
                        Err(e) => {
                            let _ = full_tx.send(Err(e));
                            return;
                        }
                    }
                }
            });
            if spawned.is_err() {
                return None;
            }
            Some((|| {
                for item in full_rx {
                    if let Some(spare) = use_item(item?) {
                        let _ = back_tx.send(spare);
                    }
                }
                Ok(())
            })())
        });
        if let Some(r) = done {
            return r;
        }
    }
    let Some(mut next) = take() else {
        return Ok(());
    };
    let mut spare = None;
    while let Some(item) = next(spare.take())? {
        spare = use_item(item);
    }
    Ok(())
}

/// [`hash_reader`] for a file (regular or not): reads ahead on a second
/// thread when that can pay ([`read_ahead`]).
fn hash_file_reader(file: &File, algo: &Algo, len: Option<u64>) -> io::Result<Vec<u8>> {
    if algo.needs_length() && len.is_none() {
        return hash_reader(file, algo, len);
    }
    let (s, _) = stream_file(file, algo, len)?;
    s.finish().map_err(io::Error::other)
}

/// The error for an input whose size changed between two readings.
fn changed_size() -> io::Error {
    io::Error::other("file changed size while being read")
}

/// Hash a regular file (or standard input on one) from where it stands
/// to its end, under an algorithm that announces the message's length
/// first (TupleHash). `len` is the size the file reports; the bytes from
/// its current offset are announced. A file that holds another number of
/// bytes than it reports (sysfs reports 4096 for what holds a few; a file
/// that grew or shrank meanwhile) is read again from the same offset:
/// counted to its end, then hashed with that count; only when that count
/// is wrong too is it an error.
fn hash_with_length(file: &File, algo: &Algo, len: Option<u64>) -> io::Result<Vec<u8>> {
    use std::io::Seek;
    let mut f = file;
    let start = f.stream_position()?;
    let mut announced = len.map(|l| l.saturating_sub(start));
    for _ in 0..2 {
        let n = match announced {
            Some(n) => n,
            None => {
                let n = count_to_end(f)?;
                f.seek(io::SeekFrom::Start(start))?;
                n
            }
        };
        let (s, got) = stream_file(file, algo, Some(n))?;
        if got == n {
            return s.finish().map_err(io::Error::other);
        }
        f.seek(io::SeekFrom::Start(start))?;
        announced = None;
    }
    Err(changed_size())
}

/// The bytes from `file`'s offset to its end, read (and left there).
fn count_to_end(mut file: &File) -> io::Result<u64> {
    let mut buf = Vec::new();
    fit(&mut buf, SMALL_BUF)?;
    let mut total = 0u64;
    loop {
        match read_full(&mut file, &mut buf)? {
            0 => return Ok(total),
            n => total += n as u64,
        }
    }
}

thread_local! {
    /// The last read buffer of the file this thread read before, kept for
    /// the next one: a fresh buffer per file costs its page faults
    /// whenever the allocator returns it to the kernel, which glibc does
    /// for every buffer above 128 KiB when MALLOC_TRIM_THRESHOLD_ is set
    /// (Dask sets it for every process it starts, and in the environment
    /// of the process that starts them): 256 files of 1 MiB cost 3.7x the
    /// CPU (bench/NOTES.md, "Many files under MALLOC_TRIM_THRESHOLD_").
    /// At most one buffer (2 MiB) per thread.
    static KEPT: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Feed `file` to a new hasher (started with `len`) up to its end,
/// reading ahead when that can pay; the hasher and the bytes fed.
fn stream_file(
    mut file: &File,
    algo: &Algo,
    len: Option<u64>,
) -> io::Result<(crate::algo::Stream, u64)> {
    let mut s = algo.start(len);
    let mut total = 0u64;
    // No bigger than the file (but a read's worth): zero-filling a 2 MiB
    // buffer per small file cost as much as hashing 64 KiB of it
    // (bench/NOTES.md, "Many files"). Of unknown size: grown as reads fill it.
    let mut cap = len.map_or(SMALL_BUF, |l| {
        l.clamp(SMALL_BUF as u64, BUF_SIZE as u64) as usize
    });
    pipeline(
        read_ahead(len, BUF_SIZE),
        |spare: Option<Vec<u8>>| {
            let mut buf = spare.unwrap_or_else(|| KEPT.with(|k| k.take()));
            fit(&mut buf, cap)?;
            let n = read_full(&mut file, &mut buf)?;
            if len.is_none() {
                cap = next_capacity(cap, n);
            }
            buf.truncate(n);
            if n == 0 {
                KEPT.with(|k| k.set(buf));
                return Ok(None);
            }
            Ok(Some(buf))
        },
        |buf| {
            s.update(&buf);
            progress::add_bytes(buf.len());
            total += buf.len() as u64;
            Some(buf)
        },
    )?;
    Ok((s, total))
}

/// The error for a mapped file that shrank while it was hashed.
fn shrank() -> io::Error {
    io::Error::other("file shrank while being read")
}

/// Hash `file` through memory maps of one window at a time, unmapped
/// before the next; `None` when the file cannot be mapped (the caller then
/// reads it). When a second thread maps ahead, it maps with MAP_POPULATE
/// (one system call faults the whole window in, off the hashing thread);
/// alone, the hashing thread lets the pages fault in as it reads them, as
/// XKCP's K12 does (the kernel maps them 64 KiB at a time): populating
/// there walked every page once more on that thread (+19% kernel time on a
/// file of 4 KiB folios; bench/NOTES.md, "KT128 from the shell").
fn hash_mapped(file: &File, len: u64, algo: &Algo) -> Option<io::Result<Vec<u8>>> {
    let ahead = read_ahead(Some(len), MAP_WINDOW);
    let window = |off: u64| -> io::Result<Option<Window>> {
        let n = (len - off).min(MAP_WINDOW as u64) as usize;
        Window::map(file, off, n, ahead)
    };
    // The first window failing (or unguarded) means this file is read instead.
    let first = window(0).ok()??;
    let mut s = algo.start(Some(len));
    let mut off = first.bytes().len() as u64;
    let mut first = Some(first);
    // Set once a window read past the end: nothing more is mapped or hashed.
    let cut = std::sync::atomic::AtomicBool::new(false);
    // Where reading takes over from mapping, if it must.
    let mut read_from: Option<u64> = None;
    let run = pipeline(
        ahead,
        |_| {
            if let Some(m) = first.take() {
                return Ok(Some(m));
            }
            if off >= len || cut.load(std::sync::atomic::Ordering::Relaxed) {
                return Ok(None);
            }
            // A window that cannot be mapped (address space exhausted,
            // `ulimit -v`; too many files mapped at once): the rest of the
            // file is read instead.
            match window(off) {
                Ok(Some(m)) => {
                    off += m.bytes().len() as u64;
                    Ok(Some(m))
                }
                Ok(None) | Err(_) => {
                    read_from = Some(off);
                    Ok(None)
                }
            }
        },
        // Unmapped here, once hashed: at most two windows are mapped (one
        // without reading ahead).
        |m| {
            if !cut.load(std::sync::atomic::Ordering::Relaxed) {
                s.update(m.bytes());
                progress::add_bytes(m.bytes().len());
                if m.shrank() {
                    cut.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
            None
        },
    );
    let run = run.and_then(|()| match read_from {
        Some(at) if !cut.load(std::sync::atomic::Ordering::Relaxed) => {
            read_rest(file, at, len, &mut s)
        }
        _ => Ok(()),
    });
    Some(run.and_then(|()| {
        // A truncation inside the last page faults nowhere (the page's
        // tail reads as zeros): the size tells.
        if cut.into_inner() || file.metadata()?.len() < len {
            return Err(shrank());
        }
        s.finish().map_err(io::Error::other)
    }))
}

/// Hash `file` from byte `at` to `len` (or its end, if sooner) with reads
/// at those offsets: what a file whose later windows cannot be mapped
/// falls back to.
fn read_rest(file: &File, mut at: u64, len: u64, s: &mut crate::algo::Stream) -> io::Result<()> {
    use std::os::unix::fs::FileExt;
    let mut buf = Vec::new();
    fit(&mut buf, BUF_SIZE.min((len - at).max(1) as usize))?;
    while at < len {
        let want = buf.len().min((len - at) as usize);
        let n = match file.read_at(&mut buf[..want], at) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            r => r?,
        };
        if n == 0 {
            break;
        }
        s.update(&buf[..n]);
        progress::add_bytes(n);
        at += n as u64;
    }
    Ok(())
}

/// Read `r` to the end: `Interrupted` is retried, other errors end the file.
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match r.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            x => return x,
        }
    }
}

/// Hash a stream. `len` is the size when known (regular files).
pub fn hash_reader(mut r: impl Read, algo: &Algo, len: Option<u64>) -> io::Result<Vec<u8>> {
    if algo.needs_length() && len.is_none() {
        // TupleHash needs the length up front: buffer unseekable input.
        let all = read_to_end_fallible(&mut r)?;
        progress::add_bytes(all.len());
        return Ok(algo.digest(&all));
    }
    let mut s = algo.start(len);
    let mut buf = Vec::new();
    fit(&mut buf, SMALL_BUF)?;
    loop {
        let n = read_full(&mut r, &mut buf)?;
        if n == 0 {
            break;
        }
        s.update(&buf[..n]);
        progress::add_bytes(n);
        let cap = next_capacity(buf.len(), n);
        fit(&mut buf, cap)?;
    }
    s.finish().map_err(io::Error::other)
}

/// Smallest read buffer taken when memory is short.
const MIN_BUF: usize = 4096;

/// The error for a buffer that cannot be allocated (as C's `malloc` says).
fn out_of_memory() -> io::Error {
    #[cfg(unix)]
    {
        io::Error::from_raw_os_error(libc::ENOMEM)
    }
    #[cfg(not(unix))]
    {
        io::Error::from(io::ErrorKind::OutOfMemory)
    }
}

/// Make `buf` `want` bytes long, or, when memory is short (`ulimit -v`, a
/// cgroup), as long as memory allows down to [`MIN_BUF`] (halving); an
/// error for this input when not even that can be had, never an abort.
fn fit(buf: &mut Vec<u8>, want: usize) -> io::Result<()> {
    let mut n = want.max(1);
    loop {
        if n <= buf.len() {
            buf.truncate(n);
            return Ok(());
        }
        let extra = n - buf.len();
        if crate::oom::fallible(|| buf.try_reserve_exact(extra)).is_ok() {
            buf.resize(n, 0);
            return Ok(());
        }
        if n <= MIN_BUF {
            return Err(out_of_memory());
        }
        n = (n / 2).max(MIN_BUF);
    }
}

/// Read `r` to its end into memory, growing fallibly: input larger than
/// the memory left is an error for this input, not an abort.
fn read_to_end_fallible(r: &mut impl Read) -> io::Result<Vec<u8>> {
    let mut all: Vec<u8> = Vec::new();
    let mut len = 0;
    loop {
        if len == all.len() {
            let grow = all.len().clamp(SMALL_BUF, BUF_SIZE);
            crate::oom::fallible(|| all.try_reserve(grow)).map_err(|_| out_of_memory())?;
            all.resize(all.capacity(), 0);
        }
        let n = read_full(r, &mut all[len..])?;
        if n == 0 {
            all.truncate(len);
            return Ok(all);
        }
        len += n;
    }
}

/// The read buffer for input of unknown size (standard input, pipes,
/// devices, procfs files that report size 0) starts at 64 KiB and doubles,
/// up to `BUF_SIZE`, each time a read fills it: zero-filling 2 MiB up
/// front cost ~1.3 ms, more than the rest of `echo abc | keccakx sum`
/// (bench/NOTES.md, "Small input of unknown size").
fn next_capacity(cap: usize, filled: usize) -> usize {
    if filled == cap {
        (cap * 2).min(BUF_SIZE.max(cap))
    } else {
        cap
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_size_buffer_grows_to_the_read_buffer_only_when_filled() {
        let mut cap = SMALL_BUF;
        assert_eq!(next_capacity(cap, 100), SMALL_BUF);
        for _ in 0..10 {
            cap = next_capacity(cap, cap);
        }
        assert_eq!(cap, BUF_SIZE);
        assert_eq!(next_capacity(BUF_SIZE, BUF_SIZE), BUF_SIZE);
    }

    #[test]
    fn is_a_directory_reads_as_strerror() {
        assert_eq!(crate::error::cause(&is_a_directory()), "Is a directory");
    }
}
