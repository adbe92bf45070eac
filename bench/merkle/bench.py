#!/usr/bin/env python3
"""Merkle trees of (address, uint256): keccakx against its peers, same run.

    python bench/merkle/bench.py --cli target/release/keccakx --out bench/results/merkle-DATE.json

End to end, per peer, as one process each (start, read the values, build the
tree, take the root, write the dump and every value's proof), rounds
alternated, peers rotated each round, medians reported:
  - keccakx, Python API (bench/merkle/py_run.py: StandardMerkleTree.of, dumps,
    write_all_proofs)
  - keccakx, CLI (`keccakx merkle build values.csv > tree.json`, then
    `keccakx merkle prove tree.json --all > proofs.jsonl`)
  - @openzeppelin/merkle-tree under node (bench/merkle/oz_run.js)
  - rs_merkle with tiny-keccak (merkle-bench rs-merkle: same leaves, its tree
    shape)
The keccakx and OpenZeppelin roots and dumps are checked equal in every round.

Then the tree's inner levels against the batch engine's rate on 64-byte
messages (merkle-bench levels), in the same run.
"""
from __future__ import annotations

import argparse
import datetime
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


def timed(cmd, shell=False, env=None):
    t = time.perf_counter()
    p = subprocess.run(cmd, shell=shell, capture_output=True, text=True, env=env)
    dt = time.perf_counter() - t
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
    ap.add_argument("--level-reps", type=int, default=7)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="merkle-bench-"))
    try:
        vals = values(a.leaves, 1)
        (work / "values.json").write_text(json.dumps(vals))
        (work / "values.csv").write_text("".join(f"{x},{y}\n" for x, y in vals))
        env = dict(os.environ, NODE_PATH=str(NODE_MODULES))
        peers = {
            "keccakx (Python API)": lambda d: timed([sys.executable, str(HERE / "py_run.py"), str(work / "values.json"), d]),
            "keccakx (CLI)": lambda d: timed(
                f"'{a.cli}' merkle build --types address,uint256 '{work}/values.csv' > '{d}/tree.json' && "
                f"'{a.cli}' merkle prove '{d}/tree.json' --all > '{d}/proofs.jsonl'",
                shell=True),
            "@openzeppelin/merkle-tree (node)": lambda d: timed(["node", str(HERE / "oz_run.js"), str(work / "values.json"), d], env=env),
            "rs_merkle + tiny-keccak": lambda d: timed([a.bench_bin, "rs-merkle", str(work / "values.csv"), f"{d}/proofs.txt"]),
        }
        names = list(peers)
        times = {n: [] for n in names}
        for rnd in range(a.rounds):
            order = names[rnd % len(names):] + names[:rnd % len(names)]
            dumps, proofs = {}, {}
            for name in order:
                d = work / f"out-{names.index(name)}"
                shutil.rmtree(d, ignore_errors=True)
                d.mkdir()
                dt, out = peers[name](str(d))
                times[name].append(dt)
                if (d / "tree.json").exists():
                    dumps[name] = (d / "tree.json").read_text().rstrip("\n")
                if name != "keccakx (CLI)" and (d / "proofs.jsonl").exists():
                    proofs[name] = d / "proofs.jsonl"
                print(f"round {rnd + 1}: {name}: {dt:.2f} s", file=sys.stderr, flush=True)
            ref = dumps["@openzeppelin/merkle-tree (node)"]
            for name, dump in dumps.items():
                if dump != ref:
                    raise SystemExit(f"{name}: dump differs from the JavaScript library's")
            oz_proofs = proofs["@openzeppelin/merkle-tree (node)"]
            for name, path in proofs.items():
                if subprocess.run(["cmp", "-s", str(path), str(oz_proofs)]).returncode != 0:
                    raise SystemExit(f"{name}: proofs differ from the JavaScript library's")
        lv_t, lv_out = timed([a.bench_bin, "levels", str(a.level_leaves), str(a.level_reps)])
        levels = json.loads(lv_out)
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
            "results": [
                {"impl": n, "seconds": times[n], "median_s": med[n], "speedup_vs_openzeppelin": oz / med[n]}
                for n in names
            ],
            "dumps_and_proofs_identical_to_openzeppelin": True,
            "levels": levels,
            "tree_vs_batch_rate": levels["tree_nodes_per_s"] / levels["batch_64B_msgs_per_s"],
        }
        Path(a.out).write_text(json.dumps(report, indent=1) + "\n")
        for r in report["results"]:
            print(f'{r["impl"]:36s} {r["median_s"]:8.2f} s  x{r["speedup_vs_openzeppelin"]:.1f} vs OpenZeppelin')
        print(f'inner nodes {levels["tree_nodes_per_s"]:.3g}/s vs batch 64 B {levels["batch_64B_msgs_per_s"]:.3g}/s: '
              f'{100 * report["tree_vs_batch_rate"]:.0f}%')
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
