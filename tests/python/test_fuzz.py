"""Property fuzzing of what Python hands keccakx (Hypothesis):
hash_many's shapes, strides, dtypes and lying ``__len__``, and the buffer
protocol of every input. Each call either gives hashlib's / the hash
objects' bytes or raises one of the errors a caller can handle (TypeError,
ValueError, BufferError, MemoryError, OverflowError); never anything else,
never an abort. `make test-python` runs the "ci" profile (a few dozen
examples each); `make fuzz` runs HYPOTHESIS_PROFILE=fuzz (thousands).
"""

import array
import hashlib
import mmap
import sys

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import keccakx

HANDLED = (TypeError, ValueError, BufferError, MemoryError, OverflowError)

FIXED = ["sha3_224", "sha3_256", "sha3_384", "sha3_512", "keccak_256", "keccak_512"]
XOFS = ["shake_128", "shake_256", "turboshake128", "kt128", "kt256", "cshake128"]


def want_rows(rows, name, n=None):
    """The reference: each row through a hash object."""
    out = []
    for r in rows:
        h = keccakx.new(name)
        h.update(bytes(r))
        out.append(h.digest(n) if isinstance(h, keccakx.XOF) else h.digest())
    return b"".join(out)


def check_or_handled(fn, want):
    try:
        got = fn()
    except HANDLED:
        return None
    assert bytes(np.asarray(got).tobytes() if not isinstance(got, list) else b"".join(got)) == want
    return got


# ---- 2-D arrays: shapes, strides (views), dtypes ----

shapes = st.tuples(st.integers(0, 40), st.integers(0, 300))


@given(
    arr=hnp.arrays(np.uint8, shapes),
    name=st.sampled_from(FIXED),
    step=st.sampled_from([1, 2, 3, -1]),
    transpose=st.booleans(),
)
def test_array_views_hash_their_rows(arr, name, step, transpose):
    view = arr[::step, ::step] if arr.size else arr
    if transpose:
        view = view.T
    got = keccakx.hash_many(view, name)
    assert got.shape == (view.shape[0], keccakx.new(name).digest_size)
    assert got.tobytes() == want_rows(view, name)


@given(
    dtype=hnp.scalar_dtypes() | hnp.byte_string_dtypes() | hnp.unicode_string_dtypes(),
    shape=hnp.array_shapes(min_dims=0, max_dims=3, max_side=6),
)
def test_any_dtype_and_rank_is_hashed_or_refused(dtype, shape):
    try:
        arr = np.zeros(shape, dtype)
    except (TypeError, ValueError):
        return
    try:
        got = keccakx.hash_many(arr, "sha3_256")
    except HANDLED:
        # Only uint8/int8 2-D arrays are rows of messages.
        assert arr.ndim != 2 or arr.dtype not in (np.uint8, np.int8)
        return
    assert arr.ndim == 2 and arr.dtype in (np.uint8, np.int8)
    assert got.tobytes() == want_rows(arr.view(np.uint8), "sha3_256")


@st.composite
def zero_stride_giants(draw):
    """(rows, cols, ds) drawn directly inside the cases the test can check
    (generating freely and filtering threw away most draws, which
    Hypothesis's health check fails on): rows * cols <= 2**20, because NumPy
    makes the array contiguous first; outputs either small (rows * ds <=
    2**24) or impossible to allocate (rows * ds > 2**47)."""
    rows = draw(st.one_of(st.integers(0, 64), st.integers(0, 2**40)))
    cols = draw(st.integers(0, 2**20 // rows if rows else 2**20))
    if rows == 0:
        return rows, cols, draw(st.integers(0, 2**48))
    small = st.integers(0, 2**24 // rows)
    huge = st.integers(2**47 // rows + 1, 2**48)
    return rows, cols, draw(st.one_of(small, huge))


@given(shape=zero_stride_giants())
@settings(max_examples=60)
def test_zero_stride_giants_never_abort(shape):
    """Arrays that claim huge shapes over one byte (zero strides): hashed
    when they fit, else MemoryError/ValueError, from NumPy or from us."""
    rows, cols, ds = shape
    base = np.zeros(1, np.uint8)
    arr = np.lib.stride_tricks.as_strided(base, shape=(rows, cols), strides=(0, 0))
    try:
        got = keccakx.hash_many(arr, "shake_128", digest_size=ds)
    except HANDLED:
        assert rows * ds > 2**47 or ds > 2**48
        return
    assert got.shape == (rows, ds)
    if rows and ds:
        assert got[0].tobytes() == hashlib.shake_128(bytes(cols)).digest(ds)


# ---- sequences: lying __len__, odd iterables ----


class Lying:
    def __init__(self, items, length, exc=None):
        self.items, self.length, self.exc = items, length, exc

    def __len__(self):
        if self.exc is not None:
            raise self.exc
        return self.length

    def __iter__(self):
        return iter(self.items)


@given(
    msgs=st.lists(st.binary(max_size=200), max_size=20),
    # What __len__ returns: small, huge, past Py_ssize_t, negative, not an
    # int (CPython turns the last three into OverflowError, ValueError,
    # TypeError: only a hint lost, never the call).
    length=st.one_of(
        st.integers(0, 2**62),
        st.just(sys.maxsize),
        st.integers(0, 30),
        st.integers(2**63, 2**70),
        st.integers(-(2**70), -1),
        st.sampled_from([1.5, "3", None]),
    ),
    exc=st.sampled_from([None, None, OverflowError, ValueError, TypeError, RuntimeError]),
    name=st.sampled_from(FIXED + XOFS),
    ds=st.integers(1, 80),
)
def test_lying_len_never_matters(msgs, length, exc, name, ds):
    xof = name in XOFS
    got = keccakx.hash_many(Lying(msgs, length, exc and exc("lie")), name, ds if xof else None)
    assert got.tobytes() == want_rows(msgs, name, ds if xof else None)


@given(st.lists(st.one_of(st.binary(max_size=50), st.text(max_size=5), st.integers(), st.none()), max_size=8))
def test_mixed_items_hash_or_name_the_bad_one(items):
    try:
        got = keccakx.hash_many(items, "sha3_256")
    except TypeError as e:
        bad = next(i for i, x in enumerate(items) if not isinstance(x, bytes))
        assert f"message {bad}" in str(e)
        return
    assert got.tobytes() == want_rows(items, "sha3_256")


@given(st.lists(st.binary(max_size=64), max_size=10), st.integers(0, 9))
def test_iterator_that_raises_midway_propagates(msgs, at):
    class Boom(Exception):
        pass

    def gen():
        for i, m in enumerate(msgs):
            if i == at:
                raise Boom()
            yield m

    if at < len(msgs):
        with pytest.raises(Boom):
            keccakx.hash_many(gen(), "sha3_256")
    else:
        assert keccakx.hash_many(gen(), "sha3_256").tobytes() == want_rows(msgs, "sha3_256")


# ---- the buffer protocol ----

buffer_makers = {
    "bytes": bytes,
    "bytearray": bytearray,
    "memoryview": memoryview,
    "array_B": lambda b: array.array("B", b),
    "array_I": lambda b: array.array("I", b[: len(b) // 4 * 4]),
    "numpy_u8": lambda b: np.frombuffer(b, np.uint8),
    "numpy_u2_2d": lambda b: np.frombuffer(b[: len(b) // 4 * 4], np.uint16).reshape(-1, 2),
    "memoryview_cast": lambda b: memoryview(b[: len(b) // 8 * 8]).cast("Q"),
    "memoryview_strided": lambda b: memoryview(b)[::2],
    "numpy_strided": lambda b: np.frombuffer(b, np.uint8)[::3],
    "numpy_fortran": lambda b: np.asfortranarray(np.frombuffer(b[: len(b) // 6 * 6], np.uint8).reshape(-1, 6)),
}


@given(data=st.binary(max_size=3000), kind=st.sampled_from(sorted(buffer_makers)), name=st.sampled_from(FIXED))
def test_every_buffer_hashes_its_raw_bytes_or_is_refused(data, kind, name):
    obj = buffer_makers[kind](data)
    # The bytes a C-contiguous export would give.
    try:
        raw = memoryview(obj).tobytes()
        contiguous = memoryview(obj).c_contiguous
    except TypeError:
        raw, contiguous = bytes(obj), True
    for call in (
        lambda: keccakx.new(name, obj).digest(),
        lambda: keccakx.hash_many([obj], name).tobytes(),
    ):
        try:
            got = call()
        except (BufferError, ValueError):  # the exporter's own: memoryview's, NumPy's
            assert not contiguous, kind
            continue
        assert contiguous, kind
        assert got == want_rows([raw], name)
        if name.startswith("sha3"):
            assert got == hashlib.new(name, raw).digest()


@given(st.binary(max_size=5000))
@settings(max_examples=20)
def test_mmap_and_resizing_bytearray(data):
    m = mmap.mmap(-1, max(len(data), 1))
    m[: len(data)] = data
    want = hashlib.sha3_256(bytes(m)).digest()
    assert keccakx.sha3_256(m).digest() == want
    assert keccakx.hash_many([m], "sha3_256").tobytes() == want
    m.close()
    # A bytearray cannot be resized while keccakx reads it.
    b = bytearray(data)
    h = keccakx.sha3_256()
    h.update(b)
    b.extend(b"more")
    assert h.digest() == hashlib.sha3_256(data).digest()


class NotABuffer:
    pass


class BadLenBuffer(bytes):
    def __len__(self):
        return 2**62


@given(st.sampled_from([NotABuffer(), 3.5, object(), "text", BadLenBuffer(b"abc"), [1, 2], {b"a": 1}]))
def test_objects_without_a_usable_buffer(obj):
    try:
        got = keccakx.sha3_256(obj).digest()
    except HANDLED:
        return
    # bytes subclasses are hashed by their bytes, whatever __len__ says.
    assert isinstance(obj, bytes) and got == hashlib.sha3_256(bytes(obj)).digest()


@given(
    n=st.one_of(st.integers(-(2**70), 2**70), st.just(sys.maxsize), st.just(2**48), st.just(2**48 + 1)),
    how=st.sampled_from(["digest", "hexdigest", "read"]),
)
@settings(max_examples=60)
def test_output_sizes_from_python(n, how):
    assume(not 2**24 < n < 2**47)  # fits, but slow to squeeze
    h = keccakx.shake_128(b"x")
    try:
        out = getattr(h, how)(n)
    except HANDLED:
        assert n < 0 or n >= 2**47
        return
    assert 0 <= n <= 2**24
    assert len(out) == (2 * n if how == "hexdigest" else n)
