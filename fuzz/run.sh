#!/usr/bin/env bash
# Run cargo-fuzz targets for a bounded time each; used by mk/fuzz.mk.
#   fuzz/run.sh SECONDS JOBS MODE TARGET...
# MODE ci:   each target from fuzz/corpus/<target>, new inputs into a scratch
#            directory (dropped: CI leaves the tree clean but for a failure).
# MODE keep: new inputs go into fuzz/corpus/<target>, minimized afterwards
#            (cargo fuzz cmin); commit what was added.
# JOBS targets run at once. Prints each target's executions and coverage
# (libFuzzer's cov/ft), and for a failure the reproducer and how to replay
# and keep it; a failing input is copied into fuzz/corpus/<target> (it
# joins the corpus). Exit status 1 if any target failed.
set -u
secs=$1 jobs=$2 mode=$3
shift 3
fuzz=${CARGO_FUZZ:-cargo +nightly fuzz}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

run() {
    local t=$1 corpus
    if [ "$mode" = keep ]; then
        corpus=(fuzz/corpus/$t)
    else
        mkdir -p "$scratch/$t"
        corpus=("$scratch/$t" fuzz/corpus/$t)
    fi
    mkdir -p fuzz/corpus/$t
    $fuzz run --fuzz-dir fuzz "$t" "${corpus[@]}" -- \
        -max_total_time="$secs" -print_final_stats=1 -rss_limit_mb=4096 \
        >"$scratch/$t.log" 2>&1
    echo $? >"$scratch/$t.rc"
}

pids=()
for t in "$@"; do
    run "$t" &
    pids+=($!)
    if [ ${#pids[@]} -ge "$jobs" ]; then
        wait "${pids[0]}"
        pids=("${pids[@]:1}")
    fi
done
wait

status=0
for t in "$@"; do
    log=$scratch/$t.log
    execs=$(grep -o 'number_of_executed_units: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
    corp=$(ls fuzz/corpus/$t | wc -l)
    echo "fuzz: $t: ${execs:-?} executions in ${secs} s, ${cov:-no coverage line}, corpus $corp inputs"
    if [ "$(cat "$scratch/$t.rc")" != 0 ]; then
        status=1
        echo "fuzz: $t FAILED (exit $(cat "$scratch/$t.rc")):"
        grep -B40 -A4 'Failing input\|SUMMARY: \|panicked\|error:' "$log" | tail -60
        art=$(grep -Eo 'Test unit written to [^ ]+' "$log" | head -1 | cut -d' ' -f5)
        if [ -n "$art" ] && [ -f "$art" ]; then
            # The input joins the corpus at once: every later run replays it
            # first, and `git status` shows it to commit with the fix.
            cp "$art" "fuzz/corpus/$t/"
            echo "fuzz: $t reproducer: $art, copied into fuzz/corpus/$t/"
            echo "  replay: cargo +nightly fuzz run --fuzz-dir fuzz $t $art"
            echo "  commit fuzz/corpus/$t/$(basename "$art") with the fix (it then runs on every CI)"
        fi
    fi
done
if [ "$mode" = keep ]; then
    for t in "$@"; do
        $fuzz cmin --fuzz-dir fuzz "$t" fuzz/corpus/$t >/dev/null 2>&1 || true
    done
fi
exit $status
