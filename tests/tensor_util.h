/* tensor_util.h - the binary weight files of the readers' tests (test_npy.c,
 * test_safetensors.c), opened from memory as the fuzzers give them, and the exact error
 * each hostile one must give. Include after <cmocka.h>. */
#ifndef ATTNSTEP_TENSOR_UTIL_H
#define ATTNSTEP_TENSOR_UTIL_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "attnstep/tensor.h"

/* The hints a reader gives, as the message table writes them in English. */
#define HINT_TRUNCATED "the file may be cut short: save it again with numpy or safetensors"
#define HINT_DIMS "save a 1-D or 2-D part of it in numpy and load that, e.g. np.save('w.npy', a[0])"

/* Little-endian n-byte v at p; returns p + n. */
static inline unsigned char *le_put(unsigned char *p, uint64_t v, int n)
{
    int i;

    for (i = 0; i < n; i++)
        p[i] = (unsigned char)(v >> (8 * i));
    return p + n;
}

/* Indexes bytes[0..n) as the file path (held in memory), errors in English recorded as
 * at line 1, column 5 of "input.txt". What as_tensor_open() returns. */
static inline int open_mem(as_tensor_file *f, as_error *err, const char *path, const void *bytes,
                           size_t n)
{
    as_tensor_where where = {err, "input.txt", 1, 5};

    as_error_init(err, AS_LANG_EN);
    return as_tensor_open(f, path, -1, bytes, n, where);
}

/* bytes[0..n), as the file path, are refused while indexed, with exactly the message msg
 * and the hint hint, at the place the caller gave. */
static inline void refused_mem(const char *path, const void *bytes, size_t n, const char *msg,
                               const char *hint)
{
    as_tensor_file f;
    as_error err;

    if (open_mem(&f, &err, path, bytes, n) == 0) {
        as_tensor_close(&f);
        fail_msg("%s was indexed; \"%s\" was expected", path, msg);
    }
    assert_string_equal(err.msg, msg);
    assert_string_equal(err.hint, hint);
    assert_string_equal(err.file, "input.txt");
    assert_int_equal(err.line, 1);
    assert_int_equal(err.col, 5);
}

/* A file of bytes[0..n), then size bytes long in all (a sparse tail of zeros), its name
 * gone already (nothing to clean up); open for reading, its fd returned. */
static inline int file_of(const void *bytes, size_t n, off_t size)
{
    char path[] = "/tmp/attnstep-st-XXXXXX";
    int fd = mkstemp(path);

    assert_true(fd >= 0);
    assert_int_equal(unlink(path), 0);
    assert_int_equal(write(fd, bytes, n), (ssize_t)n);
    assert_int_equal(ftruncate(fd, size), 0);
    return fd;
}

/* The file open as fd, said to be size bytes long, is refused with msg and hint. */
static inline void fd_refused(int fd, const char *path, uint64_t size, const char *msg, const char *hint)
{
    as_tensor_where where = {NULL, "input.txt", 1, 5};
    as_tensor_file f;
    as_error err;

    as_error_init(&err, AS_LANG_EN);
    where.err = &err;
    if (as_tensor_open(&f, path, fd, NULL, size, where) == 0) {
        as_tensor_close(&f);
        fail_msg("%s was indexed", path);
    }
    assert_string_equal(err.msg, msg);
    assert_string_equal(err.hint, hint);
    close(fd);
}

/* bytes[0..n), as the file path, are indexed, and asking it for the tensor name (NULL:
 * its only one) finds none, with exactly the message msg. */
static inline void not_found(const char *path, const void *bytes, size_t n, const char *name,
                             const char *msg)
{
    as_tensor_file f;
    as_error err;

    if (open_mem(&f, &err, path, bytes, n) != 0)
        fail_msg("%s: %s", path, err.msg);
    assert_null(as_tensor_find(&f, name, name != NULL ? strlen(name) : 0));
    assert_string_equal(err.msg, msg);
    as_tensor_close(&f);
}

#endif
