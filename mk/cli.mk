# The `keccakx` command line: crates/keccakx-cli.
#   make demo       build the release binary, hash examples/sample.txt and a
#                   generated 4 MiB file with eight algorithms, write a checksum
#                   file and verify it with --check (examples/demo.sh)
#   make test-cli   cross-check `keccakx sum -a X` against Python's hashlib,
#                   pycryptodome and the tree-LI reference (tests/cli/crosscheck.py,
#                   ~5 s), and against sha3sum (Perl's Digest::SHA3) byte for byte
#                   in all its modes, each checking the other's lists
#                   (tests/cli/sha3sum_compat.py, ~5 s); the CLI's Rust tests run in
#                   test-rust (cargo test)
.PHONY: demo build-cli build-cli-test deps-cli-python deps-cli-sha3sum test-cli

CLI_TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
CLI_BIN := $(CLI_TARGET_DIR)/release/keccakx
# The binary the test targets run: the test profile's, which `make
# test-rust` has built already.
CLI_TEST_BIN := $(CLI_TARGET_DIR)/$(TEST_PROFILE)/keccakx

build-cli: deps-rust
	$(CARGO) build --release -p keccakx-cli

# The binary test-rust builds (same selection, so the same features: the
# workspace's tests turn on the core's `rustcrypto` feature, and a build
# of keccakx-cli alone would compile the core, the CLI and the crates
# between them a second time, ~40 s of CPU). After test-rust: nothing to do.
build-cli-test: deps-rust
	$(CARGO) test --profile $(TEST_PROFILE) $(RUST_TEST_SEL) --no-run

demo: build-cli
	@bash examples/demo.sh $(CLI_BIN)

# pycryptodome for the cross-check: pip, or pip into an externally managed
# Python, or Debian's package; only when it is missing.
deps-cli-python:
	@command -v $(PYTHON) >/dev/null || { apt-get update -qq && apt-get -y -qq install python3 >/dev/null; }
	@$(PYTHON) -c 'import Crypto.Hash.KMAC128' 2>/dev/null || { \
		echo "test-cli: installing pycryptodome"; \
		$(PYTHON) -m pip --version >/dev/null 2>&1 || { apt-get update -qq && apt-get -y -qq install python3-pip >/dev/null; }; \
		$(PYTHON) -m pip install -q --disable-pip-version-check pycryptodome 2>/dev/null \
		|| $(PYTHON) -m pip install -q --disable-pip-version-check --break-system-packages pycryptodome 2>/dev/null \
		|| { apt-get update -qq && apt-get -y -qq install python3-pycryptodome >/dev/null; }; }
	@$(PYTHON) -c 'import Crypto.Hash.KMAC128' || { echo "test-cli: pycryptodome could not be installed"; exit 1; }

# sha3sum, the peer whose options and output `keccakx sum` reproduces.
deps-cli-sha3sum:
	@command -v sha3sum >/dev/null || { echo "test-cli: installing sha3sum (libdigest-sha3-perl)"; \
		apt-get install -y -qq libdigest-sha3-perl >/dev/null 2>&1 \
		|| { apt-get update -qq && apt-get install -y -qq libdigest-sha3-perl >/dev/null; }; }
	@command -v sha3sum >/dev/null || { echo "test-cli: sha3sum could not be installed"; exit 1; }

test-cli: build-cli-test deps-cli-python deps-cli-sha3sum
	$(PYTHON) tests/cli/crosscheck.py --bin $(CLI_TEST_BIN)
	$(PYTHON) tests/cli/sha3sum_compat.py --bin $(CLI_TEST_BIN)
	@# bench/cli.py on 1 MiB and 16 files, one round: it runs, and its digest checks hold
	@# (keccakx = openssl dgst where OpenSSL's CLI is installed).
	@d=$$(mktemp -d) && $(PYTHON) bench/cli.py --keccakx $(CLI_TEST_BIN) --size 1048576 --files 16 --rounds 1 \
	  --out $$d/cli.json > $$d/log 2>&1 || { cat $$d/log; rm -rf $$d; exit 1; }; \
	  grep '^Checks' $$d/log; rm -rf $$d

TEST_TARGETS += test-cli
