"""cocotb testbench for the SHA-3 stream cores (hw/rtl/sha3_<core>.v).

Golden model: Python's hashlib (SHA3-224/256/384/512, SHAKE128/256).
One coroutine drives both streams and watches the core's block handshakes
each clock, so cycle counts are exact.
"""

import hashlib
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly

# mode -> (hashlib name, rate in bytes, digest bytes or None for SHAKE)
MODES = {
    0: ("sha3_224", 144, 28),
    1: ("sha3_256", 136, 32),
    2: ("sha3_384", 104, 48),
    3: ("sha3_512", 72, 64),
    4: ("shake_128", 168, None),
    5: ("shake_256", 136, None),
}

# core -> (cycles per block, latency of one block, cycles between the last
# block of one message and the first block of the next when back to back)
CORE_TIMING = {
    "basic": dict(period=24, latency=24, msg_gap=24),
    "hs": dict(period=25, latency=25, msg_gap=25),
    "fold4": dict(period=96, latency=97, msg_gap=96),
    "fold4ff": dict(period=96, latency=96, msg_gap=97),
    "pipe": dict(period=48, latency=48, msg_gap=None),
}


def golden(mode, msg, outlen):
    name, _rate, dlen = MODES[mode if mode in MODES else 1]  # 6, 7: reserved, act as SHA3-256
    h = hashlib.new(name, msg)
    return h.digest(outlen) if dlen is None else h.digest()


def beats_of(mode, msg, outlen, rng=None):
    """Split a message into 64-bit beats (data, keep, last, mode, outlen)."""
    beats = []
    n = len(msg)
    full = n // 8
    for i in range(full):
        chunk = msg[8 * i: 8 * i + 8]
        beats.append([int.from_bytes(chunk, "little"), 0xFF, 0])
    rest = n - 8 * full
    if rest or n == 0:
        chunk = msg[8 * full:]
        beats.append([int.from_bytes(chunk, "little") if chunk else 0, (1 << rest) - 1, 1])
    elif rng is not None and rng.random() < 0.3:
        beats.append([rng.getrandbits(64), 0x00, 1])  # empty last beat, data ignored
    else:
        beats[-1][2] = 1
    return [(d, k, l, mode, outlen) for d, k, l in beats]


class Bench:
    def __init__(self, dut, seed, p_in=0.0, p_out=0.0):
        self.dut = dut
        self.core = os.environ.get("SHA3_CORE", "basic")
        self.timing = CORE_TIMING[self.core]
        self.rng = random.Random(seed)
        self.p_in = p_in
        self.p_out = p_out
        self.beats = []
        self.expected = []  # (mode, msg, outlen, digest)
        self.got = bytearray()
        self.done = 0
        self.cycle = 0
        self.s_fire = False
        self.m_fire = False
        self.m_beat = None
        self.takes = []  # (cycle, first, last)
        self.out_rise = []  # cycles where core out_valid rises
        self.prev_out_valid = 0
        self.prev_busy = False
        self.wrap = dut.u_wrap

    async def start(self):
        cocotb.start_soon(Clock(self.dut.clk, 10, unit="ns").start())
        d = self.dut
        d.s_valid.value = 0
        d.s_data.value = 0
        d.s_keep.value = 0
        d.s_last.value = 0
        d.s_mode.value = 0
        d.s_outlen.value = 0
        d.m_ready.value = 0
        await self.reset(3)

    async def reset(self, cycles):
        d = self.dut
        await FallingEdge(d.clk)  # leave the ReadOnly phase before driving
        d.rst.value = 1
        d.s_valid.value = 0
        d.m_ready.value = 0
        for _ in range(cycles):
            await FallingEdge(d.clk)
        d.rst.value = 0
        self.beats.clear()
        self.expected.clear()
        self.got = bytearray()
        self.s_fire = self.m_fire = False
        self.prev_out_valid = 0

    def add(self, mode, msg, outlen=0):
        self.beats.extend(beats_of(mode, msg, outlen, self.rng))
        self.expected.append((mode, msg, outlen, golden(mode, msg, outlen)))

    async def step(self):
        d = self.dut
        await FallingEdge(d.clk)
        self.cycle += 1
        if self.s_fire:
            self.beats.pop(0)
        if self.m_fire:
            data, keep, last = self.m_beat
            assert keep in [(1 << i) - 1 for i in range(9)], f"bad m_keep {keep:#x}"
            nbytes = bin(keep).count("1")
            self.got += data.to_bytes(8, "little")[:nbytes]
            if last:
                assert self.expected, "digest with no message outstanding"
                mode, msg, outlen, want = self.expected.pop(0)
                assert bytes(self.got) == want, (
                    f"{self.core} mode {mode} len {len(msg)} outlen {outlen}: "
                    f"got {bytes(self.got).hex()} want {want.hex()}")
                self.got = bytearray()
                self.done += 1
        # source: keep a beat valid until it is taken (AXI rule)
        holding = int(d.s_valid.value) == 1 and not self.s_fire
        if self.beats and (holding or self.rng.random() >= self.p_in):
            data, keep, last, mode, outlen = self.beats[0]
            d.s_data.value = data
            d.s_keep.value = keep
            d.s_last.value = last
            d.s_mode.value = mode
            d.s_outlen.value = outlen
            d.s_valid.value = 1
        else:
            d.s_valid.value = 0
        d.m_ready.value = 1 if self.rng.random() >= self.p_out else 0
        await ReadOnly()
        self.s_fire = bool(d.s_valid.value) and bool(d.s_ready.value)
        self.m_fire = bool(d.m_valid.value) and bool(d.m_ready.value)
        if self.m_fire:
            self.m_beat = (d.m_data.value.to_unsigned(), d.m_keep.value.to_unsigned(),
                           int(d.m_last.value))
        w = self.wrap
        if int(w.core_take.value):
            self.takes.append((self.cycle, int(w.core_in_first.value), int(w.core_in_last.value)))
        if self.core == "pipe":
            # two contexts; each one's held state shows every other cycle
            ov = w.g_core.u_core.hold.value.to_unsigned()
        else:
            ov = int(w.core_out_valid.value)
        if ov & ~self.prev_out_valid:
            self.out_rise.append(self.cycle)
        self.prev_out_valid = ov

    async def run(self, max_cycles=200000):
        start = self.cycle
        while self.expected or self.beats:
            await self.step()
            assert self.cycle - start < max_cycles, "timeout"
        for _ in range(3):
            await self.step()
        assert not self.got, "trailing output bytes"


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
