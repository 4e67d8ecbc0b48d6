/* replay_main.c - a plain main for the fuzz entry points, as cJSON's fuzzing/afl.c: it
 * feeds each file named on the command line (and each file of a directory named there)
 * to LLVMFuzzerTestOneInput() once, without libFuzzer, so that saved inputs replay under
 * any compiler, sanitizer or valgrind. Prints how many inputs it replayed. */
#include "vfs.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Replays the file at path; returns 1 when it was replayed, 0 when it is no file. */
static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf;
    long len;

    if (f == NULL)
        return 0;
    if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        (buf = malloc((size_t)len + 1)) == NULL) {
        fclose(f);
        return 0;
    }
    if (fread(buf, 1, (size_t)len, f) == (size_t)len)
        LLVMFuzzerTestOneInput(buf, (size_t)len);
    free(buf);
    fclose(f);
    return 1;
}

/* Replays path, or every regular file directly in it when it is a directory. */
static size_t replay(const char *path)
{
    struct stat st;
    struct dirent *e;
    DIR *dir;
    char sub[4096];
    size_t n = 0;

    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        exit(2);
    }
    if (!S_ISDIR(st.st_mode))
        return (size_t)replay_file(path);
    if ((dir = opendir(path)) == NULL)
        return 0;
    while ((e = readdir(dir)) != NULL) {
        snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
        if (stat(sub, &st) == 0 && S_ISREG(st.st_mode))
            n += (size_t)replay_file(sub);
    }
    closedir(dir);
    return n;
}

int main(int argc, char **argv)
{
    size_t n = 0;
    int i;

    for (i = 1; i < argc; i++)
        n += replay(argv[i]);
    printf("replayed %zu inputs\n", n);
    return 0;
}
