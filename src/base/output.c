/* output.c - standard output as it is made; -o FILE whole or not at all, never over
 * anything but a regular file, never over a file that exists unless --force. */
#define _GNU_SOURCE /* fopencookie(): the --ascii filter of a stream (glibc, musl) */
#include "attnstep/output.h"
#include "attnstep/i18n.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef NAME_MAX
#define NAME_MAX 255
#endif
#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* ---- the temporary file, and removing it when a signal ends the program ---- */

#define TMP_NAME ".attnstep-XXXXXX" /* in FILE's folder; short whatever FILE's name is */
#define TMP_TRIES 100

static const int caught[] = {SIGHUP,  SIGINT,  SIGQUIT, SIGTERM,   SIGPIPE, SIGALRM,
                             SIGUSR1, SIGUSR2, SIGXCPU, SIGVTALRM, SIGPROF};
#define CAUGHT (sizeof caught / sizeof caught[0])
static const char *volatile pending; /* the temporary file a signal must remove (o->tmp) */
static volatile sig_atomic_t armed;  /* nonzero while pending names a file */
static struct sigaction saved[CAUGHT];

static void on_signal(int sig)
{
    if (armed)
        unlink(pending); /* async-signal-safe */
    signal(sig, SIG_DFL);
    raise(sig);
}

/* While a temporary file exists, the signals in caught[] remove it, then do what they
 * did before; a signal the caller ignores stays ignored. */
static void arm(const char *tmp)
{
    struct sigaction sa;
    size_t i;

    pending = tmp; /* the output's own copy, freed only after disarm() */
    armed = 1;     /* before any handler: a signal from now on removes the file */
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < CAUGHT; i++)
        sigaddset(&sa.sa_mask, caught[i]); /* one handler at a time */
    for (i = 0; i < CAUGHT; i++) {
        sigaction(caught[i], NULL, &saved[i]);
        if (saved[i].sa_handler != SIG_IGN)
            sigaction(caught[i], &sa, NULL);
    }
}

/* A file size limit (ulimit -f) sends SIGXFSZ, whose default ends the program without a
 * word; ignored, the write fails with EFBIG and the program says so (and removes the
 * temporary file). For the rest of the process: an output ends it. */
static void ignore_xfsz(void)
{
    struct sigaction now;

    if (sigaction(SIGXFSZ, NULL, &now) == 0 && now.sa_handler == SIG_DFL)
        signal(SIGXFSZ, SIG_IGN);
}

static void disarm(void)
{
    size_t i;

    if (!armed)
        return;
    for (i = 0; i < CAUGHT; i++)
        sigaction(caught[i], &saved[i], NULL);
    armed = 0;
}

/* Creates a new file named like TMP_NAME beside path: O_EXCL, mode 0666 less the umask.
 * Returns its descriptor and sets *out (malloc'd), or -1 with errno set. */
static int create_temp(const char *path, char **out)
{
    static const char digits[] = "0123456789abcdefghijklmnopqrstuvwxyz";
    const char *slash = strrchr(path, '/');
    const size_t dir = slash ? (size_t)(slash - path) + 1 : 0;
    char *tmp = malloc(dir + sizeof TMP_NAME);
    unsigned long r = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16);
    int fd = -1, tries, i;

    if (tmp == NULL)
        return -1;
    memcpy(tmp, path, dir);
    memcpy(tmp + dir, TMP_NAME, sizeof TMP_NAME);
    for (tries = 0; fd < 0 && tries < TMP_TRIES; tries++) {
        r = r * 6364136223846793005UL + 1442695040888963407UL + (unsigned long)clock();
        for (i = 0; i < 6; i++)
            tmp[dir + sizeof TMP_NAME - 7 + i] = digits[(r >> (6 * i + 20)) % 36];
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    *out = tmp;
    return fd;
}

/* ---- paths ---- */

char *as_path_join(const char *dir, const char *name)
{
    const size_t d = strlen(dir), n = strlen(name);
    char *s = malloc(d + 1 + n + 1);

    if (s == NULL)
        return NULL;
    memcpy(s, dir, d);
    s[d] = '/';
    memcpy(s + d + 1, name, n + 1);
    return s;
}

/* Whether path, or the temporary file beside it, is longer than the system takes: a
 * component over NAME_MAX bytes, the whole over PATH_MAX. */
static int too_long(const char *path)
{
    const char *p = path, *slash;
    size_t dir = 0;

    for (; (slash = strchr(p, '/')) != NULL; p = slash + 1)
        if ((size_t)(slash - p) > NAME_MAX)
            return 1;
    if (p != path)
        dir = (size_t)(p - path);
    return strlen(p) > NAME_MAX || strlen(path) >= PATH_MAX || dir + sizeof TMP_NAME > PATH_MAX;
}

int as_output_path_check(const char *path, as_error *err)
{
    char why[128];

    if (!too_long(path))
        return 0;
    as_error_msg(err, path, 0, 0, AS_MSG_FILE_NO_WRITE,
                 as_msg_errno(why, sizeof why, err->lang, ENAMETOOLONG));
    as_error_hint_msg(err, AS_MSG_HINT_NAMETOOLONG, NAME_MAX, PATH_MAX);
    return -1;
}

/* ---- the --ascii filter: the prose's quotes and dashes in ASCII, as they stream ---- */

typedef struct ascii_filter {
    FILE *to;
    char carry[2]; /* the start of a 3-byte character cut at the end of the last write */
    size_t ncarry;
} ascii_filter;

/* Bytes at the end of s[0..n) that may begin a 2- or 3-byte character not yet complete. */
static size_t cut_tail(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;

    if (n >= 1 && ((u[n - 1] & 0xF0) == 0xE0 || (u[n - 1] & 0xE0) == 0xC0))
        return 1; /* a 3- or 2-byte character's first byte */
    if (n >= 2 && (u[n - 2] & 0xF0) == 0xE0 && (u[n - 1] & 0xC0) == 0x80)
        return 2;
    return 0;
}

static ssize_t filter_write(void *cookie, const char *buf, size_t size)
{
    ascii_filter *f = cookie;
    char *all = malloc(size + sizeof f->carry), *out = malloc(3 * (size + sizeof f->carry));
    size_t n, keep;

    if (all == NULL || out == NULL) {
        free(all);
        free(out);
        return -1;
    }
    memcpy(all, f->carry, f->ncarry);
    memcpy(all + f->ncarry, buf, size);
    n = f->ncarry + size;
    keep = cut_tail(all, n);
    memcpy(f->carry, all + n - keep, keep);
    f->ncarry = keep;
    n = as_ascii_punct(all, n - keep);
    n = as_ascii_letters(out, all, n);
    keep = fwrite(out, 1, n, f->to) == n; /* now: whether it was all written */
    free(all);
    free(out);
    return keep ? (ssize_t)size : -1;
}

static int filter_close(void *cookie)
{
    ascii_filter *f = cookie;
    const int ok = fwrite(f->carry, 1, f->ncarry, f->to) == f->ncarry;

    free(f);
    return ok ? 0 : EOF;
}

int as_output_ascii(as_output *o)
{
    static const cookie_io_functions_t io = {NULL, filter_write, NULL, filter_close};
    ascii_filter *f = calloc(1, sizeof *f);
    FILE *s;

    if (f == NULL)
        return -1;
    f->to = o->f;
    if ((s = fopencookie(f, "w", io)) == NULL) {
        free(f);
        return -1;
    }
    o->under = o->f;
    o->f = s;
    return 0;
}

/* Closes the filter, if any, so that everything reaches the stream under it. */
static int close_filter(as_output *o)
{
    int ok = 1;

    if (o->under != NULL) {
        ok = fclose(o->f) == 0;
        o->f = o->under;
        o->under = NULL;
    }
    return ok ? 0 : -1;
}

/* ---- opening, committing, abandoning ---- */

void as_output_write_error(as_error *err, const char *path, int e)
{
    char why[128];

    if (e == EFBIG || e == EPIPE) /* a writer's reasons, not a reader's (as_msg_errno) */
        snprintf(why, sizeof why, "%s", as_msg_text(err->lang, e == EFBIG ? AS_MSG_WHY_WRITE_FBIG
                                                                          : AS_MSG_WHY_PIPE));
    else
        as_msg_errno(why, sizeof why, err->lang, e);
    as_error_msg(err, path != NULL ? path : as_msg_text(err->lang, AS_MSG_FILE_STDOUT), 0, 0,
                 AS_MSG_FILE_NO_WRITE, why);
    if (e == EFBIG)
        as_error_hint_msg(err, AS_MSG_HINT_WRITE_FBIG);
    else if (e == ENOSPC)
        as_error_hint_msg(err, AS_MSG_HINT_NOSPC);
}

/* "cannot write: why" (errno) about path, or about standard output when path is NULL. */
static void cannot_write(as_error *err, const char *path)
{
    as_output_write_error(err, path, errno);
}

/* Refuses what -o must not write to: anything that is not a regular file, and an
 * existing file without force. Returns 0, or -1 with err set. */
static int may_write(const char *path, int force, as_error *err)
{
    struct stat st;

    if (lstat(path, &st) != 0)
        return 0; /* absent (or unreachable: creating the temporary file will say why) */
    if (!S_ISREG(st.st_mode)) {
        as_error_msg(err, path, 0, 0, S_ISDIR(st.st_mode)    ? AS_MSG_OUT_DIR
                                      : S_ISLNK(st.st_mode)  ? AS_MSG_OUT_LINK
                                      : S_ISFIFO(st.st_mode) ? AS_MSG_OUT_FIFO
                                                             : AS_MSG_OUT_SPECIAL);
        as_error_hint_msg(err, AS_MSG_HINT_OUT_SPECIAL);
        return -1;
    }
    if (!force) {
        as_error_msg(err, path, 0, 0, AS_MSG_FILE_EXISTS);
        as_error_hint_msg(err, AS_MSG_HINT_FORCE);
        return -1;
    }
    return 0;
}

int as_output_open(as_output *o, const char *path, int force, as_error *err)
{
    int fd;

    memset(o, 0, sizeof *o);
    o->path = path;
    o->force = force;
    ignore_xfsz();
    if (path == NULL) {
        o->f = stdout;
        return 0;
    }
    if (may_write(path, force, err) != 0 || as_output_path_check(path, err) != 0)
        return -1;
    if ((fd = create_temp(path, &o->tmp)) < 0) {
        cannot_write(err, path);
        return -1;
    }
    arm(o->tmp);
    if ((o->f = fdopen(fd, "w")) == NULL) {
        cannot_write(err, path);
        close(fd);
        as_output_abort(o);
        return -1;
    }
    return 0;
}

/* ---- putting the finished file in place ---- */

/* rename() that fails with EEXIST when to exists: renameat2(RENAME_NOREPLACE) where the
 * C library has it (glibc 2.28), else the system call where the headers name it. ENOSYS
 * or EINVAL (a kernel or a file system without it, e.g. many FUSE mounts) ask for
 * another way. */
static int rename_noreplace(const char *from, const char *to)
{
#if defined(RENAME_NOREPLACE) && defined(__GLIBC__) && \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 28))
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
#elif defined(SYS_renameat2)
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, 1 /* NOREPLACE */);
#else
    (void)from, (void)to;
    errno = ENOSYS;
    return -1;
#endif
}

/* Whether a failed link() means only that this file system has no hard links (vfat,
 * exFAT, SMB, many FUSE mounts), not that FILE is there or cannot be written. */
static int no_hard_links(int e)
{
    return e == EPERM || e == ENOSYS || e == EOPNOTSUPP || e == EMLINK || e == EXDEV;
}

/* Puts tmp at path unless path exists, with whatever the file system offers: a rename
 * that cannot replace; else link() (which fails when path exists); else, honestly the
 * best without either, reserving path with O_CREAT|O_EXCL (which fails when it exists)
 * and renaming tmp over the empty reservation. Returns 0, or -1 with errno set (EEXIST:
 * path exists). */
static int put_new(const char *tmp, const char *path)
{
    int fd;

    if (rename_noreplace(tmp, path) == 0)
        return 0;
    if (errno != ENOSYS && errno != EINVAL)
        return -1;
    if (link(tmp, path) == 0) {
        unlink(tmp);
        return 0;
    }
    if (!no_hard_links(errno))
        return -1;
    if ((fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600)) < 0)
        return -1;
    close(fd);
    if (rename(tmp, path) == 0)
        return 0;
    fd = errno;
    unlink(path); /* the reservation, still empty */
    errno = fd;
    return -1;
}

/* Puts the complete temporary file in path's place: without --force, never over a file
 * that exists, whatever else runs at the same time (put_new); with --force, renames
 * over a regular file, checked again just before, keeping that file's permissions.
 * Returns 0, or -1 with errno set (or err, when path is now there or no regular file). */
static int put_in_place(as_output *o, as_error *err)
{
    struct stat st;

    if (!o->force) {
        if (put_new(o->tmp, o->path) == 0)
            return 0;
        return errno == EEXIST ? may_write(o->path, 0, err) : -1;
    }
    if (may_write(o->path, 1, err) != 0)
        return -1;
    if (lstat(o->path, &st) == 0 && chmod(o->tmp, st.st_mode & 07777) != 0)
        return -1; /* a 0600 file stays 0600 */
    return rename(o->tmp, o->path);
}

int as_output_commit(as_output *o, int *quiet, as_error *err)
{
    int ok;

    *quiet = 0;
    ok = close_filter(o) == 0;
    if (o->path == NULL) {
        if (ok && fflush(stdout) == 0 && !ferror(stdout))
            return 0;
        *quiet = errno == EPIPE;
        cannot_write(err, NULL);
        return -1;
    }
    ok &= fflush(o->f) == 0 && !ferror(o->f);
    ok &= fclose(o->f) == 0;
    o->f = NULL;
    if (!ok || put_in_place(o, err) != 0) {
        cannot_write(err, o->path);
        as_output_abort(o);
        return -1;
    }
    disarm();
    free(o->tmp);
    o->tmp = NULL;
    return 0;
}

void as_output_abort(as_output *o)
{
    close_filter(o);
    if (o->path != NULL && o->f != NULL)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp != NULL) {
        unlink(o->tmp);
        disarm();
        free(o->tmp);
        o->tmp = NULL;
    }
}

int as_write_output(const char *path, const char *data, size_t len, int force, as_error *err)
{
    as_output o;
    int quiet;

    if (as_output_open(&o, path, force, err) != 0)
        return -1;
    if (fwrite(data, 1, len, o.f) != len) {
        cannot_write(err, path);
        as_output_abort(&o);
        return -1;
    }
    return as_output_commit(&o, &quiet, err);
}
