"""BMW-256 (Blue Midnight Wish, round two: the tweaked version with the
final compression under CONST_final), from the specification (Gligoroski,
Klima, Knapskog, El-Hadedy, Amundsen, Mjolsnes, "Cryptographic hash function
BLUE MIDNIGHT WISH", round-two tweak, 2009).

Words are 32-bit little-endian. The compression function f(M, H) has three
parts: f0 (W from M xor H, Q_0..15 = s(W) + H), f1 (Q_16..31: two expand1
rounds, fourteen expand2 rounds), f2 (the new H folded from M, Q_0..31).
The digest is the last eight words of f(H_last, CONST_final).

Also used by hw/codegen/gen_study_consts.py (the sign table and the constants),
so the RTL and this model are one source."""

MASK = 0xFFFFFFFF

# f0: W_j = sum of (M_i xor H_i) over five indices i, with these signs
# (the specification's table of f0; one row per j, +1 / -1 per index).
F0_TERMS = [
    ((5, 1), (7, -1), (10, 1), (13, 1), (14, 1)),
    ((6, 1), (8, -1), (11, 1), (14, 1), (15, -1)),
    ((0, 1), (7, 1), (9, 1), (12, -1), (15, 1)),
    ((0, 1), (1, -1), (8, 1), (10, -1), (13, 1)),
    ((1, 1), (2, 1), (9, 1), (11, -1), (14, -1)),
    ((3, 1), (2, -1), (10, 1), (12, -1), (15, 1)),
    ((4, 1), (0, -1), (3, -1), (11, -1), (13, 1)),
    ((1, 1), (4, -1), (5, -1), (12, -1), (14, -1)),
    ((2, 1), (5, -1), (6, -1), (13, 1), (15, -1)),
    ((0, 1), (3, -1), (6, 1), (7, -1), (14, 1)),
    ((8, 1), (1, -1), (4, -1), (7, -1), (15, 1)),
    ((8, 1), (0, -1), (2, -1), (5, -1), (9, 1)),
    ((1, 1), (3, 1), (6, -1), (9, -1), (10, 1)),
    ((2, 1), (4, 1), (7, 1), (10, 1), (11, 1)),
    ((3, 1), (5, -1), (8, 1), (11, -1), (12, -1)),
    ((12, 1), (4, -1), (6, -1), (9, -1), (13, 1)),
]

# s_0..s_5: (shift right, shift left, rotate, rotate); None where the
# function has no such term (s_4 and s_5 are x >> n xor x).
S_FUNCS = [(1, 3, 4, 19), (1, 2, 8, 23), (2, 1, 12, 25), (2, 2, 15, 29), (1, None, None, None),
           (2, None, None, None)]
# expand2: the rotations r_1..r_7 applied to Q_{j-15}, Q_{j-13}, ..., Q_{j-3}
R_ROT = [3, 7, 13, 16, 19, 23, 27]
EXPAND1_ROUNDS = 2   # the recommended split: 2 x expand1, 14 x expand2

# f2: H_i for i < 8 is (xh shifted ^ q_{16+i} shifted ^ M_i) + (xl ^ q_{24+i} ^ q_i);
# these are (xh shift, q_{16+i} shift) with positive = left, negative = right,
# 0 for "not shifted" (only H_4's q_20).
F2_LOW = [(5, -5), (-7, 8), (-5, 5), (-1, 5), (-3, 0), (6, -6), (-4, 6), (-11, 2)]
# for i >= 8: rotl(H_{(i-4) mod 8}, i + 1) + (xh ^ q_{24+i-8} ^ M_i)
#             + (xl shifted ^ q_{16 + (i-1) mod 8} ^ q_i)
F2_HIGH = [8, -6, 6, 4, -3, -4, -7, -2]

IV = [(0x40414243 + 0x04040404 * i) & MASK for i in range(16)]     # bytes 0x40..0x7f
CONST_FINAL = [0xAAAAAAA0 + i for i in range(16)]
K = [(j * 0x05555555) & MASK for j in range(32)]                   # K_16..K_31 used


def rotl(x, n):
    n %= 32
    return ((x << n) | (x >> (32 - n))) & MASK if n else x


def shift(x, n):
    """Left by n > 0, right by -n."""
    return (x << n) & MASK if n >= 0 else x >> -n


def s(i, x):
    r, l, a, b = S_FUNCS[i]
    if l is None:
        return (x >> r) ^ x
    return (x >> r) ^ ((x << l) & MASK) ^ rotl(x, a) ^ rotl(x, b)


def add_element(j, m, h):
    """AddElement(j) for j = 16..31."""
    i = j - 16
    a, b, c = i, (i + 3) % 16, (i + 10) % 16
    v = (rotl(m[a], a + 1) + rotl(m[b], b + 1) - rotl(m[c], c + 1) + K[j]) & MASK
    return v ^ h[(i + 7) % 16]


def compress(h, m):
    """f(M, H) on lists of 16 words; returns the new H."""
    x = [m[i] ^ h[i] for i in range(16)]
    q = []
    for j in range(16):                                     # f0
        w = sum(sign * x[i] for i, sign in F0_TERMS[j]) & MASK
        q.append((s(j % 5, w) + h[(j + 1) % 16]) & MASK)
    for j in range(16, 32):                                 # f1
        if j < 16 + EXPAND1_ROUNDS:
            t = sum(s((k + 1) % 4, q[j - 16 + k]) for k in range(16))
        else:
            t = sum(q[j - 16 + k] if k % 2 == 0 else rotl(q[j - 16 + k], R_ROT[k // 2])
                    for k in range(14))
            t += s(4, q[j - 2]) + s(5, q[j - 1])
        q.append((t + add_element(j, m, h)) & MASK)
    xl = 0                                                  # f2
    for v in q[16:24]:
        xl ^= v
    xh = xl
    for v in q[24:32]:
        xh ^= v
    out = [0] * 16
    for i in range(8):
        a, b = F2_LOW[i]
        out[i] = ((shift(xh, a) ^ shift(q[16 + i], b) ^ m[i]) + (xl ^ q[24 + i] ^ q[i])) & MASK
    for i in range(8, 16):
        out[i] = (rotl(out[(i - 4) % 8], i + 1) + (xh ^ q[16 + i] ^ m[i])
                  + (shift(xl, F2_HIGH[i - 8]) ^ q[16 + (i - 1) % 8] ^ q[i])) & MASK
    return out


def words(block):
    return [int.from_bytes(block[4 * i: 4 * i + 4], "little") for i in range(16)]


def pad(msg):
    """0x80, zeros, the 64-bit little-endian bit length at the end of a block."""
    n = len(msg)
    padded = msg + b"\x80" + bytes((55 - n) % 64) + (8 * n).to_bytes(8, "little")
    assert len(padded) % 64 == 0
    return padded


def bmw256(msg):
    h = list(IV)
    p = pad(msg)
    for off in range(0, len(p), 64):
        h = compress(h, words(p[off: off + 64]))
    h = compress(list(CONST_FINAL), h)
    return b"".join(w.to_bytes(4, "little") for w in h[8:])
