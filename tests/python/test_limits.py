"""hash_many and file_digest when threads or address space run short, and
Ctrl-C during a long hash: right digests or a clear Python exception; never
an abort, a signal or a PanicException."""

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

import pytest

import keccakx

# Run as user nobody with a resource limit set before anything starts a
# thread; OpenBLAS (under NumPy) is kept to one thread, so the limit is ours.
SCRIPT = textwrap.dedent(
    """
    import resource, sys
    kind, n, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    res = {"nproc": resource.RLIMIT_NPROC, "as": resource.RLIMIT_AS}[kind]
    resource.setrlimit(res, (n, n))
    import hashlib
    import numpy as np, keccakx
    rows = np.frombuffer(bytes(range(256)) * 1000, np.uint8).reshape(4000, 64)
    got = keccakx.hash_many(rows, "sha3_256")
    assert got[1].tobytes() == hashlib.sha3_256(rows[1].tobytes()).digest()
    msgs = [bytes([i]) * (1 << 20) for i in range(6)]
    assert keccakx.hash_many(msgs, "kt128").tobytes() == b"".join(keccakx.kt128(m).digest(32) for m in msgs)
    data = open(path, "rb").read()
    assert keccakx.file_digest(path, "kt128").digest(32) == keccakx.kt128(data).digest(32)
    assert keccakx.file_digest(path, "sha3_256").digest() == hashlib.sha3_256(data).digest()
    assert keccakx.file_digest(path, "parallelhash128").digest() == keccakx.parallelhash128(data).digest()
    print("ok")
    """
)

AS_NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]


@pytest.fixture(scope="module")
def shared_dir():
    """A folder user nobody can read (pytest's own tmp_path is root's alone)."""
    probe = subprocess.run(AS_NOBODY + [sys.executable, "-c", "import keccakx, numpy"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"this interpreter does not start as user nobody: {probe.stderr.strip()[-200:]}")
    d = Path(tempfile.mkdtemp(prefix="keccakx-limits-"))
    os.chmod(d, 0o755)
    (d / "f.bin").write_bytes(os.urandom(3 << 20))
    os.chmod(d / "f.bin", 0o644)
    yield d
    shutil.rmtree(d)


CLEAN_ERRORS = ("MemoryError", "RuntimeError", "OSError", "BlockingIOError")


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0 or shutil.which("setpriv") is None,
    reason="needs root and setpriv to run as an unprivileged user",
)
@pytest.mark.parametrize("kind,n", [("nproc", 1), ("nproc", 2), ("nproc", 3), ("nproc", 5), ("as", 150_000_000),
                                    ("as", 200_000_000), ("as", 400_000_000)])
def test_short_of_threads_or_address_space(shared_dir, kind, n):
    f = shared_dir / "f.bin"
    p = subprocess.run(
        AS_NOBODY + [sys.executable, "-c", SCRIPT, kind, str(n), str(f)],
        capture_output=True, text=True, timeout=120, env={**os.environ, "OPENBLAS_NUM_THREADS": "1"},
    )
    out = p.stdout + p.stderr
    assert p.returncode >= 0, f"killed by signal {-p.returncode}: {out[-2000:]}"
    assert "PanicException" not in out and "panicked" not in out and "Fatal Python error" not in out, out[-3000:]
    if p.returncode != 0:
        # Only a clear exception, and only where the interpreter itself is
        # short (importing NumPy in 150 MB may fail); never a wrong digest.
        assert "AssertionError" not in out, out[-3000:]
        assert out.rstrip().splitlines()[-1].startswith(CLEAN_ERRORS), out[-3000:]
    else:
        assert p.stdout.strip() == "ok"
    if kind == "nproc" or n >= 200_000_000:
        assert p.returncode == 0, out[-3000:]


def test_ctrl_c_during_file_digest_returns_within_a_second(tmp_path):
    f = tmp_path / "sparse.bin"
    with open(f, "wb") as w:
        w.truncate(4 << 30)  # reads as zeros, takes no disk
    done = []
    t = threading.Timer(0.05, os.kill, (os.getpid(), signal.SIGINT))
    t.start()
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        done.append(keccakx.file_digest(str(f), "kt128"))
        time.sleep(10)
    t.join()
    assert time.perf_counter() - t0 < 1.0
    assert not done
