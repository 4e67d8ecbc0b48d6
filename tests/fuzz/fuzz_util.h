/* fuzz_util.h - what the fuzz entry points share: a hash of the input that draws their
 * options, the split of a whole command's input at "%file%", and the check that what a
 * command wrote is valid UTF-8. */
#ifndef ATTNSTEP_FUZZ_UTIL_H
#define ATTNSTEP_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* What separates the files of a whole command's fuzz input (fuzz_cli, fuzz_class). */
#define FUZZ_FILE_SEP "\n%file%\n"

/* Splits text[0..len) at the first FUZZ_FILE_SEP: *rest and *rest_len get what follows
 * it (NULL when there is none); returns the bytes before it. */
static inline size_t fuzz_cut(const char *text, size_t len, const char **rest, size_t *rest_len)
{
    const size_t k = sizeof FUZZ_FILE_SEP - 1;
    size_t i;

    *rest = NULL;
    *rest_len = 0;
    for (i = 0; i + k <= len; i++)
        if (text[i] == '\n' && memcmp(text + i, FUZZ_FILE_SEP, k) == 0) {
            *rest = text + i + k;
            *rest_len = len - i - k;
            return i;
        }
    return len;
}

/* The FNV-1a hash of data[0..size). */
static inline uint32_t fnv1a(const uint8_t *data, size_t size)
{
    uint32_t h = 2166136261u;
    size_t i;

    for (i = 0; i < size; i++)
        h = (h ^ data[i]) * 16777619u;
    return h;
}

/* Nonzero when s[0..n) is valid UTF-8. */
static inline int valid_utf8(const unsigned char *s, size_t n)
{
    size_t i = 0;

    while (i < n) {
        const int k = s[i] < 0x80 ? 0 : (s[i] & 0xE0) == 0xC0 ? 1 : (s[i] & 0xF0) == 0xE0 ? 2
                    : (s[i] & 0xF8) == 0xF0 ? 3 : -1;
        int j;
        if (k < 0 || n - i <= (size_t)k)
            return 0; /* a stray byte, or a character cut at the end */
        for (j = 1; j <= k; j++)
            if ((s[i + (size_t)j] & 0xC0) != 0x80)
                return 0;
        i += (size_t)k + 1;
    }
    return 1;
}

#endif
