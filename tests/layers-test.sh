#!/bin/sh
# layers-test.sh - tests/layers.sh must fail, naming the file, on a file loose in src/ or
# in a folder that is no layer, on an include from a lower layer to a higher one, and on
# an include cycle; and, reading compiled objects, on a call upward, a cycle of calls
# and a command calling another command; and pass on a clean tree. Each case is a small
# scratch tree. Run by `make test`.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

tree() { # a fresh scratch tree: steps/steps.c uses base/matrix.h (a downward include)
    rm -rf "$tmp/t" && mkdir -p "$tmp/t/src/base" "$tmp/t/src/steps" "$tmp/t/src/cli" \
        "$tmp/t/include/attnstep" "$tmp/t/obj"
    printf '#include "attnstep/matrix.h"\n' > "$tmp/t/src/steps/steps.c"
    printf '\n' > "$tmp/t/src/base/matrix.c"
    printf '\n' > "$tmp/t/include/attnstep/matrix.h"
}
obj() { # LAYER MODULE C-SOURCE: compiles one object of the scratch tree
    mkdir -p "$tmp/t/obj/$1"
    printf '%s\n' "$3" > "$tmp/t/obj/$1/$2.c"
    "$cc" -c -o "$tmp/t/obj/$1/$2.o" "$tmp/t/obj/$1/$2.c"
}
expect_fail() { # what, the text the message must hold
    if sh "$here/layers.sh" "$tmp/t" "$tmp/t/obj" > /dev/null 2> "$tmp/err"; then
        echo "layers-test: $1: layers.sh passed" >&2; exit 1
    fi
    grep -q "$2" "$tmp/err" || { echo "layers-test: $1: no \"$2\" in:" >&2; cat "$tmp/err" >&2; exit 1; }
}

tree
obj base matrix 'int as_matrix_rows(void) { return 2; }'
obj steps steps 'int as_matrix_rows(void); int as_step(void) { return as_matrix_rows(); }'
sh "$here/layers.sh" "$tmp/t" "$tmp/t/obj" > /dev/null
tree; printf '\n' > "$tmp/t/src/newthing.c"
expect_fail "a file loose in src/" "src/newthing.c is loose in src/"
tree; mkdir "$tmp/t/src/misc"; printf '\n' > "$tmp/t/src/misc/x.c"
expect_fail "a folder that is no layer" "src/misc/x.c is in src/misc/, which is no layer"
tree; printf '\n' > "$tmp/t/src/steps/attention.c"
printf '#include "attnstep/attention.h"\n' > "$tmp/t/src/base/matrix.c"
expect_fail "an upward include" "src/base/matrix.c includes attention.h"
tree; printf '#include "attnstep/reader.h"\n' > "$tmp/t/src/steps/number.c"
printf '#include "attnstep/number.h"\n' > "$tmp/t/src/steps/reader.c"
expect_fail "an include cycle" "includes between modules have a cycle"

tree
obj base matrix 'int as_step(void); int as_matrix_rows(void) { return as_step(); }'
obj steps steps 'int as_step(void) { return 1; }'
expect_fail "a call upward" "matrix (layer 1, base) calls as_step of steps (layer 2, steps)"
tree
obj steps steps 'int as_b(void); int as_a(void) { return as_b(); }'
printf '\n' > "$tmp/t/src/steps/kernels.c"
obj steps kernels 'int as_a(void); int as_b(void) { return as_a(); }'
expect_fail "a cycle of calls" "calls between modules have a cycle"
tree; printf '\n' > "$tmp/t/src/cli/cmd_run.c"; printf '\n' > "$tmp/t/src/cli/cmd_trace.c"
obj cli cmd_run 'int as_cmd_run(void) { return 0; }'
obj cli cmd_trace 'int as_cmd_run(void); int as_cmd_trace(void) { return as_cmd_run(); }'
expect_fail "a command calling a command" "the command cmd_trace calls as_cmd_run of the command cmd_run"
echo "layers-test: layers.sh refuses a loose file, a folder that is no layer, an upward" \
     "include, an include cycle, a call upward, a cycle of calls and a command calling a command"
