"""Portable sponge states from Python: h.export_state() and
keccakx.import_state(blob) at every block position (0, rate-1, rate,
rate+1) and mid-output, against the one-shot digest; KT and ParallelHash
at every chunk position (0, chunk-1, chunk, chunk+1, several chunks) and
mid-output for their XOFs; refused blobs (corrupted, another version, not
a state, another function or block size); pickling stays refused (a KMAC
state is as secret as its key)."""
import pickle

import pytest

import keccakx

CASES = [
    (keccakx.sha3_256, {}),
    (keccakx.sha3_512, {}),
    (keccakx.keccak_256, {}),
    (keccakx.shake_128, {}),
    (keccakx.shake_256, {}),
    (keccakx.cshake128, {"name": b"N", "custom": b"S"}),
    (keccakx.kmac256, {"key": b"k" * 32, "custom": b"c"}),
    (keccakx.kmacxof128, {"key": b"k" * 16}),
    (keccakx.turboshake128, {"domain": 0x07}),
    (keccakx.tuplehash128, {"custom": b"t"}),
]


def out(h, n=70):
    return h.digest(n) if h.digest_size == 0 else h.digest()


@pytest.mark.parametrize("ctor,kw", CASES)
def test_absorbing_round_trip_at_block_edges(ctor, kw):
    r = ctor(**kw).block_size
    for k in (0, 1, r - 1, r, r + 1, 2 * r + 3):
        m = bytes(range(256)) * 3
        one = ctor(**kw)
        one.update(m[:k])
        one.update(m[k:])
        h = ctor(**kw)
        h.update(m[:k])
        back = keccakx.import_state(h.export_state())
        assert type(back) is type(h)
        back.update(m[k:])
        assert out(back) == out(one), (ctor.__name__, k)


@pytest.mark.parametrize("ctor,kw", [c for c in CASES if c[0] in (keccakx.shake_128, keccakx.shake_256, keccakx.kmacxof128, keccakx.cshake128)])
def test_mid_squeeze_round_trip(ctor, kw):
    r = ctor(**kw).block_size
    w = ctor(**kw)
    w.update(b"abc")
    want = w.digest(3 * r)
    for k in (0, 1, r - 1, r, r + 1, 2 * r):
        h = ctor(**kw)
        h.update(b"abc")
        got = h.read(k)
        back = keccakx.import_state(h.export_state())
        assert got + back.read(3 * r - k) == want, k


def test_refusals():
    h = keccakx.sha3_256(b"hello")
    blob = h.export_state()
    for i in range(len(blob)):
        bad = bytearray(blob)
        bad[i] ^= 0x04
        with pytest.raises(ValueError):
            keccakx.import_state(bytes(bad))
    with pytest.raises(ValueError, match="not a keccakx state"):
        keccakx.import_state(b"definitely not a state")
    with pytest.raises(ValueError):
        keccakx.import_state(blob[:-1])
    kt = keccakx.kt128(b"x" * 20000).export_state()
    with pytest.raises(ValueError, match="checksum"):
        keccakx.import_state(kt[:100] + bytes([kt[100] ^ 1]) + kt[101:])


def test_kmac_blob_holds_no_key_and_pickle_is_refused():
    key = b"a recognisable key, 32 bytes...."
    h = keccakx.kmac128(key=key)
    assert key not in h.export_state()
    with pytest.raises(TypeError):
        pickle.dumps(h)


TREES = [
    (keccakx.kt128, {}, 8192),
    (keccakx.kt256, {"custom": b"C"}, 8192),
    (keccakx.parallelhash128, {"block_size": 7, "custom": b"S"}, 7),
    (keccakx.parallelhash256, {"block_size": 8192}, 8192),
    (keccakx.parallelhashxof128, {"block_size": 300000}, 300000),
]


@pytest.mark.parametrize("ctor,kw,c", TREES)
def test_tree_round_trip_at_chunk_edges(ctor, kw, c):
    m = bytes(i * 31 % 251 for i in range(5 * c + 100))
    for k in (0, 1, c - 1, c, c + 1, 3 * c + 5):
        one = ctor(**kw)
        one.update(m)
        h = ctor(**kw)
        for i in range(0, k, 1000):
            h.update(m[i:min(k, i + 1000)])
        blob = h.export_state()
        back = keccakx.import_state(blob)
        assert type(back) is type(h)
        back.update(m[k:])
        assert out(back) == out(one), (ctor.__name__, k)
        h.update(m[k:])
        assert out(h) == out(one), (ctor.__name__, k, "exporter")


@pytest.mark.parametrize("ctor,kw", [(keccakx.kt128, {}), (keccakx.parallelhashxof256, {"block_size": 100})])
def test_tree_mid_squeeze_round_trip(ctor, kw):
    m = bytes(range(256)) * 100
    w = ctor(**kw)
    w.update(m)
    r = w.block_size
    want = w.digest(3 * r)
    for k in (0, 1, r - 1, r, r + 1, 2 * r):
        h = ctor(**kw)
        h.update(m)
        got = h.read(k)
        back = keccakx.import_state(h.export_state())
        assert got + back.read(3 * r - k) == want, k


def test_tree_blobs_bound_their_parameters():
    a = keccakx.parallelhash128(b"abc", block_size=7)
    blob = a.export_state()
    assert keccakx.import_state(blob).digest() == a.digest()
    assert len(keccakx.kt128(bytes(3_000_000)).export_state()) < 8192 + 400
    # A KT state restored as KT256 is another function: import_state
    # makes the blob's own function, never another.
    assert type(keccakx.import_state(keccakx.kt256(b"x").export_state())) is type(keccakx.kt256())
