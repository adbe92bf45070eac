"""The API surface: every constructor, attributes, new(), file_digest, stubs,
and the errors (TypeError for non-buffers and unknown keywords, ValueError
for bad values) — never a crash."""

import hashlib
import io
import os
from pathlib import Path

import pytest

import keccakx

PKG = Path(keccakx.__file__).parent

CONSTRUCTORS = {
    "sha3_224": {}, "sha3_256": {}, "sha3_384": {}, "sha3_512": {},
    "shake_128": {}, "shake_256": {},
    "keccak_224": {}, "keccak_256": {}, "keccak_384": {}, "keccak_512": {},
    "cshake128": {}, "cshake256": {},
    "kmac128": {"key": b"k"}, "kmac256": {"key": b"k"},
    "kmacxof128": {"key": b"k"}, "kmacxof256": {"key": b"k"},
    "tuplehash128": {}, "tuplehash256": {}, "tuplehashxof128": {}, "tuplehashxof256": {},
    "parallelhash128": {}, "parallelhash256": {}, "parallelhashxof128": {}, "parallelhashxof256": {},
    "turboshake128": {}, "turboshake256": {},
    "kt128": {}, "kt256": {},
    "keccak": {"rate": 1088},
    "tree_li": {},
}

RATES = {"224": 144, "256": 136, "384": 104, "512": 72, "128": 168}


@pytest.mark.parametrize("name", sorted(CONSTRUCTORS))
def test_every_constructor(name):
    kw = CONSTRUCTORS[name]
    h = getattr(keccakx, name)(**kw)
    assert h.name == name
    assert name in keccakx.algorithms_available
    assert getattr(keccakx, name).__doc__
    h2 = keccakx.new(name, **kw)
    h.update(b"abc")
    h2.update(b"abc")
    if isinstance(h, keccakx.XOF):
        assert h.digest_size == 0
        assert h.digest(40) == h2.digest(40) and len(h.digest(40)) == 40
        assert h.hexdigest(5) == h.digest(5).hex()
        assert h.copy().read(40) == h.digest(40)
    else:
        assert isinstance(h, keccakx.Hash)
        assert len(h.digest()) == h.digest_size > 0
        assert h.digest() == h2.digest() == h.copy().digest()
        assert h.hexdigest() == h.digest().hex()
        assert h.verify(h.digest())
    assert h.block_size == (RATES[name[-3:]] if name not in ("keccak", "tree_li") else 136)
    assert name in repr(h)


def test_algorithms_available_is_complete():
    assert set(CONSTRUCTORS) == set(keccakx.algorithms_available)
    assert keccakx.algorithms_guaranteed == keccakx.algorithms_available


def test_stubs_and_marker_are_shipped():
    assert (PKG / "py.typed").exists()
    stub = (PKG / "__init__.pyi").read_text()
    for name in list(CONSTRUCTORS) + ["hash_many", "file_digest", "backends", "new", "class Hash", "class XOF"]:
        assert name in stub, name


def test_known_answers_for_non_hashlib_functions():
    # Keccak-256 (Ethereum) of the empty string.
    assert keccakx.keccak_256().hexdigest() == "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    # Raw Keccak[r=1088, c=512] with the SHA-3 suffix is SHA3-256.
    assert keccakx.keccak(b"abc", rate=1088, capacity=512, suffix=0x06).digest(32) == hashlib.sha3_256(b"abc").digest()
    # ... and with the SHAKE suffix on a 1344-bit rate, SHAKE128.
    assert keccakx.keccak(b"abc", rate=1344, suffix=0x1F).digest(64) == hashlib.shake_128(b"abc").digest(64)
    # KT128 of the empty string (RFC 9861).
    assert keccakx.kt128().hexdigest(32) == "1ac2d450fc3b4205d19da7bfca1b37513c0803577ac7167f06fe2ce1f0ef39e5"
    # Reduced rounds change the output.
    assert keccakx.keccak(b"a", rate=1088, rounds=12).digest(8) != keccakx.keccak(b"a", rate=1088).digest(8)


def test_tree_li_streaming_and_params():
    msg = bytes(range(256)) * 100
    one = keccakx.tree_li(msg, height=2, degree=3, block_size=100).digest(48)
    h = keccakx.tree_li(height=2, degree=3, block_size=100)
    for off in range(0, len(msg), 777):
        h.update(msg[off:off + 777])
    assert h.digest(48) == one
    assert keccakx.new("tree-li", msg, height=2, degree=3, block_size=100).digest(48) == one
    assert keccakx.tree_li(msg).digest(32) != keccakx.tree_li(msg, prefix=b"salt").digest(32)


def test_kmac_verify():
    tag = keccakx.kmac256(b"key", b"msg", digest_size=32).digest()
    assert keccakx.kmac256(b"key", b"msg", digest_size=32).verify(tag)
    assert keccakx.kmac256(b"key", b"msg", digest_size=32).verify(bytearray(tag))
    assert not keccakx.kmac256(b"key", b"msG", digest_size=32).verify(tag)
    assert not keccakx.kmac256(b"key", b"msg", digest_size=32).verify(tag[:16])
    assert not keccakx.kmac256(b"key", b"msg").verify(tag)  # other length L, other MAC
    with pytest.raises(TypeError):
        keccakx.kmac256(b"key").verify("not bytes")


def test_file_digest(tmp_path):
    data = os.urandom(3 * 1024 * 1024 + 17)
    p = tmp_path / "data.bin"
    p.write_bytes(data)
    want = hashlib.sha3_256(data).digest()
    assert keccakx.file_digest(p, "sha3_256").digest() == want
    assert keccakx.file_digest(str(p), "sha3-256").digest() == want
    with open(p, "rb") as f:
        assert keccakx.file_digest(f, "sha3_256").digest() == want
    with open(p, "rb", buffering=0) as f:
        assert keccakx.file_digest(f, keccakx.sha3_256).digest() == want
    assert keccakx.file_digest(io.BytesIO(data), "sha3_256").digest() == want
    x = keccakx.file_digest(p, "kt128", custom=b"c")
    assert x.digest(32) == keccakx.kt128(data, custom=b"c").digest(32)
    with open(p, "r") as f, pytest.raises(ValueError, match="binary"):
        keccakx.file_digest(f, "sha3_256")
    with pytest.raises(FileNotFoundError):
        keccakx.file_digest(tmp_path / "missing", "sha3_256")
    with pytest.raises(TypeError):
        keccakx.file_digest(p, 42)
    with pytest.raises(ValueError, match="unsupported hash type"):
        keccakx.file_digest(p, "md5")


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: keccakx.sha3_256("text"), TypeError, "encoded"),
        (lambda: keccakx.sha3_256(12), TypeError, "bytes-like"),
        (lambda: keccakx.sha3_256().update(None), TypeError, "bytes-like"),
        (lambda: keccakx.sha3_256().update([1, 2]), TypeError, "bytes-like"),
        (lambda: keccakx.new("md5"), ValueError, "unsupported hash type"),
        (lambda: keccakx.new(5), TypeError, "str"),
        (lambda: keccakx.new("sha3_256", custom=b"x"), TypeError, "unexpected keyword argument 'custom'"),
        (lambda: keccakx.new("sha3_256", bogus=1), TypeError, "unexpected keyword argument 'bogus'"),
        (lambda: keccakx.new("sha3_256", digest_size=20), ValueError, "fixed digest size of 32"),
        (lambda: keccakx.new("shake_128", digest_size=20), TypeError, "digest\\(length\\)"),
        (lambda: keccakx.new("kmac128"), TypeError, "'key'"),
        (lambda: keccakx.kmac128(key="str"), TypeError, "encoded"),
        (lambda: keccakx.kmac128(b"k", digest_size=-1), ValueError, "digest_size"),
        (lambda: keccakx.kmac128(b"k", digest_size="32"), TypeError, "int"),
        (lambda: keccakx.cshake128(custom="S"), TypeError, "encoded"),
        (lambda: keccakx.shake_128().digest(-1), ValueError, "non-negative"),
        (lambda: keccakx.shake_128().digest(2**70), ValueError, "too large"),
        (lambda: keccakx.shake_128().digest(1.5), TypeError, "int"),
        (lambda: keccakx.shake_128().read(-5), ValueError, "non-negative"),
        (lambda: keccakx.shake_128().digest(), TypeError, "length"),
        (lambda: keccakx.turboshake128(domain=0), ValueError, "0x01..=0x7F"),
        (lambda: keccakx.turboshake128(domain=0x80), ValueError, "0x01..=0x7F"),
        (lambda: keccakx.turboshake128(domain=300), ValueError, "domain"),
        (lambda: keccakx.parallelhash128(block_size=0), ValueError, "block_size must be in 1"),
        (lambda: keccakx.keccak(), ValueError, "rate"),
        (lambda: keccakx.keccak(rate=7, capacity=9), ValueError, "width"),
        (lambda: keccakx.keccak(rate=1600, capacity=0), ValueError, "rate"),
        (lambda: keccakx.keccak(rate=1088, rounds=25), ValueError, "round"),
        (lambda: keccakx.keccak(rate=1088, rounds=0), ValueError, "round"),
        (lambda: keccakx.keccak(rate=10**30), ValueError, "rate"),
        (lambda: keccakx.keccak(rate=-8), ValueError, "rate"),
        (lambda: keccakx.keccak(rate=1088, suffix=0), ValueError, "suffix"),
        (lambda: keccakx.tree_li(degree=0), ValueError, "degree"),
        (lambda: keccakx.tree_li(height=17), ValueError, "height"),
        (lambda: keccakx.tree_li(degree=255, height=3), ValueError, "65536"),
        (lambda: keccakx.tree_li(rate=1000, capacity=500), ValueError, "1600"),
        (lambda: keccakx.tree_li(prefix=b"x" * 256), ValueError, "prefix"),
        (lambda: keccakx.tuplehash128(b"abc"), TypeError, "iterable"),
        (lambda: keccakx.tuplehash128([b"a", "b"]), TypeError, "encoded"),
        (lambda: keccakx.new("sha3_256", elements=[b"a"]), TypeError, "elements"),
        (lambda: keccakx.set_threads(-1), OverflowError, "negative"),
    ],
)
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_huge_output_is_memory_error_not_crash():
    with pytest.raises(MemoryError):
        keccakx.shake_128(b"x").digest(2**47)
    with pytest.raises(MemoryError):
        keccakx.kmac128(b"k", digest_size=2**47).hexdigest()


def test_large_xof_output_matches_hashlib():
    n = 1 << 20  # above the GIL-release threshold for output
    assert keccakx.shake_256(b"abc").digest(n) == hashlib.shake_256(b"abc").digest(n)
