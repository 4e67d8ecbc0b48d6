/* preset.h - `model: "FILE" layer N` with `preset: gpt2|llama` (SPEC §16): a model's
 * Hugging Face tensor names mapped onto the block's tables (SPEC §15), its conventions
 * as settings, and a config.json beside the file read for the numbers it holds. */
#ifndef ATTNSTEP_PRESET_H
#define ATTNSTEP_PRESET_H

#include <stddef.h>

#include "attnstep/error.h"
#include "attnstep/load.h"
#include "attnstep/input.h"
#include "attnstep/tensorfile.h"

/* What a config.json beside the model gives (each field with set nonzero when given). */
typedef struct as_model_config {
    int found;                    /* nonzero when there is a config.json */
    size_t heads, kv_heads, layers;
    int heads_set, kv_heads_set, layers_set;
    double eps, rope_base;
    int eps_set, rope_base_set;
} as_model_config;

/* The preset's name ("gpt2", "llama"), for messages. */
const char *as_preset_name(as_preset preset);

/* Reads the config.json in the folder of model_path into c (all zero when there is
 * none), errors at where. 0, or -1 with err set (a value that is not a number). */
int as_preset_config(as_model_config *c, const char *model_path, as_tensor_where where);

/* The layers of in's model: config.json's count when it gives one, else the layers the
 * file holds (counted by the preset's names); a file that holds no layer by those names
 * is an error that says so. 0 with *layers set, or -1 with err set. */
int as_preset_layers(const as_input *in, const as_model_config *c, size_t *layers,
                     as_error *err);

/* Loads layer `layer` of in's model into in's tables that given[] leaves free (given[id]
 * nonzero: the file wrote it, and it wins), by the preset's names: its norms, its
 * attention (GPT-2's packed c_attn split into Wq, Wk, Wv and their biases), its FFN, and
 * with final nonzero the final norm as lnf. E and P, when free and want_embedding is
 * nonzero, are only indexed: refs[0], refs[1] get their places (as_load_ref) and the
 * tables their shapes, for the rows ids take to be read later. 0, or -1 with err set
 * at the model's place in the input. */
int as_preset_load(as_input *in, size_t layer, int final, const int given[AS_NMAT],
                   int want_embedding, as_load_ref refs[2], as_error *err);

/* A layer before the walked one, as its own input: *li shares in's settings, labels and
 * X (borrowed: not freed), with layer `layer`'s own tables loaded from in's model.
 * Free it with as_preset_layer_free(), never as_input_free(). 0, or -1 with err set. */
int as_preset_layer(as_input *li, const as_input *in, size_t layer, as_error *err);

/* Frees the tables as_preset_layer() loaded into li and leaves it empty. */
void as_preset_layer_free(as_input *li);

#endif
