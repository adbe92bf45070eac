#!/usr/bin/env bash
# Runs on the lent GPU machine, from the repository root, after bench/gpu/pack.sh
# staged .gpu/: the GPU tests first, then the benchmark; logs and JSON go to
# $OUT (the device tool brings that folder back).
set -uo pipefail
out=${OUT:-/tmp/keccakx-gpu-out}
mkdir -p "$out"
export KECCAKX_COMMIT="$(head -n1 .gpu/COMMIT)"
export KECCAKX_CACHE_DIR=/tmp/keccakx-kernel-cache
nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || true
nvidia-smi -q -d CLOCK > "$out/nvidia-smi-clocks.txt" 2>&1 || true
: > "$out/summary.txt"
for t in .gpu/tests/*; do
	name=$(basename "$t")
	start=$(date +%s)
	"$t" --test-threads=4 > "$out/test-$name.log" 2>&1
	echo "test $name: exit $? ($(( $(date +%s) - start )) s)" >> "$out/summary.txt"
done
start=$(date +%s)
.gpu/bin/keccakx-gpu-bench --out "$out/gpu-bench.json" > "$out/bench.stdout" 2> "$out/bench.log"
echo "bench: exit $? ($(( $(date +%s) - start )) s)" >> "$out/summary.txt"
cat "$out/summary.txt"
grep -h "test result\|FAILED\|panicked" "$out"/test-*.log | head -40
tail -n 30 "$out/bench.log"
