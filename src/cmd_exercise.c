/* cmd_exercise.c - `attnstep exercise` (SPEC §7): a new exercise as an input file, its
 * answer key (--answers) in the format `check` reads, or a worksheet (--format md|latex). */
#include "attnstep/cli.h"
#include "attnstep/exercise.h"

#include <stdlib.h>

/* The exercise options from the command line, settled and checked. */
static int options(as_exercise_opts *o, const as_cli *cli, as_error *err)
{
    const as_format f = cli->format;

    if (f != AS_FMT_TEXT && f != AS_FMT_MD && f != AS_FMT_LATEX) {
        static const char *const formats[] = {"text", "md", "latex"};
        as_cli_formats_only(err, "exercise", formats, 3);
        as_error_hint_msg(err, AS_MSG_HINT_SHEET_FORMATS);
        return -1;
    }
    o->seed = cli->seed;
    o->level = (int)cli->level;
    o->tokens = (size_t)cli->tokens;
    o->width = (size_t)cli->width;
    o->dk = (size_t)cli->dk;
    o->dv = (size_t)cli->dv;
    o->mask = cli->mask;
    /* pdflatex alone has no Chinese fonts: a LaTeX worksheet is in English */
    o->lang = f == AS_FMT_LATEX ? AS_LANG_EN : cli->render.lang;
    return as_exercise_settle(o, err);
}

/* The key or the worksheet: both need the exercise run. */
static int write_run(FILE *out, const char *text, size_t len, const as_exercise_opts *o,
                     const as_cli *cli, as_error *err)
{
    as_session s;
    int rc;

    if (as_exercise_open(&s, text, len, err) != 0)
        return -1;
    if (cli->format == AS_FMT_TEXT)
        rc = as_exercise_key(out, &s.t, o, &cli->render);
    else
        rc = as_render_sheet(out, cli->format == AS_FMT_LATEX, cli->answers, &s.p, &s.t, o,
                             &cli->render);
    as_session_free(&s);
    if (rc != 0)
        as_error_msg(err, "", 0, 0, AS_MSG_OOM_WRITING);
    return rc;
}

int as_cmd_exercise(FILE *out, const as_cli *cli, as_error *err)
{
    as_exercise_opts o = {0};
    char *text;
    size_t len;
    int rc = 0;

    if (options(&o, cli, err) != 0 || as_exercise_make(&text, &len, &o, err) != 0)
        return AS_EXIT_USAGE;
    if (cli->format == AS_FMT_TEXT && !cli->answers)
        fwrite(text, 1, len, out);
    else
        rc = write_run(out, text, len, &o, cli, err);
    free(text);
    return rc == 0 ? AS_EXIT_OK : AS_EXIT_USAGE;
}
