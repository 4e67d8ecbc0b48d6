# rope-alibi-chapter.py - made F12-rope.zh.txt, F12-alibi.zh.txt and their errata once
# (numpy, float64, RoPE and ALiBi written out here from SPEC §12: RoPE turns each pair of
# q_p and k_p by p·θ_i, θ_i = 10000^(−2i/d_k), element i paired with i + d_k/2; ALiBi adds
# −m·(i−j) to the scaled scores, m = 2^(−8/H), H = 1 head); tests read the text only.
# Run from the top directory:
#   /usr/bin/python3 tests/data/verify/rope-alibi-chapter.py rope > tests/data/verify/F12-rope.zh.txt
#   /usr/bin/python3 tests/data/verify/rope-alibi-chapter.py rope errata > tests/data/verify/F12-rope-errata.zh.txt
#   /usr/bin/python3 tests/data/verify/rope-alibi-chapter.py alibi > tests/data/verify/F12-alibi.zh.txt
#   /usr/bin/python3 tests/data/verify/rope-alibi-chapter.py alibi errata > tests/data/verify/F12-alibi-errata.zh.txt
# The errata, as an author would make them (F12-rope-alibi-count.md counts the verdicts):
#  RoPE:  Kr turned with neighbours paired (2i with 2i+1, GPT-J's way) instead of halves,
#         and QKᵀ, S, A, O made from that Kr; the first number of Qr whose 10-decimal cut
#         differs from its rounding printed cut.
#  ALiBi: B with its sign turned (+m·(i−j)), and S, A, O made from that B.
import sys

import numpy as np

from chapter_print import block, num

kind = sys.argv[1]
errata = len(sys.argv) > 2 and sys.argv[2] == "errata"


def rope(x, interleaved=False):
    n, d = x.shape
    out = np.empty_like(x)
    for p in range(n):
        for i in range(d // 2):
            theta = 10000.0 ** (-2.0 * i / d)
            a, b = (2 * i, 2 * i + 1) if interleaved else (i, i + d // 2)
            c, s = np.cos(p * theta), np.sin(p * theta)
            out[p, a] = x[p, a] * c - x[p, b] * s
            out[p, b] = x[p, a] * s + x[p, b] * c
    return out


def softmax_rows(s):
    e = np.exp(s - s.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


M = np.array([[0.0, -np.inf, -np.inf], [0.0, 0.0, -np.inf], [0.0, 0.0, 0.0]])
mask = ["M = [[0,−∞,−∞],      第0行只能读“我”",
        "     [0, 0,−∞],      第1行能读“我”和“爱”",
        "     [0, 0, 0]]      第2行都能读"]

if kind == "rope":
    X = np.array([[1.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 1.0], [1.0, 1.0, 0.0, 0.0]])
    Wq = np.eye(4)
    Wk = np.array([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 1.0, 0.0, 0.0],
                   [0.0, 0.0, 0.0, 1.0]])
    Wv = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    Qr, Kr = rope(Q), rope(K, interleaved=errata)
    QKT = Qr @ Kr.T
    S = QKT / 2.0 + M
    A = softmax_rows(S)
    O = A @ V
    cut_at = next((r, c) for r in range(3) for c in range(4) if num(Qr[r][c], True) != num(Qr[r][c]))
    print("F12｜旋转位置编码RoPE：让分数只看相对距离")
    print()
    print("RoPE不往X上加东西，而是在投影之后把q和k每两个数看成一对，按位置转一个角度。")
    print("第p个位置的第i对转过p·θᵢ，θᵢ = 10000^(−2i/d_k)；这里第i个数和第i+d_k/2个数配成一对。")
    print("和输入文件一样写出设置：")
    print()
    print("positions: rope")
    print()
    print(block("X", X))
    print()
    print(block("Wq", Wq))
    print(block("Wk", Wk))
    print(block("Wv", Wv))
    print()
    print("先照常投影：")
    print()
    print(block("Q = X @ Wq", Q))
    print(block("K = X @ Wk", K))
    print(block("V = X @ Wv", V))
    print()
    print("再按位置旋转。第0行不转，第1行第0对转1弧度、第1对转0.01弧度：")
    print()
    print(block("Qr = RoPE(Q)", Qr, cut=cut_at if errata else None))
    print(block("Kr = RoPE(K)", Kr))
    print()
    print("分数用转过的两张表算，d_k=4，除以√4 = 2：")
    print()
    print(block("QKᵀ = QrKrᵀ", QKT))
    print()
    print("\n".join(mask))
    print()
    print(block("S = QKᵀ/2 + M", S))
    print(block("A = 每行softmax(S)", A))
    print(block("O = AV", O))
    print()
    print("把三个位置都往后挪同样的距离，QKᵀ不会变：RoPE只记住两个位置差多远。")
else:
    X = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    Wq = np.array([[1.0, 0.0], [0.0, 1.0]])
    Wk = np.array([[0.0, 1.0], [1.0, 0.0]])
    Wv = np.array([[2.0, 0.0], [0.0, 4.0]])
    m = 2.0 ** -8
    i = np.arange(3.0)[:, None]
    j = np.arange(3.0)[None, :]
    B = -m * (i - j)
    B_shown = -B if errata else B
    Q, K, V = X @ Wq, X @ Wk, X @ Wv
    QKT = Q @ K.T
    S = QKT / np.sqrt(2.0) + B_shown + M
    A = softmax_rows(S)
    O = A @ V
    print("F12｜ALiBi：离得越远，分数扣得越多")
    print()
    print("ALiBi不改Q和K，只在缩放后的分数上加一张偏置表B：第i行第j列加−m·(i−j)。")
    print("只有一个头时斜率m = 2^(−8) = 0.00390625。和输入文件一样写出设置：")
    print()
    print("positions: alibi")
    print()
    print(block("X", X))
    print()
    print("Wq = [[1, 0],    Wk = [[0, 1],    Wv = [[2, 0],")
    print("      [0, 1]]          [1, 0]]          [0, 4]]")
    print()
    print(block("Q = X @ Wq", Q))
    print(block("K = X @ Wk", K))
    print(block("V = X @ Wv", V))
    print()
    print(block("QKᵀ", QKT))
    print()
    print(block("B", B_shown))
    print()
    print("\n".join(mask))
    print()
    print(block("S = QKᵀ/√2 + B + M", S))
    print(block("A = 每行softmax(S)", A))
    print(block("O = AV", O))
    print()
    print("B的上三角会被M盖住；下三角越往左越负，远处的位置分到的份额就少一点。")
