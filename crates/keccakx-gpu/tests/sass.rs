//! Static checks of the machine code (SASS) the kernels compile to, with no
//! GPU: NVRTC compiles every module to an sm_90 cubin, `cuobjdump` (PyPI
//! wheel `nvidia-cuda-cuobjdump`, installed by `make deps-gpu`) prints its
//! SASS and resource usage, and this test asserts
//! - no local-memory loads or stores (register spills, stack arrays) in the
//!   permutation and batch kernels;
//! - the instruction mix per round of the 24-round permutation loop
//!   (kx_perm_r24: LOP3, SHF, IMAD, others), recorded in the committed
//!   bench/gpu/sass-sm_90.json together with each kernel's registers.
//!
//! The record is compared exactly when this NVRTC is the one that wrote it;
//! with another NVRTC only the invariants are asserted and the differences
//! printed. `KECCAKX_UPDATE_SASS=1` rewrites the record. Without NVRTC or
//! cuobjdump the test prints why it skipped, unless KECCAKX_REQUIRE_SASS=1
//! (set by `make test-gpu`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use keccakx_gpu::kernels::{self, Module};
use keccakx_gpu::nvrtc::{Nvrtc, Target};

const CRATE: &str = env!("CARGO_MANIFEST_DIR");
const TARGET: Target = Target::Cubin(9, 0);
/// The compute model of ../shared/GPU.md: 32-bit integer instructions per
/// Keccak-f[1600] round (two funnel shifts per rotation, LOP3 for θ and χ).
const MODEL_PER_ROUND: f64 = 180.0;

fn record_path() -> PathBuf {
    PathBuf::from(CRATE).join("../../bench/gpu/sass-sm_90.json")
}

fn skip_or_fail(why: String) {
    if std::env::var("KECCAKX_REQUIRE_SASS").is_ok_and(|v| v == "1") {
        panic!("KECCAKX_REQUIRE_SASS=1 but {why}");
    }
    use std::io::Write;
    let _ = writeln!(
        std::io::stderr(),
        "*** SKIPPED: SASS check: {why}\n*** (`make test-gpu` installs NVRTC and cuobjdump and runs it)"
    );
}

fn cuobjdump() -> Option<PathBuf> {
    let mut cands: Vec<PathBuf> = Vec::new();
    if let Some(p) = std::env::var_os("KECCAKX_CUOBJDUMP") {
        cands.push(PathBuf::from(p));
    }
    cands.push(PathBuf::from(CRATE).join("../../target/gpu-tools/sass/nvidia/cu13/bin/cuobjdump"));
    if let Some(path) = std::env::var_os("PATH") {
        cands.extend(std::env::split_paths(&path).map(|d| d.join("cuobjdump")));
    }
    cands.push(PathBuf::from("/usr/local/cuda/bin/cuobjdump"));
    cands.into_iter().find(|p| p.is_file())
}

/// One kernel's code: its instructions (address, text without predicate
/// guard and operands' trailing `;`) and its resource usage.
#[derive(Default)]
struct Kernel {
    instructions: Vec<(u64, String)>,
    registers: u32,
    stack: u32,
}

impl Kernel {
    fn opcode(text: &str) -> &str {
        let t = text.trim_start();
        let t = if t.starts_with('@') {
            t.split_once(' ').map_or("", |(_, r)| r.trim_start())
        } else {
            t
        };
        t.split([' ', '.']).next().unwrap_or("")
    }
    fn local_accesses(&self) -> usize {
        self.instructions
            .iter()
            .filter(|(_, t)| matches!(Self::opcode(t), "LDL" | "STL"))
            .count()
    }
    /// The body of the first backward branch's loop (the permutation loop
    /// of the perm kernels): instructions from its target to the branch.
    fn loop_body(&self) -> Option<Vec<&str>> {
        for (addr, t) in &self.instructions {
            if Self::opcode(t) != "BRA" {
                continue;
            }
            let Some(hex) = t.split("0x").nth(1) else {
                continue;
            };
            let hex: String = hex.chars().take_while(|c| c.is_ascii_hexdigit()).collect();
            let Ok(target) = u64::from_str_radix(&hex, 16) else {
                continue;
            };
            if target < *addr {
                return Some(
                    self.instructions
                        .iter()
                        .filter(|(a, _)| (target..=*addr).contains(a))
                        .map(|(_, t)| t.as_str())
                        .collect(),
                );
            }
        }
        None
    }
}

/// Disassemble a cubin: kernels by name.
fn disassemble(tool: &PathBuf, cubin: &[u8], tag: &str) -> BTreeMap<String, Kernel> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("keccakx-gpu-sass");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{tag}-{}.cubin", std::process::id()));
    std::fs::write(&file, cubin).unwrap();
    let run = |arg: &str| {
        let o = std::process::Command::new(tool)
            .arg(arg)
            .arg(&file)
            .output()
            .unwrap_or_else(|e| panic!("{}: {e}", tool.display()));
        assert!(
            o.status.success(),
            "cuobjdump {arg} failed: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let sass = run("-sass");
    let usage = run("-res-usage");
    let _ = std::fs::remove_file(&file);
    let mut out: BTreeMap<String, Kernel> = BTreeMap::new();
    let mut cur: Option<String> = None;
    for line in sass.lines() {
        let l = line.trim();
        if let Some(name) = l.strip_prefix("Function : ") {
            cur = Some(name.trim().to_string());
            out.entry(name.trim().to_string()).or_default();
            continue;
        }
        // "/*0490*/   LOP3.LUT R2, ... ;   /* 0x... */"
        let (Some(name), Some(rest)) = (&cur, l.strip_prefix("/*")) else {
            continue;
        };
        let Some((addr, text)) = rest.split_once("*/") else {
            continue;
        };
        let Ok(addr) = u64::from_str_radix(addr.trim(), 16) else {
            continue;
        };
        let text = text.split(';').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        if let Some(k) = out.get_mut(name) {
            k.instructions.push((addr, text.to_string()));
        }
    }
    let mut cur: Option<String> = None;
    for line in usage.lines() {
        let l = line.trim();
        if let Some(name) = l.strip_prefix("Function ") {
            cur = Some(name.trim_end_matches(':').trim().to_string());
            continue;
        }
        if let (Some(name), true) = (&cur, l.starts_with("REG:")) {
            let field = |key: &str| -> u32 {
                l.split_whitespace()
                    .find_map(|f| f.strip_prefix(key))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(0)
            };
            if let Some(k) = out.get_mut(name) {
                k.registers = field("REG:");
                k.stack = field("STACK:");
            }
        }
    }
    out
}

/// The hot loop of a rate-specialized direct kernel
/// (`kx_batch_direct_r{24,12}_{136,168}`): its whole-block loads and what
/// the loop costs besides the permutation.
struct AbsorbLoop {
    /// The `words` loads of a whole block: unpredicated `LDG.E.64`s within
    /// `words + 3` instructions, none of the instructions between them
    /// reading a register one of them loaded.
    back_to_back: bool,
    /// Instructions of the loop around the loads, less the permutation
    /// (the inner round loop for 24 rounds; for 12, the LOP3 and SHF of
    /// kx_perm_r12's 12 rounds), per absorbed 8-byte word.
    per_word: f64,
}

/// Registers an instruction reads (its operands after the first, or all
/// of them for stores and branches), as `R<n>` names.
fn reads(text: &str) -> Vec<String> {
    let t = text.trim_start();
    let t = if t.starts_with('@') {
        t.split_once(' ').map_or("", |(_, r)| r)
    } else {
        t
    };
    let (op, rest) = t.split_once(' ').unwrap_or((t, ""));
    let ops: Vec<&str> = rest.split(',').collect();
    let sources = if op.starts_with("ST") || op.starts_with("BRA") {
        &ops[..]
    } else {
        &ops[1.min(ops.len())..]
    };
    sources
        .iter()
        .flat_map(|o| o.split(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|w| w.len() > 1 && w.starts_with('R') && w[1..].chars().all(|c| c.is_ascii_digit()))
        .map(str::to_string)
        .collect()
}

fn absorb_loop(k: &Kernel, words: usize, rounds: usize, alu_per_round: f64) -> AbsorbLoop {
    let ins = &k.instructions;
    let plain_ldg = |t: &str| t.trim_start().starts_with("LDG.E.64");
    let loads: Vec<usize> = (0..ins.len()).filter(|&i| plain_ldg(&ins[i].1)).collect();
    let start = (0..loads.len().saturating_sub(words - 1))
        .find(|&s| loads[s + words - 1] - loads[s] <= words + 2)
        .unwrap_or_else(|| panic!("no {words} whole-block loads close together"));
    let (first, last) = (loads[start], loads[start + words - 1]);
    let mut loaded: Vec<String> = Vec::new();
    let mut back_to_back = true;
    for (_, t) in &ins[first..=last] {
        if plain_ldg(t) {
            let dst = t
                .split_whitespace()
                .nth(1)
                .unwrap_or("")
                .trim_end_matches(',');
            let n: u32 = dst[1..].parse().expect("load destination register");
            loaded.extend([format!("R{n}"), format!("R{}", n + 1)]);
        } else if reads(t).iter().any(|r| loaded.contains(r)) {
            back_to_back = false;
        }
    }
    // Backward branches: (branch address, target).
    let back: Vec<(u64, u64)> = ins
        .iter()
        .filter(|(_, t)| Kernel::opcode(t) == "BRA")
        .filter_map(|(a, t)| {
            let hex: String = t
                .split("0x")
                .nth(1)?
                .chars()
                .take_while(|c| c.is_ascii_hexdigit())
                .collect();
            let target = u64::from_str_radix(&hex, 16).ok()?;
            (target < *a).then_some((*a, target))
        })
        .collect();
    let at = ins[first].0;
    let (hot_end, hot_start) = back
        .iter()
        .copied()
        .filter(|&(a, t)| t <= at && at <= a)
        .min_by_key(|&(a, t)| a - t)
        .expect("the whole-block loads lie in no loop");
    let count = |from: u64, to: u64| ins.iter().filter(|(a, _)| (from..=to).contains(a)).count();
    let body = count(hot_start, hot_end);
    let perm = if rounds == 24 {
        let (e, s) = back
            .iter()
            .copied()
            .filter(|&(a, t)| t > hot_start && a < hot_end)
            .max_by_key(|&(a, t)| a - t)
            .expect("24 rounds: an inner round loop");
        count(s, e) as f64
    } else {
        rounds as f64 * alu_per_round
    };
    AbsorbLoop {
        back_to_back,
        per_word: (body as f64 - perm) / words as f64,
    }
}

struct Mix {
    loop_instructions: usize,
    rounds: usize,
    counts: BTreeMap<&'static str, usize>,
}

fn round_mix(k: &Kernel, rounds: usize) -> Mix {
    let body = k.loop_body().expect("permutation kernel without a loop");
    let mut counts: BTreeMap<&'static str, usize> =
        [("LOP3", 0), ("SHF", 0), ("IMAD", 0), ("other", 0)]
            .into_iter()
            .collect();
    for t in &body {
        let key = match Kernel::opcode(t) {
            "LOP3" => "LOP3",
            "SHF" => "SHF",
            "IMAD" => "IMAD",
            _ => "other",
        };
        *counts.get_mut(key).unwrap() += 1;
    }
    Mix {
        loop_instructions: body.len(),
        rounds,
        counts,
    }
}

fn per_round(n: usize, rounds: usize) -> String {
    format!("{:.2}", n as f64 / rounds as f64)
}

#[test]
fn kernels_do_not_spill_and_the_round_mix_is_recorded() {
    if !cfg!(feature = "research") {
        // The round mix is read off the permutation-throughput kernels.
        return skip_or_fail(
            "the permutation kernels need the `research` feature (`make test-gpu` builds it)"
                .into(),
        );
    }
    let nv = match Nvrtc::get() {
        Ok(n) => n,
        Err(e) => return skip_or_fail(format!("no NVRTC: {e}")),
    };
    let Some(tool) = cuobjdump() else {
        return skip_or_fail(
            "cuobjdump not found (set KECCAKX_CUOBJDUMP or pip install nvidia-cuda-cuobjdump)"
                .into(),
        );
    };
    let mut all: BTreeMap<String, (Module, Kernel)> = BTreeMap::new();
    for &m in Module::ALL {
        let c = kernels::compile(nv, m, TARGET).unwrap_or_else(|e| panic!("{e}"));
        for (name, k) in disassemble(&tool, &c.image, m.name()) {
            all.insert(name, (m, k));
        }
    }
    // Every entry point was disassembled.
    for &m in Module::ALL {
        for e in m.entry_points() {
            assert!(all.contains_key(*e), "{e} missing from the SASS");
        }
    }
    // No local memory in the permutation and batch kernels.
    let mut bad = Vec::new();
    for (name, (m, k)) in &all {
        assert!(!k.instructions.is_empty(), "{name}: no instructions parsed");
        let checked = m.name() != "paper" && !kernels::EXPERIMENTAL.contains(&name.as_str());
        eprintln!(
            "{name}: {} registers, stack {} B, {} instructions, {} local loads/stores",
            k.registers,
            k.stack,
            k.instructions.len(),
            k.local_accesses()
        );
        if checked && (k.local_accesses() > 0 || k.stack > 0) {
            bad.push(format!(
                "{name}: {} LDL/STL, {} bytes of stack",
                k.local_accesses(),
                k.stack
            ));
        }
    }
    assert!(bad.is_empty(), "local memory in kernels: {bad:?}");
    // The double-buffered kernels really copy asynchronously (cp.async is
    // LDGSTS in SASS), with the wait (DEPBAR) in the loop.
    for name in ["kx_batch_async_r24", "kx_batch_async_r12"] {
        let k = &all[name].1;
        for op in ["LDGSTS", "DEPBAR"] {
            assert!(
                k.instructions.iter().any(|(_, t)| Kernel::opcode(t) == op),
                "{name}: no {op}"
            );
        }
    }

    // The round mix of the 24-round permutation (and the 12-round one as a
    // cross-check of the per-round figure). kx_perm_r24 runs its 24 rounds
    // as a loop of BODY straight rounds (KX_ROUND_UNROLL in
    // keccak_f1600.cuh): the first backward branch closes that loop, whose
    // bookkeeping (the round constants' uniform loads, the counter) counts
    // as "other". kx_perm_full_r24 has all 24 rounds straight.
    const BODY: usize = 12;
    let mix24 = round_mix(&all["kx_perm_r24"].1, BODY);
    let full24 = round_mix(&all["kx_perm_full_r24"].1, 24);
    let mix12 = round_mix(&all["kx_perm_r12"].1, 12);
    let total24 = mix24.loop_instructions as f64 / BODY as f64;
    eprintln!(
        "kx_perm_r24: {} instructions in the {BODY}-round loop body = {total24:.2} per round \
         (model {MODEL_PER_ROUND}), mix {:?}; all 24 straight (kx_perm_full_r24): {:?}",
        mix24.loop_instructions, mix24.counts, full24.counts
    );
    // Invariants any compiler must keep: the loop is straight-line rounds of
    // LOP3 and SHF (no IMAD, at most the loop's own bookkeeping besides: two
    // constant loads a round), within 15 % of the model.
    assert_eq!(mix24.counts["IMAD"], 0, "IMAD in the permutation loop");
    assert!(mix24.counts["other"] <= 2 * BODY + 8, "{:?}", mix24.counts);
    assert!(full24.counts["other"] <= 8, "{:?}", full24.counts);
    assert!(
        (MODEL_PER_ROUND * 0.9..=MODEL_PER_ROUND * 1.15).contains(&total24),
        "{total24} instructions per round"
    );
    let alu = |m: &Mix, r: f64| (m.counts["LOP3"] + m.counts["SHF"]) as f64 / r;
    assert!((alu(&mix12, 12.0) - alu(&mix24, BODY as f64)).abs() < 2.0);
    assert!((alu(&full24, 24.0) - alu(&mix24, BODY as f64)).abs() < 2.0);

    // The rate-specialized direct kernels: whole blocks loaded back to
    // back, at most 3.5 instructions per absorbed word besides the
    // permutation (the run-time-rate kernel spent about 42), at most 128
    // registers (no local memory: checked above for every batch kernel).
    // (12 rounds' LOP3 and SHF as kx_perm_r12's loop has them.)
    let alu_round = alu(&mix12, 12.0);
    let mut absorb: Vec<(String, f64)> = Vec::new();
    for (name, rounds, rate) in [
        ("kx_batch_direct_r24_136", 24, 136),
        ("kx_batch_direct_r24_168", 24, 168),
        ("kx_batch_direct_r12_136", 12, 136),
        ("kx_batch_direct_r12_168", 12, 168),
    ] {
        let k = &all[name].1;
        let l = absorb_loop(k, rate / 8, rounds, alu_round);
        eprintln!(
            "{name}: {} registers, whole-block loads back to back: {}, {:.2} instructions per absorbed word",
            k.registers, l.back_to_back, l.per_word
        );
        assert!(
            l.back_to_back,
            "{name}: a whole-block load's word is used before the last load"
        );
        assert!(
            l.per_word <= 3.5,
            "{name}: {:.2} instructions per absorbed word (at most 3.5)",
            l.per_word
        );
        assert!(
            k.registers <= 128,
            "{name}: {} registers (at most 128)",
            k.registers
        );
        absorb.push((name.to_string(), l.per_word));
    }

    // The IMAD-trick variants (kernels/keccak_f1600.cuh, KxSplitImad): each
    // rotation it covers (theta's five by 1 and rho's 24 a round, rho's 23
    // but the one by 1, or 12 of rho's) is four IMAD/IMAD.HI instead of two
    // SHF. ptxas must not turn the multiplies back into shifts.
    let imad: Vec<(&str, Mix)> = [
        ("kx_perm_imad_r24", 29usize),
        ("kx_perm_imad_rho_r24", 23),
        ("kx_perm_imad_half_r24", 12),
    ]
    .into_iter()
    .map(|(name, rotations)| {
        let mix = round_mix(&all[name].1, BODY);
        // The full opcodes (IMAD vs IMAD.HI ...) for bench/NOTES.md's account;
        // local memory is ruled out above for every kernel.
        let body = all[name].1.loop_body().unwrap();
        let mut ops: BTreeMap<String, usize> = BTreeMap::new();
        for t in &body {
            let full: String = t.trim_start().split(' ').next().unwrap_or("").to_string();
            *ops.entry(full).or_default() += 1;
        }
        eprintln!("{name}: opcodes {ops:?}");
        let per = |op: &str| mix.counts[op] as f64 / BODY as f64;
        let want_imad = (4 * rotations) as f64;
        assert!(
            per("IMAD") >= want_imad,
            "{name}: {} IMAD a round, want {want_imad}",
            per("IMAD")
        );
        let shf24 = mix24.counts["SHF"] as f64 / BODY as f64;
        assert!(
            per("SHF") <= shf24 - 2.0 * rotations as f64 + 0.5,
            "{name}: {} SHF a round (kx_perm_r24: {shf24})",
            per("SHF")
        );
        (name, mix)
    })
    .collect();

    // The warp-per-message kernels (warp.cu): no local memory (above, as
    // for every batch kernel); the 24- and 12-round kernels' permutations
    // are straight-line code, so the per-round mix is the difference of the
    // two whole kernels over 12 rounds. A round is 18 shuffles (theta 8 +
    // 4, pi+chi 6) and about 16 ALU instructions (LOP3, SHF).
    let warp_round = {
        let count = |k: &Kernel| {
            let mut c: BTreeMap<&'static str, usize> =
                [("SHFL", 0), ("LOP3", 0), ("SHF", 0), ("other", 0)]
                    .into_iter()
                    .collect();
            for (_, t) in &k.instructions {
                let key = match Kernel::opcode(t) {
                    "SHFL" => "SHFL",
                    "LOP3" => "LOP3",
                    "SHF" => "SHF",
                    _ => "other",
                };
                *c.get_mut(key).unwrap() += 1;
            }
            c
        };
        let c24 = count(&all["kx_warp_r24"].1);
        let c12 = count(&all["kx_warp_r12"].1);
        let diff: BTreeMap<&'static str, f64> = c24
            .iter()
            .map(|(k, v)| (*k, (*v as f64 - c12[k] as f64) / 12.0))
            .collect();
        eprintln!("warp kernel round, (kx_warp_r24 - kx_warp_r12) / 12: {diff:?}");
        assert!(
            (diff["SHFL"] - 18.0).abs() < 0.01,
            "warp round: {} SHFL, want 18",
            diff["SHFL"]
        );
        let alu = diff["LOP3"] + diff["SHF"] + diff["other"].max(0.0);
        assert!(alu <= 24.0, "warp round: {alu} non-shuffle instructions");
        diff
    };

    // The record.
    let mut j = String::new();
    let (maj, min) = nv.version();
    let _ = writeln!(j, "{{");
    let _ = writeln!(j, "  \"schema\": \"keccakx-gpu-sass/1\",");
    let _ = writeln!(
        j,
        "  \"what\": \"SASS of crates/keccakx-gpu/kernels compiled by NVRTC for sm_90, from tests/sass.rs (KECCAKX_UPDATE_SASS=1 rewrites it)\","
    );
    let _ = writeln!(j, "  \"nvrtc\": \"{maj}.{min}\",");
    let _ = writeln!(j, "  \"arch\": \"{}\",", TARGET.arch_flag());
    let _ = writeln!(j, "  \"permutation_round\": {{");
    let rounds_rec: Vec<(&str, &Mix)> = [
        ("kx_perm_r24", &mix24),
        ("kx_perm_full_r24", &full24),
        ("kx_perm_r12", &mix12),
    ]
    .into_iter()
    .chain(imad.iter().map(|(n, m)| (*n, m)))
    .collect();
    let last = rounds_rec.len() - 1;
    for (i, (name, mix)) in rounds_rec.iter().enumerate() {
        let _ = writeln!(j, "    \"{name}\": {{");
        let _ = writeln!(j, "      \"rounds\": {},", mix.rounds);
        let _ = writeln!(j, "      \"loop_instructions\": {},", mix.loop_instructions);
        let _ = writeln!(
            j,
            "      \"per_round\": {},",
            per_round(mix.loop_instructions, mix.rounds)
        );
        let parts: Vec<String> = mix
            .counts
            .iter()
            .map(|(k, v)| format!("\"{k}\": {}", per_round(*v, mix.rounds)))
            .collect();
        let _ = writeln!(j, "      \"per_round_mix\": {{{}}},", parts.join(", "));
        let _ = writeln!(j, "      \"model_per_round\": {MODEL_PER_ROUND}");
        let _ = writeln!(j, "    }}{}", if i < last { "," } else { "" });
    }
    let _ = writeln!(j, "  }},");
    let parts: Vec<String> = warp_round
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v:.2}"))
        .collect();
    let _ = writeln!(
        j,
        "  \"warp_round\": {{\"what\": \"(kx_warp_r24 - kx_warp_r12) / 12 (other: code outside the rounds differs)\", \"mix\": {{{}}}}},",
        parts.join(", ")
    );
    let parts: Vec<String> = absorb
        .iter()
        .map(|(k, v)| format!("\"{k}\": {v:.2}"))
        .collect();
    let _ = writeln!(
        j,
        "  \"absorb_per_word\": {{\"what\": \"rate-specialized direct kernels: hot-loop instructions besides the permutation per absorbed 8-byte word\", {}}},",
        parts.join(", ")
    );
    let _ = writeln!(j, "  \"kernels\": {{");
    let n = all.len();
    for (i, (name, (m, k))) in all.iter().enumerate() {
        let _ = writeln!(
            j,
            "    \"{name}\": {{\"module\": \"{}\", \"registers\": {}, \"stack_bytes\": {}, \"local_loads_stores\": {}, \"instructions\": {}}}{}",
            m.name(),
            k.registers,
            k.stack,
            k.local_accesses(),
            k.instructions.len(),
            if i + 1 < n { "," } else { "" }
        );
    }
    let _ = writeln!(j, "  }}");
    let _ = writeln!(j, "}}");

    let path = record_path();
    if std::env::var("KECCAKX_UPDATE_SASS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &j).unwrap();
        eprintln!("wrote {}", path.display());
        return;
    }
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let same_compiler = old.contains(&format!("\"nvrtc\": \"{maj}.{min}\""));
    if old == j {
        return;
    }
    let diff: Vec<String> = old
        .lines()
        .zip(j.lines())
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("- {a}\n+ {b}"))
        .collect();
    if same_compiler {
        panic!(
            "{} is out of date for NVRTC {maj}.{min} (a kernel changed?): rerun with KECCAKX_UPDATE_SASS=1 \
             and commit it; differences:\n{}",
            path.display(),
            diff.join("\n")
        );
    }
    eprintln!(
        "note: {} was recorded with another NVRTC; this one ({maj}.{min}) gives:\n{}",
        path.display(),
        diff.join("\n")
    );
}
