/* lex.c - the byte level of the input format: positions, UTF-8, tokens and whole-file
 * reading. Numbers are read by number.c, matrices by reader.c. */
#include "attnstep/lex.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
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

unsigned as_lex_bidi(const char *p, const char *end)
{
    const unsigned char *u = (const unsigned char *)p;
    unsigned cp;

    if (end - p >= 2 && u[0] == 0xd8 && u[1] == 0x9c)
        return 0x061c; /* ARABIC LETTER MARK */
    if (end - p < 3 || u[0] != 0xe2 || (u[1] != 0x80 && u[1] != 0x81) || (u[2] & 0xc0) != 0x80)
        return 0;
    cp = 0x2000u | (unsigned)(u[1] & 0x3f) << 6 | (u[2] & 0x3f);
    return cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
                   (cp >= 0x2066 && cp <= 0x2069)
               ? cp
               : 0;
}

const char *as_lex_bidi_in(const char *s, const char *end)
{
    for (; s < end; s += as_lex_char_len(s, end))
        if (as_lex_bidi(s, end) != 0)
            return s;
    return NULL;
}

const char *as_lex_control(const char *s, const char *end)
{
    for (; s < end; s += as_lex_char_len(s, end))
        if (control_len(s, end) > 0)
            return s;
    return NULL;
}

/* Bytes of the character at p (k of them) that a message writes as \xNN, or 0: a
 * terminal control (never sent to a terminal), a byte of no UTF-8 character (a message
 * is valid UTF-8). */
static size_t escaped_len(const char *p, const char *end, size_t k)
{
    const size_t c = control_len(p, end);

    return c == 0 && as_lex_bad_byte(p, k) != NULL ? k : c;
}

void as_lex_put_escaped(FILE *out, const char *s)
{
    const char *end = s + strlen(s);
    size_t k, c, i;

    for (; s < end; s += k) {
        k = as_lex_char_len(s, end);
        c = escaped_len(s, end, k);
        if (c == 0 && as_lex_bidi(s, end) != 0)
            c = k; /* a direction control would turn the rest of the line round */
        for (i = 0; i < c; i++)
            fprintf(out, "\\x%02x", (unsigned char)s[i]);
        if (c == 0)
            fwrite(s, 1, k, out);
    }
}

void as_lex_quote(char *out, size_t cap, const char *s, size_t n)
{
    const size_t most = 40;
    size_t used = 0, put = 0, k, i, c;

    if (cap == 0)
        return;
    while (used < n && used < most) {
        k = as_lex_char_len(s + used, s + n);
        c = escaped_len(s + used, s + n, k); /* \x1b, \x93 */
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

int as_lex_word_is(const char *s, size_t n, const char *w)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (w[i] == '\0' || (s[i] >= 'A' && s[i] <= 'Z' ? s[i] - 'A' + 'a' : s[i]) != w[i])
            return 0;
    return w[n] == '\0';
}

static int ident_char(char ch, int first)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
           (!first && ch >= '0' && ch <= '9');
}

size_t as_lex_ident_len(const char *p, const char *end)
{
    const char *s = p;

    while (s < end && ident_char(*s, s == p))
        s++;
    return (size_t)(s - p);
}

size_t as_lex_colon(const char *p, const char *end)
{
    if (p < end && *p == ':')
        return 1;
    if (end - p >= 3 && memcmp(p, "\xEF\xBC\x9A", 3) == 0)
        return 3;
    return 0;
}

int as_lex_number_start(const char *p, const char *end)
{
    unsigned char b;

    if (p >= end)
        return 0;
    b = (unsigned char)*p;
    if ((b >= '0' && b <= '9') || b == '.' || b == '+' || b == '-')
        return 1;
    if (end - p >= 5 && memcmp(p, "sqrt(", 5) == 0)
        return 1;
    /* U+2212 MINUS SIGN is E2 88 92; U+221E INFINITY is E2 88 9E; U+221A √ is E2 88 9A */
    return b == 0xE2 && end - p >= 3 && (unsigned char)p[1] == 0x88 &&
           ((unsigned char)p[2] == 0x92 || (unsigned char)p[2] == 0x9E ||
            (unsigned char)p[2] == 0x9A);
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

/* The ASCII form of the full-width character at p (3 bytes of UTF-8, U+FF08..U+FF3D) that
 * a Chinese input method types for = [ ] , - ( ) + . / and the digits ０..９ (U+FF10..
 * U+FF19), or 0. */
static char fullwidth_ascii(const unsigned char *p, const unsigned char *end)
{
    static const struct {
        unsigned char b2, b3;
        char ascii;
    } fw[] = {{0xBC, 0x9D, '='}, {0xBC, 0xBB, '['}, {0xBC, 0xBD, ']'}, {0xBC, 0x8C, ','},
              {0xBC, 0x8D, '-'}, {0xBC, 0x88, '('}, {0xBC, 0x89, ')'}, {0xBC, 0x8B, '+'},
              {0xBC, 0x8E, '.'}, {0xBC, 0x8F, '/'}};
    size_t i;

    if (end - p < 3 || p[0] != 0xEF)
        return 0;
    if (p[1] == 0xBC && p[2] >= 0x90 && p[2] <= 0x99)
        return (char)('0' + (p[2] - 0x90));
    for (i = 0; i < sizeof fw / sizeof fw[0]; i++)
        if (p[1] == fw[i].b2 && p[2] == fw[i].b3)
            return fw[i].ascii;
    return 0;
}

/* Nonzero when the line at p starts (after blanks) with a setting whose value is free
 * text, title, tokens, kv_tokens or name: its full-width punctuation is the text's own. */
static int free_text_line(const char *p, const char *end)
{
    static const char *const keys[] = {"title", "tokens", "kv_tokens", "name"};
    size_t i, n;

    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        n = strlen(keys[i]);
        if ((size_t)(end - p) > n && memcmp(p, keys[i], n) == 0 &&
            as_lex_colon(p + n, end) > 0)
            return 1;
    }
    return 0;
}

size_t as_lex_fold_fullwidth(char *text, size_t len)
{
    const unsigned char *end = (const unsigned char *)text + len;
    unsigned char *r = (unsigned char *)text, *w = r;
    int skip = free_text_line(text, text + len); /* in a comment or free text: keep */
    char a;

    while (r < end) {
        if (*r == '\n') {
            *w++ = *r++;
            skip = free_text_line((const char *)r, (const char *)end);
            continue;
        }
        if (*r == '#')
            skip = 1;
        if (!skip && (a = fullwidth_ascii(r, end)) != 0) {
            *w++ = (unsigned char)a; /* one character for one: columns stay the same */
            r += 3;
            continue;
        }
        *w++ = *r++;
    }
    return (size_t)(w - (unsigned char *)text);
}

int as_lex_open(const char *path, int *fd, struct stat *st)
{
    int flags, e = 0;

    *fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC); /* a FIFO: at once */
    if (*fd < 0)
        return errno;
    if (fstat(*fd, st) != 0)
        e = errno;
    else if (S_ISDIR(st->st_mode))
        e = EISDIR;
    else if (!S_ISREG(st->st_mode))
        e = ENODEV; /* a FIFO, a device, a socket: refused before a read could block */
    else if ((flags = fcntl(*fd, F_GETFL)) == -1 || fcntl(*fd, F_SETFL, flags & ~O_NONBLOCK) == -1)
        e = errno;
    if (e != 0) {
        close(*fd);
        *fd = -1;
    }
    return e;
}

int as_lex_read_file(const char *path, int allow_stdin, char **buf, size_t *len)
{
    int fd, rc;
    struct stat st;
    size_t hint = 65536;
    int from_stdin = allow_stdin && strcmp(path, "-") == 0;

    *buf = NULL;
    *len = 0;
    if (!from_stdin && (rc = as_lex_open(path, &fd, &st)) != 0)
        return rc;
    fd = from_stdin ? STDIN_FILENO : fd;
    if (from_stdin && fstat(fd, &st) != 0) {
        rc = errno;
        goto done;
    }
    if (S_ISDIR(st.st_mode)) {
        rc = EISDIR; /* standard input can be a directory too: `< dir` */
        goto done;
    }
    if (S_ISREG(st.st_mode) && st.st_size >= 0 && (uintmax_t)st.st_size > AS_MAX_INPUT) {
        rc = EFBIG; /* said before reading a byte */
        goto done;
    }
    if (S_ISREG(st.st_mode) && st.st_size >= 0)
        hint = (size_t)st.st_size; /* one read, no regrowth, for a file that stays put */
    rc = read_fd(fd, hint, buf, len);
    if (rc == 0 && *buf != NULL)
        *len = as_lex_fold_fullwidth(*buf, *len);
done:
    if (!from_stdin)
        close(fd);
    return rc;
}
