import json, glob, statistics as st, sys
cases = [("KT128", 64, 1), ("KT128", 1024, 1), ("KT128", 16384, 1), ("KT128", 1 << 20, 1), ("KT128", 1 << 20, 2),
         ("KT128", 64 << 20, 1), ("KT128", 64 << 20, 2),
         ("batch SHA3-256 (64-B msgs)", 1 << 20, 1), ("batch SHA3-256 (64-B msgs)", 1 << 20, 2),
         ("SHA3-256", 1 << 20, 1), ("SHA3-256", 64, 1)]
def vals(which, key):
    out = {c: [] for c in cases}
    for f in sorted(glob.glob(f"bench/results/engine-contract-ab-2026-11-25/{which}-*.json")):
        d = json.load(open(f))
        for r in d["results"]:
            c = (r["function"], r["size"], r["threads"])
            if r["impl"] in ("keccakx", "keccakx batch") and c in out:
                out[c].append(r[key])
    return out
for key in ("mb_per_s", "wall_mb_per_s"):
    b, a = vals("before", key), vals("after", key)
    print(f"## {key} (median of rounds; 1-thread mb_per_s is CPU time, wall_ is wall time)")
    print("| case | before MB/s | after MB/s | after/before | runs |")
    print("| --- | --- | --- | --- | --- |")
    for c in cases:
        if b[c] and a[c]:
            mb, ma = st.median(b[c]), st.median(a[c])
            print(f"| {c[0]} {c[1]} B {c[2]} thr | {mb:.1f} | {ma:.1f} | {ma/mb:.3f} | {len(b[c])}/{len(a[c])} |")
