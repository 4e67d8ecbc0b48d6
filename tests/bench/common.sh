# common.sh - sourced by the `make bench` scripts (bench.sh, npy.sh): PY, a python3 with
# numpy (empty when there is none); OpenBLAS, numpy's fast BLAS, installed when missing
# (libopenblas0-pthread) so that numpy is not timed on the reference BLAS; and the
# timing helpers. Needs OPENBLAS (the folder of its libblas.so.3) and DIR.
PY=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then
        PY=$p
        break
    fi
done
if [ -n "$PY" ] && [ ! -e "$OPENBLAS/libblas.so.3" ] && command -v apt-get >/dev/null 2>&1; then
    echo "bench: installing OpenBLAS (libopenblas0-pthread), numpy's fast BLAS" >&2
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenblas0-pthread
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq &&
            sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenblas0-pthread
    fi || echo "bench: could not install OpenBLAS; numpy runs on the BLAS it finds" >&2
fi

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
