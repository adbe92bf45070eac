"""SHAvite-3-256 from the SHAvite-3 specification (Biham, Dunkelman; the
round-two version of 2009). HAIFA mode: the compression function takes the
256-bit chaining value, a 512-bit message block, the 64-bit count of
message bits hashed so far (0 for a block with no message bit) and a 256-bit
salt (0 here, as in the NIST API). Words are 32 bits, little-endian in the
byte stream; a 128-bit value (x0, x1, x2, x3) is the AES state whose
column j holds the bytes of x_j, least significant first.

This is the function of the specification and of sphlib 2.1, whose
digests of the NIST ShortMsgKAT messages it reproduces. sphlib notes that
the reference code of the round-two submission (and its "BugFix" of
23 November 2009) loaded the AES columns with the bytes of each word in the
other order, so that code's own known-answer files differ from the
specification; those files are not used here (tests/vectors/asic2009/README.md)."""

from .aes import aes_round

ROUNDS = 12
DIGEST_BITS = 256
MASK = 0xFFFFFFFF
# where the counter words enter the message expansion: (index of the round-key
# word, which counter word, complemented)
COUNTER_TAPS = ((16, 0, False), (17, 1, True), (57, 1, False), (58, 0, True),
                (86, 1, False), (87, 0, True), (124, 0, False), (127, 1, True))
# IV of SHAvite-3-256 (h0..h7): the specification's table, as in sphlib 2.1
IV256 = (0x49BB3E47, 0x2674860D, 0xA8B392AC, 0x021AC4E6,
         0x409283CF, 0x620E5D86, 0x6D929DCB, 0x96CC2A8B)


def words_to_bytes(ws):
    return b"".join(w.to_bytes(4, "little") for w in ws)


def bytes_to_words(b):
    return [int.from_bytes(b[4 * i: 4 * i + 4], "little") for i in range(len(b) // 4)]


def aes_words(x, key=(0, 0, 0, 0)):
    """One AES round (key added at the end) on four 32-bit words."""
    return bytes_to_words(aes_round(words_to_bytes(x), words_to_bytes(key)))


def expand(msg_words, counter):
    """The 144 round-key words (36 keys of 128 bits) from the 16 message words:
    four times a non-linear step (16 words: an AES round keyed by the salt,
    here 0, on a rotated 128-bit group, XORed with the 4 words before) and a
    linear step (16 words), with the counter XORed in at COUNTER_TAPS."""
    cnt = (counter & MASK, (counter >> 32) & MASK)
    rk = list(msg_words)
    taps = {i: (c, inv) for i, c, inv in COUNTER_TAPS}
    for _ in range(4):
        for _ in range(4):                         # non-linear
            u = len(rk)
            y = aes_words([rk[u - 15], rk[u - 14], rk[u - 13], rk[u - 16]])
            rk += [y[j] ^ rk[u - 4 + j] for j in range(4)]
            for j in range(4):
                if u + j in taps:
                    c, inv = taps[u + j]
                    rk[u + j] ^= (~cnt[c] & MASK) if inv else cnt[c]
        for _ in range(16):                        # linear
            u = len(rk)
            rk.append(rk[u - 16] ^ rk[u - 3])
    return rk


def compress(h, msg_words, counter):
    """E^256 in Davies-Meyer mode: 12 Feistel rounds, each three AES rounds
    keyed by three round keys, then the input added."""
    rk = expand(msg_words, counter)
    left, right = list(h[:4]), list(h[4:])
    for r in range(ROUNDS):
        k = rk[12 * r: 12 * r + 12]
        x = [right[j] ^ k[j] for j in range(4)]
        x = aes_words(x, k[4:8])
        x = aes_words(x, k[8:12])
        x = aes_words(x)
        left, right = right, [left[j] ^ x[j] for j in range(4)]
    return [h[j] ^ (left + right)[j] for j in range(8)]


def pad(msg):
    """Blocks and their counters: message, 0x80, zeros, the message length in
    bits (64, little-endian) and the digest size (16, little-endian) in the
    last 10 bytes of the final block; a block with no message bit counts 0."""
    bits = 8 * len(msg)
    p = bytearray(msg) + b"\x80"
    while len(p) % 64 != 54:
        p += b"\x00"
    p += bits.to_bytes(8, "little") + DIGEST_BITS.to_bytes(2, "little")
    blocks = []
    for n in range(len(p) // 64):
        start = 64 * n
        counter = min(bits, 8 * (start + 64)) if start < len(msg) else 0
        blocks.append((bytes(p[start: start + 64]), counter))
    return blocks


def shavite3_256(msg):
    h = list(IV256)
    for block, counter in pad(msg):
        h = compress(h, bytes_to_words(block), counter)
    return words_to_bytes(h)
