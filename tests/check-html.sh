#!/bin/sh
# check-html.sh - `make check-html` (SPEC §17): makes the pages (run and trace of every
# example in zh, the F11 pages in en, a --predict page, a page whose token is `<script>`,
# a 64-token page; decode, grad, --tiles, the block, trace --row/--step, and check's
# class report), checks the F11 page's size, and tests them in headless chromium with
# tests/html/check.mjs. Installs Debian's chromium (apt-get), a Chinese font (so that the
# screenshots show the words) and npm's playwright-core (into build/html-tools, not
# globally) when they are missing, as `make test` installs cmocka. Screenshots and PDFs
# of the F11 page and of each new kind of page stay in build/html.
#
# Usage: sh tests/check-html.sh [BIN]   (BIN: the attnstep binary, default build/attnstep)
set -eu
bin=${1:-build/attnstep}
out=build/html
tools=build/html-tools
if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "check-html: needs chromium (a Debian package); install it and run again" >&2
        exit 1
    fi
    echo "check-html: installing chromium"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
if command -v fc-list >/dev/null 2>&1 && [ -z "$(fc-list :lang=zh 2>/dev/null)" ] &&
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "check-html: installing a Chinese font for the screenshots"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-wqy-microhei >/dev/null || true
fi
command -v node >/dev/null 2>&1 || { echo "check-html: installing nodejs"; apt-get update -qq;
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; }
if [ ! -d "$tools/node_modules/playwright-core" ]; then
    echo "check-html: installing playwright-core into $tools"
    mkdir -p "$tools"
    [ -f "$tools/package.json" ] || echo '{"private": true}' > "$tools/package.json"
    (cd "$tools" && npm install --no-audit --no-fund --silent playwright-core >/dev/null)
fi
rm -rf "$out"
mkdir -p "$out"
: > "$out/pages.txt"

# page NAME KIND ARGS...: the page of `ARGS --format html`, and trace's lines beside it
page() {
    name=$1 kind=$2 file=$3
    shift 3
    "$bin" "$@" "$file" --format html -o "$out/$name.html"
    "$bin" trace "$file" --row all $(echo "$@" | grep -o -- '--lang [a-z]*' || true) \
        $(echo "$@" | grep -o -- '--digits [0-9]*' || true) > "$out/$name.trace.txt"
    digits=$(echo "$@" | grep -o -- '--digits [0-9]*' | cut -d' ' -f2)
    echo "$name.html ${digits:-10} $name.trace.txt $kind" >> "$out/pages.txt"
}

for f in examples/*.txt; do
    case $f in *answers*) continue ;; esac
    b=$(basename "$f" .txt)
    page "run-$b" page "$f" run
    page "trace-$b" page "$f" trace
done
page f11-zh shot examples/f11.txt run --lang zh
page f11-en page examples/f11.txt trace --lang en --digits 4
page f11-predict predict examples/f11.txt run --predict

# a token that is HTML: the page must show it, never run it
sed 's/^tokens: 我 爱/tokens: <script> 爱/' examples/f11.txt > "$out/attack.txt"
page attack page "$out/attack.txt" trace

# 64 tokens, width 4: the tables are wider than the screen
awk 'BEGIN { n = 64; printf "tokens:"; for (i = 0; i < n; i++) printf " t%d", i; print "";
    print "mask: causal"; printf "X = ["; for (i = 0; i < n; i++) printf "%s[%d, %d, %d, %d]", i ? ", " : "", i % 3, (i * 7) % 5 - 2, 1, (i % 2) * 2 - 1;
    print "]"; print "Wq = [[0.5, 0, 0.1, 0], [0, 0.5, 0, 0.1], [0.2, 0, 0.3, 0], [0, 0.2, 0, 0.3]]";
    print "Wk = [[0.3, 0, 0, 0.1], [0, 0.3, 0.1, 0], [0.1, 0, 0.4, 0], [0, 0.1, 0, 0.4]]";
    print "Wv = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]" }' > "$out/big.txt"
page big big "$out/big.txt" run --digits 4

# walk NAME KIND PAGE-ARGS -- TEXT-ARGS: the page of `PAGE-ARGS --format html`, and the
# text whose lines its tooltips quote (decode's walk, trace --tiles, grad's tables)
walk() {
    name=$1 kind=$2
    shift 2
    args=""
    while [ "$1" != "--" ]; do args="$args $1"; shift; done
    shift
    # shellcheck disable=SC2086
    "$bin" $args --format html -o "$out/$name.html"
    "$bin" "$@" > "$out/$name.trace.txt"
    digits=$(echo "$args" | grep -o -- '--digits [0-9]*' | cut -d' ' -f2)
    echo "$name.html ${digits:-10} $name.trace.txt $kind" >> "$out/pages.txt"
}
walk decode shot decode examples/decode.txt -- decode examples/decode.txt
walk decode-gqa walk decode examples/gqa.txt --lang en -- decode examples/gqa.txt --lang en
walk decode-rope walk decode examples/rope.txt -- decode examples/rope.txt
walk decode-heads walk decode examples/two-heads.txt --lang en -- decode examples/two-heads.txt --lang en
walk tiles shot trace examples/tiles.txt --tiles 2 --row all -- trace examples/tiles.txt --tiles 2 --row all
walk tiles-run walk run examples/two-heads.txt --tiles 1 --lang en -- trace examples/two-heads.txt --tiles 1 --row all --lang en
walk grad notrace grad examples/grad-f11.txt -- grad examples/grad-f11.txt
walk grad-heads notrace grad tests/data/grad/self_heads_wo_mse.txt --row all --lang en -- grad tests/data/grad/self_heads_wo_mse.txt --lang en
{ echo "loss: sum"; cat examples/block-pre-gelu.txt; } > "$out/grad-block.txt"
{ echo "loss: sum"; cat examples/block-f11-post-rms.txt; } > "$out/grad-block-post.txt"
walk grad-block notrace grad "$out/grad-block.txt" -- grad "$out/grad-block.txt"
walk grad-block-post notrace grad "$out/grad-block-post.txt" --lang en -- grad "$out/grad-block-post.txt" --lang en
walk block shot run examples/block-pre-gelu.txt -- trace examples/block-pre-gelu.txt --row all
walk block-post walk trace examples/block-f11-post-rms.txt --lang en -- trace examples/block-f11-post-rms.txt --row all --lang en
walk trace-row0 walk trace examples/f11.txt --row 0 -- trace examples/f11.txt --row all
walk trace-step3 walk trace examples/f11.txt --step 3 --lang en -- trace examples/f11.txt --row all --lang en
walk big-decode big decode "$out/big.txt" --digits 4 -- decode "$out/big.txt" --digits 4

# a class (exercise --class) and its answers: each student's key, one with a wrong Q
# cell, one without V; and six students of F11 (examples/class)
printf '张三\n李四\n王五\n' > "$out/roster.txt"
"$bin" exercise --seed 7 --class "$out/roster.txt" -o "$out/class" > /dev/null
mkdir -p "$out/answers"
"$bin" exercise --seed 7 --class "$out/roster.txt" --answers --digits 4 |
    awk -v dir="$out/answers" '/^# attnstep/ { n++ } { print > sprintf("%s/%02d.txt", dir, n) }'
sed '/^Q = \[\[/s/\[\[ *-\{0,1\}[0-9.]*/[[7/' "$out/answers/02.txt" > "$out/answers/02.tmp"
mv "$out/answers/02.tmp" "$out/answers/02.txt"
sed '/^V = /,/^$/d' "$out/answers/03.txt" > "$out/answers/03.tmp" && mv "$out/answers/03.tmp" "$out/answers/03.txt"
"$bin" check --class "$out/class" "$out/answers" --format html -o "$out/class.html" || [ $? = 1 ]
"$bin" check --class "$out/class" "$out/answers" --format json > "$out/class.json" || [ $? = 1 ]
echo "class.html 10 class.json class" >> "$out/pages.txt"
"$bin" check examples/f11.txt examples/class --format html --lang en -o "$out/class-f11.html" || [ $? = 1 ]
"$bin" check examples/f11.txt examples/class --format json > "$out/class-f11.json" || [ $? = 1 ]
echo "class-f11.html 10 class-f11.json class" >> "$out/pages.txt"

size=$(wc -c < "$out/f11-zh.html")
echo "check-html: the F11 page is $size bytes"
if [ "$size" -ge 204800 ]; then
    echo "check-html: the F11 page is over 200 KB" >&2
    exit 1
fi
grep -q '&lt;script&gt;' "$out/attack.html" || { echo "check-html: the token <script> is not escaped" >&2; exit 1; }
nice node tests/html/check.mjs "$out"
