#!/usr/bin/env python3
"""Writes docs/reproduction-asic-2009.md: the 2009 ASIC study's Table 1 (all
rows, quoted from paper2009.py) beside the cores measured here (hw/cores.py
entries with a `paper` row, results from hw/synth/results/*.json made by
run_synth.py), the ranking by throughput per area, and the flow.

Every measured figure comes from the results files; every paper figure from
paper2009.py. A core is added to this document by its registry entry and its
results file alone (hw/README.md)."""

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import asic  # noqa: E402
import cores as registry  # noqa: E402
import paper2009  # noqa: E402
import study_conclusion as conclusion  # noqa: E402

ROOT = HERE.parent.parent
RESULTS = HERE / "results"
DOC = ROOT / "docs" / "reproduction-asic-2009.md"
PLOT = ROOT / "docs" / "asic-2009-area-throughput.png"
# Table 1 rows that the first part of the study builds (the Keccak team's
# finalists and SHA-256); the others came in its second part.
PART1 = {"BLAKE-32", "Grøstl-256", "JH-256", "Keccak(-256)", "Skein-256-256", "Skein-512-512",
         "SHA-256"}


def fmt(v, nd=0):
    return "n/a" if v is None else f"{v:,.{nd}f}"


def ratio(ours, theirs):
    return None if ours is None or not theirs else ours / theirs


def measure(core, res, part):
    """Figures of the bare core (part="bare") or the wrapped top ("wrapped")."""
    a = res["bare_core"]["asic"] if part == "bare" else res["asic"]
    t = a.get("timing") or {}
    f = t.get("fmax_mhz")
    tp = core.block_bits * f / core.cycles / 1000 if f else None
    return {"ge": a["ge"], "mhz": f, "gbps": tp,
            "per_kge": tp * 1e6 / a["ge"] if tp else None,
            "path": t.get("critical_path"), "ff": a.get("flip_flops")}


def load():
    out = {}
    for core in registry.KECCAK + registry.STUDY:
        if not core.paper:
            continue
        p = RESULTS / f"{core.name}.json"
        res = json.loads(p.read_text()) if p.exists() else None
        if res is not None and "timing" not in res.get("asic", {}):
            res = None  # from a flow without timing: not comparable
        out[core.name] = (core, res)
    return out


def primary(measured):
    """Per Table 1 row, the core that answers it: the round-two version where
    there is one (what the paper built), else the only one."""
    rows = {}
    for core, res in measured.values():
        cur = rows.get(core.paper)
        if cur is None or (core.version == "round 2" and cur[0].version != "round 2"):
            rows[core.paper] = (core, res)
    return rows


# Table 1 rows whose rounds are built on 32- or 64-bit modular additions (ARX
# and add-rotate designs): the algorithms', not a measurement.
ADDER_ROWS = ("SHA-256", "BLAKE-32", "BMW-256", "CubeHash16/32-h", "Shabal-256", "SIMD-256",
              "Skein-256-256", "Skein-512-512")


def adder_note(rows, points):
    """The clock ratio (ours / paper's) of the rows built on adders against the
    others': where this flow's adder mapping shows in the rankings."""
    groups = {True: [], False: []}
    for r in paper2009.TABLE1:
        core, res = rows.get(r.name, (None, None))
        if res is None:
            continue
        m = measure(core, res, "bare")
        if m["mhz"]:
            groups[r.name in ADDER_ROWS].append((r.name, m["mhz"] / r.mhz,
                                                 (m["path"] or {}).get("cells_on_path")))
    if len(groups[True]) < 2 or len(groups[False]) < 2:
        return ""

    def listing(g):
        return ", ".join(f"{conclusion.SHORT.get(n, n)} {x:.2f}" for n, x, _c in
                         sorted(g, key=lambda t: t[1]))

    measured = [p for p in points if p.measured]
    down = []
    for _name, _unit, key, _nd in conclusion.METRICS:
        theirs = conclusion.ranks(measured, lambda p: key(p, False))
        ours = conclusion.ranks(measured, lambda p: key(p, True))
        down += [p for p in measured if p.name in ADDER_ROWS and p not in down
                 and ours[p.name] - theirs[p.name] >= conclusion.MOVE]
    moved = ", ".join(p.short for p in down) or "none"

    def cells(g):
        cs = [c for _n, _x, c in g if c]
        return f"{min(cs)}–{max(cs)}" if cs else "n/a"

    return ("### Where the clock differs: the adders\n\n"
            "Our clock over the paper's, bare cores, for the rows whose rounds are built on 32- "
            "or 64-bit modular additions: median "
            f"{conclusion.median([x for _n, x, _c in groups[True]]):.2f} ({listing(groups[True])}; "
            f"critical paths of {cells(groups[True])} cells); for the others: median "
            f"{conclusion.median([x for _n, x, _c in groups[False]]):.2f} "
            f"({listing(groups[False])}; {cells(groups[False])} cells). "
            "This flow maps every adder through Yosys's generic `$alu` (a Brent–Kung carry "
            "network in Yosys 0.23) and ABC's delay-driven restructuring, and on the multi-cycle "
            "adder cores the critical path runs through their carry chains (Shabal's: the 32-bit "
            "B + M, mapped as a ripple); the paper's Cadence PKS chose its own adder "
            f"architectures. The adder rows that move down by {conclusion.MOVE} places or more "
            f"in either ranking above ({moved}) do so at least partly because of this flow's "
            "adders rather than their designs. BMW (one "
            "cycle for the whole compression function) and SIMD (the paper's core is SIMD's "
            "round-one version) are far from the paper's clock for other reasons. Not done: "
            "the same study with a parallel-prefix adder written into the RTL of every adder "
            "core (Yosys 0.23 ships no Kogge–Stone map), which needs every core run again.\n\n")


def path_text(p):
    if not p:
        return "n/a"
    return f"`{p['start']}` → `{p['end']}` ({p['cells_on_path']} cells)".replace("\\", "")


def main():
    ap = argparse.ArgumentParser(description="Writes docs/reproduction-asic-2009.md (and its plot) "
                                             "from hw/synth/results/*.json.")
    ap.add_argument("--no-plot", action="store_true",
                    help="do not draw the plot (no matplotlib needed; `make hw` installs it); "
                         "the page still refers to the committed plot where there is one")
    ap.add_argument("--check", action="store_true",
                    help="compare the document with the generated text instead of writing it "
                         "(no plot; the committed plot is referred to as it is)")
    args = ap.parse_args()
    if args.check:
        args.no_plot = True
    if not args.no_plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise SystemExit("make_study.py: matplotlib is missing: `make hw` installs it "
                             "(or pip install matplotlib), or pass --no-plot") from None
    measured = load()
    rows = primary(measured)
    tools = next((r["tools"] for _c, r in measured.values() if r), {})
    o = []
    w = o.append
    w("# Reproduction: the 2009 ASIC study of the round-two SHA-3 candidates\n\n")
    w("<!-- Generated by hw/synth/make_study.py from hw/synth/results/*.json and "
      "hw/synth/paper2009.py (`make hw`). Do not edit by hand. -->\n\n")
    w("Tillich et al., *High-Speed Hardware Implementations of BLAKE, Blue Midnight Wish, "
      "CubeHash, ECHO, Fugue, Grøstl, Hamsi, JH, Keccak, Luffa, Shabal, SHAvite-3, SIMD, and "
      "Skein* (version 2.0, November 2009), built a high-speed core of each of the 14 "
      "round-two candidates and of SHA-256 and took all of them through one ASIC flow "
      "(Cadence PKS, UMC 0.18 µm FSA0A_C, speed-optimised synthesis). This page puts its "
      "Table 1 beside cores built here in the architectures its sections describe, each "
      "through one open flow (Yosys, ABC, OpenSTA, OSU 0.18 µm cells). The first part of "
      "the study covers SHA-256, BLAKE-32, Grøstl-256, JH-256, Keccak, "
      "Skein-256-256 and Skein-512; the second part the other nine candidates.\n\n")

    w("## The flow\n\n")
    w(asic.describe(tools, registry.DEFAULT_CLOCK_NS) + "\n\n")
    w("Throughput = block bits × fmax / cycles per block (long messages, as the paper's TP). "
      "The main table measures the **bare core** (block-wide ports, no padding), as the paper's "
      "modules were (its section 3: padding outside the module, a whole block in, the digest "
      "out); the same cores behind the common stream wrapper (`hash_stream.v`: padding, "
      "64-bit beats) follow below. Ratios are ours / the paper's.\n\n")

    w("## Table 1 beside ours (bare cores)\n\n")
    w("| row of the paper's Table 1 | block bit | cycles, paper / ours | GE, paper / ours (ratio) "
      "| MHz, paper / ours (ratio) | Gbit/s, paper / ours (ratio) | Mbit/s per kGE, paper / ours "
      "(ratio) | our core |\n|---|---|---|---|---|---|---|---|\n")
    for r in paper2009.TABLE1:
        p_kge = r.gbps * 1e6 / r.ge
        core, res = rows.get(r.name, (None, None))
        if core is None:
            todo = "not built yet" if r.name in PART1 else "second part"
            w(f"| {r.name} | {r.block_bits:,} | {r.cycles} / — | {r.ge:,} / — | {r.mhz:.2f} / — "
              f"| {r.gbps:.3f} / — | {p_kge:.1f} / — | {todo} |\n")
            continue
        if res is None:
            w(f"| {r.name} | {r.block_bits:,} | {r.cycles} / {core.cycles} | {r.ge:,} / not run "
              f"| {r.mhz:.2f} / | {r.gbps:.3f} / | {p_kge:.1f} / | `{core.bare}` |\n")
            continue
        m = measure(core, res, "bare")
        w(f"| {r.name} | {core.block_bits:,} | {r.cycles} / {core.cycles} | {r.ge:,} / {m['ge']:,} "
          f"({fmt(ratio(m['ge'], r.ge), 2)}) | {r.mhz:.2f} / {fmt(m['mhz'], 1)} "
          f"({fmt(ratio(m['mhz'], r.mhz), 2)}) | {r.gbps:.3f} / {fmt(m['gbps'], 3)} "
          f"({fmt(ratio(m['gbps'], r.gbps), 2)}) | {p_kge:.1f} / {fmt(m['per_kge'], 1)} "
          f"({fmt(ratio(m['per_kge'], p_kge), 2)}) | `{core.bare}` ({core.algorithm}) |\n")
    w("\nThe paper's figures are quoted from its Table 1 (hw/synth/paper2009.py checks that "
      "each of its TP figures is block × MHz / cycles).")
    if any(r.name not in rows and r.name not in PART1 for r in paper2009.TABLE1):
        w(" Rows marked second part are the candidates the second part adds.")
    w("\n\n")

    finals = [(c, r) for c, r in measured.values() if c.version == "final" and
              c.paper in rows and rows[c.paper][0] is not c]
    if finals:
        w("## Final (round-three) versions\n\n")
        w("The same architectures with the round-three parameters (what a user gets); the paper "
          "built the round-two versions.\n\n")
        w("| core | algorithm | cycles | GE | MHz | Gbit/s | Mbit/s per kGE | round-two row: "
          "Mbit/s per kGE |\n|---|---|---|---|---|---|---|---|\n")
        for c, res in finals:
            base = rows[c.paper]
            if res is None:
                w(f"| `{c.name}` | {c.algorithm} | {c.cycles} | not run | | | | |\n")
                continue
            m = measure(c, res, "bare")
            b = measure(base[0], base[1], "bare") if base[1] else None
            w(f"| `{c.name}` | {c.algorithm} | {c.cycles} | {m['ge']:,} | {fmt(m['mhz'], 1)} | "
              f"{fmt(m['gbps'], 3)} | {fmt(m['per_kge'], 1)} | {fmt(b and b['per_kge'], 1)} |\n")
        w("\n")

    # the closing part: the conclusion re-examined and the plot
    points = []
    for r in paper2009.TABLE1:
        core, res = rows.get(r.name, (None, None))
        m = measure(core, res, "bare") if res is not None else None
        ok = m is not None and m["gbps"] is not None
        points.append(conclusion.Point(r.name, r.gbps, r.ge, m["gbps"] if ok else None,
                                       m["ge"] if ok else None, core.bare if ok else None))
    png = None
    if not args.no_plot:
        png = conclusion.plot(points, PLOT)
        print(f"wrote {png}")
    w(conclusion.markdown(points, PLOT.name if png or PLOT.exists() else None))
    w(adder_note(rows, points))

    # wrapped cores
    w("## Behind the stream wrapper\n\n")
    w("The same cores with padding and a 64-bit byte stream in, the digest out (Keccak: "
      "`sha3_stream.v`, six functions; the others: `hash_stream.v`). Their tests run on these "
      "tops (`make test-hw`).\n\n")
    w("| core | cycles | GE | MHz | Gbit/s | Mbit/s per kGE | wrapper share of the area | "
      "critical path |\n|---|---|---|---|---|---|---|---|\n")
    for core, res in measured.values():
        if res is None:
            continue
        m = measure(core, res, "wrapped")
        b = measure(core, res, "bare")
        w(f"| `{core.top}` | {core.cycles} | {m['ge']:,} | {fmt(m['mhz'], 1)} | {fmt(m['gbps'], 3)} "
          f"| {fmt(m['per_kge'], 1)} | {1 - b['ge'] / m['ge']:.0%} | {path_text(m['path'])} |\n")
    w("\n")

    w("## The cores\n\n")
    w("| core | algorithm | version | architecture | cycles per block | latency of the final "
      "block | bare core: flip-flops, critical path |\n|---|---|---|---|---|---|---|\n")
    for core, res in measured.values():
        b = measure(core, res, "bare") if res else None
        lat = core.latency if core.latency is not None else core.cycles
        w(f"| `{core.bare}` | {core.algorithm} | {core.version} | {core.notes} | {core.cycles} | "
          f"{lat} | {fmt(b and b['ff'])}, {path_text(b and b['path'])} |\n")
    w("\n")

    w("## Versions\n\n")
    w("The paper built the round-two versions (its SIMD aside); each of our cores has the "
      "round-three change as a parameter, and the final version is what `make test-hw` also "
      "checks and what a user would take:\n\n")
    w("| candidate | round two (the paper's) | final (round three) | parameter |\n"
      "|---|---|---|---|\n"
      "| BLAKE-32 / BLAKE-256 | 10 rounds | 14 rounds | `ROUNDS` |\n"
      "| Grøstl-256 | original constants, Q shifted as P | new round constants for P and Q, "
      "Q's ShiftBytes (1, 3, 5, 7, 0, 2, 4, 6) | `TWEAK` |\n"
      "| JH-256 | 35.5 rounds (35 R8 and an S-box layer) | 42 rounds | `ROUND3` |\n"
      "| Skein-256/512 | v1.2: key-schedule parity 0x5555555555555555 | v1.3: 0x1BD11BDAA9FC1A22 "
      "| `FINAL` |\n\n")
    w("Skein's rotation constants changed in round two (v1.1 to v1.2), so the paper's cores "
      "(which include the round-two tweaks) already have the final ones; the round-three "
      "change was the parity constant only. Keccak's round-two version (24 rounds, r = 1088 "
      "for 256-bit digests) has the permutation of SHA-3; FIPS 202 changed only the padding, "
      "which is the wrapper's.\n\n")
    w("## What differs from the paper's flow, and what does not\n\n")
    w("- Same: a high-speed core per candidate in the architecture its section describes, one "
      "synthesis flow and one library for all, figures after synthesis (no layout), area in "
      "NAND2 equivalents, fmax at typical conditions, throughput for long messages.\n")
    w("- Different: the tools (Yosys/ABC/OpenSTA against Cadence PKS), the library (OSU "
      "0.18 µm against UMC FSA0A_C; cell areas and delays differ, so compare ratios and "
      "rankings rather than absolute figures), one synthesis run per core with a fixed delay "
      "target instead of the paper's adaptive target search, and our own RTL (the paper's "
      "HDL was not published).\n")
    w("- The paper's SIMD row is the round-one SIMD; its other rows include the round-two "
      "tweaks. Our Skein-512 core computes Skein-512-256 (the paper's row is Skein-512-512: "
      "the same core but for the output length, which only changes the output transformation's "
      "truncation).\n\n")

    w("## Not reproduced\n\n")
    w("- **The design alternatives behind each row.** The paper says it \"implemented various "
      "design approaches of BLAKE-32\" (section 4) and kept four G functions in parallel as the "
      "fastest; the others (for instance two G functions, half the datapath) are neither "
      "described in figures nor built here. Doing it: a `blake_core` variant with two G "
      "functions (44 cycles a block), registered in `hw/cores.py` and run through this flow "
      "(a few minutes of synthesis); the paper gives no figure to compare it with.\n")
    w("- **Figure 17's trade-offs** (\"various tradeoffs for throughput vs. area\" of the same "
      "implementations, from its synthesis runs at several delay targets): its points are not "
      "printed as numbers, and this flow runs each core at one delay target. Doing it: run "
      "every core at a sweep of clock constraints (`clock_ns` in `hw/cores.py`) and plot area "
      "against throughput per core; about the time of `make hw-asic` per constraint.\n")
    w("- **The adaptive synthesis search** (section 19: several runs per design, the target "
      "delay lowered after each run that met it and raised after each that failed, runs "
      "counted only if they finished in a time limit): one run per core here. Doing it: a "
      "loop around `asic.asic` over `clock_ns`, keeping the best fmax; the same sweep as the "
      "item above.\n")
    w("- **The paper's library and tools** (UMC 0.18 µm FSA0A_C, Cadence PKS): commercial; "
      "absolute GE and MHz are therefore not comparable (see the flow above), only orders and "
      "ratios.\n\n")
    w("## Reproduce\n\n")
    w("- `make test-hw`: lint, the cocotb benches on every core (both versions), the models "
      "against their KATs.\n")
    w("- `make hw` (all cores, both documents) or `python3 hw/synth/run_synth.py --set study` "
      "then `python3 hw/synth/make_study.py` (this page only).\n")
    digests = sorted({f"{c.name} {r['rtl_digest']}" for c, r in measured.values() if r})
    w("\nResults for RTL digests " + ", ".join(digests) + " (`run_synth.py`: SHA-256 of each "
      "core's sources and parameters, first 16 hex digits).\n")
    if args.check:
        from make_doc import check_doc
        raise SystemExit(check_doc(DOC, "".join(o)))
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text("".join(o))
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
