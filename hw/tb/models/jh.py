"""JH-256, from the JH specification (Hongjun Wu): the round-two version (the
2009 paper's: E8 is 35 rounds R8 and a final S-box layer, "35.5 rounds") and
the final one (42 rounds R8). That round count is the only round-three
change; the IV follows from it (it is F8 of the digest size).

Bits are numbered as in the specification: bit 0 of H is the most significant
bit of its byte 0. The state inside E8 is 256 4-bit elements."""

from .common import isqrt

S = [[9, 0, 4, 11, 13, 12, 3, 15, 1, 10, 2, 6, 7, 5, 8, 14],
     [3, 12, 6, 13, 5, 7, 1, 9, 15, 2, 0, 4, 11, 10, 14, 8]]
# E8: full rounds R8, and whether a final S-box layer follows.
VERSIONS = {"round 2": (35, True), "final": (42, False)}


def double(a):
    """Multiplication by x in GF(2^4) mod x^4 + x + 1 (bit 3 is the MSB)."""
    return ((a << 1) & 0xF) ^ (0x3 if a & 0x8 else 0)


def linear(a, b):
    """The MDS code L: (A, B) -> (C, D), D = B + 2A, C = A + 2D."""
    d = b ^ double(a)
    c = a ^ double(d)
    return c, d


def perm(d, a):
    """P_d = phi_d o P'_d o pi_d on 2^d elements."""
    n = 1 << d
    b = list(a)
    for i in range(n // 4):                       # pi_d: swap the last two of every four
        b[4 * i + 2], b[4 * i + 3] = a[4 * i + 3], a[4 * i + 2]
    c = [0] * n
    for i in range(n // 2):                       # P'_d: evens to the first half
        c[i] = b[2 * i]
        c[i + n // 2] = b[2 * i + 1]
    e = list(c)
    for i in range(n // 4, n // 2):               # phi_d: swap pairs in the second half
        e[2 * i], e[2 * i + 1] = c[2 * i + 1], c[2 * i]
    return e


_PERM_INDEX = {}


def perm_index(d):
    """P_d as a list of source positions (computed once per d)."""
    if d not in _PERM_INDEX:
        _PERM_INDEX[d] = perm(d, list(range(1 << d)))
    return _PERM_INDEX[d]


LINEAR = [linear(a, b) for a in range(16) for b in range(16)]  # index 16a + b


def round_fn(d, a, c):
    """R_d: S-boxes chosen by the constant's bits, L on pairs, P_d."""
    s = [S[ci][ai] for ai, ci in zip(a, c)]
    out = []
    for i in range(0, len(s), 2):
        out.extend(LINEAR[16 * s[i] + s[i + 1]])
    return [out[k] for k in perm_index(d)]


def bits_of(value, n):
    return [(value >> (n - 1 - i)) & 1 for i in range(n)]


def nibbles_to_bits(q):
    return [(x >> (3 - k)) & 1 for x in q for k in range(4)]


def round_constants(count):
    """C_0 = the first 256 bits of the fractional part of sqrt(2) (that is,
    of sqrt(2) - 1); C_{r+1} = R_6(C_r) with every S-box selector 0."""
    c0 = isqrt(2 << 512) - (1 << 256)
    cs = [bits_of(c0, 256)]
    for _ in range(count - 1):
        q = [int("".join(map(str, cs[-1][4 * i: 4 * i + 4])), 2) for i in range(64)]
        cs.append(nibbles_to_bits(round_fn(6, q, [0] * 64)))
    return cs


CONSTANTS = round_constants(43)


def group(h):
    """1024 bits -> 256 elements: element 2i = bits i, i+256, i+512, i+768;
    element 2i+1 = bits i+128, i+384, i+640, i+896 (most significant first)."""
    q = []
    for i in range(128):
        for base in (i, i + 128):
            q.append(8 * h[base] + 4 * h[base + 256] + 2 * h[base + 512] + h[base + 768])
    return q


def degroup(q):
    h = [0] * 1024
    for i in range(128):
        for k, base in enumerate((i, i + 128)):
            x = q[2 * i + k]
            h[base], h[base + 256], h[base + 512], h[base + 768] = \
                (x >> 3) & 1, (x >> 2) & 1, (x >> 1) & 1, x & 1
    return h


def e8(h, version):
    rounds, half = VERSIONS[version]
    q = group(h)
    for r in range(rounds):
        q = round_fn(8, q, CONSTANTS[r])
    if half:
        q = [S[ci][ai] for ai, ci in zip(q, CONSTANTS[rounds])]
    return degroup(q)


def to_bits(b):
    return [(byte >> (7 - k)) & 1 for byte in b for k in range(8)]


def to_bytes(bits):
    return bytes(int("".join(map(str, bits[8 * i: 8 * i + 8])), 2) for i in range(len(bits) // 8))


def f8(h, m, version):
    mb = to_bits(m)
    x = [a ^ b for a, b in zip(h, mb + [0] * 512)]
    x = e8(x, version)
    return [a ^ b for a, b in zip(x, [0] * 512 + mb)]


def iv(version, digest_bits=256):
    h = bits_of(digest_bits, 16) + [0] * 1008
    return f8(h, bytes(64), version)


def pad(msg):
    """0x80, zeros, 128-bit bit length big-endian; at least 512 bits of padding
    (a message that ends mid-block gets its length in an extra block)."""
    n = len(msg)
    zeros = 64 + (-n % 64) - 1 - 16
    return bytes(msg) + b"\x80" + bytes(zeros) + (8 * n).to_bytes(16, "big")


def jh256_hash(msg, version):
    h = iv(version)
    p = pad(msg)
    for k in range(0, len(p), 64):
        h = f8(h, p[k:k + 64], version)
    return to_bytes(h[768:])


def jh256_r2(msg):
    return jh256_hash(msg, "round 2")


def jh256(msg):
    return jh256_hash(msg, "final")
