"""numpy_ref.py - the numpy script a user would otherwise write, for `make bench`.

    numpy_ref.py DIR [HEADS] [OUT.npy] [block]

Loads the layer that tests/bench/gen_layer.c wrote into DIR with numpy.loadtxt and
computes the same attention layer in float64: torch layout, so Q = X @ Wq.T + bq (and
likewise K, V), a causal mask, a stable softmax per row, the heads side by side, then
O = C @ Wo.T + bo. Prints the seconds spent loading and computing ("load_s",
"compute_s") and the BLAS library numpy used ("blas"), and saves O to OUT.npy when
given (bench.sh compares it with attnstep's). Which BLAS numpy uses is chosen by the
caller (LD_LIBRARY_PATH): bench.sh runs this script on OpenBLAS and on reference BLAS.

With "block": GPT-2's block around that layer (gen_layer's D_FF files), as nanoGPT's
Block computes it: N1 = LayerNorm(X) (biased variance, eps 1e-5), H1 = X + layer(N1),
N2 = LayerNorm(H1), Y = H1 + GELU_tanh(N2 @ Wup.T + bup) @ Wdown.T + bdown; saves Y.
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


def read_block(d):
    """The block's norms (gamma, beta) and FFN weights and biases."""
    ln = {k: load(d, f"{k}.txt")[0] for k in ("ln1_g", "ln1_b", "ln2_g", "ln2_b")}
    ffn = {"up": load(d, "wup.txt"), "bup": load(d, "bup.txt")[0],
           "down": load(d, "wdown.txt"), "bdown": load(d, "bdown.txt")[0]}
    return ln, ffn


def layer_norm(x, g, b, eps=1e-5):
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def gelu_tanh(x):
    return 0.5 * x * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (x + 0.044715 * x ** 3)))


def block(x, w, b, heads, ln, ffn):
    h1 = x + layer(layer_norm(x, ln["ln1_g"], ln["ln1_b"]), w, b, heads)
    u = layer_norm(h1, ln["ln2_g"], ln["ln2_b"]) @ ffn["up"].T + ffn["bup"]
    return h1 + gelu_tanh(u) @ ffn["down"].T + ffn["bdown"]


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
    whole = len(sys.argv) > 4 and sys.argv[4] == "block"
    t0 = time.perf_counter()
    x, w, b = read_all(d)
    if whole:
        ln, ffn = read_block(d)
    t1 = time.perf_counter()
    o = block(x, w, b, heads, ln, ffn) if whole else layer(x, w, b, heads)
    t2 = time.perf_counter()
    if len(sys.argv) > 3:
        np.save(sys.argv[3], o)
    print(f"load_s {t1 - t0:.6f}\ncompute_s {t2 - t1:.6f}\nblas {blas_in_use()}")


if __name__ == "__main__":
    main()
