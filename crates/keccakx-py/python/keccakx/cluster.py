"""``keccakx-cluster``: ``keccakx sum`` on a Dask cluster.

    keccakx-cluster sum [--scheduler tcp://HOST:8786] [-a ALGO] [--tag] URL...
    keccakx-cluster sum -c SUMS

Prints the lines ``keccakx sum`` prints, byte for byte (GNU ``HASH  NAME``
or ``--tag`` BSD lines, coreutils' escaping of names holding ``\\``, newline
or carriage return, ``-z``), and ``-c`` checks them with ``keccakx sum -c``'s
statuses, messages and exit codes, sha3sum's ``U`` (universal newlines) and
``^`` (bits) lines included. A list is streamed: read, hashed and answered
a batch of objects at a time through the bounded window (a list on a pipe
gets the answers to what came so far before the command waits for more). URLs are anything fsspec opens (paths,
``file://``, ``s3://`` ...); a URL with ``*?[`` that names no object is
expanded as a glob (a name that exists is always that object). Each object
is hashed by :mod:`keccakx.distributed`: KT128/KT256/ParallelHash by byte
ranges over the workers, other functions whole, small objects many to a
task. Without ``--scheduler`` (or ``DASK_SCHEDULER_ADDRESS``) a
LocalCluster on this machine runs the tasks. ``-`` (or no URL) is standard
input, hashed by this process (its length is not known in advance, so it
is not cut into ranges; TupleHash and ParallelHash spool it to $TMPDIR).

The semantics are ``keccakx sum``'s, and so is the code of its lines:
parsing, formatting, escaping, the check's report and the refusal of
parameters come from the library's ``keccakx::sumfile`` (through
``keccakx._keccakx``); here are the command line and Dask. See
``keccakx sum --help``. Not available here: the SHA-3 finalists (BLAKE,
Groestl, JH, Skein), which the Python module lacks.
"""

from __future__ import annotations

import io
import os
import select
import stat
import signal
import sys
import hmac
from collections import deque
from dataclasses import dataclass

from . import _keccakx, _window, distributed
from ._cluster_args import (  # noqa: F401 (MAX_KEY_FILE, MAX_LENGTH: the module's names as before)
    DEFAULT_ALGORITHM,
    MAX_KEY_FILE,
    MAX_LENGTH,
    PROG,
    _os_bytes,
    build_parser,
    params_from,
    quote,
)

#: Algorithm instances kept for the lengths seen in one list (as keccakx sum).
SPEC_CACHE_MAX = 256


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


# ---------------------------------------------------------------- lines and names (the library's)


def format_line(tag: bool, zero: bool, binary: bool, display: str, digest: bytes, name: bytes) -> bytes:
    """One output line, byte for byte as ``keccakx sum`` (and coreutils) writes it."""
    return _keccakx._sumfile_format_line(tag, zero, ord("*" if binary else " "), display, digest.hex(), name)


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


# keccakx.new's keywords with the parameter groups that take each (the
# registry's data): a function takes a keyword when it takes any of them.
_KEYWORD_GROUPS = dict(_keccakx._registry_keywords())


def _takes(info: AlgInfo, keyword: str) -> bool:
    return any(g in info.params for g in _KEYWORD_GROUPS.get(keyword, ()))


def params_for(info: AlgInfo, p: dict) -> dict:
    """The parameters (keccakx.new keywords) that ``info`` takes."""
    return {k: v for k, v in p.items() if _takes(info, k)}


def refusal(info: AlgInfo, length, params: dict, check_list: bool = False):
    """``keccakx sum``'s message (``-a NAME: ...``, in its flags) for the
    algorithm with these parameters, or None when it takes them
    (``check_list``: a check without -a keeps the parameters it takes)."""
    return _keccakx._sumfile_refusal(info.name, length, check_list, **params)


def make_spec(info: AlgInfo, length, params: dict):
    """A validated algorithm, or the error message."""
    try:
        return distributed._spec(info.name, length, params)
    except (TypeError, ValueError) as e:
        return f"-a {info.name}: {e}"


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


# ---------------------------------------------------------------- --check


#: Longest checksum line kept, as ``keccakx sum --check``: the hex of the
#: longest digest and room for a tag and a long escaped name. A longer
#: line is read past, not stored, and is improperly formatted (a comment
#: stays a comment).
MAX_LINE = 2 * MAX_LENGTH + (64 << 10)


def open_list(file: str):
    """A checksum list as a binary stream: standard input, a URL or a file."""
    if file == "-":
        return os.fdopen(_stdin_fd(), "rb", buffering=0, closefd=False)
    if "://" in file:
        import fsspec

        try:
            return fsspec.open(file, "rb").open()
        except OSError:
            raise
        except Exception as e:  # a store's own errors, as an OSError with its words
            raise OSError(str(e) or type(e).__name__) from None
    return open(file, "rb", buffering=0)


def _would_block(f) -> bool:
    """Whether reading ``f`` (a pipe, a terminal) would wait for its writer;
    never for a regular file."""
    try:
        fd = f.fileno()
        if stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        return not select.select([fd], [], [], 0)[0]
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False


def list_lines(f, before_wait=None):
    """The lines of a list, each with its newline, read 64 KiB at a time;
    None for a line longer than MAX_LINE (b"#" if it is a comment). Where
    the next read would wait for a pipe's writer, yields WAIT first and
    calls ``before_wait()`` (as keccakx sum: what came so far is answered
    before waiting for more)."""
    line = bytearray()
    too_long = comment = False
    started = False
    while True:
        if _would_block(f):
            yield _window.WAIT
            if before_wait is not None:
                before_wait()
        block = f.read(64 << 10)
        if not block:
            break
        start = 0
        while start < len(block):
            started = True
            i = block.find(b"\n", start)
            end = len(block) if i < 0 else i + 1
            if not too_long:
                if len(line) + end - start > MAX_LINE:
                    too_long = True
                    comment = (bytes(line[:1]) or block[start:start + 1]) == b"#"
                    line = bytearray()
                else:
                    line += block[start:end]
            start = end
            if i >= 0:
                yield (b"#" if comment else None) if too_long else bytes(line)
                line, too_long, comment, started = bytearray(), False, False, False
    if started:
        yield (b"#" if comment else None) if too_long else bytes(line)


def check_one(f, label: str, is_stdin: bool, a, spec, params: dict, out: Out, stream) -> bool:
    """One checksum list, streamed: the library parses its lines and words
    the report; the listed files are hashed by ``stream`` (the cluster,
    through its bounded window, results in order), an entry ``-`` of a
    list that is not standard input by this process. Memory: the lines
    read ahead of the answers (a batch of objects and the window's tasks)."""
    verbosity = a.verbosity or ""
    name = a.algorithm or DEFAULT_ALGORITHM
    cl = _keccakx.CheckList(
        label, name, a.algorithm is not None, a.length,
        verbosity == "quiet", verbosity == "status", a.strict, verbosity == "warn", a.ignore_missing,
    )
    main = _info(name).name
    specs = {(main, spec.out_len, " "): spec}  # the list's algorithm, validated

    def spec_for(alg: str, n: int, mark: str):
        # As keccakx sum: the list's own algorithm takes every parameter
        # given, another one those it takes; a reading mode (sha3sum's U
        # or ^ mark) as the library reads it.
        key = (alg, n, mark)
        if key not in specs:
            if len(specs) >= SPEC_CACHE_MAX:
                specs.clear()
            info = _info(alg)
            why = cl.refusal(alg, n, mark, **params)
            own = params if alg == main else params_for(info, params)
            sp = why or specs.get((alg, n, " ")) or make_spec(info, n if info.variable_len else None, own)
            specs[key] = sp if isinstance(sp, str) else sp.reading(mark)
        return specs[key]

    pending = deque()  # ("bad", lineno, why) | ("stdin" | "check", name, expected, spec), in line order
    read_error = None

    def entries():
        nonlocal read_error
        lineno = 0
        try:
            for raw in list_lines(f, out.flush):
                if raw is _window.WAIT:
                    yield raw
                    continue
                lineno += 1
                p = False if raw is None else cl.parse(raw)
                if p is None:
                    continue
                if p is False or (is_stdin and p[0] == b"-"):
                    pending.append(("bad", lineno, None))
                    continue
                ename, expected, alg, mark = p
                sp = spec_for(alg, len(expected), mark)
                if isinstance(sp, str):
                    pending.append(("bad", lineno, sp))
                elif ename == b"-":
                    pending.append(("stdin", ename, expected, sp))
                else:
                    pending.append(("check", ename, expected, sp))
                    yield os.fsdecode(ename), sp
        except OSError as e:
            read_error = e

    def say(entry, result=None):
        if entry[0] == "bad":
            said = cl.malformed(entry[1], entry[2])
        else:
            _, ename, expected, sp = entry
            if entry[0] == "stdin":
                try:
                    digest, err = hash_stdin(sp), None
                except OSError as e:
                    digest, err = None, e
            else:
                digest, err = result.digest, result.error
            if err is not None:
                said = cl.unread(ename, isinstance(err, FileNotFoundError), cause(err))
            else:
                said = cl.hashed(ename, hmac.compare_digest(digest, expected))
        w, line = said
        if w is not None:
            warn(w)
        if line is not None:
            out.write(line)

    for r in stream(entries()):
        while pending[0][0] != "check":
            say(pending.popleft())
        say(pending.popleft(), r)
    while pending:
        say(pending.popleft())
    flush_first, warnings, passed = cl.read_error(cause(read_error)) if read_error else cl.summary()
    if flush_first:
        out.flush()
    for w in warnings:
        warn(w)
    return passed


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
    if spec.kind == "read":
        h = spec.reading_hasher()
        while True:
            b = os.read(fd, 8 << 20)
            if not b:
                return h.digest()
            h.update(b)
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
    refused = refusal(info, a.length, params, a.check and a.algorithm is None)
    if refused:
        warn(refused)
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

            def stream(items):
                # Objects listed, hashed and answered a batch at a time;
                # a check line whose function the part size does not fit (a
                # -l/--block-size mix) uses the default part size.
                return distributed._stream(items, client.get, part_size=a.part_size, progress=a.progress)

            if a.check:
                for file in a.urls:
                    is_stdin = file == "-"
                    label = quote(b"standard input") if is_stdin else quote(_os_bytes(file))
                    try:
                        f = open_list(file)
                    except OSError as e:
                        warn(f"{label}: {cause(e)}")
                        status = 1
                        continue
                    try:
                        if not check_one(f, label, is_stdin, a, spec, params, out, stream):
                            status = 1
                    finally:
                        f.close()
            else:
                urls = _expand_args(a.urls)
                results = stream((u, spec) for u in urls if u != "-")
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
