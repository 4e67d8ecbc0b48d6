/* exercise.c - new hand-calculation exercises (SPEC §7). Numbers are drawn as small
 * integers k and written as k/2 or k/4 (exact in binary and in decimals), from the
 * project's own PRNG; each draw is written out, parsed back and run for real, and a
 * draw that breaks a promise of its level is replaced by the next one. */
#include "attnstep/exercise.h"
#include "attnstep/block.h"
#include "attnstep/headcheck.h"
#include "attnstep/lex.h"
#include "attnstep/numfmt.h"
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

/* The block's own rules (SPEC §15), after the level's defaults: a drill of its steps
 * takes pre; width 4 unless given, d_v = width (the residual adds O to X), LayerNorm
 * at least 4 wide, norm and residual drills on pre, an ffn drill with an FFN. */
static int settle_block(as_exercise_opts *o, size_t width, size_t dv, as_error *err)
{
    if (o->block == AS_BLOCK_NONE && as_step_of_block(o->step))
        o->block = AS_BLOCK_PRE;
    if (o->block == AS_BLOCK_NONE)
        return 0;
    if (o->block == AS_BLOCK_POST && (o->step == AS_STEP_NORM || o->step == AS_STEP_RESIDUAL)) {
        as_error_msg(err, "", 0, 0, AS_MSG_EX_POST_DRILL, as_step_name(o->step));
        as_error_hint_msg(err, AS_MSG_HINT_EX_POST_DRILL);
        return -1;
    }
    if (o->step == AS_STEP_FFN && o->ffn == AS_FFN_NONE)
        return usage(err, AS_MSG_EX_FFN_NONE, AS_MSG_HINT_EX_FFN_NONE);
    if (o->step == AS_STEP_SAMPLE)
        return usage(err, AS_MSG_EX_BLOCK_SAMPLE, AS_MSG_HINT_EX_BLOCK_SAMPLE);
    o->width = width ? width : 4;
    if (dv != 0 && dv != o->width)
        return usage(err, AS_MSG_EX_BLOCK_DV, AS_MSG_HINT_EX_BLOCK_DV);
    o->dv = o->width;
    if (o->width < (o->norm == AS_NORM_LAYER ? 4u : 3u)) { /* SPEC §15: width ≥ 3 */
        as_error_msg(err, "", 0, 0, AS_MSG_EX_LN_WIDTH, o->width);
        as_error_hint_msg(err, AS_MSG_HINT_EX_LN_WIDTH);
        return -1;
    }
    return 0;
}

int as_exercise_settle(as_exercise_opts *o, as_error *err)
{
    const level_rule *r;
    const size_t width = o->width, dv = o->dv; /* as given: a block has its own defaults */

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
    if (settle_block(o, width, dv, err) != 0)
        return -1;
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
    /* the block's (SPEC §15; empty without one): γ and β of norm1 and norm2 [1, width];
     * the FFN's Wup, bup, Wgate (swiglu) and Wdown; and what the attention reads, as
     * the exact rows give it (pre: norm1(X) without ε; post: X itself) */
    as_matrix g[2], b[2], up, bup, gate, down, in;
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

/* Nonzero when v is within tol of a multiple of 1/grain: a block's tables carry ε's
 * traces (N1 ≈ 0.999995 where the exact row gives 1), so they are checked as the key's
 * places show them. */
static int near_grain(double v, int grain, double tol)
{
    return fabs(v * grain - round(v * grain)) <= tol * grain;
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
    const size_t w = o->width, f = AS_EXERCISE_BLOCK_DFF;
    int rc;

    memset(d, 0, sizeof *d);
    rc = as_matrix_init(&d->x, o->tokens, o->width) | as_matrix_init(&d->wq, o->width, o->dk) |
         as_matrix_init(&d->wk, o->width, o->dk) | as_matrix_init(&d->wv, o->width, o->dv);
    if (o->block == AS_BLOCK_NONE)
        return rc;
    return rc | as_matrix_init(&d->g[0], 1, w) | as_matrix_init(&d->b[0], 1, w) |
           as_matrix_init(&d->g[1], 1, w) | as_matrix_init(&d->b[1], 1, w) |
           as_matrix_init(&d->up, w, f) | as_matrix_init(&d->bup, 1, f) |
           as_matrix_init(&d->gate, w, f) | as_matrix_init(&d->down, f, w) |
           as_matrix_init(&d->in, o->tokens, w);
}

static void draft_free(draft *d)
{
    as_matrix *m[] = {&d->x, &d->wq, &d->wk, &d->wv, &d->g[0], &d->b[0], &d->g[1], &d->b[1],
                      &d->up, &d->bup, &d->gate, &d->down, &d->in};
    size_t k;

    for (k = 0; k < sizeof m / sizeof m[0]; k++)
        as_matrix_free(m[k]);
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
    char again[400], block[80] = "";

    if (o->block != AS_BLOCK_NONE)
        snprintf(block, sizeof block, " --block %s --norm %s --ffn %s",
                 o->block == AS_BLOCK_PRE ? "pre" : "post", o->norm == AS_NORM_RMS ? "rms" : "layer",
                 as_ffn_name(o->ffn));
    snprintf(again, sizeof again,
             "attnstep exercise --level %d --seed %lu --tokens %zu --width %zu --dk %zu "
             "--dv %zu --mask %s%s%s%s%s",
             o->level, o->seed, o->tokens, o->width, o->dk, o->dv, masks[o->mask], block,
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


/* Nonzero when the exercise's block makes table t (SPEC §15): N1 and N2 only pre, G
 * only swiglu, nothing after H1 with ffn: none; Y is never a table of its own (no lnf). */
static int block_makes(const as_exercise_opts *o, as_table t)
{
    const int ffn = o->ffn != AS_FFN_NONE;

    switch (t) {
    case AS_T_N1: return o->block == AS_BLOCK_PRE;
    case AS_T_N2: return o->block == AS_BLOCK_PRE && ffn;
    case AS_T_H1: return 1;
    case AS_T_G: return o->ffn == AS_FFN_SWIGLU;
    case AS_T_U: case AS_T_F: case AS_T_D: case AS_T_H2: return ffn;
    default: return 0;
    }
}

/* The tables the exercise asks, in the order its block computes them: N1 (pre, what the
 * attention reads), Q … O, then H1 N2 U G F D H2; into out, how many. */
static size_t asked_tables(const as_exercise_opts *o, as_table *out)
{
    static const as_table order[] = {AS_T_N1, AS_T_Q, AS_T_K, AS_T_V, AS_T_QKT, AS_T_S, AS_T_A,
                                     AS_T_O, AS_T_H1, AS_T_N2, AS_T_U, AS_T_G, AS_T_F, AS_T_D,
                                     AS_T_H2, AS_T_PROBS};
    const unsigned asked = as_step_asked(o->step);
    size_t i, n = 0;

    for (i = 0; i < sizeof order / sizeof order[0]; i++) {
        const int of_block = order[i] >= AS_T_N1 && order[i] <= AS_T_Y;
        if ((asked & (1u << order[i])) && (!of_block || (o->block != AS_BLOCK_NONE &&
                                                         block_makes(o, order[i]))))
            out[n++] = order[i];
    }
    return n;
}

/* The ask: line: the tables the sheet asks, that check marks every student out of
 * (SPEC §6); one head, so C (the one head's O) is not a mark of its own. */
static void write_ask(FILE *out, const as_exercise_opts *o)
{
    as_table t[AS_T_COUNT];
    size_t i, n = asked_tables(o, t);

    fputs("ask:", out);
    for (i = 0; i < n; i++)
        fprintf(out, " %s", as_table_name(t[i]));
    fputc('\n', out);
}

/* NAME = [[…]] of each table, side by side. */
static void write_beside(as_block *out, const as_matrix *const *m, const char *const *name,
                         size_t count)
{
    as_block row = {0};
    size_t i;

    for (i = 0; i < count; i++) {
        as_block one = statement_block(name[i], m[i], EXACT_DIGITS, 1);
        as_block next = as_block_beside(&row, &one, row.count ? 4 : 0);
        as_block_free(&one);
        as_block_free(&row);
        row = next;
    }
    as_block_append(out, &row);
    as_block_free(&row);
}

/* Wq, Wk and Wv side by side, as the chapter prints them. */
static void write_weights(as_block *out, const draft *d)
{
    const as_matrix *w[] = {&d->wq, &d->wk, &d->wv};
    static const char *const name[] = {"Wq", "Wk", "Wv"};

    write_beside(out, w, name, 3);
}

/* The block's settings, after mask: (SPEC §15). */
static void write_block_settings(FILE *out, const as_exercise_opts *o)
{
    if (o->block == AS_BLOCK_NONE)
        return;
    fprintf(out, "block: %s\nnorm: %s\nffn: %s\n", o->block == AS_BLOCK_PRE ? "pre" : "post",
            o->norm == AS_NORM_RMS ? "rms" : "layer", as_ffn_name(o->ffn));
    /* pre: ε = 0, so that X's roots and N1 are exact and a student's "-2" is right (SPEC
     * §6: a number written without a decimal point must be exact) */
    if (o->block == AS_BLOCK_PRE)
        fputs("norm_eps: 0\n", out);
}

/* The block's tables: γ and β of each norm (RMSNorm has no β), then the FFN's. */
static void write_block_tables(as_block *b, const draft *d, const as_exercise_opts *o)
{
    const int rms = o->norm == AS_NORM_RMS, ffn = o->ffn != AS_FFN_NONE;
    const as_matrix *n1[] = {&d->g[0], &d->b[0]}, *n2[] = {&d->g[1], &d->b[1]};
    static const char *const n1name[] = {"ln1_g", "ln1_b"}, *const n2name[] = {"ln2_g", "ln2_b"};
    const as_matrix *up[] = {&d->up, &d->bup}, *down[] = {&d->down}, *gate[] = {&d->gate};
    static const char *const upname[] = {"Wup", "bup"}, *const downname[] = {"Wdown"},
                             *const gatename[] = {"Wgate"};

    if (o->block == AS_BLOCK_NONE)
        return;
    as_block_add(b, "%s", "");
    write_beside(b, n1, n1name, rms ? 1 : 2);
    if (ffn)
        write_beside(b, n2, n2name, rms ? 1 : 2);
    if (!ffn)
        return;
    as_block_add(b, "%s", "");
    write_beside(b, up, upname, 2);
    if (o->ffn == AS_FFN_SWIGLU)
        write_beside(b, gate, gatename, 1);
    write_beside(b, down, downname, 1);
}

/* The comment of a block exercise: that ε is 0 and X's roots are exact
 * (pre), or that post's norms read sums the softmax made. */
static void write_block_note(FILE *out, const as_exercise_opts *o)
{
    if (o->block == AS_BLOCK_NONE)
        return;
    fputs("# ", out);
    if (o->block == AS_BLOCK_PRE) {
        fputs(as_msg_text(o->lang, AS_MSG_EX_BLOCK_EPS), out);
    } else {
        fputs(as_msg_text(o->lang, AS_MSG_EX_BLOCK_POST), out);
    }
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
    header(out, o, o->block != AS_BLOCK_NONE ? AS_MSG_EX_TASK_BLOCK : AS_MSG_EX_TASK);
    write_block_note(out, o);
    fputs("tokens:", out);
    for (i = 0; i < o->tokens; i++)
        fprintf(out, " %s", labels[i]);
    fprintf(out, "\nmask: %s\n", o->mask == AS_MASK_NONE ? "none" : "causal");
    write_block_settings(out, o);
    write_ask(out, o);
    fputc('\n', out);
    write_x(&b, &d->x, labels, o->lang);
    as_block_add(&b, "%s", "");
    write_weights(&b, d);
    write_block_tables(&b, d, o);
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

/* Nonzero when some column of m is all 0. */
static int zero_column(const as_matrix *m)
{
    size_t i, j;

    for (j = 0; j < m->cols; j++) {
        for (i = 0; i < m->rows && AS_AT(*m, i, j) == 0; i++)
            ;
        if (i == m->rows)
            return 1;
    }
    return 0;
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
    const as_matrix *in = d->in.v != NULL ? &d->in : &d->x; /* what the attention reads */

    if (d->in.v != NULL && (zero_column(&d->wq) || zero_column(&d->wk) || zero_column(&d->up) ||
                            zero_column(&d->down)))
        return 1; /* the block's promise on the weights as drawn (block_promises_kept) */
    return proportional_rows(&d->x) || product_has_zero_row(in, &d->wq) ||
           product_has_zero_row(in, &d->wk) || product_has_zero_row(in, &d->wv);
}

/* ------------------------------------------------------------------------------ */
/* The whole block (--block pre|post, --step norm|residual|ffn; SPEC §15)           */
/* ------------------------------------------------------------------------------ */

#define ROW_TRIES 4000      /* draws of one row of X whose root must come out readable */
#define KEY_HALF 5e-5       /* half a unit of the key's 4 places: below it a cell reads 0 */
#define ACT_LIMIT 4.0       /* |U| at most this: the activation's table stays short */
#define MIN_VAR 0.25        /* every norm's σ² (mean square) at least this: no flat row */

static const range block_x = {-4, 4, 1};       /* X: whole numbers */
static const range block_gamma = {1, 4, 2};    /* γ: 0.5, 1, 1.5, 2 */
static const range block_beta = {-2, 2, 2};    /* β: −1 … 1 in halves */
static const range block_w = {-2, 2, 2};       /* the FFN's weights: −1 … 1 in halves */
static const range block_bias = {-1, 1, 2};    /* bup: −0.5, 0, 0.5 */

/* Nonzero when the row x[0..w) of whole numbers has a root a student reads: LayerNorm's
 * σ (RMSNorm's root mean square) a multiple of 1/2 from 1/2 to 4, into *root. Whole
 * sums, so exact: σ² = (w·Σx² − (Σx)²)/w², and σ = j/2 when 4(w·Σx² − (Σx)²) = (j·w)². */
static int root_readable(const double *x, size_t w, as_norm_kind norm, double *root)
{
    long s1 = 0, s2 = 0, t, r, j;
    size_t k;

    for (k = 0; k < w; k++) {
        const long v = lround(x[k]);
        s1 += v;
        s2 += v * v;
    }
    t = norm == AS_NORM_LAYER ? 4 * ((long)w * s2 - s1 * s1) : 4 * (long)w * s2;
    r = lround(sqrt((double)t));
    if (t <= 0 || r * r != t || r % (long)w != 0)
        return 0;
    j = r / (long)w;
    *root = (double)j / 2;
    return j >= 1 && j <= 8;
}

/* Row i of X for block pre: drawn again until its root is readable (the first draw
 * kept if none is); and row i of what the attention reads, the exact norm1 of it. */
static void draw_pre_row(draft *d, size_t i, as_prng *g, as_norm_kind norm)
{
    const size_t w = d->x.cols;
    double *x = &AS_AT(d->x, i, 0), root = 1, mean = 0;
    size_t k, tries;
    int ok = 0;

    for (tries = 0; tries < ROW_TRIES && !ok; tries++) {
        for (k = 0; k < w; k++)
            x[k] = draw_one(g, &block_x);
        ok = root_readable(x, w, norm, &root);
    }
    for (k = 0; norm == AS_NORM_LAYER && k < w; k++)
        mean += x[k] / (double)w;
    for (k = 0; k < w; k++)
        AS_AT(d->in, i, k) = AS_AT(d->g[0], 0, k) * (x[k] - mean) / root +
                             (norm == AS_NORM_LAYER ? AS_AT(d->b[0], 0, k) : 0);
}

static void draw_cells(as_matrix *m, as_prng *g, const range *r)
{
    size_t k;

    for (k = 0; k < m->rows * m->cols; k++)
        m->v[k] = draw_one(g, r);
}

/* The FFN's weights: about two nonzero halves a column of Wup (Wgate), and of Wdown. */
static void draw_ffn(draft *d, as_prng *g)
{
    size_t k;

    for (k = 0; k < d->up.rows * d->up.cols; k++)
        d->up.v[k] = draw_weight(g, &block_w, d->up.rows);
    draw_cells(&d->bup, g, &block_bias);
    for (k = 0; k < d->gate.rows * d->gate.cols; k++)
        d->gate.v[k] = draw_weight(g, &block_w, d->gate.rows);
    for (k = 0; k < d->down.rows * d->down.cols; k++)
        d->down.v[k] = draw_weight(g, &block_w, d->down.rows);
}

/* One draw of a block exercise: γ and β, X (pre: rows with readable roots), the
 * attention's W on what it reads (the level's grains), the FFN. */
static void draw_block(draft *d, as_prng *g, const level_rule *r, const as_exercise_opts *o)
{
    size_t i;

    for (i = 0; i < 2; i++) {
        draw_cells(&d->g[i], g, &block_gamma);
        draw_cells(&d->b[i], g, &block_beta);
    }
    if (o->block == AS_BLOCK_PRE) {
        for (i = 0; i < d->x.rows; i++)
            draw_pre_row(d, i, g, o->norm);
    } else {
        draw_cells(&d->x, g, &r->x);
        memcpy(d->in.v, d->x.v, d->x.rows * d->x.cols * sizeof *d->x.v);
    }
    draw_weights(&d->wq, &d->in, g, &r->w, r->qk);
    draw_weights(&d->wk, &d->in, g, &r->w, r->qk);
    /* small, and halves at least: V is added back to X, not squared into the scores */
    draw_weights(&d->wv, &d->in, g, &r->w, r->v > 2 ? r->v : 2);
    draw_ffn(d, g);
}

/* Nonzero when some row of m reads all 0 at the key's 4 places. */
static int near_zero_row(const as_matrix *m)
{
    size_t i, j;

    for (i = 0; i < m->rows; i++) {
        for (j = 0; j < m->cols && fabs(AS_AT(*m, i, j)) < KEY_HALF; j++)
            ;
        if (j == m->cols)
            return 1;
    }
    return 0;
}

/* Nonzero when every cell of m is within KEY_HALF of a multiple of 1/grain, and at most
 * limit in size (limit < 0: any). */
static int near_grain_within(const as_matrix *m, int grain, double limit)
{
    size_t i;

    for (i = 0; i < m->rows * m->cols; i++)
        if (!near_grain(m->v[i], grain, KEY_HALF) || (limit >= 0 && fabs(m->v[i]) > limit))
            return 0;
    return 1;
}

/* Nonzero when every row norm nt read has σ² (mean square) at least MIN_VAR, and, when
 * readable is set (pre's norm1, on X as drawn), a divisor that reads as a multiple of
 * 1/2 at the key's places. An empty record (no such norm) keeps it. */
static int norm_kept(const as_norm_trace *nt, int readable)
{
    size_t i;

    for (i = 0; i < nt->var.rows; i++) {
        const double div = nt->div.v[i];
        if (nt->var.v[i] < MIN_VAR || (readable && fabs(div - round(2 * div) / 2) >= KEY_HALF))
            return 0;
    }
    return 1;
}

/* Nonzero when the walk-through row's scores differ and each readable share is at
 * least MIN_SHARE, with the scores compared at the key's places (ε moves them a little). */
static int row_teaches_near(const as_head_trace *h, size_t i)
{
    size_t j, first = h->S.cols;
    int differ = 0;

    for (j = 0; j < h->S.cols; j++) {
        const double sc = AS_AT(h->S, i, j);
        if (sc == -INFINITY)
            continue;
        if (AS_AT(h->A, i, j) < MIN_SHARE)
            return 0;
        if (first == h->S.cols)
            first = j;
        else if (fabs(sc - AS_AT(h->S, i, first)) > 0.01)
            differ = 1;
    }
    return differ;
}

/* The FFN's promises: U on both sides of 0 (the activation bends) and within ±ACT_LIMIT. */
static int ffn_kept(const as_block_trace *b)
{
    int below = 0, above = 0;
    size_t i;

    for (i = 0; i < b->U.rows * b->U.cols; i++) {
        below |= b->U.v[i] < -0.1;
        above |= b->U.v[i] > 0.1;
        if (fabs(b->U.v[i]) > ACT_LIMIT)
            return 0;
    }
    for (i = 0; i < b->Z.rows * b->Z.cols; i++) /* swiglu: what SiLU reads, as U */
        if (fabs(b->Z.v[i]) > ACT_LIMIT)
            return 0;
    return below && above && !near_zero_row(&b->U) && !near_zero_row(&b->F) &&
           !near_zero_row(&b->D) && (b->G.v == NULL || !near_zero_row(&b->G));
}

static int block_promises_kept(const as_problem *p, const as_trace *t, const as_exercise_opts *o)
{
    const as_head_trace *h = &t->head[0];
    const as_block_trace *b = t->block;
    const level_rule *r = &rules[o->level - 1];
    const double limit = o->level < 3 ? AS_EXERCISE_MAX_SCORE : -1;

    if (b == NULL || near_zero_row(&t->Q) || near_zero_row(&t->K) || near_zero_row(&t->V) ||
        proportional_rows(&p->in->mat[AS_X].m) || !row_teaches_near(h, p->n - 1))
        return 0;
    if (!near_grain_within(&t->Q, r->qk, -1) || !near_grain_within(&t->K, r->qk, -1) ||
        !near_grain_within(&t->V, r->v > 2 ? r->v : 2, -1) ||
        !near_grain_within(&h->QKT, r->qk * r->qk, limit))
        return 0;
    if (zero_column(p->Wq) || zero_column(p->Wk) ||
        (p->Wup != NULL && (zero_column(p->Wup) || zero_column(p->Wdown))))
        return 0; /* a score's, U's or D's column nothing feeds: a wasted column */
    if (!norm_kept(&b->norm1, p->block == AS_BLOCK_PRE) || !norm_kept(&b->norm2, 0) ||
        near_zero_row(&b->H1) || (b->N1.v != NULL && near_zero_row(&b->N1)))
        return 0;
    if (p->ffn == AS_FFN_NONE)
        return 1;
    return ffn_kept(b) && (b->N2.v == NULL || !near_zero_row(&b->N2)) && !near_zero_row(&b->H2);
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
    ok = o->block != AS_BLOCK_NONE ? block_promises_kept(&s.p, &s.t, o) : promises_kept(&s.p, &s.t, o);
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
    write_ask(out, o);
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
        if (o->block != AS_BLOCK_NONE)
            draw_block(&d, &g, r, o);
        else
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
    const as_matrix *m[7 + 8] = {&t->Q, &t->K, &t->V, &h->QKT, &h->S, &h->A, &t->O};
    as_tab name[7 + 8] = {AS_TAB_Q, AS_TAB_K, AS_TAB_V, AS_TAB_QKT, AS_TAB_S, AS_TAB_A, AS_TAB_O};
    static const as_tab block[] = {AS_TAB_N1, AS_TAB_H1, AS_TAB_N2, AS_TAB_U,
                                   AS_TAB_G,  AS_TAB_F,  AS_TAB_D,  AS_TAB_H2};
    as_block b = {0};
    size_t i, n = 7;
    int failed;

    header(out, o, AS_MSG_EX_KEY);
    if (o->step == AS_STEP_SAMPLE)
        return head_key(out, t, o, ro);
    for (i = 0; t->block != NULL && i < sizeof block / sizeof block[0]; i++)
        if ((m[n] = as_block_table(t->block, block[i])) != NULL) /* the tables the block made */
            name[n++] = block[i];
    for (i = 0; i < n; i++) {
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
