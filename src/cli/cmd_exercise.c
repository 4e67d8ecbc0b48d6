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
    char handout[48];  /* what a student's own copy says: the level alone */
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
    /* --norm or --ffn alone mean a block too: pre, GPT-2's and LLaMA's order */
    o->block = cli->block ? (as_block_kind)cli->block
                          : cli->norm || cli->ffn ? AS_BLOCK_PRE : AS_BLOCK_NONE;
    o->norm = cli->norm ? (as_norm_kind)(cli->norm - 1) : AS_NORM_LAYER;
    o->ffn = cli->ffn ? (as_ffn_kind)(cli->ffn - 1) : AS_FFN_GELU_TANH;
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
    b->roster.name = b->numbers;
    /* counted as each is made: batch_free() frees those made when one cannot be */
    for (k = 0; k < (size_t)cli->count; k++, b->roster.count = k) {
        if ((b->numbers[k] = malloc(24)) == NULL)
            return -1;
        snprintf(b->numbers[k], 24, "%zu", k + 1);
    }
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
        snprintf(v->handout, sizeof v->handout,
                 as_msg_text(base->lang, AS_MSG_SHEET_LEVEL_ONLY), v->o.level);
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
 * keys only); handout: a student's copy, which names the level but not the seed. */
static int write_sheets(FILE *out, const batch *b, size_t first, size_t count,
                        const as_cli *cli, int answers, int handout)
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
        sh[k] = (as_sheet){&v->s.p, &v->s.t, handout ? v->handout : v->detail, v->o.student,
                           v->o.variant};
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
        return write_sheets(out, b, 0, b->count, cli, cli->answers, 0);
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

/* ---- -o DIR: DIR/sheets/ what is handed out, DIR/teacher/ what the teacher keeps ---- */

/* Bytes a file name's stem may take: "0040-" and a roster name of at most 64 bytes. */
#define STEM_MAX (AS_ROSTER_NAME_MAX + 32)

/* name, made safe as part of a file name (SPEC §7): what a file system, a shell or XeTeX
 * cannot take becomes "_" (path separators, blanks, control, shell- and TeX-special
 * characters), a character outside the Basic Multilingual Plane (𠮷: XeTeX cannot open
 * such a file) is left out, a leading "." or "-" becomes "_"; other UTF-8 letters kept. */
static void safe_name(char *buf, size_t size, const char *name)
{
    const char *end = name + strlen(name);
    size_t k = 0;

    while (*name && k + 1 < size) {
        const unsigned char c = (unsigned char)*name;
        const size_t n = as_lex_char_len(name, end);
        if (c >= 0xF0) {
            /* outside the BMP: left out */
        } else if (c >= 0x80) {
            if (k + n >= size)
                break;
            memcpy(buf + k, name, n);
            k += n;
        } else {
            buf[k++] = c > ' ' && c < 0x7F && strchr("/\\:*?\"<>|'`$&;!~%#{}^()[]", c) == NULL
                           ? (char)c : '_';
        }
        name += n ? n : 1;
    }
    buf[k] = '\0';
    if (buf[0] == '.' || buf[0] == '-')
        buf[0] = '_';
}

/* The stem of student k's files: the roster number and the name ("01-张三"); the number
 * alone when nothing of the name is left. Unique: the number is. */
static void file_stem(char *buf, const batch *b, size_t k)
{
    const variant *v = &b->v[k];
    char safe[STEM_MAX - 6];

    safe_name(safe, sizeof safe, v->o.student != NULL ? v->o.student : v->id);
    snprintf(buf, STEM_MAX, safe[0] ? "%0*zu-%s" : "%0*zu", b->count < 100 ? 2 : 4, k + 1, safe);
}

typedef int fill_fn(FILE *, const batch *, size_t, const as_cli *);

/* One file of -o DIR: its path (malloc'd), what fills it, and the variant it is of. */
typedef struct planned {
    char *path;
    fill_fn *fill;
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

/* A student's own sheet: the variant id, never the seed (SPEC §7). */
static int fill_sheet(FILE *out, const batch *b, size_t k, const as_cli *cli)
{
    return write_sheets(out, b, k, 1, cli, 0, 1);
}

/* The key for all in check's format. */
static int fill_key(FILE *out, const batch *b, size_t k, const as_cli *cli)
{
    (void)k;
    return write_keys(out, b, cli);
}

/* The key for all as a worksheet document. */
static int fill_key_sheet(FILE *out, const batch *b, size_t k, const as_cli *cli)
{
    (void)k;
    return write_sheets(out, b, 0, b->count, cli, 2, 0);
}

static int fill_quiz(FILE *out, const batch *b, size_t k, const as_cli *cli)
{
    (void)k;
    return write_quiz(out, b, cli);
}

/* teacher/class.tsv: number, name, variant id, seed and input file of each student, the
 * list `check --class DIR` grades by. */
static int fill_class(FILE *out, const batch *b, size_t k, const as_cli *cli)
{
    char stem[STEM_MAX];

    (void)k;
    (void)cli;
    fputs("number\tname\tvariant\tseed\tfile\n", out);
    for (k = 0; k < b->count; k++) {
        const variant *v = &b->v[k];
        file_stem(stem, b, k);
        fprintf(out, "%zu\t%s\t%s\t%lu\t%s.txt\n", k + 1,
                v->o.student != NULL ? v->o.student : b->roster.count ? b->roster.name[k] : "",
                v->id[0] ? v->id : "-", v->o.seed, stem);
    }
    return ferror(out) ? -1 : 0;
}

/* The extension of the format's sheets ("md" for text: a student is handed a page, never
 * an input file) or quiz. */
static const char *format_ext(const as_cli *cli)
{
    switch (cli->format) {
    case AS_FMT_LATEX: return "tex";
    case AS_FMT_GIFT: return "gift";
    case AS_FMT_MOODLE: return "xml";
    default: return "md";
    }
}

/* Adds DIR/name to the plan; name is built from fmt. Returns 0, or -1 (out of memory). */
static int plan(planned *p, size_t *n, const as_cli *cli, size_t k, fill_fn *fill,
                const char *fmt, ...)
{
    char name[STEM_MAX + 32];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap); /* part, number, "-", name, extension */
    va_end(ap);
    if ((p[*n].path = as_path_join(cli->output_dir, name)) == NULL)
        return -1;
    p[*n].fill = fill;
    p[(*n)++].k = k;
    return 0;
}

/* Every file -o DIR will write, in order: each student's sheet (in sheets/) and input
 * (in teacher/), then in teacher/ the quiz or the key as a sheet, the key in check's
 * format and class.tsv. Returns the count, or 0 (out of memory; p freed by the caller). */
static size_t plan_all(planned *p, const batch *b, const as_cli *cli)
{
    const int quiz = cli->format == AS_FMT_GIFT || cli->format == AS_FMT_MOODLE;
    const char *ext = format_ext(cli);
    char stem[STEM_MAX];
    size_t k, n = 0;

    for (k = 0; k < b->count; k++) {
        file_stem(stem, b, k);
        if ((!quiz && plan(p, &n, cli, k, fill_sheet, "sheets/%s.%s", stem, ext) != 0) ||
            plan(p, &n, cli, k, fill_input, "teacher/%s.txt", stem) != 0)
            return 0;
    }
    if (plan(p, &n, cli, 0, quiz ? fill_quiz : fill_key_sheet, "teacher/%s.%s",
             quiz ? "quiz" : "key", ext) != 0 ||
        plan(p, &n, cli, 0, fill_key, "teacher/key.txt") != 0 ||
        plan(p, &n, cli, 0, fill_class, "teacher/class.tsv") != 0)
        return 0;
    return n;
}

/* Makes DIR, or DIR/sub when sub is given, unless it exists. */
static int make_dir(const char *dir, const char *sub, as_error *err)
{
    char why[128], *path = sub != NULL ? as_path_join(dir, sub) : NULL;
    const char *at = sub != NULL ? path : dir;
    int rc = 0;

    if (at == NULL)
        return -1;
    if (mkdir(at, 0777) != 0 && errno != EEXIST) {
        as_error_msg(err, at, 0, 0, AS_MSG_FILE_NO_DIR,
                     as_msg_errno(why, sizeof why, err->lang, errno));
        rc = -1;
    }
    free(path);
    return rc;
}

/* Writes the plan: every path is checked first, so that a name the system cannot take
 * stops the run before a folder or any file is made. */
static int write_dir(FILE *report, const batch *b, const as_cli *cli, as_error *err)
{
    const size_t room = 2 * b->count + 3;
    const int quiz = cli->format == AS_FMT_GIFT || cli->format == AS_FMT_MOODLE;
    planned *p = calloc(room, sizeof *p);
    size_t n = p != NULL ? plan_all(p, b, cli) : 0, k;
    int rc = n > 0 ? 0 : -1;

    for (k = 0; rc == 0 && k < n; k++)
        rc = as_output_path_check(p[k].path, err);
    if (rc == 0)
        rc = make_dir(cli->output_dir, NULL, err) || make_dir(cli->output_dir, "teacher", err) ||
             (!quiz && make_dir(cli->output_dir, "sheets", err));
    for (k = 0; rc == 0 && k < n; k++)
        rc = put_file(report, cli, &p[k], b, err);
    for (k = 0; p != NULL && k < room; k++)
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
