#!/bin/sh
# check-html.sh - `make check-html` (SPEC §17): makes the pages (run and trace of every
# example in zh, the F11 pages in en, a --predict page, a page whose token is `<script>`,
# a 64-token page), checks the F11 page's size, and tests them in headless chromium with
# tests/html/check.mjs. Installs Debian's chromium (apt-get) and npm's playwright-core
# (into build/html-tools, not globally) when they are missing, as `make test` installs
# cmocka. Screenshots and a PDF of the F11 page stay in build/html.
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

size=$(wc -c < "$out/f11-zh.html")
echo "check-html: the F11 page is $size bytes"
if [ "$size" -ge 204800 ]; then
    echo "check-html: the F11 page is over 200 KB" >&2
    exit 1
fi
grep -q '&lt;script&gt;' "$out/attack.html" || { echo "check-html: the token <script> is not escaped" >&2; exit 1; }
nice node tests/html/check.mjs "$out"
