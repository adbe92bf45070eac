"""cocotb bench of the bare Hamsi-256 core (hamsi_core): the two length
blocks the core appends itself, with lengths whose high word is not zero
(2^32 bits and more: no simulation can stream such a message, so in_count
is driven directly, and the model is given the same length field)."""

import random
import sys
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from models import hamsi  # noqa: E402


async def hash_blocks(dut, msg, count):
    """Feeds msg's padded 4-byte blocks (0x80, zeros; the wrapper's part)
    with in_count = count on every block; returns the digest."""
    p = msg + b"\x80" + bytes(-(len(msg) + 1) % 4)
    blocks = [p[i: i + 4] for i in range(0, len(p), 4)]
    for i, blk in enumerate(blocks):
        await FallingEdge(dut.clk)
        dut.in_valid.value = 1
        dut.in_block.value = int.from_bytes(blk, "little")
        dut.in_first.value = int(i == 0)
        dut.in_last.value = int(i == len(blocks) - 1)
        dut.in_count.value = count
        dut.in_nomsg.value = 0
        while True:
            await ReadOnly()
            if int(dut.in_ready.value):
                break
            await FallingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.in_valid.value = 0
    for _ in range(20):
        await ReadOnly()
        if int(dut.out_valid.value):
            digest = dut.out_digest.value.to_unsigned().to_bytes(32, "little")
            await FallingEdge(dut.clk)
            dut.out_ack.value = 1
            await FallingEdge(dut.clk)
            dut.out_ack.value = 0
            return digest
        await FallingEdge(dut.clk)
    raise AssertionError("no digest")


@cocotb.test()
async def test_long_length_field(dut):
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.in_valid.value = 0
    dut.out_ack.value = 0
    for _ in range(3):
        await FallingEdge(dut.clk)
    dut.rst.value = 0
    rng = random.Random(27)
    cases = [(b"abc", 1 << 29), (b"", (1 << 61) - 1), (bytes(range(9)), 0x1234_5678_9ABC)]
    cases += [(bytes(rng.getrandbits(8) for _ in range(rng.randrange(0, 12))),
               rng.randrange(1 << 29, 1 << 61)) for _ in range(4)]
    for msg, count in cases:
        got = await hash_blocks(dut, msg, count)
        want = hamsi.hamsi256(msg, bits=(8 * count) % (1 << 64))
        assert got == want, f"length {count}: got {got.hex()} want {want.hex()}"
    dut._log.info("hamsi_core: %d digests with length fields of 2^32 bits and more", len(cases))
