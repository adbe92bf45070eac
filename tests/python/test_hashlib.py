"""keccakx against hashlib (SHA3, SHAKE): random data, random update splits,
and the hashlib object protocol (name, digest_size, block_size, copy, ...)."""

import array
import hashlib
import mmap
import random

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import keccakx

FIXED = ["sha3_224", "sha3_256", "sha3_384", "sha3_512"]
XOFS = ["shake_128", "shake_256"]


def rand_bytes(seed: int, n: int) -> bytes:
    return random.Random(seed).randbytes(n)


# Message lengths cover the rate edges (72..168) and the GIL-release path
# (>= 4 KiB) without making every example big.
lengths = st.one_of(st.integers(0, 400), st.integers(4000, 20000))


def split(data: bytes, cuts):
    cuts = sorted(c % (len(data) + 1) for c in cuts)
    pieces, last = [], 0
    for c in cuts + [len(data)]:
        pieces.append(data[last:c])
        last = c
    return pieces


@given(st.sampled_from(FIXED), lengths, st.integers(0, 2**32), st.lists(st.integers(0, 2**20), max_size=6))
def test_fixed_matches_hashlib(name, n, seed, cuts):
    data = rand_bytes(seed, n)
    ref = hashlib.new(name, data)
    h = getattr(keccakx, name)()
    for piece in split(data, cuts):
        h.update(piece)
    assert h.digest() == ref.digest()
    assert h.hexdigest() == ref.hexdigest()
    assert keccakx.new(name, data).digest() == ref.digest()
    assert getattr(keccakx, name)(data).digest() == ref.digest()


@given(st.sampled_from(XOFS), lengths, st.integers(0, 2**32), st.lists(st.integers(0, 2**20), max_size=6),
       st.integers(0, 700))
def test_xof_matches_hashlib(name, n, seed, cuts, outlen):
    data = rand_bytes(seed, n)
    ref = hashlib.new(name, data)
    h = getattr(keccakx, name)()
    for piece in split(data, cuts):
        h.update(piece)
    assert h.digest(outlen) == ref.digest(outlen)
    assert h.hexdigest(outlen) == ref.hexdigest(outlen)


@given(st.sampled_from(XOFS), st.binary(max_size=300), st.lists(st.integers(0, 400), max_size=8))
def test_read_stream_continues(name, data, reads):
    h = keccakx.new(name, data)
    got = b"".join(h.read(r) for r in reads)
    assert got == hashlib.new(name, data).digest(sum(reads))
    # digest() is independent of the stream position.
    assert h.digest(16) == hashlib.new(name, data).digest(16)


@pytest.mark.parametrize("name", FIXED + XOFS)
def test_attributes_match_hashlib(name):
    ours, ref = keccakx.new(name), hashlib.new(name)
    assert ours.name == ref.name
    assert ours.digest_size == ref.digest_size
    assert ours.block_size == ref.block_size
    assert name in keccakx.algorithms_available


def test_names_are_flexible():
    for spelling in ["SHA3-256", "sha3_256", "sha3-256", "Sha3256"]:
        assert keccakx.new(spelling, b"abc").digest() == hashlib.sha3_256(b"abc").digest()
    assert keccakx.new("SHAKE128", b"abc").digest(8) == hashlib.shake_128(b"abc").digest(8)


def test_copy_forks_state():
    h = keccakx.sha3_256(b"ab")
    c = h.copy()
    h.update(b"c")
    c.update(b"x")
    assert h.digest() == hashlib.sha3_256(b"abc").digest()
    assert c.digest() == hashlib.sha3_256(b"abx").digest()
    x = keccakx.shake_128(b"ab")
    first = x.read(5)
    y = x.copy()
    middle = x.read(7)
    assert middle == y.read(7)
    assert first + middle + x.read(3) == hashlib.shake_128(b"ab").digest(15)


def test_digest_twice_and_update_after_digest():
    h = keccakx.sha3_512(b"a")
    assert h.digest() == h.digest()
    h.update(b"b")
    assert h.digest() == hashlib.sha3_512(b"ab").digest()


def test_update_after_read_is_refused():
    x = keccakx.shake_256(b"a")
    x.read(1)
    with pytest.raises(ValueError, match="after read"):
        x.update(b"b")


def test_usedforsecurity_accepted():
    assert keccakx.sha3_256(b"a", usedforsecurity=False).digest() == hashlib.sha3_256(b"a").digest()


def test_buffer_types_zero_copy(tmp_path):
    data = bytes(range(256)) * 40  # 10 KiB: the GIL-release path too
    want = hashlib.sha3_256(data).digest()
    arr = np.frombuffer(data, dtype=np.uint8)
    cases = [
        bytearray(data),
        memoryview(data),
        memoryview(bytearray(data))[0:],
        array.array("B", data),
        arr,
        arr.reshape(40, 256),          # multi-dimensional, C-contiguous: raw bytes
        arr.view(np.uint32),           # other dtypes: raw bytes, as hashlib
    ]
    for c in cases:
        assert keccakx.sha3_256(c).digest() == want, type(c)
    p = tmp_path / "f.bin"
    p.write_bytes(data)
    with open(p, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        assert keccakx.sha3_256(m).digest() == want
    # Slices of a memoryview hash just the slice.
    assert keccakx.sha3_256(memoryview(data)[10:20]).digest() == hashlib.sha3_256(data[10:20]).digest()


def test_non_contiguous_raises_what_hashlib_raises():
    # The exporter's own exception (NumPy: ValueError; memoryview:
    # BufferError), as with hashlib.
    for a in (np.zeros((8, 8), dtype=np.uint8)[:, ::2], memoryview(bytes(8))[::2]):
        with pytest.raises(Exception) as want:
            hashlib.sha3_256(a)
        with pytest.raises(want.type, match="contiguous"):
            keccakx.sha3_256(a)


def test_bytearray_cannot_resize_while_hashing_and_is_released():
    b = bytearray(b"x" * 100000)
    keccakx.sha3_256(b)
    b.extend(b"y")  # the export was released: resizing works again
    assert len(b) == 100001
