# CPU benchmark: keccakx against OpenSSL, RustCrypto sha3/k12,
# tiny-keccak, XKCP K12 and BLAKE3 in one run. Not part of `make test`.
#   make bench-cpu                       full run (~5-10 min on 2 cores)
#   make bench-cpu BENCH_CPU_ARGS=--quick
# Writes bench/results/cpu-<date>.json and the plot next to it.

BENCH_TARGETS += bench-cpu
BENCH_CPU_ARGS ?=
BENCH_CPU_JSON ?= bench/results/cpu-$(shell date -u +%F).json

.PHONY: bench-cpu bench-cpu-deps

bench-cpu-deps:
	@need=""; \
	for p in libssl-dev pkg-config libclang-dev python3-matplotlib; do \
	  dpkg -s $$p >/dev/null 2>&1 || need="$$need $$p"; \
	done; \
	if [ -n "$$need" ]; then \
	  echo "bench-cpu: installing$$need"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  ( $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$need >/dev/null ) \
	    || echo "bench-cpu: warning: could not install$$need (peers needing them are left out)"; \
	fi

bench-cpu: deps-rust bench-cpu-deps
	@features=""; \
	if ! $(CARGO) build --release -p keccakx-bench -q 2>bench/results/.build.log; then \
	  echo "bench-cpu: full build failed (see bench/results/.build.log); retrying without XKCP"; \
	  features="--no-default-features --features openssl"; \
	  $(CARGO) build --release -p keccakx-bench -q $$features || { \
	    echo "bench-cpu: retrying without OpenSSL too"; features="--no-default-features"; \
	    $(CARGO) build --release -p keccakx-bench -q $$features; }; \
	fi; \
	echo "bench-cpu: load before: $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	$(TIMED) $(CARGO) run --release -p keccakx-bench -q $$features -- --out $(BENCH_CPU_JSON) $(BENCH_CPU_ARGS)
	$(PYTHON) bench/plot.py $(BENCH_CPU_JSON)

# The same as on a CPU without AVX-512 (most desktop and laptop CPUs):
# keccakx on its AVX2 engine and bmi single state, XKCP on its AVX2 code
# (its switch needs the define below, so XKCP is rebuilt), no BLAKE3.
#   make bench-cpu-no-avx512             (~3 min)
BENCH_TARGETS += bench-cpu-no-avx512
BENCH_CPU_NO_AVX512_JSON ?= bench/results/cpu-$(shell date -u +%F)-no-avx512.json
.PHONY: bench-cpu-no-avx512
bench-cpu-no-avx512: deps-rust bench-cpu-deps
	@features="--features xkcp-avx2"; \
	export CFLAGS="$${CFLAGS:+$$CFLAGS }-DKeccakP1600_enable_simd_options"; \
	if ! $(CARGO) build --release -p keccakx-bench -q $$features 2>bench/results/.build.log; then \
	  echo "bench-cpu-no-avx512: build with XKCP failed (see bench/results/.build.log); running without XKCP"; \
	  features="--no-default-features --features openssl"; \
	  $(CARGO) build --release -p keccakx-bench -q $$features; \
	fi; \
	echo "bench-cpu-no-avx512: load before: $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	$(TIMED) $(CARGO) run --release -p keccakx-bench -q $$features -- --no-avx512 --out $(BENCH_CPU_NO_AVX512_JSON) $(BENCH_CPU_ARGS)
	$(PYTHON) bench/plot.py $(BENCH_CPU_NO_AVX512_JSON)

# Peak resident memory of `keccakx sum` on a 10 GB input (target:
# < 64 MiB with --no-mmap). Sparse file + pipe: no disk space needed.
#   make bench-memory                    (~3 min)
BENCH_TARGETS += bench-memory
.PHONY: bench-memory
bench-memory: deps-rust
	@command -v /usr/bin/time >/dev/null 2>&1 || { SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq time >/dev/null; }
	$(CARGO) build --release -p keccakx-cli -q
	$(TIMED) $(PYTHON) bench/memory.py --keccakx target/release/keccakx

# `keccakx sum` against the command-line hashers users have (b3sum, openssl
# dgst, rhash, sha3sum, sha256sum, b2sum) and XKCP's K12 over a memory map
# (bench/src/bin/xkcp-k12sum.rs) on one cached 1 GiB file and on 4096 files
# of 64 KiB: wall time of the whole process. Before/after runs of a change:
#   make bench-cli BENCH_CLI_ARGS="--compare /path/to/old/keccakx --only '^keccakx|XKCP'"
# Installs b3sum into bench/.tools (cargo install) and rhash and sha3sum
# (apt) when missing; a contender that cannot be had is skipped and named.
#   make bench-cli                      (~2 min)
#   make bench-cli BENCH_CLI_ARGS="--size 268435456 --rounds 3"
BENCH_TARGETS += bench-cli
BENCH_CLI_JSON ?= bench/results/cli-$(shell date -u +%F).json
.PHONY: bench-cli
bench-cli: deps-rust bench-cpu-deps
	$(CARGO) build --release -p keccakx-cli -q
	@$(CARGO) build --release -p keccakx-bench --bin xkcp-k12sum -q 2>bench/results/.build-xkcp.log || \
	  echo "bench-cli: XKCP's K12 peer did not build (see bench/results/.build-xkcp.log); its row is skipped"
	@command -v b3sum >/dev/null 2>&1 || [ -x bench/.tools/bin/b3sum ] || \
	  $(CARGO) install b3sum --locked --root bench/.tools -q || \
	  echo "bench-cli: could not install b3sum; its rows are skipped"
	@need=""; \
	for p in rhash libdigest-sha3-perl python3-matplotlib; do dpkg -s $$p >/dev/null 2>&1 || need="$$need $$p"; done; \
	if [ -n "$$need" ]; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  ( $$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq $$need >/dev/null ) \
	    || echo "bench-cli: could not install$$need (rhash's or sha3sum's row or the plot is skipped)"; \
	fi
	$(TIMED) $(PYTHON) bench/cli.py --out $(BENCH_CLI_JSON) $(BENCH_CLI_ARGS)
