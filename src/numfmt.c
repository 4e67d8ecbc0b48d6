/* numfmt.c - number display: rounding is decided here and nowhere else. */
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Drops trailing zeros after a decimal point, then the point itself. */
static void trim_zeros(char *buf)
{
    char *end;

    if (strchr(buf, '.') == NULL)
        return;
    end = buf + strlen(buf);
    while (end > buf && end[-1] == '0')
        *--end = '\0';
    if (end > buf && end[-1] == '.')
        *--end = '\0';
}

int as_fmt_display(char *buf, size_t size, double v, int digits, int ascii)
{
    if (isinf(v)) {
        snprintf(buf, size, "%s", v < 0 ? (ascii ? "-inf" : "\xe2\x88\x92\xe2\x88\x9e")
                                         : (ascii ? "inf" : "\xe2\x88\x9e"));
        return 0;
    }
    if (isnan(v)) { /* never reaches a table: the run refuses NaN first */
        snprintf(buf, size, "nan");
        return 1;
    }
    if (v == floor(v) && fabs(v) < 1e15) {
        snprintf(buf, size, "%.0f", v == 0 ? 0.0 : v); /* -0 prints as 0 */
        return 0;
    }
    if (fabs(v) >= 1e15) { /* too long for fixed notation: significant digits instead */
        snprintf(buf, size, "%.*g", digits + 1 < 17 ? digits + 1 : 17, v);
        return strtod(buf, NULL) != v;
    }
    snprintf(buf, size, "%.*f", digits, v);
    trim_zeros(buf);
    if (strcmp(buf, "-0") == 0)
        snprintf(buf, size, "0");
    return strtod(buf, NULL) != v;
}

void as_fmt_roundtrip(char *buf, size_t size, double v)
{
    int prec;

    if (v == floor(v) && fabs(v) < 1e15) { /* whole numbers as integers: 10, not 1e+01 */
        snprintf(buf, size, "%.0f", v == 0 ? 0.0 : v);
        return;
    }
    for (prec = 1; prec < 17; prec++) {
        snprintf(buf, size, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
    snprintf(buf, size, "%.17g", v);
}
