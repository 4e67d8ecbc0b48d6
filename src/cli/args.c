/* args.c - reading the command line (Lua's collectargs): every argument is checked
 * here, before any work, against the options' table below and the command table
 * (commands.c). */
#include "attnstep/cli.h"
#include "attnstep/suggest.h"
#include "attnstep/textblock.h"
#include "attnstep/sheet.h"
#include "attnstep/render_grad.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


enum { OPT_LANG = 256, OPT_FORMAT, OPT_DIGITS, OPT_MASK, OPT_ONLY, OPT_ASCII, OPT_COLOR,
       OPT_FORCE, OPT_ROW, OPT_HEATMAP, OPT_TOL, OPT_SEED, OPT_TOKENS, OPT_WIDTH, OPT_DK,
       OPT_DV, OPT_LEVEL, OPT_ANSWERS, OPT_VERSION, OPT_REQUIRE_DIGITS, OPT_OFFSET,
       OPT_TILES, OPT_STEP, OPT_EXP_TABLE, OPT_COUNT, OPT_CLASS, OPT_EXPECT, OPT_PREDICT, OPT_HEAD,
       OPT_BLOCK, OPT_NORM, OPT_FFN };

static const struct option long_options[] = {
    {"lang", required_argument, NULL, OPT_LANG},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"digits", required_argument, NULL, OPT_DIGITS},
    {"mask", required_argument, NULL, OPT_MASK},
    {"only", required_argument, NULL, OPT_ONLY},
    {"ascii", no_argument, NULL, OPT_ASCII},
    {"color", required_argument, NULL, OPT_COLOR},
    {"colour", required_argument, NULL, OPT_COLOR},
    {"output", required_argument, NULL, 'o'},
    {"force", no_argument, NULL, OPT_FORCE},
    {"row", required_argument, NULL, OPT_ROW},
    {"offset", required_argument, NULL, OPT_OFFSET},
    {"heatmap", no_argument, NULL, OPT_HEATMAP},
    {"tol", required_argument, NULL, OPT_TOL},
    {"require-digits", required_argument, NULL, OPT_REQUIRE_DIGITS},
    {"seed", required_argument, NULL, OPT_SEED},
    {"tokens", required_argument, NULL, OPT_TOKENS},
    {"width", required_argument, NULL, OPT_WIDTH},
    {"dk", required_argument, NULL, OPT_DK},
    {"dv", required_argument, NULL, OPT_DV},
    {"level", required_argument, NULL, OPT_LEVEL},
    {"answers", no_argument, NULL, OPT_ANSWERS},
    {"step", required_argument, NULL, OPT_STEP},
    {"exp-table", no_argument, NULL, OPT_EXP_TABLE},
    {"count", required_argument, NULL, OPT_COUNT},
    {"class", required_argument, NULL, OPT_CLASS},
    {"expect", required_argument, NULL, OPT_EXPECT},
    {"tiles", required_argument, NULL, OPT_TILES},
    {"predict", no_argument, NULL, OPT_PREDICT},
    {"head", required_argument, NULL, OPT_HEAD},
    {"block", required_argument, NULL, OPT_BLOCK},
    {"norm", required_argument, NULL, OPT_NORM},
    {"ffn", required_argument, NULL, OPT_FFN},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

/* --format's words, in as_format order. */
static const char *const format_names[AS_FMT_COUNT] = {
    [AS_FMT_TEXT] = "text", [AS_FMT_JSON] = "json", [AS_FMT_MD] = "md",
    [AS_FMT_LATEX] = "latex", [AS_FMT_CSV] = "csv", [AS_FMT_SVG] = "svg",
    [AS_FMT_GIFT] = "gift", [AS_FMT_MOODLE] = "moodle", [AS_FMT_HTML] = "html"};

/* Options that mean something to some commands only: given to another, they are an
 * error that says so, never silently ignored. */
static const struct {
    int opt;
    const char *name, *commands; /* the commands, as a space-separated list */
} scoped[] = {
    {OPT_TOL, "--tol", "check practice"},          {OPT_ROW, "--row", "trace grad practice"},
    {OPT_HEATMAP, "--heatmap", "run"},    {OPT_SEED, "--seed", "exercise practice"},
    {OPT_TOKENS, "--tokens", "exercise practice"}, {OPT_WIDTH, "--width", "exercise practice"},
    {OPT_DK, "--dk", "exercise practice"},         {OPT_DV, "--dv", "exercise practice"},
    {OPT_LEVEL, "--level", "exercise practice"},   {OPT_ANSWERS, "--answers", "exercise sheet"},
    {OPT_STEP, "--step", "exercise sheet trace"}, {OPT_EXP_TABLE, "--exp-table", "exercise sheet"},
    {OPT_COUNT, "--count", "exercise"},   {OPT_CLASS, "--class", "exercise check"},
    {OPT_EXPECT, "--expect", "check"},
    {OPT_TILES, "--tiles", "run trace check"},
    {OPT_PREDICT, "--predict", "run trace decode grad"},
    {OPT_HEAD, "--head", "practice"},
    {OPT_BLOCK, "--block", "exercise"}, {OPT_NORM, "--norm", "exercise"},
    {OPT_FFN, "--ffn", "exercise"},
    {OPT_OFFSET, "--offset", "run trace decode grad check compare practice"},
};

/* Records a usage error: message id of the table, in the language chosen. Returns -1. */
static int usage(as_error *err, as_msg id, ...)
{
    va_list ap;

    va_start(ap, id);
    as_error_vmsg(err, "", 0, 0, id, ap);
    va_end(ap);
    return -1;
}

/* Adds "did you mean ...?" to the error just recorded, when one of names is near word. */
static void suggest(as_error *err, const char *word, const char *const *names, size_t count)
{
    const char *near = as_suggest(word, strlen(word), names, count);

    if (near != NULL)
        as_error_hint_msg(err, AS_MSG_DID_YOU_MEAN, near);
}

/* "--format takes text, json, ... or svg, not "jsn"" and, if one is near, the hint. */
static int bad_choice(as_error *err, const char *opt, const char *arg, const char *const *names,
                      size_t count)
{
    char list[256];

    as_msg_list(list, sizeof list, err->lang, names, count, AS_MSG_LIST_OR);
    usage(err, AS_MSG_USE_CHOICE, opt, list, arg);
    suggest(err, arg, names, count);
    return -1;
}


/* A whole decimal number in [lo, hi], digits only (no blank, no sign: " 5" and "+5" are
 * refused as the input would); -1 when s is anything else. */
static int whole(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;

    if (*s < '0' || *s > '9')
        return -1;
    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || *end != '\0' || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* One of names[count]: its index, or -1. */
static int choice(const char *s, const char *const *names, int count)
{
    int i;

    for (i = 0; i < count; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static int option_row(as_cli *cli, const char *arg, as_error *err)
{
    long v;

    cli->row_given = 1;
    if (strcmp(arg, "all") == 0)
        cli->render.row = AS_ROW_ALL;
    else if (strcmp(arg, "last") == 0)
        cli->render.row = AS_ROW_LAST;
    else if (whole(arg, 0, LONG_MAX, &v) == 0)
        cli->render.row = v;
    else
        return usage(err, AS_MSG_USE_ROW, arg);
    return 0;
}

/* --tol is a number as the input writes one (so 1e-400 is 0 and hex is refused). */
static int option_tol(as_cli *cli, const char *arg, as_error *err)
{
    const size_t len = strlen(arg);
    const char *why = NULL;

    if (len == 0 || as_parse_number(arg, len, 0, &cli->tol, &why) != len || why != NULL ||
        !(cli->tol >= 0) || cli->tol > 1e300)
        return usage(err, AS_MSG_USE_TOL, arg);
    return 0;
}

/* The options that take a whole number: its range, and the usage message when it is
 * out of range or no number (name: the message's first %s, before the value; NULL when
 * the message names its option itself). */
typedef struct number_option {
    int opt;
    long lo, hi;
    as_msg use;
    const char *name;
} number_option;

static const number_option number_options[] = {
    {OPT_DIGITS, 0, 17, AS_MSG_USE_DIGITS, "--digits"},
    {OPT_REQUIRE_DIGITS, 0, 17, AS_MSG_USE_DIGITS, "--require-digits"},
    {OPT_SEED, 0, LONG_MAX, AS_MSG_USE_SEED, NULL},
    {OPT_COUNT, 1, 1000, AS_MSG_USE_COUNT, NULL},
    {OPT_TILES, 1, AS_MAX_DIM, AS_MSG_USE_TILES, NULL},
    {OPT_OFFSET, 0, AS_MAX_OFFSET, AS_MSG_USE_OFFSET, NULL},
    {OPT_LEVEL, 1, 3, AS_MSG_USE_LEVEL, NULL},
    {OPT_HEAD, 0, AS_MAX_DIM, AS_MSG_USE_HEAD, NULL},
    {OPT_TOKENS, 1, 64, AS_MSG_USE_SIZE, "--tokens"},
    {OPT_WIDTH, 1, 64, AS_MSG_USE_SIZE, "--width"},
    {OPT_DK, 1, 64, AS_MSG_USE_SIZE, "--dk"},
    {OPT_DV, 1, 64, AS_MSG_USE_SIZE, "--dv"},
};

/* Keeps v, already in its option's range, where the option belongs. */
static void store_number(as_cli *cli, int opt, long v)
{
    switch (opt) {
    case OPT_DIGITS: cli->render.digits = (int)v; cli->digits_set = 1; break;
    case OPT_REQUIRE_DIGITS: cli->require_digits = (int)v; break;
    case OPT_SEED: cli->seed = (unsigned long)v; cli->seed_set = 1; break;
    case OPT_COUNT: cli->count = v; break;
    case OPT_TILES: cli->tiles = v; break;
    case OPT_OFFSET: cli->offset = (size_t)v; break;
    case OPT_LEVEL: cli->level = v; break;
    case OPT_HEAD: cli->head = v; break;
    case OPT_TOKENS: cli->tokens = v; break;
    case OPT_WIDTH: cli->width = v; break;
    case OPT_DK: cli->dk = v; break;
    default: cli->dv = v; break;
    }
}

/* An option that takes a whole number: one of number_options (the last, --dv, for any
 * other, as option() sends only these here). */
static int option_number(as_cli *cli, int opt, const char *arg, as_error *err)
{
    const size_t count = sizeof number_options / sizeof number_options[0];
    const number_option *o = number_options;
    long v;

    while (o + 1 < number_options + count && o->opt != opt)
        o++;
    if (whole(arg, o->lo, o->hi, &v) != 0)
        return o->name != NULL ? usage(err, o->use, o->name, arg) : usage(err, o->use, arg);
    store_number(cli, opt, v);
    return 0;
}

/* exercise --block, --norm, --ffn (SPEC §15): the block an exercise is drawn with, by
 * the words an input's settings take; a word not among them is refused with what each
 * means. */
static int option_block(as_cli *cli, int opt, const char *arg, as_error *err)
{
    static const char *const blocks[] = {"pre", "post"};
    static const char *const norms[] = {"layer", "rms"};
    static const char *const ffns[] = {"gelu_tanh", "gelu", "relu", "swiglu", "none"};
    const char *const *words = opt == OPT_BLOCK ? blocks : opt == OPT_NORM ? norms : ffns;
    const int n = opt == OPT_FFN ? 5 : 2;
    const char *name = opt == OPT_BLOCK ? "--block" : opt == OPT_NORM ? "--norm" : "--ffn";
    const int i = choice(arg, words, n);

    if (i < 0) {
        bad_choice(err, name, arg, words, (size_t)n);
        if (err->hint[0] == '\0')
            as_error_hint_msg(err, opt == OPT_BLOCK ? AS_MSG_HINT_USE_BLOCK
                                   : opt == OPT_NORM ? AS_MSG_HINT_USE_NORM : AS_MSG_HINT_USE_FFN);
        return -1;
    }
    if (opt == OPT_BLOCK)
        cli->block = i + 1;      /* an as_block_kind: AS_BLOCK_PRE or AS_BLOCK_POST */
    else if (opt == OPT_NORM)
        cli->norm = i + 1;       /* an as_norm_kind + 1 */
    else
        cli->ffn = i + 1;        /* an as_ffn_kind + 1, in ffn.h's order */
    return 0;
}

static int option(as_cli *cli, int opt, const char *arg, as_error *err)
{
    static const char *const colors[] = {"auto", "always", "never"};
    static const char *const masks[] = {"causal", "none"};
    static const char *const langs[] = {"zh", "en"};
    int i;

    switch (opt) {
    case OPT_LANG:
        return as_lang_parse(arg, &cli->render.lang) == 0
                   ? 0 : bad_choice(err, "--lang", arg, langs, 2);
    case OPT_FORMAT:
        if ((i = choice(arg, format_names, AS_FMT_COUNT)) < 0)
            return bad_choice(err, "--format", arg, format_names, AS_FMT_COUNT);
        cli->format = (as_format)i;
        cli->format_set = 1;
        return 0;
    case OPT_COLOR:
        if ((i = choice(arg, colors, 3)) < 0)
            return bad_choice(err, "--color", arg, colors, 3);
        cli->color = (as_color_mode)i;
        return 0;
    case OPT_MASK:
        if ((i = choice(arg, masks, 2)) < 0)
            return bad_choice(err, "--mask", arg, masks, 2);
        cli->mask = i == 0 ? AS_MASK_CAUSAL : AS_MASK_NONE;
        return 0;
    case OPT_ONLY:
        cli->only_list = arg; /* its names depend on the command: read_only() */
        return 0;
    case OPT_ROW: return option_row(cli, arg, err);
    case OPT_TOL: return option_tol(cli, arg, err);
    case OPT_ASCII: cli->render.ascii = 1; return 0;
    case OPT_HEATMAP: cli->render.heatmap = 1; return 0;
    case OPT_PREDICT: cli->render.predict = 1; return 0;
    case OPT_FORCE: cli->force = 1; return 0;
    case OPT_ANSWERS: cli->answers = 1; return 0;
    case OPT_EXP_TABLE: cli->exp_table = 1; return 0;
    case OPT_CLASS: cli->roster = arg; return 0;
    case OPT_EXPECT: cli->expect = arg; return 0;
    case OPT_STEP: cli->step_arg = arg; return 0; /* read once the command is known */
    case OPT_BLOCK: case OPT_NORM: case OPT_FFN: return option_block(cli, opt, arg, err);
    case 'o': cli->output = arg; return 0;
    case 'h': cli->help = 1; return 0;
    case OPT_VERSION: cli->version = 1; return 0;
    default: return option_number(cli, opt, arg, err);
    }
}

/* A first word that names no file and is no path, or is followed by more words, was
 * meant as a command: `attnstep frobnicate` is a usage error, not a missing file. */
static int looks_like_command(const char *word, int words_left)
{
    struct stat st;

    if (strcmp(word, "-") == 0 || stat(word, &st) == 0)
        return 0;
    return words_left > 1 || strpbrk(word, "./") == NULL;
}

/* Nonzero when word is in the space-separated list. */
static int listed(const char *list, const char *word)
{
    const size_t n = strlen(word);

    for (; *list != '\0'; list += strcspn(list, " "), list += *list == ' ')
        if (strncmp(list, word, n) == 0 && (list[n] == ' ' || list[n] == '\0'))
            return 1;
    return 0;
}


/* The space-separated words as a list in lang's words: "trace、grad或practice". */
static void words_list(char *buf, size_t size, as_lang lang, const char *list)
{
    char words[128], *w[8], *save = NULL, *t;
    size_t n = 0;

    snprintf(words, sizeof words, "%s", list);
    for (t = strtok_r(words, " ", &save); t != NULL && n < 8; t = strtok_r(NULL, " ", &save))
        w[n++] = t;
    as_msg_list(buf, size, lang, (const char *const *)w, n, AS_MSG_LIST_OR);
}

/* Every option given means something to the command. Returns 0, or -1 with err set. */
static int options_fit(const as_cli *cli, const unsigned long given, as_error *err)
{
    char list[128];
    size_t i;

    for (i = 0; i < sizeof scoped / sizeof scoped[0]; i++) {
        if (!(given & (1ul << (scoped[i].opt - OPT_LANG))) ||
            listed(scoped[i].commands, cli->command))
            continue;
        words_list(list, sizeof list, err->lang, scoped[i].commands);
        as_error_msg(err, "", 0, 0, AS_MSG_USE_SCOPED, scoped[i].name, cli->command, list);
        as_error_hint_msg(err, AS_MSG_HINT_SCOPED, scoped[i].name, list);
        return -1;
    }
    return 0;
}

/* The command and its files from the arguments left after the options. */
static int positionals(as_cli *cli, int argc, char **argv, int first, as_error *err)
{
    const as_command *c = first < argc ? as_command_find(argv[first]) : NULL;
    int want;

    if (c != NULL) {
        first++;
    } else if (first < argc && looks_like_command(argv[first], argc - first)) {
        const char *names[AS_MAX_COMMANDS];
        const size_t n = as_command_names(names, AS_MAX_COMMANDS);
        char list[256];

        as_msg_list(list, sizeof list, err->lang, names, n, AS_MSG_LIST_SEP);
        usage(err, AS_MSG_USE_COMMAND, argv[first], list);
        suggest(err, argv[first], names, n);
        return -1;
    } else {
        c = &as_commands[0]; /* `attnstep FILE` is `attnstep run FILE` */
    }
    cli->command = c->name;
    want = c->nargs;
    if (strcmp(cli->command, "practice") == 0 && argc - first == 1)
        want = 1; /* practice FILE, or practice --seed N */
    if (strcmp(cli->command, "check") == 0 && cli->roster != NULL)
        want = argc - first > 1 ? argc - first : 1; /* check --class DIR ANSWERS... */
    else if (strcmp(cli->command, "check") == 0 && argc - first > want)
        want = argc - first; /* check FILE ANSWERS...: a whole class */
    if (argc - first != want) {
        if (argc - first < want)
            return want == 1 ? usage(err, AS_MSG_USE_NEED_FILE)
                             : usage(err, AS_MSG_USE_NEED_FILES, cli->command);
        return usage(err, AS_MSG_USE_EXTRA, argv[first + want]);
    }
    for (cli->nargs = 0; cli->nargs < want && cli->nargs < 2; cli->nargs++)
        cli->arg[cli->nargs] = argv[first + cli->nargs];
    cli->files = argv + first;
    cli->nfiles = want;
    return 0;
}

/* --count and --class make several exercises: -o then names a directory. */
static int variants(as_cli *cli, as_error *err)
{
    if (cli->count > 0 && cli->roster != NULL)
        return usage(err, AS_MSG_USE_COUNT_CLASS);
    if (strcmp(cli->command, "exercise") == 0 && (cli->count > 0 || cli->roster != NULL)) {
        cli->output_dir = cli->output;
        cli->output = NULL;
    }
    return 0;
}

/* --step, read for the command: trace walks one of the chapter's four steps (1 to 4),
 * exercise and sheet drill a named step (project, scores, softmax, mix). */
static int read_step(as_cli *cli, as_error *err)
{
    as_step st;
    long v;

    if (cli->step_arg == NULL)
        return 0;
    if (strcmp(cli->command, "trace") == 0) {
        if (whole(cli->step_arg, 1, 4, &v) != 0)
            return usage(err, AS_MSG_USE_STEP_TRACE, cli->step_arg);
        cli->render.step = (int)v;
        return 0;
    }
    if (as_step_parse(cli->step_arg, &st) != 0)
        return usage(err, AS_MSG_USE_STEP, cli->step_arg);
    cli->step = (int)st;
    return 0;
}

/* --only, read with the names of the command's tables (grad has its own). */
static int read_only(as_cli *cli, as_error *err)
{
    const char *bad;

    if (cli->only_list == NULL)
        return 0;
    if (strcmp(cli->command, "grad") == 0) {
        if (as_grad_only_parse(cli->only_list, &cli->render.only, &bad) == 0)
            return 0;
        return usage(err, AS_MSG_USE_GRAD_ONLY, bad);
    }
    if (as_only_parse(cli->only_list, &cli->render.only, &bad) != 0)
        return usage(err, AS_MSG_USE_ONLY, bad);
    return 0;
}


/* Records "COMMAND writes --format A or B" in err, the space-separated formats listed
 * in err's language. Returns -1. */
static int formats_only(as_error *err, const char *command, const char *formats)
{
    char list[128];

    words_list(list, sizeof list, err->lang, formats);
    return usage(err, AS_MSG_USE_FORMATS, command, list);
}

int as_cli_format_fits(const as_cli *cli, as_error *err)
{
    const as_command *c = as_command_find(cli->command);

    if (cli->format_set && !listed(c->formats, format_names[cli->format])) {
        formats_only(err, c->name, c->formats);
        if (c->format_hint != AS_MSG_COUNT)
            as_error_hint_msg(err, c->format_hint);
        return -1;
    }
    if (cli->render.predict && cli->format != AS_FMT_HTML) { /* only a page can hide a cell */
        as_error_msg(err, "", 0, 0, AS_MSG_USE_PREDICT_HTML);
        as_error_hint_msg(err, AS_MSG_HINT_PREDICT_HTML);
        return -1;
    }
    if (cli->tiles != 0 && cli->format != AS_FMT_TEXT && cli->format != AS_FMT_HTML &&
        (strcmp(c->name, "trace") == 0 || cli->format != AS_FMT_JSON)) {
        /* the online softmax's tables (run: text, JSON or a page) or walk (trace: text or
         * a page) */
        formats_only(err, "--tiles", strcmp(c->name, "trace") == 0 ? "text html" : "text json html");
        as_error_hint_msg(err, AS_MSG_HINT_TILES_FORMAT);
        return -1;
    }
    return 0;
}

/* The language, read before anything else so that a mistake anywhere on the command line
 * is reported in it: the last --lang that names a language, else ATTNSTEP_LANG, else zh.
 * A --lang naming none is reported later, when the options are read in order. */
static int choose_lang(as_cli *cli, int argc, char **argv, as_error *err)
{
    const char *env = getenv("ATTNSTEP_LANG");
    int i, given = 0;

    for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
        const char *v = strncmp(argv[i], "--lang=", 7) == 0 ? argv[i] + 7
                      : strcmp(argv[i], "--lang") == 0 && i + 1 < argc ? argv[i + 1] : NULL;
        if (v != NULL && as_lang_parse(v, &cli->render.lang) == 0)
            given = 1;
    }
    if (!given && env != NULL && env[0] != '\0' && as_lang_parse(env, &cli->render.lang) != 0) {
        err->lang = cli->render.lang;
        return usage(err, AS_MSG_USE_ENV, env);
    }
    err->lang = cli->render.lang;
    return 0;
}

/* "unknown option "--foramt"" and, when a long option is near it, the hint. */
static int bad_option(as_error *err, const char *arg)
{
    const char *names[sizeof long_options / sizeof long_options[0]];
    char word[64];
    size_t n = 0, len;

    usage(err, AS_MSG_USE_OPTION, arg);
    if (strncmp(arg, "--", 2) != 0)
        return -1;
    len = strcspn(arg + 2, "=");
    if (len >= sizeof word - 2)
        return -1;
    for (; long_options[n].name != NULL; n++)
        names[n] = long_options[n].name;
    memcpy(word, arg + 2, len);
    word[len] = '\0';
    if ((arg = as_suggest(word, len, names, n)) != NULL) {
        snprintf(word, sizeof word, "--%s", arg);
        as_error_hint_msg(err, AS_MSG_DID_YOU_MEAN, word);
    }
    return -1;
}

int as_cli_parse(as_cli *cli, int argc, char **argv, as_error *err)
{
    unsigned long given = 0; /* bit opt - OPT_LANG for each long option given */
    int opt;

    memset(cli, 0, sizeof *cli);
    cli->render.digits = 10;
    cli->render.row = AS_ROW_LAST;
    cli->tol = -1;
    cli->level = 0;
    cli->head = -1;
    if (choose_lang(cli, argc, argv, err) != 0)
        return -1;
    opterr = 0;
#ifdef __GLIBC__
    optind = 0; /* glibc: start afresh, forgetting a cluster the last call stopped inside */
#else
    optind = 1;
#endif
    while ((opt = getopt_long(argc, argv, ":ho:", long_options, NULL)) != -1) {
        if (opt == '?')
            return bad_option(err, argv[optind - 1]);
        if (opt == ':')
            return usage(err, AS_MSG_USE_NEEDS_VALUE, argv[optind - 1]);
        if (option(cli, opt, optarg, err) != 0)
            return -1;
        if (opt >= OPT_LANG)
            given |= 1ul << (opt - OPT_LANG);
    }
    if (cli->help || cli->version)
        return 0;
    if (positionals(cli, argc, argv, optind, err) != 0)
        return -1;
    if (options_fit(cli, given, err) != 0)
        return -1;
    if (variants(cli, err) != 0 || read_step(cli, err) != 0)
        return -1;
    return read_only(cli, err);
}

