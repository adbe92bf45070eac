"""SIMD-256 behaviour the generic bench (stream_bench.py) does not reach.

The SIMD core pipelines its expansion and compression on one 36-cycle
block period and finishes a zero-length message every period; when the
previous digest is still waiting for the wrapper (held by output
back-pressure) as the next one is due, the whole core stalls. These tests
hold the output back hard while short messages follow each other, so the
stall happens many times, with expansions and compressions of the next
messages in flight, and every digest is still checked against the model.
"""

import cocotb

from stream_bench import BLOCK, CORE, StreamBench, payload


@cocotb.test()
async def test_stall_on_held_digest(dut):
    """Zero-length and one-block messages back to back, output almost always
    held: digests come out in order and right."""
    b = StreamBench(dut, seed=27, p_in=0.0, p_out=0.97)
    await b.start()
    lengths = [0, 0, 0, 1, 0, BLOCK // 2, 0, 0, BLOCK, 0, 2 * BLOCK + 1, 0, 0]
    for n in lengths:
        b.add(payload(b.rng, n))
    stalls = 0
    prev_ph = None
    while b.expected or b.beats:
        await b.step()
        ph = int(dut.u_core.ph.value)
        if int(dut.u_core.adv.value) == 0 and ph == prev_ph:
            stalls += 1
        prev_ph = ph
        assert b.cycle < 200000, "timeout"
    for _ in range(3):
        await b.step()
    assert b.done == len(lengths)
    assert stalls > 0, "the held digest never stalled the core"
    dut._log.info("%s: %d messages, %d stalled cycles", CORE.name, b.done, stalls)


@cocotb.test()
async def test_empty_messages_every_period(dut):
    """With a free output, zero-length messages take one block period each
    (the wrapper's empty block is not compressed; the final block is)."""
    b = StreamBench(dut, seed=28)
    await b.start()
    n = 6
    for _ in range(n):
        b.add(b"")
    await b.run()
    msgs = b.messages(b.takes)
    assert len(msgs) == n and all(len(m) == 1 for m in msgs)
    between = [nxt[0][0] - cur[0][0] for cur, nxt in zip(msgs, msgs[1:])]
    assert between == [36] * (n - 1), between
