#!/usr/bin/env bash
# `make demo`: hash a shipped sample and a generated 4 MiB file with several
# Keccak-family algorithms, write one checksum file (BSD tags, so that each
# line names its algorithm), verify it with `keccakx sum --check`, then show
# that a changed file is caught. Usage: examples/demo.sh [KECCAKX_BINARY]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${KECCAKX_BIN:-$root/target/release/keccakx}}
work=${DEMO_DIR:-$root/target/demo}
[ -x "$bin" ] || { echo "demo: $bin not found (cargo build --release -p keccakx-cli)"; exit 1; }

rm -rf "$work" && mkdir -p "$work"
cp "$root/examples/sample.txt" "$work/sample.txt"
# 4 MiB of deterministic text: the same bytes on every machine.
head -c 4194304 < <(yes 'keccakx demo: the quick brown fox jumps over the lazy dog 0123456789') > "$work/generated-4MiB.txt"
cd "$work"

say() { printf '\n$ %s\n' "$*"; }
run() { say "$@"; "$@"; }

run "$bin" --version
run "$bin" sum sample.txt generated-4MiB.txt

: > SUMS
for alg in "sha3-256" "shake128 -l 64" "keccak-256" "kt128" "parallelhash128" "turboshake128" "tree-li" "sha3-512"; do
    # shellcheck disable=SC2086
    say keccakx sum --tag -a $alg sample.txt generated-4MiB.txt ">> SUMS"
    # shellcheck disable=SC2086
    "$bin" sum --tag -a $alg sample.txt generated-4MiB.txt | tee -a SUMS
done

say keccakx sum --check SUMS
"$bin" sum --check SUMS
echo "demo: all $(grep -c . SUMS) checksums verified ($(wc -l < SUMS) lines in $work/SUMS)"

if command -v python3 >/dev/null 2>&1; then
    want=$(python3 -c 'import hashlib,sys; print(hashlib.sha3_256(open(sys.argv[1],"rb").read()).hexdigest())' sample.txt)
    got=$("$bin" sum -a sha3-256 sample.txt | cut -d' ' -f1)
    [ "$want" = "$got" ] || { echo "demo: SHA3-256 differs from Python's hashlib ($got vs $want)"; exit 1; }
    echo "demo: SHA3-256 of sample.txt equals Python hashlib's ($want)"
fi

say "echo tampered >> sample.txt; keccakx sum --check --quiet SUMS   # must fail"
echo tampered >> sample.txt
if "$bin" sum --check --quiet SUMS; then
    echo "demo: the change was NOT detected"; exit 1
fi
echo "demo: the changed file was detected (exit status 1, as expected)"
echo "demo: done"
