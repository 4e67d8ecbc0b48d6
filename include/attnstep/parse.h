/* parse.h - the input file (SPEC §2): settings and named matrices, as written. */
#ifndef ATTNSTEP_PARSE_H
#define ATTNSTEP_PARSE_H

#include <stddef.h>
#include "attnstep/error.h"
#include "attnstep/input.h"
#include "attnstep/matrix.h"
#include "attnstep/positions.h"
#include "attnstep/number.h"
#include "attnstep/norm.h"
#include "attnstep/ffn.h"
#include "attnstep/reader.h"


/* Canonical name of a matrix id ("X", "Xkv", "Wq", ..., "M"). */
const char *as_mat_name(as_mat_id id);

/* Looks up a matrix name, accepting the spellings SPEC §2 allows (W_Q, WQ, W_q, Xkv,
 * X_kv ...). Returns the id, or -1 when the name is not a matrix of the format. */
int as_mat_lookup(const char *name, size_t len);

/* The word of ffn: that names kind ("gelu_tanh", "gelu", "relu", "swiglu", "none"). */
const char *as_ffn_name(as_ffn_kind kind);

/* The settings an input may give ("title", "tokens", "mask" …): *n of them, static. */
const char *const *as_setting_names(size_t *n);


/* Parses len bytes of text (need not be NUL-terminated). path names the file in errors,
 * and load("...") paths are taken relative to its folder. Returns 0 and fills in, which
 * the caller frees with as_input_free(); or -1 with err set (in is then empty). */
int as_parse_text(as_input *in, const char *text, size_t len, const char *path, as_error *err);

/* Reads the whole file at path ("-" is standard input) and parses it as above. */
int as_parse_file(as_input *in, const char *path, as_error *err);

/* Frees everything in in and leaves it empty. */
void as_input_free(as_input *in);

#endif
