/* load.h - NAME = load("file.txt"): a matrix read from a file of plain rows, as
 * numpy.savetxt writes them (SPEC §2); large files are read on two threads. */
#ifndef ATTNSTEP_LOAD_H
#define ATTNSTEP_LOAD_H

#include "attnstep/reader.h"

/* Reads `load("file")` at the cursor of r, which stands at the word load: the file, its
 * path taken relative to the folder of r->path, read as plain rows into m (fresh, with
 * its id, name and flags set; with AS_RD_ONE_ROW a file of one column is one row, as
 * numpy.savetxt writes a 1-D bias). Returns 0 with m's values set (the caller frees
 * m->v), or -1 with the error set: errors about the file as a whole at the file name in
 * the input, errors inside it at its own lines. */
int as_load_statement(as_reader *r, as_rd_matrix *m);

#endif
