/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/summary.h: the figures of the end-of-run summary: best point and knee occupancy
 * per variant (printed by harness/report/summary_print.h; the model's knee report compares its
 * predicted knee with this measured one).
 *
 * Only rows whose status is exactly "ok" count; rows with a NaN gbps_median (e.g. chase latency
 * points) count in n_ok but take no part in the best point or the knee. The arithmetic families'
 * rows (a finite gflops_median) get the same figures on GFLOP/s. */
#ifndef OCC_SUMMARY_H
#define OCC_SUMMARY_H

#include <stdio.h>

#include "csv.h"

/* The knee is the lowest occupancy reaching this fraction of a variant's best gbps_median. */
#define OCC_SUMMARY_KNEE_FRACTION 0.9

/* The per-variant figures of a run. */
typedef struct OccVariantSummary {
    const char *variant;       /* variant name; points into the rows passed in */
    int block_threads;         /* the block size of its rows: a variant's rows of each block size
                                  are summarized apart (each block size has its own levels) */
    double best_gbps;          /* highest gbps_median among the variant's ok rows, GB/s */
    double best_occ_pct;       /* occ_achieved_pct of that row, %; ties go to the lower occupancy */
    double best_pct_of_memcpy; /* pct_of_memcpy of that row, % of the run's memcpy roof */
    double knee_occ_pct;       /* lowest occ_achieved_pct with gbps_median >=
                                  OCC_SUMMARY_KNEE_FRACTION x best_gbps, % */
    int knee_at_lowest;        /* 1 when knee_occ_pct is the lowest occ_achieved_pct among the
                                  rows with a finite gbps_median: the run started at or above
                                  the knee, which may lie lower; else 0 */
    double best_gflops;        /* the same on gflops_median (arithmetic families), GFLOP/s */
    double best_gflops_occ_pct; /* occ_achieved_pct of that row, %; ties to the lower */
    double best_pct_of_flop_peak; /* pct_of_flop_peak of that row, % */
    double knee_gflops_occ_pct; /* lowest occ_achieved_pct reaching OCC_SUMMARY_KNEE_FRACTION x
                                   best_gflops, % */
    int knee_gflops_at_lowest;  /* knee_at_lowest of knee_gflops_occ_pct */
    int n_ok;                  /* ok rows of the variant */
} OccVariantSummary;

/* Fills out[0..) with one entry per distinct (variant, block_threads) among the ok rows, in
 * order of first appearance, and returns the number filled. At most max_out entries are filled; variants beyond
 * that are left out (n_rows entries always suffice). Figures with no finite gbps_median are NaN. */
int occ_summary_compute(const OccRow *rows, int n_rows, OccVariantSummary *out, int max_out);

/* 1 when the entries hold more than one block size (the tables then name each line's). */
int occ_summary_per_block(const OccVariantSummary *v, int n);

/* The mark of a knee at the lowest level a run measured (OccVariantSummary.knee_at_lowest):
 * the knee is at most that level. */
#define OCC_KNEE_LOWEST_MARK "<="

/* Prints to f a knee occupancy cell right-aligned in width (after two spaces, as
 * occ_row_print_num): "-" for NaN, else the knee with 2 decimals, preceded by
 * OCC_KNEE_LOWEST_MARK when at_lowest. */
void occ_summary_print_knee(FILE *f, int width, double knee_pct, int at_lowest);

/* The same as a markdown table cell (" K |", as occ_row_print_md_num with 2 decimals), at the
 * lowest level " <=K (lowest level run) |". */
void occ_summary_print_md_knee(FILE *f, double knee_pct, int at_lowest);

/* The sentence explaining OCC_KNEE_LOWEST_MARK, for the line under a table that uses it. */
#define OCC_KNEE_LOWEST_NOTE \
    OCC_KNEE_LOWEST_MARK ": the knee is the lowest level measured; it may lie lower"

#endif
