/* cmd_compare.c - `attnstep compare BASE VARIANT` (SPEC §8): which inputs differ, what
 * each table did, and one sentence of why. */
#include "attnstep/check.h"
#include "attnstep/cli.h"
#include "attnstep/compare.h"
#include "attnstep/expand.h"
#include "attnstep/numfmt.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Appends count names to t as a list in the language: "V和O", "Q, K, QKᵀ, S and A". */
static void join(as_text *t, const char *const *names, size_t count, const as_render_opts *o)
{
    char shown[64];
    size_t i;

    for (i = 0; i < count; i++) {
        as_table_shown_name(shown, sizeof shown, names[i], o->ascii);
        as_text_addf(t, "%s%s",
                     i == 0           ? ""
                     : i + 1 == count ? as_msg_text(o->lang, AS_MSG_LIST_AND)
                                      : as_msg_text(o->lang, AS_MSG_LIST_SEP),
                     shown);
    }
}

/* The sentence of why, given the lists: what changed with the inputs, what stayed, and
 * the reason. */
static void why_sentence(FILE *out, const as_comparison *c, size_t nc, size_t ns,
                         const as_text *list, const as_render_opts *o)
{
    const char *inputs = as_text_str(&list[0]), *ch = as_text_str(&list[1]);

    if (c->ninputs == 0)
        fputs(as_msg_text(o->lang, AS_MSG_CMP_WHY_SAME), out);
    else if (nc == 0 || c->reason == AS_MSG_COUNT)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_WHY_NONE), inputs);
    else if (ns == 0)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_WHY_ALL), inputs,
                as_msg_text(o->lang, c->reason));
    else
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_WHY), inputs, ch, as_text_str(&list[2]),
                as_msg_text(o->lang, c->reason));
    fputc('\n', out);
}

/* The sentence of why: sorts the tables into changed and unchanged, then says it. */
static int why(FILE *out, const as_comparison *c, const as_render_opts *o)
{
    const char **changed = calloc(c->count + 1, sizeof *changed);
    const char **same = calloc(c->count + 1, sizeof *same);
    as_text list[3] = {{0}, {0}, {0}};
    size_t i, nc = 0, ns = 0;
    int rc = -1;

    if (changed == NULL || same == NULL)
        goto fail;
    for (i = 0; i < c->count; i++) {
        if (c->table[i].changed)
            changed[nc++] = c->table[i].name;
        else
            same[ns++] = c->table[i].name;
    }
    join(&list[0], c->inputs, c->ninputs, o);
    join(&list[1], changed, nc, o);
    join(&list[2], same, ns, o);
    if (list[0].failed || list[1].failed || list[2].failed)
        goto fail;
    why_sentence(out, c, nc, ns, list, o);
    rc = 0;
fail:
    for (i = 0; i < 3; i++)
        as_text_free(&list[i]);
    free(changed);
    free(same);
    return rc;
}

static void text_table(FILE *out, const as_table_diff *d, const as_render_opts *o)
{
    char name[64], num[AS_NUM_BUF];

    as_table_shown_name(name, sizeof name, d->name, o->ascii);
    as_fmt_display(num, sizeof num, d->max_abs_diff, o->digits, o->ascii);
    if (!d->changed)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_SAME), name);
    else if (d->comparable)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_CHANGED), name, num);
    else if (d->variant == NULL) /* a head of the base beyond the variant's heads */
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_NO_HEAD), name);
    else
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_RESHAPED), name, d->base->rows, d->base->cols,
                d->variant->rows, d->variant->cols);
    fputc('\n', out);
}

/* ---- each changed table before and after, side by side ---- */

#define BEFORE_AFTER_MAX_CELLS 256 /* larger tables are named, not printed */
#define BEFORE_AFTER_GAP 6

/* "改变前：" over "A ≈ [[...]]": one side of the pair. */
static as_block one_side(as_msg caption, const char *name, const as_matrix *m,
                         const as_render_opts *o)
{
    const as_cell_style st = {o->digits, o->ascii, NULL, NULL};
    as_block b = {0}, table;
    char label[96];
    int rounded = 0;

    table = as_block_matrix(m, &st, &rounded);
    snprintf(label, sizeof label, "%s %s ", name, rounded ? as_sym_text(o->ascii, AS_SYM_APPROX) : "=");
    as_block_label(&table, label);
    as_block_add(&b, "%s", as_msg_text(o->lang, caption));
    as_block_append(&b, &table);
    as_block_free(&table);
    return b;
}

/* One changed table: the base's beside the variant's. Returns -1 when memory ran out. */
static int before_after(as_block *out, const as_table_diff *d, const as_render_opts *o)
{
    char name[64];
    as_block before, after, both;
    int failed;

    as_table_shown_name(name, sizeof name, d->name, o->ascii);
    if (out->count > 0)
        as_block_add(out, "%s", "");
    if (d->base->rows * d->base->cols > BEFORE_AFTER_MAX_CELLS ||
        d->variant->rows * d->variant->cols > BEFORE_AFTER_MAX_CELLS) {
        as_block_add(out, as_msg_text(o->lang, AS_MSG_CMP_TOO_BIG), name, d->variant->rows,
                     d->variant->cols);
        return out->failed ? -1 : 0;
    }
    before = one_side(AS_MSG_CMP_BEFORE, name, d->base, o);
    after = one_side(AS_MSG_CMP_AFTER, name, d->variant, o);
    both = as_block_beside(&before, &after, BEFORE_AFTER_GAP);
    as_block_append(out, &both);
    failed = before.failed || after.failed || both.failed || out->failed;
    as_block_free(&before);
    as_block_free(&after);
    as_block_free(&both);
    return failed ? -1 : 0;
}

/* Nonzero for the reading shares: A, or one head's A_h0, ... */
static int is_shares(const char *name)
{
    return name[0] == 'A' && (name[1] == '\0' || name[1] == '_');
}

/* Every changed table before and after: the shares A first (what a change does to the
 * reading is the point of the comparison), then the others in the book's order. */
static int changed_tables(FILE *out, const as_comparison *c, const as_render_opts *o)
{
    as_block b = {0};
    size_t pass, i;
    int rc = 0;

    for (pass = 0; pass < 2; pass++)
        for (i = 0; i < c->count; i++) {
            const as_table_diff *d = &c->table[i];
            if (d->changed && d->variant != NULL && is_shares(d->name) == (pass == 0))
                rc |= before_after(&b, d, o);
        }
    if (b.count > 0) {
        fputc('\n', out);
        as_block_print(out, &b);
    }
    as_block_free(&b);
    return rc;
}

static int text_report(FILE *out, const as_comparison *c, const as_render_opts *o)
{
    as_text inputs = {0};
    size_t i;

    join(&inputs, c->inputs, c->ninputs, o);
    if (inputs.failed) {
        as_text_free(&inputs);
        return -1;
    }
    if (c->ninputs > 0)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_INPUTS), as_text_str(&inputs));
    else
        fputs(as_msg_text(o->lang, AS_MSG_CMP_NO_INPUTS), out);
    as_text_free(&inputs);
    fputc('\n', out);
    for (i = 0; i < c->count; i++)
        text_table(out, &c->table[i], o);
    fputc('\n', out);
    if (why(out, c, o) != 0)
        return -1;
    return changed_tables(out, c, o);
}

/* {"inputs_changed": ["Wv"], "tables": {"Q": {"changed": false, "max_abs_diff": 0}, ...}} */
static void json_report(FILE *out, const as_comparison *c)
{
    char num[AS_NUM_BUF];
    size_t i;

    fputs("{\"inputs_changed\": [", out);
    for (i = 0; i < c->ninputs; i++)
        fprintf(out, "%s\"%s\"", i ? ", " : "", c->inputs[i]);
    fputs("], \"tables\": {", out);
    for (i = 0; i < c->count; i++) {
        const as_table_diff *d = &c->table[i];
        const int finite = d->comparable && isfinite(d->max_abs_diff);
        if (finite)
            as_fmt_roundtrip(num, sizeof num, d->max_abs_diff);
        fprintf(out, "%s\"%s\": {\"changed\": %s, \"max_abs_diff\": %s}", i ? ", " : "",
                d->name, d->changed ? "true" : "false", finite ? num : "null");
    }
    fputs("}}\n", out);
}

static int report(FILE *out, const as_comparison *c, const as_cli *cli)
{
    if (cli->format == AS_FMT_TEXT)
        return text_report(out, c, &cli->render);
    json_report(out, c);
    return 0;
}

int as_cmd_compare(FILE *out, const as_cli *cli, as_error *err)
{
    const as_session_opts so = as_cli_session(cli);
    as_session base, variant;
    as_comparison c;
    int rc = AS_EXIT_USAGE;

    if (strcmp(cli->arg[0], "-") == 0 && strcmp(cli->arg[1], "-") == 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_BOTH_STDIN, "BASE", "VARIANT");
        return AS_EXIT_USAGE;
    }
    if (as_cli_open(&base, cli->arg[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (as_cli_open(&variant, cli->arg[1], &so, err) == 0) {
        if (as_compare(&c, &base.p, &base.t, &variant.p, &variant.t) == 0 &&
            report(out, &c, cli) == 0)
            rc = AS_EXIT_OK;
        else
            as_error_msg(err, "", 0, 0, AS_MSG_OOM);
        as_comparison_free(&c);
        as_session_free(&variant);
    }
    as_session_free(&base);
    return rc;
}
