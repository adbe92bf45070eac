"""keccakx behaves as hashlib where a careful user would not expect a
difference: no hang in a forked child, the GIL released while waiting for
an object's lock, Ctrl-C seen within long calls, no digest of the wrong
bytes (reused generator buffers, object arrays), hashlib's exception types,
and hash_many reading strided arrays in place."""

import array
import hashlib
import io
import mmap
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
import tracemalloc

import numpy as np
import pytest

import keccakx
from keccakx import hazmat


def zeros(n):
    """n zero bytes that take no memory: an anonymous map never written
    (every page is the kernel's shared zero page)."""
    return mmap.mmap(-1, n)


def run_isolated(code, timeout=120, **kw):
    p = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout, **kw
    )
    assert p.returncode == 0, (p.returncode, p.stdout[-2000:], p.stderr[-3000:])
    return p.stdout


# ---- a forked child gets its own thread pool ----


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork() here")
def test_forked_children_never_hang_while_the_parent_hashes_in_threads():
    # Three threads keep the pool busy (its locks taken and released all
    # the time) while the main thread forks; every child hashes on all
    # cores. With the parent's pool in the child, a child blocked forever
    # on a lock held at the moment of the fork: 1 in 30-180 on a many-core
    # machine; on two cores, with a pool of 64 threads (preempted while
    # holding their locks), 3-6 in 500 in five runs.
    out = run_isolated(
        """
        import os, sys, threading, time, hashlib
        import numpy as np, keccakx
        rows = np.frombuffer(os.urandom(4000 * 64), np.uint8).reshape(4000, 64)
        want = keccakx.hash_many(rows, "sha3_256").tobytes()
        assert want[:32] == hashlib.sha3_256(rows[0].tobytes()).digest()
        stop = False
        def busy():
            while not stop:
                keccakx.hash_many(rows, "sha3_256")
        ts = [threading.Thread(target=busy) for _ in range(3)]
        for t in ts:
            t.start()
        hung = bad = 0
        forks = 500
        for i in range(forks):
            pid = os.fork()
            if pid == 0:
                ok = keccakx.hash_many(rows, "sha3_256").tobytes() == want
                ok = ok and keccakx.hash_many(rows, "sha3_256").tobytes() == want
                os._exit(0 if ok else 1)
            deadline = time.monotonic() + 10
            while True:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    bad += os.waitstatus_to_exitcode(status) != 0
                    break
                if time.monotonic() > deadline:
                    hung += 1
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
                    break
                time.sleep(0.0005)
        stop = True
        for t in ts:
            t.join()
        print("forks", forks, "hung", hung, "bad", bad)
        """,
        timeout=300,
        env={**os.environ, "RAYON_NUM_THREADS": "64"},
    )
    assert "forks 500 hung 0 bad 0" in out, out


# ---- the GIL is released while waiting for an object's lock ----


def longest_stall_while(fn):
    """Run fn() on the main thread while a 2 ms ticker runs; the ticker's
    longest gap between ticks (s)."""
    gaps = []
    stop = threading.Event()

    def tick():
        last = time.perf_counter()
        while not stop.is_set():
            time.sleep(0.002)
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

    t = threading.Thread(target=tick)
    t.start()
    try:
        fn()
    finally:
        stop.set()
        t.join()
    return max(gaps)


@pytest.mark.parametrize("call", ["digest", "update", "copy", "read"])
def test_waiting_for_an_objects_lock_releases_the_gil(call):
    big = zeros(96 << 20)
    h = keccakx.shake_128() if call == "read" else keccakx.sha3_256()
    took = []

    def long_update():
        t0 = time.perf_counter()
        h.update(big)
        took.append(time.perf_counter() - t0)

    def contend():
        a = threading.Thread(target=long_update)
        a.start()
        time.sleep(0.02)  # a is inside update() now, holding the object
        {"digest": lambda: h.digest() if call != "read" else None,
         "update": lambda: h.update(b"x"),
         "copy": lambda: h.copy(),
         "read": lambda: h.read(16)}[call]()
        a.join()

    stall = longest_stall_while(contend)
    assert took[0] > 0.1, "the update was too short to tell"
    # Waiting with the GIL held froze the ticker for the rest of the update.
    assert stall < max(0.05, took[0] / 3), (stall, took[0])


# ---- Ctrl-C between the pieces of long calls ----


def interrupt_soon(delay=0.03):
    t = threading.Timer(delay, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    return t


def test_hash_many_of_one_long_message_reports_progress_and_sees_ctrl_c():
    msg = zeros(160 << 20)  # five pieces of 32 MiB
    seen = []
    keccakx.hash_many([msg], "sha3_256", progress=lambda d, t: seen.append((d, t)))
    assert len(seen) >= 5 and seen[-1] == (len(msg), len(msg))
    # The whole message is one TupleHash element, streamed or not.
    got = keccakx.hash_many([msg], "tuplehash128").tobytes()
    assert got == keccakx.tuplehash128([msg]).digest()
    seen.clear()

    def progress(done, total):
        seen.append(done)
        if len(seen) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        keccakx.hash_many([b"x", msg, b"y"], "kt128", progress=progress)
    assert max(seen) < len(msg), "Ctrl-C was seen only at the end"


@pytest.mark.parametrize("name", ["sha3_256", "kt128", "parallelhash128"])
def test_ctrl_c_during_a_huge_update_leaves_the_object_unchanged(name):
    big = zeros(1 << 30)  # 0.5-2 s of hashing on two cores
    h = keccakx.new(name, b"before")
    want = h.copy().digest() if name != "kt128" else h.copy().digest(32)
    t = interrupt_soon()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        h.update(big)
        time.sleep(5)  # not interrupted inside update(): then here, late
    late = time.perf_counter() - t0
    t.join()
    assert late < 0.5
    got = h.digest() if name != "kt128" else h.digest(32)
    assert got == want, "the object absorbed part of the interrupted input"
    h.update(b"after")  # and stays usable


def test_ctrl_c_during_chaining_values_of_a_large_range():
    data = zeros(2 << 30)  # a second or more on two cores
    t = interrupt_soon()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        hazmat.kt_chaining_values(data, chunk_index=1)
        time.sleep(5)
    t.join()
    assert time.perf_counter() - t0 < 0.5
    # Pieces give the one-call values.
    n = (32 << 20) // 8192 * 3 + 5
    chunk = os.urandom(8192) * n
    cvs = hazmat.kt_chaining_values(chunk, chunk_index=7)
    assert cvs[-32:] == hazmat.kt_chaining_values(chunk[-8192:], chunk_index=7 + n - 1)
    m = 5 * (40 << 20) // 3
    ph = hazmat.parallelhash_chaining_values(chunk[:m], 0, m, block_size=1 << 20)
    assert ph[-32:] == hazmat.parallelhash_chaining_values(chunk[(m >> 20) << 20 : m], m >> 20, m, block_size=1 << 20)


# ---- hash_many over an iterator copies each item as it comes ----


def test_hash_many_over_a_generator_that_reuses_its_buffer():
    f = io.BytesIO(b"aaaabbbbcccc")
    buf = bytearray(4)

    def records():
        while f.readinto(buf):
            yield buf

    got = keccakx.hash_many(records(), "sha3_256")
    want = [hashlib.sha3_256(x).digest() for x in (b"aaaa", b"bbbb", b"cccc")]
    assert [bytes(r) for r in got] == want
    # A list holds its items: read in place, no copy needed.
    assert [bytes(r) for r in keccakx.hash_many([bytearray(b"aaaa")], "sha3_256")] == want[:1]


# ---- arrays of objects are refused ----


def test_object_arrays_are_refused_not_hashed_as_addresses():
    two_d = np.array([[b"a"], [b"b"]], dtype=object)
    with pytest.raises(TypeError, match="object"):
        keccakx.hash_many(two_d, "sha3_256")
    with pytest.raises(TypeError, match="object"):
        keccakx.hash_many([np.array([b"a", b"b"], dtype=object)], "sha3_256")
    with pytest.raises(TypeError, match="object"):
        keccakx.sha3_256(np.array([b"a"], dtype=object))
    with pytest.raises(TypeError, match="dtype"):
        keccakx.hash_many(np.array([["a"], ["b"]]), "sha3_256")
    # A 1-D object array of bytes is a sequence of messages.
    got = keccakx.hash_many(np.array([b"a", b"bc"], dtype=object), "sha3_256")
    assert got.tobytes() == hashlib.sha3_256(b"a").digest() + hashlib.sha3_256(b"bc").digest()


# ---- the final nodes check sizes before they are used up ----


@pytest.mark.parametrize("kind", ["kt", "ph"])
def test_final_nodes_check_sizes_before_consuming(kind):
    if kind == "kt":
        node = hazmat.KtFinalNode(0)
        fin = lambda n: node.finalize(b"", n)  # noqa: E731
        want = keccakx.kt128(b"").digest(32)
    else:
        node = hazmat.ParallelHashFinalNode(0)
        fin = node.finalize
        want = keccakx.parallelhash128(b"").digest()
    with pytest.raises(ValueError, match="too large"):
        fin(2**63)
    with pytest.raises(ValueError, match="non-negative"):
        fin(-1)
    with pytest.raises(TypeError):
        fin(2.0)
    with pytest.raises(MemoryError):
        fin(2**47)  # 128 TiB: the allocation fails
    assert fin(np.int64(32)) == want  # still usable; __index__ taken
    with pytest.raises(ValueError, match="finished"):
        fin(32)


# ---- exceptions: the exporter's, and hashlib's types ----


class Index:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


def raised(fn):
    try:
        fn()
    except BaseException as e:  # noqa: B036 - the type is what is compared
        return type(e)
    return None


def test_exporters_exceptions_pass_through_as_with_hashlib(tmp_path):
    released = memoryview(b"abc")
    released.release()
    p = tmp_path / "f"
    p.write_bytes(b"x" * 10)
    with open(p, "rb") as f:
        closed = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    closed.close()
    cases = [released, closed, np.arange(8, dtype=np.uint8)[::2], memoryview(b"abcd")[::2]]
    for obj in cases:
        want = raised(lambda: hashlib.sha3_256(obj))
        assert want is not None
        assert raised(lambda: keccakx.sha3_256(obj)) is want, obj
        assert raised(lambda: keccakx.sha3_256().update(obj)) is want, obj
        assert raised(lambda: keccakx.hash_many([obj], "sha3_256")) is want, obj


@pytest.mark.skipif(sys.version_info < (3, 12), reason="__buffer__ in Python needs 3.12")
@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit, MemoryError, ValueError])
def test_buffer_dunder_exceptions_pass_through(exc):
    class Exporter:
        def __buffer__(self, flags):
            raise exc("from __buffer__")

    with pytest.raises(exc):
        keccakx.sha3_256(Exporter())
    with pytest.raises(exc):
        keccakx.hash_many([Exporter()], "sha3_256")


def test_integers_as_hashlib_takes_them():
    want = hashlib.shake_128(b"a").digest(8)
    for n in (np.int64(8), np.uint8(8), Index(8)):
        assert keccakx.shake_128(b"a").digest(n) == want
        assert keccakx.shake_128(b"a").hexdigest(n) == want.hex()
        assert keccakx.shake_128(b"a").read(n) == want
    k = keccakx.kmac128(b"k", b"a", digest_size=np.int32(16))
    assert k.digest() == keccakx.kmac128(b"k", b"a", digest_size=16).digest()
    assert len(keccakx.hash_many([b"a"], "shake_128", np.int64(8)).tobytes()) == 8
    for v in (0, None, "no", object()):
        assert keccakx.sha3_256(b"a", usedforsecurity=v).digest() == hashlib.sha3_256(b"a").digest()
        assert keccakx.new("sha3_256", b"a", usedforsecurity=v).digest() == hashlib.sha3_256(b"a").digest()


def test_parallelhash_block_size_up_to_2_64_minus_1():
    data = b"x" * 1000
    for b in (2**32, 2**40, 2**64 - 1):
        h = keccakx.parallelhash128(data, block_size=b)
        node = hazmat.ParallelHashFinalNode(len(data), block_size=b)
        node.update(hazmat.parallelhash_chaining_values(data, 0, len(data), block_size=b))
        assert h.digest() == node.finalize(32), b
        assert keccakx.new("parallelhash256", data, block_size=b).digest() == keccakx.parallelhash256(
            data, block_size=b
        ).digest()
    for bad in (0, 2**64):
        with pytest.raises(ValueError, match=r"block_size must be in 1\.\.=18446744073709551615"):
            keccakx.parallelhash128(block_size=bad)
    # tree LI takes the same keyword and has its own bound: a clear error.
    with pytest.raises(ValueError, match="tree-LI block.size"):
        keccakx.tree_li(b"x" * 100, block_size=2**64 - 1)


def test_file_digest_refuses_text_and_write_only_files_with_valueerror(tmp_path):
    p = tmp_path / "f.txt"
    p.write_text("hello")
    with open(p, "r") as text, open(p, "ab") as append:
        for f in (text, append, io.StringIO("hello")):
            assert raised(lambda: hashlib.file_digest(f, "sha3_256")) is ValueError
            with pytest.raises(ValueError, match="binary read mode"):
                keccakx.file_digest(f, "sha3_256")


# ---- hash_many: one rule for buffers; strided arrays read in place ----


def test_hash_many_refuses_every_single_buffer(tmp_path):
    m = mmap.mmap(-1, 16)
    for obj in (b"abcd", bytearray(b"abcd"), memoryview(b"abcd"), m, array.array("B", b"abcd"), "abcd"):
        with pytest.raises(TypeError, match="single bytes-like"):
            keccakx.hash_many(obj, "sha3_256")
    assert keccakx.hash_many([m], "sha3_256").tobytes() == hashlib.sha3_256(bytes(16)).digest()


def test_hash_many_reads_strided_arrays_in_place():
    row = np.frombuffer(os.urandom(1024), np.uint8)
    wide = np.broadcast_to(row, (1 << 16, 1024))  # 64 MiB seen, 1 KiB stored
    tracemalloc.start()
    try:
        got = keccakx.hash_many(wide, "sha3_256")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"{peak} bytes allocated: the broadcast array was copied"
    one = hashlib.sha3_256(row.tobytes()).digest()
    assert got.shape == (1 << 16, 32) and got[0].tobytes() == one and got[-1].tobytes() == one
    base = np.frombuffer(os.urandom(64 * 50), np.uint8).reshape(64, 50)
    for arr in (base[::-1], base[::3], base[:, 7:30], base[::-2, 1:], np.asfortranarray(base), base[:, ::2],
                base[:0], base[:, :0], np.broadcast_to(base[:1], (5, 50)), base.astype(np.int8)[1::2]):
        want = [hashlib.sha3_256(r.tobytes()).digest() for r in np.ascontiguousarray(arr)]
        assert [bytes(r) for r in keccakx.hash_many(arr, "sha3_256")] == want, arr.strides
