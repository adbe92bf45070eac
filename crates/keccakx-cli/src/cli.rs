//! Command-line definition (clap). Everything a user can type is here, with
//! the help text; validation that needs the library lives in `algo.rs`.

use std::ffi::OsString;
use std::ops::Range;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// `keccakx --help`'s first line (the finalists only where the build has them).
const ABOUT: &str = if cfg!(feature = "finalists") {
    "Hash files with the whole Keccak family (SHA-3, SHAKE, Keccak, cSHAKE, KMAC, \
     TupleHash, ParallelHash, TurboSHAKE, KangarooTwelve, raw Keccak[r,c], tree mode LI) \
     and the SHA-3 finalists BLAKE, Groestl, JH, Skein."
} else {
    "Hash files with the whole Keccak family (SHA-3, SHAKE, Keccak, cSHAKE, KMAC, \
     TupleHash, ParallelHash, TurboSHAKE, KangarooTwelve, raw Keccak[r,c], tree mode LI)."
};

/// Largest `--length` accepted, in bytes (the digest is held in memory and
/// printed as one hex line).
pub const MAX_LENGTH: usize = 1 << 20;

#[derive(Parser, Debug)]
#[command(
    name = "keccakx",
    version,
    propagate_version = true,
    about = ABOUT,
    long_about = None,
    arg_required_else_help = true,
    after_help = "Run `keccakx sum --help` for the sha3sum/b3sum-compatible hasher, \
                  `keccakx list` for every algorithm and its parameters.",
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,

    #[command(flatten)]
    pub global: GlobalArgs,
}

#[derive(Args, Debug, Clone)]
pub struct GlobalArgs {
    /// Worker threads: files hashed in parallel and the library's multi-core
    /// paths (0 or unset: all cores; at most 1024).
    #[arg(long, visible_alias = "num-threads", value_name = "N", global = true, help_heading = "Engine", value_parser = parse_threads)]
    pub threads: Option<usize>,

    /// CPU engine for the Keccak-p permutation: `auto` (default: the best this
    /// CPU runs) or a name from `keccakx info`, in any case. `avx2`, `sse2` and `scalar`
    /// also keep SHA-3 and the other sequential functions off AVX-512. The
    /// environment variable KECCAKX_ENGINE does the same; this option wins
    /// over it.
    #[arg(long, value_name = "NAME", global = true, help_heading = "Engine")]
    pub engine: Option<String>,

    /// Where to hash: `cpu`; `gpu` (error if no GPU can be used; files up to
    /// 256 MiB are batched onto it); `auto` (default: the CPU, and an NVIDIA
    /// GPU for the batches of files its cost model says it hashes faster,
    /// given more files than CPU threads and an algorithm it runs: SHA3-*, SHAKE*, Keccak-*, TurboSHAKE*, raw
    /// keccak on width 1600; KECCAKX_GPU_COST sets the model). Set
    /// KECCAKX_GPU_DISABLE=1 to hide every GPU.
    #[arg(long, value_enum, value_name = "WHERE", global = true, default_value_t = Backend::Auto, help_heading = "Engine")]
    pub backend: Backend,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Auto,
    Cpu,
    Gpu,
}

// Parsed once per run: the size of the largest command's arguments costs
// nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Print or check checksums (like sha3sum / sha256sum / b3sum).
    #[command(
        after_help = "With no FILE, or when FILE is -, read standard input.\n\n\
Output: `HASH  FILE` (GNU format). A file name containing a backslash, newline \
or carriage return is written with those escaped as \\\\, \\n, \\r and the line \
starts with a backslash, as GNU coreutils does. --tag writes `ALGORITHM (FILE) = HASH`.\n\n\
--check reads both formats. With -a, only lines of that algorithm are checked, \
as GNU cksum -a does: a tagged line of another algorithm is improperly formatted, \
and for a variable-length algorithm a digest shorter than its default length is \
too unless -l gives that length (so -a sha3-512 or -a shake256 cannot be passed \
by a weaker line). Without -a, a tagged line is checked with the algorithm its tag \
names (and whichever of the given parameters that algorithm takes), and a \
56/64/96/128-hex-digit untagged line is SHA3-224/256/384/512 \
and a 336/272-digit line SHAKE128/SHAKE256, as sha3sum writes them. \
For variable-length algorithms the length comes from the line unless -l is given. \
The mark before an untagged line's name says how the file is read, as in sha3sum: \
' ' or '*' as it is, 'U' with universal newlines (-U), '^' as bits (-0). \
Lists are read line by line and answered as they are read. In its report (`NAME: OK`), \
a name holding a control character (C0, DEL, C1) or a byte that is not UTF-8 is \
written with a leading backslash and \\\\, \\n, \\r, \\t, \
\\xHH escapes (coreutils escapes only newlines); a line whose name holds a NUL is \
improperly formatted.\n\n\
Exit status: 0 if every file was hashed (or every checksum matched), 1 if any \
file failed, 2 for invalid arguments (1 through the sha3sum link, as sha3sum and \
coreutils give it; keccakx keeps it apart from a failed file).\n\n\
Examples:\n  keccakx sum file.iso\n  keccakx sum -a shake128 -l 64 *.bin\n  \
keccakx sum -a kmac256 --key-file k.bin --customization app msg\n  \
keccakx sum -a keccak --rate 1088 --capacity 512 --suffix 0x06 f   (= SHA3-256)\n  \
keccakx sum --tag -a kt128 * > SUMS && keccakx sum -c SUMS\n\n\
Run through a link named sha3sum, keccakx is `keccakx sum` with sha3sum's default \
algorithm, SHA3-224 (-a 224), -v for its version and sha3sum's exit statuses: a drop-in \
for Perl's sha3sum."
    )]
    Sum(SumArgs),
    /// List every algorithm with its parameters, default length and specification.
    List,
    /// Show version, CPU features, engines, threads and GPUs.
    Info,
    /// Measure keccakx's own throughput on this machine (engine and threads
    /// as chosen by --engine/--threads). Peers: `make bench-cpu`.
    Bench(BenchArgs),
    /// OpenZeppelin-compatible Keccak-256 Merkle trees: build, root, prove, verify.
    Merkle(crate::merkle::MerkleArgs),
    /// Check a file, or a byte range of it, against a trusted digest with
    /// its outboard (`keccakx sum --outboard`), and report every damaged
    /// chunk as a byte range. Exit status: 0 all checked chunks intact, 1
    /// damage found (or a file unreadable), 2 invalid arguments, 3 an outboard
    /// that cannot be used (damaged, incomplete, or not matching the digest).
    #[command(
        after_help = "Examples:\n  keccakx sum -a kt128 --outboard big.iso.kto big.iso > SUMS\n  \
keccakx verify -c SUMS big.iso\n  keccakx verify --digest HEX --range 1048576..2097152 big.iso\n\n\
The outboard is checked first (its final node over the chaining values must give the \
digest; no file data is read for that); then only the chunks holding the range \
(8192 bytes for KT, B for ParallelHash) are read and hashed. See docs/outboard.md."
    )]
    Verify(VerifyArgs),
}

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Algorithms to measure (repeatable; default: sha3-256, shake128,
    /// keccak-256, turboshake128, kt128, kt256, parallelhash128, tree-li).
    #[arg(short = 'a', long = "algorithm", value_name = "NAME")]
    pub algorithms: Vec<String>,

    /// Input sizes in bytes (repeatable or comma-separated).
    #[arg(long = "size", value_name = "BYTES", value_delimiter = ',',
          default_values_t = [64usize, 1024, 1 << 20], value_parser = parse_bench_size)]
    pub sizes: Vec<usize>,

    /// Seconds of sampling per measurement (0.05..=60).
    #[arg(long, value_name = "S", default_value_t = 0.3, value_parser = parse_seconds)]
    pub seconds: f64,

    /// Also hash this many 64-byte messages with SHA3-256 in one batch call
    /// (0: skip; at most 10000000).
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = parse_batch)]
    pub batch: usize,

    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

fn parse_bench_size(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a size in bytes"))?;
    if n == 0 || n > 1 << 30 {
        return Err("sizes must be 1..=1073741824 bytes".into());
    }
    Ok(n)
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a number of seconds"))?;
    if !(0.05..=60.0).contains(&v) {
        return Err("--seconds must be between 0.05 and 60".into());
    }
    Ok(v)
}

fn parse_batch(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a count"))?;
    if n > 10_000_000 {
        return Err("--batch is at most 10000000".into());
    }
    Ok(n)
}

#[derive(Args, Debug, Clone)]
pub struct SumArgs {
    /// Files to hash (or, with --check, checksum files to read).
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,

    /// Algorithm (default sha3-256); `keccakx list` shows them all. Names are
    /// case-insensitive and `-`/`_` may be left out (sha3_256, SHA3-256, keccak256).
    /// sha3sum's names work too: 224, 256, 384, 512 (SHA3-*), and 128000 and
    /// 256000 (SHAKE128 and SHAKE256 with sha3sum's output of 168 and 136
    /// bytes unless -l is given).
    #[arg(short = 'a', long = "algorithm", value_name = "NAME")]
    pub algorithm: Option<String>,

    /// Output length in BYTES (not bits) for variable-length algorithms
    /// (SHAKE, cSHAKE, KMAC, TupleHash, ParallelHash, TurboSHAKE, KT, raw
    /// keccak, tree-li), at most 1048576. Like b3sum's --length; note that b2sum's and
    /// cksum's -l count bits.
    #[arg(short = 'l', long = "length", value_name = "BYTES", value_parser = parse_length)]
    pub length: Option<usize>,

    /// Customization string S (cSHAKE, KMAC, TupleHash, ParallelHash, KT).
    #[arg(long, value_name = "STRING")]
    pub customization: Option<OsString>,

    /// Function-name string N (cSHAKE).
    #[arg(long = "function-name", value_name = "STRING")]
    pub function_name: Option<OsString>,

    /// Key for KMAC, in hexadecimal.
    #[arg(long = "key-hex", value_name = "HEX", value_parser = parse_hex, conflicts_with = "key_file")]
    pub key_hex: Option<HexBytes>,

    /// Key for KMAC: the raw bytes of FILE, `-` for standard input (prefer
    /// this to --key-hex, which other users can see in the process list).
    #[arg(long = "key-file", value_name = "FILE")]
    pub key_file: Option<PathBuf>,

    /// Accept an empty KMAC key (an empty --key-file or --key-hex ''),
    /// which is refused otherwise: KMAC with an empty key is a keyless hash
    /// that anyone can compute.
    #[arg(long = "allow-empty-key")]
    pub allow_empty_key: bool,

    /// Block size B in bytes (ParallelHash, default 8192; tree-LI leaf block,
    /// default one rate block).
    #[arg(long = "block-size", value_name = "BYTES")]
    pub block_size: Option<usize>,

    /// Domain-separation byte D of TurboSHAKE, 0x01..0x7F (default 0x1F);
    /// decimal or 0x-prefixed hexadecimal.
    #[arg(long, value_name = "BYTE", value_parser = parse_byte)]
    pub domain: Option<u8>,

    /// Raw keccak: rate r in bits.
    #[arg(
        long,
        value_name = "BITS",
        help_heading = "Raw Keccak[r,c] (-a keccak)"
    )]
    pub rate: Option<usize>,

    /// Raw keccak: capacity c in bits (r + c = width).
    #[arg(
        long,
        value_name = "BITS",
        help_heading = "Raw Keccak[r,c] (-a keccak)"
    )]
    pub capacity: Option<usize>,

    /// Raw keccak: permutation width b in bits: 25, 50, 100, 200, 400, 800 or
    /// 1600 (default r + c, or 1600).
    #[arg(
        long,
        value_name = "BITS",
        help_heading = "Raw Keccak[r,c] (-a keccak)"
    )]
    pub width: Option<usize>,

    /// Raw keccak: rounds nr, 1..=12+2*log2(b/25) (default: all; the last nr
    /// rounds are used, as FIPS 202's Keccak-p).
    #[arg(long, value_name = "N", help_heading = "Raw Keccak[r,c] (-a keccak)")]
    pub rounds: Option<usize>,

    /// Raw keccak: domain suffix bits as an XKCP "delimited suffix" byte
    /// (suffix bits LSB first, then a 1): 0x01 none (default, original
    /// Keccak), 0x06 SHA-3, 0x1F SHAKE, 0x04 cSHAKE.
    #[arg(long, value_name = "BYTE", value_parser = parse_byte, help_heading = "Raw Keccak[r,c] (-a keccak)")]
    pub suffix: Option<u8>,

    /// Tree-LI: degree D, chaining values per parent, 1..=255 (default 4).
    #[arg(long, value_name = "D", help_heading = "Tree mode LI (-a tree-li)")]
    pub degree: Option<usize>,

    /// Tree-LI: height H, 0..=16 with D^H <= 65536 leaves (default 4; 0 = one
    /// sponge over the whole input). Leaf block size: --block-size (default
    /// one rate block); Keccak[r, c]: --rate/--capacity (default 1088/512).
    #[arg(long, value_name = "H", help_heading = "Tree mode LI (-a tree-li)")]
    pub height: Option<usize>,

    /// Tree-LI: prefix P (a key or salt, at most 255 bytes) as a string.
    #[arg(
        long,
        value_name = "STRING",
        conflicts_with = "prefix_hex",
        help_heading = "Tree mode LI (-a tree-li)"
    )]
    pub prefix: Option<OsString>,

    /// Tree-LI: prefix P in hexadecimal.
    #[arg(long = "prefix-hex", value_name = "HEX", value_parser = parse_hex, help_heading = "Tree mode LI (-a tree-li)")]
    pub prefix_hex: Option<HexBytes>,

    /// Create BSD-style checksums: `ALGORITHM (FILE) = HASH`.
    #[arg(long, conflicts_with = "check", help_heading = "Output")]
    pub tag: bool,

    /// End each output line with NUL, not newline, and do not escape file names.
    #[arg(
        short = 'z',
        long = "zero",
        conflicts_with = "check",
        help_heading = "Output"
    )]
    pub zero: bool,

    /// Show progress on standard error (bytes, percent, speed, time left)
    /// even when it is not a terminal (then one line a second). Without
    /// it, progress appears only on a terminal, and only for work of a few
    /// seconds or more. Never on standard output.
    #[arg(long, overrides_with = "no_progress", help_heading = "Output")]
    pub progress: bool,

    /// Never show progress.
    #[arg(
        long = "no-progress",
        overrides_with = "progress",
        help_heading = "Output"
    )]
    pub no_progress: bool,

    /// Print only the digests, one a line, without file names (b3sum's
    /// --no-names).
    #[arg(long = "no-names", conflicts_with_all = ["tag", "check"], help_heading = "Output")]
    pub no_names: bool,

    /// Write the digest as raw bytes instead of hexadecimal, with nothing
    /// after it (b3sum's --raw); one input only.
    #[arg(long, conflicts_with_all = ["tag", "check", "zero", "binary", "text"], help_heading = "Output")]
    pub raw: bool,

    /// Write the output from this byte offset on (b3sum's --seek): bytes
    /// SEEK.. SEEK+LENGTH of an extendable-output function's stream
    /// (SHAKE, cSHAKE, KMACXOF, TupleHashXOF, ParallelHashXOF, TurboSHAKE,
    /// KT, raw keccak, tree-li). At most 4294967296: a sponge squeezes
    /// every byte before it.
    #[arg(
        long,
        value_name = "SEEK",
        conflicts_with = "check",
        help_heading = "Output"
    )]
    pub seek: Option<u64>,

    /// Write digests in base64 (padded), not hexadecimal, as GNU `cksum
    /// --base64` does (`cksum -a sha3 -l 256 --base64` writes the same
    /// tagged lines as `keccakx sum --tag --base64`). --check reads base64
    /// digests whether or not this is given.
    #[arg(long, conflicts_with_all = ["check", "raw"], help_heading = "Output")]
    pub base64: bool,

    /// Mark files as binary (`HASH *FILE`); the digest is the same either way.
    #[arg(short = 'b', long, conflicts_with_all = ["text", "check"], help_heading = "Output")]
    pub binary: bool,

    /// Mark files as text (`HASH  FILE`, the default); the digest is the same.
    #[arg(short = 't', long, conflicts_with_all = ["tag", "check"], help_heading = "Output")]
    pub text: bool,

    /// Also write FILE's outboard (KT128, KT256, ParallelHash*: the chunks'
    /// chaining values, for `keccakx verify`) to OUTBOARD, made durable
    /// every --checkpoint bytes; one input file only.
    #[arg(
        long,
        value_name = "OUTBOARD",
        conflicts_with = "check",
        help_heading = "Outboard"
    )]
    pub outboard: Option<PathBuf>,

    /// With --outboard: continue an interrupted outboard from its last
    /// checkpoint (refused if the file changed: size, modification time or
    /// a sampled chunk); without one, start it.
    #[arg(long, requires = "outboard", help_heading = "Outboard")]
    pub resume: bool,

    /// With --outboard: flush and sync the outboard every BYTES of input
    /// (default 67108864); a kill loses at most this much hashing.
    #[arg(long, value_name = "BYTES", requires = "outboard", value_parser = parse_checkpoint, help_heading = "Outboard")]
    pub checkpoint: Option<u64>,

    /// Read checksums from the FILEs and check them.
    #[arg(short = 'c', long, help_heading = "Checking")]
    pub check: bool,

    /// Don't print OK for each successfully verified file.
    #[arg(short = 'q', long, requires = "check", overrides_with_all = ["status", "warn"], help_heading = "Checking")]
    pub quiet: bool,

    /// Don't output anything; the exit status shows success.
    #[arg(short = 's', long, requires = "check", overrides_with_all = ["quiet", "warn"], help_heading = "Checking")]
    pub status: bool,

    /// Exit non-zero for improperly formatted checksum lines.
    #[arg(long, requires = "check", help_heading = "Checking")]
    pub strict: bool,

    /// Warn about improperly formatted checksum lines (of --quiet, --status
    /// and --warn, the last one given wins, as in coreutils).
    #[arg(short = 'w', long, requires = "check", overrides_with_all = ["quiet", "status"], help_heading = "Checking")]
    pub warn: bool,

    /// Don't fail or report status for missing files.
    #[arg(long = "ignore-missing", requires = "check", help_heading = "Checking")]
    pub ignore_missing: bool,

    /// Read files over 2 MiB with 2 MiB buffers instead of memory-mapping
    /// them (memory stays bounded either way; mapping is usually faster).
    /// Files up to 2 MiB are always read, in one piece.
    #[arg(long = "no-mmap", help_heading = "Input")]
    pub no_mmap: bool,

    /// Universal newlines (sha3sum's -U): in a text file, hash CR LF and a
    /// lone CR as LF, so it has one digest whatever system wrote it; a file
    /// that is not text (by Perl's -T test on its first 512 bytes, as
    /// sha3sum decides) is hashed as it is. Lines are marked `U`
    /// (`HASH UFILE`), and --check reads such a line this way.
    #[arg(short = 'U', long = "universal", visible_alias = "UNIVERSAL",
          conflicts_with_all = ["bits", "binary", "text", "tag", "check"], help_heading = "Input")]
    pub universal: bool,

    /// Bits (sha3sum's -0): each ASCII '0' or '1' of the file is one bit of
    /// the message, every other byte is ignored; for SHA3-*, SHAKE*,
    /// Keccak-* and raw keccak, whose messages may end inside a byte. Lines
    /// are marked `^` (`HASH ^FILE`), and --check reads such a line this
    /// way.
    #[arg(short = '0', long = "01", conflicts_with_all = ["binary", "text", "tag", "check"], help_heading = "Input")]
    pub bits: bool,
}

fn parse_checkpoint(s: &str) -> Result<u64, String> {
    match s.trim().parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{s}' is not a positive byte count")),
    }
}

fn parse_threads(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if n <= 1024 => Ok(n),
        Ok(_) => Err("at most 1024 threads".into()),
        Err(_) => Err(format!("'{s}' is not a thread count")),
    }
}

fn parse_length(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("'{s}' is not a byte count"))?;
    if n == 0 {
        return Err("the output length must be at least 1 byte".into());
    }
    if n > MAX_LENGTH {
        return Err(format!("at most {MAX_LENGTH} bytes"));
    }
    Ok(n)
}

/// A byte in decimal or `0x` hexadecimal.
pub fn parse_byte(s: &str) -> Result<u8, String> {
    let t = s.trim();
    let v = if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        u8::from_str_radix(h, 16)
    } else {
        t.parse::<u8>()
    };
    v.map_err(|_| format!("'{s}' is not a byte (0..255, decimal or 0x-prefixed hex)"))
}

/// Bytes given in hexadecimal on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexBytes(pub Vec<u8>);

fn parse_hex(s: &str) -> Result<HexBytes, String> {
    decode_hex_arg(s).map(HexBytes)
}

/// Hexadecimal bytes (whitespace ignored, optional 0x prefix).
pub fn decode_hex_arg(s: &str) -> Result<Vec<u8>, String> {
    let t: String = s.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t.strip_prefix("0x").unwrap_or(&t);
    if !t.len().is_multiple_of(2) {
        return Err("odd number of hex digits".into());
    }
    let digits = t.as_bytes();
    let mut out = Vec::with_capacity(digits.len() / 2);
    for pair in digits.chunks(2) {
        let hi = hex_val(pair[0]);
        let lo = hex_val(pair[1]);
        match (hi, lo) {
            (Some(h), Some(l)) => out.push(h << 4 | l),
            _ => return Err(format!("'{s}' is not hexadecimal")),
        }
    }
    Ok(out)
}

pub fn hex_val(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// The library's fields, spelled as flags in this command line's
    /// messages (keccakx-flags), are options `keccakx sum` takes.
    #[test]
    fn every_field_spelling_is_an_option_of_sum() {
        let cmd = Cli::command();
        let sum = cmd.find_subcommand("sum").unwrap();
        let longs: Vec<&str> = sum.get_arguments().filter_map(|a| a.get_long()).collect();
        for f in keccakx::field::Field::ALL {
            for word in keccakx_flags::flag(f).split(" or ") {
                let long = word.strip_prefix("--").unwrap();
                assert!(
                    longs.contains(&long),
                    "{word} (for {f:?}) is no option of sum"
                );
            }
        }
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn parsers() {
        assert_eq!(parse_byte("0x1F"), Ok(0x1f));
        assert_eq!(parse_byte("31"), Ok(31));
        assert!(parse_byte("256").is_err());
        assert!(parse_byte("0xZZ").is_err());
        assert_eq!(decode_hex_arg("00ff10"), Ok(vec![0, 255, 16]));
        assert_eq!(decode_hex_arg(""), Ok(vec![]));
        assert!(parse_hex("abc").is_err());
        assert!(parse_hex("zz").is_err());
        assert!(parse_length("0").is_err());
        assert!(parse_length("1048577").is_err());
        assert_eq!(parse_length("64"), Ok(64));
    }
}

/// `keccakx verify`: a file checked chunk by chunk against its outboard
/// and a trusted digest (src/verify.rs).
#[derive(Args, Debug, Clone)]
pub struct VerifyArgs {
    /// The file to verify.
    #[arg(value_name = "FILE")]
    pub file: OsString,

    /// Its outboard (default: FILE.kto), written by `keccakx sum --outboard`.
    #[arg(long, value_name = "OUTBOARD")]
    pub outboard: Option<PathBuf>,

    /// The trusted digest, in hexadecimal.
    #[arg(
        long,
        value_name = "HEX",
        required_unless_present = "check",
        conflicts_with = "check"
    )]
    pub digest: Option<String>,

    /// Take the trusted digest from the line for FILE in this checksum
    /// file (as `keccakx sum` writes it, GNU or --tag lines).
    #[arg(short = 'c', long = "check", value_name = "SUMS")]
    pub check: Option<PathBuf>,

    /// Verify only the bytes START..END of FILE (rounded out to whole
    /// chunks); only they and the outboard are read.
    #[arg(long, value_name = "START..END", value_parser = parse_range)]
    pub range: Option<Range<u64>>,

    /// Print only the damaged ranges (no OK line).
    #[arg(short = 'q', long)]
    pub quiet: bool,
}

fn parse_range(s: &str) -> Result<Range<u64>, String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("'{s}' is not START..END (byte offsets)"))?;
    let n = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| format!("'{t}' is not a byte offset"))
    };
    let (a, b) = (n(a)?, n(b)?);
    if a >= b {
        return Err("--range START..END needs START < END".into());
    }
    Ok(a..b)
}
