/* test_npy.c - the .npy and .npz readers (npy.c) on hostile and edge files: every check
 * of the npy header (the magic, the version, the header's length, each key of its dict,
 * each dtype, dimension and separator), and every check of the ZIP that holds an .npz
 * (its end record, its ZIP64 records, its directory entries, each member's own header
 * and bytes, a compressed member).
 *
 * Where the expected values come from: every file is built here byte by byte, an .npy
 * by the layout of numpy's format (numpy/lib/format.py: magic, version, header length,
 * the dict) and a ZIP by the ZIP specification (APPNOTE 4.3.7 local header, 4.3.12
 * directory entry, 4.3.14-4.3.16 ZIP64 and end records); the byte that each error must
 * name is counted by hand from that layout, and written next to the case. The good
 * values are the doubles 1.5 and -2, written as their IEEE bits by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tensor_util.h"

#define HINT_NPY "an npy header is a Python dict such as {'descr': '<f8', 'fortran_order': " \
                 "False, 'shape': (2, 3), }"

/* The doubles 1.5 and -2, little-endian (IEEE 754: 0x3ff8000000000000, 0xc000000000000000). */
static const unsigned char two_doubles[16] = {0, 0, 0, 0, 0, 0, 0xf8, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0xc0};

/* A good dict for two_doubles. */
#define ROW2 "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }"

/* An .npy of version v (1: a 2-byte header length; 2 and 3: 4 bytes) with exactly the
 * header text hdr (no padding: the reader needs none), then data[0..n); into b, its
 * length returned. The header's text starts at byte 10 (version 1) or 12. */
static size_t npy(unsigned char *b, int v, const char *hdr, const void *data, size_t n)
{
    size_t len = strlen(hdr), at = v == 1 ? 10 : 12;

    memcpy(b, "\x93NUMPY", 6);
    b[6] = (unsigned char)v, b[7] = 0;
    le_put(b + 8, len, v == 1 ? 2 : 4);
    memcpy(b + at, hdr, len);
    memcpy(b + at + len, data, n);
    return at + len + n;
}

/* The version-1 .npy with header text dict (no data) is refused at byte at with "the
 * npy header cannot be read from here: “rest”". */
static void header_refused(const char *dict, int at, const char *rest)
{
    unsigned char b[256];
    char want[256];

    snprintf(want, sizeof want, "“m.npy”, byte %d: the npy header cannot be read from here: “%s”",
             at, rest);
    refused_mem("m.npy", b, npy(b, 1, dict, "", 0), want, HINT_NPY);
}

/* ------------------------------------------------------------------ the npy header ---- */

/* Each byte named is 10 (the header's first byte) plus the index in the dict of the first
 * character that cannot be read, counted by hand. */
static void test_a_key_that_is_no_quoted_name_is_refused_where_it_stands(void **state)
{
    (void)state;
    header_refused("{descr: 1}", 11, "descr: 1}");           /* unquoted: at "d", index 1 */
    header_refused("{'descr", 17, "");                       /* never closed: the end, 7 */
    header_refused("{'de\\scr': 1}", 14, "\\scr': 1}");      /* an escape numpy never writes: 4 */
    header_refused("{'descr' '<f8'}", 19, "'<f8'}");         /* no ":": the quote at 9 */
    header_refused("{'colour': 1}", 12, "colour': 1}");      /* no key of numpy's: its name, 2 */
}

static void test_each_key_given_twice_is_refused_at_its_second_name(void **state)
{
    (void)state;
    /* "{'descr': '<f8', " is 17 characters: the second name starts at 18 */
    header_refused("{'descr': '<f8', 'descr': '<f4'}", 28, "descr': '<f4'}");
    /* "{'fortran_order': True, " is 24: the name at 25 */
    header_refused("{'fortran_order': True, 'fortran_order': True}", 35, "fortran_order': True}");
    /* "{'shape': (), " is 14: the name at 15 */
    header_refused("{'shape': (), 'shape': ()}", 25, "shape': ()}");
}

static void test_a_descr_that_is_no_dtype_name_is_refused_after_it(void **state)
{
    (void)state;
    header_refused("{'descr': ''}", 22, "}");                  /* empty: after it, at 12 */
    header_refused("{'descr': '<f8<f8<f8<f8<f8<f8'}", 40, "}"); /* 18 characters: after, at 30 */
    header_refused("{'descr': 8}", 20, "8}");                  /* no string: the 8 at 10 */
}

static void test_a_fortran_order_that_is_no_python_bool_is_refused_at_it(void **state)
{
    (void)state;
    /* "{'fortran_order': " is 18 characters: the value at 18 */
    header_refused("{'fortran_order': 0}", 28, "0}");
    header_refused("{'fortran_order': Tr", 28, "Tr");     /* the header ends inside True */
    header_refused("{'fortran_order': Fals", 28, "Fals"); /* and inside False */
}

static void test_a_shape_that_is_no_tuple_of_dimensions_is_refused_where_it_breaks(void **state)
{
    (void)state;
    /* "{'shape': " is 10 characters: "(" at 10, the first dimension at 11 */
    header_refused("{'shape': [2]}", 20, "[2]}");
    header_refused("{'shape': (a,)}", 21, "a,)}");
    header_refused("{'shape': (2; 3)}", 22, "; 3)}");
    header_refused("{'shape': (2,", 23, "");  /* the header ends after "2,", at 13 */
    header_refused("{'shape': (2", 22, "");   /* and after "2", at 12 */
    /* 20 nines: the 18 first make 10^18 - 1, more than 2^62 / 10, so the 19th (at 29) is refused */
    header_refused("{'shape': (99999999999999999999,)}", 39, "99,)}");
}

static void test_a_value_not_followed_by_a_comma_or_brace_is_refused_there(void **state)
{
    (void)state;
    header_refused("{'descr': '<f8' 'shape'", 26, "'shape'"); /* "{'descr': '<f8'" is 15, a blank */
    header_refused("{'descr': '<f8',", 26, "");  /* the header ends after the comma */
    header_refused("{'descr': '<f8'", 25, "");   /* and after the value */
}

static void test_nine_dimensions_and_a_missing_key_are_named(void **state)
{
    unsigned char b[256];

    (void)state;
    /* "(" at 10, then "1," eight times: the ninth 1 at 11 + 16 = 27 */
    refused_mem("m.npy", b, npy(b, 1, "{'shape': (1,1,1,1,1,1,1,1,1)}", "", 0),
                "“m.npy”, byte 37: the shape has more than 8 dimensions", HINT_DIMS);
    /* the dict ends at its "}", index 30 */
    refused_mem("m.npy", b, npy(b, 1, "{'descr': '<f8', 'shape': (2,)}", "", 0),
                "“m.npy”, byte 40: “fortran_order” is missing", HINT_NPY);
}

static void test_a_version_or_header_length_the_file_cannot_hold_is_refused(void **state)
{
    static const unsigned char v2_short[11] = "\x93NUMPY\x02\x00\x05\x00\x00";
    const size_t hlen = ((size_t)1 << 20) + 1; /* one byte more than the header read */
    unsigned char b[128], *big;

    (void)state;
    refused_mem("m.npy", v2_short, sizeof v2_short,
                "“m.npy”, byte 8: the header runs to byte 12, but the file has only 11 bytes",
                HINT_TRUNCATED);
    npy(b, 1, ROW2, two_doubles, 16);
    b[7] = 1; /* version 1.1 */
    refused_mem("m.npy", b, sizeof b, "“m.npy”, byte 6: npy format version 1.1 is unknown",
                "numpy.save writes versions 1.0, 2.0 and 3.0");
    big = calloc(12 + hlen, 1);
    assert_non_null(big);
    memcpy(big, "\x93NUMPY\x02\x00", 8);
    le_put(big + 8, hlen, 4);
    refused_mem("m.npy", big, 12 + hlen,
                "“m.npy”, byte 8: the header is 1048577 bytes long, more than the 1048576 read",
                HINT_NPY);
    free(big);
}

/* The file's only tensor, read whole into doubles. */
static void read_only(const unsigned char *b, size_t n, const char *path, double *out, size_t count)
{
    as_tensor_file f;
    as_error err;
    const as_tensor *t;
    uint64_t rows, cols;
    as_tensor_slice s;
    double *v;

    if (open_mem(&f, &err, path, b, n) != 0)
        fail_msg("%s: %s", path, err.msg);
    t = as_tensor_find(&f, NULL, 0);
    assert_non_null(t);
    assert_int_equal(as_tensor_matrix_shape(&f, t, &rows, &cols), 0);
    assert_int_equal(rows * cols, count);
    s.r0 = 0, s.r1 = rows, s.c0 = 0, s.c1 = cols;
    assert_int_equal(as_tensor_read(&f, t, s, 0, &v), 0);
    memcpy(out, v, count * sizeof *v);
    free(v);
    as_tensor_close(&f);
}

static void test_versions_two_and_three_blanks_and_keys_in_any_order_read_alike(void **state)
{
    static const char *const dicts[] = {
        ROW2,
        "{'shape': (2,), 'fortran_order': True, 'descr': '<f8'}", /* one dimension: any order */
        " {\t'descr' : \"<f8\" ,\n'fortran_order':False,'shape':( 2 , ) }\n",
    };
    unsigned char b[256];
    double v[2];
    size_t i;
    int ver;

    (void)state;
    for (i = 0; i < sizeof dicts / sizeof dicts[0]; i++)
        for (ver = 1; ver <= 3; ver++) {
            read_only(b, npy(b, ver, dicts[i], two_doubles, 16), "m.npy", v, 2);
            assert_true(v[0] == 1.5 && v[1] == -2);
        }
}

/* numpy's dtype('<U3').itemsize is 12 (a character of a str array is 4 bytes of UCS-4),
 * dtype('|S3').itemsize 3 and dtype('<i4').itemsize 4 (numpy 1.24, checked once with
 * /usr/bin/python3): such a tensor is listed by `weights` with its true bytes. */
static void test_a_dtype_not_read_is_listed_with_numpys_bytes(void **state)
{
    static const struct { const char *dict; uint64_t bytes; } cases[] = {
        {"{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", 24},
        {"{'descr': '|S3', 'fortran_order': False, 'shape': (2,), }", 6},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }", 24},
    };
    unsigned char b[256], data[32] = {0};
    as_tensor_file f;
    as_error err;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        if (open_mem(&f, &err, "m.npy", b, npy(b, 1, cases[i].dict, data, 32)) != 0)
            fail_msg("%s: %s", cases[i].dict, err.msg);
        assert_int_equal(f.n, 1);
        assert_int_equal(f.t[0].dtype, AS_DT_OTHER);
        assert_int_equal(f.t[0].bytes, cases[i].bytes);
        as_tensor_close(&f);
    }
    /* and its data must be there: 2 x 12 bytes of <U3 in 16 */
    refused_mem("m.npy", b, npy(b, 1, cases[0].dict, data, 16),
                "“m.npy”, byte 67: shape (2,) of <U3 needs 24 bytes; 16 are given here",
                HINT_TRUNCATED);
}

/* ------------------------------------------------------------------ the npy data ---- */

/* The file's only tensor read whole with neg_inf: what as_tensor_read() returns, the
 * error in *err. */
static int read_whole(const unsigned char *b, size_t n, int neg_inf, double *out, as_error *err)
{
    as_tensor_file f;
    const as_tensor *t;
    uint64_t rows, cols;
    as_tensor_slice s;
    double *v;
    int rc = -1;

    if (open_mem(&f, err, "m.npy", b, n) != 0)
        return -1;
    t = as_tensor_find(&f, NULL, 0);
    assert_non_null(t);
    if (as_tensor_matrix_shape(&f, t, &rows, &cols) == 0) {
        s.r0 = 0, s.r1 = rows, s.c0 = 0, s.c1 = cols;
        if ((rc = as_tensor_read(&f, t, s, neg_inf, &v)) == 0) {
            memcpy(out, v, (size_t)(rows * cols) * sizeof *v);
            free(v);
        }
    }
    as_tensor_close(&f);
    return rc;
}

/* Half precision's specials (IEEE 754 binary16): 0x7c00 +inf, 0xfc00 -inf, 0x7e00 NaN. */
static void test_half_infinities_and_nan_are_refused_at_their_byte_or_kept_in_a_mask(void **state)
{
    static const char row3[] = "{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }";
    unsigned char b[256], data[6] = {0, 0x3c, 0, 0x7c, 0, 0xfc}; /* 1, +inf, -inf */
    double v[4];
    as_error err;

    (void)state;
    /* row3 is 57 characters: the data at 67, the +inf at 69 */
    assert_int_equal(read_whole(b, npy(b, 1, row3, data, 6), 0, v, &err), -1);
    assert_string_equal(err.msg, "“m.npy”, byte 69: row 0, column 1 is +inf, not a finite number");
    assert_string_equal(err.hint, "−∞ marks a position the mask forbids; every other matrix needs "
                                  "finite numbers");
    data[3] = 0x3c; /* 1, 1, -inf: the -inf is refused, but kept where -inf may stand */
    assert_int_equal(read_whole(b, npy(b, 1, row3, data, 6), 0, v, &err), -1);
    assert_string_equal(err.msg, "“m.npy”, byte 71: row 0, column 2 is -inf, not a finite number");
    assert_int_equal(read_whole(b, npy(b, 1, row3, data, 6), 1, v, &err), 0);
    assert_true(v[0] == 1 && v[1] == 1 && v[2] < 0 && isinf(v[2]));
    data[5] = 0x7e; /* NaN */
    assert_int_equal(read_whole(b, npy(b, 1, row3, data, 6), 1, v, &err), -1);
    assert_string_equal(err.msg, "“m.npy”, byte 71: row 0, column 2 is NaN, not a finite number");
    assert_string_equal(err.hint, "a NaN (not a number) often comes from a diverged training or "
                                  "memory never set: check the program that wrote the file");
}

/* In Fortran order the file holds column after column: element 1 of the file is row 1,
 * column 0, 8 bytes after the data's start. */
static void test_a_nan_in_fortran_order_is_named_by_its_row_column_and_byte(void **state)
{
    static const char dict[] = "{'descr': '<f8', 'fortran_order': True, 'shape': (2, 2), }";
    unsigned char b[256], data[32] = {0};
    double v[4];
    as_error err;

    (void)state;
    le_put(data + 8, 0x7ff8000000000000u, 8); /* a quiet NaN */
    /* dict is 58 characters: the data at 68, element 1 at 76 */
    assert_int_equal(read_whole(b, npy(b, 1, dict, data, 32), 0, v, &err), -1);
    assert_string_equal(err.msg, "“m.npy”, byte 76: row 1, column 0 is NaN, not a finite number");
}

static void test_an_empty_shape_and_a_byte_count_past_64_bits_are_refused(void **state)
{
    unsigned char b[256];
    double v[1];
    as_error err;

    (void)state;
    assert_int_equal(read_whole(b, npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': "
                                             "(0, 3), }", "", 0), 0, v, &err), -1);
    assert_string_equal(err.msg, "“m.npy”, byte 0: shape (0, 3) holds no number");
    assert_string_equal(err.hint, HINT_DIMS);
    /* 2^62 elements: a count that fits 64 bits, but not its 8 bytes each */
    refused_mem("m.npy", b, npy(b, 1, "{'descr': '<f8', 'fortran_order': False, 'shape': "
                                      "(4611686018427387904,), }", "", 0),
                "“m.npy”, byte 0: shape (4611686018427387904,) of <f8 needs 18446744073709551615 "
                "bytes; 0 are given here", HINT_TRUNCATED);
}

/* A file measured at 83 bytes that holds 60 when its header (57 bytes at 10) is read. */
static void test_an_npy_cut_short_after_it_was_measured_is_refused_at_its_header(void **state)
{
    unsigned char b[256];
    size_t n = npy(b, 1, ROW2, two_doubles, 16);

    (void)state;
    assert_int_equal(n, 83);
    fd_refused(file_of(b, 60, 60), "m.npy", n, "“m.npy”, byte 10: the 57 bytes here cannot be read",
               HINT_TRUNCATED);
}

/* ------------------------------------------------------------------ the npz (ZIP) ---- */

/* Where the parts of a ZIP built by zip() start. */
typedef struct zip_at {
    size_t local[8], entry[8]; /* each member's own header, and its directory entry */
    size_t dir, eocd, size;    /* the directory, the end record, the file's length */
} zip_at;

/* A ZIP of count stored members named names[i], each holding data[0..n), as numpy.savez
 * writes it (no ZIP64): the local headers (30 bytes and the name) and data, the
 * directory (46 bytes and the name an entry), the end record (22 bytes); into z, where
 * the parts start into *at. The CRCs are left 0: the reader does not check them. */
static void zip(unsigned char *z, const char *const *names, size_t count, const void *data,
                size_t n, zip_at *at)
{
    unsigned char *p = z;
    size_t i, len;

    for (i = 0; i < count; i++) {
        len = strlen(names[i]);
        at->local[i] = (size_t)(p - z);
        p = le_put(p, 0x04034b50, 4), p = le_put(p, 20, 2), p = le_put(p, 0, 2);
        p = le_put(p, 0, 2), p = le_put(p, 0, 4), p = le_put(p, 0, 4); /* stored; time, crc */
        p = le_put(p, n, 4), p = le_put(p, n, 4), p = le_put(p, len, 2), p = le_put(p, 0, 2);
        memcpy(p, names[i], len), p += len;
        memcpy(p, data, n), p += n;
    }
    at->dir = (size_t)(p - z);
    for (i = 0; i < count; i++) {
        len = strlen(names[i]);
        at->entry[i] = (size_t)(p - z);
        p = le_put(p, 0x02014b50, 4), p = le_put(p, 20, 2), p = le_put(p, 20, 2);
        p = le_put(p, 0, 2), p = le_put(p, 0, 2), p = le_put(p, 0, 4), p = le_put(p, 0, 4);
        p = le_put(p, n, 4), p = le_put(p, n, 4), p = le_put(p, len, 2), p = le_put(p, 0, 2);
        p = le_put(p, 0, 2), p = le_put(p, 0, 2), p = le_put(p, 0, 2), p = le_put(p, 0, 4);
        p = le_put(p, at->local[i], 4);
        memcpy(p, names[i], len), p += len;
    }
    at->eocd = (size_t)(p - z);
    p = le_put(p, 0x06054b50, 4), p = le_put(p, 0, 2), p = le_put(p, 0, 2);
    p = le_put(p, count, 2), p = le_put(p, count, 2);
    p = le_put(p, at->eocd - at->dir, 4), p = le_put(p, at->dir, 4), p = le_put(p, 0, 2);
    at->size = (size_t)(p - z);
}

/* One member "a.npy" holding the .npy of two_doubles: local header at 0, its data at 35. */
static size_t zip_a(unsigned char *z, zip_at *at)
{
    static const char *const a[] = {"a.npy"};
    unsigned char m[128];

    zip(z, a, 1, m, npy(m, 1, ROW2, two_doubles, 16), at);
    return at->size;
}

static void test_members_are_found_by_name_with_or_without_npy(void **state)
{
    static const char *const names[] = {"a.npy", "b", "bb.npz"};
    unsigned char z[1024], m[128];
    zip_at at;
    as_tensor_file f;
    as_error err;
    const char *ask[] = {"a", "a.npy", "b", "bb.npz"};
    size_t i;

    (void)state;
    zip(z, names, 3, m, npy(m, 1, ROW2, two_doubles, 16), &at);
    assert_int_equal(open_mem(&f, &err, "w.npz", z, at.size), 0);
    assert_int_equal(f.n, 3);
    for (i = 0; i < 4; i++)
        assert_non_null(as_tensor_find(&f, ask[i], strlen(ask[i])));
    assert_null(as_tensor_find(&f, "b.npy.npy", 9));
    assert_string_equal(err.msg, "“w.npz”: there is no tensor “b.npy.npy”; there are “a”, “b” and "
                                 "“bb.npz”");
    assert_string_equal(err.hint, "“attnstep weights w.npz” lists the tensors of the file");
    as_tensor_close(&f);
}

static void test_more_than_six_members_are_listed_as_six_and_an_ellipsis(void **state)
{
    static const char *const names[] = {"a", "b", "c", "d", "e", "f", "g"};
    unsigned char z[2048], m[128];
    zip_at at;

    (void)state;
    zip(z, names, 7, m, npy(m, 1, ROW2, two_doubles, 16), &at);
    not_found("w.npz", z, at.size, "h", "“w.npz”: there is no tensor “h”; there are “a”, “b”, “c”, "
                                        "“d”, “e”, “f” and …");
}

/* numpy.savez() of no array writes a ZIP of no member: an end record alone. */
static void test_an_npz_of_no_member_says_it_holds_no_tensor(void **state)
{
    unsigned char z[32] = {0x50, 0x4b, 5, 6};

    (void)state;
    not_found("w.npz", z, 22, NULL, "“w.npz”: the file holds no tensor");
    not_found("w.npz", z, 22, "a", "“w.npz”: the file holds no tensor");
}

static void test_an_end_record_that_is_missing_or_cut_is_refused(void **state)
{
    unsigned char z[1024] = {0x50, 0x4b, 5, 6};
    zip_at at;
    size_t n;

    (void)state;
    /* 14 bytes: no room for the 22 of an end record; named at the end of the file */
    refused_mem("w.npz", z, 14, "“w.npz”, byte 14: the end of the ZIP's central directory is missing",
                HINT_TRUNCATED);
    z[20] = 5; /* a comment of 5 bytes that the file does not hold */
    refused_mem("w.npz", z, 22, "“w.npz”, byte 22: the end of the ZIP's central directory is missing",
                HINT_TRUNCATED);
    /* a comment that is there: read past */
    n = zip_a(z, &at);
    z[at.eocd + 20] = 2;
    memcpy(z + n, "hi", 2);
    {
        double v[2];
        read_only(z, n + 2, "w.npz", v, 2);
        assert_true(v[0] == 1.5 && v[1] == -2);
    }
}

static void test_a_directory_outside_the_file_or_too_small_is_refused(void **state)
{
    unsigned char z[1024];
    char want[160];
    zip_at at;
    size_t n = zip_a(z, &at);

    (void)state;
    /* a.npy's .npy is 10 + 57 + 16 = 83 bytes (ROW2 is 57 characters): the directory at
     * 35 + 83 = 118, 46 + 5 bytes; the end record at 169 */
    assert_int_equal(strlen(ROW2), 57);
    assert_int_equal(at.dir, 118);
    assert_int_equal(at.eocd, 169);
    le_put(z + at.eocd + 16, 170, 4); /* the directory said to start after the end record */
    refused_mem("w.npz", z, n, "“w.npz”, byte 169: the ZIP directory runs to byte 221, but the file "
                               "has only 169 bytes", HINT_TRUNCATED);
    n = zip_a(z, &at);
    le_put(z + at.eocd + 12, 52, 4); /* one byte too long */
    refused_mem("w.npz", z, n, "“w.npz”, byte 169: the ZIP directory runs to byte 170, but the file "
                               "has only 169 bytes", HINT_TRUNCATED);
    n = zip_a(z, &at);
    le_put(z + at.eocd + 10, 2, 2); /* two entries in 51 bytes: one at most */
    snprintf(want, sizeof want, "“w.npz”, byte 118: an entry of the ZIP directory (PK\\1\\2) was "
                                "expected here");
    refused_mem("w.npz", z, n, want, HINT_TRUNCATED);
    n = zip_a(z, &at);
    z[at.entry[0]] = 'X'; /* the entry's signature spoilt */
    refused_mem("w.npz", z, n, want, HINT_TRUNCATED);
    n = zip_a(z, &at);
    le_put(z + at.entry[0] + 28, 6, 2); /* its name one byte longer than the directory holds */
    refused_mem("w.npz", z, n, "“w.npz”, byte 118: the ZIP directory runs to byte 170, but the file "
                               "has only 169 bytes", HINT_TRUNCATED);
}

/* A member's name long enough for a directory of 106 bytes to pass for two entries: the
 * second is looked for where the directory ends. */
static void test_a_second_entry_past_the_first_ones_long_name_is_refused(void **state)
{
    static const char *const names[] = {"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.npy"};
    unsigned char z[1024], m[128];
    char want[160];
    zip_at at;

    (void)state;
    assert_int_equal(strlen(names[0]), 60);
    zip(z, names, 1, m, npy(m, 1, ROW2, two_doubles, 16), &at);
    le_put(z + at.eocd + 10, 2, 2);
    snprintf(want, sizeof want, "“w.npz”, byte %zu: an entry of the ZIP directory (PK\\1\\2) was "
                                "expected here", at.dir + 46 + 60);
    refused_mem("w.npz", z, at.size, want, HINT_TRUNCATED);
}

static void test_a_member_compressed_misplaced_or_mis_sized_is_refused(void **state)
{
    unsigned char z[1024];
    char want[160];
    zip_at at;
    size_t n = zip_a(z, &at);

    (void)state;
    le_put(z + at.entry[0] + 10, 8, 2); /* deflated, as numpy.savez_compressed writes */
    refused_mem("w.npz", z, n, "“w.npz”, tensor “a”, byte 0: the member is compressed "
                               "(numpy.savez_compressed writes such files)",
                "save it again with numpy.savez (uncompressed): the C library has no deflate");
    snprintf(want, sizeof want, "the header of a ZIP member (PK\\3\\4) was expected here");
    n = zip_a(z, &at);
    le_put(z + at.entry[0] + 42, 118, 4); /* its header said to be where the directory is */
    refused_mem("w.npz", z, n, "“w.npz”, tensor “a”, byte 118: the header of a ZIP member "
                               "(PK\\3\\4) was expected here", HINT_TRUNCATED);
    le_put(z + at.entry[0] + 42, 119, 4); /* and past it */
    refused_mem("w.npz", z, n, "“w.npz”, tensor “a”, byte 119: the header of a ZIP member "
                               "(PK\\3\\4) was expected here", HINT_TRUNCATED);
    le_put(z + at.entry[0] + 42, 89, 4); /* 29 bytes before it: no room for 30 */
    refused_mem("w.npz", z, n, "“w.npz”, tensor “a”, byte 89: the header of a ZIP member "
                               "(PK\\3\\4) was expected here", HINT_TRUNCATED);
    n = zip_a(z, &at);
    le_put(z + at.entry[0] + 20, 82, 4); /* compressed size 82, uncompressed 83 */
    refused_mem("w.npz", z, n, "“w.npz”, tensor “a”, byte 0: the ZIP member runs to byte 117, but "
                               "the file has only 118 bytes", HINT_TRUNCATED);
    n = zip_a(z, &at);
    le_put(z + at.entry[0] + 20, 84, 4), le_put(z + at.entry[0] + 24, 84, 4); /* one too many */
    refused_mem("w.npz", z, n, "“w.npz”, tensor “a”, byte 0: the ZIP member runs to byte 119, but "
                               "the file has only 118 bytes", HINT_TRUNCATED);
    n = zip_a(z, &at);
    le_put(z + 26, 0xffff, 2); /* its own header's name 65535 bytes long: data at 65565 */
    refused_mem("w.npz", z, n, "“w.npz”, tensor “a”, byte 0: the ZIP member runs to byte 65648, but "
                               "the file has only 118 bytes", HINT_TRUNCATED);
}

static void test_a_member_that_is_no_npy_is_refused_at_its_first_byte(void **state)
{
    static const char *const a[] = {"a.npy"};
    unsigned char z[1024];
    zip_at at;

    (void)state;
    zip(z, a, 1, "not an npy file", 15, &at);
    refused_mem("w.npz", z, at.size, "“w.npz”, tensor “a”, byte 35: the npy header cannot be read "
                                     "from here: “not an npy”", HINT_NPY);
    zip(z, a, 1, "tiny", 4, &at);
    refused_mem("w.npz", z, at.size, "“w.npz”, tensor “a”, byte 35: the npy header cannot be read "
                                     "from here: “tiny”", HINT_NPY);
}

/* The ZIP64 records (APPNOTE 4.3.14, 4.3.15): the end record's 0xffff entries sends the
 * reader to the locator, 20 bytes before it, and from there to the ZIP64 end record. */
static void test_zip64_records_missing_or_misplaced_are_refused(void **state)
{
    unsigned char z[1024] = {0x50, 0x4b, 5, 6}, *p;
    zip_at at;
    size_t n;

    (void)state;
    le_put(z + 10, 0xffff, 2); /* an end record alone, at 0: no room for a locator */
    refused_mem("w.npz", z, 22, "“w.npz”, byte 0: the end of the ZIP's central directory is missing",
                HINT_TRUNCATED);
    n = zip_a(z, &at);
    le_put(z + at.eocd + 10, 0xffff, 2); /* the 20 bytes before it are the entry's, no locator */
    refused_mem("w.npz", z, n, "“w.npz”, byte 169: the end of the ZIP's central directory is missing",
                HINT_TRUNCATED);
    /* a locator at 169 whose ZIP64 end record would be at 170: after the locator's start */
    n = zip_a(z, &at);
    p = z + at.eocd;
    p = le_put(p, 0x07064b50, 4), p = le_put(p, 0, 4), p = le_put(p, 170, 8), p = le_put(p, 1, 4);
    p = le_put(p, 0x06054b50, 4), p = le_put(p, 0, 4), p = le_put(p, 0xffff, 2);
    p = le_put(p, 0xffff, 2), p = le_put(p, 51, 4), p = le_put(p, 118, 4), p = le_put(p, 0, 2);
    n = (size_t)(p - z);
    refused_mem("w.npz", z, n, "“w.npz”, byte 169: the end of the ZIP's central directory is missing",
                HINT_TRUNCATED);
    le_put(z + at.eocd + 8, 0, 8); /* at 0: a local header, no ZIP64 end record */
    refused_mem("w.npz", z, n, "“w.npz”, byte 169: the end of the ZIP's central directory is missing",
                HINT_TRUNCATED);
}

/* An entry whose sizes are 0xffffffff and whose extra fields are x[0..xn): the member a.npy
 * of two_doubles, its directory and a ZIP64 end record; into z, its length returned. */
static size_t zip64_entry(unsigned char *z, const unsigned char *x, size_t xn)
{
    unsigned char m[128], *p = z;
    size_t n = npy(m, 1, ROW2, two_doubles, 16), dir, z64;

    p = le_put(p, 0x04034b50, 4), p = le_put(p, 45, 2), p = le_put(p, 0, 2), p = le_put(p, 0, 2);
    p = le_put(p, 0, 4), p = le_put(p, 0, 4), p = le_put(p, n, 4), p = le_put(p, n, 4);
    p = le_put(p, 5, 2), p = le_put(p, 0, 2), memcpy(p, "a.npy", 5), p += 5;
    memcpy(p, m, n), p += n;
    dir = (size_t)(p - z);
    p = le_put(p, 0x02014b50, 4), p = le_put(p, 45, 2), p = le_put(p, 45, 2), p = le_put(p, 0, 2);
    p = le_put(p, 0, 2), p = le_put(p, 0, 4), p = le_put(p, 0, 4);
    p = le_put(p, 0xffffffff, 4), p = le_put(p, 0xffffffff, 4), p = le_put(p, 5, 2);
    p = le_put(p, xn, 2), p = le_put(p, 0, 2), p = le_put(p, 0, 2), p = le_put(p, 0, 2);
    p = le_put(p, 0, 4), p = le_put(p, 0, 4), memcpy(p, "a.npy", 5), p += 5;
    memcpy(p, x, xn), p += xn;
    z64 = (size_t)(p - z);
    p = le_put(p, 0x06064b50, 4), p = le_put(p, 44, 8), p = le_put(p, 45, 2), p = le_put(p, 45, 2);
    p = le_put(p, 0, 4), p = le_put(p, 0, 4), p = le_put(p, 1, 8), p = le_put(p, 1, 8);
    p = le_put(p, z64 - dir, 8), p = le_put(p, dir, 8);
    p = le_put(p, 0x07064b50, 4), p = le_put(p, 0, 4), p = le_put(p, z64, 8), p = le_put(p, 1, 4);
    p = le_put(p, 0x06054b50, 4), p = le_put(p, 0, 4), p = le_put(p, 0xffff, 2);
    p = le_put(p, 0xffff, 2), p = le_put(p, 0xffffffff, 4), p = le_put(p, 0xffffffff, 4);
    p = le_put(p, 0, 2);
    return (size_t)(p - z);
}

static void test_zip64_extra_fields_are_read_past_others_and_only_as_far_as_they_go(void **state)
{
    unsigned char z[1024], x[64], *p;
    double v[2];

    (void)state;
    /* a timestamp field (0x5455, 5 bytes) first, then the ZIP64 one: both sizes 83 */
    p = le_put(x, 0x5455, 2), p = le_put(p, 5, 2), p = le_put(p, 0, 5);
    p = le_put(p, 1, 2), p = le_put(p, 16, 2), p = le_put(p, 83, 8), p = le_put(p, 83, 8);
    read_only(z, zip64_entry(z, x, (size_t)(p - x)), "w.npz", v, 2);
    assert_true(v[0] == 1.5 && v[1] == -2);
    /* a ZIP64 field of 8 bytes gives the uncompressed size alone: the compressed one stays
     * 0xffffffff, and the member does not fit (data at 35) */
    p = le_put(x, 1, 2), p = le_put(p, 8, 2), p = le_put(p, 83, 8);
    refused_mem("w.npz", z, zip64_entry(z, x, (size_t)(p - x)),
                "“w.npz”, tensor “a”, byte 0: the ZIP member runs to byte 4294967330, but the file "
                "has only 118 bytes", HINT_TRUNCATED);
    /* a field that says it is longer than the extra fields are: not read */
    p = le_put(x, 1, 2), p = le_put(p, 40, 2), p = le_put(p, 83, 8), p = le_put(p, 83, 8);
    refused_mem("w.npz", z, zip64_entry(z, x, (size_t)(p - x)),
                "“w.npz”, tensor “a”, byte 0: the ZIP member runs to byte 4294967330, but the file "
                "has only 118 bytes", HINT_TRUNCATED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_key_that_is_no_quoted_name_is_refused_where_it_stands),
        cmocka_unit_test(test_each_key_given_twice_is_refused_at_its_second_name),
        cmocka_unit_test(test_a_descr_that_is_no_dtype_name_is_refused_after_it),
        cmocka_unit_test(test_a_fortran_order_that_is_no_python_bool_is_refused_at_it),
        cmocka_unit_test(test_a_shape_that_is_no_tuple_of_dimensions_is_refused_where_it_breaks),
        cmocka_unit_test(test_a_value_not_followed_by_a_comma_or_brace_is_refused_there),
        cmocka_unit_test(test_nine_dimensions_and_a_missing_key_are_named),
        cmocka_unit_test(test_a_version_or_header_length_the_file_cannot_hold_is_refused),
        cmocka_unit_test(test_versions_two_and_three_blanks_and_keys_in_any_order_read_alike),
        cmocka_unit_test(test_a_dtype_not_read_is_listed_with_numpys_bytes),
        cmocka_unit_test(test_half_infinities_and_nan_are_refused_at_their_byte_or_kept_in_a_mask),
        cmocka_unit_test(test_a_nan_in_fortran_order_is_named_by_its_row_column_and_byte),
        cmocka_unit_test(test_an_empty_shape_and_a_byte_count_past_64_bits_are_refused),
        cmocka_unit_test(test_an_npy_cut_short_after_it_was_measured_is_refused_at_its_header),
        cmocka_unit_test(test_members_are_found_by_name_with_or_without_npy),
        cmocka_unit_test(test_more_than_six_members_are_listed_as_six_and_an_ellipsis),
        cmocka_unit_test(test_an_npz_of_no_member_says_it_holds_no_tensor),
        cmocka_unit_test(test_an_end_record_that_is_missing_or_cut_is_refused),
        cmocka_unit_test(test_a_directory_outside_the_file_or_too_small_is_refused),
        cmocka_unit_test(test_a_second_entry_past_the_first_ones_long_name_is_refused),
        cmocka_unit_test(test_a_member_compressed_misplaced_or_mis_sized_is_refused),
        cmocka_unit_test(test_a_member_that_is_no_npy_is_refused_at_its_first_byte),
        cmocka_unit_test(test_zip64_records_missing_or_misplaced_are_refused),
        cmocka_unit_test(test_zip64_extra_fields_are_read_past_others_and_only_as_far_as_they_go),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
