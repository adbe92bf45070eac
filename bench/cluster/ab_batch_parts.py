"""A/B of the default part size in keccakx.distributed.hash_files: sized
per object (before) or per batch of objects listed together (now), the
same client and cluster, alternated rounds. Four 256 MiB objects, KT128,
LocalCluster of 1 worker x 2 threads and of 2 workers x 1 thread; CPU
seconds per GiB of the worker processes and of the client (+ scheduler)
from getrusage, wall seconds per GiB; medians of the rounds.

    .venv/bin/python bench/cluster/ab_batch_parts.py --out bench/results/cluster-batch-parts-DATE.json
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from keccakx import _jobs
from keccakx import distributed as kd


def cpu():

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--reps", type=int, default=3, help="hash_files calls per round and variant")
    a = ap.parse_args()
    from distributed import Client, LocalCluster

    tmp = Path(tempfile.mkdtemp(prefix="kx-ab-parts-"))
    files = []
    for i in range(4):
        p = tmp / f"o{i}.bin"
        with open(p, "wb") as f:
            for _ in range(32):
                f.write(os.urandom(8 << 20))
        files.append(str(p))
    gib = 4 * (256 << 20) / (1 << 30)
    per_batch = _jobs.sized_part

    def per_object(job, threads, batch_bytes=0):
        return per_batch(job, threads)

    variants = {"per batch (now)": per_batch, "per object (before)": per_object}
    out = {}
    try:
        for label, nw, nt in (("1 worker x 2 threads", 1, 2), ("2 workers x 1 thread", 2, 1)):
            cl = LocalCluster(n_workers=nw, threads_per_worker=nt, processes=True, dashboard_address=None)
            c = Client(cl)
            want = kd.hash_files(files, "kt128", client=c, progress=False)
            rows = {k: [] for k in variants}
            for r in range(a.rounds):
                order = list(variants) if r % 2 == 0 else list(reversed(variants))
                for name in order:
                    _jobs.sized_part = variants[name]
                    w0, m0, t = sum(c.run(cpu).values()), cpu(), time.perf_counter()
                    for _ in range(a.reps):
                        got = kd.hash_files(files, "kt128", client=c, progress=False)
                    t = time.perf_counter() - t
                    m1, w1 = cpu(), sum(c.run(cpu).values())
                    assert [x.digest for x in got] == [x.digest for x in want]
                    n = a.reps * gib
                    rows[name].append({"workers_cpu_s_per_gib": (w1 - w0) / n,
                                       "client_cpu_s_per_gib": (m1 - m0) / n, "wall_s_per_gib": t / n})
            _jobs.sized_part = per_batch
            out[label] = {k: {m: statistics.median(x[m] for x in v) for m in v[0]} | {"rounds": v}
                          for k, v in rows.items()}
            c.close()
            cl.close()
    finally:
        for p in files:
            os.unlink(p)
        tmp.rmdir()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    result = {"benchmark": "cluster-batch-parts", "commit": commit, "cores": os.cpu_count(),
              "loadavg": open("/proc/loadavg").read().split()[:3], "objects": "4 x 256 MiB, KT128",
              "results": out}
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    for label, d in out.items():
        for k, v in d.items():
            print(f"{label:22s} {k:22s} workers {v['workers_cpu_s_per_gib']:.3f}  client "
                  f"{v['client_cpu_s_per_gib']:.3f} CPU-s/GiB  wall {v['wall_s_per_gib']:.4f} s/GiB")


if __name__ == "__main__":
    main()
