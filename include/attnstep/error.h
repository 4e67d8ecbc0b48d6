/* error.h - one error record the caller owns, written in the user's language and
 * formatted in exactly one place. */
#ifndef ATTNSTEP_ERROR_H
#define ATTNSTEP_ERROR_H

#include <stdarg.h>
#include <stdio.h>

#include "attnstep/i18n.h"

#define AS_ERR_FILE 512
#define AS_ERR_MSG 512

/* Where and what went wrong. line/col are 1-based (as editors count); 0 means "no
 * position applies" (then the message prints as `attnstep: FILE: error: ...`). col
 * counts characters. Rows and columns of a matrix named inside a message count from 0,
 * as the chapter does. */
typedef struct as_error {
    char file[AS_ERR_FILE];
    int line, col;
    char msg[AS_ERR_MSG];
    char hint[AS_ERR_MSG]; /* empty when no hint helps */
    int set;               /* nonzero once an error was recorded */
    int ignored;           /* nonzero when the last error recorded came second and was
                            * dropped: its hint is dropped too */
    as_lang lang;          /* the language of msg and hint: the one the user chose */
} as_error;

/* Clears e; its messages will be written in lang. */
void as_error_init(as_error *e, as_lang lang);

/* Clears e, keeping nothing: messages in Chinese, the default language. */
void as_error_clear(as_error *e);

/* Records file, position and the message id of the table in e->lang, formatted with the
 * arguments its comment in i18n.h names; clears any earlier hint. The first error wins:
 * a second call while e->set is nonzero does nothing. */
void as_error_msg(as_error *e, const char *file, int line, int col, as_msg id, ...);

/* As as_error_msg, with the arguments as a va_list. */
void as_error_vmsg(as_error *e, const char *file, int line, int col, as_msg id, va_list ap);

/* Sets the learner's hint of the error just recorded: message id in e->lang. The first
 * error wins here too: after an error that was dropped, its hint is dropped. */
void as_error_hint_msg(as_error *e, as_msg id, ...);

/* Records text that is already in e->lang (e.g. formatted from the table by a caller
 * that composes several messages). Words never appear at a call site: text comes from
 * the message table. */
void as_error_set(as_error *e, const char *file, int line, int col, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Sets the hint to text already in e->lang (see as_error_set). */
void as_error_hint(as_error *e, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Prints `attnstep: FILE:LINE:COL: error: MSG` and, if any, `  hint: HINT`, the words
 * error and hint in e->lang (`错误：`, `提示：`). */
void as_error_print(const as_error *e, FILE *out);

#endif
