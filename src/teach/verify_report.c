/* verify_report.c - the reports of `verify` (SPEC §18): each printed number with its
 * place and verdict, as text, as an erratum in Markdown, or as JSON. Renderers only
 * read the verification: nothing here computes. */
#include "attnstep/verify.h"
#include "attnstep/check_report.h"
#include "attnstep/diagnose.h"
#include "attnstep/i18n.h"
#include "attnstep/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The decimals a number printed with unit u shows (0 exact: the run's digits). */
static int digits_of(double u, const as_render_opts *o)
{
    const int d = u > 0 ? (int)lround(-log10(u)) : o->digits;

    return d < 0 ? 0 : d > 17 ? 17 : d;
}

/* What number n is: "S第1行第0列", "q₁第0格", "指数之和". */
static void what_of(char *buf, size_t size, const as_vnumber *n, const as_render_opts *o)
{
    const as_printed *it = n->item;

    if (it->row < 0 && it->col < 0 && it->value.rows * it->value.cols > 1)
        snprintf(buf, size, as_say(o, AS_MSG_VF_CELL), it->name, n->row, n->col);
    else if (it->col < 0 && it->value.cols > 1)
        snprintf(buf, size, as_say(o, AS_MSG_VF_ROW_CELL), it->name, n->col);
    else
        snprintf(buf, size, "%s", it->name);
}

/* The codes of verify's own variants (JSON only: a reader is told in words); the
 * norms' are check's codes for the same mistakes (SPEC §15). */
static const char *const vv_code[AS_VV_VARIANTS] = {
    NULL, "pe_base_100", "pe_sin_cos_swapped", "ln_unbiased", "ln_eps_outside",
    "ln_annotated", "rope_other_pairing", "alibi_sign",
};

/* The code of the named variant of wrong number n, or NULL when none is named. */
static const char *variant_code(const as_vnumber *n)
{
    if (n->vvariant != AS_VV_NONE)
        return vv_code[n->vvariant];
    return n->variant.diag != AS_DIAG_NONE ? as_diag_code(n->variant.diag) : NULL;
}

/* The verdict on n in words, with the right value and the named mistake. */
static void verdict_of(char *buf, size_t size, const as_vnumber *n, const as_render_opts *o)
{
    static const as_msg words[AS_VF_VERDICTS] = {AS_MSG_VF_AGREES, AS_MSG_VF_TRUNCATED,
                                                 AS_MSG_VF_ROUNDED, AS_MSG_VF_WRONG,
                                                 AS_MSG_VF_CARRIED};
    static const as_msg vv_why[AS_VV_VARIANTS] = {
        AS_MSG_VF_AGREES, AS_MSG_VF_PE_BASE_100, AS_MSG_VF_PE_SWAPPED, AS_MSG_VF_LN_UNBIASED,
        AS_MSG_VF_LN_EPS_OUTSIDE, AS_MSG_VF_LN_ANNOTATED, AS_MSG_VF_ROPE_PAIRING,
        AS_MSG_VF_ALIBI_SIGN,
    };
    char right[64], why[512];
    size_t used;
    as_table_grade g;

    /* a number cut or rounded the other way is shown to its own digits, a wrong one to
     * the report's (--digits) */
    as_fmt_display(right, sizeof right, n->right,
                   n->verdict >= AS_VF_WRONG ? o->digits : digits_of(n->unit, o), o->ascii);
    if (n->verdict == AS_VF_CARRIED) {
        snprintf(buf, size, as_say(o, AS_MSG_VF_CARRIED), n->from->name, n->from->pos.line,
                 n->from->pos.col, right);
        return;
    }
    used = (size_t)snprintf(buf, size, as_say(o, words[n->verdict]), right);
    if (n->verdict != AS_VF_WRONG || variant_code(n) == NULL || used >= size)
        return;
    if (n->vvariant != AS_VV_NONE) {
        snprintf(buf + used, size - used, as_say(o, AS_MSG_VF_VARIANT),
                 as_say(o, vv_why[n->vvariant]));
        return;
    }
    memset(&g, 0, sizeof g);
    g.diagnosis = n->variant.diag;
    g.detail = n->variant.detail;
    as_diag_explain(why, sizeof why, &g, o);
    snprintf(buf + used, size - used, as_say(o, AS_MSG_VF_VARIANT), why);
}

/* The count that ends a report. */
static void count_line(FILE *out, const as_verify *v, const as_render_opts *o)
{
    if (v->agree == v->count)
        fprintf(out, as_say(o, AS_MSG_VF_COUNT_CLEAN), v->count);
    else
        fprintf(out, as_say(o, AS_MSG_VF_COUNT), v->count, v->agree, v->count - v->agree);
    fputc('\n', out);
}

int as_verify_text(FILE *out, const as_verify *v, const char *path, const as_render_opts *o)
{
    char what[128], printed[64], verdict[768];
    size_t i;

    for (i = 0; i < v->count; i++) {
        const as_vnumber *n = &v->num[i];
        what_of(what, sizeof what, n, o);
        as_fmt_display(printed, sizeof printed, n->printed, digits_of(n->unit, o), o->ascii);
        verdict_of(verdict, sizeof verdict, n, o);
        fprintf(out, "%s:%d:%d: %s = %s  %s\n", path, n->at.line, n->at.col, what, printed,
                verdict);
    }
    count_line(out, v, o);
    return ferror(out) ? -1 : 0;
}

int as_verify_md(FILE *out, const as_verify *v, const char *path, const as_render_opts *o)
{
    char what[128], printed[64], verdict[768];
    size_t i;

    fprintf(out, "## ");
    fprintf(out, as_say(o, AS_MSG_VF_MD_TITLE), path);
    fputs("\n\n", out);
    if (v->agree < v->count)
        fprintf(out, "%s\n|---|---|---|---|\n", as_say(o, AS_MSG_VF_MD_HEAD));
    for (i = 0; i < v->count; i++) {
        const as_vnumber *n = &v->num[i];
        if (n->verdict == AS_VF_AGREES)
            continue;
        what_of(what, sizeof what, n, o);
        as_fmt_display(printed, sizeof printed, n->printed, digits_of(n->unit, o), o->ascii);
        verdict_of(verdict, sizeof verdict, n, o);
        fprintf(out, "| %d:%d | %s | %s | %s |\n", n->at.line, n->at.col, what, printed, verdict);
    }
    if (v->agree < v->count)
        fputc('\n', out);
    count_line(out, v, o);
    return ferror(out) ? -1 : 0;
}

int as_verify_json(FILE *out, const as_verify *v, const char *path)
{
    static const char *const verdicts[AS_VF_VERDICTS] = {"agrees", "truncated", "rounded",
                                                         "wrong", "carried"};
    char place[64];
    size_t i;

    fputs("{\"file\": ", out);
    as_json_string(out, path);
    fputs(", \"numbers\": [", out);
    for (i = 0; i < v->count; i++) {
        const as_vnumber *n = &v->num[i];
        snprintf(place, sizeof place, "%d:%d", n->at.line, n->at.col);
        fprintf(out, "%s\n  {\"place\": \"%s\", \"line\": %d, \"col\": %d, \"name\": ",
                i ? "," : "", place, n->at.line, n->at.col);
        as_json_string(out, n->item->name);
        fprintf(out, ", \"cell\": [%ld, %ld], \"printed\": ", n->row, n->col);
        as_json_number(out, n->printed);
        fputs(", \"recomputed\": ", out);
        as_json_number(out, n->right);
        fprintf(out, ", \"verdict\": \"%s\", \"variant\": ", verdicts[n->verdict]);
        if (variant_code(n) != NULL)
            fprintf(out, "\"%s\"", variant_code(n));
        else
            fputs("null", out);
        if (n->from != NULL)
            fprintf(out, ", \"from\": \"%d:%d\"", n->from->pos.line, n->from->pos.col);
        fputc('}', out);
    }
    fprintf(out, "\n], \"checked\": %zu, \"agree\": %zu}\n", v->count, v->agree);
    return ferror(out) ? -1 : 0;
}
