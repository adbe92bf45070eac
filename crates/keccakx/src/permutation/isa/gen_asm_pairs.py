"""The single-state absorb loop of asm_avx512.rs, with two lanes per xmm
register (imported by gen_asm.py, which writes the file).

Why (bench/NOTES.md, "Single state, seventh look"): one lane per register
spends 100 vector ops a round; pairing lanes brings it to 84. The first
order measured 1.03x the one-lane kernel on SHA3-256; SCHEDULE and the
paired block XOR ("eighth look") another 1.018x.

State between rounds, 15 registers (the "row-pair form"):
    A[x] = [(x,0), (x,1)],  B[x] = [(x,2), (x,3)],  S[x] = [(x,4), (x+3,4)]
(lane (x,y) = word x + 5y; S holds row 4 twice so that every register is a
pair whose partner sits at a fixed offset, which χ needs).

One round:
- θ's parities as pairs CP[a] = [C[a], C[a+3]]: V[x] = A[x] ^ B[x], then
  CP[a] = lo(V[a], V[a+3]) ^ hi(V[a], V[a+3]) ^ S[a] (two unpacks and one
  VPTERNLOGQ); RP[a] = rot(CP[a], 1).
- The lanes re-paired by source row y (VPUNPCK*QDQ / VSHUFPD):
  P1[y] = [(y,y), (y+3,y)], P2[y] = [(y+1,y), (y+4,y)],
  Q[y] = [(y+2,y), (y,y+3)]; row 4's pairs already are S[4] and S[0].
- θ's effect: [D[a], D[a+3]] = CP[a−1] ^ RP[a+1], so each pair takes one
  VPTERNLOGQ (D itself is never formed); ρ one VPROLVQ per pair.
- π is free: P1[y] lands on A's column y, P2[y] on B's, Q[y] on S's, so χ
  is 15 VPTERNLOGQ on whole pairs.
- ι is deferred into the next round (folded into V[0] and P1[0], off θ's
  chain); the pending constant is undone at load and applied at store.
- The output pairs go through θ's effect, ρ and χ in the order SCHEDULE,
  each χ as soon as its three inputs exist.
Registers are allocated by a linear scan over the generated ops; the loop
body is two rounds, then moves put the state back in registers 0..14.
A block is XORed in one op per register: its two words are loaded into one
xmm (VMOVQ, VPINSRQ) first.
"""

# ρ offsets (FIPS 202 Table 2, mod 64) of lane x + 5y.
RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
       41, 45, 15, 21, 8, 18, 2, 61, 56, 14]

STATE_REGS = ([("A", x) for x in range(5)] + [("B", x) for x in range(5)]
              + [("S", x) for x in range(5)])
UNROLL = 2

# The order of θ's effect, ρ and χ on the 15 output pairs (group, column)
# in each round of the loop body. Row 4's group S goes last: its χ outputs
# enter the next parities through one VPTERNLOGQ, A's and B's through three
# (S first or in the middle measured 0.92x). Within that, the order came
# from a hill climb on a pipeline model and was kept because it measured
# 1.0-1.5 % faster than B, A, S column by column (bench/NOTES.md, "eighth
# look"). One list per round of the loop body.
SCHEDULE = [
    [("B", 1), ("B", 2), ("B", 4), ("A", 0), ("A", 1), ("B", 0), ("A", 2), ("B", 3),
     ("A", 3), ("A", 4), ("S", 2), ("S", 0), ("S", 1), ("S", 3), ("S", 4)],
    [("B", 0), ("B", 1), ("B", 3), ("B", 4), ("A", 0), ("A", 1), ("B", 2), ("A", 4),
     ("A", 2), ("A", 3), ("S", 0), ("S", 1), ("S", 2), ("S", 3), ("S", 4)],
]
assert len(SCHEDULE) == UNROLL


def tern_imm(f):
    """VPTERNLOGQ's imm8 for f(a, b, c); a = dst/src1, b = src2, c = src3."""
    return sum(1 << i for i in range(8) if f((i >> 2) & 1, (i >> 1) & 1, i & 1))


XOR3 = tern_imm(lambda a, b, c: a ^ b ^ c)
CHI = tern_imm(lambda a, b, c: a ^ ((1 - b) & c))


def state_slots():
    """lane (x, y) -> [(register, slot)]; row 4 sits in two places."""
    slots = {}
    for x in range(5):
        slots[(x, 0)] = [(("A", x), 0)]
        slots[(x, 1)] = [(("A", x), 1)]
        slots[(x, 2)] = [(("B", x), 0)]
        slots[(x, 3)] = [(("B", x), 1)]
        slots[(x, 4)] = [(("S", x), 0), (("S", (x + 2) % 5), 1)]
    return slots


class Ops:
    """A list of ops on virtual registers: (kind, dst, srcs, extra)."""

    def __init__(self):
        self.ops = []
        self.count = 0

    def new(self):
        self.count += 1
        return f"v{self.count}"

    def op(self, kind, srcs, extra=None):
        d = self.new()
        self.ops.append((kind, d, srcs, extra))
        return d


def one_round(p, st, rc_offset):
    """Append one round to p; st maps STATE_REGS names to virtual
    registers; returns the map after the round (ι pending)."""
    A = [st[("A", x)] for x in range(5)]
    B = [st[("B", x)] for x in range(5)]
    S = [st[("S", x)] for x in range(5)]
    V = ([p.op("ternm", [A[0], B[0]], (XOR3, rc_offset))]
         + [p.op("xor", [A[x], B[x]]) for x in range(1, 5)])
    CP = []
    for a in range(5):
        lo = p.op("unpcklo", [V[a], V[(a + 3) % 5]])
        hi = p.op("unpckhi", [V[a], V[(a + 3) % 5]])
        CP.append(p.op("tern", [lo, hi, S[a]], XOR3))
    RP = [p.op("rol", [CP[a]], 1) for a in range(5)]

    def elem(x, y):
        x, y = x % 5, y % 5
        return {0: (A[x], 0), 1: (A[x], 1), 2: (B[x], 0), 3: (B[x], 1), 4: (S[x], 0)}[y]

    def pair(l0, l1):
        if l0[1] % 5 == 4 and l1[1] % 5 == 4 and (l1[0] - l0[0]) % 5 == 3:
            return S[l0[0] % 5]
        (r0, s0), (r1, s1) = elem(*l0), elem(*l1)
        if s0 == 0 and s1 == 0:
            return p.op("unpcklo", [r0, r1])
        if s0 == 1 and s1 == 1:
            return p.op("unpckhi", [r0, r1])
        return p.op("shufpd", [r0, r1], s0 | (s1 << 1))

    # Per output group and column y: (a for θ, or None for S's, and the
    # source pair's two lanes).
    spec = {
        "A": [(y, (y, y), (y + 3, y)) for y in range(5)],
        "B": [(y + 1, (y + 1, y), (y + 4, y)) for y in range(5)],
        "S": [(None, (y + 2, y), (y, y + 3)) for y in range(5)],
    }
    src = {}
    for name in "ABS":
        for y in range(5):
            r = pair(*spec[name][y][1:])
            if name == "A" and y == 0:
                r = p.op("iota", [r], rc_offset)
            src[(name, y)] = r

    def rho(r, l0, l1):
        c0 = RHO[l0[0] % 5 + 5 * (l0[1] % 5)]
        c1 = RHO[l1[0] % 5 + 5 * (l1[1] % 5)]
        if c0 == c1:
            return r if c0 == 0 else p.op("rol", [r], c0)
        return p.op("rolv", [r], (c0, c1))

    new, g = {}, {name: [None] * 5 for name in "ABS"}
    for name, y in SCHEDULE[rc_offset // 16]:
        a, l0, l1 = spec[name][y]
        if a is None:
            t = p.op("tern", [src[(name, y)], CP[(y + 1) % 5], RP[(y + 3) % 5]], XOR3)
        else:
            t = p.op("tern", [src[(name, y)], CP[(a - 1) % 5], RP[(a + 1) % 5]], XOR3)
        g[name][y] = rho(t, l0, l1)
        # χ of output X as soon as its three inputs exist
        for X in range(5):
            ins = [g[name][(X + k) % 5] for k in range(3)]
            if (name, X) not in new and None not in ins:
                new[(name, X)] = p.op("tern", ins, CHI)
    return new


def allocate(p, inputs, outputs):
    """Linear-scan allocation of p's ops to xmm0..31 with `inputs` in
    registers 0..14; returns (asm lines, output registers, ρ count pairs)."""
    last_use = {}
    for i, (_, _, srcs, _) in enumerate(p.ops):
        for s in srcs:
            last_use[s] = i
    for o in outputs:
        last_use[o] = len(p.ops)
    phys = {v: k for k, v in enumerate(inputs)}
    free = list(range(len(inputs), 32))
    lines, rho_pairs = [], []

    def R(v):
        return f"%xmm{phys[v]}"

    def release(i, srcs):
        for s in dict.fromkeys(srcs):
            if last_use.get(s) == i and s in phys:
                free.append(phys.pop(s))

    def dst_from(i, src):
        """A register for an op whose destination is also `src`: src's own
        register if it dies here, else a copy (an eliminated move)."""
        if last_use.get(src) == i:
            return phys.pop(src)
        reg = free.pop(0)
        lines.append(f"vmovdqa64 {R(src)}, %xmm{reg}")
        return reg

    for i, (kind, d, srcs, extra) in enumerate(p.ops):
        if kind == "ternm":
            a, b = srcs
            reg = dst_from(i, a)
            lines.append(f"vpternlogq ${extra[0]:#x}, {extra[1]}({{rc}}), {R(b)}, %xmm{reg}")
        elif kind == "tern":
            # Put a source that dies here first (it becomes the destination).
            dying = [j for j in range(3) if last_use.get(srcs[j]) == i and srcs.count(srcs[j]) == 1]
            perm = [dying[0]] + [j for j in range(3) if j != dying[0]] if dying else [0, 1, 2]
            sp = [srcs[j] for j in perm]

            def f(a, b, c, perm=perm, imm=extra):
                args = [0, 0, 0]
                for pos, orig in enumerate(perm):
                    args[orig] = (a, b, c)[pos]
                return (imm >> ((args[0] << 2) | (args[1] << 1) | args[2])) & 1

            reg = dst_from(i, sp[0])
            lines.append(f"vpternlogq ${tern_imm(f):#x}, {R(sp[2])}, {R(sp[1])}, %xmm{reg}")
        else:
            s = [R(v) for v in srcs]
            release(i, srcs)
            reg = free.pop(0)
            dst = f"%xmm{reg}"
            if kind == "xor":
                lines.append(f"vpxorq {s[1]}, {s[0]}, {dst}")
            elif kind == "unpcklo":
                lines.append(f"vpunpcklqdq {s[1]}, {s[0]}, {dst}")
            elif kind == "unpckhi":
                lines.append(f"vpunpckhqdq {s[1]}, {s[0]}, {dst}")
            elif kind == "shufpd":
                lines.append(f"vshufpd ${extra}, {s[1]}, {s[0]}, {dst}")
            elif kind == "rol":
                lines.append(f"vprolq ${extra}, {s[0]}, {dst}")
            elif kind == "rolv":
                if extra not in rho_pairs:
                    rho_pairs.append(extra)
                lines.append(f"vprolvq {16 * rho_pairs.index(extra)}({{rho}}), {s[0]}, {dst}")
            elif kind == "iota":
                lines.append(f"vpxorq {extra}({{rc}}), {s[0]}, {dst}")
            else:
                raise ValueError(kind)
            phys[d] = reg
            continue
        release(i, srcs)
        phys[d] = reg
    assert len(free) + len(phys) == 32
    return lines, [phys[o] for o in outputs], rho_pairs


def moves_home(at):
    """Moves that bring the value in register at[k] to register k."""
    lines = []
    pending = {k: r for k, r in enumerate(at) if r != k}
    spare = next(r for r in range(len(at), 32) if r not in at)
    while pending:
        sources = set(pending.values())
        ready = [k for k in pending if k not in sources]
        if ready:
            k = ready[0]
            lines.append(f"vmovdqa64 %xmm{pending.pop(k)}, %xmm{k}")
            continue
        k = next(iter(pending))   # a cycle: park register k's value
        lines.append(f"vmovdqa64 %xmm{k}, %xmm{spare}")
        for kk in pending:
            if pending[kk] == k:
                pending[kk] = spare
    return lines


def loop_body():
    p = Ops()
    inputs = {name: p.new() for name in STATE_REGS}
    st = inputs
    for r in range(UNROLL):
        st = one_round(p, st, 16 * r)
    lines, at, rho_pairs = allocate(p, [inputs[n] for n in STATE_REGS],
                                    [st[n] for n in STATE_REGS])
    return lines + moves_home(at), rho_pairs


def rust_absorb_fn():
    """The sponge's absorb loop for one state: XOR a block of 9..=21 words
    (rates 72..=168 bytes), permute, next block; the state is loaded into
    the row-pair form and stored back once per call."""
    lines, rho_pairs = loop_body()
    slots = state_slots()
    lanes_of = {}
    for lane, places in slots.items():
        for (name, slot) in places:
            lanes_of.setdefault(STATE_REGS.index(name), {})[slot] = lane[0] + 5 * lane[1]
    load = []
    for k in range(15):
        load += [f"vmovq {8 * lanes_of[k][0]}({{st}}), %xmm{k}",
                 f"vpinsrq $1, {8 * lanes_of[k][1]}({{st}}), %xmm{k}, %xmm{k}"]
    store = []
    for w in range(25):
        (name, slot) = slots[(w % 5, w // 5)][0]
        k = STATE_REGS.index(name)
        store.append(f"vmovq %xmm{k}, {8 * w}({{st}})" if slot == 0
                     else f"vpextrq $1, %xmm{k}, {8 * w}({{st}})")
    xor = []
    # Per register, its two words; pairs loaded as one xmm and XORed once
    # (one dependent op per register, not two), in order of the lower word
    # so that `words <= lower` ends the block.
    regs = sorted(range(15), key=lambda k: (min(lanes_of[k].values()), k))
    for k in regs:
        w0, w1 = lanes_of[k][0], lanes_of[k][1]
        lo_w = min(w0, w1)
        if lo_w >= 21:
            continue
        if lo_w >= 9:
            xor += [f"cmp ${lo_w}, {{w}}", "jbe 4f"]
        if w0 < w1:
            single = [f"vmovq {8 * w0}({{p}}), %xmm30", f"vpxorq %xmm30, %xmm{k}, %xmm{k}"]
        else:  # the high word only: k1 = 0b10
            single = [f"vpbroadcastq {8 * w1}({{p}}), %xmm30",
                      f"vpxorq %xmm30, %xmm{k}, %xmm{k}{{{{%k1}}}}"]
        both = [f"vmovq {8 * w0}({{p}}), %xmm30", f"vpinsrq $1, {8 * w1}({{p}}), %xmm30, %xmm30",
                f"vpxorq %xmm30, %xmm{k}, %xmm{k}"]
        hi_w = max(w0, w1)
        if hi_w < 9:
            xor += both
        elif hi_w >= 21:
            xor += single
        else:
            xor += [f"cmp ${hi_w}, {{w}}", "jbe 5f"] + both + ["jmp 6f", "5:"] + single + ["6:"]
    body = (["mov $2, {t:e}", "kmovw {t:e}, %k1"] + load
            # undo the ι that the first round applies as pending
            + ["vpxorq ({pend}), %xmm0, %xmm0", "3:"] + xor
            + ["4:", "mov {pend}, {rc}", "mov {iters}, {n}", "2:"] + lines
            + [f"add ${16 * UNROLL}, {{rc}}", "dec {n}", "jnz 2b",
               "add {stride}, {p}", "dec {nb}", "jnz 3b",
               "vpxorq ({pend}), %xmm0, %xmm0"]  # the last round's ι
            + store)
    asm = "\n".join(f'            "{line}",' for line in body)
    clob = "\n".join(f'            out("xmm{k}") _,' for k in range(32))
    pairs = "".join(f"\n    [{a}, {b}]," for a, b in rho_pairs)
    return f'''
/// 16-byte aligned pairs of words, read as xmm memory operands.
#[repr(C, align(16))]
struct Pairs<const N: usize>([[u64; 2]; N]);

/// ρ's rotation counts for the VPROLVQ of `absorb_xmm`, in the order used.
static RHO_PAIRS: Pairs<{len(rho_pairs)}> = Pairs([{pairs}
]);

/// `PENDING_IOTA[24 - rounds][k]`: the round constant still to be applied
/// when round k of Keccak-p[1600, rounds] starts (the previous round's, and
/// for k = 0 the last round's, RC[23], which the block loop carries over),
/// in the low word.
static PENDING_IOTA: [Pairs<24>; 25] = {{
    let mut t = [const {{ Pairs([[0u64; 2]; 24]) }}; 25];
    let mut s = 0;
    while s < 25 {{
        let mut k = 0;
        while s + k < 24 {{
            t[s].0[k][0] = if k == 0 {{
                ROUND_CONSTANTS[23]
            }} else {{
                ROUND_CONSTANTS[s + k - 1]
            }};
            k += 1;
        }}
        s += 1;
    }}
    t
}};

/// The sponge's absorb loop on one state, two lanes per xmm register (see
/// gen_asm_pairs.py): for each of `blocks` blocks of `words` 64-bit
/// little-endian words at `data`, XOR it into the state and apply
/// Keccak-p[1600, rounds].
///
/// # Safety
/// The CPU must have avx512f and avx512vl; `rounds` even in 2..=24;
/// `words` in 9..=21; `blocks` ≥ 1; `data` readable for
/// `blocks * words * 8` bytes.
#[target_feature(enable = "avx512f,avx512vl")]
pub(crate) unsafe fn absorb_xmm(
    state: &mut [u64; 25],
    data: *const u8,
    blocks: usize,
    words: usize,
    rounds: usize,
) {{
    debug_assert!(rounds.is_multiple_of({UNROLL}) && (2..=24).contains(&rounds));
    debug_assert!((9..=21).contains(&words) && blocks >= 1);
    let pend = PENDING_IOTA[24 - rounds].0.as_ptr();
    // SAFETY: reads `blocks * words * 8` bytes from `data` (caller), the
    // state's 25 words, RHO_PAIRS and PENDING_IOTA[24 - rounds][..rounds];
    // writes the state's 25 words and the registers named below.
    unsafe {{
        core::arch::asm!(
{asm}
            st = in(reg) state.as_mut_ptr(),
            p = inout(reg) data => _,
            nb = inout(reg) blocks => _,
            w = in(reg) words,
            stride = in(reg) words * 8,
            pend = in(reg) pend,
            iters = in(reg) rounds / {UNROLL},
            rho = in(reg) RHO_PAIRS.0.as_ptr(),
            rc = out(reg) _,
            n = out(reg) _,
            t = out(reg) _,
            out("k1") _,
{clob}
            options(att_syntax, nostack),
        );
    }}
}}
'''
