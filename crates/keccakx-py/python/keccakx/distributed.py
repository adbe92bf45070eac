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
block size B for ParallelHash; default 128 MiB (rounded up to a multiple of
B), or up to 256 MiB for an object large enough to give every worker
thread four parts anyway, or (in :func:`hash_files`) a batch of objects
listed together large enough to give every thread two (fewer tasks per
byte). Ranges are always cut on
those boundaries, so the part size never changes the digest.

``memory://`` objects live in the process that wrote them: they can be
hashed only by workers in that process (the default ``LocalCluster`` uses
threads for them; an explicit client must be ``processes=False``).
"""

from __future__ import annotations

import dataclasses
import errno
import os
import sys
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Optional

import keccakx
from . import _jobs, _keccakx, _tasks, hazmat
from . import _window as _window_mod  # noqa: F401 (tests spy on its slots)
from ._jobs import DEFAULT_PART_SIZE, FileResult

_object_error = _tasks.object_error
_protocol = _jobs.protocol
_fs = _jobs.fs_of
_target = _jobs.target
_check_part_size = _jobs.check_part_size

__all__ = [
    "DEFAULT_PART_SIZE",
    "FileResult",
    "digest",
    "hash_files",
    "local_cluster",
]

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
    kind: str  # "kt", "ph", "tuple", "seq", or "read" (a reading mode: whole, translated)
    mode: str = " "  # how a file is read: sha3sum's mark (" ", "U" universal newlines, "^" bits)

    def reading(self, mode: str) -> "_Spec":
        """The same function reading its input in sha3sum's ``mode`` (a
        checksum line's mark, ``U`` or ``^``): never split, translated on
        the worker by the library (``keccakx sum --check``'s code)."""
        if mode in (" ", "*"):
            return self
        _keccakx.ReadingHasher(self.name, mode, self.out_len, **dict(self.params))  # refused here, not per task
        return dataclasses.replace(self, kind="read", mode=mode)

    def reading_hasher(self):
        return _keccakx.ReadingHasher(self.name, self.mode, self.out_len, **dict(self.params))

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


def _run(
    items: list,
    *,
    client=None,
    part_size=None,
    storage_options=None,
    progress=None,
) -> list:
    """Hash ``items``, a list of (url, _Spec): the engine behind
    :func:`hash_files`. Every object is listed first (no cluster is started
    for a list of missing objects); a list of :class:`FileResult`."""
    _check_client(client)
    so = dict(storage_options or {})
    jobs = [_jobs.Job(i, url, spec) for i, (url, spec) in enumerate(items)]
    # A bad part size is the caller's error for every object: raised now.
    for job in jobs:
        job.part_size = _check_part_size(part_size, job.spec, job.url)
        job.auto_part = part_size is None
    _jobs.list_jobs(jobs, so)
    live = [j for j in jobs if j.error is None]
    if live:
        in_process = any(_protocol(j.url) == "memory" for j in live)
        with _client_for(client, in_process) as c:
            shared = None  # whether the workers run in this process: asked once
            for j in live:
                if _protocol(j.url) != "memory":
                    continue
                if shared is None:
                    shared = _jobs.workers_in_this_process(c)
                if not shared:
                    j.error = ValueError(
                        f"{j.url}: memory:// objects exist only in this process, and this "
                        "cluster's workers are other processes (use LocalCluster(processes=False))"
                    )
            live = [j for j in live if j.error is None]
            if live:
                bar = _window_mod.Bar() if _progress_wanted(progress) else None
                try:
                    for _ in _jobs.run(c, [live], so, bar):
                        pass
                finally:
                    if bar is not None:
                        bar.close()
    return [j.result() for j in jobs]


def _stream(items, get_client, *, part_size=None, storage_options=None, progress=None):
    """Hash an iterable of (url, _Spec) with bounded memory, listing the
    objects a batch at a time as the window asks for tasks; yields a
    :class:`FileResult` per item, in order, as soon as it is known.
    ``get_client()`` is called when the first object needs a task (a list
    of missing objects starts no cluster); a part size that does not fit an
    object's function falls back to the default for it (keccakx-cluster's
    --check of a list mixing lengths). ``items`` may yield
    ``_window.WAIT`` where its input would block: what is in flight is
    answered before it is asked for more."""
    so = dict(storage_options or {})
    gen = _jobs.batches(items, so, part_size, get_client)
    pending = []
    for jobs in gen:
        if jobs is _window_mod.WAIT:
            continue
        if any(j.error is None for j in jobs):
            pending.append(jobs)
            break
        for j in jobs:
            yield j.result()
    if not pending:
        return

    def all_batches():
        yield from pending
        yield from gen

    bar = _window_mod.Bar() if _progress_wanted(progress) else None
    try:
        for job in _jobs.run(get_client(), all_batches(), so, bar):
            yield job.result()
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
    tasks as in :func:`digest` (the default part size grows up to 256 MiB
    where the objects listed together give every worker thread two parts
    anyway). An object that cannot be read
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
    ``part_size`` bytes (default 128 MiB, up to 256 MiB for an object that
    gives every worker thread four parts anyway; a positive multiple of 8192
    for KT, of ``block_size`` for ParallelHash), each reading only its range;
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
