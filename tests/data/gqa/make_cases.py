#!/usr/bin/python3
"""Makes the agreement cases for shared Keys and Values (kv_heads, grouped-query and
multi-query attention) and sliding windows (mask: window W), SPEC section 11 (issue 15).

Each case is a random input written as an attnstep file (torch layout), and the output O
computed by PyTorch in float64 the way the models do it: the G Key/Value heads are
repeated (repeat_interleave) to the number of query heads, and the window is built on
its own -- a band of ones, torch.ones(n, n).tril().triu(-(W - 1)) -- whose zeros set
the scores to -inf before torch.softmax (this torch has no scaled_dot_product_attention). Nothing here uses
attnstep's code. Run once by hand with Debian's python3-torch; the tests read the files
it wrote and do not need Python:

    /usr/bin/python3 tests/data/gqa/make_cases.py
"""
import math
import os
import torch

torch.manual_seed(20261130)
HERE = os.path.dirname(os.path.abspath(__file__))


def mat(name, t):
    rows = ",\n     ".join("[" + ", ".join(repr(float(x)) for x in r) + "]" for r in t.tolist())
    return f"{name} = [{rows}]\n"


def rnd(*shape):
    return torch.randn(*shape, dtype=torch.float64)


def band(n, w):
    """True where position i may read j: j <= i and i - j < w."""
    return torch.ones(n, n, dtype=torch.bool).tril().triu(-(w - 1))


def make(name, what, n, d_model, heads, kv_heads, d_k, d_v, window, has_wo, biases, mask=None):
    X = rnd(n, d_model)
    Wq, Wk, Wv = rnd(heads * d_k, d_model), rnd(kv_heads * d_k, d_model), rnd(kv_heads * d_v, d_model)
    bq, bk, bv = (rnd(heads * d_k), rnd(kv_heads * d_k), rnd(kv_heads * d_v)) if biases else \
        (torch.zeros(heads * d_k, dtype=torch.float64), torch.zeros(kv_heads * d_k, dtype=torch.float64),
         torch.zeros(kv_heads * d_v, dtype=torch.float64))
    Wo, bo = rnd(5, heads * d_v), rnd(5)
    Q = (X @ Wq.T + bq).view(n, heads, d_k).transpose(0, 1)          # [heads, n, d_k]
    K = (X @ Wk.T + bk).view(n, kv_heads, d_k).transpose(0, 1)       # [G, n, d_k]
    V = (X @ Wv.T + bv).view(n, kv_heads, d_v).transpose(0, 1)       # [G, n, d_v]
    K = K.repeat_interleave(heads // kv_heads, dim=0)                # each K head to its group
    V = V.repeat_interleave(heads // kv_heads, dim=0)
    allowed = band(n, window) if window else (torch.ones(n, n, dtype=torch.bool) if mask == "none"
                                              else band(n, n))
    S = (Q @ K.transpose(1, 2)) / math.sqrt(d_k)
    O = torch.softmax(S.masked_fill(~allowed, -math.inf), dim=-1) @ V
    C = O.transpose(0, 1).reshape(n, heads * d_v)
    out = C @ Wo.T + bo if has_wo else C
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write(f"# {what}\n# O computed by torch (float64, K/V heads repeated, "
                f"softmax over the band), see make_cases.py; expected values in {name}.expected\n")
        f.write(f"layout: torch\nheads: {heads}\nkv_heads: {kv_heads}\n")
        f.write(f"mask: window {window}\n" if window else f"mask: {mask or 'causal'}\n")
        f.write(mat("X", X))
        for w, t in (("Wq", Wq), ("Wk", Wk), ("Wv", Wv)):
            f.write(mat(w, t))
        if biases:
            for b, t in (("bq", bq), ("bk", bk), ("bv", bv)):
                f.write(mat(b, t[None]))
        if has_wo:
            f.write(mat("Wo", Wo))
            f.write(mat("bo", bo[None]))
    with open(os.path.join(HERE, name + ".expected"), "w") as f:
        for row in out.tolist():
            f.write(" ".join(f"{x:.17g}" for x in row) + "\n")


make("gqa_4h_2kv_causal", "grouped-query: 4 heads, 2 K/V heads, d_k 2, d_v 3, causal, Wo, biases",
     6, 8, 4, 2, 2, 3, 0, True, True)
make("mqa_3h_1kv_none", "multi-query: 3 heads share 1 K/V head, no mask, biases",
     5, 6, 3, 1, 2, 2, 0, False, True, mask="none")
make("gqa_equal_is_mha", "kv_heads = heads: ordinary multi-head attention, causal, Wo",
     5, 4, 2, 2, 2, 2, 0, True, False)
make("window_2_1head", "sliding window of 2, one head", 7, 3, 1, 1, 3, 2, 2, False, False)
make("window_3_gqa", "sliding window of 3, 4 heads, 2 K/V heads, Wo, biases",
     8, 8, 4, 2, 2, 2, 3, True, True)
make("window_wider_than_n", "a window of 20 over 5 tokens: the causal mask", 5, 4, 2, 1, 2, 3, 20, False, True)
