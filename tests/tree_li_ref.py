#!/usr/bin/env python3
"""Independent reference implementation of keccakx tree mode LI (docs/tree-li.md).

Everything here is written from the specification, in plain Python, on purpose
slow and literal: its own Keccak-f[1600], its own byte-oriented sponge, and a
tree that is built exactly as the definition says (gather every leaf, hash every
node of the complete tree, level by level).  The Rust crate is checked against
the vectors this file writes; the sponge here is checked against hashlib.

Usage:
    python3 tests/tree_li_ref.py selftest        # sponge vs hashlib, tree invariants
    python3 tests/tree_li_ref.py generate        # (re)write tests/vectors/tree-li/vectors.txt
    python3 tests/tree_li_ref.py check           # regenerate in memory, compare with the file
    python3 tests/tree_li_ref.py example         # print the worked example of docs/tree-li.md
    python3 tests/tree_li_ref.py hash [--degree D] [--height H] [--block-size B]
                                      [--rate R_BITS] [--prefix-hex P] [--length N] FILE
"""

import argparse
import hashlib
import os
import sys

# ---------------------------------------------------------------------------
# Keccak-f[1600] (FIPS 202, section 3), lanes A[x + 5*y], little-endian lanes.
# ---------------------------------------------------------------------------

_MASK = (1 << 64) - 1


def _round_constants():
    """RC[i] from the LFSR x^8 + x^6 + x^5 + x^4 + 1 (FIPS 202 algorithm 5)."""
    out = []
    r = 1
    for _ in range(24):
        rc = 0
        for j in range(7):
            # rc(t) for t = j + 7*i, generated sequentially
            if r & 1:
                rc |= 1 << ((1 << j) - 1)
            r = ((r << 1) ^ (0x71 if r & 0x80 else 0)) & 0xFF
        out.append(rc)
    return out


_RC = _round_constants()

# rho offsets and pi target index, derived (not tabulated) from FIPS 202 3.2.2/3.2.3.
_ROT = [0] * 25
_x, _y = 1, 0
for _t in range(24):
    _ROT[_x + 5 * _y] = ((_t + 1) * (_t + 2) // 2) % 64
    _x, _y = _y, (2 * _x + 3 * _y) % 5
# pi: A'[x, y] = A[x + 3y, x]  <=>  lane (x, y) moves to (y, 2x + 3y)
_PI = [0] * 25
for _x in range(5):
    for _y in range(5):
        _PI[_x + 5 * _y] = _y + 5 * ((2 * _x + 3 * _y) % 5)
del _x, _y, _t


def keccak_f1600(a):
    """Apply Keccak-f[1600] in place to a list of 25 64-bit lanes."""
    rot, pi, mask = _ROT, _PI, _MASK
    b = [0] * 25
    for rc in _RC:
        c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20]
        c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21]
        c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22]
        c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23]
        c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24]
        d = (
            c4 ^ (((c1 << 1) | (c1 >> 63)) & mask),
            c0 ^ (((c2 << 1) | (c2 >> 63)) & mask),
            c1 ^ (((c3 << 1) | (c3 >> 63)) & mask),
            c2 ^ (((c4 << 1) | (c4 >> 63)) & mask),
            c3 ^ (((c0 << 1) | (c0 >> 63)) & mask),
        )
        for i in range(25):
            v = a[i] ^ d[i % 5]
            r = rot[i]
            b[pi[i]] = (((v << r) | (v >> (64 - r))) & mask) if r else v
        for y in (0, 5, 10, 15, 20):
            b0, b1, b2, b3, b4 = b[y], b[y + 1], b[y + 2], b[y + 3], b[y + 4]
            a[y] = b0 ^ (~b1 & b2)
            a[y + 1] = b1 ^ (~b2 & b3)
            a[y + 2] = b2 ^ (~b3 & b4)
            a[y + 3] = b3 ^ (~b4 & b0)
            a[y + 4] = b4 ^ (~b0 & b1)
        a[0] ^= rc


# ---------------------------------------------------------------------------
# Sponge Keccak[r, c] on width 1600, byte-aligned rate, "delimited suffix"
# d: the suffix bits followed by a single 1 bit, LSB first (0x06 = SHA3's
# '01', 0x1F = SHAKE's '1111').  Padding is pad10*1: the 1 of the delimited
# byte is pad's first 1, the final 1 is bit 7 of the last rate byte.
# ---------------------------------------------------------------------------


def _state_bytes(a, n):
    return b"".join(lane.to_bytes(8, "little") for lane in a)[:n]


def _xor_block(a, block):
    for i in range(len(block) // 8):
        a[i] ^= int.from_bytes(block[8 * i : 8 * i + 8], "little")


def keccak(rate_bytes, delimited_suffix, message, out_len):
    """Keccak[r = 8*rate_bytes, c = 1600 - r](message || suffix), out_len bytes."""
    if not (1 <= rate_bytes <= 199):
        raise ValueError("rate must be 1..199 bytes")
    if not (1 <= delimited_suffix <= 0xFF):
        raise ValueError("delimited suffix must be 0x01..0xFF")
    # Pad to a whole number of rate blocks; rate blocks are then padded to a
    # multiple of 8 bytes with zeros so whole lanes can be XORed.
    padded = bytearray(message)
    padded.append(delimited_suffix)
    padded.extend(b"\x00" * (-len(padded) % rate_bytes))
    padded[-1] |= 0x80
    lane_pad = b"\x00" * (-rate_bytes % 8)
    a = [0] * 25
    for off in range(0, len(padded), rate_bytes):
        _xor_block(a, bytes(padded[off : off + rate_bytes]) + lane_pad)
        keccak_f1600(a)
    out = bytearray()
    while True:
        out += _state_bytes(a, rate_bytes)
        if len(out) >= out_len:
            return bytes(out[:out_len])
        keccak_f1600(a)


# ---------------------------------------------------------------------------
# Tree mode LI (docs/tree-li.md is the normative text; section numbers there).
# ---------------------------------------------------------------------------

SUFFIX_LEAF = 0x0B  # frame bits '110': message hop, '1', inner node
SUFFIX_INNER = 0x0A  # frame bits '010': chaining hop, '1', inner node
SUFFIX_FINAL = 0x06  # frame bits '01' : chaining hop, final node
SUFFIX_SINGLE = 0x07  # frame bits '11' : message hop, final node (H = 0)

MAX_LEAVES = 1 << 16
MAX_HEIGHT = 16
MAX_BLOCK = (1 << 32) - 1
MAX_PREFIX = 255


class Params:
    """Validated tree-LI parameters.  rate_bits defaults to SHA3-256's 1088."""

    def __init__(self, degree=4, height=4, block_size=None, rate_bits=1088, prefix=b""):
        if not (1 <= degree <= 255):
            raise ValueError("degree D must be 1..255")
        if not (0 <= height <= MAX_HEIGHT):
            raise ValueError("height H must be 0..16")
        if degree**height > MAX_LEAVES:
            raise ValueError("D^H must be at most 65536 leaves")
        if rate_bits % 8 or not (8 <= rate_bits <= 1592):
            raise ValueError("rate must be a multiple of 8 bits in 8..1592")
        rate = rate_bits // 8
        if block_size is None:
            block_size = rate
        if not (1 <= block_size <= MAX_BLOCK):
            raise ValueError("block size B must be 1..2^32-1 bytes")
        if len(prefix) > MAX_PREFIX:
            raise ValueError("prefix P must be at most 255 bytes")
        self.degree = degree
        self.height = height
        self.block_size = block_size
        self.rate = rate  # bytes
        self.capacity_bits = 1600 - rate_bits
        self.cv_len = self.capacity_bits // 8  # chaining value length in bytes
        self.prefix = bytes(prefix)
        self.leaves = degree**height

    def header(self):
        """The node header block: fields of section 3, zero-padded to a multiple of the rate."""
        if self.height == 0:
            d, b, cv = 0, 0, 0  # H = 0: the tree parameters take no part
        else:
            d, b, cv = self.degree, self.block_size, self.cv_len
        h = bytes([d, self.height]) + b.to_bytes(4, "little")
        h += bytes([cv, self.rate, len(self.prefix)]) + self.prefix
        return h + b"\x00" * (-len(h) % self.rate)


def deal_blocks(msg, block_size, leaves):
    """Algorithm 2 of the paper: block j of B bytes goes to leaf j mod L."""
    out = [bytearray() for _ in range(leaves)]
    for j, off in enumerate(range(0, len(msg), block_size)):
        out[j % leaves] += msg[off : off + block_size]
    return [bytes(s) for s in out]


def tree_li(params, msg, out_len, trace=None):
    """Tree-LI digest of msg: out_len bytes.  trace, if a list, receives (name, input, output)."""
    p = params
    hdr = p.header()
    memo = {}

    def node(suffix, body, n, name):
        key = (suffix, body, n)
        if key not in memo:
            memo[key] = keccak(p.rate, suffix, hdr + body, n)
        if trace is not None:
            trace.append((name, hdr + body, suffix, memo[key]))
        return memo[key]

    if p.height == 0:
        return node(SUFFIX_SINGLE, bytes(msg), out_len, "single")
    cvs = [
        node(SUFFIX_LEAF, s, p.cv_len, "leaf %d" % i)
        for i, s in enumerate(deal_blocks(msg, p.block_size, p.leaves))
    ]
    for level in range(p.height - 1, 0, -1):  # inner levels H-1 .. 1
        cvs = [
            node(SUFFIX_INNER, b"".join(cvs[k * p.degree : (k + 1) * p.degree]), p.cv_len,
                 "level %d node %d" % (level, k))
            for k in range(len(cvs) // p.degree)
        ]
    assert len(cvs) == p.degree
    return node(SUFFIX_FINAL, b"".join(cvs), out_len, "final")


# ---------------------------------------------------------------------------
# Self-test: the sponge against hashlib; structural properties of the tree.
# ---------------------------------------------------------------------------


def pattern(n):
    """The message pattern used by the vectors: byte i is i mod 251 (as RFC 9861's ptn)."""
    return bytes(i % 251 for i in range(n))


def selftest(verbose=True):
    lengths = [0, 1, 7, 8, 71, 72, 73, 135, 136, 137, 167, 168, 169, 300, 1000]
    for n in lengths:
        m = os.urandom(n)
        checks = [
            (keccak(136, 0x06, m, 32), hashlib.sha3_256(m).digest(), "sha3_256"),
            (keccak(144, 0x06, m, 28), hashlib.sha3_224(m).digest(), "sha3_224"),
            (keccak(104, 0x06, m, 48), hashlib.sha3_384(m).digest(), "sha3_384"),
            (keccak(72, 0x06, m, 64), hashlib.sha3_512(m).digest(), "sha3_512"),
            (keccak(168, 0x1F, m, 400), hashlib.shake_128(m).digest(400), "shake_128"),
            (keccak(136, 0x1F, m, 300), hashlib.shake_256(m).digest(300), "shake_256"),
        ]
        for got, want, name in checks:
            if got != want:
                raise AssertionError("sponge != hashlib.%s at length %d" % (name, n))
    # Keccak-256 (original padding) of the empty string, a published constant.
    if keccak(136, 0x01, b"", 32).hex() != (
        "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"
    ):
        raise AssertionError("Keccak-256('') mismatch")
    # Tree invariants that follow from the definition.
    m = pattern(5000)
    base = Params(degree=3, height=2, block_size=50)
    d0 = tree_li(base, m, 64)
    assert tree_li(base, m, 100)[:64] == d0, "XOF outputs must be prefixes"
    for other in (
        Params(degree=2, height=2, block_size=50),
        Params(degree=3, height=1, block_size=50),
        Params(degree=3, height=2, block_size=51),
        Params(degree=3, height=2, block_size=50, prefix=b"k"),
        Params(degree=3, height=2, block_size=50, rate_bits=1024),
    ):
        assert tree_li(other, m, 64) != d0, "parameters must be bound into the digest"
    # H = 0 ignores D and B (canonical header) but not P or the rate.
    h0 = tree_li(Params(degree=4, height=0), m, 32)
    assert tree_li(Params(degree=7, height=0, block_size=3), m, 32) == h0
    assert tree_li(Params(height=0, prefix=b"k"), m, 32) != h0
    assert h0 != hashlib.sha3_256(m).digest()
    # Algorithm 2 round trip: leaves re-interleaved give the message back.
    for b, l in ((1, 1), (3, 4), (7, 9), (50, 16)):
        leaves = deal_blocks(m[:777], b, l)
        back = bytearray()
        pos = [0] * l
        while len(back) < 777:
            i = (len(back) // b) % l
            take = leaves[i][pos[i] : pos[i] + b]
            pos[i] += len(take)
            back += take
        assert bytes(back) == m[:777]
    if verbose:
        print("tree_li_ref selftest: ok (sponge == hashlib on %d lengths x 6 functions)" % len(lengths))


# ---------------------------------------------------------------------------
# Vector generation.
# ---------------------------------------------------------------------------

VECTORS_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors", "tree-li", "vectors.txt")

HEADER_TEXT = """\
# keccakx tree mode LI test vectors (docs/tree-li.md), generated by
# tests/tree_li_ref.py (python3 tests/tree_li_ref.py generate); do not edit by hand.
# One vector per line, space-separated key=value fields:
#   D      degree                 H      height (L = D^H leaves)
#   B      leaf block size, bytes R      rate in bytes (capacity = 1600 - 8R bits)
#   P      prefix, hex ('-' = empty)
#   MLEN   message length; the message is byte i = i mod 251, i = 0..MLEN-1
#   OUTLEN output length in bytes  OUT    expected output, hex
"""


def _lengths(b, l):
    """Message lengths at the edges of blocks and of one full round of leaves."""
    out = {0, 1, b - 1, b, b + 1, l * b - 1, l * b, l * b + 1, 3 * l * b + b // 2 + 1}
    return sorted(n for n in out if n >= 0)


def vector_cases():
    """(Params, mlen, outlen) cases; kept to a few seconds of pure-Python hashing."""
    salt = bytes(range(1, 8))  # 7-byte prefix
    key255 = pattern(255)[::-1]  # longest prefix: spans several header blocks
    shapes = [
        # (D, H, B, rate_bits, prefix)
        (4, 0, None, 1088, b""),
        (1, 0, 5, 1088, b""),  # same digests as the line above: H = 0 ignores D and B
        (4, 0, None, 1024, salt),
        (4, 0, None, 576, key255),
        (1, 1, 16, 1088, b""),
        (2, 1, 1, 1088, b""),
        (2, 1, 136, 1088, salt),
        (3, 1, 100, 1024, b""),
        (4, 1, None, 1088, b""),
        (4, 1, 2000, 1088, salt),  # large B, not a multiple of the rate
        (8, 1, 5, 1344, b""),  # r = 1344: 32-byte chaining values
        (8, 1, 128, 1024, key255),
        (1, 2, 3, 1088, salt),
        (2, 2, 7, 1024, b""),
        (3, 2, 17, 1088, b""),
        (4, 2, None, 1024, b""),  # the paper's r, c
        (4, 2, 64, 576, salt),  # r = 576: 128-byte chaining values > rate
        (8, 2, 2, 1088, b""),
        (2, 3, 11, 1088, salt),
        (3, 3, 4, 1024, b""),
        (4, 3, 1, 1088, b""),
        (8, 3, 1, 1024, b""),
        (1, 4, 9, 1088, b""),
        (2, 4, 3, 1088, b""),
        (3, 4, 2, 1088, salt),
        (4, 4, None, 1024, b""),  # the paper's tree: D = 4, H = 4, B = r
        (4, 4, None, 1088, salt),  # defaults (+ a salt)
        (8, 4, 1, 1088, b""),
        # Wide trees, short messages only: most leaves are empty.
        (4, 8, 1, 1088, b""),
        (2, 16, 2, 1024, salt),
        (255, 2, 1, 1088, b""),
    ]
    cases = []
    for d, h, b, r, pfx in shapes:
        p = Params(degree=d, height=h, block_size=b, rate_bits=r, prefix=pfx)
        lens = _lengths(p.block_size, p.leaves)
        work = p.leaves * (1 + 4 * p.block_size // p.rate)  # rough permutation count of the biggest
        if p.leaves > 4096:  # wide trees: a few short messages
            lens = [0, 1, p.block_size + 1, 5 * p.block_size + 3]
        elif work > 3000:  # keep big trees with big blocks cheap: edges only
            lens = [n for n in lens if n <= p.leaves * p.block_size + 1]
        for k, n in enumerate(lens):
            cases.append((p, n, 32 if k % 2 == 0 else 100))
    return cases


def render_vectors():
    lines = [HEADER_TEXT]
    for p, n, outlen in vector_cases():
        out = tree_li(p, pattern(n), outlen)
        lines.append(
            "D=%d H=%d B=%d R=%d P=%s MLEN=%d OUTLEN=%d OUT=%s\n"
            % (p.degree, p.height, p.block_size, p.rate, p.prefix.hex() or "-", n, outlen, out.hex())
        )
    return "".join(lines)


def parse_vectors(text):
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        f = dict(kv.split("=", 1) for kv in line.split())
        out.append(f)
    return out


# ---------------------------------------------------------------------------
# Worked example printed into docs/tree-li.md.
# ---------------------------------------------------------------------------


def example():
    p = Params(degree=2, height=2, block_size=3, rate_bits=1088, prefix=b"salt")
    m = pattern(20)
    trace = []
    out = tree_li(p, m, 32, trace)
    print("D=2 H=2 B=3 r=1088 c=512 P='salt' M = 00 01 .. 13 (20 bytes), 32 output bytes")
    print("header (first 13 of %d bytes): %s" % (len(p.header()), p.header()[:13].hex(" ")))
    for i, s in enumerate(deal_blocks(m, p.block_size, p.leaves)):
        print("leaf %d body: %s" % (i, s.hex(" ")))
    for name, inp, suffix, res in trace:
        print("%-16s suffix 0x%02X  input %4d bytes  -> %s" % (name, suffix, len(inp), res.hex()))
    print("digest:", out.hex())


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["selftest", "generate", "check", "example", "hash"])
    ap.add_argument("file", nargs="?")
    ap.add_argument("--degree", type=int, default=4)
    ap.add_argument("--height", type=int, default=4)
    ap.add_argument("--block-size", type=int, default=None)
    ap.add_argument("--rate", type=int, default=1088, help="rate in bits")
    ap.add_argument("--prefix-hex", default="")
    ap.add_argument("--length", type=int, default=32, help="output bytes")
    a = ap.parse_args(argv)
    if a.command == "selftest":
        selftest()
    elif a.command == "generate":
        selftest(verbose=False)
        text = render_vectors()
        os.makedirs(os.path.dirname(VECTORS_PATH), exist_ok=True)
        with open(VECTORS_PATH, "w") as f:
            f.write(text)
        print("wrote %d vectors to %s" % (len(parse_vectors(text)), VECTORS_PATH))
    elif a.command == "check":
        with open(VECTORS_PATH) as f:
            committed = f.read()
        fresh = render_vectors()
        if committed != fresh:
            print("tests/vectors/tree-li/vectors.txt differs from the generator's output", file=sys.stderr)
            return 1
        print("vectors.txt matches the reference (%d vectors)" % len(parse_vectors(fresh)))
    elif a.command == "example":
        example()
    elif a.command == "hash":
        p = Params(a.degree, a.height, a.block_size, a.rate, bytes.fromhex(a.prefix_hex))
        with open(a.file, "rb") if a.file and a.file != "-" else sys.stdin.buffer as f:
            print(tree_li(p, f.read(), a.length).hex())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
