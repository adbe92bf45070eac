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
* :func:`hash_files` hashes many objects: small objects many to a task,
  objects larger than ``part_size`` split as above; results in input
  order, a failed object (missing, unreadable, changed while read)
  reported in its :class:`FileResult` while the others complete.

Names: a path or URL is a ``str``, ``bytes`` or ``os.PathLike``. A name
that exists is that object, even when it holds ``*?[``; only a string that
names nothing is taken as a glob (``hash_files``; ``digest`` never globs).

What runs where: the client lists the objects (``os.stat``/``fs.info``:
size and modification time or ETag, or one listing for a glob), submits
tasks through a bounded window (a few per worker thread ahead of the final
nodes: a job of millions of parts holds bounded memory on the client), and
runs the final nodes (cheap: it absorbs 32 bytes per 8 KiB of input for
KT128); workers read their ranges a few MiB at a time into one reused
buffer per task thread (``os.preadv`` for paths, one ranged request per
read for stores) and compute chaining values or whole digests with the
native library on all their cores. An object that is not the one listed
(size, mtime or ETag differ when a task opens it, or when the last range is
in) fails with "file changed [size] while being read".
Without ``client``, the default Dask client is used if one exists, else a
``LocalCluster`` on this machine for the call (:func:`local_cluster`).
``client`` may also be a scheduler address (``"tcp://host:8786"``).

A worker lost mid-job has its tasks re-run by Dask elsewhere; every task is
a pure function of its byte range, so the digest is still exact. A
progress bar (text on standard error: bytes taken by the final nodes)
shows when ``progress=True`` (default: on a terminal or in a notebook).

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
import stat
import sys
import uuid
import warnings
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Optional

import keccakx
from . import _keccakx, _tasks, hazmat
from . import _window as _window_mod

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

#: Tasks submitted ahead of the final nodes, per worker thread.
_WINDOW_PER_THREAD = 8

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
    if kind == "ph":
        # ParallelHash runs through the hazmat pieces everywhere (the whole
        # object too): any block size SP 800-185 allows, as keccakx sum.
        extra = set(clean) - {"custom", "block_size"}
        if extra:
            raise TypeError(f"{name}() got an unexpected keyword argument {sorted(extra)[0]!r}")
        node = hazmat.ParallelHashFinalNode(0, block_size=spec.block_size, custom=spec.custom, algorithm=name)
        node.finalize(out_len)
    else:
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


_object_error = _tasks.object_error


def _fs(url: str, storage_options: dict):
    import fsspec

    return fsspec.core.url_to_fs(url, **(storage_options or {}))


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
    from distributed.comm import resolve_address

    try:
        # A malformed address fails here, before a Client exists (a Client
        # that failed to start spends 20 s closing itself when collected).
        resolve_address(address)
        return Client(address, timeout=timeout or CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
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


@dataclass(eq=False)
class _Job:
    index: int
    url: str  # as given (results and errors name it)
    spec: _Spec
    part_size: int = 0
    target: Optional[_tasks.Target] = None  # what the tasks open, as listed
    error: Optional[BaseException] = None
    digest: Optional[bytes] = None
    node: Any = None  # a split job's final node while its results arrive
    tail: Optional[bytes] = None

    @property
    def size(self) -> Optional[int]:
        return None if self.target is None else self.target.size


def _protocol(url: str) -> str:
    return url.split("://", 1)[0] if "://" in url else "file"


def _target(url: str, storage_options: dict) -> _tasks.Target:
    """List one object, on the client: what the tasks will open, its size
    and its stamp (size + mtime for files, size + ETag for stores)."""
    if _protocol(url) == "file":
        # The name as given (so that "f.bin/" is "Not a directory" and ""
        # is "No such file or directory"), opened by the workers as an
        # absolute path (their cwd is not ours; on other machines they must
        # see the same file system).
        path = url
        if "://" in url:
            try:
                path = _fs(url, storage_options)[1]
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
        fs, path = _fs(url, storage_options)
        info = fs.info(path)
    except Exception as e:
        raise _object_error(url, e) from None
    if info.get("type") == "directory":
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), url)
    if info.get("size") is None:
        raise OSError(errno.EIO, "the store reports no size for this object", url)
    return _tasks.Target(url, url, False, int(info["size"]), _tasks.remote_stamp(info), storage_options or None)


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


def _take(client, job: _Job, slot, value, so: dict) -> None:
    """Feed one task's result to its job's final node; finish the job after
    its last task, checking that the object is still the one listed."""
    spec = job.spec
    if slot.kind == "ends":
        head, job.tail = value
        job.node = hazmat.KtFinalNode(job.size, custom=spec.custom, algorithm=spec.name)
        job.node.absorb_head(head)
    else:
        if job.node is None:
            job.node = hazmat.ParallelHashFinalNode(
                job.size, block_size=spec.block_size, custom=spec.custom, algorithm=spec.name
            )
        job.node.update(value)
    if slot.last:
        # The tasks each checked their object when they opened it; this
        # catches a change (growth, rewrite) after the first task started.
        _tasks.check_stamp(job.url, _target(job.url, so).stamp, job.target.stamp)
        node, job.node = job.node, None
        if spec.kind == "kt":
            job.digest = node.finalize(job.tail, spec.out_len)
        else:
            job.digest = node.finalize(spec.out_len)


def _progress_wanted(progress) -> bool:
    if progress is not None:
        return bool(progress)
    try:
        from distributed.utils import is_kernel

        if is_kernel():
            return True
    except ImportError:  # pragma: no cover
        pass
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------- entry points


def _as_url(u, what: str) -> str:
    """A path or URL given as str, bytes or os.PathLike, as a str."""
    if isinstance(u, (str, bytes, os.PathLike)):
        u = os.fspath(u)
        return os.fsdecode(u) if isinstance(u, bytes) else u
    raise TypeError(f"{what} must be a str, bytes or os.PathLike path or URL, not {type(u).__name__!r}")


def _exists(s: str, storage_options: dict) -> bool:
    """Whether ``s`` names an object as it is (no glob expansion)."""
    try:
        if _protocol(s) == "file" and "://" not in s:
            return os.path.lexists(s)
        fs, path = _fs(s, storage_options)
        return fs.exists(path)
    except Exception:
        return False


def _glob(s: str, storage_options: dict) -> list:
    """The objects (not directories) a pattern matches, sorted."""
    if _protocol(s) == "file" and "://" not in s:
        import glob

        return sorted(p for p in glob.glob(s) if not os.path.isdir(p))
    fs, _ = _fs(s, storage_options)
    return sorted(fs.unstrip_protocol(p) for p in fs.glob(s) if not fs.isdir(p))


def _expand_one(s: str, storage_options: dict) -> Optional[list]:
    """The one rule for names in every entry point: a name that exists is
    that object, even if it holds ``*?[``; only a name that names nothing
    is a pattern. None when it is neither."""
    if not any(c in s for c in "*?[") or _exists(s, storage_options):
        return [s]
    try:
        found = _glob(s, storage_options)
    except Exception:
        return None
    return found or None


def _expand(urls_or_glob, storage_options: dict) -> list:
    """A list of URLs: one string that names no object and holds ``*?[`` is
    expanded as a glob (sorted); anything else is taken as given."""
    if isinstance(urls_or_glob, (str, bytes, os.PathLike)):
        s = _as_url(urls_or_glob, "urls_or_glob")
        found = _expand_one(s, storage_options)
        if found is None:
            if not any(c in s for c in "*?["):
                return [s]
            raise FileNotFoundError(errno.ENOENT, "no object matches this pattern", s)
        return found
    try:
        items = list(urls_or_glob)
    except TypeError:
        raise TypeError(
            f"urls_or_glob must be a path or URL, or an iterable of them, not {type(urls_or_glob).__name__!r}"
        ) from None
    return [_as_url(u, "urls_or_glob items") for u in items]


def _check_client(client) -> None:
    if client is None or isinstance(client, str):
        return
    from distributed import Client

    if not isinstance(client, Client):
        raise TypeError(
            "client must be a dask.distributed.Client, a scheduler address (str) or None, "
            f"not {type(client).__name__!r}"
        )


def _window(client) -> int:
    """Tasks submitted ahead of the final nodes: eight per worker thread,
    and at least 64 (small parts are latency-bound: each costs a round
    trip through the scheduler)."""
    try:
        threads = sum(client.nthreads().values())
    except Exception:
        threads = 0
    return max(64, _WINDOW_PER_THREAD * threads)


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
    _check_client(client)
    so = dict(storage_options or {})
    jobs = [_Job(i, url, spec) for i, (url, spec) in enumerate(items)]
    # A bad part size is the caller's error for every object: raised now.
    for job in jobs:
        job.part_size = _check_part_size(part_size, job.spec, job.url)

    # Sizes and stamps first, on the client (many side by side).
    def stat(job):
        try:
            job.target = _target(job.url, so)
        except Exception as e:
            job.error = e

    with ThreadPoolExecutor(max_workers=min(16, max(1, len(jobs)))) as pool:
        list(pool.map(stat, jobs))
    live = [j for j in jobs if j.error is None]
    if live:
        in_process = any(_protocol(j.url) == "memory" for j in live)
        with _client_for(client, in_process) as c:
            if in_process and not _workers_in_this_process(c):
                for j in live:
                    if _protocol(j.url) == "memory":
                        j.error = ValueError(
                            f"{j.url}: memory:// objects exist only in this process, and this "
                            "cluster's workers are other processes (use LocalCluster(processes=False))"
                        )
                live = [j for j in live if j.error is None]
            _hash(c, live, so, progress)
    out = []
    for j in jobs:
        if j.error is None:
            out.append(FileResult(j.url, digest=j.digest, size=j.size))
        else:
            err = j.error
            if isinstance(err, OSError) and err.filename not in (None, j.url):
                err = _object_error(j.url, err)
            out.append(FileResult(j.url, error=err, size=j.size))
    return out


def _hash(c, live: list, so: dict, progress) -> None:
    """Run ``live`` jobs' tasks on client ``c`` through a bounded window and
    feed their final nodes in order."""
    window = _window(c)
    small = sum(j.size for j in live if j.spec.kind not in ("kt", "ph") or j.size <= j.part_size)
    # Small objects many to a task, yet at least a few tasks per thread.
    group_bytes = max(1 << 20, min(DEFAULT_PART_SIZE, small // max(1, window)))
    token = uuid.uuid4().hex[:12]
    stream = _window_mod.Stream(c, _window_mod.slots(live, token, group_bytes), window)
    bar = _window_mod.Bar(sum(j.size for j in live)) if _progress_wanted(progress) else None
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
                continue
            job = slot.jobs[0]
            if job.error is not None:
                continue
            try:
                if err is not None:
                    raise err
                _take(c, job, slot, value, so)
            except Exception as e:
                job.error, job.node, job.tail = e, None, None
    except BaseException:
        stream.cancel()
        raise
    finally:
        if bar is not None:
            bar.close()


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

    ``urls_or_glob``: an iterable of URLs or paths (str, bytes or
    os.PathLike), or one of them (a string that names no object and holds
    ``*?[``, such as ``"s3://bucket/data/*.parquet"``, is expanded as a
    glob, sorted). Small objects are hashed many to a task;
    KT/ParallelHash objects larger than ``part_size`` are split into range
    tasks as in :func:`digest`. An object that cannot be read
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
    url = _as_url(url, "url")
    _check_client(client)
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
