"""The client side of a :mod:`keccakx.distributed` run: one job per object,
listed (size and stamp) a batch at a time, its tasks through the bounded
window (:mod:`keccakx._window`), its final node fed in order, and the
jobs handed back in input order as they finish.

Nothing here holds the whole input: objects are listed in batches (256,
then doubling up to :data:`BATCH_MAX`) as the window asks for tasks, so a
checksum list of millions of lines holds at most a batch of jobs, the
window's tasks, and the jobs read but not yet answered.
"""

from __future__ import annotations

import errno
import os
import stat
import uuid
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Optional

from . import _tasks, hazmat
from . import _window as _window_mod

#: Default (and smallest default) bytes per range task, 128 MiB: a task
#: costs its worker ~1 ms of CPU and the client and scheduler ~1-3 ms
#: beside ~10-25 ms of hashing per 128 MiB on a 2-core machine, and fewer
#: tasks per object measured cheaper per byte than 64 MiB parts
#: (bench/NOTES.md, "Dask cluster"); small enough to spread an object of a
#: GiB over several workers.
DEFAULT_PART_SIZE = 128 << 20

#: The default part size grows up to this for objects large enough to
#: give every worker thread PARTS_PER_THREAD parts anyway: fewer tasks per
#: byte (each costs the client and scheduler ~1 ms of CPU, and the worker
#: a few; bench/NOTES.md).
MAX_AUTO_PART_SIZE = 256 << 20
PARTS_PER_THREAD = 4
#: Parts per worker thread a batch of objects listed together must give:
#: fewer than for one object, because the objects themselves spread the
#: load (four 256 MiB objects on two threads: each hashed whole by one task
#: instead of cut in two, which halved the client's CPU; bench/NOTES.md).
BATCH_PARTS_PER_THREAD = 2

#: Tasks submitted ahead of the final nodes, per worker thread.
WINDOW_PER_THREAD = 8

#: Objects listed at once, at most (the first batch is 256).
BATCH_MAX = 16384

_object_error = _tasks.object_error


@dataclass
class FileResult:
    """One object's outcome: ``digest`` (bytes) or ``error`` (an exception
    naming the object, e.g. ``FileNotFoundError``)."""

    url: str
    digest: Optional[bytes] = None
    error: Optional[BaseException] = None
    size: Optional[int] = None

    @property
    def ok(self) -> bool:
        return self.error is None

    def hexdigest(self) -> str:
        if self.error is not None:
            raise self.error
        return self.digest.hex()


@dataclass(eq=False)
class Job:
    index: int
    url: str  # as given (results and errors name it)
    spec: Any  # distributed._Spec
    part_size: int = 0
    auto_part: bool = False  # part_size is the default, to be sized for the cluster
    target: Optional[_tasks.Target] = None  # what the tasks open, as listed
    error: Optional[BaseException] = None
    digest: Optional[bytes] = None
    node: Any = None  # a split job's final node while its results arrive
    tail: Optional[bytes] = None

    @property
    def size(self) -> Optional[int]:
        return None if self.target is None else self.target.size

    @property
    def done(self) -> bool:
        return self.digest is not None or self.error is not None

    def result(self) -> FileResult:
        err = self.error
        if err is None:
            return FileResult(self.url, digest=self.digest, size=self.size)
        if isinstance(err, OSError) and err.filename not in (None, self.url):
            err = _object_error(self.url, err)
        return FileResult(self.url, error=err, size=self.size)


def protocol(url: str) -> str:
    return url.split("://", 1)[0] if "://" in url else "file"


def fs_of(url: str, storage_options: dict):
    import fsspec

    return fsspec.core.url_to_fs(url, **(storage_options or {}))


def target(url: str, storage_options: dict) -> _tasks.Target:
    """List one object, on the client: what the tasks will open, its size
    and its stamp (size + mtime for files, size + ETag for stores)."""
    if protocol(url) == "file":
        # The name as given (so that "f.bin/" is "Not a directory" and ""
        # is "No such file or directory"), opened by the workers as an
        # absolute path (their cwd is not ours; on other machines they must
        # see the same file system).
        path = url
        if "://" in url:
            try:
                path = fs_of(url, storage_options)[1]
            except Exception as e:
                raise _object_error(url, e) from None
        try:
            st = os.stat(path)
        except (OSError, ValueError) as e:
            raise _object_error(url, e) from None
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), url)
        return _tasks.Target(url, os.path.abspath(path), True, st.st_size, _tasks.local_stamp(st))
    try:
        fs, path = fs_of(url, storage_options)
        info = fs.info(path)
    except Exception as e:
        raise _object_error(url, e) from None
    if info.get("type") == "directory":
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), url)
    if info.get("size") is None:
        raise OSError(errno.EIO, "the store reports no size for this object", url)
    return _tasks.Target(url, url, False, int(info["size"]), _tasks.remote_stamp(info), storage_options or None)


def check_part_size(part_size, spec, url: str) -> int:
    """``part_size`` for ``spec`` (None: the default, rounded up to the
    function's unit), or a TypeError/ValueError naming ``url``."""
    if part_size is None:
        unit = spec.block_size if spec.kind == "ph" else hazmat.CHUNK_LEN
        return -(-DEFAULT_PART_SIZE // unit) * unit
    if isinstance(part_size, bool) or not isinstance(part_size, int):
        raise TypeError(f"{url}: part_size must be an int, not {type(part_size).__name__!r}")
    if spec.kind == "kt" and (part_size <= 0 or part_size % hazmat.CHUNK_LEN):
        raise ValueError(
            f"{url}: part_size={part_size} is not a positive multiple of {spec.display}'s "
            f"{hazmat.CHUNK_LEN}-byte chunk (try {max(1, round(part_size / hazmat.CHUNK_LEN)) * hazmat.CHUNK_LEN})"
        )
    if spec.kind == "ph" and (part_size <= 0 or part_size % spec.block_size):
        b = spec.block_size
        raise ValueError(
            f"{url}: part_size={part_size} is not a positive multiple of the {spec.display} "
            f"block size {b} (try {max(1, round(part_size / b)) * b})"
        )
    if part_size <= 0:
        raise ValueError(f"{url}: part_size must be positive, got {part_size}")
    return part_size


def window(client) -> tuple:
    """(tasks submitted ahead of the final nodes, worker threads): eight
    per worker thread, and at least 64 (small parts are latency-bound: each
    costs a round trip through the scheduler)."""
    try:
        threads = sum(client.nthreads().values())
    except Exception:
        threads = 0
    return max(64, WINDOW_PER_THREAD * threads), threads


def sized_part(job: Job, threads: int, batch_bytes: int = 0) -> int:
    """The default part size for ``job`` on a cluster of ``threads`` worker
    threads: DEFAULT_PART_SIZE, or larger (up to MAX_AUTO_PART_SIZE) where
    the object still gives every thread PARTS_PER_THREAD parts, or the
    batch of ``batch_bytes`` listed with it BATCH_PARTS_PER_THREAD parts
    (many large objects keep the threads busy with fewer, larger parts
    each); a multiple of the function's unit. It never changes the
    digest."""
    unit = job.spec.block_size if job.spec.kind == "ph" else hazmat.CHUNK_LEN
    threads = max(1, threads)
    want = max(-(-job.size // (PARTS_PER_THREAD * threads)), -(-batch_bytes // (BATCH_PARTS_PER_THREAD * threads)))
    part = min(MAX_AUTO_PART_SIZE, max(DEFAULT_PART_SIZE, want))
    return -(-part // unit) * unit


def workers_in_this_process(client) -> bool:
    pids = client.run(os.getpid)
    return bool(pids) and all(p == os.getpid() for p in pids.values())


def list_jobs(jobs: list, so: dict) -> None:
    """Sizes and stamps of ``jobs``, on the client, many side by side; a
    job that cannot be listed gets its error."""

    def one(job):
        try:
            job.target = target(job.url, so)
        except Exception as e:
            job.error = e

    if len(jobs) == 1:
        one(jobs[0])
        return
    with ThreadPoolExecutor(max_workers=min(16, len(jobs))) as pool:
        list(pool.map(one, jobs))


def batches(items, so: dict, part_size, get_client=None, first: int = 256):
    """Lists of listed jobs from an iterable of (url, spec), ``first`` at a
    time, then twice as many each time up to BATCH_MAX; a batch ends early,
    followed by WAIT, where ``items`` yields WAIT (its input would block).
    A part size that
    does not fit a spec (a check list mixing lengths or block sizes) falls
    back to the default for that object. ``get_client`` (for memory://
    objects) is asked whether the workers share this process."""
    it = iter(items)
    n, index, shared = first, 0, None
    end = False
    while not end:
        chunk, wait = [], False
        while len(chunk) < n:
            item = next(it, None)
            if item is None:
                end = True
                break
            if item is _window_mod.WAIT:
                wait = True
                break
            chunk.append(item)
        if not chunk:
            if wait:
                yield _window_mod.WAIT
            continue
        jobs = []
        for url, spec in chunk:
            job = Job(index, url, spec)
            index += 1
            try:
                job.part_size = check_part_size(part_size, spec, url)
                job.auto_part = part_size is None
            except (TypeError, ValueError):
                job.part_size = check_part_size(None, spec, url)
                job.auto_part = True
            jobs.append(job)
        list_jobs(jobs, so)
        for j in jobs:
            if j.error is None and protocol(j.url) == "memory":
                if shared is None:
                    shared = workers_in_this_process(get_client())
                if not shared:
                    j.error = ValueError(
                        f"{j.url}: memory:// objects exist only in this process, and this "
                        "cluster's workers are other processes (use LocalCluster(processes=False))"
                    )
        yield jobs
        if wait:
            yield _window_mod.WAIT
        n = min(2 * n, BATCH_MAX)


def take(job: Job, slot, value, so: dict) -> None:
    """Feed one task's result to its job's final node; finish the job after
    its last task, checking that the object is still the one listed."""
    spec = job.spec
    if slot.kind in ("ends", "first"):
        head, job.tail, cvs = value if slot.kind == "first" else (*value, b"")
        job.node = hazmat.KtFinalNode(job.size, custom=spec.custom, algorithm=spec.name)
        job.node.absorb_head(head)
        if cvs:
            job.node.update(cvs)
    else:
        if job.node is None:
            job.node = hazmat.ParallelHashFinalNode(
                job.size, block_size=spec.block_size, custom=spec.custom, algorithm=spec.name
            )
        job.node.update(value)
    if slot.last:
        # The tasks each checked their object when they opened it; this
        # catches a change (growth, rewrite) after the first task started.
        _tasks.check_stamp(job.url, target(job.url, so).stamp, job.target.stamp)
        node, job.node = job.node, None
        if spec.kind == "kt":
            job.digest = node.finalize(job.tail, spec.out_len)
        else:
            job.digest = node.finalize(spec.out_len)


def run(c, job_batches, so: dict, bar=None):
    """Run the jobs of ``job_batches`` (lists of listed jobs) on client
    ``c`` through a bounded window, feeding their final nodes in order;
    yields every job (failed ones too) in input order as soon as it and
    all before it are done. ``bar``: a progress bar, its total grown as
    batches are listed."""
    order = deque()
    win, threads = window(c)

    def live_batches():
        for jobs in job_batches:
            if jobs is _window_mod.WAIT:
                yield jobs
                continue
            order.extend(jobs)
            live = [j for j in jobs if j.error is None]
            # One object alone is sized by its own rule (four parts a thread).
            batch_bytes = sum(j.size for j in live) if len(live) > 1 else 0
            for j in live:
                if j.auto_part:
                    j.part_size = sized_part(j, threads, batch_bytes)
            if bar is not None:
                bar.grow(sum(j.size for j in live))
            yield live

    token = uuid.uuid4().hex[:12]
    stream = _window_mod.Stream(c, _window_mod.slots(live_batches(), token, threads), win)
    try:
        for slot, value, err in stream:
            if bar is not None:
                bar.add(slot.nbytes)
            if slot.kind == "group":
                for k, job in enumerate(slot.jobs):
                    if err is not None:
                        job.error = err
                    else:
                        job.digest, job.error = value[k]
            else:
                job = slot.jobs[0]
                if job.error is None:
                    try:
                        if err is not None:
                            raise err
                        take(job, slot, value, so)
                    except Exception as e:
                        job.error, job.node, job.tail = e, None, None
            while order and order[0].done:
                yield order.popleft()
        # Jobs listed after the last task (all failed to list).
        while order:
            yield order.popleft()
    except BaseException:
        stream.cancel()
        raise
