"""`keccakx-cluster sum` and `keccakx sum` on the edge cases a hostile user
tries: both commands run with the same arguments, standard input and
descriptors, and their standard output, standard error (but for the
program's name) and exit status compared byte for byte. Plus the command's
own failures (a bad scheduler, Ctrl-C): a one-line message, no traceback,
no hang."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time

import pytest
from conftest import CHUNK


@pytest.fixture(scope="module")
def edge_dir(tmp_path_factory, rng):
    d = tmp_path_factory.mktemp("edges")
    (d / "f.bin").write_bytes(rng.randbytes(3 * CHUNK + 5))
    (d / "b1.bin").write_bytes(b"the glob's match")
    (d / "b[1].bin").write_bytes(b"the literal name")
    (d / "only[2].bin").write_bytes(b"no glob matches this name")
    return d


def both(keccakx_bin, cluster_cli, cwd, args, scheduler, stdin=None, fds=None):
    """Run `keccakx sum ARGS` and `keccakx-cluster sum ARGS` alike and
    return (status, stdout, stderr) of each. ``fds``: shell redirections
    (e.g. ">/dev/full", ">&-", "<&-") applied to both."""
    outs = []
    for cmd in ([keccakx_bin, "sum"], [cluster_cli, "sum", "--no-progress", "--scheduler", scheduler]):
        argv = [*cmd, *args]
        if fds:
            # The shell applies the redirection; our end of the pipe gets
            # standard error (and standard output where not redirected).
            script = 'exec "$@" ' + fds
            argv = ["sh", "-c", script, "sh", *argv]
        p = subprocess.run(argv, cwd=cwd, capture_output=True, input=stdin, timeout=120)
        outs.append((p.returncode, p.stdout, p.stderr))
    (kr, ko, ke), (cr, co, ce) = outs
    assert b"Traceback" not in ce, ce.decode(errors="replace")
    assert co == ko, (args, co, ko, ce)
    assert ce.replace(b"keccakx-cluster: ", b"keccakx: ") == ke, (args, ce, ke)
    assert cr == kr, (args, cr, kr, ce)
    return outs[0]


def test_trailing_slash_and_empty_name(edge_dir, cluster, keccakx_bin, cluster_cli):
    r = both(keccakx_bin, cluster_cli, edge_dir, ["f.bin/", "", "f.bin"], cluster.address)
    assert r[0] == 1 and b"f.bin/: Not a directory" in r[2] and b"'': No such file or directory" in r[2]


def test_literal_name_before_glob(edge_dir, cluster, keccakx_bin, cluster_cli):
    """A name that exists is that file, even when it holds [ ]."""
    r = both(keccakx_bin, cluster_cli, edge_dir, ["b[1].bin", "only[2].bin", "-a", "kt128"], cluster.address)
    assert r[0] == 0 and r[1].count(b"\n") == 2


def test_nul_in_a_check_name_is_a_bad_line(edge_dir, cluster, keccakx_bin, cluster_cli):
    good = subprocess.run([keccakx_bin, "sum", "f.bin"], cwd=edge_dir, capture_output=True, check=True).stdout
    (edge_dir / "NUL.sums").write_bytes(good + b"0" * 64 + b"  f.b\0in\n")
    for opts in ([], ["-w"], ["--strict"]):
        both(keccakx_bin, cluster_cli, edge_dir, ["-c", *opts, "NUL.sums"], cluster.address)
    (edge_dir / "NUL-only.sums").write_bytes(b"0" * 64 + b"  a\0b\n")
    r = both(keccakx_bin, cluster_cli, edge_dir, ["-c", "NUL-only.sums"], cluster.address)
    assert r[0] == 1 and b"no properly formatted checksum lines" in r[2]


def test_check_names_and_algorithm_restriction(edge_dir, cluster, keccakx_bin, cluster_cli):
    """--check output of names holding a C1 control or a byte that is not
    UTF-8 (escaped), and -a restricting which lines count."""
    names = ["c1\u009b2J".encode(), b"raw\x9b2J", "n\u00f6".encode()]
    for n in names:
        (edge_dir / os.fsdecode(n)).write_bytes(n)
    sums = subprocess.run([keccakx_bin, "sum", *map(os.fsdecode, names)], cwd=edge_dir, capture_output=True).stdout
    sums += subprocess.run([keccakx_bin, "sum", "--tag", "-a", "shake128", "-l", "1", "f.bin"], cwd=edge_dir,
                           capture_output=True).stdout
    sums += subprocess.run([keccakx_bin, "sum", "--tag", "-a", "sha3-512", "f.bin"], cwd=edge_dir,
                           capture_output=True).stdout
    (edge_dir / "C1.sums").write_bytes(sums)
    r = both(keccakx_bin, cluster_cli, edge_dir, ["-c", "C1.sums"], cluster.address)
    assert r[0] == 0 and b"\\c1\\xc2\\x9b2J: OK" in r[1] and b"\\raw\\x9b2J: OK" in r[1]
    for algo in (["-a", "sha3-256"], ["-a", "shake128"], ["-a", "shake128", "-l", "1"]):
        both(keccakx_bin, cluster_cli, edge_dir, ["-c", "-w", *algo, "C1.sums"], cluster.address)


def test_parallelhash_block_size_above_32_bits(edge_dir, cluster, keccakx_bin, cluster_cli):
    both(keccakx_bin, cluster_cli, edge_dir, ["-a", "parallelhash128", "--block-size", "4294967296", "f.bin"],
         cluster.address)


@pytest.mark.parametrize(
    "fds,words",
    [(">/dev/full", b"write error: No space left on device"), (">&-", b"write error: Bad file descriptor")],
    ids=["dev-full", "stdout-closed"],
)
def test_output_errors(edge_dir, cluster, keccakx_bin, cluster_cli, fds, words):
    r = both(keccakx_bin, cluster_cli, edge_dir, ["f.bin"], cluster.address, fds=fds)
    assert r[0] == 1 and words in r[2]


def test_check_list_on_closed_stdin(edge_dir, cluster, keccakx_bin, cluster_cli):
    r = both(keccakx_bin, cluster_cli, edge_dir, ["-c"], cluster.address, fds="<&-")
    assert r[0] == 1 and b"Bad file descriptor" in r[2]


@pytest.mark.parametrize("algo", [[], ["-a", "kt128", "--tag"], ["-a", "tuplehash128", "-l", "40"]],
                         ids=["sha3", "kt128", "tuplehash"])
def test_standard_input(edge_dir, cluster, keccakx_bin, cluster_cli, rng, algo):
    data = rng.randbytes(2 * CHUNK + rng.randrange(CHUNK))
    r = both(keccakx_bin, cluster_cli, edge_dir, algo, cluster.address, stdin=data)
    assert r[0] == 0 and r[1].count(b"\n") == 1
    both(keccakx_bin, cluster_cli, edge_dir, [*algo, "f.bin", "-"], cluster.address, stdin=data)


def test_bad_scheduler_is_one_line_and_quick(edge_dir, cluster_cli):
    """No traceback and no hang in the client's cleanup."""
    cases = [
        (["--scheduler", "notaurl"], None, 1, b"cannot reach the Dask scheduler at notaurl"),
        ([], {"DASK_SCHEDULER_ADDRESS": "bogus"}, 1, b"cannot reach the Dask scheduler at bogus"),
        (["--connect-timeout", "-1"], None, 2, b"positive number of seconds"),
    ]
    for args, env, status, words in cases:
        t = time.monotonic()
        p = subprocess.run([cluster_cli, "sum", "--no-progress", *args, "f.bin"], cwd=edge_dir, capture_output=True,
                           timeout=60, env=dict(os.environ, **(env or {})))
        took = time.monotonic() - t
        assert p.returncode == status, (args, p.stderr)
        assert b"Traceback" not in p.stderr and words in p.stderr, (args, p.stderr)
        if status == 1:
            assert len(p.stderr.splitlines()) == 1, p.stderr
        assert took < 15, (args, took)


def test_ctrl_c_is_130_without_tracebacks(tmp_path, rng, cluster_cli):
    """SIGINT to the whole process group (what a terminal's Ctrl-C does),
    the command and its LocalCluster's workers alike."""
    f = tmp_path / "big.bin"
    f.write_bytes(rng.randbytes(32 << 20))
    p = subprocess.Popen([cluster_cli, "sum", "--no-progress", "-a", "kt128", "--part-size", "8K", f, f, f, f],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        time.sleep(6)  # the LocalCluster is up and hashing
        os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGKILL)
            p.wait()
    assert p.returncode == 130, err.decode(errors="replace")
    assert b"Traceback" not in err, err.decode(errors="replace")


def test_same_check_lists_same_bytes(edge_dir, cluster, keccakx_bin, cluster_cli, rng):
    """One checksum-file library behind both commands: every kind of line
    (GNU, --tag, sha3sum's SHAKE lengths, base64 digests, escaped names,
    single-space lines, sha3sum's U (universal newlines) and ^ (bits)
    lines, a `-` entry for standard input, bad lines, missing and changed
    files, refused parameters and reading modes) gives the same bytes and
    status."""
    ks = lambda *a: subprocess.run([keccakx_bin, "sum", *a], cwd=edge_dir, capture_output=True, check=True).stdout
    odd = b"new\nline\\back"
    (edge_dir / os.fsdecode(odd)).write_bytes(b"odd")
    (edge_dir / "changed.bin").write_bytes(b"before")
    data = rng.randbytes(CHUNK + 3)
    # Text with CR LF and lone CRs (past the 512 bytes sha3sum's text test
    # reads), and '0'/'1' characters that end inside a byte.
    (edge_dir / "crlf.txt").write_bytes(b"line\r\n" * 100 + b"lone\rend")
    (edge_dir / "bits.txt").write_bytes(b"0110 1001\n1 1\n" * 3 + b"101")
    modes = [
        ks("-U", "crlf.txt"),
        ks("-0", "bits.txt"),
        ks("-a", "512", "-U", "crlf.txt"),
        ks("-a", "shake128", "-l", "168", "-0", "bits.txt"),
        ks("-U", "f.bin"),  # not text: hashed as it is
        ks("-U", "crlf.txt").replace(b"U", b"^", 1),  # read as bits: another digest, FAILED
        b"0" * 64 + b" Ugone.bin\n",
    ]
    (edge_dir / "modes.sums").write_bytes(b"".join(modes))
    lines = [
        b"# a comment\r\n",
        ks("f.bin", os.fsdecode(odd)),
        ks("--tag", "-a", "kt128", "-l", "48", "f.bin"),
        ks("--tag", "-a", "sha3-512", "--base64", "f.bin"),
        ks("-a", "shake128", "-l", "168", "f.bin"),
        ks("-a", "shake256", "-l", "136", "b1.bin"),
        ks("--tag", "-a", "shake128", "-l", "1", "f.bin"),
        ks("changed.bin").replace(b"\n", b"\r\n"),
        b"0" * 64 + b"  gone.bin\n",
        b"KT128 (f.bin) = zz\n",
        b"\\" + b"0" * 64 + b"  bad\\qescape\n",
        b"SHA3-256 (" + b"x" * 10 + b"\n",
        b"\n",
    ]
    (edge_dir / "changed.bin").write_bytes(b"after")
    (edge_dir / "mixed.sums").write_bytes(b"".join(lines))
    (edge_dir / "single.sums").write_bytes(ks("f.bin").replace(b"  ", b" ") + ks("b1.bin").replace(b"  ", b" "))
    (edge_dir / "kmac.sums").write_bytes(ks("--tag", "-a", "kmac128", "--key-hex", "00ff", "f.bin")
                                         + ks("--tag", "-a", "cshake128", "--customization", "c", "f.bin")
                                         + ks("f.bin"))
    stdin_line = subprocess.run([keccakx_bin, "sum", "-"], input=data, capture_output=True, check=True).stdout
    (edge_dir / "stdin.sums").write_bytes(stdin_line + ks("f.bin"))
    runs = [
        ["-c", "mixed.sums"],
        ["-c", "-w", "mixed.sums", "single.sums"],
        ["-c", "--quiet", "--strict", "mixed.sums"],
        ["-c", "--status", "mixed.sums"],
        ["-c", "--ignore-missing", "mixed.sums", "nosuch.sums"],
        ["-c", "-w", "-a", "kt128", "mixed.sums"],
        ["-c", "-w", "-a", "shake128", "mixed.sums"],
        ["-c", "-w", "-a", "sha3-512", "mixed.sums"],
        ["-c", "single.sums"],
        ["-c", "-w", "modes.sums"],
        ["-c", "-w", "-a", "kt128", "-l", "32", "modes.sums"],
        ["-c", "-w", "-a", "tuplehash128", "-l", "32", "modes.sums"],
        ["-c", "-w", "--key-hex", "00ff", "kmac.sums"],
        ["-c", "-w", "--customization", "c", "kmac.sums"],
        ["-c", "-w", "-a", "sha3-256", "--customization", "c", "kmac.sums"],
        ["-a", "sha3-256", "--customization", "c", "f.bin"],
        ["-a", "keccak", "--degree", "2", "f.bin"],
        ["-a", "kmac128", "f.bin"],
        ["--tag", "f.bin", os.fsdecode(odd)],
        ["--zero", "f.bin", os.fsdecode(odd)],
    ]
    for args in runs:
        both(keccakx_bin, cluster_cli, edge_dir, args, cluster.address)
    # An entry `-` of a list read from a file is standard input; in a list
    # read from standard input it is a bad line.
    r = both(keccakx_bin, cluster_cli, edge_dir, ["-c", "stdin.sums"], cluster.address, stdin=data)
    assert r[0] == 0 and r[1] == b"-: OK\nf.bin: OK\n", r
    r = both(keccakx_bin, cluster_cli, edge_dir, ["-c", "-w", "-"], cluster.address, stdin=stdin_line + ks("f.bin"))
    assert r[0] == 0 and b"1 line is improperly formatted" in r[2], r


def test_check_list_is_streamed(edge_dir, cluster, keccakx_bin, cluster_cli):
    """`-c -` answers a batch of lines while the list is still open (a
    command that read the whole list first would wait for its end, and
    this test would time out): the list is read, hashed and answered a
    batch at a time, with bounded memory."""
    line = subprocess.run([keccakx_bin, "sum", "f.bin"], cwd=edge_dir, capture_output=True, check=True).stdout
    p = subprocess.Popen([cluster_cli, "sum", "--no-progress", "--scheduler", cluster.address, "-c", "-"],
                         cwd=edge_dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        p.stdin.write(line * 300)  # more than the first batch (256 objects)
        p.stdin.flush()
        got = b""
        deadline = time.monotonic() + 60
        while not got.endswith(b"\n"):  # the list stays open meanwhile
            left = deadline - time.monotonic()
            assert left > 0 and select.select([p.stdout], [], [], left)[0], f"no answer before the list ended: {got!r}"
            b = os.read(p.stdout.fileno(), 1 << 16)
            assert b, p.stderr.read()
            got += b
        assert got.startswith(b"f.bin: OK\n"), got
        p.stdin.write(line)
        p.stdin.close()
        rest = b"".join(iter(lambda: os.read(p.stdout.fileno(), 1 << 16), b""))
        assert p.wait(timeout=120) == 0, p.stderr.read()
        assert got + rest == b"f.bin: OK\n" * 301
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
