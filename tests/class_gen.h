/* class_gen.h - a generated class for `check` (issue 13): students who make every named
 * mistake of SPEC §6, alone and in pairs, slip early and late, round to 1-4 places at
 * every step, answer single rows, leave tables out, or hand in an unreadable file.
 *
 * INDEPENDENT of the grading code: nothing here includes an attnstep header. The class
 * works one small problem (3 tokens, d_k = d_v = 2, causal) with its own forward pass;
 * each student computes every step from their own earlier tables as written (rounded),
 * doing the steps their mistakes name another way. What each answer should get follows
 * from SPEC §6 as written here (expect()): right when it agrees with the true table to
 * half a unit of its last written place; else, when the student did that step right (no
 * mistake or slip of theirs there), right when every earlier table it was made from was
 * right and carried_error (credit 1) when one was wrong; else the mistake made there
 * (none for a slip), or, where the spec of a student says two mistakes fit equally, no
 * name. A mistake made in a table the student did not write shows in the first written
 * table after it. Used by tests/test_class.c and tests/bench/gen_class.c. */
#ifndef ATTNSTEP_CLASS_GEN_H
#define ATTNSTEP_CLASS_GEN_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the problem ---- */

enum { GQ, GK, GV, GQKT, GS, GA, GO, GKINDS };
static const char *const gkind_name[GKINDS] = {"Q", "K", "V", "QKT", "S", "A", "O"};

#define GN 3 /* tokens */
#define GD 2 /* d_model = d_k = d_v */

typedef struct gmat {
    int r, c;
    double v[GN * GN];
} gmat;

#define GAT(m, i, j) ((m).v[(i) * (m).c + (j)])

static const double gX[GN][GD] = {{1, 0}, {0, 1}, {1, 1}};
static const double gW[3][GD][GD] = {{{1, 2}, {0, 1}},  /* Wq */
                                     {{1, 0}, {1, 1}},  /* Wk */
                                     {{2, 0}, {1, 3}}}; /* Wv */

static const char gproblem_text[] =
    "title: a class exercise (tests/class_gen.h)\n"
    "tokens: 我 爱 你\n"
    "mask: causal\n"
    "X  = [[1, 0], [0, 1], [1, 1]]\n"
    "Wq = [[1, 2], [0, 1]]\n"
    "Wk = [[1, 0], [1, 1]]\n"
    "Wv = [[2, 0], [1, 3]]\n";

/* ---- the steps, done right or as a mistake does them ---- */

static inline void g_project(gmat *out, int w, int torch)
{
    int i, j, k;

    out->r = GN, out->c = GD;
    for (i = 0; i < GN; i++)
        for (j = 0; j < GD; j++) {
            double s = 0;
            for (k = 0; k < GD; k++)
                s += gX[i][k] * (torch ? gW[w][j][k] : gW[w][k][j]);
            GAT(*out, i, j) = s;
        }
}

static inline void g_transpose(gmat *m)
{
    gmat t = *m;
    int i, j;

    t.r = m->c, t.c = m->r;
    for (i = 0; i < m->r; i++)
        for (j = 0; j < m->c; j++)
            GAT(t, j, i) = GAT(*m, i, j);
    *m = t;
}

static inline void g_scores(gmat *out, const gmat *q, const gmat *k)
{
    int i, j, d;

    out->r = q->r, out->c = k->r;
    for (i = 0; i < q->r; i++)
        for (j = 0; j < k->r; j++) {
            double s = 0;
            for (d = 0; d < q->c; d++)
                s += GAT(*q, i, d) * GAT(*k, j, d);
            GAT(*out, i, j) = s;
        }
}

/* mask: 0 causal, 1 none, 2 zero where forbidden, 3 the other way round */
static inline void g_scale_mask(gmat *out, const gmat *qkt, double scale, int mask)
{
    int i, j;

    *out = *qkt;
    for (i = 0; i < GN; i++)
        for (j = 0; j < GN; j++) {
            const int forbidden = mask == 3 ? j < i : j > i;
            double v = GAT(*qkt, i, j) * scale;
            if (forbidden && (mask == 0 || mask == 3))
                v = -INFINITY;
            else if (forbidden && mask == 2)
                v = 0;
            GAT(*out, i, j) = v;
        }
}

/* how: 0 rows, 1 columns, 2 the shifted exps not divided, 3 rows then the forbidden
 * shares set to 0 */
static inline void g_softmax(gmat *out, const gmat *s, int how)
{
    gmat in = *s;
    int i, j;

    if (how == 1)
        g_transpose(&in);
    *out = in;
    for (i = 0; i < in.r; i++) {
        double mx = -INFINITY, sum = 0;
        for (j = 0; j < in.c; j++)
            mx = GAT(in, i, j) > mx ? GAT(in, i, j) : mx;
        for (j = 0; j < in.c; j++)
            sum += GAT(*out, i, j) = isinf(GAT(in, i, j)) ? 0 : exp(GAT(in, i, j) - mx);
        for (j = 0; how != 2 && j < in.c; j++)
            GAT(*out, i, j) /= sum;
        for (j = 0; how == 3 && j < in.c; j++)
            if (j > i)
                GAT(*out, i, j) = 0;
    }
    if (how == 1)
        g_transpose(out);
}

static inline void g_mix(gmat *out, const gmat *a, const gmat *v)
{
    int i, j, k;

    out->r = a->r, out->c = v->c;
    for (i = 0; i < a->r; i++)
        for (j = 0; j < v->c; j++) {
            double s = 0;
            for (k = 0; k < a->c; k++)
                s += GAT(*a, i, k) * GAT(*v, k, j);
            GAT(*out, i, j) = s;
        }
}

static inline double g_round(double v, int places)
{
    const double f = pow(10, places);

    return isinf(v) ? v : round(v * f) / f;
}

/* ---- a student ---- */

/* What a student did. Each table's step may carry the mistake made there (its SPEC
 * code, "wrong_weights:Wq" for a W swapped in, "torch_layout" for a transposed W). */
typedef struct gstudent {
    const char *file;            /* the answers file name, without .txt */
    const char *name;            /* the `name:` setting, or NULL */
    const char *tables;          /* the tables written, e.g. "Q K V QKT S A O" */
    int places[GKINDS];          /* decimals written per table (0: whole numbers) */
    const char *mistake[GKINDS]; /* the mistake made in each step, or NULL */
    int slip_kind;               /* a slip: -1 none, else the table ... */
    int slip_cell;               /* ... the cell (flat) ... */
    double slip;                 /* ... and what was added to it after rounding */
    const char *rows;            /* row answers written, e.g. "q1 k0 k1 s1 a1 o1" */
    const char *fits;            /* when two mistakes fit one answer equally: "s0=no_mask|inverted_mask" */
    int unreadable;              /* the file is cut off inside a matrix */
    int full;                    /* kept full calculator precision between steps: each
                                  * step from the unrounded tables, only what is written
                                  * rounded (else each step from the written numbers) */
} gstudent;

static inline int g_writes(const gstudent *s, int kind)
{
    char pad[16];
    const char *p = s->tables;
    size_t n = strlen(gkind_name[kind]);

    snprintf(pad, sizeof pad, "%s", gkind_name[kind]);
    while ((p = strstr(p, pad)) != NULL) {
        if ((p == s->tables || p[-1] == ' ') && (p[n] == '\0' || p[n] == ' '))
            return 1;
        p += n;
    }
    return 0;
}

static inline int g_is(const gstudent *s, int kind, const char *m)
{
    return s->mistake[kind] != NULL && strncmp(s->mistake[kind], m, strlen(m)) == 0;
}

/* The W a projection used: its own, or the one a wrong_weights mistake names. */
static inline int g_weights(const gstudent *s, int kind)
{
    const char *m = s->mistake[kind];

    if (m == NULL || strncmp(m, "wrong_weights:", 14) != 0)
        return kind;
    return m[15] == 'q' ? 0 : m[15] == 'k' ? 1 : 2;
}

/* Nonzero when row r of kind k is written as a row answer ("s1"). */
static inline int g_row_written(const gstudent *s, int k, int r)
{
    const char row[3] = {"qkv sao"[k], (char)('0' + r), 0};

    return s->rows != NULL && k != GQKT && strstr(s->rows, row) != NULL;
}

/* Nonzero when some row of kind k is written as a row answer. */
static inline int g_any_row(const gstudent *s, int k)
{
    int r;

    for (r = 0; r < GN; r++)
        if (g_row_written(s, k, r))
            return 1;
    return 0;
}

/* Step k of what the student did, from the tables m[] before it. */
static inline void g_step(const gstudent *s, int k, gmat m[GKINDS])
{
    if (k <= GV)
        g_project(&m[k], g_weights(s, k), g_is(s, k, "torch_layout"));
    if (k == GQKT && g_is(s, GQKT, "transposed"))
        g_scores(&m[GQKT], &m[GK], &m[GQ]);
    else if (k == GQKT)
        g_scores(&m[GQKT], &m[GQ], &m[GK]);
    if (k == GS)
        g_scale_mask(&m[GS], &m[GQKT],
                     g_is(s, GS, "no_scale") ? 1 : g_is(s, GS, "scale_multiplied") ? sqrt(2.0)
                     : g_is(s, GS, "scale_by_dk") ? 0.5 : 1 / sqrt(2.0),
                     g_is(s, GS, "no_mask") ? 1 : g_is(s, GS, "masked_zero") ? 2
                     : g_is(s, GS, "inverted_mask") ? 3 : 0);
    if (k == GA)
        g_softmax(&m[GA], &m[GS], g_is(s, GA, "softmax_columns") ? 1
                                  : g_is(s, GA, "no_normalize") ? 2
                                  : g_is(s, GA, "mask_after_softmax") ? 3 : 0);
    if (k == GO)
        g_mix(&m[GO], &m[GA], g_is(s, GO, "keys_for_values") ? &m[GK] : &m[GV]);
    if (k != GQKT && g_is(s, k, "transposed"))
        g_transpose(&m[k]);
}

/* The student's tables: each step from their own earlier tables, as written when written
 * (rounded, with the slip), else as computed; with s->full from the unrounded ones (the
 * slip kept), only the written copy rounded. */
static inline void g_work(const gstudent *s, gmat own[GKINDS])
{
    gmat raw[GKINDS];
    int k, i;

    for (k = GQ; k < GKINDS; k++) {
        g_step(s, k, s->full ? raw : own);
        if (s->full)
            own[k] = raw[k];
        for (i = 0; i < own[k].r * own[k].c; i++) /* what is written is rounded */
            if (g_writes(s, k) || g_row_written(s, k, i / own[k].c))
                own[k].v[i] = g_round(own[k].v[i], s->places[k]);
        if (k == s->slip_kind) {
            own[k].v[s->slip_cell] += s->slip;
            raw[k].v[s->slip_cell] += s->slip;
        }
    }
}

/* ---- the file ---- */

static inline void g_number(FILE *f, double v, int places, int alt)
{
    if (isinf(v))
        fputs(alt ? "-inf" : "\xe2\x88\x92\xe2\x88\x9e", f);
    else
        fprintf(f, "%.*f", places, v);
}

static inline void g_row(FILE *f, const gmat *m, int i, int places, int alt)
{
    int j;

    fputc('[', f);
    for (j = 0; j < m->c; j++) {
        if (j)
            fputs(", ", f);
        g_number(f, GAT(*m, i, j), places, alt);
    }
    fputc(']', f);
}

static inline void g_table(FILE *f, const char *name, const gmat *m, int places, int alt)
{
    int i;

    fprintf(f, "%s = [", name);
    for (i = 0; i < m->r; i++) {
        if (i)
            fputs(",\n      ", f);
        g_row(f, m, i, places, alt);
    }
    fputs("]\n", f);
}

/* The row answers: "q1" names row 1 of Q; "q₁" (a subscript) too. */
static inline void g_rows(FILE *f, const gstudent *s, const gmat own[GKINDS], int sub)
{
    const char *p;

    for (p = s->rows; p != NULL && *p != '\0'; p++) {
        const char *letters = "qkv sao", *at;
        if (*p == ' ' || (at = strchr(letters, *p)) == NULL)
            continue;
        if (sub)
            fprintf(f, "%c\xe2\x82%c = ", *p, (char)(0x80 + (p[1] - '0')));
        else
            fprintf(f, "%c%c = ", *p, p[1]);
        g_row(f, &own[at - letters], p[1] - '0', s->places[at - letters], 0);
        fputc('\n', f);
        p++;
    }
}

/* Writes the student's answers file into dir. Returns 0, or -1 when it cannot. */
static inline int g_write(const char *dir, const gstudent *s, int serial)
{
    gmat own[GKINDS];
    char path[1024];
    FILE *f;
    int k;

    snprintf(path, sizeof path, "%s/%s.txt", dir, s->file);
    if ((f = fopen(path, "w")) == NULL)
        return -1;
    g_work(s, own);
    fprintf(f, "# generated by tests/class_gen.h (student %d)\n", serial);
    if (s->name != NULL)
        fprintf(f, "name: %s\n", s->name);
    for (k = 0; k < GKINDS; k++)
        if (g_writes(s, k))
            g_table(f, k == GQKT && serial % 2 ? "QK\xe1\xb5\x80" : gkind_name[k], &own[k],
                    s->places[k], serial % 3 == 0);
    g_rows(f, s, own, serial % 2);
    if (s->unreadable)
        fputs("O = [[1, 2],\n     [3, 4]\n", f); /* never closed */
    return fclose(f) == 0 ? 0 : -1;
}

/* ---- what each answer should get ---- */

typedef struct gexpect {
    char name[8];       /* "S", "s1" */
    int correct, credit;
    const char *code;   /* the diagnosis's code, NULL for none */
    const char *fits;   /* with no code: the mistakes that fit equally, "no_mask|inverted_mask" */
} gexpect;

/* Nonzero when the written cells stand for the true ones (half a unit of the place). */
static inline int g_agrees(const gmat *w, const gmat *x, int row, int places)
{
    const double half = places > 0 ? 0.5 * pow(10, -places) : 1e-9;
    int i, j, r0 = row < 0 ? 0 : row, r1 = row < 0 ? w->r : row + 1;

    if (w->r != x->r || w->c != x->c)
        return 0;
    for (i = r0; i < r1; i++)
        for (j = 0; j < w->c; j++) {
            double a = GAT(*w, i, j), b = GAT(*x, i, j);
            if (isinf(a) || isinf(b) ? a != b : fabs(a - b) > half * (1 + 1e-9) + 1e-12)
                return 0;
        }
    return 1;
}

static const int g_inputs[GKINDS][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {GQ, GK},
                                        {GQKT, -1}, {GS, -1}, {GA, GV}};

/* What step k (row r, -1 the whole table) reads of kind k is written: the table, that
 * row, or (whole) some of its rows. */
static inline int g_given(const gstudent *s, int k, int r)
{
    return g_writes(s, k) || (r >= 0 ? g_row_written(s, k, r) : g_any_row(s, k));
}

/* Walks back from step k through the tables the student did not write: sets *wrong when
 * a written one it was made from is wrong, and *hidden to a mistake made in a table not
 * written. status[kind] is 1 right, 0 wrong, for the written tables (and the rows r). */
static inline void g_sources(const gstudent *s, int k, int r, const int status[GKINDS], int *wrong,
                      const char **hidden)
{
    int i;

    for (i = 0; i < 2; i++) {
        const int in = g_inputs[k][i];
        const int rr = in == GK || in == GV ? -1 : r; /* every Key and Value row is read */
        if (in < 0)
            continue;
        if (g_given(s, in, rr)) {
            *wrong |= status[in] == 0;
            continue;
        }
        if (s->mistake[in] != NULL && *hidden == NULL)
            *hidden = s->mistake[in];
        g_sources(s, in, r, status, wrong, hidden);
    }
}

/* The code as the report prints it: wrong_weights without the W it names. */
static const char *g_code(const char *m)
{
    static const char *const codes[] = {"wrong_weights", "torch_layout"};
    size_t i;

    for (i = 0; i < 2; i++)
        if (strncmp(m, codes[i], strlen(codes[i])) == 0)
            return codes[i];
    return m;
}

static inline void g_judge(gexpect *e, const gstudent *s, int k, int r, const gmat own[GKINDS],
                    const gmat truth[GKINDS], int status[GKINDS])
{
    const char *hidden = NULL, *fit;
    int wrong = 0;

    e->code = e->fits = NULL;
    e->correct = g_agrees(&own[k], &truth[k], r, s->places[k]);
    g_sources(s, k, r, status, &wrong, &hidden);
    if (!e->correct && s->mistake[k] == NULL && hidden == NULL && s->slip_kind != k) {
        e->correct = !wrong; /* the step done right on the student's own tables */
        e->code = wrong ? "carried_error" : NULL;
    } else if (!e->correct && s->slip_kind != k) {
        e->code = g_code(s->mistake[k] != NULL ? s->mistake[k] : hidden);
    }
    if (s->fits != NULL && strncmp(s->fits, e->name, strlen(e->name)) == 0 &&
        s->fits[strlen(e->name)] == '=' && !e->correct) {
        fit = s->fits + strlen(e->name) + 1;
        e->code = NULL;
        e->fits = fit;
    }
    e->credit = e->correct || (e->code != NULL && strcmp(e->code, "carried_error") == 0);
    if (r < 0)
        status[k] = e->correct;
    else if (!g_writes(s, k))
        status[k] &= e->correct; /* the rows of a table not written: wrong when one is */
}

/* Fills e[] with what each answer of s should get, in the book's order (tables, then
 * rows after their table); returns how many. *score: the marks out of GKINDS, the
 * tables the problem asks (SPEC §6): a table's credit, or a row's credit as 1/GN of its
 * table's mark; a table not answered earns 0. */
static inline int g_expect(const gstudent *s, gexpect e[32], double *score)
{
    gmat own[GKINDS], truth[GKINDS];
    int status[GKINDS] = {1, 1, 1, 1, 1, 1, 1}, n = 0, k, r;

    /* the truth, unrounded */
    g_project(&truth[GQ], 0, 0), g_project(&truth[GK], 1, 0), g_project(&truth[GV], 2, 0);
    g_scores(&truth[GQKT], &truth[GQ], &truth[GK]);
    g_scale_mask(&truth[GS], &truth[GQKT], 1 / sqrt(2.0), 0);
    g_softmax(&truth[GA], &truth[GS], 0);
    g_mix(&truth[GO], &truth[GA], &truth[GV]);
    g_work(s, own);
    *score = 0;
    for (k = 0; k < GKINDS; k++) {
        if (g_writes(s, k)) {
            snprintf(e[n].name, sizeof e[n].name, "%s", gkind_name[k]);
            g_judge(&e[n], s, k, -1, own, truth, status);
            *score += e[n++].credit;
        }
        for (r = 0; r < GN; r++)
            if (!g_writes(s, k) && g_row_written(s, k, r)) {
                snprintf(e[n].name, sizeof e[n].name, "%c%d", "qkv sao"[k], r);
                g_judge(&e[n], s, k, r, own, truth, status);
                *score += e[n++].credit / (double)GN;
            }
    }
    return n;
}

#endif
