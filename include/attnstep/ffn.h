/* ffn.h - the feed-forward network's activations and the residual add of a transformer
 * block (SPEC §15): pure functions over count values, outputs first; out may be in. */
#ifndef ATTNSTEP_FFN_H
#define ATTNSTEP_FFN_H

#include <stddef.h>

/* ffn: the activation between the FFN's two projections, or no FFN sublayer at all. */
typedef enum as_ffn_kind {
    AS_FFN_GELU_TANH = 0, AS_FFN_GELU, AS_FFN_RELU, AS_FFN_SWIGLU, AS_FFN_NONE
} as_ffn_kind;

/* out[i] = max(0, in[i]). */
void as_relu(double *out, const double *in, size_t count);

/* out[i] = x/2 · (1 + erf(x/√2)): GELU exactly (torch's GELU(approximate='none')). */
void as_gelu_erf(double *out, const double *in, size_t count);

/* out[i] = x/2 · (1 + tanh(√(2/π)·(x + 0.044715·x³))): GPT-2's approximation
 * (torch's GELU(approximate='tanh')). */
void as_gelu_tanh(double *out, const double *in, size_t count);

/* out[i] = x / (1 + e^(−x)): SiLU, the gate of SwiGLU (torch's F.silu). */
void as_silu(double *out, const double *in, size_t count);

/* out[i] = a[i] · b[i]: SwiGLU's F = G ⊙ U. */
void as_hadamard(double *out, const double *a, const double *b, size_t count);

/* out[i] = a[i] + b[i]: the residual H = X + O (out may be a or b). */
void as_residual_add(double *out, const double *a, const double *b, size_t count);

/* The activation of kind (relu, gelu, gelu_tanh; swiglu's is silu) applied to count
 * values. AS_FFN_NONE copies. */
void as_ffn_activate(double *out, const double *in, size_t count, as_ffn_kind kind);

#endif
