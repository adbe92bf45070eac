"""The software models of the ASIC-study cores (hw/tb/models) against
official known answers, both versions, and the final versions against the
project's own implementation (crates/finalists, through the small tool in
hw/tb/finalists_ref). The cores' benches trust these models."""

import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
VEC = ROOT / "tests" / "vectors"
sys.path.insert(0, str(HERE))
from models import blake, groestl, jh, sha2, skein  # noqa: E402
from models import bmw, cubehash, hamsi  # noqa: E402
# the AES-based candidates
from models import echo, fugue, shavite3  # noqa: E402
from models import luffa, shabal, simd  # noqa: E402

# (KAT file under tests/vectors, model, digest bytes compared)
KATS = [
    ("asic2009/blake32_r2_shortmsg.txt", blake.blake32_r2),
    ("asic2009/blake256_r3_shortmsg.txt", blake.blake256),
    ("finalists/blake256.txt", blake.blake256),
    ("asic2009/blake32_r2_spec.txt", blake.blake32_r2),
    ("asic2009/groestl256_r2_shortmsg.txt", groestl.groestl256_r2),
    ("finalists/groestl256.txt", groestl.groestl256),
    ("asic2009/jh256_r2_shortmsg.txt", jh.jh256_r2),
    ("finalists/jh256.txt", jh.jh256),
    ("asic2009/skein256_256_v12_shortmsg.txt", skein.skein256_256_r2),
    ("asic2009/skein256_256_v12.txt", skein.skein256_256_r2),
    ("asic2009/skein512_256_v12.txt", skein.skein512_256_r2),
    ("asic2009/skein512_512_v12_shortmsg.txt", skein.skein512_512_r2),
    ("asic2009/skein512_512_v12.txt", skein.skein512_512_r2),
    ("finalists/skein256_256.txt", skein.skein256_256),
    ("finalists/skein512_256.txt", skein.skein512_256),
    ("finalists/skein512_512.txt", skein.skein512_512),
    ("asic2009/sha256_fips180.txt", sha2.sha256),
    # BMW-256, CubeHash16/32-256, Hamsi-256 (round two)
    ("asic2009/bmw256_r2_shortmsg.txt", bmw.bmw256),
    ("asic2009/bmw256_r2_examples.txt", bmw.bmw256),
    ("asic2009/cubehash16_32_256_r2_shortmsg.txt", cubehash.cubehash16_32_256),
    ("asic2009/cubehash16_32_256_r2_examples.txt", cubehash.cubehash16_32_256),
    ("asic2009/hamsi256_r2_shortmsg.txt", hamsi.hamsi256),
    ("asic2009/hamsi256_r2_examples.txt", hamsi.hamsi256),
    # the AES-based candidates
    ("asic2009/echo256_r2_shortmsg.txt", echo.echo256),
    ("asic2009/echo256_r2_examples.txt", echo.echo256),
    ("asic2009/shavite3_256_r2_shortmsg.txt", shavite3.shavite3_256),
    ("asic2009/fugue256_r2_shortmsg.txt", fugue.fugue256),
    ("asic2009/fugue256_r2_examples.txt", fugue.fugue256),
    # Luffa-256, Shabal-256, SIMD-256 (round two)
    ("asic2009/luffa256_r2_shortmsg.txt", luffa.luffa256),
    ("asic2009/shabal256_shortmsg.txt", shabal.shabal256),
    ("asic2009/simd256_r2_shortmsg.txt", simd.simd256),
]
# Entries longer than this (bytes) are checked every 8th only: the pure
# Python Grøstl and JH models take tens of milliseconds a block.
FULL_UP_TO = 130


def read_kat(path):
    """(message, digest) pairs of a NIST-style KAT text (byte lengths only)."""
    out = []
    for block in path.read_text().split("\n\n"):
        fields = dict(re.findall(r"^(\w+) = (\S*)$", block, re.M))
        if "MD" not in fields:
            continue
        bits = int(fields["Len"])
        assert bits % 8 == 0, f"{path.name}: bit-length entry {bits}"
        msg = bytes.fromhex(fields["Msg"])[:bits // 8]
        out.append((msg, bytes.fromhex(fields["MD"])))
    assert out, f"no entries in {path}"
    return out


@pytest.mark.parametrize("name,model", KATS, ids=[k[0] for k in KATS])
def test_kat(name, model):
    entries = read_kat(VEC / name)
    checked = 0
    for i, (msg, md) in enumerate(entries):
        if len(msg) > FULL_UP_TO and i % 8:
            continue
        assert model(msg) == md, f"{name}: length {len(msg)}"
        checked += 1
    assert checked >= min(len(entries), 16)


# final-version models against crates/finalists
FINAL = [("blake256", blake.blake256), ("groestl256", groestl.groestl256),
         ("jh256", jh.jh256), ("skein256-256", skein.skein256_256),
         ("skein512-256", skein.skein512_256)]


@pytest.fixture(scope="module")
def finalists_ref():
    target = ROOT / "target" / "hw-finalists-ref"
    manifest = HERE / "finalists_ref" / "Cargo.toml"
    cargo = os.environ.get("CARGO", "cargo")
    r = subprocess.run([cargo, "build", "--release", "-q", "--manifest-path", str(manifest)],
                       env=dict(os.environ, CARGO_TARGET_DIR=str(target)),
                       capture_output=True, text=True)
    assert r.returncode == 0, f"building finalists-ref failed:\n{r.stderr[-2000:]}"
    return target / "release" / "finalists-ref"


@pytest.mark.parametrize("name,model", FINAL, ids=[f[0] for f in FINAL])
def test_final_against_crate(finalists_ref, name, model):
    rng = random.Random(name)
    lengths = [0, 1, 31, 32, 33, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129] + \
        [rng.randrange(0, 400) for _ in range(12)]
    msgs = [bytes(rng.getrandbits(8) for _ in range(n)) for n in lengths]
    stdin = "".join(f"{name} {m.hex() or '-'}\n" for m in msgs)
    r = subprocess.run([str(finalists_ref)], input=stdin, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    want = r.stdout.split()
    assert len(want) == len(msgs)
    for m, w in zip(msgs, want):
        assert model(m).hex() == w, f"{name}: length {len(m)}"


# the AES-based candidates
def test_fugue_iv_from_definition():
    """Fugue-256's IV table is the zero state after TIX and the final rounds
    of the single word 256 (the digest size): one check of SMIX, CMIX, the
    rotations and G1/G2 apart from the KATs."""
    s = [0] * fugue.WORDS
    s = fugue.final(fugue.absorb(s, 256))
    assert tuple(s[i] for i in (1, 2, 3, 4, 15, 16, 17, 18)) == fugue.IV256


def test_aes_round_fips197():
    """The shared AES round against FIPS 197 appendix B (round 1)."""
    from models import aes
    state = bytes.fromhex("193de3bea0f4e22b9ac68d2ae9f84808")
    key = bytes.fromhex("a0fafe1788542cb123a339392a6c7605")
    assert aes.aes_round(state, key).hex() == "a49c7ff2689f352b6b5bea43026a5049"
# Luffa-256, Shabal-256, SIMD-256
def test_shabal_iv_from_definition():
    """Shabal's IV: two rounds on the prefix words from the zero state."""
    a, b, c = shabal.iv()
    assert (a, b, c) == (shabal.IV_A, shabal.IV_B, shabal.IV_C)


def test_simd_iv_from_definition():
    """SIMD-256's IV: the compression of "SIMD-256 v1.1" from the zero state."""
    assert simd.iv() == simd.IV


@pytest.mark.parametrize("final", [False, True])
def test_simd_ntt_decomposition(final):
    """The expansion as the core computes it (twist + 8 x 8 FFT-8) equals
    the definition (the NTT as a matrix product) on random blocks and the
    all-0xff block."""
    rng = random.Random(27 + final)
    blocks = [bytes(rng.getrandbits(8) for _ in range(64)) for _ in range(6)] + [b"\xff" * 64]
    for blk in blocks:
        assert simd.ntt_fft(blk, final) == simd.ntt_direct(blk, final)
