/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/knee_report.h: the knee table of the Little's-law model (harness/model/model.h
 * occ_knee_compute) printed, written as markdown, and summed into the model's agreement over its
 * natural variants. Pure: no CUDA header. */
#ifndef OCC_KNEE_REPORT_H
#define OCC_KNEE_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "chain_model.h"
#include "model.h"

/* How the model agrees with the measurement over the natural variants of a knee table (those
 * with reg_cap_per_thread 0 and no spills, with points > 0). */
typedef struct OccAgreement {
    int points;        /* their rows with a prediction */
    int points_agree;  /* of those, within OCC_MODEL_AGREE_PCT */
    int knees;         /* their variants with both knees */
    int knees_agree;   /* of those, with knee_levels_apart <= 1 */
} OccAgreement;

/* At most this many distinct roofs are named (a run has at most one per traffic). */
#define OCC_KNEE_MAX_ROOFS 16

/* The distinct roofs (OccKnee.roof with a name; equal name and GB/s) of k[0..n), in order of
 * first appearance, into out[0..max); returns how many (at most max). */
int occ_knee_roofs(const OccKnee *k, int n, OccTrafficRoof *out, int max);

/* Sums k[0..n) into *a (all zero for n <= 0). */
void occ_knee_agreement(const OccKnee *k, int n, OccAgreement *a);

/* Prints to f an aligned table, one line per variant (variant, U, V, best GB/s, knee occupancy %
 * measured (occ_summary_print_knee: marked when at the lowest level run) and predicted, bytes in
 * flight per SM at the knee, worst miss % and its occupancy; "-" for NaN), a line saying what the
 * knees are (and the mark, when a knee has it), a line naming each distinct roof of the variants
 * ("model roof: NAME G GB/s; ..."), one line with the agreement (occ_knee_agreement), then one
 * line per variant with a cause. */
void occ_knee_print(FILE *f, const OccKnee *k, int n);

/* Writes the knee report's markdown to f: a title naming gpu_name, which model, its inputs, the
 * table, the sections "Agreement" and "Model misses" (as occ_knee_write_markdown). */
void occ_knee_markdown(FILE *f, const char *gpu_name, const OccModel *m, const OccKnee *k, int n);

/* Writes the knee report as markdown to path (whole or not at all: harness/report/report_file.h):
 * when m is not NULL and n > 0, the Little's-law report of occ_knee_markdown (a title naming
 * gpu_name, which model (occ_model_describe), its inputs (with the trip spread where the curve
 * has one: occ_curve_trip_spread), each distinct roof of the variants and the bytes in flight
 * per SM each needs, a table with one row per variant (its roof in the column `roof GB/s`; a
 * measured knee at the lowest level run written "<=K (lowest level run)"), a section
 * "Agreement" (occ_knee_agreement, and each natural variant whose knees are more than one level
 * apart), a section "Model misses > 20%"
 * listing each cause or saying there is none), else only the title; then the chain section of
 * chains[0..n_chains) (harness/model/chain_model.h; none when n_chains is 0). Returns 0, or -1
 * with a one-line message naming the path in err (err_len bytes, may be 0). */
int occ_knee_write_markdown(const char *path, const char *gpu_name, const OccModel *m,
                            const OccKnee *k, int n, const OccChainKnee *chains, int n_chains,
                            char *err, size_t err_len);

#endif
