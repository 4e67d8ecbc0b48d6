/* suggest.c - "did you mean ...?" by edit distance (Damerau's swaps included, so that
 * `casual` is one step from `causal`). Among names equally far, one whose changed letter
 * looks like the one typed (g for q, as `Wg` for `Wq`) or sits next to it on the
 * keyboard is nearer: the suggestion weighs each substitution so. */
#include "attnstep/suggest.h"

#include <string.h>

#define LONGEST 63
#define FAR ((size_t)-1 / 2)

static int fold(char c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : (unsigned char)c;
}

static size_t min3(size_t a, size_t b, size_t c)
{
    size_t m = a < b ? a : b;

    return m < c ? m : c;
}

/* Pairs of letters a hand or an eye slips between: look-alikes first, then QWERTY
 * neighbours (each pair once, either order). */
static const char *const alike[] = {"gq", "lI", "l1", "o0", "uv", "mn", "vy"};
static const char *const rows[] = {"qwertyuiop", "asdfghjkl", "zxcvbnm"};

/* The cost of typing x for y, in quarters of one edit: 2 for a look-alike, 3 for a
 * keyboard neighbour, 4 else (0 when they are the same letter). */
static size_t sub_cost(char x, char y)
{
    const int a = fold(x), b = fold(y);
    size_t k, r;

    if (a == b)
        return 0;
    for (k = 0; k < sizeof alike / sizeof alike[0]; k++)
        if ((fold(alike[k][0]) == a && fold(alike[k][1]) == b) ||
            (fold(alike[k][0]) == b && fold(alike[k][1]) == a))
            return 2;
    for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        const char *pa = strchr(rows[r], a), *pb = strchr(rows[r], b);
        if (a != 0 && b != 0 && pa != NULL && pb != NULL && (pa - pb == 1 || pb - pa == 1))
            return 3;
    }
    return 4;
}

/* The edit distance in quarters of one edit, substitutions weighed by sub_cost() when
 * weigh, else all 4. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb, int weigh)
{
    size_t d[LONGEST + 1][LONGEST + 1]; /* d[i][j]: a[0..i) against b[0..j) */
    size_t i, j;

    if (na > LONGEST || nb > LONGEST)
        return FAR;
    for (i = 0; i <= na; i++)
        d[i][0] = 4 * i;
    for (j = 0; j <= nb; j++)
        d[0][j] = 4 * j;
    for (i = 1; i <= na; i++)
        for (j = 1; j <= nb; j++) {
            const size_t c = sub_cost(a[i - 1], b[j - 1]);
            d[i][j] = min3(d[i - 1][j] + 4, d[i][j - 1] + 4, d[i - 1][j - 1] + (weigh || !c ? c : 4));
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
                fold(a[i - 2]) == fold(b[j - 1]) && d[i - 2][j - 2] + 4 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 4; /* two neighbours swapped */
        }
    return d[na][nb];
}

size_t as_edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
    const size_t d = distance(a, na, b, nb, 0);

    return d == FAR ? FAR : d / 4;
}

const char *as_suggest(const char *word, size_t n, const char *const *names, size_t count)
{
    const char *best = NULL;
    size_t best_d = FAR, i;
    int tie = 0;

    for (i = 0; i < count; i++) {
        const size_t len = strlen(names[i]);
        const size_t d = as_edit_distance(word, n, names[i], len);
        size_t w;
        if (d > (len <= 4 ? 1u : 2u) || d >= (n > len ? n : len))
            continue; /* too far to be a slip of the finger */
        w = distance(word, n, names[i], len, 1);
        if (w < best_d) {
            best = names[i];
            best_d = w;
            tie = 0;
        } else if (w == best_d && strcmp(best, names[i]) != 0) {
            tie = 1;
        }
    }
    return tie ? NULL : best;
}
