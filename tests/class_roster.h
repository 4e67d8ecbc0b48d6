/* class_roster.h - the students of the generated class (tests/class_gen.h): what each
 * did. 54 students: right at 1-4 places and with mixed rounding, every named mistake of
 * SPEC §6 alone, mistakes in pairs, slips early and late, tables left out, row answers
 * (one where two mistakes fit equally), names set with `name:`, one unreadable file;
 * then 8 who kept full calculator precision between steps. */
#ifndef ATTNSTEP_CLASS_ROSTER_H
#define ATTNSTEP_CLASS_ROSTER_H

#include "class_gen.h"

#define ALL "Q K V QKT S A O"
#define P4 {0, 0, 0, 0, 4, 4, 4}
#define NOSLIP -1, 0, 0

static const gstudent groster[] = {
    /* right, rounding to 1-4 places at every step, or mixed */
    {"s01_right4", NULL, ALL, P4, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s02_right1", NULL, ALL, {1, 1, 1, 1, 1, 1, 1}, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s03_right2", NULL, ALL, {2, 2, 2, 2, 2, 2, 2}, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s04_right3", NULL, ALL, {3, 3, 3, 3, 3, 3, 3}, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s05_s1_a4_o2", NULL, ALL, {0, 0, 0, 0, 1, 4, 2}, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s06_s2_a2_o4", NULL, ALL, {0, 0, 0, 0, 2, 2, 4}, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s07_s1_a2_o1", NULL, ALL, {0, 0, 0, 0, 1, 2, 1}, {0}, NOSLIP, NULL, NULL, 0, 0},
    /* every named mistake alone */
    {"s08_no_scale", NULL, ALL, P4, {[GS] = "no_scale"}, NOSLIP, NULL, NULL, 0, 0},
    {"s09_scale_multiplied", NULL, ALL, P4, {[GS] = "scale_multiplied"}, NOSLIP, NULL, NULL, 0, 0},
    {"s10_scale_by_dk", NULL, ALL, P4, {[GS] = "scale_by_dk"}, NOSLIP, NULL, NULL, 0, 0},
    {"s11_no_mask", NULL, ALL, P4, {[GS] = "no_mask"}, NOSLIP, NULL, NULL, 0, 0},
    {"s12_masked_zero", NULL, ALL, P4, {[GS] = "masked_zero"}, NOSLIP, NULL, NULL, 0, 0},
    {"s13_inverted_mask", NULL, ALL, P4, {[GS] = "inverted_mask"}, NOSLIP, NULL, NULL, 0, 0},
    {"s14_mask_after_softmax", NULL, "Q K V QKT A O", {0, 0, 0, 0, 4, 3, 3},
     {[GS] = "no_mask", [GA] = "mask_after_softmax"}, NOSLIP, NULL, NULL, 0, 0},
    {"s15_no_normalize", NULL, ALL, P4, {[GA] = "no_normalize"}, NOSLIP, NULL, NULL, 0, 0},
    {"s16_softmax_columns", NULL, ALL, P4, {[GA] = "softmax_columns"}, NOSLIP, NULL, NULL, 0, 0},
    {"s17_transposed_qkt", NULL, ALL, P4, {[GQKT] = "transposed"}, NOSLIP, NULL, NULL, 0, 0},
    {"s18_transposed_a", NULL, ALL, P4, {[GA] = "transposed"}, NOSLIP, NULL, NULL, 0, 0},
    {"s19_keys_for_values", NULL, ALL, P4, {[GO] = "keys_for_values"}, NOSLIP, NULL, NULL, 0, 0},
    {"s20_k_with_wq", NULL, ALL, P4, {[GK] = "wrong_weights:Wq"}, NOSLIP, NULL, NULL, 0, 0},
    {"s21_v_with_wk", NULL, ALL, P4, {[GV] = "wrong_weights:Wk"}, NOSLIP, NULL, NULL, 0, 0},
    {"s22_q_with_wv", NULL, ALL, P4, {[GQ] = "wrong_weights:Wv"}, NOSLIP, NULL, NULL, 0, 0},
    {"s23_torch_q", NULL, ALL, P4, {[GQ] = "torch_layout"}, NOSLIP, NULL, NULL, 0, 0},
    {"s24_torch_v", NULL, ALL, P4, {[GV] = "torch_layout"}, NOSLIP, NULL, NULL, 0, 0},
    /* in pairs */
    {"s25_no_scale_keys", NULL, ALL, P4, {[GS] = "no_scale", [GO] = "keys_for_values"}, NOSLIP,
     NULL, NULL, 0, 0},
    {"s26_no_mask_no_normalize", NULL, ALL, P4, {[GS] = "no_mask", [GA] = "no_normalize"},
     NOSLIP, NULL, NULL, 0, 0},
    {"s27_k_with_wv_columns", NULL, ALL, P4,
     {[GK] = "wrong_weights:Wv", [GA] = "softmax_columns"}, NOSLIP, NULL, NULL, 0, 0},
    {"s28_torch_v_transposed_a", NULL, ALL, P4, {[GV] = "torch_layout", [GA] = "transposed"},
     NOSLIP, NULL, NULL, 0, 0},
    {"s29_masked_zero_transposed_o", NULL, ALL, P4,
     {[GS] = "masked_zero", [GO] = "transposed"}, NOSLIP, NULL, NULL, 0, 0},
    {"s30_mask_after_softmax_s", NULL, ALL, {0, 0, 0, 0, 4, 3, 3},
     {[GS] = "no_mask", [GA] = "mask_after_softmax"}, NOSLIP, NULL, NULL, 0, 0},
    /* slips, early and late */
    {"s31_slip_q", NULL, ALL, P4, {0}, GQ, 3, 3, NULL, NULL, 0, 0},
    {"s32_slip_k", NULL, ALL, P4, {0}, GK, 0, -2, NULL, NULL, 0, 0},
    {"s33_slip_s", NULL, ALL, P4, {0}, GS, 3, 1.5, NULL, NULL, 0, 0},
    {"s34_slip_a", NULL, ALL, P4, {0}, GA, 7, 0.2, NULL, NULL, 0, 0},
    {"s35_slip_o", NULL, ALL, P4, {0}, GO, 5, 4, NULL, NULL, 0, 0},
    /* tables left out */
    {"s36_no_s", NULL, "Q K V QKT A O", P4, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s37_no_qkt_s", NULL, "Q K V A O", P4, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s38_only_o", NULL, "O", P4, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s39_no_s_no_scale", NULL, "Q K V QKT A O", P4, {[GS] = "no_scale"}, NOSLIP, NULL, NULL, 0, 0},
    /* row answers */
    {"s40_rows_like_the_chapter", NULL, "", P4, {0}, NOSLIP, "q1 k0 k1 v0 v1 s1 a1 o1", NULL, 0, 0},
    {"s41_rows_no_scale", NULL, "", P4, {[GS] = "no_scale"}, NOSLIP, "s2 a2 o2", NULL, 0, 0},
    {"s42_row_two_fit", NULL, "", P4, {[GS] = "no_mask"}, NOSLIP, "s0",
     "s0=no_mask|inverted_mask", 0, 0},
    {"s43_rows_and_tables", NULL, "Q K V", {1, 1, 1, 0, 3, 3, 3}, {0}, NOSLIP, "s2 a2 o2", NULL, 0, 0},
    /* names, and one unreadable file */
    {"s44_zhang", "张三", ALL, {2, 2, 2, 2, 2, 2, 2}, {0}, NOSLIP, NULL, NULL, 0, 0},
    {"s45_li", "李四", ALL, {1, 1, 1, 1, 1, 2, 2}, {[GS] = "scale_by_dk"}, NOSLIP, NULL, NULL, 0, 0},
    {"s46_unreadable", NULL, ALL, P4, {0}, NOSLIP, NULL, NULL, 1, 0},
    /* full calculator precision kept between steps, 4 or 12 places written (issue 28):
     * judged as SPEC §6's interval rule says, exactly as the students above */
    {"s47_full4_right", NULL, ALL, P4, {0}, NOSLIP, NULL, NULL, 0, 1},
    {"s48_full12_right", NULL, ALL, {0, 0, 0, 0, 12, 12, 12}, {0}, NOSLIP, NULL, NULL, 0, 1},
    {"s49_full4_no_scale", NULL, ALL, P4, {[GS] = "no_scale"}, NOSLIP, NULL, NULL, 0, 1},
    {"s50_full12_no_scale", NULL, ALL, {0, 0, 0, 0, 12, 12, 12}, {[GS] = "no_scale"}, NOSLIP,
     NULL, NULL, 0, 1},
    {"s51_full_s2_scale_multiplied", NULL, ALL, {0, 0, 0, 0, 2, 4, 4},
     {[GS] = "scale_multiplied"}, NOSLIP, NULL, NULL, 0, 1},
    {"s52_full4_no_normalize", NULL, ALL, P4, {[GA] = "no_normalize"}, NOSLIP, NULL, NULL, 0, 1},
    {"s53_full4_slip_s", NULL, ALL, P4, {0}, GS, 3, 1.5, NULL, NULL, 0, 1},
    {"s54_full4_rows_no_scale", NULL, "", P4, {[GS] = "no_scale"}, NOSLIP, "s2 a2 o2", NULL, 0, 1},
};

#define GROSTER (sizeof groster / sizeof groster[0])

#endif
