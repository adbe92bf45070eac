//! `keccakx sum --check`: read checksum files (GNU or BSD-tag lines) and
//! verify every listed file, with the messages and exit status of GNU
//! coreutils' `sha256sum --check` (9.x). What a line means and what the
//! report says is the library's ([`keccakx::sumfile`], shared with
//! `keccakx-cluster`); here: the command line's algorithms, reading the
//! lists and hashing the files.
//!
//! A list is read line by line, as GNU does, and each result is printed as
//! soon as it and the lines before it are done: memory stays bounded
//! whatever the list (a line longer than any checksum line can be is
//! skipped as improperly formatted without being stored), and a list read
//! from a pipe or terminal gets its answers as its lines arrive.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::ControlFlow;
use std::sync::Arc;

use crate::algo::{find, find_tag, params_for, sha3sum_by_hex_len, AlgInfo, Algo, InputMode};
use crate::cli::MAX_LENGTH;
use crate::error::{cause, Error, Outcome};
use crate::escape::{os_from_bytes, quote, quote_os};
use crate::exec::{Digest, Ordered, Task};
use crate::input::ReadOpts;
use crate::output::{warn, Out, Stop};
use keccakx::registry::Params;
use keccakx::sumfile::report::{self, Tally, Verbosity};
use keccakx::sumfile::{self, Catalog, Mode, Rules};

/// Longest line kept: the hex of the longest digest (`-l` ≤ 1 MiB) and
/// room for a tag and a long, escaped file name. Longer lines are read
/// past, not stored, and count as improperly formatted.
pub const MAX_LINE: usize = 2 * MAX_LENGTH + (64 << 10);
/// Algorithm instances kept for the lengths seen in one run (a hostile
/// list of a million lengths must not keep a million hashers).
const CACHE_MAX: usize = 256;

/// How much `--check` says, and what passes.
pub type CheckOpts = Verbosity;

/// The command line's algorithms (the registry's and the finalists) as the
/// library's checksum lines name them.
pub struct Algorithms;

impl Catalog for Algorithms {
    type Alg = &'static AlgInfo;

    fn by_tag(&self, tag: &str) -> Option<Self::Alg> {
        find_tag(tag)
    }

    fn by_hex_len(&self, hex_len: usize) -> Option<Self::Alg> {
        Some(sha3sum_by_hex_len(hex_len)?.0)
    }

    fn same(&self, a: Self::Alg, b: Self::Alg) -> bool {
        std::ptr::eq(a, b)
    }

    fn lengths(&self, a: Self::Alg) -> (usize, bool) {
        (a.default_len, a.variable_len)
    }
}

fn input_mode(m: Mode) -> InputMode {
    match m {
        Mode::Bytes => InputMode::Bytes,
        Mode::Universal => InputMode::Universal,
        Mode::Bits => InputMode::Bits,
    }
}

/// What `--check` knows from the command line.
pub struct Context {
    /// `-a` (or the default), already validated with `params`.
    pub algo: Arc<Algo>,
    /// Whether `-a` was given (without it, untagged lines are told apart by
    /// their number of hex digits, as sha3sum does: `sha3sum_by_hex_len`).
    pub algo_given: bool,
    /// -a restricts the check (`sum --check`): lines of other algorithms,
    /// and shorter digests than -a's default without -l, are improperly
    /// formatted. Off for [`parse_line`] (`verify` finds a file's line and
    /// judges its algorithm itself).
    pub restrict: bool,
    /// The parameters as given (`length` only when `-l` was given).
    pub params: Params,
    cache: HashMap<(&'static str, usize, InputMode), Result<Arc<Algo>, String>>,
}

impl Context {
    pub fn new(algo: Arc<Algo>, algo_given: bool, params: Params) -> Context {
        Context {
            algo,
            algo_given,
            restrict: algo_given,
            params,
            cache: HashMap::new(),
        }
    }

    /// The algorithm instance for `info` with an output of `len` bytes,
    /// reading its input in `mode`.
    fn instance(
        &mut self,
        info: &'static AlgInfo,
        len: usize,
        mode: InputMode,
    ) -> Result<Arc<Algo>, String> {
        if std::ptr::eq(info, self.algo.info) && len == self.algo.out_len && mode == self.algo.input
        {
            return Ok(Arc::clone(&self.algo));
        }
        let base = if std::ptr::eq(info, self.algo.info) {
            self.params.clone()
        } else {
            params_for(info, &self.params)
        };
        let key = (info.name, len, mode);
        if self.cache.len() >= CACHE_MAX && !self.cache.contains_key(&key) {
            self.cache.clear();
        }
        self.cache
            .entry(key)
            .or_insert_with(|| {
                let mut p = base;
                p.length = info.variable_len.then_some(len);
                Algo::new(info, &p)
                    .and_then(|a| a.with_input(mode))
                    .map(Arc::new)
            })
            .clone()
    }

    /// The library's rules for the lines of a list.
    fn rules(&self) -> Rules<&'static AlgInfo> {
        Rules {
            alg: self.algo.info,
            chosen: self.algo_given,
            restrict: self.restrict,
            length: self.params.length,
            max_len: MAX_LENGTH,
        }
    }
}

/// A parsed checksum line.
pub struct Entry {
    /// The file name (unescaped).
    pub name: Vec<u8>,
    pub expected: Vec<u8>,
    pub info: &'static AlgInfo,
    /// How to read the file: the mark of an untagged line.
    pub input: InputMode,
}

/// The lines of one checksum list (the library's parser, with the
/// command line's algorithms).
struct Parser(sumfile::Parser);

impl Parser {
    fn new() -> Parser {
        Parser(sumfile::Parser::new())
    }

    /// Parse one line (without its newline).
    fn parse(&mut self, s: &[u8], ctx: &Context) -> Option<Entry> {
        let e = self.0.parse(s, &Algorithms, &ctx.rules())?;
        Some(Entry {
            name: e.name,
            expected: e.expected,
            info: e.alg,
            input: input_mode(e.mode),
        })
    }
}

/// One line of a checksum list, or a line too long to be one.
enum Line<'a> {
    Text(&'a [u8]),
    TooLong,
}

/// Lines of a checksum list, read through a buffer: never more than
/// [`MAX_LINE`] bytes of one line are held.
struct Lines<R> {
    r: BufReader<R>,
    line: Vec<u8>,
}

impl<R: Read> Lines<R> {
    fn new(r: R) -> Self {
        Lines {
            r: BufReader::with_capacity(64 << 10, r),
            line: Vec::new(),
        }
    }

    /// Whether the next read goes to the source (may block on a pipe).
    fn drained(&self) -> bool {
        self.r.buffer().is_empty()
    }

    /// The next line with its newline (if it had one), None at the end.
    fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        self.line.clear();
        let mut any = false;
        let mut too_long = false;
        let mut comment = false;
        loop {
            let buf = match self.r.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                break;
            }
            any = true;
            let (take, end) = match buf.iter().position(|&c| c == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            if !too_long {
                if self.line.len() + take > MAX_LINE {
                    too_long = true;
                    // A comment stays a comment, however long.
                    comment = self.line.first().or(buf.first()) == Some(&b'#');
                    self.line = Vec::new();
                } else {
                    self.line.extend_from_slice(&buf[..take]);
                }
            }
            self.r.consume(take);
            if end {
                break;
            }
        }
        Ok(match (any, too_long) {
            (false, _) => None,
            (true, true) if comment => Some(Line::Text(b"#")),
            (true, true) => Some(Line::TooLong),
            (true, false) => Some(Line::Text(&self.line)),
        })
    }
}

/// Open one checksum list: standard input or a file; for a list that may
/// block (a pipe or terminal), its descriptor, to ask whether more of it is
/// there before reading.
fn open_list(file: &OsString) -> io::Result<(Box<dyn Read>, Option<i32>)> {
    if file == "-" {
        let stdin = crate::stdio::stdin_checked()?;
        return Ok((Box::new(stdin), Some(0)));
    }
    let f = std::fs::File::open(file)?;
    let fd = if f.metadata()?.is_file() {
        None
    } else {
        raw_fd(&f)
    };
    Ok((Box::new(f), fd))
}

#[cfg(unix)]
fn raw_fd(f: &std::fs::File) -> Option<i32> {
    use std::os::fd::AsRawFd;
    Some(f.as_raw_fd())
}

#[cfg(not(unix))]
fn raw_fd(_: &std::fs::File) -> Option<i32> {
    Some(-1)
}

/// Whether reading `fd` now would wait (nothing there yet, not at the end).
#[cfg(unix)]
fn would_block(fd: i32) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll reads and writes only the one pollfd we pass; timeout 0.
    let r = unsafe { libc::poll(&mut p, 1, 0) };
    r == 0
}

#[cfg(not(unix))]
fn would_block(_: i32) -> bool {
    true
}

/// Check every checksum file: [`Outcome::Failed`] unless every list could
/// be read and passed.
pub fn run(
    files: &[OsString],
    ctx: &mut Context,
    opts: CheckOpts,
    ropts: ReadOpts,
    parallel: bool,
) -> Result<Outcome, Error> {
    let mut out = Out::new();
    let mut outcome = Outcome::Success;
    for file in files {
        let is_stdin = file == "-";
        let label = if is_stdin {
            quote(b"standard input")
        } else {
            quote_os(file)
        };
        let (reader, pollable) = match open_list(file) {
            Ok(r) => r,
            Err(e) => {
                warn(&format!("{label}: {}", cause(&e)));
                outcome = Outcome::Failed;
                continue;
            }
        };
        let list = List {
            label: &label,
            is_stdin,
            pollable,
        };
        match check_one(reader, &list, ctx, opts, ropts, parallel, &mut out) {
            Ok(list_outcome) => outcome = outcome.max(list_outcome),
            // A list cut short (its reader went away) was not checked to
            // its end: it did not pass.
            Err(stop) => return stop.into_result(Outcome::Failed),
        }
    }
    match out.flush() {
        Ok(()) => Ok(outcome),
        Err(s) => s.into_result(outcome),
    }
}

/// The checksum list being read.
struct List<'a> {
    label: &'a str,
    is_stdin: bool,
    /// A pipe or terminal (its descriptor): answer before waiting for it.
    pollable: Option<i32>,
}

/// What one line of the list became; delivered in line order.
enum Slot {
    /// Improperly formatted (line number, and why when there is more to say).
    Malformed(usize, Option<String>),
    Check(Entry),
}

/// Report one line's result (in line order): its warning now, and its
/// line of output when there is one.
fn report(slot: Slot, r: Option<Digest>, tally: &mut Tally) -> Option<Vec<u8>> {
    let said = match (&slot, r) {
        (Slot::Malformed(n, why), _) => tally.line(report::Result::Malformed(*n, why.as_deref())),
        (Slot::Check(e), Some(Err(err))) => tally.line(report::Result::Unread {
            name: &e.name,
            missing: err.kind() == io::ErrorKind::NotFound,
            cause: &cause(&err),
        }),
        (Slot::Check(e), Some(Ok(d))) => tally.line(report::Result::Hashed {
            name: &e.name,
            matched: keccakx::ct_eq(&d, &e.expected),
        }),
        (Slot::Check(_), None) => return None,
    };
    if let Some(w) = said.warning {
        warn(&w);
    }
    said.out
}

fn check_one(
    reader: Box<dyn Read>,
    list: &List,
    ctx: &mut Context,
    opts: CheckOpts,
    ropts: ReadOpts,
    parallel: bool,
    out: &mut Out,
) -> Result<Outcome, Stop> {
    let mut tally = Tally::new(list.label, ctx.algo.display(), opts);
    let mut stop: Option<Stop> = None;
    // Shared by the sink (lines) and this loop (flushes before waiting).
    let shared = std::cell::RefCell::new(&mut *out);
    let mut sink = |slot: Slot, r: Option<Digest>| -> ControlFlow<()> {
        if let Some(l) = report(slot, r, &mut tally) {
            if let Err(s) = shared.borrow_mut().write(&l) {
                stop = Some(s);
                return ControlFlow::Break(());
            }
        }
        ControlFlow::Continue(())
    };
    let mut ord: Ordered<Slot> = Ordered::new(ropts, parallel);
    let mut parser = Parser::new();
    let mut lines = Lines::new(reader);
    let mut lineno = 0usize;
    let mut read_error = None;
    loop {
        if lines.drained() && list.pollable.is_some_and(would_block) {
            // About to wait for more of the list: answer what came so far.
            if ord.finish(&mut sink).is_break() {
                break;
            }
            shared.borrow_mut().flush()?;
        }
        let line = match lines.next_line() {
            Ok(Some(l)) => l,
            Ok(None) => break,
            Err(e) => {
                read_error = Some(e);
                break;
            }
        };
        lineno += 1;
        let Some((slot, task)) = classify(line, lineno, &mut parser, ctx, list) else {
            continue;
        };
        if ord.push(slot, task, &mut sink).is_break() {
            break;
        }
    }
    let _ = ord.finish(&mut sink);
    if let Some(s) = stop {
        return Err(s);
    }
    let summary = match read_error {
        // As GNU: the list could not be read to its end; no summary.
        Some(e) => tally.read_error(&cause(&e)),
        None => tally.summary(),
    };
    if summary.flush_first {
        // Keep stdout and stderr in order for a reader of both.
        out.flush()?;
    }
    for w in &summary.warnings {
        warn(w);
    }
    Ok(if summary.passed {
        Outcome::Success
    } else {
        Outcome::Failed
    })
}

/// What one line of the list asks for: a check (the entry and the file to
/// hash with its algorithm) or a malformed line; None for a comment or an
/// empty line.
fn classify(
    line: Line<'_>,
    lineno: usize,
    parser: &mut Parser,
    ctx: &mut Context,
    list: &List,
) -> Option<(Slot, Task)> {
    let raw = match line {
        Line::TooLong => return Some((Slot::Malformed(lineno, None), None)),
        Line::Text(raw) => raw,
    };
    let line = sumfile::line_text(raw)?;
    Some(match parser.parse(line, ctx) {
        Some(e) if !(list.is_stdin && e.name == b"-") => {
            match ctx.instance(e.info, e.expected.len(), e.input) {
                Ok(algo) => {
                    let task: Task = Some((os_from_bytes(&e.name), algo));
                    (Slot::Check(e), task)
                }
                Err(msg) => (Slot::Malformed(lineno, Some(msg)), None),
            }
        }
        _ => (Slot::Malformed(lineno, None), None),
    })
}

/// Parse one checksum line for `verify`, the fuzz targets and tests, or
/// None when the line is improperly formatted. `algorithm`: as `-a` (None:
/// the default, untagged lines by their length), but a tagged line of any
/// algorithm is read (see [`parse_check_line`] for `--check`'s rule).
pub fn parse_line(line: &[u8], algorithm: Option<&str>, params: &Params) -> Option<Entry> {
    parse_with(line, algorithm, params, false)
}

/// Parse one line as `sum --check` does: with `algorithm` (-a) given, a
/// line of another algorithm, or a digest shorter than its default unless
/// `params.length` (-l) allows it, is improperly formatted (None).
pub fn parse_check_line(line: &[u8], algorithm: Option<&str>, params: &Params) -> Option<Entry> {
    parse_with(line, algorithm, params, true)
}

fn parse_with(
    line: &[u8],
    algorithm: Option<&str>,
    params: &Params,
    restrict: bool,
) -> Option<Entry> {
    let info = find(algorithm.unwrap_or(crate::algo::DEFAULT_ALGORITHM))?;
    let own = if algorithm.is_none() {
        params_for(info, params)
    } else {
        params.clone()
    };
    let algo = Arc::new(Algo::new(info, &own).ok()?);
    let mut ctx = Context::new(algo, algorithm.is_some(), params.clone());
    ctx.restrict = restrict && algorithm.is_some();
    Parser::new().parse(line, &ctx)
}

#[cfg(test)]
mod tests {
    use super::*;

    use keccakx::registry::Params;

    fn ctx(name: &str, given: bool, params: Params) -> Context {
        let info = find(name).unwrap();
        let a = Arc::new(Algo::new(info, &params).unwrap());
        Context::new(a, given, params)
    }

    #[test]
    fn parses_both_formats() {
        let c = ctx("sha3-256", false, Params::default());
        let h = "a".repeat(64);
        let mut p = Parser::new();
        let e = p.parse(format!("{h}  a b").as_bytes(), &c).unwrap();
        assert_eq!(e.name, b"a b");
        assert_eq!(e.info.name, "sha3-256");
        let e = p
            .parse(format!("\\{h} *x\\\\y\\nz").as_bytes(), &c)
            .unwrap();
        assert_eq!(e.name, b"x\\y\nz");
        // Mixing in a reversed (single-space) line is refused.
        assert!(p.parse(format!("{h} x").as_bytes(), &c).is_none());
        let e = p
            .parse(
                format!("SHA3-512 (f (1)) = {}", "b".repeat(128)).as_bytes(),
                &c,
            )
            .unwrap();
        assert_eq!(
            (e.name.as_slice(), e.info.name),
            (&b"f (1)"[..], "sha3-512")
        );
        let e = p
            .parse(format!("KT128(f)={}", "c".repeat(10)).as_bytes(), &c)
            .unwrap();
        assert_eq!(e.expected.len(), 5);
        assert!(p
            .parse(format!("SHA3-256 (f) = {}", "b".repeat(63)).as_bytes(), &c)
            .is_none());
        assert!(p
            .parse(format!("SHA3-256 (f) = {} ", "b".repeat(64)).as_bytes(), &c)
            .is_none());
        assert!(p.parse(b"SHA3-256 (f = 00", &c).is_none());
        assert!(p
            .parse(format!("{}  f", "a".repeat(62)).as_bytes(), &c)
            .is_none());
        assert!(p.parse(format!("\\{h}  bad\\q").as_bytes(), &c).is_none());
        // Untagged sha3-512-length line without -a.
        assert_eq!(
            p.parse(format!("{}  f", "d".repeat(128)).as_bytes(), &c)
                .unwrap()
                .info
                .name,
            "sha3-512"
        );
    }

    #[test]
    fn sha3sum_marks_and_lengths() {
        let c = ctx("sha3-256", false, Params::default());
        let h = "a".repeat(64);
        let mut p = Parser::new();
        for (mark, mode) in [
            (' ', InputMode::Bytes),
            ('*', InputMode::Bytes),
            ('U', InputMode::Universal),
            ('^', InputMode::Bits),
        ] {
            let e = p.parse(format!("{h} {mark}f g").as_bytes(), &c).unwrap();
            assert_eq!((e.name.as_slice(), e.input), (&b"f g"[..], mode));
        }
        // sha3sum's SHAKE lines (one rate of output) without -a.
        for (digits, name) in [(336, "shake128"), (272, "shake256")] {
            let e = p
                .parse(format!("{}  f", "e".repeat(digits)).as_bytes(), &c)
                .unwrap();
            assert_eq!((e.info.name, e.expected.len()), (name, digits / 2));
        }
        // Tagged lines are read as they are; in a reversed (single-space)
        // list, 'U' starts the name.
        let e = p
            .parse(format!("SHA3-256 (Uf) = {h}").as_bytes(), &c)
            .unwrap();
        assert_eq!((e.name.as_slice(), e.input), (&b"Uf"[..], InputMode::Bytes));
        let mut r = Parser::new();
        let e = r.parse(format!("{h} xf").as_bytes(), &c).unwrap();
        assert_eq!(e.name, b"xf");
        let e = r.parse(format!("{h} Uf").as_bytes(), &c).unwrap();
        assert_eq!((e.name.as_slice(), e.input), (&b"Uf"[..], InputMode::Bytes));
    }

    #[test]
    fn base64_digests_as_cksum_writes_them() {
        let d: Vec<u8> = (0..32u8).collect();
        let b64 = crate::base64::encode(&d);
        let mut p = Parser::new();
        let c = ctx("sha3-256", false, Params::default());
        let e = p
            .parse(format!("SHA3-256 (f) = {b64}").as_bytes(), &c)
            .unwrap();
        assert_eq!((e.expected, e.info.name), (d.clone(), "sha3-256"));
        // Untagged: only when -a names the algorithm (the length of a hex
        // field names it otherwise).
        assert!(p.parse(format!("{b64}  f").as_bytes(), &c).is_none());
        let given = ctx("sha3-256", true, Params::default());
        let e = p.parse(format!("{b64}  f").as_bytes(), &given).unwrap();
        assert_eq!((e.expected, e.name), (d, b"f".to_vec()));
        // A base64 digest of another length, or not canonical, is refused.
        let short = crate::base64::encode(&[1u8; 31]);
        assert!(p
            .parse(format!("SHA3-256 (f) = {short}").as_bytes(), &c)
            .is_none());
        assert!(p.parse(b"SHA3-256 (f) = Zh==", &c).is_none());
    }

    #[test]
    fn random_lines_never_panic() {
        // A small xorshift generator: deterministic, no dependency.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let alphabet = b"0123456789abcdefABCDEF \\t*()=\\nrSHA3-256KT128Keccak[r,c]x\x00\xff";
        for (name, given) in [("sha3-256", false), ("shake128", true), ("kmac128", true)] {
            let reg = if name == "kmac128" {
                Params {
                    key: Some(b"k".to_vec()),
                    ..Params::default()
                }
            } else {
                Params::default()
            };
            let c = ctx(name, given, reg);
            let mut p = Parser::new();
            for _ in 0..20_000 {
                let len = (next() % 90) as usize;
                let line: Vec<u8> = (0..len)
                    .map(|_| alphabet[(next() % alphabet.len() as u64) as usize])
                    .collect();
                if let Some(e) = p.parse(&line, &c) {
                    assert!(c.rules().fits(&Algorithms, e.info, e.expected.len() * 2));
                }
            }
        }
    }

    #[test]
    fn explicit_algorithm_and_length() {
        let c = ctx(
            "shake128",
            true,
            Params {
                length: Some(4),
                ..Params::default()
            },
        );
        let mut p = Parser::new();
        assert!(p.parse(b"0011aabb  f", &c).is_some());
        assert!(p.parse(b"0011aabbcc  f", &c).is_none());
        // -a shake128 without -l: no digest shorter than the default
        // (32 bytes) verifies.
        let c = ctx("shake128", true, Params::default());
        assert!(p.parse(b"0011aabbcc  f", &c).is_none());
        let h32 = "ab".repeat(32);
        assert!(p.parse(format!("{h32}  f").as_bytes(), &c).is_some());
        assert!(p.parse(format!("{h32}cd  f").as_bytes(), &c).is_some());
        let mut p = Parser::new();
        assert!(p.parse(b"0011aabbc  f", &c).is_none());
        // A reversed line is accepted when it comes first.
        assert_eq!(
            p.parse(format!("{h32} f g").as_bytes(), &c).unwrap().name,
            b"f g"
        );
    }

    #[test]
    fn algorithm_given_refuses_other_algorithms_lines() {
        // `-a sha3-512 -c`: a SHAKE128 line of one byte, or any line of
        // another algorithm, is improperly formatted, as with cksum -a.
        let c = ctx("sha3-512", true, Params::default());
        let mut p = Parser::new();
        assert!(p.parse(b"SHAKE128 (abc) = 51", &c).is_none());
        let h = "a".repeat(64);
        assert!(p
            .parse(format!("SHA3-256 (f) = {h}").as_bytes(), &c)
            .is_none());
        assert!(p.parse(format!("{h}  f").as_bytes(), &c).is_none());
        let h = "a".repeat(128);
        assert!(p
            .parse(format!("SHA3-512 (f) = {h}").as_bytes(), &c)
            .is_some());
        // Without -a a tagged line keeps its own algorithm.
        let c = ctx("sha3-512", false, Params::default());
        let e = p.parse(b"SHAKE128 (abc) = 51", &c).unwrap();
        assert_eq!((e.info.name, e.expected.len()), ("shake128", 1));
        // -a shake128: its own tag, but short only with a matching -l.
        let c = ctx("shake128", true, Params::default());
        assert!(p.parse(b"SHAKE128 (abc) = 51", &c).is_none());
        let l1 = Params {
            length: Some(1),
            ..Params::default()
        };
        let c = ctx("shake128", true, l1);
        assert!(p.parse(b"SHAKE128 (abc) = 51", &c).is_some());
    }
}
