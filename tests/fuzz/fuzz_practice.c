/* fuzz_practice.c - libFuzzer entry point for the tutor's answer stream (SPEC §14): any
 * bytes, typed as the student's answers to `attnstep practice` on the F11 example, with
 * options drawn from a hash of the bytes (language, --ascii, --digits, --tol, --only,
 * --row).
 *
 * What must hold, or the fuzzer aborts: the session ends (it reads one line per answer
 * and stops at the end of input) with 0 (every cell right) or 1, never -1; the score
 * adds up (right + missed never exceeds the cells, and 0 exactly when every cell was
 * right); what it writes is valid UTF-8; and no NaN is ever shown (no "nan" in what it
 * writes unless the student typed it). */
#include "vfs.h"
#include "fuzz_util.h"
#include "attnstep/practice.h"
#include "attnstep/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char f11[] =
    "tokens: 我 爱\nmask: causal\nX = [[1, 1], [1,-1]]\n"
    "Wq = [[0.5, 0.5], [-0.5, 0.5]]\nWk = [[0.5, 0.5], [0.5,-0.5]]\nWv = [[5, 10], [5,-10]]\n";

/* Nonzero when "nan" (any case) is in s[0..n). */
static int has_nan(const char *s, size_t n)
{
    size_t i;

    for (i = 0; i + 3 <= n; i++)
        if (strncasecmp(s + i, "nan", 3) == 0)
            return 1;
    return 0;
}

/* The options of hash h. */
static as_practice_opts options(uint32_t h)
{
    static const unsigned only[] = {0, 1u << AS_T_Q, 1u << AS_T_S, (1u << AS_T_A) | (1u << AS_T_O),
                                    1u << AS_T_QKT};
    as_practice_opts o;

    memset(&o, 0, sizeof o);
    o.ro.lang = (h & 1) ? AS_LANG_EN : AS_LANG_ZH;
    o.ro.ascii = (h >> 1) & 1;
    o.ro.digits = (int)((h >> 2) % 18);
    o.tables = only[(h >> 7) % 5];
    o.row = (h >> 10) % 3 == 0 ? (long)((h >> 12) & 1) : -1;
    o.judge.tol = (h >> 13) % 4 == 0 ? (double)((h >> 15) % 100) / 1000 : -1;
    o.echo = (h >> 22) & 1;
    return o;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static as_session s;
    static int opened;
    const as_practice_opts o = options(fnv1a(data, size));
    as_practice_score sc;
    as_error err;
    char *out = NULL;
    size_t len = 0;
    FILE *in, *mem;
    int rc;

    if (!opened) {
        as_error_clear(&err);
        if (as_session_open_text(&s, f11, sizeof f11 - 1, "f11", NULL, &err) != 0)
            abort();
        opened = 1;
    }
    if (size == 0 || (in = fmemopen((void *)data, size, "r")) == NULL)
        return 0;
    if ((mem = open_memstream(&out, &len)) == NULL) {
        fclose(in);
        return 0;
    }
    rc = as_practice_run(in, mem, NULL, &s.p, &s.t, &o, &sc);
    fclose(in);
    fclose(mem);
    if (rc != 0 && rc != 1)
        abort(); /* memory does not run out here: -1 is a bug */
    if (sc.right + sc.missed > sc.cells || (rc == 0) != (sc.right == sc.cells))
        abort();
    if (!valid_utf8((const unsigned char *)out, len))
        abort();
    if (has_nan(out, len) && !has_nan((const char *)data, size))
        abort();
    free(out);
    return 0;
}
