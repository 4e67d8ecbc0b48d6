#!/bin/sh
# readme-test.sh - every command the two READMEs show a reader (the lines of their ```sh
# blocks that start with build/attnstep) runs as written, in a scratch folder that holds
# what a reader would have: the examples, a roster, answers. Each must exit 0, or 1
# where `check` finds a wrong answer, and say nothing on standard error. The README's
# screen of `check` is the program's output to the letter. Run by `make test`.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
bin="$here/${ATTNSTEP_BIN:-build/attnstep}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
mkdir build && ln -s "$bin" build/attnstep
cp -R "$here/examples" examples
printf '张三\n李四\n王五\n' > roster.txt
cp roster.txt 名单.txt
"$bin" exercise --seed 7 --level 2 > ex.txt
"$bin" run ex.txt > answers.txt        # the key, as a student's answers
cp answers.txt 答案.txt
mkdir answers 答案目录
cp answers.txt answers/a.txt && cp answers.txt 答案目录/a.txt
# a class's answers for check --class: each student's own key, made from the same class
# written aside (the README's own -o class/ comes later and must find no folder)
"$bin" exercise --seed 7 --class roster.txt --format latex -o setup-class > /dev/null
mkdir class-answers 班级答案
for f in setup-class/teacher/0*.txt; do
    "$bin" run "$f" > "class-answers/${f##*/}"
    cp "class-answers/${f##*/}" 班级答案/
done

fail=0 count=0
for readme in README.md README.zh-CN.md; do
    awk '/^```sh$/ { on = 1; next } /^```/ { on = 0 } on && /^build\/attnstep / { print }' \
        "$here/$readme" > commands
    while IFS= read -r line; do
        count=$((count + 1))
        rc=0
        sh -c "$line" > out 2> err < /dev/null || rc=$?
        if [ "$rc" -gt 1 ] || [ -s err ]; then
            echo "readme-test: $readme: \`$line\` exited $rc:" >&2
            cat err >&2
            fail=1
        fi
    done < commands
done

# The screen of check in README.md, run as it is written there.
sed 's/0.7071,  0/1,  0/' examples/f11-answers.txt > mine.txt
"$bin" check examples/f11.txt mine.txt > out || true
awk '/^\$ build\/attnstep check examples\/f11.txt mine.txt$/ { on = 1; next }
     on && /^```/ { exit } on { print }' "$here/README.md" > want
if ! cmp -s out want; then
    echo "readme-test: README.md's check screen is not what check prints:" >&2
    diff want out >&2 || true
    fail=1
fi
[ "$count" -ge 10 ] || { echo "readme-test: only $count commands found in the READMEs" >&2; fail=1; }
[ "$fail" -eq 0 ] || exit 1
echo "readme-test: the $count commands of README.md and README.zh-CN.md run as written"
