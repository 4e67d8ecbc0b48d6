/* render_weights.c - the list of a weight file's tensors, as a user looks inside a
 * checkpoint before loading: name, dtype, shape and bytes, in aligned columns or JSON. */
#include "attnstep/render_weights.h"
#include "attnstep/lex.h"
#include "attnstep/render.h"
#include "attnstep/textblock.h"

#include <stdlib.h>
#include <string.h>

static const char *format_name(as_tensor_format f)
{
    return f == AS_TF_NPY ? "npy" : f == AS_TF_NPZ ? "npz" : "safetensors";
}

/* The cells of one line: name (quoted safe for a terminal), dtype, shape, bytes. */
typedef struct line { char cell[4][300]; } line;

static void cells_of(line *l, const as_tensor *t)
{
    as_lex_quote(l->cell[0], sizeof l->cell[0], t->name[0] ? t->name : "-",
                 t->name[0] ? strlen(t->name) : 1);
    snprintf(l->cell[1], sizeof l->cell[1], "%s", t->dtype_name);
    as_tensor_shape_text(l->cell[2], sizeof l->cell[2], t);
    snprintf(l->cell[3], sizeof l->cell[3], "%llu", (unsigned long long)t->bytes);
}

/* Writes the cells of l, each padded to its column's width w (the last not padded). */
static void put_line(FILE *out, const line *l, const size_t w[4])
{
    int i;

    for (i = 0; i < 4; i++)
        fprintf(out, i < 3 ? "%s%*s  " : "%s\n", l->cell[i],
                i < 3 ? (int)(w[i] - as_display_width(l->cell[i])) : 0, "");
}

int as_render_weights_text(FILE *out, const as_tensor_file *f, as_lang lang)
{
    line head, *l = malloc((f->n ? f->n : 1) * sizeof *l);
    size_t w[4] = {0, 0, 0, 0}, i, k;
    uint64_t total = 0;
    const char *tab;
    char *p, summary[256];
    int c;

    if (l == NULL)
        return -1;
    memset(&head, 0, sizeof head); /* the heading: the message's four words, split at tabs */
    for (c = 0, p = head.cell[0], tab = as_msg_text(lang, AS_MSG_WT_COLUMNS); *tab; tab++)
        if (*tab == '\t' && c < 3)
            p = head.cell[++c];
        else if (p - head.cell[c] < (long)sizeof head.cell[c] - 1)
            *p++ = *tab;
    for (i = 0; i <= f->n; i++) {
        const line *x = i < f->n ? (cells_of(&l[i], &f->t[i]), &l[i]) : &head;
        for (k = 0; k < 4; k++)
            if (as_display_width(x->cell[k]) > w[k])
                w[k] = as_display_width(x->cell[k]);
    }
    put_line(out, &head, w);
    for (i = 0; i < f->n; i++) {
        put_line(out, &l[i], w);
        total += f->t[i].bytes;
    }
    snprintf(summary, sizeof summary, as_msg_text(lang, AS_MSG_WT_SUMMARY), format_name(f->format),
             f->n, (unsigned long long)total);
    as_msg_singular(summary);
    fprintf(out, "%s\n", summary);
    free(l);
    return ferror(out) ? -1 : 0;
}

int as_render_weights_json(FILE *out, const as_tensor_file *f)
{
    size_t i, d;

    fputs("{\"file\": ", out);
    as_json_string(out, f->path);
    fprintf(out, ", \"format\": \"%s\", \"tensors\": [", format_name(f->format));
    for (i = 0; i < f->n; i++) {
        const as_tensor *t = &f->t[i];
        fputs(i ? ",\n  {\"name\": " : "\n  {\"name\": ", out);
        as_json_string(out, t->name);
        fputs(", \"dtype\": ", out);
        as_json_string(out, t->dtype_name);
        fputs(", \"shape\": [", out);
        for (d = 0; d < t->ndim; d++)
            fprintf(out, "%s%llu", d ? ", " : "", (unsigned long long)t->shape[d]);
        fprintf(out, "], \"offset\": %llu, \"bytes\": %llu}", (unsigned long long)t->offset,
                (unsigned long long)t->bytes);
    }
    fputs(f->n ? "\n]}\n" : "]}\n", out);
    return ferror(out) ? -1 : 0;
}
