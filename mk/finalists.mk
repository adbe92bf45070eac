# SHA-3 finalists (issue 7): crates/finalists, its KATs and the 2012 study's tables.
.PHONY: test-finalists bench-finalists

FINALISTS_PY ?= $(PYTHON)

# The finalists' tests run in test-rust (cargo test --workspace); this target
# runs them alone.
test-finalists: deps-rust
	$(CARGO) test --release -p finalists

# Re-measures the 2012 two-core study's tables on this CPU: bench/results/finalists-<date>.json
# and .png; docs/reproduction-finalists-2012.md explains them. Needs nm (binutils) and matplotlib.
FINALISTS_BENCH_TARGET ?= $(CURDIR)/target/finalists-bench
FINALISTS_STAMP := $(shell date +%Y%m%d)

bench-finalists: deps-rust
	@command -v nm >/dev/null || { apt-get update -qq && apt-get -y -qq install binutils >/dev/null; }
	@$(FINALISTS_PY) -c 'import matplotlib' 2>/dev/null || $(FINALISTS_PY) -m pip install -q matplotlib 2>/dev/null || $(FINALISTS_PY) -m pip install -q --break-system-packages matplotlib
	cd bench/finalists && RUSTFLAGS="-C symbol-mangling-version=v0" CARGO_TARGET_DIR=$(FINALISTS_BENCH_TARGET) $(CARGO) build --release
	@mkdir -p bench/results
	$(FINALISTS_BENCH_TARGET)/release/finalists-bench bench/results/finalists-$(FINALISTS_STAMP).json
	$(FINALISTS_PY) bench/finalists/report.py bench/results/finalists-$(FINALISTS_STAMP).json $(FINALISTS_BENCH_TARGET)/release/finalists-bench bench/results/finalists-$(FINALISTS_STAMP).png

BENCH_TARGETS += bench-finalists
