"""numpy_ref.py - the numpy script a user would otherwise write, for `make bench`.

    numpy_ref.py DIR [HEADS] [OUT.npy]

Loads the layer that tests/bench/gen_layer.c wrote into DIR with numpy.loadtxt and
computes the same attention layer in float64: torch layout, so Q = X @ Wq.T + bq (and
likewise K, V), a causal mask, a stable softmax per row, the heads side by side, then
O = C @ Wo.T + bo. Prints the seconds spent loading and computing ("load_s",
"compute_s") and the BLAS library numpy used ("blas"), and saves O to OUT.npy when
given (bench.sh compares it with attnstep's). Which BLAS numpy uses is chosen by the
caller (LD_LIBRARY_PATH): bench.sh runs this script on OpenBLAS and on reference BLAS.
"""
import sys
import time

import numpy as np


def load(d, name):
    return np.loadtxt(f"{d}/{name}", dtype=np.float64, ndmin=2)


def read_all(d):
    """X, the four weights and the four biases as float64 arrays."""
    x = load(d, "x.txt")
    w = {k: load(d, f"w{k}.txt") for k in "qkvo"}
    b = {k: load(d, f"b{k}.txt")[0] for k in "qkvo"}
    return x, w, b


def projections(x, w, b):
    """Q, K and V in torch's layout (numpy or torch arrays alike)."""
    return tuple(x @ w[k].T + b[k] for k in "qkv")


def layer(x, w, b, heads):
    q, k, v = projections(x, w, b)
    n, width = q.shape
    dk = width // heads
    future = np.triu(np.ones((n, n), dtype=bool), 1)
    c = np.empty_like(q)
    for h in range(heads):
        cols = slice(h * dk, (h + 1) * dk)
        s = (q[:, cols] @ k[:, cols].T) / np.sqrt(dk)
        s[future] = -np.inf
        s -= s.max(axis=1, keepdims=True)
        e = np.exp(s)
        c[:, cols] = (e / e.sum(axis=1, keepdims=True)) @ v[:, cols]
    return c @ w["o"].T + b["o"]


def blas_in_use():
    """The BLAS library numpy loaded (reference BLAS is far slower than OpenBLAS)."""
    try:
        with open("/proc/self/maps") as f:
            libs = {line.split()[-1] for line in f if "blas" in line.lower()}
        return ",".join(sorted(libs)) or "unknown"
    except OSError:
        return "unknown"


def dgemm_rate(n=512, k=768, p=768, runs=5):
    """GFLOP/s of numpy's BLAS on one [n,k] @ [k,p] product, best of runs (as many as
    parse_only kernels takes of attnstep's)."""
    a = np.random.default_rng(1).standard_normal((n, k))
    b = np.random.default_rng(2).standard_normal((k, p))
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
    return 2.0 * n * k * p / best / 1e9


def main():
    if sys.argv[1] == "dgemm":
        print(f"dgemm_gflops {dgemm_rate():.2f}\nblas {blas_in_use()}")
        return
    d = sys.argv[1]
    heads = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    t0 = time.perf_counter()
    x, w, b = read_all(d)
    t1 = time.perf_counter()
    o = layer(x, w, b, heads)
    t2 = time.perf_counter()
    if len(sys.argv) > 3:
        np.save(sys.argv[3], o)
    print(f"load_s {t1 - t0:.6f}\ncompute_s {t2 - t1:.6f}\nblas {blas_in_use()}")


if __name__ == "__main__":
    main()
