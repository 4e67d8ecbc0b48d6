# block-chapter.py - made F15-block.zh.txt and its errata once (numpy, float64, a
# re-implementation of torch's LayerNorm: biased σ², ε = 1e-5 under the root); tests
# read the text only. Run from the top directory:
#   /usr/bin/python3 tests/data/verify/block-chapter.py > tests/data/verify/F15-block.zh.txt
#   /usr/bin/python3 tests/data/verify/block-chapter.py errata > tests/data/verify/F15-block-errata.zh.txt
#   /usr/bin/python3 tests/data/verify/block-chapter.py post > tests/data/verify/F15-post.zh.txt
#   /usr/bin/python3 tests/data/verify/block-chapter.py post-errata > tests/data/verify/F15-post-errata.zh.txt
#   /usr/bin/python3 tests/data/verify/block-chapter.py rms > tests/data/verify/F15-rms.zh.txt
#   /usr/bin/python3 tests/data/verify/block-chapter.py swiglu > tests/data/verify/F15-swiglu.zh.txt
#   /usr/bin/python3 tests/data/verify/block-chapter.py swiglu-errata > tests/data/verify/F15-swiglu-errata.zh.txt
# (post: the original Transformer's order, H1 = LayerNorm(X + O) with γ and β given,
# H2 = LayerNorm(H1 + D) - its errata: O[1][2] printed with its 4th decimal changed and
# everything after it made from that O; rms: pre with RMSNorm, rms = √(Σx²/d + ε), ε = 1e-6, γ given,
# and the exact GELU, 0.5x(1 + erf(x/√2)).)
# A pre-LN block (GPT-2's order) on two tokens of width 3, one head (d_k 2, d_v 3, no Wo,
# so that O adds to X), ReLU FFN of width 2; every table printed to 10 decimals as F11
# prints them (integers without a point, trailing zeros dropped).
# The errata, each as an author would make it (F15-block-count.md counts their verdicts):
#  1. norm1's divisor printed with ε added to σ (σ + ε) - a misprint: x̂ and N1 below it
#     are the right ones;
#  2. the first number of O whose cut differs from its rounding, cut after its 10th
#     decimal instead of rounded (H1 below is made from the right O);
#  3. S[1][1] with its 5th decimal changed (A is made from the right S);
#  4. norm2's σ² made unbiased (÷ (d−1)), and everything after it - norm2's divisor, N2,
#     U, F, D, H2 - made by the author from that σ², as a student carries a mistake.
import sys

import numpy as np

from chapter_print import block, num

mode = sys.argv[1] if len(sys.argv) > 1 else ""
errata = mode == "errata"
eps = 1e-5
X = np.array([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]])
Wq = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
Wk = np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]])
Wv = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, -1.0]])
Wup = np.array([[1.0, -1.0], [0.0, 1.0], [1.0, 0.0]])
bup = np.array([0.0, 0.5])
Wdown = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, -1.0]])


def layer_norm(x, ddof=0):
    mu = x.mean(axis=1)
    var = ((x - mu[:, None]) ** 2).sum(axis=1) / (x.shape[1] - ddof)
    div = np.sqrt(var + eps)
    return mu, var, div, (x - mu[:, None]) / div[:, None]


def per_token(name, v):
    return name + " = [" + ", ".join(num(x) for x in v) + "]"


def attention(x):
    Q, K, V = x @ Wq, x @ Wk, x @ Wv
    S = Q @ K.T / np.sqrt(2.0) + np.array([[0.0, -np.inf], [0.0, 0.0]])
    E = np.exp(S - S.max(axis=1, keepdims=True))
    A = E / E.sum(axis=1, keepdims=True)
    return Q, K, V, Q @ K.T, S, A, A @ V


def print_attention(x_name, tables):
    Q, K, V, QKT, S, A, O = tables
    print(block("Q = %s @ Wq" % x_name, Q))
    print(block("K = %s @ Wk" % x_name, K))
    print(block("V = %s @ Wv" % x_name, V))
    print(block("QKᵀ", QKT))
    print(block("S = QKᵀ/√2 + M", S))
    print(block("A = 每行softmax(S)", A))
    print(block("O = AV", O))


def print_head(title, settings):
    print(title)
    print()
    for line in settings:
        print(line)
    print()
    print(block("X", X))
    print()
    print("Wq = [[1, 0],    Wk = [[0, 1],    Wv = [[1, 0,  0],")
    print("      [0, 1],          [1, 0],          [0, 1,  0],")
    print("      [1, 1]]          [1, 0]]          [0, 0, -1]]")
    print()
    print("Wup = [[1, -1],    bup = [0, 0.5]")
    print("       [0,  1],")
    print("       [1,  0]]")
    print("Wdown = [[1, 0,  1],")
    print("         [0, 1, -1]]")
    print()


if mode in ("post", "post-errata"):
    g, b = np.array([1.0, 2.0, 0.5]), np.array([0.5, 0.0, -1.0])
    print_head("F15｜Post-LN：先加残差，再归一化", ["block: post", "norm: layer", "ffn: relu"])
    print("γ和β不再是1和0：")
    print()
    print("ln1_g = [1, 2, 0.5]    ln1_b = [0.5, 0, -1]")
    print("ln2_g = [1, 2, 0.5]    ln2_b = [0.5, 0, -1]")
    print()
    att = attention(X)
    if mode == "post-errata":
        O = att[6].copy()
        d = list("%.10f" % O[1][2])
        k = d.index(".") + 4
        d[k] = "1" if d[k] != "1" else "2"
        O[1][2] = float("".join(d))
        att = att[:6] + (O,)
    print_attention("X", att)
    R1 = X + att[6]
    mu, var, div, xh = layer_norm(R1)
    H1 = g * xh + b
    print()
    print("原论文的顺序：先把O加回X，再对X + O做LayerNorm：")
    print()
    print(per_token("μ", mu))
    print(per_token("σ²", var))
    print(per_token("√(σ²+ε)", div))
    print(block("H1 = LayerNorm(X + O)", H1))
    U = H1 @ Wup + bup
    F = np.maximum(U, 0.0)
    D = F @ Wdown
    mu, var, div, xh = layer_norm(H1 + D)
    print()
    print(block("U = H1 @ Wup + bup", U))
    print(block("F = ReLU(U)", F))
    print(block("D = F @ Wdown", D))
    print()
    print(per_token("μ", mu))
    print(per_token("σ²", var))
    print(per_token("√(σ²+ε)", div))
    print(block("H2 = LayerNorm(H1 + D)", g * xh + b))
    sys.exit(0)

if mode == "rms":
    from math import erf, sqrt
    g = np.array([1.0, 2.0, 0.5])

    def rms_norm(x):
        rms = np.sqrt((x ** 2).mean(axis=1) + 1e-6)
        return rms, x / rms[:, None]

    print_head("F15｜RMSNorm：不减均值，只除以均方根", ["block: pre", "norm: rms", "ffn: gelu"])
    print("ln1_g = [1, 2, 0.5]")
    print("ln2_g = [1, 2, 0.5]")
    print()
    rms, xh = rms_norm(X)
    N1 = g * xh
    print(per_token("rms", rms))
    print(block("x̂", xh))
    print(block("N1", N1))
    print()
    att = attention(N1)
    print_attention("N1", att)
    H1 = X + att[6]
    rms, xh = rms_norm(H1)
    N2 = g * xh
    U = N2 @ Wup + bup
    F = np.vectorize(lambda u: 0.5 * u * (1.0 + erf(u / sqrt(2.0))))(U)
    D = F @ Wdown
    print()
    print(block("H1 = X + O", H1))
    print(per_token("rms", rms))
    print(block("N2", N2))
    print(block("U = N2 @ Wup + bup", U))
    print(block("F = GELU(U)", F))
    print(block("D = F @ Wdown", D))
    print(block("H2 = H1 + D", H1 + D))
    sys.exit(0)


if mode in ("swiglu", "swiglu-errata"):
    # LLaMA's gated FFN on the pre-LN block: G = SiLU(N2 @ Wgate), F = G ⊙ U, and Y = H2
    # printed again (no final norm). Its errata, each carried as a student carries it:
    # N1[1][0] with its 4th decimal changed and Q, K, V made from that N1; U[0][1] with
    # its 4th decimal changed and F made from that U (G is right); Y copied from the
    # right H2 but its [1][2] with its 5th decimal changed.
    Wgate = np.array([[0.5, 1.0], [-1.0, 0.0], [0.0, 1.0]])

    def changed(x, k):
        d = list("%.10f" % x)
        k += d.index(".")
        d[k] = "1" if d[k] != "1" else "2"
        return float("".join(d))

    bad = mode == "swiglu-errata"
    print_head("F15｜SwiGLU：门控的前馈网络", ["block: pre", "norm: layer", "ffn: swiglu"])
    print("Wgate = [[0.5, 1],")
    print("         [-1,  0],")
    print("         [0,   1]]")
    print()
    mu, var, div, xh = layer_norm(X)
    N1 = xh.copy()
    if bad:
        N1[1][0] = changed(N1[1][0], 4)
    print(per_token("μ", mu))
    print(per_token("σ²", var))
    print(per_token("√(σ²+ε)", div))
    print(block("N1", N1))
    print()
    att = attention(N1)
    print_attention("N1", att)
    H1 = X + att[6]
    mu, var, div, N2 = layer_norm(H1)
    U = N2 @ Wup + bup
    if bad:
        U[0][1] = changed(U[0][1], 4)
    G = N2 @ Wgate
    G = G / (1.0 + np.exp(-G))
    F = G * U
    D = F @ Wdown
    H2 = H1 + D
    Y = H2.copy()
    if bad:
        Y[1][2] = changed(Y[1][2], 5)
    print()
    print(block("H1 = X + O", H1))
    print(per_token("μ", mu))
    print(per_token("σ²", var))
    print(per_token("√(σ²+ε)", div))
    print(block("N2", N2))
    print(block("U = N2 @ Wup + bup", U))
    print(block("G = SiLU(N2 @ Wgate)", G))
    print(block("F = G ⊙ U", F))
    print(block("D = F @ Wdown", D))
    print(block("H2 = H1 + D", H2))
    print(block("Y", Y))
    sys.exit(0)


mu1, var1, div1, xhat1 = layer_norm(X)
N1 = xhat1
Q, K, V = N1 @ Wq, N1 @ Wk, N1 @ Wv
QKT = Q @ K.T
M = np.array([[0.0, -np.inf], [0.0, 0.0]])
S = QKT / np.sqrt(2.0) + M
E = np.exp(S - S.max(axis=1, keepdims=True))
A = E / E.sum(axis=1, keepdims=True)
O = A @ V
H1 = X + O
mu2, var2, div2, xhat2 = layer_norm(H1, ddof=1 if errata else 0)
N2 = xhat2
U = N2 @ Wup + bup
F = np.maximum(U, 0.0)
D = F @ Wdown
H2 = H1 + D

div1_shown = np.sqrt(var1) + eps if errata else div1
# the first cell of O whose 10-decimal cut differs from its rounding
cut_at = next((r, c) for r in range(2) for c in range(3) if num(O[r][c], True) != num(O[r][c]))
S_shown = S.copy()
if errata:
    s = list("%.10f" % S[1][1])
    k = s.index(".") + 5
    s[k] = "1" if s[k] != "1" else "2"
    S_shown[1][1] = float("".join(s))

print("F15｜一个完整的块：归一化、残差和前馈网络")
print()
print("F11只算了注意力这一层。真正的Transformer块在它前后还有三样东西：先把每一行归一化，")
print("注意力的输出加回原来的输入（残差），再经过一个前馈网络。这里按GPT-2的顺序（Pre-LN）算一遍。")
print("设置写在这里，和输入文件一样：")
print()
print("block: pre")
print("norm: layer")
print("ffn: relu")
print()
print("两个Token，每行3个特征：")
print()
print(block("X", X) + "      第0行对应“我”")
print()
print("参数表和F11一样按[输入, 输出]摆放：")
print()
print("Wq = [[1, 0],    Wk = [[0, 1],    Wv = [[1, 0,  0],")
print("      [0, 1],          [1, 0],          [0, 1,  0],")
print("      [1, 1]]          [1, 0]]          [0, 0, -1]]")
print()
print("第一步：LayerNorm。每一行先减去均值μ，再除以√(σ²+ε)，σ²除以的是d=3，ε=0.00001：")
print()
print(per_token("μ", mu1))
print(per_token("σ²", var1))
print(per_token("√(σ²+ε)", div1_shown))
print()
print(block("x̂", xhat1))
print()
print("γ全是1、β全是0，所以N1就是x̂：")
print()
print(block("N1", N1))
print()
print("第二步：注意力读的是N1，不是X：")
print()
print(block("Q = N1 @ Wq", Q))
print(block("K = N1 @ Wk", K))
print(block("V = N1 @ Wv", V))
print()
print(block("QKᵀ", QKT))
print()
print("M = [[0,−∞],      第0行只能读“我”")
print("     [0, 0]]      第1行能读“我”和“爱”")
print()
print(block("S = QKᵀ/√2 + M", S_shown))
print(block("A = 每行softmax(S)", A))
print(block("O = AV", O, cut=cut_at if errata else None))
print()
print("第三步：残差。把注意力的输出加回原来的X（不是N1）：")
print()
print(block("H1 = X + O", H1))
print()
print("第四步：再做一次LayerNorm，得到前馈网络的输入：")
print()
print(per_token("μ", mu2))
print(per_token("σ²", var2))
print(per_token("√(σ²+ε)", div2))
print()
print(block("N2", N2))
print()
print("第五步：前馈网络。先放宽到2列，过ReLU，再收回3列：")
print()
print("Wup = [[1, -1],    bup = [0, 0.5]")
print("       [0,  1],")
print("       [1,  0]]")
print()
print("Wdown = [[1, 0,  1],")
print("         [0, 1, -1]]")
print()
print(block("U = N2 @ Wup + bup", U))
print(block("F = ReLU(U)", F))
print(block("D = F @ Wdown", D))
print()
print("最后再加一次残差：")
print()
print(block("H2 = H1 + D", H2))
print()
print("H2就是这个块的输出，下一块从它开始。")
