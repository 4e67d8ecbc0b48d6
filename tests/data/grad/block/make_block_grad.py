#!/usr/bin/python3
"""Makes the agreement cases for `grad` through the whole block (issue 31, SPEC §13 and
§15): for every configuration (block pre|post x norm layer|annotated|rms|none x ffn
relu|gelu|gelu_tanh|swiglu|none) 30 random inputs, written as attnstep input files, with
every gradient computed by PyTorch autograd in float64, and 30 more (variants.cases) with
cross-attention, shared K/V heads and layout: torch. Within a configuration the cases
alternate 1 and 2 heads, biases given or not, γ/β given or not, a final norm (lnf) or
not, the loss (sum, mse with a target, a given dO) and norm_eps (the default, or 0.01).

The block is written here with torch's own operations from SPEC §15 (the book's [in,
out] layout, X @ W + b): torch.nn.functional.layer_norm for torch's LayerNorm, the
Annotated Transformer's a_2 * (x - mean) / (std + eps) + b_2 (std unbiased), LLaMA's
RMSNorm x * rsqrt(mean(x^2) + eps) * g, torch.nn.functional.gelu (approximate 'none'
and 'tanh'), relu and silu. Autograd gives every gradient; the intermediate tables keep
theirs with retain_grad().

Run once by hand with Debian's python3-torch; the tests (tests/test_grad_block.c) read
what it wrote and need no Python:

    /usr/bin/python3 tests/data/grad/block/make_block_grad.py

Each CONFIG.cases file holds, for each case, "case K LINES", the LINES lines of its
input, then its tables as "NAME rows cols" and the rows, then "end".
"""
import math
import os
import torch
import torch.nn.functional as Fn

torch.manual_seed(20261203)
HERE = os.path.dirname(os.path.abspath(__file__))
D = torch.float64
CASES = 30
N, DM, FF = 3, 4, 6  # tokens, d_model, d_ff


def rnd(*shape, scale=0.5, centre=0.0):
    return (centre + torch.randn(*shape, dtype=D) * scale).round(decimals=4)


def mat(name, t):
    t = t if t.dim() == 2 else t[None]
    rows = ",\n     ".join("[" + ", ".join(repr(float(x)) for x in r) + "]" for r in t.tolist())
    return f"{name} = [{rows}]\n"


def norm(kind, x, g, b, eps):
    if kind == "layer":
        return Fn.layer_norm(x, (x.shape[1],), weight=g, bias=b, eps=eps)
    if kind == "annotated":
        y = (x - x.mean(-1, keepdim=True)) / (x.std(-1, keepdim=True) + eps)
    elif kind == "rms":
        y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    else:
        return x * 1.0  # the identity, as a table of its own (its gradient kept apart)
    y = y * g if g is not None else y
    return y + b if b is not None else y


def act(kind, u):
    if kind == "relu":
        return torch.relu(u)
    if kind == "gelu":
        return Fn.gelu(u, approximate="none")
    return Fn.gelu(u, approximate="tanh")


def attention(x, L, H, G=None):
    """SPEC §1 on x (and L["Xkv"] for cross-attention, no mask; else causal, the
    default), G K/V heads shared by groups of the H query heads (kv_heads)."""
    G = G or H
    xkv = L.get("Xkv", x)
    Q = x @ L["Wq"] + (L["bq"] if "bq" in L else 0)
    K = xkv @ L["Wk"] + (L["bk"] if "bk" in L else 0)
    V = xkv @ L["Wv"] + (L["bv"] if "bv" in L else 0)
    dk = Q.shape[1] // H
    m = xkv.shape[0]
    M = torch.zeros(N, m, dtype=D) if "Xkv" in L else \
        torch.triu(torch.full((N, N), -math.inf, dtype=D), diagonal=1)
    outs = []
    for h in range(H):
        g = h // (H // G)
        q = Q[:, h * dk:(h + 1) * dk]
        k, v = K[:, g * dk:(g + 1) * dk], V[:, g * dk:(g + 1) * dk]
        outs.append(torch.softmax(q @ k.T / math.sqrt(dk) + M, dim=1) @ v)
    C = torch.cat(outs, dim=1)
    return C @ L["Wo"] + (L["bo"] if "bo" in L else 0)


def block(c, L, keep):
    """Y of the block of SPEC §15 (block.c's order), keeping every table whose gradient
    is compared."""
    eps, kind = c["eps"], c["norm"]

    def nrm(k, x):
        return norm(kind, x, L.get(f"ln{k}_g"), L.get(f"ln{k}_b"), eps)

    def kept(name, t):
        t.retain_grad()
        keep[name] = t
        return t

    def ffn(x):
        U = kept("U", x @ L["Wup"] + (L["bup"] if "bup" in L else 0))
        if c["ffn"] == "swiglu":
            Z = kept("Z", x @ L["Wgate"])
            G = kept("G", Fn.silu(Z))
            F = kept("F", G * U)
        else:
            F = kept("F", act(c["ffn"], U))
        return kept("D", F @ L["Wdown"] + (L["bdown"] if "bdown" in L else 0))

    X = L["X"]
    if c["block"] == "pre":
        N1 = kept("N1", nrm(1, X))
        H1 = kept("H1", X + kept("O", attention(N1, L, c["heads"], c.get("kv_heads"))))
        last = H1
        if c["ffn"] != "none":
            N2 = kept("N2", nrm(2, H1))
            last = kept("H2", H1 + ffn(N2))
    else:
        R1 = kept("R1", X + kept("O", attention(X, L, c["heads"], c.get("kv_heads"))))
        H1 = kept("H1", nrm(1, R1))
        last = H1
        if c["ffn"] != "none":
            R2 = kept("R2", H1 + ffn(H1))
            last = kept("H2", nrm(2, R2))
    return kept("Y", nrm("f", last) if c["final"] else last * 1.0)


def leaves(c, k):
    H = c["heads"]
    m = dict(X=rnd(N, DM, scale=1.0), Wq=rnd(DM, DM), Wk=rnd(DM, DM), Wv=rnd(DM, DM),
             Wo=rnd(DM, DM))
    if c["biases"]:
        m.update(bq=rnd(DM), bk=rnd(DM), bv=rnd(DM), bo=rnd(DM))
    if c["ffn"] != "none":
        m.update(Wup=rnd(DM, FF), Wdown=rnd(FF, DM))
        if c["ffn"] == "swiglu":
            m["Wgate"] = rnd(DM, FF)
        if c["biases"]:
            m.update(bup=rnd(FF), bdown=rnd(DM))
    norms = ["1", "2"] if c["ffn"] != "none" else ["1"]
    if c["final"]:
        norms.append("f")
    for s in norms:
        if c["affine"] and c["norm"] != "none":
            m[f"ln{s}_g"] = rnd(DM, scale=0.3, centre=1.0)
            if c["norm"] in ("layer", "annotated"):
                m[f"ln{s}_b"] = rnd(DM, scale=0.3)
        elif c["final"] and s == "f" and c["norm"] != "none":
            m["lnf_g"] = torch.ones(DM, dtype=D)  # lnf given is what turns normf on
    del H
    return m


WEIGHTS = ("Wq", "Wk", "Wv", "Wo", "Wup", "Wdown", "Wgate")


def write_input(f, k, text, mats, loss, given):
    """Case k's input: its settings' lines text, its tables mats, and target (loss: mse) or
    dO (a given dO) from given, as "case K LINES" and the lines."""
    body = "".join(mat(n, v) for n, v in mats.items())
    if loss in ("mse", "dO"):
        body += mat("target" if loss == "mse" else "dO", given)
    lines = text + body.rstrip("\n").split("\n")
    f.write(f"case {k} {len(lines)}\n" + "\n".join(lines) + "\n")


def write_table(f, name, t):
    """One expected table: "NAME rows cols", then its rows."""
    t = t if t.dim() == 2 else t[None]
    f.write(f"{name} {t.shape[0]} {t.shape[1]}\n")
    for r in t.tolist():
        f.write(" ".join(repr(float(x)) for x in r) + "\n")


def write_case(f, c, k):
    mats = leaves(c, k)
    if c.get("cross"):
        mats["Xkv"] = rnd(5, 3, scale=1.0)
        mats["Wk"], mats["Wv"] = rnd(3, DM), rnd(3, DM)
    if c.get("kv_heads"):
        mats["Wk"], mats["Wv"] = rnd(DM, DM // 2), rnd(DM, DM // 2)
        for b in ("bk", "bv"):
            if b in mats:
                mats[b] = rnd(DM // 2)
    L = {n: v.clone().requires_grad_(True) for n, v in mats.items()}
    keep = {}
    Y = block(c, L, keep)
    loss = c["loss"]
    if loss == "sum":
        Lv = Y.sum()
    elif loss == "mse":
        target = rnd(N, DM, scale=1.0)
        Lv = ((Y - target) ** 2).sum() / 2
    else:
        dY = rnd(N, DM, scale=1.0)
        Lv = (Y * dY).sum()
    Lv.backward()

    text = [f"# {c['name']} case {k}: made by tests/data/grad/block/make_block_grad.py"]
    text.append(f"heads: {c['heads']}")
    if c.get("kv_heads"):
        text.append(f"kv_heads: {c['kv_heads']}")
    if c.get("torch_layout"):
        text.append("layout: torch")  # the file's weights [out, in]; gradients in the book's
    text.append(f"block: {c['block']}")
    text.append("norm: " + ("layer" if c["norm"] == "annotated" else c["norm"]))
    if c["norm"] == "annotated":
        text.append("norm_style: annotated")
    if c["eps_given"]:
        text.append(f"norm_eps: {c['eps']!r}")
    text.append(f"ffn: {c['ffn']}")
    if loss != "dO":
        text.append(f"loss: {loss}")
    shown = {n: v.T if c.get("torch_layout") and n in WEIGHTS else v for n, v in mats.items()}
    write_input(f, k, text, shown, loss, target if loss == "mse" else dY if loss == "dO" else None)

    def table(name, t):
        write_table(f, name, t)

    table("loss", torch.tensor([[0.0 if loss == "dO" else float(Lv)]], dtype=D)) \
        if loss != "dO" else None
    for name in ("Y", "H2", "R2", "D", "F", "G", "Z", "U", "N2", "H1", "R1", "O", "N1"):
        if name in keep:
            table("d" + name, keep[name].grad)
    for name, leaf in L.items():
        table("d" + name, leaf.grad)
    f.write("end\n")


def variants(f):
    """Cross-attention (Xkv not normalised, no mask), shared K/V heads (kv_heads 1 of 2)
    and layout: torch, each with pre and post and each norm and ffn in turn."""
    norms = ("layer", "annotated", "rms", "none")
    ffns = ("relu", "gelu", "gelu_tanh", "swiglu", "none")
    for k in range(CASES):
        nk = norms[k % 4]
        c = dict(name="variants", block=("pre", "post")[(k // 3) % 2], norm=nk,
                 ffn=ffns[k % 5], heads=2 if k % 3 == 1 else 1 + (k // 2) % 2,
                 biases=(k // 2) % 2 == 0, affine=(k // 4) % 2 == 0,
                 final=(k // 8) % 2 == 1 and nk != "none", loss=("sum", "mse", "dO")[k % 3],
                 eps_given=False, eps=1e-5 if nk == "layer" else 1e-6)
        c[("cross", "kv_heads", "torch_layout")[k % 3]] = 1
        write_case(f, c, k)


def main():
    for blk in ("pre", "post"):
        for nk in ("layer", "annotated", "rms", "none"):
            for ffn in ("relu", "gelu", "gelu_tanh", "swiglu", "none"):
                name = f"{blk}_{nk}_{ffn}"
                with open(os.path.join(HERE, name + ".cases"), "w") as f:
                    for k in range(CASES):
                        eps_given = k % 3 == 0
                        default = 1e-5 if nk == "layer" else 1e-6
                        c = dict(name=name, block=blk, norm=nk, ffn=ffn, heads=1 + k % 2,
                                 biases=(k // 2) % 2 == 0, affine=(k // 4) % 2 == 0,
                                 final=(k // 8) % 2 == 1, loss=("sum", "mse", "dO")[k % 3],
                                 eps_given=eps_given, eps=0.01 if eps_given else default)
                        if nk == "none":
                            c["final"] = False  # norm: none has nothing to turn normf on
                        write_case(f, c, k)
    with open(os.path.join(HERE, "variants.cases"), "w") as f:
        variants(f)


if __name__ == "__main__":
    main()
