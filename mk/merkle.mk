# OpenZeppelin-compatible Keccak-256 Merkle trees: crates/keccakx/src/merkle,
# keccakx.merkle (Python), `keccakx merkle` (CLI).
#   make test-merkle   installs @openzeppelin/merkle-tree with npm into
#                      tests/merkle/node_modules (node and npm from apt when
#                      missing) and checks trees, proofs, multiproofs and dumps
#                      against it byte for byte (tests/merkle/test_oz.py)
#   make bench-merkle  10^6 leaves of (address, uint256) (MERKLE_BENCH_ARGS: default
#                      "--leaves 1000000 --rounds 3 --oz-rounds 1", the JavaScript
#                      library in the first round only): keccakx (Python, CLI)
#                      vs the JavaScript library under node vs rs_merkle, and
#                      leaves/s per level vs the batch engine's 64-byte rate
#                      -> bench/results/merkle-*.json (+ .md, .png)
#   make bench-merkle-levels  the levels part alone (a minute)
#                      -> bench/results/merkle-levels-*.json (+ .md, .png)
# Each timed run holds $(BENCH_LOCK) when set (Makefile), one peer at a time.
.PHONY: deps-merkle-node deps-merkle-plot test-merkle bench-merkle bench-merkle-levels

MERKLE_OZ_VERSION := 1.0.8
MERKLE_NODE_DIR := tests/merkle/node_modules/@openzeppelin/merkle-tree

deps-merkle-node:
	@command -v node >/dev/null && command -v npm >/dev/null || { \
		apt-get update -qq && apt-get -y -qq install nodejs npm >/dev/null; }
	@test -f $(MERKLE_NODE_DIR)/package.json && grep -q '"version": "$(MERKLE_OZ_VERSION)"' $(MERKLE_NODE_DIR)/package.json || \
		(cd tests/merkle && npm install --silent --no-audit --no-fund --no-save --no-package-lock \
			@openzeppelin/merkle-tree@$(MERKLE_OZ_VERSION) >/dev/null)

test-merkle: build-python build-cli-test deps-merkle-node
	cd tests/merkle && KECCAKX_BIN=$(CLI_TEST_BIN) $(PY_BIN) -m pytest -q -p no:cacheprovider test_oz.py

MERKLE_BENCH_ARGS ?= --leaves 1000000 --rounds 3 --oz-rounds 1
MERKLE_LOCK := $(if $(BENCH_LOCK),--lock $(BENCH_LOCK))

deps-merkle-plot: deps-python
	@$(PY_BIN) -c 'import matplotlib' 2>/dev/null || $(PY_BIN) -m pip install -q --disable-pip-version-check matplotlib

bench-merkle: build-python build-cli deps-merkle-node deps-merkle-plot
	@mkdir -p bench/results
	$(CARGO) build --release -p keccakx-bench --no-default-features --bin merkle-bench
	$(PY_BIN) bench/merkle/bench.py --cli $(CLI_BIN) $(MERKLE_LOCK) $(MERKLE_BENCH_ARGS) --out bench/results/merkle-$(PY_BENCH_STAMP).json
	$(PY_BIN) bench/merkle/plot.py bench/results/merkle-$(PY_BENCH_STAMP).json

bench-merkle-levels: deps-merkle-plot
	@mkdir -p bench/results
	$(CARGO) build --release -p keccakx-bench --no-default-features --bin merkle-bench
	$(PY_BIN) bench/merkle/bench.py --cli none --levels-only $(MERKLE_LOCK) --out bench/results/merkle-levels-$(PY_BENCH_STAMP).json
	$(PY_BIN) bench/merkle/plot.py bench/results/merkle-levels-$(PY_BENCH_STAMP).json

TEST_TARGETS += test-merkle
BENCH_TARGETS += bench-merkle
