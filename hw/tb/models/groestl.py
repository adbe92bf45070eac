"""Grøstl-256, from the Grøstl specification: the round-two version (the 2009
paper's) and the final, tweaked one. The round-three tweak changed the round
constants of P and Q and Q's ShiftBytes; rounds (10), S-box, MixBytes,
padding and the output transformation are the same.

State: 64 bytes as an 8x8 matrix, byte k at row k % 8, column k // 8."""

ROUNDS = 10
# MixBytes: row i of the circulant matrix is B rotated right by i.
B = [2, 2, 3, 4, 5, 3, 5, 7]
# ShiftBytes: row r moves left by SHIFT[r] columns.
SHIFT_P = [0, 1, 2, 3, 4, 5, 6, 7]
SHIFT_Q = {"round 2": SHIFT_P, "final": [1, 3, 5, 7, 0, 2, 4, 6]}


def aes_sbox():
    """The AES S-box: inversion in GF(2^8) (x^8+x^4+x^3+x+1), then the affine map."""
    def mul(a, b):
        r = 0
        while b:
            if b & 1:
                r ^= a
            a = (a << 1) ^ (0x11B if a & 0x80 else 0)
            b >>= 1
        return r
    inv = [0] * 256
    for a in range(1, 256):
        for b in range(1, 256):
            if mul(a, b) == 1:
                inv[a] = b
                break
    sbox = []
    for a in range(256):
        x = inv[a]
        y = x
        for k in range(1, 5):
            y ^= ((x << k) | (x >> (8 - k))) & 0xFF
        sbox.append(y ^ 0x63)
    return sbox


SBOX = aes_sbox()


def xtime(a):
    return ((a << 1) ^ (0x1B if a & 0x80 else 0)) & 0xFF


def gmul(a, k):
    r = 0
    while k:
        if k & 1:
            r ^= a
        a = xtime(a)
        k >>= 1
    return r


def round_constant(perm, i, version):
    """The 64-byte constant XORed into the state in round i of P or Q."""
    c = bytearray(64)
    if version == "round 2":
        if perm == "P":
            c[0] = i                      # row 0, column 0
        else:
            c[7] = 0xFF ^ i               # row 7, column 0
    else:
        for j in range(8):
            if perm == "P":
                c[8 * j] = (j << 4) ^ i   # row 0, column j
            else:
                for r in range(8):
                    c[8 * j + r] = 0xFF
                c[8 * j + 7] = 0xFF ^ (j << 4) ^ i
    return bytes(c)


# MUL[k][a] = k * a in GF(2^8), for the coefficients of B
MUL = {k: [gmul(a, k) for a in range(256)] for k in set(B)}


def shift_index(shift):
    """Source byte of every destination byte under ShiftBytes."""
    return [8 * ((j + shift[r]) % 8) + r for j in range(8) for r in range(8)]


def permutation(state, perm, version):
    s = list(state)
    src = shift_index(SHIFT_P if perm == "P" else SHIFT_Q[version])
    coef = [[MUL[B[(k - r) % 8]] for k in range(8)] for r in range(8)]
    for i in range(ROUNDS):
        c = round_constant(perm, i, version)
        s = [SBOX[a ^ b] for a, b in zip(s, c)]
        t = [s[x] for x in src]
        s = [0] * 64
        for j in range(8):
            col = t[8 * j: 8 * j + 8]
            for r in range(8):
                row = coef[r]
                v = 0
                for k in range(8):
                    v ^= row[k][col[k]]
                s[8 * j + r] = v
    return bytes(s)


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def pad(msg):
    """0x80, zeros, and the number of blocks (padding included) in 64 bits, big-endian."""
    p = bytearray(msg) + b"\x80"
    while len(p) % 64 != 56:
        p += b"\x00"
    return bytes(p) + ((len(p) + 8) // 64).to_bytes(8, "big")


def iv():
    return bytes(62) + (256).to_bytes(2, "big")


def compress(h, m, version):
    return xor(xor(permutation(xor(h, m), "P", version), permutation(m, "Q", version)), h)


def output(h, version):
    return xor(permutation(h, "P", version), h)[32:]


def groestl256_hash(msg, version):
    h = iv()
    p = pad(msg)
    for k in range(0, len(p), 64):
        h = compress(h, p[k:k + 64], version)
    return output(h, version)


def groestl256_r2(msg):
    return groestl256_hash(msg, "round 2")


def groestl256(msg):
    return groestl256_hash(msg, "final")
