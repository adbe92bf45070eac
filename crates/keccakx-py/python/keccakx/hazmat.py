"""Hazardous materials: KT128/KT256 and ParallelHash computed in pieces.

The shape of BLAKE3's ``hazmat``: the chaining values of a run of whole
chunks (KT) or blocks (ParallelHash) can be computed anywhere — another
thread, process or machine — and a final node, fed the pieces in order,
gives bit for bit the digest of the one-shot :func:`keccakx.kt128` /
:func:`keccakx.parallelhash128`. ``keccakx.distributed`` is built on it.
Used wrongly (values from the wrong place or out of order) the pieces give
a wrong digest that no check can catch; everything that *can* be checked
(alignment, counts, lengths) raises ``ValueError`` with nothing absorbed.
A final node's ``finalize`` uses it up only when it succeeds: a bad tail, a
bad length or an output too large for memory (MemoryError) leave the node
as it was. Chaining values of a large range are computed in pieces of about
32 MiB; Ctrl-C between them stops the call and returns nothing.

KT128 / KT256 (RFC 9861)
    KT hashes S = M || C || length_encode(|C|) in 8192-byte chunks: S_0 goes
    into the final node, every later chunk is a leaf. ``kt_plan(len(M))``
    splits M into

    * the *head* ``M[:plan.head_len]`` (min(len(M), 8192) bytes: S_0, or
      the part of it that M holds);
    * the *whole leaves*: chunks ``plan.leaves`` (a ``range`` of chunk
      indexes, from 1), chunk i being ``M[8192*i : 8192*(i+1)]``. Any run
      of consecutive whole chunks is hashed anywhere with
      ``kt_chaining_values(M[8192*i : 8192*j], chunk_index=i)``;
    * the *tail* ``M[plan.tail_offset:]`` (fewer than 8192 bytes). The
      customization C follows it in S, so the final node hashes the tail
      and C itself (with their leaves, if C is long).

    ``KtFinalNode(len(M), custom=C)``: ``absorb_head(head)``, then
    ``update(cvs)`` with the whole leaves' values in chunk order (each call
    absorbed at once: the node never holds them), then
    ``finalize(tail, length)``.

ParallelHash128/256 and the XOF variants (SP 800-185)
    X is cut into blocks of ``block_size`` bytes (the last may be short);
    nothing follows X. Any run of consecutive blocks starting on a block
    boundary and ending on one (or at the end of X) is hashed with
    ``parallelhash_chaining_values(X[B*i : end], block_index=i,
    message_len=len(X), block_size=B)``. ``ParallelHashFinalNode(len(X),
    block_size=B, custom=S)`` absorbs every block's value in order
    (``update``) and ``finalize(length)`` binds n and the output length
    (not for the XOF variants).

What may be computed where: chaining values anywhere, by anyone holding
the bytes of their run (they depend on nothing else); the final node in
one place, fed in order, and for KT it needs the head, the tail and C. The
chaining values are computed on all cores with the GIL released, by the
same engine as the one-machine path.

    >>> import keccakx
    >>> from keccakx import hazmat
    >>> m = bytes(range(256)) * 100                 # 25600 bytes
    >>> plan = hazmat.kt_plan(len(m))
    >>> node = hazmat.KtFinalNode(len(m), custom=b"app")
    >>> node.absorb_head(m[:plan.head_len])
    >>> for i in plan.leaves:                       # one leaf per call here
    ...     node.update(hazmat.kt_chaining_values(m[8192 * i: 8192 * (i + 1)], chunk_index=i))
    >>> node.finalize(m[plan.tail_offset:], 32) == keccakx.kt128(m, custom=b"app").digest(32)
    True
"""

from __future__ import annotations

from typing import NamedTuple

from . import _keccakx
from ._keccakx import KtFinalNode, ParallelHashFinalNode

__all__ = [
    "CHUNK_LEN",
    "KtFinalNode",
    "KtPlan",
    "ParallelHashFinalNode",
    "cv_len",
    "kt_chaining_values",
    "kt_chaining_values_file",
    "kt_plan",
    "parallelhash_chaining_values",
    "parallelhash_chaining_values_file",
]

#: KT's chunk size in bytes: S_0 and every leaf but the last.
CHUNK_LEN = 8192

_CV_LEN = {
    "kt128": 32,
    "kt256": 64,
    "parallelhash128": 32,
    "parallelhashxof128": 32,
    "parallelhash256": 64,
    "parallelhashxof256": 64,
}


class KtPlan(NamedTuple):
    """Where the bytes of a KT message go (independent of the customization)."""

    #: len(M).
    message_len: int
    #: Bytes of M in S_0: min(len(M), 8192).
    head_len: int
    #: Chunk indexes of the leaves lying entirely inside M (may be empty).
    leaves: range
    #: M[tail_offset:] is the tail, hashed by the final node with C.
    tail_offset: int
    #: len(M) - tail_offset, below 8192.
    tail_len: int


def kt_plan(message_len: int) -> KtPlan:
    """How a KT message of ``message_len`` bytes splits into head, whole
    leaves and tail."""
    head, first, end, tail_offset, tail_len = _keccakx._kt_plan(message_len)
    return KtPlan(message_len, head, range(first, end), tail_offset, tail_len)


def kt_chaining_values(data, chunk_index: int, algorithm: str = "kt128") -> bytes:
    """The chaining values (32 bytes each for KT128, 64 for KT256) of the
    whole chunks in ``data``, which are chunks ``chunk_index``,
    ``chunk_index + 1``, ... of S. ``chunk_index`` is at least 1 (chunk 0 is
    S_0, the final node's) and ``len(data)`` a multiple of 8192; otherwise
    ``ValueError``."""
    return _keccakx._kt_chaining_values(data, chunk_index, algorithm)


def parallelhash_chaining_values(
    data,
    block_index: int,
    message_len: int,
    block_size: int = 8192,
    algorithm: str = "parallelhash128",
) -> bytes:
    """The chaining values (32 bytes each for ParallelHash(XOF)128, 64 for
    256) of the blocks in ``data``: X from byte ``block_index * block_size``,
    ending on a block boundary or at the end of X (``message_len`` bytes).
    A run that does not fit the message, or ends inside a block that is not
    the last, raises ``ValueError``."""
    return _keccakx._parallelhash_chaining_values(data, block_index, message_len, block_size, algorithm)


def kt_chaining_values_file(fd: int, start: int, end: int, algorithm: str = "kt128") -> bytes:
    """:func:`kt_chaining_values` of bytes ``start:end`` of the regular file
    open as descriptor ``fd``, read by the native library: mapped 16 MiB at a time with the
    pages faulted in by the map (cheaper than copying them into a Python
    buffer), hashed in place with the GIL released, on all cores. ``start``
    is on a chunk boundary (at least 8192: chunk 0 is S_0) and ``end -
    start`` a multiple of 8192. A file shorter than ``end``, or one that
    shrinks while it is read, raises ``OSError(EIO, "file changed size while
    being read")`` (a truncation does not kill the process: the maps are
    guarded against SIGBUS); other read errors are ``OSError`` too. ``fd``
    stays open (the function reads through a duplicate)."""
    return _keccakx._kt_chaining_values_file(fd, start, end, algorithm)


def parallelhash_chaining_values_file(
    fd: int,
    start: int,
    end: int,
    message_len: int,
    block_size: int = 8192,
    algorithm: str = "parallelhash128",
) -> bytes:
    """:func:`parallelhash_chaining_values` of bytes ``start:end`` of the
    open file ``fd`` (X is the file's first ``message_len`` bytes), read as
    :func:`kt_chaining_values_file` reads: ``start`` on a block boundary,
    ``end`` on one or at ``message_len``."""
    return _keccakx._parallelhash_chaining_values_file(fd, start, end, message_len, block_size, algorithm)


def cv_len(algorithm: str) -> int:
    """Bytes per chaining value of a tree function."""
    name = _keccakx._registry_entry(algorithm)[0]
    try:
        return _CV_LEN[name]
    except KeyError:
        raise ValueError(f"{algorithm!r} is not a tree function (KT128/KT256/ParallelHash*)") from None
