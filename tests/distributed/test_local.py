"""keccakx.distributed with its embedded default (a LocalCluster started
for the call), memory:// objects, and the errors a user meets first: an
unreachable scheduler, an invalid part size, a directory, an object that
changes size while it is read."""

from __future__ import annotations

import dataclasses
import errno
import os
import random
import threading
import time

import pytest
from conftest import CHUNK, free_port, keccakx_sum

import keccakx
from keccakx import distributed as kd


def test_local_cluster_default(tmp_path, rng, keccakx_bin):
    """No client and no default client: a LocalCluster on this machine."""
    from distributed import default_client

    with pytest.raises(ValueError):
        default_client()  # the session's cluster client is not the default
    data = rng.randbytes(3 * (1 << 20) + rng.randrange(CHUNK))
    f = tmp_path / "blob.bin"
    f.write_bytes(data)
    (tmp_path / "small").write_bytes(b"abc")
    part = CHUNK * rng.randint(1, 64)
    got = kd.digest(f, "kt128", part_size=part, progress=False)
    assert got == keccakx.kt128(data).digest(32) == keccakx_sum(keccakx_bin, f, "-a", "kt128")
    results = kd.hash_files(str(tmp_path / "*"), "parallelhash256", block_size=4096, part_size=4096 * 7,
                            progress=False)
    assert [r.url for r in results] == [str(f), str(tmp_path / "small")]
    assert results[0].digest == keccakx.parallelhash256(data, block_size=4096).digest()
    assert results[1].digest == keccakx.parallelhash256(b"abc", block_size=4096).digest()


def test_memory_objects_in_process(rng):
    """memory:// lives in this process: the default LocalCluster then runs
    its workers as threads here."""
    import fsspec

    data = rng.randbytes(5 * CHUNK + 3)
    with fsspec.open("memory://keccakx/obj", "wb") as f:
        f.write(data)
    got = kd.digest("memory://keccakx/obj", "kt256", custom=b"m", part_size=CHUNK, progress=False)
    assert got == keccakx.kt256(data, custom=b"m").digest(64)


def test_memory_objects_with_worker_processes(cluster, rng):
    import fsspec

    with fsspec.open("memory://keccakx/other", "wb") as f:
        f.write(b"x")
    [r] = kd.hash_files(["memory://keccakx/other"], "kt128", client=cluster.client, progress=False)
    assert isinstance(r.error, ValueError) and "processes=False" in str(r.error)


def test_unreachable_scheduler(tmp_path, monkeypatch):
    monkeypatch.setattr(kd, "CONNECT_TIMEOUT", 2)
    f = tmp_path / "f"
    f.write_bytes(b"data")
    address = f"tcp://127.0.0.1:{free_port()}"
    t = time.monotonic()
    with pytest.raises(ConnectionError, match=f"cannot reach the Dask scheduler at {address}"):
        kd.digest(f, client=address, progress=False)
    assert time.monotonic() - t < 30


def test_invalid_part_size_names_the_object(cluster, tmp_path):
    f = tmp_path / "obj"
    f.write_bytes(bytes(3 * CHUNK))
    with pytest.raises(ValueError, match=rf"{f}: part_size=1000 is not a positive multiple of KT128's 8192-byte chunk"):
        kd.digest(f, "kt128", client=cluster.client, part_size=1000)
    with pytest.raises(ValueError, match="block size 1000"):
        kd.digest(f, "parallelhash128", block_size=1000, client=cluster.client, part_size=8192)
    with pytest.raises(ValueError, match="positive"):
        kd.digest(f, "sha3-256", client=cluster.client, part_size=0)
    with pytest.raises(TypeError, match="part_size must be an int"):
        kd.digest(f, "kt128", client=cluster.client, part_size="1M")
    with pytest.raises(TypeError, match="unexpected keyword argument 'custom'"):
        kd.digest(f, "sha3-256", client=cluster.client, custom=b"x")
    with pytest.raises(ValueError, match="fixed digest size"):
        kd.digest(f, "sha3-256", client=cluster.client, digest_size=20)


def test_directory_and_missing_keep_the_others(cluster, tmp_path):
    f = tmp_path / "f"
    f.write_bytes(b"abc")
    results = kd.hash_files([str(tmp_path), str(f), str(tmp_path / "nope")], "sha3-256", client=cluster.client,
                            progress=False)
    assert isinstance(results[0].error, IsADirectoryError) and results[0].error.filename == str(tmp_path)
    assert results[1].digest == keccakx.sha3_256(b"abc").digest()
    assert isinstance(results[2].error, FileNotFoundError) and results[2].error.errno == errno.ENOENT


def test_object_changing_size_while_read(tmp_path):
    """A task whose object is not the one the client listed (size or
    mtime) fails, naming the object, rather than hashing a mix."""
    from keccakx import _tasks

    f = tmp_path / "grows"
    f.write_bytes(bytes(20000))
    spec = kd._spec("sha3-256", None, {})
    t = kd._target(str(f), {})
    assert _tasks.whole(t, spec) == keccakx.sha3_256(bytes(20000)).digest()
    for size in (10000, 30000):
        with pytest.raises(OSError, match="file changed size while being read") as e:
            _tasks.whole(dataclasses.replace(t, size=size, stamp=("local", size, t.stamp[2])), spec)
        assert e.value.filename == str(f)
    with pytest.raises(OSError, match="file changed size"):
        _tasks.kt_run(dataclasses.replace(t, size=30000, stamp=("local", 30000, t.stamp[2])), "kt128", CHUNK,
                      3 * CHUNK)
    assert _tasks.kt_run(t, "kt128", CHUNK, 2 * CHUNK) == keccakx.hazmat.kt_chaining_values(bytes(CHUNK), 1)
    # Listed as it is, but shorter than a range read natively (it shrank
    # after the task opened it): the object is named, the error is Changed.
    for run in (lambda: _tasks.kt_run(t, "kt128", CHUNK, 3 * CHUNK),
                lambda: _tasks.ph_run(t, "parallelhash128", 8192, 16384, 24576)):
        with pytest.raises(_tasks.Changed, match="file changed size while being read") as e:
            run()
        assert e.value.filename == str(f)
    # Same size, rewritten since it was listed: the modification time tells.
    os.utime(f, ns=(t.stamp[2] + 10**9, t.stamp[2] + 10**9))
    with pytest.raises(OSError, match="file changed while being read"):
        _tasks.whole(t, spec)


@pytest.mark.parametrize("algorithm", ["kt128", "kt256"])
def test_whole_kt_objects_read_natively_from_their_threshold(tmp_path, algorithm):
    """Local KT objects hashed whole by one task: read below NATIVE_MIN,
    their leaves from the mapped file from it on; the digest of the bytes
    either way, and a file that grew after it was listed is refused."""
    from keccakx import _tasks

    rng = random.Random(3)
    for n in (_tasks.NATIVE_MIN - 1, _tasks.NATIVE_MIN, _tasks.NATIVE_MIN + CHUNK + 5):
        data = rng.randbytes(n)
        f = tmp_path / f"o{n}"
        f.write_bytes(data)
        spec = kd._spec(algorithm, 40, {"custom": b"ctx"})
        want = keccakx.new(algorithm, data, custom=b"ctx").digest(40)
        assert _tasks.whole(kd._target(str(f), {}), spec) == want, n
    t = kd._target(str(f), {})
    with open(f, "ab") as g:
        g.write(b"more")
    with pytest.raises(OSError, match="file changed"):
        _tasks.whole(dataclasses.replace(t, stamp=kd._target(str(f), {}).stamp, size=t.size), spec)


def test_split_object_growing_while_hashed(cluster, tmp_path, rng):
    """An object that grows while its ranges are hashed: an error naming
    it (the final node checks the object again after its last range),
    never the digest of the old prefix."""
    data = rng.randbytes(8 << 20)
    f = tmp_path / "growing.bin"
    f.write_bytes(data)
    out = {}

    def job():
        try:
            out["digest"] = kd.digest(f, "kt128", client=cluster.client, part_size=CHUNK, progress=False)
        except Exception as e:
            out["error"] = e

    th = threading.Thread(target=job, daemon=True)
    th.start()
    # Once its tasks exist (the object was listed), the file grows.
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and th.is_alive():
        if cluster.client.run_on_scheduler(_our_tasks):
            break
        time.sleep(0.01)
    with open(f, "ab") as w:
        w.write(b"more")
    th.join(120)
    assert not th.is_alive()
    assert out.get("digest") != keccakx.kt128(data).digest(32), "the digest of the old prefix, reported as good"
    if "error" in out:
        assert "file changed" in str(out["error"]) and str(f) in str(out["error"])
    else:  # it grew before the listing: then the digest is of the new content
        assert out["digest"] == keccakx.kt128(data + b"more").digest(32)


def _our_tasks(dask_scheduler=None):
    return sum(1 for k in dask_scheduler.tasks if str(k).startswith("keccakx-cvs-"))


def test_literal_names_before_globs(cluster, tmp_path):
    """A name that exists is that file, even with glob characters; only a
    name that names nothing is a pattern."""
    (tmp_path / "b1.bin").write_bytes(b"one")
    (tmp_path / "b[1].bin").write_bytes(b"literal")
    [r] = kd.hash_files(str(tmp_path / "b[1].bin"), client=cluster.client, progress=False)
    assert r.digest == keccakx.sha3_256(b"literal").digest() and r.url == str(tmp_path / "b[1].bin")
    (tmp_path / "b1.bin").unlink()
    [r] = kd.hash_files(str(tmp_path / "b[1].bin"), client=cluster.client, progress=False)
    assert r.digest == keccakx.sha3_256(b"literal").digest()
    (tmp_path / "b2.bin").write_bytes(b"two")
    rs = kd.hash_files(str(tmp_path / "b[2-3].bin"), client=cluster.client, progress=False)
    assert [r.digest for r in rs] == [keccakx.sha3_256(b"two").digest()]


def test_path_like_and_bytes_paths(cluster, tmp_path):
    f = tmp_path / "p.bin"
    f.write_bytes(b"path")
    want = keccakx.sha3_256(b"path").digest()
    assert kd.digest(os.fsencode(f), "sha3-256", client=cluster.client, progress=False) == want
    assert kd.digest(f, "sha3-256", client=cluster.client, progress=False) == want
    rs = kd.hash_files([os.fsencode(f), f, str(f)], client=cluster.client, progress=False)
    assert [r.digest for r in rs] == [want] * 3 and [r.url for r in rs] == [str(f)] * 3
    assert kd.hash_files(os.fsencode(f), client=cluster.client, progress=False)[0].digest == want
    with pytest.raises(TypeError, match="client must be a dask.distributed.Client.*not 'int'"):
        kd.digest(f, client=5)
    with pytest.raises(TypeError, match="client must be"):
        kd.hash_files([f], client=object())
    with pytest.raises(TypeError, match="urls_or_glob must be .* not 'int'"):
        kd.hash_files(5, client=cluster.client)
    with pytest.raises(TypeError, match="urls_or_glob items must be .* not 'int'"):
        kd.hash_files([f, 5], client=cluster.client)
    with pytest.raises(TypeError, match="url must be .* not 'NoneType'"):
        kd.digest(None, client=cluster.client)


def test_results_api(cluster, tmp_path):
    f = tmp_path / "x"
    f.write_bytes(b"x")
    ok, bad = kd.hash_files([str(f), str(tmp_path / "missing")], client=cluster.client, progress=False)
    assert ok.ok and ok.hexdigest() == keccakx.sha3_256(b"x").hexdigest() and ok.size == 1
    assert not bad.ok
    with pytest.raises(FileNotFoundError):
        bad.hexdigest()
    assert os.fspath(f) == ok.url


def test_progress_bar_on_stderr(cluster, tmp_path, capfd):
    """Dask's text progress bar, drawn on standard error (standard output
    carries the results)."""
    f = tmp_path / "p"
    f.write_bytes(bytes(40 * CHUNK))
    d = kd.digest(f, "kt128", client=cluster.client, part_size=CHUNK, progress=True)
    assert d == keccakx.kt128(bytes(40 * CHUNK)).digest(32)
    time.sleep(0.5)  # the bar's last frame
    out, err = capfd.readouterr()
    assert "% Completed" in err and "Completed" not in out


def test_default_part_size_grows_with_the_object(tmp_path, rng, cluster, keccakx_bin, monkeypatch):
    """Without part_size, an object large enough to give every worker
    thread four parts anyway is cut into fewer, larger parts (up to the
    cap), on chunk (or block) boundaries; the digest is the same. The
    sizes are scaled down here (the client chooses them)."""
    from keccakx import _jobs

    monkeypatch.setattr(_jobs, "DEFAULT_PART_SIZE", 4 * CHUNK)
    monkeypatch.setattr(_jobs, "MAX_AUTO_PART_SIZE", 64 * CHUNK)
    threads = sum(cluster.client.nthreads().values())
    runs = []
    real = kd._window_mod.slots

    def spy(batches, *a, **k):
        for slot in real(batches, *a, **k):
            if slot.kind in ("first", "run"):
                runs.append(slot.args[-1] - slot.args[-2])  # (..., start, end)
            yield slot

    monkeypatch.setattr(kd._window_mod, "slots", spy)
    # (object size, part size wanted): the floor, a quarter of a thread's
    # share rounded up to a chunk, the cap.
    for size, want in ((8 * threads * CHUNK, 4 * CHUNK), (4 * 20 * threads * CHUNK + 5, 21 * CHUNK),
                       (4 * 100 * threads * CHUNK, 64 * CHUNK)):
        data = rng.randbytes(size)
        f = tmp_path / f"grow-{size}.bin"
        f.write_bytes(data)
        runs.clear()
        assert kd.digest(f, "kt128", client=cluster.client, progress=False) == keccakx_sum(keccakx_bin, f, "-a", "kt128")
        assert set(runs[:-1]) == {want} and runs[-1] <= want, (size, want, runs)
        f.unlink()
    # ParallelHash: a multiple of its block size.
    data = rng.randbytes(4 * 30 * threads * CHUNK)
    f = tmp_path / "grow-ph.bin"
    f.write_bytes(data)
    runs.clear()
    got = kd.digest(f, "parallelhash128", block_size=3000, client=cluster.client, progress=False)
    assert got == keccakx.parallelhash128(data, block_size=3000).digest()
    assert max(runs) % 3000 == 0 and max(runs) >= 30 * CHUNK, runs
    # Objects listed together: the batch must give every thread two parts.
    # Two objects of 8 * threads chunks: parts of 8 chunks (twice the floor),
    # so each object is cut in `threads` runs.
    fs = []
    for i in range(2):
        fs.append(tmp_path / f"pair-{i}.bin")
        fs[-1].write_bytes(rng.randbytes(8 * threads * CHUNK))
    runs.clear()
    res = kd.hash_files([str(p) for p in fs], "kt128", client=cluster.client, progress=False)
    assert [r.digest for r in res] == [keccakx_sum(keccakx_bin, p, "-a", "kt128") for p in fs]
    assert max(runs) == 8 * CHUNK and len(runs) == 2 * threads, runs
    # 2 * threads such objects: parts as large as an object, so each is
    # hashed whole by one task (no range tasks at all).
    fs += [tmp_path / f"more-{i}.bin" for i in range(2 * threads - 2)]
    for p in fs[2:]:
        p.write_bytes(rng.randbytes(8 * threads * CHUNK))
    runs.clear()
    res = kd.hash_files([str(p) for p in fs], "kt128", client=cluster.client, progress=False)
    assert [r.digest for r in res] == [keccakx_sum(keccakx_bin, p, "-a", "kt128") for p in fs]
    assert runs == [], runs
