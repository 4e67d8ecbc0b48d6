/* numfmt.h - the one home of number display (SPEC §4) and of JSON number text (§9). */
#ifndef ATTNSTEP_NUMFMT_H
#define ATTNSTEP_NUMFMT_H

#include <stddef.h>
#include <stdio.h>

#define AS_NUM_BUF 64 /* enough for any text these functions write */

/* What a number shown or written without a decimal point (2, 1/3) may differ by from
 * the value it stands for, relative (at least 1 absolute unit of it): check's margin
 * for an exact answer, and the display's for dropping the last decimal point. */
#define AS_EXACT_MARGIN 1e-9

/* Nonzero when v is within AS_EXACT_MARGIN of the nearest whole number. */
int as_fmt_near_whole(double v);

/* Writes v for people: an exact integer without a decimal point, any other value rounded
 * to digits places (0-17) with trailing zeros dropped, -0 as 0, -inf as "−∞" ("-inf"
 * with ascii), +inf as "∞". A value that rounds to a whole number but is not within
 * AS_EXACT_MARGIN of it keeps one decimal ("0.0" for -0.0039 at 2 places, "1.0"), so
 * that what is shown never reads back as exact when it is not (SPEC §4, §6); at 0
 * places none is kept. Returns 1 when the text shows a rounded value, else 0. */
int as_fmt_display(char *buf, size_t size, double v, int digits, int ascii);

/* as_fmt_display's text, returning its length; *rounded is set as as_fmt_display
 * returns it only when rounded is not NULL: deciding it costs more than the text (it
 * reads the text back), and a table needs it only until one cell is shown rounded. */
size_t as_fmt_display_text(char *buf, size_t size, double v, int digits, int ascii,
                           int *rounded);

/* as_fmt_display as its definition says, with printf and strtod (about 2 microseconds):
 * the reference it is tested against byte for byte (text and the rounded flag), and its
 * answer where it does not compute the text itself (|v| >= 1e15, digits above 17, a
 * buffer under 48 bytes, or no 128-bit integers). as_fmt_display takes some 60 ns. */
int as_fmt_display_printf(char *buf, size_t size, double v, int digits, int ascii);

/* Writes the shortest text that reads back to the same double, as JSON wants it:
 * a whole number below 1e15 in magnitude as "%.0f" (-0 as "0"), any other v as the
 * first "%.{p}g", p = 1 .. 17, that strtod reads back to v. Cut to size - 1 bytes as
 * snprintf cuts; returns the bytes written (without the NUL). v must be finite. Fast
 * (Ryu, no printf): about 50 ns. */
size_t as_fmt_roundtrip(char *buf, size_t size, double v);

/* Writes v to out as a JSON number (as_fmt_roundtrip), a non-finite v (a masked cell's
 * -inf) as null: the one JSON number of the layers that cannot call the JSON renderer. */
void as_fmt_json(FILE *out, double v);

/* The same text computed as its definition says, with printf and strtod (about 3.6
 * microseconds): the reference that as_fmt_roundtrip is tested against byte for byte,
 * and its answer for the few doubles it does not compute itself. */
void as_fmt_roundtrip_printf(char *buf, size_t size, double v);

#endif
