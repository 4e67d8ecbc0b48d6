/* exercise.h - new hand-calculation exercises (SPEC §7): drawn from the project's own
 * PRNG, checked with the real computation, written as an input file, a worksheet or an
 * answer key. */
#ifndef ATTNSTEP_EXERCISE_H
#define ATTNSTEP_EXERCISE_H

#include <stddef.h>
#include <stdio.h>
#include "attnstep/attention.h"
#include "attnstep/error.h"
#include "attnstep/i18n.h"
#include "attnstep/model.h"
#include "attnstep/render.h"
#include "attnstep/sheet.h"
#include "attnstep/session.h"

#define AS_EXERCISE_MAX_TOKENS 8   /* more rows than anyone computes by hand */
#define AS_EXERCISE_MAX_WIDTH 8    /* the same for width, d_k and d_v */
#define AS_EXERCISE_L3_TOKENS 5    /* level 3: up to 5 tokens (SPEC §7) */
#define AS_EXERCISE_MAX_SCORE 10   /* |QKᵀ| stays at most this */

typedef struct as_exercise_opts {
    unsigned long seed;
    int level;              /* 1, 2 or 3; 0 takes 2 (the chapter's kind) */
    size_t tokens, width;   /* 0 takes the level's default */
    size_t dk, dv;          /* 0 takes the level's default */
    as_mask_kind mask;      /* CAUSAL or NONE; DEFAULT takes causal, as F11 */
    as_lang lang;           /* of the token labels and the comments */
    as_step step;           /* a drill on one step, or AS_STEP_ALL */
    as_block_kind block;    /* the whole block (SPEC §15), or AS_BLOCK_NONE: the layer alone */
    as_norm_kind norm;      /* with a block: layer (0, the default) or rms */
    as_ffn_kind ffn;        /* with a block: gelu_tanh (0, the default, GPT-2's) … none */
    const char *student;    /* a class's variant: the student's name, or NULL */
    const char *variant;    /* and its short id, or NULL */
} as_exercise_opts;

/* Fills in the level's defaults (level 2, causal; level 1: 2 tokens, width 2, d_k 4,
 * d_v 2; level 2: 2 tokens, width 2, d_k 2, d_v 2; level 3: 3 tokens, width 2, d_k 2,
 * d_v 3) and checks the level's rules (level 1: d_k 1 or 4; level 2: d_k 2; level 3:
 * at most 5 tokens and d_v != d_k; at least 2 tokens; sizes within the limits above).
 * A drill of the block's steps (norm, residual, ffn) takes block pre when none is set;
 * a block takes width 4 and d_v = width (O is added back to X: no Wo), LayerNorm a
 * width of at least 4 (2 gives ±1 and 3 no whole root), RMSNorm 3, a norm or residual drill
 * block pre, an ffn drill an FFN. Returns 0, or -1 with a usage message in err. */
int as_exercise_settle(as_exercise_opts *o, as_error *err);

#define AS_EXERCISE_BLOCK_DFF 3   /* the block's FFN width: U, F are [n, 3] */

/* Draws the exercise for settled options o and writes it as the text of an input file
 * (a comment naming seed and level first). Every draw is parsed back, built and run,
 * and a degenerate one (an all-zero row in Q, K or V; a walk-through row without two
 * readable positions of different scores; |QKᵀ| over the limit; fractions where the
 * level promises whole numbers) is replaced by the PRNG's next draw, so the same
 * options give the same bytes on every machine. With a block, also: block pre's norm1
 * reads rows of X whose √(σ²+ε) (RMSNorm: √(Σx²/d+ε)) is a multiple of 1/2 at 4
 * places; every norm's σ² (mean square) at least 1/4; no zero row in H1, N2, U, G, F or
 * D; U has cells on both sides of 0 and within ±4, where the activation bends. Returns 0 and a new NUL-terminated
 * *text of *len bytes the caller frees; or -1 with err set. */
int as_exercise_make(char **text, size_t *len, const as_exercise_opts *o, as_error *err);

/* Parses an exercise's text (as_exercise_make's) and runs it into s. Returns 0 (free s
 * with as_session_free()), or -1 with err set and s empty. */
int as_exercise_open(as_session *s, const char *text, size_t len, as_error *err);

/* Writes the answer key of the exercise's run t in the ANSWERS syntax that `check`
 * reads (Q, K, V, QKT, S, A, O, and with a block N1 H1 N2 U G F D H2 as it has them,
 * rounded to ro->digits places; masked cells as −∞, or -inf with ro->ascii), after
 * comment lines naming the exercise. Returns 0, or -1 when writing failed. */
int as_exercise_key(FILE *out, const as_trace *t, const as_exercise_opts *o,
                    const as_render_opts *ro);

/* ---- variants for a class ---- */

#define AS_VARIANT_ID 8 /* bytes of a variant id with its NUL */

/* The seed of the variant of a student (or of exercise number "1", "2" ... with
 * --count): derived from the base seed and the name, the same on every machine, below
 * 10^9 so that it is short to type again with --seed. */
unsigned long as_exercise_variant_seed(unsigned long base, const char *name);

/* Writes the short id of a variant ("K7QM": 4 letters and digits, none that reads as
 * another) of the variant seed into id. */
void as_exercise_variant_id(char id[AS_VARIANT_ID], unsigned long seed);

/* A class list: one name a line. */
#define AS_ROSTER_NAME_MAX 64               /* bytes of one roster name */
#define AS_ROSTER_MAX_NAMES 100000           /* names in one roster */
#define AS_ROSTER_MAX_BYTES (8 << 20)        /* bytes of one roster file: 8 MiB */

typedef struct as_roster {
    char **name;
    size_t count;
} as_roster;

/* Reads len bytes of a roster: UTF-8 (a BOM and CRLF accepted), a name a line with its
 * surrounding blanks trimmed, blank lines and # comments skipped. Errors, in lang, at
 * FILE:LINE:COL: bytes that are not UTF-8, a control or direction character in a name,
 * a name longer than AS_ROSTER_NAME_MAX bytes, a name given twice (found with a hash
 * table: linear time), more than AS_ROSTER_MAX_NAMES names or AS_ROSTER_MAX_BYTES
 * bytes, no name at all. Returns 0 (free r with
 * as_roster_free()), or -1 with err set and r empty. */
int as_roster_parse(as_roster *r, const char *text, size_t len, const char *path, as_lang lang,
                    as_error *err);

void as_roster_free(as_roster *r);

#endif
