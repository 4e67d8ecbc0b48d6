/* cmd_weights.c - `attnstep weights FILE`: the tensors of a .npy, .npz or .safetensors
 * file, one a line (SPEC §16), as text or JSON; what load() can then take from it. */
#include "attnstep/cli.h"
#include "attnstep/render_weights.h"
#include "attnstep/tensor.h"

int as_cmd_weights(FILE *out, const as_cli *cli, as_error *err)
{
    as_tensor_where where = {err, cli->arg[0], 0, 0};
    as_tensor_file f;
    int rc;

    if (as_tensor_open_path(&f, cli->arg[0], where) != 0)
        return AS_EXIT_USAGE;
    rc = cli->format == AS_FMT_JSON ? as_render_weights_json(out, &f)
                                    : as_render_weights_text(out, &f, cli->render.lang);
    as_tensor_close(&f);
    if (rc != 0) {
        as_error_msg(err, "", 0, 0, AS_MSG_OOM);
        return AS_EXIT_USAGE;
    }
    return AS_EXIT_OK;
}
