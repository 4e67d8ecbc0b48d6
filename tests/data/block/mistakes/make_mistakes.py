#!/usr/bin/python3
"""Makes the answers files of the block's named convention mistakes (SPEC section 15,
issue 31): each file holds a student's tables with ONE convention mistake injected at
one table, and the next table done right from that wrong one (check must name the
mistake once, where it was made, and call the next table carried_error).

Everything is computed here in float64 with torch and numpy, by code that shares no
line with attnstep's C: the attention (causal, 1/sqrt(d_k)), torch.nn.LayerNorm, the
Annotated Transformer's variants written out, RMSNorm, GELU(approximate='none'|'tanh'),
ReLU. Run once by hand with Debian's python3-torch; the tests read the files it wrote:

    /usr/bin/python3 tests/data/block/mistakes/make_mistakes.py

Tables are written with 6 decimals (check then judges each cell to 0.0000005, widened
by what the rounding of the tables it reads can move it).
"""
import math
import os
import torch
import torch.nn.functional as Fn

HERE = os.path.dirname(os.path.abspath(__file__))
F = torch.float64

def t(rows):
    return torch.tensor(rows, dtype=F)

X = t([[1, 0, 0, 0], [0, 1, 1, 0], [2, 0, 1, 1]])
Wq = t([[1, 0], [0, 1], [1, 0], [0, 1]])
Wk = t([[1, 0], [0, 1], [0, 1], [1, 0]])
Wv = t([[0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, -0.5, 0], [0, 0, 0, -0.5]])
G1, B1 = t([1.5, 0.5, 1, 2]), t([0.25, -0.5, 0, 1])
G2, B2 = t([0.5, 2, 1, 1.5]), t([-1, 0, 0.5, 0.25])
GF, BF = t([2, 1, 0.5, 1]), t([0, 0.5, -0.25, 0])
Wup = t([[1, 0, 1], [0, 1, -1], [-1, 0, 0], [0, -1, 1]])
bup = t([0, 0, 0.5])
Wdown = t([[0.5, 0, 0, 0], [0, 0.5, 0, 0], [0, 0, 0.5, 0.5]])
EPS = 0.25  # large, so that where ε goes shows at 6 decimals


def attention_tables(x):
    q, k, v = x @ Wq, x @ Wk, x @ Wv
    qkt = q @ k.T
    s = qkt / math.sqrt(q.shape[1])
    n = s.shape[0]
    s = s.masked_fill(torch.triu(torch.ones(n, n, dtype=torch.bool), 1), float("-inf"))
    a = torch.softmax(s, dim=-1)
    return [("Q", q), ("K", k), ("V", v), ("QKT", qkt), ("S", s), ("A", a), ("O", a @ v)]


def attention(x):
    return attention_tables(x)[-1][1]


def layer_norm(x, g, b, ddof=0, outside=False, eps=EPS):
    """torch.nn.LayerNorm for ddof 0 inside; the variants written out by hand."""
    if ddof == 0 and not outside:
        ln = torch.nn.LayerNorm(x.shape[1], eps=eps, dtype=F)
        with torch.no_grad():
            ln.weight.copy_(g if g is not None else torch.ones(x.shape[1], dtype=F))
            ln.bias.copy_(b if b is not None else torch.zeros(x.shape[1], dtype=F))
            return ln(x)
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).sum(-1, keepdim=True) / (x.shape[1] - ddof)
    div = var.sqrt() + eps if outside else (var + eps).sqrt()
    y = (x - mu) / div
    return y * (g if g is not None else 1) + (b if b is not None else 0)


def rms_norm(x, g, eps=EPS):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * g


def gelu(u):
    return Fn.gelu(u, approximate="none")


def gelu_tanh(u):
    return Fn.gelu(u, approximate="tanh")


def mat(name, m):
    rows = ",\n     ".join("[" + ", ".join("-inf" if v == float("-inf") else f"{v:.6f}" for v in r) + "]"
                             for r in m.tolist())
    return f"{name} = [{rows}]\n"


def vec(name, v):
    return f"{name} = [" + ", ".join(repr(float(a)) for a in v.tolist()) + "]\n"


def problem(name, head, norm_rows, gammas):
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write(f"# made by make_mistakes.py: the block the mistakes are made on\n{head}")
        f.write(f"norm_eps: {EPS}\n")
        for m, n in (("X", X), ("Wq", Wq), ("Wk", Wk), ("Wv", Wv), ("Wup", Wup), ("Wdown", Wdown)):
            f.write(mat(m, n).replace(".000000", ""))
        f.write(vec("bup", bup))
        for n, v in gammas:
            f.write(vec(n, v))


def answers(name, what, tables):
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write(f"# made by make_mistakes.py: {what}\nname: {name}\n")
        for n, m in tables:
            f.write(mat(n, m))


# ---- A: pre-LN, torch LayerNorm with γ, β, exact GELU, a final norm ----
problem("block_a", "block: pre\nnorm: layer\nffn: gelu\n", None,
        [("ln1_g", G1), ("ln1_b", B1), ("ln2_g", G2), ("ln2_b", B2), ("lnf_g", GF), ("lnf_b", BF)])
N1 = layer_norm(X, G1, B1)
O = attention(N1)
H1 = X + O
N2 = layer_norm(H1, G2, B2)
U = N2 @ Wup + bup
Fa = gelu(U)
D = Fa @ Wdown
H2 = H1 + D
Y = layer_norm(H2, GF, BF)

def up(n2):
    return n2 @ Wup + bup

answers("a_right", "every table right", [("N1", N1), ("O", O), ("H1", H1), ("N2", N2), ("U", U),
                                         ("F", Fa), ("D", D), ("H2", H2), ("Y", Y)])
wrong = layer_norm(H1, G2, B2, ddof=1)
answers("a_ln_unbiased", "N2 with σ² divided by d−1, U from it", [("H1", H1), ("N2", wrong), ("U", up(wrong))])
wrong = layer_norm(H1, G2, B2, outside=True)
answers("a_ln_eps_outside", "N2 with ε added to σ, U from it", [("H1", H1), ("N2", wrong), ("U", up(wrong))])
wrong = layer_norm(H1, None, None)
answers("a_ln_no_affine", "N2 without γ and β, U from it", [("H1", H1), ("N2", wrong), ("U", up(wrong))])
wrong = layer_norm(X, G1, B1, ddof=1)
answers("a_n1_unbiased", "N1 with σ² divided by d−1", [("N1", wrong)])
answers("a_n1_unbiased_on", "N1 with σ² divided by d−1, the attention done right on it",
        [("N1", wrong)] + attention_tables(wrong) + [("H1", X + attention(wrong))])
wrong = gelu_tanh(U)
answers("a_gelu_tanh_for_erf", "F by GELU's tanh form, D from it", [("U", U), ("F", wrong), ("D", wrong @ Wdown)])
wrong = torch.relu(U)
answers("a_relu_for_gelu", "F by ReLU, D from it", [("U", U), ("F", wrong), ("D", wrong @ Wdown)])
answers("a_no_residual", "H1 = O, N2 from it", [("O", O), ("H1", O), ("N2", layer_norm(O, G2, B2))])
answers("a_residual_from_normed", "H1 = N1 + O", [("N1", N1), ("O", O), ("H1", N1 + O)])
wrong = layer_norm(X + O, G1, B1)
answers("a_post_for_pre", "H1 = LayerNorm(X + O), N2 from it", [("O", O), ("H1", wrong), ("N2", layer_norm(wrong, G2, B2))])
answers("a_h2_no_residual", "H2 = D", [("D", D), ("H2", D)])

# ---- B: pre, RMSNorm with γ, GELU tanh, no final norm ----
problem("block_b", "block: pre\nnorm: rms\nffn: gelu_tanh\n", None, [("ln1_g", G1), ("ln2_g", G2)])
N1 = rms_norm(X, G1)
O = attention(N1)
H1 = X + O
N2 = rms_norm(H1, G2)
U = N2 @ Wup + bup
answers("b_right", "every table right", [("N1", N1), ("O", O), ("H1", H1), ("N2", N2), ("U", U),
                                         ("F", gelu_tanh(U))])
wrong = layer_norm(H1, G2, None)
answers("b_rms_with_mean", "N2 with the mean subtracted", [("H1", H1), ("N2", wrong)])
answers("b_gelu_erf_for_tanh", "F by the exact GELU", [("U", U), ("F", gelu(U))])

# ---- C: post, torch LayerNorm with γ, β, ReLU ----
problem("block_c", "block: post\nnorm: layer\nffn: relu\n", None,
        [("ln1_g", G1), ("ln1_b", B1), ("ln2_g", G2), ("ln2_b", B2)])
O = attention(X)
H1 = layer_norm(X + O, G1, B1)
answers("c_right", "H1 right", [("O", O), ("H1", H1)])
answers("c_no_residual", "H1 = LayerNorm(O)", [("O", O), ("H1", layer_norm(O, G1, B1))])
