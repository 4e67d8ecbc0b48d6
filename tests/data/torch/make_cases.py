#!/usr/bin/python3
"""Makes the torch agreement cases (issue 4): random inputs of every kind, written as
attnstep input files, with the output O computed by torch.nn.MultiheadAttention in
float64 (or, where MultiheadAttention cannot express the case -- d_k != d_v, a custom
scale -- by torch's own tensor operations). Run once by hand with Debian's python3-torch;
the tests read the files it wrote and do not need Python:

    /usr/bin/python3 tests/data/torch/make_cases.py
"""
import math
import os
import torch

torch.manual_seed(20261129)
HERE = os.path.dirname(os.path.abspath(__file__))


def mat(name, t):
    rows = ",\n     ".join("[" + ", ".join(repr(float(x)) for x in r) + "]" for r in t.tolist())
    return f"{name} = [{rows}]\n"


def mask_txt(m):
    def cell(x):
        return "-inf" if x == -math.inf else repr(float(x))
    rows = ",\n     ".join("[" + ", ".join(cell(x) for x in r) + "]" for r in m.tolist())
    return f"M = [{rows}]\n"


def causal(n):
    return torch.triu(torch.full((n, n), -math.inf, dtype=torch.float64), diagonal=1)


def mha(case):
    """O from torch.nn.MultiheadAttention, weights given in torch's [out, in] layout."""
    E, H = case["E"], case["heads"]
    kdim = case["Xkv"].shape[1]
    net = torch.nn.MultiheadAttention(E, H, bias=True, kdim=kdim, vdim=kdim,
                                      batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        if kdim == E:
            net.in_proj_weight.copy_(torch.cat([case["Wq"], case["Wk"], case["Wv"]]))
        else:
            net.q_proj_weight.copy_(case["Wq"])
            net.k_proj_weight.copy_(case["Wk"])
            net.v_proj_weight.copy_(case["Wv"])
        net.in_proj_bias.copy_(torch.cat([case["bq"], case["bk"], case["bv"]]))
        net.out_proj.weight.copy_(case["Wo"] if case["has_wo"] else torch.eye(E, dtype=torch.float64))
        net.out_proj.bias.copy_(case["bo"] if case["has_wo"] else torch.zeros(E, dtype=torch.float64))
        out, _ = net(case["X"][None], case["Xkv"][None], case["Xkv"][None],
                     attn_mask=case["M"], need_weights=False)
    return out[0]


def manual(case):
    """The same layer by torch tensor operations (for d_k != d_v or a set scale)."""
    X, Xkv, H = case["X"], case["Xkv"], case["heads"]
    Q = X @ case["Wq"].T + case["bq"]
    K = Xkv @ case["Wk"].T + case["bk"]
    V = Xkv @ case["Wv"].T + case["bv"]
    dk, dv = Q.shape[1] // H, V.shape[1] // H
    outs = []
    for h in range(H):
        q, k, v = Q[:, h*dk:(h+1)*dk], K[:, h*dk:(h+1)*dk], V[:, h*dv:(h+1)*dv]
        s = (q @ k.T) * case["scale"] + case["M"]
        outs.append(torch.softmax(s, dim=-1) @ v)
    C = torch.cat(outs, dim=1)
    return C @ case["Wo"].T + case["bo"] if case["has_wo"] else C


def rnd(*shape):
    return torch.randn(*shape, dtype=torch.float64)


def make(name, what, n, m, d_model, d_kv, E, Ev, heads, mask, cross, has_wo, biases, scale=None):
    c = {"heads": heads, "E": E, "has_wo": has_wo, "scale": scale}
    c["X"] = rnd(n, d_model)
    c["Xkv"] = rnd(m, d_kv) if cross else c["X"]
    c["Wq"], c["Wk"], c["Wv"] = rnd(E, d_model), rnd(E, d_kv), rnd(Ev, d_kv)
    zero = torch.zeros
    c["bq"] = rnd(E) if biases else zero(E, dtype=torch.float64)
    c["bk"] = rnd(E) if biases else zero(E, dtype=torch.float64)
    c["bv"] = rnd(Ev) if biases else zero(Ev, dtype=torch.float64)
    c["Wo"], c["bo"] = rnd(5, Ev), rnd(5)
    if mask == "causal":
        c["M"] = causal(n)
    elif mask == "none":
        c["M"] = torch.zeros(n, m, dtype=torch.float64)
    else:  # padding: the last key is never read, plus a finite bias on the scores
        c["M"] = torch.randn(n, m, dtype=torch.float64).round()
        c["M"][:, m - 1] = -math.inf
    if has_wo and E == Ev and scale is None:
        c["Wo"], c["bo"] = rnd(E, E), rnd(E)
    use_mha = E == Ev and scale is None and d_model == E
    c["scale"] = scale if scale is not None else 1 / math.sqrt(E // heads)
    O = mha(c) if use_mha else manual(c)
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write(f"# {what}\n# O computed by {'torch.nn.MultiheadAttention' if use_mha else 'torch tensor operations'} "
                f"(float64), see make_cases.py; expected values in {name}.expected\n")
        f.write("layout: torch\n")
        f.write(f"heads: {heads}\nmask: {mask if mask != 'padding' else 'none'}\n" if mask != "padding" else f"heads: {heads}\n")
        if scale is not None:
            f.write(f"scale: {scale!r}\n")
        f.write(mat("X", c["X"]))
        if cross:
            f.write(mat("Xkv", c["Xkv"]))
        for w in ("Wq", "Wk", "Wv"):
            f.write(mat(w, c[w]))
        if biases:
            for b in ("bq", "bk", "bv"):
                f.write(mat(b, c[b][None]))
        if has_wo:
            f.write(mat("Wo", c["Wo"]))
            f.write(mat("bo", c["bo"][None]))
        if mask == "padding":
            f.write(mask_txt(c["M"]))
    with open(os.path.join(HERE, name + ".expected"), "w") as f:
        for row in O.tolist():
            f.write(" ".join(f"{x:.17g}" for x in row) + "\n")


make("self_causal_1head", "self-attention, one head, causal", 4, 4, 4, 4, 4, 4, 1, "causal", False, False, False)
make("self_none_bias", "self-attention, no mask, biases", 5, 5, 6, 6, 6, 6, 1, "none", False, False, True)
make("two_heads_wo", "two heads with Wo and bo, causal, biases", 5, 5, 8, 8, 8, 8, 2, "causal", False, True, True)
make("cross_two_heads", "cross-attention, 3 queries reading 6 keys of another width, 2 heads", 3, 6, 4, 7, 4, 4, 2, "none", True, True, True)
make("padding_mask", "custom mask: the last position is padding, finite biases elsewhere", 4, 4, 6, 6, 6, 6, 3, "padding", False, False, True)
make("dk_ne_dv_scale", "d_k != d_v and d_k != d_model, a set scale, cross", 3, 5, 3, 4, 4, 6, 2, "none", True, True, True, scale=0.25)
make("four_heads_causal", "four heads, causal, Wo", 6, 6, 8, 8, 8, 8, 4, "causal", False, True, False)
