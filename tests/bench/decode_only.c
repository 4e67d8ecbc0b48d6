/* decode_only.c - times the compute of `decode` against the lean run of `run --only O`
 * on one input, in one process (parsing once), for tests/bench/bench.sh:
 *
 *     decode_only FILE [REPEATS]
 *
 * Prints "key value" lines: lean_s and decode_s (the best of REPEATS, default 3, each),
 * and same (yes when decode's O is the lean run's bit for bit). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "attnstep/attention.h"
#include "attnstep/decode.h"
#include "attnstep/model.h"
#include "attnstep/parse.h"

static double now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    const int repeats = argc > 2 ? atoi(argv[2]) : 3;
    double best_lean = 1e300, best_decode = 1e300, t0;
    as_input in;
    as_problem p;
    as_trace t;
    as_decode d;
    as_error err;
    int i, same = 1;

    as_error_clear(&err);
    if (argc < 2 || as_parse_file(&in, argv[1], &err) != 0 ||
        as_problem_build(&p, &in, AS_MASK_DEFAULT, &err) != 0) {
        as_error_print(&err, stderr);
        return 2;
    }
    for (i = 0; i < repeats; i++) {
        t0 = now();
        if (as_attention_run_lean(&t, &p, &err) != 0)
            return 2;
        if (now() - t0 < best_lean)
            best_lean = now() - t0;
        t0 = now();
        if (as_decode_run(&d, &p, 0, &err) != 0)
            return 2;
        if (now() - t0 < best_decode)
            best_decode = now() - t0;
        same &= memcmp(d.O.v, t.O.v, d.O.rows * d.O.cols * sizeof(double)) == 0;
        as_decode_free(&d);
        as_trace_free(&t);
    }
    printf("lean_s %.6f\ndecode_s %.6f\nsame %s\n", best_lean, best_decode, same ? "yes" : "no");
    as_problem_free(&p);
    as_input_free(&in);
    return same ? 0 : 1;
}
