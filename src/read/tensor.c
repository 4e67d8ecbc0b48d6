/* tensor.c - a binary weight file whatever its format: told by its magic bytes, indexed
 * by its format's reader, and a part of one tensor widened to doubles, exactly. */
#include "attnstep/tensor.h"
#include "attnstep/npy.h"
#include "attnstep/safetensors.h"
#include "attnstep/lex.h"
#include "attnstep/threads.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

as_tensor_format as_tensor_sniff(const unsigned char *head, size_t len, uint64_t size)
{
    if (len >= 6 && memcmp(head, "\x93NUMPY", 6) == 0)
        return AS_TF_NPY;
    if (len >= 4 && (memcmp(head, "PK\3\4", 4) == 0 || memcmp(head, "PK\5\6", 4) == 0))
        return AS_TF_NPZ;
    /* a header length below 2^48 (text has no NUL byte) and the JSON's "{" after it */
    if (len >= 9 && size >= 9 && head[6] == 0 && head[7] == 0 && head[8] == '{')
        return AS_TF_SAFETENSORS;
    return AS_TF_NONE;
}

int as_tensor_open(as_tensor_file *f, const char *path, int fd, const unsigned char *mem,
                   uint64_t size, as_tensor_where where)
{
    unsigned char head[9];
    size_t len = size < sizeof head ? (size_t)size : sizeof head;
    as_tensor *t;
    int rc = -1;

    memset(f, 0, sizeof *f);
    f->path = path, f->fd = fd, f->mem = mem, f->size = size, f->where = where;
    if (as_tensor_pread(f, 0, head, len) != 0)
        len = 0;
    f->format = as_tensor_sniff(head, len, size);
    if (f->format == AS_TF_NPY && (t = as_tensor_add(f, "", 0)) != NULL)
        rc = as_npy_index(f, 0, size, t);
    else if (f->format == AS_TF_NPZ)
        rc = as_npz_index(f);
    else if (f->format == AS_TF_SAFETENSORS)
        rc = as_safetensors_index(f);
    if (rc != 0)
        as_tensor_close(f);
    return rc;
}

int as_tensor_open_path(as_tensor_file *f, const char *path, as_tensor_where where)
{
    unsigned char head[9];
    struct stat st;
    char why[128];
    ssize_t got = 0;
    int fd, e = 0;

    memset(f, 0, sizeof *f);
    f->fd = -1;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) /* a FIFO or a device could block */
        e = S_ISDIR(st.st_mode) ? EISDIR : ENODEV;
    else if ((fd = open(path, O_RDONLY)) < 0)
        e = errno;
    else if (fstat(fd, &st) != 0 || (got = pread(fd, head, sizeof head, 0)) < 0)
        e = errno, close(fd);
    if (e != 0) {
        as_error_msg(where.err, where.file, where.line, where.col, AS_MSG_LD_CANNOT_LOAD, path,
                     as_msg_errno(why, sizeof why, where.err->lang, e));
        return -1;
    }
    if (as_tensor_sniff(head, (size_t)got, (uint64_t)st.st_size) == AS_TF_NONE) {
        close(fd);
        as_error_msg(where.err, where.file, where.line, where.col, AS_MSG_WT_NOT_BINARY, path);
        as_error_hint_msg(where.err, AS_MSG_WT_NOT_BINARY_HINT);
        return -1;
    }
    if (as_tensor_open(f, path, fd, NULL, (uint64_t)st.st_size, where) != 0) {
        close(fd);
        return -1;
    }
    f->own_fd = 1;
    return 0;
}

void as_tensor_close(as_tensor_file *f)
{
    size_t i;

    if (f->own_fd && f->fd >= 0)
        close(f->fd);
    f->own_fd = 0;

    for (i = 0; i < f->n; i++)
        free(f->t[i].name);
    free(f->t);
    f->t = NULL;
    f->n = f->cap = 0;
}

/* The names of f's tensors as a list in the user's words ("a、b和c"), the first few. */
static void name_list(as_tensor_file *f, char *buf, size_t size)
{
    enum { SHOWN = 6 };
    char quoted[SHOWN + 1][72];
    const char *items[SHOWN + 1] = {NULL};
    size_t i, n = f->n < SHOWN ? f->n : SHOWN;

    for (i = 0; i < n; i++) {
        char q[64];
        as_lex_quote(q, sizeof q, f->t[i].name, strlen(f->t[i].name));
        snprintf(quoted[i], sizeof quoted[i], "“%s”", q);
        items[i] = quoted[i];
    }
    if (f->n > SHOWN)
        items[n++] = as_sym_text(0, AS_SYM_ELLIPSIS);
    as_msg_list(buf, size, f->where.err->lang, items, n, AS_MSG_LIST_AND);
}

/* Nonzero when the tensor's name is name[0..n), or is it with ".npy" after it. */
static int named(const as_tensor *t, const char *name, size_t n)
{
    size_t k = strlen(t->name);

    return (k == n && memcmp(t->name, name, n) == 0) ||
           (n == k + 4 && memcmp(t->name, name, k) == 0 && memcmp(name + k, ".npy", 4) == 0);
}

const as_tensor *as_tensor_find(as_tensor_file *f, const char *name, size_t n)
{
    as_error *e = f->where.err;
    char list[AS_ERR_MSG / 2], q[64];
    size_t i;

    for (i = 0; name != NULL && i < f->n; i++)
        if (f->format != AS_TF_NPY && named(&f->t[i], name, n))
            return &f->t[i];
    if (name == NULL && f->n == 1)
        return &f->t[0];
    if (f->n == 0) /* numpy.savez() of no array, a safetensors header of no tensor */
        as_tensor_fail(f, NULL, AS_TENSOR_NO_BYTE, AS_MSG_COUNT, AS_MSG_BIN_NO_TENSORS);
    else if (name != NULL && f->format == AS_TF_NPY) {
        as_tensor_fail(f, NULL, AS_TENSOR_NO_BYTE, AS_MSG_COUNT, AS_MSG_BIN_ONE_ONLY, f->path);
        as_error_hint_msg(e, AS_MSG_BIN_ONE_ONLY_HINT, f->path);
    } else if (name != NULL) {
        name_list(f, list, sizeof list);
        as_lex_quote(q, sizeof q, name, n);
        as_tensor_fail(f, NULL, AS_TENSOR_NO_BYTE, AS_MSG_COUNT, AS_MSG_BIN_NO_TENSOR, q, list);
        as_error_hint_msg(e, AS_MSG_BIN_LIST_HINT, f->path);
    } else {
        as_tensor_fail(f, NULL, AS_TENSOR_NO_BYTE, AS_MSG_COUNT, AS_MSG_BIN_WHICH, f->n);
        as_lex_quote(q, sizeof q, f->t[0].name, strlen(f->t[0].name));
        as_error_hint_msg(e, AS_MSG_BIN_WHICH_HINT, f->path, q);
    }
    return NULL;
}

/* The dtypes read from f's format, as a list in the user's words. */
static void dtypes_read(const as_tensor_file *f, char *buf, size_t size)
{
    static const char *const npy[] = {"<f8", "<f4", "<f2", ">f8", ">f4", ">f2"};
    static const char *const st[] = {"F64", "F32", "F16", "BF16"};

    if (f->format == AS_TF_SAFETENSORS)
        as_msg_list(buf, size, f->where.err->lang, st, 4, AS_MSG_LIST_OR);
    else
        as_msg_list(buf, size, f->where.err->lang, npy, 6, AS_MSG_LIST_OR);
}

int as_tensor_matrix_shape(as_tensor_file *f, const as_tensor *t, uint64_t *rows, uint64_t *cols)
{
    char shape[256], list[128];

    as_tensor_shape_text(shape, sizeof shape, t);
    dtypes_read(f, list, sizeof list);
    if (t->dtype == AS_DT_OTHER)
        return as_tensor_fail(f, t->name, t->header, AS_MSG_BIN_DTYPE_HINT, AS_MSG_BIN_DTYPE,
                              t->dtype_name, list);
    if (t->ndim != 1 && t->ndim != 2)
        return as_tensor_fail(f, t->name, t->header, AS_MSG_BIN_DIMS_HINT, AS_MSG_BIN_DIMS, shape);
    *rows = t->ndim == 1 ? 1 : t->shape[0];
    *cols = t->shape[t->ndim - 1];
    if (*rows == 0 || *cols == 0)
        return as_tensor_fail(f, t->name, t->header, AS_MSG_BIN_DIMS_HINT, AS_MSG_BIN_EMPTY, shape);
    return 0;
}

/* ------------------------------------------------------------------ widening ---- */

/* IEEE half: 1 sign, 5 exponent, 10 fraction bits; every value is a double exactly. */
static double half(unsigned h)
{
    unsigned e = h >> 10 & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, (int)e - 25);

    return h & 0x8000 ? -v : v;
}

/* The size bytes at p as an unsigned integer, big- or little-endian (whatever this
 * machine's order: the compiler makes it one load, or a load and a byte swap). */
static inline uint64_t bits_at(const unsigned char *p, unsigned size, int big)
{
    uint64_t lo, hi;

    if (size == 2)
        return big ? (uint64_t)p[0] << 8 | p[1] : (uint64_t)p[1] << 8 | p[0];
    lo = big ? (uint64_t)p[size - 1] | (uint64_t)p[size - 2] << 8 | (uint64_t)p[size - 3] << 16 |
                   (uint64_t)p[size - 4] << 24
             : (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 | (uint64_t)p[3] << 24;
    if (size == 4)
        return lo;
    hi = big ? (uint64_t)p[3] | (uint64_t)p[2] << 8 | (uint64_t)p[1] << 16 | (uint64_t)p[0] << 24
             : (uint64_t)p[4] | (uint64_t)p[5] << 8 | (uint64_t)p[6] << 16 | (uint64_t)p[7] << 24;
    return hi << 32 | lo;
}

/* A float32, or (shift 16) a bfloat16: the top half of a float32. */
static inline double f32_at(const unsigned char *p, unsigned size, int big)
{
    uint32_t bits = (uint32_t)bits_at(p, size, big) << (size == 2 ? 16 : 0);
    float v;

    memcpy(&v, &bits, 4);
    return v;
}

/* The widening loops also look at each element's exponent: all ones (NaN or ±inf) sets
 * the top bit of (exponent bits + one unit), OR-ed into a flag that is tested once per
 * piece, not per element, so the check costs no second pass over the doubles and no
 * branch in the loop (the compiler keeps it vectorised). Only when a piece has such an
 * element does check_finite() look for the first one the user may not have. */
#define NONFINITE(bits, exp_mask, unit) (((bits) & (exp_mask)) + (unit))

/* n elements of dtype dt at src widened into dst[k * stride], in one loop per dtype and
 * byte order (decided once, not per element: this is the load's hot loop). Returns
 * nonzero when one of them is NaN or ±inf. */
static int widen(double *restrict dst, size_t stride, const unsigned char *restrict src, size_t n,
                 as_dtype dt, int big)
{
    uint64_t bad = 0;
    size_t k;

    if (dt == AS_DT_F64) {
        for (k = 0; k < n; k++) {
            uint64_t bits = bits_at(src + 8 * k, 8, big);
            memcpy(&dst[k * stride], &bits, 8);
            bad |= NONFINITE(bits, UINT64_C(0x7ff0000000000000), UINT64_C(0x0010000000000000));
        }
        return (bad >> 63) != 0;
    }
    if (dt == AS_DT_F32 && !big && stride == 1) { /* the common case, vectorised */
        uint32_t bad8[8] = {0};
        size_t u;
        /* blocks of 8 of a fixed count: gcc -O2 (its "very cheap" cost model) vectorises
         * these where it leaves the plain loop scalar */
        for (k = 0; k + 8 <= n; k += 8)
            for (u = 0; u < 8; u++) {
                uint32_t bits;
                float v;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                memcpy(&bits, src + 4 * (k + u), 4); /* the file's order is this machine's */
#else
                bits = (uint32_t)bits_at(src + 4 * (k + u), 4, 0);
#endif
                memcpy(&v, &bits, 4);
                dst[k + u] = v;
                bad8[u] |= NONFINITE(bits, 0x7f800000u, 0x00800000u);
            }
        for (; k < n; k++) {
            uint32_t bits = (uint32_t)bits_at(src + 4 * k, 4, 0);
            float v;
            memcpy(&v, &bits, 4);
            dst[k] = v;
            bad |= NONFINITE(bits, 0x7f800000u, 0x00800000u);
        }
        for (u = 0; u < 8; u++)
            bad |= bad8[u];
    } else if (dt == AS_DT_F32)
        for (k = 0; k < n; k++) {
            uint32_t bits = (uint32_t)bits_at(src + 4 * k, 4, big);
            dst[k * stride] = f32_at(src + 4 * k, 4, big);
            bad |= NONFINITE(bits, 0x7f800000u, 0x00800000u);
        }
    else if (dt == AS_DT_BF16) /* safetensors: little-endian */
        for (k = 0; k < n; k++) {
            uint32_t bits = (uint32_t)bits_at(src + 2 * k, 2, big) << 16;
            dst[k * stride] = f32_at(src + 2 * k, 2, big);
            bad |= NONFINITE(bits, 0x7f800000u, 0x00800000u);
        }
    else
        for (k = 0; k < n; k++) {
            unsigned bits = (unsigned)bits_at(src + 2 * k, 2, big);
            dst[k * stride] = half(bits);
            bad |= NONFINITE(bits, 0x7c00u, 0x0400u) << 16;
        }
    return (bad >> 31 & 1) != 0;
}

/* Bytes read and widened at a time: small enough that the piece just read is still in
 * the cache (L2) when it is widened, large enough that a pread's cost is spread thin. */
#define READ_BUF ((size_t)256 << 10)
/* A run of at least this many bytes is read by both threads, a piece at a time. */
#define TWO_THREADS_MIN ((size_t)8 << 20)

/* count elements of t from element index first (in file order), widened into dst[k *
 * stride] (*bad set when one of them is not finite); buf holds READ_BUF bytes. A file in
 * memory is widened straight from it. Returns 0, or -1 (no error set) when the file
 * ends first, with *failed the element where the failing read began. */
static int run_piece(as_tensor_file *f, const as_tensor *t, uint64_t first, uint64_t count,
                     double *dst, size_t stride, unsigned char *buf, int *bad, uint64_t *failed)
{
    const size_t per = READ_BUF / t->itemsize;
    const unsigned char *src;
    uint64_t off;
    size_t n;

    while (count > 0) {
        n = count < per ? (size_t)count : per;
        off = t->offset + first * t->itemsize;
        if (f->mem != NULL && off <= f->size && n * t->itemsize <= f->size - off)
            src = f->mem + off;
        else if (f->mem == NULL && as_tensor_pread(f, off, buf, n * t->itemsize) == 0)
            src = buf;
        else {
            *failed = first;
            return -1;
        }
        *bad |= widen(dst, stride, src, n, t->dtype, t->big_endian);
        dst += n * stride;
        first += n;
        count -= n;
    }
    return 0;
}

/* The error of a read that failed at element first of t. Returns -1. */
static int unreadable(as_tensor_file *f, const as_tensor *t, uint64_t first, uint64_t count)
{
    const size_t per = READ_BUF / t->itemsize;
    uint64_t n = count < per ? count : per;

    return as_tensor_fail(f, t->name, t->offset + first * t->itemsize, AS_MSG_BIN_TRUNCATED_HINT,
                          AS_MSG_BIN_UNREADABLE, (unsigned long long)(n * t->itemsize));
}

/* A long run of whole rows on two threads: pieces of READ_BUF bytes, each thread
 * taking the next as it comes free, reading it into its own buffer and widening it
 * straight into its place (the threads also share the first touch of the fresh pages). */
typedef struct two_reads {
    as_tensor_file *f;
    const as_tensor *t;
    uint64_t first, count, per;
    double *dst;
    unsigned char *buf[2];
    int bad[2], rc[2];
    uint64_t failed[2]; /* the first piece (element) whose read failed, per thread */
} two_reads;

static void read_each_piece(void *arg, size_t i, int thread)
{
    two_reads *j = arg;
    const uint64_t at = (uint64_t)i * j->per, left = j->count - at;
    uint64_t failed;

    if (run_piece(j->f, j->t, j->first + at, left < j->per ? left : j->per, j->dst + at, 1,
                  j->buf[thread], &j->bad[thread], &failed) != 0 &&
        (j->rc[thread] == 0 || failed < j->failed[thread])) {
        j->rc[thread] = -1;
        j->failed[thread] = failed;
    }
}

/* count elements of t from element first, widened into dst[k * stride] (*bad set when one
 * is not finite); buf holds READ_BUF bytes. 0, or -1 with the error set. */
static int read_run(as_tensor_file *f, const as_tensor *t, uint64_t first, uint64_t count,
                    double *dst, size_t stride, unsigned char *buf, int *bad)
{
    two_reads j = {f, t, first, count, READ_BUF / t->itemsize, dst, {buf, NULL}, {0, 0}, {0, 0}, {0, 0}};
    uint64_t failed;
    size_t pieces;

    if (stride != 1 || count * t->itemsize < TWO_THREADS_MIN || (j.buf[1] = malloc(READ_BUF)) == NULL) {
        if (run_piece(f, t, first, count, dst, stride, buf, bad, &failed) != 0)
            return unreadable(f, t, failed, first + count - failed);
        return 0;
    }
    pieces = (size_t)((count + j.per - 1) / j.per);
    if (f->mem == NULL) /* a hint only: read ahead further (a file not yet in the page cache) */
        posix_fadvise(f->fd, (off_t)(t->offset + first * t->itemsize), (off_t)(count * t->itemsize),
                      POSIX_FADV_SEQUENTIAL);
    as_two_threads_each(pieces, read_each_piece, &j);
    free(j.buf[1]);
    *bad |= j.bad[0] | j.bad[1];
    if (j.rc[0] != 0 || j.rc[1] != 0) { /* the first failure in file order */
        failed = j.rc[0] == 0 ? j.failed[1] : j.rc[1] == 0 || j.failed[0] < j.failed[1] ? j.failed[0] : j.failed[1];
        return unreadable(f, t, failed, first + count - failed);
    }
    return 0;
}

/* The first cell of out[h, w] (part s of t) that may not be there: NaN, +inf, or -inf
 * unless neg_inf. Returns 0, or -1 with the error naming the cell. */
static int check_finite(as_tensor_file *f, const as_tensor *t, as_tensor_slice s, int neg_inf,
                        const double *out)
{
    const uint64_t w = s.c1 - s.c0, cells = (s.r1 - s.r0) * w, rows = t->ndim == 1 ? 1 : t->shape[0];
    uint64_t k, i, j, at;
    char v[16];

    for (k = 0; k < cells; k++)
        if (isnan(out[k]) || (isinf(out[k]) && (out[k] > 0 || !neg_inf)))
            break;
    if (k == cells)
        return 0;
    i = s.r0 + k / w, j = s.c0 + k % w;
    at = t->offset + (t->fortran ? j * rows + i : i * t->shape[t->ndim - 1] + j) * t->itemsize;
    snprintf(v, sizeof v, "%s", isnan(out[k]) ? "NaN" : out[k] > 0 ? "+inf" : "-inf");
    return as_tensor_fail(f, t->name, at,
                          isnan(out[k]) ? AS_MSG_BIN_NAN_HINT : AS_MSG_RD_INF_ONLY_IN_MASK_HINT,
                          AS_MSG_BIN_NOT_FINITE, (unsigned long long)i, (unsigned long long)j, v);
}

int as_tensor_read(as_tensor_file *f, const as_tensor *t, as_tensor_slice s, int neg_inf,
                   double **out)
{
    const uint64_t h = s.r1 - s.r0, w = s.c1 - s.c0, cols = t->shape[t->ndim - 1];
    const uint64_t rows = t->ndim == 1 ? 1 : t->shape[0];
    unsigned char *buf = NULL;
    double *v = NULL;
    uint64_t line;
    int rc = 0, bad = 0;

    *out = NULL;
    /* no zero fill: every cell of v is written by the reads below before it is read */
    if (h > SIZE_MAX / sizeof *v / (w ? w : 1) || (v = as_tensor_big_array((size_t)(h * w))) == NULL ||
        (buf = malloc(READ_BUF)) == NULL) {
        free(v);
        return as_tensor_fail(f, t->name, t->offset, AS_MSG_COUNT, AS_MSG_RD_OUT_OF_MEMORY);
    }
    if (!t->fortran && w == cols) /* whole rows: one run */
        rc = read_run(f, t, s.r0 * cols, h * w, v, 1, buf, &bad);
    else if (!t->fortran) /* a run per row */
        for (line = s.r0; rc == 0 && line < s.r1; line++)
            rc = read_run(f, t, line * cols + s.c0, w, v + (line - s.r0) * w, 1, buf, &bad);
    else /* Fortran order: a run per column */
        for (line = s.c0; rc == 0 && line < s.c1; line++)
            rc = read_run(f, t, line * rows + s.r0, h, v + (line - s.c0), (size_t)w, buf, &bad);
    free(buf);
    if (rc == 0 && bad) /* a NaN or an infinity somewhere: the first one not allowed, if any */
        rc = check_finite(f, t, s, neg_inf, v);
    if (rc != 0) {
        free(v);
        return -1;
    }
    *out = v;
    return 0;
}
