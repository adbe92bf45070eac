#!/usr/bin/env python3
"""Generate asm_avx512.rs: Keccak-p[1600] rounds in AVX-512 registers, one
lane per register, written as inline assembly so that no lane is ever spilled.

    python3 gen_asm.py            rewrite asm_avx512.rs next to this script
    python3 gen_asm.py --check    exit 1 if the committed file differs

Why (bench/NOTES.md): LLVM keeps the 25 lanes, the 25 π-permuted lanes and
θ's temporaries of the generic round (lanes.rs) in ~55 registers and spills
about 55 zmm words per round to the stack; this allocation needs 32.

Register plan. The 25 lanes live in registers 0..24, the other seven hold
θ's column parities C[x] and then D[x] = C[x−1] ^ rot(C[x+1], 1) (computed
in place in the order below so that no eighth register is needed), and χ's
two saved inputs. One output row of χ consumes exactly the five lanes its π
sources held, so each output lane is written into the register of one of its
sources: the lane-to-register map changes every round (it follows π). After
two rounds 26 register moves restore the identity map, so a two-round loop
body serves any even round count (24 for SHA-3, 12 for KangarooTwelve and
TurboSHAKE).

Per round: θ parities 5 × (VPXORQ, VPTERNLOGQ, VPXORQ), D 5 × (VPROLQ,
VPXORQ), θ's effect 25 VPXORQ, ρ 24 VPROLQ, χ 25 VPTERNLOGQ (+ 2 moves per
row), ι one VPXORQ with a broadcast round constant. The same text works for
xmm (one state, AVX-512VL) and zmm (eight states) registers.

The sponge's single-state absorb loop (`absorb_xmm`) uses a different
plan, two lanes per register: gen_asm_pairs.py.

The ×8 absorb loops (`absorb_zmm_21`, `absorb_zmm_17`) wrap the same two
rounds: each block is transposed into the seven spare registers and XORed
into the states, which never leave zmm0..zmm24 (`transpose_xor`). Calling
`permute_zmm` per block instead made the compiler store and reload all 25
state registers around every permutation (bench/NOTES.md, "KT128 from the
shell").
"""
import sys
from pathlib import Path

from gen_asm_pairs import RHO, rust_absorb_fn



def pi_sources():
    """PI_SRC[y][x]: the lane that π moves to position (x, y).
    π: A[x, y] -> (y, 2x + 3y), so the source of (X, Y) is x = 3(Y − 3X)
    mod 5 (3 = 2^−1 mod 5), y = X."""
    return [[((3 * (Y - 3 * X)) % 5) + 5 * X for X in range(5)] for Y in range(5)]


def two_rounds(reg):
    """Instructions of two rounds starting from the identity map; returns
    (lines, map after the two rounds)."""
    src = pi_sources()
    m = list(range(25))          # m[lane] = register holding it
    free = list(range(25, 32))
    out = []
    e = out.append
    for r in range(2):
        c = free[0:5]
        t1, t2 = free[5], free[6]
        for x in range(5):
            e(f"vpxorq {reg(m[x + 5])}, {reg(m[x])}, {reg(c[x])}")
            e(f"vpternlogq $0x96, {reg(m[x + 15])}, {reg(m[x + 10])}, {reg(c[x])}")
            e(f"vpxorq {reg(m[x + 20])}, {reg(c[x])}, {reg(c[x])}")
        # D0 = C4 ^ rot(C1) -> t1; D1 = C0 ^ rot(C2) -> t2; D3 = C2 ^ rot(C4)
        # -> C4's register; D4 = C3 ^ rot(C0) -> C0's; D2 = C1 ^ rot(C3) -> C3's.
        for (rot, plain, dst) in [(1, 4, t1), (2, 0, t2), (4, 2, c[4]), (0, 3, c[0]), (3, 1, c[3])]:
            e(f"vprolq $1, {reg(c[rot])}, {reg(dst)}")
            e(f"vpxorq {reg(c[plain])}, {reg(dst)}, {reg(dst)}")
        d = [t1, t2, c[3], c[4], c[0]]
        save_a, save_b = c[1], c[2]
        new = [None] * 25
        def prep(y):
            # θ's effect and ρ on the five π sources of output row y
            rr = [m[s] for s in src[y]]
            for s, k in zip(src[y], rr):
                e(f"vpxorq {reg(d[s % 5])}, {reg(k)}, {reg(k)}")
                if RHO[s]:
                    e(f"vprolq ${RHO[s]}, {reg(k)}, {reg(k)}")
            return rr

        def chi(y, rr):
            e(f"vmovdqa64 {reg(rr[0])}, {reg(save_a)}")
            e(f"vmovdqa64 {reg(rr[1])}, {reg(save_b)}")
            ops = [(rr[0], rr[1], rr[2]), (rr[1], rr[2], rr[3]), (rr[2], rr[3], rr[4]),
                   (rr[3], rr[4], save_a), (rr[4], save_a, save_b)]
            for x, (a, b, cc) in enumerate(ops):
                # a ^ (~b & c) into a's register (AT&T: imm, c, b, a).
                e(f"vpternlogq $0xD2, {reg(cc)}, {reg(b)}, {reg(a)}")
                new[x + 5 * y] = a

        # Row y's θ/ρ is issued before row y−1's χ (software pipelining by
        # one row: about 2 % in a C harness of the same code).
        rows = [prep(0)]
        for y in range(1, 5):
            rows.append(prep(y))
            chi(y - 1, rows[y - 1])
        chi(4, rows[4])
        m = new
        e(f"vpxorq {8 * r}({{rc}}){{{{1to{{B}}}}}}, {reg(m[0])}, {reg(m[0])}")
    return out, m


def restore_moves(m, reg, tmp):
    """Moves that bring lane i back to register i (cycle by cycle, one
    temporary)."""
    out = []
    done = set()
    for start in range(25):
        if start in done or m[start] == start:
            done.add(start)
            continue
        out.append(f"vmovdqa64 {reg(start)}, {reg(tmp)}")
        r = start
        while True:
            done.add(r)
            s = m[r]                 # lane r lives in register s
            if s == start:
                out.append(f"vmovdqa64 {reg(tmp)}, {reg(r)}")
                break
            out.append(f"vmovdqa64 {reg(s)}, {reg(r)}")
            r = s
    return out


def body(kind):
    reg = lambda k: f"%{kind}{k}"
    lines, m = two_rounds(reg)
    lines += restore_moves(m, reg, 25)
    return lines


def round_loop(kind):
    """`body` run {n} times, two rounds a pass, the round constants at
    {rc} advancing 16 bytes a pass: every permutation and absorb loop's
    inner loop. Its start is aligned to a 64-byte line: where the linker
    happened to place it mid-line, the x8 absorb ran 11-20% slower on
    mapped files (bench/NOTES.md, "KT128 of one mapped 256 MiB file")."""
    return [".p2align 6", "2:"] + body(kind) + ["add $16, {rc}", "dec {n}", "jnz 2b"]


def rust_fn(kind, ty, name, bcast, feature):
    lines = round_loop(kind)
    asm = "\n".join(f'            "{l}",'.replace("{B}", str(bcast)) for l in lines)
    regs = "\n".join(f'            inout("{kind}{k}") a[{k}],' for k in range(25))
    clob = "\n".join(f'            out("{kind}{k}") _,' for k in range(25, 32))
    return f'''
/// Keccak-p[1600] with an even number of rounds (2..=24) on lanes held in
/// {kind} registers (see the module comment).
///
/// # Safety
/// The CPU must have {feature}; `rounds` must be even and in 2..=24.
#[target_feature(enable = "{feature}")]
pub(crate) unsafe fn {name}(a: &mut [{ty}; 25], rounds: usize) {{
    debug_assert!(rounds.is_multiple_of(2) && (2..=24).contains(&rounds));
    let mut rc = ROUND_CONSTANTS[24 - rounds..].as_ptr();
    let mut n = rounds / 2;
    // SAFETY: only registers named below are written; the only memory read
    // is ROUND_CONSTANTS[24 - rounds..24] through `rc` (8 bytes per round).
    unsafe {{
        core::arch::asm!(
{asm}
            rc = inout(reg) rc,
            n = inout(reg) n,
{regs}
{clob}
            options(att_syntax, nostack, readonly),
        );
    }}
    let _ = (rc, n);
}}
'''


def transpose_xor(words):
    """XOR words 0..words of eight blocks (pointers {p0}..{p7}) into the
    eight states in zmm0..zmm24: per chunk of up to eight words, an 8×8
    transpose of 64-bit words in zmm25..zmm29 only, the state staying put.
    Two passes per chunk (even words, then odd): VPUNPCK{L,H}QDQ of lane
    pairs (the second block of each pair as a memory operand), then two
    rounds of VSHUFI64X2 on 128-bit lanes. A partial last chunk loads
    through the mask in k1 (its word count), so no byte past the block is
    read."""
    out = []
    e = out.append
    z = lambda k: f"%zmm{k}"
    for w in range(0, words, 8):
        k = min(8, words - w)
        off = 8 * w
        for par, unpck in [(0, "vpunpcklqdq"), (1, "vpunpckhqdq")]:
            if par >= k:
                continue
            t = [25, 26, 27, 28]
            for q in range(4):
                a, b = f"{off}({{p{2 * q}}})", f"{off}({{p{2 * q + 1}}})"
                if k == 8:
                    e(f"vmovdqu64 {a}, {z(t[q])}")
                    e(f"{unpck} {b}, {z(t[q])}, {z(t[q])}")
                else:
                    e(f"vmovdqu64 {a}, {z(t[q])}{{{{%k1}}}}{{{{z}}}}")
                    e(f"vmovdqu64 {b}, %zmm29{{{{%k1}}}}{{{{z}}}}")
                    e(f"{unpck} %zmm29, {z(t[q])}, {z(t[q])}")
            # s0 = [T0.0, T0.2, T1.0, T1.2] (words par, par+4 of lanes 0..3),
            # s2 = [T0.1, T0.3, T1.1, T1.3] (words par+2, par+6); s1, s3 the
            # same for lanes 4..7. AT&T operand order: imm, src2, src1, dst.
            e("vshufi64x2 $0x88, %zmm26, %zmm25, %zmm29")   # s0
            e("vshufi64x2 $0xdd, %zmm26, %zmm25, %zmm25")   # s2
            e("vshufi64x2 $0x88, %zmm28, %zmm27, %zmm26")   # s1
            e("vshufi64x2 $0xdd, %zmm28, %zmm27, %zmm27")   # s3
            cols = [(par, "$0x88", 26, 29), (par + 4, "$0xdd", 26, 29),
                    (par + 2, "$0x88", 27, 25), (par + 6, "$0xdd", 27, 25)]
            for (c, imm, hi, lo), r in zip(cols, [30, 31, 28, 30]):
                if c >= k:
                    continue
                e(f"vshufi64x2 {imm}, {z(hi)}, {z(lo)}, {z(r)}")
                e(f"vpxorq {z(r)}, {z(w + c)}, {z(w + c)}")
    return out


def rust_absorb8_fn(words):
    """The ×8 sponge's absorb loop for a fixed rate of `words` words: XOR a
    block of each of eight messages into the eight states, permute, next
    blocks; the states stay in zmm0..zmm24 for the whole run."""
    rate = 8 * words
    k = words % 8
    asm_lines = []
    if k:
        asm_lines += [f"mov ${(1 << k) - 1}, {{n:e}}", "kmovw {n:e}, %k1"]
    asm_lines += ["3:"] + transpose_xor(words) + ["mov {half}, {n}"] + round_loop("zmm")
    asm_lines += ["mov {half}, {n}", "shl $4, {n}", "sub {n}, {rc}"]
    asm_lines += [f"add ${rate}, {{p{j}}}" for j in range(8)]
    asm_lines += ["dec {blocks}", "jnz 3b"]
    asm = "\n".join(f'            "{l}",'.replace("{B}", "8") for l in asm_lines)
    ptrs = "\n".join(f"            p{j} = inout(reg) p[{j}] => _," for j in range(8))
    regs = "\n".join(f'            inout("zmm{k}") a[{k}],' for k in range(25))
    clob = "\n".join(f'            out("zmm{k}") _,' for k in range(25, 32))
    return f"""
/// The ×8 absorb loop at rate {rate} bytes ({words} words): for each of
/// `blocks` blocks, XOR the next block of each of the eight messages at `p`
/// into its state (lane j of `a`; an 8×8 transpose in the spare
/// registers), then Keccak-p[1600] with `rounds` rounds. The states stay in
/// registers from the first block to the last (gen_asm.py, `transpose_xor`).
///
/// # Safety
/// The CPU must have avx512f; `rounds` must be even and in 2..=24;
/// `blocks >= 1` and each `p[j]` readable for `blocks * {rate}` bytes.
#[target_feature(enable = "avx512f")]
pub(crate) unsafe fn absorb_zmm_{words}(
    a: &mut [__m512i; 25],
    p: &[*const u8; 8],
    blocks: usize,
    rounds: usize,
) {{
    debug_assert!(rounds.is_multiple_of(2) && (2..=24).contains(&rounds) && blocks >= 1);
    let rc = ROUND_CONSTANTS[24 - rounds..].as_ptr();
    // SAFETY: only registers named below are written; memory read: the
    // blocks (caller's contract; a partial chunk is masked to the rate) and
    // ROUND_CONSTANTS[24 - rounds..24] through `rc`, rewound every block.
    unsafe {{
        core::arch::asm!(
{asm}
            rc = inout(reg) rc => _,
            n = out(reg) _,
            half = in(reg) rounds / 2,
            blocks = inout(reg) blocks => _,
{ptrs}
{regs}
{clob}
            out("k1") _,
            options(att_syntax, nostack, readonly),
        );
    }}
}}
"""


def generate():
    head = '''// Generated by gen_asm.py -- do not edit; run `python3 gen_asm.py`.
//! Keccak-p[1600] rounds in AVX-512 registers without spills (inline
//! assembly generated by gen_asm.py; the register plan is described there).
//! [`permute_zmm`]: eight states, one per 64-bit lane of a zmm register;
//! [`permute_ymm`]: four states in ymm registers (AVX-512VL);
//! [`permute_xmm`]: one or two states, one lane per xmm register (AVX-512VL);
//! [`absorb_xmm`]: the sponge's absorb loop on one state, two lanes per xmm
//! register (generated by gen_asm_pairs.py);
//! [`absorb_zmm_21`], [`absorb_zmm_17`]: the ×8 absorb loop at rates 168
//! and 136, the eight states in zmm registers from block to block.
//! All are checked against the golden model like every other permutation.

use core::arch::x86_64::{__m128i, __m256i, __m512i};

use crate::permutation::golden::ROUND_CONSTANTS;
'''
    return (head + rust_fn("zmm", "__m512i", "permute_zmm", 8, "avx512f")
            + rust_fn("ymm", "__m256i", "permute_ymm", 4, "avx512f,avx512vl")
            + rust_fn("xmm", "__m128i", "permute_xmm", 2, "avx512f,avx512vl")
            + rust_absorb_fn()
            + rust_absorb8_fn(21) + rust_absorb8_fn(17))


def main():
    path = Path(__file__).with_name("asm_avx512.rs")
    text = generate()
    if "--check" in sys.argv[1:]:
        if not path.exists() or path.read_text() != text:
            sys.exit(f"{path} is stale: run python3 {Path(__file__).name}")
        return
    path.write_text(text)


if __name__ == "__main__":
    main()
