#!/bin/sh
# Writes NAME.zh.expect and NAME.en.expect of every case of tests/bad/ from what the
# binary prints now (run from the repository root: sh tests/bad/regen.sh). Each changed
# file must then be read by hand before it is committed: this script only saves typing.
set -u
bin=${ATTNSTEP_BIN:-build/attnstep}
for e in tests/bad/*.en.expect; do
    name=${e%.en.expect}
    env -u ATTNSTEP_LANG "$bin" "$name" </dev/null >/dev/null 2>"$name.zh.expect"
    env -u ATTNSTEP_LANG "$bin" --lang en "$name" </dev/null >/dev/null 2>"$name.en.expect"
done
