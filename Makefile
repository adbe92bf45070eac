# keccakx — top-level entry points. `make demo` and `make test` are the two
# commands the README promises; each installs what it needs itself.
# Areas (hardware, finalists, python, gpu...) add their own targets in mk/*.mk
# and register test targets by appending to TEST_TARGETS.

SHELL := /bin/bash
CARGO ?= cargo
PYTHON ?= python3
TEST_TARGETS :=
BENCH_TARGETS :=
# The cargo profile the test suite builds with (Cargo.toml: release without
# LTO, quicker to compile); its binaries are in target/$(TEST_PROFILE).
TEST_PROFILE := suite
# Timing runs hold this lock when it is set (BENCH_LOCK=/path/to/lock, in the
# environment or on the command line), so that benchmarks started by several
# people on one shared machine never overlap.
BENCH_LOCK ?=
TIMED := $(if $(BENCH_LOCK),flock $(BENCH_LOCK))
# What test-rust builds and tests: the workspace but the Python extension
# (built by maturin) and the benchmark crate. Its CLI binary,
# target/$(TEST_PROFILE)/keccakx, is the one the CLI's test targets run
# (build-cli-test, mk/cli.mk).
RUST_TEST_SEL := --workspace --exclude keccakx-py --exclude keccakx-bench

.PHONY: all demo test bench deps-rust test-rust

all: test

include $(sort $(wildcard mk/*.mk))

deps-rust:
	@command -v $(CARGO) >/dev/null || { echo "cargo not found: install Rust (https://rustup.rs)"; exit 1; }

test-rust: deps-rust
	$(PYTHON) crates/keccakx/src/permutation/isa/gen_asm.py --check
	$(PYTHON) tools/module_cycles.py
	CARGO=$(CARGO) sh tools/check_no_std.sh
	$(CARGO) test --profile $(TEST_PROFILE) $(RUST_TEST_SEL)

TEST_TARGETS := test-rust $(TEST_TARGETS)

test: $(TEST_TARGETS)
	@echo "make test: all suites passed ($(TEST_TARGETS))"

bench: $(BENCH_TARGETS)
