/* vfs.c - load() inside the fuzz input (see vfs.h). */
#include "vfs.h"
#include "attnstep/lex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int __wrap_as_lex_read_file(const char *path, int allow_stdin, char **buf, size_t *len);

static const uint8_t *loaded; /* NULL when the input holds no file to load */
static size_t loaded_len;

void vfs_split(const uint8_t *data, size_t size, size_t *main_len)
{
    const size_t k = sizeof FUZZ_LOAD_SEP - 1;
    size_t i;

    loaded = NULL;
    loaded_len = 0;
    *main_len = size;
    for (i = 0; i + k <= size; i++)
        if (data[i] == '\n' && memcmp(data + i, FUZZ_LOAD_SEP, k) == 0) {
            *main_len = i;
            loaded = data + i + k;
            loaded_len = size - i - k;
            return;
        }
}

/* As as_lex_read_file() (lex.h), reading the fuzz input's file instead of the disk. */
int __wrap_as_lex_read_file(const char *path, int allow_stdin, char **buf, size_t *len)
{
    const size_t n = strlen(path);

    (void)allow_stdin;
    *buf = NULL;
    *len = 0;
    if (n > 0 && path[n - 1] == '/')
        return EISDIR;
    if (loaded == NULL)
        return ENOENT;
    if ((*buf = malloc(loaded_len + 1)) == NULL)
        return ENOMEM;
    if (loaded_len > 0)
        memcpy(*buf, loaded, loaded_len);
    (*buf)[loaded_len] = '\0';
    *len = loaded_len;
    return 0;
}
