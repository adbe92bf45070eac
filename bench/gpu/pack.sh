#!/usr/bin/env bash
# `make gpu-pack`: build here (no GPU needed) what the lent GPU machine runs,
# and stage it in .gpu/ (gitignored), which travels with the working tree:
#   .gpu/run-on-gpu.sh      the one command to run there (docs/gpu.md)
#   .gpu/pack.tar.xz        stripped binaries that need a GPU (benchmark,
#                           GPU cross-check tests, CLI), the Python module,
#                           precompiled sm_90 kernels, COMMIT, GLIBC needs
# Tests that need no GPU (emulation, NVRTC compile, no-GPU, unit tests)
# stay here. Fails with a clear message when the working tree plus .gpu/
# exceed 60 MiB (the device tool carries at most 64 MiB).
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${CARGO_TARGET_DIR:-target}
limit_mib=60
stage=$(mktemp -d "${TMPDIR:-/tmp}/keccakx-gpu-pack.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/bin" "$stage/tests" "$stage/kernels" "$stage/py/keccakx"

echo "gpu-pack: building the benchmark, the GPU tests and the CLI (release)"
cargo build --release -p keccakx-gpu-bench
cargo build --release -p keccakx-cli
# The GPU cross-check test executable (the other test files need no GPU),
# with the comparison kernels (feature `research`) checked too and the
# kernels' mutation switch compiled in (feature `mutation`, on only under
# KECCAKX_GPU_MUTATE=1: run-on-gpu.sh's mutation step).
gpu_test=$(cargo test --release -p keccakx-gpu --features research,mutation --test gpu_cross --no-run --message-format=json 2>/dev/null |
	python3 -c '
import json, sys
for line in sys.stdin:
    try:
        m = json.loads(line)
    except ValueError:
        continue
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "gpu_cross":
        print(m["executable"])
')
[ -n "$gpu_test" ] || { echo "gpu-pack: could not build the gpu_cross test"; exit 1; }
cp "$target/release/keccakx-gpu-bench" "$stage/bin/"
cp "$target/release/keccakx" "$stage/bin/"
cp "$gpu_test" "$stage/tests/gpu_cross"

# The Python module (abi3, Python >= 3.9) with the CUDA engine, for the
# CuPy/PyTorch device-array cross-check; optional: the run says if absent.
if cargo build --release -p keccakx-py >/dev/null 2>&1 && [ -f "$target/release/lib_keccakx.so" ]; then
	cp crates/keccakx-py/python/keccakx/*.py "$stage/py/keccakx/"
	cp "$target/release/lib_keccakx.so" "$stage/py/keccakx/_keccakx.abi3.so"
	cp bench/gpu/python_check.py "$stage/py/"
else
	echo "gpu-pack: note: the Python module did not build; the GPU run skips the CuPy/PyTorch step"
	rmdir "$stage/py/keccakx" "$stage/py"
fi
strip --strip-unneeded "$stage"/bin/* "$stage"/tests/* ${stage}/py/keccakx/*.so 2>/dev/null || strip "$stage"/bin/* "$stage"/tests/*

# Kernels compiled here for sm_90 (H100, H200) by the GPU machine's NVRTC
# version (make gpu-pack points KECCAKX_NVRTC_LIB at it): the machine's own
# NVRTC finds them in its kernel cache under its version and loads them, so
# the code that runs there is the code whose SASS is checked here first
# (tests/sass.rs: no spills, the rate-specialized absorb's invariants).
echo "gpu-pack: SASS check with the GPU machine's NVRTC (${GPU_DEVICE_NVRTC_WHEEL:-KECCAKX_NVRTC_LIB=${KECCAKX_NVRTC_LIB:-unset}})"
KECCAKX_REQUIRE_SASS=1 cargo test --release -p keccakx-gpu --features research --test sass -- --nocapture 2>&1 |
	grep -E 'absorbed word|NVRTC|note:|test result|panicked|SKIPPED' | tee "$stage/sass-check.txt"
grep -q 'test result: ok' "$stage/sass-check.txt" || { echo "gpu-pack: the SASS check failed with the GPU machine's NVRTC"; exit 1; }
KECCAKX_CACHE_DIR="$stage/kernels" "$stage/bin/keccakx-gpu-bench" --precompile sm_90

# What the binaries need from the C library there.
for f in "$stage"/bin/* "$stage"/tests/* ${stage}/py/keccakx/*.so; do
	[ -f "$f" ] || continue
	need=$(objdump -T "$f" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
	echo "${f#"$stage"/} ${need:-none}"
done > "$stage/GLIBC_NEEDED"
# (No `| head -1` or `| grep -q`: under pipefail a writer cut off early by
# SIGPIPE fails the pack, now and then.)
{
	git rev-parse HEAD
	[ -n "$(git status --porcelain -- crates bench mk)" ] && echo dirty || echo clean
	ldd --version 2>&1 | sed -n 1p
} > "$stage/COMMIT"

rm -rf .gpu
mkdir -p .gpu
tar -C "$stage" -cJf .gpu/pack.tar.xz .
cp bench/gpu/run-on-gpu.sh .gpu/
chmod +x .gpu/run-on-gpu.sh

# The budget: tracked and untracked-not-ignored files (what the device tool
# copies) plus .gpu/.
tree_bytes=$(git ls-files -co --exclude-standard -z | du -cb --files0-from=- 2>/dev/null | tail -1 | cut -f1)
pack_bytes=$(du -cb .gpu | tail -1 | cut -f1)
total=$((tree_bytes + pack_bytes))
mib() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
echo "gpu-pack: contents of .gpu/pack.tar.xz:"
tar -tvJf .gpu/pack.tar.xz | awk '{ printf "  %10s  %s\n", $3, $6 }'
echo "gpu-pack: binaries need $(sort -k2 -V "$stage/GLIBC_NEEDED" | tail -1 | cut -d' ' -f2) (built with $(ldd --version 2>&1 | sed -n 1p))"
echo "gpu-pack: working tree $(mib "$tree_bytes") MiB + .gpu $(mib "$pack_bytes") MiB = $(mib "$total") MiB (limit $limit_mib MiB)"
if [ "$total" -gt $((limit_mib * 1048576)) ]; then
	echo "gpu-pack: FAILED: $(mib "$total") MiB is over the $limit_mib MiB that may travel to the GPU machine;"
	echo "gpu-pack: remove large untracked files from the working tree (git status) or slim the pack"
	exit 1
fi
echo "gpu-pack: OK. On the GPU machine (device tool run, carry [\".gpu\"]): bash .gpu/run-on-gpu.sh --focus, then --after-focus (or no argument: the full run; --quick)"
