"""keccakx.hazmat: KT128/KT256 and ParallelHash from pieces (head, runs of
chaining values, tail) on random splits, against keccakx's own one-shot
functions at every chunk and block edge, and the errors of misuse."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import keccakx
from keccakx import hazmat

CHUNK = hazmat.CHUNK_LEN


def kt_by_pieces(m: bytes, custom: bytes, algorithm: str, length: int, rng: random.Random) -> bytes:
    plan = hazmat.kt_plan(len(m))
    node = hazmat.KtFinalNode(len(m), custom=custom, algorithm=algorithm)
    cut = rng.randint(0, plan.head_len)
    node.absorb_head(m[:cut])
    node.absorb_head(memoryview(m)[cut : plan.head_len])
    first, end = plan.leaves.start, plan.leaves.stop
    cuts = sorted({first, end, *(rng.randint(first, end) for _ in range(rng.randint(0, 4)))})
    for a, b in zip(cuts, cuts[1:]):
        cvs = hazmat.kt_chaining_values(m[a * CHUNK : b * CHUNK], chunk_index=a, algorithm=algorithm)
        assert len(cvs) == (b - a) * node.cv_len
        node.update(cvs)
    assert node.leaves_absorbed == end - first
    return node.finalize(m[plan.tail_offset :], length)


KT_LENGTHS = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 2 * CHUNK - 1, 2 * CHUNK, 2 * CHUNK + 1, 9 * CHUNK + 77]
CUSTOM_LENGTHS = [0, 1, 255, 256, CHUNK - 2, CHUNK - 1, CHUNK, 2 * CHUNK + 3]


@pytest.mark.parametrize("algorithm", ["kt128", "kt256"])
@pytest.mark.parametrize("n", KT_LENGTHS)
def test_kt_edges_match_one_shot(algorithm, n):
    rng = random.Random(n * 31 + len(algorithm))
    m = rng.randbytes(n)
    ctor = getattr(keccakx, algorithm)
    for cl in CUSTOM_LENGTHS:
        c = rng.randbytes(cl)
        for length in (32, 64, 1 + rng.randrange(200)):
            assert kt_by_pieces(m, c, algorithm, length, rng) == ctor(m, custom=c).digest(length), (n, cl, length)


@given(
    n=st.integers(0, 40 * CHUNK),
    custom=st.binary(max_size=3 * CHUNK),
    seed=st.integers(0, 2**32),
    algorithm=st.sampled_from(["kt128", "kt256"]),
)
def test_kt_random(n, custom, seed, algorithm):
    rng = random.Random(seed)
    m = rng.randbytes(n)
    ctor = getattr(keccakx, algorithm)
    assert kt_by_pieces(m, custom, algorithm, 48, rng) == ctor(m, custom=custom).digest(48)


def ph_by_pieces(x, block_size, custom, algorithm, length, rng):
    node = hazmat.ParallelHashFinalNode(len(x), block_size=block_size, custom=custom, algorithm=algorithm)
    n = node.block_count
    assert n == -(-len(x) // block_size)
    cuts = sorted({0, n, *(rng.randint(0, n) for _ in range(rng.randint(0, 4)))})
    for a, b in zip(cuts, cuts[1:]):
        run = x[a * block_size : b * block_size]
        node.update(
            hazmat.parallelhash_chaining_values(run, a, len(x), block_size=block_size, algorithm=algorithm)
        )
    assert node.blocks_absorbed == n
    return node.finalize(length)


@given(
    block_size=st.sampled_from([1, 7, 136, 168, 8192, 8193]) | st.integers(1, 20000),
    n_blocks=st.integers(0, 12),
    extra=st.integers(0, 3),
    custom=st.binary(max_size=300),
    seed=st.integers(0, 2**32),
    algorithm=st.sampled_from(["parallelhash128", "parallelhash256", "parallelhashxof128", "parallelhashxof256"]),
    length=st.sampled_from([1, 32, 64, 100]),
)
def test_parallelhash_random(block_size, n_blocks, extra, custom, seed, algorithm, length):
    rng = random.Random(seed)
    n = max(0, n_blocks * block_size + (extra - 1 if extra else 0))
    x = rng.randbytes(min(n, 200_000))
    got = ph_by_pieces(x, block_size, custom, algorithm, length, rng)
    if "xof" in algorithm:
        want = keccakx.new(algorithm, x, block_size=block_size, custom=custom).digest(length)
    else:
        want = keccakx.new(algorithm, x, block_size=block_size, custom=custom, digest_size=length).digest()
    assert got == want


def test_kt_plan():
    p = hazmat.kt_plan(3 * CHUNK + 5)
    assert p == hazmat.KtPlan(3 * CHUNK + 5, CHUNK, range(1, 3), 3 * CHUNK, 5)
    assert hazmat.kt_plan(0) == hazmat.KtPlan(0, 0, range(1, 1), 0, 0)
    assert hazmat.kt_plan(5 << 40).leaves.stop == (5 << 40) // CHUNK
    assert hazmat.cv_len("KT256") == 64 and hazmat.cv_len("parallelhashxof128") == 32
    with pytest.raises(ValueError, match="not a tree function"):
        hazmat.cv_len("sha3-256")


def test_kt_misuse_is_a_clear_error():
    data = bytes(2 * CHUNK)
    with pytest.raises(ValueError, match="chunk 0 is S_0"):
        hazmat.kt_chaining_values(data, chunk_index=0)
    with pytest.raises(ValueError, match=r"whole 8192-byte chunks.*chunk_index=1, 16383 bytes = 1 chunks \+ 8191 bytes"):
        hazmat.kt_chaining_values(data[1:], chunk_index=1)
    with pytest.raises(ValueError, match="algorithm must be 'kt128' or 'kt256'"):
        hazmat.kt_chaining_values(data, chunk_index=1, algorithm="sha3-256")
    with pytest.raises(TypeError, match="strings must be encoded"):
        hazmat.kt_chaining_values("abc", chunk_index=1)
    assert hazmat.kt_chaining_values(b"", chunk_index=5) == b""

    m = bytes(range(256)) * 100
    node = hazmat.KtFinalNode(len(m), custom=b"c")
    with pytest.raises(ValueError, match="head"):
        node.update(bytes(32))
    with pytest.raises(ValueError, match="head"):
        node.absorb_head(m[: CHUNK + 1])
    node.absorb_head(m[:CHUNK])
    with pytest.raises(ValueError, match="more chaining values.*2 whole leaves"):
        node.update(bytes(96))
    with pytest.raises(ValueError, match="fewer chaining values"):
        node.finalize(m[3 * CHUNK :], 32)
    node.update(hazmat.kt_chaining_values(m[CHUNK : 3 * CHUNK], chunk_index=1))
    with pytest.raises(ValueError, match=r"tail.*M\[24576:25600\], 1024 bytes"):
        node.finalize(m[3 * CHUNK + 1 :], 32)
    # A failed finalize leaves the node usable.
    assert node.finalize(m[3 * CHUNK :], 32) == keccakx.kt128(m, custom=b"c").digest(32)
    with pytest.raises(ValueError, match="finalize\\(\\) was already called"):
        node.finalize(b"", 32)


def test_parallelhash_misuse_is_a_clear_error():
    x = bytes(1000)
    with pytest.raises(ValueError, match="block boundary"):
        hazmat.parallelhash_chaining_values(x[:250], 0, len(x), block_size=100)
    with pytest.raises(ValueError, match="past the end"):
        hazmat.parallelhash_chaining_values(x[:200], 9, len(x), block_size=100)
    with pytest.raises(ValueError, match="at least 1 byte"):
        hazmat.parallelhash_chaining_values(x, 0, len(x), block_size=0)
    with pytest.raises(ValueError, match="algorithm must be"):
        hazmat.ParallelHashFinalNode(10, algorithm="kt128")
    with pytest.raises(ValueError, match="at least 1 byte"):
        hazmat.ParallelHashFinalNode(10, block_size=0)
    node = hazmat.ParallelHashFinalNode(len(x), block_size=100, custom=b"s", algorithm="parallelhash256")
    with pytest.raises(ValueError, match="more chaining values.*10 blocks"):
        node.update(bytes(11 * 64))
    node.update(hazmat.parallelhash_chaining_values(x[:900], 0, len(x), block_size=100, algorithm="parallelhash256"))
    with pytest.raises(ValueError, match="9 of 10 blocks absorbed"):
        node.finalize(64)
    node.update(hazmat.parallelhash_chaining_values(x[900:], 9, len(x), block_size=100, algorithm="parallelhash256"))
    want = keccakx.parallelhash256(x, block_size=100, custom=b"s", digest_size=64).digest()
    assert node.finalize(64) == want


def test_chaining_values_from_threads():
    """Four threads hashing side by side (the GIL is released inside) get
    the values of a one-thread run."""
    import threading

    data = random.Random(5).randbytes(64 * CHUNK)
    want = hazmat.kt_chaining_values(data, 1)
    out = []
    ts = [threading.Thread(target=lambda: out.append(hazmat.kt_chaining_values(data, 1))) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert out == [want] * 4


# ------------------------------------------- chaining values straight from a file


WINDOW = 16 << 20  # the native reader maps this much at a time


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    """A file of 2 windows + 3 chunks + 77 bytes of random bytes."""
    p = tmp_path_factory.mktemp("cvfile") / "m.bin"
    data = random.Random(11).randbytes(2 * WINDOW + 3 * CHUNK + 77)
    p.write_bytes(data)
    return p, data


@pytest.mark.parametrize("algorithm", ["kt128", "kt256"])
@pytest.mark.parametrize(
    "start_chunk, end_chunk",
    [(1, 2), (1, 3), (5, WINDOW // CHUNK), (1, WINDOW // CHUNK + 1), (3, 2 * WINDOW // CHUNK + 3), (7, 7)],
)
def test_kt_chaining_values_file_equal_the_in_memory_ones(big_file, algorithm, start_chunk, end_chunk):
    """Ranges inside one window, across window edges, empty; the values of
    the same bytes given in memory."""
    import os

    p, data = big_file
    a, b = start_chunk * CHUNK, end_chunk * CHUNK
    fd = os.open(p, os.O_RDONLY)
    try:
        got = hazmat.kt_chaining_values_file(fd, a, b, algorithm)
    finally:
        os.close(fd)
    assert got == hazmat.kt_chaining_values(data[a:b], start_chunk, algorithm)


@pytest.mark.parametrize("block_size", [1000, CHUNK, 3 * (1 << 20) + 1, WINDOW + 5])
@pytest.mark.parametrize("algorithm", ["parallelhash128", "parallelhashxof256"])
def test_parallelhash_chaining_values_file_equal_the_in_memory_ones(big_file, block_size, algorithm):
    """Block sizes that are not multiples of a page (maps start on a page)
    or larger than a window, runs ending on the message's last, partial
    block; and the whole digest by those pieces."""
    import os

    p, data = big_file
    n = len(data)
    blocks = -(-n // block_size)
    fd = os.open(p, os.O_RDONLY)
    try:
        for first, end in [(0, blocks), (1, blocks), (blocks - 1, blocks), (0, 1), (2, 3)]:
            if not first < end <= blocks:
                continue
            a, b = first * block_size, min(n, end * block_size)
            got = hazmat.parallelhash_chaining_values_file(fd, a, b, n, block_size, algorithm)
            assert got == hazmat.parallelhash_chaining_values(data[a:b], first, n, block_size, algorithm), (first, end)
    finally:
        os.close(fd)


def test_chaining_values_file_misuse_and_short_files(tmp_path):
    import errno
    import os

    p = tmp_path / "f.bin"
    p.write_bytes(bytes(4 * CHUNK))
    fd = os.open(p, os.O_RDONLY)
    try:
        with pytest.raises(ValueError, match="chunk boundary"):
            hazmat.kt_chaining_values_file(fd, CHUNK + 1, 2 * CHUNK)
        with pytest.raises(ValueError, match="S_0"):
            hazmat.kt_chaining_values_file(fd, 0, CHUNK)
        with pytest.raises(ValueError, match="before start"):
            hazmat.kt_chaining_values_file(fd, 2 * CHUNK, CHUNK)
        with pytest.raises(ValueError, match="block boundary"):
            hazmat.parallelhash_chaining_values_file(fd, 5, 100, 4 * CHUNK, 10)
        with pytest.raises(OSError) as e:  # past the end: the file is not the one planned
            hazmat.kt_chaining_values_file(fd, CHUNK, 5 * CHUNK)
        assert e.value.errno == errno.EIO and e.value.strerror == "file changed size while being read"
    finally:
        os.close(fd)
    with pytest.raises(OSError) as e:
        hazmat.kt_chaining_values_file(fd, CHUNK, 2 * CHUNK)  # closed now
    assert e.value.errno == errno.EBADF
    d = os.open(tmp_path, os.O_RDONLY)
    try:
        with pytest.raises(OSError):
            hazmat.kt_chaining_values_file(d, CHUNK, 2 * CHUNK)
    finally:
        os.close(d)


def test_chaining_values_file_truncated_while_read_is_an_error_not_a_crash(tmp_path):
    """Another thread cuts the file while its windows are mapped and hashed:
    the call reports the file (never SIGBUS killing the interpreter, never
    values of zeros passed off as the file's). pytest's faulthandler holds
    SIGBUS before the first map: the guard must pass other faults to it."""
    import errno
    import os
    import threading
    import time

    p = tmp_path / "cut.bin"
    n = 64 * WINDOW  # 1 GiB, sparse: reads as zeros, hashed ~0.1-0.5 s
    with open(p, "wb") as f:
        f.truncate(n)
    errors = 0
    for attempt in range(3):
        with open(p, "r+b") as f:
            f.truncate(n)
        fd = os.open(p, os.O_RDONLY)
        cut = threading.Timer(0.02, lambda: os.truncate(p, 3 * WINDOW + 5))
        cut.start()
        try:
            hazmat.kt_chaining_values_file(fd, CHUNK, n)
        except OSError as e:
            assert e.errno == errno.EIO and e.strerror == "file changed size while being read"
            errors += 1
        finally:
            cut.join()
            os.close(fd)
        time.sleep(0.01)
    assert errors >= 1  # hashing 1 GiB takes far longer than 20 ms
