/* tensor_load.c - the load rate of a binary weight file for `make bench` (issue 32): one
 * tensor read whole into doubles by the loader load() uses (tensor.h: index, check, pread,
 * widen), against the same bytes only pread into a buffer (what the memory and the page
 * cache allow: the limit of any loader).
 *
 *     tensor_load FILE [TENSOR]
 *
 * Prints "bytes", "load_s" and "pread_s": best of 3 each, the file in the page cache;
 * and "load_cpu_s", "pread_cpu_s": the CPU time of the same (both threads, user and
 * system), best of 3, which a machine shared with other work moves far less than the
 * wall time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attnstep/tensor.h"

static double clock_s(clockid_t c)
{
    struct timespec t;

    clock_gettime(c, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double now(void) { return clock_s(CLOCK_MONOTONIC); }
static double cpu(void) { return clock_s(CLOCK_PROCESS_CPUTIME_ID); }

int main(int argc, char **argv)
{
    as_error err;
    as_tensor_file f;
    const as_tensor *t;
    uint64_t rows, cols;
    double best_load = 1e30, best_pread = 1e30, cpu_load = 1e30, cpu_pread = 1e30, t0, c0, *v;
    unsigned char *raw;
    int k;

    if (argc < 2) {
        fprintf(stderr, "usage: tensor_load FILE [TENSOR]\n");
        return 2;
    }
    as_error_init(&err, AS_LANG_EN);
    for (k = 0; k < 3; k++) {
        const as_tensor_where where = {&err, argv[1], 0, 0};
        t0 = now(), c0 = cpu();
        if (as_tensor_open_path(&f, argv[1], where) != 0 ||
            (t = as_tensor_find(&f, argc > 2 ? argv[2] : NULL, argc > 2 ? strlen(argv[2]) : 0)) == NULL ||
            as_tensor_matrix_shape(&f, t, &rows, &cols) != 0 ||
            as_tensor_read(&f, t, (as_tensor_slice){0, rows, 0, cols}, 0, &v) != 0) {
            fprintf(stderr, "tensor_load: %s\n", err.msg);
            return 1;
        }
        if (now() - t0 < best_load)
            best_load = now() - t0;
        if (cpu() - c0 < cpu_load)
            cpu_load = cpu() - c0;
        free(v);
        if ((raw = malloc((size_t)t->bytes)) == NULL)
            return 1;
        t0 = now(), c0 = cpu();
        if (as_tensor_pread(&f, t->offset, raw, (size_t)t->bytes) != 0)
            return 1;
        if (now() - t0 < best_pread)
            best_pread = now() - t0;
        if (cpu() - c0 < cpu_pread)
            cpu_pread = cpu() - c0;
        free(raw);
        if (k == 2)
            printf("bytes %llu\n", (unsigned long long)t->bytes);
        as_tensor_close(&f);
    }
    printf("load_s %.6f\npread_s %.6f\nload_cpu_s %.6f\npread_cpu_s %.6f\n", best_load, best_pread,
           cpu_load, cpu_pread);
    return 0;
}
