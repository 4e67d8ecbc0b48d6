#!/bin/sh
# memory.sh - `make bench-memory`: peak resident memory (/usr/bin/time -f %M, in MB)
# against the number of tokens, for each command SPEC §10 names: `run` as text and as
# JSON, `grad` (every table: dA, dS and d(QKᵀ) of n x n written a row at a time, each
# row made again) and `grad --only dX,dWq` (the backward pass alone, a block of rows at
# a time: grad.h), `decode` and `trace --tiles 1 --row all`, on a column of tokens (X
# of width 1, Wq, Wk, Wv of one number: the 32 KB file of 8192 tokens of issue 30), all
# output to /dev/null. Memory must grow linearly with the tokens (the inputs and each
# row's numbers), never as their square. The pages (`run`, `grad` and `decode` with
# --format html) too, up to the most cells a page holds (4 194 304, html.h: about 1000
# tokens for run's page and grad's, 2047 for decode's); a larger page is refused before
# any output ("refused").
#
# Each run is under an address-space limit of MEMBENCH_LIMIT_MB (default 2048): a run
# that needs more stops there ("> LIMIT" in the table) instead of taking the memory of a
# shared machine. 16384 tokens is the documented limit of one table (16384 x 16384 is
# more than 2^26 numbers): those runs are refused before any output ("refused").
# Sizes: MEMBENCH_SIZES (default "512 1024 2048 4096 8192 16384"); the walk of every row
# prints a few lines per position of every row and takes minutes from 4096 tokens on:
# MEMBENCH_WALK_MAX (default 16384) is the largest size it is run at.
set -eu

cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
BIN=$BUILD/attnstep
DIR=$BUILD/bench/memory
SIZES=${MEMBENCH_SIZES:-512 1024 2048 4096 8192 16384}
LIMIT_MB=${MEMBENCH_LIMIT_MB:-2048}
WALK_MAX=${MEMBENCH_WALK_MAX:-16384}
TIME=/usr/bin/time

if [ ! -x "$TIME" ] && command -v apt-get >/dev/null 2>&1; then
    echo "bench-memory: installing GNU time (Debian package time)" >&2
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time
    fi || true
fi
if [ ! -x "$TIME" ]; then
    echo "bench-memory: needs GNU time as /usr/bin/time (Debian package time)" >&2
    exit 1
fi
mkdir -p "$DIR"

# column N FILE: X = [[-3],[-2],...] of N tokens, one-number weights (gen_input.h's
# long_column, which the memory tests use).
column() {
    awk -v n="$1" 'BEGIN {
        printf "X = ["
        for (i = 0; i < n; i++) printf "%s[%d]", (i ? "," : ""), i % 7 - 3
        print "]\nWq = [[0.5]]\nWk = [[1]]\nWv = [[2]]\nloss: sum"
    }' >"$2"
}

# peak N ARGS...: "MB" of `attnstep ARGS FILE` on N tokens, "> LIMIT" when it ran out
# of its address space, "refused" when it stopped with an input error before working.
peak() {
    n=$1
    shift
    file=$DIR/column-$n.txt
    [ -f "$file" ] || column "$n" "$file"
    rc=0
    (ulimit -v $((LIMIT_MB * 1024)) && exec "$TIME" -f %M -o "$DIR/kb" "$BIN" "$@" "$file") \
        >/dev/null 2>"$DIR/err" || rc=$?
    kb=$(tail -1 "$DIR/kb" 2>/dev/null || echo 0)
    if [ "$rc" -eq 0 ]; then
        awk -v kb="$kb" 'BEGIN { printf "%.1f", kb / 1024 }'
    elif grep -q "16384\|4194304" "$DIR/err"; then
        printf "refused"
    else
        printf "> %s" "$LIMIT_MB"
    fi
}

printf "peak resident memory, MB (limit %s MB of address space)\n" "$LIMIT_MB"
printf "%-7s %10s %10s %10s %10s %10s %12s %10s %10s %10s\n" tokens "run" "run json" grad \
    "grad dX" decode "tiles walk" "run html" "grad html" "dec html"
for n in $SIZES; do
    printf "%-7s" "$n"
    printf " %10s" "$(peak "$n" run)"
    printf " %10s" "$(peak "$n" run --format json)"
    printf " %10s" "$(peak "$n" grad)"
    printf " %10s" "$(peak "$n" grad --only dX,dWq)"
    printf " %10s" "$(peak "$n" decode)"
    if [ "$n" -le "$WALK_MAX" ]; then
        printf " %12s" "$(peak "$n" trace --tiles 1 --row all)"
    else
        printf " %12s" "-"
    fi
    printf " %10s" "$(peak "$n" run --format html)"
    printf " %10s" "$(peak "$n" grad --format html)"
    printf " %10s\n" "$(peak "$n" decode --format html)"
done
