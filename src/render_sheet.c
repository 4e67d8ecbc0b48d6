/* render_sheet.c - worksheets for an exercise (SPEC §7): Markdown, or a standalone LaTeX
 * document that needs only amsmath. The given tables and the key are the `run`
 * renderers' (as_render_md, as_render_latex), the walk-through is `trace`'s; what is
 * drawn here is the page around them and the empty grids to fill in. */
#include "attnstep/exercise.h"
#include "attnstep/expand.h"
#include "attnstep/numfmt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_BIT(t) (1u << (t))
#define GIVEN_TABLES (T_BIT(AS_T_X) | T_BIT(AS_T_W) | T_BIT(AS_T_M))
#define ASKED_TABLES (T_BIT(AS_T_Q) | T_BIT(AS_T_K) | T_BIT(AS_T_V) | T_BIT(AS_T_QKT) | \
                      T_BIT(AS_T_S) | T_BIT(AS_T_A) | T_BIT(AS_T_O))

typedef struct sheet {
    FILE *out;
    int latex;
    const as_problem *p;
    const as_trace *t;
    as_render_opts ro; /* the caller's, with lang (and for LaTeX ascii) fixed */
} sheet;

/* ------------------------------------------------------------------------------ */
/* Words                                                                            */
/* ------------------------------------------------------------------------------ */

/* 1 when s starts with an opening curly quote “, 2 with a closing one ”, else 0. */
static int curly_quote(const char *s)
{
    if (strncmp(s, "\xe2\x80", 2) != 0)
        return 0;
    return s[2] == '\x9c' ? 1 : s[2] == '\x9d' ? 2 : 0;
}

/* Writes s as LaTeX text: its special characters escaped, curly quotes as `` ''. */
static void tex_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (curly_quote(s)) {
            fputs(curly_quote(s) == 1 ? "``" : "''", out);
            s += 2;
        } else if (strchr("&%$#_{}", *s) != NULL) {
            fprintf(out, "\\%c", *s);
        } else if (strchr("~^\\", *s) != NULL) {
            fprintf(out, "\\char%d{}", *s);
        } else {
            fputc(*s, out);
        }
    }
}

/* A message as a heading (level 1-3) or, with level 0, a paragraph. */
static void say(const sheet *sh, int level, as_msg m, ...)
{
    static const char *const tex[] = {"", "\\section*{", "\\subsection*{", "\\subsubsection*{"};
    static const char *const md[] = {"", "# ", "## ", "### "};
    char buf[512];
    va_list ap;

    va_start(ap, m);
    vsnprintf(buf, sizeof buf, as_msg_text(sh->ro.lang, m), ap);
    va_end(ap);
    fputs(sh->latex ? tex[level] : md[level], sh->out);
    if (sh->latex)
        tex_text(sh->out, buf);
    else
        fputs(buf, sh->out);
    fputs(sh->latex && level > 0 ? "}\n\n" : "\n\n", sh->out);
}

/* ------------------------------------------------------------------------------ */
/* The empty grids                                                                  */
/* ------------------------------------------------------------------------------ */

/* What each asked table is, as a formula. */
static void formula(char *buf, size_t size, as_table k, const sheet *sh)
{
    const char *tt = as_sym_text(sh->ro.ascii, AS_SYM_T), *sq = as_sym_text(sh->ro.ascii, AS_SYM_SQRT);
    static const char *const tex[AS_T_COUNT] = {
        [AS_T_Q] = "Q = XW_q", [AS_T_K] = "K = XW_k", [AS_T_V] = "V = XW_v",
        [AS_T_QKT] = "QK^{\\top}", [AS_T_S] = "S = QK^{\\top}/\\sqrt{d_k} + M",
        [AS_T_A] = "A = \\mathrm{softmax}(S)", [AS_T_O] = "O = AV"};
    static const char *const md[AS_T_COUNT] = {
        [AS_T_Q] = "Q = X Wq", [AS_T_K] = "K = X Wk", [AS_T_V] = "V = X Wv",
        [AS_T_QKT] = "QK%s", [AS_T_S] = "S = QK%s/%sd_k + M", [AS_T_O] = "O = AV"};

    if (sh->latex)
        snprintf(buf, size, "%s", tex[k]);
    else if (k == AS_T_A)
        snprintf(buf, size, "A = %s", as_msg_text(sh->ro.lang, AS_MSG_SOFTMAX_ROWS));
    else
        snprintf(buf, size, md[k], tt, sq);
}

/* labels[i], or i itself (in buf) when the axis is numbered. */
static const char *axis_label(char *buf, size_t size, const char *const *labels, size_t i)
{
    if (labels != NULL)
        return labels[i];
    snprintf(buf, size, "%zu", i);
    return buf;
}

/* A Markdown table with the token labels on its axes and every cell empty. */
static void md_grid(FILE *out, const as_table_view *v)
{
    char num[32];
    size_t i, j;

    fputs("|   |", out);
    for (j = 0; j < v->m->cols; j++)
        fprintf(out, " %s |", axis_label(num, sizeof num, v->cols, j));
    fputs("\n|---|", out);
    for (j = 0; j < v->m->cols; j++)
        fputs("---|", out);
    for (i = 0; i < v->m->rows; i++) {
        fprintf(out, "\n| %s |", axis_label(num, sizeof num, v->rows, i));
        for (j = 0; j < v->m->cols; j++)
            fputs("        |", out);
    }
    fputs("\n\n", out);
}

/* A boxed LaTeX array of empty cells, wide enough to write a number in each. */
static void tex_grid(FILE *out, const as_table_view *v)
{
    size_t i, j;

    fputs("\\begin{array}{|", out);
    for (j = 0; j < v->m->cols; j++)
        fputs("c|", out);
    fputs("}\\hline\n", out);
    for (i = 0; i < v->m->rows; i++) {
        for (j = 0; j < v->m->cols; j++)
            fputs(j ? " & \\hspace{3.5em}" : "  \\hspace{3.5em}", out);
        fputs("\\rule[-1.5ex]{0pt}{4.5ex} \\\\ \\hline\n", out);
    }
    fputs("\\end{array}\n", out);
}

static int grid(void *ctx, const as_table_view *v)
{
    const sheet *sh = ctx;
    char what[128];

    formula(what, sizeof what, v->kind, sh);
    if (sh->latex) {
        as_view_comment(sh->out, "%", v, &sh->ro);
        fprintf(sh->out, "\\[\n%s =\n", what);
        tex_grid(sh->out, v);
        fputs("\\]\n\n", sh->out);
    } else {
        fprintf(sh->out, "`%s` [%zu,%zu]\n\n", what, v->m->rows, v->m->cols);
        md_grid(sh->out, v);
    }
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* The parts                                                                        */
/* ------------------------------------------------------------------------------ */

/* Some tables of the run, as `run --format md|latex` writes them. */
static int tables(sheet *sh, unsigned only)
{
    sh->ro.only = only;
    return sh->latex ? as_render_latex(sh->out, sh->p, sh->t, &sh->ro)
                     : as_render_md(sh->out, sh->p, sh->t, &sh->ro);
}

/* Writes s for a verbatim block: LaTeX's typewriter font has no curly quotes. */
static void put_verbatim(FILE *out, const char *s, int latex)
{
    for (; *s; s++) {
        if (latex && curly_quote(s)) {
            fputc('"', out);
            s += 2;
        } else {
            fputc(*s, out);
        }
    }
}

/* The walk-through of the last row: `trace`'s text, verbatim. */
static int walk(sheet *sh)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem;
    int rc = -1;

    sh->ro.row = -1;
    if ((mem = open_memstream(&buf, &len)) != NULL) {
        rc = as_render_trace(mem, sh->p, sh->t, &sh->ro);
        rc |= fclose(mem);
    }
    if (rc == 0) {
        say(sh, 3, AS_MSG_SHEET_WALK, sh->p->n - 1, sh->p->tokens[sh->p->n - 1]);
        fputs(sh->latex ? "{\\footnotesize\n\\begin{verbatim}\n" : "```text\n", sh->out);
        put_verbatim(sh->out, buf, sh->latex);
        fputs(sh->latex ? "\\end{verbatim}\n}\n" : "```\n", sh->out);
    }
    free(buf);
    return rc != 0 ? -1 : 0;
}

static void intro(const sheet *sh, const as_exercise_opts *o)
{
    as_text list = {0};
    size_t i;

    if (sh->latex)
        fputs("\\documentclass{article}\n\\usepackage{amsmath}\n\\setlength{\\parindent}{0pt}\n"
              "\\begin{document}\n", sh->out);
    say(sh, 1, AS_MSG_SHEET_TITLE, o->level, o->seed);
    for (i = 0; i < sh->p->n; i++)
        as_text_addf(&list, "%s%s", i ? " " : "", sh->p->tokens[i]);
    say(sh, 0, AS_MSG_SHEET_TOKENS, as_text_str(&list));
    as_text_free(&list);
    if (sh->p->mask == AS_MASK_WINDOW)
        say(sh, 0, AS_MSG_TR_RULE_WINDOW, sh->p->window, sh->p->window - 1);
    else
        say(sh, 0, sh->p->mask == AS_MASK_NONE ? AS_MSG_TR_RULE_NONE : AS_MSG_TR_RULE_CAUSAL);
}

int as_render_sheet(FILE *out, int latex, int answers, const as_problem *p, const as_trace *t,
                    const as_exercise_opts *o, const as_render_opts *ro)
{
    sheet sh = {out, latex, p, t, *ro};
    int rc;

    sh.ro.lang = latex ? AS_LANG_EN : ro->lang;
    sh.ro.ascii = latex ? 1 : ro->ascii;
    sh.ro.color = 0;
    intro(&sh, o);
    say(&sh, 2, AS_MSG_SHEET_GIVEN);
    rc = tables(&sh, GIVEN_TABLES);
    say(&sh, 2, AS_MSG_SHEET_FILL, p->d_k);
    sh.ro.only = ASKED_TABLES;
    rc |= as_each_table(p, t, &sh.ro, grid, &sh);
    if (answers) {
        say(&sh, 2, AS_MSG_SHEET_KEY);
        rc |= tables(&sh, ASKED_TABLES);
        rc |= walk(&sh);
    }
    if (latex)
        fputs("\\end{document}\n", out);
    return rc != 0 || ferror(out) ? -1 : 0;
}
