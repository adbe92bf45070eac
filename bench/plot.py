#!/usr/bin/env python3
"""Plot and tabulate a keccakx CPU benchmark run (bench/results/cpu-*.json).

    python3 bench/plot.py bench/results/cpu-2026-11-21.json

writes, next to the JSON:
  <stem>.png  throughput vs input size, one panel per function, every peer
  <stem>.md   the tables (MB/s and the ratio to keccakx on one thread) and the
              target ratios of the CPU benchmark, computed from the JSON only.
"""
import json
import os
import sys


def size_name(n):
    if n >= 1 << 20:
        return f"{n >> 20} MiB"
    if n >= 1 << 10:
        return f"{n >> 10} KiB"
    return f"{n} B"


def label(r):
    t = r["threads"]
    return r["impl"] if t == 1 else f'{r["impl"]} ({t} thr)'


def load(path):
    with open(path) as f:
        return json.load(f)


def index(rep):
    """{(function, impl, threads, size): record}"""
    return {(r["function"], r["impl"], r["threads"], r["size"]): r for r in rep["results"]}


def functions(rep):
    seen = []
    for r in rep["results"]:
        if r["function"] not in seen:
            seen.append(r["function"])
    return seen


def plot(rep, out_png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    funcs = functions(rep)
    n = len(funcs) + (1 if rep.get("permutations") else 0) + (1 if rep.get("scaling") else 0)
    cols = 4
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5.2 * cols, 4.2 * rows), squeeze=False)
    for ax, fn in zip(axes.flat, funcs):
        series = {}
        for r in rep["results"]:
            if r["function"] == fn:
                series.setdefault(label(r), []).append((r["size"], r["mb_per_s"]))
        for name, pts in series.items():
            pts.sort()
            style = "-" if name.startswith("keccakx") else "--"
            width = 2.2 if name.startswith("keccakx") else 1.2
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, marker="o", ms=3, lw=width, label=name)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        sizes = sorted({r["size"] for r in rep["results"] if r["function"] == fn})
        ax.set_xticks(sizes)
        ax.set_xticklabels([size_name(s) for s in sizes], fontsize=8)
        ax.set_title(fn, fontsize=10)
        ax.set_ylabel("MB/s")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    rest = list(axes.flat)[len(funcs):]
    if rep.get("permutations") and rest:
        ax = rest.pop(0)
        perms = rep["permutations"]
        names = [f'{p["impl"]} {p["rounds"]}r' for p in perms]
        ax.barh(names, [p["ns_per_state"] for p in perms])
        ax.set_xlabel("ns per state (thread CPU time)")
        ax.set_title("Keccak-p[1600] alone", fontsize=10)
        ax.tick_params(axis="y", labelsize=7)
        ax.invert_yaxis()
    if rep.get("scaling") and rest:
        ax = rest.pop(0)
        sc = rep["scaling"]
        names = [f'{"batch" if r["function"].startswith("batch") else r["function"]}: '
                 f'{r["impl"].replace(" batch", "")} {size_name(r["size"])}' for r in sc]
        ys = range(len(sc))
        ax.barh([y - 0.2 for y in ys], [r["scaling"] for r in sc], height=0.4, label="all threads / 1 thread")
        ax.barh([y + 0.2 for y in ys], [r["host_ceiling"] for r in sc], height=0.4,
                label="host ceiling (independent copies)")
        ax.axvline(sc[0]["threads"], color="grey", lw=1, ls=":")
        ax.set_yticks(list(ys))
        ax.set_yticklabels(names, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel("speed-up over 1 thread (medians of alternated rounds)")
        ax.set_title(f'{sc[0]["threads"]}-thread scaling', fontsize=10)
        ax.set_xlim(0, sc[0]["threads"] * 1.15)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    for ax in rest:
        ax.axis("off")
    m = rep["machine"]
    fig.suptitle(
        f'keccakx CPU benchmark {rep["date"]} · {m["cpu_model"]} · {m["cores"]} cores · '
        f'engine {rep["keccakx_engine"]} · commit {rep["commit"]} · load {m["load_before"]}',
        fontsize=11,
    )
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    fig.savefig(out_png, dpi=90)


def ratio(a, b):
    if a is None or b is None or b["mb_per_s"] in (None, 0):
        return None
    return a["mb_per_s"] / b["mb_per_s"]


def wall_ratio(a, b):
    if a is None or b is None or not b.get("wall_mb_per_s"):
        return None
    return a["wall_mb_per_s"] / b["wall_mb_per_s"]


def fmt_ratio(x):
    return "n/a" if x is None else f"{x:.2f}×"


def tables(rep):
    idx = index(rep)
    lines = []
    m = rep["machine"]
    lines.append(
        f'Run {rep["date"]}, commit `{rep["commit"]}`, {rep["rustc"]}, CPU {m["cpu_model"]} '
        f'({m["cores"]} cores, TSC {m["tsc_ghz"]:.2f} GHz), keccakx engine `{rep["keccakx_engine"]}`, '
        f'load average before/after: {m["load_before"]} / {m["load_after"]}.'
    )
    lines.append("")
    for note in rep.get("notes", []):
        lines.append(f"- {note}")
    lines.append("")
    for fn in functions(rep):
        rows = [r for r in rep["results"] if r["function"] == fn]
        sizes = sorted({r["size"] for r in rows})
        impls = []
        for r in rows:
            k = (r["impl"], r["threads"])
            if k not in impls:
                impls.append(k)
        base_impl = "keccakx batch" if fn.startswith("batch") else "keccakx"
        lines.append(f"### {fn}")
        lines.append("")
        lines.append(
            f"MB/s (cycles/byte) and, in brackets, speed relative to {base_impl} on 1 thread "
            "(above 1: faster than keccakx). One-thread rows: thread CPU time; multi-thread rows: wall clock."
        )
        lines.append("")
        lines.append("| implementation | " + " | ".join(size_name(s) for s in sizes) + " |")
        lines.append("| --- | " + " | ".join("---:" for _ in sizes) + " |")
        for impl, t in impls:
            cells = []
            for s in sizes:
                r = idx.get((fn, impl, t, s))
                b = idx.get((fn, base_impl, 1, s))
                if r is None:
                    cells.append("")
                    continue
                cpb = r.get("cycles_per_byte")
                cpb_s = f" ({cpb:.2f})" if cpb is not None else ""
                cells.append(f'{r["mb_per_s"]:.0f}{cpb_s} [{fmt_ratio(ratio(r, b))}]')
            name = impl if t == 1 else f"{impl}, {t} threads"
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
        lines.append("")
    if rep.get("permutations"):
        lines.append("### Keccak-p[1600] alone")
        lines.append("")
        lines.append("| implementation | rounds | ns per state | TSC cycles per state |")
        lines.append("| --- | ---: | ---: | ---: |")
        for p in rep["permutations"]:
            lines.append(f'| {p["impl"]} | {p["rounds"]} | {p["ns_per_state"]:.1f} | {p["cycles_per_state"]:.0f} |')
        lines.append("")
    if rep.get("scaling"):
        lines.append("### Multi-core scaling, alternated rounds")
        lines.append("")
        lines.append(
            "Each round times the 1-thread call, the all-thread call and the host ceiling (the 1-thread "
            "call on every core at once, independent copies) back to back; medians of the per-round "
            "ratios. Efficiency = all-thread speed / the ceiling's (1.00: as fast as independent copies).")
        lines.append("")
        lines.append("| function | implementation | size | threads | scaling | host ceiling | efficiency | rounds |")
        lines.append("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |")
        for r in rep["scaling"]:
            lines.append(
                f'| {r["function"]} | {r["impl"]} | {size_name(r["size"])} | {r["threads"]} | '
                f'{fmt_ratio(r["scaling"])} | {fmt_ratio(r["host_ceiling"])} | {r["efficiency"]:.3f} | {r["rounds"]} |')
        lines.append("")
    lines.append("### CPU targets (ratios from this run)")
    lines.append("")
    lines.append("| target | measured | met? |")
    lines.append("| --- | --- | --- |")
    for t in target_rows(rep):
        extra = f" (ideal {t['ideal']}×)" if t["ideal"] else ""
        note = f" (wall clock, load {m['load_before']})" if t["wall"] else ""
        met = "info" if t["ok"] is None else ("yes" if t["ok"] else "no")
        lines.append(f"| {t['name']} | {fmt_value(t)}{extra} | {met}{note} |")
    lines.append("")
    return "\n".join(lines)


def fmt_value(t):
    """A target row's value: efficiencies as fractions, the rest as ratios."""
    return f"{t['value']:.3f}" if t.get("fraction") else fmt_ratio(t["value"])


def met(value, need, strict):
    return value > need if strict else value >= need


def target_rows(rep):
    """The issue's targets as ratios of this run: dicts with name, value,
    need (the value to reach; None: shown for information), strict (must
    exceed it), ok (met? None for information rows), ideal (scaling rows:
    the thread count), wall (wall-clock ratio) and fraction (an efficiency,
    not a ratio)."""
    idx = index(rep)
    m = rep["machine"]
    rows = []
    big = sorted({r["size"] for r in rep["results"]})
    big = [s for s in big if s >= 1 << 20]
    all_t = m["cores"]

    def get(fn, impl, t, s):
        return idx.get((fn, impl, t, s))

    def add(name, x, need, strict=False, ideal=None, wall=False, fraction=False):
        if x is not None:
            ok = None if need is None else met(x, need, strict)
            rows.append({"name": name, "value": x, "need": need, "strict": strict, "ok": ok,
                         "ideal": ideal, "wall": wall, "fraction": fraction})

    scal = {(r["function"], r["impl"], r["size"]): r for r in rep.get("scaling", [])}

    for s in big:
        kx = get("SHA3-256", "keccakx", 1, s)
        add(f"SHA3-256 single stream ≥ 1.3× OpenSSL ({size_name(s)})",
            ratio(kx, get("SHA3-256", "OpenSSL", 1, s)), 1.3)
        for peer in ("RustCrypto sha3", "tiny-keccak"):
            add(f"SHA3-256 single stream faster than {peer} ({size_name(s)})",
                ratio(kx, get("SHA3-256", peer, 1, s)), 1.0, strict=True)
        add(f"KT128 1 thread ≥ XKCP K12 ({size_name(s)})",
            ratio(get("KT128", "keccakx", 1, s), get("KT128", "XKCP K12", 1, s)), 1.0)
        add(f"KT128 1 thread vs BLAKE3 1 thread, aim ({size_name(s)})",
            ratio(get("KT128", "keccakx", 1, s), get("KT128", "BLAKE3", 1, s)), 1.0)
        bf = "batch SHA3-256 (64-B msgs)"
        add(f"batch SHA3-256 64-B msgs ≥ 3× one-at-a-time, 1 core ({size_name(s)})",
            ratio(get(bf, "keccakx batch", 1, s), get(bf, "keccakx one-at-a-time", 1, s)), 3.0)
        if all_t > 1:
            for fn, impl in [("KT128", "keccakx"), (bf, "keccakx batch")]:
                sc = scal.get((fn, impl, s))
                if sc is None:
                    # Runs before the alternated rounds: the main table's
                    # rows, wall clock over wall clock.
                    add(f"{fn} scaling {all_t} threads / 1 thread ({size_name(s)})",
                        wall_ratio(get(fn, impl, all_t, s), get(fn, impl, 1, s)),
                        0.85 * all_t, ideal=all_t, wall=True)
                    continue
                # Near-linear: within 10 % of independent copies on every
                # core, and at least 85 % of ideal, in the same rounds.
                add(f"{fn} scaling {all_t} threads / 1 thread, alternated rounds ({size_name(s)})",
                    sc["scaling"], 0.85 * all_t, ideal=all_t, wall=True)
                add(f"{fn} {all_t}-thread efficiency vs host ceiling ({size_name(s)})",
                    sc["efficiency"], 0.9, fraction=True)
                add(f"{fn} scaling {all_t} threads / 1 thread, main table's separate samples ({size_name(s)})",
                    wall_ratio(get(fn, impl, all_t, s), get(fn, impl, 1, s)), None,
                    ideal=all_t, wall=True)
            b3 = scal.get(("KT128", "BLAKE3", s))
            if b3 is not None:
                add(f"BLAKE3 {all_t}-thread efficiency vs host ceiling, peer ({size_name(s)})",
                    b3["efficiency"], None, fraction=True)
    return rows


def main(argv):
    if len(argv) != 2 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 2
    path = argv[1]
    try:
        rep = load(path)
    except (OSError, json.JSONDecodeError) as e:
        print(f"plot.py: cannot read {path}: {e}", file=sys.stderr)
        return 1
    stem = os.path.splitext(path)[0]
    with open(stem + ".md", "w") as f:
        f.write(tables(rep))
    try:
        plot(rep, stem + ".png")
    except ImportError:
        print("plot.py: matplotlib is missing (apt-get install python3-matplotlib); wrote the tables only", file=sys.stderr)
        print(f"wrote {stem}.md")
        return 1
    print(f"wrote {stem}.png and {stem}.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
