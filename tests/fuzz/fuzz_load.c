/* fuzz_load.c - differential fuzzing of load(): a loaded file is read the quick way
 * (src/load.c: chunks of a reused buffer, two parts split at a line start) and, at
 * anything that way does not read, again by the full grammar; a binary weight file
 * (.npy, .npz, .safetensors: src/read/tensor.c) is read with pread from the real file
 * and from memory. The two must agree: the fuzz input is written to a real file, read
 * by load() through the quick way (or pread), and the same bytes are read by load() of a
 * name only the fuzz file system knows (no file on disk: the quick way cannot open it,
 * so the full grammar, or the binary reader from memory, reads them). Both must succeed
 * with the same matrix, bit for bit, or both refuse at the same line and column with the
 * same message (each file's own name put as FILE). Each input is loaded three ways:
 * whole, as the tensor "a" (a safetensors tensor, an .npz member), and as "a" sliced
 * [1:, :2], so that the binary formats' names and slices are reached. `make fuzz` builds
 * the library with 64-byte chunks and a 512-byte split (AS_LOAD_CHUNK, AS_LOAD_SPLIT_MIN)
 * so that small inputs cross both. */
#include "vfs.h"
#include "attnstep/parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char real_path[64]; /* the real file, one per process */

/* What follows load( in the three ways each input is read. */
static const char *const ways[] = {"\")", "\", \"a\")", "\", \"a\")[1:, :2]"};

/* Parses "X = load(PATH...)" (way w) as an input at /nonexistent-fuzz/input.txt. */
static int parse_load(as_input *in, as_error *err, const char *path, int w)
{
    char text[160];
    int n = snprintf(text, sizeof text, "X = load(\"%s%s\n", path, ways[w]);

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


static int same_matrix(const as_matrix *a, const as_matrix *b)
{
    return a->rows == b->rows && a->cols == b->cols &&
           (a->rows * a->cols == 0 ||
            memcmp(a->v, b->v, a->rows * a->cols * sizeof *a->v) == 0);
}

/* s with every path in it written FILE, in place: a binary file's messages name it. */
static void unpath(char *s, const char *path)
{
    size_t n = strlen(path);
    char *at;

    while ((at = strstr(s, path)) != NULL) {
        memcpy(at, "FILE", 4);
        memmove(at + 4, at + n, strlen(at + n) + 1);
    }
}

/* The column of an error in the input "X = load(\"NAME\"…" counted as if NAME were
 * empty: a column past the name (a tensor's name, a slice) moves with its length. An
 * error inside the loaded file keeps its column there. */
static int col_after(const as_error *e, const char *name)
{
    const int name_col = 11; /* X = load(" is 10 characters */

    if (strcmp(e->file, "/nonexistent-fuzz/input.txt") != 0)
        return e->col;
    return e->col > name_col ? e->col - (int)strlen(name) : e->col;
}

/* e's message and hint with both files' names written FILE (the input may hold either
 * name too: a header quoted in a message then shows it on both sides alike). */
static void unpaths(as_error *e)
{
    unpath(e->msg, real_path);
    unpath(e->hint, real_path);
    unpath(e->msg, "/nonexistent-fuzz/only-in-vfs.txt");
    unpath(e->hint, "/nonexistent-fuzz/only-in-vfs.txt");
}

/* Nonzero when the two refusals are the same but for the files' names. */
static int same_error(as_error *q, as_error *f)
{
    unpaths(q);
    unpaths(f);
    return q->line == f->line && col_after(q, real_path) == col_after(f, "only-in-vfs.txt") &&
           strcmp(q->msg, f->msg) == 0 &&
           strcmp(q->hint, f->hint) == 0;
}

static void one_way(const uint8_t *data, size_t size, int w)
{
    as_input quick, full;
    as_error eq, ef;
    int rq, rf;

    vfs_name(real_path, data, size); /* where the quick way gives up, the same bytes */
    rq = parse_load(&quick, &eq, real_path, w);
    vfs_name("/nonexistent-fuzz/only-in-vfs.txt", data, size);
    rf = parse_load(&full, &ef, "only-in-vfs.txt", w);
    vfs_forget();
    if (rq != rf)
        abort(); /* one way read it, the other refused */
    if (rq != 0) {
        if (!same_error(&eq, &ef))
            abort(); /* refused differently */
        return;
    }
    if (!same_matrix(&quick.mat[AS_X].m, &full.mat[AS_X].m))
        abort(); /* read differently */
    as_input_free(&quick);
    as_input_free(&full);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int w;

    vfs_split(data, 0, &(size_t){0}); /* no loaded file but the named one */
    write_real(data, size);
    for (w = 0; w < 3; w++)
        one_way(data, size, w);
    return 0;
}
