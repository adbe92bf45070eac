"""Outboards for KT128/KT256 and ParallelHash: verified ranges and located damage.

An *outboard* holds the chaining values of a message's chunks (8192 bytes
for KT, B bytes for ParallelHash): with it, one trusted digest verifies any
chunk of the message on its own. The format is the one ``keccakx sum
--outboard`` writes and ``keccakx verify`` reads (docs/outboard.md)::

    >>> from keccakx import outboard
    >>> data = bytes(range(256)) * 1000
    >>> digest, ob = outboard.create(data)                  # KT128, 32 bytes
    >>> outboard.verify(ob, digest, data)                   # damaged ranges
    []
    >>> bad = bytearray(data); bad[20000] ^= 1
    >>> outboard.verify(ob, digest, bytes(bad))
    [(16384, 24576)]
    >>> outboard.verify(ob, digest, bytes(bad), range=(100000, 101000))
    []

- ``create(data, ...)`` hashes bytes and returns ``(digest, outboard)``;
  ``create_file(path, outboard_path=None, ...)`` hashes a file and writes
  its outboard (``path + ".kto"`` by default), returning the digest.
- ``check(outboard, digest)`` checks an outboard against a trusted digest
  (only the outboard is read: its head, chaining values and tail).
- ``verify(outboard, digest, data, range=None)`` checks the outboard, then
  hashes the chunks holding ``range`` (``(start, end)`` bytes, rounded out
  to chunks; all by default) and returns the damaged chunks as ``(start,
  end)`` byte ranges, in order (empty: intact). Data shorter than the hashed
  message has every chunk from the cut on damaged; longer data (without a
  range) adds one range for its extra bytes.
- ``info(outboard)`` gives the header's fields.

``data`` and ``outboard`` are bytes-like objects or paths (``str`` or
``os.PathLike``); files are read by range, so ``verify`` with a range reads
only those chunks and their chaining values. An outboard that cannot be
used (not an outboard, another version, a damaged header, incomplete, or
not matching the digest) raises ``OutboardMismatch`` (a ``ValueError``);
that says nothing about the data. Algorithms: ``"kt128"``, ``"kt256"``,
``"parallelhash128"``, ``"parallelhash256"``, ``"parallelhashxof128"``,
``"parallelhashxof256"``; ``custom`` is the customization string,
``block_size`` ParallelHash's B, ``length`` the digest's length in bytes
(the function's default if omitted). A KT outboard holds up to 16 KiB of
the message itself (its first and last chunk): treat it as the data.
"""

from __future__ import annotations

import os
from typing import List, Optional, Tuple, Union

from ._keccakx import (
    OutboardMismatch,
    _outboard_build,
    _outboard_info,
    _outboard_verify,
    _outboard_write_file,
)

__all__ = ["OutboardMismatch", "create", "create_file", "check", "verify", "info"]

Source = Union[bytes, bytearray, memoryview, str, "os.PathLike[str]"]


def create(data, algorithm: str = "kt128", *, custom: bytes = b"",
           block_size: Optional[int] = None, length: Optional[int] = None) -> Tuple[bytes, bytes]:
    """Hash ``data`` (bytes-like) and return ``(digest, outboard)``."""
    return _outboard_build(data, algorithm, bytes(custom), block_size, length)


def create_file(path, outboard_path=None, algorithm: str = "kt128", *, custom: bytes = b"",
                block_size: Optional[int] = None, length: Optional[int] = None) -> bytes:
    """Hash the file at ``path``, write its outboard to ``outboard_path``
    (``path + ".kto"`` by default) and return the digest."""
    if outboard_path is None:
        outboard_path = os.fspath(path) + ".kto"
    return _outboard_write_file(path, outboard_path, algorithm, bytes(custom), block_size, length)


def check(outboard: Source, digest: bytes) -> None:
    """Raise ``OutboardMismatch`` unless ``outboard`` gives ``digest``."""
    _outboard_verify(outboard, bytes(digest))


def verify(outboard: Source, digest: bytes, data: Source,
           range: Optional[Tuple[int, int]] = None) -> List[Tuple[int, int]]:
    """The damaged chunks of ``data`` (in ``range``, or all) as ``(start,
    end)`` byte ranges, after checking the outboard against ``digest``."""
    if range is None:
        return _outboard_verify(outboard, bytes(digest), data)
    start, end = range
    if start < 0 or end < start:
        raise ValueError(f"outboard: range {range!r} is not (start, end) with 0 <= start <= end")
    return _outboard_verify(outboard, bytes(digest), data, start, end)


def info(outboard: Source) -> dict:
    """The header's fields: algorithm, message_len, chunk_len, cv_len,
    chunks, customization, outboard_len."""
    return _outboard_info(outboard)
