/* error.c - the one place an error is recorded and formatted. */
#include "attnstep/error.h"

#include <stdarg.h>
#include <string.h>

void as_error_clear(as_error *e)
{
    memset(e, 0, sizeof *e);
}

void as_error_set(as_error *e, const char *file, int line, int col, const char *fmt, ...)
{
    va_list ap;

    if (e == NULL)
        return;
    e->ignored = e->set;
    if (e->set)
        return; /* the first error is the one the user needs */
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    e->col = col;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    va_end(ap);
    e->hint[0] = '\0';
    e->set = 1;
}

void as_error_hint(as_error *e, const char *fmt, ...)
{
    va_list ap;

    if (e == NULL || e->ignored)
        return; /* the hint of a second error would replace the first one's */
    va_start(ap, fmt);
    vsnprintf(e->hint, sizeof e->hint, fmt, ap);
    va_end(ap);
}

void as_error_print(const as_error *e, FILE *out)
{
    fputs("attnstep: ", out);
    if (e->file[0] != '\0') {
        if (e->line > 0)
            fprintf(out, "%s:%d:%d: ", e->file, e->line, e->col > 0 ? e->col : 1);
        else
            fprintf(out, "%s: ", e->file);
    }
    fprintf(out, "error: %s\n", e->msg);
    if (e->hint[0] != '\0')
        fprintf(out, "  hint: %s\n", e->hint);
}
