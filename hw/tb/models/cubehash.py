"""CubeHash16/32-256 (round two: r = 16 rounds per 32-byte block, 10r
initial and 10r final rounds), from the specification (D. J. Bernstein,
"CubeHash specification (2.B.1)", and the round-two parameter tweak
CubeHash16/32).

The state is 32 little-endian 32-bit words x[0..31] (x[00000]..x[11111]).
The initial state: x[0] = h/8, x[1] = b, x[2] = r, the rest 0, then 10r
rounds (a constant: hw/codegen/gen_study_consts.py writes it for the RTL from
`iv()` here). Padding: 0x80, then zeros to a multiple of b bytes. Each block
is XORed into the first b bytes, then r rounds. Finally 1 is XORed into
x[31], 10r rounds, and the digest is the first h/8 bytes of the state."""

MASK = 0xFFFFFFFF
R, B, H = 16, 32, 256          # rounds per block, block bytes, digest bits
INIT_ROUNDS = FINAL_ROUNDS = 10 * R


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK


def round_(x):
    """One round, the specification's ten steps, on a list of 32 words."""
    for i in range(16):                       # 1. add x[0jklm] into x[1jklm]
        x[16 + i] = (x[16 + i] + x[i]) & MASK
    for i in range(16):                       # 2. rotate x[0jklm] up by 7
        x[i] = rotl(x[i], 7)
    for i in range(8):                        # 3. swap x[00klm] with x[01klm]
        x[i], x[i + 8] = x[i + 8], x[i]
    for i in range(16):                       # 4. xor x[1jklm] into x[0jklm]
        x[i] ^= x[16 + i]
    for i in range(16):                       # 5. swap x[1jk0m] with x[1jk1m]
        if not i & 2:
            x[16 + i], x[16 + (i | 2)] = x[16 + (i | 2)], x[16 + i]
    for i in range(16):                       # 6. add x[0jklm] into x[1jklm]
        x[16 + i] = (x[16 + i] + x[i]) & MASK
    for i in range(16):                       # 7. rotate x[0jklm] up by 11
        x[i] = rotl(x[i], 11)
    for i in range(16):                       # 8. swap x[0j0lm] with x[0j1lm]
        if not i & 4:
            x[i], x[i | 4] = x[i | 4], x[i]
    for i in range(16):                       # 9. xor x[1jklm] into x[0jklm]
        x[i] ^= x[16 + i]
    for i in range(16):                       # 10. swap x[1jkl0] with x[1jkl1]
        if not i & 1:
            x[16 + i], x[16 + (i | 1)] = x[16 + (i | 1)], x[16 + i]
    return x


def rounds(x, n):
    for _ in range(n):
        round_(x)
    return x


def iv():
    """The state after initialisation: 32 words."""
    x = [H // 8, B, R] + [0] * 29
    return rounds(x, INIT_ROUNDS)


_IV = iv()


def pad(msg):
    n = len(msg) + 1
    return msg + b"\x80" + bytes(-n % B)


def cubehash16_32_256(msg):
    x = list(_IV)
    p = pad(msg)
    for off in range(0, len(p), B):
        for i in range(B // 4):
            x[i] ^= int.from_bytes(p[off + 4 * i: off + 4 * i + 4], "little")
        rounds(x, R)
    x[31] ^= 1
    rounds(x, FINAL_ROUNDS)
    return b"".join(w.to_bytes(4, "little") for w in x[: H // 32])
