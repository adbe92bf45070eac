"""The registry of hardware cores: one entry per core, read by the synthesis
flow (hw/synth/run_synth.py), the document generators (hw/synth/make_doc.py,
hw/synth/make_study.py) and the generic cocotb bench (hw/tb/test_stream_cores.py).

Adding a core to the ASIC study is one `Core(...)` entry in STUDY below plus
its RTL, its Python model and (optionally) its KATs: see hw/README.md.
"""

from dataclasses import dataclass, field
from pathlib import Path

HW = Path(__file__).resolve().parent
RTL = HW / "rtl"

# The clock constraint of the ASIC flow: the delay target handed to ABC
# (`abc -D`) and the period of OpenSTA's clock. One value for every core
# (the study compares cores under the same flow); fmax is measured from the
# worst slack, so it does not depend on this value except through ABC's
# mapping, which maps for minimum delay when the target is out of reach.
DEFAULT_CLOCK_NS = 2.0

KECCAK_SOURCES = (
    "sha3_stream.v", "sha3_basic.v", "sha3_hs.v", "sha3_fold4.v", "sha3_pipe.v",
    "sha3_fold4ff.v", "keccak_core_basic.v", "keccak_core_hs.v", "keccak_core_fold4.v",
    "keccak_core_pipe.v", "keccak_core_fold4ff.v", "keccak_fold4_dp.v", "keccak_fold4ff_dp.v",
    "keccak_rc.v", "keccak_round.v", "keccak_rpci.v", "keccak_theta.v", "keccak_consts.vh",
)
STREAM_SOURCES = ("hash_stream.v",)
WRAPPER_FILES = {"hash_stream.v", "sha3_stream.v"}
# issue 27b: the AES pieces shared by ECHO, SHAvite-3 and Fugue
AES_SBOX_SOURCES = ("aes_sbox.v", "aes_consts.vh")
AES_ROUND_SOURCES = AES_SBOX_SOURCES + ("aes_mixcolumn.v", "aes_round.v")


@dataclass(frozen=True)
class Core:
    """One synthesisable core.

    name          results file hw/synth/results/<name>.json, test id
    label         what the tables call it
    algorithm     the function it computes (and which version)
    top           the wrapped module (byte stream in, digest out)
    bare          the core alone, block-wide ports (the paper's kind of module)
    sources       hw/rtl files the two modules need (includes too)
    block_bits    message bits per block (throughput = block_bits * f / cycles)
    cycles        cycles per block of a long message (asserted by the tests)
    params        Verilog parameters set on both modules (Yosys chparam)
    clock_ns      the flow's clock constraint (see DEFAULT_CLOCK_NS)
    fpga          also run the ECP5 / 7-series flow (docs/hardware.md)
    paper         the row of the 2009 paper's Table 1 this core answers
    version       "round 2" (what the paper built) or "final"
    model         "module:function" in hw/tb/models: bytes -> digest
    latency       cycles from taking the final block to out_valid
    msg_gap       cycles between the final block of a message and the first
                  block of the next one when they come back to back
    digest_bytes  digest length
    last_gap      cycles into the block that holds a message's last beat, where
                  the wrapper (which holds that beat a cycle and writes it with
                  the padding) is slower than the core; None: cycles
    notes         one line on the architecture, for the study document
    """
    name: str
    label: str
    algorithm: str
    top: str
    bare: str
    sources: tuple
    block_bits: int
    cycles: int
    params: dict = field(default_factory=dict)
    clock_ns: float = DEFAULT_CLOCK_NS
    fpga: bool = False
    paper: str = None
    version: str = "round 2"
    model: str = None
    latency: int = None
    msg_gap: int = None
    digest_bytes: int = 32
    notes: str = ""
    last_gap: int = None

    def paths(self):
        missing = [s for s in self.sources if not (RTL / s).exists()]
        if missing:
            raise FileNotFoundError(f"core {self.name}: no {', '.join(missing)} in hw/rtl")
        return [RTL / s for s in self.sources]

    def bare_paths(self):
        """The sources the bare core can depend on: all but the wrappers and the top."""
        return [p for p in self.paths() if p.name not in WRAPPER_FILES and p.stem != self.top]

    def verilog_files(self):
        """The Verilog files, sorted by name: ABC's mapping depends on the
        order Yosys reads them, so the order is fixed (and is the one the
        flow used before the registry, which read every file of hw/rtl)."""
        return sorted((p for p in self.paths() if p.suffix == ".v"), key=lambda p: p.name)


def _keccak(name, label, cycles, fpga_only_notes, paper=None):
    return Core(name=name, label=label, algorithm="SHA-3 / SHAKE (Keccak-f[1600])",
                top=f"sha3_{name}", bare=f"keccak_core_{name}", sources=KECCAK_SOURCES,
                block_bits=1088, cycles=cycles, fpga=True, paper=paper, version="final",
                notes=fpga_only_notes)


# The Keccak cores of docs/hardware.md (FPGA and ASIC flow). Their stream
# wrapper is sha3_stream.v (SHA-3/SHAKE padding, six functions); their bench
# is hw/tb/sha3_bench.py. Throughput figures use r = 1088 (Keccak-256).
KECCAK = [
    _keccak("basic", "basic (1 round/cycle)", 24, "block XORed in front of the round"),
    _keccak("hs", "high-speed (absorb + 1 round/cycle)", 25,
            "one absorb cycle, then one round per cycle (the paper's architecture)",
            paper="Keccak(-256)"),
    _keccak("fold4", "slice-wise folded, FF=4, state in LUT RAM", 96, "16 slices per cycle"),
    _keccak("pipe", "pipelined (register inside the round)", 48,
            "two messages in flight (48 cycles per message)"),
    _keccak("fold4ff", "slice-wise folded, FF=4, state in flip-flops", 96, "16 slices per cycle"),
]

# The cores of the 2009 ASIC study (docs/reproduction-asic-2009.md), each
# behind hash_stream.v. Appended to by the study work (see hw/README.md).
STUDY = [
    Core(name="sha256", label="SHA-256", algorithm="SHA-256 (FIPS 180-4)",
         top="sha256_stream", bare="sha256_core",
         sources=STREAM_SOURCES + ("sha256_stream.v", "sha256_core.v", "sha256_consts.vh"),
         block_bits=512, cycles=66, latency=66, msg_gap=66, paper="SHA-256", version="final",
         model="sha2:sha256",
         notes="one round per cycle, no unrolling, generic adders; load, 64 rounds, add"),
    Core(name="blake32", label="BLAKE-32", algorithm="BLAKE-32 (round two, 10 rounds)",
         top="blake_stream", bare="blake_core",
         sources=STREAM_SOURCES + ("blake_stream.v", "blake_core.v", "blake_consts.vh"),
         block_bits=512, cycles=22, latency=22, msg_gap=22, params={"ROUNDS": 10},
         paper="BLAKE-32", version="round 2", model="blake:blake32_r2",
         notes="four G functions in parallel (a column or diagonal step per cycle), the "
               "permutation table's output registered, finalisation one cycle later"),
    Core(name="blake256", label="BLAKE-256", algorithm="BLAKE-256 (final, 14 rounds)",
         top="blake_stream", bare="blake_core",
         sources=STREAM_SOURCES + ("blake_stream.v", "blake_core.v", "blake_consts.vh"),
         block_bits=512, cycles=30, latency=30, msg_gap=30, params={"ROUNDS": 14},
         paper="BLAKE-32", version="final", model="blake:blake256",
         notes="as blake32, 14 rounds"),
    Core(name="skein256_256_r2", label="Skein-256-256 v1.2",
         algorithm="Skein-256-256 (v1.2, round two)",
         top="skein_stream", bare="skein_core",
         sources=STREAM_SOURCES + ("skein_stream.v", "skein_core.v", "skein_consts.vh"),
         block_bits=256, cycles=10, latency=20, msg_gap=20, params={"NW": 4, "FINAL": 0},
         paper="Skein-256-256", version="round 2", model="skein:skein256_256_r2",
         notes="eight Threefish rounds unrolled (fixed rotations), two subkeys a cycle; "
               "the output transformation is a second UBI (10 cycles)"),
    Core(name="skein256_256", label="Skein-256-256",
         algorithm="Skein-256-256 (v1.3, final)",
         top="skein_stream", bare="skein_core",
         sources=STREAM_SOURCES + ("skein_stream.v", "skein_core.v", "skein_consts.vh"),
         block_bits=256, cycles=10, latency=20, msg_gap=20, params={"NW": 4, "FINAL": 1},
         paper="Skein-256-256", version="final", model="skein:skein256_256",
         notes="eight Threefish rounds unrolled (fixed rotations), two subkeys a cycle; "
               "the output transformation is a second UBI (10 cycles)"),
    Core(name="skein512_256_r2", label="Skein-512-256 v1.2",
         algorithm="Skein-512-256 (v1.2, round two)",
         top="skein_stream", bare="skein_core",
         sources=STREAM_SOURCES + ("skein_stream.v", "skein_core.v", "skein_consts.vh"),
         block_bits=512, cycles=10, latency=20, msg_gap=20, params={"NW": 8, "FINAL": 0},
         paper="Skein-512-512", version="round 2", model="skein:skein512_256_r2",
         notes="eight Threefish rounds unrolled (fixed rotations), two subkeys a cycle; "
               "the output transformation is a second UBI (10 cycles)"),
    Core(name="skein512_256", label="Skein-512-256",
         algorithm="Skein-512-256 (v1.3, final)",
         top="skein_stream", bare="skein_core",
         sources=STREAM_SOURCES + ("skein_stream.v", "skein_core.v", "skein_consts.vh"),
         block_bits=512, cycles=10, latency=20, msg_gap=20, params={"NW": 8, "FINAL": 1},
         paper="Skein-512-512", version="final", model="skein:skein512_256",
         notes="eight Threefish rounds unrolled (fixed rotations), two subkeys a cycle; "
               "the output transformation is a second UBI (10 cycles)"),
    Core(name="groestl256_r2", label="Grøstl-256 (round two)",
         algorithm="Grøstl-256 (round two)",
         top="groestl_stream", bare="groestl_core",
         sources=STREAM_SOURCES + ("groestl_stream.v", "groestl_core.v", "groestl_round.v", "groestl_consts.vh"),
         block_bits=512, cycles=22, latency=42, msg_gap=43, params={"TWEAK": 0},
         paper="Grøstl-256", version="round 2", model="groestl:groestl256_r2",
         notes="one round unit shared by P and Q, two pipeline stages (S-boxes | MixBytes), "
               "P and Q alternating; the output transformation P(h) ^ h through the same unit"),
    Core(name="groestl256", label="Grøstl-256",
         algorithm="Grøstl-256 (final, tweaked)",
         top="groestl_stream", bare="groestl_core",
         sources=STREAM_SOURCES + ("groestl_stream.v", "groestl_core.v", "groestl_round.v", "groestl_consts.vh"),
         block_bits=512, cycles=22, latency=42, msg_gap=43, params={"TWEAK": 1},
         paper="Grøstl-256", version="final", model="groestl:groestl256",
         notes="one round unit shared by P and Q, two pipeline stages (S-boxes | MixBytes), "
               "P and Q alternating; the output transformation P(h) ^ h through the same unit"),
    Core(name="jh256_r2", label="JH-256 (35.5 rounds)",
         algorithm="JH-256 (round two, 35.5 rounds)",
         top="jh_stream", bare="jh_core",
         sources=STREAM_SOURCES + ("jh_stream.v", "jh_core.v", "jh_round.v", "jh_consts.vh"),
         block_bits=512, cycles=37, latency=37, msg_gap=37, params={"ROUND3": 0},
         paper="JH-256", version="round 2", model="jh:jh256_r2",
         notes="one round R8 a cycle: 256 S-boxes on the grouped state, 64 for the next "
               "round constant (R6); message XORs as the block is taken and in the last cycle: "
               "1 + 35 + 1 = 37 cycles (the paper's schedule takes 39; it does not say how)"),
    Core(name="jh256", label="JH-256",
         algorithm="JH-256 (final, 42 rounds)",
         top="jh_stream", bare="jh_core",
         sources=STREAM_SOURCES + ("jh_stream.v", "jh_core.v", "jh_round.v", "jh_consts.vh"),
         block_bits=512, cycles=43, latency=43, msg_gap=43, params={"ROUND3": 1},
         paper="JH-256", version="final", model="jh:jh256",
         notes="one round R8 a cycle: 256 S-boxes on the grouped state, 64 for the next "
               "round constant (R6); message XORs as the block is taken and in the last cycle"),
    # --- issue 27c: Luffa-256, Shabal-256, SIMD-256 (round two) ---
    Core(name="luffa256", label="Luffa-256", algorithm="Luffa-256 (specification v2.0, round two)",
         top="luffa_stream", bare="luffa_core",
         sources=STREAM_SOURCES + ("luffa_stream.v", "luffa_core.v", "luffa_consts.vh"),
         block_bits=256, cycles=9, latency=18, msg_gap=18, paper="Luffa-224/256",
         model="luffa:luffa256",
         notes="message injection in its own cycle, then one step of Q0, Q1, Q2 in parallel "
               "per cycle (S-boxes as 4-bit tables); the step constants from a table into a "
               "register (the paper generates them on the fly, also registered); the final "
               "block is followed by the blank round in the core (9 more cycles)"),
    Core(name="shabal256", label="Shabal-256", algorithm="Shabal-256 (submission; no round-two tweak)",
         top="shabal_stream", bare="shabal_core",
         sources=STREAM_SOURCES + ("shabal_stream.v", "shabal_core.v", "shabal_consts.vh"),
         block_bits=512, cycles=50, latency=200, msg_gap=200, paper="Shabal-256",
         model="shabal:shabal256",
         notes="A, B, C, M as word shift registers, one step of P per cycle, generic adders; "
               "an adding cycle before P and a subtracting one after (50 cycles); the three "
               "final rounds in the core (150 more cycles); IV as a constant"),
    Core(name="simd256", label="SIMD-256", algorithm="SIMD-256 (v1.1, round two)",
         top="simd_stream", bare="simd_core",
         sources=STREAM_SOURCES + ("simd_stream.v", "simd_core.v", "simd_fft8.v",
                                   "simd_consts.vh"),
         block_bits=512, cycles=36, latency=88, msg_gap=72, paper="SIMD-256",
         model="simd:simd256",
         notes="expansion with 16 FFT-8 units and 16 mod-257 multipliers (14 cycles, "
               "overlapped with the previous block's compression), four Feistel ladders, "
               "one step per cycle (32 + 4 steps); the final length block in the core; "
               "round-two version (the paper built round one)"),
    # --- end issue 27c ---
]

# --- issue 27a: BMW-256, CubeHash16/32-256, Hamsi-256 (round two) ----------
STUDY += [
    Core(name="bmw256", label="BMW-256", algorithm="BMW-256 (Blue Midnight Wish, round two)",
         top="bmw_stream", bare="bmw_core",
         sources=STREAM_SOURCES + ("bmw_stream.v", "bmw_core.v", "bmw_compress.vh",
                                   "bmw_consts.vh"),
         block_bits=512, cycles=1, latency=2, msg_gap=2, last_gap=2, paper="BMW-256",
         model="bmw:bmw256",
         notes="the whole compression function (f0, f1, f2) combinational, generic adders (the "
               "sums written as plain additions; Yosys builds carry-save trees from the "
               "multi-operand ones); one cycle per block, one more for the final compression "
               "(the same block, inputs multiplexed)"),
    Core(name="cubehash256", label="CubeHash16/32-256", algorithm="CubeHash16/32-256 (round two)",
         top="cubehash_stream", bare="cubehash_core",
         sources=STREAM_SOURCES + ("cubehash_stream.v", "cubehash_core.v", "cubehash_round.vh",
                                   "cubehash_consts.vh"),
         block_bits=256, cycles=8, latency=88, msg_gap=88, paper="CubeHash16/32-h",
         model="cubehash:cubehash16_32_256",
         notes="two rounds unrolled, generic adders; the block XORed in on the way into the first "
               "two rounds; 80 cycles of final rounds. Differs: fixed r, b, h and the IV a "
               "constant (the paper's core took r, b, h at run time and ran the 10r initial "
               "rounds)"),
    Core(name="hamsi256", label="Hamsi-256", algorithm="Hamsi-256 (round two)",
         top="hamsi_stream", bare="hamsi_core",
         sources=STREAM_SOURCES + ("hamsi_stream.v", "hamsi_core.v", "hamsi_round.vh",
                                   "hamsi_consts.vh"),
         block_bits=32, cycles=1, latency=4, msg_gap=4, last_gap=2, paper="Hamsi-256",
         model="hamsi:hamsi256",
         notes="three P/Pf rounds in series, S-boxes as logic from the table; one cycle per "
               "32-bit block; the core adds the two length blocks (P, then Pf in two cycles)"),
]
# --- end issue 27a ----------------------------------------------------------
# --- issue 27b: ECHO-256, SHAvite-3-256, Fugue-256 (round two; the AES pieces
# aes_sbox.v / aes_mixcolumn.v / aes_round.v shared) ----------------------
STUDY += [
    Core(name="fugue256", label="Fugue-256", algorithm="Fugue-256 (round 2)",
         top="fugue_stream", bare="fugue_core",
         sources=STREAM_SOURCES + AES_SBOX_SOURCES + ("fugue_stream.v", "fugue_core.v",
                                                      "fugue_smix.v", "fugue_consts.vh"),
         block_bits=32, cycles=2, latency=42, msg_gap=42, paper="Fugue-256",
         model="fugue:fugue256",
         notes="one sub-round (ROR3, CMIX, SMIX) per cycle, TIX in the first, as in the "
               "paper; one SMIX with table S-boxes and the Super-Mix separate; 32-bit beats; "
               "length words and G1/G2 in the core (40 cycles); a message ending on a word "
               "gets a block of padding only from the wrapper (2 idle cycles)"),
    Core(name="echo256", label="ECHO-256", algorithm="ECHO-256 (round 2)",
         top="echo_stream", bare="echo_core",
         sources=STREAM_SOURCES + AES_ROUND_SOURCES + ("echo_stream.v", "echo_core.v"),
         block_bits=1536, cycles=97, latency=97, msg_gap=97, paper="ECHO-256",
         model="echo:echo256",
         notes="four AES rounds and 16 MixColumns units as in the paper, table S-boxes; "
               "the paper does not say how its four rounds are arranged: here one round on "
               "each word of a column per cycle (rows rotate through the units, 8 cycles per "
               "BIG.SubWords), MixColumns in place (4 cycles); BIG.Final in the take cycle; "
               "salt 0; counter and length field in the core"),
    Core(name="shavite3_256", label="SHAvite-3-256", algorithm="SHAvite-3-256 (round 2)",
         top="shavite3_stream", bare="shavite3_core",
         sources=STREAM_SOURCES + AES_ROUND_SOURCES + ("shavite3_stream.v", "shavite3_core.v",
                                                       "shavite3_consts.vh"),
         block_bits=512, cycles=37, latency=37, msg_gap=37, paper="SHAvite-3_256",
         model="shavite3:shavite3_256",
         notes="one AES round per cycle for E^256 and one for the message expansion (the "
               "paper's fastest variant), table S-boxes; load, 36 rounds; salt 0; counter and "
               "digest size in the core; the specification's byte order in the AES state "
               "(see tests/vectors/asic2009/README.md)"),
]
# --- end issue 27b ---------------------------------------------------------


CORES = {c.name: c for c in KECCAK + STUDY}


def get(name):
    try:
        return CORES[name]
    except KeyError:
        raise SystemExit(f"unknown core '{name}'; known: {', '.join(CORES)}") from None
