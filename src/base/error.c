/* error.c - the one place an error is recorded and formatted. */
#include "attnstep/error.h"
#include "attnstep/lex.h"

#include <string.h>

void as_error_init(as_error *e, as_lang lang)
{
    memset(e, 0, sizeof *e);
    e->lang = lang;
}

void as_error_clear(as_error *e)
{
    as_error_init(e, AS_LANG_ZH);
}

/* The one place a message is recorded: the first error is the one the user needs. */
static void record(as_error *e, const char *file, int line, int col, const char *fmt,
                   va_list ap)
{
    if (e == NULL)
        return;
    e->ignored = e->set;
    if (e->set)
        return;
    snprintf(e->file, sizeof e->file, "%s", file ? file : "");
    e->line = line;
    e->col = col;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    if (e->lang == AS_LANG_EN)
        as_msg_singular(e->msg);
    e->hint[0] = '\0';
    e->set = 1;
}

void as_error_vmsg(as_error *e, const char *file, int line, int col, as_msg id, va_list ap)
{
    if (e != NULL)
        record(e, file, line, col, as_msg_text(e->lang, id), ap);
}

void as_error_msg(as_error *e, const char *file, int line, int col, as_msg id, ...)
{
    va_list ap;

    va_start(ap, id);
    as_error_vmsg(e, file, line, col, id, ap);
    va_end(ap);
}

void as_error_set(as_error *e, const char *file, int line, int col, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    record(e, file, line, col, fmt, ap);
    va_end(ap);
}

void as_error_hint_msg(as_error *e, as_msg id, ...)
{
    va_list ap;

    if (e == NULL || e->ignored)
        return; /* the hint of a second error would replace the first one's */
    va_start(ap, id);
    vsnprintf(e->hint, sizeof e->hint, as_msg_text(e->lang, id), ap);
    va_end(ap);
    if (e->lang == AS_LANG_EN)
        as_msg_singular(e->hint);
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
        as_lex_put_escaped(out, e->file); /* a file name is anyone's bytes */
        if (e->line > 0)
            fprintf(out, ":%d:%d: ", e->line, e->col > 0 ? e->col : 1);
        else
            fputs(": ", out);
    }
    fprintf(out, "%s%s\n", as_msg_text(e->lang, AS_MSG_ERR_ERROR), e->msg);
    if (e->hint[0] != '\0')
        fprintf(out, "  %s%s\n", as_msg_text(e->lang, AS_MSG_ERR_HINT), e->hint);
}
