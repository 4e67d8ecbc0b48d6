/* fuzz_chapter.c - libFuzzer entry point for `verify`'s chapter reader and verifier:
 * any bytes read as a chapter's text (SPEC §18: blocks, walk-through lines, settings
 * lines, the block's and the positions' tables), verified, and reported as text,
 * Markdown and JSON in a language the input's hash draws.
 *
 * What must hold, or the fuzzer aborts: the chapter is refused with a message, or read
 * and then verified or refused with a message (never a refusal without one); a
 * verification counts no more agreeing numbers than numbers, each number's verdict is
 * one of the five and a carried one names where it was carried from; and every report
 * is valid UTF-8. */
#include "vfs.h"
#include "fuzz_util.h"
#include "attnstep/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each report of v into memory: abort unless it is valid UTF-8. */
static void reports(const as_verify *v, uint32_t h)
{
    as_render_opts o;
    int k;

    memset(&o, 0, sizeof o);
    o.lang = (h & 1) ? AS_LANG_EN : AS_LANG_ZH;
    o.ascii = (h >> 1) & 1;
    o.digits = (int)((h >> 2) % 18);
    o.row = -1;
    for (k = 0; k < 3; k++) {
        char *out = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&out, &len);
        if (mem == NULL)
            return;
        if (k == 0)
            as_verify_text(mem, v, "ch.txt", &o);
        else if (k == 1)
            as_verify_md(mem, v, "ch.txt", &o);
        else
            as_verify_json(mem, v, "ch.txt");
        fclose(mem);
        if (!valid_utf8((const unsigned char *)out, len))
            abort();
        free(out);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint32_t h = fnv1a(data, size);
    as_chapter ch;
    as_verify v;
    as_error err;
    size_t i;

    as_error_init(&err, (h & 1) ? AS_LANG_EN : AS_LANG_ZH);
    if (as_chapter_parse(&ch, (const char *)data, size, "ch.txt", &err) != 0) {
        if (!err.set || err.msg[0] == '\0')
            abort(); /* refused without a word */
        return 0;
    }
    as_error_clear(&err);
    if (as_verify_chapter(&v, &ch, &err) != 0) {
        if (!err.set || err.msg[0] == '\0')
            abort();
        as_chapter_free(&ch);
        return 0;
    }
    if (v.agree > v.count)
        abort();
    for (i = 0; i < v.count; i++)
        if (v.num[i].verdict >= AS_VF_VERDICTS ||
            (v.num[i].verdict == AS_VF_CARRIED) != (v.num[i].from != NULL))
            abort();
    reports(&v, h);
    as_verify_free(&v);
    as_chapter_free(&ch);
    return 0;
}
