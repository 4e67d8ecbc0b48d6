/* fuzz_load.c - differential fuzzing of load(): a loaded file is read the quick way
 * (src/load.c: chunks of a reused buffer, two parts split at a line start) and, at
 * anything that way does not read, again by the full grammar. The two must agree: the
 * fuzz input is written to a real file, read by load() through the quick way, and the
 * same bytes are read by load() of a name only the fuzz file system knows (no file on
 * disk: the quick way cannot open it, so the full grammar reads them). Both must succeed
 * with the same matrix, bit for bit, or both refuse at the same line and column with the
 * same message (the loaded file named alike: a binary file's message names it). `make fuzz` builds the library with 64-byte chunks and a 512-byte split
 * (AS_LOAD_CHUNK, AS_LOAD_SPLIT_MIN) so that small inputs cross both. */
#include "vfs.h"
#include "attnstep/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char real_path[64]; /* the real file, one per process */

/* Parses "X = load(PATH)" as an input at /nonexistent-fuzz/input.txt. */
static int parse_load(as_input *in, as_error *err, const char *path)
{
    char text[128];
    int n = snprintf(text, sizeof text, "X = load(\"%s\")\n", path);

    as_error_clear(err);
    return as_parse_text(in, text, (size_t)n, "/nonexistent-fuzz/input.txt", err);
}

static void remove_real(void)
{
    remove(real_path);
}

static void write_real(const uint8_t *data, size_t size)
{
    FILE *f;

    if (real_path[0] == '\0') {
        snprintf(real_path, sizeof real_path, "/tmp/attnstep-fuzz-load-%ld.txt", (long)getpid());
        atexit(remove_real);
    }
    f = fopen(real_path, "wb");
    if (f == NULL || (size > 0 && fwrite(data, 1, size, f) != size) || fclose(f) != 0)
        abort(); /* the harness itself cannot run */
}

#define VFS_ONLY "/nonexistent-fuzz/only-in-vfs.txt"

/* Nonzero when the quick way's message q says what the full grammar's f says: the same
 * text once the file each read is named alike (a binary file's error names the file it
 * read, and the two ways read it under different names). */
static int same_message(const char *q, const char *f)
{
    const size_t k = strlen(real_path);
    char named[2048];
    size_t n = 0;

    while (*q != '\0' && n + sizeof VFS_ONLY < sizeof named) {
        if (strncmp(q, real_path, k) == 0) {
            memcpy(named + n, VFS_ONLY, sizeof VFS_ONLY - 1);
            n += sizeof VFS_ONLY - 1;
            q += k;
        } else {
            named[n++] = *q++;
        }
    }
    named[n] = '\0';
    return *q == '\0' && strcmp(named, f) == 0;
}

static int same_matrix(const as_matrix *a, const as_matrix *b)
{
    return a->rows == b->rows && a->cols == b->cols &&
           (a->rows * a->cols == 0 ||
            memcmp(a->v, b->v, a->rows * a->cols * sizeof *a->v) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_input quick, full;
    as_error eq, ef;
    int rq, rf;

    vfs_split(data, 0, &(size_t){0}); /* no loaded file but the named one */
    write_real(data, size);
    vfs_name(real_path, data, size); /* where the quick way gives up, the same bytes */
    rq = parse_load(&quick, &eq, real_path);
    vfs_name(VFS_ONLY, data, size);
    rf = parse_load(&full, &ef, "only-in-vfs.txt");
    vfs_forget();
    if (rq != rf)
        abort(); /* one way read it, the other refused */
    if (rq != 0) {
        if (eq.line != ef.line || eq.col != ef.col || !same_message(eq.msg, ef.msg) ||
            !same_message(eq.hint, ef.hint))
            abort(); /* refused differently */
        return 0;
    }
    if (!same_matrix(&quick.mat[AS_X].m, &full.mat[AS_X].m))
        abort(); /* read differently */
    as_input_free(&quick);
    as_input_free(&full);
    return 0;
}
