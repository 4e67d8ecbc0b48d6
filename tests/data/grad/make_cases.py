#!/usr/bin/python3
"""Makes the grad agreement cases (issue 17): small attention layers of every kind, written
as attnstep input files, with every gradient computed by PyTorch autograd in float64 and
saved beside them (NAME.expected: for each table a line "name rows cols", then its rows).
Run once by hand with Debian's python3-torch; the tests read what it wrote and need no
Python:

    /usr/bin/python3 tests/data/grad/make_cases.py            # the small cases
    make build/bench/gen_layer && build/bench/gen_layer build/bench
    /usr/bin/python3 tests/data/grad/make_cases.py gpt2 build/bench   # gpt2.expected

The forward pass is written here with torch's own tensor operations, from SPEC §1 (the
book's [in, out] layout, Q = X @ Wq + bq; in the layout: torch case the weights are
leaves in torch's [out, in] layout used through torch.nn.functional.linear, and their
gradients are transposed to the book's layout, as attnstep prints them). Autograd gives
every gradient; intermediate tables (C, each head's V, A, S, QKᵀ, Q, K) keep theirs with
retain_grad(). The GPT-2-sized case is too large to store: gpt2.expected keeps the
checksums of dWq (sum, sum of |x|, sum of x²) and 256 of its cells, and 64 cells of dX.
"""
import math
import os
import sys
import torch

torch.manual_seed(20261130)
HERE = os.path.dirname(os.path.abspath(__file__))
D = torch.float64


def rnd(*shape, scale=1.0):
    return (torch.randn(*shape, dtype=D) * scale).round(decimals=4)


def fmt(x):
    return "-inf" if x == -math.inf else repr(float(x))


def mat(name, t):
    t = t if t.dim() == 2 else t[None]
    rows = ",\n     ".join("[" + ", ".join(fmt(x) for x in r) + "]" for r in t.tolist())
    return f"{name} = [{rows}]\n"


def causal(n):
    return torch.triu(torch.full((n, n), -math.inf, dtype=D), diagonal=1)


def forward(c, leaves):
    """O of the layer, keeping the intermediate tables whose gradients are compared."""
    X = leaves["X"]
    Xkv = leaves.get("Xkv", X)
    torch_layout = c.get("layout") == "torch"

    def proj(x, w, b):
        y = torch.nn.functional.linear(x, leaves[w]) if torch_layout else x @ leaves[w]
        return y + leaves[b] if b in leaves else y

    keep = {}
    Q, K, V = proj(X, "Wq", "bq"), proj(Xkv, "Wk", "bk"), proj(Xkv, "Wv", "bv")
    H, G = c["heads"], c.get("kv_heads", c["heads"])
    dk, dv = Q.shape[1] // H, V.shape[1] // G
    scale = c.get("scale", 1 / math.sqrt(dk))
    outs = []
    for h in range(H):
        g = h // (H // G)  # the K/V head this query head shares (kv_heads, SPEC §11)
        q, k, v = Q[:, h * dk:(h + 1) * dk], K[:, g * dk:(g + 1) * dk], V[:, g * dv:(g + 1) * dv]
        for t in (q, k, v):
            t.retain_grad()
        qkt = q @ k.T
        qkt.retain_grad()
        S = qkt * scale + c["M"]
        S.retain_grad()
        A = torch.softmax(S, dim=1)
        A.retain_grad()
        o = A @ v
        keep[h] = dict(Q=q, K=k, V=v, QKT=qkt, S=S, A=A)
        outs.append(o)
    C = torch.cat(outs, dim=1)
    C.retain_grad()
    keep["C"] = C
    O = proj(C, "Wo", "bo") if "Wo" in leaves else C
    return O, keep


def write_case(name, c):
    leaves = {k: v.clone().requires_grad_(True) for k, v in c["mats"].items()}
    O, keep = forward(c, leaves)
    if c["loss"] == "sum":
        L = O.sum()
    elif c["loss"] == "mse":
        L = ((O - c["target"]) ** 2).sum() / 2
    else:
        L = (O * c["dO"]).sum()  # dL/dO = dO
    O.retain_grad()
    L.backward()

    text = f"# {name}: made by tests/data/grad/make_cases.py (PyTorch autograd, float64)\n"
    text += f"heads: {c['heads']}\n"
    for key in ("kv_heads", "layout", "mask", "scale", "loss"):
        if key in c and not (key == "loss" and c[key] == "dO"):
            text += f"{key}: {c[key]}\n"
    for k, v in c["mats"].items():
        text += mat(k, v)
    if c.get("custom_M"):
        text += mat("M", c["M"])
    if c["loss"] == "mse":
        text += mat("target", c["target"])
    if c["loss"] == "dO":
        text += mat("dO", c["dO"])
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write(text)

    book = (lambda g: g.T) if c.get("layout") == "torch" else (lambda g: g)
    tables = [("loss", torch.tensor([[float(L)]], dtype=D) if c["loss"] != "dO" else None),
              ("dO", O.grad)]
    if "Wo" in leaves:
        tables += [("dWo", book(leaves["Wo"].grad)), ("dC", keep["C"].grad)]
        if "bo" in leaves:
            tables.append(("dbo", leaves["bo"].grad[None]))
    for h in range(c["heads"]):
        k = keep[h]
        tables += [(f"head{h}.dV", k["V"].grad), (f"head{h}.dA", k["A"].grad),
                   (f"head{h}.dS", k["S"].grad), (f"head{h}.dQKT", k["QKT"].grad),
                   (f"head{h}.dQ", k["Q"].grad), (f"head{h}.dK", k["K"].grad)]
    H, G = c["heads"], c.get("kv_heads", c["heads"])
    shared = lambda t: torch.cat([sum(keep[h][t].grad for h in range(H) if h // (H // G) == g)
                                  for g in range(G)], 1)
    tables += [("dQ", torch.cat([keep[h]["Q"].grad for h in range(H)], 1)),
               ("dK", shared("K")), ("dV", shared("V"))]
    for w in ("Wq", "Wk", "Wv"):
        tables.append(("d" + w, book(leaves[w].grad)))
    for b in ("bq", "bk", "bv"):
        if b in leaves:
            tables.append(("d" + b, leaves[b].grad[None]))
    tables.append(("dX", leaves["X"].grad))
    if "Xkv" in leaves:
        tables.append(("dXkv", leaves["Xkv"].grad))
    with open(os.path.join(HERE, name + ".expected"), "w") as f:
        for tname, t in tables:
            if t is None:
                continue
            f.write(f"{tname} {t.shape[0]} {t.shape[1]}\n")
            for r in t.tolist():
                f.write(" ".join(repr(float(x)) for x in r) + "\n")


def small_cases():
    # 1. the book's F11 example, loss: sum (examples/grad-f11.txt)
    write_case("f11_sum", dict(
        heads=1, loss="sum", M=causal(2),
        mats=dict(X=torch.tensor([[1., 1], [1, -1]], dtype=D),
                  Wq=torch.tensor([[.5, .5], [-.5, .5]], dtype=D),
                  Wk=torch.tensor([[.5, .5], [.5, -.5]], dtype=D),
                  Wv=torch.tensor([[5., 10], [5, -10]], dtype=D))))
    # 2. self-attention, three heads, Wo and every bias, causal, loss: mse
    n, d = 5, 6
    write_case("self_heads_wo_mse", dict(
        heads=3, loss="mse", M=causal(n), target=rnd(n, 4),
        mats=dict(X=rnd(n, d), Wq=rnd(d, 6, scale=.5), Wk=rnd(d, 6, scale=.5),
                  Wv=rnd(d, 6, scale=.5), Wo=rnd(6, 4, scale=.5), bq=rnd(6), bk=rnd(6),
                  bv=rnd(6), bo=rnd(4))))
    # 3. cross-attention, two heads, d_k != d_v, biases, no Wo, dO given
    n, m = 3, 4
    write_case("cross_two_heads_dO", dict(
        heads=2, loss="dO", M=torch.zeros(n, m, dtype=D), dO=rnd(n, 4),
        mats=dict(X=rnd(n, 4), Xkv=rnd(m, 5), Wq=rnd(4, 6, scale=.5), Wk=rnd(5, 6, scale=.5),
                  Wv=rnd(5, 4, scale=.5), bq=rnd(6), bk=rnd(6), bv=rnd(4))))
    # 4. a custom mask with finite biases and -inf cells, a set scale, loss: sum
    M = torch.tensor([[0, -math.inf, 0.5, -math.inf], [-1, 0, -math.inf, 0],
                      [0, 0, 0, -math.inf], [-math.inf, -math.inf, 0, 2]], dtype=D)
    write_case("custom_mask_scale", dict(
        heads=1, loss="sum", M=M, custom_M=True, scale=0.7,
        mats=dict(X=rnd(4, 3), Wq=rnd(3, 2), Wk=rnd(3, 2), Wv=rnd(3, 3))))
    # 5. layout: torch, two heads, Wo and biases, causal, dO given
    n = 4
    write_case("torch_layout_heads", dict(
        heads=2, loss="dO", layout="torch", M=causal(n), dO=rnd(n, 4),
        mats=dict(X=rnd(n, 4), Wq=rnd(4, 4, scale=.5), Wk=rnd(4, 4, scale=.5),
                  Wv=rnd(4, 4, scale=.5), Wo=rnd(4, 4, scale=.5), bq=rnd(4), bk=rnd(4),
                  bv=rnd(4), bo=rnd(4))))
    # 6. cross-attention with Wo and bo, two heads, loss: mse
    n, m = 4, 3
    write_case("cross_wo_mse", dict(
        heads=2, loss="mse", M=torch.zeros(n, m, dtype=D), target=rnd(n, 3),
        mats=dict(X=rnd(n, 4), Xkv=rnd(m, 3), Wq=rnd(4, 4, scale=.5), Wk=rnd(3, 4, scale=.5),
                  Wv=rnd(3, 4, scale=.5), Wo=rnd(4, 3, scale=.5), bo=rnd(3))))


    # 7. shared Keys and Values (kv_heads: 2 of 4 heads) and a sliding window, Wo, sum
    n = 5
    W = torch.tensor([[0 if 0 <= i - j < 2 else -math.inf for j in range(n)]
                      for i in range(n)], dtype=D)
    write_case("gqa_window", dict(
        heads=4, kv_heads=2, mask="window 2", loss="sum", M=W,
        mats=dict(X=rnd(n, 4), Wq=rnd(4, 8, scale=.5), Wk=rnd(4, 4, scale=.5),
                  Wv=rnd(4, 4, scale=.5), Wo=rnd(8, 3, scale=.5), bk=rnd(4))))


def gpt2(bench_dir):
    """dWq (and some of dX) of the `make bench` layer with loss: sum."""
    import numpy
    load = lambda f: torch.tensor(numpy.loadtxt(os.path.join(bench_dir, f), ndmin=2), dtype=D)
    X = load("x.txt")
    n = X.shape[0]
    c = dict(heads=12, loss="sum", layout="torch", M=causal(n), mats=dict(
        X=X, Wq=load("wq.txt"), Wk=load("wk.txt"), Wv=load("wv.txt"), Wo=load("wo.txt"),
        bq=load("bq.txt")[0], bk=load("bk.txt")[0], bv=load("bv.txt")[0], bo=load("bo.txt")[0]))
    leaves = {k: v.clone().requires_grad_(True) for k, v in c["mats"].items()}
    O, _ = forward(c, leaves)
    O.sum().backward()
    dWq = leaves["Wq"].grad.T.contiguous()  # book layout
    dX = leaves["X"].grad
    g = torch.Generator().manual_seed(17)
    with open(os.path.join(HERE, "gpt2.expected"), "w") as f:
        f.write("# dWq of build/bench/layer.txt (tests/bench/gen_layer.c) with loss: sum\n")
        f.write(f"dWq_sum {float(dWq.sum())!r}\n")
        f.write(f"dWq_abs {float(dWq.abs().sum())!r}\n")
        f.write(f"dWq_sq {float((dWq * dWq).sum())!r}\n")
        for name, t, count in (("dWq", dWq, 256), ("dX", dX, 64)):
            idx = torch.randint(0, t.numel(), (count,), generator=g)
            for i in idx.tolist():
                r, col = divmod(i, t.shape[1])
                f.write(f"{name} {r} {col} {float(t[r, col])!r}\n")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "gpt2":
        gpt2(sys.argv[2])
    else:
        small_cases()
