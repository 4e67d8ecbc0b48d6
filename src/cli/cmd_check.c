/* cmd_check.c - `attnstep check FILE ANSWERS...` (SPEC §6): grade every student's answers
 * (files, or directories of *.txt in name order) against FILE, and report them with the
 * class summary. An answers file that cannot be read or graded is reported on standard
 * error with its FILE:LINE:COL and the rest of the class is still graded (exit 2). */
#include "attnstep/check_report.h"
#include "attnstep/cli.h"
#include "attnstep/lex.h"
#include "attnstep/output.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
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
    /* "answers/" and "answers" both give answers/a.txt, as a student's file is named */
    snprintf(s, len, dir && dir[0] && dir[strlen(dir) - 1] != '/' ? "%s/%s" : "%s%s",
             dir ? dir : "", name);
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

/* Frees the list and leaves it empty: freeing it again frees nothing. */
static void free_paths(paths *ps)
{
    size_t i;

    for (i = 0; i < ps->n; i++)
        free(ps->p[i]);
    free(ps->p);
    memset(ps, 0, sizeof *ps);
}

/* The answers files named from cli->files[first] on. */
static int list_answers(paths *ps, const as_cli *cli, int first, as_error *err)
{
    struct stat st;
    int i;

    memset(ps, 0, sizeof *ps);
    for (i = first; i < cli->nfiles; i++) {
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

/* Reads one student's answers file and names the student. */
static int read_student(as_student *st, as_error *err)
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
    return 0;
}

/* Grades the student's answers against the problem of session s; B: the online
 * softmax's block size (--tiles, 0 none). */
static int grade_answers(as_student *st, const as_session *s, const as_check_opts *o, size_t B,
                         as_error *err)
{
    if (as_check_grade_tiles(&st->grade, &s->p, &s->t, &st->answers, o, B, err) != 0)
        return -1;
    st->graded = 1;
    return 0;
}

/* Reads and grades one student's file. */
static int grade_student(as_student *st, const as_session *s, const as_check_opts *o,
                         size_t B, as_error *err)
{
    return read_student(st, err) != 0 ? -1 : grade_answers(st, s, o, B, err);
}

/* The options cells and marks are judged by. */
static as_check_opts judging(const as_cli *cli)
{
    const as_check_opts o = {cli->tol, cli->require_digits, cli->expect, 0};

    return o;
}

/* A new student of c for the answers file path; NULL when memory ran out. */
static as_student *new_student(as_class *c, const char *path)
{
    as_student *st = &c->student[c->count];

    if ((st->path = malloc(strlen(path) + 1)) == NULL)
        return NULL;
    c->count++; /* as_class_free() frees the student from here on, whatever follows */
    strcpy(st->path, path);
    return st;
}

/* A student whose file could not be graded: reported, counted, still named. A grading
 * that failed without saying why (every refusal says it) ran out of memory. */
static int not_graded(as_student *st, as_error *e, size_t *bad)
{
    if (!e->set)
        as_error_msg(e, st->path, 0, 0, AS_MSG_OOM);
    as_error_print(e, stderr);
    (*bad)++;
    if (st->name == NULL)
        st->name = student_name(&st->answers, st->path);
    return st->name != NULL ? 0 : -1;
}

/* The class summary of every graded student. */
static int summarize(as_class *c)
{
    const as_grade **grades = calloc(c->count ? c->count : 1, sizeof *grades);
    size_t i;

    if (grades == NULL)
        return -1;
    for (i = 0; i < c->count; i++)
        grades[i] = c->student[i].graded ? &c->student[i].grade : NULL;
    as_class_summarize(&c->summary, grades, c->count);
    free(grades);
    return 0;
}

/* One student's file graded, with what the grading needs (ctx). */
typedef int (*grade_one)(as_student *st, void *ctx, const as_cli *cli, as_error *e);

/* Grades every student by one; a file that cannot be graded is reported and counted in
 * *bad. */
static int grade_all(as_class *c, const paths *ps, grade_one one, void *ctx, const as_cli *cli,
                     size_t *bad)
{
    size_t i;

    if ((c->student = calloc(ps->n ? ps->n : 1, sizeof *c->student)) == NULL)
        return -1;
    for (i = 0; i < ps->n; i++) {
        as_student *st = new_student(c, ps->p[i]);
        as_error e;
        as_error_init(&e, cli->render.lang);
        if (st == NULL || (one(st, ctx, cli, &e) != 0 && not_graded(st, &e, bad) != 0))
            break;
    }
    c->require_digits = cli->require_digits;
    return i == ps->n ? summarize(c) : -1;
}

/* A student of plain `check FILE ANSWERS...`: against the one problem, the session ctx. */
static int grade_against(as_student *st, void *ctx, const as_cli *cli, as_error *e)
{
    const as_check_opts o = judging(cli);

    return grade_student(st, ctx, &o, (size_t)cli->tiles, e);
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
    case AS_FMT_HTML: return as_check_html(out, c, &cli->render);
    default: return as_check_text(out, c, &cli->render);
    }
}

/* Reports the graded class; the status: 0 every table of every student right, 1 some
 * wrong, PARTIAL when some file could not be graded (all of them: nothing written). */
static int verdict(FILE *out, const as_class *c, const as_cli *cli, size_t bad)
{
    size_t i;
    int all_right = 1;

    for (i = 0; i < c->count; i++)
        all_right &= c->student[i].graded && c->student[i].grade.correct;
    if (bad == c->count)
        return AS_EXIT_PARTIAL; /* nothing graded: every error is reported, stdout empty */
    if (report(out, c, cli) != 0)
        return AS_EXIT_USAGE;
    return bad > 0 ? AS_EXIT_PARTIAL : all_right ? AS_EXIT_OK : AS_EXIT_WRONG;
}

/* ---- check --class DIR: each student against their own variant (SPEC §6) ---- */

/* A student of the class, as DIR/teacher/class.tsv lists them, with their problem. */
typedef struct member {
    long number;
    char *name, *variant, *file; /* file: the input's name in DIR/teacher/ */
    as_session s;
    int open;
    const char *answers;         /* the answers file graded for them, or NULL */
} member;

typedef struct roll {
    member *m;
    size_t n;
} roll;

static void roll_free(roll *r)
{
    size_t i;

    for (i = 0; i < r->n; i++) {
        free(r->m[i].name);
        if (r->m[i].open)
            as_session_free(&r->m[i].s);
    }
    free(r->m);
}

/* The tab-separated fields of one line of class.tsv, cut in place (NUL after each):
 * how many there were. */
static size_t cut_fields(char *line, char **f, size_t max)
{
    size_t n = 0;

    while (n < max) {
        f[n++] = line;
        if ((line = strchr(line, '\t')) == NULL)
            break;
        *line++ = '\0';
    }
    return n;
}

/* One line of class.tsv into m: number, name, variant, seed, file. */
static int read_member(member *m, char *line)
{
    char *f[6], *end;

    if (cut_fields(line, f, 6) != 5 || f[4][0] == '\0' || strchr(f[4], '/') != NULL)
        return -1;
    m->number = strtol(f[0], &end, 10);
    if (*end != '\0' || m->number <= 0)
        return -1;
    /* one allocation holds the name, the variant and the file, each NUL-terminated */
    if ((m->name = malloc(strlen(f[1]) + strlen(f[2]) + strlen(f[4]) + 3)) == NULL)
        return -2;
    m->variant = m->name + strlen(f[1]) + 1;
    m->file = m->variant + strlen(f[2]) + 1;
    strcpy(m->name, f[1]);
    strcpy(m->variant, f[2]);
    strcpy(m->file, f[4]);
    return 0;
}

/* Reads DIR/teacher/class.tsv into r (the header line skipped). */
static int read_roll(roll *r, const char *dir, as_error *err)
{
    char *path = as_path_join(dir, "teacher/class.tsv"), *buf, *line, *next;
    size_t len, cap, lineno = 0;
    int e, rc = -1;

    if (path == NULL)
        return -1;
    if ((e = as_lex_read_file(path, 0, &buf, &len)) != 0) {
        char why[128];
        as_error_msg(err, path, 0, 0, AS_MSG_CLS_UNREADABLE,
                     as_msg_errno(why, sizeof why, err->lang, e));
        as_error_hint_msg(err, AS_MSG_CLS_HINT);
        free(path);
        return -1;
    }
    for (cap = 1, next = buf; *next; next++)
        cap += *next == '\n';
    if ((r->m = calloc(cap, sizeof *r->m)) == NULL)
        goto done;
    for (line = buf; line != NULL && *line != '\0'; line = next) {
        if ((next = strchr(line, '\n')) != NULL)
            *next++ = '\0';
        if (++lineno == 1 && strncmp(line, "number\t", 7) == 0)
            continue;
        if ((e = read_member(&r->m[r->n], line)) != 0) {
            if (e == -1)
                as_error_msg(err, path, (int)lineno, 1, AS_MSG_CLS_BAD_LINE);
            goto done;
        }
        r->n++;
    }
    rc = 0;
done:
    free(buf);
    free(path);
    return rc;
}

/* Opens every member's problem, DIR/teacher/FILE, and checks --expect (expect) on it. */
static int open_problems(roll *r, const char *dir, const as_session_opts *so,
                         const char *expect, as_error *err)
{
    char *teacher = as_path_join(dir, "teacher");
    size_t i;
    int rc = teacher != NULL ? 0 : -1;

    for (i = 0; rc == 0 && i < r->n; i++) { /* paths on the heap: a long DIR is never cut */
        char *path = as_path_join(teacher, r->m[i].file);
        rc = path == NULL || as_cli_open(&r->m[i].s, path, so, err) != 0 ? -1 : 0;
        r->m[i].open = rc == 0;
        if (rc == 0 && expect != NULL) /* told once, at the first problem, not per student */
            rc = as_check_ask(&r->m[i].s.p, expect, err);
        free(path);
    }
    free(teacher);
    return rc;
}

/* Nonzero when the file's stem (its name without directory and extension, n bytes)
 * names member m: the name, the file stem teacher/ gives it, or the roster number
 * ("7", "07", "07-anything"). */
static int stem_names(const char *stem, size_t n, const member *m)
{
    const size_t fn = strcspn(m->file, ".");
    char *end;
    long k = strtol(stem, &end, 10);

    if ((strlen(m->name) == n && memcmp(stem, m->name, n) == 0) ||
        (fn == n && memcmp(stem, m->file, n) == 0))
        return 1;
    return end != stem && k == m->number && (end == stem + n || *end == '-');
}

/* The member the answers are a's: by its name: line, else its variant: line, else its
 * file name. -1 for none. */
static long match(const roll *r, const as_answers *a, const char *path)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *dot = strrchr(base, '.');
    const size_t n = dot != NULL && dot != base ? (size_t)(dot - base) : strlen(base);
    size_t i;

    for (i = 0; a->student != NULL && a->student[0] && i < r->n; i++)
        if (strcmp(a->student, r->m[i].name) == 0)
            return (long)i;
    for (i = 0; a->variant != NULL && a->variant[0] && i < r->n; i++)
        if (strcasecmp(a->variant, r->m[i].variant) == 0)
            return (long)i;
    for (i = 0; i < r->n; i++)
        if (stem_names(base, n, &r->m[i]))
            return (long)i;
    return -1;
}

/* copied_variant (SPEC §6): answers wrong for the student's own problem that are all
 * right for another variant's are named so, and earn no carried credit. */
static int look_for_copy(as_student *st, const roll *r, size_t own, const as_check_opts *o,
                         size_t B)
{
    size_t j;

    for (j = 0; j < r->n && !st->grade.correct && st->grade.count > 0; j++) {
        as_grade other;
        as_error e;
        int same;
        if (j == own)
            continue;
        as_error_init(&e, AS_LANG_EN);
        if (as_check_grade_tiles(&other, &r->m[j].s.p, &r->m[j].s.t, &st->answers, o, B, &e) != 0)
            continue; /* not even the shapes of that variant */
        same = other.correct;
        as_grade_free(&other);
        if (same) {
            snprintf(st->copied_variant, sizeof st->copied_variant, "%s", r->m[j].variant);
            snprintf(st->copied_name, sizeof st->copied_name, "%s", r->m[j].name);
            return as_grade_uncarry(&st->grade);
        }
    }
    return 0;
}

/* Answers refused for their own problem because the tables they give (X, W …) are
 * another's: when they are another variant's right answers, copied whole with its given
 * tables, they are graded against their own problem without those tables and named
 * copied_variant (SPEC §6); else the refusal (err) stands. */
static int copied_whole(as_student *st, const roll *r, size_t own, const as_check_opts *o,
                        size_t B, as_error *err)
{
    as_check_opts lax = *o;
    as_error e;

    lax.given_other = 1;
    as_error_init(&e, err->lang);
    if (as_check_grade_tiles(&st->grade, &r->m[own].s.p, &r->m[own].s.t, &st->answers, &lax, B,
                             &e) != 0)
        return -1;
    st->graded = 1;
    if (look_for_copy(st, r, own, o, B) != 0)
        return -1;
    if (st->copied_variant[0] != '\0') {
        as_error_init(err, err->lang); /* named, and graded: no refusal */
        return 0;
    }
    as_grade_free(&st->grade);
    st->graded = 0;
    return -1;
}

/* The student of one answers file: matched to a member of the class and graded against
 * that member's problem; reported and left ungraded when it matches none, or a member
 * already graded. */
static int grade_member(as_student *st, void *ctx, const as_cli *cli, as_error *e)
{
    const as_check_opts o = judging(cli);
    roll *r = ctx;
    long k;

    if (read_student(st, e) != 0)
        return -1;
    if ((k = match(r, &st->answers, st->path)) < 0) {
        as_error_msg(e, st->path, 0, 0, AS_MSG_CLS_NO_STUDENT);
        as_error_hint_msg(e, AS_MSG_CLS_NO_STUDENT_HINT);
        return -1;
    }
    if (r->m[k].answers != NULL) {
        as_error_msg(e, st->path, 0, 0, AS_MSG_CLS_TWICE, r->m[k].answers);
        as_error_hint_msg(e, AS_MSG_CLS_TWICE_HINT);
        return -1;
    }
    r->m[k].answers = st->path;
    free(st->name); /* the roster's spelling */
    if ((st->name = malloc(strlen(r->m[k].name) + 1)) == NULL)
        return -1;
    strcpy(st->name, r->m[k].name);
    printable(st->name, strlen(st->name));
    if (grade_answers(st, &r->m[k].s, &o, (size_t)cli->tiles, e) == 0)
        return look_for_copy(st, r, (size_t)k, &o, (size_t)cli->tiles);
    return copied_whole(st, r, (size_t)k, &o, (size_t)cli->tiles, e);
}

/* A note on standard error naming the students of the class who handed in nothing: as
 * many as the line holds, then how many more (the list was cut without a word, and a
 * teacher read its first names as all of them). */
static void note_absent(const roll *r, as_lang lang)
{
    size_t i, used = 0, more = 0;
    char list[2048] = "";

    for (i = 0; i < r->n; i++) {
        if (r->m[i].answers != NULL)
            continue;
        if (used + 80 < sizeof list)
            used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
                                     used ? as_msg_text(lang, AS_MSG_CHK_LIST_SEP) : "",
                                     r->m[i].name);
        else
            more++;
    }
    if (used > 0) {
        fprintf(stderr, "attnstep: ");
        fprintf(stderr, as_msg_text(lang, AS_MSG_CLS_NOT_HANDED_IN), list);
        if (more > 0)
            fprintf(stderr, as_msg_text(lang, AS_MSG_CLS_NOT_HANDED_IN_MORE), more);
        fputc('\n', stderr);
    }
}

static int check_roll(FILE *out, const as_cli *cli, as_error *err)
{
    const as_session_opts so = as_cli_session(cli);
    roll r = {NULL, 0};
    as_class c;
    paths ps = {NULL, 0, 0};
    size_t bad = 0;
    int rc = AS_EXIT_USAGE;

    memset(&c, 0, sizeof c);
    if (read_roll(&r, cli->roster, err) != 0 ||
        open_problems(&r, cli->roster, &so, cli->expect, err) != 0 ||
        list_answers(&ps, cli, 0, err) != 0) {
        if (!err->set)
            as_error_msg(err, "", 0, 0, AS_MSG_OOM);
    } else if (grade_all(&c, &ps, grade_member, &r, cli, &bad) != 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_OOM);
    } else {
        note_absent(&r, cli->render.lang);
        rc = verdict(out, &c, cli, bad);
    }
    free_paths(&ps);
    as_class_free(&c);
    roll_free(&r);
    return rc;
}

int as_cmd_check(FILE *out, const as_cli *cli, as_error *err)
{
    const as_session_opts so = as_cli_session(cli);
    as_session s;
    as_class c;
    paths ps;
    int rc = AS_EXIT_USAGE;
    size_t bad = 0;

    if (check_options(cli, err) != 0)
        return AS_EXIT_USAGE;
    if (cli->roster != NULL)
        return check_roll(out, cli, err);
    memset(&c, 0, sizeof c);
    if (as_cli_open(&s, cli->files[0], &so, err) != 0)
        return AS_EXIT_USAGE;
    if (as_check_ask(&s.p, cli->expect, err) != 0) /* once, before any answer is read */
        goto done;
    if (list_answers(&ps, cli, 1, err) != 0)
        goto done;
    if (grade_all(&c, &ps, grade_against, &s, cli, &bad) != 0)
        as_error_msg(err, "", 0, 0, AS_MSG_OOM); /* the paths are freed all the same */
    else
        rc = verdict(out, &c, cli, bad);
    free_paths(&ps);
done:
    as_class_free(&c);
    as_session_free(&s);
    return rc;
}
