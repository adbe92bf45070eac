"""Official known-answer files (tests/vectors, sources in each folder's
README.md) run through the Python API: NIST CAVP SHA-3/SHAKE byte-oriented
ShortMsg, LongMsg, VariableOut and Monte Carlo; the Keccak team's KATs
(SHA-3, SHAKE, Keccak[r, c] on widths 200..1600, original Keccak, KT128);
SP 800-185 samples; RFC 9861; tree LI.

Bit-length messages (Len not a multiple of 8) are skipped: the Python API
hashes bytes (the Rust suite runs them through update_bits). The Keccak
team's ExtremelyLongMsg files (1 GiB each) are left to the Rust suite too.
"""

import re

import numpy as np
import pytest
from conftest import VECTORS, open_vector, vector_files

import keccakx


def records(path):
    """Parse the NIST `.rsp` / KAT / keccakx text formats into
    (header, fields) pairs; fields map a key to a list of values."""
    out, hdr, cur = [], {}, {}
    for raw in open_vector(path):
        line = raw.strip()
        if not line:
            if cur:
                out.append((dict(hdr), cur))
                cur = {}
            continue
        if line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            if cur:
                out.append((dict(hdr), cur))
                cur = {}
            k, _, v = line[1:-1].partition("=")
            hdr[k.strip()] = v.strip()
            continue
        k, sep, v = line.partition("=")
        if sep:
            cur.setdefault(k.strip(), []).append(v.strip())
    if cur:
        out.append((dict(hdr), cur))
    return out


def one(rec, key):
    return rec[key][0]


def msg_of(rec, len_key="Len", msg_key="Msg"):
    """The message bytes, or None for a bit-length message."""
    nbits = int(one(rec, len_key))
    if nbits % 8:
        return None
    return bytes.fromhex(one(rec, msg_key))[: nbits // 8]


def pattern(n: int) -> bytes:
    """RFC 9861 / XKCP pattern: byte i = i mod 251."""
    block = bytes(range(251))
    return (block * (n // 251 + 1))[:n]


def byte_string(v: str) -> bytes:
    if v.startswith('"') and v.endswith('"'):
        return v[1:-1].encode("ascii")
    m = re.fullmatch(r"ptn\((\d+)\)", v)
    if m:
        return pattern(int(m.group(1)))
    return bytes.fromhex(v)


def two_pieces(name, msg, **params):
    """Hash msg with one update and with two (cut in the middle)."""
    a = keccakx.new(name, msg, **params)
    b = keccakx.new(name, **params)
    b.update(msg[: len(msg) // 2])
    b.update(memoryview(msg)[len(msg) // 2:])
    return a, b


def need(files):
    """Parametrize over files; one skipped case when none are present."""
    if not files:
        return [pytest.param(None, marks=pytest.mark.skip(reason="vector files not present in tests/vectors"))]
    return files


# --- NIST CAVP (byte-oriented) -------------------------------------------

CAVP_SHA3 = vector_files("cavp", "SHA3_*Msg.rsp")
CAVP_SHAKE = vector_files("cavp", "SHAKE*Msg.rsp")


def sha3_name(path):
    return "sha3_" + re.search(r"SHA3_(\d+)", path.name).group(1)


def shake_name(path):
    return "shake_" + re.search(r"SHAKE(\d+)", path.name).group(1)


@pytest.mark.parametrize("path", need(CAVP_SHA3), ids=lambda p: getattr(p, 'name', 'none'))
def test_cavp_sha3_msg(path):
    name, n = sha3_name(path), 0
    msgs, mds = [], []
    for _, rec in records(path):
        if "MD" not in rec:
            continue
        msg = msg_of(rec)
        if msg is None:
            continue
        want = bytes.fromhex(one(rec, "MD"))
        a, b = two_pieces(name, msg)
        assert a.digest() == want, f"{path.name} Len={one(rec, 'Len')}"
        assert b.digest() == want
        msgs.append(msg)
        mds.append(want)
        n += 1
    assert n > 0
    # The same file through the batch API.
    got = keccakx.hash_many(msgs, name)
    assert got.tobytes() == b"".join(mds)


@pytest.mark.parametrize("path", need(CAVP_SHAKE), ids=lambda p: getattr(p, 'name', 'none'))
def test_cavp_shake_msg(path):
    name, n = shake_name(path), 0
    for hdr, rec in records(path):
        if "Output" not in rec:
            continue
        msg = msg_of(rec)
        if msg is None:
            continue
        want = bytes.fromhex(one(rec, "Output"))
        assert int(hdr["Outputlen"]) == len(want) * 8
        a, b = two_pieces(name, msg)
        assert a.digest(len(want)) == want, f"{path.name} Len={one(rec, 'Len')}"
        assert b.read(3) + b.read(len(want) - 3) == want
        n += 1
    assert n > 0


@pytest.mark.parametrize("path", need(vector_files("cavp", "SHAKE*VariableOut.rsp")), ids=lambda p: getattr(p, 'name', 'none'))
def test_cavp_shake_variable_out(path):
    name, n = shake_name(path), 0
    for _, rec in records(path):
        if "Output" not in rec:
            continue
        bits = int(one(rec, "Outputlen"))
        if bits % 8:
            continue
        msg = bytes.fromhex(one(rec, "Msg"))
        want = bytes.fromhex(one(rec, "Output"))[: bits // 8]
        assert keccakx.new(name, msg).digest(bits // 8) == want, f"{path.name} COUNT={one(rec, 'COUNT')}"
        n += 1
    assert n > 0


@pytest.mark.parametrize("path", need(vector_files("cavp", "SHA3_*Monte.rsp")), ids=lambda p: getattr(p, 'name', 'none'))
def test_cavp_sha3_monte(path):
    recs = records(path)
    seed = next(bytes.fromhex(one(r, "Seed")) for _, r in recs if "Seed" in r)
    checkpoints = [r for _, r in recs if "COUNT" in r]
    assert len(checkpoints) == 100
    ctor = getattr(keccakx, sha3_name(path))
    md = seed
    for j, rec in enumerate(checkpoints):
        for _ in range(1000):
            md = ctor(md).digest()
        assert md.hex() == one(rec, "MD"), f"{path.name} checkpoint {j}"


@pytest.mark.parametrize("path", need(vector_files("cavp", "SHAKE*Monte.rsp")), ids=lambda p: getattr(p, 'name', 'none'))
def test_cavp_shake_monte(path):
    recs = records(path)
    hdr0, _ = recs[0]
    msg = next(bytes.fromhex(one(r, "Msg")) for _, r in recs if "Msg" in r)
    checkpoints = [(h, r) for h, r in recs if "COUNT" in r]
    assert len(checkpoints) == 100
    lo = int(checkpoints[0][0]["Minimum Output Length (bits)"]) // 8
    hi = int(checkpoints[0][0]["Maximum Output Length (bits)"]) // 8
    rng = hi - lo + 1
    ctor = getattr(keccakx, shake_name(path))
    out_len, output = hi, msg
    for j, (_, rec) in enumerate(checkpoints):
        used = out_len
        for _ in range(1000):
            m = (output[:16] + bytes(16))[:16]
            used = out_len
            output = ctor(m).digest(out_len)
            out_len = lo + int.from_bytes(output[-2:], "big") % rng
        assert used * 8 == int(one(rec, "Outputlen"))
        assert output.hex() == one(rec, "Output"), f"{path.name} checkpoint {j}"


# --- Keccak team KATs -----------------------------------------------------

@pytest.mark.parametrize("path", need(vector_files("keccak", "*MsgKAT_*.txt")), ids=lambda p: getattr(p, 'name', 'none'))
def test_original_keccak_kat(path):
    if path.name.startswith("ExtremelyLong"):
        pytest.skip("1 GiB message: covered by the Rust suite")
    bits = re.search(r"_(\d+)\.txt", path.name).group(1)
    name, n = f"keccak_{bits}", 0
    for _, rec in records(path):
        if "MD" not in rec:
            continue
        msg = msg_of(rec)
        if msg is None:
            continue
        a, b = two_pieces(name, msg)
        want = bytes.fromhex(one(rec, "MD"))
        assert a.digest() == want and b.digest() == want, f"{path.name} Len={one(rec, 'Len')}"
        n += 1
    assert n > 0


XKCP_KAT = vector_files("xkcp", "ShortMsgKAT_*.txt")


@pytest.mark.parametrize("path", need(XKCP_KAT), ids=lambda p: getattr(p, 'name', 'none'))
def test_xkcp_short_msg_kat(path):
    stem = path.name.split(".")[0][len("ShortMsgKAT_"):]
    n = 0
    for _, rec in records(path):
        msg = msg_of(rec)
        if msg is None:
            continue
        if stem.startswith("SHA3-"):
            want = bytes.fromhex(one(rec, "MD"))
            got = keccakx.new(stem, msg).digest()
        elif stem.startswith("SHAKE"):
            want = bytes.fromhex(one(rec, "Squeezed"))
            got = keccakx.new(stem, msg).digest(len(want))
        else:
            r, c = map(int, re.fullmatch(r"Keccakr(\d+)c(\d+)", stem).groups())
            want = bytes.fromhex(one(rec, "Squeezed"))
            h = keccakx.keccak(rate=r, capacity=c)
            h.update(msg)
            got = h.digest(len(want))
            assert h.block_size == r // 8
        assert got == want, f"{path.name} Len={one(rec, 'Len')}"
        n += 1
    assert n > 0


def k12_part(desc: str) -> bytes:
    if desc == "empty":
        return b""
    m = re.fullmatch(r"pattern 0x00 to 0xFA for (\d+)\^(\d+) bytes", desc)
    if m:
        return pattern(int(m.group(1)) ** int(m.group(2)))
    m = re.fullmatch(r"(\d+) times byte 0xFF", desc)
    if m:
        return b"\xff" * int(m.group(1))
    raise ValueError(f"unknown KangarooTwelve.txt message description {desc!r}")


def test_xkcp_kangarootwelve():
    path = VECTORS / "xkcp" / "KangarooTwelve.txt"
    if not path.exists():
        pytest.skip("KangarooTwelve.txt not present")
    lines = [l.strip() for l in open_vector(path) if l.strip()]
    n = 0
    for head, value in zip(lines, lines[1:]):
        m = re.fullmatch(r"KangarooTwelve\(M=(.*), C=(.*), (\d+) bytes\)(, last (\d+) bytes)?:", head)
        if not m:
            continue
        msg, custom = k12_part(m.group(1)), k12_part(m.group(2))
        length = int(m.group(3))
        want = bytes.fromhex(value.replace(" ", ""))
        got = keccakx.kt128(msg, custom=custom).digest(length)
        assert got[-len(want):] == want, head
        n += 1
    assert n >= 10


# --- SP 800-185 -----------------------------------------------------------

def test_sp800_185_samples():
    path = VECTORS / "sp800-185" / "sp800_185_samples.txt"
    if not path.exists():
        pytest.skip("sp800_185_samples.txt not present")
    n = 0
    for _, rec in records(path):
        if "Function" not in rec:
            continue
        fn = one(rec, "Function").lower()
        get = lambda k: byte_string(one(rec, k)) if k in rec else b""
        out_len = int(one(rec, "L")) // 8
        want = bytes.fromhex(one(rec, "Out"))
        xof = "xof" in fn
        if fn.startswith("cshake"):
            h = getattr(keccakx, fn)(get("X"), name=get("N"), custom=get("S"))
        elif fn.startswith("kmac"):
            h = keccakx.new(fn, get("X"), key=get("K"), custom=get("S"), **({} if xof else {"digest_size": out_len}))
        elif fn.startswith("tuplehash"):
            elements = [byte_string(t) for t in rec.get("T", [])]
            h = keccakx.new(fn, elements=elements, custom=get("S"), **({} if xof else {"digest_size": out_len}))
        elif fn.startswith("parallelhash"):
            b = int(one(rec, "B"))
            h = keccakx.new(fn, get("X"), block_size=b, custom=get("S"), **({} if xof else {"digest_size": out_len}))
        else:
            raise AssertionError(f"unknown function {fn}")
        got = h.digest(out_len) if isinstance(h, keccakx.XOF) else h.digest()
        assert got == want, f"{fn} sample {one(rec, 'Sample')}"
        n += 1
    assert n >= 24


@pytest.mark.parametrize("path", need(vector_files("sp800-185", "*Samples_cSHAKE*.txt")), ids=lambda p: getattr(p, 'name', 'none'))
def test_cshake_sample_files(path):
    name = "cshake" + re.search(r"cSHAKE(\d+)", path.name).group(1)
    n = 0
    for _, rec in records(path):
        if "MD" not in rec:
            continue
        fields = {}
        for key, len_key in (("Msg", "Len"), ("N", "NLen"), ("S", "SLen")):
            fields[key] = msg_of(rec, len_key, key)
        if None in fields.values():
            continue
        want = bytes.fromhex(one(rec, "MD"))
        got = getattr(keccakx, name)(fields["Msg"], name=fields["N"], custom=fields["S"]).digest(len(want))
        assert got == want
        n += 1
    assert n > 0


# --- RFC 9861 -------------------------------------------------------------

def test_rfc9861():
    path = VECTORS / "rfc9861" / "rfc9861.txt"
    if not path.exists():
        pytest.skip("rfc9861.txt not present")
    n = 0
    for _, rec in records(path):
        if "Function" not in rec:
            continue
        fn = one(rec, "Function").lower()
        msg = byte_string(one(rec, "M"))
        length = int(one(rec, "L"))
        want = bytes.fromhex(one(rec, "Out"))
        if fn.startswith("turboshake"):
            h = getattr(keccakx, fn)(msg, domain=int(one(rec, "D"), 16))
        else:
            c = byte_string(one(rec, "C")) if "C" in rec else b""
            h = getattr(keccakx, fn)(msg, custom=c)
        got = h.digest(length)
        assert got[-len(want):] == want, f"{fn} M={one(rec, 'M')} L={length}"
        n += 1
    assert n >= 30


# --- tree LI ----------------------------------------------------------------

def test_tree_li_vectors():
    path = VECTORS / "tree-li" / "vectors.txt"
    if not path.exists():
        pytest.skip("tree-li/vectors.txt not present")
    n = 0
    for line in open_vector(path):
        if not line.strip() or line.startswith("#"):
            continue
        f = dict(kv.split("=", 1) for kv in line.split())
        rate = int(f["R"]) * 8
        prefix = b"" if f["P"] == "-" else bytes.fromhex(f["P"])
        params = dict(degree=int(f["D"]), height=int(f["H"]), block_size=int(f["B"]),
                      rate=rate, capacity=1600 - rate, prefix=prefix)
        msg = pattern(int(f["MLEN"]))
        want = bytes.fromhex(f["OUT"])
        a, b = two_pieces("tree_li", msg, **params)
        assert a.digest(len(want)) == want, line[:80]
        assert b.digest(len(want)) == want
        n += 1
    assert n > 100


def test_vectors_through_numpy_rows():
    # CAVP SHA3-256 ShortMsg records of one length as rows of a 2-D array.
    path = VECTORS / "cavp" / "SHA3_256ShortMsg.rsp"
    if not path.exists():
        pytest.skip("SHA3_256ShortMsg.rsp not present")
    recs = [r for _, r in records(path) if "MD" in r and int(one(r, "Len")) == 1080]
    assert recs
    rows = np.array([list(msg_of(r)) for r in recs], dtype=np.uint8)
    got = keccakx.hash_many(rows, "sha3-256")
    for i, r in enumerate(recs):
        assert got[i].tobytes().hex() == one(r, "MD")
