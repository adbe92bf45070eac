"""keccakx.distributed on a real Dask scheduler with two worker processes,
reading objects of random sizes from a real S3-compatible server (moto) with
s3fs, hashed with random part sizes: every digest equals the local
library's and `keccakx sum`'s on the same bytes. Per-object errors (missing,
permission denied) leave the other objects' results intact."""

from __future__ import annotations

import errno

import pytest
from conftest import CHUNK, keccakx_sum

import keccakx
from keccakx import distributed as kd

MIB = 1 << 20


@pytest.fixture(scope="module")
def objects(s3, rng, tmp_session):
    """(url, bytes, local path) for objects of 0, 1, 8191, 8192, 8193
    bytes, a few MiB and tens of MiB (random sizes), in S3 and on disk."""
    sizes = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, rng.randint(2 * MIB, 5 * MIB), rng.randint(20 * MIB, 30 * MIB)]
    out = []
    for i, n in enumerate(sizes):
        data = rng.randbytes(n)
        local = tmp_session / f"obj{i}-{n}"
        local.write_bytes(data)
        out.append((s3.put(f"data/obj{i}-{n}", data), data, local))
    return out


def aligned_part(rng, size: int, unit: int) -> int:
    """A random part size, a multiple of ``unit``, giving 2 to ~60 parts."""
    lo = max(1, size // (60 * unit))
    hi = max(lo, size // (2 * unit))
    return unit * rng.randint(lo, hi)


TREE_CASES = [
    # (algorithm, CLI options, keccakx.new params, output length)
    ("kt128", [], {}, 32),
    ("kt256", ["--customization", "C"], {"custom": b"C"}, 64),
    ("kt128", ["--customization", "x" * 9000, "-l", "100"], {"custom": b"x" * 9000}, 100),
    ("parallelhash128", ["--block-size", "65536", "--customization", "s"], {"block_size": 65536, "custom": b"s"}, 32),
    ("parallelhashxof256", ["--block-size", "3000", "-l", "40"], {"block_size": 3000}, 40),
]


def one_machine(algorithm: str, params: dict, length: int, data: bytes) -> bytes:
    h = keccakx.new(algorithm, data, **params, **({"digest_size": length} if algorithm == "parallelhash128" else {}))
    return h.digest(length) if h.digest_size == 0 else h.digest()


@pytest.mark.parametrize("case", TREE_CASES, ids=lambda c: f"{c[0]}-{len(c[1])}")
def test_tree_digests_equal_one_machine(case, cluster, s3, objects, keccakx_bin, rng):
    algorithm, cli_opts, params, length = case
    unit = params.get("block_size", CHUNK) if algorithm.startswith("parallelhash") else CHUNK
    want = {}
    for url, data, local in objects:
        lib = one_machine(algorithm, params, length, data)
        assert keccakx_sum(keccakx_bin, local, "-a", algorithm, *cli_opts) == lib, url
        want[url] = lib
    small = [u for u, d, _ in objects if len(d) <= 4 * CHUNK]
    urls = [u for u, _, _ in objects]
    # hash_files: one task per small object, range tasks for the others,
    # each with a fresh random part size: a part of 1-3 units splits even
    # the 8193-byte object; the large ones get 2 to ~60 parts.
    rounds = [(small, unit * rng.randint(1, 3)), (urls, aligned_part(rng, len(objects[-1][1]), unit))]
    for urls, part in rounds:
        results = kd.hash_files(
            urls, algorithm, client=cluster.client, part_size=part, digest_size=length,
            storage_options=s3.storage_options, progress=False, **params,
        )
        assert [r.url for r in results] == urls
        for r in results:
            assert r.error is None, r.error
            assert r.digest == want[r.url], (r.url, part)
    # digest: one object, the largest, split with a random part size.
    url, data, local = objects[-1]
    part = aligned_part(rng, len(data), unit)
    got = kd.digest(url, algorithm, client=cluster.client, part_size=part, digest_size=length,
                    storage_options=s3.storage_options, progress=False, **params)
    assert got == want[url], part


SEQUENTIAL_CASES = [
    ("sha3-256", [], {}, None),
    ("shake128", ["-l", "20"], {}, 20),
    ("kmac256", ["--key-hex", "00112233", "--customization", "app"], {"key": bytes.fromhex("00112233"), "custom": b"app"}, None),
    ("tuplehash128", ["--customization", "t", "-l", "48"], {"custom": b"t"}, 48),
    ("turboshake256", ["--domain", "0x0b"], {"domain": 0x0B}, None),
    ("keccak-256", [], {}, None),
]


@pytest.mark.parametrize("case", SEQUENTIAL_CASES, ids=lambda c: c[0])
def test_sequential_functions_one_task_per_object(case, cluster, s3, objects, keccakx_bin, monkeypatch):
    algorithm, cli_opts, params, length = case
    submitted = []
    real = kd._window_mod.slots

    def spy(jobs, *a, **k):
        for slot in real(jobs, *a, **k):
            submitted.extend([slot.kind] * len(slot.jobs))
            yield slot

    monkeypatch.setattr(kd._window_mod, "slots", spy)
    urls = [u for u, _, _ in objects]
    results = kd.hash_files(urls, algorithm, client=cluster.client, part_size=CHUNK, digest_size=length,
                            storage_options=s3.storage_options, progress=False, **params)
    # A sequential function is never split, whatever the part size.
    assert submitted == ["group"] * len(urls)
    for (url, data, local), r in zip(objects, results):
        assert r.error is None, r.error
        assert r.digest == keccakx_sum(keccakx_bin, local, "-a", algorithm, *cli_opts), url


def test_large_tree_objects_are_split(cluster, s3, objects, monkeypatch):
    submitted = []
    real = kd._window_mod.slots

    def spy(jobs, *a, **k):
        for slot in real(jobs, *a, **k):
            submitted.append((slot.jobs[0].size, slot.kind))
            yield slot

    monkeypatch.setattr(kd._window_mod, "slots", spy)
    url, data, _ = objects[-1]
    part = 1 * MIB
    kd.hash_files([url, objects[0][0]], "kt128", client=cluster.client, part_size=part,
                  storage_options=s3.storage_options, progress=False)
    whole_leaves = len(data) // CHUNK - 1
    runs = -(-whole_leaves * CHUNK // part)
    assert submitted == [(len(data), "first")] + [(len(data), "run")] * (runs - 1) + [(0, "group")]


def test_missing_and_forbidden_objects_keep_the_others(cluster, s3, objects, keccakx_bin):
    secret = s3.put("secret", b"no one may read this")
    missing = f"s3://{objects[0][0].split('/')[2]}/data/no-such-object"
    (ok1, d1, _), (ok2, d2, _) = objects[3], objects[5]
    urls = [ok1, missing, secret, ok2]
    results = kd.hash_files(urls, "kt128", client=cluster.client, part_size=CHUNK,
                            storage_options=s3.storage_options, progress=False)
    assert [r.url for r in results] == urls
    assert results[0].digest == keccakx.kt128(d1).digest(32)
    assert results[3].digest == keccakx.kt128(d2).digest(32)
    assert isinstance(results[1].error, FileNotFoundError) and results[1].error.errno == errno.ENOENT
    assert missing in str(results[1].error)
    assert isinstance(results[2].error, PermissionError) and secret in str(results[2].error)
    with pytest.raises(FileNotFoundError, match="no-such-object"):
        kd.digest(missing, client=cluster.client, storage_options=s3.storage_options, progress=False)
    with pytest.raises(PermissionError, match="secret"):
        kd.digest(secret, "sha3-256", client=cluster.client, storage_options=s3.storage_options, progress=False)


def test_glob(cluster, s3, objects):
    results = kd.hash_files(f"s3://{objects[0][0].split('/')[2]}/data/obj*", "kt256", client=cluster.client,
                            storage_options=s3.storage_options, progress=False)
    want = sorted(u for u, _, _ in objects)
    assert [r.url for r in results] == want
    by_url = {u: d for u, d, _ in objects}
    for r in results:
        assert r.digest == keccakx.kt256(by_url[r.url]).digest(64)
