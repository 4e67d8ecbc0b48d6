/* practice.c - a tutor in the terminal (SPEC §14); see practice.h. The numbers shown
 * and judged are the trace's (and the mistakes' chains', ownchain.h); the words are the
 * message table's. */
#include "attnstep/practice.h"
#include "attnstep/block.h"
#include "attnstep/blockcheck.h"
#include "attnstep/check_report.h"
#include "attnstep/block.h"
#include "attnstep/expand.h"
#include "attnstep/headcheck.h"
#include "attnstep/outhead.h"
#include "attnstep/lex.h"
#include "attnstep/number.h"
#include "attnstep/numfmt.h"
#include "attnstep/ownchain.h"
#include "attnstep/positions.h"
#include "attnstep/steps.h"

#include <math.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>

#define TRIES 3        /* wrong answers before the answer is shown */
#define LINE_MAX_IN 256 /* an answer longer than this is cut (no number is that long) */
#define TYPED_SHOWN 40 /* bytes of a non-number echoed back in the message */
#define MAX_FITS 4

#define ASKABLE ((1u << AS_T_Q) | (1u << AS_T_K) | (1u << AS_T_V) | (1u << AS_T_QKT) | \
                 (1u << AS_T_S) | (1u << AS_T_A) | (1u << AS_T_O) | \
                 (1u << AS_T_QR) | (1u << AS_T_KR) | /* Qr and Kr: with RoPE only */ \
                 (1u << AS_T_PROBS) /* the output head's probabilities: with head: only */ | \
                 BLOCK_TABLES)
#define BLOCK_TABLES ((1u << AS_T_N1) | (1u << AS_T_H1) | (1u << AS_T_N2) | (1u << AS_T_U) | \
                      (1u << AS_T_G) | (1u << AS_T_F) | (1u << AS_T_D) | (1u << AS_T_H2) | \
                      (1u << AS_T_Y)) /* the whole block's (SPEC §15): with block: only */
#define ROW_TABLES ((1u << AS_T_QKT) | (1u << AS_T_S) | (1u << AS_T_A) | (1u << AS_T_O))

/* A stage: the cells of one table (a head's, or the layer's when head is -1), its
 * columns lo .. hi - 1 (--head asks only its own columns of Q, K and V). */
typedef struct stage {
    as_table tb;
    long head;
    size_t lo, hi;
} stage;

typedef as_practice_cell cell;

typedef struct tutor {
    FILE *in, *out, *log;
    const as_problem *p;
    const as_trace *t;
    const as_practice_opts *o;
    unsigned tables;
    stage *stage;          /* nstages, in the book's order */
    size_t nstages;
    as_expand_style st;
    as_chain_cache chains; /* the mistakes' chains, made when a wrong answer first asks */
    as_text missed;        /* "A[1][0]、O[1][1]" */
    as_practice_score *sc;
    int failed;            /* memory ran out, or out could not be written */
} tutor;

int as_practice_only_bad(unsigned only)
{
    int b;

    for (b = 0; b < AS_T_COUNT; b++)
        if ((only >> b & 1u) && !(ASKABLE >> b & 1u))
            return b;
    return -1;
}

/* ---- writing ---- */

/* Writes the message id (printf arguments follow) and a newline when nl, to the
 * terminal and to the transcript. */
static void say(tutor *tu, int nl, as_msg id, ...)
{
    va_list ap, aq;

    va_start(ap, id);
    va_copy(aq, ap);
    vfprintf(tu->out, as_msg_text(tu->o->ro.lang, id), ap);
    if (nl)
        fputc('\n', tu->out);
    if (tu->log != NULL) {
        vfprintf(tu->log, as_msg_text(tu->o->ro.lang, id), aq);
        if (nl)
            fputc('\n', tu->log);
    }
    va_end(aq);
    va_end(ap);
}

/* Nonzero when the tables of head hd carry its number: with several heads, and a
 * head's O beside the layer's O (made through Wo). */
static int numbered(const as_problem *p, as_table tb, long hd)
{
    return hd >= 0 && (p->heads > 1 || (tb == AS_T_O && p->Wo != NULL));
}

/* name with head hd's number, as run prints it: "S₀" ("S_0" with --ascii). */
static void with_head(char *buf, size_t size, const char *name, long hd, int ascii)
{
    size_t n = strlen(name);

    if (ascii) {
        snprintf(buf, size, "%s_%ld", name, hd);
        return;
    }
    n = n < size ? n : size - 1;
    memcpy(buf, name, n);
    as_subscript(buf + n, size - n, (unsigned long)hd, 0); /* no memory asked for */
}

/* The name of table tb of head hd as the chapter prints it: QKᵀ (QK^T with --ascii),
 * Q₀K₀ᵀ for head 0 of several, S₁, Qr; into buf, which it returns. */
static const char *table_word(const tutor *tu, as_table tb, long hd, char *buf, size_t size)
{
    const int ascii = tu->st.ascii;
    const char *tee = ascii ? "^T" : "\xe1\xb5\x80";
    const char *name = as_table_name(tb);

    if (!numbered(tu->p, tb, hd))
        snprintf(buf, size, "%s", as_tab_shown(as_tab_of_table(tb), ascii));
    else if (tb == AS_T_QKT) {
        char q[24], k[24];
        with_head(q, sizeof q, "Q", hd, ascii);
        with_head(k, sizeof k, "K", hd, ascii);
        snprintf(buf, size, "%s%s%s", q, k, tee);
    } else
        with_head(buf, size, name, hd, ascii);
    return buf;
}

#define WORD 64 /* room for a table's name */

/* The table of cell c as the chapter prints it (as table_word). */
static const char *cell_word(const tutor *tu, const cell *c, char *buf)
{
    return table_word(tu, c->tb, c->head, buf, WORD);
}

const as_matrix *as_practice_truth(const as_trace *t, as_table tb, long hd)
{
    const as_tab id = as_tab_of_table(tb); /* where the trace keeps it: the registry's slot */

    if (BLOCK_TABLES >> tb & 1u)
        return t->block != NULL ? as_block_table(t->block, id) : NULL;
    return hd < 0 ? as_trace_table(t, id) : as_trace_head_table(&t->head[hd], id);
}

/* The true table of cell c. */
static const as_matrix *truth(const tutor *tu, const cell *c)
{
    return as_practice_truth(tu->t, c->tb, c->head);
}

/* The trace of the head cell c belongs to (head 0 for a layer's table). */
static const as_head_trace *head_of(const tutor *tu, const cell *c)
{
    return &tu->t->head[c->head < 0 ? 0 : c->head];
}

static double value(const tutor *tu, const cell *c)
{
    const as_matrix *m = truth(tu, c);
    return AS_AT(*m, c->i, c->j);
}

/* ---- which cells are asked ---- */

/* Nonzero when the mask fixes the cell (S −∞, A 0): it is shown, not asked. */
static int fixed(const tutor *tu, const cell *c)
{
    if (c->tb == AS_T_PROBS) /* a token the cuts took away: its probability is 0 */
        return as_out_head_table(tu->t->out, AS_TAB_KEPT)->v[c->j] == -INFINITY;
    return (c->tb == AS_T_S || c->tb == AS_T_A) && isinf(AS_AT(tu->t->M, c->i, c->j)) &&
           AS_AT(tu->t->M, c->i, c->j) < 0;
}

/* Nonzero when row i of table tb is asked. */
static int row_asked(const tutor *tu, as_table tb, size_t i)
{
    return tu->o->row < 0 || !(ROW_TABLES >> tb & 1u) || (size_t)tu->o->row == i;
}

/* Appends the stage of table tb of head hd, columns lo .. hi - 1, when tb is asked. */
static void add_stage(tutor *tu, as_table tb, long hd, size_t lo, size_t hi)
{
    stage *s;

    if (!(tu->tables >> tb & 1u))
        return;
    s = &tu->stage[tu->nstages++];
    s->tb = tb;
    s->head = hd;
    s->lo = lo;
    s->hi = hi;
}

/* Appends the stage of the block's table tb, when the run made it. */
static void block_stage(tutor *tu, as_table tb)
{
    const as_matrix *m = as_practice_truth(tu->t, tb, -1);

    if (m != NULL)
        add_stage(tu, tb, -1, 0, m->cols);
}

/* The stages of the session, in the book's order: Q, K and V (only head --head's
 * columns of them); then per head the RoPE-turned Qr and Kr (a shared K/V head's once),
 * QKᵀ, S, A and O; then, with Wo, the layer's O. Returns 0, or -1 when memory ran out. */
static int plan(tutor *tu)
{
    const as_problem *p = tu->p;
    const long one = tu->o->head;
    const size_t h0 = one < 0 ? 0 : (size_t)one, h1 = one < 0 ? p->heads : h0 + 1;
    const size_t g = as_kv_head(p, h0);
    size_t h;

    tu->stage = malloc((14 + 6 * p->heads) * sizeof *tu->stage);
    if (tu->stage == NULL)
        return -1;
    block_stage(tu, AS_T_N1); /* pre: the attention reads N1 */
    add_stage(tu, AS_T_Q, -1, one < 0 ? 0 : h0 * p->d_k, one < 0 ? tu->t->Q.cols : (h0 + 1) * p->d_k);
    add_stage(tu, AS_T_K, -1, one < 0 ? 0 : g * p->d_k, one < 0 ? tu->t->K.cols : (g + 1) * p->d_k);
    add_stage(tu, AS_T_V, -1, one < 0 ? 0 : g * p->d_v, one < 0 ? tu->t->V.cols : (g + 1) * p->d_v);
    for (h = h0; h < h1; h++) {
        if (p->positions == AS_POSITIONS_ROPE) {
            add_stage(tu, AS_T_QR, (long)h, 0, p->d_k);
            if (one >= 0 || h % p->group == 0)
                add_stage(tu, AS_T_KR, (long)h, 0, p->d_k);
        }
        add_stage(tu, AS_T_QKT, (long)h, 0, p->m);
        add_stage(tu, AS_T_S, (long)h, 0, p->m);
        add_stage(tu, AS_T_A, (long)h, 0, p->m);
        add_stage(tu, AS_T_O, (long)h, 0, p->d_v);
    }
    if (p->Wo != NULL)
        add_stage(tu, AS_T_O, -1, 0, tu->t->O.cols);
    for (h = AS_T_H1; h <= AS_T_Y; h++) /* the rest of the block, in its order */
        if (h != AS_T_Y || p->final_norm) /* without lnf, Y is the last table again */
            block_stage(tu, (as_table)h);
    if (tu->t->out != NULL) /* SPEC §19: then the head's probabilities */
        add_stage(tu, AS_T_PROBS, -1, 0, tu->t->out->vocab);
    return 0;
}

/* Calls each(tu, c, arg) for every cell of stage s that is asked or shown, in order;
 * stops when it returns nonzero, and returns that. */
static int each_cell(tutor *tu, const stage *s, int (*each)(tutor *, const cell *, void *),
                     void *arg)
{
    const size_t rows = as_practice_truth(tu->t, s->tb, s->head)->rows;
    cell c;
    int r;

    c.tb = s->tb;
    c.head = s->head;
    for (c.i = 0; c.i < rows; c.i++) {
        if (!row_asked(tu, c.tb, c.i))
            continue;
        for (c.j = s->lo; c.j < s->hi; c.j++)
            if ((r = each(tu, &c, arg)) != 0)
                return r;
    }
    return 0;
}

/* each_cell's counter: the cells asked (not fixed). */
static int count_one(tutor *tu, const cell *c, void *arg)
{
    *(size_t *)arg += !fixed(tu, c);
    return 0;
}

/* The cells to answer. */
static size_t count_cells(tutor *tu)
{
    size_t k, n = 0;

    for (k = 0; k < tu->nstages; k++)
        each_cell(tu, &tu->stage[k], count_one, &n);
    return n;
}

/* ---- what a cell is made of ---- */

static as_view row_of(const as_matrix *m, size_t i)
{
    return as_view_row(m->v, m->cols, i);
}

static as_view column_of(const as_matrix *m, size_t j)
{
    return as_view_column(m->v, m->cols, j, NULL, m->rows);
}

/* The projection's parts: its input (X or Xkv, with their positions' encoding added
 * when sinusoidal), W and bias of table tb. */
static void projection(const tutor *tu, as_table tb, const as_matrix **x, const as_matrix **w,
                       const as_matrix **b, const char **wname)
{
    const as_problem *p = tu->p;
    const int pe = p->positions == AS_POSITIONS_SINUSOIDAL;

    *x = tb == AS_T_Q || !p->cross ? (pe ? &tu->t->Xp : p->X) : (pe ? &tu->t->Xkvp : p->Xkv);
    *w = tb == AS_T_Q ? p->Wq : tb == AS_T_K ? p->Wk : p->Wv;
    *b = tb == AS_T_Q ? p->bq : tb == AS_T_K ? p->bk : p->bv;
    *wname = tb == AS_T_Q ? "Wq" : tb == AS_T_K ? "Wk" : "Wv";
}

/* "Wq第0列" into t. */
static void column_name(as_text *t, const tutor *tu, const char *table, size_t j)
{
    as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_COLUMN), table, j);
}

/* The two factors of a dot product cell, and their names: rows and columns of tables. */
static void factors(const tutor *tu, const cell *c, as_view *a, as_view *b, as_text *an,
                    as_text *bn)
{
    const as_head_trace *h = head_of(tu, c);
    const int rope = tu->p->positions == AS_POSITIONS_ROPE;
    const as_matrix *x, *w, *bias;
    const char *wn;
    char word[WORD];

    if (c->tb == AS_T_QKT) {
        *a = row_of(rope ? &h->Qr : &h->Q, c->i);
        *b = row_of(rope ? &h->Kr : &h->K, c->j);
        as_expand_sub(an, rope ? "qr" : "q", c->i, &tu->st);
        as_expand_sub(bn, rope ? "kr" : "k", c->j, &tu->st);
    } else if (c->tb == AS_T_O && c->head >= 0) {
        *a = row_of(&h->A, c->i);
        *b = column_of(&h->V, c->j);
        as_expand_sub(an, "a", c->i, &tu->st);
        column_name(bn, tu, table_word(tu, AS_T_V, tu->p->heads > 1 ? c->head : -1, word, WORD), c->j);
    } else if (c->tb == AS_T_O) { /* the layer's: the heads side by side, through Wo */
        *a = row_of(&tu->t->C, c->i);
        *b = column_of(tu->p->Wo, c->j);
        as_expand_sub(an, "c", c->i, &tu->st);
        column_name(bn, tu, "Wo", c->j);
    } else {
        projection(tu, c->tb, &x, &w, &bias, &wn);
        *a = row_of(x, c->i);
        *b = column_of(w, c->j);
        as_expand_sub(an, "x", c->i, &tu->st);
        if (tu->p->positions == AS_POSITIONS_SINUSOIDAL) {
            as_text_addf(an, "+");
            as_expand_sub(an, "PE", c->i, &tu->st);
        }
        column_name(bn, tu, wn, c->j);
    }
}

/* The bias term of a projection cell (or of the layer's O), or NULL; its name into n. */
static const double *bias_of(const tutor *tu, const cell *c, as_text *n)
{
    const as_matrix *x, *w, *b;
    const char *wn;

    if (c->tb == AS_T_O && c->head < 0 && tu->p->bo != NULL) {
        as_expand_sub(n, "bo", c->j, &tu->st);
        return &tu->p->bo->v[c->j];
    }
    if (c->tb != AS_T_Q && c->tb != AS_T_K && c->tb != AS_T_V)
        return NULL;
    projection(tu, c->tb, &x, &w, &b, &wn);
    if (b == NULL)
        return NULL;
    as_expand_sub(n, c->tb == AS_T_Q ? "bq" : c->tb == AS_T_K ? "bk" : "bv", c->j, &tu->st);
    return &b->v[c->j];
}

/* Appends v for people, into t. */
static void number(as_text *t, const tutor *tu, double v)
{
    as_expand_number(t, v, &tu->st);
}

/* ", the ALiBi bias = −0.5×(1−0) = −0.5": the bias an S cell adds; nothing without ALiBi. */
static void alibi_term(as_text *t, const tutor *tu, const cell *c)
{
    const as_head_trace *h = head_of(tu, c);
    const char *minus = as_sym_text(tu->st.ascii, AS_SYM_MINUS);
    as_text sl = {0}, b = {0};

    if (h->B.rows == 0)
        return;
    number(&sl, tu, h->slope);
    number(&b, tu, AS_AT(h->B, c->i, c->j));
    as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_ALIBI), minus, as_text_str(&sl),
                 as_sym_text(tu->st.ascii, AS_SYM_TIMES), c->i, minus, c->j, as_text_str(&b));
    t->failed |= sl.failed | b.failed;
    as_text_free(&sl);
    as_text_free(&b);
}

/* "√2 ≈ 1.414214" (or the custom scale) and the raw score: what an S cell is made of. */
static void from_scores(as_text *t, const tutor *tu, const cell *c)
{
    char name[96], word[WORD];
    as_text r = {0}, s = {0};
    const char *what;

    snprintf(name, sizeof name, "%s[%zu][%zu]", table_word(tu, AS_T_QKT, c->head, word, WORD),
             c->i, c->j);
    number(&r, tu, AS_AT(head_of(tu, c)->QKT, c->i, c->j));
    if (tu->p->scale_auto) {
        as_text_addf(&s, "%s%zu %s ", as_sym_text(tu->st.ascii, AS_SYM_SQRT), tu->p->d_k,
                     as_sym_text(tu->st.ascii, AS_SYM_APPROX));
        number(&s, tu, tu->p->sqrt_dk);
        what = tu->st.ascii ? "sqrt(d_k)" : "\xe2\x88\x9a" "d_k";
    } else {
        number(&s, tu, tu->p->scale);
        what = as_msg_text(tu->o->ro.lang, AS_MSG_PR_SCALE);
    }
    as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_PAIR), name, as_text_str(&r), what,
                 as_text_str(&s));
    t->failed |= r.failed | s.failed;
    alibi_term(t, tu, c);
    as_text_free(&s);
    as_text_free(&r);
}

/* RoPE: the pair cell c's column belongs to (its number k, its columns a and b). */
static void rope_pair_of(const tutor *tu, const cell *c, size_t *k, size_t *a, size_t *b)
{
    for (*k = 0; *k < tu->p->d_k / 2; ++*k) {
        as_rope_pair(a, b, *k, tu->p->d_k, tu->p->rope);
        if (*a == c->j || *b == c->j)
            return;
    }
}

/* The row a RoPE cell turns (Q's or K's of its head), named into n. */
static as_view rope_source(const tutor *tu, const cell *c, as_text *n)
{
    const as_head_trace *h = head_of(tu, c);

    as_expand_sub(n, c->tb == AS_T_QR ? "q" : "k", c->i, &tu->st);
    return row_of(c->tb == AS_T_QR ? &h->Q : &h->K, c->i);
}

/* "q₁ = [1,0]; pair 0 is numbers 0 and 1, turned at position 1 by …": a RoPE cell. */
static void from_rope(as_text *t, const tutor *tu, const cell *c)
{
    const size_t pairs = tu->p->d_k / 2, pos = tu->p->offset + c->i;
    size_t k, a, b;
    as_text n = {0}, x = {0}, th = {0}, an = {0}, cs = {0}, sn = {0};
    const as_view v = rope_source(tu, c, &n);

    rope_pair_of(tu, c, &k, &a, &b);
    as_expand_vector(&x, &v, &tu->st);
    number(&th, tu, tu->t->rope_theta.v[k]);
    number(&an, tu, tu->t->rope_angle.v[c->i * pairs + k]);
    number(&cs, tu, tu->t->rope_cos.v[c->i * pairs + k]);
    number(&sn, tu, tu->t->rope_sin.v[c->i * pairs + k]);
    as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_ROPE), as_text_str(&n), as_text_str(&x),
                 k, a, b, pos, pos, as_sym_text(tu->st.ascii, AS_SYM_TIMES), as_text_str(&th), as_text_str(&an), as_text_str(&cs),
                 as_text_str(&sn));
    t->failed |= n.failed | x.failed | th.failed | an.failed | cs.failed | sn.failed;
    as_text_free(&n);
    as_text_free(&x);
    as_text_free(&th);
    as_text_free(&an);
    as_text_free(&cs);
    as_text_free(&sn);
}

/* A probability's source: the logits the cuts kept, divided by T ("−∞" for a token cut). */
static void from_kept(as_text *t, const tutor *tu)
{
    const as_matrix *kept = as_out_head_table(tu->t->out, AS_TAB_KEPT);
    const as_view v = as_view_row(kept->v, kept->cols, 0);
    char num[AS_NUM_BUF];
    as_text x = {0};

    as_expand_vector(&x, &v, &tu->st);
    as_fmt_display(num, sizeof num, tu->p->temperature, tu->st.digits, tu->st.ascii);
    as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_KEPT_LOGITS), num, as_text_str(&x));
    t->failed |= x.failed;
    as_text_free(&x);
}

/* ---- the whole block's cells (SPEC §15) ---- */

/* " = v" or " ≈ v" (when v is shown rounded). */
static void result(as_text *t, const tutor *tu, double v)
{
    char buf[AS_NUM_BUF];
    const int rounded = as_fmt_display(buf, sizeof buf, v, tu->st.digits, tu->st.ascii);

    as_text_addf(t, " %s %s", rounded ? as_sym_text(tu->st.ascii, AS_SYM_APPROX) : "=", buf);
}


/* Appends "name[i][j] = v" (a cell the block's cell is made of). */
static void named_cell(as_text *t, const tutor *tu, const char *name, const as_matrix *m,
                       size_t i, size_t j)
{
    as_text_addf(t, "%s[%zu][%zu]", name, i, j);
    result(t, tu, AS_AT(*m, i, j));
}

/* The norm a block table is the output of: its input table and name, its record and
 * which of the three (γ/β in p->ln_g/ln_b); 0 when tb is no norm's output. */
static int norm_source(const tutor *tu, as_table tb, const as_matrix **in, const char **name,
                       const as_norm_trace **nt, int *which)
{
    const as_problem *p = tu->p;
    const as_block_trace *b = tu->t->block;
    const int pre = p->block == AS_BLOCK_PRE, none = p->ffn == AS_FFN_NONE;

    if (p->norm == AS_NORM_NONE)
        return 0;
    if (tb == AS_T_Y && p->final_norm)
        *in = none ? &b->H1 : &b->H2, *name = none ? "H1" : "H2", *nt = &b->normf, *which = 2;
    else if (pre && tb == AS_T_N1)
        *in = &p->in->mat[AS_X].m, *name = "X", *nt = &b->norm1, *which = 0;
    else if (pre && tb == AS_T_N2)
        *in = &b->H1, *name = "H1", *nt = &b->norm2, *which = 1;
    else if (!pre && tb == AS_T_H1)
        *in = &b->R1, *name = "R1", *nt = &b->norm1, *which = 0;
    else if (!pre && tb == AS_T_H2)
        *in = &b->R2, *name = "R2", *nt = &b->norm2, *which = 1;
    else
        return 0;
    return 1;
}

/* A norm's cell: made of its row's μ, σ² and divisor, γ and β (arith 0); worked out as
 * (x−μ)/divisor×γ+β (arith 1). */
static void norm_cell(as_text *t, const tutor *tu, const cell *c, const as_matrix *in,
                      const char *name, const as_norm_trace *nt, int which, int arith)
{
    const as_problem *p = tu->p;
    const double g = p->ln_g[which] ? p->ln_g[which]->v[c->j] : 1.0;
    const double b = p->ln_b[which] && p->norm != AS_NORM_RMS ? p->ln_b[which]->v[c->j] : 0.0;
    const int rms = p->norm == AS_NORM_RMS;
    const char *times = as_sym_text(tu->st.ascii, AS_SYM_TIMES);

    if (!arith) {
        named_cell(t, tu, name, in, c->i, c->j);
        as_text_addf(t, "%s", as_msg_text(tu->o->ro.lang, AS_MSG_LIST_SEP));
        if (!rms) {
            as_text_addf(t, "\xce\xbc");
            result(t, tu, nt->mean.v[c->i]);
            as_text_addf(t, "%s", as_msg_text(tu->o->ro.lang, AS_MSG_LIST_SEP));
        }
        as_text_addf(t, rms ? "%s(\xce\xa3x\xc2\xb2/d+\xce\xb5)" : p->norm_style == AS_NORM_ANNOTATED
                     ? "%s\xcf\x83+\xce\xb5" : "%s(\xcf\x83\xc2\xb2+\xce\xb5)",
                     p->norm_style == AS_NORM_ANNOTATED && !rms ? "" : as_sym_text(tu->st.ascii, AS_SYM_SQRT));
        result(t, tu, nt->div.v[c->i]);
        as_text_addf(t, "%s\xce\xb3[%zu]", as_msg_text(tu->o->ro.lang, AS_MSG_LIST_SEP), c->j);
        result(t, tu, g);
        if (!rms) {
            as_text_addf(t, "%s\xce\xb2[%zu]", as_msg_text(tu->o->ro.lang, AS_MSG_LIST_SEP), c->j);
            result(t, tu, b);
        }
        return;
    }
    as_text_addf(t, rms ? "" : "(");
    as_expand_factor(t, AS_AT(*in, c->i, c->j), &tu->st);
    if (!rms) {
        as_text_addf(t, "%s", as_sym_text(tu->st.ascii, AS_SYM_MINUS));
        as_expand_factor(t, nt->mean.v[c->i], &tu->st);
        as_text_addf(t, ")");
    }
    as_text_addf(t, "/");
    number(t, tu, nt->div.v[c->i]);
    as_text_addf(t, "%s", times);
    as_expand_factor(t, g, &tu->st);
    if (!rms) {
        as_text_addf(t, "+");
        as_expand_factor(t, b, &tu->st);
    }
    result(t, tu, value(tu, c));
}

/* U, D or swiglu's G: a row of its input dotted with a column of its W. */
static void ffn_cell(as_text *t, const tutor *tu, const cell *c, int arith)
{
    const as_problem *p = tu->p;
    const as_block_trace *b = tu->t->block;
    const int pre = p->block == AS_BLOCK_PRE;
    const as_matrix *x = c->tb == AS_T_D ? &b->F : pre ? &b->N2 : &b->H1;
    const as_matrix *w = c->tb == AS_T_D ? p->Wdown : c->tb == AS_T_G ? p->Wgate : p->Wup;
    const as_matrix *bias = c->tb == AS_T_D ? p->bdown : c->tb == AS_T_G ? NULL : p->bup;
    const char *xn = c->tb == AS_T_D ? "F" : pre ? "N2" : "H1";
    const char *wn = c->tb == AS_T_D ? "Wdown" : c->tb == AS_T_G ? "Wgate" : "Wup";
    const as_view a = row_of(x, c->i), col = column_of(w, c->j);
    as_text cn = {0}, xs = {0}, ys = {0};

    column_name(&cn, tu, wn, c->j);
    if (!arith) {
        as_expand_vector(&xs, &a, &tu->st);
        as_expand_vector(&ys, &col, &tu->st);
        as_text_addf(t, "%s[%zu] = %s%s%s = %s", xn, c->i, as_text_str(&xs),
                     as_msg_text(tu->o->ro.lang, AS_MSG_LIST_SEP), as_text_str(&cn), as_text_str(&ys));
    } else {
        as_text_addf(t, c->tb == AS_T_G ? "SiLU(%s[%zu]%s%s = " : "%s[%zu]%s%s = ", xn, c->i,
                     as_sym_text(tu->st.ascii, AS_SYM_DOT), as_text_str(&cn));
        as_expand_products(t, &a, &col, "+", &tu->st);
        if (bias != NULL) {
            as_text_addf(t, "+");
            as_expand_factor(t, bias->v[c->j], &tu->st);
        }
        if (c->tb == AS_T_G)
            as_text_addf(t, ")");
        result(t, tu, value(tu, c));
    }
    t->failed |= cn.failed | xs.failed | ys.failed;
    as_text_free(&cn), as_text_free(&xs), as_text_free(&ys);
}

/* A cell of the block: what it is made of (arith 0), or worked out (arith 1). */
static void block_cell(as_text *t, const tutor *tu, const cell *c, int arith)
{
    const as_problem *p = tu->p;
    const as_block_trace *b = tu->t->block;
    const as_matrix *in;
    const as_norm_trace *nt;
    const char *name;
    int which;

    if (norm_source(tu, c->tb, &in, &name, &nt, &which)) {
        norm_cell(t, tu, c, in, name, nt, which, arith);
    } else if (c->tb == AS_T_U || c->tb == AS_T_D || c->tb == AS_T_G) {
        ffn_cell(t, tu, c, arith);
    } else if (c->tb == AS_T_F) {
        if (!arith) {
            named_cell(t, tu, "U", &b->U, c->i, c->j);
            if (p->ffn == AS_FFN_SWIGLU) {
                as_text_addf(t, "%s", as_msg_text(tu->o->ro.lang, AS_MSG_LIST_SEP));
                named_cell(t, tu, "G", &b->G, c->i, c->j);
            }
            return;
        }
        if (p->ffn == AS_FFN_SWIGLU) {
            as_expand_factor(t, AS_AT(b->G, c->i, c->j), &tu->st);
            as_text_addf(t, "%s", as_sym_text(tu->st.ascii, AS_SYM_TIMES));
            as_expand_factor(t, AS_AT(b->U, c->i, c->j), &tu->st);
        } else {
            as_text_addf(t, "%s(", as_block_act_name(p));
            as_expand_number(t, AS_AT(b->U, c->i, c->j), &tu->st);
            as_text_addf(t, ")");
        }
        result(t, tu, value(tu, c));
    } else { /* a residual (or Y, the last table again): A + S */
        const int h2 = c->tb == AS_T_H2 || (c->tb == AS_T_Y && p->ffn != AS_FFN_NONE);
        const as_matrix *a = h2 ? &b->H1 : &p->in->mat[AS_X].m, *s = h2 ? &b->D : &tu->t->O;
        if (!arith) {
            named_cell(t, tu, h2 ? "H1" : "X", a, c->i, c->j);
            as_text_addf(t, "%s", as_msg_text(tu->o->ro.lang, AS_MSG_LIST_SEP));
            named_cell(t, tu, h2 ? "D" : "O", s, c->i, c->j);
            return;
        }
        as_expand_number(t, AS_AT(*a, c->i, c->j), &tu->st);
        as_text_addf(t, "+");
        as_expand_factor(t, AS_AT(*s, c->i, c->j), &tu->st);
        result(t, tu, value(tu, c));
    }
}

/* The line that shows what cell c is made of. */
static void made_from(as_text *t, const tutor *tu, const cell *c)
{
    as_view a, b;
    const double *bias;
    as_text nm = {0}, bn = {0}, x = {0}, y = {0};

    if (c->tb == AS_T_PROBS) {
        from_kept(t, tu);
        return;
    }

    if (BLOCK_TABLES >> c->tb & 1u) {
        block_cell(t, tu, c, 0);
        return;
    }
    if (c->tb == AS_T_S) {
        from_scores(t, tu, c);
        return;
    }
    if (c->tb == AS_T_QR || c->tb == AS_T_KR) {
        from_rope(t, tu, c);
        return;
    }
    if (c->tb == AS_T_A) {
        as_view s = row_of(&head_of(tu, c)->S, c->i);
        as_expand_vector(&x, &s, &tu->st);
        as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_ROW_SCORES), c->i, as_text_str(&x));
        t->failed |= x.failed;
        as_text_free(&x);
        return;
    }
    factors(tu, c, &a, &b, &nm, &bn);
    as_expand_vector(&x, &a, &tu->st);
    as_expand_vector(&y, &b, &tu->st);
    as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_PAIR), as_text_str(&nm),
                 as_text_str(&x), as_text_str(&bn), as_text_str(&y));
    t->failed |= nm.failed | bn.failed | x.failed | y.failed;
    as_text_free(&nm);
    as_text_free(&y);
    as_text_free(&bn);
    if ((bias = bias_of(tu, c, &bn)) != NULL) {
        as_expand_number(&y, *bias, &tu->st);
        as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_BIAS), as_text_str(&bn),
                     as_text_str(&y));
        t->failed |= bn.failed | y.failed;
    }
    as_text_free(&bn);
    as_text_free(&x);
    as_text_free(&y);
}

/* An S cell's arithmetic: the raw score scaled, its ALiBi bias, its mask. */
static void score_arithmetic(as_text *t, const tutor *tu, const cell *c)
{
    const as_head_trace *h = head_of(tu, c);

    if (tu->p->scale_auto) {
        as_expand_over_sqrt(t, AS_AT(h->QKT, c->i, c->j), tu->p->d_k, &tu->st);
    } else {
        as_expand_factor(t, AS_AT(h->QKT, c->i, c->j), &tu->st);
        as_text_addf(t, "%s", as_sym_text(tu->st.ascii, AS_SYM_TIMES));
        as_expand_factor(t, tu->p->scale, &tu->st);
    }
    if (h->B.rows != 0) {
        as_text_addf(t, "+");
        as_expand_factor(t, AS_AT(h->B, c->i, c->j), &tu->st);
    }
    if (AS_AT(tu->t->M, c->i, c->j) != 0) {
        as_text_addf(t, "+");
        as_expand_factor(t, AS_AT(tu->t->M, c->i, c->j), &tu->st);
    }
    result(t, tu, value(tu, c));
}

/* An A cell's arithmetic: the shifted exp over the row's sum. */
static void share_arithmetic(as_text *t, const tutor *tu, const cell *c)
{
    const as_head_trace *h = head_of(tu, c);
    as_text e = {0}, s = {0}, v = {0}, x = {0};

    as_text_addf(&e, "exp(");
    number(&e, tu, AS_AT(h->shifted, c->i, c->j));
    as_text_addf(&e, ")");
    number(&v, tu, AS_AT(h->exps, c->i, c->j));
    number(&s, tu, AS_AT(h->sums, c->i, 0));
    as_text_addf(&x, "%s/%s", as_text_str(&v), as_text_str(&s));
    result(&x, tu, value(tu, c));
    as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_SHARE), as_text_str(&e),
                 as_text_str(&v), as_text_str(&s), as_text_str(&x));
    t->failed |= e.failed | s.failed | v.failed | x.failed;
    as_text_free(&e);
    as_text_free(&s);
    as_text_free(&v);
    as_text_free(&x);
}

/* A RoPE cell's arithmetic: "q₁[0]×cos − q₁[1]×sin = …" (the pair's first number) or
 * "q₁[0]×sin + q₁[1]×cos = …" (its second). */
static void rope_arithmetic(as_text *t, const tutor *tu, const cell *c)
{
    const size_t pairs = tu->p->d_k / 2;
    const char *times = as_sym_text(tu->st.ascii, AS_SYM_TIMES);
    size_t k, a, b;
    as_text n = {0};
    const as_view v = rope_source(tu, c, &n);
    double cs, sn;
    int first;

    rope_pair_of(tu, c, &k, &a, &b);
    first = c->j == a;
    cs = tu->t->rope_cos.v[c->i * pairs + k];
    sn = tu->t->rope_sin.v[c->i * pairs + k];
    as_text_addf(t, "%s[%zu]%s%s %s %s[%zu]%s%s = ", as_text_str(&n), a, times,
                 first ? "cos" : "sin", first ? as_sym_text(tu->st.ascii, AS_SYM_MINUS) : "+",
                 as_text_str(&n), b, times, first ? "sin" : "cos");
    as_expand_factor(t, as_view_at(&v, a), &tu->st);
    as_text_addf(t, "%s", times);
    as_expand_factor(t, first ? cs : sn, &tu->st);
    as_text_addf(t, " %s ", first ? as_sym_text(tu->st.ascii, AS_SYM_MINUS) : "+");
    as_expand_factor(t, as_view_at(&v, b), &tu->st);
    as_text_addf(t, "%s", times);
    as_expand_factor(t, first ? sn : cs, &tu->st);
    t->failed |= n.failed;
    as_text_free(&n);
    result(t, tu, value(tu, c));
}

/* The cell's arithmetic, ending with its value: "q₁·k₀ = 1×1+0×0 = 1". */
static void arithmetic(as_text *t, const tutor *tu, const cell *c)
{
    as_view a, b;
    const double *bias;
    as_text an = {0}, bn = {0};

    if (BLOCK_TABLES >> c->tb & 1u) {
        block_cell(t, tu, c, 1);
        return;
    }
    if (c->tb == AS_T_S) {
        score_arithmetic(t, tu, c);
        return;
    }
    if (c->tb == AS_T_A) {
        share_arithmetic(t, tu, c);
        return;
    }
    if (c->tb == AS_T_QR || c->tb == AS_T_KR) {
        rope_arithmetic(t, tu, c);
        return;
    }
    if (c->tb == AS_T_PROBS) { /* the softmax of the kept logits/T, at token j */
        from_kept(t, tu);
        as_text_addf(t, as_msg_text(tu->o->ro.lang, AS_MSG_PR_PROB_OF), c->j);
        result(t, tu, value(tu, c));
        return;
    }
    factors(tu, c, &a, &b, &an, &bn);
    as_text_addf(t, "%s%s%s = ", as_text_str(&an), as_sym_text(tu->st.ascii, AS_SYM_DOT),
                 as_text_str(&bn));
    as_expand_products(t, &a, &b, "+", &tu->st);
    t->failed |= an.failed | bn.failed;
    as_text_free(&an);
    as_text_free(&bn);
    if ((bias = bias_of(tu, c, &bn)) != NULL) {
        as_text_addf(t, "+");
        as_expand_factor(t, *bias, &tu->st);
    }
    t->failed |= bn.failed;
    as_text_free(&bn);
    result(t, tu, value(tu, c));
}

/* ---- the named mistakes a single cell can show ---- */

as_answer_kind as_practice_kind(as_table tb)
{
    if (BLOCK_TABLES >> tb & 1u)
        return (as_answer_kind)as_tab_answer(as_tab_of_table(tb));
    switch (tb) {
    case AS_T_QR:
    case AS_T_KR:
    case AS_T_PROBS: return AS_ANS_KINDS; /* no chain: the head's own ways (headcheck.h) */
    case AS_T_Q: return AS_ANS_Q;
    case AS_T_K: return AS_ANS_K;
    case AS_T_V: return AS_ANS_V;
    case AS_T_QKT: return AS_ANS_QKT;
    case AS_T_S: return AS_ANS_S;
    case AS_T_A: return AS_ANS_A;
    default: return AS_ANS_O;
    }
}

/* The cell c of mistake chain v, into *x; 0 when that chain does not give it. */
static int variant_cell(tutor *tu, size_t v, const cell *c, double *x)
{
    const as_chain *ch;
    const as_matrix *m = truth(tu, c);
    as_table_grade g;
    const as_chain_slot *s;

    if (as_practice_kind(c->tb) == AS_ANS_KINDS)
        return 0;
    if ((ch = as_chain_get(&tu->chains, v)) == NULL) {
        tu->failed = 1;
        return 0;
    }
    memset(&g, 0, sizeof g);
    g.kind = as_practice_kind(c->tb);
    g.head = c->head;
    g.row = -1;
    s = as_chain_slot_of(ch, tu->p, &g);
    if (!s->ok || s->calc.rows != m->rows || s->calc.cols != m->cols)
        return 0;
    *x = AS_AT(s->calc, c->i, c->j);
    return 1;
}

/* Adds f to fits[*n] unless its diagnosis is there already. */
static void add_fit(as_fit *fits, size_t *n, as_fit f)
{
    size_t k;

    for (k = 0; k < *n; k++)
        if (fits[k].diag == f.diag && fits[k].detail == f.detail)
            return;
    if (*n < MAX_FITS)
        fits[(*n)++] = f;
}

/* Nonzero for a mistake in making Q, K or V (another W, a transposed W) asked about a
 * later table's cell: the tables it is made from are on the screen, right, so such a
 * value comes from the later step (A·K is keys_for_values, not V made with Wk). */
static int projection_mistake(const cell *c, as_fit f)
{
    return c->tb > AS_T_V && (f.diag == AS_DIAG_WRONG_WEIGHTS || f.diag == AS_DIAG_TORCH_LAYOUT);
}

/* The head's mistakes of order (SPEC §19) whose probability of token c->j the written w
 * (unit u) stands for, where that order changes it. */
static size_t head_mistakes(tutor *tu, const cell *c, double w, double u, as_fit *fits)
{
    const as_matrix *last = tu->t->block != NULL ? as_block_table(tu->t->block, AS_TAB_Y) : &tu->t->O;
    const double right = value(tu, c);
    size_t k, n = 0;

    for (k = 0; k < AS_HEAD_MISTAKES; k++) {
        as_out_head v;
        const int rc = as_head_variant(&v, tu->p, &AS_AT(*last, last->rows - 1, 0), last->cols,
                                       as_head_mistakes[k]);
        if (rc < 0) {
            tu->failed = 1;
            return n;
        }
        if (rc == 0)
            continue;
        if (as_cell_judge(w, u, v.final.v[c->j], &tu->o->judge) == AS_CELL_RIGHT &&
            as_cell_judge(right, u, v.final.v[c->j], &tu->o->judge) != AS_CELL_RIGHT) {
            const as_fit f = {as_head_mistakes[k], 0};
            add_fit(fits, &n, f);
        }
        as_out_head_free(&v);
    }
    return n;
}

/* The block's convention mistakes whose value of cell c w (unit u) stands for. */
static size_t block_mistakes(tutor *tu, const cell *c, double w, double u, as_fit *fits)
{
    as_fit all[AS_MAX_FITS];
    double val[AS_MAX_FITS];
    const size_t k = as_block_mistake_cells(all, val, AS_MAX_FITS, tu->p, tu->t,
                                            as_practice_kind(c->tb), c->i, c->j);
    size_t v, n = 0;

    if (k == (size_t)-1) {
        tu->failed = 1;
        return 0;
    }
    for (v = 0; v < k; v++)
        if (as_cell_judge(w, u, val[v], &tu->o->judge) == AS_CELL_RIGHT &&
            !(as_cell_judge(w, u, value(tu, c), &tu->o->judge) == AS_CELL_RIGHT))
            add_fit(fits, &n, all[v]);
    return n;
}

/* The mistakes whose value of cell c the written w (unit u) stands for. */
static size_t mistakes(tutor *tu, const cell *c, double w, double u, as_fit *fits)
{
    const as_matrix *m = truth(tu, c);
    size_t v, n = 0;
    double x;

    if (c->tb == AS_T_PROBS)
        return head_mistakes(tu, c, w, u, fits);
    if (BLOCK_TABLES >> c->tb & 1u)
        return block_mistakes(tu, c, w, u, fits);

    for (v = 1; v < AS_CHAIN_VARIANTS; v++)
        if (!projection_mistake(c, as_chain_variant(v)) && variant_cell(tu, v, c, &x) && !isnan(x) &&
            as_cell_judge(w, u, x, &tu->o->judge) == AS_CELL_RIGHT)
            add_fit(fits, &n, as_chain_variant(v));
    if (c->i != c->j && c->j < m->rows && c->i < m->cols &&
        as_cell_judge(w, u, AS_AT(*m, c->j, c->i), &tu->o->judge) == AS_CELL_RIGHT) {
        as_fit f = {AS_DIAG_TRANSPOSED, 0};
        add_fit(fits, &n, f);
    }
    return n;
}

/* The table whose step a mistake belongs to (the transpose: any). */
static as_table step_of(as_diag d)
{
    switch (d) {
    case AS_DIAG_WRONG_WEIGHTS:
    case AS_DIAG_TORCH_LAYOUT: return AS_T_Q;
    case AS_DIAG_MASK_AFTER_SOFTMAX:
    case AS_DIAG_NO_NORMALIZE:
    case AS_DIAG_SOFTMAX_COLUMNS: return AS_T_A;
    case AS_DIAG_KEYS_FOR_VALUES: return AS_T_O;
    case AS_DIAG_TRANSPOSED: return AS_T_COUNT;
    case AS_DIAG_TEMPERATURE_AFTER_SOFTMAX:
    case AS_DIAG_TOPP_DROPS_CROSSING:
    case AS_DIAG_TOPK_BEFORE_TEMPERATURE: return AS_T_PROBS;
    default: return AS_T_S;
    }
}

/* How likely mistake d is on a cell of table tb, smaller first: a mistake of the cell's
 * own step before one of an earlier step (whose right tables are on the screen), then
 * as often as students make them. */
static int likelihood(as_diag d, as_table tb)
{
    static const as_diag often[] = {
        AS_DIAG_NO_SCALE, AS_DIAG_NO_MASK, AS_DIAG_NO_NORMALIZE, AS_DIAG_TRANSPOSED,
        AS_DIAG_SOFTMAX_COLUMNS, AS_DIAG_MASK_AFTER_SOFTMAX, AS_DIAG_MASKED_ZERO,
        AS_DIAG_SCALE_BY_DK, AS_DIAG_SCALE_MULTIPLIED, AS_DIAG_INVERTED_MASK,
        AS_DIAG_KEYS_FOR_VALUES, AS_DIAG_WRONG_WEIGHTS, AS_DIAG_TORCH_LAYOUT};
    const as_table st = step_of(d);
    const int own = st == tb || (st == AS_T_Q && tb <= AS_T_V) || st == AS_T_COUNT;
    int k = 0;

    while (k < (int)(sizeof often / sizeof often[0]) && often[k] != d)
        k++;
    return (own ? 0 : 100) + k;
}

/* Sorts fits[0..n) most likely first (insertion: n is at most MAX_FITS). */
static void most_likely_first(as_fit *fits, size_t n, as_table tb)
{
    size_t a, b;

    for (a = 1; a < n; a++)
        for (b = a; b > 0 && likelihood(fits[b].diag, tb) < likelihood(fits[b - 1].diag, tb); b--) {
            const as_fit f = fits[b];
            fits[b] = fits[b - 1];
            fits[b - 1] = f;
        }
}

/* The mistake in a few words ("没有加掩码"), for the list of the others that fit. */
static const char *mistake_words(const tutor *tu, as_diag d)
{
    static const as_msg name[AS_DIAG_COUNT] = {
        [AS_DIAG_NO_SCALE] = AS_MSG_PR_NAME_NO_SCALE,
        [AS_DIAG_SCALE_MULTIPLIED] = AS_MSG_PR_NAME_SCALE_MULT,
        [AS_DIAG_SCALE_BY_DK] = AS_MSG_PR_NAME_SCALE_BY_DK,
        [AS_DIAG_NO_MASK] = AS_MSG_PR_NAME_NO_MASK,
        [AS_DIAG_MASKED_ZERO] = AS_MSG_PR_NAME_MASKED_ZERO,
        [AS_DIAG_INVERTED_MASK] = AS_MSG_PR_NAME_INVERTED_MASK,
        [AS_DIAG_MASK_AFTER_SOFTMAX] = AS_MSG_PR_NAME_MASK_AFTER_SOFTMAX,
        [AS_DIAG_NO_NORMALIZE] = AS_MSG_PR_NAME_NO_NORMALIZE,
        [AS_DIAG_SOFTMAX_COLUMNS] = AS_MSG_PR_NAME_SOFTMAX_COLUMNS,
        [AS_DIAG_TRANSPOSED] = AS_MSG_PR_NAME_TRANSPOSED,
        [AS_DIAG_KEYS_FOR_VALUES] = AS_MSG_PR_NAME_KEYS_FOR_VALUES,
        [AS_DIAG_WRONG_WEIGHTS] = AS_MSG_PR_NAME_WRONG_WEIGHTS,
        [AS_DIAG_TORCH_LAYOUT] = AS_MSG_PR_NAME_TORCH_LAYOUT,
        [AS_DIAG_TEMPERATURE_AFTER_SOFTMAX] = AS_MSG_PR_NAME_TEMPERATURE_AFTER_SOFTMAX,
        [AS_DIAG_TOPP_DROPS_CROSSING] = AS_MSG_PR_NAME_TOPP_DROPS_CROSSING,
        [AS_DIAG_TOPK_BEFORE_TEMPERATURE] = AS_MSG_PR_NAME_TOPK_BEFORE_TEMPERATURE,
        [AS_DIAG_LN_UNBIASED] = AS_MSG_PR_NAME_LN_UNBIASED,
        [AS_DIAG_LN_EPS_OUTSIDE] = AS_MSG_PR_NAME_LN_EPS_OUTSIDE,
        [AS_DIAG_LN_NO_AFFINE] = AS_MSG_PR_NAME_LN_NO_AFFINE,
        [AS_DIAG_RMS_WITH_MEAN] = AS_MSG_PR_NAME_RMS_WITH_MEAN,
        [AS_DIAG_GELU_TANH_FOR_ERF] = AS_MSG_PR_NAME_GELU_TANH_FOR_ERF,
        [AS_DIAG_GELU_ERF_FOR_TANH] = AS_MSG_PR_NAME_GELU_ERF_FOR_TANH,
        [AS_DIAG_RELU_FOR_GELU] = AS_MSG_PR_NAME_RELU_FOR_GELU,
        [AS_DIAG_NO_RESIDUAL] = AS_MSG_PR_NAME_NO_RESIDUAL,
        [AS_DIAG_RESIDUAL_FROM_NORMED] = AS_MSG_PR_NAME_RESIDUAL_FROM_NORMED,
        [AS_DIAG_POST_FOR_PRE] = AS_MSG_PR_NAME_POST_FOR_PRE,
    };

    return as_msg_text(tu->o->ro.lang, name[d > AS_DIAG_CARRIED_ERROR && d < AS_DIAG_COUNT
                                                ? d : AS_DIAG_NO_SCALE]);
}

/* "Also: …": the mistakes after the first that fit, each once, in words. */
static void also(tutor *tu, const as_fit *fits, size_t n)
{
    const char *words[MAX_FITS];
    char list[512];
    size_t k, m = 0, q;

    for (k = 1; k < n; k++) {
        const char *w = mistake_words(tu, fits[k].diag);
        if (fits[k].diag == fits[0].diag)
            continue;
        for (q = 0; q < m && strcmp(words[q], w) != 0; q++)
            ;
        if (q == m)
            words[m++] = w;
    }
    if (m == 0)
        return;
    as_msg_list(list, sizeof list, tu->o->ro.lang, words, m, AS_MSG_LIST_OR);
    say(tu, 1, AS_MSG_PR_ALSO, list);
}

/* ---- rounding too early (the chapter warns against it), and RoPE's and ALiBi's
 * own slips: what a single cell shows that no chain of the chapter's mistakes gives ---- */

#define EARLY_PLACES 3 /* the decimals a student may have rounded a step's inputs to */
#define AS_MAX_EARLY 64 /* the widest row looked at for it (a hand-sized problem) */

/* What a wrong cell is, when it is one of these: the message and what it says. */
typedef struct slip {
    as_msg msg;    /* 0: none */
    int places;    /* the decimals rounded to (rounding too early) */
    char what[64]; /* the number rounded ("√d_k" rounded to "1.4"), or a setting */
    char shown[64];
    size_t a, b;   /* RoPE: the pair of the problem's own pairing */
} slip;

static int stands_for(const tutor *tu, double w, double u, double x)
{
    return isfinite(x) && as_cell_judge(w, u, x, &tu->o->judge) == AS_CELL_RIGHT;
}

static double round_to(double v, int places)
{
    const double scale = pow(10, places);

    return isinf(v) ? v : nearbyint(v * scale) / scale;
}

/* O: the shares of row i rounded before the mixing (as_matmul, the right step). */
static int early_shares(const tutor *tu, const cell *c, double w, double u, slip *sl)
{
    const as_head_trace *h = head_of(tu, c);
    const size_t m = h->A.cols;
    double a[AS_MAX_EARLY], o[AS_MAX_EARLY];
    int d;
    size_t k;

    for (d = 1; d <= EARLY_PLACES; d++) {
        for (k = 0; k < m; k++)
            a[k] = round_to(AS_AT(h->A, c->i, k), d);
        as_matmul(o, a, h->V.v, 1, m, h->V.cols);
        if (stands_for(tu, w, u, o[c->j])) {
            sl->msg = AS_MSG_PR_EARLY_ROUNDING, sl->places = d;
            return 1;
        }
    }
    return 0;
}

/* A: the row of S rounded before the softmax (as_softmax_rows), or its exponentials
 * (max-shifted as the walk-through makes them, or not shifted) rounded before they are
 * divided by their sum. */
static int early_scores(const tutor *tu, const cell *c, double w, double u, slip *sl)
{
    const as_head_trace *h = head_of(tu, c);
    const size_t m = h->S.cols;
    double srow[AS_MAX_EARLY], a[AS_MAX_EARLY], e[2][AS_MAX_EARLY], sum[2];
    int d, way;
    size_t k;

    for (d = 1; d <= EARLY_PLACES; d++) {
        for (k = 0; k < m; k++)
            srow[k] = round_to(AS_AT(h->S, c->i, k), d);
        if (as_softmax_rows(a, NULL, NULL, NULL, NULL, srow, 1, m) < 0 && /* a readable cell */
            stands_for(tu, w, u, a[c->j])) {
            sl->msg = AS_MSG_PR_EARLY_SCORES, sl->places = d;
            return 1;
        }
        sum[0] = sum[1] = 0;
        for (k = 0; k < m; k++) {
            const double sk = AS_AT(h->S, c->i, k);
            e[0][k] = round_to(AS_AT(h->exps, c->i, k), d);
            e[1][k] = isinf(sk) ? 0 : round_to(exp(sk), d);
            sum[0] += e[0][k], sum[1] += e[1][k];
        }
        for (way = 0; way < 2; way++)
            if (sum[way] > 0 && stands_for(tu, w, u, e[way][c->j] / sum[way])) {
                sl->msg = AS_MSG_PR_EARLY_EXPS, sl->places = d;
                return 1;
            }
    }
    return 0;
}

/* S: the scale rounded before it is used: √d_k (dividing) or 1/√d_k (multiplying). */
static int early_scale(const tutor *tu, const cell *c, double w, double u, slip *sl)
{
    const as_head_trace *h = head_of(tu, c);
    const double qkt = AS_AT(h->QKT, c->i, c->j), scale = tu->p->scale;
    const double bias = h->B.rows ? AS_AT(h->B, c->i, c->j) : 0;
    int d, by;

    if (!tu->p->scale_auto || !isfinite(AS_AT(h->S, c->i, c->j)))
        return 0;
    for (d = 1; d <= EARLY_PLACES; d++)
        for (by = 0; by < 2; by++) {
            const double r = round_to(by ? scale : 1 / scale, d);
            if (r == 0 || !stands_for(tu, w, u, (by ? qkt * r : qkt / r) + bias))
                continue;
            sl->msg = AS_MSG_PR_EARLY_SCALE;
            snprintf(sl->what, sizeof sl->what, tu->st.ascii ? "%s%s(d_k)" : "%s%sd_k",
                     by ? "1/" : "", as_sym_text(tu->st.ascii, AS_SYM_SQRT));
            snprintf(sl->shown, sizeof sl->shown, "%.*f", d, r);
            return 1;
        }
    return 0;
}

/* RoPE: the cell turned with the other pairing, the other way round, or not at all. */
static int rope_slip(const tutor *tu, const cell *c, double w, double u, slip *sl)
{
    const as_head_trace *h = head_of(tu, c);
    const as_matrix *src = c->tb == AS_T_QR ? &h->Q : &h->K;
    const size_t d = src->cols, pairs = d / 2;
    const double *cs = &tu->t->rope_cos.v[c->i * pairs], *sn = &tu->t->rope_sin.v[c->i * pairs];
    const as_rope_pairing other = tu->p->rope == AS_ROPE_HALF ? AS_ROPE_INTERLEAVED : AS_ROPE_HALF;
    double out[AS_MAX_EARLY], back[AS_MAX_EARLY];
    size_t k;

    if (d > AS_MAX_EARLY || d % 2 != 0)
        return 0;
    if (stands_for(tu, w, u, AS_AT(*src, c->i, c->j))) {
        sl->msg = AS_MSG_PR_ROPE_UNTURNED;
        return 1;
    }
    as_rope(out, &AS_AT(*src, c->i, 0), 1, d, cs, sn, other);
    if (stands_for(tu, w, u, out[c->j])) {
        sl->msg = AS_MSG_PR_ROPE_PAIRING;
        snprintf(sl->what, sizeof sl->what, "%s", other == AS_ROPE_HALF ? "half" : "interleaved");
        snprintf(sl->shown, sizeof sl->shown, "%s", other == AS_ROPE_HALF ? "interleaved" : "half");
        rope_pair_of(tu, c, &k, &sl->a, &sl->b);
        return 1;
    }
    for (k = 0; k < pairs; k++)
        back[k] = -sn[k];
    as_rope(out, &AS_AT(*src, c->i, 0), 1, d, cs, back, tu->p->rope);
    if (stands_for(tu, w, u, out[c->j])) {
        sl->msg = AS_MSG_PR_ROPE_BACKWARDS;
        return 1;
    }
    return 0;
}

/* ALiBi: the bias without its slope, left out, or with its sign turned round. */
static int alibi_slip(const tutor *tu, const cell *c, double w, double u, slip *sl)
{
    const as_head_trace *h = head_of(tu, c);
    const double scaled = AS_AT(h->scaled, c->i, c->j), b = AS_AT(h->B, c->i, c->j);

    if (b == 0 || !isfinite(AS_AT(h->S, c->i, c->j)))
        return 0; /* the diagonal: no bias to get wrong */
    if (h->slope != 0 && stands_for(tu, w, u, scaled + b / h->slope)) {
        sl->msg = AS_MSG_PR_ALIBI_NO_SLOPE;
        as_fmt_display(sl->shown, sizeof sl->shown, h->slope, tu->st.digits, tu->st.ascii);
        return 1;
    }
    if (stands_for(tu, w, u, scaled)) {
        sl->msg = AS_MSG_PR_ALIBI_NO_BIAS;
        return 1;
    }
    if (stands_for(tu, w, u, scaled - b)) {
        sl->msg = AS_MSG_PR_ALIBI_SIGN;
        return 1;
    }
    return 0;
}

/* Fills sl when the written w (unit u) for cell c is one of these slips; 0 when none. */
static int cell_slip(const tutor *tu, const cell *c, double w, double u, slip *sl)
{
    const as_head_trace *h = head_of(tu, c);

    memset(sl, 0, sizeof *sl);
    if (c->head < 0 || h->S.cols > AS_MAX_EARLY || h->V.cols > AS_MAX_EARLY)
        return 0;
    switch (c->tb) {
    case AS_T_O: return early_shares(tu, c, w, u, sl);
    case AS_T_A: return early_scores(tu, c, w, u, sl);
    case AS_T_S:
        return (h->B.rows > 0 && alibi_slip(tu, c, w, u, sl)) || early_scale(tu, c, w, u, sl);
    case AS_T_QR:
    case AS_T_KR: return rope_slip(tu, c, w, u, sl);
    default: return 0;
    }
}

/* Says slip sl of the answer typed. */
static void say_slip(tutor *tu, const slip *sl, const char *typed)
{
    switch (sl->msg) {
    case AS_MSG_PR_EARLY_ROUNDING:
    case AS_MSG_PR_EARLY_SCORES:
    case AS_MSG_PR_EARLY_EXPS: say(tu, 1, sl->msg, typed, sl->places); break;
    case AS_MSG_PR_EARLY_SCALE: say(tu, 1, sl->msg, typed, sl->what, sl->shown); break;
    case AS_MSG_PR_ROPE_PAIRING:
        say(tu, 1, sl->msg, typed, sl->what, sl->shown, sl->a, sl->b);
        break;
    case AS_MSG_PR_ALIBI_NO_SLOPE: say(tu, 1, sl->msg, typed, sl->shown); break;
    default: say(tu, 1, sl->msg, typed); break;
    }
}

/* The hint for a wrong answer typed as typed: the most likely mistake it equals, in a
 * sentence, the others that fit in words, and the cell's arithmetic beside the
 * student's number; with no mistake, the arithmetic alone. */
static void hint(tutor *tu, const cell *c, const char *typed, double w, double u)
{
    as_fit fits[MAX_FITS];
    const size_t n = mistakes(tu, c, w, u, fits);
    as_text t = {0};
    char word[WORD];
    slip sl;
    const int early = cell_slip(tu, c, w, u, &sl);

    arithmetic(&t, tu, c);
    if (early > 0 || n == 0) {
        if (early > 0)
            say_slip(tu, &sl, typed);
        say(tu, 1, early > 0 ? AS_MSG_PR_WORKED : AS_MSG_PR_ARITH,
            t.failed ? "" : as_text_str(&t), typed);
        tu->failed |= t.failed;
        as_text_free(&t);
        return;
    }
    most_likely_first(fits, n, c->tb);
    if (fits[0].diag == AS_DIAG_TRANSPOSED) {
        say(tu, 1, AS_MSG_PR_TRANSPOSED, typed, cell_word(tu, c, word), c->j, c->i, c->i, c->j);
    } else {
        as_table_grade g;
        char why[512];
        memset(&g, 0, sizeof g);
        g.diagnosis = fits[0].diag;
        g.detail = fits[0].detail;
        as_diag_explain(why, sizeof why, &g, &tu->o->ro);
        say(tu, 1, AS_MSG_PR_MISTAKE, typed, why);
    }
    also(tu, fits, n);
    say(tu, 1, AS_MSG_PR_WORKED, t.failed ? "" : as_text_str(&t), typed);
    tu->failed |= t.failed;
    as_text_free(&t);
}

/* ---- reading ---- */

/* Reads one line into buf (cut to size - 1 bytes, the rest of a long line skipped),
 * without its line end and surrounding blanks. Returns its length, or -1 at the end of
 * input with nothing read. */
static long read_line(FILE *in, char *buf, size_t size)
{
    size_t n = 0, s = 0;
    int ch, any = 0;

    while ((ch = getc(in)) != EOF && ch != '\n') {
        any = 1;
        if (n + 1 < size)
            buf[n++] = (char)ch;
    }
    if (ch == EOF && !any)
        return -1;
    while (n > 0 && (buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
        n--;
    while (s < n && (buf[s] == ' ' || buf[s] == '\t'))
        s++;
    memmove(buf, buf + s, n - s);
    buf[n - s] = '\0';
    return (long)(n - s);
}

/* The length of the character at s..end when it may be shown to a terminal, else 0:
 * not valid UTF-8 (overlong, a surrogate, past U+10FFFF, cut short), a control
 * character (C0, DEL, C1), or a direction control that would reorder the line. */
static size_t showable(const char *s, const char *end)
{
    const size_t k = as_lex_char_len(s, end);

    if (as_lex_bad_byte(s, k) != NULL || as_lex_control(s, s + k) != NULL ||
        as_lex_bidi(s, end) != 0)
        return 0;
    return k;
}

/* Copies typed text for showing, at most max bytes of it: a control byte or a byte
 * that is not UTF-8 as '?' (a direction control too), never a character cut in two. */
static void shown(char *dst, size_t size, const char *s, size_t max)
{
    const size_t n = strlen(s);
    size_t i = 0, d = 0, k;

    while (i < n && d < max) {
        k = showable(s + i, s + n);
        if (d + (k ? k : 1) >= size)
            break;
        if (k == 0) {
            dst[d++] = '?';
            i++;
        } else {
            memcpy(dst + d, s + i, k);
            d += k;
            i += k;
        }
    }
    dst[d] = '\0';
}

/* ---- asking ---- */

enum { ANS_RIGHT, ANS_MISSED, ANS_STOP };

/* "A[1][0]" appended to the list of missed cells. */
static void note_missed(tutor *tu, const cell *c)
{
    char word[WORD];

    as_text_addf(&tu->missed, "%s%s[%zu][%zu]",
                 tu->missed.len ? as_msg_text(tu->o->ro.lang, AS_MSG_LIST_SEP) : "",
                 cell_word(tu, c, word), c->i, c->j);
    tu->sc->missed++;
}

static int reveal(tutor *tu, const cell *c)
{
    char buf[AS_NUM_BUF], word[WORD];

    as_fmt_display(buf, sizeof buf, value(tu, c), tu->st.digits, tu->st.ascii);
    say(tu, 1, AS_MSG_PR_REVEAL, cell_word(tu, c, word), c->i, c->j, buf);
    note_missed(tu, c);
    return ANS_MISSED;
}

/* Shows the prompt and reads an answer into buf; -1 at the end of input. */
static long prompt(tutor *tu, const cell *c, char *buf, size_t size)
{
    char echo[LINE_MAX_IN], word[WORD];
    long n;

    say(tu, 0, AS_MSG_PR_PROMPT, cell_word(tu, c, word), c->i, c->j);
    if (fflush(tu->out) != 0 || ferror(tu->out))
        tu->failed = 1;
    n = read_line(tu->in, buf, size);
    if (n < 0) {
        fputc('\n', tu->out); /* end the line the prompt waited on */
        return -1;
    }
    shown(echo, sizeof echo, buf, size);
    if (tu->o->echo)
        fprintf(tu->out, "%s\n", echo);
    if (tu->log != NULL)
        fprintf(tu->log, "%s\n", echo);
    return n;
}

/* One answer judged: ANS_RIGHT, or -1 (try again), or *tries reached: ANS_MISSED. */
static int judge(tutor *tu, const cell *c, const char *typed_buf, size_t typed_len, int *tries)
{
    double w;
    const char *why = NULL;
    char buf[LINE_MAX_IN], typed[TYPED_SHOWN + 8];
    size_t len, used;

    /* read as check reads a file: ０.６７ and 1／√2 as 0.67 and 1/√2 */
    memcpy(buf, typed_buf, typed_len);
    len = as_lex_fold_fullwidth(buf, typed_len);
    used = as_parse_number(buf, len, 1, &w, &why);
    shown(typed, sizeof typed, typed_buf, TYPED_SHOWN);
    if (used == 0 || used != len || isnan(w)) {
        say(tu, 1, AS_MSG_PR_NOT_NUMBER, typed);
        return -1;
    }
    if (as_cell_judge(w, as_written_unit(buf, len), value(tu, c), &tu->o->judge) ==
        AS_CELL_RIGHT) {
        say(tu, 1, AS_MSG_PR_RIGHT);
        return ANS_RIGHT;
    }
    hint(tu, c, typed, w, as_written_unit(buf, len));
    if (++*tries >= TRIES)
        return reveal(tu, c);
    if (TRIES - *tries == 1)
        say(tu, 1, AS_MSG_PR_AGAIN_LAST);
    else
        say(tu, 1, AS_MSG_PR_AGAIN, TRIES - *tries);
    return -1;
}

/* Asks cell c until it is right, missed, or the student stops. */
static int ask(tutor *tu, const cell *c)
{
    char buf[LINE_MAX_IN];
    as_text from = {0};
    int tries = 0, r = -1;
    long n;

    made_from(&from, tu, c);
    say(tu, 1, AS_MSG_PR_FROM, as_text_str(&from));
    tu->failed |= from.failed;
    as_text_free(&from);
    while (r < 0 && !tu->failed) {
        if ((n = prompt(tu, c, buf, sizeof buf)) < 0)
            return ANS_STOP;
        if (n == 0)
            continue;
        if ((buf[0] == 'q' || buf[0] == 'Q') && n == 1)
            return ANS_STOP;
        if (buf[0] == '?' && n == 1)
            return reveal(tu, c);
        r = judge(tu, c, buf, (size_t)n, &tries);
    }
    return r < 0 ? ANS_STOP : r;
}

/* Shows a cell the mask fixes. */
static void given(tutor *tu, const cell *c)
{
    char buf[AS_NUM_BUF], word[WORD];

    as_fmt_display(buf, sizeof buf, value(tu, c), tu->st.digits, tu->st.ascii);
    say(tu, 1, c->tb == AS_T_PROBS ? AS_MSG_PR_GIVEN_CUT : AS_MSG_PR_GIVEN, cell_word(tu, c, word),
        c->i, c->j, buf);
}

/* each_cell's asker: a cell the mask fixes is shown, any other asked. Returns 0, or -1
 * when the student stopped (or writing failed). */
static int ask_one(tutor *tu, const cell *c, void *arg)
{
    int r;

    (void)arg;
    if (fixed(tu, c)) {
        given(tu, c);
        return 0;
    }
    if ((r = ask(tu, c)) == ANS_STOP || tu->failed)
        return -1;
    tu->sc->right += r == ANS_RIGHT;
    return 0;
}

/* Asks every cell of stage s that is asked, after its heading. Returns 0, or -1 when
 * the student stopped (or writing failed). */
static int ask_stage(tutor *tu, const stage *s)
{
    char word[WORD];

    say(tu, 1, AS_MSG_PR_TABLE, table_word(tu, s->tb, s->head, word, WORD));
    return each_cell(tu, s, ask_one, NULL);
}

/* The score and the cells missed. */
static void summary(tutor *tu)
{
    const as_practice_score *sc = tu->sc;
    const size_t done = sc->right + sc->missed;

    fputc('\n', tu->out);
    if (tu->log != NULL)
        fputc('\n', tu->log);
    if (sc->stopped && done < sc->cells)
        say(tu, 1, AS_MSG_PR_STOPPED, sc->cells - done);
    say(tu, 1, AS_MSG_PR_SCORE, sc->right, sc->cells);
    if (sc->missed > 0)
        say(tu, 1, AS_MSG_PR_MISSED, tu->missed.failed ? "" : as_text_str(&tu->missed));
    else if (sc->right == sc->cells)
        say(tu, 1, AS_MSG_PR_ALL_RIGHT);
}

/* The tables asked: the options', or all (QKᵀ, S, A, O with a row). */
static unsigned tables_asked(const as_practice_opts *o)
{
    if (o->tables & ASKABLE)
        return o->tables & ASKABLE;
    return o->row >= 0 ? ROW_TABLES : ASKABLE;
}

/* Starts tu for a session on p and t. Returns 0, or -1 when memory ran out. */
static int start(tutor *tu, const as_problem *p, const as_trace *t, const as_practice_opts *o,
                 as_practice_score *sc)
{
    memset(tu, 0, sizeof *tu);
    memset(sc, 0, sizeof *sc);
    tu->p = p;
    tu->t = t;
    tu->o = o;
    tu->sc = sc;
    tu->tables = tables_asked(o);
    tu->st.digits = o->ro.digits;
    tu->st.ascii = o->ro.ascii;
    return plan(tu);
}

int as_practice_run(FILE *in, FILE *out, FILE *log, const as_problem *p, const as_trace *t,
                    const as_practice_opts *o, as_practice_score *sc)
{
    tutor tu;
    size_t k;

    if (start(&tu, p, t, o, sc) != 0)
        return -1;
    tu.in = in;
    tu.out = out;
    tu.log = log;
    as_chain_cache_init(&tu.chains, p, &t->M, NULL, 0);
    sc->cells = count_cells(&tu);
    say(&tu, 1, AS_MSG_PR_INTRO, o->ro.ascii ? "1/sqrt(2)" : "1/\xe2\x88\x9a" "2");
    for (k = 0; k < tu.nstages && !sc->stopped; k++)
        if (ask_stage(&tu, &tu.stage[k]) != 0)
            sc->stopped = 1;
    summary(&tu);
    tu.failed |= tu.missed.failed;
    as_text_free(&tu.missed);
    as_chain_cache_free(&tu.chains);
    free(tu.stage);
    if (fflush(out) != 0 || ferror(out) || tu.failed)
        return -1;
    return sc->right == sc->cells ? 0 : 1;
}

/* each_cell's collector: every cell asked, into the list arg points to. */
static int collect_one(tutor *tu, const cell *c, void *arg)
{
    as_practice_cell **at = arg;

    if (!fixed(tu, c))
        *(*at)++ = *c;
    return 0;
}

size_t as_practice_cells(as_practice_cell **cells, const as_problem *p, const as_trace *t,
                         const as_practice_opts *o)
{
    tutor tu;
    as_practice_score sc;
    as_practice_cell *at;
    size_t k, n;

    *cells = NULL;
    if (start(&tu, p, t, o, &sc) != 0)
        return (size_t)-1;
    n = count_cells(&tu);
    if ((at = *cells = malloc((n ? n : 1) * sizeof **cells)) != NULL)
        for (k = 0; k < tu.nstages; k++)
            each_cell(&tu, &tu.stage[k], collect_one, &at);
    free(tu.stage);
    return *cells == NULL ? (size_t)-1 : n;
}
