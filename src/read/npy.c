/* npy.c - numpy's .npy and numpy.savez's .npz, read from their headers, every length
 * checked against the bytes that hold it before it is used.
 *
 * .npy: "\x93NUMPY", major, minor, the header's length (2 bytes in 1.0, 4 in 2.0 and
 * 3.0, little-endian), the header (a Python dict literal: descr, fortran_order, shape),
 * then the elements. .npz: a ZIP whose members are .npy files, found from the end of its
 * central directory (with the ZIP64 records numpy writes for large files). */
#include "attnstep/npy.h"

#include <stdlib.h>
#include <string.h>

#include "attnstep/lex.h"

#define NPY_HEADER_MAX ((uint64_t)1 << 20) /* numpy itself refuses more than 10000 bytes */

static uint64_t le(const unsigned char *p, int n)
{
    uint64_t v = 0;

    while (n-- > 0)
        v = v << 8 | p[n];
    return v;
}

/* ------------------------------------------------------------------ the npy header ---- */

/* The header text being read: bytes [p, end) of the header at byte base of the file. */
typedef struct hdr {
    as_tensor_file *f;
    as_tensor *t;
    const char *start, *p, *end;
    uint64_t base;
} hdr;

static void blanks(hdr *h)
{
    h->p = as_tensor_blanks(h->p, h->end);
}

/* The header cannot be read at h->p. Returns -1. */
static int bad_header(hdr *h)
{
    char q[64];

    as_lex_quote(q, sizeof q, h->p, (size_t)(h->end - h->p));
    return as_tensor_fail(h->f, h->t->name, h->base + (uint64_t)(h->p - h->start),
                          AS_MSG_BIN_NPY_HEADER_HINT, AS_MSG_BIN_NPY_HEADER, q);
}

/* Skips blanks and then the character c; 0, or -1 when c is not there. */
static int expect(hdr *h, char c)
{
    blanks(h);
    if (h->p >= h->end || *h->p != c)
        return -1;
    h->p++;
    return 0;
}

/* A Python string in ' or " quotes (no escapes: numpy writes none): its text in
 * [*s, *s + *n). 0 or -1. */
static int py_string(hdr *h, const char **s, size_t *n)
{
    char quote;

    blanks(h);
    if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
        return -1;
    quote = *h->p++;
    *s = h->p;
    while (h->p < h->end && *h->p != quote && *h->p != '\\')
        h->p++;
    if (h->p >= h->end || *h->p != quote)
        return -1;
    *n = (size_t)(h->p++ - *s);
    return 0;
}

/* descr: one of the six dtypes read, or another (listed by `weights`, not loaded). */
static int descr(hdr *h)
{
    static const struct { const char *name; as_dtype dt; unsigned size; } known[] = {
        {"<f8", AS_DT_F64, 8}, {"<f4", AS_DT_F32, 4}, {"<f2", AS_DT_F16, 2},
        {">f8", AS_DT_F64, 8}, {">f4", AS_DT_F32, 4}, {">f2", AS_DT_F16, 2},
    };
    as_tensor *t = h->t;
    const char *s;
    size_t n, i;

    if (py_string(h, &s, &n) != 0 || n == 0 || n >= sizeof t->dtype_name)
        return -1;
    memcpy(t->dtype_name, s, n);
    t->dtype_name[n] = '\0';
    t->dtype = AS_DT_OTHER;
    t->itemsize = (unsigned)atoi(t->dtype_name + strcspn(t->dtype_name, "0123456789"));
    if (strchr(t->dtype_name, 'U') != NULL)
        t->itemsize *= 4; /* '<U3': three characters of UCS-4, 12 bytes (numpy's itemsize) */
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(t->dtype_name, known[i].name) == 0) {
            t->dtype = known[i].dt;
            t->itemsize = known[i].size;
            t->big_endian = s[0] == '>';
        }
    return 0;
}

static int py_bool(hdr *h, int *v)
{
    blanks(h);
    if ((size_t)(h->end - h->p) >= 4 && memcmp(h->p, "True", 4) == 0)
        *v = 1, h->p += 4;
    else if ((size_t)(h->end - h->p) >= 5 && memcmp(h->p, "False", 5) == 0)
        *v = 0, h->p += 5;
    else
        return -1;
    return 0;
}

/* A dimension: decimal digits, at most 2^62 (more is no shape a file holds). */
static int dimension(hdr *h, uint64_t *v)
{
    blanks(h);
    *v = 0;
    if (h->p >= h->end || *h->p < '0' || *h->p > '9')
        return -1;
    while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
        if (*v > ((uint64_t)1 << 62) / 10)
            return -1;
        *v = *v * 10 + (uint64_t)(*h->p++ - '0');
    }
    if (h->p < h->end && *h->p == 'L')
        h->p++; /* Python 2's long, as old numpy wrote it */
    return 0;
}

/* shape: "(", dimensions split by ",", maybe a "," after the last, ")". */
static int shape(hdr *h)
{
    as_tensor *t = h->t;

    if (expect(h, '(') != 0)
        return -1;
    for (t->ndim = 0;;) {
        blanks(h);
        if (h->p < h->end && *h->p == ')')
            break;
        if (t->ndim == AS_TENSOR_MAX_DIMS)
            return as_tensor_fail(h->f, t->name, h->base + (uint64_t)(h->p - h->start),
                                  AS_MSG_BIN_DIMS_HINT, AS_MSG_BIN_TOO_MANY_DIMS, AS_TENSOR_MAX_DIMS);
        if (dimension(h, &t->shape[t->ndim]) != 0)
            return -1;
        t->ndim++;
        blanks(h);
        if (h->p < h->end && *h->p == ',')
            h->p++;
        else if (h->p >= h->end || *h->p != ')')
            return -1;
    }
    h->p++;
    return 0;
}

/* The dict: its three keys, each once, in any order. 0 or -1 (the error set). */
static int header_dict(hdr *h)
{
    const char *key;
    size_t n;
    int seen = 0, rc;

    if (expect(h, '{') != 0)
        return bad_header(h);
    for (;;) {
        blanks(h);
        if (h->p < h->end && *h->p == '}')
            break;
        if (py_string(h, &key, &n) != 0 || expect(h, ':') != 0)
            return bad_header(h);
        if (n == 5 && memcmp(key, "descr", 5) == 0 && !(seen & 1))
            rc = descr(h), seen |= 1;
        else if (n == 13 && memcmp(key, "fortran_order", 13) == 0 && !(seen & 2))
            rc = py_bool(h, &h->t->fortran), seen |= 2;
        else if (n == 5 && memcmp(key, "shape", 5) == 0 && !(seen & 4))
            rc = shape(h), seen |= 4;
        else {
            h->p = key;
            return bad_header(h);
        }
        if (rc != 0)
            return h->f->where.err->set ? -1 : bad_header(h);
        blanks(h);
        if (h->p < h->end && *h->p == ',')
            h->p++;
        else if (h->p >= h->end || *h->p != '}')
            return bad_header(h);
    }
    if (seen != 7)
        return as_tensor_fail(h->f, h->t->name, h->base + (uint64_t)(h->p - h->start),
                              AS_MSG_BIN_NPY_HEADER_HINT, AS_MSG_BIN_JSON_MISSING,
                              !(seen & 1) ? "descr" : !(seen & 2) ? "fortran_order" : "shape");
    return 0;
}

int as_npy_index(as_tensor_file *f, uint64_t base, uint64_t len, as_tensor *t)
{
    unsigned char head[12];
    uint64_t start, hlen;
    char *text;
    hdr h;
    int rc;

    if (len < 10 || as_tensor_pread(f, base, head, 10) != 0 || memcmp(head, "\x93NUMPY", 6) != 0) {
        head[0] = 0;
        as_tensor_pread(f, base, head, len < 10 ? (size_t)len : 10);
        h.f = f, h.t = t, h.start = h.p = (const char *)head, h.base = base;
        h.end = h.p + (len < 10 ? len : 10);
        return bad_header(&h);
    }
    if (!(head[6] == 1 || head[6] == 2 || head[6] == 3) || head[7] != 0)
        return as_tensor_fail(f, t->name, base + 6, AS_MSG_BIN_NPY_VERSION_HINT,
                              AS_MSG_BIN_NPY_VERSION, (unsigned)head[6], (unsigned)head[7]);
    start = head[6] == 1 ? 10 : 12;
    if (len < start || (start == 12 && as_tensor_pread(f, base + 10, head + 10, 2) != 0))
        return as_tensor_past_end(f, t->name, base + 8, AS_MSG_BIN_PART_HEADER, base + start, base + len);
    hlen = le(head + 8, (int)start - 8);
    if (hlen > len - start)
        return as_tensor_past_end(f, t->name, base + 8, AS_MSG_BIN_PART_HEADER, base + start + hlen, base + len);
    if (hlen > NPY_HEADER_MAX)
        return as_tensor_fail(f, t->name, base + 8, AS_MSG_BIN_NPY_HEADER_HINT,
                              AS_MSG_BIN_HEADER_TOO_LONG, (unsigned long long)hlen,
                              (unsigned long long)NPY_HEADER_MAX);
    if ((text = malloc(hlen + 1)) == NULL)
        return as_tensor_fail(f, t->name, base, AS_MSG_COUNT, AS_MSG_RD_OUT_OF_MEMORY);
    if (as_tensor_pread(f, base + start, text, hlen) != 0) {
        free(text);
        return as_tensor_fail(f, t->name, base + start, AS_MSG_BIN_TRUNCATED_HINT,
                              AS_MSG_BIN_UNREADABLE, (unsigned long long)hlen);
    }
    h.f = f, h.t = t, h.start = h.p = text, h.end = text + hlen, h.base = base + start;
    rc = header_dict(&h);
    free(text);
    t->header = base;
    t->offset = base + start + hlen;
    return rc == 0 ? as_tensor_check_room(f, t, len - start - hlen, 0) : -1;
}

/* ------------------------------------------------------------------ the npz (ZIP) ---- */

#define EOCD_SIZE 22           /* the end of the central directory, without its comment */
#define CDIR_ENTRY 46          /* a central directory entry, without its name and fields */
#define LOCAL_HEADER 30        /* a member's own header, without its name and fields */
#define ZIP64_LIMIT 0xffffffffu

/* Where the central directory is: offset, size and entries. */
typedef struct zip_dir { uint64_t at, size, entries; } zip_dir;

/* The end of the central directory, searched from the end of the file back over the
 * longest comment a ZIP may carry; its position into *eocd, its record into rec. */
static int find_end(as_tensor_file *f, uint64_t *eocd, unsigned char rec[EOCD_SIZE])
{
    uint64_t n = f->size < EOCD_SIZE + 65535 ? f->size : EOCD_SIZE + 65535, i;
    unsigned char *tail = malloc(n ? n : 1);
    int rc = -1;

    if (tail == NULL)
        return as_tensor_fail(f, NULL, 0, AS_MSG_COUNT, AS_MSG_RD_OUT_OF_MEMORY);
    if (n >= EOCD_SIZE && as_tensor_pread(f, f->size - n, tail, (size_t)n) == 0)
        for (i = n - EOCD_SIZE + 1; i-- > 0 && rc != 0;)
            if (le(tail + i, 4) == 0x06054b50 && i + EOCD_SIZE + le(tail + i + 20, 2) <= n) {
                memcpy(rec, tail + i, EOCD_SIZE);
                *eocd = f->size - n + i;
                rc = 0;
            }
    free(tail);
    return rc == 0 ? 0 : as_tensor_fail(f, NULL, f->size, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_ZIP_NO_END);
}

/* The central directory from the end record at eocd (and the ZIP64 records before it
 * when the end record says so), checked to lie before the end record. */
static int central_dir(as_tensor_file *f, zip_dir *d)
{
    unsigned char rec[EOCD_SIZE], z[56];
    uint64_t eocd = 0, z64;

    if (find_end(f, &eocd, rec) != 0)
        return -1;
    d->entries = le(rec + 10, 2), d->size = le(rec + 12, 4), d->at = le(rec + 16, 4);
    if (d->entries == 0xffff || d->size == ZIP64_LIMIT || d->at == ZIP64_LIMIT) {
        if (eocd < 20 || as_tensor_pread(f, eocd - 20, z, 20) != 0 || le(z, 4) != 0x07064b50)
            return as_tensor_fail(f, NULL, eocd, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_ZIP_NO_END);
        z64 = le(z + 8, 8);
        if (z64 > eocd - 20 || as_tensor_pread(f, z64, z, 56) != 0 || le(z, 4) != 0x06064b50)
            return as_tensor_fail(f, NULL, eocd - 20, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_ZIP_NO_END);
        d->entries = le(z + 32, 8), d->size = le(z + 40, 8), d->at = le(z + 48, 8);
        eocd = z64;
    }
    if (d->at > eocd || d->size > eocd - d->at)
        return as_tensor_past_end(f, NULL, eocd, AS_MSG_BIN_PART_DIR, d->at + d->size, eocd);
    if (d->entries > d->size / CDIR_ENTRY)
        return as_tensor_fail(f, NULL, d->at, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_ZIP_BAD_DIR);
    return 0;
}

/* A member as its directory entry describes it. */
typedef struct member {
    const unsigned char *name;
    size_t name_len;
    unsigned method;
    uint64_t csize, usize, local;
} member;

/* The ZIP64 extra field of an entry: the 8-byte values of the sizes and the offset that
 * the entry marks as 0xffffffff, in that order. */
static void zip64_extra(member *m, const unsigned char *x, size_t n)
{
    while (n >= 4) {
        size_t id = (size_t)le(x, 2), len = (size_t)le(x + 2, 2), at = 4;
        if (len > n - 4)
            return;
        if (id == 1) {
            if (m->usize == ZIP64_LIMIT && at + 8 <= len + 4)
                m->usize = le(x + at, 8), at += 8;
            if (m->csize == ZIP64_LIMIT && at + 8 <= len + 4)
                m->csize = le(x + at, 8), at += 8;
            if (m->local == ZIP64_LIMIT && at + 8 <= len + 4)
                m->local = le(x + at, 8);
        }
        x += 4 + len;
        n -= 4 + len;
    }
}

/* The entry at dir[*at..size) (the directory read at byte base of the file) into m;
 * *at moves past it. */
static int dir_entry(as_tensor_file *f, const unsigned char *dir, size_t size, size_t *at,
                     uint64_t base, member *m)
{
    const unsigned char *e = dir + *at;
    size_t nlen, xlen, clen;

    if (size - *at < CDIR_ENTRY || le(e, 4) != 0x02014b50)
        return as_tensor_fail(f, NULL, base + *at, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_ZIP_BAD_DIR);
    nlen = (size_t)le(e + 28, 2), xlen = (size_t)le(e + 30, 2), clen = (size_t)le(e + 32, 2);
    if (nlen + xlen + clen > size - *at - CDIR_ENTRY)
        return as_tensor_past_end(f, NULL, base + *at, AS_MSG_BIN_PART_DIR,
                        base + *at + CDIR_ENTRY + nlen + xlen + clen, base + size);
    m->method = (unsigned)le(e + 10, 2);
    m->csize = le(e + 20, 4), m->usize = le(e + 24, 4), m->local = le(e + 42, 4);
    m->name = e + CDIR_ENTRY, m->name_len = nlen;
    zip64_extra(m, e + CDIR_ENTRY + nlen, xlen);
    *at += CDIR_ENTRY + nlen + xlen + clen;
    return 0;
}

/* The member m, before the directory at dir_at: stored, its own header where the entry
 * says, its bytes inside the file; its .npy indexed into a new tensor. */
static int index_member(as_tensor_file *f, const member *m, uint64_t dir_at)
{
    unsigned char lh[LOCAL_HEADER];
    size_t n = m->name_len;
    uint64_t data;
    as_tensor *t;

    if (n > 4 && memcmp(m->name + n - 4, ".npy", 4) == 0)
        n -= 4;
    if ((t = as_tensor_add(f, (const char *)m->name, n)) == NULL)
        return -1;
    t->header = m->local;
    if (m->method != 0)
        return as_tensor_fail(f, t->name, m->local, AS_MSG_BIN_ZIP_COMPRESSED_HINT,
                              AS_MSG_BIN_ZIP_COMPRESSED);
    if (m->local > dir_at || dir_at - m->local < LOCAL_HEADER ||
        as_tensor_pread(f, m->local, lh, LOCAL_HEADER) != 0 || le(lh, 4) != 0x04034b50)
        return as_tensor_fail(f, t->name, m->local, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_ZIP_BAD_LOCAL);
    data = m->local + LOCAL_HEADER + le(lh + 26, 2) + le(lh + 28, 2);
    if (m->csize != m->usize || data > dir_at || m->csize > dir_at - data)
        return as_tensor_past_end(f, t->name, m->local, AS_MSG_BIN_PART_MEMBER, data + m->csize, dir_at);
    return as_npy_index(f, data, m->csize, t);
}

int as_npz_index(as_tensor_file *f)
{
    zip_dir d;
    unsigned char *dir;
    size_t at = 0;
    uint64_t i;
    member m = {NULL, 0, 0, 0, 0, 0};
    int rc = 0;

    if (central_dir(f, &d) != 0)
        return -1;
    if ((dir = malloc(d.size ? (size_t)d.size : 1)) == NULL)
        return as_tensor_fail(f, NULL, d.at, AS_MSG_COUNT, AS_MSG_RD_OUT_OF_MEMORY);
    if (as_tensor_pread(f, d.at, dir, (size_t)d.size) != 0)
        rc = as_tensor_fail(f, NULL, d.at, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_UNREADABLE,
                            (unsigned long long)d.size);
    for (i = 0; rc == 0 && i < d.entries; i++)
        if ((rc = dir_entry(f, dir, (size_t)d.size, &at, d.at, &m)) == 0)
            rc = index_member(f, &m, d.at);
    free(dir);
    return rc == 0 ? as_tensor_check_overlap(f) : -1;
}
