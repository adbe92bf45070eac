#!/usr/bin/env bash
# Build the GPU benchmark and test binaries here (no GPU needed) and stage
# them in .gpu/ (gitignored) for the lent GPU machine, which has no network
# and no Rust: pass `carry: [".gpu"]` to the device tool's `run` and run
# `bash .gpu/run-on-gpu.sh` there (docs/gpu.md).
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${CARGO_TARGET_DIR:-target}
cargo build --release -p keccakx-gpu --bin keccakx-gpu-bench
# Test executables of keccakx-gpu (unit tests and tests/*.rs).
mapfile -t tests < <(cargo test --release -p keccakx-gpu --no-run --message-format=json 2>/dev/null |
	python3 -c '
import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("profile", {}).get("test") and m.get("executable"):
        if m["target"]["name"] != "keccakx-gpu-bench":
            print(m["executable"])
')
rm -rf .gpu
mkdir -p .gpu/bin .gpu/tests
cp "$target/release/keccakx-gpu-bench" .gpu/bin/
for t in "${tests[@]}"; do
	name=$(basename "$t")
	cp "$t" ".gpu/tests/${name%-*}"
done
if [ -x "$target/release/keccakx" ]; then cp "$target/release/keccakx" .gpu/bin/; fi
cp bench/gpu/run-on-gpu.sh .gpu/
git rev-parse HEAD > .gpu/COMMIT
git status --porcelain -- crates/keccakx-gpu | grep -q . && echo "dirty" >> .gpu/COMMIT || true
du -sh .gpu
ls -l .gpu/bin .gpu/tests
