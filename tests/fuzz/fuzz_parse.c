/* fuzz_parse.c - libFuzzer entry point for the parser: any bytes given to as_parse_text()
 * must give an input or an error with its message, never a crash, a hang or a leak.
 * Build and run with `make fuzz`; replay saved inputs with replay_main.c. */
#include "vfs.h"
#include "attnstep/parse.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    as_input in;
    as_error err;
    size_t main_len;

    vfs_split(data, size, &main_len);
    as_error_clear(&err);
    if (as_parse_text(&in, (const char *)data, main_len, "fuzz/input.txt", &err) != 0) {
        if (!err.set || err.msg[0] == '\0' || err.line < 0 || err.col < 0)
            abort(); /* every refusal says what is wrong */
        return 0;
    }
    if (err.set)
        abort(); /* a success records no error */
    as_input_free(&in);
    return 0;
}
