/* cli.c - reading the command line. Every argument is checked here, before any work. */
#include "attnstep/cli.h"
#include "attnstep/suggest.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { OPT_LANG = 256, OPT_FORMAT, OPT_DIGITS, OPT_MASK, OPT_ONLY, OPT_ASCII, OPT_COLOR,
       OPT_FORCE, OPT_ROW, OPT_HEATMAP, OPT_TOL, OPT_SEED, OPT_TOKENS, OPT_WIDTH, OPT_DK,
       OPT_DV, OPT_LEVEL, OPT_ANSWERS, OPT_VERSION };

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
    {"heatmap", no_argument, NULL, OPT_HEATMAP},
    {"tol", required_argument, NULL, OPT_TOL},
    {"seed", required_argument, NULL, OPT_SEED},
    {"tokens", required_argument, NULL, OPT_TOKENS},
    {"width", required_argument, NULL, OPT_WIDTH},
    {"dk", required_argument, NULL, OPT_DK},
    {"dv", required_argument, NULL, OPT_DV},
    {"level", required_argument, NULL, OPT_LEVEL},
    {"answers", no_argument, NULL, OPT_ANSWERS},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

static const char *const commands[] = {"run", "trace", "check", "exercise", "compare"};
static const int command_args[] = {1, 1, 2, 0, 2};

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

/* A whole decimal number in [lo, hi]; -1 when s is anything else. */
static int whole(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v;

    errno = 0;
    v = strtol(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || v < lo || v > hi)
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

    if (strcmp(arg, "all") == 0)
        cli->render.row = -2;
    else if (strcmp(arg, "last") == 0)
        cli->render.row = -1;
    else if (whole(arg, 0, LONG_MAX, &v) == 0)
        cli->render.row = v;
    else
        return usage(err, AS_MSG_USE_ROW, arg);
    return 0;
}

static int option_tol(as_cli *cli, const char *arg, as_error *err)
{
    char *end;

    errno = 0;
    cli->tol = strtod(arg, &end);
    if (errno != 0 || end == arg || *end != '\0' || !(cli->tol >= 0) || cli->tol > 1e300)
        return usage(err, AS_MSG_USE_TOL, arg);
    return 0;
}

/* The name of an exercise size option. */
static const char *size_option(int opt)
{
    return opt == OPT_TOKENS ? "--tokens" : opt == OPT_WIDTH ? "--width"
         : opt == OPT_DK     ? "--dk"     : "--dv";
}

/* Options that take a whole number: --digits and the exercise sizes. */
static int option_number(as_cli *cli, int opt, const char *arg, as_error *err)
{
    long v;

    switch (opt) {
    case OPT_DIGITS:
        if (whole(arg, 0, 17, &v) != 0)
            return usage(err, AS_MSG_USE_DIGITS, arg);
        cli->render.digits = (int)v;
        return 0;
    case OPT_SEED:
        if (whole(arg, 0, LONG_MAX, &v) != 0)
            return usage(err, AS_MSG_USE_SEED, arg);
        cli->seed = (unsigned long)v;
        return 0;
    case OPT_LEVEL:
        if (whole(arg, 1, 3, &v) != 0)
            return usage(err, AS_MSG_USE_LEVEL, arg);
        cli->level = v;
        return 0;
    default:
        if (whole(arg, 1, 64, &v) != 0)
            return usage(err, AS_MSG_USE_SIZE, size_option(opt), arg);
        *(opt == OPT_TOKENS ? &cli->tokens : opt == OPT_WIDTH ? &cli->width
          : opt == OPT_DK   ? &cli->dk     : &cli->dv) = v;
        return 0;
    }
}

static int option(as_cli *cli, int opt, const char *arg, as_error *err)
{
    static const char *const formats[] = {"text", "json", "md", "latex", "csv", "svg"};
    static const char *const colors[] = {"auto", "always", "never"};
    static const char *const masks[] = {"causal", "none"};
    static const char *const langs[] = {"zh", "en"};
    const char *bad;
    int i;

    switch (opt) {
    case OPT_LANG:
        return as_lang_parse(arg, &cli->render.lang) == 0
                   ? 0 : bad_choice(err, "--lang", arg, langs, 2);
    case OPT_FORMAT:
        if ((i = choice(arg, formats, 6)) < 0)
            return bad_choice(err, "--format", arg, formats, 6);
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
        if (as_only_parse(arg, &cli->render.only, &bad) != 0)
            return usage(err, AS_MSG_USE_ONLY, bad);
        return 0;
    case OPT_ROW: return option_row(cli, arg, err);
    case OPT_TOL: return option_tol(cli, arg, err);
    case OPT_ASCII: cli->render.ascii = 1; return 0;
    case OPT_HEATMAP: cli->render.heatmap = 1; return 0;
    case OPT_FORCE: cli->force = 1; return 0;
    case OPT_ANSWERS: cli->answers = 1; return 0;
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

/* The command and its files from the arguments left after the options. */
static int positionals(as_cli *cli, int argc, char **argv, int first, as_error *err)
{
    int c, want;

    if (first < argc && (c = choice(argv[first], commands, 5)) >= 0) {
        cli->command = commands[c];
        first++;
    } else if (first < argc && looks_like_command(argv[first], argc - first)) {
        usage(err, AS_MSG_USE_COMMAND, argv[first]);
        suggest(err, argv[first], commands, 5);
        return -1;
    } else {
        cli->command = "run"; /* `attnstep FILE` is `attnstep run FILE` */
        c = 0;
    }
    want = command_args[c];
    if (argc - first != want) {
        if (argc - first < want)
            return want == 1 ? usage(err, AS_MSG_USE_NEED_FILE)
                             : usage(err, AS_MSG_USE_NEED_FILES, cli->command);
        return usage(err, AS_MSG_USE_EXTRA, argv[first + want]);
    }
    for (cli->nargs = 0; cli->nargs < want; cli->nargs++)
        cli->arg[cli->nargs] = argv[first + cli->nargs];
    return 0;
}

int as_cli_formats_only(as_error *err, const char *command, const char *const *formats,
                        size_t count)
{
    char list[128];

    as_msg_list(list, sizeof list, err->lang, formats, count, AS_MSG_LIST_OR);
    return usage(err, AS_MSG_USE_FORMATS, command, list);
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
    int opt;

    memset(cli, 0, sizeof *cli);
    cli->render.digits = 10;
    cli->render.row = -1;
    cli->tol = -1;
    cli->level = 0;
    if (choose_lang(cli, argc, argv, err) != 0)
        return -1;
    opterr = 0;
    optind = 1;
    while ((opt = getopt_long(argc, argv, ":ho:", long_options, NULL)) != -1) {
        if (opt == '?')
            return bad_option(err, argv[optind - 1]);
        if (opt == ':')
            return usage(err, AS_MSG_USE_NEEDS_VALUE, argv[optind - 1]);
        if (option(cli, opt, optarg, err) != 0)
            return -1;
    }
    if (cli->help || cli->version)
        return 0;
    return positionals(cli, argc, argv, optind, err);
}

void as_cli_help(FILE *out, as_lang lang)
{
    fputs(as_msg_text(lang, AS_MSG_HELP), out);
}
