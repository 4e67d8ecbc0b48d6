#!/usr/bin/python3
"""Makes the position cases (issue 16): random inputs written as attnstep input files,
with every table that positions add (PE, each head's rotated Q and K, the ALiBi bias) and
the final O computed in float64 by reference code that does not share a line with
attnstep's C:

- sinusoidal: the Annotated Transformer's PositionalEncoding (div_term = exp(2i * -ln(10000)/d)),
- RoPE `half`: the rotate-half form of GPT-NeoX / LLaMA (Hugging Face's apply_rotary_pos_emb:
  q*cos + rotate_half(q)*sin with cos = cat(freqs, freqs)),
- RoPE `interleaved`: the RoFormer / GPT-J form (rotate_every_two, sin/cos repeat_interleave(2)),
- ALiBi: the slopes of the paper's own get_slopes() (ofirpress/attention_with_linear_biases),
  including its rule for a head count that is not a power of two.

Run once by hand with Debian's python3-torch; the tests read the files it wrote:

    /usr/bin/python3 tests/data/positions/make_cases.py

Each NAME.expected holds sections `TABLE rows cols` followed by rows*cols numbers.
"""
import math
import os
import torch

torch.manual_seed(20261130)
HERE = os.path.dirname(os.path.abspath(__file__))
F = torch.float64


def rnd(*shape):
    # three decimals: the text attnstep reads is the exact decimal python reads
    return torch.round(torch.randn(*shape, dtype=F) * 1000) / 1000


def mat(name, t):
    rows = ",\n     ".join("[" + ", ".join(repr(float(x)) for x in r) + "]" for r in t.tolist())
    return f"{name} = [{rows}]\n"


def sinusoidal(n, d, offset):
    pe = torch.zeros(n, d, dtype=F)
    position = torch.arange(offset, offset + n, dtype=F).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d, 2, dtype=F) * -(math.log(10000.0) / d))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term[: d // 2])
    return pe


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def rope_half(x, base, offset):
    n, d = x.shape
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=F) / d))
    t = torch.arange(offset, offset + n, dtype=F)
    freqs = torch.outer(t, inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return x * emb.cos() + rotate_half(x) * emb.sin()


def rotate_every_two(x):
    x1, x2 = x[:, ::2], x[:, 1::2]
    return torch.stack((-x2, x1), dim=-1).flatten(-2)


def rope_interleaved(x, base, offset):
    n, d = x.shape
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=F) / d))
    t = torch.arange(offset, offset + n, dtype=F)
    sinusoid = torch.outer(t, inv_freq)
    sin = sinusoid.sin().repeat_interleave(2, dim=-1)
    cos = sinusoid.cos().repeat_interleave(2, dim=-1)
    return x * cos + rotate_every_two(x) * sin


def get_slopes(n):
    # verbatim logic of the ALiBi paper's code
    def get_slopes_power_of_2(n):
        start = 2 ** (-2 ** -(math.log2(n) - 3))
        ratio = start
        return [start * ratio ** i for i in range(n)]

    if math.log2(n).is_integer():
        return get_slopes_power_of_2(n)
    closest = 2 ** math.floor(math.log2(n))
    return get_slopes_power_of_2(closest) + get_slopes(2 * closest)[0::2][: n - closest]


def layer(c):
    """Every table of the case, by plain torch operations."""
    X, Xkv, H, dk, dv = c["X"], c["Xkv"], c["heads"], c["dk"], c["dv"]
    n, m = X.shape[0], Xkv.shape[0]
    out = {}
    if c["positions"] == "sinusoidal":
        out["PE"] = sinusoidal(n, X.shape[1], c["offset"])
        X = X + out["PE"]
        if c["cross"]:
            out["PEkv"] = sinusoidal(m, Xkv.shape[1], c["offset"])
            Xkv = Xkv + out["PEkv"]
        else:
            Xkv = X
    Q = X @ c["Wq"] + c["bq"]
    K = Xkv @ c["Wk"] + c["bk"]
    V = Xkv @ c["Wv"] + c["bv"]
    if c["mask"] == "causal":
        M = torch.triu(torch.full((n, m), -math.inf, dtype=F), diagonal=1)
    else:
        M = torch.zeros(n, m, dtype=F)
    slopes = get_slopes(H)
    heads = []
    for h in range(H):
        q, k = Q[:, h * dk:(h + 1) * dk], K[:, h * dk:(h + 1) * dk]
        v = V[:, h * dv:(h + 1) * dv]
        if c["positions"] == "rope":
            rot = rope_half if c["rope"] == "half" else rope_interleaved
            q, k = rot(q, c["base"], c["offset"]), rot(k, c["base"], c["offset"])
            out[f"Qr{h}"], out[f"Kr{h}"] = q, k
        qkt = q @ k.T
        out[f"QKT{h}"] = qkt
        s = qkt / math.sqrt(dk)
        if c["positions"] == "alibi":
            i = torch.arange(n, dtype=F).unsqueeze(1)
            j = torch.arange(m, dtype=F).unsqueeze(0)
            b = -slopes[h] * (i - j)
            out[f"B{h}"] = b
            s = s + b
        heads.append(torch.softmax(s + M, dim=-1) @ v)
    out["O"] = torch.cat(heads, dim=1)
    return out


def case(name, n, m, d, heads, dk, dv, positions, mask="causal", cross=False, rope="half",
         base=10000.0, offset=0, bias=False, settings=""):
    c = dict(heads=heads, dk=dk, dv=dv, positions=positions, mask=mask, cross=cross,
             rope=rope, base=base, offset=offset)
    c["X"] = rnd(n, d)
    c["Xkv"] = rnd(m, d) if cross else c["X"]
    c["Wq"], c["Wk"], c["Wv"] = rnd(d, heads * dk), rnd(d, heads * dk), rnd(d, heads * dv)
    z = torch.zeros
    c["bq"] = rnd(heads * dk) if bias else z(heads * dk, dtype=F)
    c["bk"] = rnd(heads * dk) if bias else z(heads * dk, dtype=F)
    c["bv"] = rnd(heads * dv) if bias else z(heads * dv, dtype=F)
    text = f"# {name}: made by make_cases.py (reference: see its docstring)\n"
    text += f"positions: {positions}\nheads: {heads}\nmask: {mask}\n" + settings
    text += mat("X", c["X"])
    if cross:
        text += mat("Xkv", c["Xkv"])
    for w in ("Wq", "Wk", "Wv"):
        text += mat(w, c[w])
    if bias:
        for b in ("bq", "bk", "bv"):
            text += mat(b, c[b].unsqueeze(0))
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write(text)
    with open(os.path.join(HERE, name + (f".offset{offset}" if offset else "") + ".expected"), "w") as f:
        for key, t in layer(c).items():
            f.write(f"{key} {t.shape[0]} {t.shape[1]}\n")
            for r in t.tolist():
                f.write(" ".join(repr(float(x)) for x in r) + "\n")
    return c


def again(name, c, offset):
    """The same case at positions offset, offset+1, ... (`--offset`)."""
    c = dict(c, offset=offset)
    with open(os.path.join(HERE, f"{name}.offset{offset}.expected"), "w") as f:
        for key, t in layer(c).items():
            f.write(f"{key} {t.shape[0]} {t.shape[1]}\n")
            for r in t.tolist():
                f.write(" ".join(repr(float(x)) for x in r) + "\n")


c = case("rope_half_2heads", 5, 5, 6, 2, 4, 3, "rope")
again("rope_half_2heads", c, 7)
again("rope_half_2heads", c, 1000)
c = case("rope_interleaved_bias", 4, 4, 5, 1, 6, 4, "rope", rope="interleaved", base=500.0,
         bias=True, settings="rope: interleaved\nrope_base: 500\n")
again("rope_interleaved_bias", c, 3)
case("rope_half_cross", 3, 5, 4, 2, 2, 2, "rope", mask="none", cross=True)
case("alibi_1head", 4, 4, 3, 1, 2, 2, "alibi")
case("alibi_3heads", 5, 5, 6, 3, 2, 2, "alibi")
case("alibi_6heads_nomask", 4, 4, 4, 6, 2, 1, "alibi", mask="none")
case("alibi_8heads", 3, 3, 4, 8, 1, 1, "alibi")
c = case("sinusoidal_even", 4, 4, 6, 2, 3, 3, "sinusoidal")
again("sinusoidal_even", c, 5)
case("sinusoidal_odd", 5, 5, 5, 1, 3, 2, "sinusoidal", bias=True)
case("sinusoidal_cross", 3, 4, 4, 1, 2, 2, "sinusoidal", mask="none", cross=True)
