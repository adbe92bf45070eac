"""BLAKE-32 (round two, 10 rounds) and BLAKE-256 (final, 14 rounds), from the
BLAKE specification (Aumasson, Henzen, Meier, Phan, v1.3): the 32-bit
version, no salt. The only round-three change was the number of rounds.

Also used by hw/codegen/gen_study_consts.py for the constants (so the RTL's
tables and the model are one source)."""

from .common import pi_hex_digits, sha256_iv

MASK = 0xFFFFFFFF

# The ten permutations sigma_0..sigma_9 of {0..15} (specification, Table 2.1).
SIGMA = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
    [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
    [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
    [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
    [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
    [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
    [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
    [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
    [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
]

# c_0..c_15: the first 512 bits of the fractional part of pi (specification 2.1.1).
_PI = pi_hex_digits(128)
C = [int(_PI[8 * i: 8 * i + 8], 16) for i in range(16)]
IV = sha256_iv()  # the same IV as SHA-256
ROUNDS = {"round 2": 10, "final": 14}

# G_i acts on these state words: four columns, then four diagonals.
G_WORDS = [(0, 4, 8, 12), (1, 5, 9, 13), (2, 6, 10, 14), (3, 7, 11, 15),
           (0, 5, 10, 15), (1, 6, 11, 12), (2, 7, 8, 13), (3, 4, 9, 14)]


def rotr(x, n):
    return ((x >> n) | (x << (32 - n))) & MASK


def g(v, m, r, i):
    a, b, c, d = G_WORDS[i]
    s = SIGMA[r % 10]
    x, y = s[2 * i], s[2 * i + 1]
    v[a] = (v[a] + v[b] + (m[x] ^ C[y])) & MASK
    v[d] = rotr(v[d] ^ v[a], 16)
    v[c] = (v[c] + v[d]) & MASK
    v[b] = rotr(v[b] ^ v[c], 12)
    v[a] = (v[a] + v[b] + (m[y] ^ C[x])) & MASK
    v[d] = rotr(v[d] ^ v[a], 8)
    v[c] = (v[c] + v[d]) & MASK
    v[b] = rotr(v[b] ^ v[c], 7)


def compress(h, block, t, rounds):
    """One compression: chaining value h (8 words), a 64-byte block, t the
    counter (message bits so far, 0 for a block of padding only)."""
    m = [int.from_bytes(block[4 * i: 4 * i + 4], "big") for i in range(16)]
    t0, t1 = t & MASK, (t >> 32) & MASK
    v = list(h) + C[0:4] + [t0 ^ C[4], t0 ^ C[5], t1 ^ C[6], t1 ^ C[7]]
    for r in range(rounds):
        for i in range(8):
            g(v, m, r, i)
    return [h[i] ^ v[i] ^ v[i + 8] for i in range(8)]


def pad(msg):
    """The padded message: 0x80, zeros, the byte before the length ORed with
    0x01 (BLAKE-256), the 64-bit bit length, big-endian."""
    n = len(msg)
    p = bytearray(msg) + b"\x80"
    while len(p) % 64 != 56:
        p += b"\x00"
    p[-1] |= 0x01
    return bytes(p) + (8 * n).to_bytes(8, "big")


def blocks_with_counters(msg):
    """(block, t) per block: t counts message bits up to the block's end, and
    is 0 for a final block that holds no message bit."""
    p = pad(msg)
    out = []
    for k in range(len(p) // 64):
        end = min(64 * (k + 1), len(msg))
        has_msg = 64 * k < len(msg)
        out.append((p[64 * k: 64 * k + 64], 8 * end if has_msg else 0))
    return out


def blake_hash(msg, version):
    h = list(IV)
    for block, t in blocks_with_counters(msg):
        h = compress(h, block, t, ROUNDS[version])
    return b"".join(x.to_bytes(4, "big") for x in h)


def blake32_r2(msg):
    return blake_hash(msg, "round 2")


def blake256(msg):
    return blake_hash(msg, "final")
