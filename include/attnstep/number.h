/* number.h - one number as the input format writes it (SPEC §2), and the precision it
 * was written to. */
#ifndef ATTNSTEP_NUMBER_H
#define ATTNSTEP_NUMBER_H

#include <stddef.h>

/* Parses one number as the input format writes it (fractions, the Unicode minus, "1.",
 * ".5", exponents, square roots as the chapter writes them: 1/√2, √2/2, -3/√8, √0.5,
 * sqrt(2); with allow_inf also inf, -inf, ∞, −∞). Reads the longest prefix of
 * s[0..len) that forms a number; returns the bytes used, or 0 when none. *out gets the
 * value. A number that overflows, or a zero denominator, returns 0 and sets *why to a
 * message (else *why is NULL). */
size_t as_parse_number(const char *s, size_t len, int allow_inf, double *out, const char **why);

/* The messages as_parse_number() sets in *why, so that a caller can tell them apart. */
extern const char as_why_too_large[];        /* 1e999, or a fraction beyond the range */
extern const char as_why_zero_denominator[]; /* 1/0 */

/* The unit of the last digit written in the number text s[0..n) (SPEC §6): 0.01 for
 * "0.67", "1.00", "1.00e0" and "0.00e0" alike (the place of the last digit, whatever its
 * value), 0.001 for "1e-3", 1e-4 for "1.5e-3", 0.1 for "0.0e9" (an exponent scales
 * nothing in a zero: it narrows a zero's unit, never widens it); 0 when the number is exact as written:
 * no digit after a point ("2", "1.", "2e3"), "1/3", "1/√2", "-inf". Never infinite,
 * whatever the exponent. */
double as_written_unit(const char *s, size_t n);

#endif
