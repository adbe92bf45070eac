#!/usr/bin/env python3
"""`keccakx sum` against sha3sum (Perl's Digest::SHA3, Debian's
libdigest-sha3-perl), byte for byte, both ways.

For each of sha3sum's algorithms (-a 224, 256, 384, 512, 128000, 256000) and
reading modes (text, -b binary, -U universal newlines, -0 bits), and --tag,
both tools hash the same files (random bytes around the rates and the 64 KiB
piece the CLI translates at a time; text with CR LF, lone CR and a CR at a
piece's end; strings of '0' and '1' with other bytes between them; names with
a space and a backslash) and must print the same output. Then each checks the
other's lists: keccakx's `--check` reads sha3sum's lines (marks ' ', '*',
'U', '^'; SHAKE lines told apart by length, without -a) and sha3sum reads
ours; a list with one digest changed must fail in keccakx with FAILED and
exit status 1. Standard input is compared too, and keccakx run through a
link named `sha3sum` must answer sha3sum's own command lines (its default
algorithm, SHA3-224, included).

Exit status 1 on any difference; 2 when sha3sum is not installed.

Usage: sha3sum_compat.py [--bin PATH] [--sha3sum PATH] [--seed N]
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

ALGORITHMS = ["224", "256", "384", "512", "128000", "256000"]
MODES = {"text": [], "binary": ["-b"], "universal": ["-U"], "bits": ["-0"]}
PIECE = 64 << 10  # what algo.rs translates per call


def make_files(d, rng):
    """name -> bytes: the inputs both tools hash."""
    files = {}
    for n in [0, 1, 135, 136, 137, 168, 1000, PIECE + 3, (2 << 20) + 5]:
        files[f"bin{n}"] = rng.randbytes(n)
    files["crlf.txt"] = b"line one\r\nline two\r\n\r\nlast"
    files["cr.txt"] = b"a\rb\r\rc\r\r\nd\r"
    files["mixed.txt"] = b"".join(
        rng.choice([b"x", b"\r", b"\n", b"\r\n", b"\n\r", b"yz"]) for _ in range(20000)
    )
    # A CR as the last byte of the first piece, its LF the first of the next.
    files["edge.txt"] = b"a" * (PIECE - 1) + b"\r\n" + b"b" * 10 + b"\r"
    files["lf.txt"] = b"plain\nunix\ntext\n"
    for n in [0, 1, 4, 7, 8, 9, 15, 16, 17, 1087, 1088, 1089, 5000]:
        bits = "".join(rng.choice("01") for _ in range(n))
        # Other bytes between the bits are ignored by -0.
        noisy = "".join(c + rng.choice(["", "", " ", "\n", "x2"]) for c in bits)
        files[f"bits{n}.txt"] = noisy.encode()
    # -U reads only text with universal newlines (Perl's -T test on the
    # first 512 bytes): inputs on both sides of that line, each with a CR LF
    # so that the decision shows in the digest.
    tokens = [b"a", b"text ", b"\r\n", b"\0", b"\x80", b"\xff", b"\x01", b"\x0b", b"\x1b",
              b"\x08", b"\x7f", "é".encode(), "€".encode(), "\U0001F600".encode(),
              b"\xc0\x80", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80",
              b"\xfe\x82\x80\x80\x80\x80\x80", b"\xfe\x81\x80\x80\x80\x80\x80", b"\xc3"]
    for k in range(160):
        weights = [rng.random() ** 3 for _ in tokens]
        body = b"".join(rng.choices(tokens, weights, k=rng.randrange(1, 300)))
        if k % 4 == 0:
            # The 512-byte boundary: a NUL or a cut character just inside or out.
            body = b"x" * (510 + k % 3) + rng.choice([b"\0", "é".encode(), b"\x80"]) + body
        files[f"probe{k}"] = b"\r\n" + body
    files["a name"] = b"spaces in the name"
    files["back\\slash"] = b"a backslash in the name"
    for name, data in files.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    return files


def run(cmd, cwd, stdin=None):
    return subprocess.run(cmd, cwd=cwd, input=stdin, capture_output=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "keccakx"))
    ap.add_argument("--sha3sum", default=shutil.which("sha3sum"))
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    # The tools run in a scratch directory: a relative path would not be found.
    args.bin = os.path.abspath(args.bin)
    if not args.sha3sum:
        print("sha3sum_compat: sha3sum (libdigest-sha3-perl) is not installed", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    keccakx = [args.bin, "sum"]
    perl = [args.sha3sum]
    failures = []
    compared = 0
    with tempfile.TemporaryDirectory() as d:
        files = make_files(d, rng)
        names = sorted(files)
        lists = {"sha3sum": b"", "keccakx": b""}
        for alg in ALGORITHMS:
            for mode, flags in MODES.items():
                variants = [flags]
                if mode in ("text", "binary"):
                    variants.append(flags + ["--tag"])
                for v in variants:
                    want = run(perl + ["-a", alg] + v + names, d)
                    got = run(keccakx + ["-a", alg] + v + names, d)
                    compared += len(names)
                    label = f"-a {alg} {' '.join(v)}".strip()
                    if want.returncode != 0:
                        failures.append(f"{label}: sha3sum failed: {want.stderr.decode()}")
                    elif got.stdout != want.stdout or got.returncode != 0:
                        w, g = want.stdout.splitlines(), got.stdout.splitlines()
                        bad = [f"  sha3sum: {a!r}\n  keccakx: {b!r}" for a, b in zip(w, g) if a != b]
                        failures.append(f"{label}: output differs (rc {got.returncode})\n"
                                        + "\n".join(bad[:3]) + got.stderr.decode())
                    if "--tag" not in v:
                        lists["sha3sum"] += want.stdout
                        lists["keccakx"] += got.stdout
                # Standard input, in the same mode.
                data = files["mixed.txt"] if mode != "bits" else files["bits1089.txt"]
                want = run(perl + ["-a", alg] + flags, d, stdin=data)
                got = run(keccakx + ["-a", alg] + flags, d, stdin=data)
                compared += 1
                if got.stdout != want.stdout:
                    failures.append(f"-a {alg} {' '.join(flags)} from stdin: "
                                    f"{got.stdout!r} != {want.stdout!r}")
        # keccakx through a link named sha3sum: the same command lines, no -a.
        link_dir = os.path.join(d, "link")
        os.mkdir(link_dir)
        link = os.path.join(link_dir, "sha3sum")
        os.symlink(args.bin, link)
        for v in [[], ["-b"], ["-U"], ["-0"], ["--tag"]]:
            want = run(perl + v + names, d)
            got = run([link] + v + names, d)
            compared += len(names)
            if got.stdout != want.stdout or got.returncode != want.returncode:
                failures.append(f"keccakx as sha3sum {' '.join(v)}: output differs "
                                f"(rc {got.returncode}) {got.stderr.decode()[:300]}")
        # sha3sum's other command lines: its version (-v, exit 0), a number
        # with a leading zero, and usage errors (exit 1, nothing on stdout).
        for v in [["-v"], ["-a", "0256"] + names[:2], ["--bogus"], ["-a", "999"] + names[:1]]:
            want = run(perl + v, d)
            got = run([link] + v, d)
            compared += 1
            same_out = v == ["-v"] or got.stdout == want.stdout
            if got.returncode != want.returncode or not same_out or \
                    (v == ["-v"] and not got.stdout.strip()):
                failures.append(f"keccakx as sha3sum {' '.join(v)}: rc {got.returncode} "
                                f"(sha3sum {want.returncode}) {got.stdout[:200]!r} "
                                f"{got.stderr.decode()[:300]}")
        # Each tool checks the other's list (no -a: lines by their length).
        for writer, reader, cmd in [("sha3sum", "keccakx", keccakx), ("keccakx", "sha3sum", perl)]:
            path = os.path.join(d, f"{writer}.sums")
            with open(path, "wb") as f:
                f.write(lists[writer])
            r = run(cmd + ["-c", path], d)
            n_ok = r.stdout.count(b": OK\n")
            n_lines = lists[writer].count(b"\n")
            if r.returncode != 0 or n_ok != n_lines:
                failures.append(f"{reader} -c on {writer}'s list: rc {r.returncode}, "
                                f"{n_ok} OK of {n_lines}\n{r.stderr.decode()[:500]}")
        # One digest changed: FAILED, exit status 1, every other line OK.
        lines = lists["sha3sum"].splitlines(keepends=True)
        i = rng.randrange(len(lines))
        bad = lines[i][:3] + (b"0" if lines[i][3:4] != b"0" else b"1") + lines[i][4:]
        path = os.path.join(d, "tampered.sums")
        with open(path, "wb") as f:
            f.write(b"".join(lines[:i] + [bad] + lines[i + 1 :]))
        r = run(keccakx + ["-c", path], d)
        if r.returncode != 1 or r.stdout.count(b": FAILED\n") != 1 \
                or r.stdout.count(b": OK\n") != len(lines) - 1:
            failures.append(f"keccakx -c on a tampered list: rc {r.returncode}\n"
                            f"{r.stdout.decode()[-500:]}")
    print(f"sha3sum_compat: {compared} digests compared with {args.sha3sum}, "
          f"{len(ALGORITHMS) * len(MODES)} algorithm/mode pairs, both checks; "
          f"{len(failures)} failures")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
