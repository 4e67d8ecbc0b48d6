/* cmd_compare.c - `attnstep compare BASE VARIANT` (SPEC §8): which inputs differ, what
 * each table did, and one sentence of why. */
#include "attnstep/check.h"
#include "attnstep/cli.h"
#include "attnstep/compare.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Joins count names as a list in the language: "V和O", "Q, K, QKᵀ, S and A". */
static void join(char *buf, size_t size, const char *const *names, size_t count,
                 const as_render_opts *o)
{
    char shown[64];
    size_t i, used = 0;

    buf[0] = '\0';
    for (i = 0; i < count && used < size; i++) {
        as_table_shown_name(shown, sizeof shown, names[i], o->ascii);
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 i == 0           ? ""
                                 : i + 1 == count ? as_msg_text(o->lang, AS_MSG_LIST_AND)
                                                  : as_msg_text(o->lang, AS_MSG_LIST_SEP),
                                 shown);
    }
}

/* The sentence of why: what changed with the inputs, what stayed, and the reason. */
static int why(FILE *out, const as_comparison *c, const as_render_opts *o)
{
    const char **changed = calloc(c->count + 1, sizeof *changed);
    const char **same = calloc(c->count + 1, sizeof *same);
    char inputs[256], ch[512], st[512];
    size_t i, nc = 0, ns = 0;

    if (changed == NULL || same == NULL) {
        free(changed);
        free(same);
        return -1;
    }
    for (i = 0; i < c->count; i++) {
        if (c->table[i].changed)
            changed[nc++] = c->table[i].name;
        else
            same[ns++] = c->table[i].name;
    }
    join(inputs, sizeof inputs, c->inputs, c->ninputs, o);
    join(ch, sizeof ch, changed, nc, o);
    join(st, sizeof st, same, ns, o);
    if (c->ninputs == 0)
        fputs(as_msg_text(o->lang, AS_MSG_CMP_WHY_SAME), out);
    else if (nc == 0 || c->reason == AS_MSG_COUNT)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_WHY_NONE), inputs);
    else if (ns == 0)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_WHY_ALL), inputs,
                as_msg_text(o->lang, c->reason));
    else
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_WHY), inputs, ch, st,
                as_msg_text(o->lang, c->reason));
    fputc('\n', out);
    free(changed);
    free(same);
    return 0;
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
    char inputs[256];
    size_t i;

    join(inputs, sizeof inputs, c->inputs, c->ninputs, o);
    if (c->ninputs > 0)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CMP_INPUTS), inputs);
    else
        fputs(as_msg_text(o->lang, AS_MSG_CMP_NO_INPUTS), out);
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

    static const char *const formats[] = {"text", "json"};

    if (cli->format != AS_FMT_TEXT && cli->format != AS_FMT_JSON) {
        as_cli_formats_only(err, "compare", formats, 2);
        return AS_EXIT_USAGE;
    }
    if (strcmp(cli->arg[0], "-") == 0 && strcmp(cli->arg[1], "-") == 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_BOTH_STDIN, "BASE", "VARIANT");
        return AS_EXIT_USAGE;
    }
    if (as_session_open(&base, cli->arg[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (as_session_open(&variant, cli->arg[1], &so, err) == 0) {
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
