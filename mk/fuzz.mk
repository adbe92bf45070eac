# Fuzzing: cargo-fuzz targets in fuzz/ (libFuzzer, nightly Rust,
# AddressSanitizer), run from the committed corpus in fuzz/corpus/<target>.
#   registry_diff     every registry function, random parameters, update and
#                     read splits, engines, threads: against the golden model
#                     (fuzz/src/lib.rs, itself checked against the published
#                     vectors before the first case)
#   check_line        the --check line parser, and lines `sum` writes parsed back
#   escape_roundtrip  the file-name escaper and the diagnostics' quoting
#   params            Params of any value through the registry; `sum` command
#                     lines through clap, params_from and Algo::new
#   outboard          outboard and state-blob parsers; outboards built from
#                     fuzzed parameters against the one-shot digest
#
#   make test-fuzz    (part of `make test`) each target for FUZZ_SECONDS (40),
#                     two at a time; a crash fails it, names the reproducer
#                     (fuzz/artifacts/<target>/crash-*) and copies it into
#                     fuzz/corpus/<target>/: fix the bug and commit the file
#                     with the fix (every later run replays it first).
#                     ~2 min on 2 cores once built; a fresh clone first
#                     installs cargo-fuzz (~1 min CPU) and builds the targets
#                     with AddressSanitizer (~3 min CPU).
#   make fuzz         each target for FUZZ_LONG_SECONDS (600) straight into
#                     fuzz/corpus/<target>, then minimizes the corpus
#                     (cargo fuzz cmin): commit what it added.
# Both install what they need: the nightly toolchain (rustup) and cargo-fuzz
# (cargo install, into target/fuzz-tools). Python's fuzz suite
# (tests/python/test_fuzz.py, Hypothesis) runs in test-python; `make fuzz`
# runs it longer (HYPOTHESIS_PROFILE=fuzz).

.PHONY: deps-fuzz build-fuzz test-fuzz fuzz

FUZZ_TARGETS := registry_diff check_line escape_roundtrip params outboard
# `make test` runs every target, two at a time, for FUZZ_SECONDS each: 40 s
# keeps five targets (three rounds) at the 120 s that four targets of 60 s
# took. Each run first replays the committed corpus, so what earlier runs
# found is checked every time; `make fuzz` runs each for 10 minutes.
FUZZ_CI_TARGETS := $(FUZZ_TARGETS)
FUZZ_SECONDS ?= 40
FUZZ_LONG_SECONDS ?= 600
FUZZ_TOOLS := $(CURDIR)/target/fuzz-tools
FUZZ_NIGHTLY ?= nightly
FUZZ_ENV = PATH="$(FUZZ_TOOLS)/bin:$$PATH" CARGO_FUZZ="$(CARGO) +$(FUZZ_NIGHTLY) fuzz"

deps-fuzz: deps-rust
	@rustup toolchain list 2>/dev/null | grep -q '^$(FUZZ_NIGHTLY)' || { \
	  echo "deps-fuzz: installing the $(FUZZ_NIGHTLY) toolchain (rustup)"; \
	  rustup toolchain install $(FUZZ_NIGHTLY) --profile minimal; }
	@test -x $(FUZZ_TOOLS)/bin/cargo-fuzz || { \
	  echo "deps-fuzz: installing cargo-fuzz into $(FUZZ_TOOLS)"; \
	  $(CARGO) install cargo-fuzz --locked --quiet --root $(FUZZ_TOOLS); }

build-fuzz: deps-fuzz
	$(FUZZ_ENV) sh -c '$$CARGO_FUZZ build --fuzz-dir fuzz'

# fuzz/run.sh runs the targets (two at a time), prints executions and
# coverage, and for a failure the reproducer.
test-fuzz: build-fuzz
	$(FUZZ_ENV) bash fuzz/run.sh $(FUZZ_SECONDS) 2 ci $(FUZZ_CI_TARGETS)

fuzz: build-fuzz
	$(FUZZ_ENV) bash fuzz/run.sh $(FUZZ_LONG_SECONDS) 2 keep $(FUZZ_TARGETS)
	@$(MAKE) --no-print-directory build-python
	cd tests/python && HYPOTHESIS_PROFILE=fuzz $(PY_BIN) -m pytest -q -p no:cacheprovider test_fuzz.py

TEST_TARGETS += test-fuzz
