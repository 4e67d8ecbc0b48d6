#!/bin/sh
# layers.sh - the layers of attnstep, and a check that the code keeps to them.
#
# Every file of src/ and include/attnstep/ belongs to a module (its name without .c or
# .h: render.c and render.h are the module render), and every module to one layer of
# the table below. A module may include headers of its own layer and of the layers
# below it, never of a layer above; and the includes between modules have no cycle.
# The check reads the #include "..." lines; `make test` runs it. A new file fails the
# check until its module is added to the table.
#
# Usage: sh tests/layers.sh [ROOT]   (ROOT: the source tree, default the current folder)
set -eu
root=${1:-.}

# layer  name     what it holds
layers='
1 base     bytes, numbers, tables, messages and files: what everything stands on
2 steps    the chapter'"'"'s pure steps and their fast kernels: arrays plus sizes
3 read     the input files: the one matrix grammar, numbers, statements, load()
4 model    the attention problem: the input with its shapes checked
5 run      a run filling the trace (forward, backward), and the session
6 render   the renderers: a trace read, never computed, in each format
7 teach    the teacher tools: answers, grading, diagnoses, exercises, comparison
8 command  the command line: arguments, one command table, each command, main
'

# module layer
table='
error 1
matrix 1
i18n 1
numfmt 1
numfmt_pow5 1
mul128 1
fastfloat 1
fastfloat_pow5 1
textblock 1
suggest 1
prng 1
lex 1
output 1
threads 1
steps 2
steps_gen 2
expvec 2
fma_clones 2
kernels 2
fused 2
positions 2
backward 2
mistake_steps 2
number 3
reader 3
load 3
parse 3
model 4
attention 5
session 5
grad 5
decode 5
mask 5
tiles 5
render 6
render_text 6
render_json 6
render_md 6
render_latex 6
render_csv 6
render_svg 6
render_trace 6
heatmap 6
expand 6
render_grad 6
render_grad_walk 6
render_decode 6
render_tiles 6
answers 7
graded 7
diagnose 7
check 7
compare 7
exercise 7
render_sheet 7
sheet_tables 7
sheet_key 7
sheet_text 7
sheet 7
render_moodle 7
moodle 7
ownchain 7
check_report 7
practice 7
cli 8
cmd_run 8
cmd_trace 8
cmd_check 8
cmd_exercise 8
cmd_sheet 8
cmd_compare 8
cmd_grad 8
cmd_decode 8
cmd_tiles 8
cmd_practice 8
main 8
'

layer_of() { # module -> layer number, or nothing
    printf '%s\n' "$table" | awk -v m="$1" '$1 == m { print $2 }'
}
layer_name() { # layer number -> its name
    printf '%s\n' "$layers" | awk -v l="$1" '$1 == l { print $2 }'
}

fail=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT

for f in "$root"/src/*.c "$root"/src/*.h "$root"/include/attnstep/*.h; do
    [ -e "$f" ] || continue
    rel=${f#"$root"/}
    m=$(basename "$f"); m=${m%.*}
    lm=$(layer_of "$m")
    if [ -z "$lm" ]; then
        echo "layers: $rel is in no layer: add the line \"$m N\" to the table in" \
             "tests/layers.sh, N the layer it belongs to (see README, How it works)" >&2
        fail=1
        continue
    fi
    for t in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(attnstep\/\)\{0,1\}\([^"]*\)\.h".*/\2/p' "$f"); do
        [ "$t" = "$m" ] && continue
        lt=$(layer_of "$t")
        if [ -z "$lt" ]; then
            echo "layers: $rel includes $t.h, which is in no layer of tests/layers.sh" >&2
            fail=1
        elif [ "$lt" -gt "$lm" ]; then
            echo "layers: $rel includes $t.h: $m (layer $lm, $(layer_name "$lm")) may not" \
                 "use $t (layer $lt, $(layer_name "$lt")); a layer calls only downward" >&2
            fail=1
        fi
        echo "$m $t" >> "$edges"
    done
done

# A cycle between modules (possible within one layer): tsort names its members.
if ! tsort "$edges" > /dev/null 2> "$edges.err"; then
    echo "layers: the includes between modules have a cycle:" >&2
    sed 's/^tsort: /  /' "$edges.err" >&2
    fail=1
fi
rm -f "$edges.err"

if [ "$fail" -ne 0 ]; then
    exit 1
fi
echo "layers: $(printf '%s\n' "$table" | grep -c .) modules in $(printf '%s\n' "$layers" | grep -c .) layers, no cycle, every include downward"
