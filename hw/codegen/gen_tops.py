"""Writes the top modules of hw/cores.py into hw/rtl/gen/: for each study
core's `Stream`, <module>.v (hash_stream.v and the core, with the Stream's
padding parameters), and for each Keccak core sha3_<name>.v (sha3_stream.v
with its CORE index). The tops only connect the wrapper to the core; their
ports are those of hash_stream.v and sha3_stream.v. Run by hw/generate.py."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import cores  # noqa: E402


def _rng(msb):
    return f"[{msb}:0]"


def _ports(beat_bytes, out_beat_bytes, sha3=False):
    ports = [("input", "", "clk"), ("input", "", "rst")]
    if sha3:
        ports += [("input", _rng(2), "s_mode"), ("input", _rng(15), "s_outlen")]
    ports += [("input", "", "s_valid"), ("output", "", "s_ready"),
              ("input", _rng(8 * beat_bytes - 1), "s_data"),
              ("input", _rng(beat_bytes - 1), "s_keep"), ("input", "", "s_last"),
              ("output", "", "m_valid"), ("input", "", "m_ready"),
              ("output", _rng(8 * out_beat_bytes - 1), "m_data"),
              ("output", _rng(out_beat_bytes - 1), "m_keep"), ("output", "", "m_last")]
    return ",\n".join(f"    {d:<7}wire {r:<6} {n}" for d, r, n in ports) + "\n);\n"


def _comment(text):
    return "".join(f"// {line}\n" for line in text.split("\n"))


def stream_top(s):
    """The top of a study core: hash_stream and the core, connected."""
    out = _comment(s.doc) + "`timescale 1ns/1ps\n"
    if s.params:
        w = max(len(n) for n, _ in s.params)
        decl = ",\n".join(f"    parameter integer {n:<{w}} = {v}" for n, v in s.params)
        out += f"module {s.module} #(\n{decl}\n) (\n"
    else:
        out += f"module {s.module} (\n"
    out += _ports(s.beat_bytes, s.out_beat_bytes or s.beat_bytes)
    if isinstance(s.block_bytes, int):
        block = _rng(8 * s.block_bytes - 1)
        numeric = [block]
    else:
        block = _rng(s.block_msb)
        numeric = []
    count, digest = _rng(63), _rng(8 * s.digest_bytes - 1)
    w = max(len(r) for r in numeric + [count, digest])
    out += (f"    wire {'':<{w}} in_valid, in_ready, in_first, in_last, in_nomsg, out_valid, "
            "out_ack;\n"
            f"    wire {block:<{w}} in_block;\n"
            f"    wire {count:<{w}} in_count;\n"
            f"    wire {digest:<{w}} out_digest;\n\n")
    pad = [f".PAD_EN({0 if s.pad_byte is None else 1})"]
    if s.pad_byte is not None:
        pad.append(f".PAD_BYTE(8'h{s.pad_byte:02x})")
    pad.append(f".LEN_BYTES({s.len_bytes})")
    if s.len_bytes:
        pad.append(f".LEN_LE({int(s.len_le)})")
    if s.len_blocks:
        pad.append(".LEN_BLOCKS(1)")
    if s.len_own_block:
        pad.append(".LEN_OWN_BLOCK(1)")
    if s.len_or_byte:
        pad.append(f".LEN_OR_BYTE(8'h{s.len_or_byte:02x})")
    if s.block_per_cycle:
        pad.append(".BLOCK_PER_CYCLE(1)")
    lines = [f".BLOCK_BYTES({s.block_bytes}), .DIGEST_BYTES({s.digest_bytes}), "
             f".BEAT_BYTES({s.beat_bytes})", ", ".join(pad)]
    if s.out_beat_bytes is not None:
        lines.append(f".OUT_BEAT_BYTES({s.out_beat_bytes})")
    out += "    hash_stream #(\n" + ",\n".join(f"        {ln}" for ln in lines) + "\n"
    out += """\
    ) u_wrap (
        .clk(clk), .rst(rst),
        .s_valid(s_valid), .s_ready(s_ready), .s_data(s_data), .s_keep(s_keep), .s_last(s_last),
        .m_valid(m_valid), .m_ready(m_ready), .m_data(m_data), .m_keep(m_keep), .m_last(m_last),
        .core_in_valid(in_valid), .core_in_ready(in_ready), .core_in_block(in_block),
        .core_in_first(in_first), .core_in_last(in_last), .core_in_count(in_count),
        .core_in_nomsg(in_nomsg), .core_out_valid(out_valid), .core_out_ack(out_ack),
        .core_out_digest(out_digest));

"""
    params = ""
    if s.params:
        params = " #(" + ", ".join(f".{n}({n})" for n, _ in s.params) + ")"
    out += f"""\
    {s.core}{params} u_core (
        .clk(clk), .rst(rst), .in_valid(in_valid), .in_ready(in_ready), .in_block(in_block),
        .in_first(in_first), .in_last(in_last), .in_count(in_count), .in_nomsg(in_nomsg),
        .out_valid(out_valid), .out_digest(out_digest), .out_ack(out_ack));
endmodule
"""
    return out


def sha3_top(t):
    """The top of a Keccak core: sha3_stream with its CORE index."""
    return (f"// SHA-3/SHAKE stream core, {t.summary} : sha3_stream with CORE={t.index}.\n"
            "// Ports: see sha3_stream.v and docs/hardware.md.\n"
            "`timescale 1ns/1ps\n"
            f"module {t.module} (\n" + _ports(8, 8, sha3=True) + f"""\
    sha3_stream #(.CORE({t.index})) u_wrap (
        .clk(clk), .rst(rst), .s_mode(s_mode), .s_outlen(s_outlen),
        .s_valid(s_valid), .s_ready(s_ready), .s_data(s_data), .s_keep(s_keep), .s_last(s_last),
        .m_valid(m_valid), .m_ready(m_ready), .m_data(m_data), .m_keep(m_keep), .m_last(m_last));
endmodule
""")


def files():
    """{file name: text} of every top. Rows that share a top module share
    its Stream (one algorithm, versions set by parameters)."""
    out, seen = {}, {}
    for core in cores.KECCAK + cores.STUDY:
        w = core.wrapper
        if w.module in seen and seen[w.module][0] != w:
            raise SystemExit(f"{core.name}: top {w.module} defined twice, differently "
                             f"(also by {seen[w.module][1]})")
        seen.setdefault(w.module, (w, core.name))
        out[f"{w.module}.v"] = sha3_top(w) if isinstance(w, cores.Sha3Top) else stream_top(w)
    return out
