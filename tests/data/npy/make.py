#!/usr/bin/python3
"""Makes the binary weight files of issue 32 (SPEC section 16) and what numpy holds in
them. Run once by hand with Debian's python3-numpy (apt-get install python3-numpy); the
tests read the files it wrote and do not need Python:

    /usr/bin/python3 tests/data/npy/make.py

It writes, beside itself:
- m_<dtype>_v<version>_<C|F>.npy: one 3x4 matrix in each dtype read (<f8 >f8 <f4 >f4 <f2
  >f2), each npy format version (1.0, 2.0, 3.0, written with numpy.lib.format) and order
  (C, Fortran); the values are random, with the float16 corner cases (subnormals, -0,
  the largest half) among them;
- row_f4.npy: a 1-D array (5,), which load() reads as one row;
- i8.npy, cube.npy, scalar.npy: an integer array, a 3-D one and a 0-D one (errors);
- w.npz (numpy.savez: wq float64, wk float32, b float16) and w_compressed.npz
  (numpy.savez_compressed: an error);
- dtypes.safetensors: one small tensor in each of F64, F32, F16, BF16 (numpy has no
  bfloat16: its bytes are the top halves of float32 values, whose value is that of the
  float32 with the low half zero), with __metadata__;
- gpt2.safetensors, llama.safetensors (+ llama-config.json): the tensor names and shapes
  of GPT-2 (Conv1D weights [in, out], packed c_attn) and of LLaMA (torch [out, in],
  grouped K/V) for a small configuration, random float32 / float16 values;
- <file>.values: for every tensor of every file, what numpy holds after widening to
  float64, one float.hex() per element in row-major order, after a line
  "<tensor name or -> <shape>";
- x.npy and the text files (numpy.savetxt, "%.18e", which reads back to the same
  double) of the run that tests/test_tensor.c compares, byte for byte, with the run from
  the binary files: gpt2-text/*.txt holding c_attn's columns for Wq, Wk and Wv, c_proj
  as Wo, and the biases, saved separately from numpy's own slices.
"""
import json
import os
import struct

import numpy as np
from numpy.lib import format as npf

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(20261202)
values = {}  # file -> [(name, array as float64)]


def path(name):
    return os.path.join(HERE, name)


def record(fname, name, a):
    values.setdefault(fname, []).append((name, np.asarray(a, dtype=np.float64)))


def matrix(dtype):
    a = rng.standard_normal((3, 4)) * 3
    if np.dtype(dtype).itemsize == 2:  # the corners of float16
        a.flat[0] = 2.0 ** -24          # the smallest subnormal
        a.flat[1] = -(2.0 ** -20) * 3   # another subnormal
        a.flat[2] = -0.0
        a.flat[3] = 65504.0             # the largest half
    return a.astype(dtype)


def npy_files():
    for dt in ["<f8", ">f8", "<f4", ">f4", "<f2", ">f2"]:
        for version in [(1, 0), (2, 0), (3, 0)]:
            for order in "CF":
                a = matrix(dt)
                a = np.asfortranarray(a) if order == "F" else np.ascontiguousarray(a)
                name = "m_%s%s_v%d_%s.npy" % ("le" if dt[0] == "<" else "be", dt[1:],
                                              version[0], order)
                with open(path(name), "wb") as f:
                    npf.write_array(f, a, version=version)
                back = np.load(path(name))
                assert back.dtype == np.dtype(dt) and back.flags.f_contiguous == (order == "F")
                record(name, "-", back)
    r = rng.standard_normal(5).astype("<f4")
    np.save(path("row_f4.npy"), r)
    record("row_f4.npy", "-", np.load(path("row_f4.npy")))
    np.save(path("i8.npy"), np.arange(6, dtype="<i8").reshape(2, 3))
    np.save(path("cube.npy"), np.zeros((2, 2, 2)))
    np.save(path("scalar.npy"), np.float64(1.5))


def npz_files():
    wq = rng.standard_normal((2, 3))
    wk = rng.standard_normal((2, 3)).astype(np.float32)
    b = rng.standard_normal(3).astype(np.float16)
    np.savez(path("w.npz"), wq=wq, wk=wk, b=b)
    np.savez_compressed(path("w_compressed.npz"), wq=wq)
    with np.load(path("w.npz")) as z:
        for k in ["wq", "wk", "b"]:
            record("w.npz", k, z[k])


def safetensors(fname, tensors, metadata=None):
    """tensors: [(name, dtype name, shape, raw little-endian bytes)]"""
    header, data = {}, b""
    for name, dt, shape, raw in tensors:
        header[name] = {"dtype": dt, "shape": list(shape),
                        "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    if metadata is not None:
        header["__metadata__"] = metadata
    h = json.dumps(header, separators=(",", ":")).encode()
    h += b" " * (-len(h) % 8)  # the safetensors library pads the header to 8 bytes
    with open(path(fname), "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + data)


def st_tensor(fname, name, a, dt):
    np_dt = {"F64": "<f8", "F32": "<f4", "F16": "<f2"}[dt]
    a = np.ascontiguousarray(a.astype(np_dt))
    record(fname, name, a)
    return (name, dt, a.shape, a.tobytes())


def bf16_tensor(fname, name, shape):
    top = (rng.standard_normal(shape).astype("<f4").view("<u4") >> 16).astype("<u2")
    top.flat[0] = 0x0001  # a bfloat16 subnormal: 2^-133
    as_f32 = (top.astype("<u4") << 16).view("<f4")  # the value each bfloat16 denotes
    record(fname, name, as_f32)
    return (name, "BF16", shape, top.tobytes())


def dtype_file():
    f = "dtypes.safetensors"
    safetensors(f, [st_tensor(f, "f64", rng.standard_normal((2, 3)), "F64"),
                    st_tensor(f, "f32", rng.standard_normal((3, 2)), "F32"),
                    st_tensor(f, "f16", rng.standard_normal(4), "F16"),
                    bf16_tensor(f, "bf16", (2, 2))],
                {"format": "pt", "made_by": "tests/data/npy/make.py"})


D, HEADS, LAYERS, VOCAB, CTX, FF = 8, 2, 2, 50, 16, 32


def gpt2_file():
    f, t = "gpt2.safetensors", []
    g = lambda *s: rng.standard_normal(s) * 0.5
    t.append(st_tensor(f, "wte.weight", g(VOCAB, D), "F32"))
    t.append(st_tensor(f, "wpe.weight", g(CTX, D), "F32"))
    for n in range(LAYERS):
        p = "h.%d." % n
        for name, shape in [("ln_1.weight", (D,)), ("ln_1.bias", (D,)),
                            ("attn.c_attn.weight", (D, 3 * D)), ("attn.c_attn.bias", (3 * D,)),
                            ("attn.c_proj.weight", (D, D)), ("attn.c_proj.bias", (D,)),
                            ("ln_2.weight", (D,)), ("ln_2.bias", (D,)),
                            ("mlp.c_fc.weight", (D, FF)), ("mlp.c_fc.bias", (FF,)),
                            ("mlp.c_proj.weight", (FF, D)), ("mlp.c_proj.bias", (D,))]:
            t.append(st_tensor(f, p + name, g(*shape), "F32"))
    t.append(st_tensor(f, "ln_f.weight", g(D), "F32"))
    t.append(st_tensor(f, "ln_f.bias", g(D), "F32"))
    safetensors(f, t, {"format": "pt"})
    with open(path("gpt2-config.json"), "w") as c:
        json.dump({"model_type": "gpt2", "n_embd": D, "n_head": HEADS, "n_layer": LAYERS,
                   "n_positions": CTX, "vocab_size": VOCAB, "layer_norm_epsilon": 1e-5}, c)


def llama_file():
    f, t, kv, hd = "llama.safetensors", [], 1, D // HEADS
    g = lambda *s: rng.standard_normal(s) * 0.5
    t.append(st_tensor(f, "model.embed_tokens.weight", g(VOCAB, D), "F16"))
    for n in range(LAYERS):
        p = "model.layers.%d." % n
        for name, shape in [("input_layernorm.weight", (D,)),
                            ("self_attn.q_proj.weight", (HEADS * hd, D)),
                            ("self_attn.k_proj.weight", (kv * hd, D)),
                            ("self_attn.v_proj.weight", (kv * hd, D)),
                            ("self_attn.o_proj.weight", (D, HEADS * hd)),
                            ("post_attention_layernorm.weight", (D,)),
                            ("mlp.gate_proj.weight", (FF, D)), ("mlp.up_proj.weight", (FF, D)),
                            ("mlp.down_proj.weight", (D, FF))]:
            t.append(st_tensor(f, p + name, g(*shape), "F16"))
    t.append(st_tensor(f, "model.norm.weight", g(D), "F16"))
    t.append(st_tensor(f, "lm_head.weight", g(VOCAB, D), "F16"))
    safetensors(f, t, {"format": "pt"})
    with open(path("llama-config.json"), "w") as c:
        json.dump({"model_type": "llama", "hidden_size": D, "num_attention_heads": HEADS,
                   "num_key_value_heads": kv, "num_hidden_layers": LAYERS,
                   "intermediate_size": FF, "rms_norm_eps": 1e-6, "rope_theta": 10000.0,
                   "vocab_size": VOCAB}, c)


def gpt2_text():
    """The layer-0 attention of gpt2.safetensors as numpy.savetxt files, each table saved
    from numpy's own slice of c_attn (not through attnstep's slices)."""
    os.makedirs(path("gpt2-text"), exist_ok=True)
    x = rng.standard_normal((4, D))
    np.save(path("x.npy"), x)
    np.savetxt(path("gpt2-text/x.txt"), x)
    held = dict(values["gpt2.safetensors"])
    ca, cb = held["h.0.attn.c_attn.weight"], held["h.0.attn.c_attn.bias"]
    for i, w in enumerate("qkv"):
        np.savetxt(path("gpt2-text/w%s.txt" % w), ca[:, i * D:(i + 1) * D])
        np.savetxt(path("gpt2-text/b%s.txt" % w), cb[i * D:(i + 1) * D])
    np.savetxt(path("gpt2-text/wo.txt"), held["h.0.attn.c_proj.weight"])
    np.savetxt(path("gpt2-text/bo.txt"), held["h.0.attn.c_proj.bias"])


def write_values():
    for fname, items in values.items():
        with open(path(fname + ".values"), "w") as out:
            out.write("# what numpy holds in %s, widened to float64 (tests/data/npy/make.py)\n"
                      % fname)
            for name, a in items:
                out.write("%s %s\n" % (name, " ".join(str(d) for d in a.shape) or "-"))
                out.write("\n".join(float(v).hex() for v in np.ravel(a, order="C")) + "\n")


npy_files()
npz_files()
dtype_file()
gpt2_file()
llama_file()
gpt2_text()
write_values()
