#!/usr/bin/env python3
"""Figure and Markdown tables for the tree2011 benchmark, beside the 2011 paper.

    python3 bench/tree2011/plot.py bench/results/tree2011-<date>.json [--gpu RESULTS.json]

writes <same stem>.png (the figure) and <same stem>.md (the tables that
docs/reproduction-gpu-2011.md quotes). The measured figures come from the
benchmark's JSON only; the published ones from paper2011.json beside this
file (the paper's Table 1 and Table 2, with their source). With --gpu, the
GPU columns come from a GPU run: the results.json that .gpu/run-on-gpu.sh
leaves in $OUT (or keccakx-gpu-bench's own --out JSON); without it they say
"not measured". Nothing is typed in here.
"""
import argparse
import json
import sys
from collections import namedtuple
from pathlib import Path

PAPER_JSON = Path(__file__).with_name("paper2011.json")

ENGINES = [("scalar-1t", "memory"), ("simd-1t", "memory"), ("simd-all", "memory"), ("simd-all", "file")]
SETS = [("paper", "Keccak[r=1024, c=576] (paper)"), ("sha3-256", "Keccak[r=1088, c=512] (SHA3-256)")]
# Table 2's rows of the benchmark, in the order of the table.
TABLE2 = [
    ("keccak-1024-576-updates-128", "Keccak[1024,576], 128-byte updates"),
    ("keccak-1024-576-one-call", "Keccak[1024,576], one call"),
    ("sha3-256-keccakx", "SHA3-256 (keccakx)"),
    ("md5-openssl", "MD5 (OpenSSL)"),
]
NO_GPU = "not measured: no GPU lent"
H0_MARK = "†"


# The published figures: gpu {(bytes, H): seconds}, md5 {bytes: seconds},
# table2 {bytes: row}, record (the whole of paper2011.json).
Paper = namedtuple("Paper", "gpu md5 table2 record")


def load_paper():
    p = json.loads(PAPER_JSON.read_text())
    t1 = p["table1"]
    gpu = {(r["bytes"], h): s for r in t1["rows"] for h, s in zip(t1["heights"], r["gpu_s"])}
    md5 = {r["bytes"]: r["md5_s"] for r in t1["rows"]}
    t2 = {r["bytes"]: r for r in p["table2"]["rows"]}
    return Paper(gpu, md5, t2, p)


def load(path):
    d = json.loads(Path(path).read_text())
    tree = {}
    for r in d["tree_li"]:
        tree[(r["params"], r["size"], r["H"], r["engine"], r["source"])] = r
    others = {(r["algorithm"], r["size"], r["source"]): r for r in d["others"]}
    return d, tree, others


def load_gpu(path):
    """A GPU run: run-on-gpu.sh's results.json (the benchmark under "bench",
    hashlib's MD5 under "md5") or the benchmark's JSON alone. Returns the
    device's name, the CPU peer's threads, {(bytes, H, rate): row} and
    {bytes: MD5 seconds}."""
    g = json.loads(Path(path).read_text())
    bench = g.get("bench", g)
    rows = {}
    for r in (bench.get("tree_li") or {}).get("rows", []):
        if "skipped" not in r:
            rows[(r["bytes"], r["height"], r["rate_bits"])] = r
    md5 = {int(n): v["seconds"] for n, v in ((g.get("md5") or {}).get("md5_hashlib") or {}).items()}
    return {
        "device": (bench.get("device") or {}).get("name", "unknown GPU"),
        "threads": (bench.get("cpu") or {}).get("threads"),
        "commit": bench.get("commit", "?"),
        "rows": rows,
        "md5": md5,
    }


def fmt(s):
    """Seconds; under a millisecond in µs (a GPU's times would read 0.0000)."""
    if s is None:
        return "—"
    return f"{s:.4f}" if s >= 1e-3 else f"{s * 1e6:.1f} µs"


def ratio(paper_s, ours_s):
    """The paper's time over ours: how many times faster we are."""
    if paper_s is None or not ours_s:
        return "—"
    x = paper_s / ours_s
    return f"{x:.0f}×" if x >= 99.5 else f"{x:.1f}×" if x >= 1.95 else f"{x:.2f}×"


def med(r):
    return r["median_s"] if r else None


def table1(d, tree, others, paper, gpu):
    """The paper's Table 1, every cell, beside ours."""
    pub, pub_md5, p = paper.gpu, paper.md5, paper.record
    cols = d["columns"]
    t1 = p["table1"]
    out = []
    gname = f"GPU ({gpu['device']})" if gpu else "GPU (ours)"
    gcpu = f"CPU of the GPU machine ({gpu['threads']} threads)" if gpu else "CPU of the GPU machine"
    out.append(f"**Table 1 beside the paper: tree LI, D = {t1['degree']}, Keccak[r={t1['rate_bits']}, "
               f"c={t1['capacity_bits']}], seconds; in brackets the paper's time ÷ ours (how many times faster)**")
    out.append("")
    out.append(f"| bytes | H | leaves | {t1['gpu']} 2011 (published) | {cols['simd-1t']['describe']} | "
               f"{cols['simd-all']['describe']} | the same, from the page cache | "
               f"{gname}, device-resident | {gname}, host-fed | {gcpu} |")
    out.append("|" + " ---: |" * 10)
    for (size, h), pub_s in sorted(pub.items()):
        row = tree.get(("paper", size, h, "scalar-1t", "memory"))
        leaves = row["leaves"] if row else 4 ** h
        vals = []
        for eng, src in [("simd-1t", "memory"), ("simd-all", "memory"), ("simd-all", "file")]:
            s = med(tree.get(("paper", size, h, eng, src)))
            vals.append(f"{fmt(s)} ({ratio(pub_s, s)})" if s else "—")
        if gpu:
            g = gpu["rows"].get((size, h, t1["rate_bits"]))
            for key in ("device_resident_s", "host_fed_s", "cpu_s"):
                s = g.get(key) if g else None
                # at H = 0 (one sponge) keccakx reads the message back and hashes it on the CPU
                mark = H0_MARK if h == 0 and key != "cpu_s" else ""
                vals.append(f"{fmt(s)} ({ratio(pub_s, s)}){mark}" if s else "not in the GPU run")
        else:
            vals += [NO_GPU, NO_GPU, NO_GPU]
        out.append(f"| {size:,} | {h} | {leaves} | {pub_s:.3f} | " + " | ".join(vals) + " |")
    out.append("")
    if gpu:
        out.append(f"{H0_MARK} At H = 0 the tree is one sponge over the whole message: keccakx hashes it on "
                   "the CPU of the GPU machine in both GPU columns (device-resident: read back from the GPU "
                   "first), so these cells are CPU figures, not GPU ones.")
        out.append("")
    out.append(f"**Table 1's MD5 column beside ours: seconds; in brackets the paper's time ÷ ours "
               f"(paper: {t1['md5_cpu']})**")
    out.append("")
    out.append("| bytes | MD5 2011 (published) | MD5 OpenSSL here, in memory | MD5 OpenSSL here, from the page cache | "
               "MD5 on the GPU machine (Python hashlib, best of 5) | tree LI H = 4 here, all threads, ÷ MD5 here |")
    out.append("| ---: | ---: | ---: | ---: | ---: | ---: |")
    for size, pub_s in sorted(pub_md5.items()):
        m = med(others.get(("md5-openssl", size, "memory")))
        mf = med(others.get(("md5-openssl", size, "file")))
        gm = gpu["md5"].get(size) if gpu else None
        t4 = med(tree.get(("paper", size, 4, "simd-all", "memory")))
        vals = [f"{fmt(s)} ({ratio(pub_s, s)})" if s else "—" for s in (m, mf)]
        vals.append(f"{fmt(gm)} ({ratio(pub_s, gm)})" if gm else (NO_GPU if not gpu else "not in the GPU run"))
        vals.append(f"{t4 / m:.2f}" if t4 and m else "—")
        out.append(f"| {size:,} | {pub_s:.3f} | " + " | ".join(vals) + " |")
    out.append("")
    return out


def table2(d, paper):
    """The paper's Table 2 beside ours, in time and in cycles."""
    pub2, p = paper.table2, paper.record
    t2 = p["table2"]
    ref = {(r["algorithm"], r["size"]): r for r in d["reference"]}
    tsc_hz = d["machine"].get("tsc_hz")
    out = []
    if not any(a == TABLE2[0][0] for a, _ in ref):
        # A run older than Table 2 at the paper's sizes: its rows as they are.
        out.append("**Reference CPU timings (a run from before Table 2 was measured at the paper's sizes): "
                   "seconds and MB/s (median)**")
        out.append("")
        out.append("| algorithm | bytes | seconds | MB/s |")
        out.append("| --- | ---: | ---: | ---: |")
        for (a, size), r in sorted(ref.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            out.append(f"| {a} | {size:,} | {fmt(r['median_s'])} | {r['mb_per_s']:.0f} |")
        out.append("")
        return out
    clock = f"{tsc_hz / 1e9:.3f} GHz" if tsc_hz else "unknown"
    out.append(f"**Table 2 beside the paper: one core, milliseconds and cycles per byte (paper: "
               f"{t2['implementation']} on an {t2['cpu']}, r = {t2['rate_bits']}, {t2['update_bytes']}-byte "
               f"blocks, its cycles at {t2['clock_hz'] / 1e9:.2f} GHz; ours: time-stamp-counter cycles at "
               f"{clock}); in brackets the paper's time ÷ ours**")
    out.append("")
    head = ["bytes", "paper ms", "paper cycles", "paper cycles/B"]
    for _, label in TABLE2:
        head += [f"{label} ms", "cycles/B"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + " ---: |" * len(head))
    for size in sorted({s for _, s in ref}):
        pr = pub2.get(size)
        vals = [f"{size:,}"]
        vals += [f"{pr['ms']:.3f}", f"{pr['cycles']:,}", f"{pr['cycles'] / size:.2f}"] if pr else ["—"] * 3
        for a, _ in TABLE2:
            r = ref.get((a, size))
            if not r:
                vals += ["—", "—"]
                continue
            ms = r["median_s"] * 1e3
            vals.append(f"{ms:.3f}" + (f" ({ratio(pr['ms'], ms)})" if pr else ""))
            cyc = r.get("tsc_cycles_median")
            vals.append(f"{cyc / size:.2f}" if cyc else "—")
        out.append("| " + " | ".join(vals) + " |")
    out.append("")
    return out


def engine_tables(d, tree, others, paper):
    """Every engine at every height, both parameter sets (the full CPU half)."""
    pub = paper.gpu
    cols = d["columns"]
    sizes = sorted({k[1] for k in tree})
    heights = sorted({k[2] for k in tree})
    out = []
    head_eng = [cols["scalar-1t"]["describe"], cols["simd-1t"]["describe"], cols["simd-all"]["describe"],
                f"{cols['simd-all']['describe']}, from file"]
    for key, title in SETS:
        out.append(f"**Tree LI, D = 4, {title}: seconds (median), every CPU engine**")
        out.append("")
        out.append("| bytes | H | leaves | " + " | ".join(head_eng)
                   + " | GPU 2011 (published, r = 1024) | MD5 OpenSSL | MD5 from file |")
        out.append("|" + " ---: |" * (3 + len(head_eng) + 3))
        for size in sizes:
            for h in heights:
                row = tree.get((key, size, h, "scalar-1t", "memory"))
                leaves = row["leaves"] if row else "?"
                vals = [fmt(med(tree.get((key, size, h, eng, src)))) for eng, src in ENGINES]
                p = pub.get((size, h))
                vals.append("—" if p is None else f"{p:.3f}")
                vals += [fmt(med(others.get(("md5-openssl", size, src)))) for src in ("memory", "file")]
                out.append(f"| {size:,} | {h} | {leaves} | " + " | ".join(vals) + " |")
        out.append("")
    big = max(sizes)
    out.append(f"**Speed-up over H = 0 (same engine), {big:,} bytes, in memory**")
    out.append("")
    out.append("| params | H | " + " | ".join(e for e, s in ENGINES if s == "memory") + " |")
    out.append("|" + " --- |" * 2 + " ---: |" * 3)
    for key, _ in SETS:
        for h in heights:
            vals = []
            for eng, src in ENGINES:
                if src != "memory":
                    continue
                base = tree.get((key, big, 0, eng, src))
                r = tree.get((key, big, h, eng, src))
                vals.append(f"{base['median_s'] / r['median_s']:.2f}×" if base and r else "—")
            out.append(f"| {key} | {h} | " + " | ".join(vals) + " |")
    out.append("")
    out.append("**Wall time against process CPU time (seconds, median): the CPU time is what a case costs "
               "when nothing else takes the core**")
    out.append("")
    out.append("| params | bytes | H | scalar-1t wall | scalar-1t CPU | simd-1t wall | simd-1t CPU | "
               "simd-all wall | simd-all CPU (all threads) | preemptions per run, simd-1t (median) |")
    out.append("|" + " --- |" + " ---: |" * 9)
    for key, _ in SETS:
        for size in sizes:
            if size < 10_000_000:
                continue
            for h in heights:
                vals = []
                for eng in ["scalar-1t", "simd-1t", "simd-all"]:
                    r = tree.get((key, size, h, eng, "memory"))
                    vals += [fmt(r["median_s"]), fmt(r.get("cpu_median_s"))] if r else ["—", "—"]
                r = tree.get((key, size, h, "simd-1t", "memory"))
                pre = r.get("preempted_median") if r else None
                vals.append("—" if pre is None else f"{pre:g}")
                out.append(f"| {key} | {size:,} | {h} | " + " | ".join(vals) + " |")
    out.append("")
    out.append("**Plain hashes on the same data: seconds (median)**")
    out.append("")
    algs = ["md5-openssl", "sha3-256-openssl", "sha3-256-keccakx"]
    out.append("| bytes | " + " | ".join(f"{a} memory | {a} file" for a in algs)
               + " | read alone (file) | copy into a fresh buffer (memory) |")
    out.append("|" + " ---: |" * (1 + 2 * len(algs) + 2))
    for size in sizes:
        vals = [fmt(med(others.get((a, size, src)))) for a in algs for src in ("memory", "file")]
        vals += [fmt(med(others.get(("read-only", size, "file")))), fmt(med(others.get(("copy-only", size, "memory"))))]
        out.append(f"| {size:,} | " + " | ".join(vals) + " |")
    out.append("")
    return out


def tables(d, tree, others, paper, gpu):
    m = d["machine"]
    p = paper.record
    out = [f"<!-- generated by bench/tree2011/plot.py from {d['date']} (commit {d['commit'][:12]})"
           + (f" and the GPU run of commit {str(gpu['commit'])[:12]}" if gpu else "") + " -->", ""]
    out.append(
        f"Machine: {m['cpu_model']}"
        + (f" (family/model/stepping {m['cpu_family_model_stepping']})" if "cpu_family_model_stepping" in m else "")
        + f", {m['logical_cpus']} logical CPUs, {m['rustc']}, {m['openssl']}; "
        f"load average before {m['loadavg_before']}, after {d['loadavg_after']}; "
        f"median of at least {d['settings']['runs']} runs after one warm-up "
        f"(short cases: as many as fit {d['settings'].get('min_case_s', 0)} s, at most {d['settings'].get('max_runs', '?')})."
        f" Published figures: {p['paper']}, {p['source'].split(';')[0]}."
    )
    out.append("")
    measured = {k[1] for k in tree}
    missing = sorted(set(paper.md5) - measured)
    if missing:
        out.append(f"(This run did not measure the paper's sizes {', '.join(f'{s:,}' for s in missing)}.)")
        out.append("")
    out += table1(d, tree, others, paper, gpu)
    out += table2(d, paper)
    out += engine_tables(d, tree, others, paper)
    return "\n".join(out)


def plot(d, tree, others, paper, gpu, png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    pub, pub_md5, pub2, p = paper
    sizes = sorted({k[1] for k in tree})
    heights = sorted({k[2] for k in tree})
    cols = d["columns"]
    fig = plt.figure(figsize=(16, 11))
    gs = fig.add_gridspec(3, len(sizes), height_ratios=[1, 1, 0.9])
    legend = {}
    styles = {
        ("scalar-1t", "memory"): dict(color="tab:gray", marker="o"),
        ("simd-1t", "memory"): dict(color="tab:blue", marker="s"),
        ("simd-all", "memory"): dict(color="tab:green", marker="^"),
        ("simd-all", "file"): dict(color="tab:green", marker="^", linestyle="--"),
    }
    for row, (key, title) in enumerate(SETS):
        for ci, size in enumerate(sizes):
            ax = fig.add_subplot(gs[row, ci])
            for eng, src in ENGINES:
                ys = [tree.get((key, size, h, eng, src)) for h in heights]
                if not all(ys):
                    continue
                label = cols[eng]["describe"] + (" (file)" if src == "file" else "")
                ax.plot(heights, [y["median_s"] for y in ys], label=label, **styles[(eng, src)])
            md5 = others.get(("md5-openssl", size, "memory"))
            if md5:
                ax.axhline(md5["median_s"], color="tab:red", linestyle=":", label="MD5 (OpenSSL), here")
            sha = others.get(("sha3-256-keccakx", size, "memory"))
            if sha:
                ax.axhline(sha["median_s"], color="tab:purple", linestyle="-.", linewidth=1, label="SHA3-256 (keccakx)")
            if key == "paper":
                pts = [(h, pub[(size, h)]) for h in heights if (size, h) in pub]
                if pts:
                    ax.plot([h for h, _ in pts], [s for _, s in pts], marker="*", markersize=11, color="black",
                            linestyle=":", label=f"2011 paper, {p['table1']['gpu']} (published)")
                if size in pub_md5:
                    ax.axhline(pub_md5[size], color="black", linestyle="--", linewidth=0.8,
                               label="2011 paper, MD5 on a Core 2 Duo (published)")
                if gpu:
                    for k, mk, lab in (("device_resident_s", "D", "device-resident"), ("host_fed_s", "v", "host-fed")):
                        g = [(h, gpu["rows"].get((size, h, 1024), {}).get(k)) for h in heights]
                        g = [(h, s) for h, s in g if s]
                        if g:
                            ax.plot([h for h, _ in g], [s for _, s in g], marker=mk, color="tab:orange",
                                    linestyle="-" if k.startswith("device") else "--",
                                    label=f"{gpu['device']}, {lab} (ours)")
            ax.set_yscale("log")
            ax.set_xticks(heights)
            ax.set_xlabel("tree height H (D = 4, leaves = 4^H)")
            if ci == 0:
                ax.set_ylabel(f"{title}\nseconds (median)")
            ax.set_title(f"{size:,} bytes", fontsize=10)
            ax.grid(True, which="both", alpha=0.3)
            for hd, lb in zip(*ax.get_legend_handles_labels()):
                legend.setdefault(lb, hd)
    ax = fig.add_subplot(gs[2, :])
    ref = d["reference"]
    tsc = any(r.get("tsc_cycles_median") for r in ref)
    if tsc:
        for (a, lab), c in zip(TABLE2, ["tab:blue", "tab:cyan", "tab:purple", "tab:red"]):
            pts = sorted((r["size"], r["tsc_cycles_median"] / r["size"]) for r in ref
                         if r["algorithm"] == a and r.get("tsc_cycles_median"))
            ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", color=c, label=lab + ", here (TSC cycles)")
        pp = sorted((b, r["cycles"] / b) for b, r in pub2.items())
        ax.plot([x for x, _ in pp], [y for _, y in pp], marker="*", markersize=11, color="black", linestyle=":",
                label=f"2011 paper, {p['table2']['implementation']} ({p['table2']['cpu']}, published)")
        ax.set_ylabel("cycles per byte (median)")
        ax.set_ylim(bottom=0)
        ax.set_xlabel("message bytes (the paper's Table 2 sizes)")
    else:
        for a in sorted({r["algorithm"] for r in ref}):
            pts = sorted((r["size"], r["mb_per_s"]) for r in ref if r["algorithm"] == a)
            ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", label=a)
        ax.set_ylabel("MB/s (median)")
        ax.set_xlabel("message bytes (reference CPU timings)")
    ax.set_xscale("log")
    ax.grid(True, which="both", alpha=0.3)
    # Between the paper's points (top) and ours (bottom).
    ax.legend(fontsize=8, loc="center right" if tsc else "best")
    m = d["machine"]
    fig.suptitle(
        f"2011 GPU Keccak tree-mode paper, Tables 1 and 2, beside keccakx — {m['cpu_model']}, "
        f"{m['logical_cpus']} CPUs, {d['date'][:10]}, commit {d['commit'][:10]}; GPU: "
        + (gpu["device"] if gpu else "not measured (no GPU lent)"),
        fontsize=11,
    )
    fig.legend(list(legend.values()), list(legend.keys()), loc="upper center", ncol=4, fontsize=8, bbox_to_anchor=(0.5, 0.965))
    fig.tight_layout(rect=(0, 0, 1, 0.92))
    fig.savefig(png, dpi=90)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("result", type=Path, help="bench/results/tree2011-<date>.json")
    ap.add_argument("--gpu", type=Path, help="a GPU run's results.json (run-on-gpu.sh) or keccakx-gpu-bench JSON")
    ap.add_argument("--no-plot", action="store_true", help="write the tables only (no matplotlib needed)")
    a = ap.parse_args()
    try:
        paper = load_paper()
    except (OSError, ValueError, KeyError) as e:
        print(f"plot.py: cannot read the published figures {PAPER_JSON}: {e}", file=sys.stderr)
        return 2
    try:
        d, tree, others = load(a.result)
    except (OSError, ValueError, KeyError) as e:
        print(f"plot.py: cannot read {a.result}: {e}", file=sys.stderr)
        return 2
    gpu = None
    if a.gpu:
        try:
            gpu = load_gpu(a.gpu)
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
            print(f"plot.py: cannot read the GPU run {a.gpu}: {e}", file=sys.stderr)
            return 2
        if not gpu["rows"]:
            print(f"plot.py: {a.gpu} has no tree LI rows (did its treeli section run?)", file=sys.stderr)
            return 2
    md = a.result.with_suffix(".md")
    md.write_text(tables(d, tree, others, paper, gpu))
    written = [md]
    if not a.no_plot:
        png = a.result.with_suffix(".png")
        plot(d, tree, others, paper, gpu, png)
        written.insert(0, png)
    print("plot.py: wrote " + " and ".join(str(w) for w in written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
