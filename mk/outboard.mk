# Outboards and resumable hashing (docs/outboard.md).
#   make bench-outboard   `sum -a kt128 --outboard` against plain `sum` on a
#                         cached 1 GiB file (alternated, medians); `verify
#                         --range` of 1 MiB of a 10 GiB file against
#                         re-hashing it, and the outboard check alone
#                         (per TiB); time lost per SIGKILL + --resume at the
#                         default 64 MiB checkpoint. Needs ~11 GiB of disk
#                         in the temporary folder (the 10 GiB file is
#                         deleted afterwards). -> bench/results/outboard-<date>.{json,md,png}
.PHONY: bench-outboard

OUTBOARD_BENCH_JSON ?= bench/results/outboard-$(shell date -u +%F).json
OUTBOARD_BENCH_ARGS ?= --size-mib 1024 --reps 31 --kills 7 --big-gib 10 --big-reps 5 --cold

bench-outboard: build-cli
	@$(PYTHON) -c 'import matplotlib' 2>/dev/null || $(PYTHON) -m pip install -q --disable-pip-version-check matplotlib
	@mkdir -p bench/results
	$(TIMED) $(PYTHON) bench/outboard.py --bin $(CLI_BIN) --out $(OUTBOARD_BENCH_JSON) $(OUTBOARD_BENCH_ARGS)

BENCH_TARGETS += bench-outboard
