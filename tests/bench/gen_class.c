/* gen_class.c - writes a class of N answers files (default 1000) for timing `check`:
 * the 46 students of tests/class_roster.h over and over, each copy under its own file
 * name, and the problem they worked. Usage: gen_class DIR [N]; then
 * `attnstep check DIR/problem.txt DIR/class --format csv`. See tests/bench/bench_check.sh. */
#include "../class_roster.h"

int main(int argc, char **argv)
{
    char dir[400], path[600];
    long n = argc > 2 ? strtol(argv[2], NULL, 10) : 1000, i, k;
    FILE *f;

    if (argc < 2 || n < 1) {
        fputs("usage: gen_class DIR [N]\n", stderr);
        return 2;
    }
    snprintf(path, sizeof path, "%s/problem.txt", argv[1]);
    if ((f = fopen(path, "w")) == NULL)
        return 1;
    fputs(gproblem_text, f);
    fclose(f);
    snprintf(dir, sizeof dir, "%s/class", argv[1]);
    for (i = 0, k = 0; i < n; i++, k++) {
        gstudent s;
        char file[64];
        while (groster[k % (long)GROSTER].unreadable)
            k++; /* every readable student, in turn */
        s = groster[k % (long)GROSTER];
        snprintf(file, sizeof file, "%04ld_%s", i, s.file);
        s.file = file;
        if (g_write(dir, &s, (int)i) != 0)
            return 1;
    }
    return 0;
}
