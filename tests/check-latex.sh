#!/bin/sh
# check-latex.sh - `make check-latex`: makes every kind of worksheet (md and latex, zh and
# en, with and without the key; exercise, sheet FILE, --class, each --step, level 3, the
# whole block and its drills),
# compiles every LaTeX one (pdflatex for English, xelatex + ctex for Chinese), fails on
# an error, an overfull line or a "Missing character" (a name printed as an empty box),
# and checks with pdfinfo that a 2-token sheet without its key is one A4 page. Then a
# class with hard names (䶮 喆 𠮷 O'Neil) is written with -o DIR in both languages and
# each sheet compiled under its own file name. Installs texlive-xetex,
# texlive-lang-chinese, fonts-hanazono (the fallback font) and poppler-utils with
# apt-get when they are missing (as root, e.g. on CI).
#
# Usage: sh tests/check-latex.sh [BIN]   (BIN: the attnstep binary, default build/attnstep)
set -eu
bin=${1:-build/attnstep}
out=build/latex
need=""
command -v pdflatex >/dev/null 2>&1 || need="$need texlive-latex-base"
command -v xelatex >/dev/null 2>&1 || need="$need texlive-xetex"
kpsewhich ctexart.cls >/dev/null 2>&1 || need="$need texlive-lang-chinese texlive-latex-recommended"
command -v pdfinfo >/dev/null 2>&1 || need="$need poppler-utils"
fc-list 2>/dev/null | grep -q HanaMinA || need="$need fonts-hanazono"
if [ -n "$need" ]; then
    if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
        echo "check-latex: needs$need (Debian packages); install them and run again" >&2
        exit 1
    fi
    echo "check-latex: installing$need"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
rm -rf "$out"
mkdir -p "$out"

# name | pages without the key (0: not checked; -: O on page 1, the work area may follow) |
# arguments. A 3-token sheet keeps O on its first page (pdftotext finds "O = AV" there).
kinds='exercise|1|exercise --seed 5 --level 2 --exp-table
f11|1|sheet examples/f11.txt --exp-table
class|4|exercise --seed 9 --class tests/data/sheet/roster.txt
project|1|exercise --seed 5 --step project
scores|1|exercise --seed 5 --step scores
softmax|1|exercise --seed 5 --step softmax --exp-table
mix|1|exercise --seed 5 --step mix
sample|1|exercise --seed 5 --step sample --exp-table
level3|0|exercise --seed 11 --level 3 --tokens 5 --exp-table
three1|-|exercise --seed 1 --level 1 --tokens 3
three2|1|exercise --seed 5 --level 2 --tokens 3
three3|-|exercise --seed 1 --level 3 --tokens 3
heads|0|sheet examples/two-heads.txt
block|0|exercise --seed 5 --block pre --exp-table
blockpost|0|exercise --seed 5 --block post --norm rms --ffn swiglu --exp-table
norm|0|exercise --seed 5 --step norm
residual|0|exercise --seed 5 --step residual
ffn|0|exercise --seed 5 --step ffn --exp-table
blocksheet|0|sheet examples/block-pre-gelu.txt --step ffn --exp-table'
docs=0
fail=0
compile() { # file.tex [dir]: compiles in dir ($out) with the engine its first line names
    d=${2:-$out}
    engine=pdflatex
    head -1 "$d/$1" | grep -q xelatex && engine=xelatex
    (cd "$d" && $engine -interaction=nonstopmode -halt-on-error "$1" >/dev/null 2>&1) || {
        echo "check-latex: $1 does not compile with $engine:" >&2
        grep -A4 '^!' "$d/${1%.tex}.log" >&2 || true
        return 1
    }
    if grep -q 'Overfull \\hbox' "$d/${1%.tex}.log"; then
        echo "check-latex: $1 has an overfull line:" >&2
        grep -A2 'Overfull \\hbox' "$d/${1%.tex}.log" | head -6 >&2
        return 1
    fi
    if grep -q 'Missing character' "$d/${1%.tex}.log"; then
        echo "check-latex: $1 misses characters (printed as empty boxes):" >&2
        grep 'Missing character' "$d/${1%.tex}.log" | sort -u | head -6 >&2
        return 1
    fi
}
pages() { pdfinfo "$1" | awk '/^Pages:/ { print $2 }'; }
printf '%s\n' "$kinds" | {
while IFS='|' read -r name want args; do
    for lang in zh en; do
        for key in "" " --answers"; do
            base="$name-$lang${key:+-key}"
            # shellcheck disable=SC2086
            $bin $args --lang $lang$key --format md >"$out/$base.md"
            # shellcheck disable=SC2086
            $bin $args --lang $lang$key --format latex >"$out/$base.tex"
            [ -s "$out/$base.md" ] || { echo "check-latex: $base.md is empty" >&2; fail=1; }
            if compile "$base.tex"; then
                docs=$((docs + 1))
                got=$(pages "$out/$base.pdf")
                case $name in three*)
                    if [ -z "$key" ] && ! pdftotext -f 1 -l 1 "$out/$base.pdf" - | grep -q 'O = AV'; then
                        echo "check-latex: $base.pdf does not keep O on page 1" >&2
                        fail=1
                    fi;;
                esac
                if [ -z "$key" ] && [ "$want" != 0 ] && [ "$want" != - ] && [ "$got" != "$want" ]; then
                    echo "check-latex: $base.pdf has $got pages, not $want" >&2
                    fail=1
                fi
            else
                fail=1
            fi
        done
    done
done
# a class with hard names, each sheet under its own file name, and the teacher's key
for lang in zh en; do
    dir="$out/hard-$lang"
    $bin exercise --seed 12 --class tests/data/sheet/roster-hard.txt --format latex \
        --lang $lang -o "$dir" >/dev/null
    for f in "$dir"/sheets/*.tex "$dir"/teacher/key.tex; do
        if compile "$(basename "$f")" "$(dirname "$f")"; then
            docs=$((docs + 1))
        else
            fail=1
        fi
    done
done
[ $fail = 0 ] || exit 1
echo "check-latex: $docs LaTeX documents compiled (pdflatex, or xelatex for Chinese and" \
     "for names pdflatex cannot set), no overfull line, no missing character," \
     "every 2-token sheet without its key on one page, every 3-token sheet's O on page 1"
}
