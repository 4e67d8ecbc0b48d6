/* cmd_sheet.c - `attnstep sheet FILE` (SPEC §7): the worksheet (and with --answers its
 * key) for a given input: the F11 example, or a teacher's own numbers. */
#include "attnstep/cli.h"
#include "attnstep/moodle.h"
#include "attnstep/sheet.h"

#include <string.h>

int as_cmd_sheet(FILE *out, const as_cli *cli, as_error *err)
{
    const as_session_opts sopt = as_cli_session(cli);
    as_session s;
    as_sheet sh;
    as_sheet_opts so;
    const char *base;
    int rc;

    if (as_cli_open(&s, cli->arg[0], &sopt, err) != 0)
        return AS_EXIT_USAGE;
    if (cli->step == AS_STEP_SAMPLE && s.t.out == NULL) { /* nothing to drill */
        as_session_free(&s);
        as_error_msg(err, cli->arg[0], 0, 0, AS_MSG_SHEET_NO_HEAD);
        as_error_hint_msg(err, AS_MSG_HINT_SHEET_NO_HEAD);
        return AS_EXIT_USAGE;
    }
    if (as_step_of_block((as_step)cli->step) && /* the block's drills need that step */
        (s.t.block == NULL || (cli->step != AS_STEP_FFN && s.p.block != AS_BLOCK_PRE) ||
         (cli->step == AS_STEP_FFN && s.p.ffn == AS_FFN_NONE))) {
        as_session_free(&s);
        as_error_msg(err, cli->arg[0], 0, 0, AS_MSG_SHEET_NO_BLOCK, as_step_name((as_step)cli->step));
        as_error_hint_msg(err, AS_MSG_HINT_SHEET_NO_BLOCK);
        return AS_EXIT_USAGE;
    }
    base = strrchr(cli->arg[0], '/');
    memset(&so, 0, sizeof so);
    so.lang = cli->render.lang;
    so.latex = cli->format == AS_FMT_LATEX;
    so.answers = cli->answers;
    so.exp_table = cli->exp_table;
    so.ascii = cli->render.ascii;
    so.step = (as_step)cli->step;
    so.places = cli->digits_set ? cli->render.digits : AS_SHEET_PLACES;
    so.key_places = so.places + 2 > 17 ? 17 : so.places + 2;
    sh = (as_sheet){&s.p, &s.t, s.in.title != NULL ? s.in.title : base ? base + 1 : cli->arg[0],
                    NULL, NULL};
    if (cli->format == AS_FMT_GIFT)
        rc = as_quiz_gift(out, &sh, 1, &so);
    else if (cli->format == AS_FMT_MOODLE)
        rc = as_quiz_moodle(out, &sh, 1, &so);
    else
        rc = as_sheet_write(out, &sh, 1, &so);
    as_session_free(&s);
    if (rc != 0)
        as_cli_write_failed(out, cli, err);
    return rc == 0 ? AS_EXIT_OK : AS_EXIT_USAGE;
}
