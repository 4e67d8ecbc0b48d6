/* sheet_doc.c - worksheets (SPEC §7), Markdown or a standalone LaTeX document, in the
 * chosen language: a name line, the instructions, the given tables laid out compactly,
 * an empty grid labelled with the tokens for each table to fill, and on a new page the
 * key: every table, and the walk-through row set as mathematics. Every number comes
 * from the trace; every word from the message table. */
#include "attnstep/sheet.h"
#include "sheet_text.h"
#include "attnstep/block.h"
#include "attnstep/numfmt.h"
#include "attnstep/outhead.h"
#include "attnstep/render.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_BIT(t) (1u << (t))

static int ascii_only(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s >= 0x80)
            return 0;
    return 1;
}

/* ------------------------------------------------------------------------------ */
/* The page around the tables                                                       */
/* ------------------------------------------------------------------------------ */

/* The fonts for every character of a name (SPEC §7): xeCJK falls back, for a character
 * the main font lacks (䶮, 喆, 𠮷 in real rosters), to HanaMin (Debian: fonts-hanazono),
 * A for the Basic Multilingual Plane, B beyond it; a machine without it still compiles,
 * and `make check-latex` fails on the "Missing character" its log then shows. */
static const char fallback_fonts[] =
    "\\IfFontExistsTF{HanaMinA}{\\xeCJKsetup{AutoFallBack=true}%\n"
    "  \\setCJKfallbackfamilyfont{\\CJKrmdefault}[AutoFakeBold]{{HanaMinA},{HanaMinB}}%\n"
    "  \\setCJKfallbackfamilyfont{\\CJKsfdefault}[AutoFakeBold]{{HanaMinA},{HanaMinB}}}{}\n";

/* A4 with 2 cm margins set by hand: amsmath (and ctex for Chinese) is all it needs. An
 * English sheet whose names pdflatex cannot set (xetex) is set by xelatex with ctex's
 * plain scheme: English typesetting, and the fonts for every name. */
static void preamble(FILE *out, const as_sheet_opts *o, int xetex)
{
    fprintf(out, "%% attnstep worksheet: %s\n", xetex ? "xelatex (ctex)" : "pdflatex (amsmath)");
    fprintf(out, "\\documentclass[a4paper,11pt%s]{%s}\n\\usepackage{amsmath}\n",
            xetex && o->lang != AS_LANG_ZH ? ",scheme=plain" : "", xetex ? "ctexart" : "article");
    if (xetex)
        fputs(fallback_fonts, out);
    fputs("\\setlength{\\textwidth}{17cm}\\setlength{\\oddsidemargin}{-0.54cm}\n"
          "\\setlength{\\evensidemargin}{-0.54cm}\\setlength{\\textheight}{25.2cm}\n"
          "\\setlength{\\topmargin}{-1.04cm}\\setlength{\\headheight}{0pt}"
          "\\setlength{\\headsep}{0pt}\n"
          "\\setlength{\\parindent}{0pt}\\setlength{\\parskip}{4pt}\n"
          "\\setlength{\\arraycolsep}{3pt}\n"
          "\\pagestyle{empty}\n\\begin{document}\n",
          out);
}

static void new_page(const as_sheet_page *pg)
{
    fputs(pg->o->latex ? "\n\\newpage\n" : "\n<div style=\"page-break-before: always\"></div>\n\n",
          pg->out);
}

/* A section heading of the page. */
static void heading(const as_sheet_page *pg, as_msg m, const char *const *raw, size_t nraw)
{
    fputs(pg->o->latex ? "\\par\\medskip{\\large\\bfseries " : "## ", pg->out);
    as_sheet_say(pg, m, raw, nraw);
    fputs(pg->o->latex ? "}\\par\n" : "\n\n", pg->out);
}

/* The line under the title: what the sheet is (its detail, the drill) and its variant. */
static void detail(const as_sheet_page *pg)
{
    const char *sep = as_sheet_msg(pg, AS_MSG_LIST_SEP);
    int any = 0;

    if (pg->s->detail != NULL && (!pg->o->latex || pg->o->lang == AS_LANG_ZH ||
                                  ascii_only(pg->s->detail))) {
        as_sheet_put_text(pg, pg->s->detail);
        any = 1;
    }
    if (pg->o->step != AS_STEP_ALL) {
        const char *raw[] = {as_sheet_msg(pg, (as_msg)(AS_MSG_SHEET_STEP_PROJECT + pg->o->step - 1))};
        fputs(any ? sep : "", pg->out);
        as_sheet_say(pg, AS_MSG_SHEET_DRILL, raw, 1);
        any = 1;
    }
    if (pg->s->variant != NULL) {
        const char *raw[] = {pg->s->variant};
        fputs(any ? sep : "", pg->out);
        as_sheet_say(pg, AS_MSG_SHEET_VARIANT, raw, 1);
    }
}

/* Name, class and date, to be filled in (the name already there for a class's sheet). */
static void name_line(const as_sheet_page *pg)
{
    static const as_msg field[] = {AS_MSG_SHEET_NAME, AS_MSG_SHEET_CLASS, AS_MSG_SHEET_DATE};
    static const char *const width[] = {"5cm", "3.5cm", "3.5cm"};
    size_t k;

    for (k = 0; k < 3; k++) {
        const char *who = k == 0 ? pg->s->student : NULL;
        as_sheet_say(pg, field[k], NULL, 0);
        if (pg->o->latex) {
            fprintf(pg->out, "\\underline{\\makebox[%s][l]{", width[k]);
            if (who != NULL && (pg->xetex || ascii_only(who)))
                as_sheet_put_name(pg, who);
            fputs(k < 2 ? "}}\\hfill\n" : "}}\\par\n", pg->out);
        } else {
            if (who != NULL) {
                fputc(' ', pg->out);
                as_sheet_put_name(pg, who);
                fputc(' ', pg->out);
            } else
                fputs("\\_\\_\\_\\_\\_\\_\\_\\_\\_\\_", pg->out);
            fputs(k == 2 ? "\n\n" : pg->o->lang == AS_LANG_ZH ? "\xe3\x80\x80" : "    ", pg->out);
        }
    }
}

static void title(const as_sheet_page *pg, int key)
{
    if (pg->o->latex)
        fputs("\\begin{center}{\\Large\\bfseries ", pg->out);
    else
        fputs("# ", pg->out);
    as_sheet_say(pg, key ? AS_MSG_SHEET_KEY : AS_MSG_SHEET_TITLE, NULL, 0);
    fputs(pg->o->latex ? "}\\\\[3pt]\n" : "\n\n", pg->out);
    detail(pg);
    if (key && pg->s->student != NULL) {
        fputs(as_sheet_msg(pg, AS_MSG_LIST_SEP), pg->out);
        as_sheet_put_name(pg, pg->o->latex && !pg->xetex && !ascii_only(pg->s->student)
                         ? "" : pg->s->student);
    }
    fputs(pg->o->latex ? "\n\\end{center}\n" : "\n\n", pg->out);
    if (!key)
        name_line(pg);
}

/* "Q, K, V, QKᵀ, S, A and O": the names of the asked tables the problem has. */
static void asked_list(const as_sheet_page *pg, char *buf, size_t size)
{
    static const as_table order[] = {AS_T_Q, AS_T_K, AS_T_V, AS_T_QKT, AS_T_S, AS_T_A, AS_T_C,
                                     AS_T_O};
    static const char *const tex_block[] = {"$N_1$", "$H_1$", "$N_2$", "$U$", "$G$", "$F$",
                                            "$D$", "$H_2$", "$Y$"};
    const unsigned asked = as_step_asked(pg->o->step);
    const char *names[8 + 9 + 1];
    size_t k, n = 0, used = 0;

    for (k = 0; k < 8; k++) {
        const as_table t = order[k];
        if (!(asked & T_BIT(t)) || (t == AS_T_C && pg->s->p->heads == 1))
            continue;
        if (t == AS_T_QKT)
            names[n++] = pg->o->latex ? "$QK^{\\top}$" : pg->o->ascii ? "QK^T" : "QK\xe1\xb5\x80";
        else
            names[n++] = pg->o->latex ? (const char *[]){"", "", "$Q$", "$K$", "$V$", "", "",
                                                         "$S$", "$A$", "$O$", "$C$"}[t]
                                      : as_table_name(t);
    }
    for (k = AS_T_N1; pg->s->t->block != NULL && k <= AS_T_Y; k++) /* the block's (SPEC §15) */
        if ((asked & T_BIT(k)) && as_block_table(pg->s->t->block, as_tab_of_table((as_table)k)) &&
            (k != AS_T_Y || pg->s->p->final_norm))
            names[n++] = pg->o->latex ? tex_block[k - AS_T_N1] : as_table_name((as_table)k);
    if (asked & T_BIT(AS_T_PROBS)) /* the head's drill (SPEC §19) */
        names[n++] = pg->o->latex ? "$\\mathrm{probs}$" : as_table_name(AS_T_PROBS);
    buf[0] = '\0';
    for (k = 0; k < n && used < size; k++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 k == 0 ? "" : k + 1 == n ? as_sheet_msg(pg, AS_MSG_LIST_AND)
                                                          : as_sheet_msg(pg, AS_MSG_LIST_SEP),
                                 names[k]);
}


void as_sheet_asked_list(char *buf, size_t size, const as_sheet *s, const as_sheet_opts *o)
{
    const as_sheet_page pg = {NULL, o, s, 0, 0};

    asked_list(&pg, buf, size);
}

static void instruction(const as_sheet_page *pg, as_msg m, const char *const *raw, size_t nraw)
{
    fputs(pg->o->latex ? "\\item " : "- ", pg->out);
    as_sheet_say(pg, m, raw, nraw);
    fputc('\n', pg->out);
}

/* The head drill's instructions (SPEC §19): the steps in their order with T, the cut,
 * the draw with its u (the PRNG's, which no hand computes), the chapter's words. */
static void head_instructions(const as_sheet_page *pg)
{
    const as_problem *p = pg->s->p;
    const int tex = pg->o->latex;
    char t[AS_NUM_BUF], cut[AS_NUM_BUF], u[AS_NUM_BUF];
    const char *order[] = {tex ? "$\\mathrm{logits}$" : "logits", t,
                           tex ? "$\\mathrm{probs}$" : "probs"};
    const char *cp = cut, *up = u;

    as_fmt_display(t, sizeof t, p->temperature, 6, 1);
    instruction(pg, AS_MSG_SHEET_SAMPLE_ORDER, order, 3);
    if (p->top_k > 0) {
        snprintf(cut, sizeof cut, "%zu", p->top_k);
        instruction(pg, AS_MSG_SHEET_SAMPLE_TOPK, &cp, 1);
    }
    if (p->top_p > 0) {
        as_fmt_display(cut, sizeof cut, p->top_p, 6, 1);
        instruction(pg, AS_MSG_SHEET_SAMPLE_TOPP, &cp, 1);
    }
    if (p->seeded && pg->s->t->out != NULL) {
        as_fmt_display(u, sizeof u, pg->s->t->out->u, 4, 1);
        instruction(pg, AS_MSG_SHEET_SAMPLE_DRAW, &up, 1);
    } else {
        instruction(pg, AS_MSG_SHEET_SAMPLE_GREEDY, NULL, 0);
    }
    instruction(pg, AS_MSG_SHEET_SAMPLE_WORDS, NULL, 0);
}

/* The line for the token drawn (the sheet's: blank; the key's: the token). */
static void token_line(const as_sheet_page *pg, int key)
{
    char token[32];

    if (key && pg->s->t->out != NULL) {
        const char *tp = token;
        snprintf(token, sizeof token, "%zu", pg->s->t->out->token);
        as_sheet_say(pg, AS_MSG_SHEET_SAMPLE_GOT, &tp, 1);
    } else {
        as_sheet_say(pg, AS_MSG_SHEET_SAMPLE_TOKEN, NULL, 0);
        fputs(pg->o->latex ? "\\underline{\\makebox[3em][l]{}}" : "\\_\\_\\_\\_", pg->out);
    }
    fputs(pg->o->latex ? "\\par\n" : "\n\n", pg->out);
}

static void instructions(const as_sheet_page *pg)
{
    const unsigned asked = as_step_asked(pg->o->step);
    const int tex = pg->o->latex;
    char list[256], places[16];
    const char *lp = list, *pp = places;

    asked_list(pg, list, sizeof list);
    snprintf(places, sizeof places, "%d", pg->o->places);
    fputs(pg->o->latex ? "\\begin{itemize}\\setlength{\\itemsep}{0pt}\n" : "", pg->out);
    instruction(pg, AS_MSG_SHEET_DO, &lp, 1);
    instruction(pg, AS_MSG_SHEET_PLACES, &pp, 1);
    if (pg->o->step == AS_STEP_SAMPLE)
        head_instructions(pg);
    if (asked & T_BIT(AS_T_A)) {
        const char *as[] = {tex ? "$A$" : "A", tex ? "$S$" : "S"};
        instruction(pg, AS_MSG_SHEET_SOFTMAX, as, 2);
    }
    if ((asked & (T_BIT(AS_T_S) | T_BIT(AS_T_A))) && pg->s->p->mask != AS_MASK_NONE) {
        const char *sia[] = {tex ? "$S$" : "S", tex ? "$-\\infty$" : as_sheet_sym(pg, AS_SYM_NEG_INF),
                             tex ? "$A$" : "A"};
        instruction(pg, AS_MSG_SHEET_MASKED, sia, 3);
    }
    fputs(pg->o->latex ? "\\end{itemize}\n" : "\n", pg->out);
}

/* The reading rule, under the given tables. */
static void rule(const as_sheet_page *pg)
{
    const as_mask_kind m = pg->s->p->mask;
    const char *inf = pg->o->latex ? "$-\\infty$" : as_sheet_sym(pg, AS_SYM_NEG_INF);

    char buf[512];

    if (m == AS_MASK_WINDOW) { /* its numbers are not text to escape */
        snprintf(buf, sizeof buf, as_sheet_msg(pg, AS_MSG_TR_RULE_WINDOW), pg->s->p->window,
                 pg->s->p->window - 1);
        as_sheet_put_text(pg, buf);
    } else {
        as_sheet_say(pg, m == AS_MASK_NONE ? AS_MSG_TR_RULE_NONE : m == AS_MASK_CUSTOM
                                                                ? AS_MSG_TR_RULE_CUSTOM
                                                                : AS_MSG_TR_RULE_CAUSAL,
                &inf, 1);
    }
    fputs("\n\n", pg->out);
}

static int sheet_page(const as_sheet_page *pg)
{
    as_sheet_items *l = malloc(sizeof *l);
    int rc = 0;

    if (l == NULL)
        return -1;
    title(pg, 0);
    instructions(pg);
    heading(pg, AS_MSG_SHEET_GIVEN, NULL, 0);
    as_sheet_gather(l, pg, as_step_given_to(pg->o->step, pg->s->p), 0);
    as_sheet_show_items(pg, l);
    if (as_step_given(pg->o->step) & T_BIT(AS_T_M) || pg->o->step == AS_STEP_ALL)
        rule(pg);
    heading(pg, AS_MSG_SHEET_FILL, NULL, 0);
    as_sheet_gather(l, pg, as_step_asked(pg->o->step), 1);
    as_sheet_show_items(pg, l);
    if (pg->o->step == AS_STEP_SAMPLE)
        token_line(pg, 0);
    if (pg->o->exp_table && (pg->o->step == AS_STEP_ALL || pg->o->step == AS_STEP_SOFTMAX ||
                             pg->o->step == AS_STEP_SAMPLE || pg->o->step == AS_STEP_FFN))
        rc = as_sheet_exp_table(pg);
    heading(pg, AS_MSG_SHEET_WORK, NULL, 0);
    fputs(pg->o->latex ? "\\vfill\n" : "\n\n\n\n", pg->out);
    free(l);
    return rc;
}

static int key_page(const as_sheet_page *pg)
{
    as_sheet_items *l = malloc(sizeof *l);

    if (l == NULL)
        return -1;
    title(pg, 1);
    if (pg->o->step == AS_STEP_SAMPLE) { /* the head's tables, the walk of run's trace */
        as_sheet_gather(l, pg, T_BIT(AS_T_LOGITS) | T_BIT(AS_T_PROBS), 0);
        as_sheet_show_items(pg, l);
        token_line(pg, 1);
        free(l);
        return 0;
    }
    as_sheet_gather(l, pg, as_step_asked(AS_STEP_ALL), 0);
    as_sheet_show_items(pg, l);
    as_sheet_key_walk(pg);
    free(l);
    return 0;
}

/* Nonzero when some token of p cannot be set by pdflatex alone. */
static int needs_numbers(const as_problem *p, const as_sheet_opts *o)
{
    size_t i;

    if (!o->latex || o->lang != AS_LANG_EN)
        return 0;
    for (i = 0; i < p->n; i++)
        if (!ascii_only(p->tokens[i]))
            return 1;
    for (i = 0; i < p->m; i++)
        if (!ascii_only(p->kv_tokens[i]))
            return 1;
    return 0;
}

/* Nonzero when the LaTeX document is set by xelatex: Chinese, or English with a name
 * pdflatex cannot set. */
static int needs_xetex(const as_sheet *sheets, size_t count, const as_sheet_opts *o)
{
    size_t k;

    if (!o->latex || o->lang == AS_LANG_ZH)
        return o->latex;
    for (k = 0; k < count; k++)
        if (sheets[k].student != NULL && !ascii_only(sheets[k].student))
            return 1;
    return 0;
}

int as_sheet_write(FILE *out, const as_sheet *sheets, size_t count, const as_sheet_opts *o)
{
    const int xetex = needs_xetex(sheets, count, o);
    size_t k;
    int rc = 0;

    if (o->latex)
        preamble(out, o, xetex);
    for (k = 0; !o->key_only && k < count; k++) {
        const as_sheet_page pg = {out, o, &sheets[k], needs_numbers(sheets[k].p, o), xetex};
        if (k > 0)
            new_page(&pg);
        rc |= sheet_page(&pg);
    }
    for (k = 0; o->answers && k < count; k++) {
        const as_sheet_page pg = {out, o, &sheets[k], needs_numbers(sheets[k].p, o), xetex};
        if (k > 0 || !o->key_only)
            new_page(&pg);
        rc |= key_page(&pg);
    }
    if (o->latex)
        fputs("\\end{document}\n", out);
    return rc != 0 || ferror(out) ? -1 : 0;
}

