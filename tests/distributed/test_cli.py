"""`keccakx-cluster sum` against the real `keccakx sum` built from this
worktree: stdout byte for byte (GNU and --tag lines, -z, names that need
escaping or quoting), stderr the same but for the program name, the same
exit status; `-c` with every status option. Mostly on the real scheduler
(--scheduler), once with the embedded LocalCluster, once reading s3://."""

from __future__ import annotations

import os
import subprocess

import pytest
from conftest import CHUNK, free_port

NAMES = [b"plain.bin", b"a b", b"back\\slash", b"new\nline", b"cr\rname", b"quote's", b"\xff\xfebytes", b"tab\tname"]


@pytest.fixture(scope="module")
def files(tmp_path_factory, rng):
    d = tmp_path_factory.mktemp("cli")
    sizes = [0, 1, CHUNK - 1, CHUNK, CHUNK + 1, 3 * CHUNK + rng.randrange(CHUNK), rng.randrange(300_000), 5]
    for name, n in zip(NAMES, sizes):
        (d / os.fsdecode(name)).write_bytes(rng.randbytes(n))
    return d


def run(cmd, cwd, stdin=None, env=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, timeout=180, input=stdin, env=env)
    return p.returncode, p.stdout, p.stderr


def same(keccakx_bin, cluster_cli, cwd, args, scheduler=None, cluster_args=(), env=None):
    k = run([keccakx_bin, "sum", *args], cwd)
    extra = ["--scheduler", scheduler] if scheduler else []
    c = run([cluster_cli, "sum", "--no-progress", *extra, *cluster_args, *args], cwd, env=env)
    assert c[1] == k[1], (args, c[1], k[1], c[2][-2000:])
    assert c[2].replace(b"keccakx-cluster: ", b"keccakx: ") == k[2], (args, c[2], k[2])
    assert c[0] == k[0], (args, c[0], k[0], c[2])
    return k


FILE_ARGS = [os.fsdecode(n) for n in NAMES] + ["missing-file"]

SUM_CASES = [
    [],
    ["-a", "kt128", "--customization", "app"],
    ["--tag", "-a", "kt256"],
    ["-z", "-a", "parallelhash128", "--block-size", "4096", "-l", "20"],
    ["-b", "-a", "tuplehashxof256", "-l", "33"],
    ["--tag", "-a", "KMAC128", "--key-hex", "0f0e", "-l", "16"],
    ["-a", "tree-li", "--degree", "2", "--height", "1"],
]


@pytest.mark.parametrize("args", SUM_CASES, ids=lambda a: " ".join(a) or "default")
def test_sum_lines_are_keccakx_sums(args, files, cluster, keccakx_bin, cluster_cli):
    k = same(keccakx_bin, cluster_cli, files, [*args, *FILE_ARGS], cluster.address, ["--part-size", "8192"])
    assert k[0] == 1 and b"missing-file: No such file or directory" in k[2]


def test_check_statuses_are_keccakx_sums(files, cluster, keccakx_bin, cluster_cli):
    ok_files = [os.fsdecode(n) for n in NAMES]
    sums = run([keccakx_bin, "sum", "--tag", "-a", "kt128", *ok_files[:4]], files)[1]
    sums += run([keccakx_bin, "sum", *ok_files[4:]], files)[1]
    sums += run([keccakx_bin, "sum", "-a", "shake256", "-l", "10", "--tag", ok_files[1]], files)[1]
    sums += b"# a comment\nnot a checksum line\n\n"
    sums += b"0" * 64 + b"  " + NAMES[0] + b"\n"  # mismatch
    sums += b"1" * 64 + b"  gone\n"  # missing
    sums += b"\\" + b"2" * 64 + b"  bad\\qescape\n"  # malformed escape
    (files / "SUMS").write_bytes(sums)
    (files / "EMPTY").write_bytes(b"junk\n")
    for opts in ([], ["--quiet"], ["--status"], ["-w"], ["--strict"], ["--ignore-missing"], ["--quiet", "-w"]):
        k = same(keccakx_bin, cluster_cli, files, ["-c", *opts, "SUMS"], cluster.address)
        assert k[0] == 1
    # Only good lines: exit 0; several checksum files, one unreadable, one without valid lines.
    good = run([keccakx_bin, "sum", *ok_files], files)[1]
    (files / "GOOD").write_bytes(good)
    k = same(keccakx_bin, cluster_cli, files, ["-c", "GOOD"], cluster.address)
    assert k[0] == 0 and k[1].count(b": OK\n") == len(ok_files)
    same(keccakx_bin, cluster_cli, files, ["-c", "GOOD", "NO-SUCH-SUMS", "EMPTY"], cluster.address)
    # The checksum list on standard input.
    k = run([keccakx_bin, "sum", "-c"], files, stdin=good)
    c = run([cluster_cli, "sum", "--no-progress", "--scheduler", cluster.address, "-c"], files, stdin=good)
    assert (c[0], c[1]) == (k[0], k[1]) == (0, k[1])


def test_local_cluster_and_s3(files, s3, keccakx_bin, cluster_cli):
    """No --scheduler: a LocalCluster on this machine (its workers inherit
    the fsspec settings from the environment)."""
    data = (files / "plain.bin").read_bytes() + (files / "a b").read_bytes()
    url = s3.put("cli/obj", data)
    (files / "obj").write_bytes(data)
    env = dict(os.environ)
    so = s3.storage_options
    env.update(
        FSSPEC_S3_KEY=so["key"],
        FSSPEC_S3_SECRET=so["secret"],
        FSSPEC_S3_ENDPOINT_URL=so["client_kwargs"]["endpoint_url"],
    )
    k = run([keccakx_bin, "sum", "-a", "kt128", "obj", "plain.bin"], files)
    c = run([cluster_cli, "sum", "--no-progress", "--part-size", "8K", "-a", "kt128", url, "plain.bin"], files,
            env=env)
    assert c[0] == 0, c[2]
    assert c[1] == k[1].replace(b"  obj\n", b"  " + url.encode() + b"\n")


def test_command_errors(files, keccakx_bin, cluster_cli):
    c = run([cluster_cli, "sum", "--scheduler", f"tcp://127.0.0.1:{free_port()}", "--connect-timeout", "2",
             "plain.bin"], files)
    assert c[0] == 1 and b"keccakx-cluster: cannot reach the Dask scheduler at tcp://127.0.0.1:" in c[2]
    c = run([cluster_cli, "sum", "-a", "kt128", "--part-size", "1000", "plain.bin"], files)
    assert c[0] == 2 and b"part_size=1000 is not a positive multiple of KT128's 8192-byte chunk" in c[2]
    c = run([cluster_cli, "sum", "-a", "blake256", "plain.bin"], files)
    assert c[0] == 2 and b"not available in keccakx-cluster" in c[2]
    c = run([cluster_cli, "sum", "-a", "sha3-256", "--customization", "x", "plain.bin"], files)
    assert c[0] == 2 and b"customization" in c[2]
    # An empty KMAC key is refused, as keccakx sum refuses it.
    for key in (["--key-hex", ""], ["--key-file", os.devnull]):
        k = run([keccakx_bin, "sum", "-a", "kmac128", *key, "plain.bin"], files)
        c = run([cluster_cli, "sum", "-a", "kmac128", *key, "plain.bin"], files)
        assert c[0] == k[0] == 2 and b"--allow-empty-key" in c[2]
        assert c[2].replace(b"keccakx-cluster: ", b"keccakx: ") == k[2]
    c = run([cluster_cli, "sum", "--tag", "-c", "x"], files)
    assert c[0] == 2
