/* oracle.h - the grading oracle (issue 28): a student of any small problem (up to 6
 * tokens, widths up to 8, causal or no mask), who rounds at any precision or keeps full
 * calculator precision, makes one of SPEC §6's named mistakes, slips, leaves tables
 * out, answers rows, adds an eˣ table or copies another variant's key; and the mark a
 * careful teacher gives them, as SPEC §6 states it.
 *
 * INDEPENDENT of the grading code: nothing here includes an attnstep header. The oracle
 * does the forward pass itself, each step the student's way, and marks each of the
 * seven tables asked (Q K V QKT S A O, one mark each):
 *  - right when it agrees with the true table to half a unit of its last written place;
 *  - else, when the student did that step right (no mistake of theirs there, or one
 *    that changes nothing on this problem; no slip; no mistake in a table they did not
 *    write that it is made from), the mark is earned: right (only rounding came in) or
 *    carried (an earlier written table was wrong) -- unless the key was copied from
 *    another variant, which earns only the tables right for the student's own problem;
 *  - else 0; a table not written 0; a row answer 1/n of its table's mark.
 * A mistake whose effect is neither nil nor clearly beyond what rounding can move
 * (o_borderline) is a case where two careful teachers may differ: callers skip it.
 * Used by tests/test_oracle.c (a class of 48 over the 3 levels) and
 * tests/fuzz/fuzz_oracle.c. */
#ifndef ATTNSTEP_ORACLE_H
#define ATTNSTEP_ORACLE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { O_Q, O_K, O_V, O_QKT, O_S, O_A, O_O, O_KINDS };
static const char *const o_kind_name[O_KINDS] = {"Q", "K", "V", "QKT", "S", "A", "O"};

#define O_MAXN 6
#define O_MAXD 8
#define O_CELLS (O_MAXD * O_MAXD)

typedef struct omat {
    int r, c; /* r == 0: no table (a step whose shapes do not fit) */
    double v[O_CELLS];
} omat;

#define OAT(m, i, j) ((m).v[(i) * (m).c + (j)])

/* A problem: X [n, dm], Wq and Wk [dm, dk], Wv [dm, dv], causal or no mask. */
typedef struct oprob {
    int n, dm, dk, dv, causal;
    double X[O_MAXN * O_MAXD];
    double W[3][O_MAXD * O_MAXD];
} oprob;

/* ---- the steps, done right or as a mistake does them ---- */

static inline int o_wcols(const oprob *p, int w)
{
    return w == 2 ? p->dv : p->dk;
}

/* X@W (torch: X@Wᵀ, which needs a square W) */
static inline void o_project(omat *out, const oprob *p, int w, int torch)
{
    const int c = o_wcols(p, w);
    int i, j, k;

    out->r = 0, out->c = 0;
    if (torch && c != p->dm)
        return;
    out->r = p->n, out->c = c;
    for (i = 0; i < p->n; i++)
        for (j = 0; j < c; j++) {
            double s = 0;
            for (k = 0; k < p->dm; k++)
                s += p->X[i * p->dm + k] * (torch ? p->W[w][j * c + k] : p->W[w][k * c + j]);
            OAT(*out, i, j) = s;
        }
}

static inline void o_transpose(omat *m)
{
    omat t = *m;
    int i, j;

    t.r = m->c, t.c = m->r;
    for (i = 0; i < m->r; i++)
        for (j = 0; j < m->c; j++)
            OAT(t, j, i) = OAT(*m, i, j);
    *m = t;
}

static inline void o_scores(omat *out, const omat *q, const omat *k)
{
    int i, j, d;

    out->r = out->c = 0;
    if (q->r == 0 || k->r == 0 || q->c != k->c)
        return;
    out->r = q->r, out->c = k->r;
    for (i = 0; i < q->r; i++)
        for (j = 0; j < k->r; j++) {
            double s = 0;
            for (d = 0; d < q->c; d++)
                s += OAT(*q, i, d) * OAT(*k, j, d);
            OAT(*out, i, j) = s;
        }
}

/* mask: 0 the problem's, 1 none, 2 zero where forbidden, 3 the causal mask turned round */
static inline void o_scale_mask(omat *out, const omat *qkt, double scale, int mask, int causal)
{
    int i, j;

    *out = *qkt;
    for (i = 0; i < qkt->r; i++)
        for (j = 0; j < qkt->c; j++) {
            const int forbidden = causal && (mask == 3 ? j < i : j > i);
            double v = OAT(*qkt, i, j) * scale;
            if (forbidden && (mask == 0 || mask == 3))
                v = -INFINITY;
            else if (forbidden && mask == 2)
                v = 0;
            OAT(*out, i, j) = v;
        }
}

/* how: 0 along the rows, 1 down the columns, 2 the max-shifted exps not divided,
 * 3 along the rows of S as it is, then the shares the causal mask forbids set to 0 */
static inline void o_softmax(omat *out, const omat *s, int how, int causal)
{
    omat in = *s;
    int i, j;

    if (how == 1)
        o_transpose(&in);
    *out = in;
    for (i = 0; i < in.r; i++) {
        double mx = -INFINITY, sum = 0;
        for (j = 0; j < in.c; j++)
            mx = OAT(in, i, j) > mx ? OAT(in, i, j) : mx;
        for (j = 0; j < in.c; j++)
            sum += OAT(*out, i, j) = isinf(OAT(in, i, j)) ? 0 : exp(OAT(in, i, j) - mx);
        for (j = 0; how != 2 && j < in.c; j++)
            OAT(*out, i, j) /= sum;
        for (j = 0; how == 3 && causal && j < in.c; j++)
            if (j > i)
                OAT(*out, i, j) = 0;
    }
    if (how == 1)
        o_transpose(out);
}

static inline void o_mix(omat *out, const omat *a, const omat *v)
{
    int i, j, k;

    out->r = out->c = 0;
    if (a->r == 0 || v->r == 0 || a->c != v->r)
        return;
    out->r = a->r, out->c = v->c;
    for (i = 0; i < a->r; i++)
        for (j = 0; j < v->c; j++) {
            double s = 0;
            for (k = 0; k < a->c; k++)
                s += OAT(*a, i, k) * OAT(*v, k, j);
            OAT(*out, i, j) = s;
        }
}

/* The true tables of p. */
static inline void o_truth(const oprob *p, omat t[O_KINDS])
{
    o_project(&t[O_Q], p, 0, 0), o_project(&t[O_K], p, 1, 0), o_project(&t[O_V], p, 2, 0);
    o_scores(&t[O_QKT], &t[O_Q], &t[O_K]);
    o_scale_mask(&t[O_S], &t[O_QKT], 1 / sqrt((double)p->dk), 0, p->causal);
    o_softmax(&t[O_A], &t[O_S], 0, p->causal);
    o_mix(&t[O_O], &t[O_A], &t[O_V]);
}

/* ---- a student ---- */

/* What a student did. mistake[k]: the SPEC code of the mistake made in step k
 * ("wrong_weights:Wq" names the W swapped in), or NULL. */
typedef struct ostudent {
    const char *name;
    unsigned writes;             /* bit k: table k written whole */
    int places[O_KINDS];         /* decimals written per table */
    const char *mistake[O_KINDS];
    int slip_kind, slip_cell;    /* a slip: -1 none, else the written table and cell ... */
    double slip;                 /* ... and what was added to it before it was written */
    int row;                     /* >= 0: row answers q_row, every k and v row, s_row,
                                  * a_row, o_row (QKT not written) */
    int full;                    /* full precision kept between steps */
    int extra_e;                 /* an eˣ table E (ignored by the grader) */
    const oprob *copied;         /* the other variant whose key was written, or NULL */
} ostudent;

static inline int o_is(const ostudent *s, int k, const char *m)
{
    return s->mistake[k] != NULL && strncmp(s->mistake[k], m, strlen(m)) == 0;
}

static inline int o_weights(const ostudent *s, int k)
{
    const char *m = s->mistake[k];

    if (m == NULL || strncmp(m, "wrong_weights:", 14) != 0)
        return k;
    return m[15] == 'q' ? 0 : m[15] == 'k' ? 1 : 2;
}

/* Step k from the tables m[] before it, with the student's mistake there (mistakes: 1)
 * or done right (0). */
static inline void o_step(const oprob *p, const ostudent *s, int mistakes, int k, omat m[O_KINDS])
{
    const ostudent none = {0};

    if (!mistakes)
        s = &none;
    if (k <= O_V)
        o_project(&m[k], p, mistakes ? o_weights(s, k) : k, o_is(s, k, "torch_layout"));
    if (k == O_QKT && o_is(s, O_QKT, "transposed"))
        o_scores(&m[O_QKT], &m[O_K], &m[O_Q]);
    else if (k == O_QKT)
        o_scores(&m[O_QKT], &m[O_Q], &m[O_K]);
    if (k == O_S)
        o_scale_mask(&m[O_S], &m[O_QKT],
                     o_is(s, O_S, "no_scale") ? 1
                     : o_is(s, O_S, "scale_multiplied") ? sqrt((double)p->dk)
                     : o_is(s, O_S, "scale_by_dk") ? 1.0 / p->dk : 1 / sqrt((double)p->dk),
                     o_is(s, O_S, "no_mask") ? 1 : o_is(s, O_S, "masked_zero") ? 2
                     : o_is(s, O_S, "inverted_mask") ? 3 : 0, p->causal);
    if (k == O_A)
        o_softmax(&m[O_A], &m[O_S], o_is(s, O_A, "softmax_columns") ? 1
                                  : o_is(s, O_A, "no_normalize") ? 2
                                  : o_is(s, O_A, "mask_after_softmax") ? 3 : 0, p->causal);
    if (k == O_O)
        o_mix(&m[O_O], &m[O_A], o_is(s, O_O, "keys_for_values") ? &m[O_K] : &m[O_V]);
    if (k != O_QKT && o_is(s, k, "transposed"))
        o_transpose(&m[k]);
}

/* The largest difference of two tables (inf for other shapes or other -inf cells). */
static inline double o_diff(const omat *a, const omat *b)
{
    double d = 0;
    int i;

    if (a->r != b->r || a->c != b->c)
        return INFINITY;
    for (i = 0; i < a->r * a->c; i++) {
        if (isinf(a->v[i]) || isinf(b->v[i])) {
            if (a->v[i] != b->v[i])
                return INFINITY;
        } else if (fabs(a->v[i] - b->v[i]) > d) {
            d = fabs(a->v[i] - b->v[i]);
        }
    }
    return d;
}

/* v as the student writes it with `places` decimals: the number that text reads back. */
static inline double o_written(double v, int places)
{
    char buf[64];

    if (isinf(v))
        return v;
    snprintf(buf, sizeof buf, "%.*f", places, v);
    return strtod(buf, NULL);
}

static inline int o_row_written(const ostudent *s, int k, int r)
{
    return s->row >= 0 && k != O_QKT && (k == O_K || k == O_V || r == s->row);
}

static inline int o_given(const ostudent *s, int k)
{
    return (s->writes >> k & 1) || (s->row >= 0 && k != O_QKT);
}

/* What the student worked out: own[] as written (rounded, the slip added) or, for the
 * tables not written, as computed; eff[k] the size of the mistake of step k (how far its
 * result is from the right step on the same inputs; 0 when none). */
typedef struct owork {
    omat own[O_KINDS];
    double eff[O_KINDS];
} owork;

static inline void o_work(const oprob *p, const ostudent *s, owork *w)
{
    omat raw[O_KINDS], right[O_KINDS], copy[O_KINDS];
    int k, i;

    if (s->copied != NULL)
        o_truth(s->copied, copy);
    for (k = O_Q; k < O_KINDS; k++) {
        omat *in = s->full ? raw : w->own;
        memcpy(right, in, sizeof right);
        o_step(p, s, 0, k, right);
        o_step(p, s, 1, k, in);
        w->eff[k] = o_diff(&in[k], &right[k]);
        if (s->copied != NULL)
            in[k] = copy[k], w->eff[k] = 0;
        if (k == s->slip_kind && in[k].r > 0) { /* on a cell the mask leaves, then written */
            const int cells = in[k].r * in[k].c;
            int c = s->slip_cell % cells;
            while (isinf(in[k].v[c]))
                c = (c + 1) % cells;
            in[k].v[c] += s->slip;
        }
        if (s->full)
            w->own[k] = raw[k];
        for (i = 0; i < w->own[k].r * w->own[k].c; i++) /* what is written is rounded */
            if ((s->writes >> k & 1) || o_row_written(s, k, i / w->own[k].c))
                w->own[k].v[i] = o_written(w->own[k].v[i], s->places[k]);
    }
}

/* ---- the mark ---- */

/* Nonzero when row `row` (-1: every row) of w stands for x's to half a unit of places. */
static inline int o_agrees(const omat *w, const omat *x, int row, int places)
{
    const double half = 0.5 * pow(10, -places);
    int i, j, r0 = row < 0 ? 0 : row, r1 = row < 0 ? w->r : row + 1;

    if (w->r != x->r || w->c != x->c)
        return 0;
    for (i = r0; i < r1; i++)
        for (j = 0; j < w->c; j++) {
            double a = OAT(*w, i, j), b = OAT(*x, i, j);
            if (isinf(a) || isinf(b) ? a != b : fabs(a - b) > half * (1 + 1e-9) + 1e-12)
                return 0;
        }
    return 1;
}

static const int o_inputs[O_KINDS][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {O_Q, O_K},
                                         {O_QKT, -1}, {O_S, -1}, {O_A, O_V}};

/* A mistake that changes something on this problem. */
static inline int o_effective(const owork *w, int k)
{
    return w->eff[k] > 1e-13;
}

/* Walks back from step k through the tables not written: *wrong when a given one it is
 * made from is wrong, *hidden when a step not written was done with a mistake. */
static inline void o_sources(const ostudent *s, const owork *w, int k, const int status[O_KINDS],
                             int *wrong, int *hidden)
{
    int i;

    for (i = 0; i < 2; i++) {
        const int in = o_inputs[k][i];
        if (in < 0)
            continue;
        if (o_given(s, in)) {
            *wrong |= status[in] == 0;
            continue;
        }
        *hidden |= o_effective(w, in);
        o_sources(s, w, in, status, wrong, hidden);
    }
}

/* What one table (row -1) or row earned. */
typedef enum { O_RIGHT, O_CARRIED, O_WRONG, O_MISSING } overdict;

typedef struct omark {
    double earned[O_KINDS];      /* 0 .. 1 per table asked */
    overdict verdict[O_KINDS];   /* of the whole table (a row answer: its worst row) */
    const char *code[O_KINDS];   /* the mistake made there when the table is wrong by it */
    double score;                /* out of O_KINDS */
} omark;

static inline overdict o_judge(const ostudent *s, const owork *w, int k, int r,
                               const omat truth[O_KINDS], const int status[O_KINDS])
{
    int wrong = 0, hidden = 0;

    if (o_agrees(&w->own[k], &truth[k], r, s->places[k]))
        return O_RIGHT;
    if (s->copied != NULL)
        return O_WRONG;
    o_sources(s, w, k, status, &wrong, &hidden);
    if (o_effective(w, k) || hidden || s->slip_kind == k)
        return O_WRONG;
    return wrong ? O_CARRIED : O_RIGHT;
}

/* The code as a report prints it: wrong_weights without the W it names. */
static inline const char *o_code(const char *m)
{
    return strncmp(m, "wrong_weights", 13) == 0 ? "wrong_weights" : m;
}

/* The mark of student s of problem p (the tables asked: all seven). */
static inline void o_mark(const oprob *p, const ostudent *s, omark *m)
{
    omat truth[O_KINDS];
    owork w;
    int status[O_KINDS], k, r;

    o_truth(p, truth);
    o_work(p, s, &w);
    m->score = 0;
    for (k = 0; k < O_KINDS; k++) {
        overdict v = O_MISSING;
        m->earned[k] = 0;
        m->code[k] = NULL;
        status[k] = 1;
        if (s->writes >> k & 1) {
            v = o_judge(s, &w, k, -1, truth, status);
            m->earned[k] = v != O_WRONG;
        } else if (s->row >= 0 && k != O_QKT) {
            v = O_RIGHT;
            for (r = 0; r < p->n; r++)
                if (o_row_written(s, k, r)) {
                    const overdict vr = o_judge(s, &w, k, r, truth, status);
                    m->earned[k] += (vr != O_WRONG) / (double)p->n;
                    v = vr > v ? vr : v;
                }
        }
        status[k] = v == O_RIGHT;
        m->verdict[k] = v;
        if (v == O_WRONG && s->mistake[k] != NULL && o_effective(&w, k) && s->slip_kind != k)
            m->code[k] = o_code(s->mistake[k]);
        m->score += m->earned[k];
    }
}

/* ---- where the rule and a teacher's eye may part ---- */

/* Table k made by the right steps from what the student gave: each given table as it is
 * in base, one not given (and k itself) from the tables before it. */
static inline void o_rebuild(const oprob *p, const ostudent *s, const omat base[O_KINDS], int k,
                             omat t[O_KINDS])
{
    int i;

    for (i = 0; i <= k; i++) {
        if (i < k && o_given(s, i))
            t[i] = base[i];
        else
            o_step(p, s, 0, i, t);
    }
}

/* What the rounding of the given tables before k (each to half a unit of its written
 * place) can move a cell of k by, first order, at most: SPEC §6's interval, as the
 * oracle estimates it by finite differences. */
static inline double o_bound(const oprob *p, const ostudent *s, const omat own[O_KINDS], int k)
{
    omat ref[O_KINDS], per[O_KINDS], base[O_KINDS];
    double sum[O_CELLS] = {0}, worst = 0;
    int i, c, j;

    o_rebuild(p, s, own, k, ref);
    for (i = 0; i < k; i++) {
        const double h = 0.5 * pow(10, -s->places[i]);
        if (!o_given(s, i))
            continue;
        for (c = 0; c < own[i].r * own[i].c; c++) {
            if (isinf(own[i].v[c]))
                continue;
            memcpy(base, own, sizeof base);
            base[i].v[c] += h;
            o_rebuild(p, s, base, k, per);
            for (j = 0; j < ref[k].r * ref[k].c && per[k].r == ref[k].r; j++)
                if (!isinf(ref[k].v[j]))
                    sum[j] += fabs(per[k].v[j] - ref[k].v[j]);
        }
    }
    for (j = 0; j < ref[k].r * ref[k].c; j++)
        worst = sum[j] > worst ? sum[j] : worst;
    return worst;
}

/* How far a wrong number must be from the right one to be wrong beyond doubt at step k:
 * four times what rounding can move it (its inputs' and its own half unit), and 1e-4. */
static inline double o_clear(const oprob *p, const ostudent *s, const omat own[O_KINDS], int k)
{
    const double d = 4 * (o_bound(p, s, own, k) + 0.5 * pow(10, -s->places[k]));

    return d > 1e-4 ? d : 1e-4;
}

/* Nonzero when mistakes made in steps not written cancel out in a table written after
 * them: the table (or a row of it, for a student who writes rows) is, to its places, what
 * the right steps make from the tables given (o_judge would call it wrong for a mistake
 * no teacher can see in it). F11-sized, a
 * forgotten mask followed by a mask applied after the softmax does this in a row where
 * the masked share is e^-43. */
static inline int o_hidden_cancels(const oprob *p, const ostudent *s, const owork *w)
{
    omat ref[O_KINDS];
    int status[O_KINDS], k, r;

    for (k = 0; k < O_KINDS; k++)
        status[k] = 1;
    for (k = 0; k < O_KINDS; k++) {
        int wrong = 0, hidden = 0;
        if (!o_given(s, k))
            continue;
        o_sources(s, w, k, status, &wrong, &hidden);
        if (!hidden)
            continue;
        o_rebuild(p, s, w->own, k, ref);
        if (s->writes >> k & 1) { /* judged whole, as o_judge does */
            if (o_agrees(&w->own[k], &ref[k], -1, s->places[k]))
                return 1;
            continue;
        }
        for (r = 0; r < w->own[k].r; r++) /* judged a row at a time */
            if (o_row_written(s, k, r) && o_agrees(&w->own[k], &ref[k], r, s->places[k]))
                return 1;
    }
    return 0;
}

/* Nonzero when a mistake of s changes a table by more than nothing but not clearly more
 * than rounding moves it (o_clear), or when hidden mistakes cancel out in a table
 * written (o_hidden_cancels): the mark there is a teacher's judgement, not a rule.
 * Callers leave such a student out. */
static inline int o_borderline(const oprob *p, const ostudent *s)
{
    owork w;
    int k;

    o_work(p, s, &w);
    for (k = 0; k < O_KINDS; k++)
        if (w.eff[k] > 1e-13 && w.eff[k] < o_clear(p, s, w.own, k))
            return 1;
    return o_hidden_cancels(p, s, &w);
}

/* Makes a slip of s clearly wrong: at least o_clear() at its table, its sign kept. */
static inline void o_clear_slip(const oprob *p, ostudent *s)
{
    owork w;
    double d;

    if (s->slip_kind < 0)
        return;
    o_work(p, s, &w);
    d = 1.5 * o_clear(p, s, w.own, s->slip_kind);
    if (fabs(s->slip) < d)
        s->slip = s->slip < 0 ? -d : d;
}

/* ---- the answers file ---- */

static inline void o_put_row(FILE *f, const omat *m, int i, int places)
{
    int j;

    fputc('[', f);
    for (j = 0; j < m->c; j++) {
        const double v = OAT(*m, i, j);
        if (j)
            fputs(", ", f);
        if (isinf(v))
            fputs((i + j) % 2 ? "-inf" : "\xe2\x88\x92\xe2\x88\x9e", f);
        else
            fprintf(f, "%.*f", places, v);
    }
    fputc(']', f);
}

/* Writes table m as `name = [[…]]`, or as run's text writes it with a caption: `name =
 * label ≈ [[…]]` (label NULL: none; "" : `name ≈ [[…]]`, as run prints QKᵀ). */
static inline void o_put_labelled(FILE *f, const char *name, const char *label, const omat *m,
                                  int places)
{
    int i;

    if (label == NULL)
        fprintf(f, "%s = [", name);
    else
        fprintf(f, "%s%s%s \xe2\x89\x88 [", name, label[0] ? " = " : "", label);
    for (i = 0; i < m->r; i++) {
        if (i)
            fputs(",\n     ", f);
        o_put_row(f, m, i, places);
    }
    fputs("]\n", f);
}

static inline void o_put_table(FILE *f, const char *name, const omat *m, int places)
{
    o_put_labelled(f, name, NULL, m, places);
}

/* Writes what s hands in for problem p to f (a name line when s->name is set). */
static inline void o_put(FILE *f, const oprob *p, const ostudent *s)
{
    owork w;
    int k, r;

    o_work(p, s, &w);
    if (s->name != NULL)
        fprintf(f, "name: %s\n", s->name);
    for (k = 0; k < O_KINDS; k++) {
        if (s->writes >> k & 1)
            o_put_table(f, o_kind_name[k], &w.own[k], s->places[k]);
        if (k == O_S && s->extra_e && w.own[O_S].r > 0) { /* the max-shifted exps */
            omat e;
            o_softmax(&e, &w.own[O_S], 2, 0);
            o_put_table(f, "E", &e, 4);
        }
    }
    for (k = 0; k < O_KINDS; k++)
        for (r = 0; r < p->n && k != O_QKT; r++)
            if (!(s->writes >> k & 1) && o_row_written(s, k, r)) {
                fprintf(f, "%c%d = ", "qkv sao"[k], r);
                o_put_row(f, &w.own[k], r, s->places[k]);
                fputc('\n', f);
            }
}

/* ---- the profiles of a class (issue 28's list) ---- */

enum { O_PROFILES = 24 };

/* Fills s as profile `which` for problem p (other: another variant of the class, for
 * the copied key; may be NULL). */
static inline void o_profile(ostudent *s, int which, const oprob *p, const oprob *other)
{
    static const char *const one[][2] = {
        {"S", "no_scale"}, {"S", "scale_multiplied"}, {"S", "scale_by_dk"}, {"S", "no_mask"},
        {"S", "masked_zero"}, {"S", "inverted_mask"}, {"A", "mask_after_softmax"},
        {"A", "no_normalize"}, {"A", "softmax_columns"}, {"A", "transposed"},
        {"O", "keys_for_values"}, {"K", "wrong_weights:Wq"}, {"V", "torch_layout"}};
    int k;

    memset(s, 0, sizeof *s);
    s->writes = (1u << O_KINDS) - 1;
    s->slip_kind = -1;
    s->row = -1;
    for (k = 0; k < O_KINDS; k++)
        s->places[k] = 4;
    switch (which) {
    case 0: /* right, rounded to 2 places at every step, each from the written numbers */
        for (k = 0; k < O_KINDS; k++)
            s->places[k] = 2;
        break;
    case 1: /* right at 4 places */
        break;
    case 2: /* full precision kept, 4 places written */
        s->full = 1;
        break;
    case 3: /* full precision kept, 12 places written */
        s->full = 1;
        for (k = 0; k < O_KINDS; k++)
            s->places[k] = 12;
        break;
    case 17: /* a slip in K that propagates: carried_error downstream */
        s->slip_kind = O_K, s->slip_cell = 1, s->slip = 2;
        break;
    case 18: /* a slip in S */
        s->slip_kind = O_S, s->slip_cell = p->n * p->n - 1, s->slip = 1.5;
        break;
    case 19: /* blank: only the name */
        s->writes = 0;
        break;
    case 20: /* only Q, K, V */
        s->writes = 7;
        break;
    case 21: /* only rows, as the walk-through names them */
        s->writes = 0, s->row = p->n - 1;
        break;
    case 22: /* right, with the eˣ table the sheet invites */
        s->extra_e = 1;
        break;
    case 23: /* another variant's key */
        s->copied = other;
        break;
    default: { /* 4 .. 16: one named mistake */
        const char *const *m = one[which - 4];
        for (k = 0; k < O_KINDS; k++)
            if (strcmp(o_kind_name[k], m[0]) == 0)
                s->mistake[k] = m[1];
        if (which == 10) /* mask after the softmax: S left unmasked, not written */
            s->mistake[O_S] = "no_mask", s->writes &= ~(1u << O_S);
        if (which == 16 && p->dm != p->dv) /* no square Wv: Q made with Wk instead */
            s->mistake[O_V] = NULL, s->mistake[O_Q] = "wrong_weights:Wk";
        if (which == 14 && p->dk != p->dv) /* A·K has another shape: A transposed */
            s->mistake[O_O] = NULL, s->mistake[O_A] = "transposed";
    }
    }
}

#endif
