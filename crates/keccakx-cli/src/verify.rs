//! `keccakx verify`: check a file, or a byte range of it, against one
//! trusted digest with its outboard (docs/outboard.md). The outboard is
//! checked first (its final node must give the digest: a pass over its
//! chaining values, no file data); then the chunks asked for are hashed
//! and every damaged one is reported as a byte range.

use std::fs::File;
use std::io;
use std::path::PathBuf;

use keccakx::outboard::{
    check_chunks, expected_range, ExpectedOwned, FinalNode, Header, OutboardError,
};
use keccakx::registry::Params;

use crate::cli::VerifyArgs;
use crate::error::{Error, Outcome};
use crate::escape::{os_bytes, quote_os};
use crate::outboard::{read_at, read_full};

/// The trusted digest: --digest, or FILE's line in --check's file.
fn trusted_digest(a: &VerifyArgs, h: &Header) -> Result<Vec<u8>, Error> {
    if let Some(hex) = &a.digest {
        return crate::cli::decode_hex_arg(hex)
            .ok()
            .filter(|d| !d.is_empty())
            .ok_or_else(|| Error::Usage(format!("--digest {hex}: not a hexadecimal digest")));
    }
    let sums = a.check.as_ref().expect("clap requires --digest or --check");
    let qs = quote_os(sums.as_os_str());
    let text = std::fs::read(sums).map_err(|err| Error::Read {
        what: format!("--check {qs}"),
        err,
    })?;
    let params = Params {
        customization: h.customization.clone(),
        block_size: (!h.algorithm.is_kt()).then_some(h.chunk_len as usize),
        ..Params::default()
    };
    let want = os_bytes(&a.file);
    for line in text.split(|&c| c == b'\n' || c == 0) {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Some(e) = crate::check::parse_line(line, Some(h.algorithm.name()), &params) else {
            continue;
        };
        if e.name == want {
            if e.info.name != h.algorithm.name() {
                return Err(Error::Usage(format!(
                    "--check {qs}: the line for {} is {}, the outboard is {}",
                    quote_os(&a.file),
                    e.info.display,
                    h.algorithm.name()
                )));
            }
            return Ok(e.expected);
        }
    }
    Err(Error::Usage(format!(
        "--check {qs}: no line for {}",
        quote_os(&a.file)
    )))
}

pub fn run(a: &VerifyArgs) -> Result<Outcome, Error> {
    let ob_path = a.outboard.clone().unwrap_or_else(|| {
        let mut p = a.file.clone();
        p.push(".kto");
        PathBuf::from(p)
    });
    let qo = quote_os(ob_path.as_os_str());
    let bad = |e: OutboardError| Error::Outboard(format!("{qo}: {e}"));
    let rerr = |err: io::Error| Error::Read {
        what: format!("outboard {qo}"),
        err,
    };
    let mut of = File::open(&ob_path).map_err(rerr)?;
    let have = of.metadata().map_err(rerr)?.len();
    let mut hb = vec![0u8; (have.min(128 << 10)) as usize];
    read_full(&mut of, &mut hb).map_err(rerr)?;
    let header = Header::parse(&hb).map_err(bad)?;
    let layout = header.layout();
    let need = layout.total_len();
    if have != need {
        return Err(bad(if have < need {
            OutboardError::Incomplete { have, need }
        } else {
            OutboardError::TrailingBytes { have, need }
        }));
    }
    let digest = trusted_digest(a, &header)?;

    // 1. The outboard against the digest: head, CVs, tail.
    let mut node = FinalNode::new(&header).map_err(bad)?;
    let mut head = vec![0u8; (layout.head.end - layout.head.start) as usize];
    read_at(&mut of, layout.head.start, &mut head).map_err(rerr)?;
    node.absorb_head(&head).map_err(bad)?;
    let mut buf = vec![0u8; 1 << 20];
    let mut off = layout.cvs.start;
    while off < layout.cvs.end {
        let n = ((layout.cvs.end - off) as usize).min(buf.len());
        read_at(&mut of, off, &mut buf[..n]).map_err(rerr)?;
        node.absorb_cvs(&buf[..n]).map_err(bad)?;
        off += n as u64;
    }
    let mut tail = vec![0u8; (layout.tail.end - layout.tail.start) as usize];
    read_at(&mut of, layout.tail.start, &mut tail).map_err(rerr)?;
    let mut got = vec![0u8; digest.len()];
    node.finish(&tail, &mut got).map_err(bad)?;
    if !keccakx::ct_eq(&got, &digest) {
        return Err(bad(OutboardError::DigestMismatch));
    }

    // 2. The chunks asked for, against the outboard.
    let qf = quote_os(&a.file);
    let ferr = |err: io::Error| Error::Read {
        what: qf.clone(),
        err,
    };
    let mut src = File::open(&a.file).map_err(ferr)?;
    let file_len = src.metadata().map_err(ferr)?.len();
    let len = header.message_len;
    let range = match &a.range {
        Some(r) if r.end > len => {
            return Err(Error::Usage(format!(
                "--range {}..{}: the outboard's file is {len} bytes",
                r.start, r.end
            )))
        }
        Some(r) => r.clone(),
        None => 0..len,
    };
    let chunk = header.chunk_len;
    let chunks = range.start / chunk..range.end.div_ceil(chunk);
    let per = ((16u64 << 20) / chunk).max(1);
    let mut damaged: Vec<u64> = Vec::new();
    let mut data = Vec::new();
    let mut i = chunks.start;
    while i < chunks.end {
        let end = (i + per).min(chunks.end);
        let r = header.chunk_range(i).start..header.chunk_range(end - 1).end;
        data.resize((r.end - r.start) as usize, 0);
        src.seek_to(r.start).map_err(ferr)?;
        let n = read_full(&mut src, &mut data).map_err(ferr)?;
        data.truncate(n);
        // What these chunks are checked against: their CVs in one read.
        let (c0, _) = expected_range(&header, &layout, i);
        let (c1, _) = expected_range(&header, &layout, end - 1);
        let span = c0.start.min(c1.start)..c0.end.max(c1.end);
        let mut cvs = vec![0u8; (span.end - span.start) as usize];
        read_at(&mut of, span.start, &mut cvs).map_err(rerr)?;
        let mut expected = |j: u64| -> Result<ExpectedOwned, OutboardError> {
            let (r, is_cv) = expected_range(&header, &layout, j);
            let b = cvs[(r.start - span.start) as usize..(r.end - span.start) as usize].to_vec();
            Ok(if is_cv {
                ExpectedOwned::Cv(b)
            } else {
                ExpectedOwned::Bytes(b)
            })
        };
        damaged.extend(check_chunks(&header, i..end, &data, &mut expected).map_err(bad)?);
        i = end;
    }
    let mut out = String::new();
    for &j in &damaged {
        let r = header.chunk_range(j);
        out.push_str(&format!(
            "{qf}: bytes {}..{} damaged (chunk {j})\n",
            r.start, r.end
        ));
    }
    let extra = a.range.is_none() && file_len > len;
    if extra {
        out.push_str(&format!(
            "{qf}: bytes {len}..{file_len} damaged (past the end of the hashed file)\n"
        ));
    }
    let checked =
        header.chunk_range(chunks.start).start..header.chunk_range(chunks.end.max(1) - 1).end;
    if damaged.is_empty() && !extra {
        if !a.quiet {
            out.push_str(&format!(
                "{qf}: OK (bytes {}..{})\n",
                checked.start, checked.end
            ));
        }
    } else if !a.quiet {
        out.push_str(&format!(
            "{qf}: FAILED: {} damaged chunk(s) of {} checked\n",
            damaged.len() + usize::from(extra),
            chunks.end - chunks.start
        ));
    }
    let mut o = crate::output::Out::new();
    let outcome = if damaged.is_empty() && !extra {
        Outcome::Success
    } else {
        Outcome::Failed
    };
    if let Err(s) = o.write(out.as_bytes()).and_then(|_| o.flush()) {
        return s.into_result(outcome);
    }
    Ok(outcome)
}

trait SeekTo {
    fn seek_to(&mut self, off: u64) -> io::Result<u64>;
}

impl SeekTo for File {
    fn seek_to(&mut self, off: u64) -> io::Result<u64> {
        io::Seek::seek(self, io::SeekFrom::Start(off))
    }
}
