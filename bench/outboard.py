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
import resource
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


CPU = {}  # measurement name -> CPU seconds (user + system) of each run


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd, cwd, name=None):
    """Wall seconds and stdout of `cmd`; its CPU seconds (all threads)
    go to CPU[name]: on a shared machine the wall time follows the load,
    the CPU time much less."""
    c = children_cpu()
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"{cmd}: exit {p.returncode}: {p.stderr.decode()}")
    if name:
        CPU.setdefault(name, []).append(children_cpu() - c)
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


def make_file(path, mib):
    with open(path, "wb") as w:
        block = os.urandom(1 << 20)
        for i in range(mib):
            w.write(block[i % 251:] + block[: i % 251])


def page_cached(path):
    """The fraction of `path`'s pages in the page cache (util-linux
    fincore), or None without it."""
    if not shutil.which("fincore"):
        return None
    p = subprocess.run(["fincore", "-b", "-n", "-o", "RES,SIZE", path], capture_output=True, text=True)
    try:
        res, size = (int(x) for x in p.stdout.split()[:2])
        return res / size if size else 1.0
    except ValueError:
        return None


def evict(path):
    """Drop `path`'s clean pages from the page cache."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fdatasync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size-mib", type=int, default=1024)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--kills", type=int, default=5)
    ap.add_argument("--bin", default=os.path.join(ROOT, "target/release/keccakx"))
    ap.add_argument("--dir", default=None, help="where the test file goes (default: a temporary folder)")
    ap.add_argument("--old-bin", default=None,
                    help="another keccakx (before a change): its --outboard runs alternate with the others")
    ap.add_argument("--big-gib", type=int, default=0,
                    help="verify against a file of this many GiB (made, then deleted unless --keep)")
    ap.add_argument("--big-reps", type=int, default=3)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--cold", action="store_true",
                    help="also verify and re-hash with the file dropped from the page cache first")
    ap.add_argument("--checkpoint-mib", type=int, default=64)
    ap.add_argument("--overhead-only", action="store_true",
                    help="measure only --outboard against plain sum (and --old-bin)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    load_before = os.getloadavg()
    d = a.dir or tempfile.mkdtemp(prefix="kx-outboard-")
    f = os.path.join(d, "big.bin")
    size = a.size_mib << 20
    if not os.path.exists(f) or os.path.getsize(f) != size:
        make_file(f, a.size_mib)
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
            res[name].append(timed(cmd, d, name)[0])
    if a.overhead_only:
        med = {n: statistics.median(v) for n, v in res.items()}
        report = {
            "benchmark": "outboard-overhead",
            "date": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
            "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                        "load_before": load_before, "load_after": os.getloadavg()},
            "command": " ".join(sys.argv),
            "file_bytes": size,
            "cached": True,
            "times_s": res,
            "median_s": med,
            "min_s": {n: min(v) for n, v in res.items()},
            "median_cpu_s": {n: statistics.median(v) for n, v in CPU.items()},
            "outboard_overhead": med["outboard"] / med["plain"] - 1,
            "old_bin_overhead": med["outboard_old_bin"] / med["plain"] - 1 if a.old_bin else None,
        }
        with open(a.out, "w") as w:
            json.dump(report, w, indent=1)
        print(json.dumps({x: report[x] for x in ("median_s", "min_s", "outboard_overhead", "old_bin_overhead")}, indent=1))
        return
    _, line = timed(ob, d)
    digest = line.split()[0]
    # Verifying: on the big file when asked for (--big-gib), else this one.
    vf, vsize, vdigest, cached = f, size, digest, None
    if a.big_gib:
        vf = os.path.join(d, "huge.bin")
        vsize = a.big_gib << 30
        if not os.path.exists(vf) or os.path.getsize(vf) != vsize:
            make_file(vf, vsize >> 20)
        _, vline = timed([k, "sum", "-a", "kt128", "--no-progress", "--outboard", vf + ".kto", vf], d)
        vdigest = vline.split()[0]
    rehash = [k, "sum", "-a", "kt128", "--no-progress", vf]
    mid = vsize // 2
    rng = f"{mid}..{mid + (1 << 20)}"
    ver = [k, "verify", "--digest", vdigest, "--outboard", vf + ".kto", "--range", rng, vf]
    one = [k, "verify", "--digest", vdigest, "--outboard", vf + ".kto", "--range", "0..1", vf]
    res["verify_1mib"], res["rehash"], res["check_only"] = [], [], []
    cached = {"before": page_cached(vf)}
    for _ in range(a.big_reps if a.big_gib else a.reps):
        res["verify_1mib"].append(timed(ver, d, "verify_1mib")[0])
        res["rehash"].append(timed(rehash, d, "rehash")[0])
        res["check_only"].append(timed(one, d, "check_only")[0])
    cached["after"] = page_cached(vf)
    if a.cold:
        # The same from disk: the file's and the outboard's pages dropped
        # from the page cache before every run.
        res["verify_1mib_cold"], res["rehash_cold"] = [], []
        for _ in range(a.big_reps if a.big_gib else a.reps):
            evict(vf), evict(vf + ".kto")
            res["verify_1mib_cold"].append(timed(ver, d, "verify_1mib_cold")[0])
            evict(vf), evict(vf + ".kto")
            cached["cold_before_rehash"] = page_cached(vf)
            res["rehash_cold"].append(timed(rehash, d, "rehash_cold")[0])
    reads = {
        "verify_1mib": bytes_read(ver, d),
        "rehash": bytes_read(rehash, d),
        "check_only": bytes_read(one, d),
    }
    if a.big_gib and not a.keep:
        os.remove(vf)
        os.remove(vf + ".kto")
    # Resume: kill at a random moment, resume, compare with one run.
    ckpt = ["--checkpoint", str(a.checkpoint_mib << 20)]
    full = statistics.median(res["outboard"])
    full_cpu = statistics.median(CPU["outboard"])
    lost, lost_cpu = [], []
    rnd = random.Random(1)
    for _ in range(a.kills):
        os.remove(f + ".kto")
        c0 = children_cpu()
        t0 = time.perf_counter()
        p = subprocess.Popen(ob + ckpt, cwd=d, stdout=subprocess.DEVNULL)
        time.sleep(rnd.uniform(0.2, 0.8) * full)
        p.kill()
        p.wait()
        t_before = time.perf_counter() - t0
        cpu_before = children_cpu() - c0
        t_resume, line = timed(ob + ckpt + ["--resume"], d, "resume")
        if line.split()[0] != digest:
            sys.exit("resumed digest differs")
        lost.append(t_before + t_resume - full)
        lost_cpu.append(cpu_before + CPU["resume"][-1] - full_cpu)
    med = {n: statistics.median(v) for n, v in res.items()}
    kto = os.path.getsize(f + ".kto")
    report = {
        "benchmark": "outboard",
        "date": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime()),
        "machine": {"cpu": platform.processor() or platform.machine(), "cores": os.cpu_count(),
                    "load_before": load_before, "load_after": os.getloadavg()},
        "command": " ".join(sys.argv),
        "file_bytes": size,
        "verify_file_bytes": vsize,
        "verify_file_page_cached": cached,
        "outboard_bytes": kto,
        "checkpoint_bytes": a.checkpoint_mib << 20,
        "times_s": res,
        "median_s": med,
        "outboard_overhead": med["outboard"] / med["plain"] - 1,
        "verify_1mib_speedup": med["rehash"] / med["verify_1mib"],
        "bytes_read": reads,
        "check_only_per_tib_s": med["check_only"] * (1 << 40) / vsize,
        "old_bin_overhead": med["outboard_old_bin"] / med["plain"] - 1 if a.old_bin else None,
        "resume_lost_s": lost,
        "resume_lost_median_s": statistics.median(lost) if lost else None,
        "cpu_s": CPU,
        "median_cpu_s": {n: statistics.median(v) for n, v in CPU.items()},
        "verify_1mib_cpu_ratio": statistics.median(CPU["rehash"]) / statistics.median(CPU["verify_1mib"]),
        "verify_1mib_cold_speedup": (statistics.median(res["rehash_cold"]) / statistics.median(res["verify_1mib_cold"])
                                     if a.cold else None),
        "resume_lost_cpu_s": lost_cpu,
        "resume_lost_cpu_median_s": statistics.median(lost_cpu) if lost_cpu else None,
    }
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as w:
        json.dump(report, w, indent=1)
    stem = os.path.splitext(a.out)[0]
    write_md(report, stem + ".md")
    plot(report, stem + ".png")
    print(json.dumps({x: report[x] for x in ("median_s", "median_cpu_s", "outboard_overhead", "verify_1mib_speedup",
                                              "verify_1mib_cold_speedup", "verify_file_page_cached",
                                              "verify_1mib_cpu_ratio", "bytes_read", "check_only_per_tib_s",
                                              "resume_lost_median_s", "resume_lost_cpu_median_s")}, indent=1))


def write_md(r, path):
    m = r["median_s"]
    b = r["bytes_read"]
    mib = r["file_bytes"] >> 20
    vmib = r["verify_file_bytes"] >> 20
    rows = [
        f"# Outboard benchmark ({r['date']} UTC, {mib} MiB file, cached)",
        "",
        f"Command: `{r['command']}`; machine: {r['machine']['cores']} cores, load before {r['machine']['load_before'][0]:.1f}.",
        "",
        "| measurement | median s | bytes read |",
        "| --- | --- | --- |",
        f"| `sum -a kt128` | {m['plain']:.3f} | |",
        f"| `sum -a kt128 --outboard` | {m['outboard']:.3f} | |",
        f"| `verify --range` 1 MiB of the {vmib} MiB file | {m['verify_1mib']:.4f} | {b['verify_1mib']} |",
        f"| re-hash the whole {vmib} MiB file | {m['rehash']:.3f} | {b['rehash']} |",
        f"| outboard check alone (+1 chunk), {vmib} MiB file | {m['check_only']:.4f} | {b['check_only']} |",
        "",
        f"- {vmib} MiB file in the page cache (fincore): {r['verify_file_page_cached']}",
        *([f"- from disk (dropped from the page cache before each run): verify 1 MiB {m['verify_1mib_cold']:.3f} s, "
           f"re-hash {m['rehash_cold']:.2f} s: {r['verify_1mib_cold_speedup']:.0f}x"] if r.get("verify_1mib_cold_speedup") else []),
        f"- `--outboard` overhead: {100 * r['outboard_overhead']:.1f}% (outboard {r['outboard_bytes']} bytes)"
        + (f"; the --old-bin's: {100 * r['old_bin_overhead']:.1f}%" if r.get("old_bin_overhead") is not None else ""),
        f"- 1 MiB verified {r['verify_1mib_speedup']:.0f}x faster than re-hashing (wall); "
        f"{r['verify_1mib_cpu_ratio']:.0f}x less CPU time",
        f"- outboard check alone, extrapolated: {r['check_only_per_tib_s']:.1f} s per TiB of data",
        f"- time lost per kill (median of {len(r['resume_lost_s'])}, checkpoint every {r['checkpoint_bytes'] >> 20} MiB): "
        f"{r['resume_lost_median_s']:.3f} s wall, {r['resume_lost_cpu_median_s']:.3f} s CPU",
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
    vmib = r["verify_file_bytes"] >> 20
    names = [f"sum {r['file_bytes'] >> 20} MiB", f"sum --outboard {r['file_bytes'] >> 20} MiB",
             f"re-hash {vmib} MiB", f"verify 1 MiB of {vmib} MiB", f"check alone, {vmib} MiB"]
    vals = [m["plain"], m["outboard"], m["rehash"], m["verify_1mib"], m["check_only"]]
    fig, ax = plt.subplots(figsize=(7, 3.5))
    ax.barh(names, vals)
    ax.set_xscale("log")
    ax.set_xlabel("seconds (median, log scale)")
    ax.set_title("KT128 outboards (medians)")
    for i, v in enumerate(vals):
        ax.text(v, i, f" {v:.3g}", va="center")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
