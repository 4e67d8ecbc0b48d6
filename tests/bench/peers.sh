# peers.sh - sourced by the `make bench` scripts (bench.sh, npy.sh): PY, a python3 with
# numpy (empty when there is none), and OpenBLAS, numpy's fast BLAS, installed when
# missing (libopenblas0-pthread) so that numpy is not timed on the reference BLAS.
# Needs OPENBLAS (the folder of its libblas.so.3).
PY=""
for p in python3 /usr/bin/python3; do
    if command -v "$p" >/dev/null 2>&1 && "$p" -c 'import numpy' 2>/dev/null; then
        PY=$p
        break
    fi
done
if [ -n "$PY" ] && [ ! -e "$OPENBLAS/libblas.so.3" ] && command -v apt-get >/dev/null 2>&1; then
    echo "bench: installing OpenBLAS (libopenblas0-pthread), numpy's fast BLAS" >&2
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenblas0-pthread
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo apt-get update -qq &&
            sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libopenblas0-pthread
    fi || echo "bench: could not install OpenBLAS; numpy runs on the BLAS it finds" >&2
fi
