"""SIMD-256, from the SIMD specification version 1.1 (Leurent, Bouillaguet,
Fouque; the round-two tweak of 2009-09: new rotation constants and new
permutations between the four Feistel ladders). The 2009 paper built the
round-one version; the keccakx core computes this one.

State: four registers A, B, C, D of four 32-bit words (512 bits); message
blocks of 64 bytes, words little-endian. Compression of block M:
  1. expansion: y_i = NTT(M)_i = sum_j M_j alpha^(ij) + alpha^(127 i)
     (+ alpha^(125 i) for the final block) mod 257, alpha = 139, i < 128;
     lifted to -128..128, multiplied by 185 (rounds 0, 1) or 233 (rounds 2,
     3) mod 2^16, two such halves per 32-bit word, and permuted;
  2. state ^= M; 4 rounds of 8 steps (Boolean function IF for the first four
     steps of a round, MAJ for the last four), then 4 steps keyed by the
     chaining value (the modified Davies-Meyer feed-forward).
Padding: the message is zero-filled to a block boundary (no block for the
empty message); a final block carries the message length in bits (64-bit
little-endian) and is compressed with the final expansion. The digest is
A, B (little-endian words). The IV is the compression of the string
"SIMD-256 v1.1" (zero-filled block) from the zero state; iv() computes it
and hw/tb/test_models.py checks it against the published value.

Two expansions are here: ntt_direct (the definition, a matrix product) and
ntt_fft (the decomposition the core computes: one twisting layer of
butterflies with the X^127/X^125 terms, then two 64-point NTTs as 8 x 8
FFT-8 with twiddle factors in between), checked against each other.
Also used by hw/codegen/gen_study_consts.py."""

MASK = 0xFFFFFFFF
P = 257
ALPHA = 139          # a primitive 128th root of unity mod 257 (41^2)
BLOCK = 64

# Facts below are the specification's, as found in the submitters' optimised
# implementation (SIMD-org, published in a public repository: IV_256, the
# rotations of SIMD_Compress, the ladder permutation j ^ ((i mod 3) + 1)) and
# in sphlib 2.1 (src/c/simd.c: the group order of the expanded message).
# IV of SIMD-256 v1.1 as published (A0..A3, B0..B3, C0..C3, D0..D3); the
# core uses iv().
IV = [0x4d567983, 0x07190ba9, 0x8474577b, 0x39d726e9, 0xaaf3d925, 0x3ee20b03,
      0xafd5e751, 0xc96006d3, 0xc2c2ba14, 0x49b3bcb4, 0xf67caf46, 0x668626c9,
      0xe2eaa8d2, 0x1ff47833, 0xd0c661a5, 0x55693de1]

# The permutation of the expanded-message groups Z^(i) over the 32 steps.
PERM = [4, 6, 0, 2, 7, 5, 3, 1, 15, 11, 12, 8, 9, 13, 10, 14,
        17, 18, 23, 20, 22, 21, 16, 19, 30, 24, 25, 31, 27, 29, 28, 26]
# Rotation constants (r, s, t, u) of the four rounds; the feed-forward
# steps use the last round's.
ROUND_ROT = [(3, 23, 17, 27), (28, 19, 22, 7), (29, 9, 15, 5), (4, 13, 10, 25)]


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK


def lift(y):
    """The representative of y mod 257 in -128..128."""
    y %= P
    return y - P if y > 128 else y


def ntt_direct(block, final):
    x = list(block) + [0] * 64
    x[127] += 1
    if final:
        x[125] += 1
    return [sum(x[j] * pow(ALPHA, i * j, P) for j in range(128)) % P for i in range(128)]


def fft8(z):
    """The 8-point NTT mod 257 with the root 4 (natural order in and out)."""
    return [sum(z[n] * pow(4, n * m, P) for n in range(8)) % P for m in range(8)]


def twist(block, final):
    """The first layer: u_j = x_j + c_j and v_j = (x_j - c_j) alpha^j for
    j < 64, where c folds in the X^127 (and final X^125) terms; the even
    outputs y_2m are NTT64(u)_m, the odd ones y_2m+1 are NTT64(v)_m."""
    c = [0] * 64
    c[63] = 1
    if final:
        c[61] = 1
    u = [(x + ci) % P for x, ci in zip(block, c)]
    v = [(x - ci) * pow(ALPHA, j, P) % P for j, (x, ci) in enumerate(zip(block, c))]
    return u, v


def ntt64(u):
    """NTT64 (root 46 = alpha^2) as 8 x 8: FFT-8 down the columns b of
    u[8a + b], twiddle 46^(b m1), FFT-8 along the rows; output m1 + 8 m2."""
    cols = [fft8([u[8 * a + b] for a in range(8)]) for b in range(8)]          # cols[b][m1]
    tw = [[cols[b][m1] * pow(46, b * m1, P) % P for m1 in range(8)] for b in range(8)]
    rows = [fft8([tw[b][m1] for b in range(8)]) for m1 in range(8)]            # rows[m1][m2]
    out = [0] * 64
    for m1 in range(8):
        for m2 in range(8):
            out[m1 + 8 * m2] = rows[m1][m2]
    return out


def ntt_fft(block, final):
    u, v = twist(block, final)
    e, o = ntt64(u), ntt64(v)
    y = [0] * 128
    y[0::2] = e
    y[1::2] = o
    return y


def expanded_words(y):
    """W[k][j]: the message word of step k < 32, Feistel ladder j."""
    w = []
    for k in range(32):
        sb = PERM[k]
        if sb < 16:
            idx, code = [(8 * sb + 2 * j, 8 * sb + 2 * j + 1) for j in range(4)], 185
        elif sb < 24:
            idx, code = [(8 * sb + 2 * j - 128, 8 * sb + 2 * j - 64) for j in range(4)], 233
        else:
            idx, code = [(8 * sb + 2 * j - 191, 8 * sb + 2 * j - 127) for j in range(4)], 233
        w.append([((lift(y[hi]) * code) & 0xFFFF) << 16 | ((lift(y[lo]) * code) & 0xFFFF)
                  for lo, hi in idx])
    return w


def if_fn(x, y, z):
    return (x & y) | (~x & z & MASK)


def maj_fn(x, y, z):
    return (x & y) | (x & z) | (y & z)


def step_rot(k):
    """(function, r, s) of step k < 36."""
    if k >= 32:
        r, s, t, u = ROUND_ROT[3]
        return if_fn, [(r, s), (s, t), (t, u), (u, r)][k - 32]
    r, s, t, u = ROUND_ROT[k // 8]
    rs = [(r, s), (s, t), (t, u), (u, r)][k % 4]
    return (if_fn if k % 8 < 4 else maj_fn), rs


def step(state, w, k):
    """One step on (A, B, C, D) (lists of four words): returns the next
    (A, B, C, D) = (D', A <<< r, B, C)."""
    a, b, c, d = state
    fn, (r, s) = step_rot(k)
    ra = [rotl(x, r) for x in a]
    p = (k % 3) + 1                                   # the ladder permutation j ^ p
    dn = [(rotl((d[j] + w[j] + fn(a[j], b[j], c[j])) & MASK, s) + ra[j ^ p]) & MASK
          for j in range(4)]
    return [dn, ra, b, c]


def compress(h, block, final, ntt=ntt_fft):
    """h: 16 words (A, B, C, D). Returns the new chaining value."""
    w = expanded_words(ntt(block, final))
    m = [int.from_bytes(block[4 * i: 4 * i + 4], "little") for i in range(16)]
    x = [hw ^ mw for hw, mw in zip(h, m)]
    state = [x[0:4], x[4:8], x[8:12], x[12:16]]
    for k in range(32):
        state = step(state, w[k], k)
    for k in range(4):
        state = step(state, h[4 * k: 4 * k + 4], 32 + k)
    return [v for quad in state for v in quad]


def iv(name=b"SIMD-256 v1.1"):
    return compress([0] * 16, name + bytes(BLOCK - len(name)), False)


def length_block(nbytes):
    return (8 * nbytes).to_bytes(8, "little") + bytes(BLOCK - 8)


def simd256(msg, ntt=ntt_fft):
    h = list(IV)
    padded = bytes(msg) + bytes(-len(msg) % BLOCK)
    for k in range(0, len(padded), BLOCK):
        h = compress(h, padded[k:k + BLOCK], False, ntt)
    h = compress(h, length_block(len(msg)), True, ntt)
    return b"".join(v.to_bytes(4, "little") for v in h[:8])
