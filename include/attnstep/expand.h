/* expand.h - the written-out arithmetic of a hand calculation, as the chapter prints it:
 * products "1×0.5+1×(-0.5)", vectors "[0,1]", subscripts "q₁₂", exact scaled scores
 * "1/√2" and "3/2". Formatting only: every number comes from the caller (the trace);
 * nothing here computes the attention maths. Long lists keep their first and last
 * items around an ellipsis ("…"), so a wide input still gives readable lines. */
#ifndef ATTNSTEP_EXPAND_H
#define ATTNSTEP_EXPAND_H

#include <stddef.h>

#define AS_EXPAND_MAX 8  /* a list of more items than this is elided */
#define AS_EXPAND_HEAD 3 /* items an elided list keeps before the ellipsis */
#define AS_EXPAND_TAIL 2 /* and after it */

/* ---- a growing string ---- */

typedef struct as_text {
    char *s;       /* NUL-terminated once anything was added; NULL while empty */
    size_t len, cap;
    int failed;    /* set when memory ran out: the text is then incomplete */
} as_text;

/* Appends printf-formatted text. */
void as_text_addf(as_text *t, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* The text so far ("" while empty); valid until the next change of t. */
const char *as_text_str(const as_text *t);

/* Frees the text and leaves t empty. */
void as_text_free(as_text *t);

/* ---- the numbers of an expansion ---- */

/* count numbers: v[at(k) * stride] for k < count, where at(k) is idx[k], or k when idx
 * is NULL. stride 0 repeats v[0] (a constant factor such as a custom scale). */
typedef struct as_view {
    const double *v;
    size_t stride;
    const size_t *idx;
    size_t count;
} as_view;

/* The k-th number of a view. */
double as_view_at(const as_view *w, size_t k);

/* Views into a row-major table of cols columns at v: row i, every column; row i at the
 * columns idx[0..count); column j at the rows idx[0..count) (every row when idx is
 * NULL, count rows). */
as_view as_view_row(const double *v, size_t cols, size_t i);
as_view as_view_row_at(const double *v, size_t cols, size_t i, const size_t *idx, size_t count);
as_view as_view_column(const double *v, size_t cols, size_t j, const size_t *idx, size_t count);

/* How numbers and symbols are written. */
typedef struct as_expand_style {
    int digits; /* decimal places, as --digits */
    int ascii;  /* x, *, sqrt, -inf, q[1] instead of ×, ·, √, −∞, q₁ */
} as_expand_style;

/* Nonzero when a list of count items is elided (count > AS_EXPAND_MAX). */
int as_expand_elides(size_t count);

/* Appends item(t, k, ctx) for each shown k < count, joined by sep; an elided list shows
 * AS_EXPAND_HEAD items, sep, the ellipsis, sep, then the last AS_EXPAND_TAIL items.
 * Returns the OR of the items' returns (by convention: 1 when a shown number was
 * rounded). */
int as_expand_join(as_text *t, size_t count, const char *sep,
                   int (*item)(as_text *t, size_t k, void *ctx), void *ctx,
                   const as_expand_style *st);

/* Appends v as the display rule writes it (numfmt.h). Returns 1 when rounded. */
int as_expand_number(as_text *t, double v, const as_expand_style *st);

/* Appends v as a factor of a product or a term of a sum: like as_expand_number, but a
 * negative value in parentheses, "(-0.5)". Returns 1 when rounded. */
int as_expand_factor(as_text *t, double v, const as_expand_style *st);

/* Appends the products a[k]×b[k] joined by sep ("+" in a projection, " + " in a
 * weighted sum): "1×0.5+1×(-0.5)". a and b must have the same count (at least 1).
 * Returns 1 when any shown factor was rounded. */
int as_expand_products(as_text *t, const as_view *a, const as_view *b, const char *sep,
                       const as_expand_style *st);

/* Appends the bracketed vector of v, the way the book prints a table row: "[0,1]"
 * between whole numbers, "[0.5, 1]" when any shown value has decimals. Returns 1 when
 * any shown value was rounded. */
int as_expand_vector(as_text *t, const as_view *v, const as_expand_style *st);

/* As as_expand_vector(), never elided: a row that must read back as an answer
 * (decode's rows, which check grades). */
int as_expand_vector_whole(as_text *t, const as_view *v, const as_expand_style *st);

/* Appends "name₁ ≈ [0.5, 1]" (or "= [0,1]" when no shown value was rounded): name with
 * the subscript i, then the vector of row, as a walk-through names a row it made. */
void as_expand_named_row(as_text *t, const char *name, size_t i, const as_view *row,
                         const as_expand_style *st);

/* Appends "[a,b]" of count strings joined by ",", elided like every list. */
void as_expand_words(as_text *t, const char *const *word, const size_t *idx, size_t count,
                     const as_expand_style *st);

/* Appends name with the subscript i: "q₁₂", or "q[12]" with ascii. */
void as_expand_sub(as_text *t, const char *name, size_t i, const as_expand_style *st);

/* Appends the exact form of raw/√d_k: "1/√2", "-3/√5", "0/√2" ("1/sqrt(2)" with ascii).
 * When √d_k is a whole number s the fraction is simplified: raw 3, d_k 4 gives "3/2";
 * raw 4 gives "2"; a raw value with decimals gives "0.5/2"; d_k 1 gives raw itself.
 * d_k must be at least 1. Returns 1 when raw itself was shown rounded. */
int as_expand_over_sqrt(as_text *t, double raw, size_t d_k, const as_expand_style *st);

#endif
