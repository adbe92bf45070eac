//! `keccakx verify`: check a file, or a byte range of it, against one
//! trusted digest with its outboard (docs/outboard.md). The outboard is
//! checked first (its final node must give the digest: a pass over its
//! chaining values, no file data); then the chunks asked for are hashed
//! and every damaged one is reported as a byte range.

use std::fs::File;
use std::io;
use std::path::PathBuf;

use keccakx::outboard::source::{CheckError, OutboardReader, ReadAt};
use keccakx::outboard::{Header, OutboardError};
use keccakx::registry::Params;

use crate::cli::VerifyArgs;
use crate::error::{Error, Outcome};
use crate::escape::{os_bytes, quote_os};

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
    let url = crate::remote::is_url(&a.file);
    let ob_path = a.outboard.clone().unwrap_or_else(|| {
        let mut p = a.file.clone();
        p.push(".kto");
        PathBuf::from(p)
    });
    if url && a.outboard.is_none() {
        return Err(Error::Usage(
            "verify URL: name the outboard with --outboard (a local file)".into(),
        ));
    }
    let qo = quote_os(ob_path.as_os_str());
    let bad = |e: OutboardError| Error::Outboard(format!("{qo}: {e}"));
    let rerr = |err: io::Error| Error::Read {
        what: format!("outboard {qo}"),
        err,
    };
    let qf = quote_os(&a.file);
    let ferr = |err: io::Error| Error::Read {
        what: qf.clone(),
        err,
    };
    let cerr = |e: CheckError| match e {
        CheckError::Outboard(e) => bad(e),
        CheckError::ReadOutboard(e) => rerr(e),
        CheckError::ReadMessage(e) => ferr(e),
    };
    let of = File::open(&ob_path).map_err(rerr)?;
    let mut ob = OutboardReader::open(of).map_err(cerr)?;
    let header = ob.header.clone();
    let digest = trusted_digest(a, &header)?;

    // 1. The outboard against the digest: head, CVs, tail.
    ob.check_digest(&digest).map_err(cerr)?;

    // 2. The chunks asked for, against the outboard: only they are read.
    let mut src: Box<dyn ReadAt> = if url {
        crate::remote::open_ranges(&a.file).map_err(ferr)?
    } else {
        Box::new(File::open(&a.file).map_err(ferr)?)
    };
    let file_len = src.size().map_err(ferr)?;
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
    let chunks = ob.chunks_of(range).map_err(bad)?;
    let damaged = ob.damaged_chunks(&mut *src, chunks.clone()).map_err(cerr)?;
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
