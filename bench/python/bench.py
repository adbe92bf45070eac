#!/usr/bin/env python3
"""keccakx (Python module) vs hashlib vs pycryptodome, side by side in one run.

SHA3-256 on one message of 64 B, 1 KiB and 1 MiB (constructor + digest per
call, the way people call hashlib), and a batch of 10^5 64-byte messages:
keccakx.hash_many (list of bytes, and a 2-D NumPy array) vs a Python loop
over hashlib (and over pycryptodome).

Each measurement is the best of several repeats, the contenders interleaved
within each repeat so that load from other processes hits them alike; the
load average before and after is recorded with the machine, the CPU flags,
the engine keccakx selected and the git commit. Single-message figures are
taken twice: CPU time of the calling thread (time.thread_time: what the
call costs, robust to other processes on a shared machine; the headline
ratio) and wall time. The batch is timed by the wall clock (its point is
using every core) with the process CPU time beside it.

    python bench/python/bench.py --out bench/results/python-YYYYMMDD.json
"""

import argparse
import datetime
import hashlib
import json
import os
import platform
import subprocess
import sys
import time
import timeit

import numpy as np

import keccakx

try:
    from Crypto.Hash import SHA3_256 as CryptoSHA3_256
    import Crypto

    PYCRYPTODOME = Crypto.__version__
except ImportError:  # pragma: no cover
    CryptoSHA3_256, PYCRYPTODOME = None, None


def cpu_info():
    model, flags = platform.processor(), []
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                if line.startswith("flags"):
                    have = set(line.split(":", 1)[1].split())
                    flags = sorted(have & {"sse2", "ssse3", "avx", "avx2", "avx512f", "avx512vl", "bmi2", "sha_ni"})
                    break
    except OSError:
        pass
    return model, flags


def git_commit():
    try:
        here = os.path.dirname(os.path.abspath(__file__))
        return subprocess.check_output(["git", "-C", here, "rev-parse", "HEAD"], text=True).strip()
    except Exception:
        return None


def loadavg():
    try:
        return list(os.getloadavg())
    except OSError:
        return None


def best_per_call(fns, number, repeat, timer=time.perf_counter):
    """{name: best seconds per call}, contenders interleaved in each repeat."""
    best = {k: float("inf") for k in fns}
    for _ in range(repeat):
        for k, f in fns.items():
            t = timeit.timeit(f, number=number, timer=timer) / number
            best[k] = min(best[k], t)
    return best


def single_message(repeat):
    rows = []
    for size, number in ((64, 20000), (1024, 5000), (1 << 20, 5)):
        data = os.urandom(size)
        assert keccakx.sha3_256(data).digest() == hashlib.sha3_256(data).digest()
        fns = {
            "keccakx": lambda: keccakx.sha3_256(data).digest(),
            "hashlib": lambda: hashlib.sha3_256(data).digest(),
        }
        if CryptoSHA3_256 is not None:
            fns["pycryptodome"] = lambda: CryptoSHA3_256.new(data).digest()
        best = best_per_call(fns, number, repeat, timer=time.thread_time)
        wall = best_per_call(fns, number, max(3, repeat // 2))
        row = {"function": "sha3-256", "bytes": size}
        for k, t in best.items():
            row[k] = {
                "cpu_ns_per_call": round(t * 1e9, 1),
                "cpu_MB_per_s": round(size / t / 1e6, 2),
                "wall_ns_per_call": round(wall[k] * 1e9, 1),
            }
        row["keccakx_vs_hashlib"] = round(best["hashlib"] / best["keccakx"], 3)
        row["keccakx_vs_hashlib_wall"] = round(wall["hashlib"] / wall["keccakx"], 3)
        if "pycryptodome" in best:
            row["keccakx_vs_pycryptodome"] = round(best["pycryptodome"] / best["keccakx"], 3)
        rows.append(row)
        print(f"SHA3-256 {size:>8} B (CPU time): " + "  ".join(f"{k} {t * 1e9:10.0f} ns" for k, t in best.items())
              + f"   keccakx/hashlib speedup {row['keccakx_vs_hashlib']:.2f}x "
              f"(wall {row['keccakx_vs_hashlib_wall']:.2f}x)", flush=True)
    return rows


def batch(repeat, n=100_000, size=64):
    rnd = np.random.default_rng(2024)
    arr = rnd.integers(0, 256, size=(n, size), dtype=np.uint8)
    msgs = [bytes(r) for r in arr]
    want = b"".join(hashlib.sha3_256(m).digest() for m in msgs)
    assert keccakx.hash_many(msgs, "sha3_256").tobytes() == want
    assert keccakx.hash_many(arr, "sha3_256").tobytes() == want

    fns = {
        "keccakx.hash_many(list)": lambda: keccakx.hash_many(msgs, "sha3_256"),
        "keccakx.hash_many(ndarray)": lambda: keccakx.hash_many(arr, "sha3_256"),
        "hashlib loop": lambda: [hashlib.sha3_256(m).digest() for m in msgs],
        "keccakx loop": lambda: [keccakx.sha3_256(m).digest() for m in msgs],
    }
    if CryptoSHA3_256 is not None:
        fns["pycryptodome loop"] = lambda: [CryptoSHA3_256.new(m).digest() for m in msgs]
    best = best_per_call(fns, 1, repeat)
    cpu = best_per_call(fns, 1, repeat, timer=time.process_time)
    loop = best["hashlib loop"]
    out = {"function": "sha3-256", "messages": n, "bytes_each": size}
    out["results"] = {
        k: {
            "seconds": round(t, 5),
            "messages_per_s": round(n / t),
            "speedup_vs_hashlib_loop": round(loop / t, 2),
            "process_cpu_seconds": round(cpu[k], 5),
        }
        for k, t in best.items()
    }
    for k, t in best.items():
        print(f"batch 10^5 x 64 B  {k:28} {t * 1e3:9.2f} ms   {loop / t:6.2f}x the hashlib loop", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", help="write the JSON here")
    ap.add_argument("--repeat", type=int, default=7, help="repeats per measurement (best is kept)")
    args = ap.parse_args()

    model, flags = cpu_info()
    meta = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": git_commit(),
        "machine": {
            "cpu": model,
            "cpu_flags": flags,
            "cpus": os.cpu_count(),
            "platform": platform.platform(),
        },
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "pycryptodome": PYCRYPTODOME,
        "hashlib_sha3": "CPython built-in _sha3 (" + ("HACL*" if sys.version_info >= (3, 12) else "tiny_sha3") + ")",
        "keccakx": {"version": keccakx.__version__, "engine": keccakx.engine(), "backends": keccakx.backends()},
        "loadavg_before": loadavg(),
    }
    print(f"# {model} ({os.cpu_count()} CPUs), Python {meta['python']}, keccakx engine {meta['keccakx']['engine']}, "
          f"load {meta['loadavg_before']}", flush=True)
    single = single_message(args.repeat)
    many = batch(max(3, args.repeat // 2))
    meta["loadavg_after"] = loadavg()
    report = {
        **meta,
        "single_message": single,
        "batch": many,
        "targets": {
            "faster_than_hashlib_sha3_256_at_every_size": all(r["keccakx_vs_hashlib"] > 1 for r in single),
            "batch_at_least_5x_hashlib_loop": many["results"]["keccakx.hash_many(list)"]["speedup_vs_hashlib_loop"] >= 5,
        },
        "method": "best of repeats, contenders interleaved per repeat; per call = constructor + digest "
                  "(as hashlib is used), headline ratio on the calling thread's CPU time, wall ratio beside it; "
                  "batch timed by the wall clock end to end including the NumPy result",
    }
    print(json.dumps(report["targets"]))
    if args.out:
        with open(args.out, "w") as f:
            json.dump(report, f, indent=2)
            f.write("\n")
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
