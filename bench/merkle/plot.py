#!/usr/bin/env python3
"""Plot and tabulate a Merkle benchmark run (bench/results/merkle-*.json).

    python3 bench/merkle/plot.py bench/results/merkle-2026-11-28.json

writes, next to the JSON:
  <stem>.md   the end-to-end table (median seconds, every round, speed-up over
              the JavaScript library) and the levels against the batch rate
  <stem>.png  the same two views (when matplotlib is installed)
"""
import json
import sys
from pathlib import Path


def level_table(rep):
    lv = rep["levels"]
    lines = [
        f"Inner nodes over {lv['leaves']} leaf hashes (engine {lv['engine']}, {lv['threads']} threads, "
        f"median of {lv['reps']}, alternated): the whole tree (leaves placed, every level) "
        f"{lv['tree_nodes_per_s'] / 1e6:.2f} M nodes/s against the batch engine's "
        f"{lv['batch_64B_msgs_per_s'] / 1e6:.2f} M messages/s of 64 bytes: "
        f"**{100 * rep['tree_vs_batch_rate']:.0f}%**.",
    ]
    if "tree_vs_batch_rate_fresh_memory" in rep:
        lines += [
            "",
            f"Into fresh memory (a new node array against a new batch output, every page first touched): "
            f"{lv['tree_fresh_array_nodes_per_s'] / 1e6:.2f} against {lv['batch_64B_fresh_output_msgs_per_s'] / 1e6:.2f} "
            f"M/s, {100 * rep['tree_vs_batch_rate_fresh_memory']:.0f}%. Per second of CPU time (all threads; "
            f"the machine's load left out): {lv['tree_nodes_per_cpu_s'] / 1e6:.2f} against "
            f"{lv['batch_64B_msgs_per_cpu_s'] / 1e6:.2f} M/s, {100 * rep['tree_vs_batch_rate_per_cpu_s']:.0f}%. "
            f"Fastest run of each: {lv['best_tree_nodes_per_s'] / 1e6:.2f} against "
            f"{lv['best_batch_64B_msgs_per_s'] / 1e6:.2f} M/s.",
        ]
    lines += [
        "",
        "| level (nodes) | M nodes/s | share of the batch rate |",
        "| ---: | ---: | ---: |",
    ]
    for l in lv["levels"]:
        lines.append(f"| {l['nodes']} | {l['nodes_per_s'] / 1e6:.2f} | "
                     f"{100 * l['nodes_per_s'] / lv['batch_64B_msgs_per_s']:.0f}% |")
    return lines


def table(rep):
    if "results" not in rep:
        head = ["# Merkle tree levels against the batch engine", "",
                f"Machine: {rep['machine']['cpu']}, {rep['machine']['cores']} cores; load average before the run "
                f"{', '.join(f'{x:.1f}' for x in rep['machine']['load_before'])}; commit {rep['commit']}; "
                f"`{rep.get('command', '')}`.", ""]
        return "\n".join(head + level_table(rep)) + "\n"
    lines = [
        f"# Merkle trees: {rep['task']}",
        "",
        f"Machine: {rep['machine']['cpu']}, {rep['machine']['cores']} cores; load average before the run "
        f"{', '.join(f'{x:.1f}' for x in rep['machine']['load_before'])}; commit {rep['commit']}; "
        f"{rep['rounds']} rounds, peers alternated (the JavaScript library in the first "
        f"{rep.get('openzeppelin_rounds', rep['rounds'])}); `{rep.get('command', '')}`. "
        f"Dumps and proofs identical to the JavaScript library's: "
        f"{rep.get('dumps_and_proofs_identical_to_openzeppelin')}.",
        "",
        "| implementation | median s | rounds (s) | speed-up vs @openzeppelin/merkle-tree |",
        "| --- | ---: | --- | ---: |",
    ]
    for r in rep["results"]:
        rounds = ", ".join(f"{s:.2f}" for s in r["seconds"])
        lines.append(f"| {r['impl']} | {r['median_s']:.2f} | {rounds} | {r['speedup_vs_openzeppelin']:.1f}× |")
    lines += [""] + level_table(rep)
    return "\n".join(lines) + "\n"


def plot(rep, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if "results" not in rep:
        fig, b = plt.subplots(1, 1, figsize=(6.5, 4.5))
        plot_levels(rep, b)
        fig.tight_layout()
        fig.savefig(out, dpi=110)
        return
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    names = [r["impl"] for r in rep["results"]]
    a.barh(names, [r["median_s"] for r in rep["results"]], color="tab:blue")
    a.set_xscale("log")
    a.set_xlabel("seconds (median, log scale)")
    a.set_title(rep["task"], fontsize=8)
    for i, r in enumerate(rep["results"]):
        a.text(r["median_s"], i, f" {r['median_s']:.2f} s ({r['speedup_vs_openzeppelin']:.0f}×)", va="center", fontsize=8)
    plot_levels(rep, b)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def plot_levels(rep, b):
    lv = rep["levels"]
    xs = [l["nodes"] for l in lv["levels"]]
    b.plot(xs, [l["nodes_per_s"] / 1e6 for l in lv["levels"]], "o-", label="tree level")
    b.axhline(lv["batch_64B_msgs_per_s"] / 1e6, color="k", ls="--", label="batch, 64-byte messages")
    b.axhline(lv["tree_nodes_per_s"] / 1e6, color="tab:red", ls=":", label="whole tree (inner nodes)")
    b.set_xscale("log")
    b.set_xlabel("nodes in the level")
    b.set_ylabel("M nodes/s")
    b.legend(fontsize=8)
    b.set_title(f"levels vs batch engine ({lv['engine']}, {lv['threads']} threads; "
                f"whole tree {100 * rep['tree_vs_batch_rate']:.0f}%)", fontsize=9)


def main():
    path = Path(sys.argv[1])
    rep = json.loads(path.read_text())
    path.with_suffix(".md").write_text(table(rep))
    try:
        plot(rep, path.with_suffix(".png"))
    except ImportError:
        print("plot.py: matplotlib is missing (apt-get install python3-matplotlib); wrote the table only",
              file=sys.stderr)


if __name__ == "__main__":
    main()
