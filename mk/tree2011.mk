# Reproduction of the 2011 GPU Keccak tree-mode paper's Tables 1 and 2, CPU
# half (DESIGN.md "Reproductions of the source papers" item 1).
#   make bench-tree2011                          full run (~2-4 min on 2 cores)
#   make bench-tree2011 TREE2011_ARGS=--quick    smoke test
# bench/tree2011 is a standalone cargo project (its own [workspace]); it writes
# bench/results/tree2011-<date>.json, then plot.py draws the .png and the .md
# tables next to it, beside the paper's published figures (paper2011.json).
# Not part of `make test`. GPU columns: plot.py --gpu with a GPU run's
# results.json (docs/reproduction-gpu-2011.md).

BENCH_TARGETS += bench-tree2011
TREE2011_ARGS ?=
TREE2011_JSON ?= bench/results/tree2011-$(shell date -u +%F).json
TREE2011_TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/bench/tree2011/target)

.PHONY: bench-tree2011 bench-tree2011-deps

bench-tree2011-deps:
	@need=""; \
	for p in libssl-dev pkg-config; do \
	  dpkg -s $$p >/dev/null 2>&1 || need="$$need $$p"; \
	done; \
	if [ -n "$$need" ]; then \
	  echo "bench-tree2011: installing$$need"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$need >/dev/null; \
	fi
	@# matplotlib for the Python that draws the plot (which need not be the
	@# system's: a pyenv or venv python3 does not see python3-matplotlib).
	@$(PYTHON) -c 'import matplotlib' 2>/dev/null || $(PYTHON) -m pip install -q matplotlib 2>/dev/null || \
	  $(PYTHON) -m pip install -q --break-system-packages matplotlib

bench-tree2011: deps-rust bench-tree2011-deps
	cd bench/tree2011 && CARGO_TARGET_DIR=$(TREE2011_TARGET_DIR) $(CARGO) build --release --locked -q
	@echo "bench-tree2011: load before: $$(cut -d' ' -f1-3 /proc/loadavg)"
	cd bench/tree2011 && $(TIMED) $(TREE2011_TARGET_DIR)/release/keccakx-tree2011 --out $(CURDIR)/$(TREE2011_JSON) $(TREE2011_ARGS)
	$(PYTHON) bench/tree2011/plot.py $(TREE2011_JSON)
