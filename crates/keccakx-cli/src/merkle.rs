//! `keccakx merkle`: OpenZeppelin-compatible Keccak-256 Merkle trees
//! (the library's `keccakx::merkle`) from CSV or JSON values, their dumps
//! (`standard-v1`, `simple-v1`, as `JSON.stringify(tree.dump())` writes
//! them), roots, proofs and verification.

use std::ffi::OsString;
use std::io::{self, IsTerminal, Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand, ValueEnum};
use keccakx::engine::{Engine, Fallback};
use keccakx::merkle::{self, json, LeafKind, MerkleError, MerkleTree, Value};

use crate::error::{Error, Outcome};
use crate::output::{print_all, warn, Out};

/// Trees at least this big go to a GPU under `--backend auto`, when one opens.
const AUTO_GPU_LEAVES: usize = 1 << 20;

#[derive(Args, Debug, Clone)]
#[command(after_help = "Examples:\n  \
keccakx merkle build --types address,uint256 values.csv > tree.json\n  \
keccakx merkle root tree.json\n  \
keccakx merkle prove tree.json --index 3\n  \
keccakx merkle prove tree.json --value 0x1111111111111111111111111111111111111111,5000\n  \
keccakx merkle verify --root 0x... --types address,uint256 --value 0x11...11,5000 --proof 0x...,0x...\n\n\
The dump is OpenZeppelin's (@openzeppelin/merkle-tree): `StandardMerkleTree.load` reads it, \
and `keccakx merkle` reads that library's dumps. See docs/merkle.md.")]
pub struct MerkleArgs {
    #[command(subcommand)]
    pub command: MerkleCommand,
}

#[derive(Subcommand, Debug, Clone)]
pub enum MerkleCommand {
    /// Build a tree from values and write its dump (JSON) on standard output.
    Build(BuildCmd),
    /// Print the root of a dump, or of the tree over values (with --types or --simple).
    Root(BuildArgs),
    /// Print the proof (JSON) of a value of a dumped tree.
    Prove(ProveArgs),
    /// Check a proof against a root; exit status 0 if it holds, 1 if not.
    Verify(VerifyArgs),
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    Csv,
    Json,
}

#[derive(Args, Debug, Clone)]
pub struct BuildArgs {
    /// Leaf encoding: the ABI types of a value, comma-separated
    /// (`address,uint256`; tuples and arrays as Solidity writes them).
    #[arg(long, value_name = "TYPES")]
    pub types: Option<String>,
    /// A simple tree: each value is one bytes32 leaf (`0x` + hex).
    #[arg(long, conflicts_with = "types")]
    pub simple: bool,
    /// Keep the leaves in input order (default: sorted by hash).
    #[arg(long)]
    pub no_sort: bool,
    /// Input format (default: from the extension, `.json` or else CSV).
    #[arg(long, value_enum)]
    pub format: Option<InputFormat>,
    /// The CSV input's first line is a header: skip it.
    #[arg(long)]
    pub header: bool,
    /// Show progress on standard error (default: on a terminal, for big trees).
    #[arg(long)]
    pub progress: bool,
    /// Values: CSV (one value per line, one column per type; a tuple or array
    /// cell is JSON) or JSON (an array of values); `root` also takes a dump.
    /// Default or `-`: standard input.
    #[arg(value_name = "FILE")]
    pub file: Option<OsString>,
}

#[derive(Args, Debug, Clone)]
pub struct BuildCmd {
    #[command(flatten)]
    pub args: BuildArgs,
    /// Also write every value's proof to FILE, one JSON object per line as
    /// `prove --all` writes them, from the tree just built (no second read
    /// and validation of the dump).
    #[arg(long, value_name = "FILE")]
    pub proofs: Option<OsString>,
}

#[derive(Args, Debug, Clone)]
pub struct ProveArgs {
    /// A dump written by `keccakx merkle build` or by the JavaScript library.
    #[arg(value_name = "TREE.json")]
    pub tree: OsString,
    /// Value indices to prove (comma-separated; more than one: a multiproof).
    #[arg(long, value_delimiter = ',', value_name = "N", required_unless_present_any = ["value", "all"])]
    pub index: Vec<usize>,
    /// The value to prove: a JSON array, or its fields comma-separated.
    #[arg(long, value_name = "VALUE", conflicts_with = "index")]
    pub value: Option<String>,
    /// Every value's proof, one JSON object per line.
    #[arg(long, conflicts_with_all = ["index", "value"])]
    pub all: bool,
}

#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// The root (`0x` + 64 hex digits).
    #[arg(long, value_name = "HEX")]
    pub root: String,
    /// Leaf encoding (see `build`).
    #[arg(long, value_name = "TYPES", required_unless_present = "simple")]
    pub types: Option<String>,
    /// A simple tree's leaf (bytes32).
    #[arg(long, conflicts_with = "types")]
    pub simple: bool,
    /// The value: a JSON array, or its fields comma-separated.
    #[arg(long, value_name = "VALUE")]
    pub value: String,
    /// The proof: nodes comma-separated, or a JSON array (empty for a one-leaf tree).
    #[arg(long, value_name = "NODES", default_value = "")]
    pub proof: String,
}

/// Where the hashing runs (`--backend`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Where {
    Auto,
    Cpu,
    Gpu,
}

fn merr(e: MerkleError) -> Error {
    Error::Params(format!("merkle: {e}"))
}

/// Run `keccakx merkle ...`.
pub fn run(a: &MerkleArgs, backend: Where) -> Result<Outcome, Error> {
    match &a.command {
        MerkleCommand::Build(b) => {
            let tree = build(&b.args, backend)?;
            if let Some(path) = &b.proofs {
                write_proofs_file(&tree, path)?;
            }
            let mut s = tree.dump_json();
            s.push('\n');
            print_all(s.as_bytes())
        }
        MerkleCommand::Root(b) => {
            let text = read_input(b.file.as_ref())?;
            let tree = if b.types.is_none() && !b.simple {
                let e = engine(backend, 0)?;
                MerkleTree::load_json(&text, None, &*e).map_err(merr)?
            } else {
                build_from(b, &text, backend)?
            };
            print_all(format!("{}\n", merkle::to_hex(&tree.root())).as_bytes())
        }
        MerkleCommand::Prove(p) => prove(p, backend),
        MerkleCommand::Verify(v) => verify(v),
    }
}

/// The engine: the CPU's on all allowed cores, or a GPU.
fn engine(backend: Where, leaves: usize) -> Result<Box<dyn Engine>, Error> {
    let cpu = || Box::new(keccakx::engine::all_cores()) as Box<dyn Engine>;
    let gpu = || keccakx_gpu::GpuEngine::new(0).map_err(|e| e.to_string());
    match backend {
        Where::Cpu => Ok(cpu()),
        Where::Gpu => gpu()
            .map(|g| Box::new(g) as Box<dyn Engine>)
            .map_err(|e| Error::Gpu(format!("no GPU available ({e})"))),
        Where::Auto if leaves >= AUTO_GPU_LEAVES => match gpu() {
            Ok(g) => Ok(Box::new(Fallback::sticky(g))),
            Err(_) => Ok(cpu()),
        },
        Where::Auto => Ok(cpu()),
    }
}

/// FILE's text; none or `-`: standard input, read as `sum` reads it (a
/// closed or write-only standard input is a read error, not an empty input).
fn read_input(file: Option<&OsString>) -> Result<String, Error> {
    let mut bytes = Vec::new();
    match file {
        Some(f) if f != "-" => {
            bytes = std::fs::read(f).map_err(|err| Error::Read {
                what: crate::escape::quote_os(f.as_os_str()),
                err,
            })?;
        }
        _ => {
            crate::stdio::stdin_checked()
                .and_then(|mut stdin| stdin.read_to_end(&mut bytes))
                .map_err(|err| Error::Read {
                    what: "standard input".into(),
                    err,
                })?;
        }
    }
    String::from_utf8(bytes)
        .map_err(|_| Error::Params("merkle: the input is not UTF-8 text".into()))
}

fn kind_of(types: Option<&str>, simple: bool) -> Result<LeafKind, Error> {
    if simple {
        return Ok(LeafKind::Simple);
    }
    let t = types.ok_or_else(|| Error::Usage("merkle: give --types (or --simple)".into()))?;
    LeafKind::standard(&split_types(t)).map_err(merr)
}

/// Split a type list on the commas outside parentheses.
fn split_types(t: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    for c in t.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur.trim().to_string());
    out
}

fn build(b: &BuildArgs, backend: Where) -> Result<MerkleTree, Error> {
    let text = read_input(b.file.as_ref())?;
    build_from(b, &text, backend)
}

fn build_from(b: &BuildArgs, text: &str, backend: Where) -> Result<MerkleTree, Error> {
    let kind = kind_of(b.types.as_deref(), b.simple)?;
    let json_in = match b.format {
        Some(f) => f == InputFormat::Json,
        None => b.file.as_ref().is_some_and(|f| {
            Path::new(f)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("json"))
        }),
    };
    let values = if json_in {
        match json::parse(text).map_err(merr)? {
            Value::Array(vs) => vs,
            _ => {
                return Err(Error::Params(
                    "merkle: JSON input must be an array of values".into(),
                ))
            }
        }
    } else {
        parse_csv(text, &kind, b.header)?
    };
    let e = engine(backend, values.len())?;
    let show = b.progress || (io::stderr().is_terminal() && values.len() >= 100_000);
    let mut bar = Bar::new(show);
    let mut tick = |done: u64, total: u64| bar.tick(done, total);
    let progress: Option<merkle::Progress<'_>> = if show { Some(&mut tick) } else { None };
    let tree = MerkleTree::build(kind, values, !b.no_sort, &*e, progress).map_err(merr)?;
    bar.done();
    Ok(tree)
}

/// Progress on standard error: one line, redrawn at most 5 times a second.
struct Bar {
    on: bool,
    last: Option<Instant>,
    start: Instant,
    tty: bool,
}

impl Bar {
    fn new(on: bool) -> Bar {
        Bar {
            on,
            last: None,
            start: Instant::now(),
            tty: io::stderr().is_terminal(),
        }
    }
    fn tick(&mut self, done: u64, total: u64) {
        let now = Instant::now();
        if !self.on
            || self
                .last
                .is_some_and(|t| now - t < Duration::from_millis(200))
                && done < total
        {
            return;
        }
        self.last = Some(now);
        let pct = if total == 0 {
            100.0
        } else {
            done as f64 * 100.0 / total as f64
        };
        let end = if self.tty { "\r" } else { "\n" };
        let mut e = io::stderr().lock();
        let _ = write!(e, "keccakx merkle: {done}/{total} hashes ({pct:.0}%){end}");
        let _ = e.flush();
    }
    fn done(&mut self) {
        if self.on {
            let mut e = io::stderr().lock();
            let secs = self.start.elapsed().as_secs_f64();
            let _ = writeln!(
                e,
                "{}keccakx merkle: built in {secs:.2} s",
                if self.tty { "\x1b[K" } else { "" }
            );
        }
    }
}

/// CSV records: fields split on commas, `"..."` quoted with `""` for a
/// quote; a tuple or array column's cell is JSON; every other cell is a
/// string as it stands.
fn parse_csv(text: &str, kind: &LeafKind, header: bool) -> Result<Vec<Value>, Error> {
    let types: Vec<merkle::AbiType> = match kind {
        LeafKind::Standard { types, .. } => types.clone(),
        LeafKind::Simple => vec![merkle::AbiType::FixedBytes(32)],
    };
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate().skip(header as usize) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim().is_empty() {
            continue;
        }
        let fields =
            csv_fields(line).map_err(|e| Error::Params(format!("merkle: line {}: {e}", n + 1)))?;
        if fields.len() != types.len() {
            return Err(Error::Params(format!(
                "merkle: line {}: {} fields, the leaf encoding has {} types",
                n + 1,
                fields.len(),
                types.len()
            )));
        }
        let mut items = Vec::with_capacity(fields.len());
        for (f, t) in fields.into_iter().zip(&types) {
            items.push(
                cell(f, t).map_err(|e| Error::Params(format!("merkle: line {}: {e}", n + 1)))?,
            );
        }
        out.push(match kind {
            LeafKind::Simple => items.pop().expect("one field"),
            _ => Value::Array(items),
        });
    }
    Ok(out)
}

fn cell(f: String, t: &merkle::AbiType) -> Result<Value, MerkleError> {
    match t {
        merkle::AbiType::Tuple(_) | merkle::AbiType::Array(..) => json::parse(&f),
        _ => Ok(Value::Str(f)),
    }
}

fn csv_fields(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut f = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') if chars.peek() == Some(&'"') => {
                        chars.next();
                        f.push('"');
                    }
                    Some('"') => break,
                    Some(c) => f.push(c),
                    None => return Err("unterminated quoted field".into()),
                }
            }
            match chars.next() {
                None => {
                    out.push(f);
                    return Ok(out);
                }
                Some(',') => out.push(f),
                Some(_) => return Err("text after a quoted field".into()),
            }
        } else {
            // A JSON cell may hold commas inside brackets.
            let mut depth = 0i32;
            loop {
                match chars.next() {
                    None => {
                        out.push(f);
                        return Ok(out);
                    }
                    Some(',') if depth == 0 => break,
                    Some(c) => {
                        match c {
                            '[' | '(' => depth += 1,
                            ']' | ')' => depth -= 1,
                            _ => {}
                        }
                        f.push(c)
                    }
                }
            }
            out.push(f);
        }
    }
}

/// A value given on the command line: a JSON array, or CSV fields.
fn value_arg(s: &str, kind: &LeafKind) -> Result<Value, Error> {
    if s.trim_start().starts_with('[') {
        return json::parse(s).map_err(merr);
    }
    if matches!(kind, LeafKind::Simple) && s.trim_start().starts_with('"') {
        return json::parse(s).map_err(merr);
    }
    let vals = parse_csv(s, kind, false)?;
    vals.into_iter()
        .next()
        .ok_or_else(|| Error::Usage("merkle: --value is empty".into()))
}

fn hex_list(proof: &[merkle::Hash]) -> Value {
    Value::Array(
        proof
            .iter()
            .map(|h| Value::Str(merkle::to_hex(h)))
            .collect(),
    )
}

/// `{"index":I,"value":V,"proof":["0x...",...]}` and a newline onto `s`:
/// the object `prove --index I` prints.
fn proof_line(tree: &MerkleTree, i: usize, proof: &[merkle::Hash], s: &mut String) {
    s.push_str("{\"index\":");
    s.push_str(&i.to_string());
    s.push_str(",\"value\":");
    json::write_json(&tree.values()[i], s);
    s.push_str(",\"proof\":[");
    merkle::push_hex_list(proof, s);
    s.push_str("]}\n");
}

/// Every value's proof into the file `path` (`build --proofs`).
fn write_proofs_file(tree: &MerkleTree, path: &OsString) -> Result<(), Error> {
    let werr = |err: io::Error| {
        Error::Params(format!(
            "merkle: --proofs {}: {}",
            crate::escape::quote_os(path.as_os_str()),
            err
        ))
    };
    let f = std::fs::File::create(path).map_err(werr)?;
    let mut w = io::BufWriter::with_capacity(1 << 20, f);
    tree.proof_lines(
        |i, proof, s| proof_line(tree, i, proof, s),
        |block| w.write_all(block.as_bytes()),
    )
    .and_then(|()| w.flush())
    .map_err(werr)
}

fn prove(p: &ProveArgs, backend: Where) -> Result<Outcome, Error> {
    let text = read_input(Some(&p.tree))?;
    let e = engine(backend, 0)?;
    let tree = MerkleTree::load_json(&text, None, &*e).map_err(merr)?;
    let obj = |i: usize, proof: &[merkle::Hash]| {
        Value::Object(vec![
            ("index".into(), Value::Num(i.to_string())),
            ("value".into(), tree.values()[i].clone()),
            ("proof".into(), hex_list(proof)),
        ])
    };
    if p.all {
        // Streamed: a million proofs are over a gigabyte of text.
        let mut out = Out::new();
        return match tree.proof_lines(
            |i, proof, s| proof_line(&tree, i, proof, s),
            |block| out.write(block.as_bytes()),
        ) {
            Ok(()) => match out.flush() {
                Ok(()) => Ok(Outcome::Success),
                Err(stop) => stop.into_result(Outcome::Success),
            },
            Err(stop) => stop.into_result(Outcome::Success),
        };
    }
    let out = if let Some(v) = &p.value {
        let v = value_arg(v, tree.kind())?;
        let i = tree.leaf_lookup(&v).map_err(merr)?;
        obj(i, &tree.proof(i).map_err(merr)?).to_json() + "\n"
    } else if p.index.len() == 1 {
        let i = p.index[0];
        obj(i, &tree.proof(i).map_err(merr)?).to_json() + "\n"
    } else {
        let mp = tree.multi_proof(&p.index).map_err(merr)?;
        Value::Object(vec![
            (
                "leaves".into(),
                Value::Array(
                    mp.leaves
                        .iter()
                        .map(|&i| tree.values()[i].clone())
                        .collect(),
                ),
            ),
            ("proof".into(), hex_list(&mp.proof)),
            (
                "proofFlags".into(),
                Value::Array(mp.proof_flags.iter().map(|&f| Value::Bool(f)).collect()),
            ),
        ])
        .to_json()
            + "\n"
    };
    print_all(out.as_bytes())
}

fn verify(v: &VerifyArgs) -> Result<Outcome, Error> {
    let kind = kind_of(v.types.as_deref(), v.simple)?;
    let root =
        merkle::parse_hash(v.root.trim()).map_err(|e| Error::Usage(format!("--root: {e}")))?;
    let value = value_arg(&v.value, &kind)?;
    let nodes: Vec<String> = if v.proof.trim_start().starts_with('[') {
        match json::parse(&v.proof).map_err(merr)? {
            Value::Array(items) => items
                .into_iter()
                .map(|i| match i {
                    Value::Str(s) => Ok(s),
                    o => Err(Error::Usage(format!("--proof: not a node: {}", o.short()))),
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(Error::Usage("--proof: a JSON array of nodes".into())),
        }
    } else {
        v.proof
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect()
    };
    let proof = nodes
        .iter()
        .map(|n| merkle::parse_hash(n))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| Error::Usage(format!("--proof: {e}")))?;
    let leaf = merkle::leaf_hash(&kind, &value).map_err(merr)?;
    if merkle::process_proof(&leaf, &proof) == root {
        print_all(b"OK\n")
    } else {
        warn("merkle: the proof does not lead to the root");
        print_all(b"FAILED\n").map(|_| Outcome::Failed)
    }
}
