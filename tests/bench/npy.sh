#!/bin/sh
# npy.sh - `make bench`'s rows for the binary loaders (issue 32), where the text parse no
# longer helps attnstep:
# 1. a GPT-2-sized layer (d_model 768, 12 heads, causal, torch layout) from .npy files
#    of float32, as checkpoints hold them, at BENCH_NPY_SIZES tokens (default "512
#    4096"): `attnstep run --only O --format json` against the numpy script a user would
#    write (np.load each file, widen to float64, the layer on OpenBLAS:
#    tests/bench/npy_ref.py), interleaved runs, medians, their O at most 1e-9 apart; the
#    goals are 1.5x at 512 tokens and 1.2x at 4096, end to end;
# 2. the load rate of a float32 .safetensors of 503 MB (BENCH_BIG_ROWS x 768): attnstep's
#    loader reading the tensor whole into doubles, the bare pread of the same bytes (the
#    memory's speed, the limit), and numpy mapping and widening it; the goal is 2 GB/s.
# Needs numpy (the peer and the files' maker); without it the rows are skipped. Called by
# bench.sh after its rows, and alone as `make bench-npy`.
set -eu

cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
RUNS=${BENCH_RUNS:-5}
SIZES=${BENCH_NPY_SIZES:-512 4096}
BIG_ROWS=${BENCH_BIG_ROWS:-163840}
DIR=$BUILD/bench
BIN=$BUILD/attnstep
OPENBLAS=/usr/lib/x86_64-linux-gnu/openblas-pthread
TOL=1e-9

make --no-print-directory all "$DIR/gen_layer" "$DIR/tensor_load" >/dev/null
. tests/bench/common.sh
if [ -z "$PY" ]; then
    echo "bench-npy: no numpy: the rows of the binary loaders are skipped" >&2
    exit 0
fi
NP="env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE LD_LIBRARY_PATH=$OPENBLAS $PY tests/bench/npy_ref.py"

layer_dir() { if [ "$1" = 512 ]; then echo "$DIR"; else echo "$DIR/n$1"; fi; }

STATUS=0
echo
echo "binary weight files (issue 32): the layer from float32 .npy files, median of $RUNS interleaved runs"
printf '  %6s %12s %16s %10s %10s %10s %10s %12s\n' tokens attnstep "numpy+OpenBLAS" faster "MB ours" "MB numpy" \
    "np load" "max |dO|"
for n in $SIZES; do
    d=$(layer_dir "$n")
    if [ ! -f "$d/layer.txt" ]; then
        mkdir -p "$d"
        "$DIR/gen_layer" "$d" "$n" 768 12 >/dev/null
    fi
    q=$d/npy
    if [ ! -f "$q/layer.txt" ] || [ "$d/layer.txt" -nt "$q/layer.txt" ]; then
        $NP make "$d" "$q"
        sync
    fi
    : >"$q/attnstep.times"
    : >"$q/numpy.times"
    : >"$q/numpy.load"
    i=1
    while [ "$i" -le "$RUNS" ]; do
        timed "$q/attnstep_O.json" "$BIN" run --only O --format json "$q/layer.txt" >>"$q/attnstep.times"
        # shellcheck disable=SC2086
        timed "$q/numpy.out" $NP "$q" 12 "$q/numpy_O.npy" >>"$q/numpy.times"
        value "$q/numpy.out" load_s >>"$q/numpy.load"
        i=$((i + 1))
    done
    a=$(median "$q/attnstep.times" 1)
    b=$(median "$q/numpy.times" 1)
    if diff=$($PY tests/bench/agree.py "$q/attnstep_O.json" "$q/numpy_O.npy" "$TOL"); then :; else
        diff="$diff!"
        STATUS=1
    fi
    awk -v n="$n" -v a="$a" -v b="$b" -v ma="$(median "$q/attnstep.times" 2)" \
        -v mb="$(median "$q/numpy.times" 2)" -v l="$(median "$q/numpy.load" 1)" -v d="$diff" \
        'BEGIN { printf "  %6s %10.3f s %14.3f s %9.2fx %10.0f %10.0f %8.3f s %12s\n", n, a, b, b / a, ma / 1024, mb / 1024, l, d }'
done

big=$DIR/big.safetensors
if [ ! -f "$big" ]; then
    $NP big "$big" "$BIG_ROWS" 768
    sync
fi
"$DIR/tensor_load" "$big" w >"$DIR/tensor_load.out"
$NP read "$big" >"$DIR/np_read.out"
bytes=$(value "$DIR/tensor_load.out" bytes)
awk -v b="$bytes" -v l="$(value "$DIR/tensor_load.out" load_s)" -v p="$(value "$DIR/tensor_load.out" pread_s)" \
    -v n="$(value "$DIR/np_read.out" seconds)" 'BEGIN {
    printf "load rate of a %.0f MB float32 .safetensors, into doubles (best of 3, in the page cache; the goal is 2 GB/s):\n", b / 1e6
    printf "  attnstep %.2f GB/s (%.3f s); the bare pread %.2f GB/s; numpy memmap + astype(float64) %.2f GB/s\n", b / l / 1e9, l, b / p / 1e9, b / n / 1e9 }'
exit $STATUS
