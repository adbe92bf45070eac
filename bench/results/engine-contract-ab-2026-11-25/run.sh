#!/bin/bash
# Alternated before/after runs of keccakx-bench (no peers' C code), one
# filter at a time. Usage: run.sh LAST [FIRST] (rounds FIRST..LAST, FIRST
# defaults to 1; rounds 1-3 ran at 00:2x UTC under load 7-190, 4-5 at 02:2x
# under load ~5). Tables: table.py [ROUNDS] > table.md (4,5; 1,2,3; all)
# before: git archive f89919b | tar -x -C /tmp/kx-before, then there
# cargo build --release -p keccakx-bench --no-default-features (same here)
B=/tmp/kx-before/target/release/keccakx-bench
A=target/release/keccakx-bench
out=bench/results/engine-contract-ab-2026-11-25  # run from the repository root
mkdir -p $out
for r in $(seq ${2:-1} $1); do
  for which in before after; do
    bin=$B; [ $which = after ] && bin=$A
    for f in "kt128:67108864" "batch sha3-256:1048576" "sha3-256:1048576"; do
      filt=${f%%:*}; max=${f##*:}
      tag=$(echo "$filt" | tr ' ' '_')
      flock /work/bench.lock $bin --filter "$filt" --max-size $max --out $out/$which-$tag-$r.json > $out/$which-$tag-$r.txt 2>&1
    done
  done
done
