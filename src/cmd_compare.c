/* cmd_compare.c - `attnstep compare BASE VARIANT` (SPEC §8): which inputs differ, what
 * each table did, and one sentence of why. */
#include "attnstep/check.h"
#include "attnstep/cli.h"
#include "attnstep/compare.h"
#include "attnstep/expand.h"
#include "attnstep/numfmt.h"

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
    else
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_RESHAPED), name, d->base->rows, d->base->cols,
                d->variant ? d->variant->rows : 0, d->variant ? d->variant->cols : 0);
    fputc('\n', out);
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
    return why(out, c, o);
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

    if (cli->format != AS_FMT_TEXT && cli->format != AS_FMT_JSON) {
        as_error_set(err, "", 0, 0, "compare writes --format text or json");
        return AS_EXIT_USAGE;
    }
    if (strcmp(cli->arg[0], "-") == 0 && strcmp(cli->arg[1], "-") == 0) {
        as_error_set(err, "", 0, 0, "BASE and VARIANT cannot both be standard input");
        return AS_EXIT_USAGE;
    }
    if (as_session_open(&base, cli->arg[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (as_session_open(&variant, cli->arg[1], &so, err) == 0) {
        if (as_compare(&c, &base.p, &base.t, &variant.p, &variant.t) == 0 &&
            report(out, &c, cli) == 0)
            rc = AS_EXIT_OK;
        else
            as_error_set(err, "", 0, 0, "out of memory");
        as_comparison_free(&c);
        as_session_free(&variant);
    }
    as_session_free(&base);
    return rc;
}
