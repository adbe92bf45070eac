# Medians of the before/after rounds (run.sh) as Markdown tables; run from
# the repository root: python3 bench/results/engine-contract-ab-2026-11-25/table.py [ROUNDS]
# ROUNDS: comma-separated round numbers (default: every round found).
import json
import glob
import re
import statistics as st
import sys
DIR = "bench/results/engine-contract-ab-2026-11-25"
cases = [("KT128", 64, 1), ("KT128", 1024, 1), ("KT128", 16384, 1), ("KT128", 1 << 20, 1), ("KT128", 1 << 20, 2),
         ("KT128", 64 << 20, 1), ("KT128", 64 << 20, 2),
         ("batch SHA3-256 (64-B msgs)", 1 << 20, 1), ("batch SHA3-256 (64-B msgs)", 1 << 20, 2),
         ("SHA3-256", 1 << 20, 1), ("SHA3-256", 64, 1)]
rounds = set(int(r) for r in sys.argv[1].split(",")) if len(sys.argv) > 1 else None
OURS = ("keccakx", "keccakx batch")


def files(which):
    for f in sorted(glob.glob(f"{DIR}/{which}-*.json")):
        r = int(re.search(r"-(\d+)\.json$", f).group(1))
        if rounds is None or r in rounds:
            yield json.load(open(f))


def vals(which, key):
    out = {c: [] for c in cases}
    for d in files(which):
        for r in d["results"]:
            c = (r["function"], r["size"], r["threads"])
            if r["impl"] in OURS and c in out:
                out[c].append(r[key])
    return out


def calls(which):
    """The benchmark's alternated scaling rounds: every 2-thread call time."""
    out = {}
    for d in files(which):
        for s in d.get("scaling", []):
            if s["impl"] in OURS:
                out.setdefault((s["function"], s["size"], s["threads"]), []).extend(s["all_ns"])
    return out


which = "every round" if rounds is None else "rounds " + ",".join(map(str, sorted(rounds)))
for key in ("mb_per_s", "wall_mb_per_s"):
    b, a = vals("before", key), vals("after", key)
    print(f"## {key}, {which} (median of rounds; 1-thread mb_per_s is CPU time, wall_ is wall time)")
    print("| case | before MB/s | after MB/s | after/before | runs |")
    print("| --- | --- | --- | --- | --- |")
    for c in cases:
        if b[c] and a[c]:
            mb, ma = st.median(b[c]), st.median(a[c])
            print(f"| {c[0]} {c[1]} B {c[2]} thr | {mb:.1f} | {ma:.1f} | {ma/mb:.3f} | {len(b[c])}/{len(a[c])} |")
b, a = calls("before"), calls("after")
print(f"## 2-thread calls in the alternated scaling rounds, {which} (median call time)")
print("| case | before | after | speed after/before | calls |")
print("| --- | --- | --- | --- | --- |")
for c in sorted(set(b) & set(a)):
    mb, ma = st.median(b[c]), st.median(a[c])
    unit, div = ("ms", 1e6) if mb > 1e7 else ("µs", 1e3)
    print(f"| {c[0]} {c[1]} B {c[2]} thr | {mb/div:.1f} {unit} | {ma/div:.1f} {unit} | {mb/ma:.3f} | {len(b[c])}/{len(a[c])} |")
