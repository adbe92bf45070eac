#!/usr/bin/env python3
"""Verilator --lint-only -Wall on every core of hw/cores.py: the wrapped top
and the bare core, with the entry's parameters. Exit status 1 on any warning.
Skipped, loudly, when Verilator is not installed."""

import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cores  # noqa: E402


def main():
    if shutil.which("verilator") is None:
        print("WARNING: verilator not available: lint skipped")
        return 0
    bad = 0
    for core in cores.CORES.values():
        files = [str(p) for p in core.verilog_files()]
        params = [f"-G{k}={v}" for k, v in sorted(core.params.items())]
        for top in (core.top, core.bare):
            incs = [f"-I{d}" for d in core.include_dirs()]
            cmd = ["verilator", "--lint-only", "-Wall", *incs, "--top-module", top,
                   *params, *files]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                bad += 1
                sys.stderr.write(f"--- {core.name}: {top}\n{r.stdout}{r.stderr}")
    names = ", ".join(cores.CORES)
    if bad:
        print(f"verilator lint: {bad} module(s) with warnings")
        return 1
    print(f"verilator lint: clean ({names}; wrapped and bare)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
