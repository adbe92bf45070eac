# Object-store URLs in `keccakx sum` (crates/keccakx-remote, the CLI's
# feature `remote`): tests/remote, bench/remote, docs/object-storage.md.
#   make test-remote    `keccakx sum URL` and `sum -c` against a moto S3 server and
#                       a range-capable HTTP server on 127.0.0.1, against the same
#                       bytes on disk, every algorithm family, several concurrency
#                       settings; resets, 403, 404, a stalled server, an object
#                       replaced mid-read
#   make bench-remote   `keccakx sum URL` vs curl | keccakx, curl | openssl and bare
#                       curl from nginx (or the Python range server) and moto
#                       -> bench/results/remote-<date>.json and .png
#   (bench/remote/sweep.py: KT128 from nginx across KECCAKX_OBJECT_JOBS/PART)
# Python packages go into the .venv of mk/python.mk (moto's server, boto3,
# pytest; matplotlib for the plot).
.PHONY: deps-remote test-remote bench-remote

REMOTE_PY_DEPS := pytest "moto[server]" boto3
REMOTE_BENCH_JSON ?= bench/results/remote-$(shell date -u +%F).json
REMOTE_BENCH_ARGS ?=

deps-remote: $(PY_BIN)
	@$(PY_BIN) -c 'import pytest, moto.server, boto3' 2>/dev/null || \
		$(PY_BIN) -m pip install -q --disable-pip-version-check $(REMOTE_PY_DEPS)

test-remote: deps-remote build-cli-test
	cd tests/remote && KECCAKX_BIN=$(CLI_TEST_BIN) timeout 600 $(PY_BIN) -m pytest -q -p no:cacheprovider .

bench-remote: deps-remote build-cli
	@$(PY_BIN) -c 'import matplotlib' 2>/dev/null || $(PY_BIN) -m pip install -q --disable-pip-version-check matplotlib
	@command -v nginx >/dev/null || { apt-get update -qq && apt-get -y -qq install nginx-light >/dev/null 2>&1 || apt-get -y -qq install nginx >/dev/null 2>&1; } || true
	@command -v curl >/dev/null || { apt-get update -qq && apt-get -y -qq install curl >/dev/null; }
	@mkdir -p bench/results
	$(TIMED) $(PY_BIN) bench/remote/bench.py --keccakx $(CLI_BIN) --out $(REMOTE_BENCH_JSON) $(REMOTE_BENCH_ARGS)
	$(PY_BIN) bench/remote/plot.py $(REMOTE_BENCH_JSON)

TEST_TARGETS += test-remote
BENCH_TARGETS += bench-remote
