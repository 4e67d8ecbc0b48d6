/* test_safetensors.c - the .safetensors reader (safetensors.c) on hostile and edge files:
 * its JSON header read where it breaks (strings and every escape, integers, arrays,
 * objects, what may follow them), each key of a tensor's entry, the __metadata__, the
 * offsets against the data, a header longer than the reader takes, and a file that
 * ends while it is read.
 *
 * Where the expected values come from: every file is built here byte by byte by the
 * layout of the safetensors format (huggingface/safetensors README: 8 bytes of header
 * length, little-endian, then the JSON); the byte that each error must name is 8 plus
 * the index in the JSON text, counted by hand and written next to the case. The UTF-8
 * of the escapes is that of the Unicode standard (U+00E9 is C3 A9, U+20AC E2 82 AC,
 * U+1F600 F0 9F 98 80). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tensor_util.h"

#define HINT_JSON "a safetensors header is JSON such as {\"name\": {\"dtype\": \"F32\", \"shape\": " \
                  "[2, 3], \"data_offsets\": [0, 24]}}"
#define STRING "a string in double quotes"
#define INTEGER "a non-negative integer"
#define NEXT "“,” or the closing bracket"
#define COLON "“:”"
#define VALUE "a value"
#define KEYS "“dtype”, “shape” or “data_offsets”"
#define OFFSETS "two integers [begin, end]"

/* A .safetensors with the JSON header json[0..len) and n data bytes (zeros); into b. */
static size_t st_n(unsigned char *b, const char *json, size_t len, size_t n)
{
    le_put(b, len, 8);
    memcpy(b + 8, json, len);
    memset(b + 8 + len, 0, n);
    return 8 + len + n;
}

static size_t st(unsigned char *b, const char *json, size_t n)
{
    return st_n(b, json, strlen(json), n);
}

/* The file of header json (no data) is refused at byte 8 + index with "the JSON header
 * cannot be read here: expected expected, “rest” found". */
static void json_refused_n(const char *json, size_t len, int index, const char *expected,
                           const char *rest)
{
    unsigned char b[512];
    char want[512];

    snprintf(want, sizeof want, "“m.safetensors”, byte %d: the JSON header cannot be read here: "
             "%s expected, “%s” found", 8 + index, expected, rest);
    refused_mem("m.safetensors", b, st_n(b, json, len, 0), want, HINT_JSON);
}

#define json_refused(json, index, expected, rest) \
    json_refused_n(json, strlen(json), index, expected, rest)

/* ------------------------------------------------------------------ strings ---- */

/* Each escape of JSON (RFC 8259 §7) in a tensor's name decodes to its UTF-8. */
static void test_every_json_escape_in_a_name_decodes_to_its_utf8(void **state)
{
    static const char json[] =
        "{\"\\u0041\\u00e9\\u20AC\\ud83d\\ude00\\n\\t\\\"\\\\\\/\\b\\f\\r\":"
        "{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    static const char name[] = "A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\n\t\"\\/\b\f\r";
    unsigned char b[512];
    as_tensor_file f;
    as_error err;

    (void)state;
    assert_int_equal(open_mem(&f, &err, "m.safetensors", b, st(b, json, 4)), 0);
    assert_int_equal(f.n, 1);
    assert_string_equal(f.t[0].name, name);
    assert_int_equal(f.t[0].bytes, 4);
    as_tensor_close(&f);
}

/* The escapes at the edges of the ranges: U+07FF and U+0800 (two bytes, then three),
 * U+E000 just past the surrogates and U+FFFF, worked out by hand from RFC 3629 (DF BF,
 * E0 A0 80, EE 80 80, EF BF BF); a high surrogate before U+E000, or a hex digit that is a
 * ':' or a '@' (the bytes beside '9' and 'A'), is refused at the escape. */
static void test_escapes_at_the_edges_of_the_ranges_decode_or_are_refused(void **state)
{
    static const char json[] =
        "{\"\\u07FF\\u0800\\ue000\\uFFFF\":"
        "{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    unsigned char b[512];
    as_tensor_file f;
    as_error err;

    (void)state;
    assert_int_equal(open_mem(&f, &err, "m.safetensors", b, st(b, json, 4)), 0);
    assert_string_equal(f.t[0].name, "\xdf\xbf\xe0\xa0\x80\xee\x80\x80\xef\xbf\xbf");
    as_tensor_close(&f);
    json_refused("{\"\\ud83d\\ue000\":1}", 2, STRING, "\\ud83d\\ue000\":1}");
    json_refused("{\"\\u00:0\":1}", 2, STRING, "\\u00:0\":1}");
    json_refused("{\"\\u00@0\":1}", 2, STRING, "\\u00@0\":1}");
}

static void test_a_string_broken_anywhere_is_refused_at_its_escape_or_quote(void **state)
{
    (void)state;
    json_refused("{\"abc", 5, STRING, "");                    /* never closed: the end */
    json_refused("{\"a\x01" "b\":1}", 3, STRING, "\\x01b\":1}"); /* a control character */
    json_refused("{\"a\\xb\":1}", 3, STRING, "\\xb\":1}");    /* no escape of JSON's */
    json_refused("{\"a\\", 3, STRING, "\\");                  /* a backslash, then the end */
    json_refused("{\"\\u0000\":1}", 2, STRING, "\\u0000\":1}"); /* NUL: no name holds it */
    json_refused("{\"\\u12", 2, STRING, "\\u12");             /* four hex digits needed */
    json_refused("{\"\\u12g4\":1}", 2, STRING, "\\u12g4\":1}");
    json_refused("{\"\\udc00\":1}", 2, STRING, "\\udc00\":1}"); /* a low surrogate alone */
    json_refused("{\"\\ud83d\":1}", 2, STRING, "\\ud83d\":1}"); /* a high one alone */
    json_refused("{\"\\ud83dabcdef\":1}", 2, STRING, "\\ud83dabcdef\":1}");
    json_refused("{\"\\ud83d\\x0041\":1}", 2, STRING, "\\ud83d\\x0041\":1}");
    json_refused("{\"\\ud83d\\uZZZZ\":1}", 2, STRING, "\\ud83d\\uZZZZ\":1}");
    json_refused("{\"\\ud83d\\u0041\":1}", 2, STRING, "\\ud83d\\u0041\":1}"); /* no low one */
    /* a byte of no UTF-8 character, named and quoted as the file has it (the decoding of
     * the escapes before it, in place, once quoted "é\xc30e9\xc3" here) */
    json_refused("{\"\xff\":1}", 2, STRING, "\\xff\":1}");
    json_refused("{\"\\u00e9\xc3\":1}", 8, STRING, "\\xc3\":1}");
    json_refused("{5:1}", 1, STRING, "5:1}");                /* a key that is no string */
}

/* ------------------------------------------------------------------ objects ---- */

static void test_what_follows_a_key_or_a_value_must_be_what_json_allows(void **state)
{
    (void)state;
    json_refused("{\"a\" 1}", 5, COLON, "1}");              /* no ":" after the name */
    json_refused("{} x", 3, NEXT, "x");                      /* more after the header's end */
    json_refused("{\"__metadata__\":{} \"b\"", 19, NEXT, "\"b\"");  /* {"__metadata__":{} is 18 */
    json_refused("{\"a\":5}", 5, "“{”", "5}");               /* a tensor that is no object */
    json_refused("{\"a\":{\"dtype\":5}}", 14, STRING, "5}}"); /* {"a":{"dtype": is 14 */
}

static void test_a_key_of_an_entry_not_known_or_given_twice_is_refused_at_its_quote(void **state)
{
    (void)state;
    /* {"a":{ is 6 characters: the first key's quote at 6 */
    json_refused("{\"a\":{\"dtypes\":\"F32\"}}", 6, KEYS, "\"dtypes\":\"F32\"}}");
    json_refused("{\"a\":{\"shap3\":[1]}}", 6, KEYS, "\"shap3\":[1]}}");
    json_refused("{\"a\":{\"data_offset5\":[0]}}", 6, KEYS, "\"data_offset5\":[0]}}");
    /* "dtype":"F32", is 14: the second key at 20; "shape":[1], 12: at 18; "data_offsets":[0,4], 21: at 27 */
    json_refused("{\"a\":{\"dtype\":\"F32\",\"dtype\":\"F32\"}}", 20, KEYS, "\"dtype\":\"F32\"}}");
    json_refused("{\"a\":{\"shape\":[1],\"shape\":[1]}}", 18, KEYS, "\"shape\":[1]}}");
    json_refused("{\"a\":{\"data_offsets\":[0,4],\"data_offsets\":[0,4]}}", 27, KEYS,
                 "\"data_offsets\":[0,4]}}");
}

/* An entry that lacks a key is named at its "{" (at 5, after {"a":). */
static void test_a_missing_key_of_an_entry_is_named_at_the_entry(void **state)
{
    unsigned char b[256];

    (void)state;
    refused_mem("m.safetensors", b, st(b, "{\"a\":{}}", 0),
                "“m.safetensors”, tensor “a”, byte 13: “dtype” is missing", HINT_JSON);
    refused_mem("m.safetensors", b, st(b, "{\"a\":{\"dtype\":\"F32\"}}", 0),
                "“m.safetensors”, tensor “a”, byte 13: “shape” is missing", HINT_JSON);
    refused_mem("m.safetensors", b, st(b, "{\"a\":{\"dtype\":\"F32\",\"shape\":[1]}}", 0),
                "“m.safetensors”, tensor “a”, byte 13: “data_offsets” is missing", HINT_JSON);
}

/* ------------------------------------------------------------------ arrays ---- */

static void test_a_shape_that_is_no_array_of_small_integers_is_refused_where_it_breaks(void **state)
{
    unsigned char b[256];

    (void)state;
    /* {"a":{"shape": is 14 characters: "[" at 14, the first integer at 15 */
    json_refused("{\"a\":{\"shape\":2}}", 14, VALUE, "2}}");
    json_refused("{\"a\":{\"shape\":[\"x\"]}}", 15, INTEGER, "\"x\"]}}");
    json_refused("{\"a\":{\"shape\":[1;2]}}", 16, NEXT, ";2]}}");
    json_refused("{\"a\":{\"shape\":[1", 16, NEXT, "");
    json_refused("{\"a\":{\"shape\":[", 15, INTEGER, "");
    /* 10^18 - 1 after 18 nines is more than 2^62 / 10: the 19th (at 33) is refused */
    json_refused("{\"a\":{\"shape\":[99999999999999999999]}}", 33, INTEGER, "99]}}");
    /* the ninth dimension, at 15 + 16 = 31 */
    refused_mem("m.safetensors", b, st(b, "{\"a\":{\"shape\":[1,1,1,1,1,1,1,1,1]}}", 0),
                "“m.safetensors”, tensor “a”, byte 39: the shape has more than 8 dimensions", HINT_DIMS);
}

static void test_data_offsets_that_are_not_two_integers_in_order_are_refused(void **state)
{
    unsigned char b[256];

    (void)state;
    /* {"a":{"data_offsets": is 21 characters: the value at 21 */
    json_refused("{\"a\":{\"data_offsets\":0}}", 21, VALUE, "0}}");
    json_refused("{\"a\":{\"data_offsets\":[4]}}", 21, OFFSETS, "[4]}}");
    json_refused("{\"a\":{\"data_offsets\":[]}}", 21, OFFSETS, "[]}}");
    json_refused("{\"a\":{\"data_offsets\":[0,4,8]}}", 21, OFFSETS, "[0,4,8]}}");
    refused_mem("m.safetensors", b,
                st(b, "{\"a\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[4,0]}}", 4),
                "“m.safetensors”, tensor “a”, byte 13: data_offsets [4, 0] begin after they end",
                HINT_JSON);
}

/* ------------------------------------------------------------------ the file ---- */

static void test_metadata_strings_and_an_empty_tensor_are_read(void **state)
{
    static const char json[] =
        "{\"__metadata__\":{\"format\":\"pt\",\"k\":\"\\u00e9\"},"
        "\"abcdefghijkl\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]},"
        "\"b\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[0,4]}}";
    unsigned char b[512];
    as_tensor_file f;
    as_error err;

    (void)state;
    /* a 12-character name that is not __metadata__; an empty tensor at the offset of the
     * next: no overlap, it has no bytes */
    assert_int_equal(open_mem(&f, &err, "m.safetensors", b, st(b, json, 4)), 0);
    assert_int_equal(f.n, 2);
    assert_string_equal(f.t[0].name, "abcdefghijkl");
    assert_int_equal(f.t[0].bytes, 0);
    assert_int_equal(f.t[1].bytes, 4);
    assert_int_equal(f.t[1].offset, 8 + strlen(json));
    as_tensor_close(&f);
    json_refused("{\"__metadata__\":{\"k\":", 21, STRING, "");
}

/* The safetensors library writes an empty tensor at [k, k], k where the next one starts
 * (its own validation sorts by offsets and takes [8, 8] before [8, 16]); whether it is
 * listed before or after that one, it overlaps nothing. A tensor inside another does. */
static void test_an_empty_tensor_overlaps_nothing_and_an_overlap_past_it_is_found(void **state)
{
    static const char after[] = "{\"b\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                                "\"c\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[8,16]},"
                                "\"d\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[8,8]}}";
    static const char inside[] = "{\"x\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]},"
                                 "\"e\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[4,4]},"
                                 "\"y\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[6,10]}}";
    unsigned char b[512];
    as_tensor_file f;
    as_error err;
    char want[128];

    (void)state;
    if (open_mem(&f, &err, "m.safetensors", b, st(b, after, 16)) != 0)
        fail_msg("%s", err.msg);
    assert_int_equal(f.n, 3);
    assert_int_equal(f.t[2].bytes, 0);
    as_tensor_close(&f);
    snprintf(want, sizeof want, "“m.safetensors”, tensor “y”, byte %zu: its data overlaps the data "
             "of “x”", 8 + strlen(inside) + 6);
    refused_mem("m.safetensors", b, st(b, inside, 10), want,
                "the file is not as numpy or safetensors write one: save it again with them");
}

static void test_a_header_of_no_tensor_says_the_file_holds_none(void **state)
{
    unsigned char b[64];

    (void)state;
    not_found("m.safetensors", b, st(b, "{}", 0), NULL, "“m.safetensors”: the file holds no tensor");
    not_found("m.safetensors", b, st(b, "{\"__metadata__\":{}}", 0), "a",
              "“m.safetensors”: the file holds no tensor");
}

/* A header of 100 MiB + 1 bytes, in a sparse file that long: refused before it is read. */
static void test_a_header_longer_than_100_mib_is_refused_before_it_is_read(void **state)
{
    const uint64_t len = ((uint64_t)100 << 20) + 1;
    unsigned char head[9] = {0};
    int fd;

    (void)state;
    le_put(head, len, 8);
    head[8] = '{';
    fd = file_of(head, 9, (off_t)(8 + len));
    fd_refused(fd, "big.safetensors", 8 + len, "“big.safetensors”, byte 0: the header is 104857601 "
               "bytes long, more than the 104857600 read", HINT_JSON);
}

/* A file that was measured longer than it is when it is read (cut short meanwhile): the
 * bytes that are not there are named, for each reader. */
static void test_a_file_cut_short_after_it_was_measured_is_refused_where_it_ends(void **state)
{
    static const char json[] = "{\"a\":{\"dtype\":\"F32\",\"shape\":[2],\"data_offsets\":[0,8]}}";
    unsigned char b[256];
    size_t n = st(b, json, 8);
    int fd;

    (void)state;
    /* the header's 100 bytes said to be there, 1 is */
    le_put(b, 100, 8);
    fd = file_of(b, 9, 9);
    fd_refused(fd, "cut.safetensors", 108, "“cut.safetensors”, byte 8: the 100 bytes here cannot "
               "be read", HINT_TRUNCATED);
    /* the header whole, the data of "a" (8 bytes after it) said to be there, 4 are */
    n = st(b, json, 8);
    fd = file_of(b, n - 4, (off_t)(n - 4));
    {
        as_tensor_where where = {NULL, "input.txt", 1, 5};
        as_tensor_slice s = {0, 1, 0, 2};
        as_tensor_file f;
        as_error err;
        char want[128];
        double *v;

        as_error_init(&err, AS_LANG_EN);
        where.err = &err;
        assert_int_equal(as_tensor_open(&f, "data.safetensors", fd, NULL, n, where), 0);
        assert_int_equal(as_tensor_read(&f, &f.t[0], s, 0, &v), -1);
        snprintf(want, sizeof want, "“data.safetensors”, tensor “a”, byte %zu: the 8 bytes here "
                 "cannot be read", 8 + strlen(json));
        assert_string_equal(err.msg, want);
        assert_string_equal(err.hint, HINT_TRUNCATED);
        as_tensor_close(&f);
        close(fd);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_json_escape_in_a_name_decodes_to_its_utf8),
        cmocka_unit_test(test_escapes_at_the_edges_of_the_ranges_decode_or_are_refused),
        cmocka_unit_test(test_a_string_broken_anywhere_is_refused_at_its_escape_or_quote),
        cmocka_unit_test(test_what_follows_a_key_or_a_value_must_be_what_json_allows),
        cmocka_unit_test(test_a_key_of_an_entry_not_known_or_given_twice_is_refused_at_its_quote),
        cmocka_unit_test(test_a_missing_key_of_an_entry_is_named_at_the_entry),
        cmocka_unit_test(test_a_shape_that_is_no_array_of_small_integers_is_refused_where_it_breaks),
        cmocka_unit_test(test_data_offsets_that_are_not_two_integers_in_order_are_refused),
        cmocka_unit_test(test_metadata_strings_and_an_empty_tensor_are_read),
        cmocka_unit_test(test_an_empty_tensor_overlaps_nothing_and_an_overlap_past_it_is_found),
        cmocka_unit_test(test_a_header_of_no_tensor_says_the_file_holds_none),
        cmocka_unit_test(test_a_header_longer_than_100_mib_is_refused_before_it_is_read),
        cmocka_unit_test(test_a_file_cut_short_after_it_was_measured_is_refused_where_it_ends),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
