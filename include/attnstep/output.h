/* output.h - where a command's output goes: standard output, written as it is made (no
 * whole-output buffer: `| head` stops it early), or -o FILE, written whole or not at
 * all.
 *
 * -o FILE writes a temporary file in FILE's folder (a short name of its own, so a FILE
 * name of NAME_MAX bytes still works; created with mode 0666 less the umask, as any new
 * file) and, once complete, puts it in FILE's place without ever replacing a file that
 * exists, so two writers can never both "succeed": with renameat2(RENAME_NOREPLACE),
 * else link() (which fails when FILE exists), else (no hard links: vfat, exFAT, SMB,
 * FUSE) by reserving FILE with O_CREAT|O_EXCL and renaming over the reservation. With
 * --force, with rename(), only over a regular file, keeping its permissions. A device,
 * a FIFO, a directory or a symbolic link named by -o is refused before any work. Every
 * catchable signal that ends the program (SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGPIPE,
 * SIGALRM, SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF) while the temporary file
 * exists removes it first; SIGXFSZ is ignored while an output is open, so that a file
 * size limit (ulimit -f) is a write failing with EFBIG, reported as such. One output at
 * a time per process. */
#ifndef ATTNSTEP_OUTPUT_H
#define ATTNSTEP_OUTPUT_H

#include <stddef.h>
#include <stdio.h>
#include "attnstep/error.h"

typedef struct as_output {
    FILE *f;          /* where to write: stdout, or the temporary file (or the filter) */
    FILE *under;      /* with the --ascii filter: the stream it writes to, else NULL */
    const char *path; /* -o FILE, or NULL for standard output */
    char *tmp;        /* the temporary file's path while it exists, else NULL */
    int force;
} as_output;

/* Opens the output: path NULL is standard output; else checks that path may be written
 * (absent, or a regular file and force) and creates the temporary file. Returns 0, or
 * -1 with err set (nothing created). */
int as_output_open(as_output *o, const char *path, int force, as_error *err);

/* Finishes the output: flushes it and, for -o, puts the temporary file in place. Returns
 * 0, or -1 with err set (the temporary file removed, FILE as it was). A write to a
 * closed pipe (EPIPE) sets *quiet to 1: the reader has gone, nothing is to be said. */
int as_output_commit(as_output *o, int *quiet, as_error *err);

/* Puts a filter before the output that writes the prose's typographic quotes and dashes
 * in ASCII (as_ascii_punct()), as they stream by. Returns 0, or -1 (out of memory). */
int as_output_ascii(as_output *o);

/* Abandons the output: removes the temporary file. Standard output is left as is. */
void as_output_abort(as_output *o);

/* Records in err that writing path (NULL: standard output) failed with errno value e,
 * in words for a writer: a full disk (ENOSPC), a file size limit (EFBIG, ulimit -f), a
 * reader that closed the pipe (EPIPE), each with its own message and hint. */
void as_output_write_error(as_error *err, const char *path, int e);

/* dir/name in a new string the caller frees, or NULL when memory ran out. */
char *as_path_join(const char *dir, const char *name);

/* Checks, before anything is written, that the system can take path: no part of it
 * over NAME_MAX bytes, the whole (and the temporary file beside it) under PATH_MAX.
 * Returns 0, or -1 with err set (the file name is too long, and a hint). */
int as_output_path_check(const char *path, as_error *err);

/* Writes len bytes to path (NULL: standard output) through as_output_open() and
 * as_output_commit(). Returns 0, or -1 with err set. */
int as_write_output(const char *path, const char *data, size_t len, int force, as_error *err);

#endif
