"""Plot a bench/cluster JSON: median throughput per scenario (bars, with
every round as a dot) and, where the JSON has them, the CPU seconds per
GiB of each part (keccakx sum; workers; client + scheduler), stacked.
Usage: plot.py RESULT.json [OUT.png]"""

import json
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    src = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else src.with_suffix(".png")
    r = json.loads(src.read_text())
    rows = r["throughput_bytes_per_s"]
    names = list(rows)
    med = [rows[n]["median"] / 1e9 for n in names]
    colors = ["#888888" if n.endswith("keccakx sum") else ("#4477aa" if "1 worker" in n else "#66ccee") for n in names]
    cpu = r.get("cpu_s_per_gib", {})
    if cpu:
        fig, (ax, bx) = plt.subplots(1, 2, figsize=(15, 0.45 * len(names) + 1.8), sharey=True,
                                     gridspec_kw={"width_ratios": [3, 2]})
    else:
        fig, ax = plt.subplots(figsize=(10, 0.45 * len(names) + 1.8))
    y = range(len(names))
    ax.barh(y, med, color=colors)
    for i, n in enumerate(names):
        ax.plot([v / 1e9 for v in rows[n]["rounds"]], [i] * len(rows[n]["rounds"]), "k.", ms=3)
        ratio = r.get("ratio_to_keccakx_sum", {}).get(n)
        ax.text(med[i], i, f" {med[i]:.2f}" + (f" ({ratio:.2f}x)" if ratio else ""), va="center", fontsize=8)
    ax.set_yticks(list(y))
    ax.set_yticklabels(names, fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("GB/s (median of rounds; dots: each round)")
    if cpu:
        left = [0.0] * len(names)
        for who, color in (("keccakx sum", "#888888"), ("workers", "#4477aa"), ("client+scheduler", "#ee6677")):
            vals = [cpu.get(n, {}).get(who, {}).get("median", 0.0) for n in names]
            bx.barh(y, vals, left=left, color=color, label=who)
            left = [a + b for a, b in zip(left, vals)]
        for i, n in enumerate(names):
            ratio = r.get("cpu_ratio_to_keccakx_sum", {}).get(n, {}).get("worker_only")
            if ratio:
                bx.text(left[i], i, f" sum/workers {ratio:.2f}x", va="center", fontsize=8)
        bx.set_xlabel("CPU seconds per GiB (median of rounds)")
        bx.legend(fontsize=8, loc="lower right")
    m = r["machine"]
    ax.set_title(
        f"keccakx.distributed vs keccakx sum, {m['cores']} cores ({m['cpu']}), commit {r['commit']}",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(out)


if __name__ == "__main__":
    main()
