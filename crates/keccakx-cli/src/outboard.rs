//! `keccakx sum --outboard FILE`: hash one file with KT128/KT256 or
//! ParallelHash and write its outboard (the chunks' chaining values, see
//! the core's `keccakx::outboard` and docs/outboard.md) as it goes, made
//! durable at checkpoints; `--resume` continues an interrupted outboard.

use std::ffi::OsStr;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

use keccakx::outboard::{chunk_cvs, Algorithm, Builder, Header, OutboardError};

use keccakx_mapped::Window;

use crate::algo::{Algo, InputMode};
use crate::error::{Error, Outcome};
use crate::escape::{os_bytes, quote_os};
use crate::output::Out;
use crate::sum::{format_line, Format};

/// Default checkpoint interval: the outboard is flushed and synced to disk
/// after every this many message bytes (a kill loses at most this much
/// hashing).
pub const DEFAULT_CHECKPOINT: u64 = 64 << 20;
/// Message bytes read per call.
const READ_LEN: usize = 16 << 20;
/// Chunks sampled (beside the last one) to check the source is unchanged
/// before resuming.
const SAMPLES: u64 = 8;

/// What `sum --outboard` was asked to do.
pub struct SumOutboard<'a> {
    pub outboard: &'a Path,
    pub resume: bool,
    pub checkpoint: u64,
}

/// The outboard algorithm of `algo`, or a usage error.
pub fn outboard_algorithm(algo: &Algo) -> Result<Algorithm, Error> {
    let alg = Algorithm::from_name(algo.info.name).ok_or_else(|| {
        Error::Usage(format!(
            "--outboard: -a {} has no outboard (KT128, KT256 and ParallelHash* have one: \
             their digest is a final node over per-chunk chaining values)",
            algo.info.name
        ))
    })?;
    if algo.input != InputMode::Bytes || algo.seek != 0 {
        return Err(Error::Usage(
            "--outboard hashes the file as it is, from output byte 0 (no -U, -0 or --seek)".into(),
        ));
    }
    Ok(alg)
}

fn ob_err(path: &Path, e: OutboardError) -> Error {
    Error::Outboard(format!("{}: {e}", quote_os(path.as_os_str())))
}

fn read_err(what: String) -> impl FnOnce(io::Error) -> Error {
    move |err| Error::Read { what, err }
}

/// Read exactly `buf.len()` bytes at `off`.
pub fn read_at(f: &mut File, off: u64, buf: &mut [u8]) -> io::Result<()> {
    f.seek(SeekFrom::Start(off))?;
    f.read_exact(buf)
}

/// Read up to `buf.len()` bytes (fewer only at the end of the file).
pub fn read_full(f: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Hash `file` and write its outboard; print the usual line.
pub fn run(
    file: &OsStr,
    algo: &Algo,
    fmt: Format,
    opts: SumOutboard<'_>,
) -> Result<Outcome, Error> {
    let alg = outboard_algorithm(algo)?;
    if file == "-" {
        return Err(Error::Usage(
            "--outboard needs a file (its length goes into the outboard's header), not standard input"
                .into(),
        ));
    }
    if crate::remote::is_url(file) {
        return Err(Error::Usage(
            "--outboard needs a local file (`keccakx verify --outboard F URL` checks an object against one)"
                .into(),
        ));
    }
    let qf = quote_os(file);
    let mut src = File::open(file).map_err(read_err(qf.clone()))?;
    let meta = src.metadata().map_err(read_err(qf.clone()))?;
    if !meta.is_file() {
        return Err(Error::Usage(format!(
            "--outboard: {qf} is not a regular file"
        )));
    }
    let p = &algo.params;
    let block = p.block_size.filter(|_| !alg.is_kt());
    let mut header = Header::new(alg, meta.len(), block, &p.customization)
        .map_err(|e| ob_err(opts.outboard, e))?;
    header.source_mtime_ns = keccakx::outboard::source::source_mtime_ns(&meta);
    let cv_len = header.cv_len() as u64;
    let layout = header.layout();
    let qo = quote_os(opts.outboard.as_os_str());

    let mut existing = if opts.resume {
        match OpenOptions::new()
            .read(true)
            .write(true)
            .open(opts.outboard)
        {
            Ok(f) => Some(f),
            Err(e) if e.kind() == io::ErrorKind::NotFound => None,
            Err(e) => return Err(read_err(format!("--outboard {qo}"))(e)),
        }
    } else {
        None
    };
    // Resume: the CVs already written (whole, rounded down to the last
    // checkpoint, sampled against the source).
    let mut builder = None;
    let mut kept = 0u64;
    if let Some(f) = existing.as_mut() {
        if let Some((b, n)) = resume_point(f, &mut src, &header, opts.checkpoint, opts.outboard)? {
            builder = Some(b);
            kept = layout.cvs.start + n * cv_len;
        }
    }
    let of = match existing {
        Some(f) if builder.is_some() => f,
        _ => File::create(opts.outboard).map_err(read_err(format!("--outboard {qo}")))?,
    };
    let werr = |e: io::Error| Error::Read {
        what: format!("writing --outboard {qo}"),
        err: e,
    };
    of.set_len(kept).map_err(werr)?;
    let mut w = BufWriter::with_capacity(1 << 20, of);
    w.seek(SeekFrom::Start(kept)).map_err(werr)?;
    // The outboard's bytes and checkpoints go to a writer thread: writes
    // and fdatasync then wait on the disk off the hashing thread (they
    // took ~7% of a cached 1 GiB KT128 hash there; bench/NOTES.md).
    let fresh = builder.is_none();
    let builder = match builder {
        Some(b) => b,
        None => Builder::new(header.clone()).map_err(|e| ob_err(opts.outboard, e))?,
    };
    let mut digest = vec![0u8; algo.out_len];
    let slot = std::sync::Mutex::new(Some(w));
    let taken = || slot.lock().ok().and_then(|mut w| w.take());
    let (hashed, written) = std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Piece>(64);
        let writer = std::thread::Builder::new()
            .spawn_scoped(scope, move || -> io::Result<()> {
                let Some(mut w) = taken() else {
                    return Ok(());
                };
                for piece in rx {
                    apply(&mut w, piece)?;
                }
                Ok(())
            })
            .ok();
        // Without a writer thread (none could be started), this one writes.
        let mut inline = if writer.is_none() { taken() } else { None };
        let hashed = hash_into(
            builder,
            &header,
            fresh,
            &mut src,
            opts.checkpoint,
            &qf,
            &mut |piece| match (&writer, &mut inline) {
                (_, Some(w)) => apply(w, piece),
                _ => tx
                    .send(piece)
                    .map_err(|_| io::Error::other("the outboard writer stopped")),
            },
            &mut digest,
        );
        drop(tx);
        let written = match (writer, inline) {
            (Some(h), _) => h
                .join()
                .unwrap_or_else(|_| Err(io::Error::other("the outboard writer failed"))),
            (None, _) => Ok(()),
        };
        (hashed, written)
    });
    // A write error explains a writer that stopped taking pieces: first.
    written.map_err(werr)?;
    hashed.map_err(|e| match e {
        Hashing::Read(e) => e,
        Hashing::Write(e) => werr(e),
    })?;
    let line = format_line(fmt, algo.display(), &digest, os_bytes(file));
    let mut out = Out::new();
    if let Err(s) = out.write(&line).and_then(|_| out.flush()) {
        return s.into_result(Outcome::Success);
    }
    Ok(Outcome::Success)
}

/// What the writer thread does next.
enum Piece {
    /// Bytes to append to the outboard.
    Bytes(Vec<u8>),
    /// A checkpoint: everything before is made durable.
    Sync,
}

fn apply(w: &mut BufWriter<File>, piece: Piece) -> io::Result<()> {
    match piece {
        Piece::Bytes(b) => w.write_all(&b),
        Piece::Sync => {
            w.flush()?;
            w.get_ref().sync_data()
        }
    }
}

/// Why hashing into an outboard stopped.
enum Hashing {
    Read(Error),
    Write(io::Error),
}

/// Hash the file from the builder's position on, handing the outboard's
/// bytes (the header first when `fresh`) and checkpoints to `emit`, and
/// the digest to `digest`; the last piece is a `Sync`.
#[allow(clippy::too_many_arguments)]
fn hash_into(
    mut builder: Builder,
    header: &Header,
    fresh: bool,
    src: &mut File,
    checkpoint: u64,
    qf: &str,
    emit: &mut dyn FnMut(Piece) -> io::Result<()>,
    digest: &mut [u8],
) -> Result<(), Hashing> {
    let read = |e: keccakx::outboard::OutboardError| {
        Hashing::Read(Error::Read {
            what: qf.to_string(),
            err: io::Error::other(e.to_string()),
        })
    };
    if fresh {
        // The header is durable before any CV is.
        emit(Piece::Bytes(header.encode())).map_err(Hashing::Write)?;
        emit(Piece::Sync).map_err(Hashing::Write)?;
    }
    let mut pos = builder.position();
    let mut next_sync = (pos / checkpoint + 1) * checkpoint;
    let mut body = Vec::new();
    let mut take = |data: &[u8], pos: &mut u64| -> Result<(), Error> {
        builder
            .update(data, &mut |x| body.extend_from_slice(x))
            .map_err(|e| Error::Read {
                what: qf.to_string(),
                err: io::Error::other(e.to_string()),
            })?;
        let w = Error::Write;
        if !body.is_empty() {
            emit(Piece::Bytes(std::mem::take(&mut body))).map_err(w)?;
        }
        *pos += data.len() as u64;
        crate::progress::add_bytes(data.len());
        if *pos >= next_sync {
            emit(Piece::Sync).map_err(w)?;
            next_sync = (*pos / checkpoint + 1) * checkpoint;
        }
        Ok(())
    };
    let mapped = feed_mapped(
        src,
        pos,
        header.message_len,
        &mut |d, p| take(d, p),
        &mut pos,
    );
    let fed = match mapped {
        Some(r) => r,
        None => (|| {
            src.seek(SeekFrom::Start(pos))
                .map_err(read_err(qf.to_string()))?;
            let left = header.message_len.saturating_sub(pos) as usize;
            let mut buf = vec![0u8; READ_LEN.min(left).max(1)];
            loop {
                let n = read_full(src, &mut buf).map_err(read_err(qf.to_string()))?;
                if n == 0 {
                    return Ok(());
                }
                take(&buf[..n], &mut pos)?;
            }
        })(),
    };
    fed.map_err(|e| match e {
        Error::Write(e) => Hashing::Write(e),
        e => Hashing::Read(e),
    })?;
    let mut rest = Vec::new();
    builder
        .finish(&mut |x| rest.extend_from_slice(x), digest)
        .map_err(read)?;
    emit(Piece::Bytes(rest)).map_err(Hashing::Write)?;
    emit(Piece::Sync).map_err(Hashing::Write)
}

/// Takes message bytes and advances the position.
type Take<'a> = dyn FnMut(&[u8], &mut u64) -> Result<(), Error> + 'a;

/// Feed `file[from..len)` to `take` through read-only maps of one window
/// at a time; with more than one thread, a second thread maps (and faults
/// in, MAP_POPULATE) the next window while this one is hashed, as plain
/// `sum` does. None when the file cannot be mapped (the caller reads it
/// instead). A file that shrinks meanwhile is an error (the SIGBUS guard
/// turns the lost pages into zeros, see `keccakx_mapped`), as for plain `sum`.
fn feed_mapped(
    file: &File,
    from: u64,
    len: u64,
    take: &mut Take<'_>,
    pos: &mut u64,
) -> Option<Result<(), Error>> {
    const WINDOW: u64 = 16 << 20;
    const PAGE: u64 = 1 << 16;
    if len - from < WINDOW {
        return None;
    }
    let start = from / PAGE * PAGE;
    let ahead = keccakx::engine::effective_threads() > 1;
    let map_at = |off: u64| -> io::Result<Window> {
        let n = (len - off).min(WINDOW) as usize;
        Window::map(file, off, n, ahead)?
            .ok_or_else(|| io::Error::other("too many files mapped at once"))
    };
    // The first window failing means this file is read instead.
    let first = map_at(start).ok()?;
    let shrank = || Error::Read {
        what: "reading the file".into(),
        err: io::Error::other("file shrank while being read"),
    };
    let mut use_window = |w: Window, skip: usize| {
        take(&w.bytes()[skip..], pos)?;
        if w.shrank() {
            return Err(shrank());
        }
        Ok(())
    };
    let result = std::thread::scope(|scope| -> Result<(), Error> {
        let (tx, rx) = std::sync::mpsc::sync_channel(0);
        let producer = ahead.then(|| {
            scope.spawn(move || {
                let mut off = start + WINDOW;
                while off < len {
                    if tx.send(map_at(off)).is_err() {
                        return;
                    }
                    off += WINDOW;
                }
            })
        });
        use_window(first, (from - start) as usize)?;
        let mut off = start + WINDOW;
        while off < len {
            let w = if producer.is_some() {
                rx.recv().map_err(|_| shrank())?
            } else {
                map_at(off)
            };
            let w = w.map_err(|e| Error::Read {
                what: "mapping the file".into(),
                err: e,
            })?;
            use_window(w, 0)?;
            off += WINDOW;
        }
        Ok(())
    });
    let result = result.and_then(|()| {
        // A truncation inside the last page faults nowhere: the size tells.
        match file.metadata() {
            Ok(m) if m.len() >= len => Ok(()),
            _ => Err(shrank()),
        }
    });
    Some(result)
}

/// Where an existing outboard lets hashing continue: a builder and the
/// CVs kept, or None to start over (no usable header or head). An error
/// when the outboard is of another file, version or parameters, or the
/// source changed since it was started.
fn resume_point(
    of: &mut File,
    src: &mut File,
    header: &Header,
    checkpoint: u64,
    path: &Path,
) -> Result<Option<(Builder, u64)>, Error> {
    let qo = quote_os(path.as_os_str());
    let rerr = |e: io::Error| Error::Read {
        what: format!("--outboard {qo}"),
        err: e,
    };
    let have = of.metadata().map_err(rerr)?.len();
    let layout = header.layout();
    if have < layout.head.end {
        return Ok(None); // not even the header and head: start over
    }
    let mut hb = vec![0u8; header.encoded_len()];
    read_at(of, 0, &mut hb).map_err(rerr)?;
    let old = Header::parse(&hb).map_err(|e| ob_err(path, e))?;
    if old != *header {
        let why = if (old.message_len, old.source_mtime_ns)
            != (header.message_len, header.source_mtime_ns)
        {
            "the file changed since the outboard was started (its size or modification time differs)"
        } else {
            "the outboard was started with another algorithm or parameters"
        };
        return Err(Error::Outboard(format!(
            "--resume {qo}: {why}; start over without --resume"
        )));
    }
    let cv = header.cv_len() as u64;
    let chunk = header.chunk_len;
    let whole = if header.algorithm.is_kt() {
        layout.cv_count
    } else {
        header.message_len / chunk
    };
    let mut n = ((have - layout.cvs.start) / cv).min(whole);
    // Only what a checkpoint made durable is trusted.
    let per_checkpoint = (checkpoint / chunk).max(1);
    n = n / per_checkpoint * per_checkpoint;
    let mut head = vec![0u8; (layout.head.end - layout.head.start) as usize];
    read_at(of, layout.head.start, &mut head).map_err(rerr)?;
    let mut cvs = vec![0u8; (n * cv) as usize];
    read_at(of, layout.cvs.start, &mut cvs).map_err(rerr)?;
    // The source still holds what was hashed: its head, and a sample of
    // chunks (the last one kept, and a few spread over the rest).
    let serr = |e: io::Error| Error::Read {
        what: "reading the source to resume".into(),
        err: e,
    };
    let mut sh = vec![0u8; head.len()];
    read_at(src, 0, &mut sh).map_err(serr)?;
    let mut changed = sh != head;
    let first = layout.first_cv_chunk;
    let mut samples: Vec<u64> = (0..SAMPLES).map(|k| k * n / SAMPLES).collect();
    samples.push(n.saturating_sub(1));
    samples.dedup();
    let mut data = vec![0u8; chunk as usize];
    let mut got = vec![0u8; cv as usize];
    for k in samples.into_iter().filter(|_| n > 0) {
        let i = first + k;
        read_at(src, i * chunk, &mut data).map_err(serr)?;
        chunk_cvs(header, i, &data, &mut got).map_err(|e| ob_err(path, e))?;
        changed |= got[..] != cvs[(k * cv) as usize..((k + 1) * cv) as usize];
    }
    if changed {
        return Err(Error::Outboard(format!(
            "--resume {qo}: the file's content differs from what the outboard recorded \
             (it changed, or the outboard is of another file); start over without --resume"
        )));
    }
    let b = Builder::resume(header.clone(), &head, &cvs).map_err(|e| ob_err(path, e))?;
    Ok(Some((b, n)))
}
