"""The ASIC flow: Yosys + ABC to the OSU 0.18 um standard cells, fanout
repair, and static timing with OpenSTA. The same script for every core:

1. Yosys `synth -flatten` (memories become flip-flops and multiplexers),
   `dfflibmap` to the library's flip-flops, then ABC with the liberty timing
   and a delay target equal to the clock constraint (`&nf -D`, then ABC's
   `buffer`, `upsize`, `dnsize`: gate sizing and buffering inside the logic
   ABC sees), unused wires purged, netlist out;
2. fanout.py: buffer trees on the nets ABC does not see, the flip-flop
   outputs and input ports (at most MAX_FANOUT pins per driver, BUFX4);
3. OpenSTA on that netlist: the clock constraint as the clock period, inputs
   arriving at the clock edge (input delay 0, driven by a BUFX4), outputs
   required at the next edge (output delay 0, loaded by one DFFPOSX1 D pin);
   the clock is ideal. fmax = 1 / (period - worst slack), i.e. the longest
   register-to-register (or port) path plus setup.

GE = total cell area of the timed netlist / area of NAND2X1. What this
leaves out compared with a commercial flow: layout and wiring (no wire
load, no clock tree), retiming, and any search over the delay target.
"""

import json
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
LIB = HERE / "lib" / "osu018_stdcells.lib"
MAX_FANOUT = 10
FANOUT_BUF = "BUFX4"
INPUT_DRIVER = "BUFX4"
LOAD_PIN = ("DFFPOSX1", "D")

sys.path.insert(0, str(HERE))
import fanout  # noqa: E402


def liberty_text():
    return LIB.read_text()


def liberty_areas():
    """{cell: area} for every cell of the library."""
    return {m.group(1): float(m.group(2)) for m in re.finditer(
        r"cell\s*\(\s*(\w+)\s*\)\s*\{[^{}]*?\barea\s*:\s*([0-9.]+)", liberty_text())}


def liberty_area(cell):
    return liberty_areas()[cell]


def liberty_pin_cap(cell, pin):
    text = liberty_text()
    start = re.search(r"cell\s*\(\s*" + cell + r"\s*\)\s*\{", text).end()
    m = re.search(r"pin\s*\(\s*" + pin + r"\s*\)\s*\{[^}]*?capacitance\s*:\s*([0-9.]+)", text[start:], re.S)
    return float(m.group(1))


def abc_script(delay_ps):
    """ABC's liberty mapping for a delay target (Yosys's own script for
    `abc -D` plus buffering and sizing, which Yosys 0.23 leaves out)."""
    d = f"-D {delay_ps}"
    return "\n".join([
        "strash", "&get -n", "&fraig -x", "&put", "scorr", "dc2", "dretime", "strash",
        "&get -n", "&dch -f", f"&nf {d}", "&put", "buffer -p", f"upsize {d}", f"dnsize {d}",
        "stime -p", ""])


def run(cmd, log, cwd):
    r = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-3000:] + r.stderr[-3000:])
        raise SystemExit(f"{cmd[0]} failed, see {log}")
    return r


def yosys_map(core, top, wd, rtl, rel):
    """Yosys + ABC: writes <top>_asic.v and <top>_asic_stat.json in wd."""
    delay_ps = round(core.clock_ns * 1000)
    abc = wd / f"{top}_asic.abc"
    abc.write_text(abc_script(delay_ps))
    net = wd / f"{top}_asic.v"
    stat = wd / f"{top}_asic_stat.json"
    lib = rel(LIB)
    params = "".join(f"chparam -set {k} {v} {top}; " for k, v in sorted(core.params.items()))
    script = (f"read_verilog -I. {' '.join(p.name for p in core.verilog_files())}; {params}"
              f"synth -top {top} -flatten; dfflibmap -liberty {lib}; "
              f"abc -D {delay_ps} -liberty {lib} -script {rel(abc)}; opt_clean -purge; "
              f"tee -q -o {rel(stat)} stat -json -liberty {lib}; stat -liberty {lib}; "
              f"write_verilog -noattr -noexpr -nohex -nodec {rel(net)}")
    log = wd / f"{top}_asic.log"
    t = time.time()
    run(["yosys", "-q", "-l", rel(log), "-p", script], log, rtl)
    return net, stat, time.time() - t


def sta_script(top, netlist, period_ns):
    inputs = "[delete_from_list [all_inputs] [get_ports clk]]"
    cell, pin = LOAD_PIN
    return "\n".join([
        f"read_liberty {LIB}",
        f"read_verilog {netlist}",
        f"link_design {top}",
        f"create_clock -name clk -period {period_ns} [get_ports clk]",
        f"set_input_delay 0 -clock clk {inputs}",
        "set_output_delay 0 -clock clk [all_outputs]",
        f"set_driving_cell -lib_cell {INPUT_DRIVER} -pin Y {inputs}",
        f"set_load {liberty_pin_cap(cell, pin)} [all_outputs]",
        "report_checks -path_delay max -digits 4 -fields {net fanout}",
        "report_checks -path_delay max -digits 4 -unconstrained -from [all_inputs] -to [all_outputs]",
        ""])


def parse_path(report, netlist_text):
    """Slack, arrival, start/end point and logic depth of the first path in
    an OpenSTA report_checks output."""
    first = report.split("Startpoint:")[1] if "Startpoint:" in report else ""
    m_slack = re.search(r"(-?[0-9.]+)\s+slack \((MET|VIOLATED)\)", first)
    m_arr = re.search(r"(-?[0-9.]+)\s+data arrival time", first)
    m_req = re.search(r"(-?[0-9.]+)\s+data required time", first)
    start = first.split("\n", 1)[0].strip()
    m_end = re.search(r"Endpoint: (\S+)", report)
    cells = re.findall(r"^\s+[-0-9.]+\s+[-0-9.]+ [v^] (\S+)/(\w+) \((\w+)\)", first, re.M)
    depth = sum(1 for _inst, pin, _cell in cells if pin not in ("CLK", "D"))

    def reg_name(point):
        inst = point.split(" ")[0]
        m = re.search(r"\b\w+ " + re.escape(inst) + r" \((.*?)\);", netlist_text, re.S)
        if not m:
            return inst  # a port
        q = re.search(r"\.Q\(([^)]*)\)", m.group(1))
        return q.group(1).strip() if q else inst

    return {"slack_ns": float(m_slack.group(1)) if m_slack else None,
            "arrival_ns": float(m_arr.group(1)) if m_arr else None,
            "required_ns": float(m_req.group(1)) if m_req else None,
            "start": reg_name(start), "end": reg_name(m_end.group(1)) if m_end else None,
            "cells_on_path": depth}


def sta(core, top, netlist, wd):
    tcl = wd / f"{top}_sta.tcl"
    tcl.write_text(sta_script(top, netlist, core.clock_ns))
    rpt = wd / f"{top}_sta.rpt"
    t = time.time()
    r = run(["sta", "-no_init", "-no_splash", "-exit", str(tcl)], rpt, wd)
    rpt.write_text(r.stdout + r.stderr)
    if "Error" in r.stdout + r.stderr:
        raise SystemExit(f"OpenSTA reported an error for {top}, see {rpt}")
    reports = r.stdout.split("Startpoint:")
    worst = parse_path("Startpoint:" + reports[1], netlist.read_text()) if len(reports) > 1 else {}
    io = ({"arrival_ns": parse_path("Startpoint:" + reports[2], "")["arrival_ns"]}
          if len(reports) > 2 else None)
    if worst.get("slack_ns") is None:
        raise SystemExit(f"no timed path in the OpenSTA report for {top}: {rpt}")
    period = core.clock_ns
    crit = period - worst["slack_ns"]      # arrival + setup (+ output delay 0)
    return {"clock_ns": period, "worst_slack_ns": worst["slack_ns"], "critical_ns": round(crit, 4),
            "fmax_mhz": round(1000.0 / crit, 2), "critical_path": worst,
            "input_to_output_ns": io and io["arrival_ns"], "sta_s": round(time.time() - t, 1)}


def asic(core, top, wd, rtl, rel):
    """The whole flow for one top module; returns the results dict."""
    net, stat, secs = yosys_map(core, top, wd, rtl, rel)
    data = json.loads(stat.read_text())
    design = data.get("design", data)
    cells = design.get("num_cells_by_type", {})
    areas = liberty_areas()
    unknown = sorted(set(cells) - set(areas))
    if unknown:
        raise SystemExit(f"{top}: cells not in the liberty after mapping: {unknown}")
    area = sum(n * areas[c] for c, n in cells.items())
    outputs = fanout.liberty_output_pins(liberty_text())
    timed_net = wd / f"{top}_asic_fo.v"
    text, rep = fanout.repair(net.read_text(), outputs, MAX_FANOUT, (FANOUT_BUF, "A", "Y"), "clk")
    timed_net.write_text(text)
    area += rep["buffers_added"] * liberty_area(FANOUT_BUF)
    nand2 = liberty_area("NAND2X1")
    timing = sta(core, top, timed_net, wd)
    return {"area_um2": area, "nand2x1_um2": nand2, "ge": round(area / nand2),
            "flip_flops": sum(n for c, n in cells.items() if c.startswith("DFF")),
            "cells": cells, "fanout_repair": rep, "timing": timing,
            "yosys_s": round(secs, 1)}


def tool_versions():
    v = {"yosys": subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()}
    r = subprocess.run(["sta", "-version"], capture_output=True, text=True)
    v["opensta"] = (r.stdout + r.stderr).strip()
    r = subprocess.run(["berkeley-abc", "-q", "version"], capture_output=True, text=True)
    line = (r.stdout + r.stderr).strip().splitlines()
    v["abc"] = line[0] if line else "?"
    return v


FLOW_FILES = [HERE / "asic.py", HERE / "fanout.py"]


def describe(tools=None, clock_ns=None):
    """The flow and its constraints in one Markdown paragraph (both documents
    quote it, so it is written once)."""
    tools = tools or {}
    cell, pin = LOAD_PIN
    return (
        "Yosys `synth -flatten` (memories become flip-flops and multiplexers), `dfflibmap` to "
        "the OSU 0.18 µm standard cells (Debian qflow-tech-osu018, `osu018_stdcells.lib`, "
        "typical corner, 1.8 V, 25 °C), then ABC with the library's timing and the clock "
        f"constraint{f' ({clock_ns} ns for every core)' if clock_ns else ''} as its delay target (`&nf -D`, then `buffer`, `upsize`, `dnsize`: "
        "mapping, buffering and gate sizing of the logic ABC sees); flip-flop outputs and "
        f"input ports, which ABC takes as ideal inputs, get balanced {FANOUT_BUF} trees of "
        f"fanout ≤ {MAX_FANOUT} (`hw/synth/fanout.py`); then static timing with OpenSTA "
        f"({tools.get('opensta', 'Debian opensta')}) on that netlist: one clock `clk` "
        "with the clock constraint as its period (ideal: no clock tree), input delay 0 "
        f"(inputs change at the clock edge, driven by a {INPUT_DRIVER}), output delay 0 "
        f"(outputs are due at the next edge, each loaded by one {cell} {pin} pin), no wire "
        "load (pre-layout). **fmax = 1 / (period − worst slack)**: the longest path, "
        "register to register or through a port, plus setup. **GE = total cell area of "
        "the timed netlist / area of NAND2X1** (24 units in this library), buffers "
        "included. Not in this flow, compared with the 2009 paper's (Cadence PKS on UMC's "
        "FSA0A_C library, figures after synthesis): layout and wiring (neither flow has "
        "them), the paper's 0.18 µm library (UMC's; OSU's here), and its adaptive "
        "search over the target delay (several runs per design, the target lowered after "
        "each run that met it and raised after each that failed): here one run per core "
        "with one delay target, the same for every core.")
