"""keccakx against pycryptodome: Keccak (pad 0x01), cSHAKE, KMAC, TupleHash,
TurboSHAKE, KT128 — random data, random update splits, random parameters."""

import random

from Crypto.Hash import (
    KMAC128,
    KMAC256,
    KangarooTwelve,
    TupleHash128,
    TupleHash256,
    TurboSHAKE128,
    TurboSHAKE256,
    cSHAKE128,
    cSHAKE256,
    keccak,
)
from hypothesis import given
from hypothesis import strategies as st

import keccakx


def rand_bytes(seed: int, n: int) -> bytes:
    return random.Random(seed).randbytes(n)


lengths = st.one_of(st.integers(0, 400), st.integers(4000, 12000))
small = st.binary(max_size=80)
cuts = st.lists(st.integers(0, 2**20), max_size=5)


def split(data: bytes, cut_points):
    c = sorted(x % (len(data) + 1) for x in cut_points)
    return [data[a:b] for a, b in zip([0] + c, c + [len(data)])]


def feed(h, data, cut_points):
    for p in split(data, cut_points):
        h.update(p)
    return h


@given(st.sampled_from([224, 256, 384, 512]), lengths, st.integers(0, 2**32), cuts)
def test_keccak(bits, n, seed, cp):
    data = rand_bytes(seed, n)
    ref = keccak.new(digest_bits=bits, data=data).digest()
    h = feed(getattr(keccakx, f"keccak_{bits}")(), data, cp)
    assert h.digest() == ref
    assert h.digest_size == bits // 8


@given(st.sampled_from([128, 256]), lengths, st.integers(0, 2**32), cuts, small, small, st.integers(0, 300))
def test_cshake(level, n, seed, cp, fname, custom, outlen):
    data = rand_bytes(seed, n)
    mod = cSHAKE128 if level == 128 else cSHAKE256
    # pycryptodome's public new() has no function-name argument; _new has.
    ref = mod._new(data, custom, fname).read(outlen)
    h = feed(getattr(keccakx, f"cshake{level}")(name=fname, custom=custom), data, cp)
    assert h.digest(outlen) == ref
    assert keccakx.new(f"cshake{level}", data, function_name=fname, custom=custom).digest(outlen) == ref


@given(st.sampled_from([128, 256]), lengths, st.integers(0, 2**32), cuts,
       st.binary(min_size=32, max_size=100), small, st.integers(8, 200))
def test_kmac(level, n, seed, cp, key, custom, mac_len):
    # (pycryptodome wants keys of at least 32 bytes for KMAC256; keccakx takes any.)
    data = rand_bytes(seed, n)
    mod = KMAC128 if level == 128 else KMAC256
    ref = mod.new(key=key, data=data, mac_len=mac_len, custom=custom).digest()
    h = feed(getattr(keccakx, f"kmac{level}")(key, custom=custom, digest_size=mac_len), data, cp)
    assert h.digest_size == mac_len
    assert h.digest() == ref
    assert h.verify(ref)
    assert not h.verify(bytes([ref[0] ^ 1]) + ref[1:])
    assert not h.verify(ref[:-1])


@given(st.sampled_from([128, 256]), st.lists(st.binary(max_size=200), max_size=6), small, st.integers(8, 200))
def test_tuplehash(level, elements, custom, outlen):
    mod = TupleHash128 if level == 128 else TupleHash256
    r = mod.new(digest_bytes=outlen, custom=custom)
    for e in elements:
        r.update(e)
    ref = r.digest()
    ctor = getattr(keccakx, f"tuplehash{level}")
    # Each update() call is one tuple element ...
    h = ctor(custom=custom, digest_size=outlen)
    for e in elements:
        h.update(e)
    assert h.digest() == ref
    # ... and so is each item of `elements`.
    assert ctor(elements, custom=custom, digest_size=outlen).digest() == ref
    assert keccakx.new(f"tuplehash{level}", elements=elements, custom=custom, digest_size=outlen).digest() == ref


def test_tuplehash_elements_are_not_concatenated():
    a = keccakx.tuplehash128([b"ab", b"c"]).digest()
    b = keccakx.tuplehash128([b"a", b"bc"]).digest()
    c = keccakx.tuplehash128([b"abc"]).digest()
    assert len({a, b, c}) == 3


@given(st.sampled_from([128, 256]), lengths, st.integers(0, 2**32), cuts, st.integers(1, 0x7F), st.integers(0, 300))
def test_turboshake(level, n, seed, cp, domain, outlen):
    data = rand_bytes(seed, n)
    mod = TurboSHAKE128 if level == 128 else TurboSHAKE256
    ref = mod.new(domain=domain, data=data).read(outlen)
    h = feed(getattr(keccakx, f"turboshake{level}")(domain=domain), data, cp)
    assert h.digest(outlen) == ref


# KT128 chunks are 8 KiB: lengths up to ~3 chunks exercise the tree.
@given(st.one_of(st.integers(0, 400), st.integers(8000, 25000)), st.integers(0, 2**32), cuts, small,
       st.integers(0, 300))
def test_kt128(n, seed, cp, custom, outlen):
    data = rand_bytes(seed, n)
    ref = KangarooTwelve.new(data=data, custom=custom).read(outlen)
    h = feed(keccakx.kt128(custom=custom), data, cp)
    assert h.digest(outlen) == ref
    assert h.read(outlen) == ref
