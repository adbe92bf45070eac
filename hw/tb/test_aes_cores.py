"""pytest entry for the AES-based cores' own cocotb tests, built
with Icarus Verilog as in test_stream_cores.py: aes_cores_bench.py on the
wrapped tops (length-field edges), aes_bare_bench.py on the bare cores
(counters and lengths of messages up to 2^61 - 1 bytes)."""

import sys
from pathlib import Path

import pytest
from cocotb_tools.runner import get_results, get_runner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import cores  # noqa: E402

NAMES = ["echo256", "shavite3_256", "fugue256"]


@pytest.mark.parametrize("name", NAMES)
def test_aes_core_edges(name):
    core = cores.get(name)
    runner = get_runner("icarus")
    build_dir = HERE / "sim_build" / f"{name}_edges"
    runner.build(sources=core.verilog_files(), includes=core.include_dirs(), hdl_toplevel=core.top,
                 parameters=dict(core.params), build_dir=build_dir, build_args=["-g2005"],
                 timescale=("1ns", "1ps"), always=True)
    results = runner.test(test_module="aes_cores_bench", hdl_toplevel=core.top,
                          build_dir=build_dir, test_dir=HERE, extra_env={"HASH_CORE": name},
                          results_xml=str(build_dir / "results.xml"))
    tests, failed = get_results(results)
    assert tests == 1 and failed == 0, f"{name}: {failed} of {tests} cocotb tests failed"


@pytest.mark.parametrize("name", NAMES)
def test_aes_core_long_counters(name):
    core = cores.get(name)
    runner = get_runner("icarus")
    build_dir = HERE / "sim_build" / f"{name}_bare"
    runner.build(sources=core.verilog_files(), includes=core.include_dirs(), hdl_toplevel=core.bare,
                 parameters=dict(core.params), build_dir=build_dir, build_args=["-g2005"],
                 timescale=("1ns", "1ps"), always=True)
    results = runner.test(test_module="aes_bare_bench", hdl_toplevel=core.bare,
                          build_dir=build_dir, test_dir=HERE, extra_env={"HASH_CORE": name},
                          results_xml=str(build_dir / "results.xml"))
    tests, failed = get_results(results)
    assert tests == 1 and failed == 0, f"{name}: {failed} of {tests} cocotb tests failed"
