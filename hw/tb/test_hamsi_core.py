"""pytest entry: the bare Hamsi-256 core's own bench (hamsi_core_bench.py),
for what the generic stream bench cannot reach: length fields of 2^32 bits
and more."""

import sys
from pathlib import Path

from cocotb_tools.runner import get_results, get_runner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import cores  # noqa: E402


def test_hamsi_core_length_field():
    core = cores.get("hamsi256")
    runner = get_runner("icarus")
    build_dir = HERE / "sim_build" / "hamsi_core"
    runner.build(sources=core.verilog_files(), includes=core.include_dirs(), hdl_toplevel=core.bare,
                 build_dir=build_dir, build_args=["-g2005"], timescale=("1ns", "1ps"),
                 always=True)
    results = runner.test(test_module="hamsi_core_bench", hdl_toplevel=core.bare,
                          build_dir=build_dir, test_dir=HERE,
                          results_xml=str(build_dir / "results.xml"))
    tests, failed = get_results(results)
    assert tests == 1 and failed == 0
