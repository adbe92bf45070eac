"""The AES pieces the AES-based candidates share (ECHO, SHAvite-3, Fugue):
GF(2^8) arithmetic with the AES polynomial x^8+x^4+x^3+x+1, the S-box from
its definition (FIPS 197 5.1.1: inversion, then the affine map), and one
AES round (SubBytes, ShiftRows, MixColumns, AddRoundKey) on a 16-byte
state, byte k at row k % 4, column k // 4 (FIPS 197 3.4)."""


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


def _sbox():
    inv = [0] * 256
    for a in range(1, 256):
        for b in range(1, 256):
            if gmul(a, b) == 1:
                inv[a] = b
                break
    out = []
    for a in range(256):
        x = inv[a]
        y = x
        for k in range(1, 5):
            y ^= ((x << k) | (x >> (8 - k))) & 0xFF
        out.append(y ^ 0x63)
    return out


SBOX = _sbox()
MUL2 = [xtime(a) for a in range(256)]
MUL3 = [xtime(a) ^ a for a in range(256)]

# ShiftRows: destination byte k takes source byte SHIFT_SRC[k] (row r moves
# left by r columns).
SHIFT_SRC = [4 * ((k // 4 + k % 4) % 4) + k % 4 for k in range(16)]


def mix_column(a, b, c, d):
    """AES MixColumns on one column (rows 0..3)."""
    return (MUL2[a] ^ MUL3[b] ^ c ^ d, a ^ MUL2[b] ^ MUL3[c] ^ d,
            a ^ b ^ MUL2[c] ^ MUL3[d], MUL3[a] ^ b ^ c ^ MUL2[d])


def aes_round(state, key=bytes(16)):
    """One full AES round on 16 bytes: SubBytes, ShiftRows, MixColumns, AddRoundKey."""
    s = [SBOX[state[SHIFT_SRC[k]]] for k in range(16)]
    out = bytearray(16)
    for c in range(4):
        out[4 * c: 4 * c + 4] = bytes(mix_column(*s[4 * c: 4 * c + 4]))
    return bytes(x ^ y for x, y in zip(out, key))


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))
