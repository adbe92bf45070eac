# SHA-3 finalists (issue 7): crates/finalists, its KATs and the 2012 study's tables.
.PHONY: test-finalists bench-finalists

FINALISTS_PY ?= $(PYTHON)

test-finalists: deps-rust
	$(CARGO) test --release -p finalists

TEST_TARGETS += test-finalists
