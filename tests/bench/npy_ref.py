"""npy_ref.py - the numpy side of `make bench`'s rows for the binary loaders (issue 32).

    npy_ref.py make TEXTDIR NPYDIR   the layer of TEXTDIR (gen_layer's numpy.savetxt
                                     files) as float32 .npy files in NPYDIR, as a
                                     checkpoint holds them, and NPYDIR/layer.txt loading them
    npy_ref.py NPYDIR [HEADS] [OUT.npy]
                                     what a user would otherwise write: np.load each file,
                                     widen to float64, the same layer as numpy_ref.py on
                                     OpenBLAS; prints load_s and compute_s, saves O
    npy_ref.py big FILE [ROWS COLS]  a float32 .safetensors of one ROWS x COLS tensor "w"
                                     (default 163840 x 768: 503 MB), random values
    npy_ref.py read FILE             numpy's rate on it: the tensor mapped (np.memmap at
                                     its data offset) and widened to float64; prints
                                     seconds and bytes, best of 3
"""
import json
import os
import re
import struct
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_ref import blas_in_use, layer  # noqa: E402  the same layer, the same BLAS report

NAMES = ["x"] + ["w" + k for k in "qkvo"] + ["b" + k for k in "qkvo"]


def make(text_dir, npy_dir):
    os.makedirs(npy_dir, exist_ok=True)
    for name in NAMES:
        a = np.loadtxt(f"{text_dir}/{name}.txt", dtype=np.float64, ndmin=2)
        np.save(f"{npy_dir}/{name}.npy", (a[0] if name[0] == "b" else a).astype(np.float32))
    with open(f"{text_dir}/layer.txt") as f:
        text = f.read()
    with open(f"{npy_dir}/layer.txt", "w") as f:
        f.write(re.sub(r'\.txt"\)', '.npy")', text))


def run(npy_dir, heads, out):
    t0 = time.perf_counter()
    a = {n: np.load(f"{npy_dir}/{n}.npy").astype(np.float64) for n in NAMES}
    x = a["x"]
    w = {k: a["w" + k] for k in "qkvo"}
    b = {k: a["b" + k] for k in "qkvo"}
    t1 = time.perf_counter()
    o = layer(x, w, b, heads)
    t2 = time.perf_counter()
    if out:
        np.save(out, o)
    print(f"load_s {t1 - t0:.6f}\ncompute_s {t2 - t1:.6f}\nblas {blas_in_use()}")


def big(path, rows, cols):
    header = {"w": {"dtype": "F32", "shape": [rows, cols], "data_offsets": [0, rows * cols * 4]}}
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    rng = np.random.default_rng(32)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h)
        for r in range(0, rows, 8192):
            f.write(rng.standard_normal((min(8192, rows - r), cols), dtype=np.float32).tobytes())


def read(path):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        meta = json.loads(f.read(n))["w"]
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        m = np.memmap(path, dtype="<f4", mode="r", offset=8 + n, shape=tuple(meta["shape"]))
        w = m.astype(np.float64)
        best = min(best, time.perf_counter() - t)
        del m, w
    print(f"seconds {best:.6f}\nbytes {meta['data_offsets'][1]}")


def main():
    if sys.argv[1] == "make":
        make(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "big":
        big(sys.argv[2], *(int(v) for v in sys.argv[3:5]) if len(sys.argv) > 4 else (163840, 768))
    elif sys.argv[1] == "read":
        read(sys.argv[2])
    else:
        run(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 12,
            sys.argv[3] if len(sys.argv) > 3 else None)


if __name__ == "__main__":
    main()
