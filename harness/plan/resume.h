/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/resume.h: --resume FILE: which planned points an earlier run's CSV already holds
 * (pure). A point is held by a row of the same kernel, mode, variant and, for occupancy points,
 * lever, block size and requested occupancy, or, for footprint points, footprint (buffer_bytes)
 * (a load level's variant names the level: kernel, mode and variant are its keys),
 * whose status is ok or skip; fail rows are measured again. The run-wide axes (options that change
 * what a point measures but are no row column: size, waves, stride, index width, cold...) are
 * `# axis.<name>=<value>` metadata lines; a file whose axes differ from this run's is refused
 * (harness/plan/resume_meta.h). */
#ifndef OCC_RESUME_H
#define OCC_RESUME_H

#include <stddef.h>

#include "csv.h"
#include "options.h"
#include "plan.h"

/* Reads FILE into t: it must be a regular file, parse with this schema's header (occ_csv_read) and
 * hold each point once (two rows with the same kernel, mode, variant, lever, block_threads,
 * occ_target_pct (NaN equal to NaN) and buffer_bytes are refused; the error names the first such
 * pair in row order). Needs no GPU: run before the device is opened. O(rows log rows). 0, or -1
 * with a one-line err (t is then freed). */
int occ_resume_read(const char *path, OccCsvTable *t, char *err, size_t err_len);

/* Whether t holds each point once, by the keys occ_resume_read compares: 0; 1 with "data rows I
 * and J are the same point (VARIANT, LEVER)" in err (the first such pair in row order); -1 with
 * "out of memory for the check of its N rows". O(rows log rows). */
int occ_resume_check_unique(const OccCsvTable *t, char *err, size_t err_len);

/* Checks that t (read from path) was measured on compute capability cc ("9.0", the arch's or the
 * device's) and, when gpu_name is not NULL (a real run, once the device is open), on that GPU:
 * the `# cc=` and `# gpu_name=` metadata; and that every row names that GPU and compute capability
 * and a family (and, for a sweep row, a variant) this build has. 0, or -1 with a one-line err
 * naming both values or the first row that differs (t is left to the caller). */
int occ_resume_check_device(const OccCsvTable *t, const char *path, const char *gpu_name,
                            const char *cc, char *err, size_t err_len);

/* Removes from points[0..n) those an ok or skip row of t holds, keeping the order. Returns the
 * new count. */
int occ_resume_filter_points(const OccCsvTable *t, OccPoint *points, int n);

/* 1 when row i of t belongs in the rewritten file: every row except a fail row of one of
 * points[0..n) (the points still to measure, which replace it). */
int occ_resume_keep_row(const OccCsvTable *t, int i, const OccPoint *points, int n);

/* occ_resume_keep_row for every row at once: keep[i] (t->n_rows entries) for row i, in
 * O((rows + points) log rows) where a loop of occ_resume_keep_row reads every point for each fail
 * row. 0, or -1 when out of memory (keep then unset). */
int occ_resume_keep_rows(const OccCsvTable *t, const OccPoint *points, int n, unsigned char *keep);

/* occ_resume_keep_rows into a mask it allocates (t->n_rows entries; the caller frees it), or
 * NULL when out of memory. What a --resume run (real or fake) writes before its new rows. */
unsigned char *occ_resume_keep_mask(const OccCsvTable *t, const OccPoint *points, int n);

#endif
