"""Shared settings for the keccakx Python suite (run by `make test-python`)."""

import gzip
import os
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "vectors"

# Modest example counts keep the whole suite to well under a minute on a
# 2-core CI machine; raise with HYPOTHESIS_PROFILE=thorough.
settings.register_profile(
    "ci",
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile("thorough", max_examples=1000, deadline=None)
# `make fuzz`: test_fuzz.py at length.
settings.register_profile(
    "fuzz",
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def open_vector(path: Path):
    """Open a vector file as text, transparently gunzipping `.gz`."""
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8", errors="replace")
    return open(path, "r", encoding="utf-8", errors="replace")


def vector_files(folder: str, pattern: str):
    """Vector files under tests/vectors/<folder> matching pattern (plain or .gz)."""
    d = VECTORS / folder
    if not d.is_dir():
        return []
    return sorted(set(d.glob(pattern)) | set(d.glob(pattern + ".gz")))


@pytest.fixture
def vectors_dir():
    return VECTORS


@pytest.fixture(autouse=True)
def _ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt in every test, as in an interactive
    Python: a suite started in the background by a non-interactive shell
    inherits SIGINT ignored (POSIX), and Python then installs no handler,
    so the tests that send themselves SIGINT would see nothing."""
    before = signal.getsignal(signal.SIGINT)
    if before is not signal.default_int_handler:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    if before is not signal.default_int_handler:
        signal.signal(signal.SIGINT, before)
