"""A worker killed (SIGKILL) while a job runs: Dask re-runs its tasks, and
any results it held, on the other worker; the digest is still exact."""

from __future__ import annotations

import os
import signal
import threading
import time

from conftest import CHUNK, DaskCluster

import keccakx
from keccakx import distributed as kd


def _state_counts(dask_scheduler=None):
    """Our tasks not yet computed, and the workers processing any."""
    todo = sum(
        1
        for k, ts in dask_scheduler.tasks.items()
        if str(k).startswith("keccakx-") and ts.state in ("released", "waiting", "queued", "processing", "no-worker")
    )
    busy = {ws.name for ws in dask_scheduler.workers.values() if ws.processing}
    return todo, sorted(busy)


def test_worker_killed_mid_job(tmp_session, rng):
    c = DaskCluster(tmp_session, 2, "fault")
    try:
        # Many small parts, so the job lasts seconds on this machine and the
        # kill lands in the middle of it.
        data = rng.randbytes(16 << 20)
        f = tmp_session / "fault.bin"
        f.write_bytes(data)
        want = keccakx.kt128(data, custom=b"f").digest(32)
        out = {}

        def job():
            try:
                out["digest"] = kd.digest(f, "kt128", custom=b"f", client=c.client, part_size=CHUNK, progress=False)
            except BaseException as e:  # reported by the assertion below
                out["error"] = e

        t = threading.Thread(target=job, daemon=True)
        t.start()
        victim = c.workers[0]
        deadline = time.monotonic() + 120
        killed_at = None
        first_seen = None
        while time.monotonic() < deadline and t.is_alive():
            todo, busy = c.client.run_on_scheduler(_state_counts)
            if todo and first_seen is None:
                first_seen = time.monotonic()
            # A fifth of a second into the job (some parts done), with a window
            # of parts still to go and the victim working on one.
            if first_seen and time.monotonic() - first_seen > 0.2 and todo >= 16 and "fault-w0" in busy:
                os.kill(victim.pid, signal.SIGKILL)
                killed_at = todo
                break
            time.sleep(0.02)
        assert killed_at is not None, f"the job ended before a worker could be killed in its middle: {out}"
        assert t.is_alive(), "the job must still be running when the worker dies"
        t.join(240)
        assert not t.is_alive(), "the job did not finish after the worker was lost"
        assert "error" not in out, out.get("error")
        assert out["digest"] == want
        victim.wait(10)
        assert len(c.client.scheduler_info()["workers"]) == 1
    finally:
        c.close()
