//! `keccakx list` and `keccakx info`.

use std::io::Write;

use crate::algo;
use crate::backend;
use crate::error::{Error, Outcome};
use crate::output::print_all;

/// Every algorithm with its parameters, default length and specification.
pub fn list() -> Result<Outcome, Error> {
    print_all(&list_text())
}

/// `keccakx list`'s text: the table, then how names are read (the
/// finalists' naming only where the build has them).
fn list_text() -> Vec<u8> {
    let mut text = Vec::new();
    let _ = writeln!(
        text,
        "{:<18} {:<18} {:<13} {:<34} PARAMETERS",
        "NAME (-a)", "TAG (--tag)", "OUTPUT BYTES", "SPEC"
    );
    for a in algo::all() {
        let len = if a.variable_len {
            format!("{} (any)", a.default_len)
        } else {
            a.default_len.to_string()
        };
        let _ = writeln!(
            text,
            "{:<18} {:<18} {:<13} {:<34} {}",
            a.name, a.display, len, a.spec, a.options
        );
    }
    let _ = writeln!(
        text,
        "\nLengths are in bytes (-l 64 = 512 bits). Names are case-insensitive; `-` and `_` are optional \
         between their parts."
    );
    #[cfg(feature = "finalists")]
    let _ = writeln!(
        text,
        "Skein's names give the state size, then the output size, as its \
         authors name them (skein512-256: Skein-512 with 256-bit output); one number alone is \
         the state size, its output as wide (skein256 = skein-256 = Skein-256-256, skein512 = \
         Skein-512-512). BLAKE's, Groestl's and JH's number is the output size (blake256 = \
         BLAKE-256)."
    );
    text
}

/// Version, CPU, engines, threads, GPUs.
pub fn info(engine_source: &str) -> Result<Outcome, Error> {
    let mut t = Vec::new();
    let _ = writeln!(t, "keccakx {}", env!("CARGO_PKG_VERSION"));
    let feats = keccakx::permutation::cpu_features();
    let _ = writeln!(
        t,
        "cpu: {} ({})",
        std::env::consts::ARCH,
        if feats.is_empty() {
            "no SIMD features detected".to_string()
        } else {
            feats.join(" ")
        }
    );
    let names: Vec<String> = keccakx::engine::all()
        .iter()
        .map(|e| {
            if e.is_available() {
                e.name().to_string()
            } else {
                format!("{} (not on this CPU)", e.name())
            }
        })
        .collect();
    let _ = writeln!(t, "engines: {}", names.join(", "));
    let _ = writeln!(
        t,
        "engine: {} ({engine_source})",
        keccakx::engine::current().name()
    );
    let _ = writeln!(
        t,
        "single state: {} (SHA-3 and the other sequential functions)",
        keccakx::permutation::best_single().name()
    );
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let _ = writeln!(
        t,
        "threads: {} (cores: {cores})",
        keccakx::engine::effective_threads()
    );
    match backend::gpu_devices() {
        Ok(devs) if devs.is_empty() => {
            let _ = writeln!(t, "gpus: none");
        }
        Ok(devs) => {
            for d in devs {
                let _ = writeln!(t, "gpu: {d}");
            }
        }
        Err(reason) => {
            let _ = writeln!(t, "gpus: none ({reason})");
        }
    }
    print_all(&t)
}

#[cfg(test)]
mod tests {
    /// The finalists (and how their names read) are listed exactly when
    /// the build has them.
    #[test]
    fn list_names_finalists_only_when_built_with_them() {
        let text = String::from_utf8(super::list_text()).unwrap();
        let with = cfg!(feature = "finalists");
        for word in ["Skein", "BLAKE", "Groestl", "JH-", "skein", "blake"] {
            assert_eq!(
                text.contains(word),
                with,
                "{word} in `keccakx list`:\n{text}"
            );
        }
        assert!(text.contains("SHA3-256") && text.contains("KT128"));
        use clap::CommandFactory;
        let about = crate::cli::Cli::command().get_about().unwrap().to_string();
        assert_eq!(about.contains("Skein"), with, "{about}");
    }
}
