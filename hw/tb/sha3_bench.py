"""cocotb testbench for the SHA-3 stream cores (hw/rtl/gen/sha3_<core>.v, the
KECCAK entries of hw/cores.py: their expected timing is the entry's cycles,
latency and msg_gap).

Golden model: Python's hashlib (SHA3-224/256/384/512, SHAKE128/256).
The streams are driven by streamio.StreamDriver, which watches the core's
block handshakes each clock, so cycle counts are exact.
"""

import hashlib
import os
import sys
from pathlib import Path

import cocotb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import cores  # noqa: E402
from streamio import StreamDriver, beats_of  # noqa: E402

# mode -> (hashlib name, rate in bytes, digest bytes or None for SHAKE)
MODES = {
    0: ("sha3_224", 144, 28),
    1: ("sha3_256", 136, 32),
    2: ("sha3_384", 104, 48),
    3: ("sha3_512", 72, 64),
    4: ("shake_128", 168, None),
    5: ("shake_256", 136, None),
}


def golden(mode, msg, outlen):
    name, _rate, dlen = MODES[mode if mode in MODES else 1]  # 6, 7: reserved, act as SHA3-256
    h = hashlib.new(name, msg)
    return h.digest(outlen) if dlen is None else h.digest()


class Bench(StreamDriver):
    """The Keccak top's streams: s_mode and s_outlen travel with each beat."""

    extra_inputs = ("s_mode", "s_outlen")

    def __init__(self, dut, seed, p_in=0.0, p_out=0.0):
        self.core = os.environ.get("SHA3_CORE", "basic")
        super().__init__(dut, seed, self.core, p_in, p_out)
        c = cores.get(self.core)
        # cycles per block, latency of one block, cycles between the last block
        # of one message and the first block of the next when back to back
        self.timing = dict(period=c.cycles, latency=c.latency, msg_gap=c.msg_gap)

    def add(self, mode, msg, outlen=0):
        beats = [(d, k, last, mode, outlen) for d, k, last in beats_of(msg, 8, self.rng)]
        self.queue(beats, f"mode {mode} len {len(msg)} outlen {outlen}",
                   golden(mode, msg, outlen))

    def out_valid(self):
        if self.core == "pipe":
            # two contexts; each one's held state shows every other cycle
            return self.wrap.g_core.u_core.hold.value.to_unsigned()
        return super().out_valid()


def edge_lengths(rate, rng):
    return [0, rate - 1, rate, rate + 1, 2 * rate, rng.randrange(1, 3 * rate)]


def shake_outlens(rate, rng):
    return [0, 1, 32, rate, rate + 1, 2 * rate + 5, rng.randrange(1, 3 * rate)]


@cocotb.test()
async def test_vectors_backpressure(dut):
    """All six functions, lengths around the rate, random valid/ready on both sides."""
    b = Bench(dut, seed=1, p_in=0.3, p_out=0.4)
    await b.start()
    rng = b.rng
    for mode, (_n, rate, dlen) in MODES.items():
        outs = shake_outlens(rate, rng)
        for i, n in enumerate(edge_lengths(rate, rng)):
            outlen = outs[i % len(outs)] if dlen is None else 0
            b.add(mode, bytes(rng.getrandbits(8) for _ in range(n)), outlen)
        if dlen is None:  # the remaining output lengths on short messages
            for o in outs[len(edge_lengths(rate, rng)):]:
                b.add(mode, bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 20))), o)
    total = len(b.expected)
    await b.run()
    assert b.done == total
    dut._log.info("%s: %d messages checked in %d cycles", b.core, total, b.cycle)


@cocotb.test()
async def test_random_mixed(dut):
    """Random functions, lengths and output lengths, back to back, light back-pressure."""
    b = Bench(dut, seed=2, p_in=0.1, p_out=0.1)
    await b.start()
    rng = b.rng
    count = 24
    for i in range(count):
        mode = rng.randrange(6) if i != 3 else 6 + i % 2  # one reserved mode value
        rate, dlen = MODES.get(mode, MODES[1])[1:]
        n = rng.randrange(0, 2 * rate + 3)
        outlen = rng.randrange(0, 2 * rate) if dlen is None else rng.randrange(0, 300)
        b.add(mode, bytes(rng.getrandbits(8) for _ in range(n)), outlen)
    await b.run()
    assert b.done == count


@cocotb.test()
async def test_reset_mid_message(dut):
    """Reset while a message is half absorbed and while a digest is half out."""
    b = Bench(dut, seed=3)
    await b.start()
    rng = b.rng
    b.add(1, bytes(rng.getrandbits(8) for _ in range(300)))
    for _ in range(10):  # ten beats in, mid-block
        await b.step()
    await b.reset(2)
    b.add(4, b"abc", 40)
    b.p_out = 0.9  # digest comes out slowly
    while not b.got:
        await b.step()
    await b.reset(2)
    b.p_out = 0.0
    b.add(1, b"")
    b.add(3, bytes(range(200)))
    b.add(5, b"x" * 136, 300)
    await b.run()
    assert b.done == 3


@cocotb.test()
async def test_cycle_counts(dut):
    """Cycles per block, latency, and back-to-back message throughput."""
    b = Bench(dut, seed=4)
    await b.start()
    t = b.timing
    rng = b.rng
    # one long SHA3-256 message: 6 blocks fed with no back-pressure
    b.add(1, bytes(rng.getrandbits(8) for _ in range(6 * 136 - 5)))
    await b.run()
    takes = [c for c, _f, _l in b.takes]
    assert len(takes) == 6, b.takes
    gaps = [y - x for x, y in zip(takes, takes[1:])]
    assert gaps == [t["period"]] * 5, f"cycles per block {gaps}, want {t['period']}"
    lat = b.out_rise[-1] - takes[-1]
    assert lat == t["latency"], f"latency {lat}, want {t['latency']}"
    dut._log.info("%s: %d cycles per block, latency %d", b.core, gaps[0], lat)

    # SHAKE128 with 21-beat blocks still keeps the core busy: 3 blocks + 2 squeezes
    b.takes.clear()
    b.add(4, bytes(rng.getrandbits(8) for _ in range(3 * 168 - 1)), 3 * 168)
    await b.run()
    takes = [c for c, _f, _l in b.takes]
    gaps = [y - x for x, y in zip(takes, takes[1:])]
    assert len(takes) == 5
    assert gaps[:2] == [t["period"]] * 2, f"SHAKE128 cycles per block {gaps}"

    # back-to-back single-block messages (100 bytes: 13 beats to load)
    b.takes.clear()
    b.out_rise.clear()
    n = 8
    for i in range(n):
        b.add(1, bytes(rng.getrandbits(8) for _ in range(100)))
    first = b.cycle
    await b.run()
    cycles = b.cycle - first
    takes = [c for c, _f, _l in b.takes]
    assert len(takes) == n
    if t["msg_gap"] is not None:
        gaps = [y - x for x, y in zip(takes, takes[1:])]
        assert gaps == [t["msg_gap"]] * (n - 1), f"message gaps {gaps}"
    else:
        # pipelined: two messages in flight, each context takes a block every 48 cycles
        gaps2 = [y - x for x, y in zip(takes, takes[2:])]
        assert gaps2[2:] == [2 * 24] * (n - 4), f"same-context gaps {gaps2}"
        overlap = [takes[i + 1] < b.out_rise[i] for i in range(n - 1)]
        assert all(overlap), f"takes {takes} outputs {b.out_rise}"
        lats = [o - s for s, o in zip(takes, b.out_rise)]
        assert lats == [48] * n, f"latencies {lats}"
    per_msg = (takes[-1] - takes[0]) / (n - 1)
    dut._log.info("%s: back-to-back 100-byte SHA3-256 messages: %.1f cycles/message "
                  "(%d messages in %d cycles)", b.core, per_msg, n, cycles)
