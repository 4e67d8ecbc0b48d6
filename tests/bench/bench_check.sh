#!/bin/sh
# bench_check.sh - times `attnstep check` grading a class of 1000 answers files (issue
# 13: under a second). The class is tests/class_roster.h's students over and over
# (tests/bench/gen_class.c); each format is timed, best of 3 runs.
set -eu
BIN=${ATTNSTEP_BIN:-build/attnstep}
DIR=${BENCH_DIR:-build/bench/check-class}
N=${BENCH_N:-1000}
rm -rf "$DIR" && mkdir -p "$DIR/class"
build/bench/gen_class "$DIR" "$N"
echo "grading $N answers files ($(du -sh "$DIR/class" | cut -f1)) with $BIN"
for fmt in csv text json md; do
    best=
    for run in 1 2 3; do
        start=$(date +%s.%N)
        status=0
        "$BIN" check "$DIR/problem.txt" "$DIR/class" --format "$fmt" >/dev/null || status=$?
        end=$(date +%s.%N)
        [ "$status" -le 1 ] || { echo "check failed with status $status" >&2; exit 1; }
        t=$(echo "$end - $start" | bc)
        if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t; fi
    done
    printf '  --format %-4s  %.3f s (best of 3)\n' "$fmt" "$best"
done
