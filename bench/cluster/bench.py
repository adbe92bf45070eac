"""keccakx.distributed against `keccakx sum` on the same data, this machine.

Scenarios, each timed in every round, rounds alternated (the machine is
shared): big files of 256 MiB and 1 GiB (`digest`, and `keccakx-cluster
--scheduler` on the largest, vs `keccakx sum`), four objects of 256 MiB
and sixteen of 16 MiB (each set in one `hash_files` call, vs `keccakx sum`
of the set), many small files
(`hash_files` vs `keccakx sum FILE...`), with a LocalCluster of 1 worker
(2 task threads) and of 2 workers (1 thread each), for KT128 and SHA3-256.
Before the rounds, one digest of the largest file under Dask's task
stream (where its time goes: tasks' compute time against the wall time,
the wait before the first task and after the last). Plus, in this
process, the costs that size a cluster: chaining values per second per core
(the workers' work) and absorbed per second by the final node (the
client's), as seconds per TiB of input. And the CPU seconds each part
spends per GiB (`cpu_s_per_gib`: `keccakx sum`'s process; the workers'
processes; the client's process, which in a LocalCluster also runs the
scheduler), which other processes' load inflates far less than wall time:
`keccakx sum`'s CPU per byte over a worker's is the fraction of one
machine's `keccakx sum` a worker gives on a machine of its own (the
figure that sizes a cluster). Writes JSON; plot.py draws it.

    flock /work/bench.lock .venv/bin/python bench/cluster/bench.py --keccakx target/release/keccakx \
        --out bench/results/cluster-DATE.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import keccakx
from keccakx import distributed as kd
from keccakx import _jobs, hazmat

TIB = 1 << 40


def wall(f):
    t = time.perf_counter()
    r = f()
    return time.perf_counter() - t, r


def proc_cpu():
    """CPU seconds (user + system) of the process this runs in, all threads,
    to the microsecond (run on the workers too: psutil's are 10 ms ticks,
    a tenth of what a worker spends on 1 GiB)."""
    import resource

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


#: This process's environment before Dask changed it: starting a
#: LocalCluster sets MALLOC_TRIM_THRESHOLD_, OMP_NUM_THREADS ... in
#: os.environ, which every `keccakx sum` started afterwards would inherit
#: (MALLOC_TRIM_THRESHOLD_ made its small-file path cost 3.7x the CPU
#: before it kept its read buffer; bench/NOTES.md). `keccakx sum` runs
#: with the environment a user's shell gives it.
USER_ENV = dict(os.environ)


def cli(bin_path, algorithm, paths):
    out = subprocess.run([bin_path, "sum", "-a", algorithm, *map(str, paths)], capture_output=True, check=True,
                         env=USER_ENV)
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


def reading_costs(path, size, keccakx_bin):
    """CPU seconds per GiB (this process, all threads) of getting a cached
    file's whole leaves to the engine and computing their KT128 CVs, 64 MiB
    ranges: `os.preadv` into one reused 8 MiB buffer (what the workers did
    before), the native reader the workers use now
    (`hazmat.kt_chaining_values_file`: 16 MiB windows mapped with
    MAP_POPULATE, hashed in place), the CVs of bytes already in memory
    (the hashing alone); and `keccakx sum` of the whole file (its process),
    which reads as the native reader does."""
    part, unit = 64 << 20, 8 << 20
    end = (size // 8192) * 8192
    ranges = [(a, min(a + part, end)) for a in range(8192, end, part)]
    buf = bytearray(unit)
    mem = os.urandom(unit)

    def by_preadv(fd):
        mv = memoryview(buf)
        for a, b in ranges:
            for pos in range(a, b, unit):
                k = min(unit, b - pos)
                os.preadv(fd, [mv[:k]], pos)
                hazmat.kt_chaining_values(mv[:k], pos // 8192, "kt128")

    def native(fd):
        for a, b in ranges:
            hazmat.kt_chaining_values_file(fd, a, b, "kt128")

    def in_memory(fd):
        for a, b in ranges:
            for pos in range(a, b, unit):
                hazmat.kt_chaining_values(mem[:min(unit, b - pos)], pos // 8192, "kt128")

    out = {}
    fd = os.open(path, os.O_RDONLY)
    try:
        for name, f in (("preadv into a reused buffer", by_preadv), ("native reader (mapped, populated)", native),
                        ("bytes already in memory", in_memory)):
            v = []
            for _ in range(3):
                c = proc_cpu()
                f(fd)
                v.append((proc_cpu() - c) / (size / (1 << 30)))
            out[name] = statistics.median(v)
        v = []
        for _ in range(3):
            c = children_cpu()
            cli(keccakx_bin, "kt128", [path])
            v.append((children_cpu() - c) / (size / (1 << 30)))
        out["keccakx sum (its process)"] = statistics.median(v)
    finally:
        os.close(fd)
    return out


def task_stream_profile(c, path, size):
    """Where one digest's time goes, from Dask's task stream: the tasks'
    compute time against the wall time, the wait before the first task
    starts (listing, submission) and after the last ends (final node)."""
    from distributed import get_task_stream

    t0 = time.time()
    with get_task_stream(client=c) as ts:
        kd.digest(path, "kt128", client=c, progress=False)
    t1 = time.time()
    spans = []
    for rec in ts.data:
        for ss in rec.get("startstops", ()):
            if ss["action"] == "compute":
                spans.append((ss["start"], ss["stop"]))
    if not spans:
        return {}
    first = min(s for s, _ in spans)
    last = max(e for _, e in spans)
    busy = sum(e - s for s, e in spans)
    return {
        "bytes": size,
        "wall_s": t1 - t0,
        "tasks": len(spans),
        "compute_s_sum": busy,
        "before_first_task_s": first - t0,
        "after_last_task_s": t1 - last,
        "tasks_span_s": last - first,
        "mean_tasks_running": busy / (last - first) if last > first else None,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--keccakx", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--cluster-cli", default=str(Path(sys.executable).parent / "keccakx-cluster"))
    ap.add_argument("--sizes", default="256M,1G", help="sizes of the big files (K/M/G)")
    ap.add_argument("--files", type=int, default=256, help="number of small files")
    ap.add_argument("--file-size", type=int, default=1 << 20)
    ap.add_argument("--stream", default="4x256M,16x16M",
                    help="COUNTxSIZE,...: each a set of objects hashed by one hash_files call (the per-call "
                         "latency spread over them; objects up to the part size are hashed whole by one task)")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    from distributed import Client

    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    sizes = [int(x[:-1]) * units[x[-1]] if x[-1] in units else int(x) for x in a.sizes.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="kx-bench-cluster-"))
    bigs = []
    for n in sizes:
        p = tmp / f"big-{n >> 20}M.bin"
        write_random(p, n)
        bigs.append((p, n))
    streams = []  # (label, paths, total bytes)
    for spec in a.stream.split(","):
        count, _, each = spec.partition("x")
        each = int(each[:-1]) * units[each[-1]] if each[-1] in units else int(each)
        paths = []
        for i in range(int(count)):
            p = tmp / f"stream-{each >> 20}M-{i}.bin"
            write_random(p, each)
            paths.append(p)
        streams.append((f"{count} x {each >> 20} MiB", paths, int(count) * each))
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
    want_big = {p: cli(a.keccakx, "kt128", [p])[0] for p, _ in bigs}
    want_many = {alg: cli(a.keccakx, alg, files) for alg in ("kt128", "sha3-256")}
    want_stream = {label: cli(a.keccakx, "kt128", paths) for label, paths, _ in streams}
    rows = {}
    cpu_rows = {}
    loads = []

    def record(name, seconds, nbytes, cpu_s=None):
        rows.setdefault(name, []).append(nbytes / seconds)
        for who, v in (cpu_s or {}).items():
            cpu_rows.setdefault(name, {}).setdefault(who, []).append(v / (nbytes / (1 << 30)))

    def sum_timed(algorithm, paths):
        c0 = children_cpu()
        t, d = wall(lambda: cli(a.keccakx, algorithm, paths))
        return t, d, {"keccakx sum": children_cpu() - c0}

    def dask_timed(c, f):
        """Wall time of f() and the CPU the workers and this process spent
        meanwhile (sampled just before and after, outside the timing)."""
        w0, m0 = sum(c.run(proc_cpu).values()), proc_cpu()
        t, d = wall(f)
        m1, w1 = proc_cpu(), sum(c.run(proc_cpu).values())
        return t, d, {"workers": w1 - w0, "client+scheduler": m1 - m0}

    def cluster_cli(address, path):
        out = subprocess.run([a.cluster_cli, "sum", "--no-progress", "--scheduler", address, "-a", "kt128", str(path)],
                             capture_output=True, check=True, env=USER_ENV)
        return bytes.fromhex(out.stdout.split(b" ")[0].decode())

    profiles = {}
    try:
        for label, (cl, c) in clusters.items():
            kd.digest(bigs[0][0], "kt128", client=c, progress=False)  # warm the workers
            profiles[label] = task_stream_profile(c, bigs[-1][0], bigs[-1][1])
        for r in range(a.rounds):
            loads.append(open("/proc/loadavg").read().split()[0])
            order = list(clusters) if r % 2 == 0 else list(reversed(clusters))
            for path, n in bigs:
                mib = n >> 20
                t, d, u = sum_timed("kt128", [path])
                assert d[0] == want_big[path]
                record(f"{mib} MiB KT128: keccakx sum", t, n, u)
                for label in order:
                    cl, c = clusters[label]
                    t, d, u = dask_timed(c, lambda: kd.digest(path, "kt128", client=c, progress=False))
                    assert d == want_big[path]
                    record(f"{mib} MiB KT128: digest, {label}", t, n, u)
                    if path == bigs[-1][0]:
                        t, d = wall(lambda: cluster_cli(cl.scheduler_address, path))
                        assert d == want_big[path]
                        record(f"{mib} MiB KT128: keccakx-cluster --scheduler, {label}", t, n)
            for stream_label, stream, streamed in streams:
                t, d, u = sum_timed("kt128", stream)
                assert d == want_stream[stream_label]
                record(f"{stream_label} KT128: keccakx sum", t, streamed, u)
                for label in order:
                    c = clusters[label][1]
                    t, res, u = dask_timed(c, lambda: kd.hash_files([str(p) for p in stream], "kt128", client=c,
                                                                   progress=False))
                    assert [x.digest for x in res] == want_stream[stream_label]
                    record(f"{stream_label} KT128: hash_files, {label}", t, streamed, u)
            for alg in ("kt128", "sha3-256"):
                t, d, u = sum_timed(alg, files)
                assert d == want_many[alg]
                record(f"{len(files)} files {alg.upper()}: keccakx sum", t, many, u)
                for label in order:
                    c = clusters[label][1]
                    t, res, u = dask_timed(c, lambda: kd.hash_files([str(p) for p in files], alg, client=c,
                                                                   progress=False))
                    assert [x.digest for x in res] == want_many[alg]
                    record(f"{len(files)} files {alg.upper()}: hash_files, {label}", t, many, u)
            print(f"round {r + 1}/{a.rounds} done (load {loads[-1]})", file=sys.stderr)
    finally:
        for cl, c in clusters.values():
            c.close()
            cl.close()
    fin = final_node_rates()
    chain = chaining_rates()
    # The same reads on the largest file (written 8 MiB at a time, as
    # here) and on a copy written 4 KiB at a time: the page cache then
    # holds it in small pages, whose mapping costs more.
    big, big_n = bigs[-1]
    small_pages = tmp / "small-writes.bin"
    with open(big, "rb") as src, open(small_pages, "wb") as dst:
        while True:
            b = src.read(4096)
            if not b:
                break
            dst.write(b)
    reads = {"written 8 MiB at a time": reading_costs(big, big_n, a.keccakx),
             "written 4 KiB at a time": reading_costs(small_pages, big_n, a.keccakx)}
    small_pages.unlink()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True).stdout
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    tput = {k: {"median": statistics.median(v), "rounds": v} for k, v in rows.items()}
    cpu_med = {k: {who: statistics.median(v) for who, v in d.items()} for k, d in cpu_rows.items()}
    # keccakx sum's CPU per byte over the workers' (the same scenario):
    # what a worker gives of its machine's keccakx sum with the cores to
    # itself; and over workers + client + scheduler (all on one machine).
    per_worker = {}
    for k, d in cpu_med.items():
        head, _, who = k.partition(": ")
        base = cpu_med.get(f"{head}: keccakx sum", {}).get("keccakx sum")
        if base and "workers" in d:
            per_worker[k] = {"worker_only": base / d["workers"],
                             "with_client_and_scheduler": base / (d["workers"] + d["client+scheduler"])}
    ratios = {}
    for k in tput:
        head, _, who = k.partition(": ")
        base = f"{head}: keccakx sum"
        if k != base and base in tput:
            ratios[k] = tput[k]["median"] / tput[base]["median"]
    result = {
        "benchmark": "cluster",
        "commit": commit + ("-dirty" if dirty.strip() else ""),
        "machine": {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
                    "engine": keccakx.engine(), "loadavg_per_round": loads},
        "config": {"big_file_bytes": sizes, "stream": a.stream, "files": a.files, "file_bytes": a.file_size, "rounds": a.rounds,
                   "part_size": f"default: {_jobs.DEFAULT_PART_SIZE >> 20} MiB, up to 256 MiB for objects giving every worker thread 4 parts (batches: 2)",
                   "clusters": {"1 worker": "LocalCluster(n_workers=1, threads_per_worker=2)",
                                "2 workers": "LocalCluster(n_workers=2, threads_per_worker=1)"}},
        "cluster_start_s": starts,
        "throughput_bytes_per_s": tput,
        "ratio_to_keccakx_sum": ratios,
        "cpu_s_per_gib": {k: {who: {"median": cpu_med[k][who], "rounds": v} for who, v in d.items()}
                          for k, d in cpu_rows.items()},
        "cpu_ratio_to_keccakx_sum": per_worker,
        "task_stream_profile": profiles,
        "final_node": fin,
        "chaining_values_bytes_per_s": chain,
        "reading_cpu_s_per_gib": reads,
    }
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    for k, v in result["throughput_bytes_per_s"].items():
        print(f"{k:60s} {v['median'] / 1e9:7.3f} GB/s  {ratios.get(k, 1.0):5.2f}x")
    for k, v in per_worker.items():
        print(f"CPU per byte, keccakx sum / {k:50s} {v['worker_only']:5.2f}x (workers), "
              f"{v['with_client_and_scheduler']:5.2f}x (all)")
    for k, v in fin.items():
        print(f"final node {k:30s} {v['cvs_per_s'] / 1e6:7.2f} M CV/s  {v['s_per_tib_input']:7.2f} s/TiB")
    for k, v in chain.items():
        print(f"chaining values, {k:10s} {v / 1e9:7.3f} GB/s")
    for k, d in reads.items():
        for how, v in d.items():
            print(f"reading + CVs, file {k}, {how:30s} {v:6.3f} CPU-s/GiB")
    print(json.dumps(profiles, indent=1))
    for p in [*(p for p, _ in bigs), *(p for _, ps, _ in streams for p in ps), *files]:
        p.unlink()
    tmp.rmdir()


if __name__ == "__main__":
    main()
