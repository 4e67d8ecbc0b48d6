/* moodle.c - exercises for Moodle (SPEC §7): GIFT text, and Moodle XML with one
 * Cloze question per exercise. The syntax follows Moodle's documentation of the GIFT
 * format (numerical answers `{#=value:tolerance#feedback =%0%value:tolerance#...}`,
 * `\` before ~ = # { } :) and of embedded answers (`{1:NUMERICAL:=value:tolerance#
 * feedback~%0%value:tolerance#feedback}`, `\` before } # ~ / " \ inside an answer). */
#include "attnstep/moodle.h"
#include "attnstep/blockcheck.h"
#include "attnstep/check_report.h"
#include "attnstep/block.h"
#include "attnstep/diagnose.h"
#include "attnstep/headcheck.h"
#include "attnstep/outhead.h"
#include "attnstep/ownchain.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_BIT(t) (1u << (t))
#define MAX_TABLES 64

/* ------------------------------------------------------------------------------ */
/* Text in each syntax                                                              */
/* ------------------------------------------------------------------------------ */

enum { ESC_HTML = 1, ESC_GIFT = 2, ESC_CLOZE = 4 };

/* Writes s for HTML (& < > "), then for GIFT (\ before ~ = # { } :) or for an answer
 * of a Cloze question (\ before } # ~ / " \), as how says. */
static void put(FILE *out, const char *s, int how)
{
    for (; *s; s++) {
        const char *ent = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;"
                        : *s == '"' && !(how & ESC_CLOZE) ? "&quot;" : NULL;
        if ((how & ESC_HTML) && ent != NULL) {
            fputs(ent, out);
            continue;
        }
        if (((how & ESC_GIFT) && strchr("~=#{}:\\", *s) != NULL) ||
            ((how & ESC_CLOZE) && strchr("}#~/\"\\", *s) != NULL))
            fputc('\\', out);
        fputc(*s, out);
    }
}

/* A message with its %s filled by args (plain text), written as put() writes. */
static void say(FILE *out, as_lang lang, int how, as_msg m, const char *a, const char *b,
                const char *c, const char *d, const char *e)
{
    char buf[1024];

    snprintf(buf, sizeof buf, as_msg_text(lang, m), a, b, c, d, e);
    put(out, buf, how);
}

/* ------------------------------------------------------------------------------ */
/* The tables                                                                       */
/* ------------------------------------------------------------------------------ */

typedef struct quiz {
    FILE *out;
    const as_sheet *s;
    const as_sheet_opts *o;
    int how;        /* ESC_HTML, with ESC_GIFT for GIFT */
    double tol;     /* half a unit of the last place asked: check's tolerance (SPEC §7) */
} quiz;

static const char *axis(char *buf, size_t size, const char *const *labels, size_t i)
{
    return as_axis_label(buf, size, labels, i);
}

/* A given table as HTML: its name, then its numbers under the tokens. */
static void html_values(const quiz *z, const as_table_view *v)
{
    char name[160], buf[AS_NUM_BUF];
    size_t i, j;

    as_sheet_table_name(name, sizeof name, z->s, z->o, v, 0);
    fputs("<p><b>", z->out);
    put(z->out, name, z->how);
    /* GIFT: the = of an attribute escaped, as any in the text */
    put(z->out, "</b></p><table border=\"1\" cellpadding=\"4\"><tr><th></th>", z->how & ESC_GIFT);
    for (j = 0; j < v->m->cols; j++) {
        fputs("<th>", z->out);
        put(z->out, axis(buf, sizeof buf, v->cols, j), z->how);
        fputs("</th>", z->out);
    }
    fputs("</tr>", z->out);
    for (i = 0; i < v->m->rows; i++) {
        fputs("<tr><th>", z->out);
        put(z->out, axis(buf, sizeof buf, v->rows, i), z->how);
        fputs("</th>", z->out);
        for (j = 0; j < v->m->cols; j++) {
            as_fmt_display(buf, sizeof buf, AS_AT(*v->m, i, j), z->o->key_places, 0);
            put(z->out, "<td align=\"right\">", z->how & ESC_GIFT);
            put(z->out, buf, z->how);
            fputs("</td>", z->out);
        }
        fputs("</tr>", z->out);
    }
    fputs("</table>", z->out);
}

/* The head drill's instructions (SPEC §19), as the sheet gives them. */
static void head_given(const quiz *z)
{
    const as_problem *p = z->s->p;
    const as_lang l = z->o->lang;
    char t[AS_NUM_BUF], cut[AS_NUM_BUF], u[AS_NUM_BUF];

    as_fmt_display(t, sizeof t, p->temperature, 6, 1);
    say(z->out, l, z->how, AS_MSG_SHEET_SAMPLE_ORDER, "logits", t, "probs", "", "");
    fputc(' ', z->out);
    if (p->top_k > 0) {
        snprintf(cut, sizeof cut, "%zu", p->top_k);
        say(z->out, l, z->how, AS_MSG_SHEET_SAMPLE_TOPK, cut, "", "", "", "");
        fputc(' ', z->out);
    }
    if (p->top_p > 0) {
        as_fmt_display(cut, sizeof cut, p->top_p, 6, 1);
        say(z->out, l, z->how, AS_MSG_SHEET_SAMPLE_TOPP, cut, "", "", "", "");
        fputc(' ', z->out);
    }
    if (p->seeded && z->s->t->out != NULL) {
        as_fmt_display(u, sizeof u, z->s->t->out->u, 4, 1);
        say(z->out, l, z->how, AS_MSG_SHEET_SAMPLE_DRAW, u, "", "", "", "");
    } else {
        say(z->out, l, z->how, AS_MSG_SHEET_SAMPLE_GREEDY, "", "", "", "", "");
    }
    fputc(' ', z->out);
    say(z->out, l, z->how, AS_MSG_SHEET_SAMPLE_WORDS, "", "", "", "", "");
}

/* The token drawn, a whole number: "=2:0" (GIFT) or "{1:NUMERICAL:=2:0}" (Cloze). */
static void token_answer(const quiz *z)
{
    const int gift = z->how & ESC_GIFT, how = gift ? ESC_HTML | ESC_GIFT : ESC_HTML | ESC_CLOZE;

    fprintf(z->out, gift ? "=%zu:0#" : "{1:NUMERICAL:=%zu:0#", z->s->t->out->token);
    say(z->out, z->o->lang, how, AS_MSG_QUIZ_RIGHT, "", "", "", "", "");
    fputs(gift ? "" : "}", z->out);
}

/* What the exercise says first: the instructions and the given tables. */
static void html_given(const quiz *z)
{
    const as_mask_kind mask = z->s->p->mask;
    const unsigned asked = as_step_asked(z->o->step);
    as_table_view v[MAX_TABLES];
    char list[256], places[16];
    size_t k, n = as_sheet_tables(z->s, as_step_given_to(z->o->step, z->s->p), v, MAX_TABLES);

    as_sheet_asked_list(list, sizeof list, z->s, z->o);
    snprintf(places, sizeof places, "%d", z->o->places);
    fputs("<p>", z->out);
    say(z->out, z->o->lang, z->how, AS_MSG_SHEET_DO, list, "", "", "", "");
    fputc(' ', z->out);
    say(z->out, z->o->lang, z->how, AS_MSG_SHEET_PLACES, places, "", "", "", "");
    if (asked & T_BIT(AS_T_A)) {
        fputc(' ', z->out);
        say(z->out, z->o->lang, z->how, AS_MSG_SHEET_SOFTMAX, "A", "S", "", "", "");
    }
    if ((asked & (T_BIT(AS_T_S) | T_BIT(AS_T_A))) && mask != AS_MASK_NONE) {
        fputc(' ', z->out);
        say(z->out, z->o->lang, z->how, AS_MSG_SHEET_MASKED, "S", "\xe2\x88\x92\xe2\x88\x9e",
            "A", "", "");
    }
    fputs(" ", z->out);
    if (z->o->step == AS_STEP_SAMPLE) {
        head_given(z);
    } else if (mask == AS_MASK_WINDOW) {
        char buf[512];
        snprintf(buf, sizeof buf, as_msg_text(z->o->lang, AS_MSG_TR_RULE_WINDOW),
                 z->s->p->window, z->s->p->window - 1);
        put(z->out, buf, z->how);
    } else {
        say(z->out, z->o->lang, z->how, mask == AS_MASK_NONE ? AS_MSG_TR_RULE_NONE
                                        : mask == AS_MASK_CUSTOM ? AS_MSG_TR_RULE_CUSTOM
                                                                 : AS_MSG_TR_RULE_CAUSAL,
            "\xe2\x88\x92\xe2\x88\x9e", "", "", "", "");
    }
    fputs("</p>", z->out);
    for (k = 0; k < n; k++) /* a block's drill: its own step's weights alone */
        if (v[k].kind != AS_T_W || as_step_reads_weight(z->o->step, v[k].name))
            html_values(z, &v[k]);
}

/* ------------------------------------------------------------------------------ */
/* The answers of one cell                                                          */
/* ------------------------------------------------------------------------------ */

/* The mistakes' versions of one asked table: the chains of check's diagnosis (SPEC §6),
 * each with one step done a mistake's way, and the transpose of the right table. */
typedef struct wrongs {
    as_chain_cache cache;
    as_table_grade g;           /* the table as check names it (kind, head) */
    const as_problem *p;
    const as_trace *t;
    as_matrix transposed;       /* empty unless the table is square */
    as_out_head head[AS_HEAD_MISTAKES]; /* probs (SPEC §19): the head in each wrong order */
    int head_made[AS_HEAD_MISTAKES];    /* 1 when that order gives probabilities */
    int oom;                    /* memory ran out making a mistake's table: a wrong answer
                                   would be missing from the question */
} wrongs;

/* The answer kind and head that check gives table v. */
static void answer_of(const as_sheet *s, const as_table_view *v, as_answer_kind *kind, long *head)
{
    const int layer = s->p->heads > 1 || s->p->Wo != NULL;

    /* the registry's answer kind; a head's O (walked as part of C) is an O */
    *kind = v->kind == AS_T_C && strcmp(v->name, "C") != 0
                ? AS_ANS_O
                : (as_answer_kind)as_tab_answer(as_tab_of_table(v->kind));
    *head = (long)v->head;
    if (v->kind >= AS_T_Q && v->kind <= AS_T_V)
        *head = -1; /* the whole Q, K, V */
    else if (*kind == AS_ANS_C || (v->kind == AS_T_O && layer))
        *head = -1; /* the layer's C and O */
}

/* The head's mistakes of order on its own h (the last row of O, or Y with a block), as
 * check names them. Returns 0, or -1 when memory ran out. */
static int head_wrongs(wrongs *w, const as_sheet *s)
{
    const as_matrix *last = s->t->block != NULL ? as_block_table(s->t->block, AS_TAB_Y) : &s->t->O;
    size_t k;

    for (k = 0; k < AS_HEAD_MISTAKES; k++)
        if ((w->head_made[k] = as_head_variant(&w->head[k], s->p, &AS_AT(*last, last->rows - 1, 0),
                                               last->cols, as_head_mistakes[k])) < 0)
            return -1;
    return 0;
}

static int wrongs_make(wrongs *w, const as_sheet *s, const as_table_view *v)
{
    memset(w, 0, sizeof *w);
    w->t = s->t;
    w->g.row = -1;
    answer_of(s, v, &w->g.kind, &w->g.head);
    if (v->kind == AS_T_PROBS) /* w->p stays NULL: no chains */
        return head_wrongs(w, s);
    as_chain_cache_init(&w->cache, s->p, &s->t->M, NULL, 0);
    w->p = s->p;
    if (v->m->rows == v->m->cols &&
        (as_matrix_copy(&w->transposed, v->m) != 0 || as_matrix_transpose(&w->transposed) != 0))
        return -1;
    return 0;
}

static void wrongs_free(wrongs *w)
{
    size_t k;

    for (k = 0; k < AS_HEAD_MISTAKES; k++)
        if (w->head_made[k] == 1)
            as_out_head_free(&w->head[k]);
    if (w->p == NULL) /* the head's: no chains were made */
        return;
    as_chain_cache_free(&w->cache);
    as_matrix_free(&w->transposed);
}

/* Variant i's table (the chains, then the transpose as the last), or NULL when it does
 * not apply or memory ran out. */
static const as_matrix *variant(wrongs *w, size_t i, as_fit *fit)
{
    const as_chain *c;
    const as_chain_slot *slot;

    if (w->p == NULL) { /* probs: the head's mistakes of order, 1 .. AS_HEAD_MISTAKES */
        if (i < 1 || i > AS_HEAD_MISTAKES || w->head_made[i - 1] != 1)
            return NULL;
        *fit = (as_fit){as_head_mistakes[i - 1], 0};
        return &w->head[i - 1].final;
    }
    if (as_block_answer(w->g.kind))
        return NULL; /* the block's tables have mistakes of their own (block_answers) */
    if (i == AS_CHAIN_VARIANTS) {
        *fit = (as_fit){AS_DIAG_TRANSPOSED, 0};
        return w->transposed.rows > 0 ? &w->transposed : NULL;
    }
    *fit = as_chain_variant(i);
    if ((c = as_chain_get(&w->cache, i)) == NULL) {
        w->oom = 1;
        return NULL;
    }
    slot = as_chain_slot_of(c, w->p, &w->g);
    return slot->ok ? &slot->calc : NULL;
}

/* The value mistake variant i gives cell (i, j) when it is one to offer: a number, away
 * from the right one and from those offered before it by more than the tolerance. */
static int offered(const quiz *z, wrongs *w, const as_table_view *v, size_t k, size_t i,
                   size_t j, double *x, as_fit *fit)
{
    const as_matrix *m = variant(w, k, fit);
    double y;
    as_fit other;
    size_t e;

    if (m == NULL || m->rows != v->m->rows || m->cols != v->m->cols)
        return 0;
    *x = AS_AT(*m, i, j);
    if (!isfinite(*x) || fabs(*x - AS_AT(*v->m, i, j)) <= 2 * z->tol)
        return 0;
    for (e = 1; e < k; e++)
        if (offered(z, w, v, e, i, j, &y, &other) && fabs(y - *x) <= 2 * z->tol)
            return 0;
    return 1;
}

/* The block's convention mistakes (SPEC §15) of cell (i, j) of v as 0% answers, each
 * away from the right value and from those before it by more than the tolerance. */
static void block_answers(const quiz *z, wrongs *w, const as_table_view *v, size_t i, size_t j,
                          const char *tol, int how, const as_render_opts *ro)
{
    as_fit fit[AS_MAX_FITS];
    double val[AS_MAX_FITS];
    const size_t n = as_block_mistake_cells(fit, val, AS_MAX_FITS, w->p, w->t, w->g.kind, i, j);
    size_t k, e;
    char why[512], num[AS_NUM_BUF];

    w->oom |= n == (size_t)-1;
    for (k = 0; n != (size_t)-1 && k < n; k++) {
        int near = !isfinite(val[k]) || fabs(val[k] - AS_AT(*v->m, i, j)) <= 2 * z->tol;
        for (e = 0; e < k && !near; e++)
            near = fabs(val[e] - val[k]) <= 2 * z->tol;
        if (near)
            continue;
        w->g.diagnosis = fit[k].diag;
        w->g.detail = 0;
        as_diag_explain(why, sizeof why, &w->g, ro);
        as_fmt_roundtrip(num, sizeof num, val[k]);
        fprintf(z->out, (z->how & ESC_GIFT) ? " =%%0%%%s:%s#" : "~%%0%%%s:%s#", num, tol);
        say(z->out, z->o->lang, how, AS_MSG_QUIZ_MISTAKE, as_diag_code(fit[k].diag), why, "", "",
            "");
    }
}

/* "=value:tol#feedback" then "=%0%value:tol#feedback" per mistake (GIFT), or
 * "=value:tol#feedback~%0%value:tol#feedback" (Cloze). */
static void answers(const quiz *z, wrongs *w, const as_table_view *v, size_t i, size_t j)
{
    const int gift = z->how & ESC_GIFT, how = gift ? ESC_HTML | ESC_GIFT : ESC_HTML | ESC_CLOZE;
    as_render_opts ro;
    char num[AS_NUM_BUF], tol[32];
    size_t k;

    memset(&ro, 0, sizeof ro);
    ro.lang = z->o->lang;
    snprintf(tol, sizeof tol, "%.*f", z->o->places + 1, z->tol); /* 0.005 */
    as_fmt_roundtrip(num, sizeof num, AS_AT(*v->m, i, j));
    fprintf(z->out, "=%s:%s#", num, tol);
    say(z->out, z->o->lang, how, AS_MSG_QUIZ_RIGHT, "", "", "", "", "");
    for (k = 1; k <= AS_CHAIN_VARIANTS; k++) {
        char why[512];
        double x;
        as_fit fit;
        if (!offered(z, w, v, k, i, j, &x, &fit))
            continue;
        w->g.diagnosis = fit.diag;
        w->g.detail = fit.detail;
        as_diag_explain(why, sizeof why, &w->g, &ro);
        as_fmt_roundtrip(num, sizeof num, x);
        fprintf(z->out, gift ? " =%%0%%%s:%s#" : "~%%0%%%s:%s#", num, tol);
        say(z->out, z->o->lang, how, AS_MSG_QUIZ_MISTAKE, as_diag_code(fit.diag), why, "", "",
            "");
    }
    if (as_block_answer(w->g.kind))
        block_answers(z, w, v, i, j, tol, how, &ro);
}

/* Nonzero when cell (i, j) of v is not asked: masked in S (−∞) or A (0). */
static int masked(const as_table_view *v, const as_head_trace *h, size_t i, size_t j)
{
    return (v->kind == AS_T_S || v->kind == AS_T_A) && isinf(AS_AT(h->S, i, j));
}

/* The head whose S says which cells of v are masked. */
static const as_head_trace *head_of(const quiz *z, const as_table_view *v)
{
    return &z->s->t->head[v->per_head ? v->head : 0];
}

/* "第2级，种子7，张三，版本K7QM": what names the exercise. */
static void title(char *buf, size_t size, const as_sheet *s, as_lang lang)
{
    char var[64] = "";

    if (s->variant != NULL)
        snprintf(var, sizeof var, as_msg_text(lang, AS_MSG_SHEET_VARIANT), s->variant);
    snprintf(buf, size, "attnstep %s%s%s%s%s", s->detail != NULL ? s->detail : "",
             s->student != NULL ? as_msg_text(lang, AS_MSG_LIST_SEP) : "",
             s->student != NULL ? s->student : "", s->variant != NULL ? as_msg_text(lang, AS_MSG_LIST_SEP) : "",
             var);
}

/* ------------------------------------------------------------------------------ */
/* GIFT                                                                             */
/* ------------------------------------------------------------------------------ */

/* One numerical question for cell (i, j) of v. */
static void gift_cell(const quiz *z, const char *name, wrongs *w, const as_table_view *v,
                      size_t i, size_t j)
{
    char what[160], ri[24], cj[24], rt[64], ct[64];

    as_sheet_table_name(what, sizeof what, z->s, z->o, v, 1);
    snprintf(ri, sizeof ri, "%zu", i);
    snprintf(cj, sizeof cj, "%zu", j);
    fputs("::", z->out);
    put(z->out, name, ESC_GIFT);
    fprintf(z->out, " %s[%zu][%zu]::[html]", v->name, i, j);
    html_given(z);
    fputs("<p>", z->out);
    say(z->out, z->o->lang, z->how, v->cols != NULL ? AS_MSG_QUIZ_CELL : AS_MSG_QUIZ_CELL_NUM,
        what, ri, axis(rt, sizeof rt, v->rows, i), cj, axis(ct, sizeof ct, v->cols, j));
    fputs("</p>{#", z->out);
    answers(z, w, v, i, j);
    fputs("}\n\n", z->out);
}

static int gift_one(const quiz *z)
{
    as_table_view v[MAX_TABLES];
    char name[256];
    size_t k, i, j, n = as_sheet_tables(z->s, as_step_asked(z->o->step), v, MAX_TABLES);

    title(name, sizeof name, z->s, z->o->lang);
    fputs("// ", z->out);
    fputs(name, z->out);
    fputs("\n$CATEGORY: $course$/top/", z->out);
    for (i = 0; name[i]; i++)
        fputc(name[i] == '/' ? '_' : name[i], z->out);
    fputs("\n\n::", z->out);
    put(z->out, name, ESC_GIFT);
    fputs("::[html]", z->out);
    html_given(z);
    fputs("{}\n\n", z->out);
    for (k = 0; k < n; k++) {
        wrongs w;
        if (wrongs_make(&w, z->s, &v[k]) != 0) {
            wrongs_free(&w);
            return -1;
        }
        for (i = 0; i < v[k].m->rows; i++)
            for (j = 0; j < v[k].m->cols; j++)
                if (!masked(&v[k], head_of(z, &v[k]), i, j))
                    gift_cell(z, name, &w, &v[k], i, j);
        wrongs_free(&w);
        if (w.oom)
            return -1;
    }
    if (z->o->step == AS_STEP_SAMPLE && z->s->t->out != NULL) {
        fputs("::", z->out);
        put(z->out, name, ESC_GIFT);
        fputs(" token::[html]", z->out);
        html_given(z);
        fputs("<p>", z->out);
        say(z->out, z->o->lang, z->how, AS_MSG_SHEET_SAMPLE_TOKEN, "", "", "", "", "");
        fputs("</p>{#", z->out);
        token_answer(z);
        fputs("}\n\n", z->out);
    }
    return 0;
}

static double unit(int places)
{
    return pow(10, -places);
}

int as_quiz_gift(FILE *out, const as_sheet *q, size_t count, const as_sheet_opts *o)
{
    size_t k;
    int rc = 0;

    fputs("// attnstep: Moodle GIFT (UTF-8). Import: Question bank > Import > GIFT format.\n\n",
          out);
    for (k = 0; k < count && rc == 0; k++) {
        const quiz z = {out, &q[k], o, ESC_HTML | ESC_GIFT, unit(o->places) / 2};
        rc = gift_one(&z);
    }
    return rc != 0 || ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------------------ */
/* Moodle XML: a Cloze question per exercise                                        */
/* ------------------------------------------------------------------------------ */

/* A table to fill: a NUMERICAL blank in each cell asked. */
static int cloze_table(const quiz *z, const as_table_view *v)
{
    const as_head_trace *h = head_of(z, v);
    char name[160], buf[64];
    size_t i, j;
    wrongs w;

    if (wrongs_make(&w, z->s, v) != 0) {
        wrongs_free(&w);
        return -1;
    }
    as_sheet_table_name(name, sizeof name, z->s, z->o, v, 1);
    fputs("<p><b>", z->out);
    put(z->out, name, ESC_HTML);
    fputs("</b></p><table border=\"1\" cellpadding=\"4\"><tr><th></th>", z->out);
    for (j = 0; j < v->m->cols; j++) {
        fputs("<th>", z->out);
        put(z->out, axis(buf, sizeof buf, v->cols, j), ESC_HTML);
        fputs("</th>", z->out);
    }
    fputs("</tr>\n", z->out);
    for (i = 0; i < v->m->rows; i++) {
        fputs("<tr><th>", z->out);
        put(z->out, axis(buf, sizeof buf, v->rows, i), ESC_HTML);
        fputs("</th>", z->out);
        for (j = 0; j < v->m->cols; j++) {
            fputs("<td>", z->out);
            if (masked(v, h, i, j)) {
                fputs(v->kind == AS_T_S ? "\xe2\x88\x92\xe2\x88\x9e" : "0", z->out);
            } else {
                fputs("{1:NUMERICAL:", z->out);
                answers(z, &w, v, i, j);
                fputc('}', z->out);
            }
            fputs("</td>", z->out);
        }
        fputs("</tr>\n", z->out);
    }
    fputs("</table>\n", z->out);
    wrongs_free(&w);
    return w.oom ? -1 : 0;
}

static int cloze_one(const quiz *z)
{
    as_table_view v[MAX_TABLES];
    char name[256];
    size_t k, n = as_sheet_tables(z->s, as_step_asked(z->o->step), v, MAX_TABLES);
    int rc = 0;

    title(name, sizeof name, z->s, z->o->lang);
    fputs("  <question type=\"cloze\">\n    <name><text>", z->out);
    put(z->out, name, ESC_HTML);
    fputs("</text></name>\n    <questiontext format=\"html\"><text><![CDATA[", z->out);
    fputs("<h3>", z->out);
    put(z->out, as_msg_text(z->o->lang, AS_MSG_SHEET_TITLE), ESC_HTML);
    fputs("</h3>\n", z->out);
    html_given(z);
    fputs("\n<h4>", z->out);
    put(z->out, as_msg_text(z->o->lang, AS_MSG_SHEET_FILL), ESC_HTML);
    fputs("</h4>\n", z->out);
    for (k = 0; k < n && rc == 0; k++)
        rc = cloze_table(z, &v[k]);
    if (z->o->step == AS_STEP_SAMPLE && z->s->t->out != NULL) {
        fputs("<p>", z->out);
        put(z->out, as_msg_text(z->o->lang, AS_MSG_SHEET_SAMPLE_TOKEN), ESC_HTML);
        token_answer(z);
        fputs("</p>\n", z->out);
    }
    fputs("]]></text></questiontext>\n"
          "    <generalfeedback format=\"html\"><text></text></generalfeedback>\n"
          "    <penalty>0.3333333</penalty>\n    <hidden>0</hidden>\n"
          "    <idnumber></idnumber>\n  </question>\n",
          z->out);
    return rc;
}

int as_quiz_moodle(FILE *out, const as_sheet *q, size_t count, const as_sheet_opts *o)
{
    size_t k;
    int rc = 0;

    fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
          "<!-- attnstep: Moodle XML. Import: Question bank > Import > Moodle XML format. -->\n"
          "<quiz>\n  <question type=\"category\">\n"
          "    <category><text>$course$/top/attnstep</text></category>\n"
          "    <info format=\"html\"><text></text></info>\n  </question>\n",
          out);
    for (k = 0; k < count && rc == 0; k++) {
        const quiz z = {out, &q[k], o, ESC_HTML, unit(o->places) / 2};
        rc = cloze_one(&z);
    }
    fputs("</quiz>\n", out);
    return rc != 0 || ferror(out) ? -1 : 0;
}
