/* preset.c - `model: "FILE" layer N` with `preset: gpt2|llama` (SPEC §16): which tensor
 * of a Hugging Face checkpoint is which table of the block, and the numbers a config.json
 * beside the file gives. The settings a preset implies are parse.c's (it knows which the
 * file wrote); the tensors are read here, through the binary readers of tensor.c. */
#include "attnstep/preset.h"
#include "attnstep/lex.h"
#include "attnstep/tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ the names ---- */

/* One table of a model: its tensor's name (%zu: the layer) and, for GPT-2's packed
 * c_attn, which third of its columns (0 Q, 1 K, 2 V; -1 the whole tensor). */
typedef struct slot {
    as_mat_id id;
    const char *name;
    int third;
} slot;

static const slot gpt2_layer[] = {
    {AS_LN1_G, "h.%zu.ln_1.weight", -1},       {AS_LN1_B, "h.%zu.ln_1.bias", -1},
    {AS_WQ, "h.%zu.attn.c_attn.weight", 0},    {AS_WK, "h.%zu.attn.c_attn.weight", 1},
    {AS_WV, "h.%zu.attn.c_attn.weight", 2},    {AS_BQ, "h.%zu.attn.c_attn.bias", 0},
    {AS_BK, "h.%zu.attn.c_attn.bias", 1},      {AS_BV, "h.%zu.attn.c_attn.bias", 2},
    {AS_WO, "h.%zu.attn.c_proj.weight", -1},   {AS_BO, "h.%zu.attn.c_proj.bias", -1},
    {AS_LN2_G, "h.%zu.ln_2.weight", -1},       {AS_LN2_B, "h.%zu.ln_2.bias", -1},
    {AS_WUP, "h.%zu.mlp.c_fc.weight", -1},     {AS_BUP, "h.%zu.mlp.c_fc.bias", -1},
    {AS_WDOWN, "h.%zu.mlp.c_proj.weight", -1}, {AS_BDOWN, "h.%zu.mlp.c_proj.bias", -1},
};
static const slot gpt2_final[] = {{AS_LNF_G, "ln_f.weight", -1}, {AS_LNF_B, "ln_f.bias", -1}};
static const slot gpt2_embed[] = {{AS_E, "wte.weight", -1}, {AS_P, "wpe.weight", -1}};

static const slot llama_layer[] = {
    {AS_LN1_G, "model.layers.%zu.input_layernorm.weight", -1},
    {AS_WQ, "model.layers.%zu.self_attn.q_proj.weight", -1},
    {AS_WK, "model.layers.%zu.self_attn.k_proj.weight", -1},
    {AS_WV, "model.layers.%zu.self_attn.v_proj.weight", -1},
    {AS_WO, "model.layers.%zu.self_attn.o_proj.weight", -1},
    {AS_LN2_G, "model.layers.%zu.post_attention_layernorm.weight", -1},
    {AS_WGATE, "model.layers.%zu.mlp.gate_proj.weight", -1},
    {AS_WUP, "model.layers.%zu.mlp.up_proj.weight", -1},
    {AS_WDOWN, "model.layers.%zu.mlp.down_proj.weight", -1},
};
static const slot llama_final[] = {{AS_LNF_G, "model.norm.weight", -1}};
static const slot llama_embed[] = {{AS_E, "model.embed_tokens.weight", -1}};

/* A family's tables; alt is a prefix its names may also carry ("transformer.h.0…", as
 * GPT2LMHeadModel saves them), or NULL. */
typedef struct family {
    const slot *layer, *final, *embed;
    size_t n_layer, n_final, n_embed;
    const char *alt;
} family;

#define N(a) (sizeof a / sizeof a[0])
static const family families[] = {
    {gpt2_layer, gpt2_final, gpt2_embed, N(gpt2_layer), N(gpt2_final), N(gpt2_embed), "transformer."},
    {llama_layer, llama_final, llama_embed, N(llama_layer), N(llama_final), N(llama_embed), NULL},
};

static const family *family_of(as_preset preset)
{
    return &families[preset == AS_PRESET_LLAMA];
}

const char *as_preset_name(as_preset preset)
{
    return preset == AS_PRESET_LLAMA ? "llama" : preset == AS_PRESET_GPT2 ? "gpt2" : "none";
}

/* ------------------------------------------------------------------ finding tensors ---- */

/* The tensor name of f, or alt + name; NULL (no error set) when neither is there. */
static const as_tensor *quiet_find(const as_tensor_file *f, const family *fam, const char *name)
{
    const size_t alt = fam->alt != NULL ? strlen(fam->alt) : 0;
    size_t i;

    for (i = 0; i < f->n; i++)
        if (strcmp(f->t[i].name, name) == 0 ||
            (alt > 0 && strncmp(f->t[i].name, fam->alt, alt) == 0 && strcmp(f->t[i].name + alt, name) == 0))
            return &f->t[i];
    return NULL;
}

/* The tensor of slot sl for layer into name[size] and its tensor; NULL with the error
 * set (naming what the file holds) when the file lacks it. */
static const as_tensor *find(as_tensor_file *f, const family *fam, const slot *sl, size_t layer,
                             char *name, size_t size)
{
    const as_tensor *t;

    snprintf(name, size, sl->name, layer);
    if ((t = quiet_find(f, fam, name)) == NULL)
        t = as_tensor_find(f, name, strlen(name)); /* not there: its message, its hint */
    return t;
}

/* Reads slot sl of layer from f into m (fresh), or, with ref, only its place and shape.
 * 0, or -1 with the error set. */
static int load_slot(as_tensor_file *f, const family *fam, const slot *sl, size_t layer,
                     as_matrix *m, as_load_ref *ref, as_pos at)
{
    char name[160], shape[64];
    const as_tensor *t = find(f, fam, sl, layer, name, sizeof name);
    as_tensor_slice s;
    uint64_t rows, cols;
    double *v;

    if (t == NULL || as_tensor_matrix_shape(f, t, &rows, &cols) != 0)
        return -1;
    s = (as_tensor_slice){0, rows, 0, cols};
    if (sl->third >= 0) { /* GPT-2's c_attn: [Q | K | V] side by side */
        if (cols % 3 != 0) {
            as_tensor_shape_text(shape, sizeof shape, t);
            return as_tensor_fail(f, t->name, t->header, AS_MSG_PRE_PACKED_HINT, AS_MSG_PRE_PACKED,
                                  shape);
        }
        s.c0 = (uint64_t)sl->third * (cols / 3);
        s.c1 = s.c0 + cols / 3;
    }
    if (ref != NULL) {
        memset(ref, 0, sizeof *ref);
        ref->path = malloc(strlen(f->path) + 1);
        ref->member = malloc(strlen(t->name) + 1);
        if (ref->path == NULL || ref->member == NULL) {
            as_load_ref_free(ref);
            return as_tensor_fail(f, NULL, AS_TENSOR_NO_BYTE, AS_MSG_COUNT, AS_MSG_RD_OUT_OF_MEMORY);
        }
        strcpy(ref->path, f->path);
        strcpy(ref->member, t->name);
        ref->member_n = strlen(t->name);
        ref->rows = (size_t)rows, ref->cols = (size_t)cols;
        ref->at = at;
        m->rows = (size_t)rows, m->cols = (size_t)cols, m->v = NULL;
        return 0;
    }
    if (as_tensor_read(f, t, s, 0, &v) != 0)
        return -1;
    m->v = v;
    m->rows = (size_t)(s.r1 - s.r0);
    m->cols = (size_t)(s.c1 - s.c0);
    return 0;
}

/* Loads the slots sl[0..n) of layer into in's tables that given leaves free. */
static int load_slots(as_tensor_file *f, const family *fam, const slot *sl, size_t n, size_t layer,
                      as_input *in, const int given[AS_NMAT], as_load_ref *refs)
{
    size_t k;

    for (k = 0; k < n; k++) {
        as_named *nm = &in->mat[sl[k].id];
        if (given[sl[k].id])
            continue;
        if (load_slot(f, fam, &sl[k], layer, &nm->m, refs ? &refs[sl[k].id - AS_E] : NULL,
                      in->model.pos) != 0)
            return -1;
        nm->given = 1;
        nm->pos = in->model.pos;
    }
    return 0;
}

static as_tensor_where where_of(const as_input *in, as_error *err)
{
    const as_tensor_where w = {err, in->path, in->model.pos.line, in->model.pos.col};
    return w;
}

int as_preset_load(as_input *in, size_t layer, int final, const int given[AS_NMAT],
                   int want_embedding, as_load_ref refs[2], as_error *err)
{
    const family *fam = family_of(in->model.preset);
    as_tensor_file f;
    int rc;

    if (as_tensor_open_path(&f, in->model.path, where_of(in, err)) != 0)
        return -1;
    rc = load_slots(&f, fam, fam->layer, fam->n_layer, layer, in, given, NULL);
    if (rc == 0 && final)
        rc = load_slots(&f, fam, fam->final, fam->n_final, layer, in, given, NULL);
    if (rc == 0 && want_embedding)
        rc = load_slots(&f, fam, fam->embed, fam->n_embed, layer, in, given, refs);
    as_tensor_close(&f);
    return rc;
}

int as_preset_layers(const as_input *in, const as_model_config *c, size_t *layers, as_error *err)
{
    const family *fam = family_of(in->model.preset);
    as_tensor_file f;
    char name[160];

    if (as_tensor_open_path(&f, in->model.path, where_of(in, err)) != 0)
        return -1;
    for (*layers = 0;; ++*layers) { /* h.0.ln_1.weight, h.1.ln_1.weight, …: the layers held */
        snprintf(name, sizeof name, fam->layer[0].name, *layers);
        if (quiet_find(&f, fam, name) == NULL)
            break;
    }
    if (*layers == 0) {
        snprintf(name, sizeof name, fam->layer[0].name, (size_t)0);
        as_tensor_fail(&f, NULL, AS_TENSOR_NO_BYTE, AS_MSG_COUNT, AS_MSG_PRE_NO_LAYERS,
                       as_preset_name(in->model.preset), name);
        as_error_hint_msg(err, AS_MSG_PRE_NO_LAYERS_HINT, in->model.path);
    }
    as_tensor_close(&f);
    if (*layers > 0 && c->layers_set)
        *layers = c->layers; /* config.json's: a file may hold only some of them */
    return *layers == 0 ? -1 : 0;
}

/* ------------------------------------------------------------------ the layers before ---- */

int as_preset_layer(as_input *li, const as_input *in, size_t layer, as_error *err)
{
    const family *fam = family_of(in->model.preset);
    static const int none[AS_NMAT];
    size_t k;

    *li = *in; /* shares everything, X included; only the layer's own tables are its */
    for (k = 0; k < fam->n_layer; k++)
        memset(&li->mat[fam->layer[k].id], 0, sizeof li->mat[0]);
    for (k = 0; k < fam->n_final; k++)
        memset(&li->mat[fam->final[k].id], 0, sizeof li->mat[0]);
    if (as_preset_load(li, layer, 0, none, 0, NULL, err) != 0) {
        as_preset_layer_free(li);
        return -1;
    }
    return 0;
}

void as_preset_layer_free(as_input *li)
{
    const family *fam = family_of(li->model.preset);
    size_t k;

    for (k = 0; k < fam->n_layer; k++)
        as_matrix_free(&li->mat[fam->layer[k].id].m);
    memset(li, 0, sizeof *li);
}

/* ------------------------------------------------------------------ config.json ---- */

/* The value after "key": at the top level of the JSON text[0..len), or NULL. */
static const char *top_key(const char *text, size_t len, const char *key)
{
    const char *p = text, *end = text + len;
    const size_t n = strlen(key);
    int depth = 0;

    for (; p < end; p++) {
        if (*p == '{' || *p == '[')
            depth++;
        else if (*p == '}' || *p == ']')
            depth--;
        else if (*p == '"') {
            const char *s = ++p;
            while (p < end && *p != '"')
                p += *p == '\\' ? 2 : 1;
            if (p >= end)
                return NULL;
            if (depth == 1 && (size_t)(p - s) == n && memcmp(s, key, n) == 0) {
                const char *q = as_tensor_blanks(p + 1, end);
                if (q < end && *q == ':')
                    return as_tensor_blanks(q + 1, end);
            }
        }
    }
    return NULL;
}

/* The number after one of keys (the first that the text has) into *x: 1 when found, 0
 * when none is there, -1 when its value is no number (err set at where). */
static int config_number(const char *text, size_t len, const char *const *keys, size_t nkeys,
                         double *x, const char *path, as_tensor_where where)
{
    size_t k;
    char *stop;

    for (k = 0; k < nkeys; k++) {
        const char *v = top_key(text, len, keys[k]);
        if (v == NULL)
            continue;
        *x = strtod(v, &stop);
        if (stop == v) {
            as_error_msg(where.err, where.file, where.line, where.col, AS_MSG_PRE_CONFIG_VALUE, path,
                         keys[k]);
            as_error_hint_msg(where.err, AS_MSG_PRE_CONFIG_HINT);
            return -1;
        }
        return 1;
    }
    return 0;
}

/* A whole count of config.json (heads, layers) into *n and *set: 0 or -1. */
static int config_count(const char *text, size_t len, const char *const *keys, size_t nkeys,
                        size_t *n, int *set, const char *path, as_tensor_where where)
{
    double x = 0;
    const int rc = config_number(text, len, keys, nkeys, &x, path, where);

    if (rc == 1 && (x < 1 || x > AS_MAX_DIM || x != (double)(size_t)x)) {
        as_error_msg(where.err, where.file, where.line, where.col, AS_MSG_PRE_CONFIG_VALUE, path,
                     keys[0]);
        as_error_hint_msg(where.err, AS_MSG_PRE_CONFIG_HINT);
        return -1;
    }
    *set = rc == 1;
    *n = rc == 1 ? (size_t)x : 0;
    return rc < 0 ? -1 : 0;
}

int as_preset_config(as_model_config *c, const char *model_path, as_tensor_where where)
{
    static const char *const heads[] = {"n_head", "num_attention_heads"};
    static const char *const kv[] = {"num_key_value_heads"};
    static const char *const layers[] = {"n_layer", "num_hidden_layers"};
    static const char *const eps[] = {"layer_norm_epsilon", "rms_norm_eps"};
    static const char *const base[] = {"rope_theta"};
    const char *slash = strrchr(model_path, '/');
    const size_t dir = slash != NULL ? (size_t)(slash - model_path) + 1 : 0;
    char *path = malloc(dir + sizeof "config.json"), *text = NULL;
    size_t len = 0;
    int rc = -1;

    memset(c, 0, sizeof *c);
    if (path == NULL) {
        as_error_msg(where.err, where.file, where.line, where.col, AS_MSG_RD_OUT_OF_MEMORY);
        return -1;
    }
    memcpy(path, model_path, dir);
    strcpy(path + dir, "config.json");
    if (as_lex_read_file(path, 0, &text, &len) != 0) {
        free(path);
        return 0; /* none beside the model: the preset's own numbers */
    }
    c->found = 1;
    if (config_count(text, len, heads, 2, &c->heads, &c->heads_set, path, where) == 0 &&
        config_count(text, len, kv, 1, &c->kv_heads, &c->kv_heads_set, path, where) == 0 &&
        config_count(text, len, layers, 2, &c->layers, &c->layers_set, path, where) == 0 &&
        (c->eps_set = config_number(text, len, eps, 2, &c->eps, path, where)) >= 0 &&
        (c->rope_base_set = config_number(text, len, base, 1, &c->rope_base, path, where)) >= 0)
        rc = 0;
    free(text);
    free(path);
    return rc;
}
