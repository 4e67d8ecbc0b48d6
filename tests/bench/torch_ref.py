"""torch_ref.py - the PyTorch script a user would otherwise write, for `make bench`.

    torch_ref.py DIR [HEADS] [OUT.npy] [block]

PyTorch has no text loader of its own: the layer is read as a user would, with
numpy.loadtxt (numpy_ref.read_all), then torch.from_numpy (no copy). The layer is
computed in float64 with torch's own operations (matmul, masked_fill, softmax) on
as many threads as the machine has cores (torch.set_num_threads(os.cpu_count()),
as attnstep and OpenBLAS use them: Debian's torch otherwise starts on one), all heads
at once. Prints "load_s" and "compute_s" as
numpy_ref.py does and saves O to OUT.npy when given. With "block", GPT-2's block
around it (numpy_ref.py's block) with torch's own layer_norm and GELU(tanh); saves Y.
"""
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_ref import projections, read_all, read_block  # noqa: E402  (the numpy peer's loading)


def layer(x, w, b, heads):
    q, k, v = projections(x, w, b)
    n, width = q.shape
    dk = width // heads
    # [heads, n, dk]
    q, k, v = (t.reshape(n, heads, dk).transpose(0, 1) for t in (q, k, v))
    future = torch.triu(torch.ones(n, n, dtype=torch.bool), 1)
    s = (q @ k.transpose(1, 2)) / (dk ** 0.5)
    s.masked_fill_(future, float("-inf"))
    c = torch.softmax(s, dim=-1) @ v
    return c.transpose(0, 1).reshape(n, width) @ w["o"].T + b["o"]


def block(x, w, b, heads, ln, ffn):
    F = torch.nn.functional
    d = x.shape[1]
    h1 = x + layer(F.layer_norm(x, (d,), ln["ln1_g"], ln["ln1_b"], 1e-5), w, b, heads)
    u = F.layer_norm(h1, (d,), ln["ln2_g"], ln["ln2_b"], 1e-5) @ ffn["up"].T + ffn["bup"]
    return h1 + F.gelu(u, approximate="tanh") @ ffn["down"].T + ffn["bdown"]


def main():
    d = sys.argv[1]
    heads = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    torch.set_num_threads(os.cpu_count() or 1)
    whole = len(sys.argv) > 4 and sys.argv[4] == "block"
    t0 = time.perf_counter()
    x, w, b = read_all(d)
    x = torch.from_numpy(x)
    w = {k: torch.from_numpy(v) for k, v in w.items()}
    b = {k: torch.from_numpy(v) for k, v in b.items()}
    if whole:
        ln, ffn = (({k: torch.from_numpy(v) for k, v in t.items()}) for t in read_block(d))
    t1 = time.perf_counter()
    with torch.no_grad():
        o = block(x, w, b, heads, ln, ffn) if whole else layer(x, w, b, heads)
    t2 = time.perf_counter()
    if len(sys.argv) > 3:
        import numpy as np

        np.save(sys.argv[3], o.numpy())
    print(f"load_s {t1 - t0:.6f}\ncompute_s {t2 - t1:.6f}\nthreads {torch.get_num_threads()}")


if __name__ == "__main__":
    main()
