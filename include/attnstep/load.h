/* load.h - NAME = load("file.txt"): a matrix read from a file of plain rows, as
 * numpy.savetxt writes them (SPEC §2); large files are read on two threads. */
#ifndef ATTNSTEP_LOAD_H
#define ATTNSTEP_LOAD_H

#include <stdint.h>

#include "attnstep/reader.h"

/* Reads `load("file")` at the cursor of r, which stands at the word load: the file, its
 * path taken relative to the folder of r->path, read as plain rows into m (fresh, with
 * its id, name and flags set; with AS_RD_ONE_ROW a file of one column is one row, as
 * numpy.savetxt writes a 1-D bias). Returns 0 with m's values set (the caller frees
 * m->v), or -1 with the error set: errors about the file as a whole at the file name in
 * the input, errors inside it at its own lines. */
int as_load_statement(as_reader *r, as_rd_matrix *m);

/* A tensor of a binary weight file that load() named, indexed and checked but did not
 * read: the embedding table E and the positions P, of which only the rows ids take are
 * read later (a loaded E may be GPT-2's [50257, 768]: memory follows the work). */
typedef struct as_load_ref {
    char *path;        /* the file, resolved (owned); NULL when the matrix was read whole */
    char *member;      /* the tensor's name (owned), NULL when the file holds one */
    size_t member_n;
    uint64_t r0, c0;   /* where the load()'s slice starts in the tensor */
    size_t rows, cols; /* the slice's shape: what m's rows and cols say */
    as_pos at;         /* the file's name in the input: errors are recorded there */
} as_load_ref;

/* As as_load_statement(), but a binary weight file's tensor is only indexed: ref is
 * filled, m gets its shape and no values (m->v NULL). A text file is read whole into m
 * as before (ref->path NULL). Free ref with as_load_ref_free(). 0, or -1 with the
 * error set. */
int as_load_statement_ref(as_reader *r, as_rd_matrix *m, as_load_ref *ref);

/* Reads rows[0..n) (each below ref->rows) of ref's tensor into out [n, ref->cols], row
 * k being rows[k], errors at ref->at of the input file input_path. 0, or -1 with err set. */
int as_load_ref_rows(const as_load_ref *ref, const char *input_path, as_error *err,
                     const size_t *rows, size_t n, double *out);

/* Frees what ref owns and leaves it empty; safe on an empty one. */
void as_load_ref_free(as_load_ref *ref);

#endif
