/* render_grad.c - `grad` as text and JSON (SPEC §13): every gradient table in the order
 * the backward pass computes it, read from the gradient trace (grad.h). No maths here. */
#include "attnstep/render_grad.h"
#include "attnstep/html.h"
#include "attnstep/numfmt.h"
#include "attnstep/textblock.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

int as_grad_only_parse(const char *list, unsigned *only, const char **bad)
{
    return as_names_parse(list, as_grad_lookup, only, bad);
}

/* ------------------------------------------------------------------------------ */
/* Text                                                                             */
/* ------------------------------------------------------------------------------ */

/* Told of each table as the text puts it: its kind, the expression that names it, its
 * rows (a head's n x m tables made again row by row after a rows run), the head it is
 * one head's of (-1: none), and the lines said before it since the last table (notes,
 * the head's title). A nonzero return fails the walk. */
typedef int (*grad_visit)(void *ctx, as_grad_table t, const char *expr, const as_rows *r,
                          long hd, const as_block *before);

typedef struct out_text {
    as_block *b;
    const as_problem *p;
    const as_trace *t;
    const as_grad *g;
    const as_render_opts *o;
    grad_visit visit; /* the page: told of each table instead of printing it (NULL: text) */
    void *ctx;
    long hd;          /* the head whose tables are being put, -1 outside one */
} out_text;

static int shows(const out_text *w, as_grad_table t)
{
    return w->o->only == 0 || (w->o->only & (1u << t)) != 0;
}

static const char *sym(const out_text *w, as_sym s)
{
    return as_sym_text(w->o->ascii, s);
}


/* "A" or, with several heads, "A₀": base and head hd's subscript. */
static const char *hn(char *buf, size_t size, const out_text *w, const char *base, size_t hd)
{
    char sub[32] = "";

    if (w->p->heads > 1)
        as_subscript(sub, sizeof sub, hd, w->o->ascii);
    snprintf(buf, size, "%s%s", base, sub);
    return buf;
}

/* One table, when it exists and --only shows it (captions that ran out of memory make
 * the whole text fail, never a table without them). */
/* The page's put: tells the visitor of the table, with the lines said before it (and
 * its captions), which then start afresh. */
static void visit(out_text *w, as_grad_table t, const char *expr, const as_rows *r,
                  const as_block *captions)
{
    int failed;

    if (captions != NULL)
        as_block_append(w->b, captions);
    failed = w->b->failed | (w->visit(w->ctx, t, expr, r, w->hd, w->b) != 0);
    as_block_free(w->b);
    w->b->failed = failed;
}

static void put(out_text *w, as_grad_table t, const char *expr, const as_matrix *m,
                const as_block *captions)
{
    if (m->rows > 0 && shows(w, t) && w->visit != NULL) {
        const as_rows r = as_rows_of(m);
        visit(w, t, expr, &r, captions);
    } else if (m->rows > 0 && shows(w, t))
        as_text_table(w->b, expr, m, captions, w->o);
    if (captions != NULL)
        w->b->failed |= captions->failed;
}

/* Which of a head's n x m tables the registry's t is. */
static as_grad_square square_of(as_grad_table t)
{
    return t == AS_G_DA ? AS_GRAD_DA : t == AS_G_DS ? AS_GRAD_DS : AS_GRAD_DQKT;
}

/* put() for head hd's dA, dS or d(QKᵀ): written row by row as as_grad_rows gives them
 * (after a rows run, made again: no n x m table is kept). */
static void put_square(out_text *w, as_grad_table t, size_t hd, const char *expr,
                       const as_block *captions)
{
    as_grad_rows h;
    as_rows r;

    if (shows(w, t)) {
        r = as_grad_rows_open(&h, w->g, w->p, w->t, hd, square_of(t));
        if (w->visit != NULL)
            visit(w, t, expr, &r, captions);
        else
            as_text_table_rows(w->b, expr, &r, captions, w->o);
        as_grad_rows_close(&h);
    }
    if (captions != NULL)
        w->b->failed |= captions->failed;
}

/* The loss and dO: where the backward pass starts. */
static void start(out_text *w, const as_trace *t)
{
    const as_grad *g = w->g;
    char num[AS_NUM_BUF], rel[AS_NUM_BUF + 8], expr[64];
    int rounded;

    (void)t;
    if (w->o->only == 0) {
        if (w->p->in->title != NULL && w->visit == NULL) /* a page has it as its heading */
            as_block_add(w->b, as_say(w->o, AS_MSG_TITLE), w->p->in->title);
        as_block_add(w->b, "%s", as_say(w->o, AS_MSG_GRAD_INTRO));
        rounded = as_fmt_display(num, sizeof num, g->loss, w->o->digits, w->o->ascii);
        snprintf(rel, sizeof rel, "%s %s", rounded ? sym(w, AS_SYM_APPROX) : "=", num);
        if (g->loss_kind == AS_LOSS_SUM)
            as_block_add(w->b, as_say(w->o, AS_MSG_GRAD_LOSS_SUM), rel);
        else if (g->loss_kind == AS_LOSS_MSE)
            as_block_add(w->b, as_say(w->o, AS_MSG_GRAD_LOSS_MSE), rel);
        else
            as_block_add(w->b, "%s", as_say(w->o, AS_MSG_GRAD_LOSS_GIVEN));
    }
    snprintf(expr, sizeof expr, "dO%s", g->loss_kind == AS_LOSS_MSE
                                            ? (w->o->ascii ? " = O - target" : " = O − target")
                                            : "");
    put(w, AS_G_DO, expr, &g->dO, NULL);
}

/* O = C·Wo + bo, backwards. */
static void output_projection(out_text *w)
{
    const as_grad *g = w->g;
    char expr[128];

    if (w->p->Wo == NULL)
        return;
    as_block_gap(w->b);
    snprintf(expr, sizeof expr, "dWo = C%s%sdO", sym(w, AS_SYM_T), sym(w, AS_SYM_DOT));
    put(w, AS_G_DWO, expr, &g->dWo, NULL);
    snprintf(expr, sizeof expr, "dbo = ");
    snprintf(expr + 6, sizeof expr - 6, as_say(w->o, AS_MSG_GRAD_COLSUM), "dO");
    put(w, AS_G_DBO, expr, &g->dbo, NULL);
    snprintf(expr, sizeof expr, "dC = dO%sWo%s", sym(w, AS_SYM_DOT), sym(w, AS_SYM_T));
    put(w, AS_G_DC, expr, &g->dC, NULL);
}


/* "dS/√2" or "dS×0.5": the scaling of d(QKᵀ). */
static void scaled(char *buf, size_t size, const out_text *w, const char *ds)
{
    char num[AS_NUM_BUF];

    if (w->p->scale_auto) {
        snprintf(buf, size, w->o->ascii ? "%s/%s(%zu)" : "%s/%s%zu", ds, sym(w, AS_SYM_SQRT),
                 w->p->d_k);
        return;
    }
    as_fmt_display(num, sizeof num, w->p->scale, w->o->digits, w->o->ascii);
    snprintf(buf, size, "%s%s%s", ds, sym(w, AS_SYM_TIMES), num);
}

/* Head hd's slice of dC (of dO without Wo), when there are several heads. */
static void head_slice(out_text *w, const as_grad_head *gh, size_t hd)
{
    char name[32], expr[160];
    const char *src = w->p->Wo != NULL ? "dC" : "dO";
    const int n = snprintf(expr, sizeof expr, "%s = ", hn(name, sizeof name, w, "dO", hd));

    if (w->p->heads == 1)
        return;
    snprintf(expr + n, sizeof expr - (size_t)n, as_say(w->o, AS_MSG_GRAD_HEAD_SLICE), src,
             hd * w->p->d_v, (hd + 1) * w->p->d_v - 1);
    put(w, w->p->Wo != NULL ? AS_G_DC : AS_G_DO, expr, &gh->dO, NULL);
}

/* One head: dV, dA, dS, d(QKᵀ), dQ, dK, each with the formula that made it. */
static void head(out_text *w, size_t hd)
{
    const as_grad_head *gh = &w->g->head[hd];
    const char *T = sym(w, AS_SYM_T), *dot = sym(w, AS_SYM_DOT), *had = sym(w, AS_SYM_HADAMARD);
    char a[32], v[32], q[32], k[32], o[32], da[32], ds[32], dq[32], sc[96], expr[256];
    as_block cap = {0};

    hn(a, sizeof a, w, "A", hd), hn(v, sizeof v, w, "V", hd), hn(q, sizeof q, w, "Q", hd);
    hn(k, sizeof k, w, "K", hd), hn(o, sizeof o, w, "dO", hd), hn(da, sizeof da, w, "dA", hd);
    hn(ds, sizeof ds, w, "dS", hd), hn(dq, sizeof dq, w, "d(QK", hd);
    w->hd = (long)hd;
    as_block_gap(w->b);
    if (w->p->heads > 1)
        as_block_add(w->b, as_say(w->o, AS_MSG_HEAD_TITLE), hd);
    head_slice(w, gh, hd);
    snprintf(expr, sizeof expr, "%s = %s%s%s%s", hn(sc, sizeof sc, w, "dV", hd), a, T, dot, o);
    put(w, AS_G_DV, expr, &gh->dV, NULL);
    as_block_add(&cap, "%s", as_say(w->o, AS_MSG_QKT_ROWS));
    as_block_add(&cap, "%s", as_say(w->o, AS_MSG_QKT_COLS));
    snprintf(expr, sizeof expr, "%s = %s%s%s%s", da, o, dot, v, T);
    put_square(w, AS_G_DA, hd, expr, &cap);
    as_block_free(&cap);
    if (shows(w, AS_G_DS)) {
        const int masked = as_any_masked(w->p, w->t); /* dS: its zeros are exact */
        w->b->failed |= masked < 0;
        if (masked > 0)
            as_block_add(&cap, "%s", as_say(w->o, AS_MSG_GRAD_MASKED_ZERO));
    }
    snprintf(expr, sizeof expr, "%s = %s%s(%s %s rowsum(%s%s%s))", ds, a, had, da,
             sym(w, AS_SYM_MINUS), da, had, a);
    put_square(w, AS_G_DS, hd, expr, &cap);
    as_block_free(&cap);
    /* d(QKᵀ)₀: the subscript goes after the closing parenthesis */
    snprintf(dq, sizeof dq, "d(QK%s)", T);
    if (w->p->heads > 1) {
        char sub[16];
        as_subscript(sub, sizeof sub, hd, w->o->ascii);
        strncat(dq, sub, sizeof dq - strlen(dq) - 1);
    }
    scaled(sc, sizeof sc, w, ds);
    snprintf(expr, sizeof expr, "%s = %s", dq, sc);
    put_square(w, AS_G_DQKT, hd, expr, NULL);
    snprintf(expr, sizeof expr, "%s = %s%s%s", hn(sc, sizeof sc, w, "dQ", hd), dq, dot, k);
    put(w, AS_G_DQ, expr, &gh->dQ, NULL);
    snprintf(expr, sizeof expr, "%s = %s%s%s%s", hn(sc, sizeof sc, w, "dK", hd), dq, T, dot, q);
    put(w, AS_G_DK, expr, &gh->dK, NULL);
    w->hd = -1;
}

/* "[dQ₀|dQ₁|…]", or for K and V shared by groups of heads "[dK₀+dK₁|dK₂+dK₃]". */
static void side_by_side(char *buf, size_t size, const out_text *w, const char *base, int shared)
{
    const as_problem *p = w->p;
    size_t hd, used = (size_t)snprintf(buf, size, "%s = [", base);
    char name[32];

    for (hd = 0; hd < p->heads && used < size; hd++) {
        const int first_of_group = !shared || hd % (p->heads / p->kv_heads) == 0;
        used += (size_t)snprintf(buf + used, size - used, "%s%s",
                                 hd == 0 ? "" : first_of_group ? "|" : "+",
                                 hn(name, sizeof name, w, base, hd));
    }
    if (used < size)
        snprintf(buf + used, size - used, "]");
}

/* The heads' dQ, dK, dV side by side (several heads only: with one they were shown). */
static void all_heads(out_text *w)
{
    char expr[512];

    if (w->p->heads == 1)
        return;
    as_block_gap(w->b);
    side_by_side(expr, sizeof expr, w, "dQ", 0);
    put(w, AS_G_DQ, expr, &w->g->dQ, NULL);
    side_by_side(expr, sizeof expr, w, "dK", 1);
    put(w, AS_G_DK, expr, &w->g->dK, NULL);
    side_by_side(expr, sizeof expr, w, "dV", 1);
    put(w, AS_G_DV, expr, &w->g->dV, NULL);
}

/* dWq = Xᵀ·dQ ..., the biases' column sums, then dX (and dXkv). */
static void projections(out_text *w)
{
    const as_grad *g = w->g;
    const char *T = sym(w, AS_SYM_T), *dot = sym(w, AS_SYM_DOT), *kv = w->p->cross ? "Xkv" : "X";
    static const char *const wn[] = {"Wq", "Wk", "Wv"}, *const dn[] = {"dQ", "dK", "dV"};
    static const as_grad_table wt[] = {AS_G_DWQ, AS_G_DWK, AS_G_DWV};
    static const as_grad_table bt[] = {AS_G_DBQ, AS_G_DBK, AS_G_DBV};
    const as_matrix *dw[] = {&g->dWq, &g->dWk, &g->dWv}, *db[] = {&g->dbq, &g->dbk, &g->dbv};
    char expr[256];
    int n;
    size_t i;

    as_block_gap(w->b);
    if (w->p->in->layout == AS_LAYOUT_TORCH && (shows(w, AS_G_DWQ) || shows(w, AS_G_DWK) ||
                                                shows(w, AS_G_DWV) || shows(w, AS_G_DWO)))
        as_block_add(w->b, "%s", as_say(w->o, AS_MSG_GRAD_LAYOUT_TORCH));
    for (i = 0; i < 3; i++) {
        snprintf(expr, sizeof expr, "d%s = %s%s%s%s", wn[i], i ? kv : "X", T, dot, dn[i]);
        put(w, wt[i], expr, dw[i], NULL);
    }
    for (i = 0; i < 3; i++) {
        n = snprintf(expr, sizeof expr, "db%c = ", wn[i][1]);
        snprintf(expr + n, sizeof expr - (size_t)n, as_say(w->o, AS_MSG_GRAD_COLSUM), dn[i]);
        put(w, bt[i], expr, db[i], NULL);
    }
    as_block_gap(w->b);
    if (w->p->cross) {
        snprintf(expr, sizeof expr, "dX = dQ%sWq%s", dot, T);
        put(w, AS_G_DX, expr, &g->dX, NULL);
        snprintf(expr, sizeof expr, "dXkv = dK%sWk%s + dV%sWv%s", dot, T, dot, T);
        put(w, AS_G_DXKV, expr, &g->dXkv, NULL);
        return;
    }
    snprintf(expr, sizeof expr, "dX = dQ%sWq%s + dK%sWk%s + dV%sWv%s", dot, T, dot, T, dot, T);
    put(w, AS_G_DX, expr, &g->dX, NULL);
}

/* Every table in the order the backward pass computes it, into w. */
static void walk(out_text *w)
{
    size_t hd;

    start(w, w->t);
    output_projection(w);
    for (hd = 0; hd < w->g->heads; hd++)
        head(w, hd);
    all_heads(w);
    projections(w);
}

int as_render_grad_text(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o)
{
    as_block b = as_block_stream(out); /* each table is written as soon as it is made */
    out_text w = {&b, p, t, g, o, NULL, NULL, -1};
    int failed;

    walk(&w);
    failed = b.failed;
    as_block_free(&b);
    return failed || ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------------------ */
/* JSON                                                                             */
/* ------------------------------------------------------------------------------ */

#define IN_HEAD ", "
#define TOP ",\n  "

/* "name": table, when it exists and --only shows it; *sep goes before it, and the
 * separator of the object's level next after it (", " in a head, a new line at the top). */
static void jtable(FILE *out, const char **sep, const char *next, as_grad_table t,
                   const as_matrix *m, const as_render_opts *o)
{
    if (m->rows == 0 || (o->only != 0 && (o->only & (1u << t)) == 0))
        return;
    fprintf(out, "%s\"%s\": ", *sep, as_grad_name(t));
    as_json_matrix(out, m);
    *sep = next;
}

/* jtable() for head hd's dA, dS or d(QKᵀ), row by row as as_grad_rows gives them; -1
 * when a row could not be had. */
static int jsquare(FILE *out, const char **sep, as_grad_table t,
                   const as_problem *p, const as_trace *tr, const as_grad *g, size_t hd,
                   const as_render_opts *o)
{
    as_grad_rows h;
    as_rows r;
    int rc;

    if (o->only != 0 && (o->only & (1u << t)) == 0)
        return 0;
    fprintf(out, "%s\"%s\": ", *sep, as_grad_name(t));
    r = as_grad_rows_open(&h, g, p, tr, hd, square_of(t));
    rc = as_json_rows(out, &r);
    as_grad_rows_close(&h);
    *sep = IN_HEAD;
    return rc;
}

static int jhead(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                 size_t hd, const as_render_opts *o)
{
    const as_grad_head *gh = &g->head[hd];
    const char *sep = "";
    int rc = 0;

    fputc('{', out);
    jtable(out, &sep, IN_HEAD, AS_G_DV, &gh->dV, o);
    rc |= jsquare(out, &sep, AS_G_DA, p, t, g, hd, o);
    rc |= jsquare(out, &sep, AS_G_DS, p, t, g, hd, o);
    rc |= jsquare(out, &sep, AS_G_DQKT, p, t, g, hd, o);
    jtable(out, &sep, IN_HEAD, AS_G_DQ, &gh->dQ, o);
    jtable(out, &sep, IN_HEAD, AS_G_DK, &gh->dK, o);
    fputc('}', out);
    return rc;
}

int as_render_grad_json(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o)
{
    const as_matrix *top[] = {&g->dQ, &g->dK, &g->dV, &g->dWq, &g->dWk, &g->dWv,
                              &g->dbq, &g->dbk, &g->dbv, &g->dX, &g->dXkv};
    static const as_grad_table tt[] = {AS_G_DQ, AS_G_DK, AS_G_DV, AS_G_DWQ, AS_G_DWK, AS_G_DWV,
                                       AS_G_DBQ, AS_G_DBK, AS_G_DBV, AS_G_DX, AS_G_DXKV};
    const char *sep = TOP;
    size_t i;
    int rc = 0;

    fputs("{\n  \"loss\": ", out);
    if (g->loss_kind == AS_LOSS_GIVEN)
        fputs("null", out);
    else
        as_json_number(out, g->loss);
    jtable(out, &sep, TOP, AS_G_DO, &g->dO, o);
    jtable(out, &sep, TOP, AS_G_DWO, &g->dWo, o);
    jtable(out, &sep, TOP, AS_G_DBO, &g->dbo, o);
    jtable(out, &sep, TOP, AS_G_DC, &g->dC, o);
    fputs(",\n  \"heads\": [", out);
    for (i = 0; i < g->heads; i++) {
        fputs(i ? ",\n    " : "\n    ", out);
        rc |= jhead(out, p, t, g, i, o);
    }
    fputs("\n  ]", out);
    for (i = 0; i < sizeof top / sizeof top[0]; i++)
        jtable(out, &sep, TOP, tt[i], top[i], o);
    fputs("\n}\n", out);
    return rc != 0 || ferror(out) ? -1 : 0;
}

/* ------------------------------------------------------------------------------ */
/* The page (--format html, SPEC §17)                                               */
/* ------------------------------------------------------------------------------ */

typedef struct gpage {
    as_html h;
    const as_problem *p;
    const as_trace *t;
    const as_grad *g;
    const as_render_opts *o;
} gpage;

/* Where table t of head hd is in grad's JSON: "heads.0.dS", "dWq"; "" for a head's
 * slice of dO, which the JSON does not hold. */
static void grad_path(char *buf, size_t size, as_grad_table t, long hd)
{
    if (hd < 0)
        snprintf(buf, size, "%s", as_grad_name(t));
    else if (t == AS_G_DO || t == AS_G_DC)
        buf[0] = '\0';
    else
        snprintf(buf, size, "heads.%ld.%s", hd, as_grad_name(t));
}

/* One gradient table as one step: named by the expression that made it, the lines said
 * before it (the head's title, notes) as captions, its grid. */
static int grad_step(void *ctx, as_grad_table t, const char *expr, const as_rows *r, long hd,
                     const as_block *before)
{
    gpage *pg = ctx;
    const as_problem *p = pg->p;
    const int scores = t == AS_G_DA || t == AS_G_DS || t == AS_G_DQKT;
    const int by_token = t == AS_G_DO || t == AS_G_DC || t == AS_G_DQ || t == AS_G_DX ||
                         t == AS_G_DA || t == AS_G_DS || t == AS_G_DQKT;
    const int by_kv = t == AS_G_DK || t == AS_G_DV || t == AS_G_DXKV;
    char path[64];
    size_t i;
    int rc;

    grad_path(path, sizeof path, t, hd);
    as_html_step(&pg->h, expr, NULL);
    for (i = 0; i < before->count; i++)
        if (before->line[i][0] != '\0') {
            fputs("<p class=\"cap\">", pg->h.out);
            as_html_text(&pg->h, before->line[i]);
            fputs("</p>\n", pg->h.out);
        }
    rc = as_html_grid_write(&pg->h, &(as_html_grid){
        .name = as_grad_name(t), .json = path, .r = *r,
        .rows = by_token ? p->tokens : by_kv ? p->kv_tokens : NULL,
        .cols = scores ? p->kv_tokens : NULL, .worked = 1});
    as_html_step_end(&pg->h);
    return rc;
}

static int grad_page_json(FILE *out, void *ctx)
{
    const gpage *pg = ctx;

    return as_render_grad_json(out, pg->p, pg->t, pg->g, pg->o);
}

int as_render_grad_html(FILE *out, const as_problem *p, const as_trace *t, const as_grad *g,
                        const as_render_opts *o)
{
    as_block b = {0};
    gpage pg = {{0}, p, t, g, o};
    out_text w = {&b, p, t, g, o, grad_step, &pg, -1};
    char title[256];
    int rc;

    as_html_begin(&pg.h, out, as_html_title(title, sizeof title, p->in->title,
                                            as_say(o, AS_MSG_HTML_GRAD_TITLE)),
                  AS_MSG_HTML_KEYS, o);
    walk(&w);
    rc = b.failed ? -1 : 0;
    as_block_free(&b);
    if (rc == 0 && g->heads > 0) { /* the chain rule with the walked row's numbers */
        rc = as_grad_walk_lines(&b, p, t, g, o);
        as_html_step(&pg.h, as_say(o, AS_MSG_HTML_GRAD_WALK), NULL);
        if (rc == 0)
            as_html_walk(&pg.h, NULL, &b);
        as_html_step_end(&pg.h);
        as_block_free(&b);
    }
    rc |= as_html_end(&pg.h, grad_page_json, &pg);
    return rc != 0 || ferror(out) ? -1 : 0;
}
