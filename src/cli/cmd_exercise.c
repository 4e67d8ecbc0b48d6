/* cmd_exercise.c - `attnstep exercise` (SPEC §7): new exercises as input files, their
 * answer keys (--answers) in the format `check` reads, worksheets (--format md|latex) or
 * Moodle questions (--format gift|moodle); one, --count N of them, or one per name of a
 * class (--class ROSTER), into one document or, with -o DIR, a file each. */
#include "attnstep/cli.h"
#include "attnstep/exercise.h"
#include "attnstep/lex.h"
#include "attnstep/moodle.h"
#include "attnstep/output.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define FRESH_SEEDS 1000000000UL /* a drawn seed stays short to type again */

/* One exercise of the run: its options, its text and its session. */
typedef struct variant {
    as_exercise_opts o;
    char id[AS_VARIANT_ID];
    char detail[96];   /* what its sheet says it is: level and seed */
    char *text;
    size_t len;
    as_session s;
    int open;
} variant;

typedef struct batch {
    variant *v;
    size_t count;
    as_roster roster;
    char **numbers;    /* --count: the names "1", "2" ... the seeds are derived from */
} batch;

/* A seed nobody chose: from /dev/urandom, else from the clock and the process id. */
static unsigned long fresh_seed(void)
{
    unsigned char b[8];
    uint64_t v = 0;
    FILE *f = fopen("/dev/urandom", "rb");
    size_t k;

    if (f != NULL && fread(b, 1, sizeof b, f) == sizeof b) {
        for (k = 0; k < sizeof b; k++)
            v = v << 8 | b[k];
    } else {
        v = (uint64_t)time(NULL) * UINT64_C(1000003) ^ (uint64_t)getpid() << 20 ^ (uint64_t)clock();
    }
    if (f != NULL)
        fclose(f);
    return (unsigned long)(v % FRESH_SEEDS);
}

/* The exercise options from the command line, settled and checked. */
static int options(as_exercise_opts *o, const as_cli *cli, as_error *err)
{
    memset(o, 0, sizeof *o);
    o->seed = cli->seed_set ? cli->seed : fresh_seed();
    o->level = (int)cli->level;
    o->tokens = (size_t)cli->tokens;
    o->width = (size_t)cli->width;
    o->dk = (size_t)cli->dk;
    o->dv = (size_t)cli->dv;
    o->mask = cli->mask;
    o->lang = cli->render.lang;
    o->step = (as_step)cli->step;
    if (!cli->seed_set) {
        fprintf(stderr, "attnstep: ");
        fprintf(stderr, as_msg_text(o->lang, AS_MSG_EX_SEED_DRAWN), o->seed);
        fputc('\n', stderr);
    }
    return as_exercise_settle(o, err);
}

/* The names of the variants: the roster's, or "1" ... "N" for --count; none for one. */
static int names(batch *b, const as_cli *cli, const as_exercise_opts *o, as_error *err)
{
    char *text;
    size_t len, k;
    int e;

    if (cli->roster != NULL) {
        if ((e = as_lex_read_file(cli->roster, 0, &text, &len)) != 0) {
            char why[128];
            as_error_msg(err, cli->roster, 0, 0, AS_MSG_ROSTER_UNREADABLE,
                         as_msg_errno(why, sizeof why, err->lang, e));
            return -1;
        }
        e = as_roster_parse(&b->roster, text, len, cli->roster, o->lang, err);
        free(text);
        return e;
    }
    if ((b->numbers = calloc((size_t)cli->count, sizeof *b->numbers)) == NULL)
        return -1;
    for (k = 0; k < (size_t)cli->count; k++) {
        if ((b->numbers[k] = malloc(24)) == NULL)
            return -1;
        snprintf(b->numbers[k], 24, "%zu", k + 1);
    }
    b->roster.name = b->numbers;
    b->roster.count = (size_t)cli->count;
    return 0;
}

/* Draws and runs every variant. */
static int make_all(batch *b, const as_cli *cli, const as_exercise_opts *base, as_error *err)
{
    const int many = cli->count > 0 || cli->roster != NULL;
    size_t k;

    if (many && names(b, cli, base, err) != 0)
        return -1;
    b->count = many ? b->roster.count : 1;
    if ((b->v = calloc(b->count, sizeof *b->v)) == NULL)
        return -1;
    for (k = 0; k < b->count; k++) {
        variant *v = &b->v[k];
        v->o = *base;
        if (many) {
            v->o.seed = as_exercise_variant_seed(base->seed, b->roster.name[k]);
            as_exercise_variant_id(v->id, v->o.seed);
            v->o.variant = v->id;
            v->o.student = cli->roster != NULL ? b->roster.name[k] : NULL;
        }
        snprintf(v->detail, sizeof v->detail, as_msg_text(base->lang, AS_MSG_SHEET_LEVEL),
                 v->o.level, v->o.seed);
        if (as_exercise_make(&v->text, &v->len, &v->o, err) != 0 ||
            as_exercise_open(&v->s, v->text, v->len, err) != 0)
            return -1;
        v->open = 1;
    }
    return 0;
}

static void batch_free(batch *b)
{
    size_t k;

    for (k = 0; b->v != NULL && k < b->count; k++) {
        free(b->v[k].text);
        if (b->v[k].open)
            as_session_free(&b->v[k].s);
    }
    free(b->v);
    if (b->numbers != NULL) {
        for (k = 0; k < b->roster.count; k++)
            free(b->numbers[k]);
        free(b->numbers);
    } else {
        as_roster_free(&b->roster);
    }
}

/* ---- writing ---- */

static as_sheet_opts sheet_opts(const as_cli *cli, int answers)
{
    as_sheet_opts so;

    memset(&so, 0, sizeof so);
    so.lang = cli->render.lang;
    so.latex = cli->format == AS_FMT_LATEX;
    so.answers = answers;
    so.exp_table = cli->exp_table;
    so.ascii = cli->render.ascii;
    so.step = (as_step)cli->step;
    so.places = cli->digits_set ? cli->render.digits : AS_SHEET_PLACES;
    so.key_places = so.places + 2 > 17 ? 17 : so.places + 2;
    return so;
}

/* Variants first..first+count as a worksheet document (answers: 1 sheets and keys, 2
 * keys only). */
static int write_sheets(FILE *out, const batch *b, size_t first, size_t count,
                        const as_cli *cli, int answers)
{
    as_sheet *sh = calloc(count, sizeof *sh);
    as_sheet_opts so = sheet_opts(cli, answers != 0);
    size_t k;
    int rc;

    if (sh == NULL)
        return -1;
    so.key_only = answers == 2;
    for (k = 0; k < count; k++) {
        const variant *v = &b->v[first + k];
        sh[k] = (as_sheet){&v->s.p, &v->s.t, v->detail, v->o.student, v->o.variant};
    }
    rc = as_sheet_write(out, sh, count, &so);
    free(sh);
    return rc;
}

/* Every variant as Moodle questions (GIFT or XML). */
static int write_quiz(FILE *out, const batch *b, const as_cli *cli)
{
    as_sheet *q = calloc(b->count, sizeof *q);
    const as_sheet_opts qo = sheet_opts(cli, 0);
    size_t k;
    int rc;

    if (q == NULL)
        return -1;
    for (k = 0; k < b->count; k++) {
        const variant *v = &b->v[k];
        q[k] = (as_sheet){&v->s.p, &v->s.t, v->detail, v->o.student, v->o.variant};
    }
    rc = cli->format == AS_FMT_GIFT ? as_quiz_gift(out, q, b->count, &qo)
                                    : as_quiz_moodle(out, q, b->count, &qo);
    free(q);
    return rc;
}

/* Every variant's key in check's format, one after another. */
static int write_keys(FILE *out, const batch *b, const as_cli *cli)
{
    as_render_opts ro = cli->render;
    size_t k;
    int rc = 0;

    ro.color = 0;
    for (k = 0; k < b->count; k++) {
        if (k > 0)
            fputc('\n', out);
        rc |= as_exercise_key(out, &b->v[k].s.t, &b->v[k].o, &ro);
    }
    return rc;
}

/* Everything into one stream: the exercises (or keys), the sheets, or the quiz. */
static int write_one(FILE *out, const batch *b, const as_cli *cli)
{
    size_t k;

    switch (cli->format) {
    case AS_FMT_MD:
    case AS_FMT_LATEX:
        return write_sheets(out, b, 0, b->count, cli, cli->answers);
    case AS_FMT_GIFT:
    case AS_FMT_MOODLE:
        return write_quiz(out, b, cli);
    default:
        if (cli->answers)
            return write_keys(out, b, cli);
        for (k = 0; k < b->count; k++) {
            if (k > 0)
                fputc('\n', out);
            fwrite(b->v[k].text, 1, b->v[k].len, out);
        }
        return ferror(out) ? -1 : 0;
    }
}

/* ---- -o DIR: a file per student, and the key for all ---- */

/* name, made safe as part of a file name: no slashes, control characters or characters
 * shells and file systems take specially; UTF-8 letters kept. */
#define SAFE_NAME (AS_ROSTER_NAME_MAX + 1) /* a roster name, or a variant id */

static void safe_name(char *buf, size_t size, const char *name)
{
    size_t k = 0;

    for (; *name && k + 1 < size; name++) {
        const unsigned char c = (unsigned char)*name;
        buf[k++] = c >= 0x80 || (c > ' ' && strchr("/\\:*?\"<>|'`$&;!~", c) == NULL) ? (char)c : '_';
    }
    buf[k] = '\0';
    if (buf[0] == '.' || buf[0] == '-')
        buf[0] = '_';
}

/* One file of -o DIR: its path (malloc'd), what fills it, and the variant it is of. */
typedef struct planned {
    char *path;
    int (*fill)(FILE *, const batch *, size_t, const as_cli *);
    size_t k;
} planned;

/* Writes what p's fill makes into p's path (refusing an existing file without --force)
 * and names it in the report. */
static int put_file(FILE *report, const as_cli *cli, const planned *p, const batch *b,
                    as_error *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc;

    if (mem == NULL)
        return -1;
    rc = p->fill(mem, b, p->k, cli);
    rc |= fclose(mem);
    if (rc == 0 && (rc = as_write_output(p->path, buf, len, cli->force, err)) == 0) {
        fprintf(report, as_msg_text(cli->render.lang, AS_MSG_EX_WROTE), p->path);
        fputc('\n', report);
    }
    free(buf);
    return rc;
}

static int fill_input(FILE *out, const batch *b, size_t k, const as_cli *cli)
{
    (void)cli;
    return fwrite(b->v[k].text, 1, b->v[k].len, out) == b->v[k].len ? 0 : -1;
}

static int fill_sheet(FILE *out, const batch *b, size_t k, const as_cli *cli)
{
    return write_sheets(out, b, k, 1, cli, 0);
}

static int fill_key(FILE *out, const batch *b, size_t k, const as_cli *cli)
{
    (void)k;
    if (cli->format == AS_FMT_MD || cli->format == AS_FMT_LATEX)
        return write_sheets(out, b, 0, b->count, cli, 2);
    return write_keys(out, b, cli);
}

static int fill_quiz(FILE *out, const batch *b, size_t k, const as_cli *cli)
{
    (void)k;
    return write_quiz(out, b, cli);
}

/* Adds DIR/name to the plan; name is built from fmt. Returns 0, or -1 (out of memory). */
static int plan(planned *p, size_t *n, const as_cli *cli, size_t k,
                int (*fill)(FILE *, const batch *, size_t, const as_cli *), const char *fmt, ...)
{
    char name[SAFE_NAME + 48];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap); /* number, "-", name, extension */
    va_end(ap);
    if ((p[*n].path = as_path_join(cli->output_dir, name)) == NULL)
        return -1;
    p[*n].fill = fill;
    p[(*n)++].k = k;
    return 0;
}

/* Every file -o DIR will write, in order: each student's input (and sheet), the quiz,
 * the key. Returns the count, or 0 (out of memory; p freed by the caller). */
static size_t plan_all(planned *p, const batch *b, const as_cli *cli)
{
    static const char *const ext[] = {[AS_FMT_MD] = "md", [AS_FMT_LATEX] = "tex",
                                      [AS_FMT_GIFT] = "gift", [AS_FMT_MOODLE] = "xml"};
    const int sheets = cli->format == AS_FMT_MD || cli->format == AS_FMT_LATEX;
    const int width = b->count < 100 ? 2 : 4;
    char safe[SAFE_NAME];
    size_t k, n = 0;

    for (k = 0; k < b->count; k++) {
        const variant *v = &b->v[k];
        safe_name(safe, sizeof safe, v->o.student != NULL ? v->o.student : v->id);
        if (plan(p, &n, cli, k, fill_input, "%0*zu-%s.txt", width, k + 1, safe) != 0 ||
            (sheets && plan(p, &n, cli, k, fill_sheet, "%0*zu-%s.%s", width, k + 1, safe,
                            ext[cli->format]) != 0))
            return 0;
    }
    if (!sheets && cli->format != AS_FMT_TEXT &&
        plan(p, &n, cli, 0, fill_quiz, "quiz.%s", ext[cli->format]) != 0)
        return 0;
    if (plan(p, &n, cli, 0, fill_key, "key.%s", sheets ? ext[cli->format] : "txt") != 0)
        return 0;
    return n;
}

/* Makes DIR unless it exists. */
static int make_dir(const char *dir, as_error *err)
{
    char why[128];

    if (mkdir(dir, 0777) == 0 || errno == EEXIST)
        return 0;
    as_error_msg(err, dir, 0, 0, AS_MSG_FILE_NO_DIR, as_msg_errno(why, sizeof why, err->lang, errno));
    return -1;
}

/* Writes the plan: every path is checked first, so that a name the system cannot take
 * stops the run before the folder or any file is made. */
static int write_dir(FILE *report, const batch *b, const as_cli *cli, as_error *err)
{
    planned *p = calloc(2 * b->count + 2, sizeof *p);
    size_t n = p != NULL ? plan_all(p, b, cli) : 0, k;
    int rc = n > 0 ? 0 : -1;

    for (k = 0; rc == 0 && k < n; k++)
        rc = as_output_path_check(p[k].path, err);
    if (rc == 0)
        rc = make_dir(cli->output_dir, err);
    for (k = 0; rc == 0 && k < n; k++)
        rc = put_file(report, cli, &p[k], b, err);
    for (k = 0; p != NULL && k < 2 * b->count + 2; k++)
        free(p[k].path);
    free(p);
    return rc;
}

int as_cmd_exercise(FILE *out, const as_cli *cli, as_error *err)
{
    as_exercise_opts o;
    batch b;
    int rc;

    memset(&b, 0, sizeof b);
    if (options(&o, cli, err) != 0)
        return AS_EXIT_USAGE;
    rc = make_all(&b, cli, &o, err);
    if (rc == 0)
        rc = cli->output_dir != NULL ? write_dir(out, &b, cli, err) : write_one(out, &b, cli);
    if (rc != 0 && !err->set)
        as_cli_write_failed(out, cli, err);
    batch_free(&b);
    return rc == 0 ? AS_EXIT_OK : AS_EXIT_USAGE;
}
