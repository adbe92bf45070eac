"""Skein-256 and Skein-512 (plain hashing, byte-length messages), from the
Skein specification: v1.2 (round two, what the 2009 paper built) and v1.3
(final). The round-three tweak changed only the key-schedule parity
constant C240 (0x5555555555555555 -> 0x1BD11BDAA9FC1A22); the rotation
constants below are those of v1.2 and v1.3 (v1.1's were changed in round two).

Also used by hw/codegen/gen_study_consts.py for the IVs (the chaining value after
the configuration block), which the cores hold as constants."""

MASK = (1 << 64) - 1
PARITY = {"round 2": 0x5555555555555555, "final": 0x1BD11BDAA9FC1A22}

# Rotation constants R[d][j] for round d mod 8, MIX j (specification Table 4).
ROT = {
    4: [[14, 16], [52, 57], [23, 40], [5, 37], [25, 33], [46, 12], [58, 22], [32, 32]],
    8: [[46, 36, 19, 37], [33, 27, 14, 42], [17, 49, 36, 39], [44, 9, 54, 56],
        [39, 30, 34, 24], [13, 50, 10, 17], [25, 29, 39, 43], [8, 35, 56, 22]],
}
# Word permutation after each round (specification Table 3): new[i] = old[PERM[i]].
PERM = {4: [0, 3, 2, 1], 8: [2, 1, 4, 7, 6, 5, 0, 3]}
ROUNDS = 72
TYPE_CFG, TYPE_MSG, TYPE_OUT = 4, 48, 63


def rotl(x, n):
    return ((x << n) | (x >> (64 - n))) & MASK


def subkey(ks, ts, s, nw):
    k = [ks[(s + i) % (nw + 1)] for i in range(nw)]
    k[nw - 3] = (k[nw - 3] + ts[s % 3]) & MASK
    k[nw - 2] = (k[nw - 2] + ts[(s + 1) % 3]) & MASK
    k[nw - 1] = (k[nw - 1] + s) & MASK
    return k


def threefish(key, tweak, block, version):
    """Encrypt `block` (nw 64-bit words) under `key` (nw words) and `tweak`
    (two words)."""
    nw = len(key)
    ks = list(key) + [PARITY[version]]
    for k in key:
        ks[nw] ^= k
    ts = [tweak[0], tweak[1], tweak[0] ^ tweak[1]]
    x = list(block)
    for d in range(ROUNDS):
        if d % 4 == 0:
            x = [(a + b) & MASK for a, b in zip(x, subkey(ks, ts, d // 4, nw))]
        for j in range(nw // 2):
            a, b = x[2 * j], x[2 * j + 1]
            a = (a + b) & MASK
            b = rotl(b, ROT[nw][d % 8][j]) ^ a
            x[2 * j], x[2 * j + 1] = a, b
        x = [x[PERM[nw][i]] for i in range(nw)]
    return [(a + b) & MASK for a, b in zip(x, subkey(ks, ts, ROUNDS // 4, nw))]


def tweak(position, kind, first, final):
    return [position & MASK,
            (position >> 64) | (kind << 56) | (int(first) << 62) | (int(final) << 63)]


def words(b):
    return [int.from_bytes(b[8 * i: 8 * i + 8], "little") for i in range(len(b) // 8)]


def to_bytes(ws):
    return b"".join(w.to_bytes(8, "little") for w in ws)


def ubi(g, data, kind, version, nbytes):
    """Unique Block Iteration of `data` (zero-padded to blocks, at least one)
    with chaining value g."""
    blocks = max(1, -(-len(data) // nbytes))
    padded = data + bytes(blocks * nbytes - len(data))
    for k in range(blocks):
        m = padded[k * nbytes:(k + 1) * nbytes]
        pos = min((k + 1) * nbytes, len(data))
        e = threefish(g, tweak(pos, kind, k == 0, k == blocks - 1), words(m), version)
        g = [a ^ b for a, b in zip(e, words(m))]
    return g


def config_iv(state_bits, out_bits, version):
    """The chaining value after the configuration block (no key, no tree)."""
    nb = state_bits // 8
    cfg = b"SHA3" + (1).to_bytes(2, "little") + bytes(2) + out_bits.to_bytes(8, "little")
    return ubi([0] * (nb // 8), cfg + bytes(32 - len(cfg)), TYPE_CFG, version, nb)


def skein(msg, state_bits, out_bits, version):
    nb = state_bits // 8
    g = config_iv(state_bits, out_bits, version)
    g = ubi(g, msg, TYPE_MSG, version, nb)
    out = b""
    counter = 0
    while len(out) < out_bits // 8:
        out += to_bytes(ubi(g, counter.to_bytes(8, "little"), TYPE_OUT, version, nb))
        counter += 1
    return out[:out_bits // 8]


def skein256_256_r2(msg):
    return skein(msg, 256, 256, "round 2")


def skein256_256(msg):
    return skein(msg, 256, 256, "final")


def skein512_256_r2(msg):
    return skein(msg, 512, 256, "round 2")


def skein512_256(msg):
    return skein(msg, 512, 256, "final")


def skein512_512_r2(msg):
    return skein(msg, 512, 512, "round 2")


def skein512_512(msg):
    return skein(msg, 512, 512, "final")
