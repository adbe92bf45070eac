"""Core-specific cocotb test of the AES-based cores: the
message lengths where their own length fields stop fitting in the final
block, which the generic bench (stream_bench.py, edges for an 8-byte field)
does not hit. ECHO's field is 18 bytes (digest size + 128-bit length), so a
final block holds at most 173 message bytes; SHAvite-3's is 10 (53 bytes);
Fugue pads to a 4-byte word and adds its length words itself. The cores
fill those fields in themselves (docs/hardware-study-interface.md), so
these edges test the core, not only the wrapper. Digests against the model,
cycle counts against the registry entry."""

import cocotb

from stream_bench import BLOCK, CORE, StreamBench, payload

# the last message byte count of a final block that still holds the length field
FIT = {"echo256": 192 - 19, "shavite3_256": 64 - 11, "fugue256": 3}


def edge_lengths():
    f = FIT[CORE.name]
    out = set()
    for base in (0, BLOCK, 2 * BLOCK):
        out.update(base + f + d for d in (-1, 0, 1, 2))
    return sorted(n for n in out if n >= 0)


@cocotb.test()
async def test_length_field_edges(dut):
    """Lengths where the final block's field just fits, and one byte more
    (an extra block of padding only, counter 0), back to back."""
    b = StreamBench(dut, seed=27, p_in=0.2, p_out=0.2)
    await b.start()
    ls = edge_lengths()
    for n in ls:
        b.add(payload(b.rng, n))
    await b.run()
    assert b.done == len(ls)
    # every block of a message CORE.cycles apart, however the message ends
    for m in b.messages(b.takes):
        gaps = [y[0] - x[0] for x, y in zip(m, m[1:])]
        assert all(g >= CORE.cycles for g in gaps), gaps
    dut._log.info("%s: lengths %s checked", CORE.name, ls)
