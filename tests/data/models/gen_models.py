#!/usr/bin/python3
"""Makes the small model files of `model: "FILE" layer N` with `preset: gpt2|llama`
(issue 32, SPEC section 16) and what an independent float64 re-implementation of each
model's block computes from them. Run once by hand with Debian's python3-numpy and
python3-torch (apt-get install python3-numpy python3-torch); the tests read what it
wrote and do not need Python:

    /usr/bin/python3 tests/data/models/gen_models.py

It writes, beside itself (random values, never downloaded weights):
- gpt2/model.safetensors + gpt2/config.json: GPT-2's Hugging Face names and layout
  (wte, wpe, h.N.ln_1, h.N.attn.c_attn packed [in, 3*out] as Conv1D stores it,
  h.N.attn.c_proj, h.N.ln_2, h.N.mlp.c_fc, h.N.mlp.c_proj, ln_f) for d_model 8, 2 heads,
  3 layers, a vocabulary of 50 and a context of 16, float32;
- gpt2-bare/model.safetensors, no config.json: d_model 24, 1 layer, so that n_head
  takes GPT-2's default 12;
- llama/model.safetensors + llama/config.json: LLaMA's names (model.embed_tokens,
  model.layers.N.input_layernorm, self_attn.q_proj/k_proj/v_proj/o_proj in torch's
  [out, in], post_attention_layernorm, mlp.gate_proj/up_proj/down_proj, model.norm,
  lm_head) for hidden 8, 2 heads sharing 1 K/V head, 3 layers, intermediate 16, float32;
- expected.txt: for the ids below, each model's input X of every layer and its output Y
  (the last layer's after the final norm), one float.hex() per value, row-major, after a
  line "MODEL LAYER X|Y ROWS COLS".

The re-implementation is written from the models' own definitions (Hugging Face's
GPT2Block and LlamaDecoderLayer), in torch float64, with none of attnstep's code:
GPT-2: x + attn(LayerNorm(x)), then + mlp(LayerNorm(.)), GELU tanh, causal softmax of
QK^T/sqrt(d_k), eps 1e-5; LLaMA: RMSNorm (eps from config), RoPE by rotate_half with
positions 0..n-1, grouped K/V repeated per query head, SwiGLU down(silu(gate) * up).
"""
import json
import os
import struct

import numpy as np
import torch
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
IDS = [5, 17, 3, 42]
rng = np.random.default_rng(20261203)


def path(*p):
    return os.path.join(HERE, *p)


def write_safetensors(file, tensors):
    """tensors: [(name, float32 array)] in file order, as safetensors writes them."""
    header, data, off = {}, b"", 0
    for name, a in tensors:
        b = np.ascontiguousarray(a, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [off, off + len(b)]}
        data += b
        off += len(b)
    header["__metadata__"] = {"format": "pt"}
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)
    os.makedirs(os.path.dirname(file), exist_ok=True)
    with open(file, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + data)


def rand(*shape, scale=0.5, around=0.0):
    return (around + scale * rng.standard_normal(shape)).astype(np.float32)


# ---------------------------------------------------------------- GPT-2 ----

def gpt2_tensors(d, layers, vocab=50, ctx=16):
    t = [("wte.weight", rand(vocab, d)), ("wpe.weight", rand(ctx, d, scale=0.2))]
    for n in range(layers):
        h = "h.%d." % n
        t += [(h + "ln_1.weight", rand(d, scale=0.2, around=1.0)), (h + "ln_1.bias", rand(d, scale=0.1)),
              (h + "attn.c_attn.weight", rand(d, 3 * d)), (h + "attn.c_attn.bias", rand(3 * d, scale=0.1)),
              (h + "attn.c_proj.weight", rand(d, d)), (h + "attn.c_proj.bias", rand(d, scale=0.1)),
              (h + "ln_2.weight", rand(d, scale=0.2, around=1.0)), (h + "ln_2.bias", rand(d, scale=0.1)),
              (h + "mlp.c_fc.weight", rand(d, 4 * d)), (h + "mlp.c_fc.bias", rand(4 * d, scale=0.1)),
              (h + "mlp.c_proj.weight", rand(4 * d, d)), (h + "mlp.c_proj.bias", rand(d, scale=0.1))]
    t += [("ln_f.weight", rand(d, scale=0.2, around=1.0)), ("ln_f.bias", rand(d, scale=0.1))]
    return t


def gpt2_run(tensors, heads, layers):
    """Every layer's input X and output Y, GPT-2's way (Hugging Face GPT2Block)."""
    w = {k: torch.tensor(v, dtype=torch.float64) for k, v in tensors}
    n = len(IDS)
    x = w["wte.weight"][IDS] + w["wpe.weight"][:n]
    d = x.shape[1]
    dk = d // heads
    out = []
    for L in range(layers):
        h = "h.%d." % L
        x_in = x
        a = F.layer_norm(x, (d,), w[h + "ln_1.weight"], w[h + "ln_1.bias"], eps=1e-5)
        qkv = a @ w[h + "attn.c_attn.weight"] + w[h + "attn.c_attn.bias"]  # Conv1D: x @ W + b
        q, k, v = qkv.split(d, dim=1)
        q, k, v = (t.view(n, heads, dk).transpose(0, 1) for t in (q, k, v))
        s = q @ k.transpose(1, 2) / dk ** 0.5
        s = s.masked_fill(torch.triu(torch.ones(n, n, dtype=torch.bool), 1), float("-inf"))
        o = (torch.softmax(s, dim=-1) @ v).transpose(0, 1).reshape(n, d)
        x = x + o @ w[h + "attn.c_proj.weight"] + w[h + "attn.c_proj.bias"]
        m = F.layer_norm(x, (d,), w[h + "ln_2.weight"], w[h + "ln_2.bias"], eps=1e-5)
        f = F.gelu(m @ w[h + "mlp.c_fc.weight"] + w[h + "mlp.c_fc.bias"], approximate="tanh")
        x = x + f @ w[h + "mlp.c_proj.weight"] + w[h + "mlp.c_proj.bias"]
        y = x
        if L == layers - 1:
            y = F.layer_norm(x, (d,), w["ln_f.weight"], w["ln_f.bias"], eps=1e-5)
        out.append((x_in, y))
    return out


# ---------------------------------------------------------------- LLaMA ----

def llama_tensors(d, heads, kv, layers, ff, vocab=50):
    hd = d // heads
    t = [("model.embed_tokens.weight", rand(vocab, d))]
    for n in range(layers):
        p = "model.layers.%d." % n
        t += [(p + "input_layernorm.weight", rand(d, scale=0.2, around=1.0)),
              (p + "self_attn.q_proj.weight", rand(heads * hd, d)),
              (p + "self_attn.k_proj.weight", rand(kv * hd, d)),
              (p + "self_attn.v_proj.weight", rand(kv * hd, d)),
              (p + "self_attn.o_proj.weight", rand(d, heads * hd)),
              (p + "post_attention_layernorm.weight", rand(d, scale=0.2, around=1.0)),
              (p + "mlp.gate_proj.weight", rand(ff, d)),
              (p + "mlp.up_proj.weight", rand(ff, d)),
              (p + "mlp.down_proj.weight", rand(d, ff))]
    t += [("model.norm.weight", rand(d, scale=0.2, around=1.0)), ("lm_head.weight", rand(vocab, d))]
    return t


def rms_norm(x, g, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * g


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def llama_run(tensors, heads, kv, layers, eps, theta):
    """Every layer's input X and output Y, LLaMA's way (Hugging Face LlamaDecoderLayer)."""
    w = {k: torch.tensor(v, dtype=torch.float64) for k, v in tensors}
    n = len(IDS)
    x = w["model.embed_tokens.weight"][IDS]
    d = x.shape[1]
    hd = d // heads
    inv_freq = 1.0 / theta ** (torch.arange(0, hd, 2, dtype=torch.float64) / hd)
    freqs = torch.outer(torch.arange(n, dtype=torch.float64), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    cos, sin = emb.cos(), emb.sin()
    out = []
    for L in range(layers):
        p = "model.layers.%d." % L
        x_in = x
        a = rms_norm(x, w[p + "input_layernorm.weight"], eps)
        q = (a @ w[p + "self_attn.q_proj.weight"].T).view(n, heads, hd).transpose(0, 1)
        k = (a @ w[p + "self_attn.k_proj.weight"].T).view(n, kv, hd).transpose(0, 1)
        v = (a @ w[p + "self_attn.v_proj.weight"].T).view(n, kv, hd).transpose(0, 1)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        k = k.repeat_interleave(heads // kv, dim=0)
        v = v.repeat_interleave(heads // kv, dim=0)
        s = q @ k.transpose(1, 2) / hd ** 0.5
        s = s.masked_fill(torch.triu(torch.ones(n, n, dtype=torch.bool), 1), float("-inf"))
        o = (torch.softmax(s, dim=-1) @ v).transpose(0, 1).reshape(n, heads * hd)
        x = x + o @ w[p + "self_attn.o_proj.weight"].T
        m = rms_norm(x, w[p + "post_attention_layernorm.weight"], eps)
        f = F.silu(m @ w[p + "mlp.gate_proj.weight"].T) * (m @ w[p + "mlp.up_proj.weight"].T)
        x = x + f @ w[p + "mlp.down_proj.weight"].T
        y = x
        if L == layers - 1:
            y = rms_norm(x, w["model.norm.weight"], eps)
        out.append((x_in, y))
    return out


def main():
    lines = ["# each model's X and Y of every layer for ids %s, torch float64 (gen_models.py)"
             % " ".join(map(str, IDS))]

    def put(model, runs):
        for L, (x, y) in enumerate(runs):
            for what, m in (("X", x), ("Y", y)):
                lines.append("%s %d %s %d %d" % (model, L, what, m.shape[0], m.shape[1]))
                lines.extend(float(v).hex() for v in m.reshape(-1).tolist())

    t = gpt2_tensors(8, 3)
    write_safetensors(path("gpt2", "model.safetensors"), t)
    with open(path("gpt2", "config.json"), "w") as c:
        json.dump({"model_type": "gpt2", "n_embd": 8, "n_head": 2, "n_layer": 3, "n_positions": 16,
                   "vocab_size": 50, "layer_norm_epsilon": 1e-05}, c, indent=2)
    put("gpt2", gpt2_run(t, 2, 3))

    t = gpt2_tensors(24, 1)
    write_safetensors(path("gpt2-bare", "model.safetensors"), t)
    put("gpt2-bare", gpt2_run(t, 12, 1))

    t = llama_tensors(8, 2, 1, 3, 16)
    write_safetensors(path("llama", "model.safetensors"), t)
    with open(path("llama", "config.json"), "w") as c:
        json.dump({"model_type": "llama", "hidden_size": 8, "num_attention_heads": 2,
                   "num_key_value_heads": 1, "num_hidden_layers": 3, "intermediate_size": 16,
                   "rms_norm_eps": 1e-06, "rope_theta": 10000.0, "vocab_size": 50,
                   "rope_scaling": None}, c, indent=2)
    put("llama", llama_run(t, 2, 1, 3, 1e-6, 10000.0))

    with open(path("expected.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


main()
