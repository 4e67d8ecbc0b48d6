#!/bin/sh
# layers-test.sh - tests/layers.sh must fail, naming the file, on a file in no layer, on
# an include from a lower layer to a higher one, and on a cycle; and pass on a clean
# tree. Each case is a small scratch tree. Run by `make test`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tree() { # a fresh scratch tree: steps.c uses matrix.h (a downward include)
    rm -rf "$tmp/t" && mkdir -p "$tmp/t/src" "$tmp/t/include/attnstep"
    printf '#include "attnstep/matrix.h"\n' > "$tmp/t/src/steps.c"
    printf '\n' > "$tmp/t/include/attnstep/matrix.h"
}
expect_fail() { # what, the text the message must hold
    if sh "$here/layers.sh" "$tmp/t" > /dev/null 2> "$tmp/err"; then
        echo "layers-test: $1: layers.sh passed" >&2; exit 1
    fi
    grep -q "$2" "$tmp/err" || { echo "layers-test: $1: no \"$2\" in:" >&2; cat "$tmp/err" >&2; exit 1; }
}

tree
sh "$here/layers.sh" "$tmp/t" > /dev/null
tree; printf '\n' > "$tmp/t/src/newthing.c"
expect_fail "a file in no layer" "src/newthing.c is in no layer"
tree; printf '#include "attnstep/attention.h"\n' > "$tmp/t/src/matrix.c"
expect_fail "an upward include" "src/matrix.c includes attention.h"
tree; printf '#include "attnstep/reader.h"\n' > "$tmp/t/src/number.c"
printf '#include "attnstep/number.h"\n' > "$tmp/t/src/reader.c"
expect_fail "a cycle" "cycle"
echo "layers-test: layers.sh refuses a file in no layer, an upward include and a cycle"
