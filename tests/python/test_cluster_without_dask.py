"""keccakx-cluster without its optional `dask` extra: a clear error, exit 2,
no traceback (the Dask tests themselves are in tests/distributed)."""

import subprocess
import sys

import pytest

PROG = """
import sys
for m in ("dask", "distributed", "fsspec", "s3fs"):
    sys.modules[m] = None   # import of m raises ModuleNotFoundError
from keccakx.cluster import main
sys.exit(main(["sum", sys.argv[1]]))
"""


@pytest.mark.parametrize("scheduler", [None, "tcp://127.0.0.1:1"])
def test_missing_extra_is_a_clear_error(tmp_path, scheduler):
    f = tmp_path / "f"
    f.write_bytes(b"abc")
    argv = [sys.executable, "-c", PROG, str(f)]
    if scheduler:
        argv = [sys.executable, "-c", PROG.replace('["sum", sys.argv[1]]',
                f'["sum", "--scheduler", "{scheduler}", sys.argv[1]]'), str(f)]
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert "pip install 'keccakx[dask]'" in r.stderr
    assert r.stdout == ""
