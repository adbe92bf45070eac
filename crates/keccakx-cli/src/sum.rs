//! `keccakx sum FILE...`: one checksum line per file, in argument order.

use std::ffi::OsString;
use std::ops::ControlFlow;
use std::sync::Arc;

use crate::algo::{to_hex, Algo};
use crate::backend::GpuBatch;
use crate::error::{cause, Error, Outcome};
use crate::escape::{os_bytes, quote_os};
use crate::exec::{run_ordered, Task};
use crate::input::ReadOpts;
use crate::output::{warn, Out, Stop};

#[derive(Clone, Copy, Debug)]
pub struct Format {
    pub tag: bool,
    pub zero: bool,
    /// Between the digest and the name of a GNU line: ' ' (text), '*'
    /// (binary), or sha3sum's 'U' and '^' ([`crate::algo::InputMode::mark`]).
    pub mark: u8,
    /// Whether lines name their file (b3sum's --no-names clears it).
    pub names: bool,
    /// The digest's raw bytes alone (b3sum's --raw).
    pub raw: bool,
    /// The digest in base64, not hex (cksum's --base64).
    pub base64: bool,
}

impl Default for Format {
    fn default() -> Self {
        Format {
            tag: false,
            zero: false,
            mark: b' ',
            names: true,
            raw: false,
            base64: false,
        }
    }
}

/// One output record, byte for byte as coreutils' `sha*sum` writes it (or
/// b3sum with --no-names and --raw).
pub fn format_line(fmt: Format, display: &str, digest: &[u8], name: &[u8]) -> Vec<u8> {
    if fmt.raw {
        return digest.to_vec();
    }
    let text = if fmt.base64 {
        keccakx::sumfile::base64::encode(digest)
    } else {
        to_hex(digest)
    };
    if !fmt.names {
        let mut line = text.into_bytes();
        line.push(if fmt.zero { 0 } else { b'\n' });
        return line;
    }
    keccakx::sumfile::format_line(fmt.tag, fmt.zero, fmt.mark, display, &text, name)
}

/// Hash `files` and print their lines (a file that cannot be read is
/// reported in its place and makes the outcome [`Outcome::Failed`]).
pub fn run(
    files: &[OsString],
    algo: Arc<Algo>,
    fmt: Format,
    opts: ReadOpts,
    parallel: bool,
    batch: Option<&GpuBatch>,
) -> Result<Outcome, Error> {
    let mut out = Out::new();
    let mut outcome = Outcome::Success;
    let mut stop: Option<Stop> = None;
    let mut deliver = |name: &OsString, r: Option<crate::exec::Digest>| -> ControlFlow<()> {
        match r {
            Some(Ok(d)) => {
                let line = format_line(fmt, algo.display(), &d, os_bytes(name));
                if let Err(s) = out.write(&line) {
                    stop = Some(s);
                    return ControlFlow::Break(());
                }
            }
            Some(Err(e)) => {
                warn(&format!("{}: {}", quote_os(name), cause(&e)));
                outcome = Outcome::Failed;
            }
            None => {}
        }
        ControlFlow::Continue(())
    };
    match batch {
        Some(b) => {
            let gpu = b.run(&algo, files, opts, &mut |i, r| deliver(&files[i], Some(r)));
            outcome = outcome.max(gpu);
        }
        None => {
            let tasks: Vec<Task> = files
                .iter()
                .map(|f| Some((f.clone(), Arc::clone(&algo))))
                .collect();
            run_ordered(&tasks, opts, parallel, |i, r| deliver(&files[i], r));
        }
    }
    if stop.is_none() {
        if let Err(s) = out.flush() {
            stop = Some(s);
        }
    }
    match stop {
        Some(s) => s.into_result(outcome),
        None => Ok(outcome),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gnu_and_bsd_lines() {
        let d = [0xabu8, 0x01];
        let f = Format::default();
        assert_eq!(format_line(f, "SHA3-256", &d, b"a b"), b"ab01  a b\n");
        assert_eq!(
            format_line(f, "SHA3-256", &d, b"a\\b\nc"),
            b"\\ab01  a\\\\b\\nc\n"
        );
        let t = Format { tag: true, ..f };
        assert_eq!(
            format_line(t, "SHA3-256", &d, b"x"),
            b"SHA3-256 (x) = ab01\n"
        );
        assert_eq!(
            format_line(t, "KT128", &d, b"x\ry"),
            b"\\KT128 (x\\ry) = ab01\n"
        );
        let z = Format { zero: true, ..f };
        assert_eq!(format_line(z, "SHA3-256", &d, b"a\nb"), b"ab01  a\nb\0");
        let b = Format { mark: b'*', ..f };
        assert_eq!(format_line(b, "SHA3-256", &d, b"f"), b"ab01 *f\n");
        let u = Format { mark: b'U', ..f };
        assert_eq!(format_line(u, "SHA3-256", &d, b"f"), b"ab01 Uf\n");
        let n = Format { names: false, ..f };
        assert_eq!(format_line(n, "SHA3-256", &d, b"a\nb"), b"ab01\n");
        let nz = Format { zero: true, ..n };
        assert_eq!(format_line(nz, "SHA3-256", &d, b"a"), b"ab01\0");
        let r = Format { raw: true, ..f };
        assert_eq!(format_line(r, "SHA3-256", &d, b"a"), d);
        let b64 = Format { base64: true, ..t };
        assert_eq!(
            format_line(b64, "SHA3-256", &d, b"x"),
            b"SHA3-256 (x) = qwE=\n"
        );
    }
}
