"""ECHO-256 from the ECHO specification (Benadjila et al., SHA-3 round two,
version 1.5, 2009; no round-two tweak). The state is 16 words of 128 bits,
a 4x4 matrix, word i at row i % 4 and column i // 4; each word is an AES
state (byte k at row k % 4, column k // 4). Bytes are read little-endian
throughout (counter, salt, length fields, chaining value)."""

from .aes import aes_round, mix_column, xor

BLOCK = 192            # message bytes per compression (1536 bits)
CV_WORDS = 4           # the 512-bit chaining value: words 0..3 of the state
ROUNDS = 8
DIGEST_BITS = 256


def le128(x):
    return (x & ((1 << 128) - 1)).to_bytes(16, "little")


def big_round(w, k, salt):
    """BIG.SubWords (two AES rounds per word, keys: counter k + i, then the
    salt), BIG.ShiftRows, BIG.MixColumns. Returns the words and the next k."""
    w = [aes_round(aes_round(w[i], le128(k + i)), salt) for i in range(16)]
    k += 16
    # BIG.ShiftRows: row r moves left by r columns
    w = [w[4 * ((i // 4 + i % 4) % 4) + i % 4] for i in range(16)]
    # BIG.MixColumns: AES MixColumns on byte b of the four words of a column
    out = []
    for c in range(4):
        col = w[4 * c: 4 * c + 4]
        mixed = [bytearray(16) for _ in range(4)]
        for b in range(16):
            for r, v in enumerate(mix_column(*(col[j][b] for j in range(4)))):
                mixed[r][b] = v
        out += [bytes(m) for m in mixed]
    return out, k


def compress(v, block, counter, salt=bytes(16)):
    """v: the 64-byte chaining value, block: 192 message bytes, counter: the
    message bits hashed up to the end of this block (0 if it holds none)."""
    w_in = [v[16 * i: 16 * i + 16] for i in range(CV_WORDS)] + \
           [block[16 * i: 16 * i + 16] for i in range(12)]
    w, k = list(w_in), counter
    for _ in range(ROUNDS):
        w, k = big_round(w, k, salt)
    # BIG.Final: the chaining value, the message and the state, folded by rows
    out = b""
    for i in range(CV_WORDS):
        acc = bytes(16)
        for c in range(4):
            acc = xor(acc, xor(w_in[4 * c + i], w[4 * c + i]))
        out += acc
    return out


def pad(msg):
    """Blocks and their counters: message, 0x80, zeros, the digest size in 16
    bits and the message length in bits in 128 bits (both little-endian) at
    the end of the final block; a block with no message bit counts 0."""
    bits = 8 * len(msg)
    p = bytearray(msg) + b"\x80"
    while len(p) % BLOCK != BLOCK - 18:
        p += b"\x00"
    p += DIGEST_BITS.to_bytes(2, "little") + bits.to_bytes(16, "little")
    blocks = []
    for n in range(len(p) // BLOCK):
        start = n * BLOCK
        counter = min(bits, 8 * (start + BLOCK)) if start < len(msg) else 0
        blocks.append((bytes(p[start: start + BLOCK]), counter))
    return blocks


def iv():
    """Every 128-bit word of the chaining value holds the digest size."""
    return le128(DIGEST_BITS) * CV_WORDS


def echo256(msg, salt=bytes(16)):
    v = iv()
    for block, counter in pad(msg):
        v = compress(v, block, counter, salt)
    return v[:DIGEST_BITS // 8]
