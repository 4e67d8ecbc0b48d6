/* suggest.h - "did you mean ...?": the nearest known word to a misspelt one. */
#ifndef ATTNSTEP_SUGGEST_H
#define ATTNSTEP_SUGGEST_H

#include <stddef.h>

/* The edit distance between a[0..na) and b[0..nb): insertions, deletions, substitutions
 * and swaps of two neighbouring bytes each cost 1 (optimal string alignment), ASCII
 * letters compared without case. Words longer than 63 bytes are never near: returns a
 * large number for them. */
size_t as_edit_distance(const char *a, size_t na, const char *b, size_t nb);

/* The name in names[0..count) nearest to word[0..n), when it is near enough to be what
 * was meant: at distance 1 for names of up to 4 bytes, 2 for longer ones, and closer than
 * any other name, a substitution of a look-alike letter (g for q) or a keyboard
 * neighbour counting as less than one of any other letter. Returns the name (one of names, not a copy), or NULL. */
const char *as_suggest(const char *word, size_t n, const char *const *names, size_t count);

#endif
