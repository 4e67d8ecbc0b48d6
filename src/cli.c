/* cli.c - reading the command line. Every argument is checked here, before any work. */
#include "attnstep/cli.h"
#include "attnstep/sheet.h"
#include "attnstep/render_grad.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { OPT_LANG = 256, OPT_FORMAT, OPT_DIGITS, OPT_MASK, OPT_ONLY, OPT_ASCII, OPT_COLOR,
       OPT_FORCE, OPT_ROW, OPT_HEATMAP, OPT_TOL, OPT_SEED, OPT_TOKENS, OPT_WIDTH, OPT_DK,
       OPT_DV, OPT_LEVEL, OPT_ANSWERS, OPT_VERSION, OPT_REQUIRE_DIGITS, OPT_OFFSET,
       OPT_TILES, OPT_STEP, OPT_EXP_TABLE, OPT_COUNT, OPT_CLASS };

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
    {"tiles", required_argument, NULL, OPT_TILES},
    {"help", no_argument, NULL, 'h'},
    {"version", no_argument, NULL, OPT_VERSION},
    {NULL, 0, NULL, 0},
};

const as_command as_commands[] = {
    {"run", 1, "FILE [options]", "every table, in the book's order", as_cmd_run},
    {"trace", 1, "FILE [options]", "the hand calculation, step by step", as_cmd_trace},
    {"check", 2, "FILE ANSWERS...", "grade answers: files, or directories of *.txt", as_cmd_check},
    {"exercise", 0, "[options]", "a new exercise for hand calculation", as_cmd_exercise},
    {"compare", 2, "BASE VARIANT", "what changes when one input changes", as_cmd_compare},
    {"sheet", 1, "FILE [options]", "a worksheet (and key) for an input", as_cmd_sheet},
    {"decode", 1, "FILE [options]", "generation token by token, with a KV cache", as_cmd_decode},
    {"grad", 1, "FILE [options]", "the backward pass: every gradient", as_cmd_grad},
};
const size_t as_ncommands = sizeof as_commands / sizeof as_commands[0];

const as_command *as_command_find(const char *name)
{
    size_t i;

    for (i = 0; name != NULL && i < as_ncommands; i++)
        if (strcmp(as_commands[i].name, name) == 0)
            return &as_commands[i];
    return NULL;
}

/* The command names joined by sep into buf ("run, trace, ..."). */
static const char *command_names(char *buf, size_t size, const char *sep)
{
    size_t i, used = 0;

    buf[0] = '\0';
    for (i = 0; i < as_ncommands && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? sep : "",
                                 as_commands[i].name);
    return buf;
}

/* Options that mean something to some commands only: given to another, they are an
 * error that says so, never silently ignored. */
static const struct {
    int opt;
    const char *name, *commands; /* the commands, as a space-separated list */
} scoped[] = {
    {OPT_TOL, "--tol", "check"},          {OPT_ROW, "--row", "trace grad"},
    {OPT_HEATMAP, "--heatmap", "run"},    {OPT_SEED, "--seed", "exercise"},
    {OPT_TOKENS, "--tokens", "exercise"}, {OPT_WIDTH, "--width", "exercise"},
    {OPT_DK, "--dk", "exercise"},         {OPT_DV, "--dv", "exercise"},
    {OPT_LEVEL, "--level", "exercise"},   {OPT_ANSWERS, "--answers", "exercise sheet"},
    {OPT_STEP, "--step", "exercise sheet"}, {OPT_EXP_TABLE, "--exp-table", "exercise sheet"},
    {OPT_COUNT, "--count", "exercise"},   {OPT_CLASS, "--class", "exercise"},
    {OPT_TILES, "--tiles", "run trace"},
    {OPT_OFFSET, "--offset", "run trace decode grad check compare practice"},
};

static int usage(as_error *err, const char *fmt, const char *what)
{
    as_error_set(err, "", 0, 0, fmt, what);
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
        cli->render.row = -2;
    else if (strcmp(arg, "last") == 0)
        cli->render.row = -1;
    else if (whole(arg, 0, LONG_MAX, &v) == 0)
        cli->render.row = v;
    else
        return usage(err, "--row takes a row number, \"last\" or \"all\", not \"%s\"", arg);
    return 0;
}

/* --tol is a number as the input writes one (so 1e-400 is 0 and hex is refused). */
static int option_tol(as_cli *cli, const char *arg, as_error *err)
{
    const size_t len = strlen(arg);
    const char *why = NULL;

    if (len == 0 || as_parse_number(arg, len, 0, &cli->tol, &why) != len || why != NULL ||
        !(cli->tol >= 0) || cli->tol > 1e300)
        return usage(err, "--tol takes a tolerance of 0 or more, not \"%s\"", arg);
    return 0;
}

/* Options that take a whole number: --digits and the exercise sizes. */
static int option_number(as_cli *cli, int opt, const char *arg, as_error *err)
{
    long v;

    switch (opt) {
    case OPT_DIGITS:
        if (whole(arg, 0, 17, &v) != 0)
            return usage(err, "--digits takes a whole number from 0 to 17, not \"%s\"", arg);
        cli->render.digits = (int)v;
        cli->digits_set = 1;
        return 0;
    case OPT_SEED:
        if (whole(arg, 0, LONG_MAX, &v) != 0)
            return usage(err, "--seed takes a whole number of 0 or more, not \"%s\"", arg);
        cli->seed = (unsigned long)v;
        cli->seed_set = 1;
        return 0;
    case OPT_COUNT:
        if (whole(arg, 1, 1000, &v) != 0)
            return usage(err, "--count takes a whole number from 1 to 1000, not \"%s\"", arg);
        cli->count = v;
        return 0;
    case OPT_TILES:
        if (whole(arg, 1, AS_MAX_DIM, &v) != 0)
            return usage(err, "--tiles takes a block size, a whole number from 1 to 16384, "
                              "not \"%s\"", arg);
        cli->tiles = v;
        return 0;
    case OPT_OFFSET:
        if (whole(arg, 0, AS_MAX_OFFSET, &v) != 0)
            return usage(err, "--offset takes the position of row 0, a whole number from 0 to "
                              "1000000000, not \"%s\"", arg);
        cli->offset = (size_t)v;
        return 0;
    case OPT_REQUIRE_DIGITS:
        if (whole(arg, 0, 17, &v) != 0)
            return usage(err, "--require-digits takes a whole number from 0 to 17, not \"%s\"", arg);
        cli->require_digits = (int)v;
        return 0;
    case OPT_LEVEL:
        if (whole(arg, 1, 3, &v) != 0)
            return usage(err, "--level takes 1, 2 or 3, not \"%s\"", arg);
        cli->level = v;
        return 0;
    default:
        if (whole(arg, 1, 64, &v) != 0)
            return usage(err, "exercise sizes take a whole number from 1 to 64, not \"%s\"", arg);
        *(opt == OPT_TOKENS ? &cli->tokens : opt == OPT_WIDTH ? &cli->width
          : opt == OPT_DK   ? &cli->dk     : &cli->dv) = v;
        return 0;
    }
}

static int option(as_cli *cli, int opt, const char *arg, as_error *err)
{
    static const char *const formats[] = {"text", "json", "md", "latex", "csv", "svg", "gift",
                                          "moodle"};
    static const char *const colors[] = {"auto", "always", "never"};
    static const char *const masks[] = {"causal", "none"};
    int i;

    switch (opt) {
    case OPT_LANG:
        return as_lang_parse(arg, &cli->render.lang) == 0
                   ? 0 : usage(err, "--lang takes zh or en, not \"%s\"", arg);
    case OPT_FORMAT:
        if ((i = choice(arg, formats, 8)) < 0)
            return usage(err, "--format takes text, json, md, latex, csv, svg, gift or moodle, "
                              "not \"%s\"", arg);
        cli->format = (as_format)i;
        cli->format_set = 1;
        return 0;
    case OPT_COLOR:
        if ((i = choice(arg, colors, 3)) < 0)
            return usage(err, "--color takes auto, always or never, not \"%s\"", arg);
        cli->color = (as_color_mode)i;
        return 0;
    case OPT_MASK:
        if ((i = choice(arg, masks, 2)) < 0)
            return usage(err, "--mask takes causal or none, not \"%s\"", arg);
        cli->mask = i == 0 ? AS_MASK_CAUSAL : AS_MASK_NONE;
        return 0;
    case OPT_ONLY:
        cli->only_list = arg; /* its names depend on the command: read_only() */
        return 0;
    case OPT_ROW: return option_row(cli, arg, err);
    case OPT_TOL: return option_tol(cli, arg, err);
    case OPT_ASCII: cli->render.ascii = 1; return 0;
    case OPT_HEATMAP: cli->render.heatmap = 1; return 0;
    case OPT_FORCE: cli->force = 1; return 0;
    case OPT_ANSWERS: cli->answers = 1; return 0;
    case OPT_EXP_TABLE: cli->exp_table = 1; return 0;
    case OPT_CLASS: cli->roster = arg; return 0;
    case OPT_STEP: {
        as_step st;
        if (as_step_parse(arg, &st) != 0)
            return usage(err, "--step takes project, scores, softmax or mix, not \"%s\"", arg);
        cli->step = (int)st;
        return 0;
    }
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

/* Nonzero when the word command is in the space-separated list. */
static int listed(const char *list, const char *command)
{
    const size_t n = strlen(command);

    for (; *list != '\0'; list += strcspn(list, " "), list += *list == ' ')
        if (strncmp(list, command, n) == 0 && (list[n] == ' ' || list[n] == '\0'))
            return 1;
    return 0;
}

/* Every option given means something to the command. Returns 0, or -1 with err set. */
static int options_fit(const as_cli *cli, const unsigned long given, as_error *err)
{
    size_t i;

    for (i = 0; i < sizeof scoped / sizeof scoped[0]; i++) {
        if (!(given & (1ul << (scoped[i].opt - OPT_LANG))) ||
            listed(scoped[i].commands, cli->command))
            continue;
        as_error_set(err, "", 0, 0, "%s means nothing to %s: it is an option of %s",
                     scoped[i].name, cli->command, scoped[i].commands);
        as_error_hint(err, "leave %s out, or use it with %s", scoped[i].name, scoped[i].commands);
        return -1;
    }
    return 0;
}

/* The command and its files from the arguments left after the options. */
static int positionals(as_cli *cli, int argc, char **argv, int first, as_error *err)
{
    const as_command *c = first < argc ? as_command_find(argv[first]) : NULL;
    char names[256], msg[AS_ERR_MSG];
    int want;

    if (c != NULL) {
        first++;
    } else if (first < argc && looks_like_command(argv[first], argc - first)) {
        snprintf(msg, sizeof msg, "unknown command \"%s\" (commands: %s)", argv[first],
                 command_names(names, sizeof names, ", "));
        return usage(err, "%s", msg);
    } else {
        c = &as_commands[0]; /* `attnstep FILE` is `attnstep run FILE` */
    }
    cli->command = c->name;
    want = c->nargs;
    if (strcmp(cli->command, "check") == 0 && argc - first > want)
        want = argc - first; /* check FILE ANSWERS...: a whole class */
    if (argc - first != want) {
        if (argc - first < want)
            return usage(err, "%s", want == 1 ? "an input FILE is needed (- reads standard input)"
                                              : "two files are needed");
        return usage(err, "unexpected argument \"%s\"", argv[first + want]);
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
        return usage(err, "%s", "--count and --class do not go together: --class makes one "
                                "exercise per name");
    if (cli->count > 0 || cli->roster != NULL) {
        cli->output_dir = cli->output;
        cli->output = NULL;
    }
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
        return usage(err, "grad --only takes gradient names (dO, dWo, dbo, dC, dV, dA, dS, "
                          "dQKT, dQ, dK, dWq, dWk, dWv, dbq, dbk, dbv, dX, dXkv) separated by "
                          "commas; \"%s\" is not one", bad);
    }
    if (as_only_parse(cli->only_list, &cli->render.only, &bad) != 0)
        return usage(err, "--only takes table names (X, W, Q, K, V, QKT, M, S, A, O, C) "
                          "separated by commas; \"%s\" is not one", bad);
    return 0;
}

int as_cli_parse(as_cli *cli, int argc, char **argv, as_error *err)
{
    const char *env = getenv("ATTNSTEP_LANG");
    unsigned long given = 0; /* bit opt - OPT_LANG for each long option given */
    int opt;

    memset(cli, 0, sizeof *cli);
    cli->render.digits = 10;
    cli->render.row = -1;
    cli->tol = -1;
    cli->level = 0;
    if (env != NULL && env[0] != '\0' && as_lang_parse(env, &cli->render.lang) != 0)
        return usage(err, "ATTNSTEP_LANG is \"%s\"; set it to zh or en", env);
    opterr = 0;
#ifdef __GLIBC__
    optind = 0; /* glibc: start afresh, forgetting a cluster the last call stopped inside */
#else
    optind = 1;
#endif
    while ((opt = getopt_long(argc, argv, ":ho:", long_options, NULL)) != -1) {
        if (opt == '?')
            return usage(err, "unknown option \"%s\"", argv[optind - 1]);
        if (opt == ':')
            return usage(err, "option \"%s\" needs a value", argv[optind - 1]);
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
    if (variants(cli, err) != 0)
        return -1;
    return read_only(cli, err);
}

as_session_opts as_cli_session(const as_cli *cli)
{
    as_session_opts o;

    memset(&o, 0, sizeof o);
    o.mask = cli->mask;
    o.offset = cli->offset;
    return o;
}

void as_cli_usage(FILE *out)
{
    char names[256];

    fprintf(out, "usage: attnstep [%s] [options] FILE...\n",
            command_names(names, sizeof names, "|"));
}

void as_cli_help(FILE *out)
{
    char head[64];
    size_t i;

    for (i = 0; i < as_ncommands; i++) {
        snprintf(head, sizeof head, i == 0 ? "attnstep [%s] %s" : "attnstep %s %s",
                 as_commands[i].name, as_commands[i].synopsis);
        fprintf(out, "%s%-35s%s\n", i == 0 ? "Usage: " : "       ", head, as_commands[i].what);
    }
    fputs(
        "       attnstep --help | --version\n"
        "\n"
        "A teaching calculator for one attention layer that shows every number:\n"
        "Q = X@Wq, K = X@Wk, V = X@Wv, S = QK^T/sqrt(d_k) + M,\n"
        "A = softmax of each row of S, O = AV.\n"
        "FILE may be - for standard input.\n"
        "\n"
        "Options:\n"
        "  --lang zh|en          language of the captions (default zh; ATTNSTEP_LANG)\n"
        "  --format FMT          text (default), json, md, latex, csv or svg, where it\n"
        "                        makes sense; csv writes the one table --only names,\n"
        "                        svg draws each head's A as a heatmap; exercise also\n"
        "                        gift and moodle (Moodle quiz imports)\n"
        "  --digits N            decimal places shown, 0-17 (default 10)\n"
        "  --mask causal|none    override the file's mask\n"
        "  --only LIST           only these tables, e.g. --only A,O\n"
        "                        (X, W, Q, K, V, QKT, M, S, A, O, C; PE, Qr, Kr, B)\n"
        "  --ascii               -inf, x, *, sqrt instead of −∞, ×, ·, √ and subscripts\n"
        "  --color WHEN          auto (default: only on a terminal, never with NO_COLOR\n"
        "                        set), always or never; also spelt --colour\n"
        "  --heatmap             run: after each A, a shaded grid of the shares\n"
        "  --row I|last|all      trace: the receiving row to walk (default last);\n"
        "                        grad: walk that row's softmax backward\n"
        "  --tiles B             run, trace: also the online softmax (FlashAttention),\n"
        "                        reading the Keys in blocks of B\n"
        "  --offset P            positions start at P instead of 0 (positions: ...);\n"
        "                        with rope the scores stay the same\n"
        "  -o, --output FILE     write to FILE (atomically) instead of standard output\n"
        "  --force               let -o replace an existing FILE\n"
        "  --tol T               check: accept answers within T\n"
        "  --require-digits N    check: a non-integer with fewer than N decimals is wrong\n"
        "                        (--format text, md, csv gradebook or json)\n"
        "  --seed N              exercise: the seed (same seed, same exercise)\n"
        "  --tokens T            exercise: number of tokens\n"
        "  --width D             exercise: width of X\n"
        "  --dk K, --dv V        exercise: widths of a Query/Key and of a Value\n"
        "  --level 1|2|3         exercise: whole numbers, like the book, or harder\n"
        "  --answers             exercise, sheet: add the answer key\n"
        "  --step STEP           exercise, sheet: a drill on one step: project, scores,\n"
        "                        softmax or mix (the tables before it are given)\n"
        "  --exp-table           exercise, sheet: a table of e^x for the softmax\n"
        "  --count N             exercise: N variants (with -o DIR: a file each)\n"
        "  --class ROSTER        exercise: a variant per name in ROSTER (a name a line)\n"

        "  -h, --help            print this help and exit\n"
        "  --version             print the version and exit\n"
        "\n"
        "Input format (UTF-8; # starts a comment):\n"
        "  tokens: 我 爱                 labels of the rows of X\n"
        "  mask: causal                  causal | none | window W (or a matrix M)\n"
        "  X  = [[1, 1], [1, -1]]        matrices may span lines, sit side by side,\n"
        "  Wq = [[0.5, 0.5], [-1/2, 1/2]]  use fractions, −, or load(\"file.txt\")\n"
        "  Also: Xkv, kv_tokens (cross-attention), heads, kv_heads, Wo, bq/bk/bv/bo,\n"
        "  layout: torch, scale: auto|NUMBER, title. Required: X, Wq, Wk, Wv.\n"
        "  positions: none|sinusoidal|rope|alibi, with rope_base: 10000 and\n"
        "  rope: half|interleaved (the order of the tokens, SPEC 12).\n"
        "  For grad: loss: sum, or loss: mse with target = [[...]], or dO = [[...]].\n"
        "\n"
        "Limits: at most 16384 rows or columns, and 2^26 numbers, in any one table\n"
        "(also the tables the run makes, and the scores of all heads together);\n"
        "brackets two deep; files of at most 2 GiB. Above a limit: an error, exit 2.\n"
        "Exit status: 0 success; 1 check found a wrong answer; 2 bad usage or input.\n"
        "\n"
        "Examples:\n"
        "  attnstep run examples/f11.txt --lang en\n"
        "  attnstep trace examples/f11.txt --row all\n"
        "  attnstep run examples/f11.txt --format svg -o f11.svg\n"
        "\n"
        "Full documentation: man attnstep\n",
        out);
}
