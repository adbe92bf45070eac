"""pytest entry: the SIMD-256 core's own cocotb tests (simd_bench.py), for
what the generic bench cannot see (the stall on a held digest)."""

import sys
from pathlib import Path

from cocotb_tools.runner import get_results, get_runner

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import cores  # noqa: E402

BENCH_TESTS = 2  # the @cocotb.test functions of simd_bench.py


def test_simd_core():
    core = cores.get("simd256")
    runner = get_runner("icarus")
    build_dir = HERE / "sim_build" / "simd256_own"
    runner.build(
        sources=core.verilog_files(),
        includes=core.include_dirs(),
        hdl_toplevel=core.top,
        parameters=dict(core.params),
        build_dir=build_dir,
        build_args=["-g2005"],
        timescale=("1ns", "1ps"),
        always=True,
    )
    results = runner.test(
        test_module="simd_bench",
        hdl_toplevel=core.top,
        build_dir=build_dir,
        test_dir=HERE,
        extra_env={"HASH_CORE": core.name},
        results_xml=str(build_dir / "results.xml"),
    )
    tests, failed = get_results(results)
    assert tests == BENCH_TESTS and failed == 0, f"simd256: {failed} of {tests} cocotb tests failed"
