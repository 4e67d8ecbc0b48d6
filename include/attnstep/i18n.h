/* i18n.h - every caption in Chinese and English, in one table keyed by an enum, and the
 * mathematical symbols with their --ascii spellings. Renderers ask; they never spell. */
#ifndef ATTNSTEP_I18N_H
#define ATTNSTEP_I18N_H

#include <stddef.h>

typedef enum as_lang { AS_LANG_ZH = 0, AS_LANG_EN = 1 } as_lang;

/* Messages. Those with printf conversions say which in their comment. */
typedef enum as_msg {
    /* run: the tables and their captions */
    AS_MSG_TITLE,          /* %s: the title */
    AS_MSG_ROW_IS,         /* %zu row, %s token: "第0行对应“我”" */
    AS_MSG_SHAPE_X,        /* %zu %zu: the shape line under X */
    AS_MSG_SHAPE_XKV,      /* %zu %zu: the shape line under Xkv */
    AS_MSG_LAYOUT_TORCH,   /* the note that W tables were given as [out, in] */
    AS_MSG_QKT_ROWS,       /* rows: receivers (Query) */
    AS_MSG_QKT_COLS,       /* columns: providers (Key) */
    AS_MSG_MASK_ONLY,      /* %zu row, %s the one readable token (quoted) */
    AS_MSG_MASK_READS,     /* %zu row, %s the list of readable tokens */
    AS_MSG_MASK_READS_N,   /* %zu row, %zu count: for long lists */
    AS_MSG_LIST_AND,       /* the word before the last item of a list */
    AS_MSG_LIST_SEP,       /* between other items */
    AS_MSG_SOFTMAX_ROWS,   /* "每行softmax(S)" */
    AS_MSG_HEAD_TITLE,     /* %zu: head number */
    AS_MSG_CONCAT,         /* caption of C: the heads side by side */
    AS_MSG_SCALE_CUSTOM,   /* %s: a custom scale value, caption under S */
    AS_MSG_MASK_NONE_NOTE, /* caption when there is no mask */
    AS_MSG_CROSS_NOTE,     /* caption: queries from X, keys/values from Xkv */
    /* formats */
    AS_MSG_FMT_HEAD,       /* %zu: head number, plain (csv, latex and svg captions) */
    AS_MSG_FMT_ROWS,       /* before the row labels (csv and latex comment lines) */
    AS_MSG_FMT_COLS,       /* before the column labels */
    AS_MSG_FMT_MASKED,     /* svg legend: a masked (unreadable) cell */
    AS_MSG_FMT_BLANK,      /* --heatmap legend: a blank cell is masked */
    AS_MSG_FMT_SCALE,      /* svg: caption of the colour scale (the share) */
    /* trace */
    AS_MSG_TR_PROJ_INTRO,  /* before the projections: each cell is a row dotted with a column */
    AS_MSG_TR_INPUT,       /* %s token, %s "x₀=[1,1]": one row of X */
    AS_MSG_TR_INPUT_KV,    /* %s token, %s "xkv₀=[1,1]": one row of Xkv */
    AS_MSG_TR_ELIDED,      /* %d %d %d max/first/last items, %s "…": the note on elided sums */
    AS_MSG_TR_RULE_CAUSAL, /* the causal reading rule */
    AS_MSG_TR_RULE_NONE,   /* no mask */
    AS_MSG_TR_RULE_CUSTOM, /* %s −∞: the mask M from the input */
    AS_MSG_TR_ROW_TITLE,   /* %s token, %zu row: "对“爱”这个位置…" */
    AS_MSG_TR_HEAD,        /* %zu head, %zu %zu q/k columns, %zu %zu v columns */
    AS_MSG_TR_RECEIVER,    /* %s token, %s "q₁=[1,0]" */
    AS_MSG_TR_READABLE,    /* %zu position, %s token, %s "k₀=[1,0]", %s "v₀=[10,0]" */
    AS_MSG_TR_FUTURE,      /* %zu position, %s token: hidden by the causal mask */
    AS_MSG_TR_MASKED,      /* %zu position, %s token, %zu %zu the cell of M, %s −∞ */
    AS_MSG_TR_STEP1,       /* heading of step 1 */
    AS_MSG_TR_RAW_ONE,     /* %s token, %s "q₁·k₀ = 1×1+0×0 = 1" */
    AS_MSG_TR_RAW_ALL,     /* %s the raw scores, %s the token list */
    AS_MSG_TR_STEP2,       /* %s "√d_k", %zu d_k, %s "√2≈1.414214": heading of step 2 */
    AS_MSG_TR_STEP2_SCALE, /* %s the scale set by the input: heading of step 2 */
    AS_MSG_TR_SCALED,      /* %s "[1/√2, 0/√2] ≈ [0.7071067812, 0]" */
    AS_MSG_TR_ADD_M,       /* %s the scaled scores plus the cells of a custom M */
    AS_MSG_TR_STEP3,       /* heading of step 3 */
    AS_MSG_TR_SHIFT,       /* label: subtract the max */
    AS_MSG_TR_EXP,         /* label: exponentiate */
    AS_MSG_TR_SUM,         /* label: the sum */
    AS_MSG_TR_DIVIDE,      /* label: divide by the sum */
    AS_MSG_TR_MAX_IS,      /* %s the row max, after the shifted scores */
    AS_MSG_TR_SHARE_FROM,  /* %s token: caption under a share */
    AS_MSG_TR_STEP4,       /* heading of step 4 */
    AS_MSG_TR_OUT_CELL,    /* %zu column, %s the written-out weighted sum */
    AS_MSG_TR_OUT_ROW,     /* %s token, %s "o₁ ≈ [...]" */
    AS_MSG_TR_HEAD_OUT,    /* %zu head, %s token, %s "≈ [...]" */
    AS_MSG_TR_CONCAT_ROW,  /* %s "c₁ = [...]": the heads side by side */
    AS_MSG_TR_WO,          /* before the output projection of one row */
    AS_MSG_TR_WHOLE,       /* heading of the whole-matrix form */
    /* teacher tools */
    AS_MSG_EX_HEADER,      /* %d level, %lu seed: first comment of an exercise */
    AS_MSG_EX_AGAIN,       /* %s the command that makes the same exercise again */
    AS_MSG_EX_TASK,        /* comment: what to compute, and how to check it */
    AS_MSG_EX_KEY,         /* comment: this is the answer key, in check's format */
    AS_MSG_EX_TASK_SAMPLE, /* comment: the head's drill: what to compute */
    AS_MSG_EX_HEAD_NOTE,   /* comment: the identities make the logits X's row */
    AS_MSG_SHEET_NO_HEAD,  /* sheet --step sample on an input without head: */
    AS_MSG_HINT_SHEET_NO_HEAD,
    AS_MSG_SHEET_TITLE,    /* worksheet title */
    AS_MSG_SHEET_GIVEN,    /* heading: the given tables */
    AS_MSG_SHEET_TOKENS,   /* %s the token labels */
    AS_MSG_SHEET_FILL,     /* %zu d_k: heading of the empty grids */
    AS_MSG_SHEET_KEY,      /* heading: the answer key */
    AS_MSG_SHEET_WALK,     /* %s row, %s token: heading of the walk-through */
    AS_MSG_CHK_RIGHT,      /* %s table */
    AS_MSG_CHK_WRONG,      /* %s table, %zu wrong cells, %zu all cells */
    AS_MSG_CHK_SHAPE,      /* %s table, %zu %zu given shape, %zu %zu expected shape */
    AS_MSG_CHK_CELL,       /* %s table, %zu %zu cell, %s written, %s expected */
    AS_MSG_CHK_MORE,       /* %zu wrong cells not listed */
    AS_MSG_CHK_DIAG,       /* %s code, %s its explanation */
    AS_MSG_CHK_ALL_RIGHT,  /* %zu tables (2 or more) */
    AS_MSG_CHK_ALL_RIGHT_ONE, /* the one table given is right */
    AS_MSG_CHK_SOME_WRONG, /* %zu wrong tables (2 or more), %zu tables */
    AS_MSG_CHK_ONE_WRONG,  /* %zu tables (2 or more): one of them wrong */
    AS_MSG_CHK_ONLY_WRONG, /* the one table given is wrong */
    AS_MSG_DIAG_NO_SCALE,  /* %s "√d_k" */
    AS_MSG_DIAG_SCALE_MULT,/* %s "√d_k" */
    AS_MSG_DIAG_NO_MASK,
    AS_MSG_DIAG_SOFTMAX_COLUMNS,
    AS_MSG_DIAG_TRANSPOSED,
    AS_MSG_DIAG_CARRIED,   /* %s the student's earlier tables */
    AS_MSG_CMP_INPUTS,     /* %s the inputs that differ */
    AS_MSG_CMP_NO_INPUTS,  /* no input differs */
    AS_MSG_CMP_SAME,       /* %s table */
    AS_MSG_CMP_CHANGED,    /* %s table, %s the largest change */
    AS_MSG_CMP_RESHAPED,   /* %s table, %zu %zu base shape, %zu %zu variant shape */
    AS_MSG_CMP_WHY,        /* %s inputs, %s changed tables, %s unchanged tables, %s reason */
    AS_MSG_CMP_WHY_ALL,    /* %s inputs, %s reason: every table changed */
    AS_MSG_CMP_WHY_NONE,   /* %s inputs: no number changed */
    AS_MSG_CMP_WHY_SAME,   /* nothing differs */
    AS_MSG_WHY_VALUE,      /* reason: only the Value path changed */
    AS_MSG_WHY_SCORE,      /* reason: the scoring path changed (Wq, Wk, mask, scale) */
    AS_MSG_WHY_X,          /* reason: X feeds every projection */
    AS_MSG_WHY_OUT,        /* reason: only the output projection changed */
    AS_MSG_WHY_MIXED,      /* reason: several kinds of input changed */
    AS_MSG_WHY_HEAD,           /* compare: only the output head's settings changed */
    /* ---- errors, hints, usage and --help (issue 12): every word the program says
     * when something is wrong. Rows and columns in them count from 0. English nouns
     * after a count are written plural ("%zu rows"): the error record makes "1 rows"
     * read "1 row". ---- */
    AS_MSG_ERR_ERROR,      /* the word before a message: "错误：" */
    AS_MSG_ERR_HINT,       /* the word before a hint: "提示：" */
    AS_MSG_DID_YOU_MEAN,   /* %s the nearest known word */
    AS_MSG_LIST_OR,        /* the word before the last item of a list of choices */
    AS_MSG_USE_LINE,       /* %s "run|trace|...": the two lines after a usage error */
    AS_MSG_USE_CHOICE,     /* %s option, %s its choices, %s what was given */
    AS_MSG_USE_ROW,        /* %s what was given to --row */
    AS_MSG_USE_TOL,        /* %s what was given to --tol */
    AS_MSG_USE_DIGITS,     /* %s --digits or --require-digits, %s what was given */
    AS_MSG_USE_SEED,       /* %s what was given to --seed */
    AS_MSG_USE_LEVEL,      /* %s what was given to --level */
    AS_MSG_USE_HEAD,       /* %s what was given to --head */
    AS_MSG_USE_SIZE,       /* %s option, %s what was given: the exercise sizes */
    AS_MSG_USE_ONLY,       /* %s the word that names no table */
    AS_MSG_USE_COMMAND,    /* %s the unknown command, %s the commands */
    AS_MSG_USE_NEED_FILE,  /* no input FILE */
    AS_MSG_USE_NEED_FILES, /* %s command: it takes two files */
    AS_MSG_USE_EXTRA,      /* %s the argument too many */
    AS_MSG_USE_ENV,        /* %s the value of ATTNSTEP_LANG */
    AS_MSG_USE_OPTION,     /* %s the unknown option */
    AS_MSG_USE_NEEDS_VALUE,/* %s the option */
    AS_MSG_USE_FORMATS,    /* %s command, %s the formats it writes */
    AS_MSG_USE_BOTH_STDIN, /* %s %s: the names of the two file arguments */
    AS_MSG_HINT_SHEET_FORMATS, /* exercise: what text, md and latex are for */
    AS_MSG_HINT_TRACE_FORMAT,  /* trace: use run for other formats */
    AS_MSG_HINT_RUN_FORMAT,    /* run: gift and moodle are exercise's and sheet's */
    AS_MSG_USE_TRACE_ONLY,     /* trace takes no --only */
    AS_MSG_HINT_TRACE_ONLY,    /* use run --only */
    AS_MSG_USE_ROW_RANGE,  /* %ld row, %s file, %zu rows, %zu last row */
    AS_MSG_HINT_ROW_RANGE, /* rows count from 0; last and all */
    AS_MSG_OOM,            /* out of memory */
    AS_MSG_OOM_WRITING,    /* out of memory while writing the output */
    AS_MSG_FILE_EXISTS,    /* -o: the file exists */
    AS_MSG_HINT_FORCE,     /* add --force */
    AS_MSG_WHY_WRITE_FBIG,
    AS_MSG_WHY_PIPE,
    AS_MSG_HINT_WRITE_FBIG,
    AS_MSG_HINT_NOSPC,
    AS_MSG_HINT_NAMETOOLONG, /* %d NAME_MAX, %d PATH_MAX */
    AS_MSG_FILE_NO_WRITE,  /* %s why: the output cannot be written */
    AS_MSG_FILE_STDOUT,    /* "standard output", in place of a file name */
    AS_MSG_OUT_DIR,        /* -o names a folder */
    AS_MSG_OUT_LINK,       /* -o names a symbolic link */
    AS_MSG_OUT_FIFO,       /* -o names a FIFO */
    AS_MSG_OUT_SPECIAL,    /* -o names a device or special file */
    AS_MSG_HINT_OUT_SPECIAL, /* leave out -o, or name a new file */
    AS_MSG_USE_ONE_STDIN,  /* check: only one file may be standard input */
    AS_MSG_USE_SCOPED,     /* %s option, %s command, %s the commands it belongs to */
    AS_MSG_HINT_SCOPED,    /* %s option, %s the commands it belongs to */
    AS_MSG_WHY_NOENT,      /* why a file cannot be read or written: no such file */
    AS_MSG_WHY_ISDIR,      /* it is a directory */
    AS_MSG_WHY_ACCES,      /* permission denied */
    AS_MSG_WHY_FBIG,       /* larger than 2 GiB */
    AS_MSG_WHY_NODEV,      /* not a regular file */
    AS_MSG_WHY_NOTDIR,     /* a part of the path is not a directory */
    AS_MSG_WHY_NOSPC,      /* no space left */
    AS_MSG_WHY_ROFS,       /* read-only file system */
    AS_MSG_WHY_NAMETOOLONG,/* the name is too long */
    AS_MSG_WHY_OTHER,      /* %s the system's words (strerror): any other reason */
    AS_MSG_CSV_NO_ONLY,    /* --format csv without --only */
    AS_MSG_CSV_MANY,       /* --format csv with several tables */
    AS_MSG_CSV_W,          /* --format csv --only W */
    AS_MSG_RUN_OVERFLOW,   /* %s table, %zu %zu cell: a result overflows */
    AS_MSG_RUN_NAN,        /* %s table, %zu %zu cell: a result is not a number */
    AS_MSG_HINT_RUN_RANGE, /* scale the inputs down */
    AS_MSG_RUN_NO_READABLE,/* %ld row, %s its token */
    AS_MSG_HINT_NO_READABLE,   /* softmax over nothing */
    AS_MSG_RUN_HEADS_CELLS,/* %zu heads, %zu %zu shape of one head's scores, %u the limit */
    AS_MSG_HINT_HEADS_CELLS,   /* --only O, fewer heads or tokens */
    AS_MSG_EX_L1_DK, AS_MSG_HINT_EX_L1_DK,         /* exercise: level 1 and --dk */
    AS_MSG_EX_L2_DK, AS_MSG_HINT_EX_L2_DK,         /* level 2 and --dk */
    AS_MSG_EX_L3_DV, AS_MSG_HINT_EX_L3_DV,         /* level 3 and --dv */
    AS_MSG_EX_L3_TOKENS, AS_MSG_HINT_EX_L3_TOKENS, /* level 3 and --tokens */
    AS_MSG_EX_LEVEL, AS_MSG_HINT_EX_LEVEL,         /* --level */
    AS_MSG_EX_TOKENS, AS_MSG_HINT_EX_TOKENS,       /* at least 2 tokens */
    AS_MSG_EX_SIZES, AS_MSG_HINT_EX_SIZES,         /* at most 8 */
    AS_MSG_EX_NONE,        /* %d level: no exercise of these sizes */
    AS_MSG_HINT_EX_NONE,   /* fewer tokens, another seed */
    AS_MSG_GRAD_RANGE,     /* %s table, %zu %zu cell: a gradient overflows */
    AS_MSG_HINT_GRAD_RANGE,/* scale the inputs or dO down */
    /* model.c: tables missing, shapes that do not agree and why, the mask */
    AS_MSG_MD_MISSING,
    AS_MSG_HINT_MD_MISSING,
    AS_MSG_MD_W_ROWS,
    AS_MSG_MD_KEY_WIDTH,
    AS_MSG_HINT_MD_WQ_ROWS,
    AS_MSG_HINT_MD_WK_ROWS,
    AS_MSG_HINT_MD_WV_ROWS,
    AS_MSG_HINT_MD_KEY_WIDTH,
    AS_MSG_HINT_MD_TORCH,
    AS_MSG_HINT_MD_TORCH_ONE, /* hint: only this W looks transposed; write it so */
    AS_MSG_MD_BIAS_ROWS,
    AS_MSG_HINT_MD_BIAS_ROWS,
    AS_MSG_MD_BIAS_WIDTH,
    AS_MSG_HINT_MD_BIAS_WIDTH,
    AS_MSG_MD_KV_WIDTH,
    AS_MSG_HINT_MD_KV_WIDTH,
    AS_MSG_MD_KV_DIVIDE,
    AS_MSG_HINT_MD_KV_DIVIDE,
    AS_MSG_MD_HEADS_DIVIDE,
    AS_MSG_MD_HEADS_KV_DIVIDE,
    AS_MSG_HINT_MD_HEADS_DIVIDE,
    AS_MSG_MD_NO_COLUMN,
    AS_MSG_HINT_MD_NO_COLUMN,
    AS_MSG_MD_BO,
    AS_MSG_HINT_MD_BO,
    AS_MSG_MD_WO_ROWS,
    AS_MSG_HINT_MD_WO_ROWS,
    AS_MSG_MD_TOO_LARGE,
    AS_MSG_HINT_MD_TOO_LARGE,
    AS_MSG_MD_LABELS,
    AS_MSG_HINT_MD_LABELS,
    AS_MSG_MD_M_SHAPE,
    AS_MSG_HINT_MD_M_SHAPE,
    AS_MSG_MD_M_INF,
    AS_MSG_HINT_MD_M_INF,
    AS_MSG_MD_MASK_BOTH,
    AS_MSG_HINT_MD_MASK_BOTH,
    AS_MSG_MD_MASK_SQUARE,
    AS_MSG_HINT_MD_MASK_SQUARE,
    AS_MSG_MD_ROPE_ONLY,
    AS_MSG_HINT_MD_ROPE_ONLY,
    AS_MSG_MD_ROPE_ODD,
    AS_MSG_HINT_MD_ROPE_ODD,
    /* model.c: the block (SPEC §15) */
    AS_MSG_MD_BLOCK_ONLY,
    AS_MSG_HINT_MD_BLOCK_ONLY,
    AS_MSG_MD_RESIDUAL_WIDTH,
    AS_MSG_HINT_MD_RESIDUAL_WIDTH,
    AS_MSG_MD_NORM_NONE_TABLE,
    AS_MSG_HINT_MD_NORM_NONE_TABLE,
    AS_MSG_MD_RMS_NO_BETA,
    AS_MSG_HINT_MD_RMS_NO_BETA,
    AS_MSG_MD_STYLE_LAYER_ONLY,
    AS_MSG_HINT_MD_STYLE_LAYER_ONLY,
    AS_MSG_MD_NORM_WIDTH,
    AS_MSG_HINT_MD_NORM_WIDTH,
    AS_MSG_MD_ANNOTATED_WIDTH,
    AS_MSG_HINT_MD_ANNOTATED_WIDTH,
    AS_MSG_MD_FFN_MISSING,
    AS_MSG_HINT_MD_FFN_MISSING,
    AS_MSG_MD_FFN_NONE_TABLE,
    AS_MSG_HINT_MD_FFN_NONE_TABLE,
    AS_MSG_MD_WGATE_ONLY,
    AS_MSG_HINT_MD_WGATE_ONLY,
    AS_MSG_HINT_MD_WUP_ROWS,
    AS_MSG_MD_WGATE_SHAPE,
    AS_MSG_HINT_MD_WGATE_SHAPE,
    AS_MSG_MD_WDOWN_ROWS,
    AS_MSG_HINT_MD_WDOWN_ROWS,
    AS_MSG_MD_WDOWN_COLS,
    AS_MSG_HINT_MD_WDOWN_COLS,
    /* the output head and the draw (SPEC §19): run, trace, generate */
    AS_MSG_HD_TITLE, /* the section's title */
    AS_MSG_HD_H_CAP, /* %s O or Y, %zu its row */
    AS_MSG_HD_LOGITS_CAP,
    AS_MSG_HD_TEMP_CAP, /* %s T */
    AS_MSG_HD_TOPK_CAP, /* %zu K */
    AS_MSG_HD_SOFTMAX_CAP,
    AS_MSG_HD_TOPP_CAP, /* %s P, %zu kept */
    AS_MSG_HD_PROBS_CAP,
    AS_MSG_HD_GREEDY, /* %zu token, %s p */
    AS_MSG_HD_DRAWN, /* %s u, %zu token, %s %s interval, %zu token */
    AS_MSG_HD_W_LOGITS,
    AS_MSG_HD_W_LOGIT, /* %zu token */
    AS_MSG_HD_W_TEMP, /* %s T */
    AS_MSG_HD_W_TOPK, /* %zu K, %s the tokens */
    AS_MSG_HD_W_SOFTMAX,
    AS_MSG_HD_W_TOPP, /* %s P */
    AS_MSG_HD_W_SORTED,
    AS_MSG_HD_W_PSORT,
    AS_MSG_HD_W_CUM,
    AS_MSG_HD_W_CROSS, /* %zu token, %s sum, %s P, %zu kept */
    AS_MSG_HD_W_RENORM,
    AS_MSG_HD_W_DRAW,
    AS_MSG_HD_W_U, /* %llu seed, %zu which, %s u */
    AS_MSG_HD_W_INTERVALS,
    AS_MSG_HD_W_INTERVAL, /* %zu token, %s %s its ends */
    AS_MSG_HD_W_LANDS, /* %s u, %zu token, %zu token */
    AS_MSG_HD_W_GREEDY, /* %zu token */
    AS_MSG_HD_TOKEN, /* %zu token */
    /* generate (SPEC §19) */
    AS_MSG_GEN_NO_HEAD,
    AS_MSG_HINT_GEN_NO_HEAD,
    AS_MSG_GEN_MASK_MATRIX,
    AS_MSG_HINT_GEN_MASK_MATRIX,
    AS_MSG_GEN_NO_E,
    AS_MSG_HINT_GEN_NO_E,
    AS_MSG_GEN_E_WIDTH, /* %zu E's width, %zu X's */
    AS_MSG_HINT_GEN_E_WIDTH,
    AS_MSG_GEN_VOCAB, /* %zu vocab, %zu E's rows */
    AS_MSG_HINT_GEN_VOCAB,
    AS_MSG_GEN_P_SHORT, /* %zu position, %zu P's rows */
    AS_MSG_HINT_GEN_P_SHORT,
    AS_MSG_GEN_TOO_LONG, /* %zu n0, %zu count, %zu limit */
    AS_MSG_HINT_GEN_TOO_LONG,
    AS_MSG_USE_GENERATE_COUNT, /* %s the argument */
    AS_MSG_HINT_USE_GENERATE_COUNT,
    AS_MSG_CMD_ARGS_GENERATE,
    AS_MSG_CMD_GENERATE,
    AS_MSG_GEN_TITLE,
    AS_MSG_GEN_PROMPT, /* %zu rows, %zu last */
    AS_MSG_GEN_STEP, /* %zu step, %zu position, %zu read */
    AS_MSG_GEN_APPEND, /* %zu token, %zu row, %zu token */
    AS_MSG_GEN_APPEND_P, /* %zu token, %zu row, %zu token, %zu position */
    AS_MSG_GEN_TOKENS,
    /* model.c: the output head (SPEC §19) */
    AS_MSG_MD_HEAD_ONLY,        /* %s: the setting or table */
    AS_MSG_HINT_MD_HEAD_ONLY,
    AS_MSG_MD_HEAD_NEEDS,       /* %s the head's word, %s the table it needs */
    AS_MSG_HINT_MD_HEAD_NEEDS,
    AS_MSG_MD_HEAD_WIDTH,       /* %s table, %zu its width, %s O or Y, %zu h's width */
    AS_MSG_HINT_MD_HEAD_WIDTH,
    AS_MSG_MD_TOP_K_VOCAB,      /* %zu K, %zu vocab */
    AS_MSG_HINT_MD_TOP_K_VOCAB,
    AS_MSG_MD_WOUT_UNUSED,
    AS_MSG_HINT_MD_WOUT_UNUSED,
    /* parse.c: unknown settings, names and values (with "did you mean") */
    AS_MSG_RD_UNKNOWN_MASK,
    AS_MSG_HINT_RD_MASKS,
    AS_MSG_RD_UNKNOWN_LAYOUT,
    AS_MSG_HINT_RD_LAYOUTS,
    AS_MSG_RD_UNKNOWN_SETTING,
    AS_MSG_HINT_RD_SETTINGS,
    AS_MSG_HINT_RD_MATRIX_EQUALS,
    AS_MSG_HINT_RD_SETTING_COLON,
    AS_MSG_RD_UNKNOWN_NAME,
    AS_MSG_HINT_RD_NAMES,
    /* reader.c: a file that is not UTF-8 (UTF-16 and GBK named; %02x the first bad byte) */
    AS_MSG_RD_UTF16,
    AS_MSG_HINT_RD_UTF16,
    AS_MSG_RD_NUL,
    AS_MSG_HINT_RD_NUL,
    AS_MSG_RD_GBK,
    AS_MSG_HINT_RD_GBK,
    AS_MSG_RD_UTF8,
    AS_MSG_HINT_RD_UTF8,
    AS_MSG_HELP_USAGE,     /* --help: the word before the first synopsis line */
    AS_MSG_CMD_ARGS_FILE,  /* --help: the arguments of a command reading one input */
    AS_MSG_CMD_ARGS_CHECK, /* of check */
    AS_MSG_CMD_ARGS_NONE,  /* of exercise: options only */
    AS_MSG_CMD_ARGS_COMPARE, /* of compare */
    AS_MSG_CMD_RUN,        /* --help: what run does */
    AS_MSG_CMD_TRACE,      /* what trace does */
    AS_MSG_CMD_CHECK,      /* what check does */
    AS_MSG_CMD_EXERCISE,   /* what exercise does */
    AS_MSG_CMD_COMPARE,    /* what compare does */
    AS_MSG_CMD_GRAD,       /* what grad does */
    AS_MSG_CMD_DECODE,     /* what decode does */
    AS_MSG_USE_TILES,      /* %s what was given to --tiles */
    AS_MSG_CMD_SHEET,      /* what sheet does */
    AS_MSG_USE_COUNT,      /* %s what was given to --count */
    AS_MSG_USE_STEP,       /* %s what was given to --step */
    AS_MSG_USE_COUNT_CLASS,/* --count with --class */
    AS_MSG_FILE_NO_DIR,    /* %s why: the directory cannot be made */
    AS_MSG_HINT_SHEET_LATEX, /* sheet: md by default, latex with pdflatex or xelatex */
    AS_MSG_HINT_TILES_FORMAT, /* the online softmax is shown in text and JSON */
    AS_MSG_USE_DECODE_ONLY, AS_MSG_HINT_DECODE_ONLY, /* decode takes only --only O */
    AS_MSG_USE_DECODE_JSON, AS_MSG_HINT_DECODE_JSON, /* decode --only O needs JSON */
    AS_MSG_HINT_DECODE_CELLS, /* decode keeps every step's scores */
    AS_MSG_DECODE_RANGE,   /* %zu step, %s its token: leaves the range of a double */
    AS_MSG_USE_GRAD_ONLY,  /* %s the word that names no gradient */
    AS_MSG_HINT_GRAD_FORMAT, /* grad: run for the forward tables in other formats */
    AS_MSG_USE_GRAD_ROW,   /* grad --row is text only */
    AS_MSG_HINT_GRAD_ROW,  /* leave out --row for JSON */
    AS_MSG_USE_OFFSET,     /* %s what was given to --offset */
    AS_MSG_HELP,           /* --help after the synopsis lines: what it is, the options */
    AS_MSG_HELP_MORE,      /* --help, then: the options from --count on (a string each
                              stays within the 4095 bytes C promises) */
    AS_MSG_HELP_INPUT,     /* --help, then: the input format, limits, exit status, examples
                              (two strings: C11 promises string literals of 4095 bytes) */
    /* worksheets (issue 14): the SHEET_ ones are set in LaTeX too, any %s may be
     * mathematics, so they take only %s (but LEVEL); their English is ASCII but for
     * curly quotes, which pdflatex alone can set */
    AS_MSG_SHEET_LEVEL,        /* %d level, %lu seed: what an exercise's sheet is */
    AS_MSG_SHEET_DRILL,        /* %s the step drilled */
    AS_MSG_SHEET_STEP_PROJECT, /* the steps, in as_step's order */
    AS_MSG_SHEET_STEP_SCORES,
    AS_MSG_SHEET_STEP_SOFTMAX,
    AS_MSG_SHEET_STEP_MIX,
    AS_MSG_SHEET_STEP_SAMPLE,
    AS_MSG_SHEET_STEP_NORM,
    AS_MSG_SHEET_STEP_RESIDUAL,
    AS_MSG_SHEET_STEP_FFN,
    AS_MSG_SHEET_VARIANT,      /* %s the variant id */
    AS_MSG_SHEET_NAME,         /* the fields to fill in at the top */
    AS_MSG_SHEET_CLASS,
    AS_MSG_SHEET_DATE,
    AS_MSG_SHEET_DO,           /* %s the tables to compute */
    AS_MSG_SHEET_PLACES,       /* %s decimal places */
    AS_MSG_SHEET_SOFTMAX,      /* %s "A", %s "S": A is the softmax of each row */
    AS_MSG_SHEET_MASKED,       /* %s "S", %s −∞, %s "A": what masked cells hold */
    AS_MSG_SHEET_WORK,         /* heading: room to work */
    AS_MSG_SHEET_EXP,          /* before the table of e^x */
    AS_MSG_SHEET_HEAD,         /* %s head */
    AS_MSG_SHEET_STEP2,        /* %s √d_k, %s "d_k=2" */
    AS_MSG_SHEET_STEP2_SCALE,  /* step 2 with a scale the input sets */
    AS_MSG_SHEET_SAMPLE_ORDER, /* %s logits, %s T, %s probs: the head's steps in order */
    AS_MSG_SHEET_SAMPLE_TOPK,  /* %s K: the cut of top-k */
    AS_MSG_SHEET_SAMPLE_TOPP,  /* %s P: the cut of top-p */
    AS_MSG_SHEET_SAMPLE_GREEDY,/* the greedy choice */
    AS_MSG_SHEET_SAMPLE_DRAW,  /* %s u: the inverse-CDF draw */
    AS_MSG_SHEET_SAMPLE_WORDS, /* the chapter's words: F09's draw, F11's weighted sum */
    AS_MSG_SHEET_SAMPLE_TOKEN, /* the line for the token drawn */
    AS_MSG_SHEET_SAMPLE_GOT,   /* %s the token drawn: the key's line */
    AS_MSG_ROSTER_UNREADABLE,  /* %s why */
    AS_MSG_ROSTER_NOT_UTF8,
    AS_MSG_ROSTER_NOT_UTF8_HINT,
    AS_MSG_ROSTER_CONTROL,
    AS_MSG_ROSTER_LONG,
    AS_MSG_ROSTER_BIDI,
    AS_MSG_ROSTER_BIG,         /* %d names, %d MiB */
    AS_MSG_ROSTER_MANY,        /* %d names */
    AS_MSG_ROSTER_LIMIT_HINT,
    AS_MSG_ROSTER_TWICE,       /* %s name, %d the line it is on first */
    AS_MSG_ROSTER_TWICE_HINT,
    AS_MSG_ROSTER_EMPTY,
    AS_MSG_ROSTER_HINT,        /* how a roster is written */
    AS_MSG_EX_STUDENT,         /* %s name, %s variant id: comment of a class's exercise */
    AS_MSG_EX_DRILL,           /* %s step: comment of a drill */
    AS_MSG_EX_SEED_DRAWN,      /* note on stderr: no --seed, this one was drawn (%lu) */
    AS_MSG_EX_WROTE,           /* %s the file written (with -o DIR) */
    AS_MSG_QUIZ_CELL,          /* %s table, %s row, %s its token, %s column, %s its token */
    AS_MSG_QUIZ_CELL_NUM,      /* %s table, %s row, %s its token, %s column (numbered) */
    AS_MSG_QUIZ_RIGHT,         /* feedback of a right cell */
    AS_MSG_QUIZ_MISTAKE,       /* %s code, %s explanation: feedback of a named mistake */
    /* ---- grading a class (issue 13, SPEC §6): more named mistakes, scores, the class view ---- */
    AS_MSG_DIAG_SCALE_BY_DK,   /* %s "√d_k" */
    AS_MSG_DIAG_MASKED_ZERO,
    AS_MSG_DIAG_INVERTED_MASK,
    AS_MSG_DIAG_MASK_AFTER_SOFTMAX,
    AS_MSG_DIAG_NO_NORMALIZE,
    AS_MSG_DIAG_KEYS_FOR_VALUES,
    AS_MSG_DIAG_WRONG_WEIGHTS, /* %s the table made ("K"), %s the W used ("Wq"), %s the W it needs ("Wk") */
    AS_MSG_DIAG_TORCH_LAYOUT,  /* %s the table made ("Q"), %s the W ("Wq") */
    AS_MSG_DIAG_TEMPERATURE_AFTER_SOFTMAX,
    AS_MSG_DIAG_TOPP_DROPS_CROSSING,
    AS_MSG_DIAG_TOPK_BEFORE_TEMPERATURE,
    AS_MSG_CHK_AMBIGUOUS,      /* %s the mistakes that fit, "no_mask、masked_zero" */
    AS_MSG_CHK_LIST_SEP,       /* between the codes of that list */
    AS_MSG_CHK_FIT_WEIGHTS,    /* after wrong_weights in that list: %s the table, %s the W used */
    AS_MSG_CHK_FIT_TORCH,      /* after torch_layout in that list: %s the table, %s its W */
    AS_MSG_CHK_CARRIED,        /* %s table, %s the student's earlier tables: carried_error, earned */
    AS_MSG_CHK_ROW_CELL,       /* %s row answer, %zu cell, %s written, %s expected */
    AS_MSG_CHK_TOO_FEW,        /* %d decimals asked (after a wrong cell's line) */
    AS_MSG_CHK_STUDENT,        /* %s name, %s score (3.5), %zu max */
    AS_MSG_CHK_MISSING,        /* %s the tables asked and not answered, "S、A" */
    AS_MSG_CHK_IGNORED,        /* %s the names of no table, ignored ("E"), %s the
                                * did-you-means (AS_MSG_CHK_IGNORED_MEANT), or "" */
    AS_MSG_CHK_IGNORED_MEANT,  /* %s a name ignored, %s the table it is near ("AA", "A") */
    AS_MSG_CHK_MEANT_FIRST,    /* before the first did-you-mean of a note: "；" */
    AS_MSG_CHK_ASK_UNKNOWN,    /* %s a word of the input's ask: setting that names no table */
    AS_MSG_CHK_ASK_UNKNOWN_HINT,
    AS_MSG_CHK_CLASS,          /* %zu students graded */
    AS_MSG_CHK_MEAN,           /* %s mean score, %s mean max */
    AS_MSG_CHK_MADE,           /* heading of the count per named mistake */
    AS_MSG_CHK_MADE_LINE,      /* %s code, %zu students */
    AS_MSG_CHK_NO_MISTAKE,     /* a student line (or the class) with no named mistake */
    AS_MSG_CHK_ITEMS,          /* heading of the item analysis */
    AS_MSG_CHK_ITEM_LINE,      /* %s table, %zu right, %zu carried, %zu wrong, %s ITEM_MADE
                                * or "", %zu missing */
    AS_MSG_CHK_ITEM_MADE,      /* %s the wrong ones' mistakes, "no_scale 3、? 1" */
    AS_MSG_CHK_COL_MISSING,    /* column heading of the item analysis in Markdown */
    AS_MSG_CHK_UNREADABLE,     /* %s why: an answers file that cannot be read */
    AS_MSG_CHK_NOT_GRADED,     /* a student line whose file could not be graded */
    AS_MSG_CHK_COL_STUDENT,    /* column headings of the Markdown summary */
    AS_MSG_CHK_COL_SCORE,
    AS_MSG_CHK_COL_MISTAKES,
    AS_MSG_CHK_COL_TABLE,
    AS_MSG_CHK_COL_RESULT,
    AS_MSG_CHK_COL_DIAG,
    AS_MSG_CHK_COL_COUNT,
    AS_MSG_CHK_WORD_RIGHT,     /* a table's result in a Markdown cell */
    AS_MSG_CHK_WORD_WRONG,
    AS_MSG_CHK_WORD_CARRIED,
    AS_MSG_CHK_NO_ANSWERS,     /* %s a directory with no *.txt in it */
    AS_MSG_CHK_TOO_MANY,       /* %d the most answers files */
    AS_MSG_CHK_TOO_MANY_HINT,
    /* grad: the backward pass (SPEC §13) */
    AS_MSG_GRAD_NO_LOSS,        /* no dO and no loss in the file */
    AS_MSG_GRAD_HINT_NO_LOSS,
    AS_MSG_GRAD_BOTH,           /* %d line of the loss setting: dO and loss both given */
    AS_MSG_GRAD_HINT_BOTH,
    AS_MSG_GRAD_LOSS_UNKNOWN,   /* %s the loss as written */
    AS_MSG_GRAD_HINT_LOSS,
    AS_MSG_GRAD_HINT_LOSS_MEAN, /* %s sum or mse: did you mean */
    AS_MSG_GRAD_NO_TARGET,      /* loss: mse without target */
    AS_MSG_GRAD_TARGET_UNUSED,  /* target without loss: mse */
    AS_MSG_GRAD_HINT_TARGET_ONLY,
    AS_MSG_GRAD_SHAPE,          /* %s dO or target, %zu %zu its shape, %zu %zu O's shape */
    AS_MSG_GRAD_SHAPE_Y,        /* the same with a block: Y's shape */
    AS_MSG_GRAD_HINT_DO_SHAPE_Y,     /* dO has Y's shape (a block) */
    AS_MSG_GRAD_HINT_TARGET_SHAPE_Y, /* target has Y's shape (a block) */
    AS_MSG_GRAD_HINT_DO_SHAPE,
    AS_MSG_GRAD_HINT_TARGET_SHAPE,
    AS_MSG_GRAD_NO_MEMORY,
    AS_MSG_GRAD_BLOCK,          /* grad refuses block: (its backward steps are not taken yet) */
    AS_MSG_GRAD_HINT_BLOCK,
    AS_MSG_GRAD_INTRO,          /* the first line of grad's tables */
    AS_MSG_GRAD_LOSS_SUM,       /* %s "≈ 23.30…" (relation and value) */
    AS_MSG_GRAD_LOSS_MSE,       /* %s "≈ 1.5" */
    AS_MSG_GRAD_LOSS_GIVEN,     /* dO given in the file */
    AS_MSG_GRAD_BLOCK_INTRO,    /* grad of a block: the error starts at Y */
    AS_MSG_GRAD_LOSS_SUM_Y,     /* %s "= 4.5": the block's loss: sum, on Y */
    AS_MSG_GRAD_LOSS_MSE_Y,     /* %s "= 1.25": loss: mse on Y */
    AS_MSG_GRAD_LOSS_GIVEN_Y,   /* dO given in the file: with a block it is dY */
    AS_MSG_GRAD_NORM_LAYER,     /* torch LayerNorm's backward per row, in words */
    AS_MSG_GRAD_NORM_ANNOTATED, /* the annotated LayerNorm's backward */
    AS_MSG_GRAD_NORM_RMS,       /* RMSNorm's backward */
    AS_MSG_GRAD_NORM_NONE,      /* norm: none passes the gradient unchanged */
    AS_MSG_GRAD_RESIDUAL,       /* a residual add passes its gradient to both inputs */
    AS_MSG_GRAD_LAYOUT_TORCH,   /* the W gradients are in book layout */
    AS_MSG_GRAD_MASKED_ZERO,    /* caption of dS: masked cells get 0 */
    AS_MSG_GRAD_HEAD_SLICE,     /* %s "dC", %zu %zu first and last column */
    AS_MSG_GRAD_COLSUM,         /* %s the table: "dQ的列和" */
    AS_MSG_GRAD_ROPE,           /* %s "dQr₀", %s "dQ₀": RoPE's turn backwards, caption */
    AS_MSG_GRAD_PE,             /* %s "X" (or "N1", "Xkv") twice: PE is a constant */
    AS_MSG_GW_TITLE,            /* %s token, %zu row */
    AS_MSG_GW_GIVEN,            /* %s "a₁=[…]", %s "dO₁=[1,1]" */
    AS_MSG_GW_STEP1,            /* heading: dA */
    AS_MSG_GW_DA_ONE,           /* %s token, %s "dO₁·v₀ = 1×10+1×0 = 10" */
    AS_MSG_GW_DA_ALL,           /* %s "dA₁ = [10,20]" */
    AS_MSG_GW_STEP2,            /* heading: Σ dA⊙A */
    AS_MSG_GW_ROWDOT,           /* %s "Σ dA⊙A", %s "10×0.67 + 20×0.33 ≈ 13.3" */
    AS_MSG_GW_STEP3,            /* heading: dS, %s the sum */
    AS_MSG_GW_DS_ONE,           /* %s token, %s "dS₁₀ = 0.67×(10−13.3) ≈ -2.2" */
    AS_MSG_GW_DS_MASKED,        /* %s token, %s "dS₁₀": a masked cell */
    AS_MSG_GW_DS_ALL,           /* %s "dS₁ ≈ [...]" */
    AS_MSG_GW_STEP4,            /* heading: the scaling, %s "/√2" or "×0.5" */
    AS_MSG_GW_SCALED,           /* %s "d(QKᵀ)₁ = [...] ≈ [...]" */
    AS_MSG_GW_STEP5,            /* heading: into dQ */
    AS_MSG_GW_STEP5_ROPE,       /* heading: into dQr (rope) */
    AS_MSG_GW_DQ_CELL,          /* %zu column, %s the written-out sum */
    AS_MSG_GW_DQR_CELL,         /* the same for dqr (rope) */
    AS_MSG_GW_DQR_ROW,          /* %s token, %s "dqr₁ ≈ [...]" */
    AS_MSG_GW_TURN_BACK,        /* %s "dqr₁", %zu position, %s "dq₁": heading of the turn back */
    AS_MSG_GW_TURN_PAIR,        /* %zu pair, %zu %zu its cells, %s angle, %s the pair turned back */
    AS_MSG_GW_DQ_ROW,           /* %s "dq₁ ≈ [...]" */
    AS_MSG_GW_STEP6,            /* heading: into dK */
    AS_MSG_GW_STEP6_ROPE,       /* heading: into dKr (rope), then each turned back */
    AS_MSG_GW_DK_ROW,           /* %s token, %s "dk₀ = [...] ≈ [...]" */
    AS_MSG_GW_NEXT,             /* closing: what follows dQ and dK */
    AS_MSG_GW_NEXT_PE,          /* the same with sinusoidal positions: X + PE */
    /* ---- decode, online softmax, shared Keys, windows (issue 15, SPEC §11) ---- */
    AS_MSG_HEAD_TITLE_GQA, /* %zu head, %zu its K/V group, %zu heads in a group */
    AS_MSG_TR_HEAD_GQA,    /* %zu head, %zu %zu q columns, %zu group, %zu %zu k, %zu %zu v */
    AS_MSG_TR_RULE_WINDOW, /* %zu W, %zu W-1: the sliding-window reading rule */
    AS_MSG_TR_OUTSIDE,     /* %zu position, %s token, %zu W: too far back for the window */
    AS_MSG_TL_TITLE,       /* %zu B: the online softmax, blocks of B Keys */
    AS_MSG_TL_START,       /* %s −∞, %s the zero output */
    AS_MSG_TL_BLOCK,       /* %zu block, %s its positions, %s its scores */
    AS_MSG_TL_FIRST,       /* %s m: the first block, nothing to rescale */
    AS_MSG_TL_RISE,        /* %s m_old, %s m_new, %s the rescale factor */
    AS_MSG_TL_SAME,        /* %s m: the max did not rise, factor 1 */
    AS_MSG_TL_EXPS,        /* %s this block's exps */
    AS_MSG_TL_STATE,       /* %s m, %s ℓ, %s the running output */
    AS_MSG_TL_FINAL,       /* %s ℓ, %s the ordinary softmax's sum */
    AS_MSG_TL_SHARES,      /* %s the shares */
    AS_MSG_TL_OUTPUT,      /* %s the output row */
    AS_MSG_TL_ULP,         /* %s the largest difference in ulp */
    AS_MSG_TL_RUN,         /* %zu B: caption of run --tiles */
    AS_MSG_DC_INTRO,       /* what decode does */
    AS_MSG_DC_STEP,        /* %zu step, %s token */
    AS_MSG_DC_NEW,         /* the new row's projections */
    AS_MSG_DC_CACHE,       /* %zu rows: the cache so far */
    AS_MSG_DC_WINDOW,      /* %zu W: the window keeps only the last W rows */
    AS_MSG_DC_SHARES,      /* %s the shares */
    AS_MSG_DC_SAME,        /* %zu row: bit for bit run's row */
    AS_MSG_DC_DIFFERS,     /* %zu row: not bit for bit (never expected) */
    AS_MSG_DC_SAME_BLOCK,  /* %zu row: with block, O's and the block's rows bit for bit run's */
    AS_MSG_DC_DIFFERS_BLOCK, /* %zu row: with block, not bit for bit (never expected) */
    AS_MSG_DC_WORK,        /* %zu dots, %zu rows, %zu rows, %zu dots */
    AS_MSG_DC_TOTAL,       /* %zu rows, %zu dots, %zu rows, %zu dots */
    AS_MSG_DC_READS,       /* %s the cache rows read, by token */
    AS_MSG_DC_HEAD,        /* %zu heads: after a row of every head side by side */
    AS_MSG_DC_GROUP,       /* %zu groups: after a row of every K/V head side by side */
    AS_MSG_DECODE_CROSS,   /* decode refuses cross-attention */
    AS_MSG_HINT_DECODE_CROSS,
    AS_MSG_DC_BLOCK_NORM,  /* decode with block: pre: the row's N1 before the projections */
    AS_MSG_DC_BLOCK_REST,  /* decode with block: the block's rows after the attention's */
    AS_MSG_DECODE_FUTURE,  /* %zu row, %zu position, %zu row: the mask reads the future */
    AS_MSG_HINT_DECODE_FUTURE,
    /* positions (SPEC §12) */
    AS_MSG_POS_PE_ROW,     /* %zu row, %zu its position */
    AS_MSG_POS_PE_NOTE,    /* %zu %zu d_model twice: the sinusoidal formula */
    AS_MSG_POS_ROPE_NOTE,  /* %s "p·θᵢ", %s "θᵢ = 10000^(−2i/2)", %s the pairing (below) */
    AS_MSG_POS_ROPE_HALF,  /* rope: half */
    AS_MSG_POS_ROPE_INTER, /* rope: interleaved */
    AS_MSG_POS_ALIBI_NOTE, /* %s "−m·(i−j)", %s this head's slope */
    AS_MSG_POS_OFFSET,     /* %zu the position of row 0 */
    AS_MSG_POS_TR_PE,      /* %s "xp₀ = x₀ + PE₀ = [..] + [..] = [..]" */
    AS_MSG_POS_TR_PE_ROW,  /* %s "PE₀ = [sin(0/10000^(0/2)), ...] = [..]" */
    AS_MSG_POS_TR_ROPE,    /* %s "p·θᵢ", %s "θᵢ = 10000^(−2i/2)": heading of the turning */
    AS_MSG_POS_TR_PAIR,    /* %s "q₁", %zu pair, %zu %zu its columns, %s angle, %s cos, %s sin */
    AS_MSG_POS_TR_TURNED,  /* %s "[1, 0] → [...] ≈ [...]" */
    AS_MSG_POS_TR_KEY,     /* %s "k₀", %zu its position, %s "kr₀ = [..]" */
    AS_MSG_POS_TR_RELATIVE,/* %s "QKᵀ": why --offset leaves it unchanged */
    AS_MSG_POS_TR_ALIBI,   /* %s slope, %s "−m·(1−j)", %s the sums */
    /* ---- compare: each kind of change its own sentence, tables before and after
     * (issue 12, SPEC §8) ---- */
    AS_MSG_WHY_MASK,       /* reason: only the mask changed */
    AS_MSG_WHY_SCALE,      /* reason: only the scale changed */
    AS_MSG_CMP_BEFORE,     /* caption over the base's table */
    AS_MSG_CMP_AFTER,      /* caption over the variant's table */
    AS_MSG_CMP_TOO_BIG,    /* %s table, %zu %zu its shape: too big to print side by side */
    /* ---- the book pasted as printed (issue 12, SPEC §2) ---- */
    AS_MSG_RD_SHAPE_FORM,     /* a shape line that is not 形状：[rows,cols] */
    AS_MSG_RD_SHAPE_FIRST,    /* a shape line before any matrix */
    AS_MSG_RD_SHAPE_DIFFERS,  /* %zu %zu the shape written, %s matrix, %zu %zu its shape */
    AS_MSG_RD_SHAPE_TOO_LARGE,/* %s the number written, %s matrix, %zu %zu its shape */
    AS_MSG_RD_SHAPE_HINT,     /* hint: how a shape line is written */
    AS_MSG_RD_SHAPE_HINT_ROWS,/* hint: what the two numbers of a shape count */
    AS_MSG_CHK_OTHER_PROBLEM,     /* a given table (X, Wq ...) in ANSWERS is not the problem's */
    AS_MSG_CHK_OTHER_PROBLEM_HINT,/* hint: which problem the answers are checked against */
    /* output that streams (issue 20) */
    AS_MSG_HUGE_OUTPUT,    /* %zu numbers: the note before printing more than 10^7 of them */
    AS_MSG_NOTE_ALIBI_UNMASKED, /* ALiBi with mask: none rewards far later tokens */
    /* ---- practice: a tutor in the terminal (issue 18, SPEC §14) ---- */
    AS_MSG_CMD_PRACTICE,      /* --help: what practice does */
    AS_MSG_CMD_ARGS_PRACTICE, /* --help: its arguments */
    AS_MSG_PR_INTRO,          /* %s "1/√2": how to answer */
    AS_MSG_PR_TABLE,          /* %s the table: heading before its cells */
    AS_MSG_PR_FROM,           /* %s what a cell is made of */
    AS_MSG_PR_PAIR,           /* %s %s %s %s: "q₁ = [1,0]，k₀ = [1,0]" */
    AS_MSG_PR_COLUMN,         /* %s table, %zu column: "Wq第0列" */
    AS_MSG_PR_BIAS,           /* %s "bq₀", %s its value: appended to a projection's line */
    AS_MSG_PR_ALIBI,          /* %s −, %s slope, %s ×, %zu i, %s −, %zu j, %s the bias:
                               * ALiBi's term of an S cell (the symbols for --ascii) */
    AS_MSG_PR_ROPE,           /* %s row name, %s row, %zu pair, %zu %zu its columns, %zu the
                               * position twice, %s ×, %s θ, %s angle, %s cos, %s sin: a
                               * RoPE cell's parts */
    AS_MSG_PR_SCALE,          /* "缩放系数" (a custom scale) */
    AS_MSG_PR_ROW_SCORES,     /* %zu row, %s the vector: the row's scaled scores */
    AS_MSG_PR_KEPT_LOGITS,
    AS_MSG_PR_PROB_OF,
    AS_MSG_PR_NAME_TEMPERATURE_AFTER_SOFTMAX,
    AS_MSG_PR_NAME_TOPP_DROPS_CROSSING,
    AS_MSG_PR_NAME_TOPK_BEFORE_TEMPERATURE,
    AS_MSG_PR_SHARE,          /* %s "exp(0)", %s value, %s the row's sum, %s the share */
    AS_MSG_PR_PROMPT,         /* %s table, %zu %zu the cell */
    AS_MSG_PR_GIVEN,          /* %s table, %zu %zu the cell, %s its value: fixed by the mask */
    AS_MSG_PR_GIVEN_CUT,       /* as PR_GIVEN: a token the head's cuts took away */
    AS_MSG_PR_RIGHT,          /* an answer judged right */
    AS_MSG_PR_ARITH,          /* %s the arithmetic, %s the student's number */
    AS_MSG_PR_MISTAKE,        /* %s the student's number, %s the mistake's teaching sentence */
    AS_MSG_PR_ALSO,           /* %s the other mistakes that fit, in words ("没有加掩码或…") */
    AS_MSG_PR_TRANSPOSED,     /* %s number, %s table, %zu %zu the swapped cell, %zu %zu this one */
    AS_MSG_PR_WORKED,         /* %s the cell's arithmetic, %s the student's number: after a mistake */
    AS_MSG_PR_EARLY_ROUNDING, /* %s typed, %d the decimals A was rounded to */
    AS_MSG_PR_EARLY_SCORES,   /* %s typed, %d the decimals S was rounded to */
    AS_MSG_PR_EARLY_EXPS,     /* %s typed, %d the decimals the exponentials were rounded to */
    AS_MSG_PR_EARLY_SCALE,    /* %s typed, %s the number rounded (√d_k), %s what to */
    AS_MSG_PR_ROPE_UNTURNED,  /* %s typed: the number before RoPE's turn */
    AS_MSG_PR_ROPE_PAIRING,   /* %s typed, %s the pairing used, %s the problem's, %zu %zu its pair */
    AS_MSG_PR_ROPE_BACKWARDS, /* %s typed: the pair turned the other way */
    AS_MSG_PR_ALIBI_NO_SLOPE, /* %s typed, %s the head's slope */
    AS_MSG_PR_ALIBI_NO_BIAS,  /* %s typed: the bias left out */
    AS_MSG_PR_ALIBI_SIGN,     /* %s typed: the bias with its sign turned round */
    /* a mistake named in a few words, for "also" (SPEC §6, without its code) */
    AS_MSG_PR_NAME_NO_SCALE,
    AS_MSG_PR_NAME_SCALE_MULT,
    AS_MSG_PR_NAME_SCALE_BY_DK,
    AS_MSG_PR_NAME_NO_MASK,
    AS_MSG_PR_NAME_MASKED_ZERO,
    AS_MSG_PR_NAME_INVERTED_MASK,
    AS_MSG_PR_NAME_MASK_AFTER_SOFTMAX,
    AS_MSG_PR_NAME_NO_NORMALIZE,
    AS_MSG_PR_NAME_SOFTMAX_COLUMNS,
    AS_MSG_PR_NAME_TRANSPOSED,
    AS_MSG_PR_NAME_KEYS_FOR_VALUES,
    AS_MSG_PR_NAME_WRONG_WEIGHTS,
    AS_MSG_PR_NAME_TORCH_LAYOUT,
    AS_MSG_PR_AGAIN,          /* %d tries left (2 or more) */
    AS_MSG_PR_AGAIN_LAST,     /* one try left */
    AS_MSG_PR_REVEAL,         /* %s table, %zu %zu cell, %s its value */
    AS_MSG_PR_NOT_NUMBER,     /* %s what was typed */
    AS_MSG_PR_SCORE,          /* %zu right, %zu asked */
    AS_MSG_PR_MISSED,         /* %s the cells missed */
    AS_MSG_PR_ALL_RIGHT,      /* every cell right */
    AS_MSG_PR_STOPPED,        /* %zu cells not done */
    AS_MSG_USE_PRACTICE_SOURCE, /* practice without FILE or --seed */
    AS_MSG_USE_PRACTICE_HEAD, /* %ld --head, %zu the heads, %zu the last head */
    AS_MSG_USE_PRACTICE_STDIN, /* practice FILE given as - */
    AS_MSG_USE_PRACTICE_ONLY, /* %s the table --only named that practice does not ask */
    AS_MSG_USE_STEP_TRACE,    /* %s: trace --step takes 1 to 4 */
    /* the read layer: errors of reader.c in the user's language (issue 12) */
    AS_MSG_RD_OUT_OF_MEMORY,
    AS_MSG_RD_OUT_OF_MEMORY_HINT,
    AS_MSG_RD_NUMBER_TOO_LARGE,
    AS_MSG_RD_NUMBER_TOO_LARGE_HINT,
    AS_MSG_RD_DIVIDES_BY_ZERO,
    AS_MSG_RD_DIVIDES_BY_ZERO_HINT,
    AS_MSG_RD_TOO_MANY_ROWS,
    AS_MSG_RD_TOO_MANY_COLUMNS,
    AS_MSG_RD_TOO_MANY_NUMBERS,
    AS_MSG_RD_TOO_LARGE_HINT,
    AS_MSG_RD_EMPTY_ROW,
    AS_MSG_RD_EMPTY_ROW_HINT,
    AS_MSG_RD_ROW_WIDTH_ONE,
    AS_MSG_RD_ROW_WIDTH,
    AS_MSG_RD_ROW_WIDTH_HINT,
    AS_MSG_RD_UNEXPECTED_IN,
    AS_MSG_RD_PLAIN_ROWS_HINT,
    AS_MSG_RD_SEPARATED_HINT,
    AS_MSG_RD_NOT_ALLOWED_IN,
    AS_MSG_RD_NAN_HINT,
    AS_MSG_RD_WORD_INSIDE,
    AS_MSG_RD_UNEXPECTED_INSIDE,
    AS_MSG_RD_NOTE_HINT,
    AS_MSG_RD_NOT_A_NUMBER,
    AS_MSG_RD_FULL_STOP_NUMBER, /* %s the token: "0。5", a Chinese full stop for the point */
    AS_MSG_RD_FULL_STOP_HINT,   /* %s the number written with "." */
    AS_MSG_RD_NUMBER_FORM_HINT,
    AS_MSG_RD_INF_ONLY_IN_MASK,
    AS_MSG_RD_INF_ONLY_IN_MASK_HINT,
    AS_MSG_RD_INF_MUST_BE_NEGATIVE,
    AS_MSG_RD_INF_MUST_BE_NEGATIVE_HINT,
    AS_MSG_RD_TOO_DEEP,
    AS_MSG_RD_LIST_OF_ROWS_HINT,
    AS_MSG_RD_UNEXPECTED_COMMA,
    AS_MSG_RD_COMMA_NUMBERS_HINT,
    AS_MSG_RD_COMMA_ROWS_HINT,
    AS_MSG_RD_NUMBER_OUTSIDE_ROW,
    AS_MSG_RD_ONE_ROW_HINT,
    AS_MSG_RD_OWN_BRACKETS_HINT,
    AS_MSG_RD_EMPTY_MATRIX,
    AS_MSG_RD_EMPTY_MATRIX_HINT,
    AS_MSG_RD_TOO_MANY_SIDE_BY_SIDE,
    AS_MSG_RD_TOO_MANY_SIDE_BY_SIDE_HINT,
    AS_MSG_RD_UNCLOSED_AT_END,
    AS_MSG_RD_UNCLOSED_AT_LINE,
    AS_MSG_RD_UNCLOSED_HINT,
    AS_MSG_RD_MORE_PIECES,
    AS_MSG_RD_MORE_PIECES_HINT,
    AS_MSG_RD_TEXT_AFTER,
    AS_MSG_RD_TEXT_AFTER_HINT,
    AS_MSG_RD_OUTSIDE,
    AS_MSG_RD_NAME_FIRST_HINT,
    AS_MSG_RD_UNEXPECTED_TEXT,
    AS_MSG_RD_LINE_KINDS_HINT,
    AS_MSG_RD_TWO_COMMAS,
    /* load(): errors of load.c (issue 12) */
    AS_MSG_LD_PLAIN_ROWS_HINT,
    AS_MSG_LD_FILE_EMPTY,
    AS_MSG_LD_NO_NUMBERS,
    AS_MSG_LD_CANNOT_LOAD,
    AS_MSG_LD_RELATIVE_HINT,
    AS_MSG_LD_WRITE_HINT,
    AS_MSG_LD_OPEN_PAREN,
    AS_MSG_LD_NAME_IN_QUOTES,
    AS_MSG_LD_NO_CLOSING_QUOTE,
    AS_MSG_LD_EMPTY_NAME,
    AS_MSG_LD_CLOSE_PAREN,
    /* statements and settings: errors of parse.c (issue 12) */
    AS_MSG_PS_TOO_MANY_LABELS,
    AS_MSG_PS_TOO_MANY_LABELS_HINT,
    AS_MSG_PS_NOT_POSITIVE_WHOLE,
    AS_MSG_PS_WHOLE_TOO_LARGE,
    AS_MSG_PS_WHAT_KV_HEADS,
    AS_MSG_PS_WHAT_HEADS,
    AS_MSG_PS_WHAT_WINDOW,
    AS_MSG_PS_KV_HEADS_HINT,
    AS_MSG_PS_KV_HEADS_BIG_HINT,
    AS_MSG_PS_HEADS_HINT,
    AS_MSG_PS_HEADS_BIG_HINT,
    AS_MSG_PS_WINDOW_HINT,
    AS_MSG_PS_WINDOW_BIG_HINT,
    AS_MSG_PS_SCALE_HINT,
    AS_MSG_PS_SCALE_NOT_NUMBER,
    AS_MSG_PS_SCALE_NOT_FINITE,
    AS_MSG_PS_ROPE_BASE_HINT,
    AS_MSG_PS_ROPE_BASE_BAD,
    AS_MSG_PS_ROPE_PAIRING_HINT,
    AS_MSG_PS_ROPE_PAIRING_UNKNOWN,
    AS_MSG_PS_POSITIONS_HINT,
    AS_MSG_PS_POSITIONS_UNKNOWN,
    AS_MSG_PS_BLOCK_UNKNOWN,
    AS_MSG_PS_BLOCK_HINT,
    AS_MSG_PS_NORM_UNKNOWN,
    AS_MSG_PS_NORM_HINT,
    AS_MSG_PS_NORM_STYLE_UNKNOWN,
    AS_MSG_PS_NORM_STYLE_HINT,
    AS_MSG_PS_FFN_UNKNOWN,
    AS_MSG_PS_FFN_HINT,
    AS_MSG_PS_NORM_EPS_BAD,
    AS_MSG_PS_NORM_EPS_HINT,
    /* parse.c: the output head's settings (SPEC §19) */
    AS_MSG_PS_HEAD_UNKNOWN,     /* %s: the word */
    AS_MSG_PS_HEAD_HINT,
    AS_MSG_PS_TEMPERATURE_BAD,  /* %s: the value */
    AS_MSG_PS_TEMPERATURE_HINT,
    AS_MSG_PS_TOP_P_BAD,        /* %s: the value */
    AS_MSG_PS_TOP_P_HINT,
    AS_MSG_PS_WHAT_TOP_K,
    AS_MSG_PS_TOP_K_HINT,
    AS_MSG_PS_SAMPLE_BAD,       /* %s: the value */
    AS_MSG_PS_SAMPLE_HINT,
    AS_MSG_PS_HEAD_TABLE_BIG,   /* %s E or P, %zu %zu its shape, %zu rows, %zu cells: the limits */
    AS_MSG_PS_HEAD_TABLE_BIG_HINT,
    AS_MSG_PS_CONTROL_CHAR,
    AS_MSG_PS_CONTROL_CHAR_HINT,
    AS_MSG_PS_BIDI,          /* %04X the code point */
    AS_MSG_PS_BIDI_HINT,
    AS_MSG_PS_SETTING_TWICE,
    AS_MSG_PS_SETTING_TWICE_HINT,
    AS_MSG_PS_NO_VALUE,
    AS_MSG_PS_NO_VALUE_HINT,
    AS_MSG_PS_NO_EQUALS,
    AS_MSG_PS_MATRIX_FORM_HINT,
    AS_MSG_PS_NO_COLON,
    AS_MSG_PS_SETTING_FORM_HINT,
    AS_MSG_PS_MATRIX_TWICE,
    AS_MSG_PS_MATRIX_TWICE_HINT,
    AS_MSG_PS_PASTE_NUMBERS_HINT,
    AS_MSG_PS_PASTE_TENSOR_HINT, /* %s matrix: tensor([[…]]) pasted from PyTorch */
    AS_MSG_PS_SAME_LINE_HINT,
    AS_MSG_PS_NO_TABLE,
    AS_MSG_PS_SETTING_NOT_FIRST,
    AS_MSG_PS_SETTING_NOT_FIRST_HINT,
    AS_MSG_PS_NEED_HINT,
    AS_MSG_PS_NO_STATEMENTS,
    AS_MSG_PS_A_DIRECTORY,
    AS_MSG_PS_A_DIRECTORY_HINT,
    AS_MSG_PS_CANNOT_READ,
    AS_MSG_PS_CHECK_PATH_HINT,
    AS_MSG_PS_NOT_REGULAR_HINT,
    /* ANSWERS: errors of answers.c and the name errors of check.c (issue 12) */
    AS_MSG_CHK_NAMED,
    AS_MSG_CHK_NO_SUCH_HEAD,
    AS_MSG_CHK_NO_SUCH_HEAD_HINT,
    AS_MSG_CHK_WHOSE_HEAD,
    AS_MSG_CHK_WHOSE_HEAD_HINT,
    AS_MSG_CHK_NO_SUCH_TABLE,
    AS_MSG_CHK_NO_SUCH_TABLE_HINT,
    AS_MSG_CHK_NO_SUCH_ROW,
    AS_MSG_CHK_NO_SUCH_ROW_HINT,
    AS_MSG_CHK_GIVEN_TWICE,
    AS_MSG_CHK_GIVEN_TWICE_HINT,
    AS_MSG_ANS_NO_EQUALS,
    AS_MSG_ANS_NO_TABLE,
    AS_MSG_ANS_SAME_LINE_HINT,
    /* ---- compare: a head the variant does not have; the "=" of an answer (issue 20) ---- */
    AS_MSG_CMP_NO_HEAD,    /* %s table */
    AS_MSG_ANS_NO_EQUALS_HINT,
    /* ---- exercise: sizes no draw can fit, refused before drawing (issue 20) ---- */
    AS_MSG_EX_WIDTH_ONE, AS_MSG_HINT_EX_WIDTH_ONE, /* --width 1 */
    /* ---- check: decode's rows and the online softmax's (issue 15) ---- */
    AS_MSG_CHK_TEACH_S,    /* a wrong row of scaled scores: how one is made */
    AS_MSG_CHK_TEACH_A,    /* a wrong row of shares */
    AS_MSG_CHK_TEACH_O,    /* a wrong output row */
    AS_MSG_CHK_TEACH_CACHE,/* a wrong KV cache (K[:t+1], V[:t+1]) */
    AS_MSG_CHK_TEACH_M,    /* a wrong running max */
    AS_MSG_CHK_TEACH_L,    /* a wrong running sum ℓ */
    AS_MSG_CHK_TEACH_F,    /* a wrong rescale factor */
    AS_MSG_CHK_TEACH_BLOCKS, /* %zu blocks: a row of m, ℓ or f with as many cells as blocks */
    /* ---- verify: checking a book's printed numbers (SPEC §18, issue 34) ---- */
    AS_MSG_CMD_VERIFY,     /* --help: what verify does */
    AS_MSG_VF_NOT_GIVEN,   /* %s: a table the chapter must print (X, Wq, Wk, Wv) */
    AS_MSG_VF_NOT_GIVEN_HINT,
    AS_MSG_VF_MISFIT,      /* %s name, %zu x %zu printed, %zu x %zu the run's table */
    AS_MSG_VF_MISFIT_HINT,
    AS_MSG_VF_CELL,        /* %s name, %ld row, %ld column: a cell of a printed table */
    AS_MSG_VF_ROW_CELL,    /* %s name, %ld column: a number of a printed row */
    AS_MSG_VF_TOKEN,       /* %s name, %ld row: a norm's one number for a token (μ, σ²) */
    AS_MSG_VF_AGREES,
    AS_MSG_VF_TRUNCATED,   /* %s the right value */
    AS_MSG_VF_ROUNDED,     /* %s the right value */
    AS_MSG_VF_WRONG,       /* %s the right value */
    AS_MSG_VF_VARIANT,     /* %s the mistake explained (never its code: JSON has it) */
    AS_MSG_VF_CARRIED,     /* %s the misprinted table, %d:%d its place, %s the true value */
    AS_MSG_VF_PE_BASE_100, /* a PE table made with base 100 (explained as a mistake) */
    AS_MSG_VF_PE_SWAPPED,  /* a PE table with sin and cos swapped */
    AS_MSG_VF_LN_UNBIASED, /* a LayerNorm with σ² ÷ (d−1) */
    AS_MSG_VF_LN_EPS_OUTSIDE, /* a LayerNorm with ε added to σ */
    AS_MSG_VF_LN_ANNOTATED,   /* both: the Annotated Transformer's form */
    AS_MSG_VF_ROPE_PAIRING,   /* RoPE's pairs taken the other way */
    AS_MSG_VF_ALIBI_SIGN,     /* ALiBi's bias with its sign turned */
    AS_MSG_VF_COUNT_CLEAN, /* %zu numbers checked */
    AS_MSG_VF_COUNT,       /* %zu checked, %zu agree, %zu do not */
    AS_MSG_VF_MD_TITLE,    /* %s the chapter's file */
    AS_MSG_VF_MD_HEAD,     /* the erratum table's header row */
    /* ---- a class's hand-outs and its grading in one command (issue 28, SPEC §6, §7) ---- */
    AS_MSG_SHEET_LEVEL_ONLY,   /* %d level: a student's sheet, which names no seed */
    AS_MSG_CLS_UNREADABLE,     /* %s why: DIR/teacher/class.tsv cannot be read */
    AS_MSG_CLS_HINT,           /* what --class DIR wants */
    AS_MSG_CLS_BAD_LINE,       /* a line of class.tsv without its 5 fields */
    AS_MSG_CLS_NO_STUDENT,     /* an answers file that matches no student of the class */
    AS_MSG_CLS_NO_STUDENT_HINT,
    AS_MSG_CLS_TWICE,          /* %s the other file: a second answers file for one student */
    AS_MSG_CLS_TWICE_HINT,
    AS_MSG_CLS_COPIED,         /* %s variant id, %s its student: copied_variant */
    AS_MSG_CLS_NOT_HANDED_IN,  /* %s names: students of the class with no answers file */
    AS_MSG_CLS_NOT_HANDED_IN_MORE, /* after that list when it is cut: how many more */
    AS_MSG_CHK_EXPECT_UNKNOWN, /* %s a word of --expect that names no table */
    AS_MSG_CHK_EXPECT_UNKNOWN_HINT,
    /* ---- the page: --format html (issue 33) ---- */
    AS_MSG_USE_PREDICT_HTML, AS_MSG_HINT_PREDICT_HTML, /* --predict without --format html */
    AS_MSG_HTML_NEXT,      /* the button that shows the next step */
    AS_MSG_HTML_ALL,       /* the button that shows every step */
    AS_MSG_HTML_KEYS,      /* how to move through the page by keyboard */
    AS_MSG_HTML_KEYS_STEPS,/* the same for a page without grids (check's class report) */
    AS_MSG_HTML_CELL,      /* %s table, %zu row, %zu column, %s value: a cell no trace line makes */
    AS_MSG_HTML_LEGEND,    /* the heatmap's legend */
    AS_MSG_HTML_SHADED_BY, /* S: shaded by the share its cell becomes */
    AS_MSG_HTML_PREDICT,   /* --predict: what to do */
    AS_MSG_HTML_GUESS,     /* --predict: the label of a cell's guess box */
    AS_MSG_HTML_RIGHT,     /* --predict: a right guess */
    AS_MSG_HTML_WRONG,     /* --predict: a wrong guess */
    AS_MSG_HTML_LINES,     /* trace: the heading of a table's lines */
    AS_MSG_HTML_T_X, AS_MSG_HTML_T_W, AS_MSG_HTML_T_Q, AS_MSG_HTML_T_K, AS_MSG_HTML_T_V,
    AS_MSG_HTML_T_QKT, AS_MSG_HTML_T_M, AS_MSG_HTML_T_S, AS_MSG_HTML_T_A, AS_MSG_HTML_T_O,
    AS_MSG_HTML_T_C,       /* what each table is, under its name */
    AS_MSG_HTML_T_N1, AS_MSG_HTML_T_H1, AS_MSG_HTML_T_N2, AS_MSG_HTML_T_U, AS_MSG_HTML_T_G,
    AS_MSG_HTML_T_F, AS_MSG_HTML_T_D, AS_MSG_HTML_T_H2,
    AS_MSG_HTML_T_Y,       /* what each of the block's tables is (SPEC §15) */
    AS_MSG_HTML_NORM_MEAN, AS_MSG_HTML_NORM_VAR, AS_MSG_HTML_NORM_DIV,
    AS_MSG_HTML_NORM_XHAT, /* a norm's sub-steps, above their grids */
    AS_MSG_HTML_DC_TITLE,  /* decode's page: its heading */
    AS_MSG_HTML_DC_NEW,    /* decode: the new row's q, k, v */
    AS_MSG_HTML_DC_CACHE,  /* %zu rows: the cache so far */
    AS_MSG_HTML_DC_ROW,    /* decode: the row's scores, shares and output */
    AS_MSG_HTML_GRAD_TITLE,/* grad's page: its heading */
    AS_MSG_HTML_GRAD_WALK, /* grad's page: the step of the softmax backward written out */
    AS_MSG_USE_PAGE_TOO_BIG, /* %zu the page's cells, %zu the most a page holds */
    AS_MSG_HINT_PAGE_TOO_BIG_ONLY,  /* run: --only, fewer tokens, text or JSON */
    AS_MSG_HINT_PAGE_TOO_BIG_TRACE, /* trace: fewer tokens, the text walk of one row */
    AS_MSG_HINT_PAGE_TOO_BIG_WALK,  /* grad, decode: fewer tokens, text or JSON */
    AS_MSG_HINT_PAGE_TOO_BIG_TILES, /* --tiles: larger blocks, one row walked, text or JSON */
    AS_MSG_HTML_TL_TITLE,  /* %zu B: the tiles page's heading */
    AS_MSG_HTML_TL_ROW,    /* %zu row, %s its token, %zu head: one walked row's blocks */
    AS_MSG_HTML_TL_COLS,   /* what each row of the blocks' grid holds */
    AS_MSG_HTML_TL_END,    /* the row's final shares, as the ordinary softmax's */
    AS_MSG_HTML_CK_TITLE,  /* check's class page: its heading */
    AS_MSG_HTML_CK_BOOK,   /* the gradebook's step */
    AS_MSG_HTML_CK_ITEMS,  /* the item analysis' step */
    AS_MSG_HTML_CK_WRONG,  /* %s student: the step of their wrong cells */
    AS_MSG_HTML_CK_NONE,   /* a student with no wrong cell */
    /* ---- binary weight files: .npy, .npz, .safetensors, slices, weights (issue 32) ---- */
    AS_MSG_BIN_AT,   /* %s file, %llu byte, %s what: an error inside a binary weight file */
    AS_MSG_BIN_TENSOR_AT,   /* %s file, %s tensor, %llu byte, %s what */
    AS_MSG_BIN_UNREADABLE,   /* %llu bytes that could not be read */
    AS_MSG_BIN_PAST_END,   /* %s what (a BIN_PART_*), %llu its end, %llu the file's size */
    AS_MSG_BIN_PART_HEADER,   /* the header (of a file) */
    AS_MSG_BIN_PART_DATA,   /* the data (of a tensor) */
    AS_MSG_BIN_PART_MEMBER,   /* a member of a ZIP */
    AS_MSG_BIN_PART_DIR,   /* the central directory of a ZIP */
    AS_MSG_BIN_TRUNCATED_HINT,   /* a file cut short */
    AS_MSG_BIN_NPY_VERSION,   /* %u %u: the version numpy's header gives */
    AS_MSG_BIN_NPY_VERSION_HINT,
    AS_MSG_BIN_NPY_HEADER,   /* %s the text where the header stops making sense */
    AS_MSG_BIN_NPY_HEADER_HINT,
    AS_MSG_BIN_DTYPE,   /* %s the dtype, %s the dtypes read */
    AS_MSG_BIN_DTYPE_HINT,
    AS_MSG_BIN_DIMS,   /* %s the shape */
    AS_MSG_BIN_DIMS_HINT,
    AS_MSG_BIN_TOO_MANY_DIMS,   /* %d the most dimensions read */
    AS_MSG_BIN_EMPTY,   /* %s the shape */
    AS_MSG_BIN_SIZE,   /* %s shape, %s dtype, %llu bytes needed, %llu bytes given */
    AS_MSG_BIN_OVERLAP,   /* %s the other tensor */
    AS_MSG_BIN_NOT_FINITE,   /* %llu row, %llu column, %s the value */
    AS_MSG_BIN_NAN_HINT,
    AS_MSG_BIN_ZIP_NO_END,
    AS_MSG_BIN_ZIP_BAD_DIR,
    AS_MSG_BIN_ZIP_BAD_LOCAL,
    AS_MSG_BIN_ZIP_COMPRESSED,
    AS_MSG_BIN_JSON_KEYS,   /* the keys of a safetensors tensor */
    AS_MSG_BIN_ZIP_COMPRESSED_HINT,
    AS_MSG_BIN_NO_TENSOR,   /* %s the name asked for, %s the names there are */
    AS_MSG_BIN_NO_TENSORS,   /* a file of no tensor at all */
    AS_MSG_BIN_LIST_HINT,   /* %s the file */
    AS_MSG_BIN_WHICH,   /* %zu tensors */
    AS_MSG_BIN_WHICH_HINT,   /* %s file, %s the first tensor */
    AS_MSG_BIN_ONE_ONLY,   /* %s the file */
    AS_MSG_BIN_ONE_ONLY_HINT,   /* %s the file */
    AS_MSG_BIN_JSON,   /* %s what was expected, %s what is there */
    AS_MSG_BIN_JSON_HINT,
    AS_MSG_BIN_JSON_STRING,
    AS_MSG_BIN_JSON_INTEGER,
    AS_MSG_BIN_JSON_OBJECT,
    AS_MSG_BIN_JSON_NEXT,
    AS_MSG_BIN_JSON_COLON,
    AS_MSG_BIN_JSON_TWO,   /* the two data_offsets */
    AS_MSG_BIN_JSON_VALUE,
    AS_MSG_BIN_JSON_MISSING,   /* %s the key */
    AS_MSG_BIN_META,
    AS_MSG_BIN_OFFSETS,   /* %llu begin, %llu end */
    AS_MSG_LD_SLICE_SYNTAX,   /* %s the text where a slice was expected */
    AS_MSG_LD_SLICE_INDEX_HUGE,/* %s an index of a slice beyond 2^62, as written */
    AS_MSG_LD_SLICE_UNCLOSED, /* a slice the line ends inside */
    AS_MSG_LD_SLICE_HINT,
    AS_MSG_LD_SLICE_OUTSIDE,   /* %s the slice, %s the shape */
    AS_MSG_LD_SLICE_OUTSIDE_HINT,
    AS_MSG_LD_SLICE_1D,   /* %s the shape */
    AS_MSG_WT_NOT_BINARY,   /* %s the file */
    AS_MSG_WT_NOT_BINARY_HINT,
    AS_MSG_WT_COLUMNS,   /* the heading of the columns of `weights` */
    AS_MSG_WT_SUMMARY,   /* %s format, %zu tensors, %llu bytes */
    AS_MSG_CMD_WEIGHTS,   /* --help: what `weights` does */
    AS_MSG_BIN_HEADER_TOO_LONG,   /* %llu the header's length, %llu the most read */
    AS_MSG_BIN_FILE,   /* %s file, %s what: an error about a binary weight file as a whole */
    AS_MSG_BIN_REWRITE_HINT,
    /* ids: through the embedding table E and the positions P (SPEC §16, F05) */
    AS_MSG_LD_CHANGED,         /* why a file indexed before cannot be read now */
    AS_MSG_EMB_NOT_ID,         /* %s the text that is no id */
    AS_MSG_EMB_ID_HUGE,        /* %s an id of 2^40 or more, as written */
    AS_MSG_EMB_ID_HINT,
    AS_MSG_EMB_TOO_MANY,       /* %zu the most */
    AS_MSG_EMB_NO_E,
    AS_MSG_EMB_NO_E_HINT,
    AS_MSG_EMB_NO_IDS,         /* %s E or P */
    AS_MSG_EMB_NO_IDS_HINT,    /* %s E or P */
    AS_MSG_EMB_WITH_X,
    AS_MSG_EMB_WITH_X_HINT,
    AS_MSG_EMB_ID_OUTSIDE,     /* %zu the id, %zu E's rows, %zu its last row */
    AS_MSG_EMB_ID_OUTSIDE_HINT,
    AS_MSG_EMB_TOO_LONG,       /* %zu ids, %zu P's rows, %zu its last row */
    AS_MSG_EMB_TOO_LONG_HINT,
    AS_MSG_EMB_WIDTHS,         /* %zu E's width, %zu P's */
    AS_MSG_EMB_WIDTHS_HINT,
    AS_MSG_EMB_ROW,            /* %zu row of E[ids], %zu the row of E it is */
    AS_MSG_EMB_POS_ROW,        /* %zu row of P[0:n], %zu its position */
    AS_MSG_EMB_NOTE,           /* %zu E's rows, %zu its width, %zu the rows kept */
    AS_MSG_EMB_P_NOTE,         /* %zu P's rows */
    AS_MSG_EMB_TR_INTRO,       /* the walk's first step, without P */
    AS_MSG_EMB_TR_INTRO_P,     /* with P */
    AS_MSG_EMB_TR_ROW,         /* %s token, %zu its id, %s "x₀ = E[40] + P[0] = [..] + [..] = [..]" */
    /* model: "FILE" layer N with preset: gpt2|llama (SPEC §16) */
    AS_MSG_PRE_PACKED,         /* %s the shape of a c_attn that does not split in three */
    AS_MSG_PRE_PACKED_HINT,
    AS_MSG_PRE_NO_LAYERS,      /* %s the preset, %s the name of its first tensor */
    AS_MSG_PRE_NO_LAYERS_HINT, /* %s the file */
    AS_MSG_PRE_CONFIG_VALUE,   /* %s config.json, %s the key */
    AS_MSG_PRE_CONFIG_HINT,
    AS_MSG_PRE_MODEL_SYNTAX,   /* %s what stands there */
    AS_MSG_PRE_MODEL_HINT,
    AS_MSG_PRE_UNKNOWN,        /* %s the word */
    AS_MSG_PRE_UNKNOWN_HINT,
    AS_MSG_PRE_NEED_PRESET,
    AS_MSG_PRE_NEED_PRESET_HINT,
    AS_MSG_PRE_NEED_MODEL,
    AS_MSG_PRE_NEED_MODEL_HINT,
    AS_MSG_PRE_LAYER_BEYOND,   /* %zu the layer, %zu the model's layers, %zu its last */
    AS_MSG_PRE_LAYER_HINT,
    AS_MSG_PRE_LAYERS_INTRO,   /* %zu the layer walked */
    AS_MSG_PRE_LAYER_DONE,     /* %zu layer, %s its names, %zu rows, %zu cols, %s = or ≈, %s last row */
    AS_MSG_PRE_X_NOTE,         /* %zu N, %zu N-1, %zu N */
    AS_MSG_PRE_PATH_HINT,
    AS_MSG_GEN_MODEL_LAYER,    /* %zu the layer, %zu the layers before it */
    AS_MSG_HINT_GEN_MODEL_LAYER, /* %zu the layer */
    /* the whole block (SPEC §15): run's captions */
    AS_MSG_BLK_TITLE_PRE,     /* the heading before a pre block's tables */
    AS_MSG_BLK_TITLE_POST,    /* the heading before a post block's tables */
    AS_MSG_BLK_NORM_LAYER,    /* %s out, %s in, %s ε: torch's LayerNorm in words */
    AS_MSG_BLK_NORM_ANNOT,    /* %s out, %s in, %s ε: the annotated LayerNorm in words */
    AS_MSG_BLK_NORM_RMS,      /* %s out, %s in, %s ε: RMSNorm in words */
    AS_MSG_BLK_NORM_NONE,     /* %s out, %s in: norm: none */
    AS_MSG_BLK_ROW_LAYER,     /* %zu row, %s "= 0.25" μ, %s σ², %s √(σ²+ε) */
    AS_MSG_BLK_ROW_ANNOT,     /* %zu row, %s μ, %s σ² (÷(d−1)), %s σ+ε */
    AS_MSG_BLK_ROW_RMS,       /* %zu row, %s Σx²/d, %s √(Σx²/d+ε) */
    AS_MSG_BLK_WIDTH2,        /* the note: LayerNorm of width 2 is always ±1 */
    AS_MSG_BLK_RESIDUAL,      /* %s sum, %s input, %s sublayer output: the residual in words */
    AS_MSG_BLK_FFN,           /* %s in, %zu d_ff, %s activation: the FFN in words */
    AS_MSG_BLK_OUTPUT,        /* %s the last table: the block's output Y is that table */
    /* the whole block (SPEC §15): trace's walk of one row */
    AS_MSG_BT_TITLE,          /* %zu row, %s token */
    AS_MSG_BT_READS_N1,       /* the note before the projections of a pre block */
    AS_MSG_BT_NORM_ROW,       /* %s out, %s Norm, %s in, %s "x₂ = [2,0,1,1]" */
    AS_MSG_BT_MEAN,           /* %s "μ = (2+0+1+1)/4 = 1" */
    AS_MSG_BT_CENTRE,         /* %s "x−μ = [2−1, …] = […]" */
    AS_MSG_BT_VAR,            /* %zu d, %s "σ² = (1²+…)/4 = 0.5" */
    AS_MSG_BT_VAR_ANNOT,      /* %zu d−1, %s */
    AS_MSG_BT_DIV_INSIDE,     /* %s "√(σ²+ε) = √(0.5+0.00001) ≈ …" */
    AS_MSG_BT_DIV_OUTSIDE,    /* %s "σ+ε = √0.67+0.000001 ≈ …" */
    AS_MSG_BT_MS,             /* %s "Σx²/d = (11²+1²)/2 = 61" */
    AS_MSG_BT_RMS_DIV,        /* %s "√(Σx²/d+ε) = …" */
    AS_MSG_BT_XHAT,           /* %s "x̂ = [1/0.7071…, …] ≈ […]" */
    AS_MSG_BT_AFFINE,         /* %s "N1[2] = [1×1.41+0, …] ≈ […]" */
    AS_MSG_BT_AFFINE_RMS,     /* %s */
    AS_MSG_BT_NO_AFFINE,      /* %s out: γ and β not given */
    AS_MSG_BT_RESIDUAL,       /* %s "H1[0] = x₀ + o₀ = [1+0.87, …] ≈ […]" */
    AS_MSG_BT_UP,             /* %s "U[0] = N2[0]Wup + bup = […] ≈ […]" */
    AS_MSG_BT_GATE,           /* %s "G[0] = SiLU(N2[0]Wgate) ≈ […]" */
    AS_MSG_BT_ACT,            /* %s "F[0] = GELU(U[0]) = [GELU(1.97), …] ≈ […]" */
    AS_MSG_BT_ACT_RULE,       /* %s the activation's formula */
    AS_MSG_BT_SWIGLU,         /* %s "F[0] = G[0] ⊙ U[0] = […] ≈ […]" */
    AS_MSG_BT_DOWN,           /* %s "D[0] = F[0]Wdown = […] ≈ […]" */
    /* the whole block's named mistakes (SPEC §15): check's teaching sentence, the tutor's words */
    AS_MSG_DIAG_LN_UNBIASED,
    AS_MSG_DIAG_LN_EPS_OUTSIDE,
    AS_MSG_DIAG_LN_NO_AFFINE,
    AS_MSG_DIAG_RMS_WITH_MEAN,
    AS_MSG_DIAG_GELU_TANH_FOR_ERF,
    AS_MSG_DIAG_GELU_ERF_FOR_TANH,
    AS_MSG_DIAG_RELU_FOR_GELU,
    AS_MSG_DIAG_NO_RESIDUAL,
    AS_MSG_DIAG_RESIDUAL_FROM_NORMED,
    AS_MSG_DIAG_POST_FOR_PRE,
    AS_MSG_PR_NAME_LN_UNBIASED,
    AS_MSG_PR_NAME_LN_EPS_OUTSIDE,
    AS_MSG_PR_NAME_LN_NO_AFFINE,
    AS_MSG_PR_NAME_RMS_WITH_MEAN,
    AS_MSG_PR_NAME_GELU_TANH_FOR_ERF,
    AS_MSG_PR_NAME_GELU_ERF_FOR_TANH,
    AS_MSG_PR_NAME_RELU_FOR_GELU,
    AS_MSG_PR_NAME_NO_RESIDUAL,
    AS_MSG_PR_NAME_RESIDUAL_FROM_NORMED,
    AS_MSG_PR_NAME_POST_FOR_PRE,
    AS_MSG_CHK_NO_SUCH_BLOCK_HINT, /* which block tables come with which settings */
    AS_MSG_CHK_NO_PROBS_HINT,      /* probs come with an output head */
    /* exercises of the whole block (exercise --block, --step norm|residual|ffn) */
    AS_MSG_HINT_USE_BLOCK,         /* what pre and post mean */
    AS_MSG_HINT_USE_NORM,          /* what layer and rms mean */
    AS_MSG_HINT_USE_FFN,           /* what the activations are */
    AS_MSG_EX_POST_DRILL, AS_MSG_HINT_EX_POST_DRILL, /* %s step: post has no such table */
    AS_MSG_EX_BLOCK_DV, AS_MSG_HINT_EX_BLOCK_DV,     /* --dv not the width */
    AS_MSG_EX_LN_WIDTH, AS_MSG_HINT_EX_LN_WIDTH,     /* %zu width: no LayerNorm row of it */
    AS_MSG_EX_FFN_NONE, AS_MSG_HINT_EX_FFN_NONE,     /* --step ffn with --ffn none */
    AS_MSG_EX_BLOCK_SAMPLE, AS_MSG_HINT_EX_BLOCK_SAMPLE, /* --step sample with --block */
    AS_MSG_EX_TASK_BLOCK,          /* comment: compute the tables of ask: */
    AS_MSG_EX_BLOCK_EPS,           /* %s ε: comment: the default ε keeps the roots readable */
    AS_MSG_EX_BLOCK_POST,          /* comment: post's norms read sums the softmax made */
    AS_MSG_SHEET_NO_BLOCK, AS_MSG_HINT_SHEET_NO_BLOCK, /* %s step: sheet --step on no block */
    AS_MSG_SHEET_ACT,              /* %s activation, %s what x is: before its table */
    AS_MSG_SHEET_ACT_U,            /* x is a cell of U */
    AS_MSG_SHEET_ACT_GATE,         /* x is a cell of N2·Wgate */
    AS_MSG_SHEET_NORM_WALK,        /* %s the norm's table: heading of its sub-steps */
    AS_MSG_COUNT
} as_msg;

/* The text of msg in lang (the Chinese one when the table lacks it in lang). */
const char *as_msg_text(as_lang lang, as_msg msg);

/* Nonzero when the table holds msg in lang itself (for the test of the table). */
int as_msg_defined(as_lang lang, as_msg msg);

/* Writes items[0..n) into buf as a list in lang, the last two joined by last (e.g.
 * AS_MSG_LIST_OR: "text、json或md", "text, json or md"). */
void as_msg_list(char *buf, size_t size, as_lang lang, const char *const *items, size_t n,
                 as_msg last);

/* Writes into buf why a file could not be read or written (errno e), in lang's words;
 * returns buf. */
const char *as_msg_errno(char *buf, size_t size, as_lang lang, int e);

/* English counts with one format whatever the number: "1 rows" becomes "1 row" (and
 * columns, numbers, labels, ...) in text, in place. */
void as_msg_singular(char *text);

/* Symbols that --ascii spells in plain ASCII. */
typedef enum as_sym {
    AS_SYM_NEG_INF, /* −∞ / -inf */
    AS_SYM_TIMES,   /* × / x */
    AS_SYM_DOT,     /* · / * */
    AS_SYM_SQRT,    /* √ / sqrt */
    AS_SYM_T,       /* ᵀ / ^T */
    AS_SYM_APPROX,  /* ≈ / ~= */
    AS_SYM_ELLIPSIS,/* … / ... */
    AS_SYM_MINUS,   /* − / - */
    AS_SYM_HADAMARD,/* ⊙ / (.) : cell by cell product (grad) */
    AS_SYM_COUNT
} as_sym;

/* The symbol in Unicode, or its ASCII spelling when ascii is nonzero. */
const char *as_sym_text(int ascii, as_sym sym);

/* For --ascii: rewrites in place the typographic punctuation of the messages as ASCII
 * (“ ” → ", ‘ ’ → ', — → --, – and ─ → -, … → ..., and ᵀ → ^T in prose), so that
 * English output with ASCII tokens is pure ASCII; Chinese text and its full-width
 * punctuation are left as they are. Never lengthens the text. Returns the new length
 * of s[0..len). */
size_t as_ascii_punct(char *s, size_t len);

/* Writes src[0..len) into dst with the mathematical letters of the block's prose (μ, σ,
 * ε, γ, β, Σ, ², x̂'s hat, √, ⊙, ≈ …) spelt in ASCII ("mu", "sigma", "eps", …); dst
 * holds at least 3 × len bytes. Returns the bytes written (no NUL). */
size_t as_ascii_letters(char *dst, const char *src, size_t len);

/* Writes the subscript of n (₀₁₂…, or "[12]" with ascii) into buf. */
void as_subscript(char *buf, size_t size, unsigned long n, int ascii);

/* Parses a language name ("zh", "en", also "zh_CN.UTF-8"-like forms). Returns 0 and sets
 * *lang, or -1 when unknown. */
int as_lang_parse(const char *name, as_lang *lang);

#endif
