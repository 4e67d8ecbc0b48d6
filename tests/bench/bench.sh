#!/bin/sh
# bench.sh - `make bench`: attnstep against the numpy script a user would otherwise
# write, on a GPT-2-sized attention layer (512 tokens, d_model 768, 12 heads, causal,
# torch layout, weights and biases as numpy.savetxt writes them: about 70 MB of text).
#
# 1. builds attnstep and the bench tools, generates the layer into build/bench/ (once:
#    gen_layer is deterministic);
# 2. times `attnstep run --only O --format json layer.txt` and numpy_ref.py side by
#    side, interleaved, BENCH_RUNS times (default 5): the median wall time and the peak
#    memory (resident set, from /usr/bin/time) of each;
# 3. times the stages of attnstep alone (parse_only): parse MB/s, compute GFLOP/s, and
#    the number conversion alone (as_strtod_fast) in MB/s;
# 4. checks that the two outputs agree to 1e-9 absolute.
# numpy is looked for in `python3`, then Debian's /usr/bin/python3; without it steps 2
# and 4 time attnstep alone. Exit status 1 when the outputs disagree.
set -eu

cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
RUNS=${BENCH_RUNS:-5}
DIR=$BUILD/bench
BIN=$BUILD/attnstep
TOL=1e-9

make --no-print-directory all "$DIR/gen_layer" "$DIR/parse_only" "$DIR/decode_only" >/dev/null
if [ ! -f "$DIR/layer.txt" ] ||
    [ -n "$(find tests/bench/gen_layer.c -newer "$DIR/layer.txt")" ]; then
    echo "bench: generating the layer into $DIR/"
    "$DIR/gen_layer" "$DIR"
fi
FILES="$DIR/layer.txt $DIR/x.txt $DIR/wq.txt $DIR/wk.txt $DIR/wv.txt $DIR/wo.txt \
$DIR/bq.txt $DIR/bk.txt $DIR/bv.txt $DIR/bo.txt"
# shellcheck disable=SC2086
BYTES=$(cat $FILES | wc -c)

PY=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then
        PY=$p
        break
    fi
done

now() { date +%s.%N; }

# timed OUT CMD...: runs CMD (stdout to OUT) and prints "SECONDS PEAK_KB" (0 KB when
# /usr/bin/time is missing).
timed() {
    out=$1
    shift
    t0=$(now)
    if [ -x /usr/bin/time ]; then
        /usr/bin/time -f "%M" -o "$DIR/rss.txt" "$@" >"$out"
    else
        echo 0 >"$DIR/rss.txt"
        "$@" >"$out"
    fi
    t1=$(now)
    echo "$t0 $t1 $(tail -n 1 "$DIR/rss.txt")" | awk '{ printf "%.4f %d\n", $2 - $1, $3 }'
}

# median FILE COLUMN: the median of one column of numbers.
median() {
    awk -v c="$2" '{ print $c }' "$1" | sort -g |
        awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# value FILE KEY: the number after KEY in a "key value" output.
value() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }

# ---- 2. end to end, side by side ----
: >"$DIR/attnstep.times"
: >"$DIR/numpy.times"
: >"$DIR/decode.times"
i=1
while [ "$i" -le "$RUNS" ]; do
    timed "$DIR/attnstep_O.json" "$BIN" run --only O --format json "$DIR/layer.txt" \
        >>"$DIR/attnstep.times"
    timed "$DIR/decode_O.json" "$BIN" decode --only O --format json "$DIR/layer.txt" \
        >>"$DIR/decode.times"
    if [ -n "$PY" ]; then
        timed "$DIR/numpy.out" env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
            "$PY" tests/bench/numpy_ref.py "$DIR" 12 >>"$DIR/numpy.times"
        value "$DIR/numpy.out" load_s >>"$DIR/numpy.load"
        value "$DIR/numpy.out" compute_s >>"$DIR/numpy.compute"
    fi
    i=$((i + 1))
done

# ---- 3. attnstep's stages ----
: >"$DIR/stages.all"
i=1
while [ "$i" -le 3 ]; do
    "$DIR/parse_only" stages "$DIR/layer.txt" >"$DIR/stages.out"
    echo "$(value "$DIR/stages.out" parse_s) $(value "$DIR/stages.out" lean_s)" \
        "$(value "$DIR/stages.out" json_s)" >>"$DIR/stages.all"
    i=$((i + 1))
done
FLOPS=$(value "$DIR/stages.out" flops)
"$DIR/parse_only" numbers "$DIR/x.txt" "$DIR/wq.txt" "$DIR/wk.txt" "$DIR/wv.txt" \
    "$DIR/wo.txt" >"$DIR/numbers.out"
"$DIR/parse_only" kernels >"$DIR/kernels.out"

A_S=$(median "$DIR/attnstep.times" 1)
A_KB=$(median "$DIR/attnstep.times" 2)
PARSE_S=$(median "$DIR/stages.all" 1)
LEAN_S=$(median "$DIR/stages.all" 2)
JSON_S=$(median "$DIR/stages.all" 3)
FF_BYTES=$(value "$DIR/numbers.out" bytes)
FF_S=$(value "$DIR/numbers.out" seconds)

row() { printf '  %-34s %14s %14s\n' "$1" "$2" "$3"; }
mb() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f MB/s", b / s / 1e6 }'; }
gf() { awk -v f="$1" -v s="$2" 'BEGIN { printf "%.1f GFLOP/s", f / s / 1e9 }'; }
sec() { awk -v s="$1" 'BEGIN { printf "%.3f s", s }'; }
mem() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }

echo
echo "attnstep run --only O --format json: GPT-2-sized layer (512 tokens, d_model 768,"
echo "12 heads, causal), $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB of text, median of $RUNS runs"
echo
row "" "attnstep" "numpy"
if [ -n "$PY" ]; then
    N_S=$(median "$DIR/numpy.times" 1)
    N_KB=$(median "$DIR/numpy.times" 2)
    N_LOAD=$(median "$DIR/numpy.load" 1)
    N_COMP=$(median "$DIR/numpy.compute" 1)
    rm -f "$DIR/numpy.load" "$DIR/numpy.compute"
    row "end to end" "$(sec "$A_S")" "$(sec "$N_S")"
    row "parse (whole input)" "$(mb "$BYTES" "$PARSE_S")" "$(mb "$BYTES" "$N_LOAD")"
    row "compute ($(awk -v f="$FLOPS" 'BEGIN { printf "%.2f", f / 1e9 }') GFLOP)" \
        "$(gf "$FLOPS" "$LEAN_S")" "$(gf "$FLOPS" "$N_COMP")"
    row "peak memory (RSS)" "$(mem "$A_KB")" "$(mem "$N_KB")"
else
    row "end to end" "$(sec "$A_S")" "(no numpy)"
    row "parse (whole input)" "$(mb "$BYTES" "$PARSE_S")" ""
    row "compute" "$(gf "$FLOPS" "$LEAN_S")" ""
    row "peak memory (RSS)" "$(mem "$A_KB")" ""
fi
row "  of which: parse" "$(sec "$PARSE_S")" ""
row "  of which: compute (lean run)" "$(sec "$LEAN_S")" ""
row "  of which: JSON of O" "$(sec "$JSON_S")" ""
row "number conversion alone (%.18e)" "$(mb "$FF_BYTES" "$FF_S")" ""
# ---- decode (issue 15): the KV-cache run against run --only O, the same output ----
D_S=$(median "$DIR/decode.times" 1)
"$DIR/decode_only" "$DIR/layer.txt" 3 >"$DIR/decode_only.out" || true
echo
awk -v d="$D_S" -v a="$A_S" -v r="$RUNS" 'BEGIN { printf "decode --only O --format json: %.3f s, %.2fx run --only O (median of %d runs each, interleaved; the goal is at most 1.5x)\n", d, d / a, r }'
awk '$1 == "lean_s" { l = $2 } $1 == "decode_s" { d = $2 } END { printf "  compute alone, best of 3: decode %.3f s, lean run %.3f s (%.2fx)\n", d, l, d / l }' "$DIR/decode_only.out"
# the final O line of each, as the shortest round-trip text prints it
if [ "$(grep '^  "O": ' "$DIR/decode_O.json")" = "$(grep '^  "O": ' "$DIR/attnstep_O.json")" ]; then
    echo "  decode's O is run's O byte for byte (the JSON text of every number)"
else
    echo "  decode's O DIFFERS from run's O"
    STATUS_DECODE=1
fi

echo
echo "kernels, GFLOP/s (best of 5): reference / fast on 1 thread / fast on 2 threads"
awk '{ printf "  %-22s %6.1f / %5.1f / %5.1f%s\n", $1, $3, $5, $7, $9 ? " (AVX2)" : " (SSE2)" }' \
    "$DIR/kernels.out"

STATUS=${STATUS_DECODE:-0}
if [ -n "$PY" ]; then
    "$PY" tests/bench/numpy_ref.py "$DIR" 12 "$DIR/numpy_O.json" >/dev/null
    echo
    awk -v a="$A_S" -v n="$N_S" 'BEGIN { printf "speed-up: %.1fx (numpy time / attnstep time; the goal is 8x)\n", n / a }'
    echo "numpy's BLAS: $(value "$DIR/numpy.out" blas)"
    "$PY" - "$DIR/attnstep_O.json" "$DIR/numpy_O.json" "$TOL" <<'EOF' || STATUS=1
import json, sys
a = json.load(open(sys.argv[1]))["O"]
b = json.load(open(sys.argv[2]))["O"]
if len(a) != len(b) or any(len(r) != len(s) for r, s in zip(a, b)):
    sys.exit("outputs differ in shape")
diff = max(abs(x - y) for r, s in zip(a, b) for x, y in zip(r, s))
ok = diff <= float(sys.argv[3])
print(f"outputs agree: max |attnstep - numpy| = {diff:.3g} ({'<=' if ok else 'ABOVE'} {sys.argv[3]})")
sys.exit(0 if ok else 1)
EOF
fi
exit $STATUS
