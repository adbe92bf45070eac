"""`keccakx sum` of 256 files of 1 MiB (KT128) with and without
MALLOC_TRIM_THRESHOLD_=65536 in its environment (Dask sets it in the
environment of every process that starts a cluster, and of its workers),
for two binaries (e.g. before and after a change), alternated rounds; CPU
seconds per GiB of the `keccakx sum` processes (getrusage of children)
and wall seconds per GiB, medians.

    python3 bench/many_files_env.py --bin new=target/release/keccakx --bin old=/path/to/old/keccakx \\
        --out bench/results/many-files-env-DATE.json
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", action="append", required=True, help="LABEL=PATH, one or more")
    ap.add_argument("--out", required=True)
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--reps", type=int, default=10)
    a = ap.parse_args()
    bins = dict(b.split("=", 1) for b in a.bin)
    tmp = Path(tempfile.mkdtemp(prefix="kx-many-files-"))
    files = []
    for i in range(256):
        p = tmp / f"f{i:04d}.bin"
        p.write_bytes(os.urandom(1 << 20))
        files.append(str(p))
    gib = 256 / 1024
    envs = {"plain": dict(os.environ), "MALLOC_TRIM_THRESHOLD_=65536": dict(os.environ, MALLOC_TRIM_THRESHOLD_="65536")}
    envs["plain"].pop("MALLOC_TRIM_THRESHOLD_", None)
    want = None
    rows = {}
    try:
        for r in range(a.rounds):
            order = list(bins) if r % 2 == 0 else list(reversed(bins))
            for label in order:
                for en, env in envs.items():
                    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    t = time.perf_counter()
                    for _ in range(a.reps):
                        out = subprocess.run([bins[label], "sum", "-a", "kt128", *files], capture_output=True,
                                             check=True, env=env).stdout
                    t = time.perf_counter() - t
                    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                    want = want or out
                    assert out == want
                    cpu = (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)
                    rows.setdefault(f"{label}, {en}", []).append(
                        {"cpu_s_per_gib": cpu / a.reps / gib, "wall_s_per_gib": t / a.reps / gib})
    finally:
        for p in files:
            os.unlink(p)
        tmp.rmdir()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    result = {"benchmark": "many-files-env", "commit": commit, "binaries": bins, "files": "256 x 1 MiB, KT128",
              "loadavg": open("/proc/loadavg").read().split()[:3],
              "results": {k: {m: statistics.median(x[m] for x in v) for m in v[0]} | {"rounds": v}
                          for k, v in rows.items()}}
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    for k, v in result["results"].items():
        print(f"{k:45s} {v['cpu_s_per_gib']:.3f} CPU-s/GiB  {v['wall_s_per_gib']:.3f} s/GiB")


if __name__ == "__main__":
    main()
