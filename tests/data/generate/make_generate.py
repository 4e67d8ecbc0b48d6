#!/usr/bin/python3
"""Makes the references of `attnstep generate` (SPEC section 19, issue 35): random
weights, an attnstep input for each case, and what a numpy re-implementation in float64
generates from it -- sharing no line with attnstep's C, and with no KV cache: every step
recomputes the whole sequence from scratch.

    /usr/bin/python3 tests/data/generate/make_generate.py

Each case NAME writes NAME.txt (the input: ids: through E and P, a tied head or Wout)
and NAME.expected:
    tokens t0 t1 ... t19
    logits k  v0 v1 ...      (step k's logits over the vocabulary, repr of the double)
    u k  x                   (seeded cases: step k's uniform number)
Cases: plain (no block: two heads and Wo, greedy), block (pre, LayerNorm, GELU tanh,
lnf, greedy), wout (head: Wout, no block, greedy), seeded (the block, temperature 0.8,
top_k 6, top_p 0.9, sample: 7: splitmix64's numbers and the inverse-CDF draw).
"""
import math
import os
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = 20
VOCAB, D, HEADS, DFF, CONTEXT = 12, 6, 2, 12, 32
PROMPT = [3, 7, 1]
rng = np.random.default_rng(35)


def num(x):
    return repr(float(x))


def mat(name, a):
    a = np.atleast_2d(a)
    rows = ",\n     ".join("[" + ", ".join(num(x) for x in r) + "]" for r in a)
    return f"{name} = [{rows}]\n"


def layer_norm(x, g, b, eps=1e-5):
    mu = x.mean(axis=-1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def gelu_tanh(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def softmax(s):
    m = s.max()
    e = np.exp(s - m)
    return e / e.sum()


def attention(x, w):
    n = x.shape[0]
    q, k, v = x @ w["Wq"], x @ w["Wk"], x @ w["Wv"]
    dk = q.shape[1] // HEADS
    heads = []
    for h in range(HEADS):
        sl = slice(h * dk, (h + 1) * dk)
        s = q[:, sl] @ k[:, sl].T / math.sqrt(dk)
        s[np.triu(np.ones((n, n), dtype=bool), 1)] = -np.inf
        a = np.stack([softmax(row) for row in s])
        heads.append(a @ v[:, sl])
    return np.concatenate(heads, axis=1) @ w["Wo"]


def layer(x, w, block):
    if not block:
        return attention(x, w)
    h1 = x + attention(layer_norm(x, w["ln1_g"], w["ln1_b"]), w)
    n2 = layer_norm(h1, w["ln2_g"], w["ln2_b"])
    d = gelu_tanh(n2 @ w["Wup"] + w["bup"]) @ w["Wdown"] + w["bdown"]
    return layer_norm(h1 + d, w["lnf_g"], w["lnf_b"])


class SplitMix64:
    def __init__(self, seed):
        self.state = seed

    def uniform(self):
        mask = (1 << 64) - 1
        self.state = (self.state + 0x9E3779B97F4A7C15) & mask
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        z ^= z >> 31
        return (z >> 11) * 2.0 ** -53


def choose(logits, t, top_k, top_p, g):
    s = logits / t
    if top_k:
        keep = np.argsort(-s, kind="stable")[:top_k]
        cut = np.full_like(s, -np.inf)
        cut[keep] = s[keep]
        s = cut
    p = softmax(s)
    if top_p:
        order = np.argsort(-p, kind="stable")
        c = np.cumsum(p[order])
        n = int(np.argmax(c >= top_p)) + 1 if (c >= top_p).any() else int((p > 0).sum())
        cut = np.full_like(s, -np.inf)
        cut[order[:n]] = s[order[:n]]
        p = softmax(cut)
    if g is None:
        return int(np.argmax(p)), None
    u = g.uniform()
    c = np.cumsum(p)
    for i in range(len(p)):
        if p[i] > 0 and u < c[i]:
            return i, u
    return int(np.nonzero(p > 0)[0][-1]), u


def weights(block, wout):
    w = {"E": np.round(rng.normal(size=(VOCAB, D)), 3),
         "P": np.round(0.3 * rng.normal(size=(CONTEXT, D)), 3),
         "Wq": np.round(rng.normal(size=(D, D)) / 2, 3),
         "Wk": np.round(rng.normal(size=(D, D)) / 2, 3),
         "Wv": np.round(rng.normal(size=(D, D)) / 2, 3),
         "Wo": np.round(rng.normal(size=(D, D)) / 2, 3)}
    if wout:
        w["Wout"] = np.round(rng.normal(size=(D, VOCAB)), 3)
    if block:
        for k in ("ln1", "ln2", "lnf"):
            w[k + "_g"] = np.round(1 + 0.1 * rng.normal(size=D), 3)
            w[k + "_b"] = np.round(0.1 * rng.normal(size=D), 3)
        w["Wup"] = np.round(rng.normal(size=(D, DFF)) / 2, 3)
        w["bup"] = np.round(0.1 * rng.normal(size=DFF), 3)
        w["Wdown"] = np.round(rng.normal(size=(DFF, D)) / 2, 3)
        w["bdown"] = np.round(0.1 * rng.normal(size=D), 3)
    return w


def case(name, block=False, wout=False, t=1.0, top_k=0, top_p=0.0, seed=None):
    w = weights(block, wout)
    settings = [f"title: generate reference {name} (tests/data/generate/make_generate.py)",
                "ids: " + " ".join(str(i) for i in PROMPT), "heads: %d" % HEADS,
                "head: " + ("Wout" if wout else "tied")]
    if block:
        settings += ["block: pre", "ffn: gelu_tanh"]
    if t != 1.0:
        settings.append(f"temperature: {t}")
    if top_k:
        settings.append(f"top_k: {top_k}")
    if top_p:
        settings.append(f"top_p: {top_p}")
    settings.append(f"sample: {seed}" if seed is not None else "sample: greedy")
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write("# made by make_generate.py: random weights, rounded to 3 places\n")
        f.write("\n".join(settings) + "\n")
        for k, a in w.items():
            f.write(mat(k, a))
    g = SplitMix64(seed) if seed is not None else None
    x = w["E"][PROMPT] + w["P"][: len(PROMPT)]
    out_w = w["Wout"] if wout else w["E"].T
    tokens, lines = [], []
    for k in range(STEPS):
        h = layer(x, w, block)[-1]
        logits = h @ out_w
        tok, u = choose(logits, t, top_k, top_p, g)
        tokens.append(tok)
        lines.append(f"logits {k} " + " ".join(num(v) for v in logits))
        if u is not None:
            lines.append(f"u {k} {num(u)}")
        x = np.vstack([x, w["E"][tok] + w["P"][x.shape[0]]])
    with open(os.path.join(HERE, name + ".expected"), "w") as f:
        f.write("tokens " + " ".join(str(i) for i in tokens) + "\n")
        f.write("\n".join(lines) + "\n")
    print(name, tokens)


case("plain")
case("block", block=True)
case("wout", wout=True)
case("seeded", block=True, t=0.8, top_k=6, top_p=0.9, seed=7)
