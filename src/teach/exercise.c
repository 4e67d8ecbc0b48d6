/* exercise.c - new hand-calculation exercises (SPEC §7). Numbers are drawn as small
 * integers k and written as k/2 or k/4 (exact in binary and in decimals), from the
 * project's own PRNG; each draw is written out, parsed back and run for real, and a
 * draw that breaks a promise of its level is replaced by the next one. */
#include "attnstep/exercise.h"
#include "attnstep/headcheck.h"
#include "attnstep/lex.h"
#include "attnstep/outhead.h"
#include "attnstep/parse.h"
#include "attnstep/prng.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TRIES 20000     /* draws before giving up (every level needs far fewer) */
#define COLUMN_TRIES 4000   /* draws of one W column that must land on the level's grain */
#define MIN_SHARE 0.05      /* each readable share of the walk-through row (SPEC §7) */
#define EXACT_DIGITS 17     /* enough places to write any k/4 exactly */

/* ------------------------------------------------------------------------------ */
/* The levels                                                                       */
/* ------------------------------------------------------------------------------ */

/* Entries are k/den with k drawn from [lo, hi]. */
typedef struct range {
    long lo, hi;
    int den;
} range;

/* Q, K and V land on a grain: every entry a multiple of 1/qk (Q and K) or 1/v (V), so
 * that QKᵀ is a multiple of 1/(qk·qk): whole numbers at levels 1 and 2; at level 3
 * halves in Q and K and quarters in V, so QKᵀ has quarters: at most 2 decimal places. */
typedef struct level_rule {
    size_t tokens, width, dk, dv; /* defaults */
    range x, w, wv;               /* X; Wq and Wk; Wv */
    int qk, v;                    /* the grains of Q and K, and of V */
} level_rule;

static const level_rule rules[3] = {
    /* 1: small integers everywhere, d_k 4 so that √d_k = 2 */
    {2, 2, 4, 2, {-2, 2, 1}, {-1, 1, 1}, {-2, 2, 1}, 1, 1},
    /* 2: like F11, halves in the W tables but whole Q, K, V */
    {2, 2, 2, 2, {-2, 2, 1}, {-2, 2, 2}, {-10, 10, 2}, 1, 1},
    /* 3: halves in X, quarters in W; halves in Q and K, quarters in V */
    {3, 2, 2, 3, {-4, 4, 2}, {-4, 4, 4}, {-8, 8, 4}, 2, 4},
};

/* Token labels: a sentence per language, drawn by one index so both get the same numbers. */
#define SENTENCES 5
static const char *const sentence[SENTENCES][2][AS_EXERCISE_MAX_TOKENS] = {
    {{"我", "爱", "吃", "苹", "果", "和", "香", "蕉"},
     {"I", "like", "to", "eat", "apples", "and", "ripe", "bananas"}},
    {{"猫", "坐", "在", "垫", "子", "上", "睡", "觉"},
     {"my", "little", "cat", "sleeps", "on", "a", "warm", "mat"}},
    {{"今", "天", "我", "们", "一", "起", "读", "书"},
     {"we", "read", "books", "together", "in", "a", "quiet", "library"}},
    {{"春", "风", "吹", "绿", "了", "江", "南", "岸"},
     {"spring", "wind", "turns", "every", "river", "bank", "bright", "green"}},
    {{"小", "狗", "在", "院", "子", "里", "跑", "步"},
     {"a", "small", "dog", "runs", "around", "our", "green", "yard"}},
};

static int usage(as_error *err, as_msg msg, as_msg hint)
{
    as_error_msg(err, "", 0, 0, msg);
    as_error_hint_msg(err, hint);
    return -1;
}

/* The level's own rules for d_k and d_v. */
static int check_level(const as_exercise_opts *o, as_error *err)
{
    if (o->level == 1 && o->dk != 1 && o->dk != 4)
        return usage(err, AS_MSG_EX_L1_DK, AS_MSG_HINT_EX_L1_DK);
    if (o->level == 2 && o->dk != 2)
        return usage(err, AS_MSG_EX_L2_DK, AS_MSG_HINT_EX_L2_DK);
    if (o->level == 3 && o->dv == o->dk)
        return usage(err, AS_MSG_EX_L3_DV, AS_MSG_HINT_EX_L3_DV);
    if (o->level == 3 && o->tokens > AS_EXERCISE_L3_TOKENS)
        return usage(err, AS_MSG_EX_L3_TOKENS, AS_MSG_HINT_EX_L3_TOKENS);
    /* no draw can keep the promise of rows that are not proportional: said at once */
    if (o->width == 1)
        return usage(err, AS_MSG_EX_WIDTH_ONE, AS_MSG_HINT_EX_WIDTH_ONE);
    return 0;
}

int as_exercise_settle(as_exercise_opts *o, as_error *err)
{
    const level_rule *r;

    if (o->level == 0)
        o->level = 2;
    if (o->level < 1 || o->level > 3)
        return usage(err, AS_MSG_EX_LEVEL, AS_MSG_HINT_EX_LEVEL);
    r = &rules[o->level - 1];
    o->tokens = o->tokens ? o->tokens : r->tokens;
    o->width = o->width ? o->width : r->width;
    o->dk = o->dk ? o->dk : r->dk;
    o->dv = o->dv ? o->dv : r->dv;
    if (o->mask == AS_MASK_DEFAULT)
        o->mask = AS_MASK_CAUSAL;
    if (o->tokens < 2)
        return usage(err, AS_MSG_EX_TOKENS, AS_MSG_HINT_EX_TOKENS);
    if (o->tokens > AS_EXERCISE_MAX_TOKENS || o->width > AS_EXERCISE_MAX_WIDTH ||
        o->dk > AS_EXERCISE_MAX_WIDTH || o->dv > AS_EXERCISE_MAX_WIDTH)
        return usage(err, AS_MSG_EX_SIZES, AS_MSG_HINT_EX_SIZES);
    return check_level(o, err);
}

/* ------------------------------------------------------------------------------ */
/* Drawing                                                                          */
/* ------------------------------------------------------------------------------ */

typedef struct draft {
    as_matrix x, wq, wk, wv; /* [n, width], [width, d_k], [width, d_k], [width, d_v] */
} draft;

static double draw_one(as_prng *g, const range *r)
{
    return (double)as_prng_range(g, r->lo, r->hi) / r->den;
}

/* One entry of a W column of the given length: in a column longer than 2 about two
 * entries are nonzero, so that a wide exercise keeps small scores (a column of 2 makes
 * no extra draw: the chapter's size draws the same numbers either way). */
static double draw_weight(as_prng *g, const range *r, size_t length)
{
    if (length > 2 && as_prng_range(g, 1, (long)length) > 2)
        return 0;
    return draw_one(g, r);
}

/* Nonzero when v is a multiple of 1/grain. */
static int on_grain(double v, int grain)
{
    return v * grain == floor(v * grain);
}

/* Column j of w, drawn again until every entry of x @ column is a multiple of 1/grain.
 * Every value is a multiple of 1/8 far below 2^50, so the sums are exact. */
static void draw_column(as_matrix *w, size_t j, const as_matrix *x, as_prng *g,
                        const range *r, int grain)
{
    size_t i, t, tries;
    int ok = 0;

    for (tries = 0; tries < COLUMN_TRIES && !ok; tries++) {
        for (t = 0; t < w->rows; t++)
            AS_AT(*w, t, j) = draw_weight(g, r, w->rows);
        for (ok = 1, i = 0; i < x->rows; i++) {
            double s = 0;
            for (t = 0; t < x->cols; t++)
                s += AS_AT(*x, i, t) * AS_AT(*w, t, j);
            ok &= on_grain(s, grain);
        }
    }
    if (!ok) /* a zero column is on every grain; the check then rejects the draw */
        for (t = 0; t < w->rows; t++)
            AS_AT(*w, t, j) = 0;
}

static void draw_weights(as_matrix *w, const as_matrix *x, as_prng *g, const range *r, int grain)
{
    size_t j;

    for (j = 0; j < w->cols; j++)
        draw_column(w, j, x, g, r, grain);
}

static void draw_all(draft *d, as_prng *g, const level_rule *r)
{
    size_t i;

    for (i = 0; i < d->x.rows * d->x.cols; i++)
        d->x.v[i] = draw_one(g, &r->x);
    draw_weights(&d->wq, &d->x, g, &r->w, r->qk);
    draw_weights(&d->wk, &d->x, g, &r->w, r->qk);
    draw_weights(&d->wv, &d->x, g, &r->wv, r->v);
}

static int draft_init(draft *d, const as_exercise_opts *o)
{
    memset(d, 0, sizeof *d);
    return as_matrix_init(&d->x, o->tokens, o->width) | as_matrix_init(&d->wq, o->width, o->dk) |
           as_matrix_init(&d->wk, o->width, o->dk) | as_matrix_init(&d->wv, o->width, o->dv);
}

static void draft_free(draft *d)
{
    as_matrix_free(&d->x);
    as_matrix_free(&d->wq);
    as_matrix_free(&d->wk);
    as_matrix_free(&d->wv);
}

/* ------------------------------------------------------------------------------ */
/* Writing                                                                          */
/* ------------------------------------------------------------------------------ */

/* "NAME = [[...]]" the book's way, with digits places (−∞, or -inf with ascii). */
static as_block statement_block(const char *name, const as_matrix *m, int digits, int ascii)
{
    const as_cell_style st = {digits, ascii, NULL, NULL};
    char label[32];
    int rounded;
    as_block b = as_block_matrix(m, &st, &rounded);

    snprintf(label, sizeof label, "%s = ", name);
    as_block_label(&b, label);
    return b;
}

/* The comment lines that name the exercise and the command that makes it again. */
static void header(FILE *out, const as_exercise_opts *o, as_msg what)
{
    static const char *const masks[] = {"causal", "causal", "none", "custom"};
    char again[320];

    snprintf(again, sizeof again,
             "attnstep exercise --level %d --seed %lu --tokens %zu --width %zu --dk %zu "
             "--dv %zu --mask %s%s%s%s",
             o->level, o->seed, o->tokens, o->width, o->dk, o->dv, masks[o->mask],
             o->step != AS_STEP_ALL ? " --step " : "",
             o->step != AS_STEP_ALL ? as_step_name(o->step) : "",
             o->lang == AS_LANG_EN ? " --lang en" : "");
    fputs("# ", out);
    fprintf(out, as_msg_text(o->lang, AS_MSG_EX_HEADER), o->level, o->seed);
    if (o->student != NULL) {
        fputs("\n# ", out);
        fprintf(out, as_msg_text(o->lang, AS_MSG_EX_STUDENT), o->student,
                o->variant != NULL ? o->variant : "");
    }
    fputs("\n# ", out);
    fprintf(out, as_msg_text(o->lang, AS_MSG_EX_AGAIN), again);
    if (o->step != AS_STEP_ALL) {
        fputs("\n# ", out);
        fprintf(out, as_msg_text(o->lang, AS_MSG_EX_DRILL),
                as_msg_text(o->lang, (as_msg)(AS_MSG_SHEET_STEP_PROJECT + o->step - 1)));
    }
    fprintf(out, "\n# %s\n", as_msg_text(o->lang, what));
}

/* X with a comment naming each row's token, as examples/f11.txt has it. */
static void write_x(as_block *out, const as_matrix *x, const char *const *labels, as_lang lang)
{
    as_block b = statement_block("X", x, EXACT_DIGITS, 1), cap = {0}, both;
    char line[128];
    size_t i;

    for (i = 0; i < x->rows; i++) {
        snprintf(line, sizeof line, as_msg_text(lang, AS_MSG_ROW_IS), i, labels[i]);
        as_block_add(&cap, "# %s", line);
    }
    both = as_block_beside(&b, &cap, 6);
    as_block_append(out, &both);
    as_block_free(&both);
    as_block_free(&cap);
    as_block_free(&b);
}

/* Wq, Wk and Wv side by side, as the chapter prints them. */
static void write_weights(as_block *out, const draft *d)
{
    const as_matrix *w[] = {&d->wq, &d->wk, &d->wv};
    static const char *const name[] = {"Wq", "Wk", "Wv"};
    as_block row = {0};
    size_t i;

    for (i = 0; i < 3; i++) {
        as_block one = statement_block(name[i], w[i], EXACT_DIGITS, 1);
        as_block next = as_block_beside(&row, &one, row.count ? 4 : 0);
        as_block_free(&one);
        as_block_free(&row);
        row = next;
    }
    as_block_append(out, &row);
    as_block_free(&row);
}

/* The ask: line: the tables the sheet asks, that check marks every student out of
 * (SPEC §6); one head, so C (the one head's O) is not a mark of its own. */
static void write_ask(FILE *out, as_step step)
{
    static const as_table order[] = {AS_T_Q, AS_T_K, AS_T_V, AS_T_QKT, AS_T_S,
                                     AS_T_A, AS_T_O, AS_T_PROBS};
    const unsigned asked = as_step_asked(step);
    size_t i;

    fputs("ask:", out);
    for (i = 0; i < sizeof order / sizeof order[0]; i++)
        if (asked & (1u << order[i]))
            fprintf(out, " %s", as_table_name(order[i]));
    fputc('\n', out);
}

/* The exercise as an input file, into a new buffer. */
static int write_input(char **text, size_t *len, const draft *d, const as_exercise_opts *o,
                       const char *const *labels)
{
    FILE *out = open_memstream(text, len);
    as_block b = {0};
    size_t i;
    int failed;

    if (out == NULL)
        return -1;
    header(out, o, AS_MSG_EX_TASK);
    fputs("tokens:", out);
    for (i = 0; i < o->tokens; i++)
        fprintf(out, " %s", labels[i]);
    fprintf(out, "\nmask: %s\n", o->mask == AS_MASK_NONE ? "none" : "causal");
    write_ask(out, o->step);
    fputc('\n', out);
    write_x(&b, &d->x, labels, o->lang);
    as_block_add(&b, "%s", "");
    write_weights(&b, d);
    as_block_print(out, &b);
    failed = b.failed;
    as_block_free(&b);
    failed |= ferror(out);
    if (fclose(out) != 0 || failed) {
        free(*text);
        *text = NULL;
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------------ */
/* The promises, checked on the real run                                            */
/* ------------------------------------------------------------------------------ */

static int has_zero_row(const as_matrix *m)
{
    size_t i, j;

    for (i = 0; i < m->rows; i++) {
        for (j = 0; j < m->cols && AS_AT(*m, i, j) == 0; j++)
            ;
        if (j == m->cols)
            return 1;
    }
    return 0;
}

/* Nonzero when every value is a multiple of 1/grain and at most limit in size (limit
 * < 0: any size). */
static int grain_within(const as_matrix *m, int grain, double limit)
{
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++)
        if (!on_grain(m->v[i], grain) || (limit >= 0 && fabs(m->v[i]) > limit))
            return 0;
    return 1;
}

static int has_fraction(const as_matrix *m)
{
    return !grain_within(m, 1, -1);
}

/* Nonzero when two rows of m are proportional (a zero row is proportional to any):
 * then two tokens ask the same question, and their rows of scores say nothing new. */
static int proportional_rows(const as_matrix *m)
{
    size_t i, k, a, b;

    for (i = 0; i < m->rows; i++)
        for (k = i + 1; k < m->rows; k++) {
            int same = 1;
            for (a = 0; a < m->cols && same; a++)
                for (b = a + 1; b < m->cols && same; b++)
                    same = AS_AT(*m, i, a) * AS_AT(*m, k, b) == AS_AT(*m, i, b) * AS_AT(*m, k, a);
            if (same)
                return 1;
        }
    return 0;
}

/* Nonzero when m has rank at most 1 (every 2x2 minor zero: all rows proportional): a W
 * table that maps every token onto one line, so that all its Queries (Keys, Values)
 * are multiples of one row and the scores of a row are just a scaled X (level 3 avoids
 * them). The values are multiples of 1/8 far below 2^25: each product is exact. */
static int rank_one(const as_matrix *m)
{
    size_t i, k, a, b;

    for (i = 0; i < m->rows; i++)
        for (k = i + 1; k < m->rows; k++)
            for (a = 0; a < m->cols; a++)
                for (b = a + 1; b < m->cols; b++)
                    if (AS_AT(*m, i, a) * AS_AT(*m, k, b) != AS_AT(*m, i, b) * AS_AT(*m, k, a))
                        return 0;
    return 1;
}

/* Nonzero when row i reads at least two positions with different scores, and gives each
 * readable position a share of at least MIN_SHARE (no near one-hot row). */
static int row_teaches(const as_head_trace *h, size_t i)
{
    size_t j, first = h->S.cols;
    int differ = 0;

    for (j = 0; j < h->S.cols; j++) {
        const double s = AS_AT(h->S, i, j);
        if (s == -INFINITY)
            continue;
        if (AS_AT(h->A, i, j) < MIN_SHARE)
            return 0;
        if (first == h->S.cols)
            first = j;
        else if (s != AS_AT(h->S, i, first))
            differ = 1;
    }
    return differ;
}

static int promises_kept(const as_problem *p, const as_trace *t, const as_exercise_opts *o)
{
    const as_head_trace *h = &t->head[0];
    const level_rule *r = &rules[o->level - 1];

    if (has_zero_row(&t->Q) || has_zero_row(&t->K) || has_zero_row(&t->V) ||
        proportional_rows(p->X))
        return 0;
    if (!row_teaches(h, p->n - 1))
        return 0; /* the walk-through row is the last */
    if (!grain_within(&t->Q, r->qk, -1) || !grain_within(&t->K, r->qk, -1) ||
        !grain_within(&t->V, r->v, -1) ||
        !grain_within(&h->QKT, r->qk * r->qk, AS_EXERCISE_MAX_SCORE))
        return 0;
    if (o->level == 3 && (rank_one(p->Wq) || rank_one(p->Wk) || rank_one(p->Wv)))
        return 0;
    /* level 2 is like the chapter: halves in Wq and Wk */
    return o->level != 2 || (has_fraction(p->Wq) && has_fraction(p->Wk));
}

/* Nonzero when some row of x @ w is all zero. Every value is a multiple of 1/8 far
 * below 2^50, so each sum is exact: the run's product has the same zero rows. */
static int product_has_zero_row(const as_matrix *x, const as_matrix *w)
{
    size_t i, j, t;

    for (i = 0; i < x->rows; i++) {
        for (j = 0; j < w->cols; j++) {
            double s = 0;
            for (t = 0; t < x->cols; t++)
                s += AS_AT(*x, i, t) * AS_AT(*w, t, j);
            if (s != 0)
                break;
        }
        if (j == w->cols)
            return 1;
    }
    return 0;
}

/* The promises a draft breaks before it is written out and run: proportional rows of X
 * (which the run reads exactly as drawn) or a zero row of Q, K or V (exact sums). The
 * draws are the same either way; this only spares writing, reading and running most
 * of the draws that sizes hard to fit make (hundreds of times as fast to give up). */
static int breaks_a_promise_already(const draft *d)
{
    return proportional_rows(&d->x) || product_has_zero_row(&d->x, &d->wq) ||
           product_has_zero_row(&d->x, &d->wk) || product_has_zero_row(&d->x, &d->wv);
}

int as_exercise_open(as_session *s, const char *text, size_t len, as_error *err)
{
    return as_session_open_text(s, text, len, "(exercise)", NULL, err);
}

/* Parses the written exercise back and runs it: 1 when it keeps every promise, 0 when
 * not, -1 when it does not even read back (a bug, reported in err). */
static int acceptable(const char *text, size_t len, const as_exercise_opts *o, as_error *err)
{
    as_session s;
    int ok;

    if (as_exercise_open(&s, text, len, err) != 0)
        return -1;
    ok = promises_kept(&s.p, &s.t, o);
    as_session_free(&s);
    return ok;
}

/* ------------------------------------------------------------------------------ */
/* The output head's drill (--step sample, SPEC §19)                                */
/* ------------------------------------------------------------------------------ */

/* One token whose layer is the identity (Wq, Wk, Wv and Wout all I), so that the
 * logits are X's row as written: the sheet gives them, the student does the head. The
 * logits are s·T with distinct whole s in [-2, 2] and T 0.5 or 2: logits/T is whole,
 * so every e^x the softmax needs is e^0, e^-1 ... e^-4 (the --exp-table values). */
#define HEAD_MIN_VOCAB 3
#define HEAD_MAX_VOCAB 5
#define HEAD_MARGIN 0.02 /* a running sum this close to P, or u to a boundary, is too close */
#define HEAD_SEEDS 999   /* sample: SEED draws a seed in 1 .. this */

typedef struct head_draft {
    size_t vocab;
    double logit[HEAD_MAX_VOCAB];
    double t;             /* 0.5 or 2 (never 1: temperature_after_softmax must show) */
    size_t top_k;         /* 2 .. vocab - 1, or 0 for top-p */
    double top_p;         /* 0.5 .. 0.9, or 0 for top-k */
    unsigned long seed;   /* 0: greedy */
} head_draft;

static void draw_head(head_draft *h, as_prng *g)
{
    long s[HEAD_MAX_VOCAB];
    size_t i, k;

    h->vocab = (size_t)as_prng_range(g, HEAD_MIN_VOCAB, HEAD_MAX_VOCAB);
    h->t = as_prng_range(g, 0, 1) ? 2.0 : 0.5;
    for (i = 0; i < h->vocab; i++) { /* distinct: a cut between equal logits teaches ties */
        do {
            s[i] = as_prng_range(g, -2, 2);
            for (k = 0; k < i && s[k] != s[i]; k++)
                ;
        } while (k < i);
        h->logit[i] = (double)s[i] * h->t;
    }
    h->top_k = 0;
    h->top_p = 0;
    if (as_prng_range(g, 0, 1))
        h->top_k = (size_t)as_prng_range(g, 2, (long)h->vocab - 1);
    else
        h->top_p = (double)as_prng_range(g, 5, 9) / 10;
    h->seed = as_prng_range(g, 0, 1) ? (unsigned long)as_prng_range(g, 1, HEAD_SEEDS) : 0;
}

/* The identity [n, n], written as NAME = [[...]]. */
static void write_identity(FILE *out, const char *name, size_t n)
{
    size_t i, j;

    fprintf(out, "%s = [", name);
    for (i = 0; i < n; i++) {
        if (i > 0) /* the rows under the first, as the chapter aligns them */
            fprintf(out, ",\n%*s", (int)strlen(name) + 4, "");
        fputc('[', out);
        for (j = 0; j < n; j++)
            fprintf(out, "%s%d", j ? ", " : "", i == j);
        fputc(']', out);
    }
    fputs("]\n", out);
}

static int write_head_input(char **text, size_t *len, const head_draft *h,
                            const as_exercise_opts *o, const char *label)
{
    FILE *out = open_memstream(text, len);
    size_t i;
    int failed;

    if (out == NULL)
        return -1;
    header(out, o, AS_MSG_EX_TASK_SAMPLE);
    fprintf(out, "tokens: %s\nmask: none\n", label);
    write_ask(out, o->step);
    fprintf(out, "\n# %s\nX = [[", as_msg_text(o->lang, AS_MSG_EX_HEAD_NOTE));
    for (i = 0; i < h->vocab; i++)
        fprintf(out, "%s%g", i ? ", " : "", h->logit[i]);
    fputs("]]\n", out);
    write_identity(out, "Wq", h->vocab);
    write_identity(out, "Wk", h->vocab);
    write_identity(out, "Wv", h->vocab);
    fputs("\nhead: Wout\n", out);
    write_identity(out, "Wout", h->vocab);
    fprintf(out, "temperature: %g\n", h->t);
    if (h->top_k)
        fprintf(out, "top_k: %zu\n", h->top_k);
    else
        fprintf(out, "top_p: %g\n", h->top_p);
    if (h->seed)
        fprintf(out, "sample: %lu\n", h->seed);
    else
        fputs("sample: greedy\n", out);
    failed = ferror(out);
    if (fclose(out) != 0 || failed) {
        free(*text);
        *text = NULL;
        return -1;
    }
    return 0;
}

/* Nonzero when the largest gap |a[i] - b[i]| reaches 2 units of the sheet's 2 places. */
static int differ(const double *a, const double *b, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (fabs(a[i] - b[i]) >= 0.02)
            return 1;
    return 0;
}

/* The head drill's promises, on the real run: at least two tokens kept and one cut
 * away; no running sum of top-p within HEAD_MARGIN of P and no u within it of a
 * boundary of the draw (a student's rounded numbers decide the same way); applying T
 * after the softmax gives other numbers, which check names temperature_after_softmax
 * and no other mistake (written to 2 places). */
static int head_promises_kept(const as_session *s, const head_draft *h)
{
    const as_out_head *o = &s->out;
    const as_matrix *last = &s->t.O; /* no block: h is O's last row */
    const double *h0 = &AS_AT(*last, last->rows - 1, 0);
    double written[HEAD_MAX_VOCAB], unit[HEAD_MAX_VOCAB];
    as_diag diag = AS_DIAG_NONE;
    as_out_head v;
    size_t i, kept = 0;
    int ok;

    if (o->final.v == NULL)
        return 0;
    for (i = 0; i < o->vocab; i++)
        kept += o->final.v[i] > 0;
    if (kept < 2 || kept == o->vocab)
        return 0;
    for (i = 0; h->top_p > 0 && i < o->vocab; i++)
        if (fabs(o->cum.v[i] - h->top_p) < HEAD_MARGIN)
            return 0;
    for (i = 0; h->seed && i < o->vocab; i++)
        if (fabs(o->draw_cum.v[i] - o->u) < HEAD_MARGIN)
            return 0;
    if (as_head_variant(&v, &s->p, h0, last->cols, AS_DIAG_TEMPERATURE_AFTER_SOFTMAX) != 1)
        return 0;
    ok = differ(v.final.v, o->final.v, o->vocab);
    for (i = 0; i < o->vocab; i++) { /* the mistake's numbers as a student writes them */
        written[i] = round(v.final.v[i] * 100) / 100;
        unit[i] = 0.01;
    }
    as_out_head_free(&v);
    /* and check names that mistake alone (no other order gives the same numbers) */
    if (ok && as_head_diagnose(&diag, &s->p, h0, last->cols, written, unit, -1) != 0)
        return 0;
    return ok && diag == AS_DIAG_TEMPERATURE_AFTER_SOFTMAX;
}

static int make_head(char **text, size_t *len, const as_exercise_opts *o, as_prng *g,
                     const char *label, as_error *err)
{
    head_draft h;
    size_t tries;
    int ok = 0;

    for (tries = 0; tries < MAX_TRIES && ok == 0; tries++) {
        as_session s;
        draw_head(&h, g);
        if (write_head_input(text, len, &h, o, label) != 0) {
            as_error_msg(err, "", 0, 0, AS_MSG_OOM);
            return -1;
        }
        if (as_exercise_open(&s, *text, *len, err) != 0) {
            ok = -1;
        } else {
            ok = head_promises_kept(&s, &h);
            as_session_free(&s);
        }
        if (ok != 1) {
            free(*text);
            *text = NULL;
        }
    }
    if (ok == 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_EX_NONE, o->level);
        as_error_hint_msg(err, AS_MSG_HINT_EX_NONE);
    }
    return ok == 1 ? 0 : -1;
}

int as_exercise_make(char **text, size_t *len, const as_exercise_opts *o, as_error *err)
{
    const level_rule *r = &rules[o->level - 1];
    const char *const *labels;
    as_prng g;
    draft d;
    size_t tries;
    int ok = 0;

    *text = NULL;
    as_prng_seed(&g, o->seed);
    /* the labels first, one draw for both languages: the numbers do not depend on them */
    labels = sentence[as_prng_range(&g, 0, SENTENCES - 1)][o->lang];
    if (o->step == AS_STEP_SAMPLE)
        return make_head(text, len, o, &g, labels[0], err);
    if (draft_init(&d, o) != 0)
        goto nomem;
    for (tries = 0; tries < MAX_TRIES && ok == 0; tries++) {
        draw_all(&d, &g, r);
        if (breaks_a_promise_already(&d))
            continue; /* the run would refuse it for the same reason: no need to run it */
        if (write_input(text, len, &d, o, labels) != 0)
            goto nomem;
        if ((ok = acceptable(*text, *len, o, err)) != 1) {
            free(*text);
            *text = NULL;
        }
    }
    draft_free(&d);
    if (ok == 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_EX_NONE, o->level);
        as_error_hint_msg(err, AS_MSG_HINT_EX_NONE);
    }
    return ok == 1 ? 0 : -1;
nomem:
    draft_free(&d);
    as_error_msg(err, "", 0, 0, AS_MSG_OOM);
    return -1;
}

/* ------------------------------------------------------------------------------ */
/* The answer key, in the ANSWERS syntax                                            */
/* ------------------------------------------------------------------------------ */

/* The head drill's key: probs, which check marks, and the token drawn as a comment
 * (a choice, not a number: the sheet's line for it is marked by the teacher). */
static int head_key(FILE *out, const as_trace *t, const as_exercise_opts *o,
                    const as_render_opts *ro)
{
    as_block b = {0}, one;
    char token[32];
    int failed;

    if (t->out == NULL)
        return -1;
    one = statement_block(as_tab_get(AS_TAB_PROBS)->name, &t->out->final, ro->digits, ro->ascii);
    as_block_add(&b, "%s", "");
    as_block_append(&b, &one);
    as_block_free(&one);
    as_block_print(out, &b);
    failed = b.failed;
    as_block_free(&b);
    snprintf(token, sizeof token, "%zu", t->out->token);
    fputs("# ", out);
    fprintf(out, as_msg_text(o->lang, AS_MSG_SHEET_SAMPLE_GOT), token);
    fputc('\n', out);
    return failed || ferror(out) ? -1 : 0;
}

int as_exercise_key(FILE *out, const as_trace *t, const as_exercise_opts *o,
                    const as_render_opts *ro)
{
    const as_head_trace *h = &t->head[0];
    const as_matrix *m[] = {&t->Q, &t->K, &t->V, &h->QKT, &h->S, &h->A, &t->O};
    static const as_tab name[] = {AS_TAB_Q, AS_TAB_K, AS_TAB_V, AS_TAB_QKT,
                                  AS_TAB_S, AS_TAB_A, AS_TAB_O};
    as_block b = {0};
    size_t i;
    int failed;

    header(out, o, AS_MSG_EX_KEY);
    if (o->step == AS_STEP_SAMPLE)
        return head_key(out, t, o, ro);
    for (i = 0; i < sizeof m / sizeof m[0]; i++) {
        as_block one = statement_block(as_tab_get(name[i])->name, m[i], ro->digits, ro->ascii);
        as_block_add(&b, "%s", "");
        as_block_append(&b, &one);
        as_block_free(&one);
    }
    as_block_print(out, &b);
    failed = b.failed;
    as_block_free(&b);
    return failed || ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------------------ */
/* Variants for a class                                                             */
/* ------------------------------------------------------------------------------ */

#define VARIANT_SEEDS 1000000000UL /* variant seeds stay below this: short to type */

/* FNV-1a, 64 bits: the name's bytes folded into one number. */
static uint64_t fnv1a(const char *s)
{
    uint64_t h = UINT64_C(14695981039346656037);

    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * UINT64_C(1099511628211);
    return h;
}

unsigned long as_exercise_variant_seed(unsigned long base, const char *name)
{
    as_prng g;

    as_prng_seed(&g, (uint64_t)base ^ fnv1a(name));
    return (unsigned long)(as_prng_next(&g) % VARIANT_SEEDS);
}

void as_exercise_variant_id(char id[AS_VARIANT_ID], unsigned long seed)
{
    static const char alphabet[] = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; /* no I, O, 0, 1 */
    as_prng g;
    uint64_t bits;
    int k;

    as_prng_seed(&g, (uint64_t)seed);
    bits = as_prng_next(&g);
    for (k = 0; k < 4; k++, bits >>= 5)
        id[k] = alphabet[bits & 31];
    id[4] = '\0';
}

/* ---- the roster ---- */

void as_roster_free(as_roster *r)
{
    size_t i;

    for (i = 0; i < r->count; i++)
        free(r->name[i]);
    free(r->name);
    r->name = NULL;
    r->count = 0;
}

static int roster_fail(as_roster *r, as_error *err, const char *path, int line, int col,
                       const char *what, const char *hint)
{
    as_error_set(err, path, line, col, "%s", what);
    as_error_hint(err, "%s", hint);
    as_roster_free(r);
    return -1;
}

/* The names read so far, for the twice-given check in time linear in the roster: an
 * open-addressing table of indices into r->name (index + 1; 0: empty), at most half
 * full, with the line of each name. */
typedef struct seen {
    size_t *slot, cap; /* cap: a power of two */
    int *line;
    size_t room;       /* of r->name and line */
} seen;

static size_t hash(const char *s, size_t n)
{
    uint64_t h = UINT64_C(14695981039346656037); /* FNV-1a */
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * UINT64_C(1099511628211);
    return (size_t)(h ^ (h >> 32));
}

/* The slot of s[0..n): where it is, or the empty slot where it would go. */
static size_t slot_of(const seen *t, const as_roster *r, const char *s, size_t n)
{
    size_t i = hash(s, n) & (t->cap - 1);

    while (t->slot[i] != 0) {
        const char *x = r->name[t->slot[i] - 1];
        if (strncmp(x, s, n) == 0 && x[n] == '\0')
            return i;
        i = (i + 1) & (t->cap - 1);
    }
    return i;
}

/* Makes room for one more name (doubling: linear in all). Returns 0, or -1. */
static int seen_grow(seen *t, as_roster *r)
{
    size_t i, cap;
    size_t *slot;

    if (r->count == t->room) {
        const size_t room = t->room ? 2 * t->room : 64;
        char **name = realloc(r->name, room * sizeof *name);
        int *line = name != NULL ? realloc(t->line, room * sizeof *line) : NULL;
        if (name != NULL)
            r->name = name;
        if (line == NULL)
            return -1;
        t->line = line;
        t->room = room;
    }
    if (2 * (r->count + 1) <= t->cap)
        return 0;
    cap = t->cap ? 2 * t->cap : 128;
    if ((slot = calloc(cap, sizeof *slot)) == NULL)
        return -1;
    free(t->slot);
    t->slot = slot;
    t->cap = cap;
    for (i = 0; i < r->count; i++)
        t->slot[slot_of(t, r, r->name[i], strlen(r->name[i]))] = i + 1;
    return 0;
}

/* Adds the name s[0..n) found on line, or gives the line it is on already (*twice).
 * Returns 0, or -1 when memory ran out. */
static int roster_add(seen *t, as_roster *r, const char *s, size_t n, int line, int *twice)
{
    size_t i;

    *twice = 0;
    if (seen_grow(t, r) != 0)
        return -1;
    i = slot_of(t, r, s, n);
    if (t->slot[i] != 0) {
        *twice = t->line[t->slot[i] - 1];
        return 0;
    }
    if ((r->name[r->count] = malloc(n + 1)) == NULL)
        return -1;
    memcpy(r->name[r->count], s, n);
    r->name[r->count][n] = '\0';
    t->line[r->count] = line;
    t->slot[i] = ++r->count;
    return 0;
}

/* The name on the cursor's line, trimmed (p, n: empty for a blank or comment line). */
static void roster_line(as_cursor *c, const char **p, size_t *n)
{
    const char *end;

    as_cursor_skip_blanks(c);
    *p = c->p;
    while (c->p < c->end && *c->p != '#' && as_lex_eol(c->p, c->end) == 0)
        c->p++;
    for (end = c->p; end > *p;) {
        if (end[-1] == ' ' || end[-1] == '\t')
            end--;
        else if (end - *p >= 3 && as_lex_blank(end - 3, end) == 3)
            end -= 3; /* U+3000, the ideographic space */
        else if (end - *p >= 2 && as_lex_blank(end - 2, end) == 2)
            end -= 2; /* U+00A0 */
        else
            break;
    }
    *n = (size_t)(end - *p);
    as_cursor_skip_line(c);
}

#define NO_FAULT ((as_msg)0) /* AS_MSG_TITLE: never a roster's fault */

/* What is wrong with the name p[0..n) (at *bad), or 0: a control character, a
 * direction control (which reorders what a reader sees), more than 64 bytes. */
static as_msg name_fault(const char *p, size_t n, const char **bad)
{
    size_t k;

    for (k = 0; k < n; k++) {
        *bad = p + k;
        if ((unsigned char)p[k] < 0x20 || p[k] == 0x7f)
            return AS_MSG_ROSTER_CONTROL;
        if (as_lex_bidi(p + k, p + n) != 0)
            return AS_MSG_ROSTER_BIDI;
    }
    *bad = p;
    return n > AS_ROSTER_NAME_MAX ? AS_MSG_ROSTER_LONG : NO_FAULT;
}

/* The error of a roster above its limits, or 0. */
static as_msg roster_limit(size_t len, size_t names)
{
    return len > AS_ROSTER_MAX_BYTES ? AS_MSG_ROSTER_BIG
           : names >= AS_ROSTER_MAX_NAMES ? AS_MSG_ROSTER_MANY
                                         : NO_FAULT;
}

static int roster_fail_msg(as_roster *r, as_error *err, const char *path, int line, int col,
                           as_lang lang, as_msg what, as_msg hint)
{
    char text[256];

    snprintf(text, sizeof text, as_msg_text(lang, what), AS_ROSTER_MAX_NAMES,
             AS_ROSTER_MAX_BYTES >> 20);
    return roster_fail(r, err, path, line, col, text, as_msg_text(lang, hint));
}

int as_roster_parse(as_roster *r, const char *text, size_t len, const char *path, as_lang lang,
                    as_error *err)
{
    const char *bad = as_lex_bad_byte(text, len), *p;
    int line, col, twice;
    as_cursor c;
    size_t n;
    as_msg fault = NO_FAULT;
    seen t = {NULL, 0, NULL, 0};
    char what[256], name[AS_ROSTER_NAME_MAX + 1];

    memset(r, 0, sizeof *r);
    if ((fault = roster_limit(len, 0)) != NO_FAULT)
        return roster_fail_msg(r, err, path, 0, 0, lang, fault, AS_MSG_ROSTER_LIMIT_HINT);
    if (bad != NULL) {
        as_lex_locate(text, len, bad, &line, &col);
        return roster_fail(r, err, path, line, col, as_msg_text(lang, AS_MSG_ROSTER_NOT_UTF8),
                           as_msg_text(lang, AS_MSG_ROSTER_NOT_UTF8_HINT));
    }
    for (as_cursor_init(&c, text, len); c.p < c.end; as_cursor_newline(&c)) {
        roster_line(&c, &p, &n);
        if ((fault = name_fault(p, n, &bad)) != NO_FAULT || (n > 0 && (fault = roster_limit(0, r->count)) != NO_FAULT))
            break;
        if (n == 0)
            continue;
        if (roster_add(&t, r, p, n, c.line, &twice) != 0) {
            fault = AS_MSG_OOM;
            break;
        }
        if (twice != 0) {
            snprintf(name, sizeof name, "%.*s", (int)n, p);
            snprintf(what, sizeof what, as_msg_text(lang, AS_MSG_ROSTER_TWICE), name, twice);
            free(t.slot);
            free(t.line);
            return roster_fail(r, err, path, c.line, as_cursor_col(&c, p), what,
                               as_msg_text(lang, AS_MSG_ROSTER_TWICE_HINT));
        }
    }
    free(t.slot);
    free(t.line);
    if (fault == AS_MSG_OOM)
        return roster_fail_msg(r, err, path, 0, 0, lang, fault, AS_MSG_ROSTER_HINT);
    if (fault != NO_FAULT)
        return roster_fail_msg(r, err, path, c.line, as_cursor_col(&c, bad), lang, fault,
                               fault == AS_MSG_ROSTER_MANY ? AS_MSG_ROSTER_LIMIT_HINT
                                                           : AS_MSG_ROSTER_HINT);
    if (r->count == 0)
        return roster_fail(r, err, path, 0, 0, as_msg_text(lang, AS_MSG_ROSTER_EMPTY),
                           as_msg_text(lang, AS_MSG_ROSTER_HINT));
    return 0;
}
