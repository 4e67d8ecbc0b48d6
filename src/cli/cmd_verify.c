/* cmd_verify.c - `attnstep verify CHAPTER.txt`: every number a chapter prints, checked
 * (SPEC §18). */
#include "attnstep/chapter.h"
#include "attnstep/cli.h"
#include "attnstep/verify.h"

#include <stdlib.h>

/* Reads and checks the chapter at path into ch and v. 0, or -1 with err set. */
static int verify_file(as_chapter *ch, as_verify *v, const char *path, as_error *err)
{
    char *text = NULL;
    size_t len = 0;
    int rc;

    if (as_reader_read_file(path, err, &text, &len) != 0)
        return -1;
    rc = as_chapter_parse(ch, text, len, path, err);
    free(text);
    if (rc == 0 && (rc = as_verify_chapter(v, ch, err)) != 0)
        as_chapter_free(ch);
    return rc;
}

int as_cmd_verify(FILE *out, const as_cli *cli, as_error *err)
{
    as_chapter ch;
    as_verify v;
    int rc, status;

    if (verify_file(&ch, &v, cli->arg[0], err) != 0)
        return AS_EXIT_USAGE;
    rc = cli->format == AS_FMT_JSON ? as_verify_json(out, &v, ch.path)
         : cli->format == AS_FMT_MD ? as_verify_md(out, &v, ch.path, &cli->render)
                                    : as_verify_text(out, &v, ch.path, &cli->render);
    status = v.agree == v.count ? AS_EXIT_OK : AS_EXIT_WRONG;
    as_verify_free(&v);
    as_chapter_free(&ch);
    if (rc != 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_OOM_WRITING);
        return AS_EXIT_USAGE;
    }
    return status;
}
