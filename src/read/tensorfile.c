/* tensorfile.c - what the readers of the binary formats share: reading bytes at an
 * offset, the file's list of tensors, the checks of a tensor's room against the file,
 * and the one way an error about a binary file is written. */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE (Linux); without it the hint is left out */
#include "attnstep/tensorfile.h"
#include "attnstep/lex.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void as_tensor_shape_text(char *buf, size_t size, const as_tensor *t)
{
    size_t i, used = 0;

    used += (size_t)snprintf(buf, size, "(");
    for (i = 0; i < t->ndim && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%llu", i ? ", " : "",
                                 (unsigned long long)t->shape[i]);
    if (used < size)
        snprintf(buf + used, size - used, t->ndim == 1 ? ",)" : ")");
}

#define HUGE_PAGE ((size_t)2 << 20)

double *as_tensor_big_array(size_t n)
{
    void *p = NULL;

    if (n * sizeof(double) < HUGE_PAGE)
        return malloc(n * sizeof(double));
    if (posix_memalign(&p, HUGE_PAGE, n * sizeof(double)) != 0)
        return NULL;
#if defined(MADV_HUGEPAGE)
    madvise(p, n * sizeof(double) & ~(HUGE_PAGE - 1), MADV_HUGEPAGE); /* a hint only */
#endif
    return p;
}

const char *as_tensor_blanks(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++;
    return p;
}

int as_tensor_pread(const as_tensor_file *f, uint64_t off, void *buf, size_t n)
{
    unsigned char *p = buf;
    ssize_t got;

    if (off > f->size || n > f->size - off)
        return -1;
    if (f->mem != NULL) {
        memcpy(buf, f->mem + off, n);
        return 0;
    }
    while (n > 0) {
        got = pread(f->fd, p, n, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1; /* cut short since it was measured, or unreadable */
        p += got;
        off += (uint64_t)got;
        n -= (size_t)got;
    }
    return 0;
}

int as_tensor_fail(as_tensor_file *f, const char *name, uint64_t at, as_msg hint, as_msg msg, ...)
{
    as_error *e = f->where.err;
    char what[AS_ERR_MSG], qname[64];
    va_list ap;

    if (e->set)
        return -1; /* the first error wins */
    va_start(ap, msg);
    vsnprintf(what, sizeof what, as_msg_text(e->lang, msg), ap);
    va_end(ap);
    if (name != NULL && name[0] != '\0') {
        as_lex_quote(qname, sizeof qname, name, strlen(name));
        as_error_set(e, f->where.file, f->where.line, f->where.col,
                     as_msg_text(e->lang, AS_MSG_BIN_TENSOR_AT), f->path, qname,
                     (unsigned long long)at, what);
    } else if (at == AS_TENSOR_NO_BYTE)
        as_error_set(e, f->where.file, f->where.line, f->where.col,
                     as_msg_text(e->lang, AS_MSG_BIN_FILE), f->path, what);
    else
        as_error_set(e, f->where.file, f->where.line, f->where.col,
                     as_msg_text(e->lang, AS_MSG_BIN_AT), f->path, (unsigned long long)at, what);
    if (hint != AS_MSG_COUNT)
        as_error_hint_msg(e, hint);
    return -1;
}

int as_tensor_past_end(as_tensor_file *f, const char *name, uint64_t at, as_msg part, uint64_t end,
                       uint64_t limit)
{
    return as_tensor_fail(f, name, at, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_PAST_END,
                          as_msg_text(f->where.err->lang, part), (unsigned long long)end,
                          (unsigned long long)limit);
}

as_tensor *as_tensor_add(as_tensor_file *f, const char *name, size_t n)
{
    as_tensor *t, *grown;
    char *copy;

    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 16;
        if ((grown = realloc(f->t, cap * sizeof *grown)) == NULL)
            goto fail;
        f->t = grown;
        f->cap = cap;
    }
    if ((copy = malloc(n + 1)) == NULL)
        goto fail;
    memcpy(copy, name, n);
    copy[n] = '\0';
    t = &f->t[f->n++];
    memset(t, 0, sizeof *t);
    t->name = copy;
    return t;
fail:
    as_tensor_fail(f, NULL, AS_TENSOR_NO_BYTE, AS_MSG_COUNT, AS_MSG_RD_OUT_OF_MEMORY);
    return NULL;
}

/* The bytes of t's elements into *bytes; 0 when their count or their bytes would
 * overflow 64 bits (a shape no file holds), else 1. */
static int element_bytes(const as_tensor *t, uint64_t *bytes)
{
    uint64_t count = 1;
    size_t i;

    for (i = 0; i < t->ndim; i++) {
        if (t->shape[i] != 0 && count > UINT64_MAX / t->shape[i])
            return 0;
        count *= t->shape[i];
    }
    if (t->itemsize != 0 && count > UINT64_MAX / t->itemsize)
        return 0;
    *bytes = count * t->itemsize;
    return 1;
}

int as_tensor_check_room(as_tensor_file *f, as_tensor *t, uint64_t room, int must_equal)
{
    char shape[256];
    uint64_t need = 0;
    int ok = element_bytes(t, &need);

    if (ok && (must_equal ? need == room : need <= room)) {
        t->bytes = need;
        return 0;
    }
    as_tensor_shape_text(shape, sizeof shape, t);
    if (!ok)
        return as_tensor_fail(f, t->name, t->header, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_SIZE,
                              shape, t->dtype_name, (unsigned long long)UINT64_MAX,
                              (unsigned long long)room);
    return as_tensor_fail(f, t->name, t->offset, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_SIZE, shape,
                          t->dtype_name, (unsigned long long)need, (unsigned long long)room);
}

/* Orders tensors by where their data starts. */
static int by_offset(const void *a, const void *b)
{
    const as_tensor *x = *(const as_tensor *const *)a, *y = *(const as_tensor *const *)b;

    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

int as_tensor_check_overlap(as_tensor_file *f)
{
    const as_tensor **order;
    char other[64];
    size_t i, n = 0;
    int rc = 0;

    if (f->n < 2)
        return 0;
    if ((order = malloc(f->n * sizeof *order)) == NULL)
        return as_tensor_fail(f, NULL, AS_TENSOR_NO_BYTE, AS_MSG_COUNT, AS_MSG_RD_OUT_OF_MEMORY);
    /* an empty tensor holds no byte to share: safetensors writes it at the offset where
     * the next one starts, listed before or after it */
    for (i = 0; i < f->n; i++)
        if (f->t[i].bytes > 0)
            order[n++] = &f->t[i];
    qsort(order, n, sizeof *order, by_offset);
    for (i = 1; i < n && rc == 0; i++)
        if (order[i]->offset < order[i - 1]->offset + order[i - 1]->bytes) {
            as_lex_quote(other, sizeof other, order[i - 1]->name, strlen(order[i - 1]->name));
            rc = as_tensor_fail(f, order[i]->name, order[i]->offset, AS_MSG_BIN_REWRITE_HINT, AS_MSG_BIN_OVERLAP,
                                other);
        }
    free(order);
    return rc;
}
