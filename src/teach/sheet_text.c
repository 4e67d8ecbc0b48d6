/* sheet_text.c - a worksheet's words and numbers, in the page's syntax: LaTeX with its
 * special characters escaped, or Markdown. */
#include "sheet_text.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

const char *as_sheet_msg(const as_sheet_page *pg, as_msg m)
{
    return as_msg_text(pg->o->lang, m);
}

/* A symbol in Markdown: Unicode, or its ASCII spelling with --ascii. */
const char *as_sheet_sym(const as_sheet_page *pg, as_sym s)
{
    return as_sym_text(pg->o->ascii, s);
}

/* 1 when s starts with an opening curly quote “, 2 with a closing one ”, else 0. */
static int curly_quote(const char *s)
{
    if (strncmp(s, "\xe2\x80", 2) != 0)
        return 0;
    return s[2] == '\x9c' ? 1 : s[2] == '\x9d' ? 2 : 0;
}

/* The LaTeX text command for c where the character itself would not print as itself
 * (OT1, pdflatex's default font encoding, has “ at \ and ¡ ¿ — at < > |), or NULL. */
static const char *tex_symbol(char c)
{
    switch (c) {
    case '\\': return "\\textbackslash{}";
    case '~': return "\\textasciitilde{}";
    case '^': return "\\textasciicircum{}";
    case '<': return "\\textless{}";
    case '>': return "\\textgreater{}";
    case '|': return "\\textbar{}";
    default: return NULL;
    }
}

/* Writes s as text of the page: LaTeX's special characters escaped (curly quotes as ``
 * '' for pdflatex), Markdown's table and emphasis characters escaped. */
void as_sheet_put_text(const as_sheet_page *pg, const char *s)
{
    if (!pg->o->latex) {
        as_md_text(pg->out, s);
        return;
    }
    for (; *s; s++) {
        if (pg->o->lang == AS_LANG_EN && curly_quote(s)) {
            fputs(curly_quote(s) == 1 ? "``" : "''", pg->out);
            s += 2;
        } else if (strchr("&%$#_{}", *s) != NULL) {
            fprintf(pg->out, "\\%c", *s);
        } else if (tex_symbol(*s) != NULL) {
            fputs(tex_symbol(*s), pg->out);
        } else {
            fputc(*s, pg->out);
        }
    }
}

void as_sheet_put_name(const as_sheet_page *pg, const char *s)
{
    if (pg->o->latex) {
        as_sheet_put_text(pg, s);
        return;
    }
    for (; *s; s++) {
        if (*s == '<' || *s == '>' || *s == '&')
            fputs(*s == '<' ? "&lt;" : *s == '>' ? "&gt;" : "&amp;", pg->out);
        else if (strchr("|\\*_`[]#!~$", *s) != NULL)
            fprintf(pg->out, "\\%c", *s);
        else
            fputc(*s, pg->out);
    }
}

/* Writes message m with its %s conversions filled by raw[] (text already in the page's
 * syntax: mathematics, lists of names), the message's own words escaped. */
void as_sheet_say(const as_sheet_page *pg, as_msg m, const char *const *raw, size_t nraw)
{
    static const char *const mark[] = {"\x01", "\x02", "\x03"};
    char buf[1024], *p, *q;
    size_t k;

    snprintf(buf, sizeof buf, as_sheet_msg(pg, m), nraw > 0 ? mark[0] : "", nraw > 1 ? mark[1] : "",
             nraw > 2 ? mark[2] : "");
    for (p = buf; *p; p = q) {
        char c;
        for (q = p; *q && (unsigned char)*q > 3; q++)
            ;
        c = *q;
        *q = '\0';
        as_sheet_put_text(pg, p);
        *q = c;
        if (*q) {
            k = (size_t)(unsigned char)*q - 1;
            if (k < nraw)
                fputs(raw[k], pg->out);
            q++;
        }
    }
}

/* A position's label as the page can set it. */
const char *as_sheet_label(const as_sheet_page *pg, char *buf, size_t size, const char *const *labels,
                         size_t i)
{
    return as_axis_label(buf, size, pg->numbered ? NULL : labels, i);
}

/* The same, for mathematics (LaTeX in both formats: Markdown's $$ blocks take it). */
int as_sheet_mnum(char *buf, size_t size, double v, int places)
{
    if (isinf(v)) {
        snprintf(buf, size, "%s", v < 0 ? "-\\infty" : "\\infty");
        return 0;
    }
    return as_fmt_display(buf, size, v, places, 1);
}
