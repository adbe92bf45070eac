"""keccakx.outboard: outboards built from bytes and files give the one-shot
digest of every supported function and parameter set; verify() reports
exactly the damaged chunks (bit flips at chunk edges and inside, a zeroed
range, truncation, extension), over bytes and over files read by range;
outboards that cannot be used raise OutboardMismatch; the CLI and the
Python API read each other's outboards."""
import os
import random
import subprocess

import pytest

import keccakx
from keccakx import outboard

CASES = [
    ("kt128", {}, 8192),
    ("kt256", {"custom": b"C"}, 8192),
    ("parallelhash128", {"block_size": 7, "custom": b"S"}, 7),
    ("parallelhash256", {"block_size": 1000}, 1000),
    ("parallelhashxof128", {"block_size": 8192, "length": 50}, 8192),
    ("parallelhashxof256", {"block_size": 300}, 300),
]


def one_shot(alg, kw, data):
    h = keccakx.new(alg, data, **{k: v for k, v in kw.items() if k in ("custom", "block_size")})
    n = kw.get("length")
    if h.digest_size == 0:
        return h.digest(n or {"kt128": 32, "kt256": 64}.get(alg, 32 if "128" in alg else 64))
    return h.digest() if n is None else keccakx.new(alg, data, length=n, **{k: v for k, v in kw.items() if k in ("custom", "block_size")}).digest()


@pytest.mark.parametrize("alg,kw,c", CASES)
def test_outboard_digest_is_the_one_shot_digest(alg, kw, c):
    rng = random.Random(c)
    for n in (0, 1, c - 1, c, c + 1, 3 * c + 5, 8192 * 2 + 1):
        data = rng.randbytes(n)
        digest, ob = outboard.create(data, alg, **kw)
        assert digest == one_shot(alg, kw, data), (alg, n)
        outboard.check(ob, digest)
        assert outboard.verify(ob, digest, data) == []
        i = outboard.info(ob)
        assert (i["algorithm"], i["message_len"], i["outboard_len"]) == (alg, n, len(ob))


def chunks_hit(positions, c):
    return sorted({p // c for p in positions})


@pytest.mark.parametrize("alg,kw,c", [CASES[0], CASES[2], CASES[3]])
def test_damage_is_located_exactly(alg, kw, c, tmp_path):
    rng = random.Random(7)
    n = 40 * c + 123
    data = rng.randbytes(n)
    digest, ob = outboard.create(data, alg, **kw)
    obf = tmp_path / "ob.kto"
    obf.write_bytes(ob)
    for trial in range(30):
        bad = bytearray(data)
        # Flips at chunk edges and inside chunks.
        k = rng.randint(1, 4)
        pos = set()
        for _ in range(k):
            i = rng.randrange(n // c)
            pos.add(min(n - 1, i * c + rng.choice([0, c - 1, rng.randrange(c)])))
        for p in pos:
            bad[p] ^= 1 << rng.randrange(8)
        want = [(i * c, min(n, (i + 1) * c)) for i in chunks_hit(pos, c)]
        assert outboard.verify(ob, digest, bytes(bad)) == want, trial
        f = tmp_path / "bad.bin"
        f.write_bytes(bad)
        assert outboard.verify(str(obf), digest, f) == want, trial
        # A range: only the damage inside it (rounded out to chunks).
        s = rng.randrange(n)
        e = rng.randint(s, n)
        in_range = [r for r in want if r[0] < max(e, s + 1) and r[1] > s and (s // c) * c <= r[0] < (-(-e // c)) * c]
        assert outboard.verify(obf, digest, f, range=(s, e)) == in_range, (trial, s, e)
    zero = bytearray(data)
    zero[5 * c + 3: 9 * c] = bytes(9 * c - 5 * c - 3)
    assert outboard.verify(ob, digest, bytes(zero)) == [(i * c, (i + 1) * c) for i in range(5, 9)]
    cut = data[: 10 * c + 4]
    assert outboard.verify(ob, digest, cut) == [(i * c, min(n, (i + 1) * c)) for i in range(10, -(-n // c))]
    assert outboard.verify(ob, digest, data + b"xyz") == [(n, n + 3)]


def test_unusable_outboards_raise_their_own_error():
    data = bytes(range(256)) * 100
    digest, ob = outboard.create(data)
    with pytest.raises(outboard.OutboardMismatch, match="does not match"):
        outboard.check(ob, bytes(32))
    with pytest.raises(outboard.OutboardMismatch):
        outboard.verify(ob[:-1], digest, data)
    with pytest.raises(outboard.OutboardMismatch):
        outboard.verify(ob + b"\0", digest, data)
    with pytest.raises(outboard.OutboardMismatch):
        outboard.check(b"not an outboard at all, not at all", digest)
    flipped = bytearray(ob)
    flipped[20] ^= 1
    with pytest.raises(outboard.OutboardMismatch):
        outboard.check(bytes(flipped), digest)
    assert issubclass(outboard.OutboardMismatch, ValueError)
    with pytest.raises(ValueError, match="has none"):
        outboard.create(data, "sha3-256")
    with pytest.raises(ValueError):
        outboard.verify(ob, digest, data, range=(10, len(data) + 1))


def test_files_and_the_cli_agree(tmp_path):
    data = random.Random(3).randbytes(5 * 8192 + 77)
    f = tmp_path / "data.bin"
    f.write_bytes(data)
    digest = outboard.create_file(f)
    assert digest == outboard.create(data)[0]
    ob = (tmp_path / "data.bin.kto").read_bytes()
    # The same body; the file's header also notes its modification time.
    assert ob[40:48] != bytes(8) and ob[64:] == outboard.create(data)[1][64:]
    cli = os.environ.get("KECCAKX_BIN")
    if cli and os.access(cli, os.X_OK):
        r = subprocess.run([cli, "sum", "-a", "kt128", "--outboard", str(tmp_path / "cli.kto"), str(f)],
                           capture_output=True, check=True)
        assert r.stdout.split()[0].decode() == digest.hex()
        assert (tmp_path / "cli.kto").read_bytes() == ob
        r = subprocess.run([cli, "verify", "--digest", digest.hex(), str(f)], capture_output=True)
        assert r.returncode == 0, r.stderr
