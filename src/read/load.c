/* load.c - NAME = load("file.txt"): finding and reading the file, the quick way in
 * chunks (a large one in two parts at once) or else in one piece by the full grammar.
 * The rows themselves are read by reader.c. */
#include "attnstep/load.h"
#include "attnstep/lex.h"
#include "attnstep/tensor.h"
#include "attnstep/threads.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const as_pos no_pos = {0, 0};

char *as_load_resolve(const char *input_path, const char *name, size_t n)
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

/* ------------------------------------------------------------------ the quick way ---- */

/* A loaded file is first read the quick way: in chunks of a reused buffer (no copy of
 * the whole file, no pass over its bytes before the numbers), with as_reader_quick_rows,
 * a large one in PARTS parts split at the start of a line (no row, comment or UTF-8
 * character spans a split), the two threads taking the parts as they come free (the
 * two cores often run at different speeds, and a part that meets fresh pages takes
 * longer: halves fixed in advance left one thread waiting a fifth of the time). Only a
 * clean read is kept: at anything the quick way does not read, in any part, or parts
 * that do not fit together (widths, limits), the file is read again in one piece by the
 * full grammar, which reports the first error in file order at its exact line and
 * column. */
#ifndef AS_LOAD_SPLIT_MIN /* the fuzz build sets both small, so that its inputs cross them */
#define AS_LOAD_SPLIT_MIN ((size_t)1 << 20)
#endif
#ifndef AS_LOAD_CHUNK
#define AS_LOAD_CHUNK ((size_t)1 << 18) /* 256 KiB: stays in the cache while read */
#endif
#define SPLIT_MIN AS_LOAD_SPLIT_MIN
#define CHUNK AS_LOAD_CHUNK
#define PARTS 4 /* of a file of SPLIT_MIN bytes or more */
#define FIRST_READ (CHUNK / 4) /* the head's first read, alone: a few rows tell the rest */

/* One part of the file: its bytes [from, to), the chunk being read and the rows read. */
typedef struct part {
    int fd;
    off_t from, to, at; /* at: the next byte to read */
    size_t expect;      /* bytes whose rows b should have room for (the whole file for part 1) */
    char *buf;          /* the chunk: have bytes in it, room for cap */
    size_t cap, have, done; /* done: the bytes already read into rows */
    int sized;          /* b's room is set (by presize, or as a window of a shared array) */
    as_rd_matrix b;
    int rc;             /* 1 while reading, then 0 when all read the quick way, else -1 */
} part;

/* A count of rows, with room to spare: rows of the same text vary a little in length. */
static size_t with_margin(double rows)
{
    return (size_t)rows + (size_t)rows / 16 + 32;
}

/* After the first rows of h: room for the rows its bytes should hold, guessed from the
 * bytes per row so far, in one allocation (huge pages where offered). */
static void presize(part *h)
{
    as_rd_matrix *b = &h->b;
    size_t rows = with_margin((double)h->expect * (double)b->rows / (double)h->done);
    size_t most = AS_MAX_CELLS / b->cols;
    double *v;

    if (most > AS_MAX_DIM)
        most = AS_MAX_DIM;
    if (rows > most)
        rows = most;
    if (rows * b->cols <= b->cap)
        return;
    v = as_tensor_big_array(rows * b->cols);
    if (v == NULL)
        return; /* only a guess: growth goes on geometrically */
    memcpy(v, b->v, b->rows * b->cols * sizeof *v);
    free(b->v);
    b->v = v;
    b->cap = rows * b->cols;
}

/* Where the whole lines of buf[0..have) end: just past the last "\n", 0 when none. */
static size_t whole_lines(const char *buf, size_t have)
{
    while (have > 0 && buf[have - 1] != '\n')
        have--;
    return have;
}

static void part_start(part *h, int fd, off_t from, off_t to, size_t expect, unsigned flags)
{
    memset(h, 0, sizeof *h);
    h->fd = fd;
    h->from = h->at = from;
    h->to = to;
    h->expect = expect;
    h->b.flags = flags;
    h->cap = CHUNK;
    h->buf = malloc(h->cap);
    h->rc = h->buf != NULL ? 1 : -1;
}

/* Ends the reading of h with rc; returns 0. */
static int part_end(part *h, int rc)
{
    h->rc = rc;
    free(h->buf);
    h->buf = NULL;
    return 0;
}

/* Reads the next chunk of h's bytes and its whole lines the quick way. Returns 1 while
 * there is more, 0 when h is done (h->rc 0 when all of it read the quick way). */
static int read_step(part *h)
{
    size_t lines, want;
    ssize_t got;
    char *grown;

    if (h->rc != 1)
        return 0;
    if (h->at >= h->to && h->have == 0)
        return part_end(h, 0);
    if (h->have == h->cap) { /* a line longer than the buffer */
        if ((grown = realloc(h->buf, h->cap * 2)) == NULL)
            return part_end(h, -1);
        h->buf = grown;
        h->cap *= 2;
    }
    if (h->at < h->to) {
        want = (size_t)(h->to - h->at) < h->cap - h->have ? (size_t)(h->to - h->at) : h->cap - h->have;
        if (h->done == 0 && want > FIRST_READ)
            want = FIRST_READ; /* until the first rows: the other parts wait for them */
        got = pread(h->fd, h->buf + h->have, want, h->at);
        if (got <= 0)
            return part_end(h, -1); /* cut short or unreadable: the full read says so */
        h->at += got;
        h->have += (size_t)got;
    }
    lines = h->at < h->to ? whole_lines(h->buf, h->have) : h->have;
    if (lines == 0)
        return 1;
    if (as_reader_quick_rows(&h->b, h->buf, lines) != 0)
        return part_end(h, -1);
    h->done += lines;
    if (!h->sized && h->b.rows > 0) {
        presize(h);
        h->sized = 1;
    }
    memmove(h->buf, h->buf + lines, h->have - lines);
    h->have -= lines;
    return 1;
}

/* The thread body: reads the rest of h's bytes. */
static void read_part(void *arg)
{
    while (read_step(arg))
        ;
}

/* Part i of the array of parts at arg, on whichever thread is free. */
static void read_each(void *arg, size_t i, int thread)
{
    (void)thread;
    read_part((part *)arg + i);
}

/* The offset just after the first "\n" at or past byte from of the size bytes of fd;
 * 0 when there is none. */
static off_t line_after(int fd, off_t from, off_t size)
{
    char window[4096];
    off_t at = from;
    ssize_t got, i;

    while (at < size && (got = pread(fd, window, sizeof window, at)) > 0) {
        for (i = 0; i < got; i++)
            if (window[i] == '\n')
                return at + i + 1 < size ? at + i + 1 : 0;
        at += got;
    }
    return 0;
}

/* Where the parts of a file of size bytes start: at[0] = 0, at[i] just after a line end
 * near i/PARTS of the way, at[count] = size. Returns the count (1 for a small file). */
static size_t split_points(int fd, off_t size, off_t at[PARTS + 1])
{
    size_t count = 1, i;
    off_t p;

    at[0] = 0;
    for (i = 1; i < PARTS && (size_t)size >= SPLIT_MIN; i++)
        if ((p = line_after(fd, size / PARTS * (off_t)i, size)) > at[count - 1])
            at[count++] = p;
    at[count] = size;
    return count;
}

/* Once the head has its first rows: every other part reads its rows straight into the
 * head's array, in a window after room for the parts before it (each guessed with a
 * margin from the bytes per row so far), so that joining the parts moves rows within
 * memory already touched, instead of copying them into new pages (a page fault and a
 * page cleared for every 2 MiB or 4 KiB, after all parts are done). Each part's room is
 * fixed: a part that needs more fails, and the file is read again with an array each.
 * Returns the room of the whole array, or 0 when not shared (nothing changed). */
static size_t share_array(part *h, size_t count)
{
    as_rd_matrix *b = &h[0].b;
    const double per_byte = (double)b->rows / (double)h[0].done;
    const size_t cols = b->cols;
    size_t window[PARTS + 1], i;
    double *v;

    window[0] = 0;
    for (i = 0; i < count; i++)
        window[i + 1] = window[i] + with_margin(per_byte * (double)(h[i].to - h[i].from));
    if (window[count] > AS_MAX_DIM || !as_shape_ok(window[count], cols))
        return 0;
    if (b->cap < window[count] * cols) {
        if ((v = as_tensor_big_array(window[count] * cols)) == NULL)
            return 0;
        memcpy(v, b->v, b->rows * cols * sizeof *v);
        free(b->v);
        b->v = v;
        b->cap = window[count] * cols;
    }
    window[count] = b->cap / cols; /* the last part gets what room is left */
    for (i = 0; i < count; i++) {
        h[i].b.v = b->v + window[i] * cols;
        h[i].b.cap = (window[i + 1] - window[i]) * cols;
        h[i].b.flags |= AS_RD_FIXED;
        h[i].sized = 1;
    }
    return window[count] * cols;
}

/* Nonzero when part h failed for want of room in its window of a shared array. */
static int out_of_room(const part *h)
{
    const as_rd_matrix *b = &h->b;

    return h->rc != 0 && b->rows > 0 && (b->rows + 1) * b->cols > b->cap;
}

/* Appends the rows of the tail to the head: from its window of the head's array, whose
 * whole room is shared (in doubles), or when shared is 0 from its own array; -1 when
 * their widths differ or the whole is over the limits (which the reading in one piece
 * then reports where it happens). */
static int join_parts(as_rd_matrix *head, as_rd_matrix *tail, size_t shared)
{
    size_t rows = head->rows + tail->rows, cols = head->rows > 0 ? head->cols : tail->cols;
    double *v;

    if (tail->rows == 0)
        return 0; /* notes and blank lines only */
    if (head->rows > 0 && tail->cols != head->cols)
        return -1;
    if (rows > AS_MAX_DIM || !as_shape_ok(rows, cols))
        return -1;
    if (shared > 0) {
        memmove(head->v + head->rows * cols, tail->v, tail->rows * cols * sizeof *head->v);
        head->cap = shared;
    } else {
        if (head->cap < rows * cols) {
            v = realloc(head->v, rows * cols * sizeof *v);
            if (v == NULL)
                return -1;
            head->v = v;
            head->cap = rows * cols;
        }
        memcpy(head->v + head->rows * cols, tail->v, tail->rows * cols * sizeof *head->v);
    }
    head->rows = rows;
    head->cols = cols;
    return 0;
}

/* Joins the parts h[0 .. count) into h[0] once every one was read the quick way;
 * 0 when that gave the whole matrix. */
static int join_all(part *h, size_t count, size_t shared)
{
    size_t i;

    if (h[0].rc != 0 || h[0].b.rows == 0)
        return -1;
    for (i = 1; i < count; i++)
        if (h[i].rc != 0 || join_parts(&h[0].b, &h[i].b, shared) != 0)
            return -1;
    return 0;
}

/* Reads the file at path into b (fresh) the quick way, in parts sharing one array when
 * share is set; 0 when that gave the whole matrix, 1 when it should be tried again
 * without sharing, -1 when the full read must decide (also when the file cannot be
 * opened, or is no regular file, or is over the size limit: the full read reports
 * those). */
static int load_quick(const char *path, as_rd_matrix *b, int share)
{
    part h[PARTS];
    struct stat st;
    off_t at[PARTS + 1];
    size_t count = 0, shared = 0, i;
    int fd, rc = -1, short_of_room = 0;

    if (as_lex_open(path, &fd, &st) != 0)
        return -1;
    if ((uintmax_t)st.st_size > AS_MAX_INPUT)
        goto done;
    count = split_points(fd, st.st_size, at);
    for (i = 0; i < count; i++) /* the head expects the whole file, for its own room */
        part_start(&h[i], fd, at[i], at[i + 1], (size_t)(i == 0 ? st.st_size : at[i + 1] - at[i]),
                   b->flags);
    if (count > 1) {
        h[0].sized = share; /* share_array sizes the head's array, not presize */
        while (share && h[0].b.rows == 0 && read_step(&h[0]))
            ; /* the head's first rows tell the other parts where their own go */
        if (share && h[0].rc == 1 && h[0].b.rows > 0)
            shared = share_array(h, count);
        as_two_threads_each(count, read_each, h);
    } else
        read_part(&h[0]);
    if (join_all(h, count, shared) == 0) {
        b->v = h[0].b.v; /* b gets the values; h[0] gives them up */
        b->rows = h[0].b.rows;
        b->cols = h[0].b.cols;
        b->cap = h[0].b.cap;
        h[0].b.v = NULL;
        rc = 0;
    }
    for (i = 0; i < count; i++) {
        short_of_room |= shared > 0 && out_of_room(&h[i]);
        if (i == 0 || shared == 0)
            free(h[i].b.v);
        free(h[i].buf);
    }
    if (rc != 0 && short_of_room)
        rc = 1;
done:
    close(fd);
    return rc;
}

/* ------------------------------------------------------------------ the file ---- */

/* Reads the matrix of a loaded file (already read into text) into b by the full
 * grammar, in one piece. */
static int load_text(as_reader *file, as_rd_matrix *b, const char *text, size_t len)
{
    if (as_reader_start(file, text, len) != 0)
        return -1;
    if (file->c.p == file->c.end)
        return as_reader_err_pos(file, NULL, no_pos, AS_MSG_LD_PLAIN_ROWS_HINT, AS_MSG_LD_FILE_EMPTY);
    if (as_reader_plain_rows(file, b) != 0)
        return -1;
    if (b->rows == 0)
        return as_reader_err_pos(file, NULL, no_pos, AS_MSG_LD_PLAIN_ROWS_HINT, AS_MSG_LD_NO_NUMBERS);
    return 0;
}

/* What a load( ... ) statement asks for: the file (name[0..n) at at in the input), the
 * tensor (member[0..member_n) at member_at, or NULL), and the slice [a:b, c:d] (slice
 * dims 0 when none; its text [slice_text, slice_end) at slice_at). */
typedef struct load_req {
    const char *name, *member, *slice_text, *slice_end;
    size_t n, member_n, slice_dims;
    as_pos at, member_at, slice_at;
    struct { uint64_t a, b; int to_end; } slice[2]; /* to_end: "a:" or ":" */
} load_req;

/* The part of a tensor of ndim dimensions (1: one row of cols) that q's slice takes,
 * into *s: the whole when q has none. 0, or -1 with the error at the slice. */
static int slice_of(as_reader *r, const load_req *q, size_t ndim, uint64_t rows, uint64_t cols,
                    const char *shape, as_tensor_slice *s)
{
    uint64_t *from[2] = {&s->r0, &s->c0}, *to[2] = {&s->r1, &s->c1}, len[2] = {rows, cols};
    char text[64];
    size_t i, d;

    s->r0 = s->c0 = 0, s->r1 = rows, s->c1 = cols;
    if (q->slice_dims == 0)
        return 0;
    if (ndim == 1 && q->slice_dims == 2)
        return as_reader_err_pos(r, NULL, q->slice_at, AS_MSG_LD_SLICE_HINT, AS_MSG_LD_SLICE_1D, shape);
    for (i = 0; i < q->slice_dims; i++) {
        d = ndim == 1 ? 1 : i; /* a 1-D tensor's one slice takes columns of its one row */
        *from[d] = q->slice[i].a;
        *to[d] = q->slice[i].to_end ? len[d] : q->slice[i].b;
        if (*from[d] >= *to[d] || *to[d] > len[d]) {
            as_lex_quote(text, sizeof text, q->slice_text, (size_t)(q->slice_end - q->slice_text));
            return as_reader_err_pos(r, NULL, q->slice_at, AS_MSG_LD_SLICE_OUTSIDE_HINT,
                                     AS_MSG_LD_SLICE_OUTSIDE, text, shape);
        }
    }
    return 0;
}

/* Keeps the place of the tensor q asks for in ref instead of reading it (ref's file and
 * name copied): b gets the slice's shape and no values. 0, or -1 (memory). */
static int keep_ref(as_reader *r, as_rd_matrix *b, const char *path, const load_req *q,
                    const as_tensor_slice *s, as_load_ref *ref)
{
    ref->path = malloc(strlen(path) + 1);
    ref->member = q->member != NULL ? malloc(q->member_n + 1) : NULL;
    if (ref->path == NULL || (q->member != NULL && ref->member == NULL)) {
        as_load_ref_free(ref);
        return as_reader_err_pos(r, NULL, q->at, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
    }
    strcpy(ref->path, path);
    if (q->member != NULL) {
        memcpy(ref->member, q->member, q->member_n);
        ref->member[q->member_n] = '\0';
    }
    ref->member_n = q->member_n;
    ref->r0 = s->r0, ref->c0 = s->c0;
    ref->rows = b->rows = (size_t)(s->r1 - s->r0);
    ref->cols = b->cols = (size_t)(s->c1 - s->c0);
    ref->at = q->at;
    b->v = NULL;
    b->cap = 0;
    return 0;
}

/* Reads the tensor q asks for from the binary file path (open as fd, or in mem[0..size))
 * into b; with ref (and a file open as fd), only its place, into ref (keep_ref). 0, or
 * -1 with the error set at the file's name in the input. */
static int load_tensor(as_reader *r, as_rd_matrix *b, const char *path, int fd,
                       const unsigned char *mem, uint64_t size, const load_req *q,
                       as_load_ref *ref)
{
    as_tensor_where where = {r->err, r->path, q->at.line, q->at.col};
    as_tensor_file f;
    const as_tensor *t;
    as_tensor_slice s;
    uint64_t rows, cols;
    char shape[256];
    double *v;
    int rc = -1;

    if (as_tensor_open(&f, path, fd, mem, size, where) != 0)
        return -1;
    if ((t = as_tensor_find(&f, q->member, q->member_n)) == NULL ||
        as_tensor_matrix_shape(&f, t, &rows, &cols) != 0)
        goto done;
    as_tensor_shape_text(shape, sizeof shape, t);
    if (slice_of(r, q, t->ndim, rows, cols, shape, &s) != 0)
        goto done;
    if (ref != NULL && mem == NULL) {
        rc = keep_ref(r, b, path, q, &s, ref);
        goto done;
    }
    if (as_tensor_read(&f, t, s, (b->flags & AS_RD_NEG_INF) != 0, &v) != 0)
        goto done;
    b->v = v;
    b->rows = (size_t)(s.r1 - s.r0);
    b->cols = (size_t)(s.c1 - s.c0);
    b->cap = b->rows * b->cols;
    rc = 0;
done:
    as_tensor_close(&f);
    return rc;
}

/* The file at path when it is a binary weight file: 1 when it is not (or cannot be
 * opened: the text reading says why), else as load_tensor(). */
static int load_binary(as_reader *r, as_rd_matrix *b, const char *path, const load_req *q,
                       as_load_ref *ref)
{
    unsigned char head[9];
    struct stat st;
    ssize_t got;
    int fd, rc = 1;

    if (as_lex_open(path, &fd, &st) != 0) /* not a regular file: the text reading says why */
        return 1;
    if ((got = pread(fd, head, sizeof head, 0)) > 0 &&
        as_tensor_sniff(head, (size_t)got, (uint64_t)st.st_size) != AS_TF_NONE)
        rc = load_tensor(r, b, path, fd, NULL, (uint64_t)st.st_size, q, ref);
    close(fd);
    return rc;
}

/* A text matrix in b cut to q's slice (a one-row file is 1-D, as numpy.loadtxt reads it). */
static int slice_text(as_reader *r, as_rd_matrix *b, const load_req *q)
{
    as_tensor t;
    as_tensor_slice s;
    char shape[64];
    size_t i, w;
    double *v;

    if (q->slice_dims == 0)
        return 0;
    memset(&t, 0, sizeof t);
    t.ndim = b->rows == 1 ? 1 : 2;
    t.shape[0] = t.ndim == 1 ? b->cols : b->rows;
    t.shape[1] = b->cols;
    as_tensor_shape_text(shape, sizeof shape, &t);
    if (slice_of(r, q, t.ndim, b->rows, b->cols, shape, &s) != 0)
        return -1;
    w = (size_t)(s.c1 - s.c0);
    if ((v = malloc((size_t)(s.r1 - s.r0) * w * sizeof *v)) == NULL)
        return as_reader_err_pos(r, NULL, q->at, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
    for (i = (size_t)s.r0; i < s.r1; i++)
        memcpy(v + (i - s.r0) * w, b->v + i * b->cols + s.c0, w * sizeof *v);
    free(b->v);
    b->v = v;
    b->rows = (size_t)(s.r1 - s.r0);
    b->cols = b->cap = w;
    b->cap *= b->rows;
    return 0;
}

/* Reads the file at path into b: a binary weight file (*binary set) as load_tensor()
 * does, else a text file. 0, or -1 with the error set. */
static int read_file(as_reader *r, as_rd_matrix *b, const char *path, const load_req *q,
                     int *binary, as_load_ref *ref)
{
    as_reader file;
    char *text = NULL, why[128];
    size_t len = 0;
    int e, rc;

    *binary = 1;
    if ((rc = load_binary(r, b, path, q, ref)) != 1)
        return rc;
    *binary = 0;
    if ((rc = load_quick(path, b, 1)) == 0 || (rc == 1 && load_quick(path, b, 0) == 0))
        return 0;
    /* read, not mapped: a file cut short under a mapping would kill us (SIGBUS) */
    e = as_lex_read_file(path, 0, &text, &len);
    if (e != 0) /* where the path is taken from helps a path that finds no file, not a size */
        return as_reader_err_pos(r, NULL, q->at,
                                 e == ENOENT || e == ENOTDIR || e == EISDIR ? AS_MSG_LD_RELATIVE_HINT
                                                                            : AS_RD_NO_HINT,
                                 AS_MSG_LD_CANNOT_LOAD, path,
                                 as_msg_errno(why, sizeof why, r->err->lang, e));
    as_reader_init(&file, path, r->err, NULL, NULL);
    if ((*binary = as_tensor_sniff((const unsigned char *)text, len, len) != AS_TF_NONE))
        rc = load_tensor(r, b, path, -1, (const unsigned char *)text, len, q, NULL); /* the fuzzers' files */
    else
        rc = load_text(&file, b, text, len);
    free(text);
    return rc;
}

/* The file q names, of the input read by r: errors about the file as a whole, and about
 * a binary file's insides, at its name in the input; errors inside a text file at its own
 * lines. */
static int load_matrix(as_reader *r, as_rd_matrix *b, const load_req *q, as_load_ref *ref)
{
    char *path = as_load_resolve(r->path, q->name, q->n);
    int binary = 0, rc;

    if (path == NULL)
        return as_reader_err_pos(r, NULL, q->at, AS_RD_NO_HINT, AS_MSG_RD_OUT_OF_MEMORY);
    rc = read_file(r, b, path, q, &binary, ref);
    if (rc == 0 && !binary && q->member != NULL) {
        rc = as_reader_err_pos(r, NULL, q->member_at, AS_RD_NO_HINT, AS_MSG_BIN_ONE_ONLY, path);
        as_error_hint_msg(r->err, AS_MSG_BIN_ONE_ONLY_HINT, path);
    }
    if (rc == 0 && !binary && (b->flags & AS_RD_ONE_ROW) && b->cols == 1) {
        b->cols = b->rows; /* numpy.savetxt writes a 1-D bias one number per line */
        b->rows = 1;
    }
    if (rc == 0 && !binary)
        rc = slice_text(r, b, q);
    free(path);
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

/* A quoted name at the cursor ("…" or '…', on one line, not empty) into [*s, *s + *n)
 * and its place *at; the cursor moves past it. 0, or -1 with the error set. */
static int quoted(as_reader *r, const as_rd_matrix *m, const char **s, size_t *n, as_pos *at)
{
    as_cursor *c = &r->c;
    const char *open_quote;
    char quote;

    as_cursor_skip_blanks(c);
    if (c->p >= c->end || (*c->p != '"' && *c->p != '\''))
        return load_syntax(r, c->p, m, AS_MSG_LD_NAME_IN_QUOTES);
    open_quote = c->p;
    quote = *c->p++;
    *s = c->p;
    while (c->p < c->end && *c->p != quote && *c->p != '\n' && *c->p != '\r')
        c->p++;
    if (c->p >= c->end || *c->p != quote)
        return load_syntax(r, open_quote, m, AS_MSG_LD_NO_CLOSING_QUOTE);
    if (c->p == *s)
        return load_syntax(r, open_quote, m, AS_MSG_LD_EMPTY_NAME);
    *at = as_reader_pos(r, *s);
    *n = (size_t)(c->p - *s);
    c->p++;
    return 0;
}

/* An index of a slice at the cursor, when there is one: decimal digits (at most 2^62).
 * 0, or -1 with the error set (quoting the whole index) when it is larger. */
static int slice_index(as_reader *r, uint64_t *v, int *given)
{
    as_cursor *c = &r->c;
    const char *start;

    as_cursor_skip_blanks(c);
    start = c->p;
    *v = 0;
    *given = c->p < c->end && *c->p >= '0' && *c->p <= '9';
    for (; c->p < c->end && *c->p >= '0' && *c->p <= '9'; c->p++) {
        if (*v > ((uint64_t)1 << 62) / 10) {
            char q[64];

            while (c->p < c->end && *c->p >= '0' && *c->p <= '9')
                c->p++;
            as_lex_quote(q, sizeof q, start, (size_t)(c->p - start));
            return as_reader_err_at(r, start, AS_MSG_LD_SLICE_HINT, AS_MSG_LD_SLICE_INDEX_HUGE, q);
        }
        *v = *v * 10 + (uint64_t)(*c->p - '0');
    }
    as_cursor_skip_blanks(c);
    return 0;
}

/* The slice "[a:b]" or "[a:b, c:d]" at the cursor (each index may be left out) into q. */
static int slice_syntax(as_reader *r, load_req *q)
{
    as_cursor *c = &r->c;
    const char *end;
    int given;
    char text[64];

    q->slice_text = c->p;
    q->slice_at = as_reader_pos(r, c->p);
    c->p++; /* "[" */
    for (q->slice_dims = 0; q->slice_dims < 2;) {
        if (slice_index(r, &q->slice[q->slice_dims].a, &given) != 0)
            return -1;
        if (c->p >= c->end || *c->p != ':')
            break;
        c->p++;
        if (slice_index(r, &q->slice[q->slice_dims].b, &given) != 0)
            return -1;
        q->slice[q->slice_dims++].to_end = !given;
        if (c->p < c->end && *c->p == ']') {
            q->slice_end = ++c->p;
            return 0;
        }
        if (c->p >= c->end || *c->p != ',')
            break;
        c->p++;
    }
    for (end = c->p; end < c->end && end - c->p < 20 && *end != '\n' && *end != '\r'; end++)
        ;
    if (end == c->p) /* the line ends inside the slice: nothing to quote */
        return as_reader_err_at(r, c->p, AS_MSG_LD_SLICE_HINT, AS_MSG_LD_SLICE_UNCLOSED);
    as_lex_quote(text, sizeof text, c->p, (size_t)(end - c->p));
    return as_reader_err_at(r, c->p, AS_MSG_LD_SLICE_HINT, AS_MSG_LD_SLICE_SYNTAX, text);
}

/* load("file"[, "tensor"])[slice] at the cursor into m, or with ref only its place. */
static int statement(as_reader *r, as_rd_matrix *m, as_load_ref *ref)
{
    as_cursor *c = &r->c;
    load_req q;

    memset(&q, 0, sizeof q);
    c->p += 4;
    as_cursor_skip_blanks(c);
    if (c->p >= c->end || *c->p != '(')
        return load_syntax(r, c->p, m, AS_MSG_LD_OPEN_PAREN);
    c->p++;
    if (quoted(r, m, &q.name, &q.n, &q.at) != 0)
        return -1;
    as_cursor_skip_blanks(c);
    if (c->p < c->end && *c->p == ',') { /* the tensor: load("m.safetensors", "wte.weight") */
        c->p++;
        if (quoted(r, m, &q.member, &q.member_n, &q.member_at) != 0)
            return -1;
        as_cursor_skip_blanks(c);
    }
    if (c->p >= c->end || *c->p != ')')
        return load_syntax(r, c->p, m, AS_MSG_LD_CLOSE_PAREN);
    c->p++;
    if (c->p < c->end && *c->p == '[' && slice_syntax(r, &q) != 0)
        return -1;
    if (load_matrix(r, m, &q, ref) != 0)
        return -1;
    r->closed_here = m->name;
    return 0;
}

int as_load_statement(as_reader *r, as_rd_matrix *m)
{
    return statement(r, m, NULL);
}

int as_load_statement_ref(as_reader *r, as_rd_matrix *m, as_load_ref *ref)
{
    memset(ref, 0, sizeof *ref);
    return statement(r, m, ref);
}

int as_load_ref_rows(const as_load_ref *ref, const char *input_path, as_error *err,
                     const size_t *rows, size_t n, double *out)
{
    as_tensor_where where = {err, input_path, ref->at.line, ref->at.col};
    as_tensor_file f;
    const as_tensor *t;
    uint64_t tr, tc;
    size_t k;
    double *row;
    int rc = -1;

    if (as_tensor_open_path(&f, ref->path, where) != 0)
        return -1;
    if ((t = as_tensor_find(&f, ref->member, ref->member_n)) == NULL ||
        as_tensor_matrix_shape(&f, t, &tr, &tc) != 0)
        goto done;
    if (tr < ref->r0 + ref->rows || tc < ref->c0 + ref->cols) { /* changed since it was indexed */
        as_error_msg(err, input_path, ref->at.line, ref->at.col, AS_MSG_LD_CANNOT_LOAD, ref->path,
                     as_msg_text(err->lang, AS_MSG_LD_CHANGED));
        goto done;
    }
    for (k = 0; k < n; k++) {
        const as_tensor_slice s = {ref->r0 + rows[k], ref->r0 + rows[k] + 1, ref->c0,
                                   ref->c0 + ref->cols};
        if (as_tensor_read(&f, t, s, 0, &row) != 0)
            goto done;
        memcpy(out + k * ref->cols, row, ref->cols * sizeof *row);
        free(row);
    }
    rc = 0;
done:
    as_tensor_close(&f);
    return rc;
}

void as_load_ref_free(as_load_ref *ref)
{
    free(ref->path);
    free(ref->member);
    memset(ref, 0, sizeof *ref);
}
