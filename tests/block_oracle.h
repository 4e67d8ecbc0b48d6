/* block_oracle.h - the whole block of SPEC §15 as a student works it by hand, and the
 * marks SPEC §6 gives for it (issue 31: "every convention mistake injected by a
 * generator independent of the code is named, once, on the table where it was made").
 *
 * INDEPENDENT of the grading code: nothing here includes an attnstep header. The
 * attention part is tests/oracle.h's forward pass (one head, causal or no mask); the
 * norms, the activations, the FFN and the residuals are written here from SPEC §15's
 * formulas alone:
 *   LayerNorm (torch)      μ = mean, σ² = Σ(x−μ)²/d, y = γ⊙(x−μ)/√(σ²+ε) + β
 *   LayerNorm (annotated)  σ = √(Σ(x−μ)²/(d−1)),   y = γ⊙(x−μ)/(σ+ε) + β
 *   RMSNorm                rms = √(Σx²/d + ε),     y = γ⊙x/rms
 *   pre:  N1 = norm1(X); O = attn(N1); H1 = X + O; N2 = norm2(H1); D = ffn(N2); H2 = H1 + D;
 *         Y = normf(H2) (H1 with ffn: none) when lnf is given
 *   post: O = attn(X); H1 = norm1(X + O); D = ffn(H1); H2 = norm2(H1 + D)
 *   ffn:  U = x·Wup + bup, F = act(U) (swiglu: G = silu(x·Wgate), F = G⊙U), D = F·Wdown + bdown
 * and each named convention mistake is that one step done the mistake's way. A student
 * works every table asked from the tables they wrote before it, rounded to the places
 * they write (one mistake at one table at most); the mark of each table follows SPEC §6:
 * right against the truth; else the step done right on the student's own tables, from a
 * wrong one (carried) or only from rounded ones (right); else wrong, with its mistake.
 * Whether a mistake shows at all, or fits alone, is decided here by what the rounding of
 * the tables it reads can move it (first order, by finite differences, as oracle.h's
 * o_bound). Used by tests/test_block_oracle.c. */
#ifndef ATTNSTEP_BLOCK_ORACLE_H
#define ATTNSTEP_BLOCK_ORACLE_H

#include "oracle.h"

/* The tables of the block, in the order a student works them (pre's N1 first: the
 * attention reads it). */
enum { B_N1, B_Q, B_K, B_V, B_QKT, B_S, B_A, B_O, B_H1, B_N2, B_U, B_G, B_F, B_D, B_H2, B_Y,
       B_KINDS };
static const char *const b_name[B_KINDS] = {"N1", "Q", "K", "V", "QKT", "S", "A", "O",
                                            "H1", "N2", "U", "G", "F", "D", "H2", "Y"};

enum { BN_TORCH, BN_ANNOTATED, BN_RMS };                          /* the norm */
enum { BF_RELU, BF_GELU, BF_GELU_TANH, BF_SWIGLU, BF_NONE };      /* the FFN */

/* The convention mistakes of SPEC §15, each a variant of one step. */
typedef enum bmis {
    BM_NONE, BM_LN_UNBIASED, BM_LN_EPS_OUTSIDE, BM_LN_NO_AFFINE, BM_RMS_WITH_MEAN,
    BM_GELU_TANH_FOR_ERF, BM_GELU_ERF_FOR_TANH, BM_RELU_FOR_GELU, BM_NO_RESIDUAL,
    BM_RESIDUAL_FROM_NORMED, BM_POST_FOR_PRE, BM_COUNT
} bmis;
static const char *const b_code[BM_COUNT] = {
    NULL, "ln_unbiased", "ln_eps_outside", "ln_no_affine", "rms_with_mean",
    "gelu_tanh_for_erf", "gelu_erf_for_tanh", "relu_for_gelu", "no_residual",
    "residual_from_normed", "post_for_pre"};

#define B_MAXD O_MAXD

/* A block problem: X [n, dm]; one head with Wq, Wk [dm, dk] and Wv [dm, dm] (the
 * residual adds O to X); the FFN Wup (Wgate) [dm, dff], Wdown [dff, dm]; each norm's γ
 * and β (0: norm1, 1: norm2, 2: normf), 1 and 0 when not given. */
typedef struct bprob {
    int pre, norm, ffn, lnf;  /* lnf: the final norm (pre) */
    int n, dm, dk, dff, causal;
    double eps;
    double X[O_MAXN * B_MAXD], Wq[B_MAXD * B_MAXD], Wk[B_MAXD * B_MAXD], Wv[B_MAXD * B_MAXD];
    double Wup[B_MAXD * B_MAXD], Wgate[B_MAXD * B_MAXD], Wdown[B_MAXD * B_MAXD];
    double bup[B_MAXD], bdown[B_MAXD];
    double g[3][B_MAXD], b[3][B_MAXD];
} bprob;

/* The tables p asks (bit k: table k), the way SPEC §15 lists them: N1 only for pre, G
 * only for swiglu, no FFN tables with ffn: none, Y only when it is a norm of its own. */
static inline unsigned b_asked(const bprob *p)
{
    unsigned m = 0;
    int k;

    for (k = B_Q; k <= B_H1; k++)
        m |= 1u << k;
    if (p->pre)
        m |= 1u << B_N1;
    if (p->ffn != BF_NONE) {
        m |= 1u << B_U | 1u << B_F | 1u << B_D | 1u << B_H2;
        if (p->pre)
            m |= 1u << B_N2;
        if (p->ffn == BF_SWIGLU)
            m |= 1u << B_G;
    }
    if (p->pre && p->lnf)
        m |= 1u << B_Y;
    return m;
}

/* ---- the steps ---- */

static inline void b_from(omat *m, int r, int c, const double *v)
{
    m->r = r, m->c = c;
    memcpy(m->v, v, sizeof(double) * (size_t)(r * c));
}

/* out = x [r, k] · w [k, c] (+ bias when not NULL). */
static inline void b_matmul(omat *out, const omat *x, const double *w, int c, const double *bias)
{
    int i, j, k;

    out->r = x->r, out->c = c;
    for (i = 0; i < x->r; i++)
        for (j = 0; j < c; j++) {
            double s = bias != NULL ? bias[j] : 0;
            for (k = 0; k < x->c; k++)
                s += OAT(*x, i, k) * w[k * c + j];
            OAT(*out, i, j) = s;
        }
}

static inline void b_add(omat *out, const omat *a, const omat *b)
{
    int i;

    *out = *a;
    for (i = 0; i < a->r * a->c; i++)
        out->v[i] += b->v[i];
}

/* Norm `which` (0, 1, 2) of x, row by row, the problem's way or the mistake's. */
static inline void b_norm(omat *out, const omat *x, const bprob *p, int which, bmis m)
{
    const int d = x->c;
    int i, j;

    *out = *x;
    for (i = 0; i < x->r; i++) {
        double mean = 0, sq = 0, div;
        const int centre = p->norm != BN_RMS || m == BM_RMS_WITH_MEAN;
        for (j = 0; j < d; j++)
            mean += OAT(*x, i, j) / d;
        if (!centre)
            mean = 0;
        for (j = 0; j < d; j++)
            sq += (OAT(*x, i, j) - mean) * (OAT(*x, i, j) - mean);
        if (m == BM_LN_UNBIASED)
            div = sqrt(sq / (d - 1) + p->eps);
        else if (m == BM_LN_EPS_OUTSIDE)
            div = sqrt(sq / d) + p->eps;
        else if (p->norm == BN_ANNOTATED)
            div = sqrt(sq / (d - 1)) + p->eps;
        else
            div = sqrt(sq / d + p->eps);
        for (j = 0; j < d; j++) {
            const double xhat = (OAT(*x, i, j) - mean) / div;
            OAT(*out, i, j) = m == BM_LN_NO_AFFINE ? xhat
                              : p->g[which][j] * xhat + (p->norm == BN_RMS ? 0 : p->b[which][j]);
        }
    }
}

/* The activation `ffn` (relu, gelu, gelu_tanh; silu for swiglu's gate), cell by cell. */
static inline void b_act(omat *out, const omat *u, int ffn)
{
    int i;

    *out = *u;
    for (i = 0; i < u->r * u->c; i++) {
        const double x = u->v[i];
        out->v[i] = ffn == BF_RELU   ? (x > 0 ? x : 0)
                    : ffn == BF_GELU ? 0.5 * x * (1 + erf(x / sqrt(2.0)))
                    : ffn == BF_GELU_TANH
                        ? 0.5 * x * (1 + tanh(sqrt(2 / 3.14159265358979323846) * (x + 0.044715 * x * x * x)))
                        : x / (1 + exp(-x));
    }
}

/* The attention's tables, one head (oracle.h's steps): table k from t[]. */
static inline void b_attention(omat t[B_KINDS], const bprob *p, int k)
{
    static const int slot[] = {0, 0, 1, 2};
    oprob a;

    if (k <= B_V) {
        memset(&a, 0, sizeof a);
        a.n = p->n, a.dm = p->dm, a.dk = p->dk, a.dv = p->dm;
        memcpy(a.X, p->pre ? t[B_N1].v : p->X, sizeof(double) * (size_t)(p->n * p->dm));
        memcpy(a.W[0], p->Wq, sizeof a.W[0]);
        memcpy(a.W[1], p->Wk, sizeof a.W[1]);
        memcpy(a.W[2], p->Wv, sizeof a.W[2]);
        o_project(&t[k], &a, slot[k], 0);
    } else if (k == B_QKT) {
        o_scores(&t[B_QKT], &t[B_Q], &t[B_K]);
    } else if (k == B_S) {
        o_scale_mask(&t[B_S], &t[B_QKT], 1 / sqrt((double)p->dk), 0, p->causal);
    } else if (k == B_A) {
        o_softmax(&t[B_A], &t[B_S], 0, p->causal);
    } else {
        o_mix(&t[B_O], &t[B_A], &t[B_V]);
    }
}

/* A residual step: H = A + S, or norm `which` of it (post), or the mistake's way. */
static inline void b_residual(omat *out, const omat *a, const omat *normed, const omat *s,
                              const bprob *p, int which, bmis m)
{
    omat sum;

    if (p->pre && m == BM_NO_RESIDUAL) {
        *out = *s;
    } else if (p->pre && m == BM_RESIDUAL_FROM_NORMED) {
        b_add(out, normed, s);
    } else if (p->pre && m == BM_POST_FOR_PRE) {
        b_add(&sum, a, s);
        b_norm(out, &sum, p, which, BM_NONE);
    } else if (p->pre) {
        b_add(out, a, s);
    } else {
        if (m == BM_NO_RESIDUAL)
            sum = *s;
        else
            b_add(&sum, a, s);
        b_norm(out, &sum, p, which, m == BM_NO_RESIDUAL ? BM_NONE : m);
    }
}

/* Table k from the tables t[] before it, step k done the way of mistake m. */
static inline void b_step(omat t[B_KINDS], const bprob *p, int k, bmis m)
{
    omat X, *in = p->pre ? &t[B_N2] : &t[B_H1];
    int act = p->ffn;

    b_from(&X, p->n, p->dm, p->X);
    switch (k) {
    case B_N1: b_norm(&t[k], &X, p, 0, m); break;
    case B_H1: b_residual(&t[k], &X, &t[B_N1], &t[B_O], p, 0, m); break;
    case B_N2: b_norm(&t[k], &t[B_H1], p, 1, m); break;
    case B_U: b_matmul(&t[k], in, p->Wup, p->dff, p->bup); break;
    case B_G:
        b_matmul(&X, in, p->Wgate, p->dff, NULL);
        b_act(&t[k], &X, BF_SWIGLU);
        break;
    case B_F:
        if (p->ffn == BF_SWIGLU) {
            int i;
            t[k] = t[B_G];
            for (i = 0; i < t[k].r * t[k].c; i++)
                t[k].v[i] *= t[B_U].v[i];
            break;
        }
        act = m == BM_GELU_TANH_FOR_ERF ? BF_GELU_TANH : m == BM_GELU_ERF_FOR_TANH ? BF_GELU
              : m == BM_RELU_FOR_GELU ? BF_RELU : act;
        b_act(&t[k], &t[B_U], act);
        break;
    case B_D: b_matmul(&t[k], &t[B_F], p->Wdown, p->dm, p->bdown); break;
    case B_H2: b_residual(&t[k], &t[B_H1], &t[B_N2], &t[B_D], p, 1, m); break;
    case B_Y: b_norm(&t[k], p->ffn == BF_NONE ? &t[B_H1] : &t[B_H2], p, 2, m); break;
    default: b_attention(t, p, k);
    }
}

/* The tables step k reads done the way of m (bit i: table i), besides the problem's own
 * X and weights: the normed table only for residual_from_normed. */
static inline unsigned b_inputs(const bprob *p, int k, bmis m)
{
    const int normed = p->pre && m == BM_RESIDUAL_FROM_NORMED;

    switch (k) {
    case B_Q: case B_K: case B_V: return p->pre ? 1u << B_N1 : 0;
    case B_QKT: return 1u << B_Q | 1u << B_K;
    case B_S: return 1u << B_QKT;
    case B_A: return 1u << B_S;
    case B_O: return 1u << B_A | 1u << B_V;
    case B_H1: return 1u << B_O | (normed ? 1u << B_N1 : 0);
    case B_N2: return 1u << B_H1;
    case B_U: case B_G: return p->pre ? 1u << B_N2 : 1u << B_H1;
    case B_F: return 1u << B_U | (p->ffn == BF_SWIGLU ? 1u << B_G : 0);
    case B_D: return 1u << B_F;
    case B_H2: return 1u << B_H1 | 1u << B_D | (normed ? 1u << B_N2 : 0);
    case B_Y: return p->ffn == BF_NONE ? 1u << B_H1 : 1u << B_H2;
    default: return 0;
    }
}

/* The mistakes SPEC §15 names at table k of p's block, into out; returns how many. */
static inline int b_mistakes_at(const bprob *p, int k, bmis out[BM_COUNT])
{
    const int norm = k == B_N1 || k == B_N2 || k == B_Y || (!p->pre && (k == B_H1 || k == B_H2));
    int n = 0;

    if (norm && p->norm == BN_TORCH)
        out[n++] = BM_LN_UNBIASED, out[n++] = BM_LN_EPS_OUTSIDE;
    if (norm && p->norm == BN_RMS)
        out[n++] = BM_RMS_WITH_MEAN;
    if (norm)
        out[n++] = BM_LN_NO_AFFINE;
    if (k == B_F && (p->ffn == BF_GELU || p->ffn == BF_GELU_TANH))
        out[n++] = p->ffn == BF_GELU ? BM_GELU_TANH_FOR_ERF : BM_GELU_ERF_FOR_TANH,
        out[n++] = BM_RELU_FOR_GELU;
    if (k == B_H1 || k == B_H2)
        out[n++] = BM_NO_RESIDUAL;
    if (p->pre && (k == B_H1 || k == B_H2))
        out[n++] = BM_RESIDUAL_FROM_NORMED, out[n++] = BM_POST_FOR_PRE;
    return n;
}

/* ---- a student ---- */

/* What a student wrote: every table asked, each worked from the tables before it --
 * as written, or as computed when they keep full calculator precision between steps
 * (full) -- and written to places[k] decimals (2 … 6); one mistake (m at table at), or
 * none (at -1). */
typedef struct bstudent {
    int places[B_KINDS], full, at;
    bmis m;
    omat t[B_KINDS];    /* as written */
    omat raw[B_KINDS];  /* as computed (full precision) */
} bstudent;

/* 10^places, places 0 … 6 (exact). */
static inline double b_ten(int places)
{
    static const double ten[] = {1, 10, 100, 1000, 1e4, 1e5, 1e6};

    return ten[places];
}

static inline double b_half(const bstudent *s, int k)
{
    return 0.5 / b_ten(s->places[k]);
}

/* Each cell of m as the student writes it to `places` (≤ 6) decimals: k/10^places for
 * the nearest whole k, which is the double the written digits read back as (both k and
 * 10^places are exact, and one division rounds once, as reading the text does). */
static inline void b_round(omat *m, int places)
{
    const double scale = b_ten(places);
    int i;

    for (i = 0; i < m->r * m->c; i++)
        if (!isinf(m->v[i]))
            m->v[i] = (double)llround(m->v[i] * scale) / scale;
}

/* Works the tables of s from table `from` on (the ones before it as s has them), the
 * mistake at s->at done its way. */
static inline void b_work_on(bstudent *s, const bprob *p, int from)
{
    const unsigned asked = b_asked(p);
    int k;

    for (k = from; k < B_KINDS; k++)
        if (asked >> k & 1) {
            omat *in = s->full ? s->raw : s->t;
            b_step(in, p, k, k == s->at ? s->m : BM_NONE);
            if (s->full)
                s->t[k] = s->raw[k];
            b_round(&s->t[k], s->places[k]);
        }
}

/* A student of p who writes table k at places[k] decimals and keeps full precision
 * between steps (full) or works from the written numbers, with no mistake. */
static inline void b_student(bstudent *s, const bprob *p, const int places[B_KINDS], int full)
{
    memset(s, 0, sizeof *s);
    memcpy(s->places, places, sizeof s->places);
    s->full = full, s->at = -1, s->m = BM_NONE;
    b_work_on(s, p, 0);
}

/* right, the same student making mistake m at table at. */
static inline void b_mistaken(bstudent *s, const bprob *p, const bstudent *right, int at, bmis m)
{
    *s = *right;
    s->at = at, s->m = m;
    b_work_on(s, p, at);
}

/* The true tables (no rounding, no mistake). */
static inline void b_truth(omat t[B_KINDS], const bprob *p)
{
    const unsigned asked = b_asked(p);
    int k;

    memset(t, 0, sizeof(omat) * B_KINDS);
    for (k = 0; k < B_KINDS; k++)
        if (asked >> k & 1)
            b_step(t, p, k, BM_NONE);
}

/* Step k done the way of m on the student's written tables into *out, and into bound[]
 * per cell what the rounding of those tables (half a unit each) can move it, first
 * order: each cell read moved half a unit, the changes added up. */
static inline void b_step_bound(omat *out, double bound[O_CELLS], const bprob *p,
                                const bstudent *s, int k, bmis m)
{
    const unsigned in = b_inputs(p, k, m);
    omat t[B_KINDS];
    int i, c, j;

    memcpy(t, s->t, sizeof t);
    b_step(t, p, k, m);
    *out = t[k];
    for (j = 0; j < O_CELLS; j++)
        bound[j] = 0;
    for (i = 0; i < B_KINDS; i++) {
        if (!(in >> i & 1))
            continue;
        for (c = 0; c < s->t[i].r * s->t[i].c; c++) {
            if (isinf(s->t[i].v[c]))
                continue;
            t[i].v[c] = s->t[i].v[c] + b_half(s, i); /* step k writes only t[k] */
            b_step(t, p, k, m);
            t[i].v[c] = s->t[i].v[c];
            for (j = 0; j < out->r * out->c; j++)
                if (!isinf(out->v[j]))
                    bound[j] += fabs(t[k].v[j] - out->v[j]);
        }
    }
}

/* Nonzero when the written table w is clearly not what step b (its bound bb) gives:
 * some cell beyond twice what the rounding of w (half unit h) and of the tables read
 * can explain. */
static inline int b_apart(const omat *w, const omat *b, const double bb[O_CELLS], double h)
{
    int j;

    for (j = 0; j < w->r * w->c; j++)
        if (fabs(w->v[j] - b->v[j]) > 1.5 * (2 * h + bb[j]))
            return 1;
    return 0;
}

/* Nonzero when every table of s is what its step (the mistake's at s->at) gives on the
 * written tables within its half unit and three quarters of what their rounding can
 * move it: always so for a student who works from the written numbers; one who kept
 * full precision can be further off only where the first order misleads (a cell too
 * sensitive to its inputs), a case where the rule's interval and the student part. */
static inline int b_first_order(const bprob *p, const bstudent *s)
{
    const unsigned asked = b_asked(p);
    double bound[O_CELLS];
    omat step;
    int k, j;

    for (k = 0; k < B_KINDS && s->full; k++) {
        if (!(asked >> k & 1))
            continue;
        b_step_bound(&step, bound, p, s, k, k == s->at ? s->m : BM_NONE);
        for (j = 0; j < step.r * step.c; j++)
            if (!isinf(step.v[j]) &&
                fabs(s->t[k].v[j] - step.v[j]) > b_half(s, k) + 1.0 * bound[j] + 1e-12)
                return 0;
    }
    return 1;
}

/* Nonzero when a and b are the same table, cell for cell. */
static inline int b_same(const omat *a, const omat *b)
{
    int j;

    if (a->r != b->r || a->c != b->c)
        return 0;
    for (j = 0; j < a->r * a->c; j++)
        if (a->v[j] != b->v[j])
            return 0;
    return 1;
}

/* What mistake m at table k of s (worked with it) shows; r: the student who made none,
 * at the same places. */
typedef enum bshows {
    BS_CLEAR,      /* clearly not the right step, and clearly none of the other mistakes
                    * named there: it must be named */
    BS_INVISIBLE,  /* the student writes exactly the right tables: nothing to name */
    BS_UNSURE      /* in between (within a few rounding units of the right step or of
                    * another mistake, or beyond the first order): a teacher's call, not
                    * a rule's; left out */
} bshows;

static inline bshows b_shows(const bprob *p, const bstudent *s, const bstudent *r)
{
    const double h = b_half(s, s->at);
    bmis other[BM_COUNT];
    omat alt;
    double bound[O_CELLS];
    int n, i, k;

    for (k = 0; k < B_KINDS && b_same(&r->t[k], &s->t[k]); k++)
        ;
    if (k == B_KINDS)
        return BS_INVISIBLE;
    if (!b_first_order(p, s))
        return BS_UNSURE;
    b_step_bound(&alt, bound, p, s, s->at, BM_NONE);
    if (!b_apart(&s->t[s->at], &alt, bound, h))
        return BS_UNSURE;
    n = b_mistakes_at(p, s->at, other);
    for (i = 0; i < n; i++) {
        if (other[i] == s->m)
            continue;
        b_step_bound(&alt, bound, p, s, s->at, other[i]);
        if (!b_apart(&s->t[s->at], &alt, bound, h))
            return BS_UNSURE;
    }
    return BS_CLEAR;
}

/* ---- the mark ---- */

typedef enum { B_RIGHT, B_CARRIED, B_WRONG } bverdict;

/* The verdict on each table asked of s (SPEC §6): wrong where the mistake was made (when
 * it shows); else right against the truth (to half a unit of its written places); else
 * carried when a table its step reads is not right, right (only rounding came in) when
 * every one is. */
static inline void b_mark(bverdict v[B_KINDS], const bprob *p, const bstudent *s)
{
    const unsigned asked = b_asked(p);
    omat truth[B_KINDS];
    int k, i;

    b_truth(truth, p);
    for (k = 0; k < B_KINDS; k++) {
        const unsigned in = b_inputs(p, k, BM_NONE); /* the right step's, done on them */
        v[k] = B_RIGHT;
        if (!(asked >> k & 1))
            continue;
        if (k == s->at && s->m != BM_NONE)
            v[k] = B_WRONG;
        else if (!o_agrees(&s->t[k], &truth[k], -1, s->places[k]))
            for (i = 0; i < B_KINDS; i++)
                if ((in >> i & 1) && v[i] != B_RIGHT)
                    v[k] = B_CARRIED;
    }
}

/* ---- the files ---- */

/* The caption run's text gives table k (NULL: none), so that the answers are pasted
 * from a run's printout as well as typed; zh: run's Chinese one where it has words. */
static inline const char *b_caption(const bprob *p, int k, int zh)
{
    switch (k) {
    case B_N1: case B_N2: return p->norm == BN_RMS ? "\xce\xb3\xe2\x8a\x99x\xcc\x82"
                                                   : "\xce\xb3\xe2\x8a\x99x\xcc\x82 + \xce\xb2";
    case B_Q: return p->pre ? "N1 @ Wq" : "X @ Wq";
    case B_QKT: return "";
    case B_S: return "QK\xe1\xb5\x80/\xe2\x88\x9a" "2 + M";
    case B_A: return zh ? "\xe6\xaf\x8f\xe8\xa1\x8csoftmax(S)" : "softmax of each row of S";
    case B_O: return "AV";
    case B_H1: return p->pre ? "X + O" : "RMSNorm(X + O)";
    case B_U: return "N2 @ Wup + bup";
    case B_F: return "GELU(U)";
    case B_H2: return "H1 + D";
    default: return NULL;
    }
}

/* Writes what s hands in to f: every table asked, plain (`N1 = [[…]]`, captions 0) or
 * with run's captions (`QKᵀ ≈ [[…]]`; 1 English, 2 Chinese). */
static inline void b_put(FILE *f, const bprob *p, const bstudent *s, int captions)
{
    const unsigned asked = b_asked(p);
    int k;

    fprintf(f, "name: student\n");
    for (k = 0; k < B_KINDS; k++)
        if (asked >> k & 1)
            o_put_labelled(f, k == B_QKT && captions ? "QK\xe1\xb5\x80" : b_name[k],
                           captions ? b_caption(p, k, captions == 2) : NULL, &s->t[k], s->places[k]);
}

#endif
