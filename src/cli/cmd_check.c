/* cmd_check.c - `attnstep check FILE ANSWERS...` (SPEC §6): grade every student's answers
 * (files, or directories of *.txt in name order) against FILE, and report them with the
 * class summary. An answers file that cannot be read or graded is reported on standard
 * error with its FILE:LINE:COL and the rest of the class is still graded (exit 2). */
#include "attnstep/check_report.h"
#include "attnstep/cli.h"
#include "attnstep/lex.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the answers files: the arguments, a directory giving its *.txt in name order ---- */

typedef struct paths {
    char **p;
    size_t n, cap;
} paths;

/* Adds dir/name (dir NULL: name) to ps. Returns 0, or -1 (out of memory, or err set:
 * more than AS_CHECK_MAX_FILES files). */
static int add_path(paths *ps, const char *dir, const char *name, as_error *err)
{
    const size_t len = (dir ? strlen(dir) + 1 : 0) + strlen(name) + 1;
    char *s;

    if (ps->n >= AS_CHECK_MAX_FILES) {
        as_error_msg(err, dir != NULL ? dir : name, 0, 0, AS_MSG_CHK_TOO_MANY, AS_CHECK_MAX_FILES);
        as_error_hint_msg(err, AS_MSG_CHK_TOO_MANY_HINT);
        return -1;
    }
    if (ps->n == ps->cap) {
        size_t cap = ps->cap ? 2 * ps->cap : 64;
        char **grown = realloc(ps->p, cap * sizeof *grown);
        if (grown == NULL)
            return -1;
        ps->p = grown;
        ps->cap = cap;
    }
    if ((s = malloc(len)) == NULL)
        return -1;
    snprintf(s, len, dir ? "%s/%s" : "%s%s", dir ? dir : "", name);
    ps->p[ps->n++] = s;
    return 0;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_txt(const char *name)
{
    const size_t n = strlen(name);

    return n > 4 && name[0] != '.' && strcmp(name + n - 4, ".txt") == 0;
}

/* Every *.txt in dir, in name order. */
static int add_dir(paths *ps, const char *dir, as_error *err)
{
    DIR *d = opendir(dir);
    const struct dirent *e;
    const size_t first = ps->n;

    if (d == NULL) {
        char why[128];
        as_error_msg(err, dir, 0, 0, AS_MSG_CHK_UNREADABLE,
                     as_msg_errno(why, sizeof why, err->lang, errno));
        return -1;
    }
    while ((e = readdir(d)) != NULL)
        if (is_txt(e->d_name) && add_path(ps, dir, e->d_name, err) != 0) {
            closedir(d);
            as_error_msg(err, dir, 0, 0, AS_MSG_OOM); /* unless err says more already */
            return -1;
        }
    closedir(d);
    if (ps->n == first) {
        as_error_msg(err, dir, 0, 0, AS_MSG_CHK_NO_ANSWERS, dir);
        return -1;
    }
    qsort(ps->p + first, ps->n - first, sizeof *ps->p, by_name);
    return 0;
}

static void free_paths(paths *ps)
{
    size_t i;

    for (i = 0; i < ps->n; i++)
        free(ps->p[i]);
    free(ps->p);
}

static int list_answers(paths *ps, const as_cli *cli, as_error *err)
{
    struct stat st;
    int i;

    memset(ps, 0, sizeof *ps);
    for (i = 1; i < cli->nfiles; i++) {
        const char *f = cli->files[i];
        int rc = strcmp(f, "-") != 0 && stat(f, &st) == 0 && S_ISDIR(st.st_mode)
                     ? add_dir(ps, f, err) : add_path(ps, NULL, f, err);
        if (rc != 0) {
            if (!err->set)
                as_error_msg(err, f, 0, 0, AS_MSG_OOM);
            free_paths(ps);
            return -1;
        }
    }
    return 0;
}

/* ---- one student ---- */

/* A file name is any bytes: a name printed in a report is valid UTF-8 without terminal
 * control characters or direction controls, each byte that is neither written as "?". */
static void printable(char *s, size_t n)
{
    char *bad;

    while ((bad = (char *)as_lex_control(s, s + n)) != NULL)
        *bad = '?';
    while ((bad = (char *)as_lex_bidi_in(s, s + n)) != NULL)
        *bad = '?'; /* a direction control: "???", seen, never reordering the report */
    while ((bad = (char *)as_lex_bad_byte(s, n)) != NULL)
        *bad = '?';
}

/* The student's name: the `name:` setting, else the file name without its extension. */
static char *student_name(const as_answers *a, const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path, *dot;
    size_t n;
    char *s;

    if (a->student != NULL && a->student[0] != '\0')
        base = a->student, dot = NULL;
    else
        dot = strrchr(base, '.');
    n = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
    if ((s = malloc(n + 1)) != NULL) {
        memcpy(s, base, n);
        s[n] = '\0';
        printable(s, n);
    }
    return s;
}

/* Grades one student's file; B: the online softmax's block size (--tiles, 0 none). */
static int grade_student(as_student *st, const as_session *s, const as_check_opts *o,
                         size_t B, as_error *err)
{
    char *buf;
    size_t len;
    int e = as_lex_read_file(st->path, 1, &buf, &len), rc;

    if (e != 0) {
        char why[128];
        as_error_msg(err, st->path, 0, 0, AS_MSG_CHK_UNREADABLE,
                     as_msg_errno(why, sizeof why, err->lang, e));
        return -1;
    }
    rc = as_answers_parse(&st->answers, buf, len, st->path, err);
    free(buf);
    if (rc != 0)
        return -1;
    if ((st->name = student_name(&st->answers, st->path)) == NULL) {
        as_error_msg(err, st->path, 0, 0, AS_MSG_OOM);
        return -1;
    }
    if (as_check_grade_tiles(&st->grade, &s->p, &s->t, &st->answers, o, B, err) != 0)
        return -1;
    st->graded = 1;
    return 0;
}

/* Grades every student; a file that cannot be graded is reported and counted in *bad. */
static int grade_class(as_class *c, const paths *ps, const as_session *s, const as_cli *cli,
                       size_t *bad)
{
    const as_check_opts o = {cli->tol, cli->require_digits};
    const as_grade **grades;
    size_t i;

    if ((c->student = calloc(ps->n ? ps->n : 1, sizeof *c->student)) == NULL ||
        (grades = calloc(ps->n ? ps->n : 1, sizeof *grades)) == NULL)
        return -1;
    for (i = 0; i < ps->n; i++) {
        as_student *st = &c->student[i];
        as_error e;
        as_error_init(&e, cli->render.lang);
        if ((st->path = malloc(strlen(ps->p[i]) + 1)) == NULL)
            break;
        c->count++; /* as_class_free() frees the student from here on, whatever follows */
        strcpy(st->path, ps->p[i]);
        if (grade_student(st, s, &o, (size_t)cli->tiles, &e) != 0) {
            as_error_print(&e, stderr);
            (*bad)++;
            if (st->name == NULL)
                st->name = student_name(&st->answers, st->path);
            if (st->name == NULL)
                break;
        }
        grades[i] = st->graded ? &st->grade : NULL;
    }
    as_class_summarize(&c->summary, grades, c->count);
    c->require_digits = cli->require_digits;
    free(grades);
    return i == ps->n ? 0 : -1;
}

static int check_options(const as_cli *cli, as_error *err)
{
    int i, stdin_uses = 0;

    for (i = 0; i < cli->nfiles; i++)
        stdin_uses += strcmp(cli->files[i], "-") == 0;
    if (stdin_uses > 1) {
        as_error_msg(err, "", 0, 0, AS_MSG_USE_ONE_STDIN);
        return -1;
    }
    return 0;
}

static int report(FILE *out, const as_class *c, const as_cli *cli)
{
    switch (cli->format) {
    case AS_FMT_JSON: return as_check_json(out, c);
    case AS_FMT_MD: return as_check_md(out, c, &cli->render);
    case AS_FMT_CSV: return as_check_csv(out, c);
    default: return as_check_text(out, c, &cli->render);
    }
}

int as_cmd_check(FILE *out, const as_cli *cli, as_error *err)
{
    const as_session_opts so = as_cli_session(cli);
    as_session s;
    as_class c;
    paths ps;
    size_t bad = 0, i;
    int rc = AS_EXIT_USAGE, all_right = 1;

    memset(&c, 0, sizeof c);
    if (check_options(cli, err) != 0 || as_session_open(&s, cli->files[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (list_answers(&ps, cli, err) != 0)
        goto done;
    if (grade_class(&c, &ps, &s, cli, &bad) != 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_OOM); /* the paths are freed all the same */
    } else {
        for (i = 0; i < c.count; i++)
            all_right &= c.student[i].graded && c.student[i].grade.correct;
        if (bad == c.count)
            rc = AS_EXIT_PARTIAL; /* nothing graded: every error is reported, stdout empty */
        else if (report(out, &c, cli) == 0)
            rc = bad > 0 ? AS_EXIT_PARTIAL : all_right ? AS_EXIT_OK : AS_EXIT_WRONG;
    }
    free_paths(&ps);
done:
    as_class_free(&c);
    as_session_free(&s);
    return rc;
}
