#!/usr/bin/env python3
"""Fanout repair of a mapped gate-level netlist (Yosys `write_verilog -noattr`).

ABC buffers and sizes the nets inside the combinational logic it maps, but
not the nets it sees as primary inputs: flip-flop outputs and the design's
input ports. A round counter or a `busy` flag then drives a thousand gate
inputs from one DFFPOSX1, which a table-lookup timer turns into tens of
nanoseconds, where any real synthesis tool would have built a buffer tree.
This pass builds that tree: every net with more than MAX_FANOUT sink pins
(the clock excepted: its tree is a layout matter, and STA takes it as ideal)
gets a balanced tree of BUF cells, each driving at most MAX_FANOUT pins.
Deterministic: sinks keep their order in the netlist.

Usage: fanout.py LIBERTY IN.v OUT.v [--max-fanout N] [--buf CELL] [--clock NET]
Prints a one-line JSON summary (nets repaired, buffers added).
"""

import argparse
import json
import re
import sys
from pathlib import Path

INST = re.compile(r"^(\s*)(\w+)\s+(\S+)\s*\(\s*\n(.*?)\n\s*\);", re.M | re.S)
PIN = re.compile(r"\.(\w+)\((.*)\)")


def liberty_output_pins(lib_text):
    """{cell: set of output pin names} from a liberty file."""
    outs = {}
    for m in re.finditer(r"\bcell\s*\(\s*(\w+)\s*\)\s*\{", lib_text):
        cell = m.group(1)
        nxt = lib_text.find("\ncell", m.end())
        body = lib_text[m.end(): nxt if nxt > 0 else len(lib_text)]
        pins = set()
        for p in re.finditer(r"\bpin\s*\(\s*(\w+)\s*\)\s*\{(.*?)direction\s*:\s*(\w+)", body, re.S):
            if p.group(3) == "output":
                pins.add(p.group(1))
        outs[cell] = pins
    return outs


def parse(text, outputs):
    """Instances as (span, indent, cell, name, [(pin, net)]) and each net's sinks."""
    insts = []
    sinks = {}
    for m in INST.finditer(text):
        cell = m.group(2)
        if cell not in outputs:
            continue
        pins = []
        for line in m.group(4).splitlines():
            p = PIN.search(line)
            if p:
                pins.append((p.group(1), p.group(2)))  # as written: `\\esc ` keeps its space
        idx = len(insts)
        insts.append([m.span(), m.group(1), cell, m.group(3), pins])
        for k, (pin, net) in enumerate(pins):
            if pin not in outputs[cell] and not re.match(r"\d+'", net):
                sinks.setdefault(net.strip(), []).append((idx, k))
    return insts, sinks


DECL = re.compile(r"^\s*(?:wire|input|output|inout)\s+(?:\[(\d+):(\d+)\]\s+)?(\\\S+|\w+)\s*;", re.M)
ASSIGN = re.compile(r"^\s*assign\s+(.*?)\s*=\s*(.*?)\s*;\s*\n", re.M | re.S)
ITEM = re.compile(r"\s*(?:(\d+)'([bh])([0-9a-fA-FxXzZ_]+)|(\\\S+|[A-Za-z_][\w$]*)\s*"
                  r"(?:\[(\d+)(?::(\d+))?\])?)\s*")


def declarations(text):
    """{name: (msb, lsb) or None for a scalar}."""
    return {m.group(3): (int(m.group(1)), int(m.group(2))) if m.group(1) else None
            for m in DECL.finditer(text)}


def bit_name(name, i):
    if i is None:
        return name + (" " if name.startswith("\\") else "")
    return f"{name} [{i}]" if name.startswith("\\") else f"{name}[{i}]"


def expand(sig, decls):
    """A Yosys signal (name, bit or part select, constant, or a concatenation
    of these) as a list of bits, most significant first: net names, or None
    for a constant bit."""
    sig = sig.strip()
    items = sig[1:-1].split(",") if sig.startswith("{") else [sig]
    bits = []
    for item in items:
        m = ITEM.fullmatch(item)
        if not m:
            raise SystemExit(f"fanout.py: cannot read the signal '{item.strip()}'")
        if m.group(1):
            width = int(m.group(1))
            bits += [None] * width
            continue
        name = m.group(4)
        if m.group(5) is not None:
            hi = int(m.group(5))
            lo = int(m.group(6)) if m.group(6) is not None else hi
            rng = [hi] if hi == lo else list(range(hi, lo - 1, -1)) if hi > lo else list(range(hi, lo + 1))
            bits += [bit_name(name, i) for i in rng]
        else:
            r = decls.get(name)
            if r is None:
                bits.append(bit_name(name, None))
            else:
                hi, lo = r
                step = -1 if hi >= lo else 1
                bits += [bit_name(name, i) for i in range(hi, lo + step, step)]
    return bits


def split_assigns(text):
    """Yosys writes aliases of nets as `assign` lines, some of them on
    concatenations (which OpenSTA cannot read) and some tying unused bits to
    constants: rewrite them one bit per line and drop the constant ones (a
    cell pin tied to a constant carries the constant itself)."""
    decls = declarations(text)
    dropped = 0

    def one(m):
        nonlocal dropped
        lhs, rhs = expand(m.group(1), decls), expand(m.group(2), decls)
        if len(lhs) != len(rhs) or None in lhs:
            raise SystemExit(f"fanout.py: cannot split the assign '{m.group(0).strip()}'")
        out = []
        for a, b in zip(lhs, rhs):
            if b is None:
                dropped += 1
            else:
                out.append(f"  assign {a} = {b};\n")
        return "".join(out)

    return ASSIGN.sub(one, text), dropped


def repair(text, outputs, max_fanout=10, buf=("BUFX4", "A", "Y"), clock="clk"):
    text, const_assigns = split_assigns(text)
    insts, sinks = parse(text, outputs)
    cell, a, y = buf
    new_wires, new_insts = [], []
    nets = 0
    counter = [0]

    def new_net():
        counter[0] += 1
        name = f"_fo{counter[0]}_"
        new_wires.append(name)
        return name

    for net, loads in sinks.items():
        if net == clock or len(loads) <= max_fanout:
            continue
        nets += 1
        level = loads                     # pins to be driven, in netlist order
        while len(level) > max_fanout:
            groups = [level[i:i + max_fanout] for i in range(0, len(level), max_fanout)]
            nxt = []
            for g in groups:
                out = new_net()
                for ref in g:
                    if ref[0] == "buf":   # a buffer made in the level below
                        new_insts[ref[1]][1] = out
                    else:
                        i, k = ref
                        insts[i][4][k] = (insts[i][4][k][0], out)
                # its input is set by the level above
                new_insts.append([f"_fob{counter[0]}_", None, out])
                nxt.append(("buf", len(new_insts) - 1))
            level = nxt
        for ref in level:                 # the root level hangs on the net itself
            assert ref[0] == "buf"
            new_insts[ref[1]][1] = net + (" " if net.startswith("\\") else "")
    # rebuild the text
    parts, pos = [], 0
    for (start, end), indent, c, name, pins in insts:
        parts.append(text[pos:start])
        body = ",\n".join(f"{indent}  .{p}({n})" for p, n in pins)
        parts.append(f"{indent}{c} {name} (\n{body}\n{indent});")
        pos = end
    tail = text[pos:]
    decl = "".join(f"  wire {w};\n" for w in new_wires)
    cells = "".join(f"  {cell} {n} (\n    .{a}({i}),\n    .{y}({o})\n  );\n"
                    for n, i, o in new_insts)
    end = tail.rfind("endmodule")
    if end < 0:
        raise SystemExit("fanout.py: no endmodule in the netlist")
    out = "".join(parts) + tail[:end] + decl + cells + tail[end:]
    return out, {"nets_repaired": nets, "buffers_added": len(new_insts),
                 "buffer_cell": cell, "max_fanout": max_fanout,
                 "constant_bits_dropped": const_assigns}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("liberty")
    ap.add_argument("netlist")
    ap.add_argument("out")
    ap.add_argument("--max-fanout", type=int, default=10)
    ap.add_argument("--buf", default="BUFX4")
    ap.add_argument("--clock", default="clk")
    args = ap.parse_args()
    outputs = liberty_output_pins(Path(args.liberty).read_text())
    if args.buf not in outputs:
        raise SystemExit(f"fanout.py: no cell {args.buf} in {args.liberty}")
    text = Path(args.netlist).read_text()
    if len(re.findall(r"^module\b", text, re.M)) != 1:
        raise SystemExit("fanout.py: expects one flattened module")
    out, summary = repair(text, outputs, args.max_fanout, (args.buf, "A", "Y"), args.clock)
    Path(args.out).write_text(out)
    print(json.dumps(summary, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
