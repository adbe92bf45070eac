"""pytest entry: builds each Keccak stream core of hw/cores.py (KECCAK) with
Icarus Verilog and runs the cocotb tests of sha3_bench.py on it."""

import sys
from pathlib import Path

import pytest
from cocotb_tools.runner import get_results, get_runner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import cores  # noqa: E402

BENCH_TESTS = 4  # the @cocotb.test functions of sha3_bench.py


@pytest.mark.parametrize("name", [c.name for c in cores.KECCAK])
def test_core(name):
    core = cores.get(name)
    runner = get_runner("icarus")
    build_dir = HERE / "sim_build" / name
    runner.build(
        sources=core.verilog_files(),
        includes=core.include_dirs(),
        hdl_toplevel=core.top,
        build_dir=build_dir,
        build_args=["-g2005"],
        timescale=("1ns", "1ps"),
        always=True,
    )
    results = runner.test(
        test_module="sha3_bench",
        hdl_toplevel=core.top,
        build_dir=build_dir,
        test_dir=HERE,
        extra_env={"SHA3_CORE": name},
        results_xml=str(build_dir / "results.xml"),
    )
    tests, failed = get_results(results)
    assert tests == BENCH_TESTS and failed == 0, f"{name}: {failed} of {tests} cocotb tests failed"
