"""``keccakx-cluster``'s command line: its options, their checks and the
hash parameters they give. Kept apart from :mod:`keccakx.cluster` (Dask
and the lines) so that each holds one thing; the options are ``keccakx
sum``'s, spelled as its ``--help`` spells them."""

from __future__ import annotations

import argparse
import os

from . import _keccakx, distributed

PROG = "keccakx-cluster"
MAX_LENGTH = 1 << 20
MAX_KEY_FILE = 1 << 20
DEFAULT_ALGORITHM = "sha3-256"


def _byte(s: str) -> int:
    t = s.strip()
    try:
        v = int(t[2:], 16) if t[:2].lower() == "0x" else int(t)
    except ValueError:
        v = -1
    if not 0 <= v <= 255:
        raise argparse.ArgumentTypeError(f"'{s}' is not a byte (0..255, decimal or 0x-prefixed hex)")
    return v


def _length(s: str) -> int:
    try:
        n = int(s.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{s}' is not a byte count") from None
    if n == 0:
        raise argparse.ArgumentTypeError("the output length must be at least 1 byte")
    if n < 0 or n > MAX_LENGTH:
        raise argparse.ArgumentTypeError(f"at most {MAX_LENGTH} bytes")
    return n


def _hex(s: str) -> bytes:
    t = "".join(s.split())
    if t.startswith("0x"):
        t = t[2:]
    if len(t) % 2:
        raise argparse.ArgumentTypeError("odd number of hex digits")
    try:
        return bytes.fromhex(t)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{s}' is not hexadecimal") from None


def _timeout(s: str) -> float:
    try:
        t = float(s)
    except ValueError:
        t = -1.0
    if not t > 0 or t != t or t == float("inf"):
        raise argparse.ArgumentTypeError(f"'{s}' is not a positive number of seconds")
    return t


def _size(s: str) -> int:
    """Bytes, with an optional K/M/G/T suffix (powers of 1024)."""
    t = s.strip().upper().removesuffix("IB").removesuffix("B")
    mult = 1
    if t and t[-1] in "KMGT":
        mult = 1 << (10 * ("KMGT".index(t[-1]) + 1))
        t = t[:-1]
    try:
        n = int(t) * mult
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{s}' is not a size (bytes, or with K/M/G/T)") from None
    if n <= 0:
        raise argparse.ArgumentTypeError("the part size must be positive")
    return n


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="keccakx sum on a Dask cluster: KT128/KT256/ParallelHash of one object by byte "
        "ranges over many workers, any algorithm over many objects; lines byte-identical to keccakx sum's.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser(
        "sum",
        help="print or check checksums (as keccakx sum)",
        description="Print or check checksums, as `keccakx sum` does, computed on a Dask cluster.",
        epilog="URLs: paths, file://, s3://, memory:// ... (fsspec). Exit status: 0 if every object "
        "was hashed (or every checksum matched), 1 if any failed, 2 for invalid arguments.\n\n"
        "Examples:\n  keccakx-cluster sum -a kt128 big.iso\n"
        "  keccakx-cluster sum --scheduler tcp://10.0.0.5:8786 -a kt256 --tag 's3://bucket/data/*.bin' > SUMS\n"
        "  keccakx-cluster sum -c SUMS",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("urls", nargs="*", metavar="URL", help="objects to hash (with -c: checksum files); - or none: standard input")
    g = s.add_argument_group("Cluster")
    g.add_argument(
        "--scheduler",
        metavar="ADDR",
        help="Dask scheduler address, e.g. tcp://HOST:8786 (default: $DASK_SCHEDULER_ADDRESS, else a "
        "LocalCluster on this machine)",
    )
    g.add_argument(
        "--connect-timeout", type=_timeout, default=distributed.CONNECT_TIMEOUT, metavar="S",
        help=f"seconds to wait for the scheduler (default {distributed.CONNECT_TIMEOUT})",
    )
    g.add_argument("--workers", type=int, default=1, metavar="N", help="workers of the LocalCluster (default 1)")
    g.add_argument(
        "--part-size",
        type=_size,
        metavar="BYTES",
        help="bytes per range task for KT/ParallelHash (default 128M, up to 256M for objects that give "
        "every worker thread four parts anyway, or batches of objects two; a multiple of 8192 for KT, of --block-size for "
        "ParallelHash); never changes the digest",
    )
    g.add_argument("--progress", dest="progress", action="store_true", default=None, help="show a progress bar (on stderr)")
    g.add_argument("--no-progress", dest="progress", action="store_false", help="no progress bar (default off unless stderr is a terminal)")
    s.add_argument("-a", "--algorithm", metavar="NAME", help="algorithm (default sha3-256); see `keccakx list`")
    s.add_argument("-l", "--length", type=_length, metavar="BYTES", help="output length in BYTES (variable-length algorithms)")
    s.add_argument("--customization", metavar="STRING", help="customization string S (cSHAKE, KMAC, TupleHash, ParallelHash, KT)")
    s.add_argument("--function-name", metavar="STRING", help="function-name string N (cSHAKE)")
    k = s.add_mutually_exclusive_group()
    k.add_argument("--key-hex", type=_hex, metavar="HEX", help="KMAC key in hexadecimal")
    k.add_argument("--key-file", metavar="FILE", help="KMAC key: the raw bytes of FILE")
    s.add_argument("--allow-empty-key", action="store_true", help="accept an empty KMAC key (a keyless hash), refused otherwise")
    s.add_argument("--block-size", type=int, metavar="BYTES", help="block size B (ParallelHash, default 8192; tree-LI leaf block)")
    s.add_argument("--domain", type=_byte, metavar="BYTE", help="TurboSHAKE domain byte 0x01..0x7F")
    for opt, what in (("--rate", "rate r in bits"), ("--capacity", "capacity c in bits"), ("--width", "width b in bits"), ("--rounds", "rounds nr")):
        s.add_argument(opt, type=int, metavar="N", help=f"raw keccak: {what}")
    s.add_argument("--suffix", type=_byte, metavar="BYTE", help="raw keccak: delimited suffix byte")
    s.add_argument("--degree", type=int, metavar="D", help="tree-LI degree")
    s.add_argument("--height", type=int, metavar="H", help="tree-LI height")
    pg = s.add_mutually_exclusive_group()
    pg.add_argument("--prefix", metavar="STRING", help="tree-LI prefix P")
    pg.add_argument("--prefix-hex", type=_hex, metavar="HEX", help="tree-LI prefix P in hexadecimal")
    o = s.add_argument_group("Output")
    o.add_argument("--tag", action="store_true", help="BSD-style lines: ALGORITHM (NAME) = HASH")
    o.add_argument("-z", "--zero", action="store_true", help="end lines with NUL, do not escape names")
    o.add_argument("-b", "--binary", action="store_true", help="mark names as binary (HASH *NAME)")
    o.add_argument("-t", "--text", action="store_true", help="mark names as text (the default)")
    c = s.add_argument_group("Checking")
    c.add_argument("-c", "--check", action="store_true", help="read checksums from the files and check them")
    c.add_argument("--quiet", dest="verbosity", action="store_const", const="quiet", help="don't print OK lines")
    c.add_argument("--status", dest="verbosity", action="store_const", const="status", help="no output; the exit status tells")
    c.add_argument("-w", "--warn", dest="verbosity", action="store_const", const="warn", help="warn about improperly formatted lines")
    c.add_argument("--strict", action="store_true", help="fail on improperly formatted lines")
    c.add_argument("--ignore-missing", action="store_true", help="don't fail or report status for missing files")
    return p


def _os_bytes(s) -> bytes:
    return os.fsencode(s) if s is not None else b""


def params_from(a) -> dict:
    p = {}
    if a.customization is not None:
        p["custom"] = _os_bytes(a.customization)
    if a.function_name is not None:
        p["function_name"] = _os_bytes(a.function_name)
    empty = "KMAC with an empty key is a keyless hash (give --allow-empty-key if that is what you want)"
    if a.key_hex is not None:
        if not a.key_hex and not a.allow_empty_key:
            raise ValueError(f"--key-hex: the key is empty; {empty}")
        p["key"] = a.key_hex
    elif a.key_file is not None:
        with open(a.key_file, "rb") as f:
            key = f.read(MAX_KEY_FILE + 1)
        if len(key) > MAX_KEY_FILE:
            raise ValueError(f"--key-file {quote(_os_bytes(a.key_file))}: larger than {MAX_KEY_FILE} bytes")
        if not key and not a.allow_empty_key:
            raise ValueError(f"--key-file {quote(_os_bytes(a.key_file))}: the file is empty; {empty}")
        p["key"] = key
    for name in ("block_size", "domain", "rate", "capacity", "width", "rounds", "suffix", "degree", "height"):
        v = getattr(a, name)
        if v is not None:
            p[name] = v
    if a.prefix is not None:
        p["prefix"] = _os_bytes(a.prefix)
    elif a.prefix_hex is not None:
        p["prefix"] = a.prefix_hex
    return p


def quote(name: bytes) -> str:
    """A name for a diagnostic, quoted as ``keccakx sum`` quotes it (gnulib's quotef)."""
    return _keccakx._sumfile_quote(name)
