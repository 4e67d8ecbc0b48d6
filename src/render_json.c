/* render_json.c - `run --format json` (SPEC §9): one object, round-trip numbers,
 * -inf as null. */
#include "attnstep/render.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>

/* A JSON string: quotes, backslashes and control characters escaped; UTF-8 as is. */
static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        const unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(out, "\\%c", c);
        else if (c < 0x20)
            fprintf(out, "\\u%04x", c);
        else
            fputc(c, out);
    }
    fputc('"', out);
}

static void json_number(FILE *out, double v)
{
    char buf[AS_NUM_BUF];

    if (!isfinite(v)) { /* only -inf reaches here (masked cells): JSON has no infinity */
        fputs("null", out);
        return;
    }
    as_fmt_roundtrip(buf, sizeof buf, v);
    fputs(buf, out);
}

static void json_matrix(FILE *out, const as_matrix *m)
{
    size_t i, j;

    fputc('[', out);
    for (i = 0; i < m->rows; i++) {
        fputs(i ? ",[" : "[", out);
        for (j = 0; j < m->cols; j++) {
            if (j)
                fputc(',', out);
            json_number(out, AS_AT(*m, i, j));
        }
        fputc(']', out);
    }
    fputc(']', out);
}

static void json_labels(FILE *out, const char *const *label, size_t count)
{
    size_t i;

    fputc('[', out);
    for (i = 0; i < count; i++) {
        if (i)
            fputc(',', out);
        json_string(out, label[i]);
    }
    fputc(']', out);
}

/* "key": value pairs, with the comma before all but the first. */
static void key(FILE *out, int *first, const char *name)
{
    fprintf(out, "%s\n  \"%s\": ", *first ? "" : ",", name);
    *first = 0;
}

static void inputs(FILE *out, const as_problem *p)
{
    size_t id;
    int first = 1;

    fputc('{', out);
    for (id = 0; id < AS_NMAT; id++) {
        if (!p->in->mat[id].given)
            continue;
        fprintf(out, "%s\"%s\": ", first ? "" : ", ", as_mat_name((as_mat_id)id));
        json_matrix(out, &p->in->mat[id].m);
        first = 0;
    }
    fputc('}', out);
}

static void head(FILE *out, const as_head_trace *h, int final, const as_render_opts *o)
{
    const as_matrix *m[] = {&h->Q, &h->K, &h->V, &h->QKT, &h->S, &h->A, &h->O};
    static const as_table t[] = {AS_T_Q, AS_T_K, AS_T_V, AS_T_QKT, AS_T_S, AS_T_A, AS_T_O};
    size_t i;
    int first = 1;

    fputc('{', out);
    for (i = 0; i < sizeof t / sizeof t[0]; i++) {
        if (!as_shows(o, t[i] == AS_T_O && !final ? AS_T_C : t[i]))
            continue; /* a head's O is the output only with one head and no Wo, else part of C */
        fprintf(out, "%s\"%s\": ", first ? "" : ", ", as_table_name(t[i]));
        json_matrix(out, m[i]);
        first = 0;
    }
    fputc('}', out);
}

static const char *mask_name(as_mask_kind k)
{
    return k == AS_MASK_CAUSAL ? "causal" : k == AS_MASK_NONE ? "none" : "custom";
}

int as_render_json(FILE *out, const as_problem *p, const as_trace *t, const as_render_opts *o)
{
    int first = 1;
    size_t h;

    fputc('{', out);
    key(out, &first, "title");
    if (p->in->title)
        json_string(out, p->in->title);
    else
        fputs("null", out);
    key(out, &first, "tokens");
    json_labels(out, p->tokens, p->n);
    key(out, &first, "kv_tokens");
    json_labels(out, p->kv_tokens, p->m);
    key(out, &first, "mask");
    json_string(out, mask_name(p->mask));
    fprintf(out, ",\n  \"num_heads\": %zu, \"d_k\": %zu, \"d_v\": %zu", p->heads, p->d_k, p->d_v);
    key(out, &first, "scale");
    json_number(out, p->scale);
    if (as_shows(o, AS_T_X) || as_shows(o, AS_T_W)) {
        key(out, &first, "inputs");
        inputs(out, p);
    }
    if (as_shows(o, AS_T_M)) {
        key(out, &first, "M");
        json_matrix(out, &p->M);
    }
    key(out, &first, "heads");
    fputc('[', out);
    for (h = 0; h < t->heads; h++) {
        fputs(h ? ",\n    " : "\n    ", out);
        head(out, &t->head[h], p->heads == 1 && p->Wo == NULL, o);
    }
    fputs("\n  ]", out);
    if (p->heads > 1 && as_shows(o, AS_T_C)) {
        key(out, &first, "C");
        json_matrix(out, &t->C);
    }
    if (as_shows(o, AS_T_O)) {
        key(out, &first, "O");
        json_matrix(out, &t->O);
    }
    fputs("\n}\n", out);
    return ferror(out) ? -1 : 0;
}
