"""Hostile sizes and the issue-22 reproducers: no size from Python may abort
the interpreter or raise PanicException (a BaseException that ``except
Exception`` misses); hash_many without NumPy; progress callbacks."""

import hashlib
import io
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import keccakx

ALLOWED = (MemoryError, ValueError, OverflowError, TypeError)


def run_isolated(code):
    """Run `code` in a fresh interpreter: an abort or a PanicException there
    fails this test instead of killing the suite."""
    p = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, f"exit {p.returncode}\nstdout: {p.stdout}\nstderr: {p.stderr}"
    # Nothing printed behind the caller's back either (CPython prints
    # "SystemError: deallocated bytearray ..." when its allocation fails).
    for bad in ("SystemError", "panicked", "PanicException", "Traceback"):
        assert bad not in p.stderr, p.stderr
    return p.stdout


def test_2_pow_33_empty_rows_is_memory_error():
    # Was: SIGABRT, "memory allocation of ... failed" (one slice per row
    # allocated before any size check).
    out = run_isolated(
        """
        import numpy, keccakx
        try:
            keccakx.hash_many(numpy.zeros((2**33, 0), numpy.uint8), "sha3_256")
        except MemoryError as e:
            print("MemoryError", e)
        """
    )
    assert out.startswith("MemoryError")


class LyingLen:
    """An iterable whose __len__ lies; its real items are `items`."""

    def __init__(self, n, items):
        self.n, self.items = n, items

    def __len__(self):
        return self.n

    def __iter__(self):
        return iter(self.items)


@pytest.mark.parametrize("n", [2**40, sys.maxsize, 2**31, 0, 10**6])
def test_lying_len_hashes_the_real_items(n):
    # Was: abort (2**40) and PanicException (sys.maxsize).
    items = [b"a", b"bc", b""]
    got = keccakx.hash_many(LyingLen(n, items), "sha3_256")
    assert got.tobytes() == b"".join(hashlib.sha3_256(m).digest() for m in items)


def test_lying_len_in_a_fresh_interpreter():
    out = run_isolated(
        """
        import sys, keccakx
        class L:
            def __init__(self, n): self.n = n
            def __len__(self): return self.n
            def __iter__(self): return iter([b"x"])
        for n in (2**40, sys.maxsize, 2**62):
            r = keccakx.hash_many(L(n), "sha3_256")
            print(n, r.shape)
        """
    )
    assert out.count("(1, 32)") == 3


class BadLen:
    def __init__(self, exc):
        self.exc = exc

    def __len__(self):
        raise self.exc

    def __iter__(self):
        return iter([b"q"])


@pytest.mark.parametrize("exc", [OverflowError("big"), ValueError("no"), RuntimeError("x")])
def test_len_that_raises_is_only_a_hint(exc):
    assert keccakx.hash_many(BadLen(exc), "sha3_256").tobytes() == hashlib.sha3_256(b"q").digest()


def test_huge_digest_sizes_raise_memory_error():
    for ds in (2**47, 2**48):
        with pytest.raises(MemoryError):
            keccakx.hash_many([b"a", b"b"], "shake_128", digest_size=ds)
    with pytest.raises(ValueError):
        keccakx.hash_many([b"a"], "shake_128", digest_size=2**48 + 1)
    with pytest.raises((ValueError, OverflowError)):
        keccakx.hash_many([b"a"], "shake_128", digest_size=2**70)
    # Many rows times a large digest overflows usize: MemoryError, not a panic.
    rows = np.zeros((2**20, 0), np.uint8)
    with pytest.raises(MemoryError):
        keccakx.hash_many(rows, "shake_128", digest_size=2**47)
    with pytest.raises(MemoryError):
        keccakx.shake_128(b"").digest(2**47)
    with pytest.raises(MemoryError):
        keccakx.shake_128(b"").hexdigest(2**47)
    with pytest.raises(MemoryError):
        keccakx.shake_128(b"").read(2**47)


def test_native_rows_come_from_the_exporters_shape():
    # The native call reads rows and columns from the buffer's own shape
    # and strides: nothing the caller says about them can be wrong.
    k = keccakx._keccakx
    with pytest.raises(ValueError, match="2-D"):
        k._hash_many_rows(b"abcd", "sha3_256")
    with pytest.raises(ValueError, match="2-D"):
        k._hash_many_rows(np.zeros((2, 2), np.uint32), "sha3_256")
    out, n, length = k._hash_many_rows(np.frombuffer(b"abcd", np.uint8).reshape(2, 2), "sha3_256")
    assert bytes(out) == hashlib.sha3_256(b"ab").digest() + hashlib.sha3_256(b"cd").digest()
    assert k._hash_many_rows(np.zeros((4, 4), np.uint8)[:, ::2], "sha3_256") is None


def test_zero_digest_size_xof():
    got = keccakx.hash_many([b"a"] * 5, "shake_128", digest_size=0)
    assert got.shape == (5, 0)
    got = keccakx.hash_many(np.zeros((2**33, 0), np.uint8), "shake_128", digest_size=0)
    assert got.shape == (2**33, 0)


def test_no_panic_exception_anywhere_on_hostile_sizes():
    """Every hostile size in one interpreter: only the allowed errors."""
    out = run_isolated(
        """
        import sys, numpy as np, keccakx
        allowed = (MemoryError, ValueError, OverflowError, TypeError)
        cases = [
            lambda: keccakx.hash_many(np.zeros((2**33, 0), np.uint8), "sha3_256"),
            lambda: keccakx.hash_many(np.zeros((2**33, 0), np.uint8), "sha3_256"),
            lambda: keccakx.hash_many(np.zeros((2**40, 0), np.uint8), "kt128", digest_size=64),
            lambda: keccakx.hash_many([b""] * 3, "shake_256", digest_size=2**48),
            lambda: keccakx.shake_256().digest(2**48),
            lambda: keccakx.new("shake128").read(sys.maxsize),
            lambda: keccakx.new("shake128").digest(-1),
            lambda: keccakx.new("parallelhash128", block_size=2**40),
            lambda: keccakx.new("tree_li", degree=2**20),
            lambda: keccakx.new("tree_li", height=2**20),
            lambda: keccakx.new("tree_li", block_size=2**32 - 1).update(b"x" * 100),
            lambda: keccakx.new("keccak", rate=2**40),
            lambda: keccakx.new("keccak", rate=8, capacity=1592, rounds=2**40),
            lambda: keccakx.kmac128(b"k", digest_size=2**60),
            lambda: keccakx.file_digest(__import__("io").BytesIO(b"x"), "sha3_256", _bufsize=2**62),
            lambda: keccakx.set_threads(2**70),
            lambda: keccakx.set_threads(-1),
        ]
        for i, c in enumerate(cases):
            try:
                c()
                print(i, "ok")
            except allowed as e:
                print(i, type(e).__name__)
            except BaseException as e:
                print(i, "BAD", type(e).__name__, e)
                sys.exit(3)
        keccakx.set_threads(0)
        """
    )
    assert "BAD" not in out


def test_tree_li_huge_leaf_block_hashes():
    # A leaf block far larger than the input: the input is one short leaf.
    h = keccakx.new("tree_li", block_size=2**32 - 1)
    h.update(b"x" * 1000)
    assert len(h.digest(32)) == 32


# ---- hash_many without NumPy ----


def test_hash_many_without_numpy_returns_list_of_bytes():
    out = run_isolated(
        """
        import sys
        sys.modules["numpy"] = None  # `import numpy` now raises ImportError
        import hashlib, keccakx
        msgs = [b"", b"abc", bytearray(b"x" * 1000), memoryview(b"yz")]
        got = keccakx.hash_many(msgs, "sha3_256")
        assert isinstance(got, list) and all(type(d) is bytes for d in got), got
        assert got == [hashlib.sha3_256(bytes(m)).digest() for m in msgs]
        assert keccakx.hash_many([], "sha3_256") == []
        x = keccakx.hash_many([b"a"], "shake_128", digest_size=0)
        assert x == [b""], x
        seen = []
        got = keccakx.hash_many([b"ab"] * 3, "kt128", 16, progress=lambda d, t: seen.append((d, t)))
        assert got == [keccakx.kt128(b"ab").digest(16)] * 3 and seen[-1] == (6, 6), seen
        # file_digest needs no NumPy either.
        import io
        assert keccakx.file_digest(io.BytesIO(b"abc"), "sha3_256").digest() == hashlib.sha3_256(b"abc").digest()
        print("ok")
        """
    )
    assert out.strip() == "ok"


def test_hash_many_with_numpy_still_returns_arrays():
    assert isinstance(keccakx.hash_many([b"a"], "sha3_256"), np.ndarray)
    assert isinstance(keccakx.hash_many(np.zeros((1, 3), np.uint8), "sha3_256"), np.ndarray)


# ---- progress callbacks ----


def test_hash_many_progress_reports_bytes_in_order():
    msgs = [os.urandom(1 << 20) for _ in range(40)]  # 40 MiB: two pieces or more
    seen = []
    got = keccakx.hash_many(msgs, "kt128", 32, progress=lambda d, t: seen.append((d, t)))
    assert got.tobytes() == b"".join(keccakx.kt128(m).digest(32) for m in msgs)
    total = 40 << 20
    assert len(seen) >= 2
    assert all(t == total for _, t in seen)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert seen[-1] == (total, total)
    # Rows, with many small messages: the piece bound on message counts.
    arr = np.zeros((200_000, 4), np.uint8)
    seen = []
    keccakx.hash_many(arr, "sha3_256", progress=lambda d, t: seen.append((d, t)))
    assert len(seen) >= 3 and seen[-1] == (800_000, 800_000)
    seen = []
    assert keccakx.hash_many([], "sha3_256", progress=lambda d, t: seen.append((d, t))).shape == (0, 32)
    assert seen == [(0, 0)]


def test_progress_exception_stops_and_propagates():
    class Stop(Exception):
        pass

    def cb(done, total):
        raise Stop(done)

    with pytest.raises(Stop):
        keccakx.hash_many([b"a" * 100] * 10, "sha3_256", progress=cb)
    with pytest.raises(Stop):
        keccakx.file_digest(io.BytesIO(b"abc" * 1000), "sha3_256", progress=cb)
    with pytest.raises(TypeError, match="progress"):
        keccakx.hash_many([b"a"], "sha3_256", progress=5)
    with pytest.raises(TypeError, match="progress"):
        keccakx.file_digest(io.BytesIO(b"a"), "sha3_256", progress="x")


def test_file_digest_progress(tmp_path):
    data = os.urandom(3 << 20 | 17)
    p = tmp_path / "f.bin"
    p.write_bytes(data)
    seen = []
    h = keccakx.file_digest(str(p), "sha3_256", progress=lambda d, t: seen.append((d, t)), _bufsize=1 << 20)
    assert h.digest() == hashlib.sha3_256(data).digest()
    assert [d for d, _ in seen] == [1 << 20, 2 << 20, 3 << 20, len(data)]
    assert {t for _, t in seen} == {len(data)}
    # A pipe has no known size.
    r, w = os.pipe()
    os.write(w, b"hello")
    os.close(w)
    seen = []
    with os.fdopen(r, "rb") as f:
        keccakx.file_digest(f, "sha3_256", progress=lambda d, t: seen.append((d, t)))
    assert seen == [(5, None)]
    seen = []
    keccakx.file_digest(io.BytesIO(b"xyz"), keccakx.sha3_256, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(3, 3)]
