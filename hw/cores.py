"""The registry of hardware cores: one entry per core, read by the synthesis
flow (hw/synth/run_synth.py), the document generators (hw/synth/make_doc.py,
hw/synth/make_study.py), the top generator (hw/codegen/gen_tops.py), lint
(hw/lint.py) and the cocotb benches (hw/tb).

Adding a core to the ASIC study is one `Core(...)` entry in STUDY below (its
`wrapper` a `Stream`, from which hw/generate.py writes the top) plus its
RTL, its Python model and (optionally) its KATs: see hw/README.md.
"""

from dataclasses import dataclass, field
from pathlib import Path

HW = Path(__file__).resolve().parent
RTL = HW / "rtl"
GEN = RTL / "gen"  # generated files only (hw/generate.py writes them, --check checks them)

# The clock constraint of the ASIC flow: the delay target handed to ABC
# (`abc -D`) and the period of OpenSTA's clock. One value for every core
# (the study compares cores under the same flow); fmax is measured from the
# worst slack, so it does not depend on this value except through ABC's
# mapping, which maps for minimum delay when the target is out of reach.
DEFAULT_CLOCK_NS = 2.0

# Every core's files are named by file name alone: names are unique across
# hw/rtl's folders (rtl_files() checks), and the synthesis flow copies a
# core's files into one folder, so that what Yosys reads (file names included,
# which end up in cell names) does not depend on the folder layout.
KECCAK_SOURCES = (
    "sha3_stream.v", "sha3_basic.v", "sha3_hs.v", "sha3_fold4.v", "sha3_pipe.v",
    "sha3_fold4ff.v", "keccak_core_basic.v", "keccak_core_hs.v", "keccak_core_fold4.v",
    "keccak_core_pipe.v", "keccak_core_fold4ff.v", "keccak_fold4_dp.v", "keccak_fold4ff_dp.v",
    "keccak_rc.v", "keccak_round.v", "keccak_rpci.v", "keccak_theta.v", "keccak_consts.vh",
)
STREAM_SOURCES = ("hash_stream.v",)
WRAPPER_FILES = {"hash_stream.v", "sha3_stream.v"}
# the AES pieces shared by ECHO, SHAvite-3 and Fugue
AES_SBOX_SOURCES = ("aes_sbox.v", "aes_consts.vh")
AES_ROUND_SOURCES = AES_SBOX_SOURCES + ("aes_mixcolumn.v", "aes_round.v")


def rtl_files():
    """{file name: path} of every Verilog file under hw/rtl."""
    index = {}
    for p in sorted(RTL.rglob("*")):
        if p.suffix in (".v", ".vh"):
            if p.name in index:
                raise SystemExit(f"two RTL files named {p.name}: {index[p.name]} and {p}")
            index[p.name] = p
    return index


@dataclass(frozen=True)
class Stream:
    """A study core behind the generic byte-stream wrapper hash_stream.v: the
    top module hw/rtl/gen/<module>.v that hw/codegen/gen_tops.py writes from
    these fields. Registry rows of one algorithm share one (their `params`
    pick the version). The hash_stream parameters are documented in
    hash_stream.v and docs/hardware-study-interface.md."""
    module: str                 # the top's module name
    core: str                   # the bare core's module name
    doc: str                    # the top's header comment
    block_bytes: object = 64    # an int, or a Verilog expression of `params`
    block_msb: str = None       # with an expression: in_block's most significant bit
    beat_bytes: int = 8
    digest_bytes: int = 32
    pad_byte: int = 0x80        # None: no pad byte (PAD_EN 0)
    len_bytes: int = 0
    len_le: bool = False
    len_blocks: bool = False
    len_own_block: bool = False
    len_or_byte: int = 0
    block_per_cycle: bool = False
    out_beat_bytes: int = None  # None: the input beat width
    params: tuple = ()          # ((name, default), ...): the top's parameters, passed to the core

    @property
    def files(self):
        return STREAM_SOURCES + (f"{self.module}.v",)


@dataclass(frozen=True)
class Sha3Top:
    """A Keccak core behind sha3_stream.v: the top hw/rtl/gen/sha3_<name>.v
    (sha3_stream with CORE=index), written by hw/codegen/gen_tops.py."""
    name: str
    index: int                  # sha3_stream's CORE parameter
    summary: str                # for the top's header comment

    @property
    def module(self):
        return f"sha3_{self.name}"

    @property
    def core(self):
        return f"keccak_core_{self.name}"

    @property
    def files(self):
        return ()  # KECCAK_SOURCES names every Keccak file


@dataclass(frozen=True)
class Core:
    """One synthesisable core.

    name          results file hw/synth/results/<name>.json, test id
    label         what the tables call it
    algorithm     the function it computes (and which version)
    wrapper       its top: a Stream (study cores) or a Sha3Top (Keccak cores);
                  `top` (the wrapped module: byte stream in, digest out) and
                  `bare` (the core alone, block-wide ports: the paper's kind
                  of module) are its module names
    sources       the core's hw/rtl files by name (includes too); the
                  wrapper's files are added (paths())
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
    wrapper: object
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

    @property
    def top(self):
        return self.wrapper.module

    @property
    def bare(self):
        return self.wrapper.core

    def paths(self):
        index = rtl_files()
        names = self.wrapper.files + self.sources
        missing = [s for s in names if s not in index]
        if missing:
            raise FileNotFoundError(f"core {self.name}: no {', '.join(missing)} in hw/rtl")
        return [index[s] for s in names]

    def bare_paths(self):
        """The sources the bare core can depend on: all but the wrappers and the top."""
        return [p for p in self.paths() if p.name not in WRAPPER_FILES and p.stem != self.top]

    def verilog_files(self):
        """The Verilog files, sorted by name: ABC's mapping depends on the
        order Yosys reads them, so the order is fixed (and is the one the
        flow used before the registry, which read every file of hw/rtl)."""
        return sorted((p for p in self.paths() if p.suffix == ".v"), key=lambda p: p.name)

    def include_dirs(self):
        """The folders of the core's files (for `include` lines)."""
        return sorted({p.parent for p in self.paths()})


def _keccak(name, index, summary, label, timing, notes, paper=None):
    cycles, latency, msg_gap = timing
    return Core(name=name, label=label, algorithm="SHA-3 / SHAKE (Keccak-f[1600])",
                wrapper=Sha3Top(name, index, summary), sources=KECCAK_SOURCES,
                block_bits=1088, cycles=cycles, latency=latency, msg_gap=msg_gap, fpga=True,
                paper=paper, version="final", notes=notes)


# The Keccak cores of docs/hardware.md (FPGA and ASIC flow). Their stream
# wrapper is sha3_stream.v (SHA-3/SHAKE padding, six functions); their bench
# is hw/tb/sha3_bench.py. Throughput figures use r = 1088 (Keccak-256).
# Timing: (cycles, latency, msg_gap); the pipelined core has no msg_gap (two
# messages in flight: its bench checks the overlap instead).
KECCAK = [
    _keccak("basic", 0, "basic (24 cycles/block)", "basic (1 round/cycle)", (24, 24, 24),
            "block XORed in front of the round"),
    _keccak("hs", 1, "high-speed (25 cycles/block)", "high-speed (absorb + 1 round/cycle)",
            (25, 25, 25),
            "one absorb cycle, then one round per cycle (the paper's architecture)",
            paper="Keccak(-256)"),
    _keccak("fold4", 2, "slice-wise folded FF=4 (96 cycles/block)",
            "slice-wise folded, FF=4, state in LUT RAM", (96, 97, 96), "16 slices per cycle"),
    _keccak("pipe", 3, "pipelined (48 cycles latency, 2 messages in flight)",
            "pipelined (register inside the round)", (48, 48, None),
            "two messages in flight (48 cycles per message)"),
    _keccak("fold4ff", 4, "slice-wise folded FF=4, state in flip-flops (96 cycles/block)",
            "slice-wise folded, FF=4, state in flip-flops", (96, 96, 97), "16 slices per cycle"),
]

# ------------------------------------------------------------------ the tops
# of the study cores: one Stream per algorithm (hash_stream's padding
# parameters, the table of docs/hardware-study-interface.md).

SHA256_STREAM = Stream(
    "sha256_stream", "sha256_core", len_bytes=8, doc="""\
SHA-256 behind the generic byte-stream wrapper (hash_stream.v): 64-bit
beats in, 32-byte digest out; padding 0x80, zeros, 64-bit big-endian bit
length. Ports: see hash_stream.v and docs/hardware-study-interface.md.""")

BLAKE_STREAM = Stream(
    "blake_stream", "blake_core", len_bytes=8, len_or_byte=0x01, params=(("ROUNDS", 10),),
    doc="""\
BLAKE-32 (ROUNDS=10, round two) or BLAKE-256 (ROUNDS=14, final) behind
the generic byte-stream wrapper: padding 0x80, zeros, a 1 bit before the
64-bit big-endian bit length (the byte before the length ORed with 0x01).
Ports: see hash_stream.v and docs/hardware-study-interface.md.""")

SKEIN_STREAM = Stream(
    "skein_stream", "skein_core", block_bytes="8 * NW", block_msb="64*NW-1", pad_byte=None,
    params=(("NW", 8), ("FINAL", 0)), doc="""\
Skein-256-256 (NW=4) or Skein-512-256 (NW=8), v1.2 (FINAL=0, round two) or
v1.3 (FINAL=1), behind the generic byte-stream wrapper: no pad byte, no
length field, the message zero-filled to the block (at least one block).
Ports: see hash_stream.v and docs/hardware-study-interface.md.""")

GROESTL_STREAM = Stream(
    "groestl_stream", "groestl_core", len_bytes=8, len_blocks=True, params=(("TWEAK", 0),),
    doc="""\
Grøstl-256, round two (TWEAK=0) or final (TWEAK=1), behind the generic
byte-stream wrapper: padding 0x80, zeros, the number of blocks (padding
included) as a 64-bit big-endian field.
Ports: see hash_stream.v and docs/hardware-study-interface.md.""")

JH_STREAM = Stream(
    "jh_stream", "jh_core", len_bytes=16, len_own_block=True, params=(("ROUND3", 0),),
    doc="""\
JH-256, round two (ROUND3=0, 35.5 rounds) or final (ROUND3=1, 42 rounds),
behind the generic byte-stream wrapper: padding 0x80, zeros, the 128-bit
big-endian bit length, in a block of its own (at least 512 bits of padding).
Ports: see hash_stream.v and docs/hardware-study-interface.md.""")


def _skein(nw, final):
    """Skein-256-256 (nw=4) or Skein-512-256 (nw=8), v1.2 (final=0) or v1.3."""
    bits = 64 * nw
    return Core(
        name=f"skein{bits}_256{'' if final else '_r2'}",
        label=f"Skein-{bits}-256{'' if final else ' v1.2'}",
        algorithm=f"Skein-{bits}-256 ({'v1.3, final' if final else 'v1.2, round two'})",
        wrapper=SKEIN_STREAM, sources=("skein_core.v", "skein_consts.vh"),
        block_bits=bits, cycles=10, latency=20, msg_gap=20, params={"NW": nw, "FINAL": final},
        paper="Skein-256-256" if nw == 4 else "Skein-512-512",
        version="final" if final else "round 2",
        model=f"skein:skein{bits}_256{'' if final else '_r2'}",
        notes="eight Threefish rounds unrolled (fixed rotations), two subkeys a cycle; "
              "the output transformation is a second UBI (10 cycles)")


# The cores of the 2009 ASIC study (docs/reproduction-asic-2009.md), each
# behind hash_stream.v (see hw/README.md to add one).
STUDY = [
    Core(name="sha256", label="SHA-256", algorithm="SHA-256 (FIPS 180-4)",
         wrapper=SHA256_STREAM, sources=("sha256_core.v", "sha256_consts.vh"),
         block_bits=512, cycles=66, latency=66, msg_gap=66, paper="SHA-256", version="final",
         model="sha2:sha256",
         notes="one round per cycle, no unrolling, generic adders; load, 64 rounds, add"),
    Core(name="blake32", label="BLAKE-32", algorithm="BLAKE-32 (round two, 10 rounds)",
         wrapper=BLAKE_STREAM, sources=("blake_core.v", "blake_consts.vh"),
         block_bits=512, cycles=22, latency=22, msg_gap=22, params={"ROUNDS": 10},
         paper="BLAKE-32", version="round 2", model="blake:blake32_r2",
         notes="four G functions in parallel (a column or diagonal step per cycle), the "
               "permutation table's output registered, finalisation one cycle later"),
    Core(name="blake256", label="BLAKE-256", algorithm="BLAKE-256 (final, 14 rounds)",
         wrapper=BLAKE_STREAM, sources=("blake_core.v", "blake_consts.vh"),
         block_bits=512, cycles=30, latency=30, msg_gap=30, params={"ROUNDS": 14},
         paper="BLAKE-32", version="final", model="blake:blake256",
         notes="as blake32, 14 rounds"),
    _skein(4, 0),
    _skein(4, 1),
    _skein(8, 0),
    _skein(8, 1),
    Core(name="groestl256_r2", label="Grøstl-256 (round two)",
         algorithm="Grøstl-256 (round two)",
         wrapper=GROESTL_STREAM,
         sources=("groestl_core.v", "groestl_round.v", "groestl_consts.vh"),
         block_bits=512, cycles=22, latency=42, msg_gap=43, params={"TWEAK": 0},
         paper="Grøstl-256", version="round 2", model="groestl:groestl256_r2",
         notes="one round unit shared by P and Q, two pipeline stages (S-boxes | MixBytes), "
               "P and Q alternating; the output transformation P(h) ^ h through the same unit"),
    Core(name="groestl256", label="Grøstl-256",
         algorithm="Grøstl-256 (final, tweaked)",
         wrapper=GROESTL_STREAM,
         sources=("groestl_core.v", "groestl_round.v", "groestl_consts.vh"),
         block_bits=512, cycles=22, latency=42, msg_gap=43, params={"TWEAK": 1},
         paper="Grøstl-256", version="final", model="groestl:groestl256",
         notes="one round unit shared by P and Q, two pipeline stages (S-boxes | MixBytes), "
               "P and Q alternating; the output transformation P(h) ^ h through the same unit"),
    Core(name="jh256_r2", label="JH-256 (35.5 rounds)",
         algorithm="JH-256 (round two, 35.5 rounds)",
         wrapper=JH_STREAM, sources=("jh_core.v", "jh_round.v", "jh_consts.vh"),
         block_bits=512, cycles=37, latency=37, msg_gap=37, params={"ROUND3": 0},
         paper="JH-256", version="round 2", model="jh:jh256_r2",
         notes="one round R8 a cycle: 256 S-boxes on the grouped state, 64 for the next "
               "round constant (R6); message XORs as the block is taken and in the last cycle: "
               "1 + 35 + 1 = 37 cycles (the paper's schedule takes 39; it does not say how)"),
    Core(name="jh256", label="JH-256",
         algorithm="JH-256 (final, 42 rounds)",
         wrapper=JH_STREAM, sources=("jh_core.v", "jh_round.v", "jh_consts.vh"),
         block_bits=512, cycles=43, latency=43, msg_gap=43, params={"ROUND3": 1},
         paper="JH-256", version="final", model="jh:jh256",
         notes="one round R8 a cycle: 256 S-boxes on the grouped state, 64 for the next "
               "round constant (R6); message XORs as the block is taken and in the last cycle"),
    Core(name="luffa256", label="Luffa-256", algorithm="Luffa-256 (specification v2.0, round two)",
         wrapper=Stream("luffa_stream", "luffa_core", block_bytes=32, doc="""\
Luffa-256 (round two) behind the generic byte-stream wrapper (hash_stream.v):
64-bit beats in, 32-byte digest out; 256-bit blocks, padding 0x80 and zeros
to a block boundary (no length field; the core adds the blank round).
Ports: see hash_stream.v and docs/hardware-study-interface.md."""),
         sources=("luffa_core.v", "luffa_consts.vh"),
         block_bits=256, cycles=9, latency=18, msg_gap=18, paper="Luffa-224/256",
         model="luffa:luffa256",
         notes="message injection in its own cycle, then one step of Q0, Q1, Q2 in parallel "
               "per cycle (S-boxes as 4-bit tables); the step constants from a table into a "
               "register (the paper generates them on the fly, also registered); the final "
               "block is followed by the blank round in the core (9 more cycles)"),
    Core(name="shabal256", label="Shabal-256", algorithm="Shabal-256 (submission; no round-two tweak)",
         wrapper=Stream("shabal_stream", "shabal_core", doc="""\
Shabal-256 behind the generic byte-stream wrapper (hash_stream.v): 64-bit
beats in, 32-byte digest out; 512-bit blocks, padding 0x80 and zeros to a
block boundary (no length field; the core adds the three final rounds).
Ports: see hash_stream.v and docs/hardware-study-interface.md."""),
         sources=("shabal_core.v", "shabal_consts.vh"),
         block_bits=512, cycles=50, latency=200, msg_gap=200, paper="Shabal-256",
         model="shabal:shabal256",
         notes="A, B, C, M as word shift registers, one step of P per cycle, generic adders; "
               "an adding cycle before P and a subtracting one after (50 cycles); the three "
               "final rounds in the core (150 more cycles); IV as a constant"),
    Core(name="simd256", label="SIMD-256", algorithm="SIMD-256 (v1.1, round two)",
         wrapper=Stream("simd_stream", "simd_core", pad_byte=None, doc="""\
SIMD-256 (v1.1, round two) behind the generic byte-stream wrapper
(hash_stream.v): 64-bit beats in, 32-byte digest out; 512-bit blocks, the
message zero-filled to a block boundary (no pad byte, no length field: the
core adds SIMD's final block, the bit length with its own expansion).
Ports: see hash_stream.v and docs/hardware-study-interface.md."""),
         sources=("simd_core.v", "simd_fft8.v", "simd_consts.vh"),
         block_bits=512, cycles=36, latency=88, msg_gap=72, paper="SIMD-256",
         model="simd:simd256",
         notes="expansion with 16 FFT-8 units and 16 mod-257 multipliers (14 cycles, "
               "overlapped with the previous block's compression), four Feistel ladders, "
               "one step per cycle (32 + 4 steps); the final length block in the core; "
               "round-two version (the paper built round one)"),
    Core(name="bmw256", label="BMW-256", algorithm="BMW-256 (Blue Midnight Wish, round two)",
         wrapper=Stream("bmw_stream", "bmw_core", beat_bytes=64, len_bytes=8, len_le=True,
                        block_per_cycle=True, out_beat_bytes=32, doc="""\
BMW-256 behind the generic byte-stream wrapper (hash_stream.v):
512-bit beats in (one 64-byte block per beat, a block a cycle), 32-byte
digest out in one beat; padding 0x80, zeros, 64-bit little-endian bit
length. Ports: see hash_stream.v and
docs/hardware-study-interface.md."""),
         sources=("bmw_core.v", "bmw_compress.vh", "bmw_consts.vh"),
         block_bits=512, cycles=1, latency=2, msg_gap=2, last_gap=2, paper="BMW-256",
         model="bmw:bmw256",
         notes="the whole compression function (f0, f1, f2) combinational, generic adders (the "
               "sums written as plain additions; Yosys builds carry-save trees from the "
               "multi-operand ones); one cycle per block, one more for the final compression "
               "(the same block, inputs multiplexed)"),
    Core(name="cubehash256", label="CubeHash16/32-256", algorithm="CubeHash16/32-256 (round two)",
         wrapper=Stream("cubehash_stream", "cubehash_core", block_bytes=32, doc="""\
CubeHash16/32-256 behind the generic byte-stream wrapper (hash_stream.v):
64-bit beats in, 32-byte digest out; padding 0x80 then zeros to the
32-byte block, no length field. Ports: see hash_stream.v and
docs/hardware-study-interface.md."""),
         sources=("cubehash_core.v", "cubehash_round.vh", "cubehash_consts.vh"),
         block_bits=256, cycles=8, latency=88, msg_gap=88, paper="CubeHash16/32-h",
         model="cubehash:cubehash16_32_256",
         notes="two rounds unrolled, generic adders; the block XORed in on the way into the first "
               "two rounds; 80 cycles of final rounds. Differs: fixed r, b, h and the IV a "
               "constant (the paper's core took r, b, h at run time and ran the 10r initial "
               "rounds)"),
    Core(name="hamsi256", label="Hamsi-256", algorithm="Hamsi-256 (round two)",
         wrapper=Stream("hamsi_stream", "hamsi_core", block_bytes=4, beat_bytes=4,
                        block_per_cycle=True, out_beat_bytes=32, doc="""\
Hamsi-256 behind the generic byte-stream wrapper (hash_stream.v):
32-bit beats in (one 4-byte block per beat, a block a cycle), the 32-byte
digest out in one beat (so that short messages back to back are not held
up by the output); the wrapper pads 0x80 then zeros to the 4-byte block,
the core adds the two blocks of the 64-bit length. Ports: see hash_stream.v and
docs/hardware-study-interface.md."""),
         sources=("hamsi_core.v", "hamsi_round.vh", "hamsi_consts.vh"),
         block_bits=32, cycles=1, latency=4, msg_gap=4, last_gap=2, paper="Hamsi-256",
         model="hamsi:hamsi256",
         notes="three P/Pf rounds in series, S-boxes as logic from the table; one cycle per "
               "32-bit block; the core adds the two length blocks (P, then Pf in two cycles)"),
    Core(name="fugue256", label="Fugue-256", algorithm="Fugue-256 (round 2)",
         wrapper=Stream("fugue_stream", "fugue_core", block_bytes=4, beat_bytes=4, pad_byte=0x00,
                        block_per_cycle=True, doc="""\
Fugue-256 behind the generic byte-stream wrapper (hash_stream.v): 32-bit
beats in (one 4-byte block per beat), 32-byte digest out. The wrapper
zero-fills the last word (pad byte 0x00, no length field); the core adds
the length words and the final rounds (fugue_core.v). BLOCK_PER_CYCLE: a
beat may enter in the cycle the core takes the block before, so the
wrapper's one-cycle hold of a message's last beat costs no cycle (every
block of a message is 2 cycles after the one before)."""),
         sources=AES_SBOX_SOURCES + ("fugue_core.v", "fugue_smix.v", "fugue_consts.vh"),
         block_bits=32, cycles=2, latency=42, msg_gap=42, paper="Fugue-256",
         model="fugue:fugue256",
         notes="one sub-round (ROR3, CMIX, SMIX) per cycle, TIX in the first, as in the "
               "paper; one SMIX with table S-boxes and the Super-Mix separate; 32-bit beats; "
               "length words and G1/G2 in the core (40 cycles); a message ending on a word "
               "gets a block of padding only from the wrapper (2 idle cycles)"),
    Core(name="echo256", label="ECHO-256", algorithm="ECHO-256 (round 2)",
         wrapper=Stream("echo_stream", "echo_core", block_bytes=192, len_bytes=18, len_le=True,
                        doc="""\
ECHO-256 behind the generic byte-stream wrapper (hash_stream.v): 64-bit
beats in, 32-byte digest out; padding 0x80, zeros, and 18 bytes at the end
of the final block that the core fills in (digest size, bit length:
echo_core.v), as it does the counter."""),
         sources=AES_ROUND_SOURCES + ("echo_core.v",),
         block_bits=1536, cycles=97, latency=97, msg_gap=97, paper="ECHO-256",
         model="echo:echo256",
         notes="four AES rounds and 16 MixColumns units as in the paper, table S-boxes; "
               "the paper does not say how its four rounds are arranged: here one round on "
               "each word of a column per cycle (rows rotate through the units, 8 cycles per "
               "BIG.SubWords), MixColumns in place (4 cycles); BIG.Final in the take cycle; "
               "salt 0; counter and length field in the core"),
    Core(name="shavite3_256", label="SHAvite-3-256", algorithm="SHAvite-3-256 (round 2)",
         wrapper=Stream("shavite3_stream", "shavite3_core", len_bytes=10, len_le=True, doc="""\
SHAvite-3-256 behind the generic byte-stream wrapper (hash_stream.v): 64-bit
beats in, 32-byte digest out; padding 0x80, zeros, the 64-bit bit length
(little-endian) and two bytes for the digest size, which the core fills
in (shavite3_core.v), as it does the HAIFA bit counter."""),
         sources=AES_ROUND_SOURCES + ("shavite3_core.v", "shavite3_consts.vh"),
         block_bits=512, cycles=37, latency=37, msg_gap=37, paper="SHAvite-3_256",
         model="shavite3:shavite3_256",
         notes="one AES round per cycle for E^256 and one for the message expansion (the "
               "paper's fastest variant), table S-boxes; load, 36 rounds; salt 0; counter and "
               "digest size in the core; the specification's byte order in the AES state "
               "(see tests/vectors/asic2009/README.md)"),
]


CORES = {c.name: c for c in KECCAK + STUDY}


def get(name):
    try:
        return CORES[name]
    except KeyError:
        raise SystemExit(f"unknown core '{name}'; known: {', '.join(CORES)}") from None
