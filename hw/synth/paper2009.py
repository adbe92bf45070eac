"""The 2009 ASIC study's Table 1, quoted (not measured here).

Source: S. Tillich, M. Feldhofer, M. Kirschbaum, T. Plos, J.-M. Schmidt,
A. Szekely, "High-Speed Hardware Implementations of BLAKE, Blue Midnight
Wish, CubeHash, ECHO, Fugue, Grøstl, Hamsi, JH, Keccak, Luffa, Shabal,
SHAvite-3, SIMD, and Skein", version 2.0, November 11, 2009, Table 1
("Results for implementation with the UMC 0.18 µm FSA0A_C standard-cell
library"); shared/papers/004_364c507b64785c68.txt. Every row's Reference
column reads "Submitted". Area in gate equivalents (1 GE = one ND2 cell,
9.37 sqmils), clock frequency the maximum under typical conditions (25 °C),
TP the peak throughput (long messages) at that clock.
"""

from collections import namedtuple

Row = namedtuple("Row", "name block_bits cycles ge mhz gbps variant")

# name, block (bit), latency (cycles), area (GE), clock (MHz), TP (Gbit/s),
# and the implementation variant the paper's Section 19 lists for the row.
TABLE1 = [
    Row("BLAKE-32", 512, 22, 45640, 170.64, 3.971,
        "Four G functions in parallel, two pipeline registers, additional cycle for chaining, carry-save adders"),
    Row("BMW-256", 512, 1, 169737, 10.46, 5.358,
        "Whole compression function (f0, f1, f2) as a single combinational block, generic adders"),
    Row("CubeHash16/32-h", 256, 8, 58872, 145.77, 4.665,
        "Two CubeHash rounds unrolled, generic adders"),
    Row("ECHO-256", 1536, 97, 141489, 141.84, 2.246, "S-boxes as HW LUT"),
    Row("Fugue-256", 32, 2, 46257, 255.75, 4.092,
        "S-boxes and matrix multiplication separated, S-boxes as HW LUT"),
    Row("Grøstl-256", 512, 22, 58402, 270.27, 6.290,
        "Shared P/Q permutation, S-boxes and MixBytes separated, S-boxes following "
        "Wolkerstorfer et al.'s approach with one pipeline register"),
    Row("Hamsi-256", 32, 1, 58661, 173.91, 5.565,
        "Three P/Pf instances in series, S-boxes as HW LUT"),
    Row("JH-256", 512, 39, 58832, 380.22, 4.992,
        "320 S-boxes (one cycle per R8 round), combinational S-boxes"),
    Row("Keccak(-256)", 1088, 25, 56316, 487.80, 21.229, "One Keccak-f round per cycle"),
    Row("Luffa-224/256", 256, 9, 44972, 483.09, 13.741,
        "S-boxes and matrix multiplication separated, S-boxes as HW LUT, output of control FSM registered"),
    Row("Shabal-256", 512, 50, 54186, 320.51, 3.282,
        "One round of permutation P per cycle, generic adders"),
    Row("SHAvite-3_256", 512, 37, 57388, 227.79, 3.152,
        "One AES round for compression function and message expansion each"),
    Row("SIMD-256", 512, 36, 104166, 64.93, 0.924,
        "Message expansion with 16 parallel FFT-8 and 16 parallel modular multipliers, "
        "compression function with four parallel Feistel blocks (round-one specification)"),
    Row("Skein-256-256", 256, 10, 58611, 73.52, 1.882, "Eight Threefish rounds unrolled, generic adders"),
    Row("Skein-512-512", 512, 10, 102039, 48.87, 2.502, "Eight Threefish rounds unrolled, generic adders"),
    Row("SHA-256", 512, 66, 19144, 302.11, 2.344, "No unrolling or quasi-pipelining, generic adders"),
]

ROWS = {r.name: r for r in TABLE1}


def check():
    """The quoted throughputs agree with block * clock / cycles (to 0.1%, the
    paper's rounding): a guard against typing errors in this table."""
    for r in TABLE1:
        tp = r.block_bits * r.mhz / r.cycles / 1000
        assert abs(tp - r.gbps) <= 0.001 * r.gbps, (r.name, tp, r.gbps)


check()
