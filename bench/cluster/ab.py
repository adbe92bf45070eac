"""A/B of one client-side choice of keccakx.distributed, the same client
and cluster, alternated rounds; KT128, LocalCluster of 1 worker x 2
threads and of 2 workers x 1 thread; CPU seconds per GiB of the worker
processes and of the client (+ scheduler) from getrusage, wall seconds
per GiB; medians of the rounds. Experiments:

* ``parts``: four 256 MiB objects in one ``hash_files`` call, the default
  part size sized per batch of objects listed together (now) or per
  object (before);
* ``ends``: one 256 MiB object (``digest``), KT's head and tail read by
  the first range task (now) or by a task of their own (before: each
  first task split back into the two);
* ``minpart``: one 256 MiB object (``digest``), the smallest default part
  128 MiB (now: two tasks) or 64 MiB (before: four tasks);
* ``groups``: sixteen 16 MiB objects (``hash_files``), small objects
  grouped into four tasks per worker thread (now) or into as many tasks as
  the submission window holds (before: 64 on this machine, one object
  per task here).

    .venv/bin/python bench/cluster/ab.py parts --out bench/results/cluster-batch-parts-DATE.json
    .venv/bin/python bench/cluster/ab.py ends --out bench/results/cluster-first-task-DATE.json
    .venv/bin/python bench/cluster/ab.py minpart --out bench/results/cluster-min-part-DATE.json
    .venv/bin/python bench/cluster/ab.py groups --out bench/results/cluster-groups-DATE.json
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

from keccakx import _jobs, _tasks, _window
from keccakx import distributed as kd


def cpu():

    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("experiment", choices=["parts", "ends", "minpart", "groups"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--reps", type=int, default=3, help="hash_files calls per round and variant")
    a = ap.parse_args()
    from distributed import Client, LocalCluster

    tmp = Path(tempfile.mkdtemp(prefix="kx-ab-"))
    files = []
    count, mib = {"parts": (4, 256), "groups": (16, 16)}.get(a.experiment, (1, 256))
    for i in range(count):
        p = tmp / f"o{i}.bin"
        with open(p, "wb") as f:
            for _ in range(mib // 8):
                f.write(os.urandom(8 << 20))
        files.append(str(p))
    gib = count * (mib << 20) / (1 << 30)
    per_batch = _jobs.sized_part
    first_task = _window.slots

    def per_object(job, threads, batch_bytes=0):
        return per_batch(job, threads)

    def own_ends_task(*args, **kw):
        for s in first_task(*args, **kw):
            if s.kind != "first":
                yield s
                continue
            t, name, head_len, tail_offset, start, end = s.args
            yield _window.Slot(_tasks.kt_ends, (t, head_len, tail_offset), s.key.replace("-cvs-", "-ends-"), s.jobs,
                               "ends", s.nbytes - (end - start))
            yield _window.Slot(_tasks.kt_run, (t, name, start, end), s.key, s.jobs, "run", end - start, last=s.last)

    now_min = _jobs.DEFAULT_PART_SIZE
    now_groups = _window.group_size

    def window_groups(small, threads):
        return max(1 << 20, min(64 << 20, small // max(64, 8 * threads)))
    if a.experiment == "parts":
        variants = {"per batch (now)": (per_batch, first_task, now_min, now_groups),
                    "per object (before)": (per_object, first_task, now_min, now_groups)}
    elif a.experiment == "ends":
        variants = {"head and tail in the first task (now)": (per_batch, first_task, now_min, now_groups),
                    "a task of their own (before)": (per_batch, own_ends_task, now_min, now_groups)}
    elif a.experiment == "minpart":
        variants = {f"smallest part {now_min >> 20} MiB (now)": (per_batch, first_task, now_min, now_groups),
                    "smallest part 64 MiB (before)": (per_batch, first_task, 64 << 20, now_groups)}
    else:
        variants = {"4 groups per thread (now)": (per_batch, first_task, now_min, now_groups),
                    "as many groups as the window (before)": (per_batch, first_task, now_min, window_groups)}

    def call(c):
        if a.experiment in ("parts", "groups"):
            return [x.digest for x in kd.hash_files(files, "kt128", client=c, progress=False)]
        return kd.digest(files[0], "kt128", client=c, progress=False)
    out = {}
    try:
        for label, nw, nt in (("1 worker x 2 threads", 1, 2), ("2 workers x 1 thread", 2, 1)):
            cl = LocalCluster(n_workers=nw, threads_per_worker=nt, processes=True, dashboard_address=None)
            c = Client(cl)
            want = call(c)
            rows = {k: [] for k in variants}
            for r in range(a.rounds):
                order = list(variants) if r % 2 == 0 else list(reversed(variants))
                for name in order:
                    _jobs.sized_part, _window.slots, _jobs.DEFAULT_PART_SIZE, _window.group_size = variants[name]
                    w0, m0, t = sum(c.run(cpu).values()), cpu(), time.perf_counter()
                    for _ in range(a.reps):
                        got = call(c)
                    t = time.perf_counter() - t
                    m1, w1 = cpu(), sum(c.run(cpu).values())
                    assert got == want
                    n = a.reps * gib
                    rows[name].append({"workers_cpu_s_per_gib": (w1 - w0) / n,
                                       "client_cpu_s_per_gib": (m1 - m0) / n, "wall_s_per_gib": t / n})
            _jobs.sized_part, _window.slots, _jobs.DEFAULT_PART_SIZE, _window.group_size = (
                per_batch, first_task, now_min, now_groups)
            out[label] = {k: {m: statistics.median(x[m] for x in v) for m in v[0]} | {"rounds": v}
                          for k, v in rows.items()}
            c.close()
            cl.close()
    finally:
        for p in files:
            os.unlink(p)
        tmp.rmdir()
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
    result = {"benchmark": f"cluster-ab-{a.experiment}", "commit": commit, "cores": os.cpu_count(),
              "loadavg": open("/proc/loadavg").read().split()[:3],
              "objects": f"{count} x {mib} MiB, KT128, "
                         + ("hash_files" if a.experiment in ("parts", "groups") else "digest"),
              "results": out}
    Path(a.out).write_text(json.dumps(result, indent=2) + "\n")
    for label, d in out.items():
        for k, v in d.items():
            print(f"{label:22s} {k:38s} workers {v['workers_cpu_s_per_gib']:.3f}  client "
                  f"{v['client_cpu_s_per_gib']:.3f} CPU-s/GiB  wall {v['wall_s_per_gib']:.4f} s/GiB")


if __name__ == "__main__":
    main()
