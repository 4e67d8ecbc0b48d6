#!/usr/bin/python3
"""Makes the agreement cases of the transformer block (SPEC section 15, issue 31): the
steps (torch.nn.LayerNorm, the Annotated Transformer's LayerNorm, LLaMA's RMSNorm,
torch.nn.GELU(approximate='none'|'tanh'), F.silu, F.relu) and whole blocks, every table
computed in float64 by PyTorch code that shares no line with attnstep's C:

- gpt_NN: a re-implementation of nanoGPT's Block (pre-LN, CausalSelfAttention with
  c_attn/c_proj biases, MLP c_fc -> GELU(tanh) -> c_proj), built of torch.nn modules;
- llama_NN: a LLaMA block (RMSNorm, RoPE half as Hugging Face's apply_rotary_pos_emb,
  grouped-query attention with repeat_interleave, SwiGLU w2(silu(w1 x) * w3 x), no biases);
- post_NN: the original post-LN block (d2l's AddNorm: LayerNorm(X + sublayer(X))), with
  ReLU or exact GELU, torch or annotated LayerNorm;
- none_NN: the F11 shape with block: post, norm: rms, ffn: none;
- prenone_NN: block: pre, LayerNorm, ffn: none (H1 = X + attention(LayerNorm(X))), with
  ln_f after it in the odd cases (drawn after all the others: their numbers stay).

Run once by hand with Debian's python3-torch; the tests read the files it wrote and do
not need Python:

    /usr/bin/python3 tests/data/block/make_block.py

steps/*.txt hold sections `NAME rows cols` followed by rows*cols numbers, grouped by
`case K`; cases/NAME.txt is an attnstep input and cases/NAME.expected its tables, in the
same `NAME rows cols` sections.
"""
import math
import os
import torch
import torch.nn as nn
import torch.nn.functional as Fn

torch.manual_seed(20261202)
HERE = os.path.dirname(os.path.abspath(__file__))
F = torch.float64
CASES = 30


def rnd(*shape):
    return torch.randn(*shape, dtype=F)


def num(x):
    return repr(float(x))


def section(f, name, t):
    t = t.reshape(t.shape[0] if t.dim() > 1 else 1, -1)
    f.write(f"{name} {t.shape[0]} {t.shape[1]}\n")
    for row in t.tolist():
        f.write(" ".join(num(x) for x in row) + "\n")


def mat(name, t):
    t = t.reshape(1, -1) if t.dim() == 1 else t
    rows = ",\n     ".join("[" + ", ".join(num(x) for x in r) + "]" for r in t.tolist())
    return f"{name} = [{rows}]\n"


# ------------------------------------------------------------------ the norms ----

def annotated_layer_norm(x, g, b, eps):
    """The Annotated Transformer's LayerNorm: a_2 * (x - mean) / (std + eps) + b_2."""
    mean = x.mean(-1, keepdim=True)
    std = x.std(-1, keepdim=True)  # unbiased, as torch's default
    return g * (x - mean) / (std + eps) + b


def rms_norm(x, g, eps):
    """LLaMA's RMSNorm: x * rsqrt(mean(x^2) + eps) * weight."""
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * g


def steps_file(name, kind):
    with open(os.path.join(HERE, "steps", name + ".txt"), "w") as f:
        f.write(f"# {kind}: {CASES} random cases made by make_block.py\n")
        for k in range(CASES):
            n, d = 1 + k % 4, 2 + k % 7
            eps = [1e-5, 1e-6, 0.1, 1e-3][k % 4]
            x = rnd(n, d) * (1 + 3 * (k % 3))
            g, b = rnd(d), rnd(d)
            f.write(f"case {k} {n} {d} {num(eps)}\n")
            section(f, "x", x)
            section(f, "g", g)
            section(f, "b", b)
            if kind == "layer_torch":
                ln = nn.LayerNorm(d, eps=eps, dtype=F)
                with torch.no_grad():
                    ln.weight.copy_(g)
                    ln.bias.copy_(b)
                    y = ln(x)
                mean = x.mean(-1)
                var = x.var(-1, unbiased=False)
                div = torch.sqrt(var + eps)
                xhat = Fn.layer_norm(x, (d,), eps=eps)
            elif kind == "layer_annotated":
                y = annotated_layer_norm(x, g, b, eps)
                mean = x.mean(-1)
                var = x.var(-1, unbiased=True)
                div = x.std(-1) + eps
                xhat = annotated_layer_norm(x, torch.ones(d, dtype=F), torch.zeros(d, dtype=F), eps)
            else:
                y = rms_norm(x, g, eps)
                mean = torch.zeros(n, dtype=F)
                var = x.pow(2).mean(-1)
                div = torch.sqrt(var + eps)
                xhat = rms_norm(x, torch.ones(d, dtype=F), eps)
            section(f, "mean", mean)
            section(f, "var", var)
            section(f, "div", div)
            section(f, "xhat", xhat)
            section(f, "y", y)


def activations_file():
    x = torch.cat([torch.linspace(-8, 8, 161, dtype=F), rnd(60) * 3,
                   torch.tensor([0.0, -0.0, 1e-300, -1e-300, 30.0, -30.0, 700.0, -700.0], dtype=F)])
    with open(os.path.join(HERE, "steps", "activations.txt"), "w") as f:
        f.write("# the activations of torch (float64), made by make_block.py\n")
        section(f, "in", x)
        section(f, "gelu", nn.GELU(approximate="none")(x))
        section(f, "gelu_tanh", nn.GELU(approximate="tanh")(x))
        section(f, "silu", Fn.silu(x))
        section(f, "relu", Fn.relu(x))


# ------------------------------------------------------------------ blocks ----

class CausalSelfAttention(nn.Module):
    """nanoGPT's (model.py), in float64, without dropout."""

    def __init__(self, C, H):
        super().__init__()
        self.c_attn = nn.Linear(C, 3 * C, dtype=F)
        self.c_proj = nn.Linear(C, C, dtype=F)
        self.n_head, self.n_embd = H, C

    def forward(self, x):
        T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=1)
        hs = C // self.n_head
        q = q.view(T, self.n_head, hs).transpose(0, 1)
        k = k.view(T, self.n_head, hs).transpose(0, 1)
        v = v.view(T, self.n_head, hs).transpose(0, 1)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        bias = torch.tril(torch.ones(T, T, dtype=torch.bool))
        att = att.masked_fill(~bias, float("-inf"))
        att = Fn.softmax(att, dim=-1)
        y = (att @ v).transpose(0, 1).contiguous().view(T, C)
        return self.c_proj(y)


class MLP(nn.Module):
    def __init__(self, C, hidden):
        super().__init__()
        self.c_fc = nn.Linear(C, hidden, dtype=F)
        self.gelu = nn.GELU(approximate="tanh")
        self.c_proj = nn.Linear(hidden, C, dtype=F)


class Block(nn.Module):
    """nanoGPT's Block: x = x + attn(ln_1(x)); x = x + mlp(ln_2(x))."""

    def __init__(self, C, H, hidden):
        super().__init__()
        self.ln_1 = nn.LayerNorm(C, dtype=F)
        self.attn = CausalSelfAttention(C, H)
        self.ln_2 = nn.LayerNorm(C, dtype=F)
        self.mlp = MLP(C, hidden)

    def tables(self, x):
        t = {}
        t["N1"] = self.ln_1(x)
        t["H1"] = x + self.attn(t["N1"])
        t["N2"] = self.ln_2(t["H1"])
        t["U"] = self.mlp.c_fc(t["N2"])
        t["F"] = self.mlp.gelu(t["U"])
        t["D"] = self.mlp.c_proj(t["F"])
        t["H2"] = t["H1"] + t["D"]
        return t


def randomise(module):
    with torch.no_grad():
        for p in module.parameters():
            p.copy_(rnd(*p.shape) * 0.7)


def linear_rows(w):
    """A Linear's weight as the input file writes it: [out, in] in torch layout."""
    return w.detach()


def norm_substeps(t, name, x, eps, style="torch"):
    mean = x.mean(-1)
    var = x.var(-1, unbiased=(style == "annotated"))
    div = x.std(-1) + eps if style == "annotated" else torch.sqrt(var + eps)
    t[name + ".mean"], t[name + ".var"], t[name + ".div"] = mean, var, div
    t[name + ".xhat"] = (x - mean[:, None]) / div[:, None]


def write_case(name, what, settings, mats, tables, torch_layout):
    with open(os.path.join(HERE, "cases", name + ".txt"), "w") as f:
        f.write(f"# {what}\n# every table computed by PyTorch (float64), see make_block.py; "
                f"expected values in {name}.expected\n")
        if torch_layout:
            f.write("layout: torch\n")
        f.write(settings)
        for k, v in mats:
            f.write(mat(k, v if torch_layout or not k.startswith("W") else v.T))
    with open(os.path.join(HERE, "cases", name + ".expected"), "w") as f:
        for k, v in tables.items():
            section(f, k, v.detach())


def gpt_case(k):
    n, H = 2 + k % 5, 1 + k % 3
    C = H * (1 + k % 3)
    if C < 3:
        C = 3 * H
    hidden = 4 * C
    blk = Block(C, H, hidden)
    randomise(blk)
    x = rnd(n, C)
    with torch.no_grad():
        t = blk.tables(x)
        norm_substeps(t, "norm1", x, 1e-5)
        norm_substeps(t, "norm2", t["H1"], 1e-5)
        lnf = k % 4 == 3
        if lnf:
            ln_f = nn.LayerNorm(C, dtype=F)
            randomise(ln_f)
            t["Y"] = ln_f(t["H2"])
        else:
            t["Y"] = t["H2"]
    wa, ba = blk.attn.c_attn.weight, blk.attn.c_attn.bias
    mats = [("X", x), ("Wq", wa[:C]), ("Wk", wa[C:2 * C]), ("Wv", wa[2 * C:]),
            ("bq", ba[:C]), ("bk", ba[C:2 * C]), ("bv", ba[2 * C:]),
            ("Wo", blk.attn.c_proj.weight), ("bo", blk.attn.c_proj.bias),
            ("ln1_g", blk.ln_1.weight), ("ln1_b", blk.ln_1.bias),
            ("ln2_g", blk.ln_2.weight), ("ln2_b", blk.ln_2.bias),
            ("Wup", blk.mlp.c_fc.weight), ("bup", blk.mlp.c_fc.bias),
            ("Wdown", blk.mlp.c_proj.weight), ("bdown", blk.mlp.c_proj.bias)]
    if lnf:
        mats += [("lnf_g", ln_f.weight), ("lnf_b", ln_f.bias)]
    settings = f"heads: {H}\nblock: pre\nnorm: layer\nffn: gelu_tanh\n"
    if k % 2:
        settings += "norm_eps: 1e-5\n"
    write_case(f"gpt_{k:02d}", f"nanoGPT Block: {n} tokens, d_model {C}, {H} heads, FFN {hidden}"
               + (", ln_f" if lnf else ""), settings,
               [(a, b.detach()) for a, b in mats], t, torch_layout=k % 2 == 0)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rope(x, base):
    """Hugging Face's apply_rotary_pos_emb on [heads, n, d], positions 0, 1, ..."""
    d, n = x.shape[-1], x.shape[-2]
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=F) / d))
    freqs = torch.outer(torch.arange(n, dtype=F), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return x * emb.cos() + rotate_half(x) * emb.sin()


def llama_case(k):
    n, kvh = 2 + k % 5, 1 + k % 2
    H = kvh * (1 + k % 3)
    dk = 2 * (1 + k % 2)
    C = max(3, H * dk - k % 2)
    hidden = 2 + (k * 3) % 7
    eps = 1e-6 if k % 3 else 1e-5
    x = rnd(n, C)
    g1, g2, gf = rnd(C), rnd(C), rnd(C)
    wq, wk, wv = rnd(H * dk, C) * 0.6, rnd(kvh * dk, C) * 0.6, rnd(kvh * dk, C) * 0.6
    wo = rnd(C, H * dk) * 0.6
    w1, w3, w2 = rnd(hidden, C) * 0.6, rnd(hidden, C) * 0.6, rnd(C, hidden) * 0.6
    t = {}
    t["N1"] = rms_norm(x, g1, eps)
    q = (t["N1"] @ wq.T).view(n, H, dk).transpose(0, 1)
    kk = (t["N1"] @ wk.T).view(n, kvh, dk).transpose(0, 1)
    v = (t["N1"] @ wv.T).view(n, kvh, dk).transpose(0, 1)
    q, kk = rope(q, 10000.0), rope(kk, 10000.0)
    kk, v = kk.repeat_interleave(H // kvh, dim=0), v.repeat_interleave(H // kvh, dim=0)
    s = q @ kk.transpose(1, 2) / math.sqrt(dk)
    s = s.masked_fill(~torch.tril(torch.ones(n, n, dtype=torch.bool)), float("-inf"))
    o = (torch.softmax(s, dim=-1) @ v).transpose(0, 1).reshape(n, H * dk) @ wo.T
    t["H1"] = x + o
    t["N2"] = rms_norm(t["H1"], g2, eps)
    t["U"] = t["N2"] @ w3.T
    t["G"] = Fn.silu(t["N2"] @ w1.T)
    t["F"] = t["G"] * t["U"]
    t["D"] = t["F"] @ w2.T
    t["H2"] = t["H1"] + t["D"]
    lnf = k % 3 == 2
    t["Y"] = rms_norm(t["H2"], gf, eps) if lnf else t["H2"]
    t["norm1.var"] = x.pow(2).mean(-1)
    t["norm1.div"] = torch.sqrt(t["norm1.var"] + eps)
    t["norm1.xhat"] = x / t["norm1.div"][:, None]
    mats = [("X", x), ("Wq", wq), ("Wk", wk), ("Wv", wv), ("Wo", wo), ("ln1_g", g1),
            ("ln2_g", g2), ("Wgate", w1), ("Wup", w3), ("Wdown", w2)]
    if lnf:
        mats.append(("lnf_g", gf))
    settings = (f"heads: {H}\nkv_heads: {kvh}\npositions: rope\nrope: half\nblock: pre\n"
                f"norm: rms\nnorm_eps: {num(eps)}\nffn: swiglu\n")
    write_case(f"llama_{k:02d}", f"LLaMA block: {n} tokens, d_model {C}, {H} heads over {kvh} "
               f"K/V heads of {dk}, RoPE half, SwiGLU {hidden}" + (", final RMSNorm" if lnf else ""),
               settings, mats, t, torch_layout=k % 2 == 1)


def attention(x, wq, wk, wv, wo, H):
    """Causal multi-head attention of plain torch operations, [in, out] weights."""
    n = x.shape[0]
    dk = wq.shape[1] // H
    q = (x @ wq).view(n, H, dk).transpose(0, 1)
    k = (x @ wk).view(n, H, dk).transpose(0, 1)
    v = (x @ wv).view(n, H, -1).transpose(0, 1)
    s = q @ k.transpose(1, 2) / math.sqrt(dk)
    s = s.masked_fill(~torch.tril(torch.ones(n, n, dtype=torch.bool)), float("-inf"))
    o = (torch.softmax(s, dim=-1) @ v).transpose(0, 1).reshape(n, -1)
    return o @ wo if wo is not None else o


def post_norm(x, g, b, eps, style):
    if style == "annotated":
        return annotated_layer_norm(x, g, b, eps)
    return Fn.layer_norm(x, (x.shape[1],), g, b, eps)


def post_case(k):
    n, H, C = 2 + k % 4, 1 + k % 2, 4 + k % 3
    hidden = 3 + k
    style = "annotated" if k % 2 else "torch"
    act = "relu" if k % 3 == 0 else "gelu"
    eps = 1e-6 if style == "annotated" else 1e-5
    x = rnd(n, C)
    wq, wk, wv, wo = rnd(C, 2 * H), rnd(C, 2 * H), rnd(C, 2 * H), rnd(2 * H, C)
    g1, b1, g2, b2 = rnd(C), rnd(C), rnd(C), rnd(C)
    w_up, b_up, w_down, b_down = rnd(C, hidden), rnd(hidden), rnd(hidden, C), rnd(C)
    t = {}
    pre1 = x + attention(x, wq, wk, wv, wo, H)
    t["H1"] = post_norm(pre1, g1, b1, eps, style)
    t["U"] = t["H1"] @ w_up + b_up
    t["F"] = Fn.relu(t["U"]) if act == "relu" else nn.GELU(approximate="none")(t["U"])
    t["D"] = t["F"] @ w_down + b_down
    pre2 = t["H1"] + t["D"]
    t["H2"] = post_norm(pre2, g2, b2, eps, style)
    t["Y"] = t["H2"]
    norm_substeps(t, "norm1", pre1, eps, style)
    norm_substeps(t, "norm2", pre2, eps, style)
    mats = [("X", x), ("Wq", wq), ("Wk", wk), ("Wv", wv), ("Wo", wo), ("ln1_g", g1),
            ("ln1_b", b1), ("ln2_g", g2), ("ln2_b", b2), ("Wup", w_up), ("bup", b_up),
            ("Wdown", w_down), ("bdown", b_down)]
    settings = (f"heads: {H}\nblock: post\nnorm: layer\nnorm_style: {style}\nffn: {act}\n")
    write_case(f"post_{k:02d}", f"post-LN block ({style} LayerNorm, {act}): {n} tokens, "
               f"d_model {C}, {H} heads, FFN {hidden}", settings,
               [(a, b.T if a.startswith("W") else b) for a, b in mats], t, torch_layout=False)


def none_case(k):
    n, C = 2 + k % 3, 2 + k % 3
    x = rnd(n, C)
    wq, wk, wv = rnd(C, C), rnd(C, C), rnd(C, C)
    g = rnd(C)
    t = {}
    pre1 = x + attention(x, wq, wk, wv, None, 1)
    t["H1"] = rms_norm(pre1, g, 1e-6)
    t["Y"] = t["H1"]
    t["norm1.var"] = pre1.pow(2).mean(-1)
    t["norm1.div"] = torch.sqrt(t["norm1.var"] + 1e-6)
    t["norm1.xhat"] = pre1 / t["norm1.div"][:, None]
    mats = [("X", x), ("Wq", wq), ("Wk", wk), ("Wv", wv), ("ln1_g", g)]
    write_case(f"none_{k:02d}", f"post block, RMSNorm, no FFN: {n} tokens, d_model {C}",
               "block: post\nnorm: rms\nffn: none\n",
               [(a, b.T if a.startswith("W") else b) for a, b in mats], t, torch_layout=False)


def pre_none_case(k):
    n, C = 2 + k % 3, 2 + k % 3
    x = rnd(n, C)
    wq, wk, wv = rnd(C, C), rnd(C, C), rnd(C, C)
    g, b = rnd(C), rnd(C)
    t = {}
    t["N1"] = Fn.layer_norm(x, (C,), g, b, 1e-5)
    t["H1"] = x + attention(t["N1"], wq, wk, wv, None, 1)
    norm_substeps(t, "norm1", x, 1e-5)
    mats = [("X", x), ("Wq", wq), ("Wk", wk), ("Wv", wv), ("ln1_g", g), ("ln1_b", b)]
    if k % 2:
        gf, bf = rnd(C), rnd(C)
        t["Y"] = Fn.layer_norm(t["H1"], (C,), gf, bf, 1e-5)
        mats += [("lnf_g", gf), ("lnf_b", bf)]
    else:
        t["Y"] = t["H1"]
    write_case(f"prenone_{k:02d}", f"pre block, LayerNorm, no FFN{', ln_f' if k % 2 else ''}: "
               f"{n} tokens, d_model {C}", "block: pre\nnorm: layer\nffn: none\n",
               [(a, b.T if a.startswith("W") else b) for a, b in mats], t, torch_layout=False)


os.makedirs(os.path.join(HERE, "steps"), exist_ok=True)
os.makedirs(os.path.join(HERE, "cases"), exist_ok=True)
steps_file("layer_torch", "layer_torch")
steps_file("layer_annotated", "layer_annotated")
steps_file("rms", "rms")
activations_file()
for k in range(CASES):
    gpt_case(k)
    llama_case(k)
for k in range(10):
    post_case(k)
    none_case(k)
for k in range(4):
    pre_none_case(k)
