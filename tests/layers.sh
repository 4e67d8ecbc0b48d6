#!/bin/sh
# layers.sh - the layers of attnstep, and a check that the code keeps to them.
#
# The folder is the layer: every file of src/LAYER/ is in that layer, and the layers,
# lowest first, are the folders named below. A module is a file's name without .c or .h
# (render.c and include/attnstep/render.h are the module render); a header of
# include/attnstep/ is in the layer of its module's .c, and a header with no .c (types
# shared by several modules) in the highest layer of what it includes, the lowest it can
# stand in.
#
# Two passes:
# 1. includes: a module includes headers of its own layer and the layers below, never of
#    a layer above, and the includes between modules have no cycle.
# 2. links (with OBJDIR, the compiled objects in OBJDIR/LAYER/MODULE.o): who defines a
#    symbol and who uses it, read with nm, which includes alone cannot see. A module
#    calls only its own layer and the layers below, the calls between modules have no
#    cycle, and no command (cli/cmd_*) calls another command.
#
# Usage: sh tests/layers.sh [ROOT [OBJDIR]]   (ROOT: the source tree, default .)
set -eu
root=${1:-.}
objdir=${2:-}

# layer  name     what it holds
layers='
1 base     bytes, numbers, tables, messages and files: what everything stands on
2 steps    the chapter'"'"'s pure steps and their fast kernels: arrays plus sizes
3 read     the input files: the one matrix grammar, numbers, statements, load()
4 model    the attention problem: the input with its shapes checked
5 run      a run filling the trace (forward, backward), the session, the tables'"'"' registry
6 render   the renderers: a trace read, never computed, in each format
7 teach    the teacher tools and their documents: answers, grading, exercises, sheets
8 cli      the command line: arguments, one command table, each command, main
'

layer_num() { # folder name -> layer number, or nothing
    printf '%s\n' "$layers" | awk -v n="$1" '$2 == n { print $1 }'
}
layer_name() { # layer number -> its name
    printf '%s\n' "$layers" | awk -v l="$1" '$1 == l { print $2 }'
}

fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
modules="$work/modules"   # module layer file
: > "$modules"

# Every file's layer from its folder; a file loose in src/ or in an unknown folder fails.
for f in "$root"/src/* "$root"/src/*/*; do
    [ -f "$f" ] || continue
    rel=${f#"$root"/}
    case $rel in
    src/*/*.c | src/*/*.h) ;;
    src/*/*) continue ;;
    *)
        echo "layers: $rel is loose in src/: put it in the folder of its layer" \
             "($(printf '%s\n' "$layers" | awk 'NF { printf "%s%s", s, $2; s = " " }'))" >&2
        fail=1; continue ;;
    esac
    dir=${rel#src/}; dir=${dir%%/*}
    l=$(layer_num "$dir")
    if [ -z "$l" ]; then
        echo "layers: $rel is in src/$dir/, which is no layer: the layers are the folders" \
             "named in tests/layers.sh" >&2
        fail=1; continue
    fi
    m=$(basename "$f"); m=${m%.*}
    echo "$m $l $rel" >> "$modules"
done

layer_of() { # module -> layer number, or nothing
    awk -v m="$1" '$1 == m { print $2; exit }' "$modules"
}
includes_of() { # file -> the modules it includes
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\(attnstep\/\)\{0,1\}\([^"]*\)\.h".*/\2/p' "$1"
}

# A public header with no .c: the highest layer of what it includes (repeated, since
# such a header may include another one).
pending=""
for h in "$root"/include/attnstep/*.h; do
    [ -e "$h" ] || continue
    m=$(basename "$h" .h)
    [ -n "$(layer_of "$m")" ] || pending="$pending $h"
done
while [ -n "$pending" ]; do
    left=""
    for h in $pending; do
        m=$(basename "$h" .h) top=1 known=1
        for t in $(includes_of "$h"); do
            lt=$(layer_of "$t")
            if [ -z "$lt" ]; then known=0; elif [ "$lt" -gt "$top" ]; then top=$lt; fi
        done
        if [ "$known" -eq 1 ]; then echo "$m $top ${h#"$root"/}" >> "$modules"; else left="$left $h"; fi
    done
    if [ "$left" = "$pending" ]; then
        for h in $left; do
            echo "layers: ${h#"$root"/} has no .c in src/ and includes a header of no module" >&2
        done
        fail=1; break
    fi
    pending=$left
done

# Pass 1: the includes.
edges="$work/edges"
: > "$edges"
for f in "$root"/src/*/*.c "$root"/src/*/*.h "$root"/include/attnstep/*.h; do
    [ -e "$f" ] || continue
    rel=${f#"$root"/}
    m=$(basename "$f"); m=${m%.*}
    lm=$(layer_of "$m")
    [ -n "$lm" ] || continue
    for t in $(includes_of "$f"); do
        [ "$t" = "$m" ] && continue
        lt=$(layer_of "$t")
        if [ -z "$lt" ]; then
            echo "layers: $rel includes $t.h, which is no module of src/ or include/attnstep/" >&2
            fail=1
        elif [ "$lt" -gt "$lm" ]; then
            echo "layers: $rel includes $t.h: $m (layer $lm, $(layer_name "$lm")) may not" \
                 "use $t (layer $lt, $(layer_name "$lt")); a layer calls only downward" >&2
            fail=1
        fi
        echo "$m $t" >> "$edges"
    done
done
if ! tsort "$edges" > /dev/null 2> "$work/cycle"; then
    echo "layers: the includes between modules have a cycle:" >&2
    sed 's/^tsort: /  /' "$work/cycle" >&2
    fail=1
fi

# Pass 2: the links. For each object, what it defines and what it uses.
nlinks=0
if [ -n "$objdir" ]; then
    defs="$work/defs" uses="$work/uses" links="$work/links"
    : > "$defs"; : > "$uses"; : > "$links"
    for o in "$objdir"/*/*.o; do
        [ -e "$o" ] || continue
        m=$(basename "$o" .o)
        # an object left from a source since removed or renamed is no module
        ls "$root"/src/*/"$m".c > /dev/null 2>&1 || continue
        nm -P "$o" | awk -v m="$m" -v d="$defs" -v u="$uses" '
            $2 ~ /^[TDRBCVW]$/ { print $1, m >> d }
            $2 == "U" { print m, $1 >> u }'
    done
    # module uses module (a symbol defined in another module)
    awk 'NR == FNR { def[$1] = $2; next } ($2 in def) && def[$2] != $1 { print $1, def[$2], $2 }' \
        "$defs" "$uses" | sort -u -k1,2 > "$links"
    while read -r a b sym; do
        la=$(layer_of "$a") lb=$(layer_of "$b")
        [ -n "$la" ] && [ -n "$lb" ] || continue
        if [ "$lb" -gt "$la" ]; then
            echo "layers: $a (layer $la, $(layer_name "$la")) calls $sym of $b (layer $lb," \
                 "$(layer_name "$lb")): a layer calls only downward" >&2
            fail=1
        fi
        case $a:$b in
        cmd_*:cmd_*)
            echo "layers: the command $a calls $sym of the command $b: a command never calls" \
                 "another; share the step through a helper below the commands" >&2
            fail=1 ;;
        esac
    done < "$links"
    awk '{ print $1, $2 }' "$links" > "$work/linkedges"
    if ! tsort "$work/linkedges" > /dev/null 2> "$work/cycle"; then
        echo "layers: the calls between modules have a cycle (read from the objects with nm):" >&2
        sed 's/^tsort: /  /' "$work/cycle" >&2
        fail=1
    fi
    nlinks=$(wc -l < "$links")
fi

if [ "$fail" -ne 0 ]; then
    exit 1
fi
echo "layers: $(wc -l < "$modules") files of $(awk '{ print $1 }' "$modules" | sort -u | wc -l)" \
     "modules in $(printf '%s\n' "$layers" | grep -c .) layers, no cycle, every include" \
     "downward${objdir:+; $nlinks links between modules, every call downward, no cycle}"
