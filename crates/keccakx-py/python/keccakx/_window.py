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
from typing import Any

from . import _tasks, hazmat

#: Small objects are hashed many to a task, up to this many per task.
GROUP_MAX = 256

#: Tasks per worker thread a batch's small objects are grouped into: a few
#: per thread balance the load; more only add Dask's per-task cost (~1 ms
#: of worker CPU each; bench/NOTES.md).
GROUPS_PER_THREAD = 4


def group_size(small: int, threads: int) -> int:
    """Bytes of small objects per task for a batch holding ``small`` bytes
    of them: GROUPS_PER_THREAD tasks per worker thread, 1-64 MiB each."""
    return max(1 << 20, min(64 << 20, small // max(1, GROUPS_PER_THREAD * threads)))

#: Passed along instead of a task (or job, or item) when the input would
#: block (a checksum list on a pipe with no more lines yet): the window
#: answers what is in flight before anything waits for more input.
WAIT = object()


@dataclass(eq=False)
class Slot:
    """One task: its function and arguments, the jobs it serves (several
    for a group of small objects), and its future once submitted."""

    func: Any
    args: tuple
    key: str
    jobs: list
    kind: str  # "group", "ends" (KT's head and tail), "first" (ends + the first run) or "run"
    nbytes: int
    last: bool = False  # a split job's last task
    future: Any = field(default=None, repr=False)


def slots(batches, token: str, threads: int):
    """Every task of the jobs in ``batches`` (lists of jobs), in job order.
    Objects that are not split (sequential functions, or no larger than
    their part size) are grouped: at most GROUP_MAX objects and about
    :func:`group_size` bytes per task, so that a batch still gives every
    of the ``threads`` worker threads a few tasks."""
    for jobs in batches:
        if jobs is WAIT:
            yield WAIT
            continue
        small = sum(j.target.size for j in jobs if j.spec.kind not in ("kt", "ph") or j.target.size <= j.part_size)
        group_bytes = group_size(small, threads)
        yield from _batch_slots(jobs, token, group_bytes)


def _batch_slots(jobs: list, token: str, group_bytes: int):
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
            ends = plan.head_len + t.size - plan.tail_offset
            if not runs:
                yield Slot(_tasks.kt_ends, (t, plan.head_len, plan.tail_offset), f"keccakx-ends-{key}", [job], "ends",
                           ends, last=True)
            for i, a in enumerate(runs):
                b = min(a + part, stop)
                last = i == len(runs) - 1
                if i == 0:
                    yield Slot(_tasks.kt_first_run, (t, spec.name, plan.head_len, plan.tail_offset, a, b),
                               f"keccakx-cvs-{key}-{i:010d}", [job], "first", ends + b - a, last=last)
                else:
                    yield Slot(_tasks.kt_run, (t, spec.name, a, b), f"keccakx-cvs-{key}-{i:010d}", [job], "run", b - a,
                               last=last)
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
        self.waiting = False  # the input would block: no more tasks until those in flight are taken

    def _top_up(self):
        if self.done or len(self.pending) > self.window // 2:
            return
        if self.waiting and self.pending:
            # The input would block: take what is in flight first.
            return
        self.waiting = False
        batch = []
        while len(self.pending) + len(batch) < self.window:
            s = next(self.it, None)
            if s is None:
                self.done = True
                break
            if s is WAIT:
                if self.pending or batch:
                    self.waiting = True
                    break
                continue  # nothing in flight: waiting for input is all there is to do
            if s.kind == "group" or s.jobs[0].error is None:
                batch.append(s)
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

    def __init__(self, total: int = 0, width: int = 40):
        self.total = total
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

    def grow(self, n: int):
        """More bytes listed (a job listed a batch at a time)."""
        self.total += n

    def add(self, n: int):
        self.done += n
        now = time.monotonic()
        if now - self.last >= 0.1 or self.done >= self.total:
            self.last = now
            frac = min(1.0, self.done / max(1, self.total))
            self._write("\r[{0:<{1}}] | {2}% Completed | {3:.1f} s".format(
                "#" * int(self.width * frac), self.width, int(100 * frac), now - self.t0))

    def close(self):
        self._write("\33[2K\r")
