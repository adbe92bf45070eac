#!/usr/bin/env python3
"""Tables of the 2012 two-core study's reproduction, from the benchmark JSON.

  report.py RESULT.json PLOT.png [DOC.md]
  report.py --check DOC.md

Adds the machine and commit to RESULT.json, prints the Markdown tables, draws
the plot, and (given DOC.md) rewrites the generated block of the document
between its "<!-- BEGIN GENERATED -->" and "<!-- END GENERATED -->" lines.
With --check it writes nothing: it regenerates the block from the JSON the
document names and exits 1 (with a diff) if the document differs. The other
committed runs (bench/results/finalists-*.json) enter the block's table of
runs and its run-to-run comparison.
The study's own figures below are quoted from the paper
(../shared/papers/001_f8fc1547d0e868b2.txt): Table I (execution speed,
cycles), Table II (improvement, %), Table III (memory consumption, bytes),
section II-C (the BLAKE estimate) and section IV-A (the RC5 figures).
"""
import glob
import json
import os
import platform
import re
import subprocess
import sys

SIZES = ["0", "55", "56", "64", "119", "1024"]
ROWS = ["MD5", "SHA-1", "SHA-256", "BLAKE-32", "Grøstl-256", "JH-256", "Keccak-256", "Skein-512-256"]

# Table I: cycles on the S12X (sequential) and S12X + XGATE (parallel), per input size.
PAPER_T1 = {
    "MD5": ([29837, 29987, 57239, 55371, 55445, 437241], [25672, 25672, 49378, 49378, 49378, 404968]),
    "SHA-1": ([93826, 93976, 185111, 183243, 183317, 1487315], [60791, 60791, 119537, 119537, 119537, 1000727]),
    "SHA-256": ([241691, 241841, 478219, 476351, 476425, 3995111], [146812, 146812, 288978, 288978, 288978, 2421468]),
    "BLAKE-32": ([122755, 122680, 242263, 240172, 240093, 2001367], [33780, 33931, 65038, 64887, 65038, 531492]),
    "Grøstl-256": ([239973, 240248, 398361, 394769, 395044, 2716709], [160765, 160765, 242124, 242124, 242124, 1462509]),
    "JH-256": ([496546, 989139, 989135, 987062, 1479655, 8344802], [133826, 262992, 262992, 262992, 392158, 2200482]),
    "Keccak-256": ([613917, 614684, 614693, 614765, 615260, 4532859], [257281, 258048, 258057, 258129, 258624, 1908699]),
    "Skein-512-256": ([433565, 434150, 434159, 434177, 641616, 3541491], [354395, 354395, 354395, 354395, 522861, 2868658]),
}
# Table II: improvement (%), per input size.
PAPER_T2 = {
    "MD5": [13.96, 14.39, 13.73, 10.82, 10.94, 7.38],
    "SHA-1": [35.21, 35.31, 35.42, 34.77, 34.79, 32.72],
    "SHA-256": [39.26, 39.29, 39.57, 39.33, 39.35, 39.39],
    "BLAKE-32": [72.48, 72.34, 73.15, 72.98, 72.91, 73.44],
    "Grøstl-256": [33.01, 33.08, 39.22, 38.67, 38.71, 46.17],
    "JH-256": [73.05, 73.41, 73.41, 73.36, 73.50, 73.63],
    "Keccak-256": [58.09, 58.02, 58.02, 58.01, 57.97, 57.89],
    "Skein-512-256": [18.26, 18.37, 18.37, 18.38, 18.50, 19.00],
}
# Table III: code size (bytes), sequential and parallel.
PAPER_T3 = {
    "MD5": (4694, 4466), "SHA-1": (8185, 4644), "SHA-256": (17601, 6257), "BLAKE-32": (5754, 7121),
    "Grøstl-256": (24905, 36973), "JH-256": (6345, 17123), "Keccak-256": (31982, 33506),
    "Skein-512-256": (13919, 11476), "RC5": (1570, 2095),
}
# Section IV-A: RC5-32/12/16 on the S12X (cycles).
PAPER_RC5 = {"key expansion (S12X)": 73109, "encrypt 1 block (S12X)": 8031, "decrypt 1 block (S12X)": 8640,
             "key expansion (XGATE)": 25530, "key expansion on XGATE beside encryption on S12X": 26016}
# Section II-C: the BLAKE estimate for an empty message.
PAPER_BLAKE = {"T_MP": 2213, "T_BS": 2005, "T_RO": 1020, "r_RO": 84, "s": 0.25}

ARGS = sys.argv[1:]
CHECK = "--check" in ARGS
if CHECK:
    ARGS.remove("--check")
    if len(ARGS) != 1:
        sys.exit("usage: report.py --check DOC.md")
    doc_path, plot_path = ARGS[0], None
    named = re.search(r"written by bench/finalists/report\.py from (\S+\.json)", open(doc_path).read())
    if not named:
        sys.exit(f"{doc_path}: no generated block naming its JSON")
    res_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results", named.group(1))
elif len(ARGS) in (2, 3):
    res_path, plot_path = ARGS[0], ARGS[1]
    doc_path = ARGS[2] if len(ARGS) > 2 else None
else:
    sys.exit(__doc__)
res = json.load(open(res_path))
tpc = res.get("tsc_ticks_per_core_cycle") or 1.0


def sh(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


cpu, fms = "unknown", {}
if os.path.exists("/proc/cpuinfo"):
    for line in open("/proc/cpuinfo"):
        key, _, val = line.partition(":")
        key = key.strip()
        if key == "model name" and cpu == "unknown":
            cpu = val.strip()
        elif key in ("cpu family", "model", "stepping") and key not in fms:
            fms[key] = val.strip()
        elif not line.strip() and cpu != "unknown":
            break
if not CHECK:  # a fresh run: record where it ran (a check must not touch the JSON)
    res.setdefault("machine", {"cpu": cpu, "cores": os.cpu_count(), "os": platform.platform(), "rustc": sh(["rustc", "--version"]),
                               "cpu_family_model_stepping": "/".join(fms.get(k, "?") for k in ("cpu family", "model", "stepping"))})
    res.setdefault("commit", sh(["git", "rev-parse", "HEAD"]))
    json.dump(res, open(res_path, "w"), indent=2, ensure_ascii=False)

by = {}
for r in res["results"]:
    by[(r["algorithm"], r["variant"])] = r


def cyc(t):
    return t / tpc


def fmt(x):
    if x is None:
        return "—"
    x = float(x)
    if x >= 1e6:
        return f"{x / 1e6:.2f} M"
    return f"{x:,.0f}".replace(",", " ")


def full(x):
    """A count as the study prints it: every digit."""
    return f"{x:,}".replace(",", " ")


def improvement(seq, par, n):
    """Median over rounds of the per-round improvement (seq and par measured
    next to each other in every round), in % of the sequential time."""
    a, b = seq["round_medians"][n], par["round_medians"][n]
    v = sorted(100.0 * (x - y) / x for x, y in zip(a, b))
    return v[len(v) // 2]


def pct(x):
    """An improvement in %; a loss of more than 100 % reads better as a factor."""
    if x > -100:
        return f"{x:+.1f}"
    return f"{1 - x / 100:,.0f}× slower".replace(",", " ")


def peers(alg):
    return [r for r in res["results"] if r["algorithm"] == alg and r["variant"] not in ("sequential", "parallel", "two-threads")]


out = []
P = out.append
P(f"Machine: {res['machine']['cpu']}, {res['machine']['cores']} vCPUs; {res['machine']['rustc']}; commit `{res['commit'][:10]}`; "
  f"{res['rounds']} rounds; load average {res['loadavg_before']} before, {res['loadavg_after']} after; "
  f"{tpc:.3f} TSC ticks per core cycle (median of the calibrations before and after every round, "
  f"{min(res.get('tsc_ticks_per_core_cycle_each_round', [tpc])):.3f}–{max(res.get('tsc_ticks_per_core_cycle_each_round', [tpc])):.3f}: "
  f"a chain of dependent 1-cycle adds timed with the TSC), so cycles = ticks / {tpc:.3f}.")
P("")
P("### Table I: cycles per message (study: S12X / S12X + XGATE; ours: core cycles, median)")
P("")
P("| function | implementation | " + " | ".join(f"{s} B" for s in SIZES) + " |")
P("|---|---|" + "---|" * len(SIZES))
for alg in ROWS:
    s, p = PAPER_T1[alg]
    P(f"| {alg} | **study**, sequential (S12X) | " + " | ".join(full(x) for x in s) + " |")
    P("| | **study**, parallel (S12X + XGATE) | " + " | ".join(full(x) for x in p) + " |")
    for var, label in [("sequential", "ours, sequential"), ("parallel", "ours, parallel SIMD"), ("two-threads", "ours, two threads")]:
        r = by.get((alg, var))
        if r:
            P(f"| | {label} ({r['backend']}) | " + " | ".join(fmt(cyc(r['ticks'][n])) for n in SIZES) + " |")
    for r in peers(alg):
        P(f"| | {r['variant']} | " + " | ".join(fmt(cyc(r['ticks'][n])) for n in SIZES) + " |")
P("")
P("Two-thread rows, fastest single run (cycles; what the hand-off costs when no other process holds the second vCPU):")
P("")
P("| function | " + " | ".join(f"{s} B" for s in SIZES) + " |")
P("|---|" + "---|" * len(SIZES))
for alg in ROWS:
    r = by.get((alg, "two-threads"))
    if r:
        P(f"| {alg} | " + " | ".join(fmt(cyc(r['ticks_min'][n])) for n in SIZES) + " |")
P("")
P("### Table II: improvement of the parallel form over the sequential one (% of the sequential time)")
P("")
P("Ours: the median over rounds of each round's improvement (the two forms are measured next to each other in every round); "
  "for two threads also the fastest run of each form (the hardware's cost when the helper thread had a core to itself).")
P("")
P("| function | source | " + " | ".join(f"{s} B" for s in SIZES) + " |")
P("|---|---|" + "---|" * len(SIZES))
t2 = {}
for alg in ROWS:
    P(f"| {alg} | **study** (XGATE) | " + " | ".join(f"{x:.2f}" for x in PAPER_T2[alg]) + " |")
    s = by.get((alg, "sequential"))
    for var, label in [("parallel", "ours, SIMD"), ("two-threads", "ours, two threads")]:
        p = by.get((alg, var))
        if s and p:
            v = [improvement(s, p, n) for n in SIZES]
            t2[(alg, var)] = v
            P(f"| | {label} | " + " | ".join(pct(x) for x in v) + " |")
            if var == "two-threads":
                best = [100.0 * (s["ticks_min"][n] - p["ticks_min"][n]) / s["ticks_min"][n] for n in SIZES]
                t2[(alg, "two-threads-fastest")] = best
                P("| | ours, two threads, fastest runs | " + " | ".join(pct(x) for x in best) + " |")
P("")
slow = [(1 - x / 100, alg, n) for (alg, var), v in t2.items() if var == "two-threads-fastest"
        for n, x in zip(SIZES, v)]
if slow:
    lo, hi = min(slow), max(slow)
    P(f"Two threads, fastest runs: from {lo[0]:.2f}× the sequential time ({lo[1]}, {lo[2]} B) to "
      f"{hi[0]:.0f}× ({hi[1]}, {hi[2]} B); {sum(f > 1 for f, _, _ in slow)} of the {len(slow)} "
      "cells are slower than sequential.")
    P("")

# ---- RC5
P("### RC5-32/12/16 (study §IV-A beside ours)")
P("")
P("| operation | study (cycles) | ours (cycles, median) | form / back end |")
P("|---|---|---|---|")
rc5 = {(o["operation"], o["variant"]): o for o in res.get("rc5", [])}
study_rows = [
    ("key expansion", "sequential", "key expansion (S12X)"),
    ("encrypt 1 block", "sequential", "encrypt 1 block (S12X)"),
    ("decrypt 1 block", "sequential", "decrypt 1 block (S12X)"),
    ("key expansion + encrypt 1 block", "sequential", None),
    ("key expansion + encrypt 1 block", "two-threads", "key expansion on XGATE beside encryption on S12X"),
]
seen = set()
for op, var, pk in study_rows:
    o = rc5.get((op, var))
    if not o:
        continue
    seen.add((op, var))
    study = fmt(PAPER_RC5[pk]) if pk else f"{fmt(PAPER_RC5['key expansion (S12X)'] + PAPER_RC5['encrypt 1 block (S12X)'])} (73 109 + 8 031)"
    P(f"| {op} | {study} | {fmt(cyc(o['ticks']))} | {var}: {o['backend']} |")
for o in res.get("rc5", []):
    if (o["operation"], o["variant"]) not in seen:
        P(f"| {o['operation']} | — | {fmt(cyc(o['ticks']))} | {o['variant']}: {o['backend']} |")
s_rc5 = rc5.get(("key expansion + encrypt 1 block", "sequential"))
t_rc5 = rc5.get(("key expansion + encrypt 1 block", "two-threads"))
if s_rc5 and t_rc5:
    imp = 100.0 * (s_rc5["ticks"] - t_rc5["ticks"]) / s_rc5["ticks"]
    imp_min = 100.0 * (s_rc5["ticks_min"] - t_rc5["ticks_min"]) / s_rc5["ticks_min"]
    P("")
    P(f"Improvement of key expansion + one block, two threads over sequential: study 67.94 % "
      f"((73 109 + 8 031 − 26 016) / 81 140); ours {pct(imp)} (medians), {pct(imp_min)} (fastest runs).")
P("")

# ---- Table III
cs = res.get("code_size", {}).get("targets", {})
P("### Table III: code size (bytes)")
P("")
P("Study: the S12X program (sequential) and the S12X + XGATE programs (parallel). Ours: built for size (opt-level \"s\", "
  "fat LTO, panic=abort), each form's entry linked alone with --gc-sections; *total* = loadable bytes (code, tables, "
  "runtime pieces such as memcpy), *ours* = sized symbols of the finalists and keccakx crates only.")
P("")
hdr = ["function", "study sequential", "study parallel"]
cols = []
for t, lab in [("thumbv6m-none-eabi", "Cortex-M0"), ("thumbv7em-none-eabihf", "Cortex-M4F")]:
    e = cs.get(t, {})
    if "sizes" in e:
        cols.append((t, "sequential", "total", f"{lab} sequential (total / ours)"))
x86 = cs.get("x86_64-unknown-linux-gnu", {})
if "sizes" in x86:
    for form, lab in [("sequential", "x86-64 sequential"), ("parallel", "x86-64 SIMD"), ("two-threads", "x86-64 two threads")]:
        cols.append(("x86_64-unknown-linux-gnu", form, "ours", f"{lab} (ours)"))
P("| " + " | ".join(hdr + [c[3] for c in cols]) + " |")
P("|" + "---|" * (len(hdr) + len(cols)))
for alg in ROWS + ["RC5"]:
    cells = [alg, fmt(PAPER_T3[alg][0]), fmt(PAPER_T3[alg][1])]
    for t, form, kind, _ in cols:
        v = cs[t]["sizes"].get(alg, {}).get(form)
        if not v:
            cells.append("—")
        elif kind == "total":
            cells.append(f"{fmt(v['total'])} / {fmt(v['ours'])}")
        else:
            cells.append(fmt(v["ours"]))
    P("| " + " | ".join(cells) + " |")
for t, e in cs.items():
    if "unavailable" in e:
        P(f"\n{t}: not measured ({e['unavailable']})")
P("")

# ---- the study's model
m = res.get("model")
if m:
    P("### The study's speed-up model (eqs. 1–4) with our figures")
    P("")
    b = PAPER_BLAKE
    est = b["T_MP"] + b["T_BS"] + b["r_RO"] * b["T_RO"]
    meas = PAPER_T1["BLAKE-32"][0][0] - PAPER_T1["BLAKE-32"][1][0]
    P(f"Study (§II-C), BLAKE-32, empty message, s = 1/4: every step fits c_i ≥ s·T_i, so the gain is "
      f"T_MP + T_BS + 84·T_RO = {b['T_MP']} + {b['T_BS']} + 84·{b['T_RO']} = **{fmt(est)}** cycles; "
      f"Table I measures {fmt(PAPER_T1['BLAKE-32'][0][0])} − {fmt(PAPER_T1['BLAKE-32'][1][0])} = **{fmt(meas)}** "
      f"(the {fmt(est - meas)}-cycle difference is the τ_i the estimate leaves out).")
    P("")
    tau_s, tau_b = cyc(m["tau_split_ticks"]), cyc(m["tau_barrier_ticks"])
    tau_s_min, tau_b_min = cyc(m.get("tau_split_ticks_min", m["tau_split_ticks"])), cyc(m.get("tau_barrier_ticks_min", m["tau_barrier_ticks"]))
    P(f"Ours, two threads on two cores of the same kind, so s = 1; a step i moved to the helper gains "
      f"min(T_i, c_i + T_i(1 − s)) − τ_i = min(T_moved, T_kept) − τ_i, where c_i = T_kept is what the caller does meanwhile. "
      f"Measured hand-offs: starting the helper on a block τ_split = {fmt(tau_s)} cycles (fastest {fmt(tau_s_min)}), one "
      f"synchronisation τ_sync = {fmt(tau_b)} cycles (fastest {fmt(tau_b_min)}). Per block: gain = r·min(T_moved, T_kept) − "
      f"τ_split − n_sync·τ_sync (eq. 4 with r_i = r per block).")
    P("")
    P("| function | step moved / kept | T_moved | T_kept | r per block | n_sync per block | predicted gain per block (median τ) | (fastest τ) | sequential block | predicted two-thread block |")
    P("|---|---|---|---|---|---|---|---|---|---|")
    for st in m["steps"]:
        tm, tk = cyc(st["ticks_moved"]), cyc(st["ticks_kept"])
        r, nsync = st["per_block"], st["barriers_per_block"]
        work = r * (tm + tk)
        gain = r * min(tm, tk) - tau_s - nsync * tau_b
        gain_min = r * min(tm, tk) - tau_s_min - nsync * tau_b_min
        P(f"| {st['algorithm']} | {st['moved']} / {st['kept']} | {tm:.0f} | {tk:.0f} | {r} | {nsync} | {fmt(gain)} | {fmt(gain_min)} | {fmt(work)} | {fmt(work - gain_min)} |")
    P("")
    P("The study's RC5 figures in the same model (s = 25 530 / 73 109 = 0.35, c = 0: encryption needs S[0] at once): "
      "gain = min(T, 0 + T(1 − s)) − τ = 0.65 · 73 109 − τ ≈ 47 580 − τ cycles, against the 55 124 measured "
      "(81 140 − 26 016); the model ignores that encryption may start when the first S words are final, before the "
      "expansion ends.")
    P("")

# ---- long messages
P("### Long messages (cycles per byte, median)")
P("")
P(f"Messages of {res.get('long_message_bytes', 0) // 1024} KiB.")
P("")
P("| function | sequential | parallel SIMD | peers |")
P("|---|---|---|---|")
for alg in ROWS:
    s, p = by.get((alg, "sequential")), by.get((alg, "parallel"))
    def c(r):
        return f"{r['long_message_ticks_per_byte'] / tpc:.2f}" if r and r.get("long_message_ticks_per_byte") is not None else "—"
    pe = "; ".join(f"{r['variant']}: {c(r)}" for r in peers(alg))
    P(f"| {alg} | {c(s)} | {c(p)} | {pe} |")
P("")

# ---- every committed run: where it ran and under what load
RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "results")
runs = []
for path in sorted(glob.glob(os.path.join(RESULTS_DIR, "finalists-*.json"))):
    runs.append((os.path.basename(path), res if os.path.samefile(path, res_path) else json.load(open(path))))
NR = "not recorded"
P("### The runs")
P("")
P("Every committed run of this benchmark (`bench/results/finalists-*.json`); this page's tables are from "
  f"`{os.path.basename(res_path)}`. Fields the benchmark did not record at the time read \"{NR}\".")
P("")
P("| run | machine | commit | rounds | load average before / after | TSC ticks per core cycle |")
P("|---|---|---|---|---|---|")
for name, r in runs:
    mach = r.get("machine") or {}
    tp = r.get("tsc_ticks_per_core_cycle")
    each = r.get("tsc_ticks_per_core_cycle_each_round")
    tsc = NR if tp is None else (f"{tp:.3f}" + (f" (per round {min(each):.3f}–{max(each):.3f})" if each else " (one calibration)"))
    load = (f"{r['loadavg_before']} / {r['loadavg_after']}" if r.get("loadavg_before") else NR)
    fam = (f"family/model/stepping {mach['cpu_family_model_stepping']}" if mach.get("cpu_family_model_stepping")
           else f"CPU model only; family and model {NR}")
    P(f"| `{name}` | {mach.get('cpu', NR)}, {mach.get('cores', '?')} vCPUs ({fam}) | "
      f"`{(r.get('commit') or NR)[:10]}` | {r.get('rounds', NR)} | {load} | {tsc} |")
P("")
loads = [float(x) for _, r in runs for k in ("loadavg_before", "loadavg_after") if r.get(k) for x in r[k].split()]
if loads:
    P(f"Load average over the runs that recorded it: {min(loads):.2f} to {max(loads):.2f} (1-, 5- and 15-minute "
      "figures, before and after) on 2 vCPUs: other work ran beside every run, so read ratios within one run.")
    P("")


# ---- the SIMD gains: our order against the study's, and how much they moved between runs
def simd_gains(r):
    b = {(x["algorithm"], x["variant"]): x for x in r["results"]}
    g = {}
    for alg in ROWS:
        s_, p_ = b.get((alg, "sequential")), b.get((alg, "parallel"))
        if s_ and p_ and isinstance(s_.get("round_medians"), dict):
            g[alg] = [improvement(s_, p_, n) for n in SIZES]
    return g


P("### The parallel gain's ranking (SIMD, 1024 bytes)")
P("")
ours = simd_gains(res)
order = sorted(ours, key=lambda a: -ours[a][5])
study_order = sorted(ROWS, key=lambda a: -PAPER_T2[a][5])
P("| rank | ours (SIMD, this run) | study (XGATE, Table II) |")
P("|---|---|---|")
for i, (a, b_) in enumerate(zip(order, study_order)):
    P(f"| {i + 1} | {a} {ours[a][5]:+.1f} % | {b_} {PAPER_T2[b_][5]:.2f} % |")
P("")
others = [(name, simd_gains(r)) for name, r in runs if r is not res]
others = [(name, g) for name, g in others if g]
for name, g in others:
    moves = {a: max(abs(x - y) for x, y in zip(ours[a], g[a])) for a in ours if a in g}
    worst = max(moves, key=moves.get)
    P(f"Against the run `{name}` (same benchmark, same day, same kind of VM), the SIMD gains of each row at the six "
      f"sizes moved by up to {moves[worst]:.0f} points ({worst}: {min(g[worst]):+.0f} to {max(g[worst]):+.0f} % there, "
      f"{min(ours[worst]):+.0f} to {max(ours[worst]):+.0f} % here); every row's largest move: "
      + ", ".join(f"{a} {moves[a]:.0f}" for a in ROWS if a in moves) + " points. Read the order, not the decimals.")
    P("")

# ---- the abstract's speed ranking of the five finalists
FIVE = ["BLAKE-32", "Grøstl-256", "Skein-512-256", "Keccak-256", "JH-256"]
P("### The abstract's speed ranking of the five finalists")
P("")
P("The study's abstract: \"In our software implementations BLAKE proves to be the best performer, especially for "
  "short messages, followed at some range by Grøstl, then by Skein, Keccak and JH.\" Fastest first, by cycles "
  "(study: Table I; ours: this run's medians):")
P("")
P("| ranking by | 0 B | 1024 B |")
P("|---|---|---|")


def order_by(cycles):
    return ", ".join(a.split("-")[0] for a in sorted(FIVE, key=lambda a: cycles[a]))


for label, get in [
        ("study, sequential (S12X)", lambda a, k: PAPER_T1[a][0][k]),
        ("study, parallel (S12X + XGATE)", lambda a, k: PAPER_T1[a][1][k]),
        ("ours, sequential", lambda a, k: by[(a, "sequential")]["ticks"][SIZES[k]]),
        ("ours, SIMD", lambda a, k: by[(a, "parallel")]["ticks"][SIZES[k]])]:
    P(f"| {label} | " + " | ".join(order_by({a: get(a, k) for a in FIVE}) for k in (0, 5)) + " |")
P("")
abstract = ["BLAKE", "Grøstl", "Skein", "Keccak", "JH"]
match = [label for label, get in [
    ("the study's sequential 1024-byte column", lambda a: PAPER_T1[a][0][5]),
    ("the study's parallel 1024-byte column", lambda a: PAPER_T1[a][1][5]),
    ("the study's sequential 0-byte column", lambda a: PAPER_T1[a][0][0]),
    ("the study's parallel 0-byte column", lambda a: PAPER_T1[a][1][0])]
    if [a.split("-")[0] for a in sorted(FIVE, key=get)] == abstract]
ours_orders = {label: [a.split("-")[0] for a in sorted(FIVE, key=lambda a: by[(a, var)]["ticks"][SIZES[k]])]
               for var, vl in (("sequential", "sequential"), ("parallel", "SIMD")) for k in (0, 5)
               for label in [f"{vl} {SIZES[k]} B"]}
same = [lbl for lbl, o in ours_orders.items() if o == abstract]
blake_first = [lbl for lbl, o in ours_orders.items() if o[0] == "BLAKE"]
P("The abstract's order is " + (" and ".join(match) if match else "none of the study's own columns")
  + " of Table I. Ours: the abstract's order holds in " + (", ".join(same) if same else "none")
  + f" of our four columns; BLAKE is first in {', '.join(blake_first) if blake_first else 'none'}"
  + "; first elsewhere: " + ", ".join(f"{o[0]} ({lbl})" for lbl, o in ours_orders.items() if o[0] != "BLAKE")
  + ". On a 64-bit core the order follows what each design gains from 64-bit words and SIMD, not the S12X's "
  "16-bit word: the abstract's ranking is not reproduced.")
P("")

text = "\n".join(out)
if not CHECK:
    print(text)
if doc_path:
    doc = open(doc_path).read()
    a, b = "<!-- BEGIN GENERATED -->", "<!-- END GENERATED -->"
    if a in doc and b in doc:
        pre, rest = doc.split(a, 1)
        _, post = rest.split(b, 1)
        src = os.path.relpath(res_path, os.path.dirname(os.path.abspath(doc_path)))
        new_doc = f"{pre}{a}\n<!-- written by bench/finalists/report.py from {os.path.basename(res_path)}; do not edit by hand -->\n\n{text}\n{b}{post}"
        if CHECK:
            if new_doc == doc:
                print(f"{doc_path}: up to date", file=sys.stderr)
                sys.exit(0)
            import difflib
            sys.stderr.writelines(difflib.unified_diff(doc.splitlines(True), new_doc.splitlines(True),
                                                       "committed", "generated"))
            sys.exit(f"{doc_path} differs from report.py's output: run `make bench-finalists`'s report step "
                     f"(python3 bench/finalists/report.py {res_path} PLOT.png {doc_path}) and commit the result")
        open(doc_path, "w").write(new_doc)
        print(f"updated {doc_path}", file=sys.stderr)
    else:
        print(f"warning: {doc_path} has no generated block; not updated", file=sys.stderr)
        if CHECK:
            sys.exit(1)

# ---- plot
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("warning: matplotlib missing; no plot", file=sys.stderr)
    sys.exit(0)
fig, axes = plt.subplots(1, 2, figsize=(14, 5.5))
ax = axes[0]
x = range(len(ROWS))
w = 0.27
ax.bar([i - w for i in x], [PAPER_T2[a][5] for a in ROWS], w, label="study: S12X + XGATE", color="#999999")
ax.bar(list(x), [t2.get((a, "parallel"), [0] * 6)[5] for a in ROWS], w, label="ours: SIMD", color="#ee6677")
tt = [t2.get((a, "two-threads-fastest"), [0] * 6)[5] for a in ROWS]
ax.bar([i + w for i in x], [max(v, -100) for v in tt], w, label="ours: two threads, fastest runs (clipped at -100 %)", color="#4477aa")
ax.axhline(0, color="black", lw=0.6)
ax.set_xticks(list(x))
ax.set_xticklabels(ROWS, rotation=30, fontsize=7)
ax.set_ylabel("improvement over sequential at 1024 B (%)")
ax.set_ylim(-105, 100)
ax.legend(fontsize=7)
ax.set_title("Table II at 1024 bytes: the study's parallel gain beside ours", fontsize=8)
ax = axes[1]
for k, (alg, mk) in enumerate(zip(ROWS, "os^vDP*X")):
    s = by.get((alg, "sequential"))
    p = by.get((alg, "parallel"))
    col = plt.get_cmap("tab10")(k)
    if s and p:
        ax.plot([int(n) for n in SIZES], [cyc(s["ticks"][n]) for n in SIZES], marker=mk, ls="-", color=col, label=f"{alg} seq")
        ax.plot([int(n) for n in SIZES], [cyc(p["ticks"][n]) for n in SIZES], marker=mk, ls="--", color=col, label=f"{alg} SIMD")
ax.set_yscale("log")
ax.set_xlabel("message length (bytes)")
ax.set_ylabel("core cycles (median, log scale)")
ax.set_title("Table I's message lengths: sequential (solid) vs SIMD (dashed)", fontsize=8)
ax.legend(fontsize=5, ncol=2)
fig.suptitle(f"2012 two-core study re-measured on {res['machine']['cpu']} (commit {res['commit'][:10]})", fontsize=9)
fig.tight_layout()
fig.savefig(plot_path, dpi=130)
print(f"plot: {plot_path}", file=sys.stderr)
