"""Generic cocotb bench for a block-hash core behind hash_stream.v.

The core under test is the hw/cores.py entry named by the environment
variable HASH_CORE; its golden model is the entry's `model` (hw/tb/models),
its expected timing the entry's `cycles`, `latency` and `msg_gap`. A new
core needs no code here (hw/README.md).

The streams are driven by streamio.StreamDriver (random gaps on the input,
random back-pressure on the output), which checks every digest against the
model and watches the core's handshakes every clock (u_wrap.core_take,
core_in_first, core_in_last, core_in_nomsg, core_out_valid), so the cycle
counts asserted here are exact.
"""

import os
import sys
from pathlib import Path

import cocotb

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import cores  # noqa: E402
import models  # noqa: E402
from streamio import StreamDriver, beats_of  # noqa: E402

CORE = cores.get(os.environ.get("HASH_CORE", "sha256"))
MODEL = models.load(CORE.model)
BLOCK = CORE.block_bits // 8


class StreamBench(StreamDriver):
    """A study top's streams; a take also records core_in_nomsg."""

    def __init__(self, dut, seed, p_in=0.0, p_out=0.0):
        super().__init__(dut, seed, CORE.name, p_in, p_out)

    def add(self, msg, plain=False):
        """Queues a message; `plain`: no empty last beat after full beats."""
        self.queue(beats_of(msg, self.width, None if plain else self.rng),
                   f"length {len(msg)}", MODEL(msg))

    def take_record(self):
        return super().take_record() + (int(self.wrap.core_in_nomsg.value),)

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
