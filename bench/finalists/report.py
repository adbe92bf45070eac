#!/usr/bin/env python3
"""Post-processes the finalists benchmark (issue 7).

  report.py RESULT.json BINARY PLOT.png

Adds machine code sizes (from `nm --size-sort` on the benchmark binary, built
with v0 symbol mangling so that generic instances are told apart), the machine
and commit, and draws the plot from the JSON. Prints Markdown tables.
"""
import json, os, platform, re, subprocess, sys

res_path, binary, plot_path = sys.argv[1], sys.argv[2], sys.argv[3]
res = json.load(open(res_path))

# (table row, variant) -> regexes over demangled symbol names (text symbols)
CODE = {
    ("MD5", "maintained (md-5 0.11)"): [r"^md5::compress::compress$"],
    ("SHA-1", "maintained (sha1 0.11)"): [r"^sha1::compress::x86_sha::compress$"],
    ("SHA-256", "maintained (sha2 0.11)"): [r"^sha2::sha256::x86_sha::compress$"],
    ("Keccak-256", "maintained (sha3 0.12)"): [r"^keccak::backends::soft::keccak_p"],
    ("BLAKE-256", "sequential"): [r"^finalists::blake::portable::compress32$"],
    ("BLAKE-256", "parallel"): [r"^finalists::blake::x86::compress32_avx512_inner$"],
    ("BLAKE-256", "two-threads"): [r"^finalists::twothread::blake_compress32"],
    ("Grøstl-256", "sequential"): [r"^finalists::groestl::portable::(compress|perm_p|perm_q)::<8"],
    ("Grøstl-256", "parallel"): [r"^finalists::groestl::x86::(compress_inner|perm_p_inner)::<8"],
    ("Grøstl-256", "two-threads"): [r"^finalists::twothread::groestl_compress::<8", r"^finalists::groestl::portable::(perm_p|perm_q)::<8"],
    ("JH-256", "sequential"): [r"^finalists::jh::portable::compress$"],
    ("JH-256", "parallel"): [r"^finalists::jh::x86::compress_avx512_inner$"],
    ("JH-256", "two-threads"): [r"^finalists::twothread::jh_compress"],
    ("Skein-512-256", "sequential"): [r"^finalists::skein::portable::ubi::<8"],
    ("Skein-512-256", "parallel"): [r"^finalists::skein::x86::tf512_avx512$", r"^finalists::skein::x86::ubi_generic::<8, 1"],
    ("Skein-512-256", "two-threads"): [r"^finalists::twothread::skein_ubi::<8"],
    ("BLAKE-256", "maintained (blake-hash 0.4)"): [r"^<blake_hash::Compressor256>::put_block::put_block::impl_avx2$"],
    ("Grøstl-256", "maintained (groestl 0.11)"): [r"^groestl::compress_short::(compress|p|q)$"],
    ("JH-256", "maintained (jh 0.2)"): [r"^finalists_bench::d11::<jh::Jh256>::\{closure"],
    ("Skein-512-256", "maintained (skein 0.2)"): [r"^<skein::block_api::Skein512Core<.*>>::process_block"],
}
# Notes on what a size covers, where it is not just the compression function.
NOTE = {
    ("JH-256", "maintained (jh 0.2)"): "whole hash (compression inlined into it)",
    ("Skein-512-256", "sequential"): "UBI block incl. Threefish",
    ("Skein-512-256", "parallel"): "Threefish + UBI wrapper",
    ("SHA-1", "maintained (sha1 0.11)"): "SHA-NI compression",
    ("SHA-256", "maintained (sha2 0.11)"): "SHA-NI compression",
}
DATA = {  # lookup tables (read-only data) used by an implementation
    ("Grøstl-256", "sequential"): [r"^finalists::groestl::portable::T$"],
    ("Grøstl-256", "two-threads"): [r"^finalists::groestl::portable::T$"],
    ("BLAKE-256", "parallel"): [r"^finalists::blake::x86::CT32$"],
}

syms = []
try:
    out = subprocess.run(["nm", "--size-sort", "-C", "-t", "d", binary], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3:
            syms.append((int(parts[0]), parts[1], parts[2]))
except (OSError, subprocess.CalledProcessError) as e:
    print(f"warning: nm failed ({e}); code sizes left out", file=sys.stderr)

def size_of(patterns, kinds):
    total, names = 0, []
    for size, kind, name in syms:
        if kind in kinds and any(re.search(p, name) for p in patterns):
            total += size
            names.append(name)
    return total, sorted(set(names))

for r in res["results"]:
    key = (r["algorithm"], r["variant"])
    if key in CODE:
        r["code_bytes"], r["code_symbols"] = size_of(CODE[key], "tT")
        if key in NOTE:
            r["code_note"] = NOTE[key]
    if key in DATA:
        r["table_bytes"], _ = size_of(DATA[key], "rRdD")

def sh(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"

cpu = "unknown"
if os.path.exists("/proc/cpuinfo"):
    for line in open("/proc/cpuinfo"):
        if line.startswith("model name"):
            cpu = line.split(":", 1)[1].strip()
            break
res["machine"] = {"cpu": cpu, "cores": os.cpu_count(), "os": platform.platform(),
                  "rustc": sh(["rustc", "--version"])}
res["commit"] = sh(["git", "rev-parse", "HEAD"])
json.dump(res, open(res_path, "w"), indent=2, ensure_ascii=False)

# ---- Markdown tables
sizes = [str(s) for s in res["sizes"]]
rows = {(r["algorithm"], r["variant"]): r for r in res["results"]}
print("| algorithm | variant | backend | " + " | ".join(f"{s} B" for s in sizes) + " | long c/B | code B |")
print("|---|---|---|" + "---|" * (len(sizes) + 2))
for r in res["results"]:
    cyc = " | ".join(str(r["cycles"][s]) for s in sizes)
    code = r.get("code_bytes") or "n/a"
    if r.get("table_bytes"):
        code = f"{code} (+{r['table_bytes']} table)"
    print(f"| {r['algorithm']} | {r['variant']} | {r['backend']} | {cyc} | {r['long_message_cycles_per_byte']:.2f} | {code} |")
print()
print("| algorithm | " + " | ".join(f"{s} B" for s in sizes) + " | long |")
print("|---|" + "---|" * (len(sizes) + 1))
for alg in ["BLAKE-256", "Grøstl-256", "JH-256", "Skein-512-256"]:
    s, p = rows.get((alg, "sequential")), rows.get((alg, "parallel"))
    if not s or not p:
        continue
    imp = [f"{100.0 * (s['cycles'][n] - p['cycles'][n]) / s['cycles'][n]:+.0f}%" for n in sizes]
    lm = 100.0 * (s["long_message_cycles_per_byte"] - p["long_message_cycles_per_byte"]) / s["long_message_cycles_per_byte"]
    print(f"| {alg} (parallel vs sequential) | " + " | ".join(imp) + f" | {lm:+.0f}% |")
    t = rows.get((alg, "two-threads"))
    if t:
        imp = [f"{100.0 * (s['cycles'][n] - t['cycles'][n]) / s['cycles'][n]:+.0f}%" for n in sizes]
        print(f"| {alg} (two threads vs sequential) | " + " | ".join(imp) + " | |")

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
labels, vals, colors = [], [], []
palette = {"sequential": "#4477aa", "parallel": "#ee6677", "two-threads": "#999999"}
for r in res["results"]:
    if r["variant"] == "two-threads":
        continue
    labels.append(f"{r['algorithm']}\n{r['variant']}")
    vals.append(r["cycles"]["1024"])
    colors.append(palette.get(r["variant"], "#228833"))
ax.barh(range(len(vals)), vals, color=colors)
ax.set_yticks(range(len(vals)))
ax.set_yticklabels(labels, fontsize=6)
ax.invert_yaxis()
ax.set_xlabel("TSC ticks for one 1024-byte message (median)")
ax.set_title("1024-byte messages: ours sequential (blue), parallel SIMD (red), peers (green)", fontsize=8)
ax = axes[1]
for alg, mk in [("BLAKE-256", "o"), ("Grøstl-256", "s"), ("JH-256", "^"), ("Skein-512-256", "D")]:
    for var in ["sequential", "parallel", "two-threads"]:
        r = rows.get((alg, var))
        if r:
            ax.plot([int(s) for s in sizes], [r["cycles"][s] for s in sizes], marker=mk,
                    color=palette[var], label=f"{alg} {var}", alpha=0.85)
ax.set_yscale("log")
ax.set_xlabel("message length (bytes)")
ax.set_ylabel("TSC ticks (median, log scale)")
ax.set_title("The study's message lengths: sequential vs SIMD vs two threads", fontsize=8)
ax.legend(fontsize=5, ncol=2)
fig.suptitle(f"SHA-3 finalists re-measured on {cpu} (commit {res['commit'][:10]})", fontsize=9)
fig.tight_layout()
fig.savefig(plot_path, dpi=130)
print(f"plot: {plot_path}", file=sys.stderr)
