/* suggest.c - "did you mean ...?" by edit distance (Damerau's swaps included, so that
 * `casual` is one step from `causal`). */
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

size_t as_edit_distance(const char *a, size_t na, const char *b, size_t nb)
{
    size_t d[LONGEST + 1][LONGEST + 1]; /* d[i][j]: a[0..i) against b[0..j) */
    size_t i, j;

    if (na > LONGEST || nb > LONGEST)
        return FAR;
    for (i = 0; i <= na; i++)
        d[i][0] = i;
    for (j = 0; j <= nb; j++)
        d[0][j] = j;
    for (i = 1; i <= na; i++)
        for (j = 1; j <= nb; j++) {
            const size_t cost = fold(a[i - 1]) != fold(b[j - 1]);
            d[i][j] = min3(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
            if (i > 1 && j > 1 && fold(a[i - 1]) == fold(b[j - 2]) &&
                fold(a[i - 2]) == fold(b[j - 1]) && d[i - 2][j - 2] + 1 < d[i][j])
                d[i][j] = d[i - 2][j - 2] + 1; /* two neighbours swapped */
        }
    return d[na][nb];
}

const char *as_suggest(const char *word, size_t n, const char *const *names, size_t count)
{
    const char *best = NULL;
    size_t best_d = FAR, i;
    int tie = 0;

    for (i = 0; i < count; i++) {
        const size_t len = strlen(names[i]);
        const size_t d = as_edit_distance(word, n, names[i], len);
        if (d > (len <= 4 ? 1u : 2u) || d >= (n > len ? n : len))
            continue; /* too far to be a slip of the finger */
        if (d < best_d) {
            best = names[i];
            best_d = d;
            tie = 0;
        } else if (d == best_d && strcmp(best, names[i]) != 0) {
            tie = 1;
        }
    }
    return tie ? NULL : best;
}
