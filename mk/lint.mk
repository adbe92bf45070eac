# Style and doc gates, part of `make test` (a minute or two on 2 cores,
# most of it clippy's build of the workspace):
#   cargo fmt --check                     formatting
#   cargo clippy ... -D warnings          every crate and target (default
#                                         features; lints: [workspace.lints])
#   cargo doc --no-deps --lib, -D warnings  broken intra-doc links (the
#                                         libraries: the `keccakx` binary's
#                                         docs would collide with the core's);
#                                         in clippy's profile, so that it reads
#                                         the dependencies clippy checked
#                                         instead of checking them again
#   ruff check                            Python (ruff.toml: the package,
#                                         tests, tools, benches)
.PHONY: test-lint deps-lint

deps-lint: deps-python
	@$(PY_BIN) -c 'import ruff' 2>/dev/null || $(PY_BIN) -m pip install -q --disable-pip-version-check ruff
	@$(CARGO) clippy --version >/dev/null 2>&1 || rustup component add clippy
	@$(CARGO) fmt --version >/dev/null 2>&1 || rustup component add rustfmt

test-lint: deps-lint
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --profile $(TEST_PROFILE) --workspace --all-targets --exclude keccakx-bench -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --profile $(TEST_PROFILE) --no-deps --workspace --exclude keccakx-bench --lib
	$(PY_VENV)/bin/ruff check .

TEST_TARGETS += test-lint
