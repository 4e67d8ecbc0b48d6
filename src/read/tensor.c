/* tensor.c - a binary weight file whatever its format: told by its magic bytes, indexed
 * by its format's reader, and a part of one tensor widened to doubles, exactly. */
#include "attnstep/tensor.h"
#include "attnstep/npy.h"
#include "attnstep/safetensors.h"
#include "attnstep/lex.h"

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

static inline double f64_at(const unsigned char *p, int big)
{
    uint64_t bits = bits_at(p, 8, big);
    double v;

    memcpy(&v, &bits, 8);
    return v;
}

/* A float32, or (shift 16) a bfloat16: the top half of a float32. */
static inline double f32_at(const unsigned char *p, unsigned size, int big)
{
    uint32_t bits = (uint32_t)bits_at(p, size, big) << (size == 2 ? 16 : 0);
    float v;

    memcpy(&v, &bits, 4);
    return v;
}

/* n elements of dtype dt at src widened into dst[k * stride], in one loop per dtype and
 * byte order (decided once, not per element: this is the load's hot loop). */
static void widen(double *dst, size_t stride, const unsigned char *src, size_t n, as_dtype dt,
                  int big)
{
    size_t k;

    if (dt == AS_DT_F64 && !big)
        for (k = 0; k < n; k++)
            dst[k * stride] = f64_at(src + 8 * k, 0);
    else if (dt == AS_DT_F64)
        for (k = 0; k < n; k++)
            dst[k * stride] = f64_at(src + 8 * k, 1);
    else if (dt == AS_DT_F32 && !big)
        for (k = 0; k < n; k++)
            dst[k * stride] = f32_at(src + 4 * k, 4, 0);
    else if (dt == AS_DT_F32)
        for (k = 0; k < n; k++)
            dst[k * stride] = f32_at(src + 4 * k, 4, 1);
    else if (dt == AS_DT_BF16) /* safetensors: little-endian */
        for (k = 0; k < n; k++)
            dst[k * stride] = f32_at(src + 2 * k, 2, big);
    else
        for (k = 0; k < n; k++)
            dst[k * stride] = half((unsigned)bits_at(src + 2 * k, 2, big));
}

#define READ_BUF ((size_t)1 << 20)

/* count elements of t from element index first (in file order), widened into dst[k *
 * stride]; buf holds READ_BUF bytes. */
static int read_run(as_tensor_file *f, const as_tensor *t, uint64_t first, uint64_t count,
                    double *dst, size_t stride, unsigned char *buf)
{
    const size_t per = READ_BUF / t->itemsize;
    size_t n;

    while (count > 0) {
        n = count < per ? (size_t)count : per;
        if (as_tensor_pread(f, t->offset + first * t->itemsize, buf, n * t->itemsize) != 0)
            return as_tensor_fail(f, t->name, t->offset + first * t->itemsize,
                                  AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_UNREADABLE,
                                  (unsigned long long)(n * t->itemsize));
        widen(dst, stride, buf, n, t->dtype, t->big_endian);
        dst += n * stride;
        first += n;
        count -= n;
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
    int rc = 0;

    *out = NULL;
    if (h > SIZE_MAX / sizeof *v / (w ? w : 1) || (v = as_tensor_big_array((size_t)(h * w))) == NULL ||
        (buf = malloc(READ_BUF)) == NULL) {
        free(v);
        return as_tensor_fail(f, t->name, t->offset, AS_MSG_COUNT, AS_MSG_RD_OUT_OF_MEMORY);
    }
    if (!t->fortran && w == cols) /* whole rows: one run */
        rc = read_run(f, t, s.r0 * cols, h * w, v, 1, buf);
    else if (!t->fortran) /* a run per row */
        for (line = s.r0; rc == 0 && line < s.r1; line++)
            rc = read_run(f, t, line * cols + s.c0, w, v + (line - s.r0) * w, 1, buf);
    else /* Fortran order: a run per column */
        for (line = s.c0; rc == 0 && line < s.c1; line++)
            rc = read_run(f, t, line * rows + s.r0, h, v + (line - s.c0), (size_t)w, buf);
    free(buf);
    if (rc == 0)
        rc = check_finite(f, t, s, neg_inf, v);
    if (rc != 0) {
        free(v);
        return -1;
    }
    *out = v;
    return 0;
}
