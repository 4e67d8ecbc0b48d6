/* i18n.c - the message table: every caption, in Chinese (the book's) and English.
 * Long, but one story: nearly all of it is the one table (each word once, the two
 * languages side by side, a banner per feature), the rest its lookup. Splitting it by
 * feature would give each word several possible homes; it stays whole. */
#include "attnstep/i18n.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char *const table[AS_MSG_COUNT][2] = {
    [AS_MSG_TITLE] = {"标题：%s", "title: %s"},
    [AS_MSG_ROW_IS] = {"第%zu行对应“%s”", "row %zu is “%s”"},
    [AS_MSG_SHAPE_X] = {"形状：[%zu,%zu] = [Token位置数, 每个位置的特征数]",
                     "shape: [%zu,%zu] = [token positions, features per position]"},
    [AS_MSG_SHAPE_XKV] = {"形状：[%zu,%zu] = [被读取的位置数, 每个位置的特征数]",
                       "shape: [%zu,%zu] = [positions read, features per position]"},
    [AS_MSG_LAYOUT_TORCH] = {"（W按PyTorch的[输出宽度,输入宽度]给出，已转置为本书的[输入宽度,输出宽度]右乘约定）",
                          "(the W tables were given as [out, in] like PyTorch, and are shown "
                          "transposed to the book's [in, out])"},
    [AS_MSG_QKT_ROWS] = {"行：接收信息的位置（Query）", "rows: positions receiving information (Query)"},
    [AS_MSG_QKT_COLS] = {"列：提供信息的位置（Key）", "columns: positions providing information (Key)"},
    [AS_MSG_MASK_ONLY] = {"第%zu行只能读%s", "row %zu reads only %s"},
    [AS_MSG_MASK_READS] = {"第%zu行能读%s", "row %zu reads %s"},
    [AS_MSG_MASK_READS_N] = {"第%zu行能读%zu个位置", "row %zu reads %zu positions"},
    [AS_MSG_LIST_AND] = {"和", " and "},
    [AS_MSG_LIST_SEP] = {"、", ", "},
    [AS_MSG_SOFTMAX_ROWS] = {"每行softmax(S)", "softmax of each row of S"},
    [AS_MSG_HEAD_TITLE] = {"── 第%zu个头 ──", "── head %zu ──"},
    [AS_MSG_CONCAT] = {"各头的输出并排", "the heads' outputs side by side"},
    [AS_MSG_SCALE_CUSTOM] = {"（缩放系数由输入指定：%s）", "(the scale is set by the input: %s)"},
    [AS_MSG_MASK_NONE_NOTE] = {"（无掩码：每行能读所有位置）", "(no mask: every row reads every position)"},
    [AS_MSG_CROSS_NOTE] = {"（交叉注意力：Query来自X，Key和Value来自Xkv）",
                        "(cross-attention: Queries come from X, Keys and Values from Xkv)"},
    /* formats */
    [AS_MSG_FMT_HEAD] = {"第%zu个头", "head %zu"},
    [AS_MSG_FMT_ROWS] = {"行：", "rows: "},
    [AS_MSG_FMT_COLS] = {"列：", "columns: "},
    [AS_MSG_FMT_MASKED] = {"不可读（掩码）", "not readable (masked)"},
    [AS_MSG_FMT_BLANK] = {"空白：不可读（掩码）", "blank: not readable (masked)"},
    [AS_MSG_FMT_SCALE] = {"读取份额", "reading share"},
    /* trace */
    [AS_MSG_TR_PROJ_INTRO] = {"每个输出格子都是输入的一行与参数表的一列做点积：",
                           "Each output cell is a row of the input dotted with a column of the table:"},
    [AS_MSG_TR_INPUT] = {"取“%s”的输入%s：", "The input of “%s”: %s"},
    [AS_MSG_TR_INPUT_KV] = {"取被读取的“%s”的输入%s（Xkv的一行）：", "The input of “%s” (a row of Xkv): %s"},
    [AS_MSG_TR_ELIDED] = {"（超过%d项的式子只写出前%d项和后%d项，中间以%s代替。）",
                       "(a sum or list of more than %d items shows its first %d and last %d; "
                       "%s stands for the rest)"},
    [AS_MSG_TR_RULE_CAUSAL] = {"本例使用因果读取规则：当前位置能读自己和前面的位置。",
                            "The causal rule applies: a position reads itself and the positions "
                            "before it."},
    [AS_MSG_TR_RULE_NONE] = {"本例不加掩码：每个位置都能读所有位置。",
                          "There is no mask: every position reads every position."},
    [AS_MSG_TR_RULE_CUSTOM] = {"掩码M由输入给出：M为%s的格子不可读，其余格子的值加到缩放后的分数上。",
                            "The mask M comes from the input: a cell of M that is %s may not be "
                            "read; the others are added to the scaled scores."},
    [AS_MSG_TR_ROW_TITLE] = {"对“%s”这个位置（第%zu行），从打分一直算到新表示",
                          "Position “%s” (row %zu): from the scores to its new representation"},
    [AS_MSG_TR_HEAD] = {"── 第%zu个头：q、k取第%zu至%zu列，v取第%zu至%zu列 ──",
                     "── head %zu: columns %zu to %zu of q and k, %zu to %zu of v ──"},
    [AS_MSG_TR_RECEIVER] = {"当前接收者：%s，%s", "receiver: %s, %s"},
    [AS_MSG_TR_READABLE] = {"可读位置%zu：%s，%s，%s", "readable position %zu: %s, %s, %s"},
    [AS_MSG_TR_FUTURE] = {"不可读位置%zu：%s（因果掩码：它在当前位置之后，属于未来）",
                       "position %zu: %s is not readable (causal mask: it lies in the future)"},
    [AS_MSG_TR_MASKED] = {"不可读位置%zu：%s（M[%zu][%zu]=%s：M规定不能读）",
                       "position %zu: %s is not readable (M[%zu][%zu]=%s: M says so)"},
    [AS_MSG_TR_STEP1] = {"第一步：Query和每一个Key打分。", "Step 1: score the Query against every Key."},
    [AS_MSG_TR_RAW_ONE] = {"对“%s”的原始分数：%s", "raw score for “%s”: %s"},
    [AS_MSG_TR_RAW_ALL] = {"原始分数：%s，顺序仍是%s", "raw scores: %s, in the order %s"},
    [AS_MSG_TR_STEP2] = {"第二步：把分数除以%s（d_k=%zu；%s）。",
                      "Step 2: divide the scores by %s (d_k=%zu; %s)."},
    [AS_MSG_TR_STEP2_SCALE] = {"第二步：把分数乘以输入指定的缩放系数%s。",
                            "Step 2: multiply the scores by the scale the input sets, %s."},
    [AS_MSG_TR_SCALED] = {"缩放分数：%s", "scaled scores: %s"},
    [AS_MSG_TR_ADD_M] = {"加上M的对应格子：%s", "add the matching cells of M: %s"},
    [AS_MSG_TR_STEP3] = {"第三步：沿可读位置做softmax，得到读取份额。",
                      "Step 3: softmax along the readable positions gives the reading shares."},
    [AS_MSG_TR_SHIFT] = {"减最大值：", "subtract the max:"},
    [AS_MSG_TR_EXP] = {"取指数：", "exponentiate:"},
    [AS_MSG_TR_SUM] = {"指数之和：", "sum of the exps:"},
    [AS_MSG_TR_DIVIDE] = {"除以总和：", "divide by the sum:"},
    [AS_MSG_TR_MAX_IS] = {"（最大值是%s）", " (the max is %s)"},
    [AS_MSG_TR_SHARE_FROM] = {"来自“%s”的份额", "share from “%s”"},
    [AS_MSG_TR_STEP4] = {"第四步：用份额混合Value的对应格子。",
                      "Step 4: mix the matching cells of the Values by the shares."},
    [AS_MSG_TR_OUT_CELL] = {"输出第%zu格 = %s", "output cell %zu = %s"},
    [AS_MSG_TR_OUT_ROW] = {"“%s”位置的注意力输出 %s", "attention output of position “%s”: %s"},
    [AS_MSG_TR_HEAD_OUT] = {"第%zu个头在“%s”位置的输出 %s", "head %zu's output for position “%s”: %s"},
    [AS_MSG_TR_CONCAT_ROW] = {"各头的输出并排：%s", "the heads' outputs side by side: %s"},
    [AS_MSG_TR_WO] = {"再乘输出投影Wo：", "then the output projection Wo:"},
    [AS_MSG_TR_WHOLE] = {"把一行变成所有行，公式就出现了：",
                      "All rows at once: the whole-matrix form and the formula:"},
    /* teacher tools */
    [AS_MSG_EX_HEADER] = {"attnstep练习：第%d级，种子%lu", "attnstep exercise: level %d, seed %lu"},
    [AS_MSG_EX_AGAIN] = {"同样的命令再生成同一道题：%s", "the same command makes the same exercise: %s"},
    [AS_MSG_EX_TASK] = {"手算Q、K、V、QKᵀ、S、A、O，再用 attnstep run 核对。",
                     "Compute Q, K, V, QKᵀ, S, A and O by hand, then check with attnstep run."},
    [AS_MSG_EX_TASK_SAMPLE] = {"手算logits/T、裁剪后重新归一化的概率probs和抽到的词，"
                               "再用 attnstep trace 核对。",
                               "Compute logits/T, the probabilities after the cut, renormalised "
                               "(probs), and the token drawn by hand; check with attnstep trace."},
    [AS_MSG_EX_HEAD_NOTE] = {"注意力层和输出头都是单位矩阵，所以logits就是X这一行。",
                             "The layer and the head are identities: the logits are X's row."},
    [AS_MSG_SHEET_NO_HEAD] = {"--step sample练的是输出头，可这个输入没有输出头",
                              "--step sample drills the output head, and this input has none"},
    [AS_MSG_HINT_SHEET_NO_HEAD] = {"在输入里加上head: Wout（或head: tied）和它的设置，"
                                   "像examples/head.txt那样；或者用exercise --step sample出一道题",
                                   "add head: Wout (or head: tied) and its settings to the input, "
                                   "as examples/head.txt has them; or make one with "
                                   "exercise --step sample"},
    [AS_MSG_EX_KEY] = {"答案，attnstep check 读得懂的格式：attnstep check 练习文件 本文件",
                    "the answer key, in the format attnstep check reads: "
                    "attnstep check EXERCISE THIS-FILE"},
    [AS_MSG_SHEET_TITLE] = {"注意力手算练习", "Attention by hand"},
    [AS_MSG_SHEET_GIVEN] = {"已知", "Given"},
    [AS_MSG_SHEET_TOKENS] = {"Token：%s", "Tokens: %s"},
    [AS_MSG_SHEET_FILL] = {"请填写", "To fill in"},
    [AS_MSG_SHEET_KEY] = {"答案", "Answer key"},
    [AS_MSG_SHEET_WALK] = {"逐步计算：第%s行（“%s”）", "Step by step: row %s (“%s”)"},
    [AS_MSG_CHK_RIGHT] = {"%s：正确", "%s: right"},
    [AS_MSG_CHK_WRONG] = {"%s：不对（有%zu个格子不对，共%zu个）", "%s: wrong (%zu of %zu cells)"},
    [AS_MSG_CHK_SHAPE] = {"%s：形状是[%zu,%zu]，应为[%zu,%zu]",
                       "%s: the shape is [%zu,%zu], it should be [%zu,%zu]"},
    [AS_MSG_CHK_CELL] = {"%s[%zu][%zu]：写的是%s，应为%s", "%s[%zu][%zu]: written %s, expected %s"},
    [AS_MSG_CHK_MORE] = {"……还有%zu个格子不对", "... and %zu more wrong cells"},
    [AS_MSG_CHK_DIAG] = {"诊断：%s——%s", "diagnosis: %s — %s"},
    [AS_MSG_CHK_ALL_RIGHT] = {"全部正确：共%zu张表", "all right: %zu tables"},
    [AS_MSG_CHK_ALL_RIGHT_ONE] = {"全部正确：共1张表", "all right: 1 table"},
    [AS_MSG_CHK_SOME_WRONG] = {"有%zu张表不对，共%zu张", "%zu of %zu tables are wrong"},
    [AS_MSG_CHK_ONE_WRONG] = {"有1张表不对，共%zu张", "1 of %zu tables is wrong"},
    [AS_MSG_CHK_ONLY_WRONG] = {"这1张表不对", "the 1 table given is wrong"},
    [AS_MSG_DIAG_NO_SCALE] = {"分数没有除以%s", "the scores were not divided by %s"},
    [AS_MSG_DIAG_SCALE_MULT] = {"分数乘了%s，应当除以它", "the scores were multiplied by %s instead of divided"},
    [AS_MSG_DIAG_NO_MASK] = {"没有加掩码M，读了不该读的位置",
                          "the mask M was left out, so forbidden positions were read"},
    [AS_MSG_DIAG_SOFTMAX_COLUMNS] = {"softmax沿列做了，应当沿每一行（每个接收位置）做",
                                  "softmax was taken down each column; it goes along each row "
                                  "(each receiving position)"},
    [AS_MSG_DIAG_TRANSPOSED] = {"整张表转置了（行和列对调）",
                             "the whole table is transposed (rows and columns swapped)"},
    [AS_MSG_DIAG_CARRIED] = {"这一步本身做对了，错误来自你前面的%s",
                          "this step itself was done right; the error comes from your own %s"},
    [AS_MSG_CMP_INPUTS] = {"改变的输入：%s", "inputs changed: %s"},
    [AS_MSG_CMP_NO_INPUTS] = {"两份输入相同", "the two inputs are the same"},
    [AS_MSG_CMP_SAME] = {"%s：不变", "%s: unchanged"},
    [AS_MSG_CMP_CHANGED] = {"%s：改变，最大变化%s", "%s: changed, by at most %s"},
    [AS_MSG_CMP_RESHAPED] = {"%s：形状从[%zu,%zu]变成[%zu,%zu]",
                          "%s: the shape changed from [%zu,%zu] to [%zu,%zu]"},
    [AS_MSG_CMP_WHY] = {"%s变了：%s随之改变，%s不变——%s。",
                     "%s changed: %s changed with it, while %s stayed the same — %s."},
    [AS_MSG_CMP_WHY_ALL] = {"%s变了：每张表都随之改变——%s。", "%s changed: every table changed with it — %s."},
    [AS_MSG_CMP_WHY_NONE] = {"%s变了，但没有一个数值随之改变。", "%s changed, but no number changed with it."},
    [AS_MSG_CMP_WHY_SAME] = {"两份输入相同，所以每张表都相同。",
                          "The two inputs are the same, so every table is the same."},
    [AS_MSG_WHY_VALUE] = {"Value只决定每个位置提供什么内容，不决定读取多少，打分只用Q和K",
                       "the Values decide what each position offers, not how much of it is "
                       "read: the scores use only Q and K"},
    [AS_MSG_WHY_SCORE] = {"打分变了，读取份额A和混合结果O都跟着变，V不参与打分",
                       "the scores changed, so the shares A and the mix O follow them; V takes "
                       "no part in scoring"},
    [AS_MSG_WHY_X] = {"X是三个投影共同的输入", "X feeds all three projections"},
    [AS_MSG_WHY_OUT] = {"输出投影Wo只在各头的输出并排之后才用到",
                     "the output projection Wo is used only after the heads' outputs are put "
                     "side by side"},
    [AS_MSG_WHY_HEAD] = {"输出头的设置只改变层之后的步骤：logits的温度、截断和概率；层里的每张表都不变", "the head's settings change only what comes after the layer: the temperature of the logits, the cut and the probabilities; every table of the layer stays the same"},
    [AS_MSG_WHY_MIXED] = {"每张表随它所依赖的输入而变", "each table follows the inputs it depends on"},
    /* ---- errors, hints, usage and --help (issue 12) ---- */
    [AS_MSG_ERR_ERROR] = {"错误：", "error: "},
    [AS_MSG_ERR_HINT] = {"提示：", "hint: "},
    [AS_MSG_DID_YOU_MEAN] = {"是不是想写“%s”？", "did you mean \"%s\"?"},
    [AS_MSG_LIST_OR] = {"或", " or "},
    [AS_MSG_USE_LINE] = {"用法：attnstep [%s] [选项] 文件…\n详细说明请看 attnstep --help。\n",
                      "usage: attnstep [%s] [options] FILE...\n"
                      "Try 'attnstep --help' for more information.\n"},
    [AS_MSG_USE_CHOICE] = {"%s只能取%s，不能是“%s”", "%s takes %s, not \"%s\""},
    [AS_MSG_USE_ROW] = {"--row要给行号（从0数起）、last或all，不能是“%s”",
                     "--row takes a row number, \"last\" or \"all\", not \"%s\""},
    [AS_MSG_USE_TOL] = {"--tol要给一个不小于0的误差，不能是“%s”",
                     "--tol takes a tolerance of 0 or more, not \"%s\""},
    [AS_MSG_USE_DIGITS] = {"%s要给0到17之间的整数，不能是“%s”",
                        "%s takes a whole number from 0 to 17, not \"%s\""},
    [AS_MSG_USE_SEED] = {"--seed要给不小于0的整数，不能是“%s”",
                      "--seed takes a whole number of 0 or more, not \"%s\""},
    [AS_MSG_USE_LEVEL] = {"--level只能取1、2或3，不能是“%s”", "--level takes 1, 2 or 3, not \"%s\""},
    [AS_MSG_USE_HEAD] = {"--head要写头的编号（从0数起的整数），不能是“%s”",
                         "--head takes a head's number (a whole number, counted from 0), not \"%s\""},
    [AS_MSG_USE_SIZE] = {"%s要给1到64之间的整数，不能是“%s”",
                      "%s takes a whole number from 1 to 64, not \"%s\""},
    [AS_MSG_USE_ONLY] = {"--only要给用逗号隔开的表名（X、W、Q、K、V、QKT、M、S、A、O、C），"
                      "“%s”不是表名",
                      "--only takes table names (X, W, Q, K, V, QKT, M, S, A, O, C) separated "
                      "by commas; \"%s\" is not one"},
    [AS_MSG_USE_COMMAND] = {"没有“%s”这个命令（命令有：%s）", "unknown command \"%s\" (commands: %s)"},
    [AS_MSG_USE_NEED_FILE] = {"缺少输入文件（写 - 表示从标准输入读取）",
                           "an input FILE is needed (- reads standard input)"},
    [AS_MSG_USE_NEED_FILES] = {"%s要给两个文件", "%s needs two files"},
    [AS_MSG_USE_EXTRA] = {"多出了参数“%s”", "unexpected argument \"%s\""},
    [AS_MSG_USE_ENV] = {"环境变量ATTNSTEP_LANG是“%s”，应设为zh或en",
                     "ATTNSTEP_LANG is \"%s\"; set it to zh or en"},
    [AS_MSG_USE_OPTION] = {"没有“%s”这个选项", "unknown option \"%s\""},
    [AS_MSG_USE_NEEDS_VALUE] = {"选项“%s”后面要跟一个值", "option \"%s\" needs a value"},
    [AS_MSG_USE_FORMATS] = {"%s只能输出--format %s", "%s writes only --format %s"},
    [AS_MSG_USE_BOTH_STDIN] = {"%s和%s不能都是标准输入", "%s and %s cannot both be standard input"},
    [AS_MSG_HINT_SHEET_FORMATS] = {"text是给run用的输入文件，md和latex是练习卷，gift和moodle可导入Moodle",
                                "text is an input file for run; md and latex are worksheets; gift "
                                "and moodle import into Moodle"},
    [AS_MSG_HINT_RUN_FORMAT] = {"gift和moodle是导入Moodle的练习题，请用 exercise 或 sheet --format gift|moodle",
                                "gift and moodle are questions for Moodle: use exercise or sheet "
                                "--format gift|moodle"},
    [AS_MSG_HINT_TRACE_FORMAT] = {"要其他格式的表，请用 run --format …",
                               "for the tables in another format, use run --format ..."},
    [AS_MSG_USE_TRACE_ONLY] = {"trace不接受--only：它要走完每一步",
                            "trace takes no --only: it walks every step"},
    [AS_MSG_HINT_TRACE_ONLY] = {"只看其中几张表，请用 run --only …",
                             "to see only some tables, use run --only ..."},
    [AS_MSG_USE_ROW_RANGE] = {"--row %ld超出范围：%s只有%zu行（第0行到第%zu行）",
                           "--row %ld is out of range: %s has %zu rows (0 to %zu)"},
    [AS_MSG_HINT_ROW_RANGE] = {"行从0开始数，每个Token一行；也可以写--row last或--row all",
                            "rows are numbered from 0, one per token; --row last and --row all "
                            "also work"},
    [AS_MSG_OOM] = {"内存不足", "out of memory"},
    [AS_MSG_OOM_WRITING] = {"写输出时内存不足", "out of memory while writing the output"},
    [AS_MSG_FILE_EXISTS] = {"文件已经存在，什么也没有写", "the file exists; nothing was written"},
    [AS_MSG_HINT_FORCE] = {"要覆盖它，请加上--force", "add --force to overwrite it"},
    [AS_MSG_WHY_WRITE_FBIG] = {"文件已到允许的最大长度（ulimit -f的限制，或文件系统的上限）",
                               "the file has reached the largest size allowed (the limit of ulimit -f, or the file system's)"},
    [AS_MSG_WHY_PIPE] = {"读输出的一方已经关闭了管道", "the reader of the output closed the pipe"},
    [AS_MSG_HINT_WRITE_FBIG] = {"用“ulimit -f unlimited”放开限制，或者用--only、--row只输出一部分；文件没有写出",
                                "lift the limit (ulimit -f unlimited), or print less with --only or --row; no file was written"},
    [AS_MSG_HINT_NOSPC] = {"先腾出磁盘空间，或者写到另一个磁盘上；-o的文件没有写出，原来的文件保持不变",
                           "free some space, or write to another disk; with -o no file was written and any old one is as it was"},
    [AS_MSG_HINT_NAMETOOLONG] = {"系统不接受这么长的路径（每一段最多%d字节，整个路径不到%d字节）；请换一个短一些的文件夹或文件名，什么都还没有写",
                                 "the system takes no path this long (%d bytes a part, under %d in all); choose a shorter folder or file name; nothing has been written"},
    [AS_MSG_FILE_NO_WRITE] = {"无法写入：%s", "cannot write: %s"},
    [AS_MSG_FILE_STDOUT] = {"标准输出", "standard output"},
    [AS_MSG_OUT_DIR] = {"这是一个目录；-o只写普通文件", "this is a folder; -o writes only regular files"},
    [AS_MSG_OUT_LINK] = {"这是一个符号链接；-o只写普通文件",
                      "this is a symbolic link; -o writes only regular files"},
    [AS_MSG_OUT_FIFO] = {"这是一个FIFO（命名管道）；-o只写普通文件",
                      "this is a FIFO (named pipe); -o writes only regular files"},
    [AS_MSG_OUT_SPECIAL] = {"这是设备或特殊文件；-o只写普通文件",
                         "this is a device or special file; -o writes only regular files"},
    [AS_MSG_HINT_OUT_SPECIAL] = {"去掉-o，输出到标准输出（再重定向），或者换一个新文件名",
                              "leave out -o to write to standard output (then redirect it), or "
                              "name a new file"},
    [AS_MSG_USE_ONE_STDIN] = {"文件和答案文件中只能有一个是标准输入",
                           "only one of FILE and ANSWERS can be standard input"},
    [AS_MSG_USE_SCOPED] = {"%s对%s没有意义：它是%s的选项", "%s means nothing to %s: it is an option of %s"},
    [AS_MSG_HINT_SCOPED] = {"去掉%s，或者和%s一起用", "leave %s out, or use it with %s"},
    [AS_MSG_WHY_NOENT] = {"没有这个文件", "no such file"},
    [AS_MSG_WHY_ISDIR] = {"这是一个目录，不是文件", "it is a directory, not a file"},
    [AS_MSG_WHY_ACCES] = {"没有权限", "permission denied"},
    [AS_MSG_WHY_FBIG] = {"文件超过2 GiB，一个输入文件最多这么大",
                      "it is larger than 2 GiB, the most one input file may hold"},
    [AS_MSG_WHY_NODEV] = {"这不是普通文件", "not a regular file"},
    [AS_MSG_WHY_NOTDIR] = {"路径中有一段不是目录", "a part of the path is not a directory"},
    [AS_MSG_WHY_NOSPC] = {"磁盘没有空间了", "no space left on the device"},
    [AS_MSG_WHY_ROFS] = {"文件系统是只读的", "the file system is read-only"},
    [AS_MSG_WHY_NAMETOOLONG] = {"文件名太长", "the file name is too long"},
    [AS_MSG_WHY_OTHER] = {"系统报告：%s", "%s"},
    [AS_MSG_CSV_NO_ONLY] = {"--format csv只写一张表：请用--only指明是哪一张（例如--only A）",
                          "--format csv writes one table: name it with --only (e.g. --only A)"},
    [AS_MSG_CSV_MANY] = {"--format csv只写一张表：--only只能给一个表名（例如--only A）",
                       "--format csv writes one table: give --only exactly one name (e.g. "
                       "--only A)"},
    [AS_MSG_CSV_W] = {"--format csv只写一张表，而W指的是好几张（Wq、Wk、Wv）：请换一张，"
                    "或者用--format json",
                    "--format csv writes one table, and W names several (Wq, Wk, Wv): pick "
                    "another, or use --format json"},
    [AS_MSG_RUN_OVERFLOW] = {"%s[%zu][%zu]超出了双精度浮点数的范围（溢出）",
                          "%s[%zu][%zu] leaves the range of a double (overflow)"},
    [AS_MSG_RUN_NAN] = {"%s[%zu][%zu]超出了双精度浮点数的范围（不是一个数）",
                     "%s[%zu][%zu] leaves the range of a double (not a number)"},
    [AS_MSG_HINT_RUN_RANGE] = {"输入的数太大，相乘会溢出；请把它们缩小",
                            "the inputs are too large to multiply safely; scale them down"},
    [AS_MSG_RUN_NO_READABLE] = {"第%ld行（“%s”）没有可读的位置：S的这一行全是−∞",
                             "row %ld (\"%s\") has no readable position: every entry of its S "
                             "row is -inf"},
    [AS_MSG_HINT_NO_READABLE] = {"一个位置也不读，softmax就无从算起：掩码M必须给每一行至少留一个可读的位置",
                              "softmax over nothing is undefined; the mask M must leave every "
                              "row at least one position it may read"},
    [AS_MSG_RUN_HEADS_CELLS] = {"%zu个头、每个头[%zu,%zu]的分数，合起来超过了所有头一共能保存的%u个数",
                             "%zu heads of [%zu,%zu] scores would hold more than the %u "
                             "numbers that all heads together may keep"},
    [AS_MSG_HINT_HEADS_CELLS] = {"每个头的每张表都要保存下来供显示；--only O只保存输出，"
                              "或者减少头数、Token数",
                              "every table of every head is kept to be shown; --only O keeps "
                              "only the output, or use fewer heads or tokens"},
    [AS_MSG_EX_L1_DK] = {"第1级要求--dk为1或4", "level 1 takes --dk 1 or 4"},
    [AS_MSG_HINT_EX_L1_DK] = {"第1级里d_k的平方根是整数", "at level 1 the square root of d_k is a whole number"},
    [AS_MSG_EX_L2_DK] = {"第2级要求--dk为2", "level 2 takes --dk 2"},
    [AS_MSG_HINT_EX_L2_DK] = {"第2级和书中的例子一样：d_k = 2", "level 2 is like the chapter: d_k = 2"},
    [AS_MSG_EX_L3_DV] = {"第3级要求--dv和--dk不同", "level 3 takes --dv other than --dk"},
    [AS_MSG_HINT_EX_L3_DV] = {"第3级要说明：Value的宽度不必等于Key的宽度",
                           "level 3 shows that a Value's width need not be the Key's"},
    [AS_MSG_EX_L3_TOKENS] = {"第3级最多5个Token", "level 3 takes at most 5 tokens"},
    [AS_MSG_HINT_EX_L3_TOKENS] = {"请用--tokens 2到5", "use --tokens 2 to 5"},
    [AS_MSG_EX_LEVEL] = {"--level只能取1、2或3", "--level takes 1, 2 or 3"},
    [AS_MSG_HINT_EX_LEVEL] = {"第2级和书中的例子一样", "level 2 is like the chapter"},
    [AS_MSG_EX_TOKENS] = {"一道练习至少要有2个Token", "an exercise needs at least 2 tokens"},
    [AS_MSG_HINT_EX_TOKENS] = {"逐步计算的那一行至少要读两个分数不同的位置",
                            "the walk-through row must read two positions with different scores"},
    [AS_MSG_EX_SIZES] = {"一道练习最多8个Token，各个宽度最多为8",
                      "an exercise has at most 8 tokens and widths of at most 8"},
    [AS_MSG_HINT_EX_SIZES] = {"练习是要用手算的", "it is meant to be computed by hand"},
    [AS_MSG_EX_NONE] = {"这组大小找不到满足第%d级全部要求的练习",
                     "no exercise of these sizes keeps every promise of level %d"},
    [AS_MSG_HINT_EX_NONE] = {"试试少一些Token、小一些的--width或--dk，或者换一个--seed",
                          "try fewer tokens, a smaller --width or --dk, or another --seed"},
    [AS_MSG_GRAD_RANGE] = {"%s[%zu][%zu]超出了双精度浮点数的范围",
                        "%s[%zu][%zu] leaves the range of a double"},
    [AS_MSG_HINT_GRAD_RANGE] = {"输入或dO太大；请把它们缩小",
                             "the inputs or dO are too large; scale them down"},
    [AS_MSG_MD_MISSING] = {"没有给出矩阵%s",
        "no matrix %s is given"},
    [AS_MSG_HINT_MD_MISSING] = {"输入至少要有X（每个Token一行）和Wq、Wk、Wv三张表，例如X = [[1, 1], [1, -1]]",
        "an input needs X (one row per token) and the tables Wq, Wk and Wv, e.g. X = [[1, 1], [1, -1]]"},
    [AS_MSG_MD_W_ROWS] = {"%s有%zu行，但%s有%zu列（每个位置的特征数）",
        "%s has %zu rows, but %s has %zu columns (its features)"},
    [AS_MSG_MD_KEY_WIDTH] = {"Wk得到的Key宽度是%zu，但Wq得到的Query宽度是%zu",
        "Wk makes Keys of width %zu, but Wq makes Queries of width %zu"},
    [AS_MSG_HINT_MD_WQ_ROWS] = {"Q = X @ Wq是用X的每一行去乘Wq，所以X的一行有几个数，Wq就要有几行",
        "Q = X @ Wq multiplies each row of X by Wq, so Wq needs one row for each number in a row of X"},
    [AS_MSG_HINT_MD_WK_ROWS] = {"K = X @ Wk是用每一行去乘Wk，所以被读取的那一行有几个数，Wk就要有几行",
        "K = X @ Wk multiplies each row by Wk, so Wk needs one row for each number in a row of the key/value source"},
    [AS_MSG_HINT_MD_WV_ROWS] = {"V = X @ Wv是用每一行去乘Wv，所以被读取的那一行有几个数，Wv就要有几行",
        "V = X @ Wv multiplies each row by Wv, so Wv needs one row for each number in a row of the key/value source"},
    [AS_MSG_HINT_MD_KEY_WIDTH] = {"Query和Key要做点积，所以两者都要有d_k个数",
        "a Query and a Key are compared by a dot product, so both need d_k numbers"},
    [AS_MSG_HINT_MD_TORCH] = {"这张表转置一下就合适了：它像是PyTorch的[输出宽度, 输入宽度]排法（torch.nn.Linear.weight）；在文件里加一行layout: torch",
        "its transpose would fit: it looks like PyTorch's [out, in] layout (torch.nn.Linear.weight); add the line layout: torch"},
    [AS_MSG_HINT_MD_TORCH_ONE] = {"只有这张表转置一下才合适：它像是PyTorch的[输出宽度, 输入宽度]排法，其余的W却是本书的[输入宽度, 输出宽度]排法；请把它转置后再写进来（layout: torch会把每个W都转置）",
        "only this table fits when transposed: it looks like PyTorch's [out, in] layout while the other W tables are the book's [in, out]; write it transposed (layout: torch would turn every W round)"},
    [AS_MSG_MD_BIAS_ROWS] = {"%s有%zu行，但偏置只有一行",
        "%s has %zu rows, but a bias is 1 row"},
    [AS_MSG_HINT_MD_BIAS_ROWS] = {"偏置写成一行，例如[0.5, -1]",
        "write a bias as one row, e.g. [0.5, -1]"},
    [AS_MSG_MD_BIAS_WIDTH] = {"%s有%zu个数，但%s得到%zu列",
        "%s has %zu numbers, but %s makes %zu columns"},
    [AS_MSG_HINT_MD_BIAS_WIDTH] = {"偏置给投影结果的每一列各加一个数",
        "a bias adds one number to each column of its projection"},
    [AS_MSG_MD_KV_WIDTH] = {"Wk得到的Key宽度是%zu，但kv_heads: %zu个Key头、每个d_k = %zu（Wq的宽度%zu / heads: %zu）一共要%zu",
        "Wk makes Keys of width %zu, but kv_heads: %zu Key heads of d_k = %zu (Wq's width %zu / heads: %zu) need %zu"},
    [AS_MSG_HINT_MD_KV_WIDTH] = {"Query和Key要做点积，所以每个Key头都要有d_k个数：Wk是[d_model, kv_heads*d_k]",
        "a Query and a Key are compared by a dot product, so every Key head needs d_k numbers: Wk is [d_model, kv_heads*d_k]"},
    [AS_MSG_MD_KV_DIVIDE] = {"kv_heads: %zu不能整除heads: %zu",
        "kv_heads: %zu does not divide heads: %zu"},
    [AS_MSG_HINT_MD_KV_DIVIDE] = {"每个Key/Value头由同样多个Query头共用（heads/kv_heads个），所以kv_heads必须整除heads；kv_heads: 1就是多查询注意力",
        "each Key/Value head is shared by the same number of query heads (heads/kv_heads), so kv_heads must divide heads; kv_heads: 1 is multi-query attention"},
    [AS_MSG_MD_HEADS_DIVIDE] = {"heads: %zu不能整除Q/K的宽度（%zu）和V的宽度（%zu）",
        "heads: %zu does not divide the widths of Q/K (%zu) and V (%zu)"},
    [AS_MSG_MD_HEADS_KV_DIVIDE] = {"heads: %zu和kv_heads: %zu不能整除Q的宽度（%zu）和V的宽度（%zu）",
        "heads: %zu and kv_heads: %zu do not divide the widths of Q (%zu) and V (%zu)"},
    [AS_MSG_HINT_MD_HEADS_DIVIDE] = {"每个头分到Q、K、V中同样多的列，所以头数必须整除它们的宽度",
        "each head takes an equal block of the columns of Q, K and V, so the number of heads must divide their widths"},
    [AS_MSG_MD_NO_COLUMN] = {"Q、K和V至少要有一列",
        "Q, K and V need at least one column"},
    [AS_MSG_HINT_MD_NO_COLUMN] = {"每个头至少要分到一列",
        "every head needs at least one column"},
    [AS_MSG_MD_BO] = {"给了bo，却没有给Wo",
        "bo is given without Wo"},
    [AS_MSG_HINT_MD_BO] = {"bo是在输出投影Wo之后加上的",
        "bo is added after the output table Wo"},
    [AS_MSG_MD_WO_ROWS] = {"Wo有%zu行，但各头并排后的C有%zu列",
        "Wo has %zu rows, but the heads side by side (C) have %zu columns"},
    [AS_MSG_HINT_MD_WO_ROWS] = {"O = C @ Wo是用C的每一行去乘Wo，所以C有几列（heads × d_v），Wo就要有几行",
        "O = C @ Wo multiplies each row of C by Wo, so Wo needs one row per column of C (heads x d_v)"},
    [AS_MSG_MD_TOO_LARGE] = {"表%s会是[%zu,%zu]，超过了一张表最多能放的%u个数",
        "the table %s would be [%zu,%zu], more than the %u numbers one table may hold"},
    [AS_MSG_HINT_MD_TOO_LARGE] = {"这一层的每张表最多16384行、16384列、67108864（2^26）个数；QKᵀ、S和A的行数是X的Token数，列数是被读取的Token数",
        "every table of the layer holds at most 16384 rows, 16384 columns and 67108864 (2^26) numbers; QKᵀ, S and A have a row per token of X and a column per token of the keys"},
    [AS_MSG_MD_LABELS] = {"%s有%zu个标签，但%s有%zu行",
        "%s has %zu labels, but %s has %zu rows"},
    [AS_MSG_HINT_MD_LABELS] = {"每行一个标签，按顺序写",
        "give one label per row, in order"},
    [AS_MSG_MD_M_SHAPE] = {"M是[%zu,%zu]，但分数QKᵀ是[%zu,%zu]",
        "M is [%zu,%zu], but the scores QKᵀ are [%zu,%zu]"},
    [AS_MSG_HINT_MD_M_SHAPE] = {"M是逐格加到分数上的，所以每个Query（X的一行）对应一行，每个Key对应一列",
        "M is added to the scores cell by cell, so it needs one row per query (row of X) and one column per key"},
    [AS_MSG_MD_M_INF] = {"M里只能有有限的数和-inf，不能有+inf",
        "M may hold finite numbers and -inf, not +inf"},
    [AS_MSG_HINT_MD_M_INF] = {"允许读的位置写0，不许读的位置写-inf",
        "write 0 where reading is allowed and -inf where it is forbidden"},
    [AS_MSG_MD_MASK_BOTH] = {"给了矩阵M，但设置mask:又选了另一种掩码",
        "a matrix M is given, but the setting mask: chooses another mask"},
    [AS_MSG_HINT_MD_MASK_BOTH] = {"设置mask:和矩阵M只能二选一",
        "write either the setting mask: or a matrix M, not both"},
    [AS_MSG_MD_MASK_SQUARE] = {"%s掩码要求Query和Key一样多，但X有%zu行，Xkv有%zu行",
        "a %s mask needs as many queries as keys, but X has %zu rows and Xkv has %zu"},
    [AS_MSG_HINT_MD_MASK_SQUARE] = {"causal的意思是“第i行读同一序列的第0到第i个位置”；交叉注意力请用mask: none或矩阵M",
        "causal means \"row i reads positions 0..i of the same sequence\"; for cross-attention use mask: none or a matrix M"},
    [AS_MSG_MD_ROPE_ONLY] = {"%s:只在positions: rope时才有用",
        "%s: applies only with positions: rope"},
    [AS_MSG_HINT_MD_ROPE_ONLY] = {"加上positions: rope，或者删掉这一行",
        "add positions: rope, or remove the line"},
    [AS_MSG_MD_ROPE_ODD] = {"positions: rope要求d_k是偶数，但每个头的Query和Key有%zu个数",
        "positions: rope needs an even d_k, but each head's Queries and Keys have %zu numbers"},
    [AS_MSG_HINT_MD_ROPE_ODD] = {"RoPE把q和k的数两个两个地旋转，像钟表的指针一样；请让Wq和Wk每个头的列数是偶数",
        "RoPE turns the numbers of q and k two by two, like the hands of a clock; give Wq and Wk an even number of columns per head"},
    /* model.c: the block (SPEC §15) */
    [AS_MSG_MD_BLOCK_ONLY] = {"%s只在整个块里才有用（block: pre或block: post）",
        "%s means something only in a whole block (block: pre or block: post)"},
    [AS_MSG_HINT_MD_BLOCK_ONLY] = {"加上block: pre（先归一化，GPT-2、LLaMA）或block: post（先相加再归一化，原论文），或者删掉这一行",
        "add block: pre (normalise first: GPT-2, LLaMA) or block: post (add, then normalise: the original paper), or delete this line"},
    [AS_MSG_MD_RESIDUAL_WIDTH] = {"残差H1 = X + O要逐格相加，但注意力的输出O有%zu列，X有%zu列",
        "the residual H1 = X + O adds cell by cell, but the attention's output O has %zu columns and X has %zu"},
    [AS_MSG_HINT_MD_RESIDUAL_WIDTH] = {"给出Wo，形状[heads×d_v, d_model]，把各头并排后的C映射回X的宽度",
        "give Wo, of shape [heads×d_v, d_model], to map the heads side by side back to the width of X"},
    [AS_MSG_MD_NORM_NONE_TABLE] = {"norm: none时不归一化，%s用不上",
        "with norm: none nothing is normalised, so %s is not used"},
    [AS_MSG_HINT_MD_NORM_NONE_TABLE] = {"γ和β属于归一化：删掉这张表，或者改用norm: layer或norm: rms",
        "γ and β belong to a norm: delete this table, or use norm: layer or norm: rms"},
    [AS_MSG_MD_RMS_NO_BETA] = {"RMSNorm没有β，%s用不上",
        "RMSNorm has no β, so %s is not used"},
    [AS_MSG_HINT_MD_RMS_NO_BETA] = {"RMSNorm：y = γ⊙x/rms，不减均值也不加β；要β就用norm: layer",
        "RMSNorm is y = γ⊙x/rms: no mean subtracted and no β added; for a β use norm: layer"},
    [AS_MSG_MD_STYLE_LAYER_ONLY] = {"norm_style只对LayerNorm（norm: layer）有用",
        "norm_style means something only for LayerNorm (norm: layer)"},
    [AS_MSG_HINT_MD_STYLE_LAYER_ONLY] = {"RMSNorm只有一种算法：删掉norm_style这一行，或者改用norm: layer",
        "RMSNorm is computed one way only: delete the norm_style line, or use norm: layer"},
    [AS_MSG_MD_NORM_WIDTH] = {"%s有%zu个数，但归一化的每一行有%zu个数（d_model）",
        "%s has %zu numbers, but each row normalised has %zu (d_model)"},
    [AS_MSG_HINT_MD_NORM_WIDTH] = {"γ逐格乘、β逐格加到归一化后的一行上：每个特征一个数，和X一样宽",
        "γ multiplies and β adds cell by cell along a normalised row: one number per feature, as wide as X"},
    [AS_MSG_MD_ANNOTATED_WIDTH] = {"norm_style: annotated要除以d−1，但每行只有1个数",
        "norm_style: annotated divides by d−1, but each row has only 1 number"},
    [AS_MSG_HINT_MD_ANNOTATED_WIDTH] = {"无偏标准差至少要两个数；用norm_style: torch（除以d），或者让X至少有2列",
        "an unbiased standard deviation needs at least two numbers: use norm_style: torch (divide by d), or give X at least 2 columns"},
    [AS_MSG_MD_FFN_MISSING] = {"ffn: %s需要%s，文件里没有",
        "ffn: %s needs %s, which the file does not give"},
    [AS_MSG_HINT_MD_FFN_MISSING] = {"前馈网络D = act(N2 @ Wup + bup) @ Wdown + bdown：Wup把d_model列放宽到d_ff列，Wdown再收回到d_model列；swiglu还要Wgate（和Wup同形状）；不要前馈子层就写ffn: none",
        "the feed-forward network is D = act(N2 @ Wup + bup) @ Wdown + bdown: Wup widens d_model columns to d_ff, Wdown brings them back to d_model; swiglu also needs Wgate (shaped like Wup); for no feed-forward sublayer write ffn: none"},
    [AS_MSG_MD_FFN_NONE_TABLE] = {"ffn: none时没有前馈子层，%s用不上",
        "with ffn: none there is no feed-forward sublayer, so %s is not used"},
    [AS_MSG_HINT_MD_FFN_NONE_TABLE] = {"删掉这张表，或者写出前馈网络的激活，如ffn: gelu_tanh",
        "delete this table, or name the feed-forward activation, e.g. ffn: gelu_tanh"},
    [AS_MSG_MD_WGATE_ONLY] = {"Wgate只在ffn: swiglu时才有用",
        "Wgate means something only with ffn: swiglu"},
    [AS_MSG_HINT_MD_WGATE_ONLY] = {"SwiGLU的门G = silu(N2 @ Wgate)再逐格乘U；加上ffn: swiglu，或者删掉Wgate",
        "SwiGLU's gate G = silu(N2 @ Wgate) multiplies U cell by cell: add ffn: swiglu, or delete Wgate"},
    [AS_MSG_HINT_MD_WUP_ROWS] = {"U = N2 @ Wup是用归一化后的每一行去乘Wup，所以一行有几个数（d_model），Wup就要有几行",
        "U = N2 @ Wup multiplies each normalised row by Wup, so Wup needs one row per number of a row (d_model)"},
    [AS_MSG_MD_WGATE_SHAPE] = {"Wgate的形状是[%zu,%zu]，但Wup的形状是[%zu,%zu]",
        "Wgate is [%zu,%zu], but Wup is [%zu,%zu]"},
    [AS_MSG_HINT_MD_WGATE_SHAPE] = {"F = silu(N2 @ Wgate) ⊙ (N2 @ Wup)要逐格相乘，所以Wgate和Wup形状相同",
        "F = silu(N2 @ Wgate) ⊙ (N2 @ Wup) multiplies cell by cell, so Wgate is shaped like Wup"},
    [AS_MSG_MD_WDOWN_ROWS] = {"Wdown有%zu行，但激活后的F有%zu列（Wup的列数d_ff）",
        "Wdown has %zu rows, but F after the activation has %zu columns (the d_ff columns of Wup)"},
    [AS_MSG_HINT_MD_WDOWN_ROWS] = {"D = F @ Wdown是用F的每一行去乘Wdown，所以Wup有几列，Wdown就要有几行",
        "D = F @ Wdown multiplies each row of F by Wdown, so Wdown needs a row for each column of Wup"},
    [AS_MSG_MD_WDOWN_COLS] = {"Wdown有%zu列，但残差H2 = H1 + D要和X一样宽（%zu列）",
        "Wdown has %zu columns, but the residual H2 = H1 + D must be as wide as X (%zu columns)"},
    [AS_MSG_HINT_MD_WDOWN_COLS] = {"Wdown把d_ff列收回到d_model列：它的形状是[d_ff, d_model]",
        "Wdown brings the d_ff columns back to d_model: it is [d_ff, d_model]"},
    /* the output head and the draw (SPEC §19): run, trace, generate */
    [AS_MSG_HD_TITLE] = {"输出头：从最后一行h到下一个词（F09的抽样）",
        "The output head: from the last row h to the next token (F09's draw)"},
    [AS_MSG_HD_H_CAP] = {"%s的最后一行（第%zu行）",
        "the last row of %s (row %zu)"},
    [AS_MSG_HD_LOGITS_CAP] = {"每个词一个分数：h和这个词的向量的点积",
        "one score per token: h dotted with that token's vector"},
    [AS_MSG_HD_TEMP_CAP] = {"温度T = %s：T<1让分布更尖，T>1让它更平",
        "temperature T = %s: below 1 sharper, above 1 flatter"},
    [AS_MSG_HD_TOPK_CAP] = {"top-k：只留分数最大的%zu个，其余为−∞",
        "top-k: only the %zu largest kept, the others −∞"},
    [AS_MSG_HD_SOFTMAX_CAP] = {"softmax：每个词的概率，加起来是1",
        "softmax: each token's probability, summing to 1"},
    [AS_MSG_HD_TOPP_CAP] = {"top-p：累计概率达到P = %s的最少几个词，留下%zu个",
        "top-p: the fewest tokens whose probabilities reach P = %s: %zu kept"},
    [AS_MSG_HD_PROBS_CAP] = {"留下的词重新归一化：抽样按这组概率",
        "renormalised over the kept tokens: the draw follows these"},
    [AS_MSG_HD_GREEDY] = {"贪心：取概率最大的词%zu（p = %s）",
        "greedy: the most likely token, %zu (p = %s)"},
    [AS_MSG_HD_DRAWN] = {"抽样：u = %s落在词%zu的区间[%s, %s)里，下一个词是%zu",
        "draw: u = %s lies in token %zu's interval [%s, %s): the next token is %zu"},
    [AS_MSG_HD_W_LOGITS] = {"第一步：h和每个词的向量做点积，得到logits。",
        "Step 1: h dotted with each token's vector gives the logits."},
    [AS_MSG_HD_W_LOGIT] = {"词%zu的logit",
        "logit of token %zu"},
    [AS_MSG_HD_W_TEMP] = {"第二步：logits除以温度T = %s。",
        "Step 2: the logits divided by the temperature T = %s."},
    [AS_MSG_HD_W_TOPK] = {"top-k：分数最大的%zu个是%s，其余设为−∞。",
        "top-k: the %zu largest are %s; the others become −∞."},
    [AS_MSG_HD_W_SOFTMAX] = {"第三步：softmax，得到每个词的概率。",
        "Step 3: the softmax gives each token's probability."},
    [AS_MSG_HD_W_TOPP] = {"top-p（P = %s）：把概率从大到小排，往下累加。",
        "top-p (P = %s): the probabilities sorted from the largest down and added up."},
    [AS_MSG_HD_W_SORTED] = {"从大到小的词：",
        "tokens, largest first: "},
    [AS_MSG_HD_W_PSORT] = {"它们的概率：",
        "their probabilities: "},
    [AS_MSG_HD_W_CUM] = {"累计和：",
        "running sums: "},
    [AS_MSG_HD_W_CROSS] = {"累计和在词%zu处第一次达到P：%s ≥ %s，越过P的这个词也留下，共留下%zu个词。",
        "the running sum first reaches P at token %zu: %s ≥ %s; the token that crosses P is kept too: %zu kept."},
    [AS_MSG_HD_W_RENORM] = {"留下的词重新做softmax（其余为0）：",
        "softmax again over the kept tokens (the others 0): "},
    [AS_MSG_HD_W_DRAW] = {"第四步：抽样。",
        "Step 4: the draw."},
    [AS_MSG_HD_W_U] = {"种子%llu的第%zu个均匀数：u = %s（0 ≤ u < 1）",
        "the seed %llu's uniform number %zu: u = %s (0 ≤ u < 1)"},
    [AS_MSG_HD_W_INTERVALS] = {"按词的顺序累加概率，每个词占一段区间：",
        "the probabilities added up in token order, each token takes an interval: "},
    [AS_MSG_HD_W_INTERVAL] = {"词%zu [%s, %s)",
        "token %zu [%s, %s)"},
    [AS_MSG_HD_W_LANDS] = {"u = %s落在词%zu的区间里：下一个词是%zu。",
        "u = %s lies in token %zu's interval: the next token is %zu."},
    [AS_MSG_HD_W_GREEDY] = {"第四步：不抽样（sample: greedy，或没写sample），取概率最大的词%zu。",
        "Step 4: no draw (sample: greedy, or no sample): the most likely token, %zu."},
    [AS_MSG_HD_TOKEN] = {"词%zu",
        "token %zu"},
    /* generate (SPEC §19) */
    [AS_MSG_GEN_NO_HEAD] = {"generate要有输出头，文件里没有head:",
        "generate needs an output head, and the file has no head:"},
    [AS_MSG_HINT_GEN_NO_HEAD] = {"加上head: tied（logits = h·Eᵀ）或head: Wout和Wout表，需要时再写temperature、top_k、top_p和sample",
        "add head: tied (logits = h·Eᵀ) or head: Wout with a Wout table, then temperature, top_k, top_p and sample as needed"},
    [AS_MSG_GEN_MASK_MATRIX] = {"generate会把序列加长，固定大小的掩码矩阵M跟不上",
        "generate makes the sequence longer, and a mask matrix M of a fixed size cannot grow with it"},
    [AS_MSG_HINT_GEN_MASK_MATRIX] = {"用mask: causal或mask: window W：它们对任何长度都成立，每个新位置只读它自己和之前的位置",
        "use mask: causal or mask: window W: they hold at any length, each new position reading itself and the positions before it"},
    [AS_MSG_GEN_NO_E] = {"generate要把抽到的词接到序列后面，这需要它在嵌入表E里的那一行，但文件里没有E",
        "generate appends each token drawn to the sequence, which takes its row of the embedding table E, and the file gives no E"},
    [AS_MSG_HINT_GEN_NO_E] = {"Wout只把h变成logits；把词变回一行向量要靠E（形状[vocab, d_model]，第i行是词i的向量）：给出E，或者用head: tied让logits也用E",
        "Wout only turns h into logits; turning a token back into a row takes E (shape [vocab, d_model], row i the vector of token i): give E, or use head: tied so that the logits use E too"},
    [AS_MSG_GEN_E_WIDTH] = {"E每行有%zu个数，但X每行有%zu个数，接上的词放不进X",
        "E has %zu numbers a row, but X has %zu: a token appended would not fit X"},
    [AS_MSG_HINT_GEN_E_WIDTH] = {"接上的词就是E的一行，它要和X的行一样宽（d_model）；head: tied时h也要这么宽：请让Wo把各头映射回d_model列",
        "a token appended is a row of E, as wide as a row of X (d_model); with head: tied h must be that wide too: let Wo map the heads back to d_model columns"},
    [AS_MSG_GEN_VOCAB] = {"输出头给出%zu个词的logits，但E只有%zu行",
        "the head gives logits for %zu tokens, but E has %zu rows"},
    [AS_MSG_HINT_GEN_VOCAB] = {"抽到的词号要能在E里取到一行：Wout的列数（词表大小）要等于E的行数",
        "the token drawn must index a row of E: the columns of Wout (the vocabulary) must equal the rows of E"},
    [AS_MSG_GEN_P_SHORT] = {"生成要用到位置%zu，但位置表P只有%zu行",
        "generating reaches position %zu, but the position table P has only %zu rows"},
    [AS_MSG_HINT_GEN_P_SHORT] = {"学到的位置表P每行属于一个位置，生成不能越过它的长度（上下文长度）：减小N，或给出更长的P",
        "each row of the learned position table P belongs to one position, and generation cannot go past its length (the context length): ask a smaller N, or give a longer P"},
    [AS_MSG_GEN_TOO_LONG] = {"提示有%zu行，再生成%zu个词，序列就超过了%zu行的上限",
        "a prompt of %zu rows and %zu tokens more would pass the limit of %zu rows"},
    [AS_MSG_HINT_GEN_TOO_LONG] = {"N是要生成几个词：至少1个，提示的行数加N不超过上限",
        "N is how many tokens to make: at least 1, and the prompt's rows plus N within the limit"},
    [AS_MSG_USE_GENERATE_COUNT] = {"N是要生成几个词，必须是正整数，不能是“%s”",
        "N is how many tokens to make: a positive whole number, not \"%s\""},
    [AS_MSG_HINT_USE_GENERATE_COUNT] = {"例如attnstep generate examples/generate.txt 5：从文件里的序列出发，再生成5个词",
        "e.g. attnstep generate examples/generate.txt 5: from the file's sequence, 5 tokens more"},
    [AS_MSG_CMD_ARGS_GENERATE] = {"文件 N",
        "FILE N"},
    [AS_MSG_CMD_GENERATE] = {"用KV缓存和输出头逐词生成N个新词",
        "N new tokens, one by one, with the KV cache and the output head"},
    [AS_MSG_GEN_TITLE] = {"逐词生成：每一步只算新的一行，K和V放进缓存（第11节），这一行经过输出头抽出下一个词，接到序列后面",
        "Generation token by token: each step computes only the new row, K and V go to the cache (section 11), and the head draws the next token from that row, appended to the sequence"},
    [AS_MSG_GEN_PROMPT] = {"起始序列：%zu行，位置0到%zu，先逐行放进缓存",
        "the prompt: %zu rows, positions 0 to %zu, put into the cache row by row"},
    [AS_MSG_GEN_STEP] = {"第%zu步（位置%zu，读缓存里的%zu个位置）：",
        "step %zu (position %zu, reading %zu positions of the cache):"},
    [AS_MSG_GEN_APPEND] = {"接上词%zu：X的第%zu行 = E的第%zu行",
        "token %zu appended: row %zu of X = row %zu of E"},
    [AS_MSG_GEN_APPEND_P] = {"接上词%zu：X的第%zu行 = E的第%zu行 + P的第%zu行",
        "token %zu appended: row %zu of X = row %zu of E + row %zu of P"},
    [AS_MSG_GEN_TOKENS] = {"生成的词：",
        "tokens made: "},
    /* model.c: the output head (SPEC §19) */
    [AS_MSG_MD_HEAD_ONLY] = {"%s只在有输出头时才有用（head: tied或head: Wout）",
        "%s means something only with an output head (head: tied or head: Wout)"},
    [AS_MSG_HINT_MD_HEAD_ONLY] = {"输出头把最后一行h变成词表上每个词的分数（logits）：加上head: tied（借用嵌入表E）或head: Wout，或者删掉这一行",
        "the output head turns the last row h into a score (logit) for each token of the vocabulary: add head: tied (borrowing the embedding table E) or head: Wout, or delete this line"},
    [AS_MSG_MD_HEAD_NEEDS] = {"head: %s需要%s，文件里没有",
        "head: %s needs %s, which the file does not give"},
    [AS_MSG_HINT_MD_HEAD_NEEDS] = {"tied：logits = h·Eᵀ，嵌入表E（形状[vocab, d_model]）的每一行和h做点积；Wout：logits = h·Wout，Wout的形状是[d_model, vocab]",
        "tied: logits = h·Eᵀ, each row of the embedding table E (shape [vocab, d_model]) dotted with h; Wout: logits = h·Wout, with Wout of shape [d_model, vocab]"},
    [AS_MSG_MD_HEAD_WIDTH] = {"%s给每个词%zu个数，但h（%s的最后一行）有%zu个数",
        "%s gives each token %zu numbers, but h (the last row of %s) has %zu"},
    [AS_MSG_HINT_MD_HEAD_WIDTH] = {"每个logit是h和一个词的向量的点积，两边的数要一样多：Wout的行数（或E的列数）等于h的宽度",
        "each logit is the dot product of h with one token's vector, so both need as many numbers: the rows of Wout (or the columns of E) equal the width of h"},
    [AS_MSG_MD_TOP_K_VOCAB] = {"top_k是%zu，但词表只有%zu个词",
        "top_k is %zu, but the vocabulary has only %zu tokens"},
    [AS_MSG_HINT_MD_TOP_K_VOCAB] = {"top-k只留下分数最大的K个词，K在1和词表大小之间；K等于词表大小时什么也不删",
        "top-k keeps the K tokens with the largest scores, K between 1 and the size of the vocabulary; K equal to it removes nothing"},
    [AS_MSG_MD_WOUT_UNUSED] = {"Wout只在head: Wout时才有用",
        "Wout means something only with head: Wout"},
    [AS_MSG_HINT_MD_WOUT_UNUSED] = {"加上head: Wout，或者删掉Wout（head: tied借用嵌入表E，不需要Wout）",
        "add head: Wout, or delete Wout (head: tied borrows the embedding table E and needs no Wout)"},
    /* parse.c: the output head's settings (SPEC §19) */
    [AS_MSG_PS_HEAD_UNKNOWN] = {"head只能是tied或Wout，不能是“%s”",
        "head is tied or Wout, not \"%s\""},
    [AS_MSG_PS_HEAD_HINT] = {"tied：logits = h·Eᵀ，借用嵌入表E；Wout：logits = h·Wout，用一张自己的表[d_model, vocab]，如head: Wout",
        "tied: logits = h·Eᵀ, borrowing the embedding table E; Wout: logits = h·Wout, with a table of its own [d_model, vocab], e.g. head: Wout"},
    [AS_MSG_PS_TEMPERATURE_BAD] = {"temperature必须是大于0的数，不能是“%s”",
        "temperature must be a number above 0, not \"%s\""},
    [AS_MSG_PS_TEMPERATURE_HINT] = {"logits先除以T再做softmax：T<1让分布更尖，T>1让它更平；T=0没法除（每次都取最大的，请写sample: greedy），如temperature: 0.7",
        "the logits are divided by T before the softmax: T < 1 sharpens the distribution, T > 1 flattens it; T = 0 cannot divide (to take the largest every time, write sample: greedy), e.g. temperature: 0.7"},
    [AS_MSG_PS_TOP_P_BAD] = {"top_p必须是大于0、不超过1的数，不能是“%s”",
        "top_p must be a number above 0 and at most 1, not \"%s\""},
    [AS_MSG_PS_TOP_P_HINT] = {"top-p把概率从大到小排好，往下累加，直到累计和达到P；越过P的那个词也留下；P = 1什么也不删，如top_p: 0.9",
        "top-p sorts the probabilities from the largest down and adds them up until the running sum reaches P; the token that crosses P is kept too; P = 1 removes nothing, e.g. top_p: 0.9"},
    [AS_MSG_PS_WHAT_TOP_K] = {"top_k", "top_k"},
    [AS_MSG_PS_TOP_K_HINT] = {"top-k只留下分数最大的K个词，其余的设为−∞；K至少是1（只留1个就是贪心），如top_k: 40",
        "top-k keeps the K tokens with the largest scores and sets the others to −∞; K is at least 1 (keeping 1 is the greedy choice), e.g. top_k: 40"},
    [AS_MSG_PS_SAMPLE_BAD] = {"sample只能是greedy或0到18446744073709551615（2^64−1）之间的整数种子，不能是“%s”",
        "sample is greedy or a whole-number seed from 0 to 18446744073709551615 (2^64 - 1), not \"%s\""},
    [AS_MSG_PS_HEAD_TABLE_BIG] = {"有输出头时要保留整张%s，但它是[%zu,%zu]，超过了一张表的上限（%zu行、%zu格）",
        "with an output head the whole %s is kept, but it is [%zu,%zu], beyond the limits of one table (%zu rows, %zu cells)"},
    [AS_MSG_PS_HEAD_TABLE_BIG_HINT] = {"只用ids时只取用到的几行，不受这个限制；要用输出头，请在load()后面用切片只载入词表的一部分，如[0:1000, :]",
        "ids alone take only the rows they name and have no such limit; for the head, slice part of the vocabulary, e.g. load(\"m.safetensors\", \"wte.weight\")[0:1000, :]"},
    [AS_MSG_PS_SAMPLE_HINT] = {"greedy每次取概率最大的词；写一个整数（如sample: 42）就用它做种子抽一个均匀数u，沿累计概率找到u落在哪个词的区间里；同一个种子在每台机器上抽到同一个词",
        "greedy takes the most likely token every time; a whole number (e.g. sample: 42) seeds the draw of one uniform number u, and the token is the one whose interval of the running sums holds u; the same seed draws the same token on every machine"},
    [AS_MSG_RD_UNKNOWN_MASK] = {"没有“%s”这种掩码",
        "unknown mask \"%s\""},
    [AS_MSG_HINT_RD_MASKS] = {"mask可以是causal、none或window W；自己定的掩码写成矩阵M = [[...]]",
        "mask is causal, none or window W; a mask of your own is a matrix M = [[...]]"},
    [AS_MSG_RD_UNKNOWN_LAYOUT] = {"没有“%s”这种排法",
        "unknown layout \"%s\""},
    [AS_MSG_HINT_RD_LAYOUTS] = {"layout可以是book（[输入宽度, 输出宽度]，和F11一样Q = X @ Wq）或torch（[输出宽度, 输入宽度]，和torch.nn.Linear.weight一样）",
        "layout is book ([in, out], Q = X @ Wq as in F11) or torch ([out, in], like torch.nn.Linear.weight)"},
    [AS_MSG_RD_UNKNOWN_SETTING] = {"没有“%s”这个设置",
        "unknown setting \"%s\""},
    [AS_MSG_HINT_RD_SETTINGS] = {"注意力的设置有title、tokens、kv_tokens、mask、heads、kv_heads、layout、scale、loss、ask、positions、rope和rope_base；整层的有block、norm、norm_eps、norm_style和ffn；嵌入和输出头的有ids、head、temperature、top_k、top_p和sample；载入模型用model和preset",
        "attention's settings are title, tokens, kv_tokens, mask, heads, kv_heads, layout, scale, loss, ask, positions, rope and rope_base; a whole layer's: block, norm, norm_eps, norm_style and ffn; the embedding's and the head's: ids, head, temperature, top_k, top_p and sample; a model's: model and preset"},
    [AS_MSG_HINT_RD_MATRIX_EQUALS] = {"矩阵要用“=”来写：%s = [[1, 2], [3, 4]]",
        "a matrix is written with \"=\": %s = [[1, 2], [3, 4]]"},
    [AS_MSG_HINT_RD_SETTING_COLON] = {"设置要用冒号来写，例如mask: causal",
        "a setting is written with a colon, e.g. mask: causal"},
    [AS_MSG_RD_UNKNOWN_NAME] = {"没有“%s”这个名字",
        "unknown name \"%s\""},
    [AS_MSG_HINT_RD_NAMES] = {"矩阵有X、Xkv、Wq、Wk、Wv、Wo、bq、bk、bv、bo和M（W_q、WQ、X_kv之类的写法指的是同一个名字），grad还有dO和target",
        "the matrices are X, Xkv, Wq, Wk, Wv, Wo, bq, bk, bv, bo and M (W_q, WQ, X_kv and the like are the same names), and for grad dO and target"},
    [AS_MSG_RD_UTF16] = {"这个文件是UTF-16编码的文本，不是UTF-8",
        "the file is UTF-16 text, not UTF-8"},
    [AS_MSG_HINT_RD_UTF16] = {"请另存为UTF-8：iconv -f UTF-16 -t UTF-8 原文件 > 新文件；或在记事本里“另存为”，编码选UTF-8",
        "re-save it as UTF-8: iconv -f UTF-16 -t UTF-8 FILE > NEW, or in Notepad Save As with the encoding UTF-8"},
    [AS_MSG_RD_NUL] = {"文件里有NUL字节",
        "the file holds a NUL byte"},
    [AS_MSG_HINT_RD_NUL] = {"输入是纯UTF-8文本；这是不是一个二进制文件？",
        "an input is plain UTF-8 text; is this a binary file?"},
    [AS_MSG_RD_GBK] = {"这个文件看起来是GBK/GB18030编码，不是UTF-8（字节0x%02x）",
        "the file looks like GBK/GB18030 text, not UTF-8 (byte 0x%02x)"},
    [AS_MSG_HINT_RD_GBK] = {"请另存为UTF-8：iconv -f GBK -t UTF-8 原文件 > 新文件；或在记事本里“另存为”，编码选UTF-8",
        "re-save it as UTF-8: iconv -f GBK -t UTF-8 FILE > NEW, or in Notepad Save As with the encoding UTF-8"},
    [AS_MSG_RD_UTF8] = {"不是合法的UTF-8（字节0x%02x）",
        "invalid UTF-8 (byte 0x%02x)"},
    [AS_MSG_HINT_RD_UTF8] = {"请把文件存成UTF-8文本",
        "save the file as UTF-8 text"},
    [AS_MSG_HELP_USAGE] = {"用法：", "Usage: "},
    [AS_MSG_CMD_ARGS_FILE] = {"文件 [选项]", "FILE [options]"},
    [AS_MSG_CMD_ARGS_CHECK] = {"文件 答案文件…", "FILE ANSWERS..."},
    [AS_MSG_CMD_ARGS_NONE] = {"[选项]", "[options]"},
    [AS_MSG_CMD_ARGS_COMPARE] = {"原输入 新输入", "BASE VARIANT"},
    [AS_MSG_CMD_RUN] = {"按书中的顺序列出每一张表", "every table, in the book's order"},
    [AS_MSG_CMD_TRACE] = {"手算过程，一步一步", "the hand calculation, step by step"},
    [AS_MSG_CMD_CHECK] = {"批改答案：一个或多个文件，或装着*.txt的目录",
                       "grade answers: files, or directories of *.txt"},
    [AS_MSG_CMD_EXERCISE] = {"出一道新的手算练习", "a new exercise for hand calculation"},
    [AS_MSG_CMD_COMPARE] = {"只改一处输入时，哪些表跟着变", "what changes when one input changes"},
    [AS_MSG_CMD_GRAD] = {"反向传播：每一个梯度", "the backward pass: every gradient"},
    [AS_MSG_USE_GRAD_ONLY] = {"grad --only要给用逗号隔开的梯度名（dO、dWo、dbo、dC、dV、dA、dS、"
                           "dQKT、dQ、dK、dWq、dWk、dWv、dbq、dbk、dbv、dX、dXkv），“%s”不是梯度名",
                           "grad --only takes gradient names (dO, dWo, dbo, dC, dV, dA, dS, dQKT, "
                           "dQ, dK, dWq, dWk, dWv, dbq, dbk, dbv, dX, dXkv) separated by commas; "
                           "\"%s\" is not one"},
    [AS_MSG_HINT_GRAD_FORMAT] = {"要其他格式的前向计算表，请用 run --format …",
                              "for the forward tables in another format, use run --format ..."},
    [AS_MSG_USE_GRAD_ROW] = {"grad --row写的是逐步推导：只能用--format text或html",
                          "grad --row writes a walk-through: --format text or html only"},
    [AS_MSG_HINT_GRAD_ROW] = {"要JSON格式的全部梯度表，请去掉--row",
                           "leave out --row for every gradient table in JSON"},
    [AS_MSG_USE_OFFSET] = {"--offset要给第0行的位置，即0到1000000000之间的整数，不能是“%s”",
                        "--offset takes the position of row 0, a whole number from 0 to "
                        "1000000000, not \"%s\""},
    [AS_MSG_CMD_DECODE] = {"用KV缓存逐个Token生成", "generation token by token, with a KV cache"},
    [AS_MSG_USE_TILES] = {"--tiles要给块的大小，即1到16384之间的整数，不能是“%s”",
                       "--tiles takes a block size, a whole number from 1 to 16384, not \"%s\""},
    [AS_MSG_HINT_TILES_FORMAT] = {"在线softmax和run的表并排显示，只有text和JSON两种格式，或者一个网页（html）",
                               "the online softmax is shown beside the run's tables in text and "
                               "JSON, or on a page (html)"},
    [AS_MSG_USE_DECODE_ONLY] = {"decode只接受--only O", "decode takes only --only O"},
    [AS_MSG_HINT_DECODE_ONLY] = {"decode逐步显示每一步的各行；--only O只保留输出",
                              "decode shows each step's rows; --only O keeps just the output"},
    [AS_MSG_USE_DECODE_JSON] = {"decode --only O要配合--format json", "decode --only O needs --format json"},
    [AS_MSG_HINT_DECODE_JSON] = {"文本形式要走完每一步；请写 decode --only O --format json",
                              "the text form walks every step; write decode --only O --format json"},
    [AS_MSG_HINT_DECODE_CELLS] = {"每一步的分数和份额都要保存下来供显示；--only O只保存输出",
                               "every step's scores and shares are kept to be shown; --only O "
                               "keeps only the output"},
    [AS_MSG_DECODE_RANGE] = {"第%zu步（“%s”）超出了双精度浮点数的范围",
                          "step %zu (\"%s\") leaves the range of a double"},
    [AS_MSG_CMD_SHEET] = {"为一份输入出练习卷（和答案）", "a worksheet (and key) for an input"},
    [AS_MSG_USE_COUNT] = {"--count要给1到1000之间的整数，不能是“%s”",
                       "--count takes a whole number from 1 to 1000, not \"%s\""},
    [AS_MSG_USE_STEP] = {"--step只能取project、scores、softmax、mix、sample、norm、residual或ffn，"
                         "不能是“%s”",
                      "--step takes project, scores, softmax, mix, sample, norm, residual or ffn, "
                      "not \"%s\""},
    [AS_MSG_USE_COUNT_CLASS] = {"--count和--class不能一起用：--class为每个名字出一道题",
                             "--count and --class do not go together: --class makes one "
                             "exercise per name"},
    [AS_MSG_FILE_NO_DIR] = {"无法建立目录：%s", "cannot make the directory: %s"},
    [AS_MSG_HINT_SHEET_LATEX] = {"默认是md；latex用pdflatex（英文）或xelatex（中文）编译",
                              "md is the default; latex compiles with pdflatex (en) or xelatex (zh)"},
    [AS_MSG_HELP] = {
        "\n"
        "一个注意力层的教学计算器，每个数都写出来：\n"
        "Q = X@Wq，K = X@Wk，V = X@Wv，S = QK^T/sqrt(d_k) + M，\n"
        "A = 每行softmax(S)，O = AV。\n"
        "文件写作 - 时从标准输入读取。\n"
        "\n"
        "选项：\n"
        "  --lang zh|en          说明文字的语言（默认zh；环境变量ATTNSTEP_LANG可改默认）\n"
        "  --format 格式         text（默认）、json、md、latex、csv、svg或html，视命令而定；\n"
        "                        csv只写--only指定的那一张表，svg把每个头的A画成热力图，\n"
        "                        html（run、trace）是一步一步点开的独立网页；\n"
        "                        exercise还可以输出gift和moodle（导入Moodle题库）\n"
        "  --digits N            显示的小数位数，0到17（默认10）\n"
        "  --mask causal|none    不用文件里的掩码设置，改用这里给的\n"
        "  --only 列表           只显示这些表，例如 --only A,O\n"
        "                        （X、W、Q、K、V、QKT、M、S、A、O、C；PE、Qr、Kr、B）\n"
        "  --ascii               用 -inf、x、*、sqrt 代替 −∞、×、·、√ 和下标\n"
        "  --color 何时          auto（默认：只在终端上着色，设置了NO_COLOR就不着色）、\n"
        "                        always或never；也可以写作--colour\n"
        "  --heatmap             run：每张A后面画一张读取份额的深浅格子图\n"
        "  --predict             run、trace、decode、grad的html：每个算出的格子先藏起来，\n"
        "                        写对了才显示\n"
        "  --tiles B             run、trace：另外按每块B个Key分块读取，\n"
        "                        做在线softmax（FlashAttention）\n"
        "  --offset P            位置从P开始而不是从0开始（配合positions）；\n"
        "                        用rope时分数不变\n"
        "  --row I|last|all      trace：逐步计算哪一个接收行（默认last，即最后一行）；\n"
        "                        grad：对这一行的softmax逐步反向计算；\n"
        "                        practice：只问这一行的QKᵀ、S、A、O\n"
        "  --head H              practice：只练第H个头（从0数起）\n"
        "  -o, --output 文件     写进这个文件（整份写完才替换），不写到标准输出\n"
        "  --force               允许-o覆盖已有的文件\n"
        "  --tol T               check、practice：与正确值相差不超过T就算对\n"
        "  --require-digits N    check：不是整数的答案，小数少于N位就算错\n"
        "                        （--format text、md、csv成绩表或json）\n"
        "  --seed N              exercise、practice：随机种子（种子相同，题目就相同）\n"
        "  --tokens T            exercise：Token的个数\n"
        "  --width D             exercise：X的宽度\n"
        "  --dk K, --dv V        exercise：Query/Key的宽度和Value的宽度\n"
        "  --level 1|2|3         exercise、practice：1级和书中一样都是整数，级数越高越难\n"
        "  --answers             exercise、sheet：附上答案\n"
        "  --step STEP           exercise、sheet：只练一步：project、scores、softmax、\n"
        "                        mix（它之前的表直接给出）或sample（给出logits，求probs）；\n"
        "                        整个块的norm（求N1、N2）、residual（求H1、H2）、\n"
        "                        ffn（求U、F、D），默认--block pre；\n"
        "                        trace --step N：只看第N步（1到4）和它用到的表\n"
        "  --block pre|post      exercise：出整个块的题（宽度默认4，d_v = 宽度）；\n"
        "                        只给--norm或--ffn时就是--block pre\n"
        "  --norm layer|rms      exercise：块的归一化（默认layer）\n"
        "  --ffn 激活            exercise：gelu_tanh（默认）、gelu、relu、swiglu或none\n"
        "  --exp-table           exercise、sheet：附一张e^x表，供softmax查用；\n"
        "                        有前馈网络时再附一张GELU/ReLU/SiLU的值表\n"
        ,
        "\n"
        "A teaching calculator for one attention layer that shows every number:\n"
        "Q = X@Wq, K = X@Wk, V = X@Wv, S = QK^T/sqrt(d_k) + M,\n"
        "A = softmax of each row of S, O = AV.\n"
        "FILE may be - for standard input.\n"
        "\n"
        "Options:\n"
        "  --lang zh|en          language of the captions (default zh; ATTNSTEP_LANG)\n"
        "  --format FMT          text (default), json, md, latex, csv, svg or html, where\n"
        "                        it makes sense; csv writes the one table --only names,\n"
        "                        svg draws each head's A as a heatmap, html (run, trace)\n"
        "                        is a page to click through step by step; exercise also\n"
        "                        gift and moodle (Moodle quiz imports)\n"
        "  --digits N            decimal places shown, 0-17 (default 10)\n"
        "  --mask causal|none    override the file's mask\n"
        "  --only LIST           only these tables, e.g. --only A,O\n"
        "                        (X, W, Q, K, V, QKT, M, S, A, O, C; PE, Qr, Kr, B)\n"
        "  --ascii               -inf, x, *, sqrt instead of −∞, ×, ·, √ and subscripts\n"
        "  --color WHEN          auto (default: only on a terminal, never with NO_COLOR\n"
        "                        set), always or never; also spelt --colour\n"
        "  --heatmap             run: after each A, a shaded grid of the shares\n"
        "  --predict             run, trace, decode, grad with html: each worked-out cell\n"
        "                        hidden until\n"
        "                        a right guess is typed into it\n"
        "  --tiles B             run, trace: also the online softmax (FlashAttention),\n"
        "                        reading the Keys in blocks of B\n"
        "  --offset P            positions start at P instead of 0 (with positions:);\n"
        "                        with rope the scores stay the same\n"
        "  --row I|last|all      trace: the receiving row to walk (default last);\n"
        "                        grad: walk that row's softmax backward;\n"
        "                        practice: ask only that row of QKᵀ, S, A and O\n"
        "  --head H              practice: only head H (counted from 0)\n"
        "  -o, --output FILE     write to FILE (atomically) instead of standard output\n"
        "  --force               let -o replace an existing FILE\n"
        "  --tol T               check, practice: accept answers within T\n"
        "  --require-digits N    check: a non-integer with fewer than N decimals is wrong\n"
        "                        (--format text, md, csv gradebook or json)\n"
        "  --seed N              exercise, practice: the seed (same seed, same exercise)\n"
        "  --tokens T            exercise: number of tokens\n"
        "  --width D             exercise: width of X\n"
        "  --dk K, --dv V        exercise: widths of a Query/Key and of a Value\n"
        "  --level 1|2|3         exercise, practice: whole numbers, like the book, or harder\n"
        "  --answers             exercise, sheet: add the answer key\n"
        "  --step STEP           exercise, sheet: a drill on one step: project, scores,\n"
        "                        softmax, mix (the tables before it are given) or\n"
        "                        sample (the logits given, probs asked); the block's\n"
        "                        norm (N1, N2), residual (H1, H2) or ffn (U, F, D),\n"
        "                        with --block pre unless told;\n"
        "                        trace --step N: only step N (1-4) and its tables\n"
        "  --block pre|post      exercise: a whole block (width 4, d_v = width);\n"
        "                        --norm or --ffn alone mean --block pre\n"
        "  --norm layer|rms      exercise: the block's norm (layer by default)\n"
        "  --ffn ACT             exercise: gelu_tanh (default), gelu, relu, swiglu, none\n"
        "  --exp-table           exercise, sheet: a table of e^x for the softmax, and with\n"
        "                        an FFN one of its GELU/ReLU/SiLU values\n"
    },
    [AS_MSG_HELP_MORE] = {
        "  --count N             exercise：出N道变式（配合-o 目录：每道一个文件）\n"
        "  --class 名单          exercise：名单里每个名字一道变式（每行一个名字；\n"
        "                        -o 目录：sheets/发给学生，teacher/老师留存）\n"
        "  --class 目录          check：全班按各自的变式批改（答案文件…，不给文件）\n"
        "  --expect 表           check：要答的表，如'Q K V S'（每人满分相同）\n"
        "  -h, --help            显示本帮助后退出\n"
        "  --version             显示版本号后退出\n"
        ,
        "  --count N             exercise: N variants (with -o DIR: a file each)\n"
        "  --class ROSTER        exercise: a variant per name in ROSTER (a name a line;\n"
        "                        -o DIR: DIR/sheets to hand out, DIR/teacher to keep)\n"
        "  --class DIR           check: each student against their own variant\n"
        "                        (ANSWERS... only, no FILE)\n"
        "  --expect LIST         check: the tables asked, e.g. 'Q K V S' (one maximum)\n"
        "  -h, --help            print this help and exit\n"
        "  --version             print the version and exit\n"
    },
    [AS_MSG_HELP_INPUT] = {
        "\n"
        "输入格式（UTF-8；# 之后是注释）：\n"
        "  tokens: 我 爱         X每一行的标签\n"
        "  mask: causal          causal | none | window W（或者给出矩阵M）\n"
        "  X  = [[1, 1], [1, -1]]  矩阵可以跨行书写，可以并排，\n"
        "  Wq = [[0.5, 0.5], [-1/2, 1/2]]  可以用分数、−，或者load(\"file.txt\")\n"
        "  另外还有：Xkv、kv_tokens（交叉注意力）、heads、kv_heads、Wo、bq/bk/bv/bo、\n"
        "  layout: torch、scale: auto|数值、title。必须给出：X、Wq、Wk、Wv。\n"
        "  positions: none|sinusoidal|rope|alibi（位置信息），rope还可设rope_base: 10000\n"
        "  和rope: half|interleaved。\n"
        "  grad用：loss: sum，或者loss: mse加上target = [[...]]，或者dO = [[...]]。\n"
        "  中文输入法打出的全角符号 ＝［］，：－（） 也认得。\n"
        "\n"
        "限制：任何一张表最多16384行或16384列、2^26个数（计算中产生的表也算，\n"
        "所有头的分数合起来也算）；括号最多嵌套两层；一个文件最大2 GiB。\n"
        "超出限制时报错，退出码为2。\n"
        "退出码：0 成功；1 check发现有答案不对，或practice有格子没答对；2 用法或输入有误。\n"
        "出错时，错误和提示都用--lang选定的语言；错误开头的“文件:行:列”从1开始数，\n"
        "和编辑器一样；表的行和列（如A[1][0]、--row 1）从0开始数，和书中一样。\n"
        "\n"
        "示例：\n"
        "  attnstep run examples/f11.txt --lang en\n"
        "  attnstep trace examples/f11.txt --row all\n"
        "  attnstep practice examples/f11.txt\n"
        "  attnstep run examples/f11.txt --format svg -o f11.svg\n"
        "\n"
        "完整文档：man attnstep（中文版：man -L zh_CN attnstep）\n"
        ,
        "\n"
        "Input format (UTF-8; # starts a comment):\n"
        "  tokens: 我 爱                 labels of the rows of X\n"
        "  mask: causal                  causal | none | window W (or a matrix M)\n"
        "  X  = [[1, 1], [1, -1]]        matrices may span lines, sit side by side,\n"
        "  Wq = [[0.5, 0.5], [-1/2, 1/2]]  use fractions, −, or load(\"file.txt\")\n"
        "  Also: Xkv, kv_tokens (cross-attention), heads, kv_heads, Wo, bq/bk/bv/bo,\n"
        "  layout: torch, scale: auto|NUMBER, title. Required: X, Wq, Wk, Wv.\n"
        "  positions: none|sinusoidal|rope|alibi (the order of the tokens), with\n"
        "  rope_base: 10000 and rope: half|interleaved for rope.\n"
        "  For grad: loss: sum, or loss: mse with target = [[...]], or dO = [[...]].\n"
        "  Full-width ＝［］，：－（） of a Chinese input method read as = [ ] , : - ( ).\n"
        "\n"
        "Limits: at most 16384 rows or columns, and 2^26 numbers, in any one table\n"
        "(also the tables the run makes, and the scores of all heads together);\n"
        "brackets two deep; files of at most 2 GiB. Above a limit: an error, exit 2.\n"
        "Exit status: 0 success; 1 check found a wrong answer, or practice a cell not\n"
        "answered right; 2 bad usage or input.\n"
        "Errors and hints follow --lang. An error's FILE:LINE:COL counts from 1, as editors\n"
        "do; a table's rows and columns (A[1][0], --row 1) count from 0, as the book does.\n"
        "\n"
        "Examples:\n"
        "  attnstep run examples/f11.txt --lang en\n"
        "  attnstep trace examples/f11.txt --row all\n"
        "  attnstep practice examples/f11.txt\n"
        "  attnstep run examples/f11.txt --format svg -o f11.svg\n"
        "\n"
        "Full documentation: man attnstep (in Chinese: man -L zh_CN attnstep)\n"
    },
    /* worksheets (issue 14) */
    [AS_MSG_SHEET_LEVEL] = {"第%d级，种子%lu", "level %d, seed %lu"},
    [AS_MSG_SHEET_DRILL] = {"单步练习：%s", "one-step drill: %s"},
    [AS_MSG_SHEET_STEP_PROJECT] = {"投影（求Q、K、V）", "the projections (Q, K, V)"},
    [AS_MSG_SHEET_STEP_SCORES] = {"打分与缩放（求QK转置和S）", "scoring and scaling"},
    [AS_MSG_SHEET_STEP_SOFTMAX] = {"softmax（求A）", "the softmax (A)"},
    [AS_MSG_SHEET_STEP_MIX] = {"混合Value（求O）", "mixing the Values (O)"},
    [AS_MSG_SHEET_STEP_SAMPLE] = {"输出头与抽样（求probs和抽到的词）",
                                  "the output head and the draw (probs and the token drawn)"},
    [AS_MSG_SHEET_STEP_NORM] = {"归一化（求N1和N2）", "the normalisation (N1 and N2)"},
    [AS_MSG_SHEET_STEP_RESIDUAL] = {"残差（求H1和H2）", "the residual adds (H1 and H2)"},
    [AS_MSG_SHEET_STEP_FFN] = {"前馈网络（求U、F和D）", "the feed-forward network (U, F and D)"},
    [AS_MSG_SHEET_SAMPLE_ORDER] = {"先把%s除以温度T = %s，再做softmax，然后按下面的规则裁剪，"
                                   "最后在留下的词上重新归一化，得到%s（被裁掉的词概率为0）。",
                                   "Divide %s by the temperature T = %s first, then take the "
                                   "softmax, then cut as below, and renormalise over the tokens "
                                   "kept: that is %s (a token cut away has probability 0)."},
    [AS_MSG_SHEET_SAMPLE_TOPK] = {"裁剪用top-k：只留下最大的%s个词，其余的词概率为0。",
                                  "The cut is top-k: keep the %s largest, the others get 0."},
    [AS_MSG_SHEET_SAMPLE_TOPP] = {"裁剪用top-p：把概率从大到小排好、依次累加，留下累计和刚达到%s"
                                  "的最少几个词，让累计和越过它的那个词也留下。",
                                  "The cut is top-p: sort the probabilities from the largest "
                                  "down and add them up; keep the fewest tokens whose sum "
                                  "reaches %s, the token that crosses it kept too."},
    [AS_MSG_SHEET_SAMPLE_GREEDY] = {"然后用贪心选出下一个词：取概率最大的那个（写出它的编号）。",
                                    "Then choose the next token greedily: the most likely one "
                                    "(write its number)."},
    [AS_MSG_SHEET_SAMPLE_DRAW] = {"然后抽样：随机数u = %s，按编号顺序累加概率，累计和第一个超过u"
                                  "的词就是抽到的词（写出它的编号）。",
                                  "Then draw: the random number is u = %s; add up the "
                                  "probabilities in the tokens' order, and the first token whose "
                                  "running sum exceeds u is the one drawn (write its number)."},
    [AS_MSG_SHEET_SAMPLE_WORDS] = {"这就是F09演示的随机抽样：按概率抽出一个词。F11里的Attention"
                                   "不抽样，它用权重对Value做确定的加权求和。",
                                   "This is F09's random draw: one token picked by its "
                                   "probability. F11's attention draws nothing: it takes a "
                                   "fixed weighted sum of the Values."},
    [AS_MSG_SHEET_SAMPLE_TOKEN] = {"抽到的词（编号）：", "Token drawn (its number): "},
    [AS_MSG_SHEET_SAMPLE_GOT] = {"抽到的词：%s", "Token drawn: %s"},
    [AS_MSG_SHEET_VARIANT] = {"版本%s", "variant %s"},
    [AS_MSG_SHEET_NAME] = {"姓名：", "Name: "},
    [AS_MSG_SHEET_CLASS] = {"班级：", "Class: "},
    [AS_MSG_SHEET_DATE] = {"日期：", "Date: "},
    [AS_MSG_SHEET_DO] = {"计算%s，把结果填进下面的空表。",
                      "Compute %s and write them into the empty tables below."},
    [AS_MSG_SHEET_PLACES] = {"不是整数的结果保留%s位小数，整数照写。",
                          "Round every result that is not a whole number to %s decimal places; "
                          "write whole numbers as they are."},
    [AS_MSG_SHEET_SOFTMAX] = {"%s的每一行是对%s的同一行做softmax，每行之和为1。",
                           "Each row of %s is the softmax of the same row of %s; each row adds "
                           "up to 1."},
    [AS_MSG_SHEET_MASKED] = {"被掩码挡住（不可读）的格子：%s里写%s，%s里写0。",
                          "Where the mask forbids reading, %s holds %s and %s holds 0."},
    [AS_MSG_SHEET_WORK] = {"演算区", "Working space"},
    [AS_MSG_SHEET_EXP] = {"可能用到的e的幂（x是减去本行最大值后的分数）：",
                       "Powers of e you may need (x is a score minus the max of its row):"},
    [AS_MSG_SHEET_HEAD] = {"第%s个头", "head %s"},
    [AS_MSG_SHEET_STEP2] = {"第二步：把分数除以%s（%s）。", "Step 2: divide the scores by %s (%s)."},
    [AS_MSG_SHEET_STEP2_SCALE] = {"第二步：把分数乘以输入指定的缩放系数。",
                               "Step 2: multiply the scores by the scale the input sets."},
    [AS_MSG_ROSTER_UNREADABLE] = {"无法读取点名册：%s", "cannot read the roster: %s"},
    [AS_MSG_ROSTER_NOT_UTF8] = {"点名册不是UTF-8文本", "the roster is not UTF-8 text"},
    [AS_MSG_ROSTER_NOT_UTF8_HINT] = {"请把它另存为UTF-8编码（记事本：另存为，编码选“UTF-8”）",
                                  "save it again as UTF-8 (most editors: Save As, encoding UTF-8)"},
    [AS_MSG_ROSTER_CONTROL] = {"名字里有控制字符", "a control character in a name"},
    [AS_MSG_ROSTER_BIDI] = {"名字里有改变文字方向的控制字符（看不见，却会打乱显示的顺序）",
                            "a direction control in a name (invisible, it reorders what is shown)"},
    [AS_MSG_ROSTER_BIG] = {"点名册太大：最多%d个名字、%d MiB", "the roster is too big: at most %d names and %d MiB"},
    [AS_MSG_ROSTER_MANY] = {"名字太多：一个点名册最多%d个名字", "too many names: a roster holds at most %d"},
    [AS_MSG_ROSTER_LIMIT_HINT] = {"把班级分成几个点名册，每个分别生成", "split the class into several rosters and make each on its own"},
    [AS_MSG_ROSTER_LONG] = {"名字太长：最多64个字节", "the name is too long: at most 64 bytes"},
    [AS_MSG_ROSTER_TWICE] = {"“%s”在第%d行已经出现过", "“%s” is already on line %d"},
    [AS_MSG_ROSTER_TWICE_HINT] = {"同名的两个学生会拿到同一道题：请加以区分，例如“张三2”",
                               "two students of one name would get the same exercise: tell "
                               "them apart, e.g. “Li Wei 2”"},
    [AS_MSG_ROSTER_EMPTY] = {"点名册里没有名字", "the roster names no student"},
    [AS_MSG_ROSTER_HINT] = {"每行写一个名字；空行跳过，#开始注释", "write one name a line; blank lines "
                         "are skipped and # starts a comment"},
    [AS_MSG_EX_STUDENT] = {"学生：%s，版本%s", "student: %s, variant %s"},
    [AS_MSG_EX_DRILL] = {"单步练习：%s", "one-step drill: %s"},
    [AS_MSG_EX_SEED_DRAWN] = {"没有给--seed，本次抽到种子%lu；用同一个种子可以再生成同样的题",
                           "no --seed given: drew seed %lu; the same seed makes the same exercise again"},
    [AS_MSG_EX_WROTE] = {"已写入%s", "wrote %s"},
    [AS_MSG_QUIZ_CELL] = {"%s第%s行（“%s”）第%s列（“%s”）的值是多少？",
                       "What is %s in row %s (“%s”), column %s (“%s”)?"},
    [AS_MSG_QUIZ_CELL_NUM] = {"%s第%s行（“%s”）第%s列的值是多少？",
                           "What is %s in row %s (“%s”), column %s?"},
    [AS_MSG_QUIZ_RIGHT] = {"正确。", "Right."},
    [AS_MSG_QUIZ_MISTAKE] = {"不对（%s）：%s。", "Not right (%s) — %s."},
    /* ---- grading a class (issue 13, SPEC §6): more named mistakes, scores, the class view ---- */
    [AS_MSG_DIAG_SCALE_BY_DK] = {"分数除以了d_k，应当除以%s：缩放用的是d_k的平方根",
                              "the scores were divided by d_k; they are divided by %s, its square root"},
    [AS_MSG_DIAG_MASKED_ZERO] = {"被禁止的位置写成了0，应当是−∞：加0等于允许读取，只有−∞的指数才是0",
                              "0 was written where the mask forbids reading; it must be −∞: adding 0 allows "
                              "the position, only −∞ gives an exponential of 0"},
    [AS_MSG_DIAG_INVERTED_MASK] = {"掩码方向反了：每行应当只读自己和前面的位置，不能读后面（未来）的位置",
                                "the mask is turned round: each row reads itself and the positions before "
                                "it, never the ones after it (the future)"},
    [AS_MSG_DIAG_MASK_AFTER_SOFTMAX] = {"先做softmax再把禁止位置清零，剩下的份额加起来不再是1：掩码要在softmax之前加到分数上",
                                     "the softmax was taken first and the forbidden shares set to 0 "
                                     "afterwards, so the shares left no longer sum to 1: the mask is "
                                     "added to the scores before the softmax"},
    [AS_MSG_DIAG_NO_NORMALIZE] = {"只取了指数，没有除以指数之和：每行份额加起来应当是1",
                               "the exponentials were not divided by their sum: each row of shares "
                               "must add up to 1"},
    [AS_MSG_DIAG_KEYS_FOR_VALUES] = {"混合的是Key，应当用份额混合Value：Key只用来打分，Value才是被取走的内容",
                                  "the Keys were mixed; the shares mix the Values: Keys only score, "
                                  "Values are what is read"},
    [AS_MSG_DIAG_WRONG_WEIGHTS] = {"%s用%s算了，应当用%s", "%s was made with %s; it is made with %s"},
    [AS_MSG_DIAG_TEMPERATURE_AFTER_SOFTMAX] = {"温度用在了softmax之后：概率除以T再归一化，分布一点也没变；T要在softmax之前拿来除logits，才会让分布变尖或变平",
        "the temperature was applied after the softmax: probabilities divided by T and renormalised do not change at all; T must divide the logits before the softmax to sharpen or flatten them"},
    [AS_MSG_DIAG_TOPP_DROPS_CROSSING] = {"top-p漏掉了越过P的那个词：累计和第一次达到P时，让它达到P的那个词也要留下，否则留下的概率之和不到P",
        "top-p left out the token that crosses P: the token whose probability makes the running sum reach P is kept too, else what is kept sums to less than P"},
    [AS_MSG_DIAG_TOPK_BEFORE_TEMPERATURE] = {"截断做在了除以温度之前：top-k/top-p要看的是除以T之后的概率，T改变了哪些词能进入累计的前P",
        "the cut was made before the division by the temperature: top-k and top-p look at the probabilities after ÷T, and T changes which tokens make up the first P of the running sum"},
    [AS_MSG_DIAG_TORCH_LAYOUT] = {"%s用了转置的%s（X@%sᵀ，PyTorch的[输出宽度,输入宽度]存法）；本书右乘[输入宽度,输出宽度]的%s",
                               "%s was made with %s transposed (X@%sᵀ, PyTorch's [out, in] layout); the "
                               "book right-multiplies %s as [in, out]"},
    [AS_MSG_CHK_AMBIGUOUS] = {"诊断：有几种错误同样对得上（%s），无法确定是哪一种",
                           "diagnosis: several mistakes fit equally (%s); none is named"},
    [AS_MSG_CHK_LIST_SEP] = {"、", ", "},
    [AS_MSG_CHK_FIT_WEIGHTS] = {"（%s用了%s）", " (%s made with %s)"},
    [AS_MSG_CHK_FIT_TORCH] = {"（%s用了转置的%s）", " (%s made with %s transposed)"},
    [AS_MSG_CHK_CARRIED] = {"%s：这一步本身做对了，错误来自你前面的%s（carried_error，照样得分）",
                         "%s: this step itself was done right; the error comes from your own %s "
                         "(carried_error: the mark is earned)"},
    [AS_MSG_CHK_ROW_CELL] = {"%s[%zu]：写的是%s，应为%s", "%s[%zu]: written %s, expected %s"},
    [AS_MSG_CHK_TOO_FEW] = {"（小数位数不够：要求至少%d位）", " (too few decimals: at least %d asked)"},
    [AS_MSG_CHK_STUDENT] = {"学生：%s　得分：%s/%zu", "student: %s  score: %s/%zu"},
    [AS_MSG_CHK_MISSING] = {"没有答：%s（各得0分）", "missing: %s (0 marks each)"},
    [AS_MSG_CHK_ASK_UNKNOWN] = {"ask：%s不是答案可以写的表",
                             "ask: %s is no table an answer may give"},
    [AS_MSG_CHK_ASK_UNKNOWN_HINT] = {"ask要列出各张表的名字，用空格隔开，如：ask: Q K V QKT S A O",
                                  "ask lists the tables by name, separated by blanks: ask: Q K V QKT S A O"},
    [AS_MSG_CHK_IGNORED] = {"没有批改：%s（不是本章要答的表%s）",
                         "not graded: %s (no table the chapter asks%s)"},
    [AS_MSG_CHK_IGNORED_MEANT] = {"%s是不是想写%s？", " %s: did you mean %s?"},
    [AS_MSG_CHK_MEANT_FIRST] = {"；", ";"},
    [AS_MSG_CHK_CLASS] = {"全班汇总（%zu名学生）", "class summary (%zu students)"},
    [AS_MSG_CHK_MEAN] = {"平均分：%s/%s", "mean score: %s/%s"},
    [AS_MSG_CHK_MADE] = {"各种错误的人数：", "students per named mistake:"},
    [AS_MSG_CHK_MADE_LINE] = {"%s：%zu人", "%s: %zu"},
    [AS_MSG_CHK_NO_MISTAKE] = {"（没有）", "(none)"},
    [AS_MSG_CHK_ITEMS] = {"逐表分析（每张表的人数）：", "item analysis (students per table):"},
    [AS_MSG_CHK_ITEM_LINE] = {"%s：正确%zu，错误带过来%zu，不对%zu%s，没答%zu",
                           "%s: right %zu, carried %zu, wrong %zu%s, missing %zu"},
    [AS_MSG_CHK_ITEM_MADE] = {"（%s）", " (%s)"},
    [AS_MSG_CHK_COL_MISSING] = {"没答", "missing"},
    [AS_MSG_CHK_UNREADABLE] = {"无法读取答案文件：%s", "cannot read the answers: %s"},
    [AS_MSG_CHK_NOT_GRADED] = {"（文件无法批改）", "(file could not be graded)"},
    [AS_MSG_CHK_COL_STUDENT] = {"学生", "student"},
    [AS_MSG_CHK_COL_SCORE] = {"得分", "score"},
    [AS_MSG_CHK_COL_MISTAKES] = {"错误", "mistakes"},
    [AS_MSG_CHK_COL_TABLE] = {"表", "table"},
    [AS_MSG_CHK_COL_RESULT] = {"结果", "result"},
    [AS_MSG_CHK_COL_DIAG] = {"诊断", "diagnosis"},
    [AS_MSG_CHK_COL_COUNT] = {"人数", "students"},
    [AS_MSG_CHK_WORD_RIGHT] = {"正确", "right"},
    [AS_MSG_CHK_WORD_WRONG] = {"不对", "wrong"},
    [AS_MSG_CHK_WORD_CARRIED] = {"前面的错误带过来（得分）", "carried error (earned)"},
    [AS_MSG_CHK_TOO_MANY] = {"答案文件太多：一次最多批改%d个", "too many answers files: at most %d in one run"},
    [AS_MSG_CHK_TOO_MANY_HINT] = {"把答案分到几个文件夹里，分几次批改", "split the answers into several folders and grade each on its own"},
    [AS_MSG_CHK_NO_ANSWERS] = {"目录%s里没有*.txt答案文件", "the directory %s holds no *.txt answers file"},
    /* ---- compare: each kind of change its own sentence (issue 12, SPEC §8) ---- */
    [AS_MSG_WHY_MASK] = {"掩码在缩放之后加到分数上：它决定哪些位置可读（也可以给分数加偏置），从不改变原始分数QKᵀ",
                      "the mask is added to the scores after the scaling: it decides which "
                      "positions may be read (and may bias the scores), never the raw scores QKᵀ"},
    [AS_MSG_WHY_SCALE] = {"缩放系数乘在原始分数QKᵀ之后：它改变S，从不改变QKᵀ",
                       "the scale multiplies the raw scores QKᵀ once they are made: it changes "
                       "S, never QKᵀ"},
    [AS_MSG_CMP_BEFORE] = {"改变前：", "before:"},
    [AS_MSG_CMP_AFTER] = {"改变后：", "after:"},
    [AS_MSG_CMP_TOO_BIG] = {"（%s是[%zu,%zu]，太大，不并排列出）",
                         "(%s is [%zu,%zu]: too big to print before and after)"},
    /* ---- the book pasted as printed (issue 12, SPEC §2) ---- */
    [AS_MSG_RD_SHAPE_FORM] = {"形状行应写成“形状：[行数,列数]”", "a shape line is written \"shape: [rows,cols]\""},
    [AS_MSG_RD_SHAPE_FIRST] = {"形状行前面还没有矩阵", "a shape line with no matrix before it"},
    [AS_MSG_RD_SHAPE_DIFFERS] = {"形状写的是[%zu,%zu]，但矩阵%s是[%zu,%zu]",
                              "the shape says [%zu,%zu], but matrix %s is [%zu,%zu]"},
    [AS_MSG_RD_SHAPE_TOO_LARGE] = {"形状里的“%s”太大，任何一张表都没有这么多行或列；矩阵%s是[%zu,%zu]",
                                "the shape's \"%s\" is more rows or columns than any table has; matrix %s is [%zu,%zu]"},
    [AS_MSG_RD_SHAPE_HINT] = {"形状行跟在它描述的矩阵后面，如“形状：[2,2] = [Token位置数, 每个位置的特征数]”",
                           "a shape line follows the matrix it describes, e.g. \"shape: [2,2] = "
                           "[token positions, features per position]\""},
    [AS_MSG_CHK_OTHER_PROBLEM] = {"这份答案属于另一道题：它写的这张表和题目给的不同",
                               "these answers are to another problem: this table is not the "
                               "one the problem gives"},
    [AS_MSG_CHK_OTHER_PROBLEM_HINT] = {"答案里的X、W等给定的表必须与题目文件里的相同；请对照题目文件，或用答案所属的题目来批改",
                                    "the given tables in ANSWERS (X, the W tables, M) must be "
                                    "the problem file's; grade the answers against their own "
                                    "problem"},
    [AS_MSG_RD_SHAPE_HINT_ROWS] = {"形状是[行数,列数]：行数是方括号里的行数，列数是每行的数字个数",
                                "a shape is [rows,columns]: how many rows the matrix has, and how "
                                "many numbers each row holds"},
    /* grad: the backward pass (SPEC §13) */
    [AS_MSG_GRAD_NO_LOSS] = {"没有给出损失：grad要从损失对输出的梯度dO出发",
                             "no loss is given: grad starts from dO, the loss's gradient with "
                             "respect to the output"},
    [AS_MSG_GRAD_HINT_NO_LOSS] = {"加一行loss: sum（dO每格都是1），或loss: mse加target = [[…]]，"
                                  "或直接给出dO = [[…]]，形状与O相同",
                                  "add a line loss: sum (dO all ones), or loss: mse with "
                                  "target = [[...]], or give dO = [[...]] itself, shaped like O"},
    [AS_MSG_GRAD_BOTH] = {"dO与loss（第%d行）同时给出，只能选一个",
                          "dO and loss (line %d) are both given; grad needs one of them"},
    [AS_MSG_GRAD_HINT_BOTH] = {"dO就是损失对输出的梯度；给了dO就删掉loss这一行，反之亦然",
                               "dO is the loss's gradient itself: keep either dO or the loss line"},
    [AS_MSG_GRAD_LOSS_UNKNOWN] = {"未知的损失“%s”", "unknown loss \"%s\""},
    [AS_MSG_GRAD_HINT_LOSS] = {"loss可以是sum（L = O各格之和）或mse（L = Σ(O − target)²/2，"
                               "另给target = [[…]]）",
                               "loss is sum (L = the sum of O's cells) or mse "
                               "(L = sum((O - target)^2)/2, with target = [[...]])"},
    [AS_MSG_GRAD_HINT_LOSS_MEAN] = {"是不是想写loss: %s？（loss可以是sum或mse）",
                                    "did you mean loss: %s? (loss is sum or mse)"},
    [AS_MSG_GRAD_NO_TARGET] = {"loss: mse需要目标表target，但文件里没有",
                               "loss: mse needs a target table, and the file has none"},
    [AS_MSG_GRAD_TARGET_UNUSED] = {"给了target，但只有loss: mse会用到它",
                                   "target is given, but only loss: mse uses it"},
    [AS_MSG_GRAD_HINT_TARGET_ONLY] = {"要用target就写loss: mse；否则删掉target",
                                      "write loss: mse to use the target, or remove it"},
    [AS_MSG_GRAD_SHAPE] = {"%s的形状是[%zu,%zu]，但输出O的形状是[%zu,%zu]",
                           "%s is [%zu,%zu], but the output O is [%zu,%zu]"},
    [AS_MSG_GRAD_SHAPE_Y] = {"%s的形状是[%zu,%zu]，但整个块的输出Y的形状是[%zu,%zu]",
                             "%s is [%zu,%zu], but the block's output Y is [%zu,%zu]"},
    [AS_MSG_GRAD_HINT_DO_SHAPE] = {"dO的每一格是损失对O中同一格的梯度，所以dO与O形状相同",
                                   "each cell of dO is the loss's gradient with respect to the "
                                   "same cell of O, so dO has O's shape"},
    [AS_MSG_GRAD_HINT_TARGET_SHAPE] = {"target是O每一格的目标值：写一张与O形状相同的表target = [[…]]",
                                       "target holds the wanted value of each cell of O: give "
                                       "target = [[...]] with O's shape"},
    [AS_MSG_GRAD_HINT_DO_SHAPE_Y] = {"有block:时，dO的每一格是损失对整个块的输出Y中同一格的梯度，所以dO与Y形状相同",
                                     "with block:, each cell of dO is the loss's gradient with respect "
                                     "to the same cell of the block's output Y, so dO has Y's shape"},
    [AS_MSG_GRAD_HINT_TARGET_SHAPE_Y] = {"有block:时，target是整个块的输出Y每一格的目标值：写一张与Y形状相同的表target = [[…]]",
                                         "with block:, target holds the wanted value of each cell of the "
                                         "block's output Y: give target = [[...]] with Y's shape"},
    [AS_MSG_GRAD_NO_MEMORY] = {"内存不足", "out of memory"},
    [AS_MSG_GRAD_BLOCK] = {"grad还不能对整个块（block:）求梯度：归一化、前馈网络和残差的反向步骤还没有",
                           "grad does not yet take the gradient through a whole block (block:): "
                           "the backward steps of the norms, the FFN and the residual are not there yet"},
    [AS_MSG_GRAD_HINT_BLOCK] = {"去掉block:这一行，grad就对注意力层本身求梯度；整个块的前向计算用run和trace查看",
                                "leave the block: line out for the attention layer's own gradient; "
                                "run and trace show the whole block's forward pass"},
    [AS_MSG_GRAD_INTRO] = {"反向传播：误差从输出出发，沿“O→A与V→Q与K→各张W”的计算依赖逐表传回。",
                           "The backward pass: the error starts at the output and flows back "
                           "along O -> A and V -> Q and K -> the W tables, table by table."},
    [AS_MSG_GRAD_LOSS_SUM] = {"损失：L = O各格之和 %s，所以dO每格都是1",
                              "loss: L = the sum of O's cells %s, so every cell of dO is 1"},
    [AS_MSG_GRAD_LOSS_MSE] = {"损失：L = Σ(O − target)²/2 %s，所以dO = O − target",
                              "loss: L = sum((O - target)^2)/2 %s, so dO = O - target"},
    [AS_MSG_GRAD_BLOCK_INTRO] = {"反向传播穿过整个块：误差从块的输出Y出发，先经过归一化、前馈网络和残差，"
                                 "再进入注意力层（O→A与V→Q与K→各张W），最后回到X。",
                                 "The backward pass through the whole block: the error starts at the "
                                 "block's output Y, flows back through the norms, the FFN and the residual "
                                 "adds, then through the attention layer (O -> A and V -> Q and K -> the W "
                                 "tables), and back to X."},
    [AS_MSG_GRAD_LOSS_SUM_Y] = {"损失：L = Y各格之和 %s，所以dY每格都是1",
                                "loss: L = the sum of Y's cells %s, so every cell of dY is 1"},
    [AS_MSG_GRAD_LOSS_MSE_Y] = {"损失：L = Σ(Y − target)²/2 %s，所以dY = Y − target",
                                "loss: L = sum((Y - target)^2)/2 %s, so dY = Y - target"},
    [AS_MSG_GRAD_LOSS_GIVEN_Y] = {"dO由输入给出，它是损失对块的输出Y每一格的梯度，记作dY",
                                  "dO is given by the input: the loss's gradient for each cell of the "
                                  "block's output Y, written dY"},
    [AS_MSG_GRAD_NORM_LAYER] = {"LayerNorm逐行反向：e = dy⊙γ，dx = (e − mean(e) − x̂·mean(e⊙x̂)) / √(σ²+ε)",
                                "LayerNorm backwards, row by row: e = dy⊙γ, "
                                "dx = (e - mean(e) - x̂·mean(e⊙x̂)) / √(σ²+ε)"},
    [AS_MSG_GRAD_NORM_ANNOTATED] = {"LayerNorm（annotated）逐行反向：e = dy⊙γ，c = x − μ，σ为无偏标准差，"
                                    "dc = e/(σ+ε) − c·Σ(e⊙c)/((σ+ε)²·(d−1)·σ)，dx = dc − mean(dc)",
                                    "LayerNorm (annotated) backwards, row by row: e = dy⊙γ, c = x - μ, σ the "
                                    "unbiased standard deviation, dc = e/(σ+ε) - c·Σ(e⊙c)/((σ+ε)²·(d-1)·σ), "
                                    "dx = dc - mean(dc)"},
    [AS_MSG_GRAD_NORM_RMS] = {"RMSNorm逐行反向：e = dy⊙γ，dx = (e − x̂·mean(e⊙x̂)) / rms",
                              "RMSNorm backwards, row by row: e = dy⊙γ, dx = (e - x̂·mean(e⊙x̂)) / rms"},
    [AS_MSG_GRAD_NORM_NONE] = {"norm: none：不做归一化，梯度原样传回",
                               "norm: none: no normalisation, the gradient passes back unchanged"},
    [AS_MSG_GRAD_RESIDUAL] = {"残差相加把同一份梯度传给相加的两边，两条路的梯度再相加",
                              "a residual add passes the same gradient to both of its inputs; the two "
                              "paths' gradients add up"},
    [AS_MSG_GRAD_LOSS_GIVEN] = {"dO由输入给出：损失对输出每一格的梯度",
                                "dO is given by the input: the loss's gradient for each cell of the output"},
    [AS_MSG_GRAD_LAYOUT_TORCH] = {"（W的梯度按本书的[输入宽度,输出宽度]布局给出；PyTorch的weight.grad是它的转置）",
                                  "(the W gradients are shown in the book's [in, out] layout; "
                                  "PyTorch's weight.grad is their transpose)"},
    [AS_MSG_GRAD_MASKED_ZERO] = {"被掩码的格子份额为0，梯度也为0", "masked cells have share 0, so gradient 0"},
    [AS_MSG_GRAD_HEAD_SLICE] = {"%s的第%zu至%zu列", "%s, columns %zu to %zu"},
    [AS_MSG_GRAD_COLSUM] = {"%s的列和", "column sums of %s"},
    [AS_MSG_GRAD_ROPE] = {"RoPE反向：把%s按位置反向旋转（第p行的每一对转回它的角度p·θᵢ，即乘Rᵀ），"
                          "得到旋转前的%s",
                          "RoPE backwards: %s turned back by position (each pair of row p turned "
                          "back by its angle p·θᵢ, i.e. times Rᵀ) gives %s, before the turn"},
    [AS_MSG_GRAD_PE] = {"正弦位置编码PE是常数：投影读的是%s + PE，对它的梯度原样就是对%s的梯度",
                        "the sinusoidal encoding PE is a constant: the projections read %s + PE, "
                        "and its gradient passes unchanged to %s"},
    [AS_MSG_GW_TITLE] = {"反向：对“%s”这个位置（第%zu行），把误差沿softmax传回分数",
                         "Backwards, position “%s” (row %zu): the error flows back through the "
                         "softmax to the scores"},
    [AS_MSG_GW_GIVEN] = {"已知：这一行的读取份额%s，输出的梯度%s",
                         "given: this row's shares %s and the output's gradient %s"},
    [AS_MSG_GW_STEP1] = {"第一步：输出的梯度传到每个份额，dA的一格是dO这一行与那个位置的v做点积。",
                         "Step 1: the output's gradient reaches each share; a cell of dA is this "
                         "row of dO dotted with that position's v."},
    [AS_MSG_GW_DA_ONE] = {"对“%s”的份额：%s", "for the share of “%s”: %s"},
    [AS_MSG_GW_DA_ALL] = {"这一行的dA：%s", "this row of dA: %s"},
    [AS_MSG_GW_STEP2] = {"第二步：用份额给dA加权求和，得到这一行的平均误差。",
                         "Step 2: the shares weigh dA into this row's average error."},
    [AS_MSG_GW_ROWDOT] = {"%s = %s", "%s = %s"},
    [AS_MSG_GW_STEP3] = {"第三步：softmax反向，每格 = 份额×(dA − %s)：比平均误差大的份额被推高，小的被压低。",
                         "Step 3: the softmax backwards, each cell = share x (dA - %s): shares whose "
                         "error is above the average are pushed up, the others down."},
    [AS_MSG_GW_DS_ONE] = {"对“%s”：%s", "for “%s”: %s"},
    [AS_MSG_GW_DS_MASKED] = {"对“%s”：不可读，份额为0，%s = 0", "for “%s”: not readable, share 0, %s = 0"},
    [AS_MSG_GW_DS_ALL] = {"这一行的dS：%s", "this row of dS: %s"},
    [AS_MSG_GW_STEP4] = {"第四步：分数在softmax之前乘过缩放系数，梯度也乘上它（%s）；掩码只是加常数，梯度原样通过。",
                         "Step 4: the scores were scaled before the softmax, so the gradient is "
                         "scaled too (%s); the mask only adds a constant and lets it through."},
    [AS_MSG_GW_SCALED] = {"%s", "%s"},
    [AS_MSG_GW_STEP5] = {"第五步：流向dQ。dQ的这一行只来自这一行分数：每个可读位置的k乘上它那格d(QKᵀ)再相加。",
                         "Step 5: into dQ. This row of dQ comes from this row's scores alone: "
                         "each readable position's k times its cell of d(QK^T), added up."},
    [AS_MSG_GW_STEP5_ROPE] = {"第五步：流向dQr。分数是旋转后的qr与kr的点积，dQr的这一行只来自这一行分数："
                              "每个可读位置的kr乘上它那格d(QKᵀ)再相加。",
                              "Step 5: into dQr. The scores are dot products of the turned qr and kr, "
                              "so this row of dQr comes from this row's scores alone: each readable "
                              "position's kr times its cell of d(QK^T), added up."},
    [AS_MSG_GW_DQ_CELL] = {"dq的第%zu格 = %s", "cell %zu of dq = %s"},
    [AS_MSG_GW_DQR_CELL] = {"dqr的第%zu格 = %s", "cell %zu of dqr = %s"},
    [AS_MSG_GW_DQR_ROW] = {"“%s”位置旋转后的Query梯度 %s", "the gradient of the turned Query of “%s”: %s"},
    [AS_MSG_GW_TURN_BACK] = {"把%s按位置%zu反向旋转（每一对转回它的角度，即乘Rᵀ），得到旋转前的%s：",
                             "turn %s back by position %zu (each pair back by its angle, i.e. "
                             "times R^T) to get %s, before the turn:"},
    [AS_MSG_GW_TURN_PAIR] = {"第%zu对（第%zu、%zu格），角度%s：%s",
                             "pair %zu (cells %zu and %zu), angle %s: %s"},
    [AS_MSG_GW_DQ_ROW] = {"“%s”位置的Query梯度 %s", "the Query gradient of “%s”: %s"},
    [AS_MSG_GW_STEP6] = {"第六步：流向dK。位置j的Key被每个读它的行用过，dK的第j行把各行的d(QKᵀ)ᵢⱼ·qᵢ都加起来（本行是其中一项）：",
                         "Step 6: into dK. The Key of position j was used by every row that reads "
                         "it, so row j of dK adds up d(QK^T)[i][j] q[i] over all rows i (this row is one term):"},
    [AS_MSG_GW_STEP6_ROPE] = {"第六步：流向dKr，再反向旋转成dK。位置j的kr被每个读它的行用过，"
                              "dKr的第j行把各行的d(QKᵀ)ᵢⱼ·qrᵢ都加起来（本行是其中一项），再按位置j反向旋转：",
                              "Step 6: into dKr, then turned back into dK. The turned Key kr of "
                              "position j was used by every row that reads it, so row j of dKr adds up "
                              "d(QK^T)[i][j] qr[i] over all rows i (this row is one term), then it is "
                              "turned back by position j:"},
    [AS_MSG_GW_DK_ROW] = {"“%s”的Key梯度 %s", "the Key gradient of “%s”: %s"},
    [AS_MSG_GW_NEXT] = {"再往下：dWq = Xᵀ·dQ，dWk和dWv同理，dX把经过Q、K、V三条路径的梯度相加（整张表见不带--row的grad）。",
                        "Further down: dWq = X^T*dQ, dWk and dWv likewise, and dX adds the paths "
                        "through Q, K and V (grad without --row prints every table)."},
    [AS_MSG_GW_NEXT_PE] = {"再往下：dWq = (X+PE)ᵀ·dQ，dWk和dWv同理；dX把经过Q、K、V三条路径的梯度相加，"
                           "PE是常数，这就是对X本身的梯度（整张表见不带--row的grad）。",
                           "Further down: dWq = (X+PE)^T*dQ, dWk and dWv likewise; dX adds the paths "
                           "through Q, K and V, and since PE is a constant it is the gradient of X "
                           "itself (grad without --row prints every table)."},
    /* ---- decode, online softmax, shared Keys, windows (issue 15, SPEC §11) ---- */
    [AS_MSG_HEAD_TITLE_GQA] = {"── 第%zu个头（K、V取第%zu组，每组由%zu个头共用）──",
                            "── head %zu (K and V of group %zu, shared by %zu heads) ──"},
    [AS_MSG_TR_HEAD_GQA] = {"── 第%zu个头：q取第%zu至%zu列；k、v取第%zu组（k取第%zu至%zu列，v取第%zu至%zu列），"
                         "与同组的头共用 ──",
                         "── head %zu: columns %zu to %zu of q; k and v of group %zu (columns "
                         "%zu to %zu of k, %zu to %zu of v), shared within the group ──"},
    [AS_MSG_TR_RULE_WINDOW] = {"本例使用滑动窗口读取规则（窗口宽%zu）：当前位置能读自己和它前面的%zu个位置，更早的位置读不到。",
                            "A sliding window of %zu applies: a position reads itself and the "
                            "positions up to %zu before it, and nothing earlier."},
    [AS_MSG_TR_OUTSIDE] = {"不可读位置%zu：%s（滑动窗口：它在宽%zu的窗口之外，离当前位置太远）",
                        "position %zu: %s is not readable (sliding window: it lies too far "
                        "back, outside the window of %zu)"},
    [AS_MSG_TL_TITLE] = {"在线softmax（FlashAttention的做法）：把可读的Key每%zu个分成一块，逐块读取，"
                      "只保留运行最大值m、运行总和ℓ和还没除以总和的运行输出。",
                      "Online softmax (as FlashAttention does it): the readable Keys are read "
                      "in blocks of %zu, keeping only a running maximum m, a running sum ℓ "
                      "and a running output not yet divided by the sum."},
    [AS_MSG_TL_START] = {"开始时：m = %s，ℓ = 0，运行输出 = %s", "start: m = %s, ℓ = 0, running output = %s"},
    [AS_MSG_TL_BLOCK] = {"第%zu块：读位置%s，缩放分数%s", "block %zu: positions %s, scaled scores %s"},
    [AS_MSG_TL_FIRST] = {"  这是第0块，m = %s；之前什么也没累计，不用缩放",
                      "  the first block: m = %s; nothing was summed before, nothing to rescale"},
    [AS_MSG_TL_RISE] = {"  最大值从%s升到%s：旧的总和与运行输出都乘以 e^(m旧−m新) = %s",
                     "  the max rises from %s to %s: the old sum and running output are "
                     "rescaled by e^(m_old − m_new) = %s"},
    [AS_MSG_TL_SAME] = {"  最大值没有升高（仍是%s）：缩放系数为1", "  the max does not rise (still %s): the rescale factor is 1"},
    [AS_MSG_TL_EXPS] = {"  本块的指数 e^(s−m)：%s", "  this block's exps e^(s − m): %s"},
    [AS_MSG_TL_STATE] = {"  m = %s，ℓ = %s，运行输出 = %s", "  m = %s, ℓ = %s, running output = %s"},
    [AS_MSG_TL_FINAL] = {"读完所有块：ℓ = %s（普通softmax的指数之和：%s）",
                      "all blocks read: ℓ = %s (the ordinary softmax's sum of exps: %s)"},
    [AS_MSG_TL_SHARES] = {"份额 e^(s−m)/ℓ：%s", "shares e^(s − m)/ℓ: %s"},
    [AS_MSG_TL_OUTPUT] = {"输出 = 运行输出/ℓ %s", "output = running output / ℓ %s"},
    [AS_MSG_TL_ULP] = {"（与普通计算——先算完整的softmax再混合——相比，逐块算出的各头输出最多相差%s个ulp，"
                    "以这一格各项绝对值之和Σ aⱼ|vⱼ|的最后一位为单位。）",
                    "(Against the ordinary computation -- the whole softmax first, then the mix "
                    "-- each head's output read block by block differs by at most %s ulp: units "
                    "in the last place of the sum of its terms' sizes, aⱼ|vⱼ| summed over j.)"},
    [AS_MSG_TL_RUN] = {"在线softmax（每块%zu个Key）：每行最终的m和ℓ，以及逐块算出的输出",
                    "Online softmax (blocks of %zu Keys): each row's final m and ℓ, and the "
                    "output computed block by block"},
    [AS_MSG_DC_INTRO] = {"逐个Token生成（KV缓存）：第t步只取X的第t行，只算q_t、k_t、v_t，把k_t、v_t追加进缓存，"
                      "再用缓存里的K、V算出输出的第t行。",
                      "Generation token by token with a KV cache: step t takes only row t of "
                      "X, computes only q_t, k_t and v_t, appends k_t and v_t to the cache, "
                      "and computes row t of the output from the cache."},
    [AS_MSG_DC_STEP] = {"── 第%zu步：“%s” ──", "── step %zu: “%s” ──"},
    [AS_MSG_DC_NEW] = {"只算新一行的投影：", "only the new row is projected:"},
    [AS_MSG_DC_CACHE] = {"缓存（到目前为止的%zu行）：", "the cache (rows so far: %zu):"},
    [AS_MSG_DC_WINDOW] = {"（滑动窗口：缓存只需保留最近的%zu行）", "(sliding window: the cache need keep only the last %zu rows)"},
    [AS_MSG_DC_SHARES] = {"读取份额：%s", "shares: %s"},
    [AS_MSG_DC_SAME] = {"（与run算出的O第%zu行逐位相同：同样的运算，同样的顺序。）",
                     "(Bit for bit row %zu of the O that run computes: the same arithmetic in "
                     "the same order.)"},
    [AS_MSG_DC_DIFFERS] = {"（与run算出的O第%zu行不是逐位相同！）", "(NOT bit for bit row %zu of the O that run computes!)"},
    [AS_MSG_DC_SAME_BLOCK] = {"（O和块的每张表的第%zu行都与run算出的逐位相同：同样的运算，同样的顺序。）",
                           "(Row %zu of O and of every table of the block: bit for bit the rows "
                           "run computes, the same arithmetic in the same order.)"},
    [AS_MSG_DC_DIFFERS_BLOCK] = {"（O和块的表的第%zu行与run算出的不是逐位相同！）",
                              "(Row %zu of O and the block's tables: NOT bit for bit the rows "
                              "run computes!)"},
    [AS_MSG_DC_WORK] = {"本步工作：投影1行，打分点积%zu个；若不用缓存、从头重算这%zu行：投影%zu行，打分点积%zu个。",
                     "Work this step: 1 row projected, score dot products: %zu. Recomputing "
                     "from scratch (rows so far: %zu): rows projected: %zu, score dot "
                     "products: %zu."},
    [AS_MSG_DC_TOTAL] = {"合计：用缓存投影%zu行、打分点积%zu个；每步都从头重算则投影%zu行、打分点积%zu个。",
                      "In all, with the cache: rows projected: %zu, score dot products: %zu; "
                      "recomputing at every step: rows projected: %zu, score dot products: "
                      "%zu."},
    [AS_MSG_DC_READS] = {"从缓存中读取：%s", "reads from the cache: %s"},
    [AS_MSG_DC_HEAD] = {"  各头并排（共%zu个头）", " for the %zu heads side by side"},
    [AS_MSG_DC_GROUP] = {"  各组K、V并排（共%zu组）", " for the %zu K/V groups side by side"},
    [AS_MSG_DC_BLOCK_NORM] = {"整个块（Pre-LN）：注意力读的是这一行归一化之后的N1：",
                              "the whole block (pre-LN): the attention reads this row normalised, N1:"},
    [AS_MSG_DC_BLOCK_REST] = {"块的其余部分（残差、归一化、前馈网络）也只算这一行：",
                              "the rest of the block (residuals, norms, FFN), on this row only:"},
    [AS_MSG_DECODE_CROSS] = {"decode需要自注意力，但输入给了Xkv",
                          "decode needs self-attention, but Xkv is given"},
    [AS_MSG_HINT_DECODE_CROSS] = {"decode逐个生成同一条序列，它的Key和Value来自自己的Token；交叉注意力请用run和trace查看",
                               "decode generates one sequence, whose Keys and Values come "
                               "from its own tokens; run and trace show cross-attention"},
    [AS_MSG_DECODE_FUTURE] = {"掩码让第%zu行读位置%zu，可是生成第%zu行时它还没有生成",
                           "the mask lets row %zu read position %zu, which is not generated "
                           "yet when row %zu is"},
    [AS_MSG_HINT_DECODE_FUTURE] = {"解码器只能读缓存里已有的：自己和前面的位置（mask: causal，或window W）",
                                "a decoder reads only what its cache holds: itself and the "
                                "positions before it (mask: causal, or window W)"},
    /* positions (SPEC §12) */
    [AS_MSG_POS_PE_ROW] = {"第%zu行在位置%zu", "row %zu is at position %zu"},
    [AS_MSG_POS_PE_NOTE] = {"（位置编码：PE[p][2i] = sin(p/10000^(2i/%zu))，PE[p][2i+1] = cos(p/10000^(2i/%zu))，"
                            "先加到X上，再做投影）",
                            "(positional encoding: PE[p][2i] = sin(p/10000^(2i/%zu)), PE[p][2i+1] = "
                            "cos(p/10000^(2i/%zu)), added to X before the projections)"},
    [AS_MSG_POS_ROPE_NOTE] = {"（RoPE：第p行的第i对数转过角度%s，%s；%s）",
                              "(RoPE: pair i of row p is turned by the angle %s, %s; %s)"},
    [AS_MSG_POS_ROPE_HALF] = {"第i个数与第i+d_k/2个数配成一对（GPT-NeoX、LLaMA的做法）",
                              "number i pairs with number i + d_k/2 (as GPT-NeoX and LLaMA do)"},
    [AS_MSG_POS_ROPE_INTER] = {"第2i个数与第2i+1个数配成一对（RoFormer、GPT-J的做法）",
                               "number 2i pairs with number 2i+1 (as RoFormer and GPT-J do)"},
    [AS_MSG_POS_ALIBI_NOTE] = {"（ALiBi偏置：第i行第j列加上%s，往前每远一格就多减一个m；本头斜率m = %s）",
                               "(ALiBi bias: row i, column j gets %s, one more m off for each step "
                               "further back; this head's slope m = %s)"},
    [AS_MSG_POS_OFFSET] = {"（位置从%zu开始：--offset）", "(positions start at %zu: --offset)"},
    [AS_MSG_POS_TR_PE] = {"加上位置编码：%s", "plus its positional encoding: %s"},
    [AS_MSG_POS_TR_PE_ROW] = {"其中%s", "where %s"},
    [AS_MSG_POS_TR_ROPE] = {"转动（RoPE）：位置p上的第i对数转过角度%s，%s。",
                            "Turning (RoPE): pair i at position p is turned by the angle %s, %s."},
    [AS_MSG_POS_TR_PAIR] = {"%s的第%zu对（第%zu、%zu个数）：角度 = %s，cos %s，sin %s",
                            "%s, pair %zu (numbers %zu and %zu): angle = %s, cos %s, sin %s"},
    [AS_MSG_POS_TR_TURNED] = {"    %s", "    %s"},
    [AS_MSG_POS_TR_KEY] = {"%s在位置%zu，转后%s", "%s at position %zu, turned: %s"},
    [AS_MSG_POS_TR_RELATIVE] = {"RoPE记下的是相对位置：所有位置都加上同一个P（--offset P），q和k多转的角度相同，"
                                "点积不变，%s也就不变。",
                                "RoPE records relative positions: moving every position by the "
                                "same P (--offset P) turns q and k by the same extra angle, so "
                                "their dot products, and %s, do not change."},
    [AS_MSG_POS_TR_ALIBI] = {"加ALiBi偏置（斜率m = %s，第j列加上%s）：%s",
                             "add the ALiBi bias (slope m = %s, column j gets %s): %s"},
    /* output that streams (issue 20) */
    [AS_MSG_NOTE_ALIBI_UNMASKED] = {"注意：ALiBi加的偏置−slope·(i−j)在j>i时是正的，mask: none时位置越靠后、离得越远的Token反而得分越高；ALiBi是为因果掩码（mask: causal）设计的",
                                    "note: ALiBi's bias −slope·(i−j) is positive for j > i, so with mask: none the farther a later token, the higher its score; ALiBi was made for the causal mask (mask: causal)"},
    [AS_MSG_HUGE_OUTPUT] = {"注意：这要打印约%zu个数（超过一千万个），会很长；只看一部分可用 --only（如 --only A,O）或 --row（如 --row 0）",
                         "note: this prints about %zu numbers (more than ten million); to see part "
                         "of it, use --only (e.g. --only A,O) or --row (e.g. --row 0)"},
    /* ---- practice: a tutor in the terminal (issue 18, SPEC §14) ---- */
    [AS_MSG_CMD_PRACTICE] = {"逐格练习：自己填每一格，当场判对错、给提示（或--seed出新题）",
                             "a tutor: you fill in each cell, judged and hinted (or --seed)"},
    [AS_MSG_CMD_ARGS_PRACTICE] = {"文件 [选项]", "FILE [options]"},
    [AS_MSG_PR_INTRO] = {"按书中的顺序逐格计算：每行输入一个数（可以写分数，如%s），输入?看答案，输入q结束。",
                         "Compute each cell in the book's order: one number a line (fractions such as %s are fine), ? shows the answer, q stops."},
    [AS_MSG_PR_TABLE] = {"── %s ──", "── %s ──"},
    [AS_MSG_PR_FROM] = {"用到：%s", "made from: %s"},
    [AS_MSG_PR_PAIR] = {"%s = %s，%s = %s", "%s = %s, %s = %s"},
    [AS_MSG_PR_COLUMN] = {"%s第%zu列", "%s column %zu"},
    [AS_MSG_PR_BIAS] = {"，偏置%s = %s", ", bias %s = %s"},
    [AS_MSG_PR_ALIBI] = {"，ALiBi的偏置 = %s%s%s(%zu%s%zu) = %s", ", the ALiBi bias = %s%s%s(%zu%s%zu) = %s"},
    [AS_MSG_PR_ROPE] = {"%s = %s；第%zu对是第%zu和第%zu个数，在位置%zu转过的角度 = %zu%s%s = %s，cos = %s，sin = %s",
                        "%s = %s; pair %zu is numbers %zu and %zu, turned at position %zu by the angle %zu%s%s = %s, cos = %s, sin = %s"},
    [AS_MSG_PR_SCALE] = {"缩放系数", "the scale"},
    [AS_MSG_PR_KEPT_LOGITS] = {"留下的logits除以T = %s：%s", "the logits kept, divided by T = %s: %s"},
    [AS_MSG_PR_PROB_OF] = {"，对它做softmax，第%zu个", "; their softmax, number %zu"},
    [AS_MSG_PR_NAME_TEMPERATURE_AFTER_SOFTMAX] = {"温度用在了softmax之后", "the temperature after the softmax"},
    [AS_MSG_PR_NAME_TOPP_DROPS_CROSSING] = {"top-p漏掉了越过P的词", "top-p without the token that crosses P"},
    [AS_MSG_PR_NAME_TOPK_BEFORE_TEMPERATURE] = {"截断做在了除以T之前", "the cut before ÷T"},
    [AS_MSG_PR_ROW_SCORES] = {"第%zu行的缩放分数 = %s", "the scaled scores of row %zu = %s"},
    [AS_MSG_PR_SHARE] = {"先减去这一行的最大值再取指数，%s = %s；这一行指数之和 = %s，份额 = %s",
                         "exp after subtracting the row's max: %s = %s, the row's sum of exps = %s, share = %s"},
    [AS_MSG_PR_PROMPT] = {"%s[%zu][%zu] = ", "%s[%zu][%zu] = "},
    [AS_MSG_PR_GIVEN] = {"%s[%zu][%zu] = %s（掩码固定，已给出）", "%s[%zu][%zu] = %s (fixed by the mask, given)"},
    [AS_MSG_PR_GIVEN_CUT] = {"%s[%zu][%zu] = %s（这个词被截掉了，概率是0，已给出）", "%s[%zu][%zu] = %s (a token the cut took away: probability 0, given)"},
    [AS_MSG_PR_RIGHT] = {"对！", "Right."},
    [AS_MSG_PR_ARITH] = {"不对。这一格这样算：%s；你写的是%s。", "Not right. This cell is: %s; you wrote %s."},
    [AS_MSG_PR_MISTAKE] = {"不对。你写的%s，很可能是因为%s。",
                           "Not right. Your %s most likely comes from this: %s."},
    [AS_MSG_PR_ALSO] = {"也可能是%s。", "It could also come from %s."},
    [AS_MSG_PR_TRANSPOSED] = {"不对。你写的%s是%s[%zu][%zu]的值：行和列对调了，这一格在第%zu行、第%zu列。",
                              "Not right. Your %s is the value of %s[%zu][%zu]: rows and columns are swapped; this cell is in row %zu, column %zu."},
    [AS_MSG_PR_EARLY_ROUNDING] = {"不对。你写的%s，正是把A先四舍五入到%d位小数再算出来的：你在第三步就把A四舍五入了。中间的数要多留几位，到最后再四舍五入。",
                                  "Not right. Your %s is what A rounded to %d decimal place(s) gives: you rounded A at step three already. Keep more digits in between, and round only at the end."},
    [AS_MSG_PR_EARLY_SCORES] = {"不对。你写的%s，正是把这一行的S先四舍五入到%d位小数再做softmax得出来的：你在第三步之前就把S四舍五入了。中间的数要多留几位，到最后再四舍五入。",
                                "Not right. Your %s is what this row of S rounded to %d decimal place(s) gives through the softmax: you rounded S before step three. Keep more digits in between, and round only at the end."},
    [AS_MSG_PR_EARLY_EXPS] = {"不对。你写的%s，正是把e的乘方先四舍五入到%d位小数再除以它们的和得出来的：你在第三步中间就四舍五入了。中间的数要多留几位，到最后再四舍五入。",
                              "Not right. Your %s is what the exponentials rounded to %d decimal place(s) give when divided by their sum: you rounded in the middle of step three. Keep more digits in between, and round only at the end."},
    [AS_MSG_PR_EARLY_SCALE] = {"不对。你写的%s，正是先把%s四舍五入成%s再算出来的：你在第二步就四舍五入了。中间的数要多留几位，到最后再四舍五入。",
                               "Not right. Your %s is what %s rounded to %s gives: you rounded at step two already. Keep more digits in between, and round only at the end."},
    [AS_MSG_PR_ROPE_UNTURNED] = {"不对。你写的%s还是转之前的数：RoPE要把每一对数按这个位置的角度转过去。",
                                 "Not right. Your %s is the number before the turn: RoPE turns each pair by the angle of its position."},
    [AS_MSG_PR_ROPE_PAIRING] = {"不对。你写的%s，是按rope: %s的配对转出来的；本题用的是rope: %s，第%zu个数和第%zu个数才是一对。",
                                "Not right. Your %s is what the pairs of rope: %s give; this problem uses rope: %s, where numbers %zu and %zu are a pair."},
    [AS_MSG_PR_ROPE_BACKWARDS] = {"不对。你写的%s是往反方向转出来的，sin前面的正负号弄反了：一对数(x, y)转成(x·cos − y·sin, x·sin + y·cos)。",
                                  "Not right. Your %s is the pair turned the other way, the signs before sin swapped: a pair (x, y) turns into (x·cos − y·sin, x·sin + y·cos)."},
    [AS_MSG_PR_ALIBI_NO_SLOPE] = {"不对。你写的%s，是加上−(i−j)而忘了乘坡度得出来的：ALiBi加的是−坡度×(i−j)，这个头的坡度是%s。",
                                  "Not right. Your %s adds −(i−j) without the slope: ALiBi adds −slope×(i−j), and this head's slope is %s."},
    [AS_MSG_PR_ALIBI_NO_BIAS] = {"不对。你写的%s没有加ALiBi的偏置：缩放后的分数还要加上−坡度×(i−j)，离得越远的Key减得越多。",
                                 "Not right. Your %s leaves out ALiBi's bias: the scaled score still gets −slope×(i−j) added, more taken off the farther the Key."},
    [AS_MSG_PR_ALIBI_SIGN] = {"不对。你写的%s把偏置的正负号弄反了：ALiBi加的是−坡度×(i−j)，离得越远的Key减得越多，而不是加得越多。",
                              "Not right. Your %s has the bias's sign turned round: ALiBi adds −slope×(i−j), taking more off the farther the Key, not adding more."},
    [AS_MSG_PR_WORKED] = {"这一格这样算：%s；你写的是%s。", "This cell is: %s; you wrote %s."},
    [AS_MSG_PR_NAME_NO_SCALE] = {"没有做缩放", "leaving out the scaling"},
    [AS_MSG_PR_NAME_SCALE_MULT] = {"缩放时乘了而不是除", "multiplying instead of dividing when scaling"},
    [AS_MSG_PR_NAME_SCALE_BY_DK] = {"除以了d_k而不是它的平方根", "dividing by d_k instead of its square root"},
    [AS_MSG_PR_NAME_NO_MASK] = {"没有加掩码", "leaving out the mask"},
    [AS_MSG_PR_NAME_MASKED_ZERO] = {"禁止的位置写成了0", "writing 0 at the forbidden positions"},
    [AS_MSG_PR_NAME_INVERTED_MASK] = {"掩码方向反了", "turning the mask round"},
    [AS_MSG_PR_NAME_MASK_AFTER_SOFTMAX] = {"做完softmax才加掩码", "masking after the softmax"},
    [AS_MSG_PR_NAME_NO_NORMALIZE] = {"没有除以指数之和", "not dividing by the sum of the exponentials"},
    [AS_MSG_PR_NAME_SOFTMAX_COLUMNS] = {"沿列做了softmax", "taking the softmax down the columns"},
    [AS_MSG_PR_NAME_TRANSPOSED] = {"行和列对调了", "swapping rows and columns"},
    [AS_MSG_PR_NAME_KEYS_FOR_VALUES] = {"混合了Key而不是Value", "mixing the Keys instead of the Values"},
    [AS_MSG_PR_NAME_WRONG_WEIGHTS] = {"用错了W表", "using the wrong W table"},
    [AS_MSG_PR_NAME_TORCH_LAYOUT] = {"用了转置的W", "using W transposed"},
    [AS_MSG_PR_AGAIN] = {"再试一次（还有%d次机会）。", "Try again (%d tries left)."},
    [AS_MSG_PR_AGAIN_LAST] = {"再试一次（最后一次机会）。", "Try again (the last try)."},
    [AS_MSG_PR_REVEAL] = {"答案：%s[%zu][%zu] = %s", "The answer: %s[%zu][%zu] = %s"},
    [AS_MSG_PR_NOT_NUMBER] = {"“%s”不是一个数：请输入一个数，输入?看答案，输入q结束。",
                              "“%s” is not a number: type a number, ? for the answer, q to stop."},
    [AS_MSG_PR_SCORE] = {"得分：%zu/%zu", "score: %zu/%zu"},
    [AS_MSG_PR_MISSED] = {"没有答对的格子：%s", "cells missed: %s"},
    [AS_MSG_PR_ALL_RIGHT] = {"每一格都答对了！", "Every cell right!"},
    [AS_MSG_PR_STOPPED] = {"练习中途结束，还有%zu格没有做。", "Stopped: %zu cells not done."},
    [AS_MSG_USE_PRACTICE_SOURCE] = {"practice要给一个输入文件，或者用--seed N（和--level L）出一道新题",
                                    "practice takes an input FILE, or --seed N (and --level L) for a fresh exercise"},
    [AS_MSG_USE_PRACTICE_HEAD] = {"--head %ld：这份输入只有%zu个头，编号从0数起，是0到%zu",
                                  "--head %ld: this input has %zu heads, numbered from 0 to %zu"},
    [AS_MSG_USE_PRACTICE_STDIN] = {"practice从标准输入读学生的答案，所以输入文件不能写作 -",
                                   "practice reads the student's answers on standard input, so FILE cannot be -"},
    [AS_MSG_USE_PRACTICE_ONLY] = {"practice的--only只能选Q、K、V、QKT、S、A、O（用RoPE时还有Qr、Kr），不能选“%s”",
                                  "practice's --only picks among Q, K, V, QKT, S, A and O (and Qr, Kr with RoPE), not “%s”"},
    [AS_MSG_USE_STEP_TRACE] = {"trace的--step要给1到4（第一步到第四步），不是“%s”",
                               "trace --step takes 1 to 4 (the four steps), not “%s”"},
    /* the read layer: errors of reader.c (issue 12) */
    [AS_MSG_RD_OUT_OF_MEMORY] = {"内存不够了",
        "out of memory"},
    [AS_MSG_RD_OUT_OF_MEMORY_HINT] = {"输入太大，超出了本程序可用的内存",
        "the input is larger than the memory this program may use"},
    [AS_MSG_RD_NUMBER_TOO_LARGE] = {"数“%s”太大了",
        "the number \"%s\" is too large"},
    [AS_MSG_RD_NUMBER_TOO_LARGE_HINT] = {"双精度浮点数最大只能表示约1.8e308",
        "a double holds numbers up to about 1.8e308"},
    [AS_MSG_RD_DIVIDES_BY_ZERO] = {"分数“%s”的分母是0",
        "the fraction \"%s\" divides by zero"},
    [AS_MSG_RD_DIVIDES_BY_ZERO_HINT] = {"分数线下面的数不能是0",
        "the number below the fraction bar must not be 0"},
    [AS_MSG_RD_TOO_MANY_ROWS] = {"矩阵%s太大了：超过了%u行",
        "matrix %s is too large: more than %u rows"},
    [AS_MSG_RD_TOO_MANY_COLUMNS] = {"矩阵%s太大了：超过了%u列",
        "matrix %s is too large: more than %u columns"},
    [AS_MSG_RD_TOO_MANY_NUMBERS] = {"矩阵%s太大了：超过了%u个数",
        "matrix %s is too large: more than %u numbers"},
    [AS_MSG_RD_TOO_LARGE_HINT] = {"一张表最多16384行、16384列、67108864个数",
        "one table holds at most 16384 rows, 16384 columns and 67108864 numbers"},
    [AS_MSG_RD_EMPTY_ROW] = {"第%zu行是空的（矩阵%s）",
        "row %zu of %s is empty"},
    [AS_MSG_RD_EMPTY_ROW_HINT] = {"把这一行的数写在它的方括号里，如[1, 2]",
        "write the numbers of the row between its brackets, e.g. [1, 2]"},
    [AS_MSG_RD_ROW_WIDTH_ONE] = {"第%zu行（矩阵%s）有%zu个数，而第0行有%zu个",
        "row %zu of %s has %zu number, but row 0 has %zu"},
    [AS_MSG_RD_ROW_WIDTH] = {"第%zu行（矩阵%s）有%zu个数，而第0行有%zu个",
        "row %zu of %s has %zu numbers, but row 0 has %zu"},
    [AS_MSG_RD_ROW_WIDTH_HINT] = {"一个矩阵的每一行列数都相同",
        "every row of a matrix has the same number of columns"},
    [AS_MSG_RD_UNEXPECTED_IN] = {"“%s”不该出现在矩阵%s里",
        "unexpected \"%s\" in matrix %s"},
    [AS_MSG_RD_PLAIN_ROWS_HINT] = {"load()读的是一行一行的数，就像numpy.savetxt写出的那样",
        "load() reads plain rows of numbers, as numpy.savetxt writes them"},
    [AS_MSG_RD_SEPARATED_HINT] = {"矩阵里是用逗号或空格隔开的数",
        "a matrix holds numbers separated by commas or spaces"},
    [AS_MSG_RD_NOT_ALLOWED_IN] = {"“%s”不能出现在矩阵%s里",
        "\"%s\" is not allowed in matrix %s"},
    [AS_MSG_RD_NAN_HINT] = {"每个值都必须是数；只有掩码M里可以有−∞",
        "every value must be a number; only the mask M may hold −∞"},
    [AS_MSG_RD_WORD_INSIDE] = {"词“%s”不该出现在矩阵%s里",
        "unexpected word \"%s\" inside matrix %s"},
    [AS_MSG_RD_UNEXPECTED_INSIDE] = {"“%s”不该出现在矩阵%s里",
        "unexpected \"%s\" inside matrix %s"},
    [AS_MSG_RD_NOTE_HINT] = {"矩阵里只能有数；要在旁边写注释，请以“#”开头",
        "a matrix holds only numbers; to write a note beside it, start the note with \"#\""},
    [AS_MSG_RD_NOT_A_NUMBER] = {"“%s”不是一个数",
        "\"%s\" is not a number"},
    [AS_MSG_RD_FULL_STOP_NUMBER] = {"“%s”不是一个数：其中的“。”是中文句号，不是小数点",
        "\"%s\" is not a number: its \"。\" is the Chinese full stop, not a decimal point"},
    [AS_MSG_RD_FULL_STOP_HINT] = {"小数点要写成英文的“.”，如%s",
        "write the decimal point as \".\", as in %s"},
    [AS_MSG_RD_NUMBER_FORM_HINT] = {"数可以写成3、-0.5、.5、1e-3、1/2或−1/4，两个数之间用逗号或空格隔开",
        "numbers look like 3, -0.5, .5, 1e-3, 1/2 or −1/4, with a comma or a space between two of them"},
    [AS_MSG_RD_INF_ONLY_IN_MASK] = {"“%s”只能出现在掩码M里",
        "\"%s\" is only allowed in the mask M"},
    [AS_MSG_RD_INF_ONLY_IN_MASK_HINT] = {"−∞标出掩码禁止的位置；其他矩阵里都必须是有限的数",
        "−∞ marks a position the mask forbids; every other matrix needs finite numbers"},
    [AS_MSG_RD_INF_MUST_BE_NEGATIVE] = {"掩码M里的“%s”必须是负的",
        "\"%s\" in the mask M must be negative"},
    [AS_MSG_RD_INF_MUST_BE_NEGATIVE_HINT] = {"在M里，−∞（写作-inf或−∞）禁止一个位置，0允许它；+∞会让softmax没有定义",
        "in M, −∞ (write -inf or −∞) forbids a position and 0 allows it; +∞ would leave the softmax undefined"},
    [AS_MSG_RD_TOO_DEEP] = {"矩阵%s里的“[”太多了：方括号最多套两层",
        "too many \"[\" in matrix %s: brackets nest two deep at most"},
    [AS_MSG_RD_LIST_OF_ROWS_HINT] = {"矩阵是一行一行排成的：X = [[1, 2], [3, 4]]",
        "a matrix is a list of rows: X = [[1, 2], [3, 4]]"},
    [AS_MSG_RD_UNEXPECTED_COMMA] = {"矩阵%s里多了一个“,”",
        "unexpected \",\" in matrix %s"},
    [AS_MSG_RD_COMMA_NUMBERS_HINT] = {"逗号写在两个数之间",
        "a comma stands between two numbers"},
    [AS_MSG_RD_COMMA_ROWS_HINT] = {"逗号写在两行之间",
        "a comma stands between two rows"},
    [AS_MSG_RD_NUMBER_OUTSIDE_ROW] = {"矩阵%s里有一个数不在任何一行里",
        "a number outside a row of matrix %s"},
    [AS_MSG_RD_ONE_ROW_HINT] = {"只有偏置（bq、bk、bv、bo）可以只写一行、只用一层方括号；其他矩阵要写成X = [[1, 2], [3, 4]]这样",
        "only a bias (bq, bk, bv, bo) may be one row in single brackets; write e.g. X = [[1, 2], [3, 4]]"},
    [AS_MSG_RD_OWN_BRACKETS_HINT] = {"每一行写在自己的方括号里：[[1, 2], [3, 4]]；是不是少了一个“[”？",
        "each row is written in its own brackets: [[1, 2], [3, 4]]; is a \"[\" missing?"},
    [AS_MSG_RD_EMPTY_MATRIX] = {"矩阵%s是空的",
        "matrix %s is empty"},
    [AS_MSG_RD_EMPTY_MATRIX_HINT] = {"写出它的各行，如X = [[1, 2], [3, 4]]",
        "write its rows, e.g. X = [[1, 2], [3, 4]]"},
    [AS_MSG_RD_TOO_MANY_SIDE_BY_SIDE] = {"并排的矩阵太多了",
        "too many matrices side by side"},
    [AS_MSG_RD_TOO_MANY_SIDE_BY_SIDE_HINT] = {"最多并排写16个矩阵",
        "write at most 16 matrices side by side"},
    [AS_MSG_RD_UNCLOSED_AT_END] = {"矩阵%s没有闭合：文件结束之前少了“%s”",
        "unclosed matrix %s: expected \"%s\" before the end of the file"},
    [AS_MSG_RD_UNCLOSED_AT_LINE] = {"矩阵%s没有闭合：少了“%s”，它应该写在文件第%d行之前",
        "unclosed matrix %s: expected \"%s\" before line %d"},
    [AS_MSG_RD_UNCLOSED_HINT] = {"每一行以“]”结束，整个矩阵再多一个“]”",
        "every row ends with \"]\", and the matrix with one more \"]\""},
    [AS_MSG_RD_MORE_PIECES] = {"这一行的行片段比还没闭合的矩阵多",
        "this line has more row pieces than matrices still open"},
    [AS_MSG_RD_MORE_PIECES_HINT] = {"并排写时，每一行从左到右给每个还没闭合的矩阵各一行",
        "side by side, each line gives one row to each matrix still open, left to right"},
    [AS_MSG_RD_TEXT_AFTER] = {"“%s”不该跟在矩阵%s后面",
        "unexpected text \"%s\" after matrix %s"},
    [AS_MSG_RD_TEXT_AFTER_HINT] = {"矩阵到它的“]]”就结束了；要在旁边写注释，请以“#”开头",
        "a matrix ends at its \"]]\"; to write a note beside it, start the note with \"#\""},
    [AS_MSG_RD_OUTSIDE] = {"“%s”不在任何矩阵里",
        "unexpected \"%s\" outside a matrix"},
    [AS_MSG_RD_NAME_FIRST_HINT] = {"矩阵以它的名字开头：X = [[1, 2], [3, 4]]",
        "a matrix starts with its name: X = [[1, 2], [3, 4]]"},
    [AS_MSG_RD_UNEXPECTED_TEXT] = {"这里不该出现“%s”",
        "unexpected text \"%s\""},
    [AS_MSG_RD_LINE_KINDS_HINT] = {"一行可以是一个设置（键: 值）、一个矩阵（NAME = [[1, 2], [3, 4]]），或者“#”后面的注释",
        "a line holds a setting (key: value), a matrix (NAME = [[1, 2], [3, 4]]) or a note after \"#\""},
    [AS_MSG_RD_TWO_COMMAS] = {"两个逗号之间没有数",
        "two commas with no number between them"},
    /* load(): errors of load.c (issue 12) */
    [AS_MSG_LD_PLAIN_ROWS_HINT] = {"load()读的是一行一行的数，就像numpy.savetxt写出的那样",
        "load() reads rows of numbers, as numpy.savetxt writes them"},
    [AS_MSG_LD_FILE_EMPTY] = {"文件是空的",
        "the file is empty"},
    [AS_MSG_LD_NO_NUMBERS] = {"文件里没有数",
        "the file holds no numbers"},
    [AS_MSG_LD_CANNOT_LOAD] = {"无法载入“%s”：%s",
        "cannot load \"%s\": %s"},
    [AS_MSG_LD_RELATIVE_HINT] = {"load()里的路径从输入文件所在的文件夹算起",
        "load() paths are taken relative to the folder of the input file"},
    [AS_MSG_LD_WRITE_HINT] = {"写成“%s = load('file.txt')”",
        "write %s = load(\"file.txt\")"},
    [AS_MSG_LD_OPEN_PAREN] = {"load后面应该是“(”",
        "expected \"(\" after load"},
    [AS_MSG_LD_NAME_IN_QUOTES] = {"load(后面应该是加引号的文件名",
        "expected a file name in quotes after load("},
    [AS_MSG_LD_NO_CLOSING_QUOTE] = {"文件名缺少后面的引号",
        "the file name has no closing quote"},
    [AS_MSG_LD_EMPTY_NAME] = {"文件名是空的",
        "the file name is empty"},
    [AS_MSG_LD_CLOSE_PAREN] = {"文件名后面应该是“)”",
        "expected \")\" after the file name"},
    /* statements and settings: errors of parse.c (issue 12) */
    [AS_MSG_PS_TOO_MANY_LABELS] = {"tokens太多了：超过了%u个标签",
        "too many tokens: more than %u labels"},
    [AS_MSG_PS_TOO_MANY_LABELS_HINT] = {"一张表最多16384行，每行一个标签",
        "one table has at most 16384 rows, one label each"},
    [AS_MSG_PS_NOT_POSITIVE_WHOLE] = {"%s必须是正整数，不能是“%s”",
        "%s must be a positive whole number, not \"%s\""},
    [AS_MSG_PS_WHOLE_TOO_LARGE] = {"%s太大了：最多是%u",
        "%s is too large: at most %u"},
    [AS_MSG_PS_WHAT_KV_HEADS] = {"kv_heads",
        "kv_heads"},
    [AS_MSG_PS_WHAT_HEADS] = {"heads",
        "heads"},
    [AS_MSG_PS_WHAT_WINDOW] = {"mask: window W里的窗口宽度W",
        "the window of mask: window W"},
    [AS_MSG_PS_KV_HEADS_HINT] = {"kv_heads是Key/Value头的个数，每个Key/Value头由heads/kv_heads个Query头共用，如kv_heads: 1",
        "kv_heads is the number of Key/Value heads, each shared by heads/kv_heads query heads, e.g. kv_heads: 1"},
    [AS_MSG_PS_KV_HEADS_BIG_HINT] = {"每个Key/Value头由heads/kv_heads个Query头共用",
        "each Key/Value head is shared by heads/kv_heads query heads"},
    [AS_MSG_PS_HEADS_HINT] = {"heads是注意力头的个数，如heads: 2",
        "heads is the number of attention heads, e.g. heads: 2"},
    [AS_MSG_PS_HEADS_BIG_HINT] = {"各个头分摊Q、K、V的列",
        "the heads split the columns of Q, K and V among them"},
    [AS_MSG_PS_WINDOW_HINT] = {"窗口W让每个位置读取它自己和它前面的W-1个位置，如mask: window 2",
        "a window W lets each position read itself and the W-1 positions before it, e.g. mask: window 2"},
    [AS_MSG_PS_WINDOW_BIG_HINT] = {"窗口和整个序列一样宽时，就是因果掩码：mask: causal",
        "a window as wide as the sequence is the causal mask: mask: causal"},
    [AS_MSG_PS_SCALE_HINT] = {"写scale: auto（即1/√d_k），或者写一个数，比如1，看看缩放起了什么作用",
        "write scale: auto (1/√d_k), or a number such as 1 to see what the scaling does"},
    [AS_MSG_PS_SCALE_NOT_NUMBER] = {"scale要么是auto，要么是一个数，不能是“%s”",
        "scale must be auto or a number, not \"%s\""},
    [AS_MSG_PS_SCALE_NOT_FINITE] = {"scale必须是有限的数，不能是“%s”",
        "scale must be a finite number, not \"%s\""},
    [AS_MSG_PS_ROPE_BASE_HINT] = {"RoPE把第i对转过角度p·b^(−2i/d_k)，b就是rope_base，通常取10000，如rope_base: 10000",
        "RoPE turns pair i by the angle p·base^(−2i/d_k); the usual base is 10000, e.g. rope_base: 10000"},
    [AS_MSG_PS_ROPE_BASE_BAD] = {"rope_base必须是大于1的数，不能是“%s”",
        "rope_base must be a number greater than 1, not \"%s\""},
    [AS_MSG_PS_ROPE_PAIRING_HINT] = {"rope: half把第i个数和后一半的第i个数配成一对（GPT-NeoX、LLaMA）；rope: interleaved把第2i个数和第2i+1个数配成一对（RoFormer、GPT-J）",
        "rope: half pairs number i with i + d_k/2 (GPT-NeoX, LLaMA); rope: interleaved pairs 2i with 2i+1 (RoFormer, GPT-J)"},
    [AS_MSG_PS_ROPE_PAIRING_UNKNOWN] = {"没有“%s”这种RoPE配对方式",
        "unknown RoPE pairing \"%s\""},
    [AS_MSG_PS_BLOCK_UNKNOWN] = {"block只能是pre或post，不能是“%s”",
        "block is pre or post, not \"%s\""},
    [AS_MSG_PS_BLOCK_HINT] = {"block: pre先归一化再进子层，残差加的是原来的X（GPT-2、LLaMA）；block: post先做残差相加再归一化（原论文、d2l）",
        "block: pre normalises before each sublayer and adds the sublayer to the un-normalised X (GPT-2, LLaMA); block: post adds first and normalises the sum (the original paper, d2l)"},
    [AS_MSG_PS_NORM_UNKNOWN] = {"norm只能是layer、rms或none，不能是“%s”",
        "norm is layer, rms or none, not \"%s\""},
    [AS_MSG_PS_NORM_HINT] = {"norm: layer每行减均值μ再除以√(σ²+ε)；norm: rms不减均值，只除以√(Σx²/d+ε)（LLaMA）；norm: none不归一化",
        "norm: layer subtracts each row's mean μ and divides by √(σ²+ε); norm: rms subtracts nothing and divides by √(Σx²/d+ε) (LLaMA); norm: none leaves the rows as they are"},
    [AS_MSG_PS_NORM_STYLE_UNKNOWN] = {"norm_style只能是torch或annotated，不能是“%s”",
        "norm_style is torch or annotated, not \"%s\""},
    [AS_MSG_PS_NORM_STYLE_HINT] = {"norm_style: torch按torch.nn.LayerNorm算：σ²除以d，ε在根号里；norm_style: annotated按The Annotated Transformer算：σ除以d−1，ε加在根号外",
        "norm_style: torch is torch.nn.LayerNorm: σ² divided by d, ε under the root; norm_style: annotated is the Annotated Transformer's: σ divided by d−1, ε added outside the root"},
    [AS_MSG_PS_FFN_UNKNOWN] = {"ffn只能是relu、gelu、gelu_tanh、swiglu或none，不能是“%s”",
        "ffn is relu, gelu, gelu_tanh, swiglu or none, not \"%s\""},
    [AS_MSG_PS_FFN_HINT] = {"ffn: gelu_tanh是GPT-2的近似GELU，gelu是精确的erf形式，relu取max(0,x)，swiglu是LLaMA的silu(N2·Wgate)⊙(N2·Wup)，none表示没有前馈子层",
        "ffn: gelu_tanh is GPT-2's tanh approximation of GELU, gelu the exact erf form, relu max(0,x), swiglu LLaMA's silu(N2·Wgate)⊙(N2·Wup), none no feed-forward sublayer"},
    [AS_MSG_PS_NORM_EPS_BAD] = {"norm_eps必须是不小于0的有限数，不能是“%s”",
        "norm_eps must be a finite number of at least 0, not \"%s\""},
    [AS_MSG_PS_NORM_EPS_HINT] = {"ε防止除以0：torch的LayerNorm默认1e-5，RMSNorm常用1e-6，如norm_eps: 1e-5",
        "ε keeps the divisor away from 0: torch's LayerNorm uses 1e-5, RMSNorm usually 1e-6, e.g. norm_eps: 1e-5"},
    [AS_MSG_PS_POSITIONS_HINT] = {"positions可以是none、sinusoidal（加到X上）、rope（转动Q和K）或alibi（给打分加一个偏置）",
        "positions is none, sinusoidal (added to X), rope (Q and K turned) or alibi (a bias on the scores)"},
    [AS_MSG_PS_POSITIONS_UNKNOWN] = {"没有“%s”这种位置编码",
        "unknown positions \"%s\""},
    [AS_MSG_PS_BIDI] = {"标题或标签里有改变文字方向的控制字符U+%04X", "a direction control U+%04X in the title or a label"},
    [AS_MSG_PS_BIDI_HINT] = {"这种看不见的字符会把显示的文字顺序打乱（读到的和实际的不一样）：请删掉它",
                             "this invisible character reorders the text on the screen (what is read is not what is there): delete it"},
    [AS_MSG_PS_CONTROL_CHAR] = {"标题或标签里有控制字符（%s）",
        "a control character (%s) in a title or label"},
    [AS_MSG_PS_CONTROL_CHAR_HINT] = {"标题和标签只能是普通文字：请删掉这个控制字符（它可能操控显示输出的终端）",
        "titles and labels are plain text: remove the control character (it could drive the terminal the output is shown on)"},
    [AS_MSG_PS_SETTING_TWICE] = {"设置%s写了两次（第一次在文件第%d行）",
        "the setting %s is given twice (first at line %d)"},
    [AS_MSG_PS_SETTING_TWICE_HINT] = {"两行只保留一行",
        "keep one of the two lines"},
    [AS_MSG_PS_NO_VALUE] = {"设置%s没有值",
        "the setting %s has no value"},
    [AS_MSG_PS_NO_VALUE_HINT] = {"在冒号后面写上值，如%s: %s",
        "write a value after the colon, e.g. %s: %s"},
    [AS_MSG_PS_NO_EQUALS] = {"名字%s后面应该是“=”",
        "expected \"=\" after the name %s"},
    [AS_MSG_PS_MATRIX_FORM_HINT] = {"矩阵写成NAME = [[1, 2], [3, 4]]",
        "a matrix is written NAME = [[1, 2], [3, 4]]"},
    [AS_MSG_PS_NO_COLON] = {"设置%s后面应该是“:”",
        "expected \":\" after the setting %s"},
    [AS_MSG_PS_SETTING_FORM_HINT] = {"设置写成“key: value”，如mask: causal",
        "a setting is written key: value, e.g. mask: causal"},
    [AS_MSG_PS_MATRIX_TWICE] = {"矩阵%s写了两次（第一次在文件第%d行）",
        "matrix %s is given twice (first at line %d)"},
    [AS_MSG_PS_MATRIX_TWICE_HINT] = {"每个矩阵只写一次；W_q、WQ和Wq指的是同一个矩阵",
        "each matrix is given once; W_q, WQ and Wq all name the same matrix"},
    [AS_MSG_PS_PASTE_NUMBERS_HINT] = {"只粘贴数字：%s = [[1, 2], [3, 4]]",
        "paste only the numbers: %s = [[1, 2], [3, 4]]"},
    [AS_MSG_PS_PASTE_TENSOR_HINT] = {"“tensor(…)”是PyTorch打印时加在外面的：只粘贴里面的“[[…]]”，如%s = [[1., 2.], [3., 4.]]",
        "tensor(…) is how PyTorch prints a table: paste only the [[…]] inside it, e.g. %s = [[1., 2.], [3., 4.]]"},
    [AS_MSG_PS_SAME_LINE_HINT] = {"矩阵要从它名字所在的那一行开始写：%s = [[1, 2], [3, 4]]",
        "start the matrix on the line of its name: %s = [[1, 2], [3, 4]]"},
    [AS_MSG_PS_NO_TABLE] = {"“%s =”后面应该是“[[”或“load('file')”",
        "expected \"[[\" or load(\"file\") after \"%s =\""},
    [AS_MSG_PS_SETTING_NOT_FIRST] = {"设置必须写在一行的开头",
        "a setting must start its line"},
    [AS_MSG_PS_SETTING_NOT_FIRST_HINT] = {"每个设置单独写一行",
        "write each setting on a line of its own"},
    [AS_MSG_PS_NEED_HINT] = {"输入至少要有X、Wq、Wk和Wv，如X = [[1, 1], [1, -1]]",
        "an input needs at least X, Wq, Wk and Wv, e.g. X = [[1, 1], [1, -1]]"},
    [AS_MSG_PS_NO_STATEMENTS] = {"文件里没有任何语句",
        "the file holds no statements"},
    [AS_MSG_PS_A_DIRECTORY] = {"这是一个目录，不是输入文件",
        "this is a directory, not an input file"},
    [AS_MSG_PS_A_DIRECTORY_HINT] = {"请给出输入文件的路径，如“examples/f11.txt”",
        "give the path of an input file, e.g. examples/f11.txt"},
    [AS_MSG_PS_CANNOT_READ] = {"无法读取文件：%s",
        "cannot read the file: %s"},
    [AS_MSG_PS_NOT_REGULAR_HINT] = {"attnstep只读普通文件，FIFO、设备和套接字都不读（读它们可能永远等下去）；要从管道读，请写“-”，再把数据用管道送进来",
                                    "attnstep reads regular files only, never a FIFO, a device or a socket (reading one could wait for ever); to read a pipe, give - and pipe into it"},
    [AS_MSG_PS_CHECK_PATH_HINT] = {"请检查路径；书中的例子是“examples/f11.txt”",
        "check the path; the book's example is examples/f11.txt"},
    /* ANSWERS: errors of answers.c and the name errors of check.c (issue 12) */
    [AS_MSG_CHK_NAMED] = {"%s：%s",
        "%s: %s"},
    [AS_MSG_CHK_NO_SUCH_HEAD] = {"题目里没有这个头",
        "the problem has no such head"},
    [AS_MSG_CHK_NO_SUCH_HEAD_HINT] = {"头从0开始编号（S_h0）；C是各头并排的结果，没有头的编号",
        "heads are numbered from 0 (S_h0); C, the heads side by side, has none"},
    [AS_MSG_CHK_WHOSE_HEAD] = {"有好几个头时，要写明这是哪个头的表",
        "with several heads, say whose table this is"},
    [AS_MSG_CHK_WHOSE_HEAD_HINT] = {"写出头的编号：S_h0、S_h1……（某一行：s1_h0）",
        "name the head: S_h0, S_h1 ... (a row: s1_h0)"},
    [AS_MSG_CHK_NO_SUCH_TABLE] = {"题目里没有这张表",
        "the problem has no such table"},
    [AS_MSG_CHK_NO_SUCH_TABLE_HINT] = {"有positions: sinusoidal才有PE，有positions: rope才有Qr和Kr，有positions: alibi才有B",
        "PE comes with positions: sinusoidal, Qr and Kr with positions: rope, B with positions: alibi"},
    [AS_MSG_CHK_NO_SUCH_ROW] = {"这张表没有这一行",
        "the table has no such row"},
    [AS_MSG_CHK_NO_SUCH_ROW_HINT] = {"行从0开始数，和章节里一样（q0、q1……）",
        "rows are counted from 0, as the chapter counts them (q0, q1 ...)"},
    [AS_MSG_CHK_GIVEN_TWICE] = {"这张表写了两次",
        "this table is given twice"},
    [AS_MSG_CHK_GIVEN_TWICE_HINT] = {"每张表只保留一个答案",
        "keep one answer for each table"},
    [AS_MSG_ANS_NO_EQUALS] = {"名字%.*s后面应该是“=”",
        "expected \"=\" after the name %.*s"},
    [AS_MSG_ANS_NO_TABLE] = {"“%.*s =”后面应该是“[[”",
        "expected \"[[\" after \"%.*s =\""},
    [AS_MSG_ANS_SAME_LINE_HINT] = {"表要从它名字所在的那一行开始写：S = [[1, 2]]",
        "write the table on the line of its name: S = [[1, 2]]"},
    /* ---- compare: a head the variant does not have; the "=" of an answer (issue 20) ---- */
    [AS_MSG_CMP_NO_HEAD] = {"%s：变体里没有这张表（变体的头更少）",
        "%s: not in the variant (it has fewer heads)"},
    [AS_MSG_ANS_NO_EQUALS_HINT] = {"名字和表之间写“=”，如S = [[0, -inf], [0.7071, 0]]",
        "write \"=\" between the name and its table, e.g. S = [[0, -inf], [0.7071, 0]]"},
    /* ---- exercise: sizes no draw can fit, refused before drawing (issue 20) ---- */
    [AS_MSG_EX_WIDTH_ONE] = {"--width 1时X只有一列，任意两行都成比例，两个Token问的是同一个问题，"
                             "这样的练习出不来",
        "with --width 1, X has one column and any two of its rows are proportional: two "
        "tokens would ask the same question, so no exercise can be made"},
    [AS_MSG_HINT_EX_WIDTH_ONE] = {"--width至少取2", "use --width 2 or more"},
    /* ---- check: decode's rows and the online softmax's (issue 15) ---- */
    [AS_MSG_CHK_TEACH_S] = {"缩放分数是q与每个可读位置的k的点积除以√d_k，再加上掩码。",
        "A scaled score is q dotted with the k of a readable position, divided by the "
        "square root of d_k, plus the mask."},
    [AS_MSG_CHK_TEACH_A] = {"每个份额是e^(s−最大值)除以这一行所有可读位置的指数之和，所以一行的份额加起来是1。",
        "Each share is e^(s − max) divided by the sum of the exps over every position the "
        "row reads, so a row's shares add up to 1."},
    [AS_MSG_CHK_TEACH_O] = {"输出是用份额混合Value：o = Σ aⱼvⱼ，每一格都是份额乘Value对应格后相加。",
        "The output mixes the Values by the shares: each cell of o is the shares times "
        "the Values' cells, added up."},
    [AS_MSG_CHK_TEACH_CACHE] = {"第t步之后，缓存里是k₀…k_t（v₀…v_t），按位置顺序排好：每一步只在最后追加新的一行，旧的行不变。",
        "After step t the cache holds k_0 ... k_t (v_0 ... v_t) in the order of the positions: "
        "each step appends its new row at the end and leaves the older rows as they were."},
    [AS_MSG_CHK_TEACH_M] = {"m是到这一块为止读过的最大缩放分数：新的m = max(旧的m, 本块的最大分数)；读完所有块，m就是这一行的最大值。",
        "m is the largest scaled score read so far: the new m = max(old m, this block's "
        "largest score); after the last block it is the row's max."},
    [AS_MSG_CHK_TEACH_L] = {"ℓ是运行总和：先把旧的ℓ乘以缩放系数e^(旧m−新m)，再加上本块每个位置的e^(s−新m)；读完所有块，ℓ就是普通softmax的指数之和。",
        "ℓ is the running sum: multiply the old ℓ by the rescale factor e^(m_old − m_new), "
        "then add e^(s − m_new) for each position of this block; after the last block ℓ is "
        "the ordinary softmax's sum of exps."},
    [AS_MSG_CHK_TEACH_F] = {"缩放系数是e^(旧m−新m)：最大值没有升高时是1；第0块之前什么也没累计，记为0。",
        "The rescale factor is e^(m_old − m_new): 1 when the max did not rise, and 0 for "
        "the first block, before which nothing was summed."},
    [AS_MSG_CHK_TEACH_BLOCKS] = {"这一行分成%zu块读取（块的大小由--tiles给出），每块之后写一个值。",
        "Blocks of this row (their size is --tiles): %zu; write one value after each "
        "block."},
    [AS_MSG_CMD_VERIFY] = {"核对一章书印出的每个数：一致、舍入不同（截断）或错误，并给出正确值",
        "check every number a chapter prints: agrees, rounded differently (truncated) or "
        "wrong, with the right value"},
    [AS_MSG_VF_NOT_GIVEN] = {"这一章没有印出%s，无法重算后面的表",
        "the chapter prints no %s, so nothing after it can be recomputed"},
    [AS_MSG_VF_NOT_GIVEN_HINT] = {"verify从章节印出的X、Wq、Wk、Wv（以及M，如果印了）出发重算："
        "这几张表要像书里那样写成“X = [[1, 1], …]”",
        "verify recomputes from the X, Wq, Wk and Wv the chapter prints (and M, when it "
        "prints one): write them as the book does, “X = [[1, 1], …]”"},
    [AS_MSG_VF_MISFIT] = {"“%s”印成了[%zu,%zu]，但由本章的X和W算出的这张表是[%zu,%zu]",
        "“%s” is printed as [%zu,%zu], but the table the chapter's X and W make is [%zu,%zu]"},
    [AS_MSG_VF_MISFIT_HINT] = {"看看这里是不是少印或多印了一行、一列，或者行号（从0数起）超出了表",
        "look for a row or column printed too few or too many, or a row number (counted "
        "from 0) past the table's last"},
    [AS_MSG_VF_CELL] = {"%s第%ld行第%ld列", "%s row %ld, column %ld"},
    [AS_MSG_VF_ROW_CELL] = {"%s第%ld格", "%s cell %ld"},
    [AS_MSG_VF_TOKEN] = {"%s第%ld行", "%s row %ld"},
    [AS_MSG_VF_AGREES] = {"一致", "agrees"},
    [AS_MSG_VF_TRUNCATED] = {"截断了，没有四舍五入：应为%s", "truncated, not rounded: %s"},
    [AS_MSG_VF_ROUNDED] = {"舍入不同：应为%s", "rounded differently: %s"},
    [AS_MSG_VF_WRONG] = {"错误：应为%s", "wrong: it is %s"},
    [AS_MSG_VF_VARIANT] = {"（正好是这样算出的：%s）", " (exactly what this gives: %s)"},
    [AS_MSG_VF_CARRIED] = {"沿用了%s（%d:%d）印错的数：照印出的数算，这一步没有算错；真值是%s",
                           "carried from the misprint in %s (%d:%d): right from the printed "
                           "numbers; the true value is %s"},
    [AS_MSG_VF_PE_BASE_100] = {"位置编码的底数用了100，不是10000：PE[p][2i] = sin(p/100^(2i/d))",
                               "the encoding made with base 100, not 10000: "
                               "PE[p][2i] = sin(p/100^(2i/d))"},
    [AS_MSG_VF_PE_SWAPPED] = {"sin和cos放反了：偶数列应是sin，奇数列应是cos",
                              "sin and cos swapped: the even columns are sin, the odd ones cos"},
    [AS_MSG_VF_LN_UNBIASED] = {"方差除以了d−1（无偏估计），LayerNorm除以的是d",
                               "the variance divided by d−1 (unbiased), where LayerNorm divides by d"},
    [AS_MSG_VF_LN_EPS_OUTSIDE] = {"ε加在了标准差σ上，没有放进根号里：应为√(σ²+ε)",
                                  "ε added to σ instead of under the root: it is √(σ²+ε)"},
    [AS_MSG_VF_LN_ANNOTATED] = {"用了无偏的σ再加ε（σ+ε，Annotated Transformer的写法）；"
                                "LayerNorm是方差除以d、ε在根号里：√(σ²+ε)",
                                "the unbiased σ plus ε (σ+ε, the Annotated Transformer's form); "
                                "LayerNorm divides the variance by d and puts ε under the root: "
                                "√(σ²+ε)"},
    [AS_MSG_VF_ROPE_PAIRING] = {"旋转时配对的方式反了：前后两半配对与相邻两个配对弄混了",
                                "the pairs turned the other way: halves and neighbours mixed up"},
    [AS_MSG_VF_ALIBI_SIGN] = {"偏置的符号反了：应当是越远减得越多，−m·(i−j)，不是加上",
                              "the bias with its sign turned: the farther back, the more is "
                              "taken off, −m·(i−j), not added"},
    [AS_MSG_VF_COUNT_CLEAN] = {"共核对%zu个数：全部一致。", "%zu numbers checked: all agree."},
    [AS_MSG_VF_COUNT] = {"共核对%zu个数：%zu个一致，%zu个不一致。",
        "%zu numbers checked: %zu agree, %zu do not."},
    [AS_MSG_VF_MD_TITLE] = {"勘误：%s", "Errata: %s"},
    [AS_MSG_VF_MD_HEAD] = {"| 位置 | 数 | 印的是 | 核对结果 |", "| place | number | printed | verdict |"},
    /* ---- a class's hand-outs and its grading in one command (issue 28) ---- */
    [AS_MSG_SHEET_LEVEL_ONLY] = {"第%d级", "level %d"},
    [AS_MSG_CLS_UNREADABLE] = {"无法读取全班名单teacher/class.tsv：%s",
                            "cannot read the class list teacher/class.tsv: %s"},
    [AS_MSG_CLS_HINT] = {"--class后面给出“exercise --class 名单 -o 目录”写出的那个目录",
                      "give --class the directory that “exercise --class ROSTER -o DIR” wrote"},
    [AS_MSG_CLS_BAD_LINE] = {"这一行应当有5项，用制表符隔开：序号、姓名、版本、种子、文件",
                          "this line wants 5 fields separated by tabs: number, name, variant, "
                          "seed, file"},
    [AS_MSG_CLS_NO_STUDENT] = {"这份答案对不上全班名单里的任何学生，没有评分",
                            "these answers match no student of the class and are not graded"},
    [AS_MSG_CLS_NO_STUDENT_HINT] = {"在答案文件开头写上“name: 姓名”（与名单一致），或写“variant: 版本号”，或把文件命名为“序号-姓名.txt”",
                                 "begin the file with “name: ” and the name as the roster "
                                 "spells it, or “variant: ” and the id on the sheet, or name "
                                 "the file by the roster number or the name"},
    [AS_MSG_CLS_TWICE] = {"这位学生已经有一份答案：%s；这一份没有评分",
                       "this student already has an answers file: %s; this one is not graded"},
    [AS_MSG_CLS_TWICE_HINT] = {"每位学生只交一份答案：删掉多余的那份再评分",
                            "one answers file per student: remove the extra one and grade again"},
    [AS_MSG_CLS_COPIED] = {"这些表对本人的题不对，却与版本%s（%s）的正确答案一致：可能抄了别人的答案，请老师核实；只计本人题目里对的表",
                        "these tables are wrong for the student's own problem but equal the "
                        "right answers of variant %s (%s): possibly copied, for the teacher to "
                        "decide; only the tables right for the student's own problem count"},
    [AS_MSG_CLS_NOT_HANDED_IN] = {"没有交答案：%s", "no answers handed in: %s"},
    [AS_MSG_CLS_NOT_HANDED_IN_MORE] = {"……还有%zu人", " ... and %zu more"},
    [AS_MSG_CHK_EXPECT_UNKNOWN] = {"--expect：%s不是答案可以写的表",
                                "--expect: %s is no table an answer may give"},
    [AS_MSG_CHK_EXPECT_UNKNOWN_HINT] = {"--expect列出要答的表，用空格隔开，如：--expect 'Q K V QKT S A O'",
                                     "--expect lists the tables asked, separated by blanks: "
                                     "--expect 'Q K V QKT S A O'"},
    [AS_MSG_USE_PREDICT_HTML] = {"--predict只用于网页：它要把每一格藏起来，等你先写下答案",
        "--predict is for the page only: it hides each cell until you have written your guess"},
    [AS_MSG_HINT_PREDICT_HTML] = {"加上 --format html，例如 attnstep run examples/f11.txt --format html --predict -o f11.html",
        "add --format html, e.g. attnstep run examples/f11.txt --format html --predict -o f11.html"},
    [AS_MSG_HTML_NEXT] = {"下一步", "Next step"},
    [AS_MSG_HTML_ALL] = {"全部显示", "Show all steps"},
    [AS_MSG_HTML_KEYS] = {"按Tab进入一张表，用方向键在格子之间移动，每一格都说出它是怎样算出来的；按→或空格显示下一步。",
        "Tab into a table and move between its cells with the arrow keys: each cell says how "
        "it was worked out. → or Space shows the next step."},
    [AS_MSG_HTML_KEYS_STEPS] = {"按→或空格显示下一步，或按“全部显示”。", "→ or Space shows the next step; or show them all."},
    [AS_MSG_HTML_CELL] = {"%s第%zu行第%zu列：%s", "%s, row %zu, column %zu: %s"},
    [AS_MSG_HTML_LEGEND] = {"颜色表示份额：", "The colour is the share:"},
    [AS_MSG_HTML_SHADED_BY] = {"每一格的颜色是它经过softmax后得到的份额。",
        "Each cell is coloured by the share it becomes after the softmax."},
    [AS_MSG_HTML_PREDICT] = {"先猜再看：在格子里写下你算出的数，按回车；猜对了才显示答案。",
        "Predict first: type the number you worked out into a cell and press Enter; the "
        "value shows once your guess is right."},
    [AS_MSG_HTML_GUESS] = {"你的答案", "your answer"},
    [AS_MSG_HTML_RIGHT] = {"对了：", "Right: "},
    [AS_MSG_HTML_WRONG] = {"还不对，再算一次：", "Not yet, work it out again: "},
    [AS_MSG_HTML_LINES] = {"逐格计算", "Cell by cell"},
    [AS_MSG_HTML_T_X] = {"输入表示：每行对应一个位置", "The input: one row per position"},
    [AS_MSG_HTML_T_W] = {"参数表（乘法系数表）", "A weight table"},
    [AS_MSG_HTML_T_Q] = {"查询表示：Q = X @ Wq", "The queries: Q = X @ Wq"},
    [AS_MSG_HTML_T_K] = {"匹配表示：K = X @ Wk", "The keys: K = X @ Wk"},
    [AS_MSG_HTML_T_V] = {"内容表示：V = X @ Wv", "The values: V = X @ Wv"},
    [AS_MSG_HTML_T_QKT] = {"原始分数：每个q与每个k的点积", "Raw scores: each q dotted with each k"},
    [AS_MSG_HTML_T_M] = {"读取规则：0表示可读，−∞表示不可读", "The reading rule: 0 readable, −∞ not"},
    [AS_MSG_HTML_T_S] = {"缩放后的分数（加上读取规则）", "Scaled scores (with the reading rule added)"},
    [AS_MSG_HTML_T_A] = {"注意力份额：每行softmax，每行加起来是1", "The shares: softmax of each row, each row adds up to 1"},
    [AS_MSG_HTML_T_O] = {"输出：按份额混合Value", "The output: the Values mixed by the shares"},
    [AS_MSG_HTML_T_C] = {"各头的输出", "The heads' outputs"},
    [AS_MSG_HTML_T_N1] = {"N1 = norm1(X)：注意力读的是归一化之后的X", "N1 = norm1(X): the attention reads X normalised"},
    [AS_MSG_HTML_T_H1] = {"第一次残差相加之后（Pre：X + O；Post：norm1(X + O)）",
        "After the first residual add (pre: X + O; post: norm1(X + O))"},
    [AS_MSG_HTML_T_N2] = {"N2 = norm2(H1)：前馈网络读的表", "N2 = norm2(H1): what the feed-forward network reads"},
    [AS_MSG_HTML_T_U] = {"U = N2·Wup + bup：放大到d_ff列", "U = N2·Wup + bup: up to d_ff columns"},
    [AS_MSG_HTML_T_G] = {"G = silu(N2·Wgate)：SwiGLU的门", "G = silu(N2·Wgate): SwiGLU's gate"},
    [AS_MSG_HTML_T_F] = {"F：激活函数之后（SwiGLU：G ⊙ U）", "F: after the activation (SwiGLU: G ⊙ U)"},
    [AS_MSG_HTML_T_D] = {"D = F·Wdown + bdown：回到d_model列", "D = F·Wdown + bdown: back to d_model columns"},
    [AS_MSG_HTML_T_H2] = {"第二次残差相加之后（Pre：H1 + D；Post：norm2(H1 + D)）",
        "After the second residual add (pre: H1 + D; post: norm2(H1 + D))"},
    [AS_MSG_HTML_T_Y] = {"整个块的输出", "The block's output"},
    [AS_MSG_HTML_NORM_MEAN] = {"这次归一化：每行的均值μ", "This norm: each row's mean μ"},
    [AS_MSG_HTML_NORM_VAR] = {"每行的方差σ²（RMSNorm：平方的均值）", "Each row's variance σ² (RMSNorm: the mean square)"},
    [AS_MSG_HTML_NORM_DIV] = {"每行的除数（torch：√(σ²+ε)）", "Each row's divisor (torch: √(σ²+ε))"},
    [AS_MSG_HTML_NORM_XHAT] = {"归一化之后的行x̂（乘γ、加β之前）", "The rows normalised, x̂ (before γ and β)"},
    [AS_MSG_HTML_DC_TITLE] = {"逐个Token生成：KV缓存", "Generation token by token: the KV cache"},
    [AS_MSG_HTML_DC_NEW] = {"这一步新算的一行：q、k、v", "This step's new row: q, k, v"},
    [AS_MSG_HTML_DC_CACHE] = {"缓存：到这一步为止的%zu行K和V", "The cache: the %zu rows of K and V so far"},
    [AS_MSG_HTML_DC_ROW] = {"这一行的分数、份额和输出", "This row's scores, shares and output"},
    [AS_MSG_HTML_GRAD_TITLE] = {"反向传播：每张梯度表", "The backward pass: every gradient table"},
    [AS_MSG_HTML_GRAD_WALK] = {"逐步写出：softmax的反向传播", "Worked out: the softmax backward"},
    [AS_MSG_USE_PAGE_TOO_BIG] = {"这一页要画约%zu个格子，超过了一页最多能画的%zu个：这么大的网页，浏览器打不开",
        "this page would draw about %zu cells, more than the %zu a page may hold: no browser "
        "opens a page that large"},
    [AS_MSG_HINT_PAGE_TOO_BIG_ONLY] = {"用 --only 只画几张表（如 --only O），或用更少的Token；"
        "每个数都在文本输出和 --format json 里，它们逐行写出，多大都行",
        "draw a few tables with --only (e.g. --only O), or use fewer tokens; every number is "
        "in the text output and in --format json, which are written row by row at any size"},
    [AS_MSG_HINT_PAGE_TOO_BIG_TRACE] = {"用更少的Token，或看文本的逐步计算（trace --row N 只走第N行）",
        "use fewer tokens, or read the walk as text (trace --row N walks row N alone)"},
    [AS_MSG_HINT_PAGE_TOO_BIG_WALK] = {"用更少的Token，或改用文本输出或 --format json："
        "它们逐行写出，多大都行",
        "use fewer tokens, or the text output or --format json: they are written row by row "
        "at any size"},
    [AS_MSG_HINT_PAGE_TOO_BIG_TILES] = {"用更大的块（--tiles 后的数大一些），或只走一行（trace --tiles B --row N），"
        "或用更少的Token；文本输出和 --format json 逐行写出，多大都行",
        "use larger blocks (a larger number after --tiles), walk one row (trace --tiles B "
        "--row N), or use fewer tokens; the text output and --format json are written row by "
        "row at any size"},
    [AS_MSG_HTML_TL_TITLE] = {"在线softmax：每块%zu个Key", "The online softmax: blocks of %zu Keys"},
    [AS_MSG_HTML_TL_ROW] = {"第%zu行“%s”，头%zu：一块一块地读", "Row %zu “%s”, head %zu: block by block"},
    [AS_MSG_HTML_TL_COLS] = {"每一行是读完一块之后：m是目前的最大值，ℓ是指数之和，f是这一块的缩放系数，其余各列是还没除以ℓ的输出。",
        "Each row is after one block: m the running max, ℓ the sum of exps, f the block's rescale factor, the other columns the output not yet divided by ℓ."},
    [AS_MSG_HTML_TL_END] = {"最后的份额：和普通softmax的一样", "The final shares: the ordinary softmax's"},
    [AS_MSG_HTML_CK_TITLE] = {"全班的检查结果", "The class's results"},
    [AS_MSG_HTML_CK_BOOK] = {"成绩表", "Gradebook"},
    [AS_MSG_HTML_CK_ITEMS] = {"逐表分析：每张表对、带错、错、缺的人数", "Item analysis: per table, how many were right, carried, wrong, missing"},
    [AS_MSG_HTML_CK_WRONG] = {"%s的错格", "%s: the wrong cells"},
    [AS_MSG_HTML_CK_NONE] = {"没有错格。", "No wrong cell."},
    /* ---- binary weight files (issue 32) ---- */
    [AS_MSG_BIN_AT] = {"“%s”第%llu字节处：%s",
        "“%s”, byte %llu: %s"},
    [AS_MSG_BIN_TENSOR_AT] = {"“%s”的张量“%s”，第%llu字节处：%s",
        "“%s”, tensor “%s”, byte %llu: %s"},
    [AS_MSG_BIN_UNREADABLE] = {"这里的%llu字节读不出来",
        "the %llu bytes here cannot be read"},
    [AS_MSG_BIN_PAST_END] = {"%s要读到第%llu字节，可文件只有%llu字节",
        "%s runs to byte %llu, but the file has only %llu bytes"},
    [AS_MSG_BIN_PART_HEADER] = {"头部",
        "the header"},
    [AS_MSG_BIN_PART_DATA] = {"数据",
        "the data"},
    [AS_MSG_BIN_PART_MEMBER] = {"ZIP成员",
        "the ZIP member"},
    [AS_MSG_BIN_PART_DIR] = {"ZIP目录",
        "the ZIP directory"},
    [AS_MSG_BIN_TRUNCATED_HINT] = {"文件可能没写完或被截断了：用numpy或safetensors重新保存它",
        "the file may be cut short: save it again with numpy or safetensors"},
    [AS_MSG_BIN_NPY_VERSION] = {"npy格式版本%u.%u不认识",
        "npy format version %u.%u is unknown"},
    [AS_MSG_BIN_NPY_VERSION_HINT] = {"numpy.save写的是1.0、2.0或3.0版",
        "numpy.save writes versions 1.0, 2.0 and 3.0"},
    [AS_MSG_BIN_NPY_HEADER] = {"npy头部从这里读不下去：“%s”",
        "the npy header cannot be read from here: “%s”"},
    [AS_MSG_BIN_NPY_HEADER_HINT] = {"npy头部是这样一个Python字典：{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }",
        "an npy header is a Python dict such as {'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"},
    [AS_MSG_BIN_DTYPE] = {"数据类型“%s”读不了，能读的是%s",
        "dtype “%s” cannot be read; %s can"},
    [AS_MSG_BIN_DTYPE_HINT] = {"先在numpy里转成浮点数再保存：a.astype(np.float64)",
        "convert it in numpy before saving: a.astype(np.float64)"},
    [AS_MSG_BIN_DIMS] = {"形状%s既不是一行(n,)，也不是矩阵(r, c)",
        "shape %s is neither a row (n,) nor a matrix (r, c)"},
    [AS_MSG_BIN_DIMS_HINT] = {"在numpy里存一维或二维的部分再载入，如np.save('w.npy', a[0])",
        "save a 1-D or 2-D part of it in numpy and load that, e.g. np.save('w.npy', a[0])"},
    [AS_MSG_BIN_TOO_MANY_DIMS] = {"形状超过%d维",
        "the shape has more than %d dimensions"},
    [AS_MSG_BIN_EMPTY] = {"形状%s里一个数也没有",
        "shape %s holds no number"},
    [AS_MSG_BIN_SIZE] = {"形状%s的%s要%llu字节，这里给了%llu字节",
        "shape %s of %s needs %llu bytes; %llu are given here"},
    [AS_MSG_BIN_OVERLAP] = {"数据与“%s”的数据重叠",
        "its data overlaps the data of “%s”"},
    [AS_MSG_BIN_NOT_FINITE] = {"第%llu行第%llu列是%s，不是有限的数",
        "row %llu, column %llu is %s, not a finite number"},
    [AS_MSG_BIN_NAN_HINT] = {"NaN（不是数）常来自训练发散或没有初始化的内存：检查写出这个文件的程序",
        "a NaN (not a number) often comes from a diverged training or memory never set: check the program that wrote the file"},
    [AS_MSG_BIN_ZIP_NO_END] = {"找不到ZIP的目录结尾",
        "the end of the ZIP's central directory is missing"},
    [AS_MSG_BIN_ZIP_BAD_DIR] = {"这里应是ZIP目录的一项（PK\\1\\2）",
        "an entry of the ZIP directory (PK\\1\\2) was expected here"},
    [AS_MSG_BIN_ZIP_BAD_LOCAL] = {"这里应是ZIP成员的头（PK\\3\\4）",
        "the header of a ZIP member (PK\\3\\4) was expected here"},
    [AS_MSG_BIN_ZIP_COMPRESSED] = {"这个成员是压缩存放的（numpy.savez_compressed写的）",
        "the member is compressed (numpy.savez_compressed writes such files)"},
    [AS_MSG_BIN_JSON_KEYS] = {"“dtype”、“shape”或“data_offsets”",
        "“dtype”, “shape” or “data_offsets”"},
    [AS_MSG_BIN_ZIP_COMPRESSED_HINT] = {"用numpy.savez重新保存（不压缩）：C库里没有解压deflate的函数",
        "save it again with numpy.savez (uncompressed): the C library has no deflate"},
    [AS_MSG_BIN_NO_TENSOR] = {"没有名为“%s”的张量，有的是%s",
        "there is no tensor “%s”; there are %s"},
    [AS_MSG_BIN_NO_TENSORS] = {"文件里一个张量也没有",
        "the file holds no tensor"},
    [AS_MSG_BIN_LIST_HINT] = {"用“attnstep weights %s”列出文件里的张量",
        "“attnstep weights %s” lists the tensors of the file"},
    [AS_MSG_BIN_WHICH] = {"文件里有%zu个张量，要写明载入哪一个",
        "the file holds %zu tensors: say which one to load"},
    [AS_MSG_BIN_WHICH_HINT] = {"写成load('%s', '%s')",
        "write load('%s', '%s')"},
    [AS_MSG_BIN_ONE_ONLY] = {"“%s”只有一个矩阵，没有名字可选",
        "“%s” holds one matrix and no names"},
    [AS_MSG_BIN_ONE_ONLY_HINT] = {"去掉第二个参数：load('%s')",
        "leave out the second argument: load('%s')"},
    [AS_MSG_BIN_JSON] = {"头部的JSON在这里读不下去：应是%s，这里是“%s”",
        "the JSON header cannot be read here: %s expected, “%s” found"},
    [AS_MSG_BIN_JSON_HINT] = {"safetensors的头部是这样的JSON：{'名字': {'dtype': 'F32', 'shape': [2, 3], 'data_offsets': [0, 24]}}（引号是双引号）",
        "a safetensors header is JSON such as {\"name\": {\"dtype\": \"F32\", \"shape\": [2, 3], \"data_offsets\": [0, 24]}}"},
    [AS_MSG_BIN_JSON_STRING] = {"带双引号的字符串",
        "a string in double quotes"},
    [AS_MSG_BIN_JSON_INTEGER] = {"非负整数",
        "a non-negative integer"},
    [AS_MSG_BIN_JSON_OBJECT] = {"“{”",
        "“{”"},
    [AS_MSG_BIN_JSON_NEXT] = {"“,”或结尾的括号",
        "“,” or the closing bracket"},
    [AS_MSG_BIN_JSON_COLON] = {"“:”",
        "“:”"},
    [AS_MSG_BIN_JSON_TWO] = {"两个整数[开头, 结尾]",
        "two integers [begin, end]"},
    [AS_MSG_BIN_JSON_VALUE] = {"一个值",
        "a value"},
    [AS_MSG_BIN_JSON_MISSING] = {"缺少“%s”",
        "“%s” is missing"},
    [AS_MSG_BIN_META] = {"__metadata__的值都必须是字符串",
        "the values of __metadata__ must all be strings"},
    [AS_MSG_BIN_OFFSETS] = {"data_offsets [%llu, %llu]的开头在结尾之后",
        "data_offsets [%llu, %llu] begin after they end"},
    [AS_MSG_LD_SLICE_SYNTAX] = {"切片应写成[a:b]或[a:b, c:d]，这里是“%s”",
        "a slice is written [a:b] or [a:b, c:d]; here is “%s”"},
    [AS_MSG_LD_SLICE_INDEX_HUGE] = {"切片里的下标“%s”太大：没有哪张表有这么多行或列",
        "the slice's index \"%s\" is past the last row or column of any table"},
    [AS_MSG_LD_SLICE_UNCLOSED] = {"切片没写完：这一行在“]”之前就结束了",
        "the slice is not finished: the line ends before its \"]\""},
    [AS_MSG_LD_SLICE_HINT] = {"a:b从第a个取到第b个之前（从0数起），“:”取全部，如[:, 0:768]取前768列",
        "a:b takes a up to but not including b (counted from 0) and “:” takes all: [:, 0:768] is the first 768 columns"},
    [AS_MSG_LD_SLICE_OUTSIDE] = {"切片%s超出了形状%s",
        "slice %s lies outside the shape %s"},
    [AS_MSG_LD_SLICE_OUTSIDE_HINT] = {"切片不会被截短：a:b要满足a < b ≤ 这一维的长度",
        "a slice is never cut short: a:b needs a < b ≤ the length of its dimension"},
    [AS_MSG_LD_SLICE_1D] = {"一维的形状%s只能有一个切片",
        "the 1-D shape %s takes one slice"},
    [AS_MSG_WT_NOT_BINARY] = {"“%s”不是.npy、.npz或.safetensors文件",
        "“%s” is no .npy, .npz or .safetensors file"},
    [AS_MSG_WT_NOT_BINARY_HINT] = {"numpy.savetxt写的文本矩阵直接用load()载入",
        "a text matrix as numpy.savetxt writes it is loaded by load() as it is"},
    [AS_MSG_WT_COLUMNS] = {"名字	数据类型	形状	字节数",
        "name	dtype	shape	bytes"},
    [AS_MSG_WT_SUMMARY] = {"%s文件，%zu个张量，共%llu字节",
        "%s file, %zu tensors, %llu bytes"},
    [AS_MSG_CMD_WEIGHTS] = {"列出权重文件里的张量：名字、数据类型、形状、字节数",
        "list the tensors of a weights file: name, dtype, shape, bytes"},
    [AS_MSG_BIN_HEADER_TOO_LONG] = {"头部长%llu字节，超过了上限%llu字节",
        "the header is %llu bytes long, more than the %llu read"},
    [AS_MSG_BIN_FILE] = {"“%s”：%s",
        "“%s”: %s"},
    [AS_MSG_BIN_REWRITE_HINT] = {"这个文件不像numpy或safetensors写出的：用它们重新保存",
        "the file is not as numpy or safetensors write one: save it again with them"},
    /* ids: through the embedding table E and the positions P (SPEC §16, F05) */
    [AS_MSG_LD_CHANGED] = {"文件在载入期间变了，和先前读到的形状不同",
        "the file changed while it was loaded: its shape is not the one read before"},
    [AS_MSG_EMB_NOT_ID] = {"ids里的“%s”不是行号：应当是0或更大的整数",
        "“%s” in ids is no row number: a whole number, 0 or more, is expected"},
    [AS_MSG_EMB_ID_HINT] = {"ids是嵌入表E的行号（从0数起），用空格隔开，例如“ids: 40 1842 345”",
        "ids are row numbers of the embedding table E, counted from 0 and split by blanks, e.g. \"ids: 40 1842 345\""},
    [AS_MSG_EMB_TOO_MANY] = {"ids最多%zu个", "at most %zu ids are read"},
    [AS_MSG_EMB_NO_E] = {"给了ids，却没有嵌入表E", "ids are given but no embedding table E"},
    [AS_MSG_EMB_NO_E_HINT] = {"X = E[ids]：每个id取E的一行，所以要给出E，例如“E = load('model.safetensors', 'wte.weight')”",
        "X = E[ids] takes one row of E for each id, so give E, e.g. E = load(\"model.safetensors\", \"wte.weight\")"},
    [AS_MSG_EMB_NO_IDS] = {"给了%s，却没有ids", "%s is given but no ids"},
    [AS_MSG_EMB_NO_IDS_HINT] = {"%s只和ids一起用：写“ids: 0 1 2”这样的行号，选出要用的行",
        "%s is used only with ids: write row numbers such as \"ids: 0 1 2\" to pick the rows"},
    [AS_MSG_EMB_WITH_X] = {"ids和X不能同时给出", "ids and X cannot both be given"},
    [AS_MSG_EMB_WITH_X_HINT] = {"有ids时，X由E[ids] + P[0:n]算出：删去X，或者删去ids",
        "with ids, X is made as E[ids] + P[0:n]: drop X, or drop ids"},
    [AS_MSG_EMB_ID_OUTSIDE] = {"id %zu超出了E的范围：E只有%zu行（第0行到第%zu行）",
        "id %zu is outside E: E has %zu rows (rows 0 to %zu)"},
    [AS_MSG_EMB_ID_HUGE] = {"ids里的“%s”太大：没有哪张词表有这么多行",
        "the id \"%s\" is past the last row of any embedding table"},
    [AS_MSG_EMB_ID_OUTSIDE_HINT] = {"E的第i行是第i个词元的向量：id就是行号，从0数起，必须小于词表的大小（E的行数）",
        "row i of E is the vector of token i: an id is a row number, counted from 0, below the size of the vocabulary (E's rows)"},
    [AS_MSG_EMB_TOO_LONG] = {"ids有%zu个，但P只有%zu行（位置0到%zu）",
        "there are %zu ids but P has only %zu rows (positions 0 to %zu)"},
    [AS_MSG_EMB_TOO_LONG_HINT] = {"P的第i行是第i个位置的向量：P有多少行，模型一次最多就读多少个词元（上下文长度），所以要减少ids",
        "row i of P is the vector of position i: a model reads at most as many tokens as P has rows (its context length), so give fewer ids"},
    [AS_MSG_EMB_WIDTHS] = {"E每行有%zu个数，P每行却有%zu个数",
        "E's rows hold %zu numbers but P's rows hold %zu"},
    [AS_MSG_EMB_WIDTHS_HINT] = {"X = E[ids] + P[0:n]是逐格相加，所以E和P必须一样宽（都是d_model）",
        "X = E[ids] + P[0:n] adds cell by cell, so E and P must be equally wide (both d_model)"},
    [AS_MSG_EMB_ROW] = {"第%zu行：取E的第%zu行", "row %zu: row %zu of E"},
    [AS_MSG_EMB_POS_ROW] = {"第%zu行：位置%zu", "row %zu: position %zu"},
    [AS_MSG_EMB_NOTE] = {"（嵌入表E共%zu行、每行%zu个数，只取ids选中的%zu行）",
        "(the embedding table E has %zu rows of %zu numbers; only the %zu rows the ids pick are kept)"},
    [AS_MSG_EMB_P_NOTE] = {"（位置表P共%zu行，取前n行：第i个词元加上P的第i行）",
        "(the position table P has %zu rows; the first n are taken: token i adds row i of P)"},
    [AS_MSG_EMB_TR_INTRO] = {"先由ids得到输入：每个id取嵌入表E的一行。",
        "First the input from the ids: each id takes one row of the embedding table E."},
    [AS_MSG_EMB_TR_INTRO_P] = {"先由ids得到输入：每个id取嵌入表E的一行，再加上它所在位置的那一行P。",
        "First the input from the ids: each id takes one row of the embedding table E, plus the row of P of its position."},
    [AS_MSG_EMB_TR_ROW] = {"“%s”：取第%zu行，%s", "“%s”: row %zu of E, %s"},
    /* model: "FILE" layer N with preset: gpt2|llama (SPEC §16) */
    [AS_MSG_PRE_PACKED] = {"形状%s的列数不能平分成Q、K、V三份",
        "its shape %s does not split into three equal parts Q, K, V"},
    [AS_MSG_PRE_PACKED_HINT] = {"GPT-2的c_attn把Wq、Wk、Wv并排存成[d_model, 3·d_model]：列数应当是3的倍数",
        "GPT-2's c_attn keeps Wq, Wk and Wv side by side as [d_model, 3·d_model]: its columns must be a multiple of 3"},
    [AS_MSG_PRE_NO_LAYERS] = {"没有preset %s要找的层（例如“%s”）",
        "there is no layer by the names of preset %s (such as “%s”)"},
    [AS_MSG_PRE_NO_LAYERS_HINT] = {"用“attnstep weights %s”看看文件里张量的名字，再选对preset（gpt2或llama）",
        "look at the tensors' names with attnstep weights %s and pick the preset that fits (gpt2 or llama)"},
    [AS_MSG_PRE_CONFIG_VALUE] = {"“%s”里“%s”的值不是可用的数",
        "in “%s”, the value of “%s” is no number that fits"},
    [AS_MSG_PRE_CONFIG_HINT] = {"模型旁边的config.json给出头数、层数和ε：它们应当是数，头数和层数是正整数",
        "the config.json beside the model gives the heads, layers and ε: numbers, the heads and layers whole and positive"},
    [AS_MSG_PRE_MODEL_SYNTAX] = {"model后面应当是加引号的文件名，再可选“layer N”，这里却是“%s”",
        "model takes a quoted file name, then optionally layer N, not “%s”"},
    [AS_MSG_PRE_MODEL_HINT] = {"例如“model: 'gpt2/model.safetensors' layer 0”，层从0数起",
        "e.g. model: \"gpt2/model.safetensors\" layer 0 (layers are counted from 0)"},
    [AS_MSG_PRE_UNKNOWN] = {"没有叫“%s”的preset", "there is no preset “%s”"},
    [AS_MSG_PRE_UNKNOWN_HINT] = {"preset可以是gpt2（GPT-2的名字和约定）或llama（LLaMA的）",
        "preset is gpt2 (GPT-2's names and conventions) or llama (LLaMA's)"},
    [AS_MSG_PRE_NEED_PRESET] = {"给了model，却没有preset", "model is given but no preset"},
    [AS_MSG_PRE_NEED_PRESET_HINT] = {"preset说明文件里张量的名字和模型的约定：写“preset: gpt2”或“preset: llama”",
        "preset says what the file's tensors are called and which conventions hold: write preset: gpt2 or preset: llama"},
    [AS_MSG_PRE_NEED_MODEL] = {"给了preset，却没有model", "preset is given but no model"},
    [AS_MSG_PRE_NEED_MODEL_HINT] = {"preset要从模型文件里读权重：写“model: '文件' layer N”",
        "a preset reads its weights from a model file: write model: \"FILE\" layer N"},
    [AS_MSG_PRE_LAYER_BEYOND] = {"没有第%zu层：这个模型只有%zu层（第0层到第%zu层）",
        "there is no layer %zu: the model has %zu layers (0 to %zu)"},
    [AS_MSG_PRE_LAYER_HINT] = {"层从0数起；层数是config.json里的n_layer（或num_hidden_layers），没有config.json时数文件里的层",
        "layers are counted from 0; their number is n_layer (or num_hidden_layers) of config.json, else the layers the file holds"},
    [AS_MSG_PRE_LAYERS_INTRO] = {"（X₀依次经过第%zu层之前的各层，每层一行：）",
        "(X₀ goes through the layers before layer %zu in turn, one line each:)"},
    [AS_MSG_PRE_LAYER_DONE] = {"（第%zu层，%s：已算出，输出[%zu,%zu]，最后一行%s %s）",
        "(layer %zu, %s: computed, output [%zu,%zu], last row %s %s)"},
    [AS_MSG_PRE_PATH_HINT] = {"model:里的路径从输入文件所在的文件夹算起",
        "the path of model: is taken relative to the folder of the input file"},
    [AS_MSG_GEN_MODEL_LAYER] = {"generate只走一层：model:的第%zu层前面还有%zu层，每个新词的行都要先经过它们",
        "generate walks one layer: layer %zu of model: has %zu layers before it, which every new token's row would have to pass first"},
    [AS_MSG_HINT_GEN_MODEL_LAYER] = {"写“layer 0”从第0层生成，或者用run看第%zu层怎样读前面各层的结果",
        "write layer 0 to generate from layer 0, or use run to see how layer %zu reads what the layers before it made"},
    [AS_MSG_PRE_X_NOTE] = {"（X是第%zu层的输入，也就是第0层到第%zu层依次算出的结果；下面完整地走一遍第%zu层）",
        "(X is the input of layer %zu, what layers 0 to %zu made in turn; layer %zu is walked in full below)"},
    /* the whole block (SPEC §15) */
    [AS_MSG_BLK_TITLE_PRE] = {"── 整个块（Pre-LN）：先归一化，再进子层，子层的输出加回残差 ──",
        "── the whole block (pre-LN): normalise, then the sublayer, then add its output back ──"},
    [AS_MSG_BLK_TITLE_POST] = {"── 整个块（Post-LN）：子层的输出先加回残差，再归一化 ──",
        "── the whole block (post-LN): add the sublayer's output back, then normalise ──"},
    [AS_MSG_BLK_NORM_LAYER] = {"%s = LayerNorm(%s)：每一行减去自己的均值μ，除以√(σ²+ε)"
        "（σ²是(x−μ)²的平均：除以d，不是d−1；ε = %s），再乘γ、加β",
        "%s = LayerNorm(%s): each row minus its own mean μ, divided by √(σ²+ε) (σ² the mean "
        "of (x−μ)²: divided by d, not d−1; ε = %s), then times γ plus β"},
    [AS_MSG_BLK_NORM_ANNOT] = {"%s = LayerNorm(%s)（Annotated Transformer的写法）：每一行减去均值μ，"
        "除以σ+ε（σ是无偏标准差，平方和除以d−1；ε = %s），再乘γ、加β",
        "%s = LayerNorm(%s) (the Annotated Transformer's form): each row minus its mean μ, "
        "divided by σ+ε (σ the unbiased standard deviation, the squares summed and divided by "
        "d−1; ε = %s), then times γ plus β"},
    [AS_MSG_BLK_NORM_RMS] = {"%s = RMSNorm(%s)：每一行不减均值，直接除以√(Σx²/d+ε)（ε = %s），再乘γ",
        "%s = RMSNorm(%s): each row, its mean not subtracted, divided by √(Σx²/d+ε) "
        "(ε = %s), then times γ"},
    [AS_MSG_BLK_NORM_NONE] = {"%s = %s（norm: none：不做归一化）",
        "%s = %s (norm: none: nothing is normalised)"},
    [AS_MSG_BLK_ROW_LAYER] = {"第%zu行：μ %s，σ² %s，√(σ²+ε) %s",
        "row %zu: μ %s, σ² %s, √(σ²+ε) %s"},
    [AS_MSG_BLK_ROW_ANNOT] = {"第%zu行：μ %s，σ²（除以d−1）%s，σ+ε %s",
        "row %zu: μ %s, σ² (divided by d−1) %s, σ+ε %s"},
    [AS_MSG_BLK_ROW_RMS] = {"第%zu行：Σx²/d %s，√(Σx²/d+ε) %s",
        "row %zu: Σx²/d %s, √(Σx²/d+ε) %s"},
    [AS_MSG_BLK_WIDTH2] = {"（每行只有2个数时，LayerNorm总把它变成[1,−1]或[−1,1]：两个数减去均值后"
        "一正一负、大小相等，再除以这个大小；ε让它略小于1。所以讲归一化的练习至少用3个数。）",
        "(with 2 numbers a row, LayerNorm always gives [1,−1] or [−1,1]: minus their mean the "
        "two are equal and opposite, and are divided by that size; ε makes it a little under "
        "1. Exercises on normalisation therefore use at least 3 numbers.)"},
    [AS_MSG_BLK_RESIDUAL] = {"残差：%s = %s + %s，把子层的输出逐格加回它的输入",
        "the residual: %s = %s + %s, the sublayer's output added back onto its input cell by cell"},
    [AS_MSG_BLK_FFN] = {"前馈网络：%s的每一行先升到%zu维（U），经过%s，再降回原来的宽度（D）",
        "the feed-forward network: each row of %s goes up to %zu numbers (U), through %s, and "
        "back down to its width (D)"},
    [AS_MSG_BLK_OUTPUT] = {"块的输出：Y = %s", "the block's output: Y = %s"},
    [AS_MSG_DIAG_LN_UNBIASED] = {"方差除以了d−1（无偏方差，numpy的ddof=1、Annotated Transformer的std）；torch的LayerNorm求σ²时除以d：σ² = Σ(x−μ)²/d",
        "the variance was divided by d−1 (the unbiased one, numpy's ddof=1, the Annotated Transformer's std); torch's LayerNorm divides by d: σ² = Σ(x−μ)²/d"},
    [AS_MSG_DIAG_LN_EPS_OUTSIDE] = {"ε加在了σ上（σ+ε）；torch的LayerNorm把ε加在根号里面：除以√(σ²+ε)",
        "ε was added to σ (σ+ε); torch's LayerNorm adds it under the root: divide by √(σ²+ε)"},
    [AS_MSG_DIAG_LN_NO_AFFINE] = {"只算到了x̂，忘了乘γ、加β：归一化之后还要y = γ⊙x̂ + β（RMSNorm只乘γ）",
        "it stops at x̂: γ and β were forgotten; after normalising comes y = γ⊙x̂ + β (RMSNorm only multiplies by γ)"},
    [AS_MSG_DIAG_RMS_WITH_MEAN] = {"RMSNorm不减均值：直接除以√(Σx²/d+ε)；先减均值就成了LayerNorm",
        "RMSNorm subtracts no mean: it divides by √(Σx²/d+ε) as it is; subtracting the mean first makes it LayerNorm"},
    [AS_MSG_DIAG_GELU_TANH_FOR_ERF] = {"用了GELU的tanh近似；这里的ffn: gelu是精确的erf形式：GELU(u) = u/2·(1 + erf(u/√2))",
        "GELU's tanh approximation was used; ffn: gelu here is the exact erf form: GELU(u) = u/2·(1 + erf(u/√2))"},
    [AS_MSG_DIAG_GELU_ERF_FOR_TANH] = {"用了精确的erf形式GELU；这里的ffn: gelu_tanh是GPT-2的tanh近似：u/2·(1 + tanh(√(2/π)(u + 0.044715u³)))",
        "the exact erf GELU was used; ffn: gelu_tanh here is GPT-2's tanh approximation: u/2·(1 + tanh(√(2/π)(u + 0.044715u³)))"},
    [AS_MSG_DIAG_RELU_FOR_GELU] = {"用了ReLU（负数变0）；GELU不把负数截成0，而是乘上Φ(u)，负数只变小",
        "ReLU was used (negatives to 0); GELU does not cut negatives to 0 but multiplies by Φ(u), so they only shrink"},
    [AS_MSG_DIAG_NO_RESIDUAL] = {"忘了残差：子层的输出还要逐格加回它的输入（H = X + 子层(…)），这张表只是子层的输出",
        "the residual was left out: the sublayer's output is added back onto its input cell by cell (H = X + sublayer(…)); this table is the sublayer's output alone"},
    [AS_MSG_DIAG_RESIDUAL_FROM_NORMED] = {"加回的是归一化之后的输入；Pre-LN的残差加的是归一化之前的那张表：H1 = X + O，不是N1 + O",
        "the normalised input was added back; pre-LN's residual adds the table from before the norm: H1 = X + O, not N1 + O"},
    [AS_MSG_DIAG_POST_FOR_PRE] = {"在相加之后做了归一化（Post-LN的做法）；这个块是Pre-LN：先归一化再进子层，相加之后不再归一化：H1 = X + O",
        "the sum was normalised (post-LN's order); this block is pre-LN: the norm comes before the sublayer, and the sum is not normalised: H1 = X + O"},
    [AS_MSG_PR_NAME_LN_UNBIASED] = {"方差除以d−1", "the variance divided by d−1"},
    [AS_MSG_PR_NAME_LN_EPS_OUTSIDE] = {"ε加在σ上", "ε added to σ"},
    [AS_MSG_PR_NAME_LN_NO_AFFINE] = {"忘了γ和β", "γ and β forgotten"},
    [AS_MSG_PR_NAME_RMS_WITH_MEAN] = {"RMSNorm减了均值", "the mean subtracted in RMSNorm"},
    [AS_MSG_PR_NAME_GELU_TANH_FOR_ERF] = {"用了GELU的tanh近似", "GELU's tanh approximation"},
    [AS_MSG_PR_NAME_GELU_ERF_FOR_TANH] = {"用了精确的GELU", "the exact GELU"},
    [AS_MSG_PR_NAME_RELU_FOR_GELU] = {"用了ReLU", "ReLU instead of GELU"},
    [AS_MSG_PR_NAME_NO_RESIDUAL] = {"忘了残差", "the residual left out"},
    [AS_MSG_PR_NAME_RESIDUAL_FROM_NORMED] = {"加回了归一化后的输入", "the normalised input added back"},
    [AS_MSG_PR_NAME_POST_FOR_PRE] = {"相加后又归一化", "the sum normalised (post for pre)"},
    [AS_MSG_CHK_NO_SUCH_BLOCK_HINT] = {"N1和N2是block: pre的表（post直接把和归一化成H1、H2）；"
        "U、F、D、H2要有前馈网络（ffn: none没有），G只在ffn: swiglu里有；没有block:就没有这些表",
        "N1 and N2 are the tables of block: pre (post normalises the sums into H1 and H2); U, F, "
        "D and H2 need a feed-forward network (not ffn: none), G only comes with ffn: swiglu; "
        "without block: there are none of these tables"},
    [AS_MSG_CHK_NO_PROBS_HINT] = {"probs是输出头给出的概率，只有题目里有输出头（head: tied或head: Wout）时才有",
        "probs, the output head's probabilities, come only with an output head (head: tied or head: Wout)"},
    [AS_MSG_BT_TITLE] = {"── 整个块，第%zu行“%s” ──", "── the whole block, row %zu “%s” ──"},
    [AS_MSG_BT_READS_N1] = {"（Pre-LN：注意力读的是N1，下面的x就是N1的行）",
        "(pre-LN: the attention reads N1, so the x below are the rows of N1)"},
    [AS_MSG_BT_NORM_ROW] = {"%s = %s(%s)，这一行：%s", "%s = %s(%s), this row: %s"},
    [AS_MSG_BT_MEAN] = {"求均值：%s", "the mean: %s"},
    [AS_MSG_BT_CENTRE] = {"减去均值：%s", "minus the mean: %s"},
    [AS_MSG_BT_VAR] = {"方差（平方的平均，除以d=%zu）：%s",
        "the variance (the mean of the squares, divided by d=%zu): %s"},
    [AS_MSG_BT_VAR_ANNOT] = {"无偏方差（平方和除以d−1=%zu）：%s",
        "the unbiased variance (the sum of squares divided by d−1=%zu): %s"},
    [AS_MSG_BT_DIV_INSIDE] = {"ε加在根号里面，再开方：%s", "ε added under the root, then the root: %s"},
    [AS_MSG_BT_DIV_OUTSIDE] = {"先开方得标准差σ，再加ε：%s",
        "the root first (the standard deviation σ), then ε added: %s"},
    [AS_MSG_BT_MS] = {"平方的平均（不减均值）：%s", "the mean of the squares (no mean subtracted): %s"},
    [AS_MSG_BT_RMS_DIV] = {"加ε再开方：%s", "ε added, then the root: %s"},
    [AS_MSG_BT_XHAT] = {"每格除以它：%s", "each cell divided by it: %s"},
    [AS_MSG_BT_AFFINE] = {"乘γ、加β：%s", "times γ, plus β: %s"},
    [AS_MSG_BT_AFFINE_RMS] = {"乘γ：%s", "times γ: %s"},
    [AS_MSG_BT_NO_AFFINE] = {"没有给出γ和β（γ = 1，β = 0）：%s这一行就是x̂",
        "no γ and β given (γ = 1, β = 0): this row of %s is x̂"},
    [AS_MSG_BT_RESIDUAL] = {"残差，逐格相加：%s", "the residual, cell by cell: %s"},
    [AS_MSG_BT_UP] = {"升维：%s", "up: %s"},
    [AS_MSG_BT_GATE] = {"门：%s", "the gate: %s"},
    [AS_MSG_BT_ACT] = {"激活，逐格：%s", "the activation, cell by cell: %s"},
    [AS_MSG_BT_ACT_RULE] = {"其中%s", "where %s"},
    [AS_MSG_BT_SWIGLU] = {"门和U逐格相乘：%s", "the gate times U, cell by cell: %s"},
    [AS_MSG_BT_DOWN] = {"降维：%s", "down: %s"},
    [AS_MSG_HINT_USE_BLOCK] = {"pre：先归一化再进子层（GPT-2、LLaMA）；post：子层的输出加回残差之后再归一化（最初的Transformer）",
                               "pre: normalise before each sublayer (GPT-2, LLaMA); post: normalise after "
                               "the residual add (the original Transformer)"},
    [AS_MSG_HINT_USE_NORM] = {"layer：LayerNorm，减均值再除以√(σ²+ε)；rms：RMSNorm，只除以√(Σx²/d+ε)",
                              "layer: LayerNorm, the mean taken off and divided by √(σ²+ε); rms: "
                              "RMSNorm, divided by √(Σx²/d+ε) alone"},
    [AS_MSG_HINT_USE_FFN] = {"relu、gelu（erf的精确形式）、gelu_tanh（GPT-2的tanh近似）、swiglu（LLaMA）；"
                             "none：块在H1结束，没有前馈网络",
                             "relu, gelu (the exact erf form), gelu_tanh (GPT-2's tanh form), swiglu "
                             "(LLaMA); none: the block ends at H1, with no FFN"},
    [AS_MSG_EX_POST_DRILL] = {"--step %s练的是Pre-LN块的表，Post-LN块没有单独的这一步",
                              "--step %s drills a table of a Pre-LN block; a Post-LN block has no such "
                              "step of its own"},
    [AS_MSG_HINT_EX_POST_DRILL] = {"Post-LN里归一化紧跟在残差相加之后：H1 = norm1(X + O)。去掉--block post"
                                   "（单步练习默认用--block pre），或者用--block post出一整道题",
                                   "in a Post-LN block the norm follows the residual add at once: H1 = "
                                   "norm1(X + O). Leave out --block post (a drill takes --block pre), or "
                                   "make a whole --block post exercise"},
    [AS_MSG_EX_BLOCK_SAMPLE] = {"--step sample练的是输出头，可块的练习没有输出头",
                                "--step sample drills the output head, and a block exercise has none"},
    [AS_MSG_HINT_EX_BLOCK_SAMPLE] = {"去掉--block，用exercise --step sample出一道带输出头的题",
                                     "leave out --block: exercise --step sample makes an exercise "
                                     "with an output head"},
    [AS_MSG_EX_BLOCK_DV] = {"块的练习里--dv必须等于--width（残差要把O加回X）",
                            "in a block exercise --dv must equal --width (the residual adds O back to X)"},
    [AS_MSG_HINT_EX_BLOCK_DV] = {"去掉--dv：块的练习取d_v = d_model，O和X一样宽，不需要Wo",
                                 "leave out --dv: a block exercise takes d_v = d_model, so O is as wide "
                                 "as X without a Wo"},
    [AS_MSG_EX_LN_WIDTH] = {"宽度%zu的归一化练习出不来好算的数", "a normalisation exercise of width %zu "
                            "has no hand-friendly rows"},
    [AS_MSG_HINT_EX_LN_WIDTH] = {"宽度2时LayerNorm总是±1，宽度3时√σ²永远不是整数或半整数：LayerNorm用--width 4（默认）或更宽；"
                                 "RMSNorm至少要宽度3",
                                 "at width 2 LayerNorm always gives ±1, and at width 3 √σ² is never a "
                                 "whole or half number: take --width 4 (the default) or more for LayerNorm; "
                                 "RMSNorm takes at least 3"},
    [AS_MSG_EX_FFN_NONE] = {"--step ffn练的是前馈网络，可--ffn none的块没有前馈网络",
                            "--step ffn drills the feed-forward network, and a block of --ffn none has none"},
    [AS_MSG_HINT_EX_FFN_NONE] = {"去掉--ffn none，或者选relu、gelu、gelu_tanh、swiglu之一",
                                 "leave out --ffn none, or take relu, gelu, gelu_tanh or swiglu"},
    [AS_MSG_EX_TASK_BLOCK] = {"手算ask:一行列出的表，再用 attnstep run 和 attnstep check 核对。",
                              "Compute the tables the ask: line lists by hand, then check with "
                              "attnstep run and attnstep check."},
    [AS_MSG_EX_BLOCK_EPS] = {"这道题取ε = 0（norm_eps: 0）：X每一行的√σ²正好是整数或半整数，手算不必管ε；torch默认的ε = 0.00001只会在小数点后第6位左右起作用",
                             "This exercise takes ε = 0 (norm_eps: 0): each row of X has a √σ² that is "
                             "a whole or half number, so ε need not be carried by hand; torch's default "
                             "ε = 0.00001 would only show from about the 6th decimal place"},
    [AS_MSG_EX_BLOCK_POST] = {"Post-LN的归一化读的是X + O这样的和，里面有softmax算出的份额，所以它们的根不是整数",
                              "Post-LN's norms read sums such as X + O, made with the softmax's shares, "
                              "so their roots are not whole numbers"},
    [AS_MSG_SHEET_NO_BLOCK] = {"--step %s练的是整个块的一步，可这个输入没有这一步",
                               "--step %s drills a step of the whole block, and this input has none"},
    [AS_MSG_HINT_SHEET_NO_BLOCK] = {"在输入里加上block: pre和它的表（像examples/block-pre-gelu.txt那样；"
                                    "norm、residual只练Pre-LN块，ffn要有前馈网络）；或者用exercise --step出一道题",
                                    "give the input block: pre and its tables, as examples/block-pre-gelu.txt "
                                    "does (norm and residual drill a Pre-LN block, ffn needs an FFN); or "
                                    "make one with exercise --step"},
    [AS_MSG_SHEET_ACT] = {"可能用到的%s值（%s）：", "Values of %s you may need (%s):"},
    [AS_MSG_SHEET_ACT_U] = {"x是U的格子", "x is a cell of U"},
    [AS_MSG_SHEET_ACT_GATE] = {"x是N2·Wgate的格子", "x is a cell of N2 Wgate"},
    [AS_MSG_SHEET_NORM_WALK] = {"%s的最后一行", "The last row of %s"},
};

const char *as_msg_text(as_lang lang, as_msg msg)
{
    const char *s = table[msg][lang == AS_LANG_EN];

    return s != NULL ? s : table[msg][0] != NULL ? table[msg][0] : "";
}

int as_msg_defined(as_lang lang, as_msg msg)
{
    return table[msg][lang == AS_LANG_EN] != NULL;
}

void as_msg_list(char *buf, size_t size, as_lang lang, const char *const *items, size_t n,
                 as_msg last)
{
    size_t i, used = 0;

    buf[0] = '\0';
    for (i = 0; i < n && used < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? as_msg_text(lang, last)
                                                   : as_msg_text(lang, AS_MSG_LIST_SEP);
        const int w = snprintf(buf + used, size - used, "%s%s", sep, items[i]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
}

const char *as_msg_errno(char *buf, size_t size, as_lang lang, int e)
{
    static const struct {
        int e;
        as_msg msg;
    } why[] = {
        {ENOENT, AS_MSG_WHY_NOENT}, {EISDIR, AS_MSG_WHY_ISDIR}, {EACCES, AS_MSG_WHY_ACCES},
        {EPERM, AS_MSG_WHY_ACCES},  {ENOMEM, AS_MSG_OOM},       {EFBIG, AS_MSG_WHY_FBIG},
        {ENODEV, AS_MSG_WHY_NODEV}, {ENOTDIR, AS_MSG_WHY_NOTDIR}, {ENOSPC, AS_MSG_WHY_NOSPC},
        {EROFS, AS_MSG_WHY_ROFS},   {ENAMETOOLONG, AS_MSG_WHY_NAMETOOLONG},
    };
    size_t i;

    for (i = 0; i < sizeof why / sizeof why[0]; i++)
        if (why[i].e == e) {
            snprintf(buf, size, "%s", as_msg_text(lang, why[i].msg));
            return buf;
        }
    snprintf(buf, size, as_msg_text(lang, AS_MSG_WHY_OTHER), strerror(e));
    return buf;
}

void as_msg_singular(char *text)
{
    static const char *const noun[] = {"1 rows", "1 columns", "1 numbers", "1 labels",
                                       "1 heads", "1 positions", "1 cells", "1 tables",
                                       "1 files", "1 tokens", "1 tensors"};
    size_t i;
    char *at;

    for (i = 0; i < sizeof noun / sizeof noun[0]; i++)
        for (at = strstr(text, noun[i]); at != NULL; at = strstr(at + 1, noun[i])) {
            const size_t len = strlen(noun[i]);
            if ((at > text && ((at[-1] >= '0' && at[-1] <= '9') || strchr("-+./^_", at[-1]) ||
                               (at[-1] >= 'A' && at[-1] <= 'Z') || (at[-1] >= 'a' && at[-1] <= 'z'))) ||
                (at[len] >= 'a' && at[len] <= 'z'))
                continue; /* "11 rows", "the W-1 positions" stay, and so does a longer word */
            memmove(at + len - 1, at + len, strlen(at + len) + 1); /* drop the "s" */
        }
}

static const char *const symbols[AS_SYM_COUNT][2] = {
    [AS_SYM_NEG_INF] = {"\xe2\x88\x92\xe2\x88\x9e", "-inf"},
    [AS_SYM_TIMES] = {"×", "x"},
    [AS_SYM_DOT] = {"·", "*"},
    [AS_SYM_SQRT] = {"√", "sqrt"},
    [AS_SYM_T] = {"ᵀ", "^T"},
    [AS_SYM_APPROX] = {"≈", "~="},
    [AS_SYM_ELLIPSIS] = {"…", "..."},
    [AS_SYM_MINUS] = {"−", "-"},
    [AS_SYM_HADAMARD] = {"⊙", "(.)"},
};

const char *as_sym_text(int ascii, as_sym sym)
{
    return symbols[sym][ascii != 0];
}

/* A character and its ASCII spelling. */
typedef struct spelling {
    const char *from, *to;
} spelling;

/* The typographic punctuation and its ASCII spelling, never longer than the original. */
static const spelling punct[] = {
    {"\xe2\x80\x9c", "\""}, {"\xe2\x80\x9d", "\""}, /* “ ” */
    {"\xe2\x80\x98", "'"},  {"\xe2\x80\x99", "'"},  /* ‘ ’ */
    {"\xe2\x80\x94", "--"}, {"\xe2\x80\x93", "-"},  /* — – */
    {"\xe2\x94\x80", "-"},  {"\xe2\x80\xa6", "..."}, /* ─ … */
    {"\xe1\xb5\x80", "^T"}, /* ᵀ where prose names QKᵀ, spelt as AS_SYM_T spells it */
    {"\xe2\x88\x92", "-"},  {"\xe2\x84\x93", "l"}, /* − ℓ in check's teaching sentences */
    {"\xe2\xb1\xbc", "_j"}, /* ⱼ: o = Σ aⱼvⱼ */
    {"\xe2\x89\xa5", ">="}, {"\xe2\x89\xa4", "<="}, /* ≥ ≤: the head's cut and its u */
    {"\xe2\x88\x9e", "inf"}, /* ∞ in the head's words: −∞ is then -inf, as AS_SYM_NEG_INF */
};

/* The mathematical letters of the block's prose (SPEC §15: μ, σ², ε, γ, β, x̂, Σ, √)
 * and their ASCII spellings, which may be longer than the original (at most 3 times). */
static const spelling letters[] = {
    {"\xce\xbc", "mu"},    {"\xcf\x83", "sigma"}, {"\xce\xb5", "eps"},  /* μ σ ε */
    {"\xce\xb3", "gamma"}, {"\xce\xb2", "beta"},  {"\xce\xa3", "sum"},  /* γ β Σ */
    {"\xce\xa6", "Phi"},   {"\xcf\x80", "pi"},                          /* Φ π */
    {"\xc2\xb2", "^2"},    {"\xc2\xb3", "^3"},    {"\xcc\x82", "hat"},  /* ² ³ x̂ */
    {"\xe2\x88\x9a", "sqrt"}, {"\xe2\x8a\x99", "(.)"}, {"\xe2\x89\x88", "~="}, /* √ ⊙ ≈ */
    {"\xc3\x97", "x"},     {"\xc2\xb7", "*"},                           /* × · */
};

/* src[0..len) into dst with each character of tab[0..n) spelt its way; dst may be src
 * when no spelling is longer than its character. Returns the bytes written. */
static size_t respell(char *dst, const char *src, size_t len, const spelling *tab, size_t n)
{
    size_t r = 0, w = 0, k, m = 0;

    while (r < len) {
        for (k = 0; k < n; k++) {
            m = strlen(tab[k].from);
            if (len - r >= m && memcmp(src + r, tab[k].from, m) == 0)
                break;
        }
        if (k == n) {
            dst[w++] = src[r++];
            continue;
        }
        memcpy(dst + w, tab[k].to, strlen(tab[k].to));
        w += strlen(tab[k].to);
        r += m;
    }
    return w;
}

size_t as_ascii_punct(char *s, size_t len)
{
    const size_t w = respell(s, s, len, punct, sizeof punct / sizeof punct[0]);

    if (w < len)
        s[w] = '\0';
    return w;
}

size_t as_ascii_letters(char *dst, const char *src, size_t len)
{
    return respell(dst, src, len, letters, sizeof letters / sizeof letters[0]);
}

void as_subscript(char *buf, size_t size, unsigned long n, int ascii)
{
    static const char *const digit[10] = {"₀", "₁", "₂", "₃", "₄", "₅", "₆", "₇", "₈", "₉"};
    char plain[24];
    size_t i, used = 0;

    if (ascii) {
        snprintf(buf, size, "[%lu]", n);
        return;
    }
    snprintf(plain, sizeof plain, "%lu", n);
    buf[0] = '\0';
    for (i = 0; plain[i] != '\0' && used + 4 < size; i++) {
        memcpy(buf + used, digit[plain[i] - '0'], 3); /* each subscript digit is 3 bytes */
        used += 3;
        buf[used] = '\0';
    }
}

int as_lang_parse(const char *name, as_lang *lang)
{
    if (strncmp(name, "zh", 2) == 0 && (name[2] == '\0' || name[2] == '_' || name[2] == '-')) {
        *lang = AS_LANG_ZH;
        return 0;
    }
    if (strncmp(name, "en", 2) == 0 && (name[2] == '\0' || name[2] == '_' || name[2] == '-')) {
        *lang = AS_LANG_EN;
        return 0;
    }
    return -1;
}
