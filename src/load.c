/* load.c - NAME = load("file.txt"): finding and reading the file, and reading a large
 * one in two halves at once. The rows themselves are read by reader.c. */
#include "attnstep/load.h"
#include "attnstep/lex.h"
#include "attnstep/threads.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const as_pos no_pos = {0, 0};

/* The path of load("name") from an input at input_path: relative to its folder. */
static char *resolve(const char *input_path, const char *name, size_t n)
{
    const char *slash = strrchr(input_path, '/');
    size_t dir = 0;
    char *out;

    if (name[0] != '/' && strcmp(input_path, "-") != 0 && slash != NULL)
        dir = (size_t)(slash - input_path) + 1; /* keep the "/" */
    out = malloc(dir + n + 1);
    if (out != NULL) {
        memcpy(out, input_path, dir);
        memcpy(out + dir, name, n);
        out[dir + n] = '\0';
    }
    return out;
}

/* ------------------------------------------------------------------ two threads ---- */

/* A loaded file of at least this many bytes is read in two halves at once, split at the
 * start of a line: no row, comment or UTF-8 character spans the split, so each half
 * reads as a file of its own. Only a clean read is kept: an error in either half, or
 * halves that do not fit together (widths, limits), and the file is read again in one
 * piece, which reports the first error in file order at its exact line and column. */
#define SPLIT_MIN ((size_t)1 << 20)

/* One half: a reader of its own (its own error record, never shown) and its rows. */
typedef struct half {
    as_reader r;
    as_error err;
    as_rd_matrix b;
    const char *text;
    size_t len;
    int rc;
} half;

static void half_init(half *h, const as_reader *file, const as_rd_matrix *like,
                      const char *text, size_t len)
{
    as_error_init(&h->err, file->err->lang);
    as_reader_init(&h->r, file->path, &h->err, NULL, NULL);
    memset(&h->b, 0, sizeof h->b);
    h->b.id = like->id;
    h->b.name = like->name;
    h->b.flags = like->flags;
    h->text = text;
    h->len = len;
    h->rc = -1;
}

/* The thread body: the rows of one half, when all of its bytes are valid text. */
static void read_half(void *arg)
{
    half *h = arg;

    if (as_lex_bad_byte(h->text, h->len) == NULL) {
        as_cursor_init(&h->r.c, h->text, h->len);
        h->rc = as_reader_plain_rows(&h->r, &h->b);
    }
}

/* Where the second half starts: just after the first "\n" past the middle; 0 when there
 * is none, or when a BOM stands there (it would be skipped as the file's mark). */
static size_t split_point(const char *text, size_t len)
{
    const char *nl = memchr(text + len / 2, '\n', len - len / 2);
    size_t at = nl != NULL ? (size_t)(nl + 1 - text) : 0;

    if (at >= len || (len - at >= 3 && memcmp(text + at, "\xEF\xBB\xBF", 3) == 0))
        return 0;
    return at;
}

/* Appends the rows of tail to head; -1 when their widths differ or the whole is over the
 * limits (which the reading in one piece then reports where it happens). */
static int join_halves(as_rd_matrix *head, as_rd_matrix *tail)
{
    size_t rows = head->rows + tail->rows, cols = head->rows > 0 ? head->cols : tail->cols;
    double *v;

    if (tail->rows == 0)
        return 0; /* notes and blank lines only */
    if (head->rows > 0 && tail->cols != head->cols)
        return -1;
    if (rows > AS_MAX_DIM || !as_shape_ok(rows, cols))
        return -1;
    v = realloc(head->v, rows * cols * sizeof *v);
    if (v == NULL)
        return -1;
    memcpy(v + head->rows * cols, tail->v, tail->rows * cols * sizeof *v);
    head->v = v;
    head->cap = rows * cols;
    head->rows = rows;
    head->cols = cols;
    return 0;
}

/* Reads text[0..len) into b (fresh) on two threads; 0 when that gave the whole matrix,
 * -1 when the file is small, has no split point, or did not read cleanly in halves. */
static int load_in_halves(const as_reader *file, as_rd_matrix *b, const char *text, size_t len)
{
    half h[2];
    size_t at = len >= SPLIT_MIN ? split_point(text, len) : 0;
    int rc = -1;

    if (at == 0)
        return -1;
    half_init(&h[0], file, b, text, at);
    half_init(&h[1], file, b, text + at, len - at);
    as_two_threads(read_half, &h[0], read_half, &h[1]);
    if (h[0].rc == 0 && h[1].rc == 0 && join_halves(&h[0].b, &h[1].b) == 0) {
        *b = h[0].b; /* b gets the values; h[0] gives them up */
        h[0].b.v = NULL;
        rc = 0;
    }
    free(h[0].b.v);
    free(h[1].b.v);
    return rc;
}

/* ------------------------------------------------------------------ the file ---- */

/* Reads the matrix of a loaded file (already read into text) into b: in two halves at
 * once when it is large and clean, else in one piece. */
static int load_text(as_reader *file, as_rd_matrix *b, const char *text, size_t len)
{
    if (load_in_halves(file, b, text, len) != 0) {
        if (as_reader_start(file, text, len) != 0)
            return -1;
        if (file->c.p == file->c.end)
            return as_reader_err_pos(file, NULL, no_pos, AS_MSG_LD_PLAIN_ROWS_HINT, AS_MSG_LD_FILE_EMPTY);
        if (as_reader_plain_rows(file, b) != 0)
            return -1;
    }
    if (b->rows == 0)
        return as_reader_err_pos(file, NULL, no_pos, AS_MSG_LD_PLAIN_ROWS_HINT, AS_MSG_LD_NO_NUMBERS);
    if ((b->flags & AS_RD_ONE_ROW) && b->cols == 1) {
        b->cols = b->rows; /* numpy.savetxt writes a 1-D bias one number per line */
        b->rows = 1;
    }
    return 0;
}

/* 0 when path may be opened for load(), else ENODEV: a device or a pipe named by an
 * input (/dev/zero, a FIFO) could block at open or never end, so only regular files
 * (and directories and missing files, which reading reports) get that far. */
static int loadable(const char *path)
{
    struct stat st;

    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
        return ENODEV;
    return 0;
}

/* The file name[0..n) of the input read by r: at is where the name stands in the input,
 * for errors about the file as a whole; errors inside it are reported at its own lines. */
static int load_matrix(as_reader *r, as_rd_matrix *b, const char *name, size_t n, as_pos at)
{
    as_reader file;
    char *path, *text = NULL, why[128];
    size_t len = 0;
    int e, rc = -1;

    path = resolve(r->path, name, n);
    if (path == NULL) {
        as_reader_err_pos(r, NULL, at, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
        goto fail;
    }
    as_reader_init(&file, path, r->err, NULL, NULL);
    e = loadable(path);
    if (e == 0) /* read, not mapped: a file cut short under a mapping would kill us (SIGBUS) */
        e = as_lex_read_file(path, 0, &text, &len);
    if (e != 0) {
        as_reader_err_pos(r, NULL, at, AS_MSG_LD_RELATIVE_HINT, AS_MSG_LD_CANNOT_LOAD, path,
                          as_msg_errno(why, sizeof why, r->err->lang, e));
        goto fail;
    }
    if (load_text(&file, b, text, len) != 0)
        goto fail;
    rc = 0;
fail:
    free(path);
    free(text);
    return rc;
}

/* A load( ... ) statement that is not written right (msg), at byte q: the hint shows
 * how to write it for m. Returns -1. */
static int load_syntax(as_reader *r, const char *q, const as_rd_matrix *m, as_msg msg)
{
    as_reader_err_at(r, q, AS_RD_NO_HINT, msg);
    as_error_hint_msg(r->err, AS_MSG_LD_WRITE_HINT, m->name);
    return -1;
}

int as_load_statement(as_reader *r, as_rd_matrix *m)
{
    as_cursor *c = &r->c;
    const char *name, *open_quote;
    char quote;
    size_t n;
    as_pos at;

    c->p += 4;
    as_cursor_skip_blanks(c);
    if (c->p >= c->end || *c->p != '(')
        return load_syntax(r, c->p, m, AS_MSG_LD_OPEN_PAREN);
    c->p++;
    as_cursor_skip_blanks(c);
    if (c->p >= c->end || (*c->p != '"' && *c->p != '\''))
        return load_syntax(r, c->p, m, AS_MSG_LD_NAME_IN_QUOTES);
    open_quote = c->p;
    quote = *c->p++;
    name = c->p;
    while (c->p < c->end && *c->p != quote && *c->p != '\n' && *c->p != '\r')
        c->p++;
    if (c->p >= c->end || *c->p != quote)
        return load_syntax(r, open_quote, m, AS_MSG_LD_NO_CLOSING_QUOTE);
    if (c->p == name)
        return load_syntax(r, open_quote, m, AS_MSG_LD_EMPTY_NAME);
    at = as_reader_pos(r, name);
    n = (size_t)(c->p - name);
    c->p++;
    as_cursor_skip_blanks(c);
    if (c->p >= c->end || *c->p != ')')
        return load_syntax(r, c->p, m, AS_MSG_LD_CLOSE_PAREN);
    c->p++;
    if (load_matrix(r, m, name, n, at) != 0)
        return -1;
    r->closed_here = m->name;
    return 0;
}
