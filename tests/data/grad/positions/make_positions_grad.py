#!/usr/bin/python3
"""Makes the agreement cases for `grad` through positions (SPEC §12 and §13, issue 31):
RoPE (half and interleaved pairings), sinusoidal encodings, RoPE with several heads and
shared K/V heads, a LLaMA block (block: pre, norm: rms, ffn: swiglu, positions: rope half,
kv_heads < heads) and a GPT-2-like pre-LN block with sinusoidal positions. 30 random
inputs a configuration, written as attnstep input files, with every gradient computed by
PyTorch autograd in float64. Within a configuration the cases alternate the loss (sum,
mse with a target, a given dO), biases, Wo, rope_base (the default 10000, or 100 so that
every pair turns visibly), cross-attention (the lone layers) and the heads.

The positions are written here with torch's own operations, from the papers' formulas
(SPEC §12), not from attnstep's code: RoPE half as LLaMA / GPT-NeoX write it,
q·cos + rotate_half(q)·sin with the angles repeated over both halves; RoPE interleaved as
RoFormer / GPT-J (and LLaMA's own complex form) write it, each pair (2i, 2i+1) a complex
number multiplied by e^(i·p·θᵢ); sinusoidal as the Annotated Transformer's
PositionalEncoding, added to what the attention reads (attnstep adds it to the attention
layer's input: with block: pre that is N1, the residual keeps the file's X). Autograd
gives every gradient, the intermediate tables keeping theirs with retain_grad(): dQr and
dKr are the gradients of the turned Queries and Keys, dQ and dK those of the projections
before the turn.

Run once by hand with Debian's python3-torch; the test (tests/test_grad_positions.c)
reads what it wrote and needs no Python:

    /usr/bin/python3 tests/data/grad/positions/make_positions_grad.py

Each CONFIG.cases file holds, for each case, "case K LINES", the LINES lines of its
input, then its tables as "NAME rows cols" and the rows, then "end" (as
tests/data/grad/block/*.cases).
"""
import math
import os
import sys
import torch
import torch.nn.functional as Fn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ left in tests/data
sys.path.insert(0, os.path.join(HERE, "..", "block"))
from make_block_grad import write_input, write_table  # noqa: E402 (the same case files)

torch.manual_seed(20261203 + 12)
D = torch.float64
CASES = 30


def rnd(*shape, scale=0.5, centre=0.0):
    return (centre + torch.randn(*shape, dtype=D) * scale).round(decimals=4)


# ---- positions, as the papers write them ----

def inv_freq(dk, base):
    """θᵢ = base^(−2i/d_k), i = 0 .. d_k/2 − 1 (LLaMA's inv_freq)."""
    return torch.tensor([1.0 / base ** (2 * i / dk) for i in range(dk // 2)], dtype=D)


def rope_half(x, base):
    """LLaMA's apply_rotary_pos_emb: x·cos + rotate_half(x)·sin, x [rows, d_k]."""
    dk = x.shape[1]
    ang = torch.arange(x.shape[0], dtype=D)[:, None] * inv_freq(dk, base)[None]
    emb = torch.cat([ang, ang], dim=1)
    x1, x2 = x[:, :dk // 2], x[:, dk // 2:]
    return x * emb.cos() + torch.cat([-x2, x1], dim=1) * emb.sin()


def rope_interleaved(x, base):
    """RoFormer / LLaMA's complex form: pair (2i, 2i+1) times e^(i·p·θᵢ)."""
    dk = x.shape[1]
    ang = torch.arange(x.shape[0], dtype=D)[:, None] * inv_freq(dk, base)[None]
    z = torch.view_as_complex(x.reshape(x.shape[0], dk // 2, 2).contiguous())
    return torch.view_as_real(z * torch.polar(torch.ones_like(ang), ang)).reshape(x.shape)


def sinusoidal(n, d):
    """The Annotated Transformer's PositionalEncoding (its odd-width last column a sine)."""
    pe = torch.zeros(n, d, dtype=D)
    pos = torch.arange(n, dtype=D)[:, None]
    for c in range(d):
        a = pos[:, 0] / 10000.0 ** ((c - c % 2) / d)
        pe[:, c] = a.sin() if c % 2 == 0 else a.cos()
    return pe


# ---- the attention layer (SPEC §1 with §11, §12) and the block (§15) ----

def attention(c, x, L, keep):
    """O of the layer on x (and L["Xkv"] for cross-attention, no mask; else causal)."""
    cross = "Xkv" in L
    xkv = L["Xkv"] if cross else x
    if c["positions"] == "sinusoidal":
        x = x + sinusoidal(x.shape[0], x.shape[1])
        xkv = xkv + sinusoidal(xkv.shape[0], xkv.shape[1]) if cross else x
    H, G = c["heads"], c.get("kv_heads", c["heads"])
    Q = x @ L["Wq"] + (L["bq"] if "bq" in L else 0)
    K = xkv @ L["Wk"] + (L["bk"] if "bk" in L else 0)
    V = xkv @ L["Wv"] + (L["bv"] if "bv" in L else 0)
    dk, dv = Q.shape[1] // H, V.shape[1] // G
    n, m = x.shape[0], xkv.shape[0]
    M = torch.zeros(n, m, dtype=D) if cross else \
        torch.triu(torch.full((n, n), -math.inf, dtype=D), diagonal=1)
    turn = {"half": rope_half, "interleaved": rope_interleaved}.get(c.get("rope"))
    base = c.get("base", 10000.0)
    outs = []
    for h in range(H):
        g = h // (H // G)
        q = Q[:, h * dk:(h + 1) * dk]
        k, v = K[:, g * dk:(g + 1) * dk], V[:, g * dv:(g + 1) * dv]
        for name, t in (("Q", q), ("K", k), ("V", v)):
            t.retain_grad()
            keep[f"head{h}.{name}"] = t
        if c["positions"] == "rope":
            q, k = turn(q, base), turn(k, base)
            q.retain_grad(), k.retain_grad()
            keep[f"head{h}.Qr"], keep[f"head{h}.Kr"] = q, k
        qkt = q @ k.T
        qkt.retain_grad()
        keep[f"head{h}.QKT"] = qkt
        outs.append(torch.softmax(qkt / math.sqrt(dk) + M, dim=1) @ v)
    C = torch.cat(outs, dim=1)
    keep["Q"], keep["K"], keep["V"] = Q, K, V
    for t in (Q, K, V):
        t.retain_grad()
    if "Wo" not in L:
        return C
    C.retain_grad()
    keep["C"] = C
    return C @ L["Wo"] + (L["bo"] if "bo" in L else 0)


def rms(x, g, eps):
    y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)
    return y * g if g is not None else y


def block(c, L, keep):
    """SPEC §15's pre block: LLaMA's (RMSNorm, SwiGLU) or GPT-2's (LayerNorm, GELU tanh)."""
    def kept(name, t):
        t.retain_grad()
        keep[name] = t
        return t

    def nrm(k, x):
        g, b = L.get(f"ln{k}_g"), L.get(f"ln{k}_b")
        if c["norm"] == "rms":
            return rms(x, g, 1e-6)
        return Fn.layer_norm(x, (x.shape[1],), weight=g, bias=b, eps=1e-5)

    X = L["X"]
    N1 = kept("N1", nrm(1, X))
    H1 = kept("H1", X + kept("O", attention(c, N1, L, keep)))
    N2 = kept("N2", nrm(2, H1))
    U = kept("U", N2 @ L["Wup"] + (L["bup"] if "bup" in L else 0))
    if c["ffn"] == "swiglu":
        G = kept("G", Fn.silu(kept("Z", N2 @ L["Wgate"])))
        F = kept("F", G * U)
    else:
        F = kept("F", Fn.gelu(U, approximate="tanh"))
    H2 = kept("H2", H1 + kept("D", F @ L["Wdown"] + (L["bdown"] if "bdown" in L else 0)))
    return kept("Y", nrm("f", H2) if "lnf_g" in L else H2 * 1.0)


# ---- the cases ----

def lone_mats(c, k):
    """A lone layer's tables: d_model 4, n 4 (cross-attention: m 5 from width 3)."""
    H, G = c["heads"], c.get("kv_heads", c["heads"])
    dk = c["dk"]
    dm, n = c.get("dm", 4), 4
    m = dict(X=rnd(n, dm, scale=1.0), Wq=rnd(dm, H * dk), Wk=rnd(dm, G * dk),
             Wv=rnd(dm, G * dk))
    if c.get("cross"):
        m["Xkv"] = rnd(5, 3, scale=1.0)
        m["Wk"], m["Wv"] = rnd(3, G * dk), rnd(3, G * dk)
    if c["wo"]:
        m["Wo"] = rnd(H * dk, 3)
    if c["biases"]:
        m.update(bq=rnd(H * dk), bk=rnd(G * dk), bv=rnd(G * dk))
        if c["wo"]:
            m["bo"] = rnd(3)
    return m


def block_mats(c, k):
    H, G, dm, ff, n = c["heads"], c.get("kv_heads", c["heads"]), c["dm"], 6, 3
    dk = dm // H
    m = dict(X=rnd(n, dm, scale=1.0), Wq=rnd(dm, dm), Wk=rnd(dm, G * dk), Wv=rnd(dm, G * dk),
             Wo=rnd(dm, dm), Wup=rnd(dm, ff), Wdown=rnd(ff, dm))
    if c["ffn"] == "swiglu":
        m["Wgate"] = rnd(dm, ff)
    if c["biases"]:
        m.update(bq=rnd(dm), bk=rnd(G * dk), bv=rnd(G * dk), bo=rnd(dm), bup=rnd(ff),
                 bdown=rnd(dm))
    for s in ("1", "2") + (("f",) if c["final"] else ()):
        if c["affine"]:
            m[f"ln{s}_g"] = rnd(dm, scale=0.3, centre=1.0)
            if c["norm"] == "layer":
                m[f"ln{s}_b"] = rnd(dm, scale=0.3)
        elif s == "f":
            m["lnf_g"] = torch.ones(dm, dtype=D)  # lnf given is what turns normf on
    return m


def write_case(f, c, k):
    mats = block_mats(c, k) if c.get("block") else lone_mats(c, k)
    L = {nm: v.clone().requires_grad_(True) for nm, v in mats.items()}
    keep = {}
    out = block(c, L, keep) if c.get("block") else attention(c, L["X"], L, keep)
    loss = c["loss"]
    if loss == "sum":
        Lv = out.sum()
    elif loss == "mse":
        target = rnd(*out.shape, scale=1.0)
        Lv = ((out - target) ** 2).sum() / 2
    else:
        dO = rnd(*out.shape, scale=1.0)
        Lv = (out * dO).sum()
    if not c.get("block"):
        out.retain_grad()
    Lv.backward()

    text = [f"# {c['name']} case {k}: made by tests/data/grad/positions/make_positions_grad.py",
            f"heads: {c['heads']}"]
    if c.get("kv_heads"):
        text.append(f"kv_heads: {c['kv_heads']}")
    text.append(f"positions: {c['positions']}")
    if c["positions"] == "rope":
        if c.get("rope_given"):
            text.append(f"rope: {c['rope']}")
        if "base" in c:
            text.append(f"rope_base: {c['base']:g}")
    if c.get("block"):
        text += [f"block: {c['block']}", f"norm: {c['norm']}", f"ffn: {c['ffn']}"]
    if loss != "dO":
        text.append(f"loss: {loss}")
    write_input(f, k, text, mats, loss, target if loss == "mse" else dO if loss == "dO" else None)

    def table(name, t):
        write_table(f, name, t)

    if loss != "dO":
        table("loss", torch.tensor([[float(Lv)]], dtype=D))
    if c.get("block"):
        for name in ("Y", "H2", "D", "F", "G", "Z", "U", "N2", "H1", "O", "N1"):
            if name in keep:
                table("d" + name, keep[name].grad)
    else:
        table("dO", out.grad)
    if "C" in keep:
        table("dC", keep["C"].grad)
    for h in range(c["heads"]):
        for name in ("QKT", "Qr", "Kr", "Q", "K", "V"):
            key = f"head{h}.{name}"
            if key in keep:
                table(f"head{h}.d{name}", keep[key].grad)
    for name in ("Q", "K", "V"):
        table("d" + name, keep[name].grad)
    for name, leaf in L.items():
        table("d" + name, leaf.grad)
    f.write("end\n")


def lone(name, positions, **kw):
    with open(os.path.join(HERE, name + ".cases"), "w") as f:
        for k in range(CASES):
            c = dict(name=name, positions=positions, heads=1, dk=4, loss=("sum", "mse", "dO")[k % 3],
                     biases=(k // 2) % 2 == 0, wo=(k // 4) % 2 == 0, cross=k % 5 == 4)
            if positions == "rope":
                if k % 3 != 1:
                    c["base"] = 100.0
                c["rope_given"] = kw["rope"] == "interleaved" or k % 2 == 0
            if positions == "sinusoidal" and k % 4 == 3:
                c["dm"] = 5  # an odd width: the last column a sine
            c.update(kw)
            write_case(f, c, k)


def heads_gqa():
    """RoPE half with several heads: 2 heads sharing one K/V head, 4 sharing 2, 2 of their
    own; Wo on, d_k 2 (one pair) or 4."""
    shapes = ((2, 1, 2), (4, 2, 2), (2, 2, 4), (2, 1, 4))
    with open(os.path.join(HERE, "rope_heads_gqa.cases"), "w") as f:
        for k in range(CASES):
            H, G, dk = shapes[k % 4]
            c = dict(name="rope_heads_gqa", positions="rope", rope="half", heads=H, kv_heads=G,
                     dk=dk, loss=("sum", "mse", "dO")[k % 3], biases=(k // 2) % 2 == 0,
                     wo=k % 5 != 0, cross=k % 7 == 6, base=100.0 if k % 2 else 10000.0)
            write_case(f, c, k)


def blocks(name, **kw):
    with open(os.path.join(HERE, name + ".cases"), "w") as f:
        for k in range(CASES):
            c = dict(name=name, block="pre", loss=("sum", "mse", "dO")[k % 3],
                     affine=(k // 2) % 2 == 0, final=(k // 4) % 2 == 1, biases=False)
            c.update(kw)
            if name == "llama":
                c["heads"], c["kv_heads"], c["dm"] = ((2, 1, 4), (4, 2, 8), (4, 1, 8))[k % 3]
                if k % 2:
                    c["base"] = 100.0
            else:
                c["heads"], c["dm"] = 1 + k % 2, 4
                c["biases"] = (k // 3) % 2 == 0
            write_case(f, c, k)


def llama_example():
    """examples/grad-llama.txt itself (its text the case's input), its numbers typed here
    again: every gradient of that LLaMA block, loss: sum."""
    T = lambda rows: torch.tensor(rows, dtype=D)
    mats = dict(
        X=T([[1, 0, 0, 1], [0, 1, 1, 0], [2, 0, 1, 1]]),
        Wq=T([[1, 0, 0, 1], [0, 1, 1, 0], [1, 0, 0, -1], [0, 1, 1, 0]]),
        Wk=T([[1, 0], [0, 1], [0, 1], [1, 0]]),
        Wv=T([[0.5, 0], [0, 0.5], [0.5, 0], [0, -0.5]]),
        Wo=torch.eye(4, dtype=D), ln1_g=torch.ones(4, dtype=D), ln2_g=torch.ones(4, dtype=D),
        Wgate=T([[1, 0, 1], [0, 1, -1], [-1, 0, 0], [0, -1, 1]]),
        Wup=T([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, -1, 0]]),
        Wdown=T([[0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 0.5, 0.5]]))
    c = dict(name="llama_example", block="pre", norm="rms", ffn="swiglu", positions="rope",
             rope="half", heads=2, kv_heads=1, loss="sum")
    L = {nm: v.clone().requires_grad_(True) for nm, v in mats.items()}
    keep = {}
    Lv = block(c, L, keep).sum()
    Lv.backward()
    path = os.path.join(HERE, "..", "..", "..", "..", "examples", "grad-llama.txt")
    with open(path) as src:
        lines = src.read().rstrip("\n").split("\n")
    with open(os.path.join(HERE, "llama_example.cases"), "w") as f:
        f.write(f"case 0 {len(lines)}\n" + "\n".join(lines) + "\n")
        tables = [("loss", torch.tensor([[float(Lv)]], dtype=D))]
        tables += [("d" + nm, keep[nm].grad) for nm in ("Y", "H2", "D", "F", "G", "Z", "U", "N2",
                                                         "H1", "O", "N1")]
        tables += [(f"head{h}.d{nm}", keep[f"head{h}.{nm}"].grad)
                   for h in range(2) for nm in ("QKT", "Qr", "Kr", "Q", "K", "V")]
        tables += [("d" + nm, leaf.grad if leaf.grad.dim() == 2 else leaf.grad[None])
                   for nm, leaf in L.items()]
        for name, t in tables:
            write_table(f, name, t)
        f.write("end\n")


def main():
    lone("rope_half", "rope", rope="half")
    lone("rope_interleaved", "rope", rope="interleaved")
    lone("sinusoidal", "sinusoidal")
    heads_gqa()
    blocks("llama", positions="rope", rope="half", norm="rms", ffn="swiglu")
    blocks("gpt2_sinusoidal", positions="sinusoidal", norm="layer", ffn="gelu_tanh")
    llama_example()


if __name__ == "__main__":
    main()
