# The 2012 two-core study: crates/finalists, its KATs and the study's tables.
.PHONY: test-finalists bench-finalists

FINALISTS_PY ?= $(PYTHON)

# The finalists' tests run in test-rust (cargo test --workspace, and the
# import-cycle check); this target runs them alone.
test-finalists: deps-rust
	$(PYTHON) tools/module_cycles.py crates/finalists/src
	$(CARGO) test --release -p finalists

# Re-measures the 2012 two-core study's tables on this CPU (all nine rows):
# bench/results/finalists-<date>.json and .png, and the generated tables of
# docs/reproduction-finalists-2012.md. Code sizes (Table III) come from
# bench/finalists/size.py, which builds bench/finalists/size for Cortex-M
# (rustup target add thumbv6m-none-eabi thumbv7em-none-eabihf; skipped with a
# note in the JSON where that cannot be installed) and x86-64. Needs nm
# (binutils) and matplotlib. The timing run holds $(BENCH_LOCK) when set (Makefile).
FINALISTS_BENCH_TARGET ?= $(CURDIR)/target/finalists-bench
FINALISTS_STAMP := $(shell date +%Y%m%d)
FINALISTS_JSON := bench/results/finalists-$(FINALISTS_STAMP).json

bench-finalists: deps-rust
	@command -v nm >/dev/null || { apt-get update -qq && apt-get -y -qq install binutils >/dev/null; }
	@$(FINALISTS_PY) -c 'import matplotlib' 2>/dev/null || $(FINALISTS_PY) -m pip install -q matplotlib 2>/dev/null || $(FINALISTS_PY) -m pip install -q --break-system-packages matplotlib
	cd bench/finalists && RUSTFLAGS="-C symbol-mangling-version=v0" CARGO_TARGET_DIR=$(FINALISTS_BENCH_TARGET) $(CARGO) build --release
	@mkdir -p bench/results
	$(TIMED) $(FINALISTS_BENCH_TARGET)/release/finalists-bench $(FINALISTS_JSON)
	$(FINALISTS_PY) bench/finalists/size.py $(FINALISTS_JSON)
	$(FINALISTS_PY) bench/finalists/report.py $(FINALISTS_JSON) bench/results/finalists-$(FINALISTS_STAMP).png docs/reproduction-finalists-2012.md

BENCH_TARGETS += bench-finalists
