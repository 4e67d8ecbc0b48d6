/* safetensors.c - the .safetensors format: 8 bytes of header length (little-endian), a
 * JSON header {"name": {"dtype": "F32", "shape": [r, c], "data_offsets": [b, e]}, …,
 * "__metadata__": {"key": "text", …}}, then the tensors' bytes, each at its offsets
 * from the end of the header. The JSON is read by the small reader below (objects,
 * arrays of integers, strings with their escapes), in place: a string's decoded text is
 * never longer than its escaped form. */
#include "attnstep/safetensors.h"

#include <stdlib.h>
#include <string.h>

#include "attnstep/lex.h"

#define HEADER_MAX ((uint64_t)100 << 20) /* as the safetensors library itself */

/* The header being read: text [start, end), read at p, decoded strings written at p's
 * side; byte 0 of the text is byte 8 of the file. */
typedef struct js {
    as_tensor_file *f;
    char *start, *p, *end;
    uint64_t data_at, data_len; /* where the tensors' bytes start, and how many there are */
} js;

/* "expected (a message) here": the error at p. Returns -1. */
static int js_fail(js *j, as_msg expected)
{
    as_error *e = j->f->where.err;
    char q[64];

    as_lex_quote(q, sizeof q, j->p, (size_t)(j->end - j->p));
    return as_tensor_fail(j->f, NULL, 8 + (uint64_t)(j->p - j->start), AS_MSG_BIN_JSON_HINT,
                          AS_MSG_BIN_JSON, as_msg_text(e->lang, expected), q);
}

static void ws(js *j)
{
    j->p += as_tensor_blanks(j->p, j->end) - j->p;
}

/* Skips blanks and then c; 0, or -1 when c is not there (no error set). */
static int js_char(js *j, char c)
{
    ws(j);
    if (j->p >= j->end || *j->p != c)
        return -1;
    j->p++;
    return 0;
}

static int hex4(const char *p, unsigned *v)
{
    int i;

    for (*v = 0, i = 0; i < 4; i++) {
        char c = p[i];
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return -1;
        *v = *v << 4 | (unsigned)d;
    }
    return 0;
}

/* Writes code point u as UTF-8 at w; returns the bytes written. */
static size_t utf8(char *w, unsigned u)
{
    if (u < 0x80)
        return (size_t)(w[0] = (char)u, 1);
    if (u < 0x800)
        return w[0] = (char)(0xc0 | u >> 6), w[1] = (char)(0x80 | (u & 0x3f)), 2;
    if (u < 0x10000)
        return w[0] = (char)(0xe0 | u >> 12), w[1] = (char)(0x80 | (u >> 6 & 0x3f)),
               w[2] = (char)(0x80 | (u & 0x3f)), 3;
    return w[0] = (char)(0xf0 | u >> 18), w[1] = (char)(0x80 | (u >> 12 & 0x3f)),
           w[2] = (char)(0x80 | (u >> 6 & 0x3f)), w[3] = (char)(0x80 | (u & 0x3f)), 4;
}

/* A \u escape at p (the "\u" read): one code point, or a surrogate pair; p moves past it. */
static int unicode_escape(js *j, unsigned *u)
{
    unsigned lo;

    if (j->end - j->p < 4 || hex4(j->p, u) != 0)
        return -1;
    j->p += 4;
    if (*u >= 0xdc00 && *u < 0xe000)
        return -1; /* a low surrogate alone */
    if (*u >= 0xd800 && *u < 0xdc00) {
        if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u' || hex4(j->p + 2, &lo) != 0 ||
            lo < 0xdc00 || lo >= 0xe000)
            return -1;
        *u = 0x10000 + ((*u - 0xd800) << 10) + (lo - 0xdc00);
        j->p += 6;
    }
    return 0;
}

/* A string: decoded in place into [*s, *s + *n) (valid UTF-8, no NUL). 0, or -1 with
 * the error set. */
static int js_string(js *j, char **s, size_t *n)
{
    static const char plain[] = "\"\\/bfnrt", real[] = "\"\\/\b\f\n\r\t";
    const char *q, *bad;
    char *w, *at;
    unsigned u;

    ws(j);
    if (j->p >= j->end || *j->p != '"')
        return js_fail(j, AS_MSG_BIN_JSON_STRING);
    *s = w = ++j->p;
    /* its bytes are UTF-8 before they are decoded (which writes over them, and whose \u
     * escapes give only whole characters): an error quotes the text as the file has it */
    for (q = j->p; q < j->end && *q != '"'; q += *q == '\\' && q + 1 < j->end ? 2 : 1)
        ;
    if ((bad = as_lex_bad_byte(j->p, (size_t)(q - j->p))) != NULL)
        return j->p += bad - j->p, js_fail(j, AS_MSG_BIN_JSON_STRING);
    while (j->p < j->end && *j->p != '"') {
        at = j->p;
        if ((unsigned char)*j->p < 0x20)
            return js_fail(j, AS_MSG_BIN_JSON_STRING);
        if (*j->p != '\\') {
            *w++ = *j->p++;
            continue;
        }
        j->p++;
        if (j->p < j->end && *j->p == 'u') {
            j->p++;
            if (unicode_escape(j, &u) != 0 || u == 0)
                return j->p = at, js_fail(j, AS_MSG_BIN_JSON_STRING);
            w += utf8(w, u);
        } else if (j->p < j->end && *j->p != '\0' && strchr(plain, *j->p) != NULL)
            *w++ = real[strchr(plain, *j->p++) - plain];
        else
            return j->p = at, js_fail(j, AS_MSG_BIN_JSON_STRING);
    }
    if (j->p >= j->end)
        return js_fail(j, AS_MSG_BIN_JSON_STRING);
    *n = (size_t)(w - *s);
    j->p++;
    return 0;
}

/* A non-negative integer, at most 2^62. */
static int js_uint(js *j, uint64_t *v)
{
    ws(j);
    if (j->p >= j->end || *j->p < '0' || *j->p > '9')
        return js_fail(j, AS_MSG_BIN_JSON_INTEGER);
    for (*v = 0; j->p < j->end && *j->p >= '0' && *j->p <= '9'; j->p++) {
        if (*v > ((uint64_t)1 << 62) / 10)
            return js_fail(j, AS_MSG_BIN_JSON_INTEGER);
        *v = *v * 10 + (uint64_t)(*j->p - '0');
    }
    return 0;
}

/* After an item of an object or array: "," (1: another follows) or the closing bracket
 * close (0); -1 with the error set at anything else. */
static int js_next(js *j, char close)
{
    ws(j);
    if (j->p < j->end && *j->p == ',')
        return j->p++, 1;
    if (j->p < j->end && *j->p == close)
        return j->p++, 0;
    return js_fail(j, AS_MSG_BIN_JSON_NEXT);
}

/* An array of integers into v[0..*n), at most max of them: 0; 1 (no error set) at one
 * more, the cursor at it; or -1 with the error set. */
static int js_uints(js *j, uint64_t *v, size_t max, size_t *n)
{
    int more;

    if (js_char(j, '[') != 0)
        return js_fail(j, AS_MSG_BIN_JSON_VALUE);
    *n = 0;
    if (js_char(j, ']') == 0)
        return 0;
    do {
        if (*n == max)
            return 1;
        if (js_uint(j, &v[(*n)++]) != 0)
            return -1;
    } while ((more = js_next(j, ']')) == 1);
    return more;
}

/* The dtype named s[0..n): the four read, or another with its size (listed only). */
static void dtype(as_tensor *t, const char *s, size_t n)
{
    static const struct { const char *name; as_dtype dt; unsigned size; } known[] = {
        {"F64", AS_DT_F64, 8}, {"F32", AS_DT_F32, 4}, {"F16", AS_DT_F16, 2},
        {"BF16", AS_DT_BF16, 2}, {"I64", AS_DT_OTHER, 8}, {"U64", AS_DT_OTHER, 8},
        {"I32", AS_DT_OTHER, 4}, {"U32", AS_DT_OTHER, 4}, {"I16", AS_DT_OTHER, 2},
        {"U16", AS_DT_OTHER, 2}, {"I8", AS_DT_OTHER, 1}, {"U8", AS_DT_OTHER, 1},
        {"BOOL", AS_DT_OTHER, 1}, {"F8_E4M3", AS_DT_OTHER, 1}, {"F8_E5M2", AS_DT_OTHER, 1},
    };
    size_t i;

    as_lex_quote(t->dtype_name, sizeof t->dtype_name, s, n);
    t->dtype = AS_DT_OTHER;
    t->itemsize = 0;
    for (i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strlen(known[i].name) == n && memcmp(known[i].name, s, n) == 0)
            t->dtype = known[i].dt, t->itemsize = known[i].size;
}

/* The place of t's bytes from its data_offsets off: in order, inside the data, as long
 * as its shape and dtype need. */
static int tensor_place(js *j, as_tensor *t, const uint64_t off[2])
{
    as_tensor_file *f = j->f;

    t->offset = j->data_at + off[0];
    if (off[0] > off[1])
        return as_tensor_fail(f, t->name, t->header, AS_MSG_BIN_JSON_HINT, AS_MSG_BIN_OFFSETS,
                              (unsigned long long)off[0], (unsigned long long)off[1]);
    if (off[1] > j->data_len)
        return as_tensor_past_end(f, t->name, t->header, AS_MSG_BIN_PART_DATA, j->data_at + off[1],
                                  f->size);
    return as_tensor_check_room(f, t, off[1] - off[0], 1);
}

/* Reads the value of the member key[0..n) of an object, the cursor at it. 0 or -1. */
typedef int (*js_member)(js *j, char *key, size_t n, void *ctx);

/* An object: member() reads the value of each member in turn. 0, or -1 with the error set. */
static int js_object(js *j, js_member member, void *ctx)
{
    char *key;
    size_t n;
    int more;

    if (js_char(j, '{') != 0)
        return js_fail(j, AS_MSG_BIN_JSON_OBJECT);
    if (js_char(j, '}') == 0)
        return 0;
    do {
        if (js_string(j, &key, &n) != 0)
            return -1;
        if (js_char(j, ':') != 0)
            return js_fail(j, AS_MSG_BIN_JSON_COLON);
        if (member(j, key, n, ctx) != 0)
            return -1;
    } while ((more = js_next(j, '}')) == 1);
    return more;
}

/* A tensor's object being read: what it gave so far. */
typedef struct entry {
    as_tensor *t;
    uint64_t off[2];
    int seen; /* 1 dtype, 2 shape, 4 data_offsets */
} entry;

/* dtype, shape or data_offsets, each once. */
static int entry_member(js *j, char *key, size_t n, void *ctx)
{
    entry *e = ctx;
    char *s, *at;
    size_t k;
    int rc;

    if (n == 5 && memcmp(key, "dtype", 5) == 0 && !(e->seen & 1)) {
        if (js_string(j, &s, &k) != 0)
            return -1;
        dtype(e->t, s, k);
        e->seen |= 1;
    } else if (n == 5 && memcmp(key, "shape", 5) == 0 && !(e->seen & 2)) {
        if ((rc = js_uints(j, e->t->shape, AS_TENSOR_MAX_DIMS, &e->t->ndim)) == 1)
            return as_tensor_fail(j->f, e->t->name, 8 + (uint64_t)(j->p - j->start), AS_MSG_BIN_DIMS_HINT,
                                  AS_MSG_BIN_TOO_MANY_DIMS, AS_TENSOR_MAX_DIMS);
        if (rc != 0)
            return -1;
        e->seen |= 2;
    } else if (n == 12 && memcmp(key, "data_offsets", 12) == 0 && !(e->seen & 4)) {
        ws(j);
        at = j->p;
        if ((rc = js_uints(j, e->off, 2, &k)) < 0)
            return -1;
        if (rc == 1 || k != 2)
            return j->p = at, js_fail(j, AS_MSG_BIN_JSON_TWO);
        e->seen |= 4;
    } else
        return j->p = key - 1, js_fail(j, AS_MSG_BIN_JSON_KEYS);
    return 0;
}

/* One tensor's object: dtype, shape and data_offsets, then its place checked. */
static int tensor_entry(js *j, as_tensor *t)
{
    entry e = {t, {0, 0}, 0};

    ws(j);
    t->header = 8 + (uint64_t)(j->p - j->start);
    if (js_object(j, entry_member, &e) != 0)
        return -1;
    if (e.seen != 7)
        return as_tensor_fail(j->f, t->name, t->header, AS_MSG_BIN_JSON_HINT, AS_MSG_BIN_JSON_MISSING,
                              !(e.seen & 1) ? "dtype" : !(e.seen & 2) ? "shape" : "data_offsets");
    return tensor_place(j, t, e.off);
}

/* A member of __metadata__: its value must be a string (and is ignored). */
static int meta_member(js *j, char *key, size_t n, void *ctx)
{
    char *s;

    (void)key, (void)n, (void)ctx;
    ws(j);
    if (j->p < j->end && *j->p != '"')
        return as_tensor_fail(j->f, NULL, 8 + (uint64_t)(j->p - j->start), AS_MSG_BIN_JSON_HINT,
                              AS_MSG_BIN_META);
    return js_string(j, &s, &n);
}

/* A member of the header: __metadata__, or a tensor by its name. */
static int header_member(js *j, char *key, size_t n, void *ctx)
{
    as_tensor *t;

    (void)ctx;
    if (n == 12 && memcmp(key, "__metadata__", 12) == 0)
        return js_object(j, meta_member, NULL);
    if ((t = as_tensor_add(j->f, key, n)) == NULL)
        return -1;
    return tensor_entry(j, t);
}

int as_safetensors_index(as_tensor_file *f)
{
    unsigned char head[8];
    uint64_t len;
    char *text;
    js j;
    int rc;

    if (as_tensor_pread(f, 0, head, 8) != 0)
        return as_tensor_past_end(f, NULL, 0, AS_MSG_BIN_PART_HEADER, 8, f->size);
    for (len = 0, rc = 8; rc-- > 0;)
        len = len << 8 | head[rc];
    if (len > f->size - 8)
        return as_tensor_past_end(f, NULL, 0, AS_MSG_BIN_PART_HEADER, 8 + len, f->size);
    if (len > HEADER_MAX)
        return as_tensor_fail(f, NULL, 0, AS_MSG_BIN_JSON_HINT, AS_MSG_BIN_HEADER_TOO_LONG,
                              (unsigned long long)len, (unsigned long long)HEADER_MAX);
    if ((text = malloc(len + 1)) == NULL)
        return as_tensor_fail(f, NULL, 8, AS_MSG_COUNT, AS_MSG_RD_OUT_OF_MEMORY);
    if (as_tensor_pread(f, 8, text, (size_t)len) != 0) {
        free(text);
        return as_tensor_fail(f, NULL, 8, AS_MSG_BIN_TRUNCATED_HINT, AS_MSG_BIN_UNREADABLE,
                              (unsigned long long)len);
    }
    j.f = f, j.start = j.p = text, j.end = text + len;
    j.data_at = 8 + len, j.data_len = f->size - 8 - len;
    rc = js_object(&j, header_member, NULL);
    if (rc == 0) {
        ws(&j);
        if (j.p < j.end)
            rc = js_fail(&j, AS_MSG_BIN_JSON_NEXT);
    }
    free(text);
    return rc == 0 ? as_tensor_check_overlap(f) : -1;
}
