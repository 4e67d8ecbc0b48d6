/* lex.h - reading input text byte by byte: where we are (line, character column), what
 * kind of character is next, UTF-8 checks, and reading a whole file. number.h reads
 * numbers, reader.h matrices and parse.h statements on top of this. */
#ifndef ATTNSTEP_LEX_H
#define ATTNSTEP_LEX_H

#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>

/* A read position in a text, with the line it is on. Columns are computed on demand
 * (they are needed only for positions that are recorded or reported) and cached, so
 * asking left to right along a line costs time linear in the line. */
typedef struct as_cursor {
    const char *p;          /* next byte to read */
    const char *end;        /* one past the last byte */
    const char *line_start; /* first byte of the current line (after a BOM on line 1) */
    int line;               /* 1-based physical line of p */
    const char *col_p;      /* a byte of the current line whose column is col_n */
    int col_n;
} as_cursor;

/* Starts a cursor at the beginning of text[0..len), stepping over a UTF-8 BOM (which
 * counts as no column). text may be NULL when len is 0. */
void as_cursor_init(as_cursor *c, const char *text, size_t len);

/* 1-based character column of byte q, which lies on the cursor's current line. */
int as_cursor_col(as_cursor *c, const char *q);

/* Steps over the line end at c->p (see as_lex_eol) and starts the next line. */
void as_cursor_newline(as_cursor *c);

/* Moves c->p to the end of the current line (before its line end), e.g. past a comment. */
void as_cursor_skip_line(as_cursor *c);

/* Line and column of byte q of text[0..len), counted from the start (slow: for errors). */
void as_lex_locate(const char *text, size_t len, const char *q, int *line, int *col);

/* The first NUL byte or invalid UTF-8 sequence in s[0..n), or NULL when there is none.
 * Invalid: overlong forms, surrogates, code points above U+10FFFF, truncated sequences. */
const char *as_lex_bad_byte(const char *s, size_t n);

/* Bytes of the next token of a matrix or value at p: everything up to a blank, a line
 * end, a comma (also the full-width "，"), "[", "]", "#" or the end. */
size_t as_lex_run(const char *p, const char *end);

/* Bytes of one whole UTF-8 character at p (1 for a stray byte), at most end - p. */
size_t as_lex_char_len(const char *p, const char *end);

/* Copies at most about 40 bytes of s[0..n) into out (NUL-terminated, cut at a character
 * boundary, "..." added when cut), for quoting the input in messages. Terminal control
 * characters (C0 but tab, DEL, C1) and bytes of no UTF-8 character are written as \x1b,
 * never as themselves. */
void as_lex_quote(char *out, size_t cap, const char *s, size_t n);

/* Writes s (a file name, NUL-terminated) to out whole, as as_lex_quote() writes what it
 * quotes: terminal controls and bytes of no UTF-8 character as \x93, and a direction
 * control (as_lex_bidi) as its bytes, \xe2\x80\xae: a message never sends a raw byte of
 * a name to the terminal (SPEC §10, issue 30). */
void as_lex_put_escaped(FILE *out, const char *s);

/* The code point of the direction control at p (U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069, U+061C: what reorders the text a reader sees, "Trojan Source"), or 0. */
unsigned as_lex_bidi(const char *p, const char *end);

/* The first direction control (as_lex_bidi) in s..end, or NULL. */
const char *as_lex_bidi_in(const char *s, const char *end);

/* The first terminal control character (C0 but tab, DEL, C1: what could drive a
 * terminal from a label) in s..end, or NULL. */
const char *as_lex_control(const char *s, const char *end);

/* Nonzero when s[0..n) equals the lowercase word w, ignoring ASCII case. */
int as_lex_word_is(const char *s, size_t n, const char *w);

/* Bytes of the identifier at p: an ASCII letter or "_", then letters, digits and "_";
 * 0 when p starts none. */
size_t as_lex_ident_len(const char *p, const char *end);

/* Bytes of a colon at p: ":" or the full-width "：" (U+FF1A); else 0. */
size_t as_lex_colon(const char *p, const char *end);

/* Nonzero when the number syntax may start at p: a digit, ".", "+", "-", "−", "∞", "√"
 * or "sqrt(". */
int as_lex_number_start(const char *p, const char *end);

/* The most bytes one input file (or loaded file) may hold: 2 GiB, room for a table at
 * the 2^26-cell limit as numpy.savetxt writes it ("%.18e", 25 bytes a number). */
#define AS_MAX_INPUT ((size_t)1 << 31)


/* Opens path to read, refusing what is not a regular file before a read could block: a
 * FIFO, a device or a socket (ENODEV), a directory (EISDIR). The open is non-blocking
 * (a FIFO opens at once), checked with fstat(), then made blocking again. Returns 0 with
 * *fd (the caller closes it) and *st set, or an errno value with *fd -1. */
int as_lex_open(const char *path, int *fd, struct stat *st);

/* Reads the whole file at path into a new buffer (NUL-terminated; *len excludes the
 * NUL) that the caller frees. With allow_stdin, "-" is standard input. Reading stops
 * early after a chunk that holds a NUL byte (such a text is refused at its first NUL,
 * so /dev/zero ends at once): the buffer then ends a little past that NUL. Returns 0,
 * or an errno value (as_lex_open()'s for a path; EISDIR for a directory, EFBIG past AS_MAX_INPUT bytes, ENOMEM
 * when memory runs out). */
int as_lex_read_file(const char *path, int allow_stdin, char **buf, size_t *len);

/* Reads the full-width ＝ ［ ］ ， － （ ） ＋ ． ／ and ０..９ that a Chinese input method
 * types as = [ ] , - ( ) + . / and 0..9:
 * rewrites text[0..len) in place, one character for one (lines and columns stay), except
 * in comments and in the free text of title, tokens, kv_tokens and name. Returns the new
 * length. as_lex_read_file() does it to every file it reads. */
size_t as_lex_fold_fullwidth(char *text, size_t len);

/* ---- hot helpers: inline, they run once per byte ---- */

/* Bytes of the line end at p: 2 for CRLF, 1 for LF or a lone CR, 0 when none. */
static inline size_t as_lex_eol(const char *p, const char *end)
{
    if (p >= end)
        return 0;
    if (*p == '\n')
        return 1;
    if (*p == '\r')
        return (p + 1 < end && p[1] == '\n') ? 2 : 1;
    return 0;
}

/* Bytes of one blank at p: space, tab, vertical tab, form feed, U+00A0 (no-break
 * space) or U+3000 (ideographic space, which Chinese input methods type); else 0. */
static inline size_t as_lex_blank(const char *p, const char *end)
{
    unsigned char b;

    if (p >= end)
        return 0;
    b = (unsigned char)*p;
    if (b == ' ' || b == '\t' || b == '\v' || b == '\f')
        return 1;
    if (b == 0xC2 && end - p >= 2 && (unsigned char)p[1] == 0xA0)
        return 2;
    if (b == 0xE3 && end - p >= 3 && (unsigned char)p[1] == 0x80 && (unsigned char)p[2] == 0x80)
        return 3;
    return 0;
}

/* Bytes of a comma at p: 1 for ",", 3 for the full-width "，" (U+FF0C), else 0. */
static inline size_t as_lex_comma(const char *p, const char *end)
{
    if (p >= end)
        return 0;
    if (*p == ',')
        return 1;
    if ((unsigned char)*p == 0xEF && end - p >= 3 && (unsigned char)p[1] == 0xBC &&
        (unsigned char)p[2] == 0x8C)
        return 3;
    return 0;
}

/* Nonzero when a token ends before p: p is at a delimiter of as_lex_run() or the end. */
static inline int as_lex_at_delim(const char *p, const char *end)
{
    if (p >= end)
        return 1;
    switch (*p) {
    case ' ': case '\t': case '\v': case '\f': case '\n': case '\r':
    case ',': case '[': case ']': case '#':
        return 1;
    default:
        return (unsigned char)*p >= 0x80 && (as_lex_blank(p, end) > 0 || as_lex_comma(p, end) > 0);
    }
}

/* Moves c->p past blanks (not past line ends). */
static inline void as_cursor_skip_blanks(as_cursor *c)
{
    size_t n;

    while (c->p < c->end && (*c->p == ' ' || *c->p == '\t'))
        c->p++;
    while ((n = as_lex_blank(c->p, c->end)) > 0)
        c->p += n;
}

/* Nonzero when c->p is at a line end, a comment or the end of the text. */
static inline int as_cursor_at_stop(const as_cursor *c)
{
    return c->p >= c->end || *c->p == '#' || *c->p == '\n' || *c->p == '\r';
}

#endif
