"""Luffa-256, from the Luffa specification version 2.0 (De Cannière, Sato,
Watanabe, 2009-09-15): the round-two version, the one the 2009 paper built.

Width w = 3: the state is three 256-bit chains V_0, V_1, V_2 of eight 32-bit
words each; message blocks are 256 bits (eight big-endian words). One round
is the message injection MI followed by the permutations Q_0, Q_1, Q_2 (a
tweak, then eight steps each). Padding: a 1 bit (0x80), zeros to a block
boundary (always at least the pad byte). Finalisation: one blank round (MI
with an all-zero block, then the Q_j) and the output V_0 ^ V_1 ^ V_2.

Also used by hw/codegen/gen_study_consts.py (the IV and the step constants), so
the RTL's tables and the model are one source."""

MASK = 0xFFFFFFFF

# Facts (constants) below are the specification's, as tabulated in sphlib 2.1
# (src/c/luffa.c, MIT licence); the KATs in tests/vectors/asic2009 check them.
# Initial values V_0..V_2 (the same for every digest size; Luffa-384/512 use
# two more chains).
IV = [
    [0x6d251e69, 0x44b051e0, 0x4eaa6fb4, 0xdbf78465, 0x6e292011, 0x90152df4, 0xee058139, 0xdef610bb],
    [0xc3b44b95, 0xd9d2f256, 0x70eee9a0, 0xde099fa3, 0x5d9b0557, 0x8fc944b3, 0xcf1ccf0e, 0x746cd581],
    [0xf7efc89d, 0x5dba5781, 0x04016ce5, 0xad659c05, 0x0306194f, 0x666d1836, 0x24aa230a, 0x8b264ae7],
]

# AddConstant: for Q_j and step r, c0 is XORed into word 0 and c4 into word
# 4 (the outputs of the specification's 64-bit constant generator for Q_0..Q_2,
# kept as a table here and in the core).
RC0 = [
    [0x303994a6, 0xc0e65299, 0x6cc33a12, 0xdc56983e, 0x1e00108f, 0x7800423d, 0x8f5b7882, 0x96e1db12],
    [0xb6de10ed, 0x70f47aae, 0x0707a3d4, 0x1c1e8f51, 0x707a3d45, 0xaeb28562, 0xbaca1589, 0x40a46f3e],
    [0xfc20d9d2, 0x34552e25, 0x7ad8818f, 0x8438764a, 0xbb6de032, 0xedb780c8, 0xd9847356, 0xa2c78434],
]
RC4 = [
    [0xe0337818, 0x441ba90d, 0x7f34d442, 0x9389217f, 0xe5a8bce6, 0x5274baf4, 0x26889ba7, 0x9a226e9d],
    [0x01685f3d, 0x05a17cf4, 0xbd09caca, 0xf4272b28, 0x144ae5cc, 0xfaa7ae2b, 0x2e48f1c1, 0xb923c704],
    [0xe25e72c1, 0xe623bb72, 0x5c58a4a4, 0x1e38e2e7, 0x78e38b9d, 0x27586719, 0x36eda57f, 0x703aace7],
]

# The 4-bit S-box of SubCrumb.
SBOX = [13, 14, 0, 1, 5, 10, 7, 6, 11, 3, 9, 12, 15, 8, 2, 4]
STEPS = 8
BLOCK = 32


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK if n else x


def mult2(a):
    """Multiplication by x in GF((2^32)^8) with the reduction polynomial
    x^8 + x^4 + x^3 + x + 1; a[i] is the coefficient
    of x^i, a[0] the block's first word."""
    t = a[7]
    return [t, a[0] ^ t, a[1], a[2] ^ t, a[3] ^ t, a[4], a[5], a[6]]


def message_injection(v, m):
    """MI for w = 3: t = 2 * (V_0 + V_1 + V_2);
    V_j += t + 2^j * M."""
    t = mult2([a ^ b ^ c for a, b, c in zip(*v)])
    out = []
    for j in range(3):
        out.append([x ^ y ^ z for x, y, z in zip(v[j], t, m)])
        m = mult2(m)
    return out


def sub_crumb(a0, a1, a2, a3):
    """The S-box on every bit position: input nibble a3a2a1a0 (a0 the least
    significant bit), output likewise."""
    o = [0, 0, 0, 0]
    for k in range(32):
        x = ((a0 >> k) & 1) | ((a1 >> k) & 1) << 1 | ((a2 >> k) & 1) << 2 | ((a3 >> k) & 1) << 3
        y = SBOX[x]
        for i in range(4):
            o[i] |= ((y >> i) & 1) << k
    return o


def mix_word(u, v):
    """MixWord, rotations 2, 14, 10, 1."""
    v ^= u
    u = rotl(u, 2) ^ v
    v = rotl(v, 14) ^ u
    u = rotl(u, 10) ^ v
    v = rotl(v, 1)
    return u, v


def tweak(x, j):
    """The tweak of Q_j: words 4..7 rotated left by j bits."""
    return x[:4] + [rotl(w, j) for w in x[4:]]


def step(x, c0, c4):
    a = sub_crumb(x[0], x[1], x[2], x[3])
    b = sub_crumb(x[5], x[6], x[7], x[4])
    x = a + [b[3], b[0], b[1], b[2]]
    for k in range(4):
        x[k], x[k + 4] = mix_word(x[k], x[k + 4])
    x[0] ^= c0
    x[4] ^= c4
    return x


def permute(x, j):
    x = tweak(x, j)
    for r in range(STEPS):
        x = step(x, RC0[j][r], RC4[j][r])
    return x


def round_fn(v, block):
    m = [int.from_bytes(block[4 * i: 4 * i + 4], "big") for i in range(8)]
    v = message_injection(v, m)
    return [permute(v[j], j) for j in range(3)]


def pad(msg):
    return bytes(msg) + b"\x80" + bytes(-(len(msg) + 1) % BLOCK)


def luffa256(msg):
    v = [list(c) for c in IV]
    p = pad(msg)
    for k in range(0, len(p), BLOCK):
        v = round_fn(v, p[k:k + BLOCK])
    v = round_fn(v, bytes(BLOCK))              # the blank round
    return b"".join((a ^ b ^ c).to_bytes(4, "big") for a, b, c in zip(*v))
