"""The tasks :mod:`keccakx.distributed` runs on Dask workers.

Chaining values of a local (or shared-file-system) object's range are
computed by the native library straight from the file
(``hazmat.kt_chaining_values_file``: mapped windows, pages faulted in by
the map, no copy; guarded against truncation), on all of the worker's
cores with the GIL released. Everything else is read into ONE buffer per
task thread, reused from task to task (``readinto``: no fresh 64 MiB
``bytes`` per task, whose page faults and copy cost as much as hashing
it), a read unit at a time, each unit hashed as it arrives: whole local
objects of sequential functions with ``os.preadv``, other URLs through
fsspec, one ranged request per unit.

Every object carries a *stamp* taken by the client when it listed it:
its size and modification time (local) or ETag (stores). A task whose
object no longer has that stamp when it opens it, or has a different one
after reading, fails with "file changed [size] while being read", naming the
object: never a digest of a mixture of two versions.
"""

from __future__ import annotations

import errno
import os
import threading
from dataclasses import dataclass
from . import hazmat

#: Bytes per read (and per chaining-value call): large enough that the
#: per-call cost is nothing, well under glibc's 32 MiB mmap threshold, so
#: the temporary buffers fsspec allocates are recycled, not page-faulted.
READ_UNIT = 8 << 20

_tls = threading.local()


@dataclass(frozen=True)
class Target:
    """An object as the tasks open it: ``path`` (absolute, for local files)
    or ``url`` with fsspec ``storage_options``; ``size`` and ``stamp`` as the
    client listed it; ``name`` as the caller gave it (for errors)."""

    name: str
    url: str
    local: bool
    size: int
    stamp: tuple
    storage_options: tuple = ()


def object_error(url: str, e: BaseException) -> BaseException:
    """``e`` as an OSError naming ``url``, with strerror's wording."""
    for cls, code in (
        (FileNotFoundError, errno.ENOENT),
        (PermissionError, errno.EACCES),
        (IsADirectoryError, errno.EISDIR),
        (NotADirectoryError, errno.ENOTDIR),
    ):
        if isinstance(e, cls):
            return cls(code, os.strerror(code), url)
    if isinstance(e, OSError) and e.strerror:
        return type(e)(e.errno, e.strerror, url)
    if isinstance(e, (OSError, ValueError, KeyError)) and "AccessDenied" in str(e):
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), url)
    if isinstance(e, (OSError, ValueError, KeyError)) and "PreconditionFailed" in str(e):
        return changed(url, "")
    return OSError(errno.EIO, f"{type(e).__name__}: {e}", url)


class Changed(OSError):
    """The object is not the one the client listed (size, mtime or ETag)."""


def changed(url: str, what: str = "size") -> OSError:
    """The error for an object that changed: its size (the words of
    ``keccakx sum``), or its modification time / ETag."""
    return Changed(errno.EIO, f"file changed {what} while being read" if what else "file changed while being read", url)


def check_stamp(name: str, now: tuple, want: tuple) -> None:
    if now != want:
        raise changed(name, "size" if now[:2] != want[:2] else "")


def local_stamp(st: os.stat_result) -> tuple:
    return ("local", st.st_size, st.st_mtime_ns)


def remote_stamp(info: dict) -> tuple:
    """Size and the store's version tag (ETag, else a modification time)."""
    tag = None
    for k in ("ETag", "etag", "VersionId", "LastModified", "last_modified", "mtime", "created"):
        if info.get(k) is not None:
            tag = str(info[k])
            break
    return ("remote", int(info["size"]), tag)


def _buffer(n: int) -> memoryview:
    """This thread's reusable buffer, at least ``n`` bytes."""
    b = getattr(_tls, "buf", None)
    if b is None or len(b) < n:
        b = bytearray(n)
        _tls.buf = b
    return memoryview(b)[:n]


class _Local:
    def __init__(self, t: Target):
        self.t = t
        self.fd = os.open(t.url, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            check_stamp(t.name, local_stamp(os.fstat(self.fd)), t.stamp)
        except BaseException:
            os.close(self.fd)
            raise

    def read_at(self, view: memoryview, offset: int) -> int:
        n = 0
        while n < len(view):
            k = os.preadv(self.fd, [view[n:]], offset + n)
            if k == 0:
                break
            n += k
        return n

    def close(self, ok: bool):
        try:
            if ok:
                check_stamp(self.t.name, local_stamp(os.fstat(self.fd)), self.t.stamp)
        finally:
            os.close(self.fd)


class _Remote:
    def __init__(self, t: Target):
        import fsspec

        self.t = t
        fs, path = fsspec.core.url_to_fs(t.url, **(t.storage_options or {}))
        # No read-ahead cache: each read is one ranged request of the bytes
        # asked for, into our buffer.
        self.f = fs.open(path, "rb", cache_type="none", block_size=READ_UNIT)
        details = getattr(self.f, "details", None)
        if isinstance(details, dict) and details.get("size") is not None:
            try:
                check_stamp(t.name, remote_stamp(details), t.stamp)
            except Changed:
                self.f.close()
                raise

    def read_at(self, view: memoryview, offset: int) -> int:
        self.f.seek(offset)
        n = 0
        while n < len(view):
            k = self.f.readinto(view[n:])
            if not k:
                break
            n += k
        return n

    def close(self, ok: bool):
        self.f.close()


def _open(t: Target):
    try:
        return _Local(t) if t.local else _Remote(t)
    except Changed:
        raise
    except Exception as e:
        raise object_error(t.name, e) from None


class _Reader:
    """``with _Reader(t) as r:`` a task's view of one object."""

    def __init__(self, t: Target):
        self.t = t

    def __enter__(self):
        self.src = _open(self.t)
        return self

    def __exit__(self, et, e, tb):
        try:
            self.src.close(et is None)
        except Changed:
            if et is None:
                raise
        except Exception as err:
            if et is None:
                raise object_error(self.t.name, err) from None
        if e is None or isinstance(e, (Changed, MemoryError)) or not isinstance(e, Exception):
            return False  # the with block's own exception (if any) goes on
        raise object_error(self.t.name, e) from None

    def units(self, start: int, end: int, unit: int):
        """Views of [start, end) in pieces of ``unit`` bytes (the last may be
        shorter), each valid until the next one is asked for."""
        buf = _buffer(min(unit, max(0, end - start)))
        pos = start
        while pos < end:
            k = min(len(buf), end - pos)
            view = buf[:k]
            if self.src.read_at(view, pos) != k:
                raise changed(self.t.name)
            yield pos, view
            pos += k

    def native(self, read):
        """``read(fd)`` by the native library (a local object's ranges are
        mapped and hashed there, without a copy into Python's buffer); the
        file shrinking meanwhile is :func:`changed`, as for the reads here."""
        try:
            return read(self.src.fd)
        except OSError as e:
            if e.errno == errno.EIO and e.strerror == changed("").strerror:
                raise changed(self.t.name) from None
            raise

    def check_not_grown(self) -> None:
        """A local object read to its listed size must end there."""
        if self.src.read_at(_buffer(1), self.t.size) != 0:
            raise changed(self.t.name)

    def read(self, start: int, end: int) -> bytes:
        return b"".join(bytes(v) for _, v in self.units(start, end, READ_UNIT))


def _unit(multiple: int) -> int:
    return max(multiple, READ_UNIT // multiple * multiple)


# ---------------------------------------------------------------- task functions


#: Local KT objects at least this large hashed whole have their leaves'
#: chaining values computed by the native reader (mapped); smaller ones are
#: read: one read of a few MiB costs less than mapping and unmapping it
#: (as `keccakx sum` decides).
NATIVE_MIN = 4 << 20


def whole(t: Target, spec) -> bytes:
    """Digest of a whole object, streamed through the thread's buffer (or,
    for a local KT/ParallelHash object, its chaining values computed from
    the file by the native reader)."""
    if spec.kind == "kt" and t.local and t.size >= NATIVE_MIN:
        plan = hazmat.kt_plan(t.size)
        node = hazmat.KtFinalNode(t.size, custom=spec.custom, algorithm=spec.name)
        with _Reader(t) as r:
            node.absorb_head(r.read(0, plan.head_len))
            a, b = plan.leaves.start * hazmat.CHUNK_LEN, plan.leaves.stop * hazmat.CHUNK_LEN
            node.update(r.native(lambda fd: hazmat.kt_chaining_values_file(fd, a, b, spec.name)))
            tail = r.read(plan.tail_offset, t.size)
            r.check_not_grown()
        return node.finalize(tail, spec.out_len)
    if spec.kind == "ph":
        node = hazmat.ParallelHashFinalNode(t.size, block_size=spec.block_size, custom=spec.custom,
                                            algorithm=spec.name)
        node.update(ph_run(t, spec.name, spec.block_size, 0, t.size))
        return node.finalize(spec.out_len)
    h = spec.reading_hasher() if spec.kind == "read" else spec.hasher(t.size)
    with _Reader(t) as r:
        for _, view in r.units(0, t.size, READ_UNIT):
            h.update(view)
        if t.local:
            r.check_not_grown()
    return h.digest() if spec.kind == "read" else spec.finish(h)


def whole_group(targets: list, spec_of: list) -> list:
    """Many small objects in one task (per-task costs paid once): a list of
    (digest, None) or (None, error), in order."""
    out = []
    for t, spec in zip(targets, spec_of):
        try:
            out.append((whole(t, spec), None))
        except Exception as e:
            out.append((None, e if isinstance(e, OSError) and e.filename == t.name else object_error(t.name, e)))
    return out


def kt_ends(t: Target, head_len: int, tail_offset: int):
    """KT's head M[:head_len] and tail M[tail_offset:]."""
    with _Reader(t) as r:
        return r.read(0, head_len), r.read(tail_offset, t.size)


def _kt_cvs(r: _Reader, name: str, start: int, end: int) -> bytes:
    t = r.t
    if t.local:
        return r.native(lambda fd: hazmat.kt_chaining_values_file(fd, start, end, name))
    out = []
    for pos, view in r.units(start, end, READ_UNIT):
        out.append(hazmat.kt_chaining_values(view, pos // hazmat.CHUNK_LEN, name))
    return b"".join(out)


def kt_run(t: Target, name: str, start: int, end: int) -> bytes:
    """Chaining values of KT leaves M[start:end] (whole chunks)."""
    with _Reader(t) as r:
        return _kt_cvs(r, name, start, end)


def kt_first_run(t: Target, name: str, head_len: int, tail_offset: int, start: int, end: int):
    """KT's head and tail (as :func:`kt_ends`) and the chaining values of
    its first run of leaves M[start:end], in one task: one task fewer per
    object (each costs the worker, scheduler and client ~1 ms of CPU)."""
    with _Reader(t) as r:
        return r.read(0, head_len), r.read(tail_offset, t.size), _kt_cvs(r, name, start, end)


def ph_run(t: Target, name: str, block_size: int, start: int, end: int) -> bytes:
    """Chaining values of ParallelHash blocks X[start:end]."""
    out = []
    with _Reader(t) as r:
        if t.local:
            return r.native(lambda fd: hazmat.parallelhash_chaining_values_file(fd, start, end, t.size, block_size,
                                                                               name))
        for pos, view in r.units(start, end, _unit(block_size)):
            out.append(hazmat.parallelhash_chaining_values(view, pos // block_size, t.size, block_size, name))
    return b"".join(out)

