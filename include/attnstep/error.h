/* error.h - one error record the caller owns; formatted in exactly one place. */
#ifndef ATTNSTEP_ERROR_H
#define ATTNSTEP_ERROR_H

#include <stdio.h>

#define AS_ERR_FILE 512
#define AS_ERR_MSG 512

/* Where and what went wrong. line/col are 1-based; 0 means "no position applies"
 * (then the message prints as `attnstep: FILE: error: ...`). col counts characters. */
typedef struct as_error {
    char file[AS_ERR_FILE];
    int line, col;
    char msg[AS_ERR_MSG];
    char hint[AS_ERR_MSG]; /* empty when no hint helps */
    int set;               /* nonzero once as_error_set() was called */
    int ignored;           /* nonzero when the last as_error_set() came second and was
                            * dropped: its hint is dropped too */
} as_error;

/* Clears e. */
void as_error_clear(as_error *e);

/* Records file, position and a printf-style message; clears any earlier hint.
 * The first error wins: a second call while e->set is nonzero does nothing. */
void as_error_set(as_error *e, const char *file, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Sets the learner's hint of the error just set (printf-style). The first error wins
 * here too: after an as_error_set() that was dropped, its hint is dropped. */
void as_error_hint(as_error *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints `attnstep: FILE:LINE:COL: error: MSG` and, if any, `  hint: HINT`. */
void as_error_print(const as_error *e, FILE *out);

#endif
