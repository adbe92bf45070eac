#!/usr/bin/env python3
"""Plot GPU runs: the results.json files that .gpu/run-on-gpu.sh leaves in
$OUT (committed as bench/results/gpu-<device>-<date>-runN.json).

    python3 bench/gpu/plot.py OUT.png RUN.json [EARLIER_RUN.json ...]

Four panels, every figure read from the JSON files given (the first is the
run plotted; the others add the 24-round permutation rate of earlier runs
to the first panel, to show what each change did):
  1. Keccak-f[1600]/s of every permutation kernel against the ALU bound;
  2. SHA3-256 batches: device-resident, host-fed (a slice per message and
     one strided buffer) and the CPU engine on all cores, GB/s, with the
     H2D copy bandwidth of the same run;
  3. KT128/KT256/ParallelHash128/256 against size: device-resident,
     host-fed, CPU;
  4. one warp per message against one thread per message, by batch size.
"""
import json
import sys


def load(path):
    r = json.load(open(path))
    return r.get("bench", r)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out, paths = sys.argv[1], sys.argv[2:]
    runs = [(p, load(p)) for p in paths]
    b = runs[0][1]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(2, 2, figsize=(15, 10))
    dev = b["device"]["name"]
    commit = str(b.get("commit", ""))[:12]

    # 1. permutations
    a = ax[0][0]
    perms = [p for p in b["permutations"] if "perms_per_s" in p]
    names = [p["kernel"] for p in perms]
    rates = [p["perms_per_s"] / 1e9 for p in perms]
    a.barh(names, rates, color="tab:blue")
    bound = b["alu_bound"]["keccak_f1600_per_s"] / 1e9
    a.axvline(bound, color="k", ls="--", label=f"ALU bound, 24 rounds ({bound:.2f} G)")
    a.axvline(2 * bound, color="gray", ls=":", label=f"ALU bound, 12 rounds ({2 * bound:.2f} G)")
    for i, r in enumerate(rates):
        a.text(r, i, f" {r:.2f}", va="center", fontsize=8)
    hist = []
    for p, r in runs[1:]:
        f = [x for x in r.get("permutations", []) if x.get("kernel") == "Fast24" and "perms_per_s" in x]
        if f:
            hist.append(f"{p.split('/')[-1]}: {f[0]['perms_per_s'] / 1e9:.2f} G")
    a.set_title("Keccak-f[1600]/s by kernel", fontsize=9)
    if hist:
        a.text(0.02, 0.02, "Fast24 in earlier runs:\n" + "\n".join(hist), transform=a.transAxes, fontsize=7,
               va="bottom", bbox=dict(facecolor="white", alpha=0.8))
    a.set_xlabel("G permutations / s")
    a.legend(fontsize=8, loc="lower right")

    # 2. batches
    a = ax[0][1]
    rows = [x for x in b["sha3_256_batches"] if "device_resident" in x]
    labels = [f"{x['message_bytes']} B x {x['messages']}" for x in rows]
    auto = [next(d for d in x["device_resident"] if d["kernel"] == "Auto")["bytes_per_s"] / 1e9 for x in rows]
    fed = {}
    for x in rows:
        for h in x["host_fed"]:
            fed.setdefault(h["input"], []).append(h["bytes_per_s"] / 1e9)
    cpu = [x["cpu"]["bytes_per_s"] / 1e9 for x in rows]
    series = [("device-resident (Auto)", auto)] + [(f"host-fed, {k}", v) for k, v in fed.items()] + [(f"CPU, {b['cpu']['engine']} x{b['cpu']['threads']}", cpu)]
    w = 0.8 / len(series)
    for k, (name, vals) in enumerate(series):
        xs = [i + k * w for i in range(len(rows))]
        a.bar(xs, vals, w, label=name)
    a.axhline(b["copy"]["h2d_bytes_per_s"] / 1e9, color="k", ls="--", label="H2D copy (pinned)")
    a.set_yscale("log")
    a.set_ylim(top=max(auto) * 8)
    a.set_xticks([i + 0.4 - w / 2 for i in range(len(rows))])
    a.set_xticklabels(labels, fontsize=8)
    a.set_ylabel("GB/s (log)")
    a.set_title("SHA3-256 batches", fontsize=9)
    a.legend(fontsize=7, ncol=2, loc="upper left")

    # 3. tree modes
    a = ax[1][0]
    modes = {}
    for t in b.get("tree_modes", []):
        if "device_resident_bytes_per_s" in t:
            modes.setdefault(t["mode"], []).append(t)
    for i, (m, ts) in enumerate(modes.items()):
        xs = [t["bytes"] for t in ts]
        c = f"C{i}"
        a.plot(xs, [t["device_resident_bytes_per_s"] / 1e9 for t in ts], "-o", color=c, label=f"{m} device-resident")
        a.plot(xs, [t["host_fed_bytes_per_s"] / 1e9 for t in ts], "--s", color=c, label=f"{m} host-fed", alpha=0.7)
        a.plot(xs, [t["cpu_bytes_per_s"] / 1e9 for t in ts], ":^", color=c, label=f"{m} CPU", alpha=0.7)
    a.set_xscale("log", base=2)
    a.set_yscale("log")
    a.set_xlabel("bytes")
    a.set_ylabel("GB/s (log)")
    a.set_title("Tree modes (B = 8 KiB for ParallelHash)", fontsize=9)
    a.legend(fontsize=6, ncol=2)

    # 4. warp crossover
    a = ax[1][1]
    wc = b.get("warp_crossover", {})
    rows = wc.get("rows", []) if isinstance(wc, dict) else []
    if rows:
        by = {}
        for r in rows:
            if "kernel_s" in r:
                by.setdefault(r["kernel"], []).append((r["messages"], r["kernel_s"] * 1e3))
        for k, pts in by.items():
            a.plot([p[0] for p in pts], [p[1] for p in pts], "-o", label=k)
        if "auto_threshold_messages" in wc:
            a.axvline(wc["auto_threshold_messages"], color="gray", ls=":", label="Auto's threshold")
        a.set_xscale("log", base=2)
        a.set_yscale("log")
        a.set_xlabel("64 KiB messages in the batch")
        a.set_ylabel("kernel ms (log)")
        a.legend(fontsize=8)
    a.set_title("One warp per message against one thread per message (SHA3-256, 64 KiB, device-resident)", fontsize=9)

    fig.suptitle(f"keccakx on an {dev} (commit {commit}); figures from {runs[0][0]}", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"plot.py: wrote {out}")


if __name__ == "__main__":
    main()
