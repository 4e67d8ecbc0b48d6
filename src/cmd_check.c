/* cmd_check.c - `attnstep check FILE ANSWERS` (SPEC §6): grade a student's tables and
 * report, per table, right or wrong, the wrong cells with the expected value, and the
 * known mistake that explains a wrong table. Exit 0 all right, 1 a wrong answer. */
#include "attnstep/check.h"
#include "attnstep/cli.h"
#include "attnstep/lex.h"
#include "attnstep/numfmt.h"

#include <stdlib.h>
#include <string.h>

#define LISTED_CELLS 12 /* wrong cells listed in the text report before "... and N more" */

static int read_answers(as_answers *a, const char *path, as_error *err)
{
    char *buf;
    size_t len;
    int e = as_lex_read_file(path, 1, &buf, &len), rc;

    if (e != 0) {
        char why[128];
        as_error_msg(err, path, 0, 0, AS_MSG_FILE_NO_ANSWERS,
                     as_msg_errno(why, sizeof why, err->lang, e));
        return -1;
    }
    rc = as_answers_parse(a, buf, len, path, err);
    free(buf);
    return rc;
}

/* ---- the text report ---- */

static void wrong_cells(FILE *out, const as_table_grade *g, const char *name,
                        const as_render_opts *o)
{
    const as_matrix *e = g->expected;
    char w[AS_NUM_BUF], x[AS_NUM_BUF];
    size_t k;

    for (k = 0; k < g->nwrong && k < LISTED_CELLS; k++) {
        const size_t c = g->wrong[k];
        as_fmt_display(w, sizeof w, g->given->value.v[c], o->digits, o->ascii);
        as_fmt_display(x, sizeof x, e->v[c], o->digits, o->ascii);
        fputs("  ", out);
        fprintf(out, as_msg_text(o->lang, AS_MSG_CHK_CELL), name, c / e->cols, c % e->cols, w, x);
        fputc('\n', out);
    }
    if (g->nwrong > LISTED_CELLS) {
        fputs("  ", out);
        fprintf(out, as_msg_text(o->lang, AS_MSG_CHK_MORE), g->nwrong - LISTED_CELLS);
        fputc('\n', out);
    }
}

/* "diagnosis: no_scale — the scores were not divided by √d_k". */
static void diagnosis(FILE *out, const as_table_grade *g, const as_render_opts *o)
{
    static const as_msg why[AS_DIAG_COUNT] = {
        [AS_DIAG_CARRIED_ERROR] = AS_MSG_DIAG_CARRIED, [AS_DIAG_NO_SCALE] = AS_MSG_DIAG_NO_SCALE,
        [AS_DIAG_SCALE_MULTIPLIED] = AS_MSG_DIAG_SCALE_MULT, [AS_DIAG_NO_MASK] = AS_MSG_DIAG_NO_MASK,
        [AS_DIAG_SOFTMAX_COLUMNS] = AS_MSG_DIAG_SOFTMAX_COLUMNS,
        [AS_DIAG_TRANSPOSED] = AS_MSG_DIAG_TRANSPOSED};
    char sqrt_dk[32], text[256];

    if (g->diagnosis == AS_DIAG_NONE)
        return;
    snprintf(sqrt_dk, sizeof sqrt_dk, o->ascii ? "%s(d_k)" : "%sd_k", as_sym_text(o->ascii, AS_SYM_SQRT));
    snprintf(text, sizeof text, as_msg_text(o->lang, why[g->diagnosis]),
             g->diagnosis == AS_DIAG_CARRIED_ERROR ? g->carried_from : sqrt_dk);
    fputs("  ", out);
    fprintf(out, as_msg_text(o->lang, AS_MSG_CHK_DIAG), as_diag_code(g->diagnosis), text);
    fputc('\n', out);
}

static void text_table(FILE *out, const as_table_grade *g, const as_render_opts *o)
{
    const as_matrix *e = g->expected, *w = &g->given->value;
    char name[64];

    as_table_shown_name(name, sizeof name, g->name, o->ascii);
    if (g->correct)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CHK_RIGHT), name);
    else if (!g->shape_ok)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CHK_SHAPE), name, w->rows, w->cols, e->rows, e->cols);
    else
        fprintf(out, as_msg_text(o->lang, AS_MSG_CHK_WRONG), name, g->nwrong, e->rows * e->cols);
    fputc('\n', out);
    if (g->shape_ok)
        wrong_cells(out, g, name, o);
    diagnosis(out, g, o);
}

static void text_report(FILE *out, const as_grade *g, const as_render_opts *o)
{
    size_t i, wrong = 0;

    for (i = 0; i < g->count; i++) {
        text_table(out, &g->table[i], o);
        wrong += !g->table[i].correct;
    }
    fputc('\n', out);
    if (wrong == 0)
        fprintf(out, as_msg_text(o->lang, AS_MSG_CHK_ALL_RIGHT), g->count);
    else
        fprintf(out, as_msg_text(o->lang, AS_MSG_CHK_SOME_WRONG), wrong, g->count);
    fputc('\n', out);
}

/* ---- the JSON report: {"correct": bool, "tables": [{...}, ...]} ---- */

static void json_report(FILE *out, const as_grade *g)
{
    size_t i, k;

    fprintf(out, "{\"correct\": %s, \"tables\": [", g->correct ? "true" : "false");
    for (i = 0; i < g->count; i++) {
        const as_table_grade *t = &g->table[i];
        const char *code = as_diag_code(t->diagnosis);
        fprintf(out, "%s{\"name\": \"%s\", \"correct\": %s, \"wrong_cells\": [", i ? ", " : "",
                t->name, t->correct ? "true" : "false");
        for (k = 0; k < t->nwrong; k++)
            fprintf(out, "%s[%zu,%zu]", k ? ", " : "", t->wrong[k] / t->expected->cols,
                    t->wrong[k] % t->expected->cols);
        fprintf(out, "], \"diagnosis\": %s%s%s}", code ? "\"" : "", code ? code : "null",
                code ? "\"" : "");
    }
    fputs("]}\n", out);
}

static int check_options(const as_cli *cli, as_error *err)
{
    static const char *const formats[] = {"text", "json"};

    if (cli->format != AS_FMT_TEXT && cli->format != AS_FMT_JSON)
        return as_cli_formats_only(err, "check", formats, 2);
    if (strcmp(cli->arg[0], "-") == 0 && strcmp(cli->arg[1], "-") == 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_BOTH_STDIN, "FILE", "ANSWERS");
        return -1;
    }
    return 0;
}

int as_cmd_check(FILE *out, const as_cli *cli, as_error *err)
{
    const as_session_opts so = as_cli_session(cli);
    as_session s;
    as_answers a;
    as_grade g;
    int rc = AS_EXIT_USAGE;

    if (check_options(cli, err) != 0 || as_session_open(&s, cli->arg[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (read_answers(&a, cli->arg[1], err) == 0) {
        if (as_check_grade(&g, &s.p, &s.t, &a, cli->tol, err) == 0) {
            if (cli->format == AS_FMT_JSON)
                json_report(out, &g);
            else
                text_report(out, &g, &cli->render);
            rc = g.correct ? AS_EXIT_OK : AS_EXIT_WRONG;
            as_grade_free(&g);
        }
        as_answers_free(&a);
    }
    as_session_free(&s);
    return rc;
}
