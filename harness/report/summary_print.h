/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/summary_print.h: the end-of-run summary table of a run's rows, from the
 * per-variant figures of harness/model/summary.h. */
#ifndef OCC_SUMMARY_PRINT_H
#define OCC_SUMMARY_PRINT_H

#include <stdio.h>

#include "csv.h"

/* Prints to f an aligned table with a header line and one line per variant, or per (variant,
 * block size) when the rows hold several (a block column after the name) (ok rows, best GB/s,
 * occupancy % at the best, % of the run's memcpy roof, knee occupancy % (occ_summary_print_knee);
 * "-" for NaN; variants with GFLOP/s but no GB/s are left to the next table), then a line
 * counting the ok, skip and fail rows (and "other" statuses, if any) and saying what the knee
 * and OCC_KNEE_LOWEST_MARK (when a knee has it) mean, and a line saying what % memcpy is. When
 * some variant has GFLOP/s, an arithmetic table
 * follows (best GFLOP/s, occupancy % at it, % of the arithmetic peak, knee occupancy %) with a
 * line saying what its knee is. */
void occ_summary_print(FILE *f, const OccRow *rows, int n_rows);

#endif
