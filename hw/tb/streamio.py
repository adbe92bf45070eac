"""The stream driver shared by the cocotb benches of the wrapped tops
(sha3_bench.py: the Keccak cores behind sha3_stream.v; stream_bench.py: the
study cores behind hash_stream.v).

One coroutine step per clock drives the input stream (random gaps; a beat
stays valid and unchanged until it is taken, the AXI rule), pulls the output
stream (random back-pressure), checks every digest against the expected one,
and records the core's handshakes (u_wrap.core_take with core_in_first and
core_in_last, the rising edges of the core's output valid), so the cycle
counts the benches assert are exact.
"""

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly


def beats_of(msg, width, rng=None):
    """A message as [data, keep, last] beats of `width` bytes; with `rng`,
    sometimes (30 %) an empty last beat (s_keep = 0) after full beats."""
    beats = []
    full = len(msg) // width
    for i in range(full):
        beats.append([int.from_bytes(msg[width * i: width * i + width], "little"),
                      (1 << width) - 1, 0])
    rest = len(msg) - width * full
    if rest or not msg:
        chunk = msg[width * full:]
        beats.append([int.from_bytes(chunk, "little") if chunk else 0, (1 << rest) - 1, 1])
    elif rng is not None and rng.random() < 0.3:
        beats.append([rng.getrandbits(8 * width), 0, 1])  # empty last beat, data ignored
    else:
        beats[-1][2] = 1
    return beats


class StreamDriver:
    """Both streams of a wrapped top, one clock at a time.

    A subclass names the input ports set from a beat beyond (data, keep,
    last) in `extra_inputs` and may override `take_record` (what is recorded
    when the core takes a block) and `out_valid` (the core's output valid)."""

    extra_inputs = ()

    def __init__(self, dut, seed, name, p_in=0.0, p_out=0.0):
        self.dut = dut
        self.name = name
        self.width = len(dut.s_keep)
        self.out_width = len(dut.m_keep)   # the output may be wider (hash_stream OUT_BEAT_BYTES)
        self.rng = random.Random(seed)
        self.p_in = p_in
        self.p_out = p_out
        self.beats = []
        self.expected = []          # (what, digest): `what` names the message in a failure
        self.got = bytearray()
        self.done = 0
        self.cycle = 0
        self.s_fire = self.m_fire = False
        self.m_beat = None
        self.takes = []             # take_record() of each block the core takes
        self.out_rise = []          # cycles where the core's output valid rises
        self.prev_out_valid = 0
        self.wrap = dut.u_wrap

    async def start(self):
        cocotb.start_soon(Clock(self.dut.clk, 10, unit="ns").start())
        d = self.dut
        for port in ("s_valid", "s_data", "s_keep", "s_last", *self.extra_inputs, "m_ready"):
            getattr(d, port).value = 0
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

    def queue(self, beats, what, digest):
        """Queues a message's beats and the digest expected for it."""
        self.beats.extend(beats)
        self.expected.append((what, digest))

    def take_record(self):
        w = self.wrap
        return (self.cycle, int(w.core_in_first.value), int(w.core_in_last.value))

    def out_valid(self):
        return int(self.wrap.core_out_valid.value)

    async def step(self):
        d = self.dut
        await FallingEdge(d.clk)
        self.cycle += 1
        if self.s_fire:
            self.beats.pop(0)
        if self.m_fire:
            data, keep, last = self.m_beat
            assert keep in [(1 << i) - 1 for i in range(self.out_width + 1)], f"bad m_keep {keep:#x}"
            self.got += data.to_bytes(self.out_width, "little")[:bin(keep).count("1")]
            if last:
                assert self.expected, "digest with no message outstanding"
                what, want = self.expected.pop(0)
                assert bytes(self.got) == want, (
                    f"{self.name} {what}: got {bytes(self.got).hex()} want {want.hex()}")
                self.got = bytearray()
                self.done += 1
        holding = int(d.s_valid.value) == 1 and not self.s_fire
        if self.beats and (holding or self.rng.random() >= self.p_in):
            beat = self.beats[0]
            d.s_data.value, d.s_keep.value, d.s_last.value = beat[:3]
            for port, value in zip(self.extra_inputs, beat[3:]):
                getattr(d, port).value = value
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
        if int(self.wrap.core_take.value):
            self.takes.append(self.take_record())
        ov = self.out_valid()
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
