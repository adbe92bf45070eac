"""`keccakx sum URL` and `keccakx sum -c` with URLs, against real servers on
127.0.0.1 (moto's S3 server, a range-capable HTTP server) and the same
bytes on disk: every digest of an object equals the digest of the local
file, for every algorithm family and several concurrency settings; faults
(connection resets, 403, 404, a stalled server, an object replaced while
read) are retried or reported for that object alone."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from conftest import BIG, BUCKET, MIB
from servers import CuttingProxy

# (algorithm, options): one of each family, with parameters.
ALGOS = [
    ("sha3-256", []),
    ("sha3-512", []),
    ("shake128", ["-l", "40"]),
    ("keccak-256", []),
    ("cshake256", ["--customization", "c"]),
    ("kmac128", ["--key-hex", "00112233"]),
    ("tuplehash128", []),
    ("turboshake256", []),
    ("kt128", []),
    ("kt256", ["--customization", "C"]),
    ("parallelhash128", ["--block-size", "3000"]),
    ("parallelhashxof256", ["--block-size", "65536", "-l", "40"]),
    ("tree-li", []),
    ("blake-256", []),
]
# Tree modes across concurrency settings (KT256 and ParallelHashXOF run
# with the defaults in the family test): KT128 and ParallelHash hash each
# part where it arrives, tree LI receives parts whole (reused buffers).
TREE = [a for a in ALGOS if a[0] in ("kt128", "parallelhash128", "tree-li")]
# (KECCAKX_OBJECT_JOBS, KECCAKX_OBJECT_PART): one part at a time; a few
# small parts (the 3 MiB object in ~50 ranges); many large ones.
CONCURRENCY = [("1", "64K"), ("3", "64K"), ("16", "1M")]


def run(bin_path, args, env=None, check=True, timeout=120):
    r = subprocess.run([bin_path, *args], capture_output=True, env=env, timeout=timeout)
    if check and r.returncode != 0:
        raise AssertionError(f"{args}: exit {r.returncode}\n{r.stderr.decode()}")
    return r


def digests(out: bytes) -> list[str]:
    return [line.split(b" ")[0].decode() for line in out.splitlines()]


def local_digests(bin_path, root, names, algo, opts):
    return digests(run(bin_path, ["sum", "-a", algo, *opts, *[str(root / n) for n in names]]).stdout)


def env_with(base, **kw):
    env = dict(base if base is not None else os.environ)
    env.update({k: v for k, v in kw.items()})
    return env


@pytest.mark.parametrize("algo,opts", ALGOS, ids=[a[0] for a in ALGOS])
def test_every_family_equals_local(keccakx_bin, s3, www, objects, tmp_session, algo, opts):
    names = sorted(objects)
    want = local_digests(keccakx_bin, tmp_session / "www", names, algo, opts)
    port = www.server_address[1]
    for urls, env in [
        ([f"s3://{BUCKET}/data/{n}" for n in names], s3.env()),
        ([f"http://127.0.0.1:{port}/{n}" for n in names], None),
        ([(tmp_session / "www" / n).as_uri() for n in names], None),
    ]:
        r = run(keccakx_bin, ["sum", "-a", algo, *opts, *urls], env=env)
        assert digests(r.stdout) == want, urls[0]
        assert [line.split(b"  ", 1)[1].decode() for line in r.stdout.splitlines()] == urls


@pytest.mark.parametrize("jobs,part", CONCURRENCY)
@pytest.mark.parametrize("algo,opts", TREE, ids=[a[0] for a in TREE])
def test_tree_modes_any_concurrency(keccakx_bin, s3, www, objects, tmp_session, algo, opts, jobs, part):
    names = sorted(objects)
    want = local_digests(keccakx_bin, tmp_session / "www", names, algo, opts)
    port = www.server_address[1]
    for urls, env in [
        ([f"s3://{BUCKET}/data/{n}" for n in names], s3.env()),
        ([f"http://127.0.0.1:{port}/{n}" for n in names], dict(os.environ)),
    ]:
        env = env_with(env, KECCAKX_OBJECT_JOBS=jobs, KECCAKX_OBJECT_PART=part)
        # One object at a time with one part in flight; else several at once.
        threads = ["--threads", "1"] if jobs == "1" else []
        r = run(keccakx_bin, [*threads, "sum", "-a", algo, *opts, *urls], env=env)
        assert digests(r.stdout) == want, (urls[0], threads)


@pytest.fixture(scope="module")
def big(s3, tmp_session):
    """One object of ~100 MiB, on disk (served over HTTP) and in S3."""
    data = os.urandom(BIG)
    (tmp_session / "www" / "big.bin").write_bytes(data)
    s3.put("big/big.bin", data)
    return "big.bin"


@pytest.mark.parametrize("algo", ["kt128", "sha3-256"])
def test_big_object(keccakx_bin, s3, www, big, tmp_session, algo):
    want = local_digests(keccakx_bin, tmp_session / "www", [big], algo, [])
    port = www.server_address[1]
    for url, env in [(f"http://127.0.0.1:{port}/{big}", None), (f"s3://{BUCKET}/big/{big}", s3.env())]:
        r = run(keccakx_bin, ["sum", "-a", algo, "--progress", url], env=env)
        assert digests(r.stdout) == want, url
        assert b"MiB" in r.stderr, r.stderr  # --progress reports the object's bytes


def test_globs_and_prefixes(keccakx_bin, s3, objects):
    env = s3.env()
    names = sorted(objects)
    r = run(keccakx_bin, ["sum", "-a", "kt128", f"s3://{BUCKET}/data/*.bin"], env=env)
    assert [line.split(b"  ", 1)[1].decode() for line in r.stdout.splitlines()] == [
        f"s3://{BUCKET}/data/{n}" for n in names
    ]
    r2 = run(keccakx_bin, ["sum", "-a", "kt128", f"s3://{BUCKET}/data/"], env=env)
    assert r2.stdout == r.stdout
    r3 = run(keccakx_bin, ["sum", "-a", "kt128", f"s3://{BUCKET}/data/o819[12].bin"], env=env)
    assert len(r3.stdout.splitlines()) == 2
    # A pattern that matches nothing fails the run; the other inputs go on.
    r4 = run(keccakx_bin, ["sum", "-a", "kt128", f"s3://{BUCKET}/none/*.bin", f"s3://{BUCKET}/data/o1.bin"],
             env=env, check=False)
    assert r4.returncode == 1
    assert b"no objects match" in r4.stderr
    assert len(r4.stdout.splitlines()) == 1


def test_check_lists_naming_urls(keccakx_bin, s3, www, objects, tmp_session):
    port = www.server_address[1]
    urls = [f"s3://{BUCKET}/data/{n}" for n in sorted(objects)] + [f"http://127.0.0.1:{port}/o8192.bin"]
    for algo in ("kt128", "sha3-256"):
        lst = tmp_session / f"{algo}.sums"
        lst.write_bytes(run(keccakx_bin, ["sum", "-a", algo, "--tag", *urls], env=s3.env()).stdout)
        r = run(keccakx_bin, ["sum", "-c", str(lst)], env=s3.env())
        assert r.stdout.count(b": OK") == len(urls)
        # One wrong digest, one missing object: reported, the rest still OK.
        lines = lst.read_bytes().splitlines()
        lines[0] = lines[0][:-1] + (b"0" if lines[0][-1:] != b"0" else b"1")
        lines.append(lines[1].replace(b"/data/", b"/gone/"))
        bad = tmp_session / f"{algo}.bad"
        bad.write_bytes(b"\n".join(lines) + b"\n")
        r = run(keccakx_bin, ["sum", "-c", str(bad)], env=s3.env(), check=False)
        assert r.returncode == 1
        assert r.stdout.count(b": OK") == len(urls) - 1
        assert b"FAILED" in r.stdout
        assert b"/gone/" in r.stderr + r.stdout
        r = run(keccakx_bin, ["sum", "-c", "--ignore-missing", str(bad)], env=s3.env(), check=False)
        assert b"FAILED open" not in r.stdout


def one_error(r, needle: bytes, count: int):
    assert r.returncode == 1, r.stderr
    assert needle in r.stderr, r.stderr
    assert len(r.stdout.splitlines()) == count, r.stdout


def test_missing_and_forbidden(keccakx_bin, s3, www, objects):
    s3.put("secret", b"classified")
    port = www.server_address[1]
    ok = f"s3://{BUCKET}/data/o1.bin"
    for algo in ("kt128", "sha3-256"):
        r = run(keccakx_bin, ["sum", "-a", algo, f"s3://{BUCKET}/nope", ok, f"s3://{BUCKET}/secret", ok],
                env=s3.env(), check=False)
        one_error(r, b"nope", 2)
        assert b"No such object" in r.stderr and b"secret" in r.stderr and b"ermission" in r.stderr, r.stderr
        www.faults.status["o1.bin"] = 403
        try:
            r = run(keccakx_bin, ["sum", "-a", algo, f"http://127.0.0.1:{port}/o1.bin",
                                  f"http://127.0.0.1:{port}/nope", f"http://127.0.0.1:{port}/o8192.bin"], check=False)
        finally:
            del www.faults.status["o1.bin"]
        one_error(r, b"o1.bin", 1)
        assert b"nope" in r.stderr


@pytest.mark.parametrize("algo", ["kt128", "sha3-256"])
def test_connection_reset_mid_range_is_retried(keccakx_bin, s3, www, objects, tmp_session, algo):
    name = max(objects, key=lambda n: len(objects[n]))
    want = local_digests(keccakx_bin, tmp_session / "www", [name], algo, [])
    env = env_with(None, KECCAKX_OBJECT_PART="1M", KECCAKX_OBJECT_JOBS="2", KECCAKX_OBJECT_TIMEOUT="5")
    proxy = CuttingProxy(www.server_address[1], after=300_000, cuts=3)
    try:
        r = run(keccakx_bin, ["sum", "-a", algo, f"http://127.0.0.1:{proxy.port}/{name}"], env=env)
        assert digests(r.stdout) == want
        assert proxy.cut == 3
    finally:
        proxy.close()
    proxy = CuttingProxy(s3.port, after=300_000, cuts=2)
    try:
        env = env_with(s3.env(f"http://127.0.0.1:{proxy.port}"), KECCAKX_OBJECT_PART="1M", KECCAKX_OBJECT_TIMEOUT="5")
        r = run(keccakx_bin, ["sum", "-a", algo, f"s3://{BUCKET}/data/{name}"], env=env)
        assert digests(r.stdout) == want
    finally:
        proxy.close()


def test_stalled_server_times_out(keccakx_bin, www, objects):
    port = www.server_address[1]
    www.faults.stall["o8193.bin"] = 4.0
    env = env_with(None, KECCAKX_OBJECT_TIMEOUT="0.5", KECCAKX_OBJECT_RETRIES="1")
    try:
        for algo in ("kt128", "sha3-256"):
            t = time.monotonic()
            r = run(keccakx_bin, ["sum", "-a", algo, f"http://127.0.0.1:{port}/o8193.bin",
                                  f"http://127.0.0.1:{port}/o1.bin"], env=env, check=False, timeout=60)
            assert time.monotonic() - t < 20
            one_error(r, b"o8193.bin", 1)
    finally:
        del www.faults.stall["o8193.bin"]


@pytest.mark.parametrize("algo", ["kt128", "sha3-256"])
def test_object_replaced_while_read(keccakx_bin, www, objects, tmp_session, algo):
    root = tmp_session / "www"
    name = f"changing-{algo}.bin"
    (root / name).write_bytes(os.urandom(3 * MIB))
    port = www.server_address[1]
    # Replaced after the first GET: the next ranged GET (KT128, one part
    # at a time) or the GET resumed after a cut (SHA3, one stream) carries
    # the old ETag in If-Match and is refused.
    www.faults.overwrite_after[name] = 1
    proxy = CuttingProxy(port, after=1_500_000, cuts=1)
    env = env_with(None, KECCAKX_OBJECT_PART="256K", KECCAKX_OBJECT_JOBS="1", KECCAKX_OBJECT_TIMEOUT="5")
    try:
        r = run(keccakx_bin, ["sum", "-a", algo, f"http://127.0.0.1:{proxy.port}/{name}",
                              f"http://127.0.0.1:{port}/o1.bin"], env=env, check=False)
    finally:
        proxy.close()
        www.faults.overwrite_after.pop(name, None)
    one_error(r, b"changed while being read", 1)
    assert name.encode() in r.stderr


@pytest.mark.parametrize("algo", ["kt128", "sha3-256"])
@pytest.mark.parametrize("lie", [-1, +40_000])
def test_listed_size_differs_from_the_body(keccakx_bin, www, objects, algo, lie):
    # A HEAD that reports another size than the object has (same ETag):
    # the answers' sizes (Content-Range, Content-Length) do not match the
    # one listed, and the object's digest is refused, never computed on a
    # prefix or a padded body; the other objects go on.
    name = max(objects, key=lambda n: len(objects[n]))
    port = www.server_address[1]
    www.faults.head_size[name] = len(objects[name]) + lie
    env = env_with(None, KECCAKX_OBJECT_PART="64K", KECCAKX_OBJECT_RETRIES="1", KECCAKX_OBJECT_TIMEOUT="5")
    try:
        r = run(keccakx_bin, ["sum", "-a", algo, f"http://127.0.0.1:{port}/{name}",
                              f"http://127.0.0.1:{port}/o1.bin"], env=env, check=False, timeout=60)
    finally:
        del www.faults.head_size[name]
    one_error(r, b"size", 1)
    assert name.encode() in r.stderr
