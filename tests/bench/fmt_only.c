/* fmt_only.c - times the number formatting of the renderers alone, on numbers read from
 * a text file (any text: every run of bytes that strtod reads is one number), e.g. the
 * values of O that `attnstep run --only O --format json` prints at 512 tokens.
 *
 *     fmt_only json FILE [ROUNDS]          as_fmt_roundtrip (JSON), best of ROUNDS (5)
 *     fmt_only text FILE DIGITS [ROUNDS]   as_fmt_display_text (text tables, no flag)
 *
 * Prints "key value" lines: the count, the bytes written, the fastest round's nanoseconds
 * per number and a checksum of the text (to see that a change kept every byte). For
 * instruction counts run it under callgrind with ROUNDS 1 and
 * --toggle-collect=as_fmt_roundtrip (or as_fmt_display_text). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attnstep/lex.h"
#include "attnstep/numfmt.h"

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The numbers of text (NUL-terminated) into a new array; *count gets how many. */
static double *read_numbers(const char *text, size_t *count)
{
    size_t n = 0, cap = 1024;
    double *v = malloc(cap * sizeof *v), *grown;
    const char *p = text;
    char *end;

    while (v != NULL && *p != '\0') {
        const double x = strtod(p, &end);
        if (end == p) {
            p++;
            continue;
        }
        p = end;
        if (n == cap) {
            if ((grown = realloc(v, 2 * cap * sizeof *v)) == NULL) {
                free(v);
                return NULL;
            }
            v = grown;
            cap *= 2;
        }
        v[n++] = x;
    }
    *count = n;
    return v;
}

/* FNV-1a over the bytes written: equal sums, equal text (with near certainty). */
static uint64_t fnv(uint64_t h, const char *s, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* The text of v into buf; its length. digits < 0: JSON's, else a text table's. */
static size_t format(char *buf, double v, int digits)
{
    return digits < 0 ? as_fmt_roundtrip(buf, AS_NUM_BUF, v)
                      : as_fmt_display_text(buf, AS_NUM_BUF, v, digits, 0, NULL);
}

/* Times rounds passes over v (the fastest counts), then checksums one more, untimed. */
static int run(const double *v, size_t n, int digits, int rounds)
{
    char buf[AS_NUM_BUF];
    double best = 1e300, t0;
    uint64_t sum = 14695981039346656037u;
    size_t i, bytes = 0;
    int r;

    for (r = 0; r < rounds; r++) {
        bytes = 0;
        t0 = now();
        for (i = 0; i < n; i++)
            bytes += format(buf, v[i], digits) + (unsigned char)buf[0];
        t0 = now() - t0;
        best = t0 < best ? t0 : best;
    }
    for (i = 0, bytes = 0; i < n; i++) {
        const size_t len = format(buf, v[i], digits);
        bytes += len;
        sum = fnv(sum, buf, len + 1);
    }
    printf("numbers %zu\nbytes %zu\nns_per_number %.1f\nchecksum %016llx\n", n, bytes,
           best / (double)n * 1e9, (unsigned long long)sum);
    return 0;
}

int main(int argc, char **argv)
{
    const int text = argc >= 4 && strcmp(argv[1], "text") == 0;
    char *bytes = NULL;
    size_t len, n;
    double *v;
    int rc;

    if (!(argc >= 3 && strcmp(argv[1], "json") == 0) && !text) {
        fprintf(stderr, "usage: fmt_only json FILE [ROUNDS] | text FILE DIGITS [ROUNDS]\n");
        return 2;
    }
    if (as_lex_read_file(argv[2], 0, &bytes, &len) != 0 || (v = read_numbers(bytes, &n)) == NULL) {
        fprintf(stderr, "fmt_only: cannot read %s\n", argv[2]);
        free(bytes);
        return 2;
    }
    rc = run(v, n, text ? atoi(argv[3]) : -1, argc > 3 + text ? atoi(argv[3 + text]) : 5);
    free(v);
    free(bytes);
    return rc;
}
