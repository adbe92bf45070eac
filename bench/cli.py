#!/usr/bin/env python3
"""`keccakx sum` against the command-line hashers users already have: wall
time of whole processes, as a user sees it, in two scenarios — one large
cached file, and many small cached files in one command (keccakx hashes
files in parallel, in argument order; the others one after another).

    python3 bench/cli.py [--keccakx target/release/keccakx] [--b3sum PATH]
                         [--size BYTES] [--files N] [--file-size BYTES]
                         [--rounds N] [--out PATH]
                         [--compare OTHER_KECCAKX] [--only REGEX]

Contenders (each skipped, and said so, when its program is missing):
  keccakx sum -a sha3-256 / shake128 / kt128 / kt256, KT on 1 thread and on
  all (`--threads`), and KT128 read with --no-mmap; tree LI with the 2011
  paper's D = 4, r = 1024 at H = 2 and 4, on 1 thread and on all;
  openssl dgst -sha3-256 and -shake128 (OpenSSL's scalar Keccak);
  rhash --sha3-256 (Debian package rhash);
  sha3sum -a 256 (Perl's Digest::SHA3, Debian package libdigest-sha3-perl:
  the tool whose options and lines `keccakx sum` reproduces);
  b3sum (BLAKE3's CLI: `cargo install b3sum`) on 1 thread and on all;
  XKCP's K12 on one thread over a memory map of the file
  (target/release/xkcp-k12sum, `cargo build --release -p keccakx-bench
  --bin xkcp-k12sum`): the one-thread KT128 peer;
  sha256sum and b2sum (coreutils: familiar reference points, not Keccak).

--compare OTHER runs every keccakx contender a second time with another
keccakx binary (labelled "(compare)"), in the same rounds: before/after
measurements of a change, compared by wall time and by CPU time (on a
shared machine the CPU time is the steadier of the two). --only REGEX keeps the contenders whose name
matches (e.g. --only 'keccakx' for a before/after run without peers).

The files are pseudo-random data in a temporary directory (one of SIZE
bytes; N of FILE-SIZE bytes), read once before timing so that every program
hashes from the page cache. Each round runs every contender once, in turn (with
--compare, each keccakx contender beside its twin, the two in alternating
order); a contender's figure is the median over rounds (and its fastest),
and its CPU time (user + system) is recorded too. Every run of
a contender must print the same digests; keccakx's SHA3-256 and SHAKE128
digests must equal OpenSSL's (and rhash's and sha3sum's), and keccakx on 1 thread must
equal keccakx on all threads.

Writes bench/results/cli-<date>.json, .md (the table) and .png (a bar chart).
"""
import argparse
import datetime
import json
import os
import platform
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def contenders(kx, b3, cores, xkcp=None, compare=None):
    """(name, threads, argv before the file name, how to read the digest)."""
    # One digest per line, in order: `HASH  FILE` lines, or `ALG(FILE)= HASH`.
    first = lambda out: tuple(line.split()[0] for line in out.splitlines())  # noqa: E731
    last = lambda out: tuple(line.split()[-1] for line in out.splitlines())  # noqa: E731
    v = [
        ("keccakx SHA3-256", 1, [kx, "--threads", "1", "sum", "-a", "sha3-256"], first),
        ("keccakx SHA3-256", cores, [kx, "sum", "-a", "sha3-256"], first),
        ("keccakx SHAKE128 (32 B)", 1, [kx, "--threads", "1", "sum", "-a", "shake128", "-l", "32"], first),
        ("keccakx KT128", 1, [kx, "--threads", "1", "sum", "-a", "kt128"], first),
        ("keccakx KT128", cores, [kx, "sum", "-a", "kt128"], first),
        ("keccakx KT128 --no-mmap", cores, [kx, "sum", "--no-mmap", "-a", "kt128"], first),
        ("keccakx KT256", 1, [kx, "--threads", "1", "sum", "-a", "kt256"], first),
        ("keccakx KT256", cores, [kx, "sum", "-a", "kt256"], first),
        # Tree LI with the 2011 paper's D = 4, r = 1024 (docs/tree-li.md):
        # 16 leaves (two groups of ×8 lanes) and 256.
        *(
            (f"keccakx tree-li H={h} r=1024", t, [kx, *th, "sum", "-a", "tree-li", "--degree", "4",
                                                 "--height", str(h), "--rate", "1024", "--capacity", "576"], first)
            for h in (2, 4)
            for t, th in ((1, ["--threads", "1"]), (cores, []))
        ),
        ("openssl dgst -sha3-256", 1, ["openssl", "dgst", "-sha3-256"], last),
        ("openssl dgst -shake128 (32 B)", 1, ["openssl", "dgst", "-shake128", "-xoflen", "32"], last),
        ("rhash --sha3-256", 1, ["rhash", "--sha3-256"], first),
        ("sha3sum -a 256", 1, ["sha3sum", "-a", "256"], first),
        ("sha256sum", 1, ["sha256sum"], first),
        ("b2sum", 1, ["b2sum"], first),
    ]
    if b3:
        v += [
            ("b3sum", 1, [b3, "--num-threads", "1"], first),
            ("b3sum", cores, [b3], first),
        ]
    if xkcp:
        v.append(("XKCP K12 (mmap)", 1, [xkcp], first))
    if compare:
        # Each keccakx contender right beside its twin (main() alternates
        # which of the two runs first), so that both see the same load.
        v = [c for n, t, argv, d in v
             for c in ([(n, t, argv, d)] + ([(f"{n} (compare)", t, [compare, *argv[1:]], d)]
                                             if n.startswith("keccakx") else []))]
    return v


def available(argv):
    return shutil.which(argv[0]) is not None or os.path.isfile(argv[0])


def run_once(argv, paths):
    """Wall seconds, standard output, and CPU seconds (user + system) of
    one run: the CPU time is what other jobs on a shared machine inflate
    least."""
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([*argv, *paths], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    secs = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({p.returncode}): {p.stderr.decode(errors='replace').strip()}")
    return secs, p.stdout.decode(), cpu


def make_file(path, size, piece):
    """SIZE pseudo-random bytes (fresh ones up to 8 MiB; beyond, the 8 MiB
    `piece` rotated by one each time, so no two pieces are equal), then read
    back into the page cache."""
    with open(path, "wb") as f:
        if size <= len(piece):
            f.write(os.urandom(size))
        left = size if size > len(piece) else 0
        while left:
            n = min(left, len(piece))
            f.write(piece[:n])
            left -= n
            piece = piece[1:] + piece[:1]
    with open(path, "rb") as f:
        while f.read(16 << 20):
            pass


def size_name(n):
    for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} B"


def tables(rep):
    lines = [
        f'CLI benchmark {rep["date"]}, commit `{rep["commit"]}`, {rep["machine"]["cpu_model"]} '
        f'({rep["machine"]["cores"]} cores), {rep["rounds"]} rounds (every contender once per round, '
        'in turn); wall time of the whole process, files in the page cache.',
    ]
    for sc in rep["scenarios"]:
        rows = [r for r in rep["results"] if r["scenario"] == sc]
        twins = {(r["name"][: -len(" (compare)")], r["threads"]): r for r in rows if r["name"].endswith(" (compare)")}
        head = "| program | threads | GB/s (median) | GB/s (fastest) | vs `openssl dgst -sha3-256` |"
        rule = "| --- | ---: | ---: | ---: | ---: |"
        if twins:
            head += " vs (compare), median of per-round ratios: wall | CPU (user+sys) |"
            rule += " ---: | ---: |"
        lines += ["", f"**{sc}**", "", head, rule]
        base = next((r for r in rows if r["name"] == "openssl dgst -sha3-256"), None)
        for r in rows:
            vs = f'{r["gb_per_s"] / base["gb_per_s"]:.2f}×' if base else "n/a"
            line = f'| {r["name"]} | {r["threads"]} | {r["gb_per_s"]:.2f} | {r["gb_per_s_best"]:.2f} | {vs} |'
            if twins:
                tw = twins.get((r["name"], r["threads"]))
                if tw:
                    # Time ratio per round (compare / this): > 1 means this one is faster.
                    per = [b / a for a, b in zip(r["seconds"], tw["seconds"])]
                    line += f" {statistics.median(per):.3f}× |"
                    if r.get("cpu_seconds") and tw.get("cpu_seconds"):
                        per = [b / a for a, b in zip(r["cpu_seconds"], tw["cpu_seconds"])]
                        line += f" {statistics.median(per):.3f}× |"
                    else:
                        line += " |"
                else:
                    line += " | |"
            lines.append(line)
    if rep["skipped"]:
        lines += ["", "Skipped (program not found): " + ", ".join(rep["skipped"]) + "."]
    lines += ["", "Checks: " + "; ".join(rep["checks"]) + "."]
    return "\n".join(lines) + "\n"


def plot(rep, png):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    scs = rep["scenarios"]
    n = max(len([r for r in rep["results"] if r["scenario"] == sc]) for sc in scs)
    fig, axes = plt.subplots(1, len(scs), figsize=(8.5 * len(scs), 0.42 * n + 1.4), squeeze=False)
    for ax, sc in zip(axes.flat, scs):
        rs = [r for r in rep["results"] if r["scenario"] == sc]
        names = [r["name"] + ("" if r["threads"] == 1 else f' ({r["threads"]} thr)') for r in rs]
        colors = ["tab:blue" if n.startswith("keccakx") else "tab:gray" for n in names]
        ax.barh(names, [r["gb_per_s"] for r in rs], color=colors)
        ax.invert_yaxis()
        ax.set_xlabel("GB/s (median wall time of the whole process)")
        ax.set_title(sc, fontsize=10)
        ax.grid(True, axis="x", alpha=0.3)
    fig.suptitle(f'keccakx sum and its peers · {rep["machine"]["cpu_model"]} · {rep["machine"]["cores"]} cores · '
                 f'{rep["date"]}', fontsize=10)
    fig.tight_layout()
    fig.savefig(png, dpi=90)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keccakx", default=os.path.join(root, "target", "release", "keccakx"))
    ap.add_argument("--b3sum", default=shutil.which("b3sum") or os.path.join(here, ".tools", "bin", "b3sum"))
    ap.add_argument("--size", type=int, default=1 << 30)
    ap.add_argument("--files", type=int, default=4096)
    ap.add_argument("--file-size", type=int, default=64 << 10)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--out", default=None)
    ap.add_argument("--xkcp", default=os.path.join(root, "target", "release", "xkcp-k12sum"))
    ap.add_argument("--compare", default=None, help="another keccakx binary, run beside the first")
    ap.add_argument("--only", default=None, help="keep the contenders whose name matches this regex")
    a = ap.parse_args()
    if min(a.size, a.rounds, a.files, a.file_size) <= 0:
        ap.error("--size, --files, --file-size and --rounds must be positive")
    if not os.path.isfile(a.keccakx):
        print(f"cli.py: no keccakx at {a.keccakx} (cargo build --release -p keccakx-cli)", file=sys.stderr)
        return 1
    b3 = a.b3sum if a.b3sum and os.path.isfile(a.b3sum) else None
    xk = a.xkcp if a.xkcp and os.path.isfile(a.xkcp) else None
    cores = os.cpu_count() or 1
    all_c = contenders(a.keccakx, b3, cores, xk, a.compare)
    if a.only:
        all_c = [c for c in all_c if re.search(a.only, c[0])]
    skipped = [c[0] for c in all_c if not available(c[2])]
    if not b3 and not a.only:
        skipped.append("b3sum (cargo install b3sum, or make bench-cli)")
    if not xk and not a.only:
        skipped.append("XKCP K12 (cargo build --release -p keccakx-bench --bin xkcp-k12sum)")
    cs = [c for c in all_c if available(c[2])]
    scenarios = [
        (f"one file of {size_name(a.size)}", [("input.bin", a.size)]),
        (f"{a.files} files of {size_name(a.file_size)}",
         [(f"f{k:05d}.bin", a.file_size) for k in range(a.files)]),
    ]
    results, checks = [], []
    with tempfile.TemporaryDirectory(prefix="keccakx-cli-bench-") as d:
        piece = os.urandom(8 << 20)
        for sc, files in scenarios:
            paths = []
            print(f"{sc}: writing to {d} ...", flush=True)
            for name, size in files:
                paths.append(os.path.join(d, name))
                make_file(paths[-1], size, piece)
            total = sum(size for _, size in files)
            digests, times, cpus = {}, {i: [] for i in range(len(cs))}, {i: [] for i in range(len(cs))}
            for i, (name, t, argv, dig) in enumerate(cs):  # warm-up, and the digests
                digests[i] = dig(run_once(argv, paths)[1])
                if len(digests[i]) != len(paths):
                    raise RuntimeError(f"{name}: {len(digests[i])} digests for {len(paths)} files")
            for r in range(a.rounds):
                order = list(range(len(cs)))
                if r % 2:
                    # Odd rounds: a compared pair runs twin first.
                    for k in range(len(order) - 1):
                        if cs[order[k + 1]][0] == cs[order[k]][0] + " (compare)":
                            order[k], order[k + 1] = order[k + 1], order[k]
                for i in order:
                    name, t, argv, dig = cs[i]
                    secs, out, cpu = run_once(argv, paths)
                    if dig(out) != digests[i]:
                        raise RuntimeError(f"{name}: digests changed between runs")
                    times[i].append(secs)
                    cpus[i].append(cpu)
                print(f"{sc}: round {r + 1}/{a.rounds} done", flush=True)
            for p in paths:
                os.remove(p)
            by = {(c[0], c[1]): digests[i] for i, c in enumerate(cs)}

            def same(x, y, what):
                if x in by and y in by:
                    if by[x] != by[y]:
                        raise RuntimeError(f"{sc}: {what} does not hold")
                    checks.append(f"{what} ({sc})")

            same(("keccakx SHA3-256", 1), ("openssl dgst -sha3-256", 1), "keccakx SHA3-256 = OpenSSL's")
            same(("keccakx SHA3-256", 1), ("keccakx SHA3-256", cores), f"keccakx SHA3-256 on 1 thread = on {cores}")
            same(("keccakx SHAKE128 (32 B)", 1), ("openssl dgst -shake128 (32 B)", 1), "keccakx SHAKE128 = OpenSSL's")
            same(("keccakx SHA3-256", 1), ("rhash --sha3-256", 1), "keccakx SHA3-256 = rhash's")
            same(("keccakx SHA3-256", 1), ("sha3sum -a 256", 1), "keccakx SHA3-256 = sha3sum's")
            for kt in ("KT128", "KT256"):
                same((f"keccakx {kt}", 1), (f"keccakx {kt}", cores), f"keccakx {kt} on 1 thread = on {cores}")
            same(("keccakx KT128", 1), ("keccakx KT128 --no-mmap", cores), "keccakx KT128 with --no-mmap = mapped")
            same(("keccakx KT128", 1), ("XKCP K12 (mmap)", 1), "keccakx KT128 = XKCP's K12")
            for n, t, _, _ in cs:
                if n.endswith(" (compare)"):
                    same((n[: -len(" (compare)")], t), (n, t), f"{n[: -len(' (compare)')]} on {t} = the compared binary")
            same(("b3sum", 1), ("b3sum", cores), f"b3sum on 1 thread = on {cores}")
            for i, (name, t, argv, _) in enumerate(cs):
                med = statistics.median(times[i])
                results.append({
                    "scenario": sc, "name": name, "threads": t, "bytes": total,
                    "argv": [os.path.basename(argv[0]), *argv[1:]],
                    "seconds": times[i], "seconds_median": med,
                    "cpu_seconds": cpus[i], "cpu_seconds_median": statistics.median(cpus[i]),
                    "gb_per_s": total / med / 1e9, "gb_per_s_best": total / min(times[i]) / 1e9,
                })
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    commit = subprocess.run(["git", "-C", root, "describe", "--always", "--dirty", "--abbrev=12"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout.decode().strip() or "unknown"
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    rep = {
        "date": date, "commit": commit, "size": a.size, "files": a.files, "file_size": a.file_size,
        "rounds": a.rounds, "scenarios": [sc for sc, _ in scenarios],
        "machine": {"cpu_model": model, "cores": cores, "kernel": platform.release(),
                    "load": " ".join(f"{x:.2f}" for x in os.getloadavg())},
        "results": results, "skipped": skipped, "checks": checks,
    }
    out = a.out or os.path.join(here, "results", f"cli-{date}.json")
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    with open(out, "w") as f:
        json.dump(rep, f, indent=1)
    stem = os.path.splitext(out)[0]
    with open(stem + ".md", "w") as f:
        f.write(tables(rep))
    print(tables(rep))
    written = [out, stem + ".md"]
    try:
        plot(rep, stem + ".png")
        written.append(stem + ".png")
    except ImportError:
        print("cli.py: matplotlib is missing (apt-get install python3-matplotlib); no plot", file=sys.stderr)
    print("wrote " + ", ".join(written))
    return 0


if __name__ == "__main__":
    sys.exit(main())
