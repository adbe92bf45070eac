#!/usr/bin/env python3
"""Merkle trees of (address, uint256): keccakx against its peers, same run.

    python bench/merkle/bench.py --cli target/release/keccakx --out bench/results/merkle-DATE.json

End to end, per peer, as one process each (start, read the values, build the
tree, take the root, write the dump and every value's proof), rounds
alternated, peers rotated each round, medians reported:
  - keccakx, Python API (bench/merkle/py_run.py: StandardMerkleTree.of, dumps,
    write_all_proofs)
  - keccakx, CLI (`keccakx merkle build values.csv --proofs proofs.jsonl >
    tree.json`: one process, the proofs from the tree it built)
  - keccakx, CLI from a dump (`keccakx merkle build values.csv > tree.json`,
    then `keccakx merkle prove tree.json --all > proofs.jsonl`: the dump read
    back and validated, as one from elsewhere must be)
  - @openzeppelin/merkle-tree under node (bench/merkle/oz_run.js)
  - rs_merkle with tiny-keccak (merkle-bench rs-merkle: same leaves, its tree
    shape)
The keccakx and OpenZeppelin roots and dumps are checked equal in every round
(the proofs too: the Python API's whole file, the CLI's every 1000th line).
The JavaScript library runs in the first --oz-rounds rounds only (at 10^6
leaves one of its rounds takes many minutes); the others in every round.
Each peer's run holds --lock (flock) when given, so other timing runs on a
shared machine wait between peers, never during one.

Then the tree's inner levels against the batch engine's rate on 64-byte
messages (merkle-bench levels), in the same run; `--levels-only` runs just
that part (a quicker re-measurement, its own JSON).
"""
from __future__ import annotations

import argparse
import datetime
import itertools
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
HERE = Path(__file__).resolve().parent
NODE_MODULES = ROOT / "tests" / "merkle" / "node_modules"


def values(n: int, seed: int):
    r = random.Random(seed)
    return [["0x" + r.getrandbits(160).to_bytes(20, "big").hex(), str(r.getrandbits(r.choice([64, 96, 128])))]
            for _ in range(n)]


LOCK = None


def timed(cmd, shell=False, env=None):
    if LOCK:
        # The lock is taken before the clock starts.
        import fcntl
        fd = os.open(LOCK, os.O_RDWR | os.O_CREAT, 0o666)
        fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        t = time.perf_counter()
        p = subprocess.run(cmd, shell=shell, capture_output=True, text=True, env=env)
        dt = time.perf_counter() - t
    finally:
        if LOCK:
            os.close(fd)
    if p.returncode != 0:
        raise SystemExit(f"{cmd} failed ({p.returncode}): {p.stderr[-2000:]}")
    return dt, p.stdout


def cpu_model():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--bench-bin", default=str(ROOT / "target" / "release" / "merkle-bench"))
    ap.add_argument("--leaves", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--level-leaves", type=int, default=1 << 20)
    ap.add_argument("--level-reps", type=int, default=15)
    ap.add_argument("--oz-rounds", type=int, default=None, help="rounds the JavaScript library runs in (default: all)")
    ap.add_argument("--levels-only", action="store_true")
    ap.add_argument("--lock", default=os.environ.get("BENCH_LOCK") or None)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    global LOCK
    LOCK = a.lock
    if a.levels_only:
        return levels_only(a)
    oz_rounds = a.rounds if a.oz_rounds is None else a.oz_rounds
    if not 1 <= oz_rounds <= a.rounds:
        ap.error("--oz-rounds: 1 to --rounds")

    work = Path(tempfile.mkdtemp(prefix="merkle-bench-"))
    try:
        vals = values(a.leaves, 1)
        (work / "values.json").write_text(json.dumps(vals))
        (work / "values.csv").write_text("".join(f"{x},{y}\n" for x, y in vals))
        env = dict(os.environ, NODE_PATH=str(NODE_MODULES))
        # The JavaScript library first: with --oz-rounds 1 its one run
        # opens the run, and its output is the reference for every check.
        peers = {
            "@openzeppelin/merkle-tree (node)": lambda d: timed(["node", str(HERE / "oz_run.js"), str(work / "values.json"), d], env=env),
            "keccakx (Python API)": lambda d: timed([sys.executable, str(HERE / "py_run.py"), str(work / "values.json"), d]),
            "keccakx (CLI)": lambda d: timed(
                f"'{a.cli}' merkle build --types address,uint256 '{work}/values.csv' --proofs '{d}/proofs-cli.jsonl'"
                f" > '{d}/tree.json'",
                shell=True),
            "keccakx (CLI, proofs from the dump)": lambda d: timed(
                f"'{a.cli}' merkle build --types address,uint256 '{work}/values.csv' > '{d}/tree.json' && "
                f"'{a.cli}' merkle prove '{d}/tree.json' --all > '{d}/proofs-cli.jsonl'",
                shell=True),
            "rs_merkle + tiny-keccak": lambda d: timed([a.bench_bin, "rs-merkle", str(work / "values.csv"), f"{d}/proofs.txt"]),
        }
        names = list(peers)
        times = {n: [] for n in names}
        checks = []
        oz_name = "@openzeppelin/merkle-tree (node)"
        ref_dump, ref_proofs = None, work / "oz-proofs.jsonl"
        for rnd in range(a.rounds):
            order = names[rnd % len(names):] + names[:rnd % len(names)]
            if rnd >= oz_rounds:
                order = [n for n in order if n != oz_name]
            for name in order:
                d = work / f"out-{names.index(name)}"
                shutil.rmtree(d, ignore_errors=True)
                d.mkdir()
                dt, out = peers[name](str(d))
                times[name].append(dt)
                print(f"round {rnd + 1}: {name}: {dt:.2f} s", file=sys.stderr, flush=True)
                if name == oz_name:
                    ref_dump = (d / "tree.json").read_text().rstrip("\n")
                    (d / "proofs.jsonl").rename(ref_proofs)
                checks.append((name, d))
                # Checked against the JavaScript library's output as soon as
                # it exists (its first round may come after others).
                while ref_dump is not None and checks:
                    check(*checks.pop(), ref_dump, ref_proofs)
        levels = run_levels(a)
        med = {n: statistics.median(t) for n, t in times.items()}
        oz = med["@openzeppelin/merkle-tree (node)"]
        report = {
            "benchmark": "merkle",
            "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "platform": platform.platform(),
                        "load_before": os.getloadavg()},
            "commit": subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                     text=True).stdout.strip(),
            "task": f"{a.leaves} leaves of (address, uint256): build, root, every proof written (one process per peer)",
            "rounds": a.rounds,
            "openzeppelin_rounds": oz_rounds,
            "command": " ".join(["python3", "bench/merkle/bench.py"] + sys.argv[1:]),
            "results": [
                {"impl": n, "seconds": times[n], "median_s": med[n], "speedup_vs_openzeppelin": oz / med[n]}
                for n in names
            ],
            "dumps_and_proofs_identical_to_openzeppelin": True,
            "levels": levels,
            **level_ratios(levels),
        }
        Path(a.out).write_text(json.dumps(report, indent=1) + "\n")
        for r in report["results"]:
            print(f'{r["impl"]:36s} {r["median_s"]:8.2f} s  x{r["speedup_vs_openzeppelin"]:.1f} vs OpenZeppelin')
        print_levels(report)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(name, d, ref_dump, ref_proofs):
    """NAME's dump (and proofs) in D against the JavaScript library's; the
    files are removed after (a million proofs are ~1.4 GB each)."""
    try:
        dump = d / "tree.json"
        if dump.exists() and dump.read_text().rstrip("\n") != ref_dump:
            raise SystemExit(f"{name}: dump differs from the JavaScript library's")
        if (d / "proofs.jsonl").exists():
            if subprocess.run(["cmp", "-s", str(d / "proofs.jsonl"), str(ref_proofs)]).returncode != 0:
                raise SystemExit(f"{name}: proofs differ from the JavaScript library's")
        if (d / "proofs-cli.jsonl").exists():
            with open(d / "proofs-cli.jsonl") as cli, open(ref_proofs) as ref:
                for i, (c, r) in enumerate(itertools.zip_longest(cli, ref)):
                    if c is None or r is None:
                        raise SystemExit(f"{name}: not one proof per value")
                    if i % 1000 == 0 and json.loads(c)["proof"] != json.loads(r):
                        raise SystemExit(f"{name}: proof {i} differs from the JavaScript library's")
    finally:
        shutil.rmtree(d, ignore_errors=True)


def run_levels(a):
    _, out = timed([a.bench_bin, "levels", str(a.level_leaves), str(a.level_reps)])
    return json.loads(out)


def level_ratios(levels):
    return {
        "tree_vs_batch_rate": levels["tree_nodes_per_s"] / levels["batch_64B_msgs_per_s"],
        "tree_vs_batch_rate_fresh_memory": levels["tree_fresh_array_nodes_per_s"]
        / levels["batch_64B_fresh_output_msgs_per_s"],
        "tree_vs_batch_rate_per_cpu_s": levels["tree_nodes_per_cpu_s"] / levels["batch_64B_msgs_per_cpu_s"],
    }


def print_levels(report):
    lv = report["levels"]
    print(f'inner nodes {lv["tree_nodes_per_s"]:.3g}/s vs batch 64 B {lv["batch_64B_msgs_per_s"]:.3g}/s: '
          f'{100 * report["tree_vs_batch_rate"]:.0f}% (fresh memory: '
          f'{100 * report["tree_vs_batch_rate_fresh_memory"]:.0f}%; per CPU second: '
          f'{100 * report["tree_vs_batch_rate_per_cpu_s"]:.0f}%)')


def levels_only(a):
    levels = run_levels(a)
    report = {
        "benchmark": "merkle-levels",
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "platform": platform.platform(),
                    "load_before": os.getloadavg()},
        "commit": subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                                 text=True).stdout.strip(),
        "command": " ".join(["python3", "bench/merkle/bench.py"] + sys.argv[1:]),
        "levels": levels,
        **level_ratios(levels),
    }
    Path(a.out).write_text(json.dumps(report, indent=1) + "\n")
    print_levels(report)


if __name__ == "__main__":
    main()
