#!/usr/bin/env python3
"""Outboard benchmarks (docs/outboard.md), all on one cached file:

  1. `keccakx sum -a kt128 --outboard` against plain `keccakx sum -a kt128`
     (alternated, medians, ratio);
  2. `keccakx verify --range` of 1 MiB in the middle against re-hashing the
     whole file: time (medians) and bytes read (read/pread calls counted by
     strace in separate runs, so tracing does not skew the times);
  3. the outboard check alone (`verify` of one chunk) and its extrapolation
     per TiB (linear in the number of chaining values);
  4. resume: time lost per SIGKILL (kill at a random moment, `--resume`;
     lost = time before the kill + resume time - uninterrupted time).

    python3 bench/outboard.py --size-mib 1024 --reps 5 --kills 5 \
        --out bench/results/outboard-DATE.json

writes the JSON, and a PNG and a Markdown table beside it.
"""
import argparse
import json
import os
import platform
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timed(cmd, cwd):
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"{cmd}: exit {p.returncode}: {p.stderr.decode()}")
    return dt, p.stdout.decode()


def bytes_read(cmd, cwd):
    """Bytes returned by read/pread64/readv calls of `cmd` (strace), and
    the files' bytes mapped, if any."""
    if not shutil.which("strace"):
        return None
    with tempfile.NamedTemporaryFile(suffix=".strace") as log:
        subprocess.run(["strace", "-f", "-e", "trace=read,pread64,readv,preadv,mmap", "-o", log.name] + cmd,
                       cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        total = 0
        for line in open(log.name, errors="replace"):
            m = re.search(r"^\d*\s*(read|pread64|readv|preadv)\(.*\)\s*=\s*(\d+)", line)
            if m:
                total += int(m.group(2))
                continue
            # A file mapped for reading counts whole (a plain `sum` maps).
            m = re.search(r"mmap\(NULL, (\d+), PROT_READ, MAP_SHARED[A-Z_|]*, (\d+)", line)
            if m:
                total += int(m.group(1))
        return total


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mib", type=int, default=1024)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/keccakx"))
    ap.add_argument("--dir", default=None, help="where the test file goes (default: a temporary folder)")
    ap.add_argument("--old-bin", default=None,
                    help="another keccakx (before a change): its --outboard runs alternate with the others")
    ap.add_argument("--overhead-only", action="store_true",
                    help="measure only --outboard against plain sum (and --old-bin)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    d = a.dir or tempfile.mkdtemp(prefix="kx-outboard-")
    f = os.path.join(d, "big.bin")
    size = a.size_mib << 20
    if not os.path.exists(f) or os.path.getsize(f) != size:
        with open(f, "wb") as w:
            block = os.urandom(1 << 20)
            for i in range(a.size_mib):
                w.write(block[i % 251:] + block[: i % 251])
    k = a.bin
    plain = [k, "sum", "-a", "kt128", "--no-progress", f]
    ob = [k, "sum", "-a", "kt128", "--no-progress", "--outboard", f + ".kto", f]
    timed(plain, d)  # warm the cache
    runs = [("plain", plain), ("outboard", ob)]
    if a.old_bin:
        runs.append(("outboard_old_bin", [a.old_bin] + ob[1:]))
    res = {name: [] for name, _ in runs}
    for _ in range(a.reps):
        for name, cmd in runs:
            res[name].append(timed(cmd, d)[0])
    if a.overhead_only:
        med = {n: statistics.median(v) for n, v in res.items()}
        report = {
            "benchmark": "outboard-overhead",
            "date": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
            "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                        "load_before": os.getloadavg()},
            "command": " ".join(sys.argv),
            "file_bytes": size,
            "cached": True,
            "times_s": res,
            "median_s": med,
            "min_s": {n: min(v) for n, v in res.items()},
            "outboard_overhead": med["outboard"] / med["plain"] - 1,
            "old_bin_overhead": med["outboard_old_bin"] / med["plain"] - 1 if a.old_bin else None,
        }
        with open(a.out, "w") as w:
            json.dump(report, w, indent=1)
        print(json.dumps({x: report[x] for x in ("median_s", "min_s", "outboard_overhead", "old_bin_overhead")}, indent=1))
        return
    _, line = timed(ob, d)
    digest = line.split()[0]
    mid = size // 2
    rng = f"{mid}..{mid + (1 << 20)}"
    ver = [k, "verify", "--digest", digest, "--range", rng, f]
    one = [k, "verify", "--digest", digest, "--range", "0..1", f]
    res["verify_1mib"], res["rehash"], res["check_only"] = [], [], []
    for _ in range(a.reps):
        res["verify_1mib"].append(timed(ver, d)[0])
        res["rehash"].append(timed(plain, d)[0])
        res["check_only"].append(timed(one, d)[0])
    reads = {
        "verify_1mib": bytes_read(ver, d),
        "rehash": bytes_read(plain, d),
        "check_only": bytes_read(one, d),
    }
    # Resume: kill at a random moment, resume, compare with one run.
    full = statistics.median(res["outboard"])
    lost = []
    rnd = random.Random(1)
    for _ in range(a.kills):
        os.remove(f + ".kto")
        t0 = time.perf_counter()
        p = subprocess.Popen(ob, cwd=d, stdout=subprocess.DEVNULL)
        time.sleep(rnd.uniform(0.2, 0.8) * full)
        p.kill()
        p.wait()
        t_before = time.perf_counter() - t0
        t_resume, line = timed(ob + ["--resume"], d)
        if line.split()[0] != digest:
            sys.exit("resumed digest differs")
        lost.append(t_before + t_resume - full)
    med = {n: statistics.median(v) for n, v in res.items()}
    kto = os.path.getsize(f + ".kto")
    report = {
        "benchmark": "outboard",
        "date": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "load_before": os.getloadavg()},
        "command": " ".join(sys.argv),
        "file_bytes": size,
        "outboard_bytes": kto,
        "checkpoint_bytes": 64 << 20,
        "times_s": res,
        "median_s": med,
        "outboard_overhead": med["outboard"] / med["plain"] - 1,
        "verify_1mib_speedup": med["rehash"] / med["verify_1mib"],
        "bytes_read": reads,
        "check_only_per_tib_s": med["check_only"] * (1 << 40) / size,
        "resume_lost_s": lost,
        "resume_lost_median_s": statistics.median(lost) if lost else None,
    }
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as w:
        json.dump(report, w, indent=1)
    stem = os.path.splitext(a.out)[0]
    write_md(report, stem + ".md")
    plot(report, stem + ".png")
    print(json.dumps({x: report[x] for x in ("median_s", "outboard_overhead", "verify_1mib_speedup",
                                              "bytes_read", "check_only_per_tib_s", "resume_lost_median_s")}, indent=1))


def write_md(r, path):
    m = r["median_s"]
    b = r["bytes_read"]
    mib = r["file_bytes"] >> 20
    rows = [
        f"# Outboard benchmark ({r['date']} UTC, {mib} MiB file, cached)",
        "",
        f"Command: `{r['command']}`; machine: {r['machine']['cores']} cores, load before {r['machine']['load_before'][0]:.1f}.",
        "",
        "| measurement | median s | bytes read |",
        "| --- | --- | --- |",
        f"| `sum -a kt128` | {m['plain']:.3f} | |",
        f"| `sum -a kt128 --outboard` | {m['outboard']:.3f} | |",
        f"| `verify --range` 1 MiB | {m['verify_1mib']:.4f} | {b['verify_1mib']} |",
        f"| re-hash the whole file | {m['rehash']:.3f} | {b['rehash']} |",
        f"| outboard check alone (+1 chunk) | {m['check_only']:.4f} | {b['check_only']} |",
        "",
        f"- `--outboard` overhead: {100 * r['outboard_overhead']:.1f}% (outboard {r['outboard_bytes']} bytes)",
        f"- 1 MiB verified {r['verify_1mib_speedup']:.0f}x faster than re-hashing",
        f"- outboard check alone, extrapolated: {r['check_only_per_tib_s']:.1f} s per TiB of data",
        f"- time lost per kill (median of {len(r['resume_lost_s'])}): {r['resume_lost_median_s']:.3f} s",
    ]
    with open(path, "w") as w:
        w.write("\n".join(rows) + "\n")


def plot(r, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("outboard.py: matplotlib is missing; no plot", file=sys.stderr)
        return
    m = r["median_s"]
    names = ["sum", "sum --outboard", "re-hash", "verify 1 MiB", "check alone"]
    vals = [m["plain"], m["outboard"], m["rehash"], m["verify_1mib"], m["check_only"]]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.barh(names, vals)
    ax.set_xscale("log")
    ax.set_xlabel("seconds (median, log scale)")
    ax.set_title(f"KT128 outboards, {r['file_bytes'] >> 20} MiB cached file")
    for i, v in enumerate(vals):
        ax.text(v, i, f" {v:.3g}", va="center")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
