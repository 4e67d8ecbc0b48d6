#!/bin/sh
# parallel.sh JOBS LOGDIR: runs the command lines read from standard input, JOBS at a
# time (`make valgrind` runs its test programs two at a time: each runs on one core
# under valgrind, which serialises a program's threads). Each command's output goes to
# LOGDIR/N.log; when all have ended, the logs are printed in the order of the commands,
# each after "== COMMAND" and its seconds, as check-run prints them one after another.
# Exit status 1 when any command failed (their names are listed last).
#   parallel.sh --one LOGDIR/N.cmd   (used by itself through xargs) runs one of them.
set -eu

if [ "$1" = --one ]; then
    cmd=$(cat "$2")
    t0=$(date +%s)
    if sh -c "$cmd" >"${2%.cmd}.log" 2>&1; then rc=0; else rc=$?; fi
    echo "$rc $(($(date +%s) - t0))" >"${2%.cmd}.rc"
    exit 0
fi

jobs=$1
dir=$2
rm -rf "$dir"
mkdir -p "$dir"
n=0
while IFS= read -r line; do
    n=$((n + 1))
    printf '%s\n' "$line" >"$dir/$(printf '%04d' "$n").cmd"
done
find "$dir" -name '*.cmd' | sort | xargs -P "$jobs" -n 1 sh "$0" --one
failed=""
for c in "$dir"/*.cmd; do
    read -r rc secs <"${c%.cmd}.rc"
    echo "== $(cat "$c") (${secs} s)"
    cat "${c%.cmd}.log"
    [ "$rc" = 0 ] || failed="$failed
  $(cat "$c") (exit $rc)"
done
if [ -n "$failed" ]; then
    echo "failed:$failed"
    exit 1
fi
