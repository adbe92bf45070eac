"""Checks of the tree-LI Python reference (tests/tree_li_ref.py).

Runs under pytest, or standalone: python3 tests/test_tree_li_ref.py
"""

import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tree_li_ref as ref  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_sponge_matches_hashlib():
    ref.selftest(verbose=False)


def test_committed_vectors_are_what_the_generator_writes():
    with open(ref.VECTORS_PATH) as f:
        committed = f.read()
    assert committed == ref.render_vectors(), "run: python3 tests/tree_li_ref.py generate"


def test_algorithm_2_by_hand():
    m = bytes(range(10))
    assert ref.deal_blocks(m, 4, 2) == [bytes([0, 1, 2, 3, 8, 9]), bytes([4, 5, 6, 7])]
    assert ref.deal_blocks(bytes(range(14)), 3, 4) == [
        b"\x00\x01\x02\x0c\x0d", b"\x03\x04\x05", b"\x06\x07\x08", b"\x09\x0a\x0b"]
    assert ref.deal_blocks(m, 3, 5) == [b"\x00\x01\x02", b"\x03\x04\x05", b"\x06\x07\x08", b"\x09", b""]
    assert ref.deal_blocks(b"", 5, 3) == [b"", b"", b""]


def _parse_header(h, rate):
    """Decode a header block; the decoding is what makes the header a prefix code."""
    d, height = h[0], h[1]
    b = int.from_bytes(h[2:6], "little")
    cv, r, plen = h[6], h[7], h[8]
    p = h[9 : 9 + plen]
    end = -(-(9 + plen) // rate) * rate
    assert r == rate and all(x == 0 for x in h[9 + plen : end])
    return (d, height, b, cv, r, p), end


def test_header_is_a_prefix_code_and_binds_parameters():
    rng = random.Random(5)
    seen = {}
    for _ in range(400):
        rate_bits = rng.choice([1088, 1024, 576, 1344, 8 * rng.randint(1, 199)])
        height = rng.randint(0, 3)
        p = ref.Params(
            degree=rng.randint(1, 6),
            height=height,
            block_size=rng.choice([None, rng.randint(1, (1 << 32) - 1)]),
            rate_bits=rate_bits,
            prefix=bytes(rng.randrange(256) for _ in range(rng.choice([0, 1, 7, 255]))),
        )
        h = p.header()
        fields, end = _parse_header(h + b"trailing body bytes", p.rate)
        assert end == len(h) and len(h) % p.rate == 0
        want = (
            (p.degree, p.height, p.block_size, p.cv_len, p.rate, p.prefix)
            if height
            else (0, 0, 0, 0, p.rate, p.prefix)
        )
        assert fields == want
        seen.setdefault(h, fields)
        assert seen[h] == fields


def test_node_kinds_are_separated():
    # Same header and body, four suffixes: four different sponge inputs and outputs.
    p = ref.Params(degree=2, height=1, block_size=8)
    body = bytes(2 * p.cv_len)
    outs = {ref.keccak(p.rate, s, p.header() + body, 32)
            for s in (ref.SUFFIX_LEAF, ref.SUFFIX_INNER, ref.SUFFIX_FINAL, ref.SUFFIX_SINGLE)}
    assert len(outs) == 4


def test_tree_by_hand_d1():
    # D = 1: a chain; H = 2 means leaf -> inner -> final over the whole message.
    p = ref.Params(degree=1, height=2, block_size=4)
    m = ref.pattern(50)
    hdr = p.header()
    leaf = ref.keccak(p.rate, 0x0B, hdr + m, p.cv_len)
    inner = ref.keccak(p.rate, 0x0A, hdr + leaf, p.cv_len)
    assert ref.tree_li(p, m, 40) == ref.keccak(p.rate, 0x06, hdr + inner, 40)


def test_docs_worked_example_is_current():
    with open(os.path.join(ROOT, "docs", "tree-li.md")) as f:
        doc = f.read()
    p = ref.Params(degree=2, height=2, block_size=3, prefix=b"salt")
    trace = []
    digest = ref.tree_li(p, ref.pattern(20), 32, trace)
    assert "**%s**" % digest.hex() in doc
    for name, _inp, _suffix, out in trace:
        assert out.hex() in doc, name
    assert p.header()[:13].hex(" ") in doc
    for params, msg in ((ref.Params(), b""), (ref.Params(), b"abc"), (ref.Params(height=0), b"abc")):
        assert ref.tree_li(params, msg, 32).hex() in doc


if __name__ == "__main__":
    failures = 0
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            try:
                fn()
                print("ok  ", name)
            except Exception as e:  # report every failing check, then fail
                failures += 1
                print("FAIL", name, repr(e))
    sys.exit(1 if failures else 0)
