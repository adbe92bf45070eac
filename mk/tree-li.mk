# Tree mode LI (docs/tree-li.md): the independent Python reference checks its
# sponge against hashlib and that tests/vectors/tree-li/vectors.txt is exactly
# what it generates (about 6 s). The Rust side runs in test-rust
# (crates/keccakx/tests/tree_li.rs). Needs only python3 (pytest optional).
.PHONY: test-tree-li tree-li-vectors

test-tree-li:
	@command -v $(PYTHON) >/dev/null || { echo "test-tree-li: $(PYTHON) not found (apt-get install python3)"; exit 1; }
	$(PYTHON) tests/test_tree_li_ref.py

# Regenerate the vectors after a deliberate change of the definition.
tree-li-vectors:
	$(PYTHON) tests/tree_li_ref.py generate

TEST_TARGETS += test-tree-li
