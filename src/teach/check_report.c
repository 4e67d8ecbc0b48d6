/* check_report.c - the reports of `check` (SPEC §6): text, Markdown, a CSV gradebook and
 * JSON, read from the grades (check.h). Every word comes from the message table. */
#include "attnstep/check_report.h"
#include "attnstep/html.h"
#include "attnstep/suggest.h"
#include "attnstep/lex.h"
#include "attnstep/numfmt.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LISTED_CELLS 12 /* wrong cells listed in the text report before "... and N more" */

/* A number for a score or the summary: at most 2 decimals, trailing zeros dropped
 * ("3.5", "0.33", "7"). */
static void short_number(char *buf, size_t size, double v)
{
    as_fmt_display(buf, size, v, 2, 1);
}

/* The names of g's marks that were missing (all: 1) or of its ignored names (all: 0),
 * joined by sep into buf; "" for none. */
static void names_list(char *buf, size_t size, const as_grade *g, int missing, const char *sep)
{
    size_t i, len = 0, n = missing ? g->nmarks : g->nignored;

    buf[0] = '\0';
    for (i = 0; i < n && len < size; i++) {
        char shown[256]; /* an ignored name is the student's text: control bytes as \x15 */
        if (missing && g->mark[i].answered)
            continue;
        if (!missing)
            as_lex_quote(shown, sizeof shown, g->ignored[i], strlen(g->ignored[i]));
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? sep : "",
                                missing ? g->mark[i].name : shown);
    }
}

/* The did-you-means of the names of no table the student wrote, into buf: for each
 * name of two letters or more near a table's name, "；AA是不是想写A？" ("" when none;
 * a one-letter name, such as the eˣ table E, is a table of its own). */
static void ignored_meant(char *buf, size_t size, const as_grade *g, const as_render_opts *o)
{
    const char *names[AS_ANS_MAX];
    size_t i, k, len = 0;

    for (k = 0; k < AS_ANS_MAX; k++) /* the tables; m, l and f are single letters too near all */
        names[k] = as_answer_kind_name((as_answer_kind)k);
    buf[0] = '\0';
    for (i = 0; i < g->nignored && len < size; i++) {
        const size_t n = strlen(g->ignored[i]);
        const char *meant = n > 1 ? as_suggest(g->ignored[i], n, names, AS_ANS_MAX) : NULL;
        if (meant != NULL && len == 0)
            len += (size_t)snprintf(buf, size, "%s", as_say(o, AS_MSG_CHK_MEANT_FIRST));
        if (meant != NULL && len < size) { /* the student's text: control bytes as \x15 */
            char shown[256];
            as_lex_quote(shown, sizeof shown, g->ignored[i], n);
            len += (size_t)snprintf(buf + len, size - len, as_say(o, AS_MSG_CHK_IGNORED_MEANT),
                                    shown, meant);
        }
    }
}

/* The note of the names ignored, with their did-you-means, and a newline; nothing when
 * there are none. */
static void ignored_note(FILE *out, const as_grade *g, const as_render_opts *o, int blank_before)
{
    char list[1024], meant[1024];

    names_list(list, sizeof list, g, 0, as_say(o, AS_MSG_CHK_LIST_SEP));
    if (list[0] == '\0')
        return;
    ignored_meant(meant, sizeof meant, g, o);
    if (blank_before)
        fputc('\n', out);
    fprintf(out, as_say(o, AS_MSG_CHK_IGNORED), list, meant);
    fputc('\n', out);
}

/* The mistakes of an item's wrong answers, "no_scale 3, ? 1" (? for none named), joined
 * by sep into buf; "" when none was wrong. */
static void item_made(char *buf, size_t size, const as_item *it, const char *sep)
{
    size_t d, len = 0;

    buf[0] = '\0';
    for (d = 0; d < AS_DIAG_COUNT && len < size; d++)
        if (it->made[d] > 0)
            len += (size_t)snprintf(buf + len, size - len, "%s%s %zu", len ? sep : "",
                                    d == AS_DIAG_NONE ? "?" : as_diag_code((as_diag)d),
                                    it->made[d]);
}

/* The item line of it into buf: "S: right 4, carried 0, wrong 2 (no_scale 1), missing 0". */
static void item_line(char *buf, size_t size, const as_item *it, const as_render_opts *o)
{
    char made[512], shown[560], name[64];

    item_made(made, sizeof made, it, as_say(o, AS_MSG_CHK_LIST_SEP));
    if (made[0] != '\0')
        snprintf(shown, sizeof shown, as_say(o, AS_MSG_CHK_ITEM_MADE), made);
    else
        shown[0] = '\0';
    as_table_shown_name(name, sizeof name, it->name, o->ascii);
    snprintf(buf, size, as_say(o, AS_MSG_CHK_ITEM_LINE), name, it->right, it->carried, it->wrong,
             shown, it->missing);
}

/* ------------------------------------------------------------------------------ */
/* The teaching sentence of a diagnosis                                             */
/* ------------------------------------------------------------------------------ */

void as_diag_explain(char *buf, size_t size, const as_table_grade *g, const as_render_opts *o)
{
    static const as_msg why[AS_DIAG_COUNT] = {
        [AS_DIAG_CARRIED_ERROR] = AS_MSG_DIAG_CARRIED, [AS_DIAG_NO_SCALE] = AS_MSG_DIAG_NO_SCALE,
        [AS_DIAG_SCALE_MULTIPLIED] = AS_MSG_DIAG_SCALE_MULT,
        [AS_DIAG_SCALE_BY_DK] = AS_MSG_DIAG_SCALE_BY_DK, [AS_DIAG_NO_MASK] = AS_MSG_DIAG_NO_MASK,
        [AS_DIAG_MASKED_ZERO] = AS_MSG_DIAG_MASKED_ZERO,
        [AS_DIAG_INVERTED_MASK] = AS_MSG_DIAG_INVERTED_MASK,
        [AS_DIAG_MASK_AFTER_SOFTMAX] = AS_MSG_DIAG_MASK_AFTER_SOFTMAX,
        [AS_DIAG_NO_NORMALIZE] = AS_MSG_DIAG_NO_NORMALIZE,
        [AS_DIAG_SOFTMAX_COLUMNS] = AS_MSG_DIAG_SOFTMAX_COLUMNS,
        [AS_DIAG_TRANSPOSED] = AS_MSG_DIAG_TRANSPOSED,
        [AS_DIAG_KEYS_FOR_VALUES] = AS_MSG_DIAG_KEYS_FOR_VALUES,
        [AS_DIAG_WRONG_WEIGHTS] = AS_MSG_DIAG_WRONG_WEIGHTS,
        [AS_DIAG_TORCH_LAYOUT] = AS_MSG_DIAG_TORCH_LAYOUT,
        [AS_DIAG_TEMPERATURE_AFTER_SOFTMAX] = AS_MSG_DIAG_TEMPERATURE_AFTER_SOFTMAX,
        [AS_DIAG_TOPP_DROPS_CROSSING] = AS_MSG_DIAG_TOPP_DROPS_CROSSING,
        [AS_DIAG_TOPK_BEFORE_TEMPERATURE] = AS_MSG_DIAG_TOPK_BEFORE_TEMPERATURE,
        [AS_DIAG_LN_UNBIASED] = AS_MSG_DIAG_LN_UNBIASED,
        [AS_DIAG_LN_EPS_OUTSIDE] = AS_MSG_DIAG_LN_EPS_OUTSIDE,
        [AS_DIAG_LN_NO_AFFINE] = AS_MSG_DIAG_LN_NO_AFFINE,
        [AS_DIAG_RMS_WITH_MEAN] = AS_MSG_DIAG_RMS_WITH_MEAN,
        [AS_DIAG_GELU_TANH_FOR_ERF] = AS_MSG_DIAG_GELU_TANH_FOR_ERF,
        [AS_DIAG_GELU_ERF_FOR_TANH] = AS_MSG_DIAG_GELU_ERF_FOR_TANH,
        [AS_DIAG_RELU_FOR_GELU] = AS_MSG_DIAG_RELU_FOR_GELU,
        [AS_DIAG_NO_RESIDUAL] = AS_MSG_DIAG_NO_RESIDUAL,
        [AS_DIAG_RESIDUAL_FROM_NORMED] = AS_MSG_DIAG_RESIDUAL_FROM_NORMED,
        [AS_DIAG_POST_FOR_PRE] = AS_MSG_DIAG_POST_FOR_PRE,
    };
    static const char *const table[3] = {"Q", "K", "V"}, *const w[3] = {"Wq", "Wk", "Wv"};
    const int made = g->detail / 3 % 3, used = g->detail % 3;
    char sqrt_dk[32];

    buf[0] = '\0';
    if (g->diagnosis == AS_DIAG_NONE)
        return;
    snprintf(sqrt_dk, sizeof sqrt_dk, o->ascii ? "%s(d_k)" : "%sd_k", as_sym_text(o->ascii, AS_SYM_SQRT));
    if (g->diagnosis == AS_DIAG_WRONG_WEIGHTS)
        snprintf(buf, size, as_say(o, why[g->diagnosis]), table[made], w[used], w[made]);
    else if (g->diagnosis == AS_DIAG_TORCH_LAYOUT)
        snprintf(buf, size, as_say(o, why[g->diagnosis]), table[g->detail % 3], w[g->detail % 3],
                 w[g->detail % 3], w[g->detail % 3]);
    else
        snprintf(buf, size, as_say(o, why[g->diagnosis]),
                 g->diagnosis == AS_DIAG_CARRIED_ERROR ? g->carried_from : sqrt_dk);
}

/* The codes of the mistakes that fit equally, "no_mask、masked_zero"; a W table named
 * once each, with the table it made: "wrong_weights（K用了Wq）" (o NULL: the gradebook's
 * "wrong_weights(K=X@Wq)", no words). */
static void fits_list(char *buf, size_t size, const as_table_grade *g, const as_render_opts *o,
                      const char *sep)
{
    static const char *const table[3] = {"Q", "K", "V"}, *const w[3] = {"Wq", "Wk", "Wv"};
    size_t i, len = 0;

    buf[0] = '\0';
    for (i = 0; i < g->nfits && len < size; i++) {
        const as_fit f = g->fits[i];
        const int made = f.diag == AS_DIAG_WRONG_WEIGHTS ? f.detail / 3 % 3 : f.detail % 3;
        const int used = f.diag == AS_DIAG_WRONG_WEIGHTS ? f.detail % 3 : made;
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? sep : "", as_diag_code(f.diag));
        if ((f.diag != AS_DIAG_WRONG_WEIGHTS && f.diag != AS_DIAG_TORCH_LAYOUT) || len >= size)
            continue;
        if (o == NULL)
            len += (size_t)snprintf(buf + len, size - len, "(%s=X@%s%s)", table[made], w[used],
                                    f.diag == AS_DIAG_TORCH_LAYOUT ? "T" : "");
        else
            len += (size_t)snprintf(buf + len, size - len,
                                    as_say(o, f.diag == AS_DIAG_WRONG_WEIGHTS
                                                  ? AS_MSG_CHK_FIT_WEIGHTS : AS_MSG_CHK_FIT_TORCH),
                                    table[made], w[used]);
    }
}

/* ------------------------------------------------------------------------------ */
/* Text                                                                             */
/* ------------------------------------------------------------------------------ */

/* The k-th wrong cell of g (table name) into buf: "O[0][0]: written 1, expected 10",
 * and when it has too few decimals, why. */
static void cell_line(char *buf, size_t size, const as_table_grade *g, size_t k, const char *name,
                      const as_render_opts *o, int require_digits)
{
    char w[AS_NUM_BUF], x[AS_NUM_BUF];
    const size_t c = g->wrong[k].cell, cols = g->expected.cols;
    int n;

    as_fmt_display(w, sizeof w, g->given->value.v[c], o->digits, o->ascii);
    as_fmt_display(x, sizeof x, g->expected.v[c], o->digits, o->ascii);
    if (g->row >= 0)
        n = snprintf(buf, size, as_say(o, AS_MSG_CHK_ROW_CELL), name, c, w, x);
    else
        n = snprintf(buf, size, as_say(o, AS_MSG_CHK_CELL), name, c / cols, c % cols, w, x);
    if (g->wrong[k].too_few && n >= 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, as_say(o, AS_MSG_CHK_TOO_FEW), require_digits);
}

static void wrong_cells(FILE *out, const as_table_grade *g, const char *name,
                        const as_render_opts *o, int require_digits)
{
    char line[1024];
    size_t k;

    for (k = 0; k < g->nwrong && k < LISTED_CELLS; k++) {
        cell_line(line, sizeof line, g, k, name, o, require_digits);
        fprintf(out, "  %s\n", line);
    }
    if (g->nwrong > LISTED_CELLS) {
        fputs("  ", out);
        fprintf(out, as_say(o, AS_MSG_CHK_MORE), g->nwrong - LISTED_CELLS);
        fputc('\n', out);
    }
}

static void text_diagnosis(FILE *out, const as_table_grade *g, const as_render_opts *o)
{
    char text[512], list[256];

    if (g->nfits > 1) {
        fits_list(list, sizeof list, g, o, as_say(o, AS_MSG_CHK_LIST_SEP));
        fputs("  ", out);
        fprintf(out, as_say(o, AS_MSG_CHK_AMBIGUOUS), list);
        fputc('\n', out);
    } else if (g->diagnosis != AS_DIAG_NONE) {
        as_diag_explain(text, sizeof text, g, o);
        fputs("  ", out);
        fprintf(out, as_say(o, AS_MSG_CHK_DIAG), as_diag_code(g->diagnosis), text);
        fputc('\n', out);
    }
}

/* The teaching sentence for a wrong answer no named mistake explains: decode's rows,
 * its cache and the online softmax's values (issue 15); AS_MSG_COUNT for none. */
static as_msg teaching(const as_table_grade *g)
{
    if (g->correct || g->diagnosis != AS_DIAG_NONE || g->nfits > 0)
        return AS_MSG_COUNT;
    switch (g->kind) {
    case AS_ANS_MAX: return AS_MSG_CHK_TEACH_M;
    case AS_ANS_SUM: return AS_MSG_CHK_TEACH_L;
    case AS_ANS_RESCALE: return AS_MSG_CHK_TEACH_F;
    case AS_ANS_K:
    case AS_ANS_V:
    case AS_ANS_KR: return strstr(g->name, "[:") != NULL ? AS_MSG_CHK_TEACH_CACHE : AS_MSG_COUNT;
    case AS_ANS_S: return g->row >= 0 ? AS_MSG_CHK_TEACH_S : AS_MSG_COUNT;
    case AS_ANS_A: return g->row >= 0 ? AS_MSG_CHK_TEACH_A : AS_MSG_COUNT;
    case AS_ANS_O: return g->row >= 0 ? AS_MSG_CHK_TEACH_O : AS_MSG_COUNT;
    default: return AS_MSG_COUNT;
    }
}

static void text_teaching(FILE *out, const as_table_grade *g, const as_render_opts *o)
{
    const as_msg m = teaching(g);

    if (m == AS_MSG_COUNT)
        return;
    if (!g->shape_ok && g->row >= 0 && g->kind >= AS_ANS_MAX && g->kind <= AS_ANS_RESCALE) {
        fputs("  ", out);
        fprintf(out, as_say(o, AS_MSG_CHK_TEACH_BLOCKS), g->expected.cols);
        fputc('\n', out);
    }
    fputs("  ", out);
    fputs(as_say(o, m), out);
    fputc('\n', out);
}

static void text_table(FILE *out, const as_table_grade *g, const as_render_opts *o,
                       int require_digits)
{
    const as_matrix *e = &g->expected, *w = &g->given->value;
    char name[64];

    as_table_shown_name(name, sizeof name, g->name, o->ascii);
    if (g->correct)
        fprintf(out, as_say(o, AS_MSG_CHK_RIGHT), name);
    else if (g->diagnosis == AS_DIAG_CARRIED_ERROR)
        fprintf(out, as_say(o, AS_MSG_CHK_CARRIED), name, g->carried_from);
    else if (!g->shape_ok)
        fprintf(out, as_say(o, AS_MSG_CHK_SHAPE), name, w->rows, w->cols, e->rows, e->cols);
    else
        fprintf(out, as_say(o, AS_MSG_CHK_WRONG), name, g->nwrong, g->written);
    fputc('\n', out);
    if (g->diagnosis == AS_DIAG_CARRIED_ERROR)
        return; /* its cells follow from the earlier mistake: JSON still lists them */
    if (g->shape_ok)
        wrong_cells(out, g, name, o, require_digits);
    text_diagnosis(out, g, o);
    text_teaching(out, g, o);
}

#define COPIED_CODE "copied_variant" /* SPEC §6: no mistake of a table, so no as_diag */

/* "copied_variant:K7QM; S:no_scale; O:?" into buf: the variant the answers were copied
 * from, then each table that earned no mark, with its mistake. */
static void mistakes(char *buf, size_t size, const as_student *st, const char *sep)
{
    const as_grade *g = &st->grade;
    size_t i, len = 0;

    buf[0] = '\0';
    if (st->copied_variant[0] != '\0')
        len = (size_t)snprintf(buf, size, "%s:%s", COPIED_CODE, st->copied_variant);
    for (i = 0; i < g->count && len < size; i++) {
        const as_table_grade *t = &g->table[i];
        const char *code = as_diag_code(t->diagnosis);
        char list[128];
        if (t->credit)
            continue;
        fits_list(list, sizeof list, t, NULL, "|");
        len += (size_t)snprintf(buf + len, size - len, "%s%s:%s", len ? sep : "", t->name,
                                code ? code : t->nfits > 1 ? list : "?");
    }
}

/* The line saying whose right answers a student's are (copied_variant), if any. */
static void copied_line(FILE *out, const as_student *st, const as_render_opts *o, const char *pre)
{
    char text[512];

    if (st->copied_variant[0] == '\0')
        return;
    snprintf(text, sizeof text, as_say(o, AS_MSG_CLS_COPIED), st->copied_variant, st->copied_name);
    fputs(pre, out);
    fprintf(out, as_say(o, AS_MSG_CHK_DIAG), COPIED_CODE, text);
    fputc('\n', out);
}

/* How many students of c copied another variant's answers. */
static size_t copied_count(const as_class *c)
{
    size_t i, n = 0;

    for (i = 0; i < c->count; i++)
        n += c->student[i].graded && c->student[i].copied_variant[0] != '\0';
    return n;
}

/* The lines of the tables asked and not answered, and of the names ignored (SPEC §6). */
static void text_notes(FILE *out, const as_grade *g, const as_render_opts *o)
{
    char list[1024];

    names_list(list, sizeof list, g, 1, as_say(o, AS_MSG_CHK_LIST_SEP));
    if (list[0] != '\0') {
        fprintf(out, as_say(o, AS_MSG_CHK_MISSING), list);
        fputc('\n', out);
    }
    ignored_note(out, g, o, 0);
}

static void text_student(FILE *out, const as_student *s, const as_render_opts *o, int require_digits)
{
    size_t i, wrong = 0;
    char score[32];

    short_number(score, sizeof score, s->grade.score);
    fprintf(out, as_say(o, AS_MSG_CHK_STUDENT), s->name, score, s->grade.nmarks);
    fputc('\n', out);
    copied_line(out, s, o, "  ");
    for (i = 0; i < s->grade.count; i++) {
        text_table(out, &s->grade.table[i], o, require_digits);
        wrong += !s->grade.table[i].correct;
    }
    text_notes(out, &s->grade, o);
    if (s->grade.count == 0)
        return; /* nothing written: the missing line says it all */
    if (wrong == 0 && s->grade.count == 1)
        fputs(as_say(o, AS_MSG_CHK_ALL_RIGHT_ONE), out);
    else if (wrong == 0)
        fprintf(out, as_say(o, AS_MSG_CHK_ALL_RIGHT), s->grade.count);
    else if (s->grade.count == 1)
        fputs(as_say(o, AS_MSG_CHK_ONLY_WRONG), out);
    else if (wrong == 1)
        fprintf(out, as_say(o, AS_MSG_CHK_ONE_WRONG), s->grade.count);
    else
        fprintf(out, as_say(o, AS_MSG_CHK_SOME_WRONG), wrong, s->grade.count);
    fputc('\n', out);
}

static void text_summary(FILE *out, const as_class *c, const as_render_opts *o)
{
    const as_class_summary *s = &c->summary;
    char line[1024], a[32], b[32];
    size_t i, wide = 0;
    int any = 0;

    for (i = 0; i < c->count; i++)
        wide = as_display_width(c->student[i].name) > wide ? as_display_width(c->student[i].name) : wide;
    fprintf(out, as_say(o, AS_MSG_CHK_CLASS), s->students);
    fputc('\n', out);
    for (i = 0; i < c->count; i++) {
        const as_student *st = &c->student[i];
        fprintf(out, "  %s%*s  ", st->name, (int)(wide - as_display_width(st->name)), "");
        if (!st->graded) {
            fprintf(out, "%s\n", as_say(o, AS_MSG_CHK_NOT_GRADED));
            continue;
        }
        mistakes(line, sizeof line, st, "; ");
        short_number(a, sizeof a, st->grade.score);
        fprintf(out, "%s/%zu  %s\n", a, st->grade.nmarks,
                line[0] ? line : as_say(o, AS_MSG_CHK_NO_MISTAKE));
    }
    short_number(a, sizeof a, s->mean_score);
    short_number(b, sizeof b, s->mean_max);
    fprintf(out, as_say(o, AS_MSG_CHK_MEAN), a, b);
    fprintf(out, "\n%s\n", as_say(o, AS_MSG_CHK_MADE));
    if (copied_count(c) > 0) {
        fputs("  ", out);
        fprintf(out, as_say(o, AS_MSG_CHK_MADE_LINE), COPIED_CODE, copied_count(c));
        fputc('\n', out);
        any = 1;
    }
    for (i = AS_DIAG_CARRIED_ERROR + 1; i < AS_DIAG_COUNT; i++) {
        if (s->made[i] == 0)
            continue;
        fputs("  ", out);
        fprintf(out, as_say(o, AS_MSG_CHK_MADE_LINE), as_diag_code((as_diag)i), s->made[i]);
        fputc('\n', out);
        any = 1;
    }
    if (!any)
        fprintf(out, "  %s\n", as_say(o, AS_MSG_CHK_NO_MISTAKE));
    fprintf(out, "\n%s\n", as_say(o, AS_MSG_CHK_ITEMS));
    for (i = 0; i < s->nitems; i++) {
        item_line(line, sizeof line, &s->item[i], o);
        fprintf(out, "  %s\n", line);
    }
}

/* Each graded student by one, a blank line apart, then (several) the summary by the other. */
static int each_student(FILE *out, const as_class *c, const as_render_opts *o,
                        void (*one)(FILE *, const as_student *, const as_render_opts *, int),
                        void (*summary)(FILE *, const as_class *, const as_render_opts *))
{
    size_t i, shown = 0;

    for (i = 0; i < c->count; i++) {
        if (!c->student[i].graded)
            continue;
        if (shown++ > 0)
            fputc('\n', out);
        one(out, &c->student[i], o, c->require_digits);
    }
    if (c->count > 1) {
        fputc('\n', out);
        summary(out, c, o);
    }
    return ferror(out) ? -1 : 0;
}

int as_check_text(FILE *out, const as_class *c, const as_render_opts *o)
{
    return each_student(out, c, o, text_student, text_summary);
}

/* ------------------------------------------------------------------------------ */
/* Markdown                                                                         */
/* ------------------------------------------------------------------------------ */

/* A cell's text with "|" escaped. */
static void md_cell(FILE *out, const char *s)
{
    for (; *s != '\0'; s++) {
        if (*s == '|')
            fputc('\\', out);
        fputc(*s, out);
    }
}

static void md_student(FILE *out, const as_student *s, const as_render_opts *o, int digits)
{
    char name[64], text[1024];
    size_t i;

    (void)digits; /* the Markdown report names the table's mistake, not each cell */
    fputs("## ", out);
    short_number(text, sizeof text, s->grade.score);
    fprintf(out, as_say(o, AS_MSG_CHK_STUDENT), s->name, text, s->grade.nmarks);
    fputs("\n\n", out);
    copied_line(out, s, o, "");
    fprintf(out, "%s| %s | %s | %s |\n|---|---|---|\n", s->copied_variant[0] ? "\n" : "",
            as_say(o, AS_MSG_CHK_COL_TABLE), as_say(o, AS_MSG_CHK_COL_RESULT),
            as_say(o, AS_MSG_CHK_COL_DIAG));
    for (i = 0; i < s->grade.count; i++) {
        const as_table_grade *g = &s->grade.table[i];
        as_table_shown_name(name, sizeof name, g->name, o->ascii);
        fprintf(out, "| %s | %s | ", name,
                as_say(o, g->correct ? AS_MSG_CHK_WORD_RIGHT
                       : g->credit ? AS_MSG_CHK_WORD_CARRIED : AS_MSG_CHK_WORD_WRONG));
        if (g->nfits > 1) {
            fits_list(text, sizeof text, g, o, as_say(o, AS_MSG_CHK_LIST_SEP));
            md_cell(out, text);
            fputs(" ?", out);
        } else if (g->diagnosis != AS_DIAG_NONE) {
            fprintf(out, "`%s`: ", as_diag_code(g->diagnosis));
            as_diag_explain(text, sizeof text, g, o);
            md_cell(out, text);
        }
        fputs(" |\n", out);
    }
    names_list(text, sizeof text, &s->grade, 1, as_say(o, AS_MSG_CHK_LIST_SEP));
    if (text[0] != '\0') {
        fputc('\n', out);
        fprintf(out, as_say(o, AS_MSG_CHK_MISSING), text);
        fputc('\n', out);
    }
    ignored_note(out, &s->grade, o, 1);
}

static void md_summary(FILE *out, const as_class *c, const as_render_opts *o)
{
    const as_class_summary *s = &c->summary;
    char line[1024], a[32], b[32];
    size_t i;

    fputs("## ", out);
    fprintf(out, as_say(o, AS_MSG_CHK_CLASS), s->students);
    fprintf(out, "\n\n| %s | %s | %s |\n|---|---|---|\n", as_say(o, AS_MSG_CHK_COL_STUDENT),
            as_say(o, AS_MSG_CHK_COL_SCORE), as_say(o, AS_MSG_CHK_COL_MISTAKES));
    for (i = 0; i < c->count; i++) {
        const as_student *st = &c->student[i];
        fputs("| ", out);
        md_cell(out, st->name);
        if (!st->graded) {
            fprintf(out, " | | %s |\n", as_say(o, AS_MSG_CHK_NOT_GRADED));
            continue;
        }
        mistakes(line, sizeof line, st, "; ");
        short_number(a, sizeof a, st->grade.score);
        fprintf(out, " | %s/%zu | ", a, st->grade.nmarks);
        md_cell(out, line);
        fputs(" |\n", out);
    }
    short_number(a, sizeof a, s->mean_score);
    short_number(b, sizeof b, s->mean_max);
    fputc('\n', out);
    fprintf(out, as_say(o, AS_MSG_CHK_MEAN), a, b);
    fprintf(out, "\n\n| %s | %s |\n|---|---|\n", as_say(o, AS_MSG_CHK_COL_MISTAKES),
            as_say(o, AS_MSG_CHK_COL_COUNT));
    if (copied_count(c) > 0)
        fprintf(out, "| `%s` | %zu |\n", COPIED_CODE, copied_count(c));
    for (i = AS_DIAG_CARRIED_ERROR + 1; i < AS_DIAG_COUNT; i++)
        if (s->made[i] > 0)
            fprintf(out, "| `%s` | %zu |\n", as_diag_code((as_diag)i), s->made[i]);
    fprintf(out, "\n%s\n\n| %s | %s | %s | %s | %s | %s |\n|---|---|---|---|---|---|\n",
            as_say(o, AS_MSG_CHK_ITEMS), as_say(o, AS_MSG_CHK_COL_TABLE), as_say(o, AS_MSG_CHK_WORD_RIGHT),
            as_say(o, AS_MSG_CHK_WORD_CARRIED), as_say(o, AS_MSG_CHK_WORD_WRONG),
            as_say(o, AS_MSG_CHK_COL_MISTAKES), as_say(o, AS_MSG_CHK_COL_MISSING));
    for (i = 0; i < s->nitems; i++) {
        const as_item *it = &s->item[i];
        char name[64];
        item_made(line, sizeof line, it, ", ");
        as_table_shown_name(name, sizeof name, it->name, o->ascii);
        fprintf(out, "| %s | %zu | %zu | %zu | ", name, it->right, it->carried, it->wrong);
        md_cell(out, line);
        fprintf(out, " | %zu |\n", it->missing);
    }
}

int as_check_md(FILE *out, const as_class *c, const as_render_opts *o)
{
    return each_student(out, c, o, md_student, md_summary);
}

/* ------------------------------------------------------------------------------ */
/* The page (--format html, SPEC §17)                                               */
/* ------------------------------------------------------------------------------ */

/* The parts of a bar: right, carried, wrong, missing, each with its legend's words; the
 * page's style colours them (b0 … b3: the heatmap's colour-blind-safe palette, and
 * grey, lighter in the dark scheme). */
static const as_msg bar_part[] = {AS_MSG_CHK_WORD_RIGHT, AS_MSG_CHK_WORD_CARRIED,
                                  AS_MSG_CHK_WORD_WRONG, AS_MSG_CHK_COL_MISSING};

/* A text cell of a table. */
static void html_cell(as_html *h, const char *tag, const char *s)
{
    fprintf(h->out, "<%s>", tag);
    as_html_text(h, s);
    fprintf(h->out, "</%s>", tag);
}

/* The gradebook: each student's score and mistakes, and the mean. */
static void html_gradebook(as_html *h, const as_class *c, const as_render_opts *o)
{
    char line[1024], a[32], b[64];
    size_t i;

    as_html_step(h, as_say(o, AS_MSG_HTML_CK_BOOK), NULL);
    fputs("<div class=\"scroll\"><table class=\"g\" id=\"as-book\"><thead><tr>", h->out);
    html_cell(h, "th", as_say(o, AS_MSG_CHK_COL_STUDENT));
    html_cell(h, "th", as_say(o, AS_MSG_CHK_COL_SCORE));
    html_cell(h, "th", as_say(o, AS_MSG_CHK_COL_MISTAKES));
    fputs("</tr></thead>\n<tbody>\n", h->out);
    for (i = 0; i < c->count; i++) {
        const as_student *st = &c->student[i];
        fputs("<tr>", h->out);
        html_cell(h, "th", st->name);
        if (!st->graded) {
            fputs("<td></td>", h->out);
            html_cell(h, "td", as_say(o, AS_MSG_CHK_NOT_GRADED));
        } else {
            mistakes(line, sizeof line, st, "; ");
            short_number(a, sizeof a, st->grade.score);
            snprintf(b, sizeof b, "%s/%zu", a, st->grade.nmarks);
            html_cell(h, "td", b);
            html_cell(h, "td", line[0] ? line : as_say(o, AS_MSG_CHK_NO_MISTAKE));
        }
        fputs("</tr>\n", h->out);
    }
    fputs("</tbody></table></div>\n<p class=\"cap\">", h->out);
    short_number(a, sizeof a, c->summary.mean_score);
    short_number(b, sizeof b, c->summary.mean_max);
    snprintf(line, sizeof line, as_say(o, AS_MSG_CHK_MEAN), a, b);
    as_html_text(h, line);
    fputs("</p>\n", h->out);
    as_html_step_end(h);
}

/* One bar of count[0..parts) students side by side, out of n, with its label (the
 * numbers in words) above it: the lengths are the counts themselves, in a view n wide. */
static void html_bar(as_html *h, const char *label, const size_t *count, size_t parts, size_t n)
{
    size_t k, x = 0;

    fputs("<figure class=\"bar\"><figcaption>", h->out);
    as_html_text(h, label);
    fprintf(h->out, "</figcaption><svg viewBox=\"0 0 %zu 1\" preserveAspectRatio=\"none\" "
            "width=\"100%%\" height=\"18\" role=\"img\" aria-label=\"", n > 0 ? n : 1);
    as_html_text(h, label);
    fputs("\">", h->out);
    for (k = 0; k < parts; k++) {
        if (count[k] > 0)
            fprintf(h->out, "<rect class=\"b%zu\" x=\"%zu\" y=\"0\" width=\"%zu\" height=\"1\"/>",
                    parts == 1 ? (size_t)2 : k, x, count[k]);
        x += count[k];
    }
    fputs("</svg></figure>\n", h->out);
}

/* The item analysis: per table a bar of right, carried, wrong and missing; then the
 * named mistakes, a bar each. */
static void html_items(as_html *h, const as_class *c, const as_render_opts *o)
{
    const as_class_summary *s = &c->summary;
    char line[1024];
    size_t i, k;

    as_html_step(h, as_say(o, AS_MSG_HTML_CK_ITEMS), NULL);
    fputs("<p class=\"legend\">", h->out);
    for (k = 0; k < sizeof bar_part / sizeof bar_part[0]; k++) {
        fprintf(h->out, "<span class=\"swatch b%zu\"></span>", k);
        as_html_text(h, as_say(o, bar_part[k]));
        fputc(' ', h->out);
    }
    fputs("</p>\n", h->out);
    for (i = 0; i < s->nitems; i++) {
        const as_item *it = &s->item[i];
        const size_t count[] = {it->right, it->carried, it->wrong, it->missing};
        item_line(line, sizeof line, it, o);
        html_bar(h, line, count, 4, s->students);
    }
    fputs("<p class=\"cap\">", h->out);
    as_html_text(h, as_say(o, AS_MSG_CHK_MADE));
    fputs("</p>\n", h->out);
    for (i = AS_DIAG_CARRIED_ERROR + 1; i < AS_DIAG_COUNT && s->made[i] == 0; i++)
        ;
    if (i == AS_DIAG_COUNT && copied_count(c) == 0)
        html_cell(h, "p", as_say(o, AS_MSG_CHK_NO_MISTAKE));
    if (copied_count(c) > 0) {
        const size_t n = copied_count(c);
        snprintf(line, sizeof line, as_say(o, AS_MSG_CHK_MADE_LINE), COPIED_CODE, n);
        html_bar(h, line, &n, 1, s->students);
    }
    for (i = AS_DIAG_CARRIED_ERROR + 1; i < AS_DIAG_COUNT; i++)
        if (s->made[i] > 0) {
            snprintf(line, sizeof line, as_say(o, AS_MSG_CHK_MADE_LINE), as_diag_code((as_diag)i),
                     s->made[i]);
            html_bar(h, line, &s->made[i], 1, s->students);
        }
    as_html_step_end(h);
}

/* One student: the score, then each table that earned no mark with its wrong cells
 * (every one of them) and what the mistake was. */
static void html_student(as_html *h, const as_student *st, const as_render_opts *o,
                         int require_digits)
{
    char line[1024], score[32], name[64];
    size_t i, k, shown = 0;

    short_number(score, sizeof score, st->grade.score);
    snprintf(line, sizeof line, as_say(o, AS_MSG_CHK_STUDENT), st->name, score, st->grade.nmarks);
    as_html_step(h, line, NULL);
    if (st->copied_variant[0] != '\0') {
        char text[512];
        snprintf(text, sizeof text, as_say(o, AS_MSG_CLS_COPIED), st->copied_variant, st->copied_name);
        snprintf(line, sizeof line, as_say(o, AS_MSG_CHK_DIAG), COPIED_CODE, text);
        html_cell(h, "p", line);
    }
    for (i = 0; i < st->grade.count; i++) {
        const as_table_grade *g = &st->grade.table[i];
        if (g->correct || g->diagnosis == AS_DIAG_CARRIED_ERROR || !g->shape_ok)
            continue;
        as_table_shown_name(name, sizeof name, g->name, o->ascii);
        if (shown++ == 0) {
            snprintf(line, sizeof line, as_say(o, AS_MSG_HTML_CK_WRONG), st->name);
            fputs("<p class=\"cap\">", h->out);
            as_html_text(h, line);
            fputs("</p>\n", h->out);
            fputs("<ul class=\"wrong\">\n", h->out);
        }
        for (k = 0; k < g->nwrong; k++) {
            cell_line(line, sizeof line, g, k, name, o, require_digits);
            html_cell(h, "li", line);
        }
        if (g->diagnosis != AS_DIAG_NONE) {
            char text[512];
            as_diag_explain(text, sizeof text, g, o);
            snprintf(line, sizeof line, as_say(o, AS_MSG_CHK_DIAG), as_diag_code(g->diagnosis), text);
            fputs("<li class=\"diag\">", h->out);
            as_html_text(h, line);
            fputs("</li>\n", h->out);
        }
    }
    if (shown > 0)
        fputs("</ul>\n", h->out);
    else
        html_cell(h, "p", as_say(o, AS_MSG_HTML_CK_NONE));
    names_list(name, sizeof name, &st->grade, 1, as_say(o, AS_MSG_CHK_LIST_SEP));
    if (name[0] != '\0') { /* the tables asked and not answered */
        snprintf(line, sizeof line, as_say(o, AS_MSG_CHK_MISSING), name);
        html_cell(h, "p", line);
    }
    as_html_step_end(h);
}

static int class_json(FILE *out, void *ctx)
{
    return as_check_json(out, ctx);
}

int as_check_html(FILE *out, const as_class *c, const as_render_opts *o)
{
    as_html h;
    size_t i;

    as_html_begin(&h, out, as_say(o, AS_MSG_HTML_CK_TITLE), AS_MSG_HTML_KEYS_STEPS, o);
    if (c->count > 1) {
        html_gradebook(&h, c, o);
        html_items(&h, c, o);
    }
    for (i = 0; i < c->count; i++)
        if (c->student[i].graded)
            html_student(&h, &c->student[i], o, c->require_digits);
    return as_html_end(&h, class_json, (void *)c);
}

/* ------------------------------------------------------------------------------ */
/* CSV gradebook                                                                    */
/* ------------------------------------------------------------------------------ */

/* A field, quoted when it holds a comma, a quote or a line end (RFC 4180). One that a
 * spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a CR: a name
 * "=HYPERLINK(…)") is quoted and prefixed with ' (SPEC §6, OWASP on CSV injection). */
static void csv_field(FILE *out, const char *s)
{
    const int formula = s[0] != '\0' && strchr("=+-@\t\r", s[0]) != NULL;

    if (!formula && strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    if (formula)
        fputc('\'', out);
    for (; *s != '\0'; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

/* Nonzero when t is (a part of) one of g's marks: its credit is in that mark's column. */
static int in_a_mark(const as_table_grade *t, const as_grade *g)
{
    size_t i;

    for (i = 0; i < g->nmarks; i++)
        if (g->mark[i].kind == t->kind && g->mark[i].head == t->head)
            return 1;
    return 0;
}

/* The columns: the tables asked (each a mark, SPEC §6), then every other table or row
 * some student gave, in the book's order. *nmarks gets how many are marks. */
static size_t csv_columns(const char **col, size_t cap, const as_class *c, size_t *nmarks)
{
    const as_table_grade *other[256];
    size_t i, j, k, n = 0, m = 0;

    *nmarks = 0;
    for (i = 0; i < c->count && *nmarks == 0; i++)
        for (j = 0; c->student[i].graded && j < c->student[i].grade.nmarks && j < cap; j++)
            col[(*nmarks)++] = c->student[i].grade.mark[j].name;
    for (i = 0; i < c->count; i++) {
        const as_grade *g = &c->student[i].grade;
        for (j = 0; c->student[i].graded && j < g->count; j++) {
            const as_table_grade *t = &g->table[j];
            if (in_a_mark(t, g))
                continue;
            for (k = 0; k < m && strcmp(other[k]->name, t->name) != 0; k++)
                ;
            if (k < m || m == sizeof other / sizeof other[0])
                continue;
            for (k = m++; k > 0 && as_grade_order(other[k - 1]) > as_grade_order(t); k--)
                other[k] = other[k - 1];
            other[k] = t;
        }
    }
    for (n = *nmarks, k = 0; k < m && n < cap; k++)
        col[n++] = other[k]->name;
    return n;
}

static void csv_student(FILE *out, const as_student *s, const char **col, size_t ncol,
                        size_t nmarks)
{
    char line[1024];
    size_t j, k;

    csv_field(out, s->name);
    if (!s->graded) {
        fprintf(out, ",,");
        for (k = 0; k < ncol; k++)
            fputc(',', out);
        fputs(",\r\n", out);
        return;
    }
    short_number(line, sizeof line, s->grade.score);
    fprintf(out, ",%s,%zu", line, s->grade.nmarks);
    for (k = 0; k < ncol; k++) {
        fputc(',', out);
        for (j = 0; k < nmarks && j < s->grade.nmarks; j++)
            if (s->grade.mark[j].answered && strcmp(s->grade.mark[j].name, col[k]) == 0) {
                short_number(line, sizeof line, s->grade.mark[j].earned);
                fputs(line, out); /* the mark earned; empty when missing */
            }
        for (j = 0; k >= nmarks && j < s->grade.count; j++)
            if (strcmp(s->grade.table[j].name, col[k]) == 0)
                fprintf(out, "%d", s->grade.table[j].credit);
    }
    mistakes(line, sizeof line, s, "; ");
    fputc(',', out);
    csv_field(out, line);
    fputs("\r\n", out);
}

int as_check_csv(FILE *out, const as_class *c)
{
    const char *col[256];
    size_t nmarks;
    const size_t ncol = csv_columns(col, sizeof col / sizeof col[0], c, &nmarks);
    size_t i;

    fputs("\xef\xbb\xbfstudent,score,max", out);
    for (i = 0; i < ncol; i++) {
        fputc(',', out);
        csv_field(out, col[i]);
    }
    fputs(",mistakes\r\n", out);
    for (i = 0; i < c->count; i++)
        csv_student(out, &c->student[i], col, ncol, nmarks);
    return ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------------------ */
/* JSON                                                                             */
/* ------------------------------------------------------------------------------ */

/* A number as JSON (-inf as null). */
static void json_number(FILE *out, double v)
{
    as_fmt_json(out, v);
}

static void json_cells(FILE *out, const as_table_grade *t)
{
    size_t k;

    fputs("[", out);
    for (k = 0; k < t->nwrong; k++) {
        const size_t c = t->wrong[k].cell, cols = t->expected.cols;
        fprintf(out, "%s{\"cell\": [%ld, %zu], \"written\": ", k ? ", " : "",
                t->row >= 0 ? t->row : (long)(c / cols), c % cols);
        if (t->shape_ok)
            json_number(out, t->given->value.v[c]);
        else
            fputs("null", out);
        fputs(", \"expected\": ", out);
        json_number(out, t->expected.v[c]);
        fprintf(out, "%s}", t->wrong[k].too_few ? ", \"too_few_decimals\": true" : "");
    }
    fputs("]", out);
}

/* Beside "fits" (the codes, stable identifiers, as "diagnosis"), when a fit is made with
 * another W table -- wrong_weights, torch_layout -- which table it made and with which W
 * (what the text, md and csv reports say: "wrong_weights (V made with Wk)"), each fit
 * null or {"table": "V", "weights": "Wk"}; nothing when no fit names a W. */
static void json_fit_weights(FILE *out, const as_table_grade *t)
{
    static const char *const table[3] = {"Q", "K", "V"}, *const w[3] = {"Wq", "Wk", "Wv"};
    size_t k, any = 0;

    for (k = 0; k < t->nfits; k++)
        any |= t->fits[k].diag == AS_DIAG_WRONG_WEIGHTS || t->fits[k].diag == AS_DIAG_TORCH_LAYOUT;
    if (!any)
        return;
    fputs(", \"fits_weights\": [", out);
    for (k = 0; k < t->nfits; k++) {
        const as_fit f = t->fits[k];
        const int made = f.diag == AS_DIAG_WRONG_WEIGHTS ? f.detail / 3 % 3 : f.detail % 3;
        fputs(k ? ", " : "", out);
        if (f.diag != AS_DIAG_WRONG_WEIGHTS && f.diag != AS_DIAG_TORCH_LAYOUT)
            fputs("null", out);
        else
            fprintf(out, "{\"table\": \"%s\", \"weights\": \"%s\"}", table[made],
                    w[f.diag == AS_DIAG_WRONG_WEIGHTS ? f.detail % 3 : made]);
    }
    fputs("]", out);
}

static void json_table(FILE *out, const as_table_grade *t)
{
    static const char *const w[3] = {"Wq", "Wk", "Wv"};
    const char *code = as_diag_code(t->diagnosis);
    size_t k;

    fputs("{\"name\": ", out);
    as_json_string(out, t->name);
    fprintf(out, ", \"correct\": %s, \"credit\": %d, \"wrong_cells\": ", t->correct ? "true" : "false",
            t->credit);
    json_cells(out, t);
    fprintf(out, ", \"diagnosis\": %s%s%s", code ? "\"" : "", code ? code : "null", code ? "\"" : "");
    if (t->diagnosis == AS_DIAG_WRONG_WEIGHTS)
        fprintf(out, ", \"weights\": \"%s\"", w[t->detail % 3]);
    if (t->diagnosis == AS_DIAG_TORCH_LAYOUT)
        fprintf(out, ", \"weights\": \"%s\"", w[t->detail % 3]);
    if (t->diagnosis == AS_DIAG_CARRIED_ERROR) {
        fputs(", \"carried_from\": ", out);
        as_json_string(out, t->carried_from);
    }
    if (t->nfits > 1) {
        fputs(", \"fits\": [", out);
        for (k = 0; k < t->nfits; k++)
            fprintf(out, "%s\"%s\"", k ? ", " : "", as_diag_code(t->fits[k].diag));
        fputs("]", out);
        json_fit_weights(out, t);
    }
    fputs("}", out);
}

static void json_student(FILE *out, const as_student *s)
{
    const as_grade *g = &s->grade;
    size_t i, k;

    fputs("{\"name\": ", out);
    as_json_string(out, s->name);
    fputs(", \"score\": ", out);
    json_number(out, g->score);
    fprintf(out, ", \"max\": %zu, \"correct\": %s, ", g->nmarks, g->correct ? "true" : "false");
    if (s->copied_variant[0] != '\0') {
        fputs("\"" COPIED_CODE "\": ", out);
        as_json_string(out, s->copied_variant);
        fputs(", ", out);
    }
    fputs("\"tables\": [", out);
    for (i = 0; i < g->count; i++) {
        fputs(i ? ", " : "", out);
        json_table(out, &g->table[i]);
    }
    fputs("], \"missing\": [", out);
    for (k = i = 0; i < g->nmarks; i++)
        if (!g->mark[i].answered) {
            fputs(k++ ? ", " : "", out);
            as_json_string(out, g->mark[i].name);
        }
    fputs("], \"ignored\": [", out);
    for (i = 0; i < g->nignored; i++) {
        fputs(i ? ", " : "", out);
        as_json_string(out, g->ignored[i]);
    }
    fputs("]}", out);
}

int as_check_json(FILE *out, const as_class *c)
{
    size_t i, shown = 0;

    if (c->count == 1 && c->student[0].graded) {
        json_student(out, &c->student[0]);
        fputc('\n', out);
        return ferror(out) ? -1 : 0;
    }
    fputs("{\"students\": [", out);
    for (i = 0; i < c->count; i++) {
        if (!c->student[i].graded)
            continue;
        fputs(shown++ ? ",\n  " : "\n  ", out);
        json_student(out, &c->student[i]);
    }
    fprintf(out, "],\n \"summary\": {\"students\": %zu, \"mean_score\": ", c->summary.students);
    json_number(out, c->summary.mean_score);
    fputs(", \"mean_max\": ", out);
    json_number(out, c->summary.mean_max);
    fputs(", \"mistakes\": {", out);
    shown = 0;
    if (copied_count(c) > 0)
        fprintf(out, "\"%s\": %zu", COPIED_CODE, copied_count(c)), shown = 1;
    for (i = AS_DIAG_CARRIED_ERROR + 1; i < AS_DIAG_COUNT; i++)
        if (c->summary.made[i] > 0)
            fprintf(out, "%s\"%s\": %zu", shown++ ? ", " : "", as_diag_code((as_diag)i),
                    c->summary.made[i]);
    fputs("},\n  \"items\": [", out);
    for (i = 0; i < c->summary.nitems; i++) {
        const as_item *it = &c->summary.item[i];
        size_t d, k = 0;
        fputs(i ? ",\n    " : "\n    ", out);
        fputs("{\"table\": ", out);
        as_json_string(out, it->name);
        fprintf(out, ", \"right\": %zu, \"carried\": %zu, \"wrong\": %zu, \"missing\": %zu, "
                     "\"mistakes\": {", it->right, it->carried, it->wrong, it->missing);
        for (d = 0; d < AS_DIAG_COUNT; d++)
            if (it->made[d] > 0)
                fprintf(out, "%s\"%s\": %zu", k++ ? ", " : "",
                        d == AS_DIAG_NONE ? "?" : as_diag_code((as_diag)d), it->made[d]);
        fputs("}}", out);
    }
    fputs("]}}\n", out);
    return ferror(out) ? -1 : 0;
}

void as_class_free(as_class *c)
{
    size_t i;

    for (i = 0; i < c->count; i++) {
        as_grade_free(&c->student[i].grade);
        as_answers_free(&c->student[i].answers);
        free(c->student[i].name);
        free(c->student[i].path);
    }
    free(c->student);
    memset(c, 0, sizeof *c);
}
