"""The engine policy from Python: set_engine and KECCAKX_ENGINE go through
the core's one parser."""
import os
import subprocess
import sys

import pytest

import keccakx


def test_set_engine_forces_and_digests_do_not_change():
    msgs = [bytes(range(n % 256)) * (n // 256 + 1) for n in range(0, 700, 37)]
    want = [bytes(d) for d in keccakx.hash_many(msgs, "sha3_256")]
    try:
        for name in ["scalar", "auto"]:
            keccakx.set_engine(name)
            if name == "scalar":
                assert keccakx.engine() == "scalar"
            assert [bytes(d) for d in keccakx.hash_many(msgs, "sha3_256")] == want
            assert keccakx.sha3_256(b"abc").digest() == bytes.fromhex(
                "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"
            )
    finally:
        keccakx.set_engine("auto")


def test_set_engine_rejects_unknown_names():
    with pytest.raises(ValueError, match="unknown engine name"):
        keccakx.set_engine("no-such-engine")
    with pytest.raises(ValueError):
        keccakx.set_engine(" scalar")


def _run(env_value, code):
    env = dict(os.environ, KECCAKX_ENGINE=env_value)
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )


def test_keccakx_engine_variable_is_honoured():
    r = _run("scalar", "import keccakx; print(keccakx.engine())")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "scalar"
    assert "KECCAKX_ENGINE" not in r.stderr


def test_unusable_keccakx_engine_warns_and_means_auto():
    code = (
        "import warnings\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    import keccakx\n"
        "print(keccakx.engine())\n"
        "print([str(x.message) for x in w if issubclass(x.category, RuntimeWarning)])\n"
    )
    r = _run("bogus", code)
    assert r.returncode == 0, r.stderr
    engine, warned = r.stdout.strip().splitlines()
    assert engine != "bogus"
    assert "KECCAKX_ENGINE=bogus: unknown engine name" in warned
    assert "using auto" in warned
