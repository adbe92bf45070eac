"""keccakx: the whole Keccak family with a hashlib-compatible API.

Hash objects (``update``, ``copy``, ``digest``, ``hexdigest``, ``name``,
``digest_size``, ``block_size``) for SHA3-224/256/384/512, SHAKE128/256,
Keccak-224/256/384/512 (pad 0x01, Ethereum's Keccak-256), cSHAKE, KMAC,
TupleHash, ParallelHash (SP 800-185), TurboSHAKE, KT128/KT256 (RFC 9861), tree
mode LI and raw Keccak[r, c]; extendable-output objects add ``digest(n)``,
``hexdigest(n)`` and a ``read(n)`` stream.

Any object with the buffer protocol is hashed in place (bytes, bytearray,
memoryview, NumPy arrays, mmap), and the GIL is released while hashing inputs
of 4 KiB or more, so threads hash in parallel. ``hash_many`` hashes many
messages in one call on all cores and returns a 2-D NumPy array (a list of
``bytes`` when NumPy is not installed).

    >>> import keccakx
    >>> keccakx.sha3_256(b"abc").hexdigest()[:16]
    '3a985da74fe225b2'
    >>> keccakx.new("shake128", b"abc").hexdigest(8)
    '5881092dd818bf5c'
"""

from __future__ import annotations

import io
import os
import stat


from . import _keccakx
from ._keccakx import (
    XOF,
    Hash,
    cshake128,
    cshake256,
    engine,
    import_state,
    keccak,
    keccak_224,
    keccak_256,
    keccak_384,
    keccak_512,
    kmac128,
    kmac256,
    kmacxof128,
    kmacxof256,
    kt128,
    kt256,
    new,
    parallelhash128,
    parallelhash256,
    parallelhashxof128,
    parallelhashxof256,
    set_threads,
    set_engine,
    sha3_224,
    sha3_256,
    sha3_384,
    sha3_512,
    shake_128,
    shake_256,
    tree_li,
    tuplehash128,
    tuplehash256,
    tuplehashxof128,
    tuplehashxof256,
    turboshake128,
    turboshake256,
)

__all__ = [
    "Hash",
    "XOF",
    "algorithms_available",
    "algorithms_guaranteed",
    "backend_info",
    "backends",
    "cshake128",
    "cshake256",
    "engine",
    "file_digest",
    "gpu_hash_many",
    "hash_many",
    "import_state",
    "keccak",
    "keccak_224",
    "keccak_256",
    "keccak_384",
    "keccak_512",
    "kmac128",
    "kmac256",
    "kmacxof128",
    "kmacxof256",
    "kt128",
    "kt256",
    "new",
    "parallelhash128",
    "parallelhash256",
    "parallelhashxof128",
    "parallelhashxof256",
    "set_threads",
    "set_engine",
    "sha3_224",
    "sha3_256",
    "sha3_384",
    "sha3_512",
    "shake_128",
    "shake_256",
    "tree_li",
    "tuplehash128",
    "tuplehash256",
    "tuplehashxof128",
    "tuplehashxof256",
    "turboshake128",
    "turboshake256",
]

__version__ = "0.1.0"

#: Every name ``new()`` accepts (other spellings work too: case, ``-``/``_``).
algorithms_available = frozenset(_keccakx._algorithm_names())
#: Same as ``algorithms_available``: every function is built in.
algorithms_guaranteed = algorithms_available


def backend_info() -> dict:
    """What can run here: ``{"cpu": <engine name>, "gpu": <device or reason>,
    "gpu_available": bool}``."""
    ok, why = _keccakx._gpu_status()
    return {"cpu": engine(), "gpu_available": ok, "gpu": why}


def backends() -> list:
    """Backends available: ``["cpu"]``, plus ``"gpu"`` when the CUDA engine
    is built in and a GPU was found."""
    ok, _ = _keccakx._gpu_status()
    return ["cpu", "gpu"] if ok else ["cpu"]


def file_digest(fileobj, name, /, *, progress=None, _bufsize: int = 1 << 20, **params):
    """Hash a file like :func:`hashlib.file_digest`; returns the hash object.

    ``fileobj`` is a path (str, bytes, os.PathLike) or a binary file object
    (``open(path, "rb")``, ``io.BytesIO``, a socket file ...). ``name`` is an
    algorithm name (as for :func:`new`, with ``**params``) or a callable
    returning a fresh hash object (``keccakx.sha3_256``).

    ``progress``, if given, is called as ``progress(done, total)`` after
    every piece read: ``done`` bytes hashed so far, ``total`` the file's
    size when it is known (a regular file), else None. An exception it
    raises, or Ctrl-C, stops the hashing and propagates. A file object not
    open for binary reading (text mode, ``"ab"``, ``io.StringIO``) is a
    ValueError, as with hashlib.
    """
    if progress is not None and not callable(progress):
        raise TypeError("file_digest(): progress must be a callable progress(done, total) or None")
    if isinstance(fileobj, (str, bytes, os.PathLike)):
        with open(fileobj, "rb") as f:
            return file_digest(f, name, progress=progress, _bufsize=_bufsize, **params)
    if isinstance(name, str):
        h = new(name, **params)
    elif callable(name):
        if params:
            raise TypeError("file_digest(): parameters need a name, not a constructor")
        h = name()
    else:
        raise TypeError(f"file_digest(): name must be a str or a callable, not {type(name).__name__!r}")
    if hasattr(fileobj, "getbuffer"):
        # io.BytesIO: hash its buffer in place.
        buf = fileobj.getbuffer()
        h.update(buf)
        if progress is not None:
            progress(len(buf), len(buf))
        return h
    if isinstance(fileobj, io.TextIOBase) or not (
        hasattr(fileobj, "readinto") and hasattr(fileobj, "readable") and fileobj.readable()
    ):
        # ValueError, as hashlib.file_digest raises for the same objects.
        raise ValueError(
            f"file_digest(): {fileobj!r} is not a file object in binary read mode "
            "(open it with 'rb', or pass a path)"
        )
    total = None
    if progress is not None:
        try:
            st = os.fstat(fileobj.fileno())
            if stat.S_ISREG(st.st_mode):
                total = max(st.st_size - fileobj.tell(), 0)
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            pass
    buf = bytearray(_bufsize)
    view = memoryview(buf)
    done = 0
    while True:
        n = fileobj.readinto(buf)
        if n is None:
            raise BlockingIOError("file_digest(): I/O operation would block")
        if not n:
            break
        h.update(view[:n])
        done += n
        if progress is not None:
            progress(done, total)
    return h


# DLPack device types that live in host memory (kDLCPU, kDLCUDAHost, kDLROCMHost).
_DLPACK_HOST = {1, 3, 11}


def _dlpack_device_kind(x):
    """The DLPack device type of ``x`` if it is a DLPack object off the host."""
    dev = getattr(x, "__dlpack_device__", None)
    if dev is None:
        return None
    try:
        kind = int(dev()[0])
    except Exception:  # not a usable DLPack object: treat as host data
        return None
    return None if kind in _DLPACK_HOST else kind


def _cuda_interface(x):
    try:
        return x.__cuda_array_interface__
    except Exception:  # AttributeError, or e.g. a CPU torch tensor refusing
        return None


def _device_ordinal(x):
    dev = getattr(x, "device", None)
    for attr in ("id", "index"):  # CuPy: device.id; PyTorch: device.index
        v = getattr(dev, attr, None)
        if isinstance(v, int):
            return v
    return 0


def _device_empty(x, shape, ordinal):
    """An uninitialised uint8 device array of ``shape``, from x's library."""
    lib = type(x).__module__.split(".")[0]
    if lib == "torch":
        import torch

        return torch.empty(shape, dtype=torch.uint8, device=x.device)
    if lib == "numba":
        from numba import cuda

        return cuda.device_array(shape, dtype="uint8")
    try:
        import cupy
    except ImportError:
        raise RuntimeError(
            f"hash_many: cannot allocate the GPU output for a {type(x).__module__}.{type(x).__name__}; "
            "install CuPy, or pass a CuPy / PyTorch / Numba array"
        ) from None
    with cupy.cuda.Device(ordinal):
        return cupy.empty(shape, dtype=cupy.uint8)


def _hash_many_cuda(x, cai, name, digest_size, params):
    """hash_many for a 2-D uint8 array in GPU memory: the result stays there."""
    shape = tuple(cai["shape"])
    if len(shape) != 2:
        raise ValueError(f"hash_many: a device array of messages must be 2-D (one per row), got shape {shape}")
    if not str(cai["typestr"]).endswith(("u1", "i1")):
        raise TypeError(f"hash_many: device array dtype must be uint8, not {cai['typestr']}")
    rows, cols = shape
    strides = cai.get("strides")
    row_stride = cols if strides is None else int(strides[0])
    if strides is not None and cols > 1 and int(strides[1]) != 1:
        raise ValueError("hash_many: each row of the device array must be contiguous (stride 1 along a row)")
    ordinal = _device_ordinal(x)
    out_len = _keccakx._batch_out_len(name, digest_size, **params)
    out = _device_empty(x, (rows, out_len), ordinal)
    out_ptr = int(_cuda_interface(out)["data"][0])
    stream = cai.get("stream")
    _keccakx._gpu_hash_many_raw(
        ordinal, name, digest_size, int(cai["data"][0]), rows, row_stride, cols, out_ptr,
        None if stream is None else int(stream), **params,
    )
    return out


def _gpu_unavailable(what):
    ok, reason = _keccakx._gpu_status()
    return RuntimeError(
        f"GPU arrays need the CUDA backend; none available: {reason} "
        f"(got {what}; copy it to the host yourself, e.g. with .get() or .cpu(), to hash it on the CPU)"
    )


def _numpy():
    """NumPy if it is installed, else None."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def gpu_hash_many(messages, name, digest_size=None, *, device=0, register=False, how=False, **params):
    """Hash the rows of a C-contiguous 2-D uint8 host array on GPU ``device``.

    The host-fed GPU path (``hash_many`` hashes host data on the CPU): the
    rows are copied to the GPU and hashed there, straight from the array's
    memory when it is page-locked (pinned: CuPy's ``cupyx.empty_pinned``,
    PyTorch's ``.pin_memory()`` seen through ``.numpy()``) or, with
    ``register=True``, registered with the driver for the call (``cuMemHostRegister``;
    staged where the driver refuses); otherwise through pinned staging
    buffers. Returns an ``(n, digest_size)`` uint8 array (``bytes`` without
    NumPy), and with ``how=True`` also how the input went: ``"staged"``,
    ``"registered"`` or ``"page-locked"``. Only the plain sponges
    (``sha3_*``, ``shake_*``, ``keccak_*``, ``turboshake*``, ...).
    """
    view = memoryview(messages)
    if view.ndim != 2 or view.itemsize != 1 or not view.c_contiguous:
        raise ValueError("gpu_hash_many: messages must be a C-contiguous 2-D array of one-byte items")
    rows, cols = view.shape
    out, kind = _keccakx._gpu_hash_host(device, name, digest_size, messages, rows, cols, cols, register, **params)
    np = _numpy()
    if np is not None:
        out_len = len(out) // rows if rows else _keccakx._batch_out_len(name, digest_size, **params)
        out = np.frombuffer(out, dtype=np.uint8).reshape(rows, out_len)
    return (out, kind) if how else out


def hash_many(messages, name, digest_size=None, *, progress=None, **params):
    """Hash many messages with one function; returns an ``(n, digest_size)``
    ``numpy.uint8`` array, row i the digest of message i (without NumPy
    installed: a list of ``n`` ``bytes`` objects).

    ``messages`` is a sequence of bytes-like objects (any lengths), or a 2-D
    uint8/int8 NumPy array (or a CPU tensor with DLPack) with one message per
    row, read through its strides (a broadcast or sliced array is not
    copied). Items of a list or tuple are read in place; items of any other
    iterable (a generator refilling one buffer) are copied as they are
    yielded, unless they are ``bytes``. A single buffer (``bytes``, ``mmap``,
    ...) is a TypeError, and so is an array of dtype object (its bytes are
    addresses); a 1-D object array is a sequence of messages. ``name`` and ``**params`` are as for :func:`new`; ``digest_size``
    is the output length (default: the function's; for XOFs the number of
    bytes to squeeze). For TupleHash each message is a one-element tuple.

    Runs with the GIL released on all cores (limit with ``set_threads(n)``),
    in pieces of about 32 MiB (a longer message is streamed in pieces of its
    own); ``progress``, if given, is called between pieces as
    ``progress(done_bytes, total_bytes)`` (input bytes). An exception it
    raises, or Ctrl-C, stops the batch and propagates; nothing is returned. Sizes
    that cannot fit in memory raise MemoryError.

    A 2-D uint8 array in GPU memory (CuPy, a PyTorch CUDA tensor, anything
    with ``__cuda_array_interface__``, or DLPack on a CUDA device read via
    CuPy) is hashed on that GPU without a copy to the host, for the plain
    sponges (SHA3, SHAKE, Keccak, TurboSHAKE, raw Keccak on width 1600); the
    result is a device array of the same library. Without the CUDA backend
    (see ``backend_info()``) that raises RuntimeError: device data is never
    copied to the host behind your back.
    """
    if progress is not None and not callable(progress):
        raise TypeError("hash_many: progress must be a callable progress(done_bytes, total_bytes) or None")
    cai = _cuda_interface(messages)
    kind = _dlpack_device_kind(messages)
    if cai is not None or kind is not None:
        what = f"{type(messages).__module__}.{type(messages).__name__} in GPU memory"
        if not _keccakx._gpu_status()[0]:
            raise _gpu_unavailable(what)
        if cai is None:  # DLPack only: read it through CuPy
            try:
                import cupy
            except ImportError:
                raise RuntimeError(
                    f"hash_many: {what} has no __cuda_array_interface__; install CuPy to read it through DLPack"
                ) from None
            messages = cupy.from_dlpack(messages)
            cai = messages.__cuda_array_interface__
        return _hash_many_cuda(messages, cai, name, digest_size, params)
    np = _numpy()
    arr = None
    if np is not None and isinstance(messages, np.ndarray):
        arr = messages
    elif hasattr(messages, "__dlpack_device__") and not isinstance(messages, (list, tuple)):
        if np is None:
            raise ImportError("keccakx.hash_many reads DLPack tensors through NumPy: pip install numpy")
        arr = np.from_dlpack(messages)
    if arr is not None and arr.dtype == object and arr.ndim == 1:
        # A 1-D array of Python objects is a sequence of messages.
        messages, arr = arr.tolist(), None
    if arr is not None:
        if arr.dtype.kind not in "biufc":
            raise TypeError(
                f"hash_many: an array of dtype {arr.dtype} holds no message bytes (only numeric "
                "dtypes have raw bytes); pass a 2-D uint8 array, or a list of bytes-like objects"
            )
        if arr.ndim != 2:
            raise ValueError(
                f"hash_many: an array of messages must be 2-D (one message per row), got {arr.ndim}-D"
            )
        if arr.dtype not in (np.uint8, np.int8):
            raise TypeError(
                f"hash_many: array dtype must be uint8 (one byte per element), not {arr.dtype}; "
                "use arr.view(numpy.uint8) to hash the raw bytes"
            )
        # Rows are read through the array's strides (a broadcast or sliced
        # array is not copied); only rows that are not contiguous are.
        r = _keccakx._hash_many_rows(arr, name, digest_size, progress, **params)
        if r is None:
            r = _keccakx._hash_many_rows(np.ascontiguousarray(arr), name, digest_size, progress, **params)
        out, n, length = r
    elif np is None:
        out, n, length = _keccakx._hash_many_list(messages, name, digest_size, progress, True, **params)
        return out
    else:
        out, n, length = _keccakx._hash_many_list(messages, name, digest_size, progress, False, **params)
    return np.frombuffer(out, dtype=np.uint8).reshape(n, length)
