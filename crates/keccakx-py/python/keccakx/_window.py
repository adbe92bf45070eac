"""The client side of :mod:`keccakx.distributed`: a job's tasks generated
lazily, in order, and submitted through a bounded window.

At most ``window`` tasks are submitted and not yet taken by the final
nodes (a few per worker thread: enough that no worker waits for the client,
few enough that a job of millions of parts holds a bounded number of
futures and results on the client). Tasks are submitted in batches (one
``client.map`` per task function and batch: one message to the scheduler,
not one per task) whenever the window is half empty; results are fetched
in the background as they finish (``as_completed``) and handed out in
task order.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from . import _tasks, hazmat

#: Small objects are hashed many to a task, up to this many per task.
GROUP_MAX = 256


@dataclass(eq=False)
class Slot:
    """One task: its function and arguments, the jobs it serves (several
    for a group of small objects), and its future once submitted."""

    func: Any
    args: tuple
    key: str
    jobs: list
    kind: str  # "group", "ends" or "run"
    nbytes: int
    last: bool = False  # a split job's last task
    future: Any = field(default=None, repr=False)


def slots(jobs: list, token: str, group_bytes: int):
    """Every task of ``jobs``, in job order. Objects that are not split
    (sequential functions, or no larger than their part size) are grouped
    into tasks of about ``group_bytes`` (at most GROUP_MAX objects)."""
    group, gbytes = [], 0

    def flush():
        nonlocal group, gbytes
        g, group, gbytes = group, [], 0
        return Slot(
            _tasks.whole_group,
            ([j.target for j in g], [j.spec for j in g]),
            f"keccakx-whole-{token}-{g[0].index:08d}",
            g,
            "group",
            sum(j.target.size for j in g),
        )

    for job in jobs:
        spec, t, part = job.spec, job.target, job.part_size
        if spec.kind not in ("kt", "ph") or t.size <= part:
            group.append(job)
            gbytes += t.size
            if gbytes >= group_bytes or len(group) >= GROUP_MAX:
                yield flush()
            continue
        if group:
            yield flush()
        key = f"{token}-{job.index:08d}"
        if spec.kind == "kt":
            plan = hazmat.kt_plan(t.size)
            start = plan.leaves.start * hazmat.CHUNK_LEN
            stop = plan.leaves.stop * hazmat.CHUNK_LEN
            runs = range(start, stop, part)
            yield Slot(_tasks.kt_ends, (t, plan.head_len, plan.tail_offset), f"keccakx-ends-{key}", [job], "ends",
                       plan.head_len + t.size - plan.tail_offset, last=not runs)
            for i, a in enumerate(runs):
                b = min(a + part, stop)
                yield Slot(_tasks.kt_run, (t, spec.name, a, b), f"keccakx-cvs-{key}-{i:010d}", [job], "run", b - a,
                           last=i == len(runs) - 1)
        else:
            runs = range(0, t.size, part)
            for i, a in enumerate(runs):
                b = min(a + part, t.size)
                yield Slot(_tasks.ph_run, (t, spec.name, spec.block_size, a, b), f"keccakx-cvs-{key}-{i:010d}",
                           [job], "run", b - a, last=i == len(runs) - 1)
    if group:
        yield flush()


class Stream:
    """``for slot, value, error in Stream(client, slots, window)``: each
    task's result (or exception) in task order, at most ``window`` tasks
    submitted ahead of the one being taken. A split job that has failed
    gets no more of its tasks submitted."""

    def __init__(self, client, it, window: int):
        from distributed import as_completed

        self.client = client
        self.it = it
        self.window = max(2, window)
        self.pending = deque()
        self.ready = {}
        self.ac = as_completed([], loop=client.loop, with_results=True, raise_errors=False)
        self.done = False

    def _top_up(self):
        if self.done or len(self.pending) > self.window // 2:
            return
        batch = []
        while not self.done and len(self.pending) + len(batch) < self.window:
            got = list(islice(self.it, self.window - len(self.pending) - len(batch)))
            if not got:
                self.done = True
            batch.extend(s for s in got if s.kind == "group" or s.jobs[0].error is None)
        by_func = {}
        for s in batch:
            by_func.setdefault(s.func, []).append(s)
        for func, items in by_func.items():
            columns = list(zip(*(s.args for s in items)))
            futs = self.client.map(func, *columns, key=[s.key for s in items], pure=False)
            for s, f in zip(items, futs):
                s.future = f
            self.ac.update(futs)
        self.pending.extend(batch)

    def __iter__(self):
        while True:
            self._top_up()
            if not self.pending:
                return
            slot = self.pending.popleft()
            key = slot.future.key
            while key not in self.ready:
                f, r = next(self.ac)
                self.ready[f.key] = (f, r)
            f, r = self.ready.pop(key)
            slot.future = None  # the scheduler may forget the result
            if f.status == "finished":
                yield slot, r, None
                continue
            # An error, or a result lost with its worker: result() waits for
            # Dask's re-run (a pure function of its range) or raises.
            try:
                r, err = f.result(), None
            except Exception as e:
                r, err = None, e
            yield slot, r, err

    def cancel(self):
        futs = [s.future for s in self.pending if s.future is not None]
        self.pending.clear()
        if futs:
            try:
                self.client.cancel(futs)
            except Exception:
                pass


class Bar:
    """A text progress bar on standard error (standard output carries the
    results): bytes taken by the final nodes over all bytes of the job."""

    def __init__(self, total: int, width: int = 40):
        self.total = max(1, total)
        self.width = width
        self.done = 0
        self.t0 = time.monotonic()
        self.last = 0.0

    def _write(self, s: str):
        try:
            sys.stderr.write(s)
            sys.stderr.flush()
        except (OSError, ValueError):  # stderr closed
            pass

    def add(self, n: int):
        self.done += n
        now = time.monotonic()
        if now - self.last >= 0.1 or self.done >= self.total:
            self.last = now
            frac = min(1.0, self.done / self.total)
            self._write("\r[{0:<{1}}] | {2}% Completed | {3:.1f} s".format(
                "#" * int(self.width * frac), self.width, int(100 * frac), now - self.t0))

    def close(self):
        self._write("\33[2K\r")
