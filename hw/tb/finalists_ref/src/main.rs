//! Reads lines `<algorithm> <message hex>` on stdin (algorithm names as
//! `finalists::Algorithm::from_name` takes them, an empty message as `-`)
//! and prints one digest in hex per line, computed by the sequential
//! implementation of crates/finalists.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

fn unhex(s: &str) -> Result<Vec<u8>, String> {
    if s == "-" {
        return Ok(Vec::new());
    }
    if s.len() % 2 != 0 {
        return Err(format!("odd-length hex '{s}'"));
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).map_err(|e| format!("bad hex '{s}': {e}")))
        .collect()
}

fn run() -> Result<(), String> {
    let stdin = io::stdin();
    let mut out = io::BufWriter::new(io::stdout().lock());
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| format!("reading stdin: {e}"))?;
        let mut parts = line.split_whitespace();
        let (Some(name), Some(msg)) = (parts.next(), parts.next()) else {
            return Err(format!("expected '<algorithm> <hex>', got '{line}'"));
        };
        let alg = finalists::Algorithm::from_name(name).map_err(|e| e.to_string())?;
        let digest = finalists::hash(alg, finalists::Impl::Sequential, &unhex(msg)?);
        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
        writeln!(out, "{hex}").map_err(|e| format!("writing stdout: {e}"))?;
    }
    out.flush().map_err(|e| format!("writing stdout: {e}"))
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("finalists-ref: {e}");
            ExitCode::FAILURE
        }
    }
}
