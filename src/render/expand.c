/* expand.c - the written-out arithmetic of the walk-through: text only, every number
 * comes from the caller. */
#include "attnstep/expand.h"
#include "attnstep/i18n.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a growing string ---- */

/* Makes room for need more bytes and the NUL. Returns 0, or -1 (t->failed set). */
static int reserve(as_text *t, size_t need)
{
    size_t cap = t->cap ? t->cap : 64;
    char *grown;

    if (t->failed)
        return -1;
    while (cap - t->len <= need)
        cap *= 2;
    if (cap == t->cap)
        return 0;
    if ((grown = realloc(t->s, cap)) == NULL) {
        t->failed = 1;
        return -1;
    }
    t->s = grown;
    t->cap = cap;
    return 0;
}

void as_text_addf(as_text *t, const char *fmt, ...)
{
    va_list ap;
    int len;

    va_start(ap, fmt);
    len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (len < 0) {
        t->failed = 1;
        return;
    }
    if (reserve(t, (size_t)len) != 0)
        return;
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)len;
}

const char *as_text_str(const as_text *t)
{
    return t->s != NULL ? t->s : "";
}

void as_text_free(as_text *t)
{
    free(t->s);
    memset(t, 0, sizeof *t);
}

/* ---- lists ---- */

as_view as_view_row(const double *v, size_t cols, size_t i)
{
    const as_view r = {v + i * cols, 1, NULL, cols};
    return r;
}

as_view as_view_row_at(const double *v, size_t cols, size_t i, const size_t *idx, size_t count)
{
    const as_view r = {v + i * cols, 1, idx, count};
    return r;
}

as_view as_view_column(const double *v, size_t cols, size_t j, const size_t *idx, size_t count)
{
    const as_view c = {v + j, cols, idx, count};
    return c;
}

double as_view_at(const as_view *w, size_t k)
{
    return w->v[(w->idx != NULL ? w->idx[k] : k) * w->stride];
}

int as_expand_elides(size_t count)
{
    return count > AS_EXPAND_MAX;
}

/* as_expand_join(), eliding a long list only when elide is nonzero. */
static int join(as_text *t, size_t count, const char *sep,
                int (*item)(as_text *t, size_t k, void *ctx), void *ctx,
                const as_expand_style *st, int elide)
{
    int rounded = 0;
    size_t k;

    for (k = 0; k < count; k++) {
        if (elide && k == AS_EXPAND_HEAD) {
            as_text_addf(t, "%s%s", sep, as_sym_text(st->ascii, AS_SYM_ELLIPSIS));
            k = count - AS_EXPAND_TAIL; /* the loop goes on with the tail */
        }
        if (k > 0)
            as_text_addf(t, "%s", sep);
        rounded |= item(t, k, ctx);
    }
    return rounded;
}

/* ---- numbers ---- */

int as_expand_number(as_text *t, double v, const as_expand_style *st)
{
    char buf[AS_NUM_BUF];
    const int rounded = as_fmt_display(buf, sizeof buf, v, st->digits, st->ascii);

    as_text_addf(t, "%s", buf);
    return rounded;
}

int as_expand_factor(as_text *t, double v, const as_expand_style *st)
{
    char buf[AS_NUM_BUF];
    const int rounded = as_fmt_display(buf, sizeof buf, v, st->digits, st->ascii);

    /* the display of a tiny negative value may read "0": no parentheses around it */
    as_text_addf(t, buf[0] == '-' || strncmp(buf, "\xe2\x88\x92", 3) == 0 ? "(%s)" : "%s", buf);
    return rounded;
}

struct pair {
    const as_view *a, *b;
    const as_expand_style *st;
};

static int product(as_text *t, size_t k, void *ctx)
{
    const struct pair *p = ctx;
    int rounded = as_expand_factor(t, as_view_at(p->a, k), p->st);

    as_text_addf(t, "%s", as_sym_text(p->st->ascii, AS_SYM_TIMES));
    return rounded | as_expand_factor(t, as_view_at(p->b, k), p->st);
}

int as_expand_products(as_text *t, const as_view *a, const as_view *b, const char *sep,
                       const as_expand_style *st)
{
    struct pair p = {a, b, st};

    return as_expand_join(t, a->count, sep, product, &p, st);
}

int as_expand_join(as_text *t, size_t count, const char *sep,
                   int (*item)(as_text *t, size_t k, void *ctx), void *ctx,
                   const as_expand_style *st)
{
    return join(t, count, sep, item, ctx, st, as_expand_elides(count));
}

struct cells {
    const as_view *v;
    const as_expand_style *st;
};

static int cell(as_text *t, size_t k, void *ctx)
{
    const struct cells *c = ctx;

    return as_expand_number(t, as_view_at(c->v, k), c->st);
}

/* Nonzero when every shown value of v displays without decimals (as textblock.c's
 * tables decide between "," and ", "). */
static int all_whole(const as_view *v, const as_expand_style *st, int elide)
{
    char buf[AS_NUM_BUF];
    size_t k;

    for (k = 0; k < v->count; k++) {
        if (elide && k >= AS_EXPAND_HEAD && k < v->count - AS_EXPAND_TAIL)
            continue;
        as_fmt_display(buf, sizeof buf, as_view_at(v, k), st->digits, st->ascii);
        if (strpbrk(buf, ".e") != NULL)
            return 0;
    }
    return 1;
}

/* The bracketed vector of v, long ones elided when elide is nonzero. */
static int vector(as_text *t, const as_view *v, const as_expand_style *st, int elide)
{
    struct cells c = {v, st};
    int rounded;

    as_text_addf(t, "[");
    rounded = join(t, v->count, all_whole(v, st, elide) ? "," : ", ", cell, &c, st, elide);
    as_text_addf(t, "]");
    return rounded;
}

int as_expand_vector(as_text *t, const as_view *v, const as_expand_style *st)
{
    return vector(t, v, st, as_expand_elides(v->count));
}

int as_expand_vector_whole(as_text *t, const as_view *v, const as_expand_style *st)
{
    return vector(t, v, st, 0);
}

void as_expand_named_row(as_text *t, const char *name, size_t i, const as_view *row,
                         const as_expand_style *st)
{
    as_text res = {0};
    const int rounded = as_expand_vector(&res, row, st);

    as_expand_sub(t, name, i, st);
    as_text_addf(t, " %s %s", rounded ? as_sym_text(st->ascii, AS_SYM_APPROX) : "=",
                 as_text_str(&res));
    t->failed |= res.failed;
    as_text_free(&res);
}

struct words {
    const char *const *word;
    const size_t *idx;
};

static int word(as_text *t, size_t k, void *ctx)
{
    const struct words *w = ctx;

    as_text_addf(t, "%s", w->word[w->idx != NULL ? w->idx[k] : k]);
    return 0;
}

void as_expand_words(as_text *t, const char *const *wordv, const size_t *idx, size_t count,
                     const as_expand_style *st)
{
    struct words w = {wordv, idx};

    as_text_addf(t, "[");
    as_expand_join(t, count, ",", word, &w, st);
    as_text_addf(t, "]");
}

void as_expand_sub(as_text *t, const char *name, size_t i, const as_expand_style *st)
{
    char sub[64];

    as_subscript(sub, sizeof sub, (unsigned long)i, st->ascii);
    as_text_addf(t, "%s%s", name, sub);
}

/* ---- exact scaled scores ---- */

/* The whole square root of n, or 0 when n is not a perfect square. */
static size_t whole_sqrt(size_t n)
{
    size_t s = 0;

    while ((s + 1) * (s + 1) <= n)
        s++;
    return s * s == n ? s : 0;
}

static unsigned long long gcd(unsigned long long a, unsigned long long b)
{
    while (b != 0) {
        unsigned long long r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* p/s in lowest terms, or the whole number it is: "3/2", "2", "-1/2". */
static void fraction(as_text *t, double p, size_t s)
{
    const unsigned long long num = (unsigned long long)fabs(p);
    const unsigned long long g = gcd(num, s), den = s / g;

    if (den == 1)
        as_text_addf(t, "%s%llu", p < 0 ? "-" : "", num / g);
    else
        as_text_addf(t, "%s%llu/%llu", p < 0 ? "-" : "", num / g, den);
}

int as_expand_over_sqrt(as_text *t, double raw, size_t d_k, const as_expand_style *st)
{
    const size_t s = whole_sqrt(d_k);
    int rounded;

    if (s > 0 && raw == floor(raw) && fabs(raw) < 1e15) {
        fraction(t, raw, s);
        return 0;
    }
    rounded = as_expand_number(t, raw, st);
    if (s == 1)
        return rounded;
    if (s > 0)
        as_text_addf(t, "/%zu", s);
    else
        as_text_addf(t, st->ascii ? "/%s(%zu)" : "/%s%zu", as_sym_text(st->ascii, AS_SYM_SQRT), d_k);
    return rounded;
}
