/* fastfloat.h - decimal text to the nearest double, fast and correctly rounded.
 *
 * The common cases are decided by Clinger's exact fast path or by the Eisel-Lemire
 * method (Lemire, "Number Parsing at a Gigabyte per Second", 2021): one or two 64x128-bit
 * products with a table of powers of five. What they cannot decide goes to the C
 * library's strtod, so every result is the one strtod gives. */
#ifndef ATTNSTEP_FASTFLOAT_H
#define ATTNSTEP_FASTFLOAT_H

#include <stddef.h>

/* Parses the longest prefix of s[0..end) of the form
 *     [+-]? ( digits [ "." digits? ] | "." digits ) ( [eE] [+-]? digits )?
 * (ASCII only: no blanks before it, no inf, nan or hexadecimal) into *out: the double
 * nearest to it, ties to even, exactly what strtod gives, including subnormals, -0 and
 * mantissas of any length. An exponent marker without digits after it is not part of
 * the number ("1e" reads as 1, stopping at the "e"). A value beyond the double range
 * gives +-inf (the caller reports that); one too small gives +-0.
 * Returns the pointer just past the number, or NULL (and *out untouched) when s does
 * not start with one. s and end may be equal; the text need not be NUL-terminated. */
const char *as_strtod_fast(const char *s, const char *end, double *out);

/* The numbers of a row as numpy.savetxt writes it, in one call: reads numbers as
 * as_strtod_fast() does from s on into out[0..most), as long as each is followed by one
 * or more spaces (' ' only) and then by another number. Returns how many it read, and
 * sets *stop just past the last of them (s when none): what follows there (a line end,
 * another blank, a comma, a number that could not be read, or the most-th number's
 * successor) is the caller's to judge. Infinities are read as as_strtod_fast reads them. */
size_t as_strtod_fast_spaced(const char *s, const char *end, double *out, size_t most,
                             const char **stop);

#endif
