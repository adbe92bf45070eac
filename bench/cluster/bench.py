"""keccakx.distributed against `keccakx sum` on the same data, this machine.

Scenarios, each timed in every round, rounds alternated (the machine is
shared): one big file (`digest` vs `keccakx sum`), many files (`hash_files`
vs `keccakx sum FILE...`), with a LocalCluster of 1 worker (2 task threads)
and of 2 workers (1 thread each), for KT128 and SHA3-256. Plus, in this
process, the costs that size a cluster: chaining values per second per core
(the workers' work) and absorbed per second by the final node (the
client's), as seconds per TiB of input. Writes JSON; --plot draws it.

    flock /work/bench.lock .venv/bin/python bench/cluster/bench.py --keccakx target/release/keccakx \
        --out bench/results/cluster-DATE.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import keccakx
from keccakx import distributed as kd
from keccakx import hazmat

TIB = 1 << 40


def wall(f):
    t = time.perf_counter()
    r = f()
    return time.perf_counter() - t, r


def cli(bin_path, algorithm, paths):
    out = subprocess.run([bin_path, "sum", "-a", algorithm, *map(str, paths)], capture_output=True, check=True)
    return [bytes.fromhex(line.split(b" ")[0].decode()) for line in out.stdout.splitlines()]


def write_random(path: Path, n: int):
    with open(path, "wb") as f:
        left = n
        while left:
            k = min(left, 8 << 20)
            f.write(os.urandom(k))
            left -= k


def final_node_rates(mib: int = 64):
    """CVs absorbed per second by each final node (1 MiB updates)."""
    out = {}
    cases = [
        ("kt128", 32, lambda n: hazmat.KtFinalNode(n * 8192 + 8192, algorithm="kt128")),
        ("kt256", 64, lambda n: hazmat.KtFinalNode(n * 8192 + 8192, algorithm="kt256")),
        ("parallelhash128 B=8192", 32, lambda n: hazmat.ParallelHashFinalNode(n * 8192, block_size=8192)),
    ]
    for name, cv, make in cases:
        n = (mib << 20) // cv
        cvs = os.urandom(n * cv)
        step = 1 << 20
        times = []
        for _ in range(5):
            node = make(n)
            if name.startswith("kt"):
                node.absorb_head(bytes(8192))
            t = time.perf_counter()
            for i in range(0, len(cvs), step):
                node.update(cvs[i : i + step])
            times.append(time.perf_counter() - t)
        s = statistics.median(times)
        per_s = n / s
        out[name] = {
            "cv_bytes": cv,
            "cvs_per_s": per_s,
            "input_bytes_per_s": per_s * 8192,
            "s_per_tib_input": (TIB / 8192) / per_s,
            "cv_bytes_per_tib_input": (TIB // 8192) * cv,
        }
    return out


def chaining_rates(mib: int = 64):
    """Chaining values computed per second: one core and all cores."""
    data = os.urandom(mib << 20)
    out = {}
    for threads in (1, 0):
        keccakx.set_threads(threads)
        ts = []
        for _ in range(5):
            t = time.perf_counter()
            hazmat.kt_chaining_values(data, 1)
            ts.append(time.perf_counter() - t)
        out["1 core" if threads == 1 else f"{os.cpu_count()} cores"] = len(data) / statistics.median(ts)
    keccakx.set_threads(0)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keccakx", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", type=int, default=512 << 20, help="bytes of the big file")
    ap.add_argument("--files", type=int, default=64, help="number of files")
    ap.add_argument("--file-size", type=int, default=8 << 20)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    from distributed import Client

    tmp = Path(tempfile.mkdtemp(prefix="kx-bench-cluster-"))
    big = tmp / "big.bin"
    write_random(big, a.size)
    files = []
    for i in range(a.files):
        p = tmp / f"f{i:04d}.bin"
        write_random(p, a.file_size)
        files.append(p)
    many = a.files * a.file_size
    starts = {}
    clusters = {}
    for label, nw, nt in (("1 worker", 1, 2), ("2 workers", 2, 1)):
        t, cl = wall(lambda: kd.local_cluster(n_workers=nw, threads_per_worker=nt))
        c = Client(cl, set_as_default=False)
        starts[label] = t
        clusters[label] = (cl, c)
    want_big = cli(a.keccakx, "kt128", [big])[0]
    want_many = {alg: cli(a.keccakx, alg, files) for alg in ("kt128", "sha3-256")}
    rows = {}

    def record(name, seconds, nbytes):
        rows.setdefault(name, []).append(nbytes / seconds)

    try:
        for r in range(a.rounds):
            order = list(clusters) if r % 2 == 0 else list(reversed(clusters))
            t, d = wall(lambda: cli(a.keccakx, "kt128", [big]))
            assert d[0] == want_big
            record("one file KT128: keccakx sum", t, a.size)
            for label in order:
                c = clusters[label][1]
                t, d = wall(lambda: kd.digest(big, "kt128", client=c, progress=False))
                assert d == want_big
                record(f"one file KT128: digest, {label}", t, a.size)
            for alg in ("kt128", "sha3-256"):
                t, d = wall(lambda: cli(a.keccakx, alg, files))
                assert d == want_many[alg]
                record(f"{len(files)} files {alg.upper()}: keccakx sum", t, many)
                for label in order:
                    c = clusters[label][1]
                    t, res = wall(lambda: kd.hash_files([str(p) for p in files], alg, client=c, progress=False))
                    assert [x.digest for x in res] == want_many[alg]
                    record(f"{len(files)} files {alg.upper()}: hash_files, {label}", t, many)
            print(f"round {r + 1}/{a.rounds} done", file=sys.stderr)
    finally:
        for cl, c in clusters.values():
            c.close()
            cl.close()
    fin = final_node_rates()
    chain = chaining_rates()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    result = {
        "benchmark": "cluster",
        "commit": commit + ("-dirty" if dirty.strip() else ""),
        "machine": {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
                    "engine": keccakx.engine(), "loadavg_before": open("/proc/loadavg").read().split()[:3]},
        "config": {"big_file_bytes": a.size, "files": a.files, "file_bytes": a.file_size, "rounds": a.rounds,
                   "part_size": kd.DEFAULT_PART_SIZE,
                   "clusters": {"1 worker": "LocalCluster(n_workers=1, threads_per_worker=2)",
                                "2 workers": "LocalCluster(n_workers=2, threads_per_worker=1)"}},
        "cluster_start_s": starts,
        "throughput_bytes_per_s": {k: {"median": statistics.median(v), "rounds": v} for k, v in rows.items()},
        "final_node": fin,
        "chaining_values_bytes_per_s": chain,
    }
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    for k, v in result["throughput_bytes_per_s"].items():
        print(f"{k:55s} {v['median'] / 1e9:7.3f} GB/s")
    for k, v in fin.items():
        print(f"final node {k:30s} {v['cvs_per_s'] / 1e6:7.2f} M CV/s  {v['s_per_tib_input']:7.2f} s/TiB")
    for k, v in chain.items():
        print(f"chaining values, {k:10s} {v / 1e9:7.3f} GB/s")
    for p in [big, *files]:
        p.unlink()
    tmp.rmdir()


if __name__ == "__main__":
    main()
