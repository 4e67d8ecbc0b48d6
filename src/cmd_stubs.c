/* cmd_stubs.c - TEMPORARY: commands being built. Removed before merge. */
#include "attnstep/cli.h"

static int not_yet(as_error *err, const char *name)
{
    as_error_set(err, "", 0, 0, "the %s command is not available in this build", name);
    return AS_EXIT_USAGE;
}
int as_cmd_check(FILE *out, const as_cli *cli, as_error *err) { (void)out; (void)cli; return not_yet(err, "check"); }
int as_cmd_exercise(FILE *out, const as_cli *cli, as_error *err) { (void)out; (void)cli; return not_yet(err, "exercise"); }
int as_cmd_compare(FILE *out, const as_cli *cli, as_error *err) { (void)out; (void)cli; return not_yet(err, "compare"); }
