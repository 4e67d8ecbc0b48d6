/* output.c - results reach the user whole or not at all. */
#include "attnstep/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t w = write(fd, data, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        data += w;
        len -= (size_t)w;
    }
    return 0;
}

int as_write_output(const char *path, const char *data, size_t len, int force, as_error *err)
{
    struct stat st;
    char *tmp = NULL;
    int fd, ok;

    if (path == NULL) {
        if (fwrite(data, 1, len, stdout) != len || fflush(stdout) != 0)
            goto io;
        return 0;
    }
    if (!force && lstat(path, &st) == 0) {
        as_error_msg(err, path, 0, 0, AS_MSG_FILE_EXISTS);
        as_error_hint_msg(err, AS_MSG_HINT_FORCE);
        return -1;
    }
    if ((tmp = malloc(strlen(path) + 16)) == NULL)
        goto io;
    sprintf(tmp, "%s.tmp-XXXXXX", path);
    if ((fd = mkstemp(tmp)) < 0)
        goto io;
    ok = fchmod(fd, 0644) == 0 && write_all(fd, data, len) == 0;
    ok &= close(fd) == 0;
    if (!ok || rename(tmp, path) != 0) {
        const int saved = errno;
        unlink(tmp);
        errno = saved;
        goto io;
    }
    free(tmp);
    return 0;
io:
    {
        char why[128];
        as_msg_errno(why, sizeof why, err->lang, errno);
        as_error_msg(err, path ? path : as_msg_text(err->lang, AS_MSG_FILE_STDOUT), 0, 0,
                     AS_MSG_FILE_NO_WRITE, why);
    }
    free(tmp);
    return -1;
}
