"""``keccakx-cluster``: ``keccakx sum`` on a Dask cluster.

    keccakx-cluster sum [--scheduler tcp://HOST:8786] [-a ALGO] [--tag] URL...
    keccakx-cluster sum -c SUMS

Prints the lines ``keccakx sum`` prints, byte for byte (GNU ``HASH  NAME``
or ``--tag`` BSD lines, coreutils' escaping of names holding ``\\``, newline
or carriage return, ``-z``), and ``-c`` checks them with ``keccakx sum -c``'s
statuses, messages and exit codes. URLs are anything fsspec opens (paths,
``file://``, ``s3://`` ...); a URL with ``*?[`` that names no object is
expanded as a glob (a name that exists is always that object). Each object
is hashed by :mod:`keccakx.distributed`: KT128/KT256/ParallelHash by byte
ranges over the workers, other functions whole, small objects many to a
task. Without ``--scheduler`` (or ``DASK_SCHEDULER_ADDRESS``) a
LocalCluster on this machine runs the tasks. ``-`` (or no URL) is standard
input, hashed by this process (its length is not known in advance, so it
is not cut into ranges; TupleHash and ParallelHash spool it to $TMPDIR).

The semantics are ``keccakx sum``'s (its Rust code is not reused): see
``keccakx sum --help``. Not available here: the SHA-3 finalists (BLAKE,
Groestl, JH, Skein), which the Python module lacks.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import unicodedata
from dataclasses import dataclass

from . import _keccakx, distributed

PROG = "keccakx-cluster"
MAX_LENGTH = 1 << 20
MAX_KEY_FILE = 1 << 20
DEFAULT_ALGORITHM = "sha3-256"


def warn(msg: str) -> None:
    try:
        sys.stderr.write(f"{PROG}: {msg}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def cause(e: BaseException) -> str:
    """The message of an error, as strerror words it where there is one."""
    if isinstance(e, OSError) and e.strerror:
        return e.strerror
    return str(e) or type(e).__name__


# ---------------------------------------------------------------- names (GNU coreutils' ways)


def needs_escape(name: bytes) -> bool:
    return any(c in b"\\\n\r" for c in name)


def escape(name: bytes) -> bytes:
    return name.replace(b"\\", b"\\\\").replace(b"\n", b"\\n").replace(b"\r", b"\\r")


def unescape(s: bytes):
    """Undo :func:`escape`; None for a bad escape, a lone backslash or NUL."""
    out = bytearray()
    i = 0
    while i < len(s):
        c = s[i]
        if c == 0x5C:
            if i + 1 >= len(s):
                return None
            n = s[i + 1]
            if n == ord("n"):
                out.append(0x0A)
            elif n == ord("r"):
                out.append(0x0D)
            elif n == 0x5C:
                out.append(0x5C)
            else:
                return None
            i += 2
            continue
        if c == 0:
            return None
        out.append(c)
        i += 1
    return bytes(out)


_PLAIN = set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789%+,-./@]_{}")


def _is_plain(c: int, first: bool) -> bool:
    return c in _PLAIN or (c in b"#~" and not first)


def _printable_utf8(b: bytes) -> bool:
    try:
        s = b.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return not any(unicodedata.category(ch) == "Cc" for ch in s)


_ANSI = {0x07: "\\a", 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x0B: "\\v"}


def _pieces(b: bytes):
    """Runs of printable text and single unprintable bytes."""
    out = []
    while b:
        try:
            valid, rest = b.decode("utf-8"), b""
        except UnicodeDecodeError as e:
            valid, rest = b[: e.start].decode("utf-8"), b[e.start :]
        start = 0
        for i, ch in enumerate(valid):
            if unicodedata.category(ch) == "Cc":
                if start < i:
                    out.append(("t", valid[start:i]))
                out.extend(("b", x) for x in ch.encode("utf-8"))
                start = i + 1
        if start < len(valid):
            out.append(("t", valid[start:]))
        if rest:
            out.append(("b", rest[0]))
            b = rest[1:]
        else:
            b = b""
    return out


def quote(name: bytes) -> str:
    """A name for a diagnostic, quoted like gnulib's quotef (shell style)."""
    if not name:
        return "''"
    if all(_is_plain(c, i == 0) or c >= 0x80 for i, c in enumerate(name)) and _printable_utf8(name):
        return name.decode("utf-8")
    if b"'" in name and _printable_utf8(name) and not any(c in b'"$`\\!' for c in name):
        return '"' + name.decode("utf-8") + '"'
    out = "'"
    is_open = True
    for kind, v in _pieces(name):
        if kind == "t":
            if not is_open:
                out += "'"
                is_open = True
            out += v.replace("'", "'\\''")
        else:
            if is_open:
                out += "'"
                is_open = False
            out += "$'" + _ANSI.get(v, "\\%03o" % v) + "'"
    if is_open:
        out += "'"
    return out


def format_line(tag: bool, zero: bool, binary: bool, display: str, digest: bytes, name: bytes) -> bytes:
    """One output line, byte for byte as ``keccakx sum`` (and coreutils) writes it."""
    esc = not zero and needs_escape(name)
    n = escape(name) if esc else name
    lead = b"\\" if esc else b""
    if tag:
        line = lead + display.encode() + b" (" + n + b") = " + digest.hex().encode()
    else:
        line = lead + digest.hex().encode() + b" " + (b"*" if binary else b" ") + n
    return line + (b"\0" if zero else b"\n")


# ---------------------------------------------------------------- algorithms


@dataclass(frozen=True)
class AlgInfo:
    name: str
    display: str
    default_len: int
    variable_len: bool
    xof: bool
    params: tuple


def _info(name: str):
    try:
        n, display, default_len, variable_len, xof, params = _keccakx._registry_entry(name)
    except ValueError:
        return None
    return AlgInfo(n, display, default_len, variable_len, xof, tuple(params))


_ALL = [_info(n) for n in _keccakx._registry_names()]


def find_tag(tag: str):
    """An algorithm by the name in a BSD line: its tag name (any case) or any -a spelling."""
    for a in _ALL:
        if a.display.lower() == tag.lower():
            return a
    return _info(tag)


# keccakx.new's keywords with the parameter groups that take each (the
# registry's data): a function takes a keyword when it takes any of them.
_KEYWORD_GROUPS = dict(_keccakx._registry_keywords())


def _takes(info: AlgInfo, keyword: str) -> bool:
    return any(g in info.params for g in _KEYWORD_GROUPS.get(keyword, ()))


def params_for(info: AlgInfo, p: dict) -> dict:
    """The parameters (keccakx.new keywords) that ``info`` takes."""
    return {k: v for k, v in p.items() if _takes(info, k)}


_REFUSED = {
    "customization": "this algorithm takes no customization string",
    "function_name": "this algorithm takes no function name",
    "key": "this algorithm takes no key",
    "block_size": "this algorithm takes no block size",
    "domain": "this algorithm takes no domain byte",
    "sponge": "only the raw `keccak` algorithm takes --rate/--capacity/--width/--rounds/--suffix",
    "tree": "--degree, --height and --prefix are tree-li parameters",
}


def refused_param(info: AlgInfo, params: dict):
    """keccakx sum's message for a parameter ``info`` does not take, or None
    (the message of the first group that takes it)."""
    for k in params:
        if not _takes(info, k):
            return _REFUSED[_KEYWORD_GROUPS[k][0]]
    return None


def make_spec(info: AlgInfo, length, params: dict):
    """A validated algorithm, or the error message."""
    try:
        return distributed._spec(info.name, length, params)
    except (TypeError, ValueError) as e:
        return f"-a {info.name}: {e}"


# ---------------------------------------------------------------- --check


@dataclass
class Entry:
    name: bytes
    expected: bytes
    info: AlgInfo


class Context:
    def __init__(self, spec, info: AlgInfo, algo_given: bool, params: dict, length):
        self.spec = spec
        self.info = info
        self.algo_given = algo_given
        self.params = params
        self.length = length
        self.cache = {}

    def instance(self, info: AlgInfo, n: int):
        if info.name == self.info.name and n == self.spec.out_len:
            return self.spec
        key = (info.name, n)
        if key not in self.cache:
            base = self.params if info.name == self.info.name else params_for(info, self.params)
            self.cache[key] = make_spec(info, n if info.variable_len else None, base)
        return self.cache[key]

    def fits(self, info: AlgInfo, hex_len: int) -> bool:
        if hex_len < 2 or hex_len % 2:
            return False
        n = hex_len // 2
        if not info.variable_len:
            return n == info.default_len
        if self.length is not None:
            return n == self.length
        if self.algo_given:
            # -a naming an XOF: no digest shorter than its default verifies
            # unless -l allows it (-a must not let a weaker check pass).
            return info.default_len <= n <= MAX_LENGTH
        return n <= MAX_LENGTH


_HEX = set(b"0123456789abcdefABCDEF")
_UNTAGGED = {56: "sha3-224", 64: "sha3-256", 96: "sha3-384", 128: "sha3-512"}


class Parser:
    """One checksum file's lines, as coreutils' split_3 reads them."""

    def __init__(self):
        self.bsd_reversed = -1  # -1 undecided, 0 two-column lines seen, 1 reversed

    def parse(self, s: bytes, ctx: Context):
        i = 0
        while i < len(s) and s[i] in b" \t":
            i += 1
        escaped = s[i : i + 1] == b"\\"
        if escaped:
            i += 1
        rest = s[i:]
        name_end = next((k for k, c in enumerate(rest) if c in b" ("), len(rest))
        if name_end > 0:
            try:
                tag = rest[:name_end].decode("utf-8")
            except UnicodeDecodeError:
                tag = None
            info = find_tag(tag) if tag is not None else None
            if info is not None:
                # With -a, a line of another algorithm is improperly
                # formatted (as cksum -a): -a restricts the check.
                if ctx.algo_given and info.name != ctx.info.name:
                    return None
                j = name_end
                if rest[j : j + 1] == b" ":
                    j += 1
                if rest[j : j + 1] != b"(":
                    return None
                return self.parse_bsd(rest[j + 1 :], escaped, info, ctx)
        hex_len = 0
        while hex_len < len(rest) and rest[hex_len] in _HEX:
            hex_len += 1
        if ctx.algo_given:
            info = ctx.info
        else:
            if hex_len not in _UNTAGGED:
                return None
            info = _info(_UNTAGGED[hex_len])
        if not ctx.fits(info, hex_len) or not (hex_len < len(rest) and rest[hex_len] in b" \t"):
            return None
        expected = bytes.fromhex(rest[:hex_len].decode("ascii"))
        k = hex_len + 1
        left = len(rest) - k
        if left == 1 or rest[k : k + 1] not in (b" ", b"*"):
            if self.bsd_reversed == 0:
                return None
            self.bsd_reversed = 1
        elif self.bsd_reversed != 1:
            self.bsd_reversed = 0
            k += 1
        name = rest[k:]
        if escaped:
            name = unescape(name)
            if name is None:
                return None
        if b"\0" in name:
            return None  # no file name holds NUL
        return Entry(name, expected, info)

    def parse_bsd(self, s: bytes, escaped: bool, info: AlgInfo, ctx: Context):
        close = s.rfind(b")")
        if close < 0:
            return None
        name = unescape(s[:close]) if escaped else s[:close]
        if name is None or b"\0" in name:
            return None
        i = close + 1
        while i < len(s) and s[i] in b" \t":
            i += 1
        if s[i : i + 1] != b"=":
            return None
        i += 1
        while i < len(s) and s[i] in b" \t":
            i += 1
        h = s[i:]
        if not all(c in _HEX for c in h) or not ctx.fits(info, len(h)):
            return None
        return Entry(name, bytes.fromhex(h.decode("ascii")), info)


def check_name(name: bytes) -> bytes:
    """The name as --check prints it (as keccakx sum does): as it is, unless
    it holds a control character (C0, DEL or C1) or a byte that is not
    UTF-8; then a leading backslash and ``\\\\``, ``\\n``, ``\\r``,
    ``\\t``, ``\\xHH`` for each byte of the others."""
    parts = _pieces(name)
    if all(kind == "t" for kind, _ in parts):
        return name
    out = bytearray(b"\\")
    for kind, v in parts:
        if kind == "t":
            out += v.encode("utf-8").replace(b"\\", b"\\\\")
        elif v == 0x0A:
            out += b"\\n"
        elif v == 0x0D:
            out += b"\\r"
        elif v == 0x09:
            out += b"\\t"
        else:
            out += b"\\x%02x" % v
    return bytes(out)


def plural(n: int, one: str, many: str) -> str:
    return f"WARNING: {n} {one if n == 1 else many}"


class Out:
    """Standard output; a reader that goes away (| head) ends quietly, any
    other write error (a full disk, a closed descriptor) is keccakx sum's
    "write error: ..." and exit status 1."""

    class Closed(Exception):
        pass

    class Failed(Exception):
        pass

    def __init__(self):
        out = sys.stdout
        self.w = getattr(out, "buffer", None) if out is not None else None
        try:
            self.tty = out is not None and out.isatty()
        except (OSError, ValueError):
            self.tty = False

    def _fail(self, e: OSError):
        # Whatever is still buffered goes nowhere: no second report (or
        # traceback) when Python flushes standard output at exit.
        if self.w is not None:
            _to_devnull(1)
        raise Out.Failed(cause(e)) from None

    def _do(self, f):
        import errno

        if self.w is None:
            self._fail(OSError(errno.EBADF, os.strerror(errno.EBADF)))
        try:
            f()
        except BrokenPipeError:
            raise Out.Closed() from None
        except (OSError, ValueError) as e:
            self._fail(e if isinstance(e, OSError) else OSError(errno.EBADF, os.strerror(errno.EBADF)))

    def write(self, b: bytes):
        self._do(lambda: (self.w.write(b), self.w.flush() if self.tty else None))

    def flush(self):
        self._do(lambda: self.w.flush())


def read_list(file: str) -> bytes:
    if file == "-":
        fd = _stdin_fd()
        chunks = []
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                return b"".join(chunks)
            chunks.append(b)
    if "://" in file:
        import fsspec

        with fsspec.open(file, "rb") as f:
            return f.read()
    with open(file, "rb") as f:
        return f.read()


def check_one(content: bytes, label: str, is_stdin: bool, ctx: Context, a, out: Out, run) -> bool:
    slots = []  # ("bad", lineno, why) or ("check", entry, index into items)
    items = []
    parser = Parser()
    for lineno, raw in enumerate(content.split(b"\n"), 1):
        if raw.startswith(b"#"):
            continue
        line = raw[:-1] if raw.endswith(b"\r") else raw
        if not line:
            continue
        e = parser.parse(line, ctx)
        if e is not None and not (is_stdin and e.name == b"-"):
            spec = ctx.instance(e.info, len(e.expected))
            if isinstance(spec, str):
                slots.append(("bad", lineno, spec))
            else:
                slots.append(("check", e, len(items)))
                items.append((os.fsdecode(e.name), spec))
        else:
            slots.append(("bad", lineno, None))
    results = run(items) if items else []
    formatted = misformatted = read_failures = mismatched = 0
    matched_any = False
    display = ctx.info.display
    for slot in slots:
        line = None
        if slot[0] == "bad":
            _, n, why = slot
            misformatted += 1
            if why is not None:
                warn(f"{label}: {n}: {why}")
            elif a.verbosity == "warn":
                warn(f"{label}: {n}: improperly formatted {display} checksum line")
        else:
            _, e, idx = slot
            r = results[idx]
            formatted += 1
            if r.error is not None:
                if a.ignore_missing and isinstance(r.error, FileNotFoundError):
                    pass
                else:
                    warn(f"{quote(e.name)}: {cause(r.error)}")
                    read_failures += 1
                    if a.verbosity != "status":
                        line = check_name(e.name) + b": FAILED open or read\n"
            else:
                ok = r.digest == e.expected
                if ok:
                    matched_any = True
                else:
                    mismatched += 1
                if a.verbosity != "status" and (not ok or a.verbosity != "quiet"):
                    line = check_name(e.name) + (b": OK\n" if ok else b": FAILED\n")
        if line is not None:
            out.write(line)
    if formatted == 0:
        warn(f"{label}: no properly formatted checksum lines found")
        return False
    if a.verbosity != "status":
        out.flush()
        if misformatted:
            warn(plural(misformatted, "line is improperly formatted", "lines are improperly formatted"))
        if read_failures:
            warn(plural(read_failures, "listed file could not be read", "listed files could not be read"))
        if mismatched:
            warn(plural(mismatched, "computed checksum did NOT match", "computed checksums did NOT match"))
        if a.ignore_missing and not matched_any:
            warn(f"{label}: no file was verified")
    return matched_any and mismatched == 0 and read_failures == 0 and (not a.strict or misformatted == 0)


# ---------------------------------------------------------------- command line


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
        help="bytes per range task for KT/ParallelHash (default 64M; a multiple of 8192 for KT, of "
        "--block-size for ParallelHash); never changes the digest",
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


def _expand_args(urls: list) -> list:
    """Names as ``keccakx.distributed.hash_files`` takes them: a name that
    exists is that object; one that names nothing and holds ``*?[`` is
    expanded as a glob; one that matches nothing is kept (and reported)."""
    out = []
    for u in urls:
        if u == "-":
            out.append(u)
            continue
        out.extend(distributed._expand_one(u, {}) or [u])
    return out


def hash_stdin(spec) -> bytes:
    """Standard input, hashed by this process (its length is not known in
    advance, so it cannot be cut into ranges for the workers). TupleHash
    and ParallelHash need the length first: their input is spooled to a
    temporary file ($TMPDIR)."""
    fd = _stdin_fd()
    if spec.kind in ("tuple", "ph"):
        import tempfile

        from . import _tasks

        with tempfile.NamedTemporaryFile(prefix="keccakx-stdin-") as tmp:
            while True:
                b = os.read(fd, 1 << 20)
                if not b:
                    break
                tmp.write(b)
            tmp.flush()
            st = os.fstat(tmp.fileno())
            t = _tasks.Target("-", tmp.name, True, st.st_size, _tasks.local_stamp(st))
            return _tasks.whole(t, spec)
    h = spec.hasher(0)
    buf = bytearray(8 << 20)
    view = memoryview(buf)
    while True:
        n = os.readv(fd, [view])
        if not n:
            break
        h.update(view[:n])
    return spec.finish(h)


def _stdin_fd() -> int:
    """Standard input's descriptor; EBADF (as keccakx sum says it) when closed."""
    import errno

    try:
        if sys.stdin is None:  # closed when Python started
            raise OSError
        fd = sys.stdin.fileno()
        os.fstat(fd)
        return fd
    except (OSError, ValueError, AttributeError):
        raise OSError(errno.EBADF, os.strerror(errno.EBADF)) from None


def sum_main(a) -> int:
    if a.check:
        for opt, on in (("--tag", a.tag), ("-z/--zero", a.zero), ("-b/--binary", a.binary), ("-t/--text", a.text)):
            if on:
                warn(f"{opt} cannot be used with --check")
                return 2
    else:
        for opt, on in (("--quiet/--status/--warn", a.verbosity is not None), ("--strict", a.strict), ("--ignore-missing", a.ignore_missing)):
            if on:
                warn(f"{opt} needs --check")
                return 2
        if a.tag and a.text:
            warn("--tag cannot be used with -t/--text")
            return 2
        if a.binary and a.text:
            warn("-b/--binary cannot be used with -t/--text")
            return 2
    name = a.algorithm or DEFAULT_ALGORITHM
    info = _info(name)
    if info is None:
        warn(f"-a {name}: unknown algorithm (run `keccakx list` for the names; the SHA-3 finalists are not available in {PROG})")
        return 2
    try:
        params = params_from(a)
    except OSError as e:
        warn(f"--key-file {quote(_os_bytes(a.key_file))}: {cause(e)}")
        return 1
    except ValueError as e:
        warn(str(e))
        return 2
    own = params_for(info, params) if a.check and a.algorithm is None else params
    refused = refused_param(info, own)
    if refused:
        warn(f"-a {info.name}: {refused}")
        return 2
    spec = make_spec(info, a.length, own)
    if isinstance(spec, str):
        warn(spec)
        return 2
    if a.check and not a.urls:
        a.urls = ["-"]
    if not a.urls:
        a.urls = ["-"]
    try:
        distributed._check_part_size(a.part_size, spec, "--part-size")
    except (TypeError, ValueError) as e:
        warn(str(e))
        return 2
    scheduler = a.scheduler or os.environ.get("DASK_SCHEDULER_ADDRESS") or None
    out = Out()
    status = 0
    try:
        with _client(scheduler, a.workers, a.connect_timeout) as client:

            def run(items):
                if not items:
                    return []
                # Check lines of tree functions whose part size does not fit
                # (a -l/--block-size mix) fall back to the default.
                ps = a.part_size
                if ps is not None:
                    for _, sp in items:
                        try:
                            distributed._check_part_size(ps, sp, "")
                        except (TypeError, ValueError):
                            ps = None
                return distributed._run(items, client=client.get(), part_size=ps, progress=a.progress)

            if a.check:
                ctx = Context(spec, info, a.algorithm is not None, params, a.length)
                for file in a.urls:
                    is_stdin = file == "-"
                    label = quote(b"standard input") if is_stdin else quote(_os_bytes(file))
                    try:
                        content = read_list(file)
                    except OSError as e:
                        warn(f"{label}: {cause(e)}")
                        status = 1
                        continue
                    if not check_one(content, label, is_stdin, ctx, a, out, run):
                        status = 1
            else:
                urls = _expand_args(a.urls)
                results = iter(run([(u, spec) for u in urls if u != "-"]))
                for u in urls:
                    if u == "-":
                        try:
                            digest, err = hash_stdin(spec), None
                        except OSError as e:
                            digest, err = None, e
                    else:
                        r = next(results)
                        digest, err = r.digest, r.error
                    if err is None:
                        out.write(format_line(a.tag, a.zero, a.binary, spec.display, digest, _os_bytes(u)))
                    else:
                        warn(f"{quote(_os_bytes(u))}: {cause(err)}")
                        status = 1
            out.flush()
    except Out.Closed:
        return status
    except Out.Failed as e:
        warn(f"write error: {e}")
        return 1
    except ConnectionError as e:
        warn(str(e))
        return 1
    return status


class _client:
    """The Dask client for the whole command: the scheduler's, or a
    LocalCluster of ``workers`` workers started here."""

    def __init__(self, scheduler, workers, timeout):
        self.scheduler = scheduler
        self.workers = workers
        self.timeout = timeout
        self.cluster = None
        self.client = None

    def __enter__(self):
        return self

    def get(self):
        """The client, connected (or the LocalCluster started) on first use:
        standard input alone needs none."""
        if self.client is not None:
            return self.client
        if self.scheduler:
            self.client = distributed._connect(self.scheduler, self.timeout)
        else:
            from distributed import Client

            # The workers ignore Ctrl-C (they inherit SIG_IGN): this process
            # stops them when it ends, without their tracebacks.
            old = signal.signal(signal.SIGINT, signal.SIG_IGN)
            try:
                self.cluster = distributed.local_cluster(n_workers=max(1, self.workers))
            finally:
                signal.signal(signal.SIGINT, old)
            self.client = Client(self.cluster, set_as_default=False)
        return self.client

    def __exit__(self, *exc):
        if self.client is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()
        return False


# Modules of the `dask` extra (pyproject.toml), imported only when needed.
_EXTRA_MODULES = {"dask", "distributed", "fsspec", "s3fs"}


def _to_devnull(fd: int) -> None:
    try:
        n = os.open(os.devnull, os.O_RDWR)
        if n != fd:
            os.dup2(n, fd)
            os.close(n)
    except OSError:
        pass


def _hold_closed_std_fds() -> None:
    """Standard descriptors closed by the caller (``>&-``, ``<&-``) get
    /dev/null, so that no socket or file opened later takes their number
    (and our output); Python already set sys.stdin/stdout to None for them,
    which the readers and writers here report as "Bad file descriptor"."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            _to_devnull(fd)


def main(argv=None) -> int:
    _hold_closed_std_fds()
    a = build_parser().parse_args(argv)
    if a.command == "sum":
        try:
            return sum_main(a)
        except KeyboardInterrupt:
            # Ctrl-C: the status a shell gives SIGINT, without a traceback.
            return 130
        except ModuleNotFoundError as e:
            # Dask and fsspec are the optional extra; without them say so,
            # not a traceback.
            if (e.name or "").split(".")[0] not in _EXTRA_MODULES:
                raise
            print(f"keccakx-cluster: {e.name} is not installed: "
                  "pip install 'keccakx[dask]'", file=sys.stderr)
            return 2
    return 2  # pragma: no cover - argparse requires a command


def _entry() -> None:
    """Console script: exit with main()'s status."""
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    _entry()
