#!/usr/bin/env python3
"""The CPU targets' ratios over several CPU benchmark runs of the same code.

    python3 bench/runs.py bench/results/cpu-A.json bench/results/cpu-B.json ...

A VM shares its host (memory bandwidth, L3, boost clock) with other
machines: one run's ratio was seen to move by 10 % at 64 MiB (bench/NOTES.md,
"Measuring on a shared VM", says on which machine); this prints, per
target, every run's ratio, their median, and whether the median meets it.
The ratios come from bench/plot.py's target_rows (one definition).
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from plot import fmt_ratio, load, met, target_rows  # noqa: E402


def main(paths):
    if not paths or paths[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 2
    reps = [load(p) for p in paths]
    commits = sorted({r["commit"] for r in reps})
    names, per = [], {}
    for rep in reps:
        for t in target_rows(rep):
            if t["name"] not in per:
                names.append(t["name"])
                per[t["name"]] = {"values": [], "rule": t}
            per[t["name"]]["values"].append(t["value"])
    print(f"Target ratios over {len(reps)} runs ({', '.join(os.path.basename(p) for p in paths)}; "
          f"commit {', '.join(commits)}).")
    print()
    print("| target | runs | median | met (median)? |")
    print("| --- | --- | --- | --- |")
    for name in names:
        vals = per[name]["values"]
        med = statistics.median(vals)
        t = per[name]["rule"]
        fmt = (lambda v: f"{v:.3f}") if t.get("fraction") else fmt_ratio
        ideal = f" (ideal {t['ideal']}×)" if t["ideal"] else ""
        verdict = "info" if t["need"] is None else ("yes" if met(med, t["need"], t["strict"]) else "no")
        print(f"| {name} | {' / '.join(fmt(v) for v in vals)} | {fmt(med)}{ideal} | {verdict} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
