/* sheet_step.c - what a drill gives and asks (SPEC §7, §15): the steps --step names,
 * and the tables each one gives and asks, read from the tables' registry. Below the
 * worksheet's modules (sheet_doc, sheet_tables, sheet_key) and Moodle's, which all ask it. */
#include "attnstep/sheet.h"
#include "attnstep/tables.h"

#include <string.h>

#define T_BIT(t) (1u << (t))

/* ------------------------------------------------------------------------------ */
/* Steps                                                                            */
/* ------------------------------------------------------------------------------ */

static const char *const step_names[AS_STEP_COUNT] = {"all", "project", "scores", "softmax",
                                                      "mix", "sample", "norm", "residual",
                                                      "ffn"};

int as_step_parse(const char *s, as_step *step)
{
    int i;

    for (i = 0; i < AS_STEP_COUNT; i++)
        if (strcmp(s, step_names[i]) == 0) {
            *step = (as_step)i;
            return 0;
        }
    return -1;
}

const char *as_step_name(as_step step)
{
    return step_names[step];
}

unsigned as_step_given(as_step step)
{
    static const unsigned given[AS_STEP_COUNT] = {
        T_BIT(AS_T_X) | T_BIT(AS_T_W) | T_BIT(AS_T_M), T_BIT(AS_T_X) | T_BIT(AS_T_W),
        T_BIT(AS_T_Q) | T_BIT(AS_T_K) | T_BIT(AS_T_M), T_BIT(AS_T_S),
        T_BIT(AS_T_A) | T_BIT(AS_T_V), T_BIT(AS_T_LOGITS),
        T_BIT(AS_T_X) | T_BIT(AS_T_H1) | T_BIT(AS_T_W), T_BIT(AS_T_X) | T_BIT(AS_T_O) | T_BIT(AS_T_D),
        T_BIT(AS_T_N2) | T_BIT(AS_T_W)};

    return given[step];
}

unsigned as_step_given_to(as_step step, const as_problem *p)
{
    if (step == AS_STEP_FFN && p->block == AS_BLOCK_POST) /* post's FFN reads H1 */
        return T_BIT(AS_T_H1) | T_BIT(AS_T_W);
    return as_step_given(step);
}

int as_step_of_block(as_step step)
{
    return step == AS_STEP_NORM || step == AS_STEP_RESIDUAL || step == AS_STEP_FFN;
}

int as_step_reads_weight(as_step step, const char *name)
{
    static const char *const ffn[] = {"Wup", "bup", "Wgate", "Wdown", "bdown"};
    size_t k;

    if (step == AS_STEP_NORM)
        return strncmp(name, "ln", 2) == 0;
    if (step == AS_STEP_FFN) {
        for (k = 0; k < sizeof ffn / sizeof ffn[0]; k++)
            if (strcmp(name, ffn[k]) == 0)
                return 1;
        return 0;
    }
    return step != AS_STEP_RESIDUAL;
}

unsigned as_step_asked(as_step step)
{
    unsigned asked = 0;
    size_t k;

    if (step == AS_STEP_SAMPLE) /* the head's tables have no step of the layer's walk */
        return T_BIT(AS_T_PROBS);
    for (k = 0; k < AS_T_COUNT; k++) { /* the tables the step makes; all four for all */
        const int made = as_tab_get(as_tab_of_table((as_table)k))->step;
        if (made != 0 && (step == AS_STEP_ALL || made == (int)step))
            asked |= T_BIT(k);
    }
    return asked;
}
