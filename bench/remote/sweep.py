#!/usr/bin/env python3
"""KT128 from a URL across KECCAKX_OBJECT_JOBS and KECCAKX_OBJECT_PART,
against `curl -o /dev/null`, peers alternated round by round, medians.

    python3 bench/remote/sweep.py --keccakx target/release/keccakx --out bench/results/remote-sweep-DATE.json

Serves a page-cached file of --mib MiB with nginx on 127.0.0.1 (the setup
of bench.py)."""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import MIB, ROOT, start_nginx, stop  # noqa: E402

CONFIGS = [("2", "8M"), ("4", "8M"), ("8", "8M"), ("16", "8M"), ("8", "2M"), ("8", "32M"), ("4", "2M")]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--keccakx", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--mib", type=int, default=512)
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    kx = os.path.abspath(a.keccakx)
    load_at_start = os.getloadavg()
    tmp = Path(tempfile.mkdtemp(prefix="kx-remote-sweep-"))
    nginx = None
    try:
        www = tmp / "www"
        www.mkdir()
        data = www / "data.bin"
        with open(data, "wb") as f:
            for _ in range(a.mib):
                f.write(os.urandom(MIB))
        for p in (tmp, www):
            p.chmod(0o755)
        data.chmod(0o644)
        subprocess.run(["cat", str(data)], stdout=subprocess.DEVNULL, check=True)
        nginx, port = start_nginx(www, tmp)
        if nginx is None:
            sys.exit("nginx is not installed")
        url = f"http://127.0.0.1:{port}/data.bin"
        want = subprocess.run([kx, "sum", "-a", "kt128", str(data)], capture_output=True, check=True).stdout.split()[0]
        peers = [("curl -o /dev/null", None)] + [(f"jobs {j}, part {p}", (j, p)) for j, p in CONFIGS]
        times = {name: [] for name, _ in peers}
        for r in range(a.rounds):
            for name, cfg in peers[r % len(peers):] + peers[: r % len(peers)]:
                env = dict(os.environ)
                if cfg:
                    env.update(KECCAKX_OBJECT_JOBS=cfg[0], KECCAKX_OBJECT_PART=cfg[1])
                    cmd = [kx, "sum", "-a", "kt128", url]
                else:
                    cmd = ["curl", "-sf", "-o", "/dev/null", url]
                t = time.perf_counter()
                out = subprocess.run(cmd, capture_output=True, check=True, env=env).stdout
                times[name].append(time.perf_counter() - t)
                if cfg and out.split()[0] != want:
                    raise RuntimeError(f"{name}: wrong digest")
        size = a.mib * MIB
        med = {n: statistics.median(t) for n, t in times.items()}
        bare = med["curl -o /dev/null"]
        rep = {
            "bench": "remote-sweep",
            "commit": subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                                     capture_output=True, text=True).stdout.strip(),
            "machine": {"cores": os.cpu_count(), "loadavg_at_start": load_at_start,
                        "loadavg_at_end": os.getloadavg()},
            "command": " ".join(["python3", os.path.relpath(__file__, ROOT), *sys.argv[1:]]),
            "bytes": size,
            "rounds": a.rounds,
            "times_s": times,
            "median_s": med,
            "rate_MBps": {n: size / m / 1e6 for n, m in med.items()},
            "ratio_to_bare": {n: bare / m for n, m in med.items()},
        }
        Path(a.out).write_text(json.dumps(rep, indent=1) + "\n")
        for n in med:
            print(f"  {n:20s} {size / med[n] / 1e6:8.0f} MB/s {bare / med[n]:6.2f}x bare")
        print(f"wrote {a.out}")
    finally:
        stop(nginx)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
