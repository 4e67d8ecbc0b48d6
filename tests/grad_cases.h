/* grad_cases.h - the stored cases of `grad` made by the make_*_grad.py scripts under
 * tests/data/grad/ (block/, positions/): each case "case K LINES", the LINES lines of its
 * input, then the tables PyTorch autograd gave as grad_expected.h reads them, then "end".
 * Each case is run whole and row by row (the rows run's tables the whole one's, bit for
 * bit) and held against torch. For test_grad_block.c and test_grad_positions.c; include
 * after cmocka.h, grad.h, session.h and grad_expected.h. */
#ifndef ATTNSTEP_TEST_GRAD_CASES_H
#define ATTNSTEP_TEST_GRAD_CASES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Head h's table the stored name "headH.dX" names (dV, dQKT, dQr, dKr, dQ, dK), or NULL. */
static inline const as_matrix *case_head_table(const as_grad *g, const char *name)
{
    char *end;
    const unsigned long h = strtoul(name + 4, &end, 10);
    const as_grad_head *gh;
    const struct { const char *n; size_t at; } all[] = {
        {"dV", offsetof(as_grad_head, dV)}, {"dQKT", offsetof(as_grad_head, dQKT)},
        {"dQr", offsetof(as_grad_head, dQr)}, {"dKr", offsetof(as_grad_head, dKr)},
        {"dQ", offsetof(as_grad_head, dQ)}, {"dK", offsetof(as_grad_head, dK)}};
    size_t i;

    if (end == name + 4 || *end != '.' || h >= g->heads)
        return NULL;
    gh = &g->head[h];
    for (i = 0; i < sizeof all / sizeof all[0]; i++)
        if (strcmp(all[i].n, end + 1) == 0)
            return (const as_matrix *)((const char *)gh + all[i].at);
    return NULL;
}

/* The gradient table a stored case names, or NULL (loss: a 1 x 1 matrix made in *loss). */
static inline const as_matrix *case_table(const as_grad *g, const char *name, as_matrix *loss)
{
    const struct { const char *n; const as_matrix *m; } all[] = {
        {"dY", &g->dY}, {"dH2", &g->dH2}, {"dR2", &g->dR2}, {"dD", &g->dD}, {"dF", &g->dF},
        {"dG", &g->dG}, {"dZ", &g->dZ}, {"dU", &g->dU}, {"dN2", &g->dN2}, {"dH1", &g->dH1},
        {"dR1", &g->dR1}, {"dO", &g->dO}, {"dN1", &g->dN1}, {"dX", &g->dX},
        {"dXkv", &g->dXkv}, {"dC", &g->dC}, {"dQ", &g->dQ}, {"dK", &g->dK}, {"dV", &g->dV},
        {"dWq", &g->dWq}, {"dWk", &g->dWk}, {"dWv", &g->dWv}, {"dWo", &g->dWo},
        {"dbq", &g->dbq}, {"dbk", &g->dbk}, {"dbv", &g->dbv}, {"dbo", &g->dbo},
        {"dWup", &g->dWup}, {"dbup", &g->dbup}, {"dWdown", &g->dWdown},
        {"dbdown", &g->dbdown}, {"dWgate", &g->dWgate},
        {"dln1_g", &g->dln_g[0]}, {"dln2_g", &g->dln_g[1]}, {"dlnf_g", &g->dln_g[2]},
        {"dln1_b", &g->dln_b[0]}, {"dln2_b", &g->dln_b[1]}, {"dlnf_b", &g->dln_b[2]}};
    const as_matrix *m = NULL;
    size_t i;

    if (strcmp(name, "loss") == 0) {
        *loss = (as_matrix){1, 1, (double *)&g->loss};
        return loss;
    }
    if (strncmp(name, "head", 4) == 0)
        m = case_head_table(g, name);
    for (i = 0; m == NULL && i < sizeof all / sizeof all[0]; i++)
        if (strcmp(all[i].n, name) == 0)
            m = all[i].m;
    return m != NULL && m->v != NULL ? m : NULL;
}

/* case_table() as grad_expected.h reads it. */
static inline const as_matrix *case_grad_table(const void *g, const char *name, as_matrix *loss)
{
    return case_table(g, name, loss);
}

/* The backward pass of text[0..len) on its session (rows: its rows trace), or fail(). */
static inline void case_grad_of(as_session *s, as_grad *g, const char *text, size_t len,
                                int rows, const char *what)
{
    as_session_opts o;
    as_error err;

    memset(&o, 0, sizeof o);
    memset(g, 0, sizeof *g);
    o.rows = rows;
    as_error_clear(&err);
    if (as_session_open_text(s, text, len, what, &o, &err) != 0 ||
        as_grad_loss(g, &s->p, &s->t, AS_LANG_EN, &err) != 0 ||
        as_grad_run(g, &s->p, &s->t, &err) != 0) {
        as_error_print(&err, stderr);
        fail();
    }
}

/* Reads the input of one case ("case K LINES" then LINES lines) into text; 0 at the end. */
static inline int case_read(FILE *f, char *text, size_t size, size_t *len)
{
    unsigned k, lines, i;

    if (fscanf(f, " case %u %u\n", &k, &lines) != 2)
        return 0;
    *len = 0;
    for (i = 0; i < lines; i++) {
        assert_non_null(fgets(text + *len, (int)(size - *len), f));
        *len += strlen(text + *len);
    }
    return 1;
}

/* Every table the whole run and the rows run both have holds the same bits (each head's
 * n x m tables are not kept by a rows run: its renderers make their rows again). */
static inline void case_same_bits(const as_grad *a, const as_grad *b)
{
    static const char *const names[] = {
        "dY", "dH2", "dD", "dF", "dG", "dZ", "dU", "dN2", "dH1", "dO", "dN1", "dX", "dXkv",
        "dC", "dQ", "dK", "dV", "dWq", "dWk", "dWv", "dWo", "dbq", "dbk", "dbv", "dWup",
        "dWdown", "dWgate", "dln1_g", "dln2_g", "dlnf_g", "dln1_b", "dln2_b", "dlnf_b"};
    static const char *const per_head[] = {"dV", "dQr", "dKr", "dQ", "dK"};
    as_matrix l1, l2;
    char name[32];
    size_t i, h;

    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const as_matrix *x = case_table(a, names[i], &l1), *y = case_table(b, names[i], &l2);
        assert_true((x == NULL) == (y == NULL));
        if (x != NULL && x->rows * x->cols > 0)
            assert_memory_equal(x->v, y->v, x->rows * x->cols * sizeof *x->v);
    }
    assert_int_equal(a->heads, b->heads);
    for (h = 0; h < a->heads; h++)
        for (i = 0; i < sizeof per_head / sizeof per_head[0]; i++) {
            const as_matrix *x, *y;
            snprintf(name, sizeof name, "head%zu.%s", h, per_head[i]);
            x = case_table(a, name, &l1), y = case_table(b, name, &l2);
            assert_true((x == NULL) == (y == NULL));
            if (x != NULL && x->rows * x->cols > 0)
                assert_memory_equal(x->v, y->v, x->rows * x->cols * sizeof *x->v);
        }
}

/* Each case of path: the whole run against torch, the rows run against the whole one bit
 * for bit. Checks that there are `cases` of them; returns the tables compared. */
static inline size_t case_agree_with_torch(const char *path, const char *config, unsigned cases)
{
    static char text[1 << 16];
    size_t len, tables = 0;
    unsigned k = 0;
    FILE *f;

    assert_non_null(f = fopen(path, "r"));
    while (case_read(f, text, sizeof text, &len)) {
        as_session s, r;
        as_grad g, gr;
        case_grad_of(&s, &g, text, len, 0, config);
        tables += grad_compare_tables(f, case_grad_table, &g, config, k);
        case_grad_of(&r, &gr, text, len, 1, config);
        case_same_bits(&g, &gr);
        as_grad_free(&gr);
        as_session_free(&r);
        as_grad_free(&g);
        as_session_free(&s);
        k++;
    }
    fclose(f);
    assert_int_equal(k, cases);
    return tables;
}

#endif
