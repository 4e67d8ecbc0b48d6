/* cli.h - the command line: every argument checked before any work (Lua's
 * collectargs, args.c), then one command of the table (commands.c) run into its output.
 * The commands (cmd_*.c) share only what is below them (shared.c, tiles_mode.c): no
 * command calls another. */
#ifndef ATTNSTEP_CLI_H
#define ATTNSTEP_CLI_H

#include <stdio.h>
#include "attnstep/error.h"
#include "attnstep/parse.h"
#include "attnstep/render.h"
#include "attnstep/session.h"

#define AS_VERSION "0.1.0"

typedef enum as_format {
    AS_FMT_TEXT = 0, AS_FMT_JSON, AS_FMT_MD, AS_FMT_LATEX, AS_FMT_CSV, AS_FMT_SVG, AS_FMT_GIFT,
    AS_FMT_MOODLE, AS_FMT_HTML, AS_FMT_COUNT
} as_format;

typedef enum as_color_mode { AS_COLOR_AUTO = 0, AS_COLOR_ALWAYS, AS_COLOR_NEVER } as_color_mode;

/* Exit statuses (SPEC §3). */
enum { AS_EXIT_OK = 0, AS_EXIT_WRONG = 1, AS_EXIT_USAGE = 2 };
/* A command's status (never an exit code): its output is written, and the bad input it
 * met was already reported on standard error; exit 2 (check: an unreadable answers file
 * among a class that was still graded). */
enum { AS_EXIT_PARTIAL = 3 };

typedef struct as_cli {
    const char *command;     /* the command's name, as in as_commands */
    const char *arg[2];      /* the command's file arguments */
    int nargs;
    char **files;            /* every file argument (check: FILE ANSWERS...), nfiles */
    int nfiles;
    as_render_opts render;   /* lang, digits, ascii, only, row, heatmap; color decided late */
    as_format format;
    int format_set;
    as_color_mode color;
    as_mask_kind mask;       /* AS_MASK_DEFAULT unless --mask */
    const char *output;      /* -o FILE, or NULL for stdout */
    int force;
    double tol;              /* check --tol; negative when not given */
    int require_digits;      /* check --require-digits; 0 when not given */
    const char *expect;      /* check --expect LIST: the tables asked, or NULL */
    /* exercise */
    size_t offset;           /* --offset P: the position of row 0 (SPEC §12) */
    unsigned long seed;
    int seed_set;            /* nonzero when --seed was given */
    int digits_set;          /* nonzero when --digits was given */
    long tokens, width, dk, dv, level; /* 0 when not given */
    int answers;
    /* worksheets (exercise, sheet) */
    int step;                /* an as_step: AS_STEP_ALL unless --step */
    const char *step_arg;    /* --step as given: read once the command is known (trace
                                takes 1 to 4 into render.step) */
    int exp_table;           /* --exp-table */
    int block;               /* exercise --block: an as_block_kind, 0 when not given */
    int norm, ffn;           /* exercise --norm, --ffn: as_norm_kind/as_ffn_kind + 1, or 0 */
    long count;              /* --count N, 0 when not given */
    const char *roster;      /* exercise --class ROSTER, check --class DIR; or NULL */
    const char *output_dir;  /* -o DIR with --count or --class (output is then NULL) */
    long tiles;              /* --tiles B: the online softmax's block size; 0 when not given */
    long head;               /* practice --head H: only head H; -1 when not given */
    int help, version;
    const char *only_list;   /* --only as given: read once the command is known (grad's
                                tables have other names than run's) */
    int row_given;           /* nonzero when --row was given (grad: the walk-through) */
} as_cli;

/* Parses argv into cli. Returns 0; or -1 with a usage message in err (exit 2). Reads
 * --lang first, else ATTNSTEP_LANG, for the language of everything, err included. */
int as_cli_parse(as_cli *cli, int argc, char **argv, as_error *err);

/* The --format given is one the command writes (a word of its row's formats), and one
 * --tiles adds to. Returns 0; or -1 with the message, the formats listed and a hint, in
 * err (exit 2; no usage line: the command was understood). Without --format, each
 * command writes its first. */
int as_cli_format_fits(const as_cli *cli, as_error *err);

/* Prints the one-line usage and the pointer to --help (after a usage error), in lang,
 * to out. */
void as_cli_usage(FILE *out, as_lang lang);

/* Prints the --help text in lang to out. */
void as_cli_help(FILE *out, as_lang lang);

/* A command writes its whole output to out (memory: nothing reaches the user when it
 * fails). Returns AS_EXIT_OK, AS_EXIT_WRONG (check found a wrong answer) or
 * AS_EXIT_USAGE with err set. */
typedef int (*as_command_fn)(FILE *out, const as_cli *cli, as_error *err);

/* One command: its name, how many file arguments it takes, its synopsis and what it
 * does (the --help lines), the function that runs it, and the formats it writes. */
typedef struct as_command {
    const char *name;
    int nargs;
    as_msg synopsis;      /* its arguments in --help: "FILE [options]" */
    as_msg what;          /* what it does, in --help: "every table, in the book's order" */
    as_command_fn fn;
    const char *formats;  /* the --format words it takes, space-separated; the first is
                             what it writes without --format */
    as_msg format_hint;   /* the hint when another --format is asked; AS_MSG_COUNT: none */
} as_command;

/* THE command table, read by the argument parser, main.c and --help (and through
 * --help by the bash completion), in the order --help lists them. The first, run, is
 * also what `attnstep FILE` runs. as_ncommands entries. */
extern const as_command as_commands[];
extern const size_t as_ncommands;

/* The command called name, or NULL. */
const as_command *as_command_find(const char *name);

/* The commands' names into names[max], in the table's order; returns how many. */
#define AS_MAX_COMMANDS 32
size_t as_command_names(const char **names, size_t max);

/* The commands, each in its own module. */
int as_cmd_run(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_trace(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_check(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_exercise(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_compare(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_sheet(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_decode(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_generate(FILE *out, const as_cli *cli, as_error *err);

int as_cmd_grad(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_practice(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_verify(FILE *out, const as_cli *cli, as_error *err);
int as_cmd_weights(FILE *out, const as_cli *cli, as_error *err);

/* ---- Shared by the commands (shared.c, tiles_mode.c); these call no command ---- */

/* The --tiles mode of run (walk 0) and trace (walk 1): the run's tables or the walk,
 * then the online softmax (SPEC §11) redone from the same run (tiles_mode.c). Same
 * returns as a command. */
int as_cli_with_tiles(FILE *out, const as_cli *cli, int walk, as_error *err);

/* A command's output failed: says why in err. When the stream out has an error, the
 * write to -o FILE (cli->output) or standard output failed (a full disk, a file size limit, a closed pipe: errno says which);
 * otherwise memory ran out while the output was made. Call at once, errno untouched. */
void as_cli_write_failed(FILE *out, const as_cli *cli, as_error *err);

/* Before a very long output (more than AS_HUGE_OUTPUT numbers: run with walked_rows 0,
 * trace walking walked_rows rows), says so on standard error and suggests --only and
 * --row, in the user's language. */
void as_note_long_output(const as_session *s, const as_cli *cli, size_t walked_rows);

/* ALiBi without a mask (mask: none, or --mask none): says on standard error that its
 * bias −slope·(i−j) is positive for j > i, so it rewards far later tokens. */
void as_note_alibi_unmasked(const as_session *s, const as_cli *cli);

/* How the commands open their inputs: with --mask, every table kept. */
as_session_opts as_cli_session(const as_cli *cli);

/* Opens the input at path as every command reads it: as_session_open(), then its ask:
 * setting checked as check reads it (a word that names no table is an error at its
 * FILE:LINE:COL for run as for check). Returns 0 (free s with as_session_free()), or -1
 * with err set and s empty. */
int as_cli_open(as_session *s, const char *path, const as_session_opts *so, as_error *err);

/* With --format html, a page of about cells cells must fit a page (AS_HTML_MAX_CELLS,
 * html.h): returns 0 (and 0 for every other format), or -1 with a usage message in err
 * and hint (what to do instead) -- said before any output. */
int as_cli_page_fits(const as_cli *cli, size_t cells, as_msg hint, as_error *err);

/* --row must name a row of X, known only once the file is read (trace and grad):
 * returns 0, or -1 with a usage message in err. */
int as_cli_check_row(const as_session *s, const as_cli *cli, as_error *err);

#endif
