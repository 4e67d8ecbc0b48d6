#!/bin/sh
# bench.sh - `make bench`: attnstep against the scripts a user would otherwise write,
# on GPT-2-sized attention layers (d_model 768, 12 heads, causal, torch layout, weights
# and biases as numpy.savetxt writes them) of 128 to 4096 tokens.
#
# The peers, strongest first:
#   numpy+OpenBLAS  tests/bench/numpy_ref.py on OpenBLAS (libopenblas0-pthread, installed
#                   here when missing; OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset for it)
#   torch f64       tests/bench/torch_ref.py: numpy.loadtxt, torch.from_numpy, then torch's
#                   own float64 operations on every core (when torch is installed)
#   numpy+refBLAS   numpy_ref.py on Debian's reference BLAS (only up to BENCH_REF_MAX
#                   tokens, default 512: it is 10-50x slower than OpenBLAS)
#
# 1. builds attnstep and the bench tools; generates each layer once (gen_layer is
#    deterministic) into build/bench/ (512 tokens) or build/bench/nSIZE/;
# 2. per size, times `attnstep run --only O --format json layer.txt` and each peer in
#    interleaved rounds (attnstep, peers, attnstep, peers, ...): BENCH_RUNS rounds
#    (default 5) up to 2048 tokens, BENCH_RUNS_BIG (default 3) above; per process the
#    wall time and peak memory (/usr/bin/time %M), and the load and compute seconds each
#    peer reports; medians. attnstep's own parse and compute come from parse_only
#    stages (the same code, stage by stage, median of 3);
# 3. checks every peer's O against attnstep's: at most 1e-9 apart;
# 4. at 512 tokens also: decode against run (issue 15), every table as text against JSON,
#    the number conversion alone, the kernels against OpenBLAS's dgemm (paired rounds) on the
#    projection's shape.
# 5. GPT-2-small's whole block (d_model 768, 12 heads, FFN 3072, GELU tanh, pre-LN) at
#    BENCH_BLOCK_SIZES tokens (default "512 4096"), run --only Y against both peers.
# Sizes: BENCH_SIZES (default "128 512 1024 2048 4096"). Exit status 1 when outputs
# disagree.
set -eu

cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
RUNS=${BENCH_RUNS:-5}
RUNS_BIG=${BENCH_RUNS_BIG:-3}
SIZES=${BENCH_SIZES:-128 512 1024 2048 4096}
REF_MAX=${BENCH_REF_MAX:-512}
DIR=$BUILD/bench
BIN=$BUILD/attnstep
TOL=1e-9
LIBDIR=/usr/lib/x86_64-linux-gnu
OPENBLAS=$LIBDIR/openblas-pthread
REFBLAS=$LIBDIR/blas

make --no-print-directory all "$DIR/gen_layer" "$DIR/parse_only" "$DIR/decode_only" >/dev/null

# ---- the peers ----
. tests/bench/common.sh
PEERS=""
if [ -n "$PY" ]; then
    PEERS="numpy"
    if "$PY" -c 'import torch' 2>/dev/null; then PEERS="$PEERS torch"; fi
    if [ -e "$REFBLAS/libblas.so.3" ]; then PEERS="$PEERS refnp"; fi
fi

# peer NAME LAYERDIR OUT.npy [block]: the command line of one peer (its stdout is "key
# value" lines), with OPENBLAS_CORETYPE and OPENBLAS_L2_SIZE unset and its BLAS chosen;
# with block, the whole GPT-2 block of that directory.
peer() {
    case $1 in
    refnp) lib=$REFBLAS script=numpy_ref.py ;;
    torch) lib=$OPENBLAS script=torch_ref.py ;;
    *) lib=$OPENBLAS script=numpy_ref.py ;;
    esac
    echo "env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE LD_LIBRARY_PATH=$lib $PY tests/bench/$script $2 12 $3 ${4:-}"
}
label() {
    case $1 in
    numpy) echo "numpy+OpenBLAS" ;;
    torch) echo "torch f64" ;;
    refnp) echo "numpy+refBLAS" ;;
    attnstep) echo "attnstep" ;;
    esac
}


row() { printf '  %-26s %12s %15s %12s %14s\n' "$1" "${2:-}" "${3:-}" "${4:-}" "${5:-}"; }
mb() { awk -v b="$1" -v s="$2" 'BEGIN { printf "%.0f MB/s", b / s / 1e6 }'; }
gf() { awk -v f="$1" -v s="$2" 'BEGIN { printf "%.1f GFLOP/s", f / s / 1e9 }'; }
sec() { awk -v s="$1" 'BEGIN { printf "%.3f s", s }'; }
mem() { awk -v k="$1" 'BEGIN { printf "%.0f MB", k / 1024 }'; }
ratio() { awk -v n="$1" -v a="$2" 'BEGIN { printf "%.1fx", n / a }'; }

# layer_dir SIZE: where the layer of SIZE tokens lives (512: build/bench, as before).
layer_dir() { if [ "$1" = 512 ]; then echo "$DIR"; else echo "$DIR/n$1"; fi; }

STATUS=0
: >"$DIR/summary.txt"

# bench_size SIZE: steps 2 and 3 for one size; a line of the summary.
bench_size() {
    n=$1
    d=$(layer_dir "$n")
    mkdir -p "$d"
    if [ ! -f "$d/layer.txt" ] || [ -n "$(find tests/bench/gen_layer.c -newer "$d/layer.txt")" ]; then
        echo "bench: generating the layer of $n tokens into $d/"
        "$DIR/gen_layer" "$d" "$n" 768 12
        # written back before any timing: on a clean clone the first bench otherwise
        # times every process against the disk writing the fresh 60-140 MB behind it
        # (measured: 6.9x at 512 tokens, then 8.0x once the files were on disk)
        sync
    fi
    # shellcheck disable=SC2086
    bytes=$(cat "$d"/x.txt "$d"/w?.txt "$d"/b?.txt | wc -c)
    runs=$RUNS
    [ "$n" -le 2048 ] || runs=$RUNS_BIG
    peers=""
    for q in $PEERS; do
        [ "$q" = refnp ] && [ "$n" -gt "$REF_MAX" ] && continue
        peers="$peers $q"
    done
    for q in attnstep decode $peers; do
        : >"$d/$q.times"
        : >"$d/$q.load"
        : >"$d/$q.compute"
    done
    i=1
    while [ "$i" -le "$runs" ]; do
        timed "$d/attnstep_O.json" "$BIN" run --only O --format json "$d/layer.txt" >>"$d/attnstep.times"
        if [ "$n" = 512 ]; then
            timed "$d/decode_O.json" "$BIN" decode --only O --format json "$d/layer.txt" \
                >>"$d/decode.times"
        fi
        for q in $peers; do
            # the command line's words (no blanks in them) split as they are meant to be
            # shellcheck disable=SC2046
            timed "$d/$q.out" $(peer "$q" "$d" "$d/${q}_O.npy") >>"$d/$q.times"
            value "$d/$q.out" load_s >>"$d/$q.load"
            value "$d/$q.out" compute_s >>"$d/$q.compute"
        done
        i=$((i + 1))
    done
    # attnstep's stages
    : >"$d/stages.all"
    for i in 1 2 3; do
        "$DIR/parse_only" stages "$d/layer.txt" >"$d/stages.out"
        echo "$(value "$d/stages.out" parse_s) $(value "$d/stages.out" lean_s)" >>"$d/stages.all"
    done
    flops=$(value "$d/stages.out" flops)
    a_s=$(median "$d/attnstep.times" 1)

    echo
    echo "== $n tokens (d_model 768, 12 heads, causal): $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB of text," \
        "$(awk -v f="$flops" 'BEGIN { printf "%.2f", f / 1e9 }') GFLOP as numpy counts them, median of $runs interleaved runs"
    set -- "$(label attnstep)"
    for q in $peers; do set -- "$@" "$(label "$q")"; done
    row "" "$@"
    set -- "$(sec "$a_s")"
    for q in $peers; do set -- "$@" "$(sec "$(median "$d/$q.times" 1)")"; done
    row "end to end" "$@"
    set -- "$(sec "$(median "$d/stages.all" 1)")"
    for q in $peers; do set -- "$@" "$(sec "$(median "$d/$q.load" 1)")"; done
    row "  parse (load)" "$@"
    set -- "$(sec "$(median "$d/stages.all" 2)")"
    for q in $peers; do set -- "$@" "$(sec "$(median "$d/$q.compute" 1)")"; done
    row "  compute" "$@"
    set -- "$(mb "$bytes" "$(median "$d/stages.all" 1)")"
    for q in $peers; do set -- "$@" "$(mb "$bytes" "$(median "$d/$q.load" 1)")"; done
    row "parse rate" "$@"
    set -- "$(gf "$flops" "$(median "$d/stages.all" 2)")"
    for q in $peers; do set -- "$@" "$(gf "$flops" "$(median "$d/$q.compute" 1)")"; done
    row "compute rate" "$@"
    set -- "$(mem "$(median "$d/attnstep.times" 2)")"
    for q in $peers; do set -- "$@" "$(mem "$(median "$d/$q.times" 2)")"; done
    row "peak memory (RSS)" "$@"
    set -- "-"
    for q in $peers; do set -- "$@" "$(ratio "$(median "$d/$q.times" 1)" "$a_s")"; done
    row "attnstep faster by" "$@"
    set -- "-"
    for q in $peers; do
        if diff=$("$PY" tests/bench/agree.py "$d/attnstep_O.json" "$d/${q}_O.npy" "$TOL"); then
            set -- "$@" "$diff"
        else
            set -- "$@" "$diff!"
            STATUS=1
        fi
    done
    row "max |O - attnstep's O|" "$@"
    # the summary line: size, attnstep, then each peer's seconds, speed-up, memory
    line="$n $a_s $(median "$d/attnstep.times" 2)"
    for q in numpy torch refnp; do
        case " $peers " in
        *" $q "*) line="$line $(median "$d/$q.times" 1) $(median "$d/$q.times" 2)" ;;
        *) line="$line - -" ;;
        esac
    done
    echo "$line" >>"$DIR/summary.txt"
}

for n in $SIZES; do
    bench_size "$n"
done

# ---- the summary: end to end at every size, the strongest peer first ----
echo
echo "summary, end to end (median seconds; attnstep's lead in brackets; peak memory MB):"
printf '  %6s %10s %20s %20s %20s %7s %7s %7s\n' tokens attnstep "numpy+OpenBLAS" "torch f64" \
    "numpy+refBLAS" "MB ours" "numpy" "torch"
awk '
function peer(s, a) { return s == "-" ? "-" : sprintf("%.3f (%.1fx)", s, s / a) }
function mb(k) { return k == "-" ? "-" : sprintf("%.0f", k / 1024) }
{ printf "  %6s %10.3f %20s %20s %20s %7s %7s %7s\n", $1, $2, peer($4, $2), peer($6, $2),
  peer($8, $2), mb($3), mb($5), mb($7) }' "$DIR/summary.txt"

# ---- GPT-2-small's whole block (issue 31) ----
# d_model 768, 12 heads, FFN 3072 with the tanh GELU, pre-LN, causal, savetxt files that
# gen_layer writes (its layer, the same bytes as above, and the block's norms and FFN);
# `attnstep run --only Y --format json block.txt` against numpy_ref.py and torch_ref.py
# with "block", interleaved rounds as above; Y compared to 1e-9. Sizes BENCH_BLOCK_SIZES
# (default "512 4096"; "" skips it). The goal: at least 6x numpy+OpenBLAS at 512 tokens
# and 4x at 4096, end to end, with less peak memory.
BLOCK_SIZES=${BENCH_BLOCK_SIZES-512 4096}
: >"$DIR/block_summary.txt"

# bench_block SIZE: one size of the block; a line of the block's summary.
bench_block() {
    n=$1
    d=$DIR/block/n$n
    mkdir -p "$d"
    if [ ! -f "$d/block.txt" ] || [ -n "$(find tests/bench/gen_layer.c -newer "$d/block.txt")" ]; then
        echo "bench: generating GPT-2's block of $n tokens into $d/"
        "$DIR/gen_layer" "$d" "$n" 768 12 3072
        sync # as above: written back before any timing
    fi
    bytes=$(cat "$d"/*.txt | wc -c)
    runs=$RUNS
    [ "$n" -le 2048 ] || runs=$RUNS_BIG
    peers=""
    for q in $PEERS; do [ "$q" = refnp ] || peers="$peers $q"; done
    for q in attnstep $peers; do
        : >"$d/$q.times"
        : >"$d/$q.load"
        : >"$d/$q.compute"
    done
    i=1
    while [ "$i" -le "$runs" ]; do
        timed "$d/attnstep_Y.json" "$BIN" run --only Y --format json "$d/block.txt" >>"$d/attnstep.times"
        for q in $peers; do
            # shellcheck disable=SC2046
            timed "$d/$q.out" $(peer "$q" "$d" "$d/${q}_Y.npy" block) >>"$d/$q.times"
            value "$d/$q.out" load_s >>"$d/$q.load"
            value "$d/$q.out" compute_s >>"$d/$q.compute"
        done
        i=$((i + 1))
    done
    a_s=$(median "$d/attnstep.times" 1)
    echo
    echo "== GPT-2-small block, $n tokens (d_model 768, 12 heads, FFN 3072, GELU tanh, pre-LN, causal):" \
        "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1e6 }') MB of text, median of $runs interleaved runs"
    set -- "$(label attnstep)"
    for q in $peers; do set -- "$@" "$(label "$q")"; done
    row "" "$@"
    set -- "$(sec "$a_s")"
    for q in $peers; do set -- "$@" "$(sec "$(median "$d/$q.times" 1)")"; done
    row "end to end" "$@"
    set -- "-"
    for q in $peers; do set -- "$@" "$(sec "$(median "$d/$q.load" 1)")"; done
    row "  load" "$@"
    set -- "-"
    for q in $peers; do set -- "$@" "$(sec "$(median "$d/$q.compute" 1)")"; done
    row "  compute" "$@"
    set -- "$(mem "$(median "$d/attnstep.times" 2)")"
    for q in $peers; do set -- "$@" "$(mem "$(median "$d/$q.times" 2)")"; done
    row "peak memory (RSS)" "$@"
    set -- "-"
    for q in $peers; do set -- "$@" "$(ratio "$(median "$d/$q.times" 1)" "$a_s")"; done
    row "attnstep faster by" "$@"
    set -- "-"
    for q in $peers; do
        if diff=$("$PY" tests/bench/agree.py "$d/attnstep_Y.json" "$d/${q}_Y.npy" "$TOL" Y); then
            set -- "$@" "$diff"
        else
            set -- "$@" "$diff!"
            STATUS=1
        fi
    done
    row "max |Y - attnstep's Y|" "$@"
    line="$n $a_s $(median "$d/attnstep.times" 2)"
    for q in numpy torch; do
        case " $peers " in
        *" $q "*) line="$line $(median "$d/$q.times" 1) $(median "$d/$q.times" 2)" ;;
        *) line="$line - -" ;;
        esac
    done
    echo "$line" >>"$DIR/block_summary.txt"
}

for n in $BLOCK_SIZES; do
    bench_block "$n"
done
if [ -n "$BLOCK_SIZES" ]; then
    echo
    echo "GPT-2-small block, end to end (median seconds; attnstep's lead in brackets; peak memory MB; goal >= 6x numpy at 512, >= 4x at 4096):"
    printf '  %6s %10s %20s %20s %7s %7s %7s\n' tokens attnstep "numpy+OpenBLAS" "torch f64" "MB ours" numpy torch
    awk '
    function peer(s, a) { return s == "-" ? "-" : sprintf("%.3f (%.1fx)", s, s / a) }
    function mb(k) { return k == "-" ? "-" : sprintf("%.0f", k / 1024) }
    { printf "  %6s %10.3f %20s %20s %7s %7s %7s\n", $1, $2, peer($4, $2), peer($6, $2), mb($3), mb($5), mb($7) }' \
        "$DIR/block_summary.txt"
fi

# ---- at 512 tokens: decode (issue 15), number conversion, kernels against dgemm ----
case " $SIZES " in *" 512 "*) ;; *) exit $STATUS ;; esac
A_S=$(median "$DIR/attnstep.times" 1)
D_S=$(median "$DIR/decode.times" 1)
"$DIR/decode_only" "$DIR/layer.txt" 3 >"$DIR/decode_only.out" || true
echo
awk -v d="$D_S" -v a="$A_S" -v r="$RUNS" 'BEGIN { printf "decode --only O --format json (512 tokens): %.3f s, %.2fx run --only O (median of %d runs each, interleaved; the goal is at most 1.5x)\n", d, d / a, r }'
awk '$1 == "lean_s" { l = $2 } $1 == "decode_s" { d = $2 } END { printf "  compute alone, best of 3: decode %.3f s, lean run %.3f s (%.2fx)\n", d, l, d / l }' "$DIR/decode_only.out"
if [ "$(grep '^  "O": ' "$DIR/decode_O.json")" = "$(grep '^  "O": ' "$DIR/attnstep_O.json")" ]; then
    echo "  decode's O is run's O byte for byte (the JSON text of every number)"
else
    echo "  decode's O DIFFERS from run's O"
    STATUS=1
fi

# ---- at 512 tokens: every table as text against the same tables as JSON (issue 19) ----
# `attnstep run --format text` with no --only is what a user runs to see every table: X,
# the weights and biases, Q, K, V, each head's Q, K, V, QKT, M, S, A, O, then C and O
# (the text also prints Q, K and V whole before the heads' slices, 8% more numbers than
# the JSON). Paired runs interleaved, medians; timed into /dev/null (the renderers' own
# time: a disk's write-back would add the same to both), then once more into files whose
# numbers are compared.

# first_row OUT LINE: the numbers of one table row (a text line or a JSON row), one a
# line: the text's −∞ and JSON's null both as -inf.
first_row() {
    sed -e 's/^[^[]*\[\[//' -e 's/\].*//' -e 's/−∞/-inf/g' -e 's/null/-inf/g' |
        tr -s ', ' '\n' | grep -v '^$' | head -n 24 >"$1"
}

# json_line WHERE JSON: the JSON line of the inputs, of O, or of head WHERE (1, 2, ...).
json_line() {
    case $1 in
    inputs) grep -a -m 1 '^  "inputs": ' "$2" ;;
    O) grep -a -m 1 '^  "O": ' "$2" ;;
    *) grep -a '^    {"Q"' "$2" | sed -n "${1}p" ;;
    esac
}

# text_agrees TEXT JSON: the first row of X, of head 0's QKT, S and A, of the last
# head's A and of O, shown in the text as the JSON's numbers rounded to 10 decimals.
text_agrees() {
    last=$(grep -ac '^    {"Q"' "$2")
    for pair in 'X ≈ [[|X|inputs' 'Q₀K₀ᵀ ≈ [[|QKT|1' 'S₀ = |S|1' 'A₀ = |A|1' "A₁₁ = |A|$last" \
        'O = C @ Wo + bo ≈ [[|O|O'; do
        t=${pair%%|*} rest=${pair#*|}
        j=${rest%%|*} where=${rest#*|}
        grep -a -m 1 -F "$t" "$1" | first_row "$DIR/agree_text.txt"
        json_line "$where" "$2" | grep -a -o "\"$j\": \[\[[^]]*" | head -n 1 |
            first_row "$DIR/agree_json.txt"
        paste "$DIR/agree_text.txt" "$DIR/agree_json.txt" | awk -v t="$t" '
            NF != 2 || ($1 == "-inf") != ($2 == "-inf") ||
            ($1 != "-inf" && ($1 - $2 > 5.0001e-11 || $2 - $1 > 5.0001e-11)) { bad = 1 }
            END { if (bad || NR < 24) { print "  " t " ... DIFFERS from the JSON"; exit 1 } }' ||
            return 1
    done
}

: >"$DIR/text.times"
: >"$DIR/json.times"
i=1
while [ "$i" -le "$RUNS" ]; do
    timed /dev/null "$BIN" run --format text "$DIR/layer.txt" 2>/dev/null >>"$DIR/text.times"
    timed /dev/null "$BIN" run --format json "$DIR/layer.txt" 2>/dev/null >>"$DIR/json.times"
    i=$((i + 1))
done
"$BIN" run --format text "$DIR/layer.txt" >"$DIR/all.txt" 2>/dev/null
"$BIN" run --format json "$DIR/layer.txt" >"$DIR/all.json" 2>/dev/null
echo
awk -v t="$(median "$DIR/text.times" 1)" -v j="$(median "$DIR/json.times" 1)" -v r="$RUNS" 'BEGIN {
    printf "every table as text (run --format text, 512 tokens): %.3f s, as JSON %.3f s: %.2fx (median of %d runs each, interleaved; the goal is at most 2x)\n", t, j, t / j, r }'
awk -v t="$(sort -g "$DIR/text.times" | head -n 1 | cut -d ' ' -f 1)" \
    -v j="$(sort -g "$DIR/json.times" | head -n 1 | cut -d ' ' -f 1)" \
    -v tb="$(wc -c <"$DIR/all.txt")" -v jb="$(wc -c <"$DIR/all.json")" 'BEGIN {
    printf "  fastest runs: text %.3f s, JSON %.3f s (%.2fx); %.0f MB of text, %.0f MB of JSON\n", t, j, t / j, tb / 1e6, jb / 1e6 }'
if text_agrees "$DIR/all.txt" "$DIR/all.json"; then
    echo "  the text shows the JSON's numbers to 10 decimals (24 of the first row of X, QKT, S, A, O)"
else
    STATUS=1
fi
rm -f "$DIR/all.txt" "$DIR/all.json" "$DIR/agree_text.txt" "$DIR/agree_json.txt"

"$DIR/parse_only" numbers "$DIR/x.txt" "$DIR/wq.txt" "$DIR/wk.txt" "$DIR/wv.txt" \
    "$DIR/wo.txt" >"$DIR/numbers.out"
echo "number conversion alone (%.18e, as_strtod_fast): $(mb "$(value "$DIR/numbers.out" bytes)" "$(value "$DIR/numbers.out" seconds)")"

# the kernels against OpenBLAS's dgemm: KROUNDS paired rounds (ours, then OpenBLAS on 1
# and on 2 threads), each side the best of 5 products per round; medians over the rounds
# and the median of the rounds' ratios (this machine's speed swings within seconds, so
# one measurement of each, a minute apart, says little about their ratio)
KROUNDS=${BENCH_KERNEL_ROUNDS:-5}
: >"$DIR/kernels.all"
: >"$DIR/dgemm.all"
i=1
while [ "$i" -le "$KROUNDS" ]; do
    "$DIR/parse_only" kernels >"$DIR/kernels.out"
    awk -v r="$i" '{ print r, $0 }' "$DIR/kernels.out" >>"$DIR/kernels.all"
    if [ -n "$PY" ]; then
        for t in 1 2; do
            # shellcheck disable=SC2046,SC2091
            OPENBLAS_NUM_THREADS=$t $(peer numpy dgemm "") |
                awk -v r="$i" -v t="$t" '$1 == "dgemm_gflops" { print r, t, $2 }' >>"$DIR/dgemm.all"
        done
    fi
    i=$((i + 1))
done
echo
echo "kernels, GFLOP/s (best of 5 products, median of $KROUNDS rounds): reference / fast on 1 thread / fast on 2 threads"
for shape in $(awk '{ print $1 }' "$DIR/kernels.out"); do
    awk -v s="$shape" '$2 == s' "$DIR/kernels.all" >"$DIR/kernels.one"
    printf '  %-22s %6.1f / %5.1f / %5.1f%s\n' "$shape" "$(median "$DIR/kernels.one" 4)" \
        "$(median "$DIR/kernels.one" 6)" "$(median "$DIR/kernels.one" 8)" \
        "$(awk 'NR == 1 { print $10 == 2 ? " (AVX-512)" : $10 == 1 ? " (AVX2+FMA)" : " (baseline)" }' "$DIR/kernels.one")"
done
if [ -n "$PY" ]; then
    for t in 1 2; do
        # per round: ours, OpenBLAS's and the ratio
        awk -v t="$t" 'FILENAME ~ /kernels/ && $2 ~ /^matmul_/ { o[$1] = (t == 1 ? $6 : $8) }
            FILENAME ~ /dgemm/ && $2 == t { b[$1] = $3 }
            END { for (r in b) if (r in o) print o[r], b[r], 100 * o[r] / b[r] }' \
            "$DIR/kernels.all" "$DIR/dgemm.all" >"$DIR/ratio.all"
        awk -v o="$(median "$DIR/ratio.all" 1)" -v b="$(median "$DIR/ratio.all" 2)" \
            -v q="$(median "$DIR/ratio.all" 3)" -v lo="$(sort -g -k3 "$DIR/ratio.all" | head -n 1 | awk '{ print $3 }')" \
            -v hi="$(sort -g -k3 "$DIR/ratio.all" | tail -n 1 | awk '{ print $3 }')" -v t="$t" -v n="$KROUNDS" \
            'BEGIN { printf "  OpenBLAS dgemm 512x768x768 on %d thread%s: %.1f GFLOP/s, attnstep %.1f (medians); attnstep = %.0f%% of it, median of %d paired rounds (%.0f-%.0f%%; the goal is 80%%)\n", t, (t > 1 ? "s" : ""), b, o, q, n, lo, hi }'
    done
fi
exit $STATUS
