/* test_tensor.c - load() of the binary weight files of SPEC §16 (issue 32): .npy in every
 * dtype, version and order, .npz from numpy.savez, .safetensors in F64/F32/F16/BF16;
 * slices; and the hostile files, each refused with a message that names the file, the
 * tensor, the byte and what was expected, in well under a second and 100 MB.
 *
 * Where the expected values come from: tests/data/npy/make.py (numpy 1.24, run once by
 * hand) wrote the files and, beside each, FILE.values: every element numpy holds,
 * widened to float64, as float.hex() -- the loaded doubles must be those bit for bit.
 * The run from binary files is compared byte for byte with the run from numpy.savetxt
 * files of the same tables that numpy itself sliced (tests/data/npy/gpt2-text/). The
 * hostile files are written here, byte by byte, each with the byte its error must name
 * worked out by hand from the layout written next to it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "attnstep/parse.h"
#define CLI_OUT "build/tests/tensor.out"
#define CLI_ERR "build/tests/tensor.err"
#include "cli_util.h"

#define DATA "tests/data/npy/"

/* stdout of the last run is exactly want. */
static void assert_golden_text(const char *want)
{
    char *got = slurp(OUT);

    assert_non_null(got);
    assert_string_equal(got, want);
    free(got);
}

/* Parses the input text as a file in tests/data/npy/ (so that load() finds the files
 * there), errors in English. Returns what as_parse_text() returns. */
static int parse_in_data(as_input *in, as_error *err, const char *text)
{
    as_error_init(err, AS_LANG_EN);
    return as_parse_text(in, text, strlen(text), DATA "input.txt", err);
}

/* ------------------------------------------------------------------ numpy's values ---- */

/* Checks every tensor of DATA file against DATA file.values; returns the tensors checked. */
static int check_values(const char *file)
{
    char vpath[256], line[256], name[200], text[512];
    unsigned long long dims[2];
    as_input in;
    as_error err;
    size_t i, count;
    int tensors = 0, nd;
    FILE *f;

    snprintf(vpath, sizeof vpath, DATA "%s.values", file);
    f = fopen(vpath, "r");
    assert_non_null(f);
    assert_non_null(fgets(line, sizeof line, f)); /* the note of where they come from */
    while (fgets(line, sizeof line, f) != NULL) {
        dims[0] = dims[1] = 1;
        nd = sscanf(line, "%199s %llu %llu", name, &dims[0], &dims[1]) - 1;
        assert_true(nd == 1 || nd == 2);
        if (strcmp(name, "-") == 0)
            snprintf(text, sizeof text, "X = load(\"%s\")\n", file);
        else
            snprintf(text, sizeof text, "X = load(\"%s\", \"%s\")\n", file, name);
        if (parse_in_data(&in, &err, text) != 0)
            fail_msg("%s %s: %s", file, name, err.msg);
        count = (size_t)(dims[0] * dims[1]);
        assert_int_equal(in.mat[AS_X].m.rows, nd == 1 ? 1 : dims[0]);
        assert_int_equal(in.mat[AS_X].m.rows * in.mat[AS_X].m.cols, count);
        for (i = 0; i < count; i++) {
            double want;
            assert_non_null(fgets(line, sizeof line, f));
            want = strtod(line, NULL);
            if (memcmp(&want, &in.mat[AS_X].m.v[i], sizeof want) != 0)
                fail_msg("%s %s[%zu]: loaded %a, numpy holds %a", file, name, i,
                         in.mat[AS_X].m.v[i], want);
        }
        as_input_free(&in);
        tensors++;
    }
    fclose(f);
    return tensors;
}

static void test_every_npy_dtype_version_and_order_loads_as_numpy_holds_it(void **state)
{
    static const char *const dt[] = {"le", "be"}, *const size[] = {"f8", "f4", "f2"};
    char file[64];
    int d, s, v, o;

    (void)state;
    for (d = 0; d < 2; d++)
        for (s = 0; s < 3; s++)
            for (v = 1; v <= 3; v++)
                for (o = 0; o < 2; o++) {
                    snprintf(file, sizeof file, "m_%s%s_v%d_%c.npy", dt[d], size[s], v, "CF"[o]);
                    assert_int_equal(check_values(file), 1);
                }
    assert_int_equal(check_values("row_f4.npy"), 1);
}

static void test_npz_members_and_safetensors_load_as_numpy_holds_them(void **state)
{
    (void)state;
    assert_int_equal(check_values("w.npz"), 3);
    assert_int_equal(check_values("dtypes.safetensors"), 4); /* F64 F32 F16 BF16 */
    assert_int_equal(check_values("gpt2.safetensors"), 2 + 2 * 12 + 2);
    assert_int_equal(check_values("llama.safetensors"), 1 + 2 * 9 + 2);
}

/* The half-precision corners, known by hand: 2^-24 (the least subnormal), -3*2^-20, -0
 * and 65504 (the largest half) stand first in each float16 matrix (make.py puts them). */
static void test_float16_subnormals_and_signed_zero_widen_exactly(void **state)
{
    as_input in;
    as_error err;

    (void)state;
    assert_int_equal(parse_in_data(&in, &err, "X = load(\"m_bef2_v2_F.npy\")\n"), 0);
    assert_true(in.mat[AS_X].m.v[0] == ldexp(1, -24));
    assert_true(in.mat[AS_X].m.v[1] == -3 * ldexp(1, -20));
    assert_true(in.mat[AS_X].m.v[2] == 0 && signbit(in.mat[AS_X].m.v[2]));
    assert_true(in.mat[AS_X].m.v[3] == 65504);
    as_input_free(&in);
}

/* ------------------------------------------------------------------ slices and runs ---- */

/* c_attn [8, 24] of layer 0 sliced by load() equals numpy's own slices, saved as text. */
static void test_slices_of_packed_c_attn_equal_numpys_separate_tables(void **state)
{
    static const char *const text[] = {"wq", "wk", "wv"};
    as_input bin, txt;
    as_error err;
    char in[512];
    int i;

    (void)state;
    for (i = 0; i < 3; i++) {
        snprintf(in, sizeof in,
                 "X = load(\"gpt2.safetensors\", \"h.0.attn.c_attn.weight\")[:, %d:%d]\n"
                 "Wq = load(\"gpt2.safetensors\", \"h.0.attn.c_attn.bias\")[%d:%d]\n",
                 8 * i, 8 * i + 8, 8 * i, 8 * i + 8);
        assert_int_equal(parse_in_data(&bin, &err, in), 0);
        snprintf(in, sizeof in, "X = load(\"gpt2-text/%s.txt\")\nWq = load(\"gpt2-text/b%c.txt\")\n",
                 text[i], text[i][1]);
        assert_int_equal(parse_in_data(&txt, &err, in), 0);
        assert_int_equal(bin.mat[AS_X].m.rows, 8);
        assert_int_equal(bin.mat[AS_X].m.cols, 8);
        assert_memory_equal(bin.mat[AS_X].m.v, txt.mat[AS_X].m.v, 64 * sizeof(double));
        assert_int_equal(bin.mat[AS_WQ].m.cols, 8);
        assert_memory_equal(bin.mat[AS_WQ].m.v, txt.mat[AS_WQ].m.v, 8 * sizeof(double));
        as_input_free(&bin);
        as_input_free(&txt);
    }
}

/* Rows, a Fortran-order matrix, "a:" and ":b": the cells taken are those numpy's
 * m[1:3, :2] holds (the .values file, row-major). */
static void test_a_slice_takes_rows_and_columns_numpy_style(void **state)
{
    as_input in, whole;
    as_error err;
    size_t i, j;

    (void)state;
    assert_int_equal(parse_in_data(&whole, &err, "X = load(\"m_lef4_v1_F.npy\")\n"), 0);
    assert_int_equal(parse_in_data(&in, &err, "X = load(\"m_lef4_v1_F.npy\")[1:, :2]\n"), 0);
    assert_int_equal(in.mat[AS_X].m.rows, 2);
    assert_int_equal(in.mat[AS_X].m.cols, 2);
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++)
            assert_true(AS_AT(in.mat[AS_X].m, i, j) == AS_AT(whole.mat[AS_X].m, i + 1, j));
    as_input_free(&in);
    assert_int_equal(parse_in_data(&in, &err, "X = load(\"m_lef4_v1_F.npy\")[2:3]\n"), 0);
    assert_int_equal(in.mat[AS_X].m.rows, 1); /* one slice of a matrix: rows, as numpy */
    assert_int_equal(in.mat[AS_X].m.cols, 4);
    assert_memory_equal(in.mat[AS_X].m.v, whole.mat[AS_X].m.v + 8, 4 * sizeof(double));
    as_input_free(&in);
    as_input_free(&whole);
}

/* The same tables from binary files and from numpy.savetxt text: the same bytes out. */
static void test_a_run_from_binary_files_equals_the_run_from_savetxt_text(void **state)
{
    static const char *const cmd[] = {"run", "run --format json", "trace --row all", "run --lang en"};
    char args[256], *a, *b;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof cmd / sizeof cmd[0]; i++) {
        snprintf(args, sizeof args, "%s " DATA "run-binary.txt", cmd[i]);
        assert_int_equal(run(args), 0);
        a = slurp(OUT);
        snprintf(args, sizeof args, "%s " DATA "gpt2-text/run-text.txt", cmd[i]);
        assert_int_equal(run(args), 0);
        b = slurp(OUT);
        assert_non_null(a);
        assert_non_null(b);
        assert_true(strlen(a) > 1000);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
}

/* ------------------------------------------------------------------ hostile files ---- */

static char dir[64]; /* the hostile files' folder, made by the group setup */

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/attnstep-tensor-XXXXXX");
    return mkdtemp(dir) == NULL;
}

static int remove_dir(void **state)
{
    char cmd[128];

    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) != 0;
}

/* Writes bytes[0..n) as dir/name; returns its path (static: one at a time). */
static const char *put_file(const char *name, const void *bytes, size_t n)
{
    static char path[128];
    FILE *f;

    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    return path;
}

/* An .npy of version 1 with the dict text, padded to a 128-byte header, then the n data
 * bytes; into buf, its length returned. */
static size_t npy_v1(unsigned char *buf, const char *dict, const void *data, size_t n)
{
    size_t len = strlen(dict);

    assert_true(len < 117);
    memcpy(buf, "\x93NUMPY\1\0\x76\0", 10); /* header length 118: data at byte 128 */
    memcpy(buf + 10, dict, len);
    memset(buf + 10 + len, ' ', 117 - len);
    buf[127] = '\n';
    memcpy(buf + 128, data, n);
    return 128 + n;
}

/* A .safetensors with the JSON header and n data bytes (zeros); into buf. */
static size_t safetensors(unsigned char *buf, const char *json, size_t n)
{
    size_t len = strlen(json), i;

    for (i = 0; i < 8; i++)
        buf[i] = (unsigned char)(len >> (8 * i));
    memcpy(buf + 8, json, len);
    memset(buf + 8 + len, 0, n);
    return 8 + len + n;
}

/* load()s the file at path (tensor member, and what follows the call) as X, or as M
 * with as_m; checks that it is refused with a message holding every one of want (NULL
 * ended), in under a second. */
static void refused_as(const char *path, const char *member, const char *after, int as_m, ...)
{
    char text[512];
    struct timespec t0, t1;
    as_input in;
    as_error err;
    const char *w;
    va_list ap;

    if (member != NULL)
        snprintf(text, sizeof text, "%s = load(\"%s\", \"%s\")%s\n", as_m ? "M" : "X", path,
                 member, after);
    else
        snprintf(text, sizeof text, "%s = load(\"%s\")%s\n", as_m ? "M" : "X", path, after);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (parse_in_data(&in, &err, text) == 0) {
        as_input_free(&in);
        fail_msg("%s was read", text);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    assert_true((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec) < 1.0);
    assert_int_equal(err.line, 1); /* at the file's name in the input */
    va_start(ap, as_m);
    while ((w = va_arg(ap, const char *)) != NULL)
        if (strstr(err.msg, w) == NULL)
            fail_msg("the message \"%s\" lacks \"%s\"", err.msg, w);
    va_end(ap);
    assert_true(err.hint[0] != '\0');
}

#define refused(path, member, ...) refused_as(path, member, "", 0, __VA_ARGS__, NULL)

/* The peak memory of the process so far, in MB. */
static double peak_mb(void)
{
    struct rusage u;

    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_maxrss / 1024;
}

static void test_an_npy_header_claiming_more_than_the_file_is_refused_at_byte_8(void **state)
{
    unsigned char b[30] = "\x93NUMPY\1\0\xff\xff"; /* header length 65535 in a 30-byte file */

    (void)state;
    refused(put_file("long.npy", b, sizeof b), NULL, "long.npy”, byte 8:",
            "the header runs to byte 65545, but the file has only 30 bytes");
}

/* An .npy header that is no numpy dict is refused where it stops being one, quoting what
 * stands there; a missing key is named; Python 2's 2L of old numpy files is read. */
static void test_a_malformed_npy_header_is_refused_where_it_stops(void **state)
{
    static const double v[2] = {1.5, -2};
    unsigned char b[256];
    char text[256];
    as_input in;
    as_error err;

    (void)state;
    refused(put_file("list.npy", b, npy_v1(b, "[1, 2]", v, 16)), NULL, "list.npy”, byte 10:",
            "the npy header cannot be read from here: “[1, 2]");
    refused(put_file("key.npy", b, npy_v1(b, "{'descr': '<f8', 'colour': 1, }", v, 16)), NULL,
            "key.npy”, byte 28:", "the npy header cannot be read from here: “colour': 1");
    refused(put_file("shape.npy", b, npy_v1(b, "{'descr': '<f8', 'fortran_order': False, }", v,
                                            16)), NULL, "shape.npy”, byte", "“shape” is missing");
    refused(put_file("descr.npy", b, npy_v1(b, "{'shape': (2, 1), }", v, 16)), NULL,
            "descr.npy”, byte", "“descr” is missing");
    refused(put_file("short.npy", "\x93NUMPY\1", 7), NULL, "short.npy”, byte 0:",
            "the npy header cannot be read from here: “\\x93NUMPY\\x01");
    snprintf(text, sizeof text, "X = load(\"%s\")\n",
             put_file("py2.npy", b, npy_v1(b, "{'descr': '<f8', 'fortran_order': False, "
                                              "'shape': (2L, 1L), }", v, 16)));
    assert_int_equal(parse_in_data(&in, &err, text), 0);
    assert_int_equal(in.mat[AS_X].m.rows, 2);
    assert_int_equal(in.mat[AS_X].m.cols, 1);
    assert_true(in.mat[AS_X].m.v[0] == 1.5 && in.mat[AS_X].m.v[1] == -2);
    as_input_free(&in);
}

static void test_huge_declared_shapes_are_refused_before_allocating(void **state)
{
    unsigned char b[256];
    size_t n;

    (void)state;
    /* 2^40 x 2^20 doubles: 2^63 bytes, with 16 given after the header */
    n = npy_v1(b, "{'descr': '<f8', 'fortran_order': False, 'shape': (1099511627776, 1048576), }",
               "0123456789abcdef", 16);
    refused(put_file("huge.npy", b, n), NULL, "byte 128:",
            "shape (1099511627776, 1048576) of <f8 needs 9223372036854775808 bytes; 16 are given");
    /* 2^62 x 2^62: the count itself overflows 64 bits, named at the header (byte 0) */
    n = npy_v1(b, "{'descr': '<f4', 'fortran_order': True, 'shape': (4611686018427387904, "
                  "4611686018427387904), }", "", 0);
    refused(put_file("overflow.npy", b, n), NULL, "byte 0:", "needs 18446744073709551615 bytes");
    n = safetensors(b, "{\"w\":{\"dtype\":\"F32\",\"shape\":[1099511627776,1099511627776],"
                       "\"data_offsets\":[0,4]}}", 4);
    refused(put_file("huge.safetensors", b, n), NULL, "tensor “w”", "needs 18446744073709551615 bytes");
    assert_true(peak_mb() < 100);
}

static void test_a_safetensors_header_or_data_past_the_end_is_refused(void **state)
{
    static const char one[] = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
    unsigned char b[256] = {0xe8, 0x03}; /* header length 1000 */
    char want[128];
    size_t n;

    (void)state;
    memcpy(b + 8, "{}", 2);
    refused(put_file("long.safetensors", b, 10), NULL, "byte 0:",
            "the header runs to byte 1008, but the file has only 10 bytes");
    n = safetensors(b, one, 4); /* 8 bytes of data declared, 4 there */
    snprintf(want, sizeof want, "the data runs to byte %zu, but the file has only %zu bytes",
             8 + strlen(one) + 8, n);
    refused(put_file("short.safetensors", b, n), "a", "tensor “a”", want);
}

static void test_overlapping_and_mis_sized_safetensors_data_are_refused(void **state)
{
    static const char overlap[] = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                                  "\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[4,12]}}";
    static const char sized[] = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2,2],\"data_offsets\":[0,12]}}";
    unsigned char b[256];
    char want[64];
    size_t n;

    (void)state;
    n = safetensors(b, overlap, 12);
    snprintf(want, sizeof want, "tensor “b”, byte %zu:", 8 + strlen(overlap) + 4);
    refused(put_file("overlap.safetensors", b, n), "a", want, "its data overlaps the data of “a”");
    n = safetensors(b, sized, 12);
    snprintf(want, sizeof want, "tensor “a”, byte %zu:", 8 + strlen(sized));
    refused(put_file("sized.safetensors", b, n), "a", want, "shape (2, 2) of F32 needs 16 bytes; 12 are given");
}

static void test_non_string_metadata_and_broken_json_are_refused_where_they_stand(void **state)
{
    static const char meta[] = "{\"__metadata__\":{\"format\":1}}";
    static const char broken[] = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2,],\"data_offsets\":[0,8]}}";
    unsigned char b[256];
    char want[32];

    (void)state;
    snprintf(want, sizeof want, "byte %zu:", 8 + strlen("{\"__metadata__\":{\"format\":"));
    refused(put_file("meta.safetensors", b, safetensors(b, meta, 0)), NULL, want,
            "the values of __metadata__ must all be strings");
    snprintf(want, sizeof want, "byte %zu:", 8 + strlen("{\"a\":{\"dtype\":\"F32\",\"shape\":[2,"));
    refused(put_file("broken.safetensors", b, safetensors(b, broken, 8)), "a", want,
            "a non-negative integer expected, “]");
}

/* w.npz is wq, wk and b (make.py), each member a local header "PK\3\4" and its .npy. */
static void test_truncated_compressed_and_broken_zips_are_refused(void **state)
{
    char *z = slurp(DATA "w.npz");
    FILE *f = fopen(DATA "w.npz", "rb");
    long size;
    char *second;

    (void)state;
    assert_non_null(z);
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    size = ftell(f);
    fclose(f);
    refused(put_file("cut.npz", z, (size_t)size / 2), "wq", "the end of the ZIP's central directory is missing");
    refused("w_compressed.npz", "wq", "tensor “wq”, byte 0:", "is compressed (numpy.savez_compressed");
    second = memchr(z + 4, 'P', (size_t)size - 4);
    while (second != NULL && memcmp(second, "PK\3\4", 4) != 0)
        second = memchr(second + 1, 'P', (size_t)(z + size - second - 1));
    assert_non_null(second);
    second[0] = 'X'; /* the second member's header spoilt */
    refused(put_file("spoilt.npz", z, (size_t)size), "wk", "tensor “wk”",
            "the header of a ZIP member (PK\\3\\4) was expected here");
    free(z);
}

/* Little-endian n-byte v at p; returns p + n. */
static unsigned char *le_put(unsigned char *p, uint64_t v, int n)
{
    int i;

    for (i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
    return p + n;
}

/* A ZIP64 archive as a writer of files over 4 GiB makes it (the sizes and the offset
 * 0xffffffff in the entries, the real ones in their ZIP64 extra fields, and the ZIP64
 * end records), built here by the layout of the ZIP specification (APPNOTE 4.3.6-4.3.16,
 * 4.5.3): its member x.npy is tests/data/npy/x.npy, and must load as that file does. */
static void test_a_zip64_npz_loads_as_its_member_does(void **state)
{
    static unsigned char z[1024];
    char *npy = slurp(DATA "x.npy");
    const size_t n = 384; /* x.npy: a 128-byte header and 4 x 8 doubles */
    unsigned char *p = z;
    as_input a, b;
    as_error err;
    char text[256];
    size_t cd_at, z64;

    (void)state;
    assert_non_null(npy);
    p = le_put(p, 0x04034b50, 4), p = le_put(p, 45, 2), p = le_put(p, 0, 2), p = le_put(p, 0, 2);
    p = le_put(p, 0, 4), p = le_put(p, 0, 4), p = le_put(p, 0xffffffff, 4), p = le_put(p, 0xffffffff, 4);
    p = le_put(p, 5, 2), p = le_put(p, 20, 2), memcpy(p, "x.npy", 5), p += 5;
    p = le_put(p, 1, 2), p = le_put(p, 16, 2), p = le_put(p, n, 8), p = le_put(p, n, 8);
    memcpy(p, npy, n), p += n;
    cd_at = (size_t)(p - z);
    p = le_put(p, 0x02014b50, 4), p = le_put(p, 45, 2), p = le_put(p, 45, 2), p = le_put(p, 0, 2);
    p = le_put(p, 0, 2), p = le_put(p, 0, 4), p = le_put(p, 0, 4);
    p = le_put(p, 0xffffffff, 4), p = le_put(p, 0xffffffff, 4), p = le_put(p, 5, 2);
    p = le_put(p, 28, 2), p = le_put(p, 0, 2), p = le_put(p, 0, 2), p = le_put(p, 0, 2);
    p = le_put(p, 0, 4), p = le_put(p, 0xffffffff, 4), memcpy(p, "x.npy", 5), p += 5;
    p = le_put(p, 1, 2), p = le_put(p, 24, 2), p = le_put(p, n, 8), p = le_put(p, n, 8);
    p = le_put(p, 0, 8);
    z64 = (size_t)(p - z);
    p = le_put(p, 0x06064b50, 4), p = le_put(p, 44, 8), p = le_put(p, 45, 2), p = le_put(p, 45, 2);
    p = le_put(p, 0, 4), p = le_put(p, 0, 4), p = le_put(p, 1, 8), p = le_put(p, 1, 8);
    p = le_put(p, (uint64_t)(z64 - cd_at), 8), p = le_put(p, cd_at, 8);
    p = le_put(p, 0x07064b50, 4), p = le_put(p, 0, 4), p = le_put(p, z64, 8), p = le_put(p, 1, 4);
    p = le_put(p, 0x06054b50, 4), p = le_put(p, 0, 2), p = le_put(p, 0, 2), p = le_put(p, 0xffff, 2);
    p = le_put(p, 0xffff, 2), p = le_put(p, 0xffffffff, 4), p = le_put(p, 0xffffffff, 4);
    p = le_put(p, 0, 2);
    snprintf(text, sizeof text, "X = load(\"%s\", \"x\")\n", put_file("zip64.npz", z, (size_t)(p - z)));
    assert_int_equal(parse_in_data(&a, &err, text), 0);
    assert_int_equal(parse_in_data(&b, &err, "X = load(\"x.npy\")\n"), 0);
    assert_int_equal(a.mat[AS_X].m.rows, 4);
    assert_int_equal(a.mat[AS_X].m.cols, 8);
    assert_memory_equal(a.mat[AS_X].m.v, b.mat[AS_X].m.v, 32 * sizeof(double));
    as_input_free(&a);
    as_input_free(&b);
    free(npy);
}

static void test_dtypes_and_shapes_not_read_are_named_with_what_is(void **state)
{
    (void)state;
    refused("i8.npy", NULL, "dtype “<i8” cannot be read; <f8, <f4, <f2, >f8, >f4 or >f2 can");
    refused("cube.npy", NULL, "shape (2, 2, 2) is neither a row (n,) nor a matrix (r, c)");
    refused("scalar.npy", NULL, "shape () is neither");
}

static void test_nan_and_inf_are_refused_at_their_cell_and_byte(void **state)
{
    double v[4] = {1, 2, NAN, 4}, m[4] = {0, -INFINITY, 0, 0};
    unsigned char b[256];
    const char *path;
    as_input in;
    as_error err;
    char text[256];

    (void)state;
    /* the doubles are written in this machine's order: the test reads the same bytes */
    path = put_file("nan.npy", b, npy_v1(b, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", v, 32));
    refused(path, NULL, "byte 144:", "row 1, column 0 is NaN, not a finite number");
    path = put_file("inf.npy", b, npy_v1(b, "{'descr': '<f8', 'fortran_order': False, 'shape': (2, 2), }", m, 32));
    refused(path, NULL, "byte 136:", "row 0, column 1 is -inf");
    snprintf(text, sizeof text, "M = load(\"%s\")\n", path); /* the mask may hold -inf */
    assert_int_equal(parse_in_data(&in, &err, text), 0);
    assert_true(isinf(in.mat[AS_M].m.v[1]) && in.mat[AS_M].m.v[1] < 0);
    as_input_free(&in);
}

/* A tensor of 12 MiB (read by both threads, in pieces of 256 KiB taken as they come
 * free): every element is the double that C's own float-to-double conversion gives for
 * its bits (exact, IEEE 754), in either byte order; the first NaN or infinity in row
 * order is the one named, wherever the piece that holds it went. */
static void test_a_large_float32_tensor_widens_exactly_on_both_threads(void **state)
{
    enum { ROWS = 2048, COLS = 1536, N = ROWS * COLS };
    const char *dicts[2] = {"{'descr': '<f4', 'fortran_order': False, 'shape': (2048, 1536), }",
                            "{'descr': '>f4', 'fortran_order': False, 'shape': (2048, 1536), }"};
    unsigned char *b = malloc(128 + (size_t)N * 4);
    uint32_t *bits = malloc((size_t)N * 4);
    const char *path;
    as_input in;
    as_error err;
    char text[256];
    size_t i, k;
    int big;

    (void)state;
    assert_non_null(b);
    assert_non_null(bits);
    for (i = 0; i < N; i++) { /* every exponent and sign, none all ones */
        bits[i] = (uint32_t)(i * 2654435761u);
        if ((bits[i] & 0x7f800000u) == 0x7f800000u)
            bits[i] ^= 0x00800000u;
    }
    for (big = 0; big < 2; big++) {
        npy_v1(b, dicts[big], b + 128, 0);
        for (i = 0; i < N; i++)
            for (k = 0; k < 4; k++)
                b[128 + 4 * i + k] = (unsigned char)(bits[i] >> (big ? 24 - 8 * k : 8 * k));
        path = put_file("big.npy", b, 128 + (size_t)N * 4);
        snprintf(text, sizeof text, "X = load(\"%s\")\n", path);
        assert_int_equal(parse_in_data(&in, &err, text), 0);
        assert_int_equal(in.mat[AS_X].m.rows, ROWS);
        for (i = 0; i < N; i++) {
            float f;
            double want;
            memcpy(&f, &bits[i], 4);
            want = f;
            if (memcmp(&want, &in.mat[AS_X].m.v[i], sizeof want) != 0)
                fail_msg("%s [%zu]: loaded %a, the float is %a", dicts[big], i, in.mat[AS_X].m.v[i], want);
        }
        as_input_free(&in);
    }
    /* little-endian again, a NaN in the last rows and an -inf before it */
    npy_v1(b, dicts[0], b + 128, 0);
    memcpy(b + 128, bits, (size_t)N * 4); /* this machine's order: x86 and ARM little-endian */
    memcpy(b + 128 + (2000u * COLS + 7) * 4, "\0\0\xc0\x7f", 4);
    path = put_file("nan.npy", b, 128 + (size_t)N * 4);
    refused(path, NULL, "byte 12288156:", "row 2000, column 7 is NaN");
    memcpy(b + 128 + (1500u * COLS + 2) * 4, "\0\0\x80\xff", 4);
    path = put_file("inf.npy", b, 128 + (size_t)N * 4);
    refused(path, NULL, "byte 9216136:", "row 1500, column 2 is -inf");
    free(bits);
    free(b);
}

static void test_a_wrong_name_or_slice_is_refused_with_what_there_is(void **state)
{
    (void)state;
    refused_as("gpt2.safetensors", "h.0.attn.c_attn.weight", "[:, 0:100]", 0,
               "slice [:, 0:100] lies outside the shape (8, 24)", NULL);
    refused_as("gpt2.safetensors", "h.0.attn.c_attn.bias", "[0:8, 0:1]", 0,
               "the 1-D shape (24,) takes one slice", NULL);
    refused_as("gpt2.safetensors", "h.0.attn.c_attn.bias", "[8:8]", 0, "slice [8:8] lies outside", NULL);
    refused_as("gpt2.safetensors", "h.0.attn.c_attn.bias", "[-1:]", 0, "a slice is written [a:b]", NULL);
    refused("gpt2.safetensors", NULL, "gpt2.safetensors”: the file holds 28 tensors: say which one to load");
    refused("w.npz", "wv", "there is no tensor “wv”; there are “wq”, “wk” and “b”");
    refused("x.npy", "wq", "holds one matrix and no names");
    refused("gpt2-text/x.txt", "wq", "holds one matrix and no names");
}

/* ------------------------------------------------------------------ weights FILE ---- */

/* w.npz holds wq (2x3 float64: 48 bytes), wk (2x3 float32: 24) and b (3 float16: 6), as
 * make.py saved them; x.npy a 4x8 float64 after numpy's 128-byte header. */
static void test_weights_lists_each_tensor_with_dtype_shape_and_bytes(void **state)
{
    (void)state;
    assert_int_equal(run("weights --lang en " DATA "w.npz"), 0);
    assert_golden_text("name  dtype  shape   bytes\n"
                       "wq    <f8    (2, 3)  48\n"
                       "wk    <f4    (2, 3)  24\n"
                       "b     <f2    (3,)    6\n"
                       "npz file, 3 tensors, 78 bytes\n");
    assert_int_equal(run("weights " DATA "x.npy"), 0);
    assert_golden_text("名字  数据类型  形状    字节数\n"
                       "-     <f8       (4, 8)  256\n"
                       "npy文件，1个张量，共256字节\n");
    assert_int_equal(run("weights --format json " DATA "x.npy"), 0);
    assert_golden_text("{\"file\": \"" DATA "x.npy\", \"format\": \"npy\", \"tensors\": [\n"
                       "  {\"name\": \"\", \"dtype\": \"<f8\", \"shape\": [4, 8], \"offset\": 128, "
                       "\"bytes\": 256}\n]}\n");
    assert_int_equal(run("weights --format json " DATA "gpt2.safetensors"), 0);
    assert_file_contains(OUT, "{\"name\": \"h.1.attn.c_attn.weight\", \"dtype\": \"F32\", "
                              "\"shape\": [8, 24], \"offset\": ");
}

static void test_weights_refuses_text_devices_and_hostile_files_clearly(void **state)
{
    (void)state;
    assert_int_equal(run("weights --lang en " DATA "gpt2-text/x.txt"), 2);
    assert_file_contains(ERR, "is no .npy, .npz or .safetensors file");
    assert_stdout_empty();
    assert_int_equal(run("weights --lang en /dev/zero"), 2); /* refused, not read for ever */
    assert_file_contains(ERR, "cannot load");
    assert_int_equal(run("weights --lang en " DATA "w_compressed.npz"), 2);
    assert_file_contains(ERR, "numpy.savez_compressed");
    assert_stdout_empty();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_npy_dtype_version_and_order_loads_as_numpy_holds_it),
        cmocka_unit_test(test_npz_members_and_safetensors_load_as_numpy_holds_them),
        cmocka_unit_test(test_float16_subnormals_and_signed_zero_widen_exactly),
        cmocka_unit_test(test_slices_of_packed_c_attn_equal_numpys_separate_tables),
        cmocka_unit_test(test_a_slice_takes_rows_and_columns_numpy_style),
        cmocka_unit_test(test_a_run_from_binary_files_equals_the_run_from_savetxt_text),
        cmocka_unit_test(test_an_npy_header_claiming_more_than_the_file_is_refused_at_byte_8),
        cmocka_unit_test(test_huge_declared_shapes_are_refused_before_allocating),
        cmocka_unit_test(test_a_safetensors_header_or_data_past_the_end_is_refused),
        cmocka_unit_test(test_overlapping_and_mis_sized_safetensors_data_are_refused),
        cmocka_unit_test(test_non_string_metadata_and_broken_json_are_refused_where_they_stand),
        cmocka_unit_test(test_truncated_compressed_and_broken_zips_are_refused),
        cmocka_unit_test(test_a_zip64_npz_loads_as_its_member_does),
        cmocka_unit_test(test_dtypes_and_shapes_not_read_are_named_with_what_is),
        cmocka_unit_test(test_nan_and_inf_are_refused_at_their_cell_and_byte),
        cmocka_unit_test(test_a_large_float32_tensor_widens_exactly_on_both_threads),
        cmocka_unit_test(test_a_wrong_name_or_slice_is_refused_with_what_there_is),
        cmocka_unit_test(test_weights_lists_each_tensor_with_dtype_shape_and_bytes),
        cmocka_unit_test(test_a_malformed_npy_header_is_refused_where_it_stops),
        cmocka_unit_test(test_weights_refuses_text_devices_and_hostile_files_clearly),
    };

    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
