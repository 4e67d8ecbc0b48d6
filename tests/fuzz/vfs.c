/* vfs.c - load() inside the fuzz input (see vfs.h). */
#include "vfs.h"
#include "attnstep/lex.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int __wrap_as_lex_read_file(const char *path, int allow_stdin, char **buf, size_t *len);

static const uint8_t *loaded; /* NULL when the input holds no file to load */
static size_t loaded_len;
static struct {
    const char *name;
    const uint8_t *data;
    size_t len;
} named[VFS_NAMED];
static size_t nnamed;

void vfs_name(const char *name, const uint8_t *data, size_t len)
{
    if (nnamed < VFS_NAMED) {
        named[nnamed].name = name;
        named[nnamed].data = data;
        named[nnamed++].len = len;
    }
}

void vfs_forget(void)
{
    nnamed = 0;
}

/* A copy of data[0..len) in a new NUL-terminated buffer, as as_lex_read_file() gives. */
static int give(const uint8_t *data, size_t len, char **buf, size_t *out_len)
{
    if ((*buf = malloc(len + 1)) == NULL)
        return ENOMEM;
    if (len > 0)
        memcpy(*buf, data, len);
    (*buf)[len] = '\0';
    *out_len = len;
    return 0;
}

void vfs_split(const uint8_t *data, size_t size, size_t *main_len)
{
    const size_t k = sizeof FUZZ_LOAD_SEP - 1;
    size_t i;

    loaded = NULL;
    loaded_len = 0;
    nnamed = 0;
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
    size_t i;

    (void)allow_stdin;
    *buf = NULL;
    *len = 0;
    for (i = 0; i < nnamed; i++)
        if (strcmp(path, named[i].name) == 0)
            return give(named[i].data, named[i].len, buf, len);
    if (n > 0 && path[n - 1] == '/')
        return EISDIR;
    if (loaded == NULL)
        return ENOENT;
    return give(loaded, loaded_len, buf, len);
}
