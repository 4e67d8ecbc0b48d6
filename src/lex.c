/* lex.c - the byte level of the input format: positions, UTF-8, whole-file reading,
 * and the number syntax of SPEC §2 (as_parse_number), whose decimal conversion lives in
 * one function (convert_decimal). */
#include "attnstep/lex.h"
#include "attnstep/fastfloat.h"
#include "attnstep/parse.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ------------------------------------------------------------------ positions ---- */

void as_cursor_init(as_cursor *c, const char *text, size_t len)
{
    if (text == NULL) {
        text = "";
        len = 0;
    }
    c->p = text;
    c->end = text + len;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        c->p += 3; /* the BOM is a mark, not a character of line 1 */
    c->line_start = c->p;
    c->line = 1;
    c->col_p = c->p;
    c->col_n = 1;
}

int as_cursor_col(as_cursor *c, const char *q)
{
    const char *s = c->line_start;
    int n = 1;

    if (c->col_p >= c->line_start && c->col_p <= q) {
        s = c->col_p; /* continue from the last answer: left-to-right asks stay linear */
        n = c->col_n;
    }
    for (; s < q; s++)
        if (((unsigned char)*s & 0xC0) != 0x80 && n < INT_MAX)
            n++; /* count lead bytes only: a column is a character */
    c->col_p = q;
    c->col_n = n;
    return n;
}

void as_cursor_newline(as_cursor *c)
{
    c->p += as_lex_eol(c->p, c->end);
    if (c->line < INT_MAX)
        c->line++;
    c->line_start = c->p;
    c->col_p = c->p;
    c->col_n = 1;
}

void as_cursor_skip_line(as_cursor *c)
{
    const char *p = c->p;

    while (p < c->end && *p != '\n' && *p != '\r')
        p++;
    c->p = p;
}

void as_lex_locate(const char *text, size_t len, const char *q, int *line, int *col)
{
    as_cursor c;

    as_cursor_init(&c, text, len);
    while (c.p < q) {
        size_t k = as_lex_eol(c.p, c.end);

        if (k > 0 && c.p + k <= q)
            as_cursor_newline(&c);
        else
            c.p++;
    }
    *line = c.line;
    *col = as_cursor_col(&c, q);
}

/* ------------------------------------------------------------------ UTF-8 ---- */

/* Length of the valid UTF-8 sequence at p (lead byte >= 0x80), or 0 when it is invalid
 * (Unicode Table 3-7: well-formed byte sequences). */
static size_t utf8_seq(const unsigned char *p, const unsigned char *end)
{
    size_t n, i;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */

    if (p[0] >= 0xC2 && p[0] <= 0xDF)
        n = 2;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF)
        n = 3;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4)
        n = 4;
    else
        return 0; /* a continuation byte, an overlong C0/C1 or F5..FF */
    if (p[0] == 0xE0)
        lo = 0xA0; /* overlong */
    else if (p[0] == 0xED)
        hi = 0x9F; /* surrogates */
    else if (p[0] == 0xF0)
        lo = 0x90; /* overlong */
    else if (p[0] == 0xF4)
        hi = 0x8F; /* above U+10FFFF */
    if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi)
        return 0;
    for (i = 2; i < n; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    return n;
}

const char *as_lex_bad_byte(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + n;
    const uint64_t high = 0x8080808080808080u, ones = 0x0101010101010101u;

    while (p < end) {
        size_t k;
        uint64_t w;

        if (end - p >= 8) {
            memcpy(&w, p, 8);
            /* eight ASCII bytes, none of them zero: the common case, in one step */
            if ((w & high) == 0 && ((w - ones) & ~w & high) == 0) {
                p += 8;
                continue;
            }
        }
        if (*p < 0x80) {
            if (*p == 0)
                return (const char *)p;
            p++;
            continue;
        }
        k = utf8_seq(p, end);
        if (k == 0)
            return (const char *)p;
        p += k;
    }
    return NULL;
}

size_t as_lex_char_len(const char *p, const char *end)
{
    size_t k;

    if (p >= end)
        return 0;
    if ((unsigned char)*p < 0x80)
        return 1;
    k = utf8_seq((const unsigned char *)p, (const unsigned char *)end);
    return k > 0 ? k : 1;
}

/* ------------------------------------------------------------------ tokens ---- */

size_t as_lex_run(const char *p, const char *end)
{
    const char *s = p;

    while (!as_lex_at_delim(s, end))
        s++;
    return (size_t)(s - p);
}

/* Bytes of the terminal control character at p (C0 but tab, DEL, C1), or 0. */
static size_t control_len(const char *p, const char *end)
{
    const unsigned char c = (unsigned char)p[0];

    if ((c < 0x20 && c != '\t') || c == 0x7f)
        return 1;
    if (c == 0xc2 && end - p >= 2 && (unsigned char)p[1] >= 0x80 && (unsigned char)p[1] <= 0x9f)
        return 2;
    return 0;
}

const char *as_lex_control(const char *s, const char *end)
{
    for (; s < end; s += as_lex_char_len(s, end))
        if (control_len(s, end) > 0)
            return s;
    return NULL;
}

void as_lex_quote(char *out, size_t cap, const char *s, size_t n)
{
    const size_t most = 40;
    size_t used = 0, put = 0, k, i, c;

    if (cap == 0)
        return;
    while (used < n && used < most) {
        k = as_lex_char_len(s + used, s + n);
        c = control_len(s + used, s + n); /* shown as \x1b: never sent to a terminal */
        if (used + k > most || put + (c ? 4 * c : k) + 4 > cap)
            break;
        for (i = 0; c > 0 && i < c; i++)
            put += (size_t)snprintf(out + put, cap - put, "\\x%02x", (unsigned char)s[used + i]);
        if (c == 0)
            memcpy(out + put, s + used, k), put += k;
        used += k;
    }
    if (used < n && cap >= put + 4) {
        memcpy(out + put, "...", 3);
        put += 3;
    }
    out[put] = '\0';
}

int as_lex_number_start(const char *p, const char *end)
{
    unsigned char b;

    if (p >= end)
        return 0;
    b = (unsigned char)*p;
    if ((b >= '0' && b <= '9') || b == '.' || b == '+' || b == '-')
        return 1;
    /* U+2212 MINUS SIGN is E2 88 92; U+221E INFINITY is E2 88 9E */
    return b == 0xE2 && end - p >= 3 && (unsigned char)p[1] == 0x88 &&
           ((unsigned char)p[2] == 0x92 || (unsigned char)p[2] == 0x9E);
}

/* ------------------------------------------------------------------ numbers ---- */

const char as_why_too_large[] = "the number is too large for a double";
const char as_why_zero_denominator[] = "the fraction divides by zero";
const char as_why_no_memory[] = "out of memory";

/* THE place decimal text becomes a double. Reads the longest unsigned decimal literal
 * at s[0..len) (digits with at most one ".", at least one digit, then an exponent only
 * when it has digits) and returns its bytes, 0 when there is none. Overflow returns 0
 * with *why set; underflow to a subnormal or 0 is fine. as_strtod_fast() rounds exactly
 * as strtod does (tested bit for bit against it) without needing a NUL-terminated copy. */
static size_t convert_decimal(const char *s, size_t len, double *out, const char **why)
{
    const char *e;

    if (len == 0 || !((unsigned)(s[0] - '0') < 10 || s[0] == '.'))
        return 0; /* unsigned: the caller reads the sign */
    e = as_strtod_fast(s, s + len, out);
    if (e == NULL)
        return 0;
    if (isinf(*out)) {
        *why = as_why_too_large;
        return 0;
    }
    return (size_t)(e - s);
}

/* Bytes of a sign at p ("+", "-" or U+2212 "−"); *neg set when it is a minus. */
static size_t scan_sign(const char *p, size_t len, int *neg)
{
    *neg = 0;
    if (len >= 1 && (p[0] == '+' || p[0] == '-')) {
        *neg = p[0] == '-';
        return 1;
    }
    if (len >= 3 && memcmp(p, "\xE2\x88\x92", 3) == 0) {
        *neg = 1;
        return 3;
    }
    return 0;
}

/* Bytes of an infinity word at p: "inf" or "infinity" (any case) or "∞"; else 0. */
static size_t scan_inf(const char *p, size_t len)
{
    static const char word[] = "infinity";
    size_t i = 0;

    if (len >= 3 && memcmp(p, "\xE2\x88\x9E", 3) == 0)
        return 3;
    while (i < len && i < 8 && (p[i] | 0x20) == word[i])
        i++;
    return i == 8 ? 8 : i >= 3 ? 3 : 0;
}

/* One signed number without a fraction bar: [sign] (decimal | inf). Returns the bytes
 * used, 0 when none (with *why set when the text was a number that cannot be used). */
static size_t scan_signed(const char *s, size_t len, int allow_inf, double *out,
                          const char **why)
{
    int neg;
    size_t k = scan_sign(s, len, &neg), n;

    if (allow_inf && (n = scan_inf(s + k, len - k)) > 0) {
        *out = neg ? -INFINITY : INFINITY;
        return k + n;
    }
    n = convert_decimal(s + k, len - k, out, why);
    if (n == 0)
        return 0;
    if (neg)
        *out = -*out; /* exact: -0 stays -0, as strtod would give it */
    return k + n;
}

/* The common case in one call: a finite decimal with an ASCII minus at most, no fraction
 * bar after it ("-1.5e-03", as numpy.savetxt writes). as_strtod_fast reads the sign
 * itself, so this is exactly what scan_signed and the checks below give for it. Returns
 * its bytes, or 0 for anything else (the general path then decides). */
static size_t plain_decimal(const char *s, size_t len, double *out)
{
    const size_t k = len > 0 && s[0] == '-';
    const char *e;

    if (len <= k || (unsigned)(s[k] - '0') >= 10)
        return 0;
    e = as_strtod_fast(s, s + len, out);
    if (e == NULL || isinf(*out) || (e < s + len && *e == '/'))
        return 0;
    return (size_t)(e - s);
}

size_t as_parse_number(const char *s, size_t len, int allow_inf, double *out, const char **why)
{
    double p = 0, q = 0;
    size_t n, m;

    *why = NULL;
    if ((n = plain_decimal(s, len, out)) > 0)
        return n;
    *out = 0;
    n = scan_signed(s, len, allow_inf, &p, why);
    if (n == 0)
        return 0;
    if (isinf(p) || n >= len || s[n] != '/') {
        *out = p; /* an infinity takes no fraction bar */
        return n;
    }
    m = scan_signed(s + n + 1, len - n - 1, 0, &q, why);
    if (m == 0) {
        if (*why != NULL)
            return 0;
        *out = p; /* "1/" or "1/x": the longest number is "1" */
        return n;
    }
    if (q == 0) {
        *why = as_why_zero_denominator;
        return 0;
    }
    *out = p / q;
    if (isinf(*out)) {
        *why = as_why_too_large;
        *out = 0;
        return 0;
    }
    return n + 1 + m;
}

/* ------------------------------------------------------------------ files ---- */

/* Reads fd to its end into a new NUL-terminated buffer, starting with room for hint
 * bytes (plus one to see the end and one for the NUL, so a file read whole needs no
 * regrowth). Stops after a chunk with a NUL byte, and past AS_MAX_INPUT bytes (EFBIG),
 * so that an endless stream cannot fill the memory. Returns 0 or an errno value. */
static int read_fd(int fd, size_t hint, char **buf, size_t *len)
{
    size_t cap = hint + 2, n = 0;
    char *b = malloc(cap), *nb;
    ssize_t got;

    if (b == NULL)
        return ENOMEM;
    for (;;) {
        if (n + 1 == cap) {
            if (cap > SIZE_MAX / 2)
                goto fail_nomem;
            nb = realloc(b, cap * 2);
            if (nb == NULL)
                goto fail_nomem;
            b = nb;
            cap *= 2;
        }
        got = read(fd, b + n, cap - 1 - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(b);
            return e;
        }
        if (got == 0)
            break;
        n += (size_t)got;
        if (n > AS_MAX_INPUT) {
            free(b);
            return EFBIG;
        }
        if (memchr(b + n - (size_t)got, '\0', (size_t)got) != NULL)
            break; /* the text is refused at that NUL anyway (/dev/zero never ends) */
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
fail_nomem:
    free(b);
    return ENOMEM;
}

int as_lex_read_file(const char *path, int allow_stdin, char **buf, size_t *len)
{
    int fd, rc;
    struct stat st;
    size_t hint = 65536;
    int from_stdin = allow_stdin && strcmp(path, "-") == 0;

    *buf = NULL;
    *len = 0;
    fd = from_stdin ? STDIN_FILENO : open(path, O_RDONLY);
    if (fd < 0)
        return errno;
    if (fstat(fd, &st) != 0) {
        rc = errno;
        goto done;
    }
    if (S_ISDIR(st.st_mode)) {
        rc = EISDIR;
        goto done;
    }
    if (S_ISREG(st.st_mode) && st.st_size >= 0 && (uintmax_t)st.st_size > AS_MAX_INPUT) {
        rc = EFBIG; /* said before reading a byte */
        goto done;
    }
    if (S_ISREG(st.st_mode) && st.st_size >= 0)
        hint = (size_t)st.st_size; /* one read, no regrowth, for a file that stays put */
    rc = read_fd(fd, hint, buf, len);
done:
    if (!from_stdin)
        close(fd);
    return rc;
}
