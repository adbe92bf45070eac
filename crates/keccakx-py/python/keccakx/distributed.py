"""keccakx on a Dask cluster: digests identical to one machine's.

``pip install 'keccakx[dask]'`` (dask.distributed, fsspec, s3fs).

* :func:`digest` hashes ONE object (any fsspec URL: a local path,
  ``file://``, ``s3://``, ``memory://`` ...). KT128/KT256 and
  ParallelHash(XOF)128/256 are tree hashes: their chaining values are
  computed by many tasks, each reading only its byte range of the object,
  on the workers' cores; the client streams the values, in order, into the
  final node (:mod:`keccakx.hazmat`). The digest is bit for bit the one
  ``keccakx sum`` or ``keccakx.kt128(data)`` gives on one machine, for any
  part size and any number of workers. SHA-3, SHAKE, KMAC, cSHAKE,
  TupleHash, TurboSHAKE, Keccak, tree LI are sequential functions: each
  object is hashed by one task (on all of that worker's cores where the
  function allows), without false parallelism.
* :func:`hash_files` hashes many objects: one task per object, objects
  larger than ``part_size`` split as above; results in input order, a
  failed object (missing, unreadable, changed while read) reported in its
  :class:`FileResult` while the others complete.

What runs where: the client lists and sizes the objects (``fs.info``, or
one listing for a glob), submits tasks, and runs the final nodes (cheap: it
absorbs 32 bytes per 8 KiB of input for KT128); workers read their ranges
and compute chaining values or whole digests with the native library.
Without ``client``, the default Dask client is used if one exists, else a
``LocalCluster`` on this machine for the call (:func:`local_cluster`).
``client`` may also be a scheduler address (``"tcp://host:8786"``).

A worker lost mid-job has its tasks re-run by Dask elsewhere; every task is
a pure function of its byte range, so the digest is still exact. A
progress bar (Dask's: text on a terminal, a widget in a notebook) shows
when ``progress=True`` (default: on a terminal or in a notebook).

Part sizes: a positive multiple of 8192 bytes for KT (its chunk) and of the
block size B for ParallelHash; default 64 MiB (rounded up to a multiple of
B). Ranges are always cut on those boundaries, so the part size never
changes the digest.

``memory://`` objects live in the process that wrote them: they can be
hashed only by workers in that process (the default ``LocalCluster`` uses
threads for them; an explicit client must be ``processes=False``).
"""

from __future__ import annotations

import errno
import os
import sys
import threading
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Optional

import keccakx
from . import _keccakx, hazmat

__all__ = [
    "DEFAULT_PART_SIZE",
    "FileResult",
    "digest",
    "hash_files",
    "local_cluster",
]

#: Default bytes per range task (64 MiB): large enough that per-task
#: overhead (a few ms) is well under 1% of the hashing time on one core,
#: small enough to spread one object over many workers.
DEFAULT_PART_SIZE = 64 << 20

#: Bytes read per call when a task streams a whole object.
_READ_SIZE = 8 << 20

#: Seconds to wait for a scheduler given by address.
CONNECT_TIMEOUT = 10

_TREE_KT = ("kt128", "kt256")
_TREE_PH = ("parallelhash128", "parallelhash256", "parallelhashxof128", "parallelhashxof256")


# ---------------------------------------------------------------- algorithms


@dataclass(frozen=True)
class _Spec:
    """A fully parameterised algorithm, picklable for the workers."""

    name: str  # canonical registry name
    display: str  # the --tag name
    out_len: int
    xof: bool
    binds_length: bool  # KMAC, TupleHash, ParallelHash: L is bound in
    params: tuple  # keyword parameters for keccakx.new, sorted
    kind: str  # "kt", "ph", "tuple" or "seq"

    @property
    def custom(self) -> bytes:
        return dict(self.params).get("custom", b"") or b""

    @property
    def block_size(self) -> int:
        return dict(self.params).get("block_size") or 8192

    def hasher(self, size: int):
        """A fresh hash object for an object of ``size`` bytes."""
        if self.kind == "tuple":
            # keccakx sum hashes a file as the 1-tuple (whole file):
            # cSHAKE(N="TupleHash", S) over left_encode(8*len) || data ||
            # right_encode(L), SP 800-185 section 5.2.
            base = "cshake128" if self.name.endswith("128") else "cshake256"
            h = keccakx.new(base, function_name=b"TupleHash", custom=self.custom)
            h.update(_keccakx._left_encode(8 * size))
            return h
        kw = dict(self.params)
        if self.binds_length:
            kw["digest_size"] = self.out_len
        return keccakx.new(self.name, **kw)

    def finish(self, h) -> bytes:
        if self.kind == "tuple":
            h.update(_keccakx._right_encode(0 if self.xof else 8 * self.out_len))
            return h.digest(self.out_len)
        return h.digest(self.out_len) if self.xof else h.digest()


# keccakx.new's keywords that set a registry parameter, each with the
# parameter groups that take it: the registry's data, not a copy.
_PARAM_NAMES = dict(_keccakx._registry_keywords())


def _spec(algorithm: str, digest_size: Optional[int], params: dict) -> _Spec:
    """Validate an algorithm and its parameters (as :func:`keccakx.new`
    takes them) once, on the client; errors are ValueError/TypeError."""
    if not isinstance(algorithm, str):
        raise TypeError(f"algorithm must be a str, not {type(algorithm).__name__!r}")
    name, display, default_len, variable_len, xof, _accepts = _keccakx._registry_entry(algorithm)
    for k in params:
        if k not in _PARAM_NAMES:
            raise TypeError(f"unexpected keyword argument {k!r}")
    if digest_size is None:
        out_len = default_len
    else:
        if isinstance(digest_size, bool) or not isinstance(digest_size, int):
            raise TypeError(f"digest_size must be an int, not {type(digest_size).__name__!r}")
        if digest_size < 1:
            raise ValueError(f"digest_size must be at least 1, got {digest_size}")
        if not variable_len and digest_size != default_len:
            raise ValueError(f"{name} has a fixed digest size of {default_len} bytes, not {digest_size}")
        out_len = digest_size
    if name in _TREE_KT:
        kind = "kt"
    elif name in _TREE_PH:
        kind = "ph"
    elif name.startswith("tuplehash"):
        kind = "tuple"
    else:
        kind = "seq"
    clean = {k: (bytes(v) if isinstance(v, (bytearray, memoryview)) else v) for k, v in params.items() if v is not None}
    spec = _Spec(
        name=name,
        display=display,
        out_len=out_len,
        xof=xof,
        binds_length=variable_len and not xof,
        params=tuple(sorted(clean.items())),
        kind=kind,
    )
    # Every parameter error now, on the client, not once per task.
    if kind == "tuple":
        extra = set(clean) - {"custom"}
        if extra:
            raise TypeError(f"{name}() got an unexpected keyword argument {sorted(extra)[0]!r}")
    spec.finish(spec.hasher(0))
    return spec


# ---------------------------------------------------------------- results


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


def _object_error(url: str, e: BaseException) -> BaseException:
    """``e`` as an OSError naming ``url``, with strerror's wording."""
    for cls, code in (
        (FileNotFoundError, errno.ENOENT),
        (PermissionError, errno.EACCES),
        (IsADirectoryError, errno.EISDIR),
    ):
        if isinstance(e, cls):
            return cls(code, os.strerror(code), url)
    if isinstance(e, OSError) and e.strerror:
        return type(e)(e.errno, e.strerror, url)
    if isinstance(e, (OSError, ValueError, KeyError)) and "AccessDenied" in str(e):
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), url)
    return OSError(errno.EIO, f"{type(e).__name__}: {e}", url)


def _changed(url: str) -> OSError:
    return OSError(errno.EIO, "file changed size while being read", url)


# ---------------------------------------------------------------- tasks (run on workers)


def _fs(url: str, storage_options: dict):
    import fsspec

    return fsspec.core.url_to_fs(url, **(storage_options or {}))


def _read_range(url: str, storage_options: dict, start: int, end: int) -> bytes:
    """Bytes [start, end) of the object: one ranged read."""
    if end <= start:
        return b""
    try:
        fs, path = _fs(url, storage_options)
        data = fs.cat_file(path, start=start, end=end)
    except Exception as e:
        raise _object_error(url, e) from None
    if len(data) != end - start:
        raise _changed(url)
    return data


def _task_whole(url: str, storage_options: dict, spec: _Spec, size: int) -> bytes:
    """Digest of a whole object, streamed (one task)."""
    h = spec.hasher(size)
    seen = 0
    try:
        fs, path = _fs(url, storage_options)
        with fs.open(path, "rb") as f:
            while True:
                chunk = f.read(_READ_SIZE)
                if not chunk:
                    break
                seen += len(chunk)
                if seen > size:
                    break
                h.update(chunk)
    except Exception as e:
        raise _object_error(url, e) from None
    if seen != size:
        raise _changed(url)
    return spec.finish(h)


def _task_kt_ends(url: str, storage_options: dict, head_len: int, tail_offset: int, size: int):
    """KT's head M[:head_len] and tail M[tail_offset:size]."""
    head = _read_range(url, storage_options, 0, head_len)
    tail = _read_range(url, storage_options, tail_offset, size)
    return head, tail


def _task_kt_run(url: str, storage_options: dict, name: str, start: int, end: int) -> bytes:
    """Chaining values of KT leaves M[start:end] (whole chunks)."""
    data = _read_range(url, storage_options, start, end)
    return hazmat.kt_chaining_values(data, start // hazmat.CHUNK_LEN, name)


def _task_ph_run(
    url: str, storage_options: dict, name: str, block_size: int, size: int, start: int, end: int
) -> bytes:
    """Chaining values of ParallelHash blocks X[start:end]."""
    data = _read_range(url, storage_options, start, end)
    return hazmat.parallelhash_chaining_values(data, start // block_size, size, block_size, name)


# ---------------------------------------------------------------- clients


def local_cluster(n_workers: int = 1, threads_per_worker: Optional[int] = None, processes: bool = True, **kwargs):
    """A ``dask.distributed.LocalCluster`` with keccakx's defaults: one
    worker (each task already hashes on all cores) with two task threads,
    so that reading one range overlaps hashing another; no dashboard
    unless asked for (``dashboard_address=":8787"``)."""
    from distributed import LocalCluster

    kwargs.setdefault("dashboard_address", None)
    with warnings.catch_warnings():
        # The scheduler's HTTP endpoint (metrics) moves off a busy :8787 by itself.
        warnings.filterwarnings("ignore", message="Port 8787 is already in use")
        return LocalCluster(
            n_workers=n_workers,
            threads_per_worker=threads_per_worker or 2,
            processes=processes,
            **kwargs,
        )


def _connect(address: str, timeout: Optional[float] = None):
    from distributed import Client

    try:
        return Client(address, timeout=timeout or CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise ConnectionError(f"cannot reach the Dask scheduler at {address}: {e}") from None


@contextmanager
def _client_for(client, in_process: bool):
    """The client to use and whether it is ours to close."""
    if client is not None and not isinstance(client, str):
        yield client
        return
    if isinstance(client, str):
        c = _connect(client)
        try:
            yield c
        finally:
            c.close()
        return
    from distributed import Client, default_client

    try:
        yield default_client()
        return
    except ValueError:
        pass
    cluster = local_cluster(processes=not in_process)
    try:
        with Client(cluster) as c:
            yield c
    finally:
        cluster.close()


def _workers_in_this_process(client) -> bool:
    pids = client.run(os.getpid)
    return bool(pids) and all(p == os.getpid() for p in pids.values())


# ---------------------------------------------------------------- planning


@dataclass
class _Job:
    index: int
    url: str  # as given (results and errors name it)
    spec: _Spec
    target: str = ""  # what the tasks open: a local path made absolute
    size: Optional[int] = None
    error: Optional[BaseException] = None
    whole: Any = None  # future of the digest
    ends: Any = None  # KT: future of (head, tail)
    runs: list = field(default_factory=list)  # futures of chaining values, in order


def _protocol(url: str) -> str:
    return url.split("://", 1)[0] if "://" in url else "file"


def _stat(url: str, storage_options: dict) -> int:
    try:
        fs, path = _fs(url, storage_options)
        info = fs.info(path)
    except Exception as e:
        raise _object_error(url, e) from None
    if info.get("type") == "directory":
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), url)
    size = info.get("size")
    if size is None:
        raise OSError(errno.EIO, "the store reports no size for this object", url)
    return int(size)


def _check_part_size(part_size, spec: _Spec, url: str) -> int:
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


def _tasks(job: _Job, part_size: int, storage_options: dict, token: str) -> list:
    """A job's tasks: (slot, function, args, key); slot is "whole", "ends"
    or the index of a run. Keys sort in submission order (zero-padded), so
    Dask runs the parts of an object roughly in the order the final node
    takes them."""
    spec, url, size, so = job.spec, job.target, job.size, storage_options
    key = f"{token}-{job.index:08d}"
    if spec.kind not in ("kt", "ph") or size <= part_size:
        return [("whole", _task_whole, (url, so, spec, size), f"keccakx-whole-{key}")]
    out = []
    if spec.kind == "kt":
        plan = hazmat.kt_plan(size)
        out.append(("ends", _task_kt_ends, (url, so, plan.head_len, plan.tail_offset, size), f"keccakx-ends-{key}"))
        start = plan.leaves.start * hazmat.CHUNK_LEN
        stop = plan.leaves.stop * hazmat.CHUNK_LEN
        for i, a in enumerate(range(start, stop, part_size)):
            args = (url, so, spec.name, a, min(a + part_size, stop))
            out.append((i, _task_kt_run, args, f"keccakx-cvs-{key}-{i:010d}"))
    else:
        bs = spec.block_size
        for i, a in enumerate(range(0, size, part_size)):
            args = (url, so, spec.name, bs, size, a, min(a + part_size, size))
            out.append((i, _task_ph_run, args, f"keccakx-cvs-{key}-{i:010d}"))
    return out


def _submit(client, jobs: list, parts: dict, storage_options: dict, token: str) -> list:
    """Submit every job's tasks, one ``client.map`` per task function (one
    message to the scheduler, not one per task: thousands of parts per
    object submitted one by one kept the workers waiting on the client).
    Returns the futures in submission order."""
    by_func = {}
    for job in jobs:
        for slot, func, args, key in _tasks(job, parts[job.index], storage_options, token):
            by_func.setdefault(func, []).append((job, slot, args, key))
    futures = []
    for func, items in by_func.items():
        columns = list(zip(*(args for _, _, args, _ in items)))
        futs = client.map(func, *columns, key=[k for _, _, _, k in items], pure=False)
        for (job, slot, _, _), fut in zip(items, futs):
            if slot == "whole":
                job.whole = fut
            elif slot == "ends":
                job.ends = fut
            else:
                if len(job.runs) <= slot:
                    job.runs.extend([None] * (slot + 1 - len(job.runs)))
                job.runs[slot] = fut
        futures.extend(futs)
    return futures


class _Fetcher:
    """Results fetched in the background as tasks finish (no round trip per
    result on the critical path), handed out in the order asked for. A
    result that arrives before its turn waits here until the final node
    takes it."""

    def __init__(self, client, futures: list):
        from distributed import as_completed

        self.ac = as_completed(futures, loop=client.loop, with_results=True, raise_errors=False)
        self.ready = {}
        self.tick = None  # called before each wait

    def result(self, fut):
        if self.tick is not None:
            self.tick()
        while fut.key not in self.ready:
            f, r = next(self.ac)
            self.ready[f.key] = (f, r)
        f, r = self.ready.pop(fut.key)
        if f.status != "finished":
            return f.result()  # raises the task's error
        return r


def _finish(client, job: _Job, fetch: _Fetcher) -> bytes:
    """Take a job's results in order and finish its digest: chaining values
    are absorbed as they come, never all held."""
    spec = job.spec
    if job.whole is not None:
        try:
            return fetch.result(job.whole)
        finally:
            job.whole = None
    try:
        if spec.kind == "kt":
            head, tail = fetch.result(job.ends)
            job.ends = None
            node = hazmat.KtFinalNode(job.size, custom=spec.custom, algorithm=spec.name)
            node.absorb_head(head)
        else:
            node = hazmat.ParallelHashFinalNode(
                job.size, block_size=spec.block_size, custom=spec.custom, algorithm=spec.name
            )
        for i, fut in enumerate(job.runs):
            node.update(fetch.result(fut))
            job.runs[i] = None  # lets the scheduler forget the result
        if spec.kind == "kt":
            return node.finalize(tail, spec.out_len)
        return node.finalize(spec.out_len)
    except BaseException:
        left = [f for f in job.runs if f is not None]
        if left:
            client.cancel(left)
        raise


# ---------------------------------------------------------------- progress


def _progress_wanted(progress) -> bool:
    if progress is not None:
        return bool(progress)
    try:
        from distributed.utils import is_kernel

        if is_kernel():
            return True
    except ImportError:  # pragma: no cover
        pass
    return sys.stderr.isatty()


def _start_progress(futures: list):
    """Dask's progress bar over ``futures``: a widget in a notebook; on a
    terminal the text bar, drawn on standard error (standard output
    carries results) from a thread while the client absorbs results."""
    from distributed.utils import is_kernel

    if is_kernel():
        from distributed import progress

        bar = progress(futures, notebook=True, multi=False)
        try:
            from IPython.display import display

            display(bar)
        except ImportError:  # pragma: no cover
            pass
        return None, bar
    from distributed.diagnostics.progressbar import TextProgressBar

    class _ErrBar(TextProgressBar):
        def _draw_bar(self, remaining, all, **kwargs):
            frac = (1 - remaining / all) if all else 1.0
            msg = "\r[{0:<{1}}] | {2}% Completed | {3:.1f} s".format(
                "#" * int(self.width * frac), self.width, int(100 * frac), self.elapsed
            )
            try:
                sys.stderr.write(msg)
                sys.stderr.flush()
            except ValueError:  # stderr closed
                pass

        def _draw_stop(self, **kwargs):
            try:
                sys.stderr.write("\33[2K\r")
                sys.stderr.flush()
            except ValueError:
                pass

    # Keys only: the bar holds no futures, so fetched results can be released.
    bar = _ErrBar([f.key for f in futures], scheduler=futures[0].client.scheduler.address, start=False)
    t = threading.Thread(target=lambda: bar._loop_runner.run_sync(bar.listen), daemon=True)
    t.start()
    return t, bar


def _bar_ready(bar) -> bool:
    """Whether the bar's scheduler side has found all its keys: until then
    the futures must stay alive (a key forgotten before that would keep the
    scheduler's progress plugin waiting for it forever)."""
    return bar is None or getattr(bar, "_last_response", None) is not None


# ---------------------------------------------------------------- entry points


def _expand(urls_or_glob, storage_options: dict) -> list:
    """A list of URLs: a glob string is expanded (sorted), a single URL or
    a list of URLs is taken as given."""
    if isinstance(urls_or_glob, (str, os.PathLike)):
        s = os.fspath(urls_or_glob)
        if not any(c in s for c in "*?["):
            return [s]
        fs, _ = _fs(s, storage_options)
        proto = _protocol(s)
        if proto == "file" and "://" not in s:
            import glob

            found = sorted(p for p in glob.glob(s) if not os.path.isdir(p))
        else:
            found = sorted(fs.unstrip_protocol(p) for p in fs.glob(s) if not fs.isdir(p))
        if not found:
            raise FileNotFoundError(errno.ENOENT, "no object matches this pattern", s)
        return found
    return [os.fspath(u) for u in urls_or_glob]


def _named(job: _Job) -> BaseException:
    """The job's error, naming the object as the caller gave it."""
    err = job.error
    if isinstance(err, OSError) and err.filename == job.target != job.url:
        return _object_error(job.url, err)
    return err


def _run(
    items: list,
    *,
    client=None,
    part_size=None,
    storage_options=None,
    progress=None,
) -> list:
    """Hash ``items``, a list of (url, _Spec): the engine behind
    :func:`hash_files` and the cluster command (whose ``--check`` mixes
    algorithms)."""
    so = dict(storage_options or {})
    # Local paths are opened by the workers: absolute, as the workers' cwd
    # is not ours (on other machines they must see the same file system).
    jobs = [
        _Job(i, url, spec, os.path.abspath(url) if "://" not in url else url)
        for i, (url, spec) in enumerate(items)
    ]
    # A bad part size is the caller's error for every object: raised now.
    parts = {job.index: _check_part_size(part_size, job.spec, job.url) for job in jobs}
    # Sizes first, on the client (one object's listing is one request;
    # many are stat'ed side by side).
    def stat(job):
        try:
            job.size = _stat(job.target, so)
        except BaseException as e:
            job.error = e

    with ThreadPoolExecutor(max_workers=min(16, max(1, len(jobs)))) as pool:
        list(pool.map(stat, jobs))
    live = [j for j in jobs if j.error is None]
    in_process = any(_protocol(j.url) == "memory" for j in live)
    results = []
    if not live:
        return [FileResult(j.url, error=_named(j)) for j in jobs]
    with _client_for(client, in_process) as c:
        if in_process and not _workers_in_this_process(c):
            for j in live:
                if _protocol(j.url) == "memory":
                    j.error = ValueError(
                        f"{j.url}: memory:// objects exist only in this process, and this "
                        "cluster's workers are other processes (use LocalCluster(processes=False))"
                    )
            live = [j for j in live if j.error is None]
        token = uuid.uuid4().hex[:12]
        futures = _submit(c, live, parts, so, token)
        thread, bar = _start_progress(futures) if _progress_wanted(progress) and futures else (None, None)
        fetch = _Fetcher(c, futures) if futures else None
        # Held only while a progress bar sets up; then each result is
        # released once the final node has it.
        hold = futures if bar is not None else None
        del futures

        def tick():
            nonlocal hold
            if hold is not None and _bar_ready(bar):
                hold = None

        if fetch is not None:
            fetch.tick = tick
        for job in jobs:
            if job.error is None:
                try:
                    results.append(FileResult(job.url, digest=_finish(c, job, fetch), size=job.size))
                    continue
                except Exception as e:
                    job.error = e
            results.append(FileResult(job.url, error=_named(job), size=job.size))
        if thread is not None:
            thread.join(timeout=10)
        del hold
    return results


def hash_files(
    urls_or_glob,
    algorithm: str = "sha3-256",
    *,
    client=None,
    part_size: Optional[int] = None,
    digest_size: Optional[int] = None,
    storage_options: Optional[dict] = None,
    progress: Optional[bool] = None,
    **params,
) -> list:
    """Hash many objects on a Dask cluster; a list of :class:`FileResult`
    in input order.

    ``urls_or_glob``: a list of URLs or paths, or one string (a glob such
    as ``"s3://bucket/data/*.parquet"`` is expanded, sorted). One task per
    object; KT/ParallelHash objects larger than ``part_size`` are split
    into range tasks as in :func:`digest`. An object that cannot be read
    gets its ``error`` (an ``OSError`` naming it, e.g.
    ``FileNotFoundError``) and the others complete. ``algorithm``,
    ``digest_size`` (output bytes) and ``**params`` (``custom``, ``key``,
    ``block_size`` ...) are as for :func:`keccakx.new`; each object is
    hashed as ``keccakx sum`` hashes a file (TupleHash: the file is the one
    element). ``storage_options`` go to fsspec (e.g. an S3 endpoint).
    """
    spec = _spec(algorithm, digest_size, params)
    urls = _expand(urls_or_glob, storage_options or {})
    return _run(
        [(u, spec) for u in urls],
        client=client,
        part_size=part_size,
        storage_options=storage_options,
        progress=progress,
    )


def digest(
    url,
    algorithm: str = "kt128",
    *,
    client=None,
    part_size: Optional[int] = None,
    digest_size: Optional[int] = None,
    storage_options: Optional[dict] = None,
    progress: Optional[bool] = None,
    **params,
) -> bytes:
    """The digest of one object (any fsspec URL) computed on a Dask
    cluster: bit for bit ``keccakx sum``'s, whatever ``part_size`` and the
    number of workers.

    KT128/KT256 and ParallelHash* are split into range tasks of
    ``part_size`` bytes (default 64 MiB; a positive multiple of 8192 for
    KT, of ``block_size`` for ParallelHash), each reading only its range;
    other functions are sequential and run as one task. ``digest_size`` is
    the output length in bytes (default: the function's). Errors (missing
    object, permission, unreachable scheduler, bad part size) raise, naming
    the object or the scheduler.
    """
    spec = _spec(algorithm, digest_size, params)
    url = os.fspath(url)
    _check_part_size(part_size, spec, url)
    [r] = _run(
        [(url, spec)],
        client=client,
        part_size=part_size,
        storage_options=storage_options,
        progress=progress,
    )
    if r.error is not None:
        raise r.error
    return r.digest
