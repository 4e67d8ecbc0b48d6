/* numfmt.h - the one home of number display (SPEC §4) and of JSON number text (§9). */
#ifndef ATTNSTEP_NUMFMT_H
#define ATTNSTEP_NUMFMT_H

#include <stddef.h>

#define AS_NUM_BUF 64 /* enough for any text these functions write */

/* Writes v for people: an exact integer without a decimal point, any other value rounded
 * to digits places (0-17) with trailing zeros dropped, -0 as 0, -inf as "−∞" ("-inf"
 * with ascii), +inf as "∞". Returns 1 when the text shows a rounded value, else 0. */
int as_fmt_display(char *buf, size_t size, double v, int digits, int ascii);

/* Writes the shortest text that reads back to the same double ("%.17g" or shorter);
 * -0 as 0. v must be finite. */
void as_fmt_roundtrip(char *buf, size_t size, double v);

#endif
