"""Generic cocotb bench for a block-hash core behind hash_stream.v.

The core under test is the hw/cores.py entry named by the environment
variable HASH_CORE; its golden model is the entry's `model` (hw/tb/models),
its expected timing the entry's `cycles`, `latency` and `msg_gap`. A new
core needs no code here (hw/README.md).

One coroutine drives the input stream (random gaps), pulls the output stream
(random back-pressure), checks every digest against the model and watches
the core's handshakes every clock (u_wrap.core_take, core_in_first,
core_in_last, core_out_valid), so the cycle counts it asserts are exact.
"""

import os
import random
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import cores  # noqa: E402
import models  # noqa: E402

CORE = cores.get(os.environ.get("HASH_CORE", "sha256"))
MODEL = models.load(CORE.model)
BLOCK = CORE.block_bits // 8


def beats_of(msg, width, rng=None):
    """A message as (data, keep, last) beats of `width` bytes; sometimes the
    last beat is an empty one after full beats (s_keep = 0)."""
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


class StreamBench:
    def __init__(self, dut, seed, p_in=0.0, p_out=0.0):
        self.dut = dut
        self.width = len(dut.s_keep)
        self.out_width = len(dut.m_keep)   # the output may be wider (hash_stream OUT_BEAT_BYTES)
        self.rng = random.Random(seed)
        self.p_in = p_in
        self.p_out = p_out
        self.beats = []
        self.expected = []          # (msg, digest)
        self.got = bytearray()
        self.done = 0
        self.cycle = 0
        self.s_fire = self.m_fire = False
        self.m_beat = None
        self.takes = []             # (cycle, first, last)
        self.out_rise = []          # cycles where core_out_valid rises
        self.prev_out_valid = 0
        self.wrap = dut.u_wrap

    async def start(self):
        cocotb.start_soon(Clock(self.dut.clk, 10, unit="ns").start())
        d = self.dut
        d.s_valid.value = 0
        d.s_data.value = 0
        d.s_keep.value = 0
        d.s_last.value = 0
        d.m_ready.value = 0
        await self.reset(3)

    async def reset(self, cycles):
        d = self.dut
        await FallingEdge(d.clk)
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

    def add(self, msg, plain=False):
        """Queues a message; `plain`: no empty last beat after full beats."""
        self.beats.extend(beats_of(msg, self.width, None if plain else self.rng))
        self.expected.append((msg, MODEL(msg)))

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
                msg, want = self.expected.pop(0)
                assert bytes(self.got) == want, (
                    f"{CORE.name} length {len(msg)}: got {bytes(self.got).hex()} "
                    f"want {want.hex()}")
                self.got = bytearray()
                self.done += 1
        # source: a beat stays valid and unchanged until it is taken (AXI rule)
        holding = int(d.s_valid.value) == 1 and not self.s_fire
        if self.beats and (holding or self.rng.random() >= self.p_in):
            data, keep, last = self.beats[0]
            d.s_data.value = data
            d.s_keep.value = keep
            d.s_last.value = last
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
            self.takes.append((self.cycle, int(w.core_in_first.value), int(w.core_in_last.value),
                               int(w.core_in_nomsg.value)))
        ov = int(w.core_out_valid.value)
        if ov and not self.prev_out_valid:
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

    def messages(self, takes):
        """Split (cycle, first, last, nomsg) takes into messages of (cycle,
        last, nomsg)."""
        msgs = []
        for c, first, last, nomsg in takes:
            if first:
                msgs.append([])
            assert msgs, "a block before any first block"
            msgs[-1].append((c, last, nomsg))
        return msgs


def expected_gaps(msg):
    """Cycles between the takes of a message's blocks: CORE.cycles, except
    into the last block that carries message bytes, CORE.last_gap where the
    wrapper (which holds a message's last beat a cycle and writes it with the
    padding) is slower there than the core."""
    last_data = max(i for i, blk in enumerate(msg) if not blk[2])
    return [CORE.last_gap if (CORE.last_gap is not None and i + 1 == last_data) else CORE.cycles
            for i in range(len(msg) - 1)]


def lengths(rng):
    """Around one and two blocks, around where an MD length field stops
    fitting, and random lengths."""
    edge = {0, 1, 7, 8, 9, BLOCK // 2, BLOCK - 17, BLOCK - 16, BLOCK - 9, BLOCK - 8,
            BLOCK - 1, BLOCK, BLOCK + 1, 2 * BLOCK - 1, 2 * BLOCK, 2 * BLOCK + 1, 3 * BLOCK + 17}
    return sorted(n for n in edge if n >= 0) + [rng.randrange(1, 4 * BLOCK) for _ in range(4)]


def payload(rng, n):
    return bytes(rng.getrandbits(8) for _ in range(n))


@cocotb.test()
async def test_lengths_backpressure(dut):
    """Lengths around the block size and random ones, random valid/ready on both sides."""
    b = StreamBench(dut, seed=1, p_in=0.3, p_out=0.4)
    await b.start()
    ls = lengths(b.rng)
    for n in ls:
        b.add(payload(b.rng, n))
    await b.run()
    assert b.done == len(ls)
    dut._log.info("%s: %d messages checked in %d cycles", CORE.name, len(ls), b.cycle)


@cocotb.test()
async def test_random_back_to_back(dut):
    """Random lengths back to back, light back-pressure (HW_LONG=n: n
    messages up to 8 blocks long and a seed of their own, `make test-hw-long`)."""
    long_count = int(os.environ.get("HW_LONG", "0"))
    b = StreamBench(dut, seed=2 + long_count, p_in=0.1, p_out=0.1)
    await b.start()
    count = long_count or 16
    top = 8 * BLOCK + 3 if long_count else 3 * BLOCK + 3
    for _ in range(count):
        b.add(payload(b.rng, b.rng.randrange(0, top)))
    await b.run(max_cycles=200000 + 2000 * count)
    assert b.done == count


@cocotb.test()
async def test_reset_mid_message(dut):
    """Reset while a message is half read in and while a digest is half out."""
    b = StreamBench(dut, seed=3)
    await b.start()
    b.add(payload(b.rng, 3 * BLOCK))
    for _ in range(BLOCK // b.width + 2):
        await b.step()
    await b.reset(2)
    b.add(payload(b.rng, 5))
    b.p_out = 0.9
    done = b.done
    # until the digest is partly out (or, with a one-beat digest, out)
    while not b.got and b.done == done:
        await b.step()
    await b.reset(2)
    b.p_out = 0.0
    done = b.done
    for n in (0, BLOCK, 2 * BLOCK + 3):
        b.add(payload(b.rng, n))
    await b.run()
    assert b.done - done == 3


@cocotb.test()
async def test_cycle_counts(dut):
    """Cycles per block, latency of the final block, and back-to-back messages."""
    b = StreamBench(dut, seed=4)
    await b.start()
    # at least six blocks from the wrapper, also for 4-byte blocks whose
    # length padding the core adds itself (Hamsi, Fugue)
    b.add(payload(b.rng, 6 * BLOCK - min(5, BLOCK // 2)), plain=True)
    await b.run()
    (msg,) = b.messages(b.takes)
    assert len(msg) >= 6 and msg[-1][1] and not any(blk[1] for blk in msg[:-1]), msg
    gaps = [y[0] - x[0] for x, y in zip(msg, msg[1:])]
    assert gaps == expected_gaps(msg), f"cycles per block {gaps}, want {expected_gaps(msg)}"
    lat = b.out_rise[-1] - msg[-1][0]
    assert lat == CORE.latency, f"latency {lat}, want {CORE.latency}"
    dut._log.info("%s: %d cycles per block, latency %d", CORE.name, CORE.cycles, lat)

    # back-to-back messages of one or two blocks
    b.takes.clear()
    n = 6
    for i in range(n):
        b.add(payload(b.rng, BLOCK // 2 + i), plain=True)
    first = b.cycle
    await b.run()
    msgs = b.messages(b.takes)
    assert len(msgs) == n
    for m in msgs:
        gaps = [y[0] - x[0] for x, y in zip(m, m[1:])]
        assert gaps == expected_gaps(m), f"cycles per block {gaps}, want {expected_gaps(m)}"
    between = [nxt[0][0] - cur[-1][0] for cur, nxt in zip(msgs, msgs[1:])]
    assert between == [CORE.msg_gap] * (n - 1), f"message gaps {between}, want {CORE.msg_gap}"
    dut._log.info("%s: back-to-back messages every %.1f cycles (%d in %d cycles)", CORE.name,
                  (msgs[-1][0][0] - msgs[0][0][0]) / (n - 1), n, b.cycle - first)
