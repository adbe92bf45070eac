"""Portable sponge states from Python: h.export_state() and
keccakx.import_state(blob) at every block position (0, rate-1, rate,
rate+1) and mid-output, against the one-shot digest; refused blobs
(corrupted, another version, not a state); KT/ParallelHash refuse to
export; pickling stays refused (a KMAC state is as secret as its key)."""
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
    for ctor in (keccakx.kt128, keccakx.parallelhash128):
        with pytest.raises(ValueError, match="no portable state"):
            ctor(b"x").export_state()


def test_kmac_blob_holds_no_key_and_pickle_is_refused():
    key = b"a recognisable key, 32 bytes...."
    h = keccakx.kmac128(key=key)
    assert key not in h.export_state()
    with pytest.raises(TypeError):
        pickle.dumps(h)
