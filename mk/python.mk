# Python module `keccakx`: crates/keccakx-py (PyO3 + maturin),
# tests/python (pytest + hypothesis), bench/python.
#
#   make test-python    venv + build + install the wheel + pytest (~2-3 min on a
#                       fresh 2-core machine, most of it the release build)
#   make bench-python   keccakx vs hashlib vs pycryptodome -> bench/results/python-*.json
#
# Everything goes into a virtualenv at .venv (gitignored); installs are
# idempotent (checked first) and quiet.
.PHONY: deps-python build-python test-python bench-python

PY_VENV ?= $(CURDIR)/.venv
PY_BIN := $(PY_VENV)/bin/python
PY_DEPS := maturin pytest hypothesis numpy pycryptodome
PY_BENCH_STAMP := $(shell date +%Y%m%d)

$(PY_BIN):
	@command -v $(PYTHON) >/dev/null || { apt-get update -qq && apt-get -y -qq install python3 python3-venv >/dev/null; }
	@$(PYTHON) -m venv $(PY_VENV) 2>/dev/null || { \
		rm -rf $(PY_VENV); apt-get update -qq && apt-get -y -qq install python3-venv >/dev/null && $(PYTHON) -m venv $(PY_VENV); }

deps-python: $(PY_BIN) deps-rust
	@$(PY_BIN) -c 'import maturin, pytest, hypothesis, numpy, Crypto.Hash.TurboSHAKE128' 2>/dev/null || \
		$(PY_BIN) -m pip install -q --disable-pip-version-check $(PY_DEPS)

# `pip install ./crates/keccakx-py` with the venv's maturin (no isolated
# build env to download; the maturin hook looks for its binary on PATH);
# cargo rebuilds only what changed.
build-python: deps-python
	PATH="$(PY_VENV)/bin:$$PATH" $(PY_BIN) -m pip install -q --disable-pip-version-check --no-build-isolation ./crates/keccakx-py

test-python: build-python
	cd tests/python && $(PY_BIN) -m pytest -q -p no:cacheprovider .

bench-python: build-python
	@mkdir -p bench/results
	$(TIMED) $(PY_BIN) bench/python/bench.py --out bench/results/python-$(PY_BENCH_STAMP).json

TEST_TARGETS += test-python
BENCH_TARGETS += bench-python
