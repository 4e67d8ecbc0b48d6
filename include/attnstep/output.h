/* output.h - writing a finished result: to standard output, or to -o FILE atomically. */
#ifndef ATTNSTEP_OUTPUT_H
#define ATTNSTEP_OUTPUT_H

#include <stddef.h>
#include "attnstep/error.h"

/* Writes len bytes to path through a temporary file in the same folder and a rename, so
 * a reader sees the old file or the whole new one. Refuses an existing path unless
 * force. path NULL writes to standard output. Returns 0, or -1 with err set. */
int as_write_output(const char *path, const char *data, size_t len, int force, as_error *err);

#endif
