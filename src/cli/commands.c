/* commands.c - THE command table: each command's name, its files, the formats it writes
 * and its --help lines; and --help itself. main.c runs a command through it; the
 * argument parser reads it; no command calls another. */
#include "attnstep/cli.h"
#include "attnstep/textblock.h"

#include <stdio.h>
#include <string.h>

const as_command as_commands[] = {
    /* name      files  synopsis                  what it does         runs it
     *           --format it writes (the first is the default)   the hint when refused */
    {"run", 1, AS_MSG_CMD_ARGS_FILE, AS_MSG_CMD_RUN, as_cmd_run,
     "text json md latex csv svg html", AS_MSG_HINT_RUN_FORMAT},
    {"trace", 1, AS_MSG_CMD_ARGS_FILE, AS_MSG_CMD_TRACE, as_cmd_trace,
     "text html", AS_MSG_HINT_TRACE_FORMAT},
    {"check", 2, AS_MSG_CMD_ARGS_CHECK, AS_MSG_CMD_CHECK, as_cmd_check,
     "text md csv json html", AS_MSG_COUNT},
    {"exercise", 0, AS_MSG_CMD_ARGS_NONE, AS_MSG_CMD_EXERCISE, as_cmd_exercise,
     "text md latex gift moodle", AS_MSG_HINT_SHEET_FORMATS},
    {"compare", 2, AS_MSG_CMD_ARGS_COMPARE, AS_MSG_CMD_COMPARE, as_cmd_compare,
     "text json", AS_MSG_COUNT},
    {"sheet", 1, AS_MSG_CMD_ARGS_FILE, AS_MSG_CMD_SHEET, as_cmd_sheet,
     "md latex gift moodle", AS_MSG_HINT_SHEET_LATEX},
    {"decode", 1, AS_MSG_CMD_ARGS_FILE, AS_MSG_CMD_DECODE, as_cmd_decode,
     "text json html", AS_MSG_HINT_TRACE_FORMAT},
    {"generate", 2, AS_MSG_CMD_ARGS_GENERATE, AS_MSG_CMD_GENERATE, as_cmd_generate,
     "text json", AS_MSG_HINT_TRACE_FORMAT},
    {"grad", 1, AS_MSG_CMD_ARGS_FILE, AS_MSG_CMD_GRAD, as_cmd_grad,
     "text json html", AS_MSG_HINT_GRAD_FORMAT},
    {"practice", 0, AS_MSG_CMD_ARGS_PRACTICE, AS_MSG_CMD_PRACTICE, as_cmd_practice,
     "text", AS_MSG_COUNT},
    {"verify", 1, AS_MSG_CMD_ARGS_FILE, AS_MSG_CMD_VERIFY, as_cmd_verify,
     "text md json", AS_MSG_COUNT},
    {"weights", 1, AS_MSG_CMD_ARGS_FILE, AS_MSG_CMD_WEIGHTS, as_cmd_weights,
     "text json", AS_MSG_COUNT},
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

size_t as_command_names(const char **names, size_t max)
{
    size_t i;

    for (i = 0; i < as_ncommands && i < max; i++)
        names[i] = as_commands[i].name;
    return i;
}

void as_cli_usage(FILE *out, as_lang lang)
{
    const char *names[AS_MAX_COMMANDS];
    char list[256];
    size_t i, n = as_command_names(names, AS_MAX_COMMANDS), used = 0;

    list[0] = '\0';
    for (i = 0; i < n && used < sizeof list; i++)
        used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? "|" : "", names[i]);
    fprintf(out, as_msg_text(lang, AS_MSG_USE_LINE), list);
}

/* The column where --help's words on each command start, in display columns. */
#define HELP_COLUMN 42

/* One line of --help's synopsis: "Usage: attnstep [run] FILE [options]   every table...",
 * the later lines indented under the first, the words aligned whatever the language. */
static void help_command(FILE *out, as_lang lang, size_t i)
{
    const char *usage_word = as_msg_text(lang, AS_MSG_HELP_USAGE);
    char head[256];
    size_t w, indent = as_display_width(usage_word);

    if (i == 0)
        snprintf(head, sizeof head, "%sattnstep [%s] %s", usage_word, as_commands[i].name,
                 as_msg_text(lang, as_commands[i].synopsis));
    else
        snprintf(head, sizeof head, "%*sattnstep %s %s", (int)indent, "", as_commands[i].name,
                 as_msg_text(lang, as_commands[i].synopsis));
    w = as_display_width(head);
    fprintf(out, "%s%*s%s\n", head, w < HELP_COLUMN ? (int)(HELP_COLUMN - w) : 2, "",
            as_msg_text(lang, as_commands[i].what));
}

void as_cli_help(FILE *out, as_lang lang)
{
    size_t i;

    for (i = 0; i < as_ncommands; i++)
        help_command(out, lang, i);
    fprintf(out, "%*sattnstep --help | --version\n",
            (int)as_display_width(as_msg_text(lang, AS_MSG_HELP_USAGE)), "");
    fputs(as_msg_text(lang, AS_MSG_HELP), out);
    fputs(as_msg_text(lang, AS_MSG_HELP_MORE), out);
    fputs(as_msg_text(lang, AS_MSG_HELP_INPUT), out);
}

