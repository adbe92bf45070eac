"""pytest entry: builds each SHA-3 stream core with Icarus Verilog and runs
the cocotb tests of sha3_bench.py on it."""

import os
from pathlib import Path

import pytest
from cocotb_tools.runner import get_results, get_runner

HERE = Path(__file__).resolve().parent
RTL = HERE.parent / "rtl"
CORES = ["basic", "hs", "fold4", "pipe", "fold4ff"]


@pytest.mark.parametrize("core", CORES)
def test_core(core):
    sources = sorted(RTL.glob("*.v"))
    runner = get_runner("icarus")
    build_dir = HERE / "sim_build" / core
    runner.build(
        sources=sources,
        includes=[RTL],
        hdl_toplevel=f"sha3_{core}",
        build_dir=build_dir,
        build_args=["-g2005"],
        timescale=("1ns", "1ps"),
        always=True,
    )
    results = runner.test(
        test_module="sha3_bench",
        hdl_toplevel=f"sha3_{core}",
        build_dir=build_dir,
        test_dir=HERE,
        extra_env={"SHA3_CORE": core},
        results_xml=str(build_dir / "results.xml"),
    )
    tests, failed = get_results(results)
    assert tests == 4 and failed == 0, f"{core}: {failed} of {tests} cocotb tests failed"
