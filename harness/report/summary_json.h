/* SPDX-License-Identifier: Apache-2.0 */
/* harness/report/summary_json.h: the machine-readable summary of a run (--json FILE), for
 * dashboards and CI comparisons: one JSON document describing one CSV. Pure: rows, metadata
 * and the knee report's figures in, a file out (written whole or not at all, as
 * harness/report/report_file.h writes the knee report).
 *
 * The document (one object; a number that is NaN or infinite is null; docs/json.md is its user
 * documentation, checked against this list and the program's output by tests/cli/test_json.py):
 *   "schema": OCC_SUMMARY_JSON_SCHEMA
 *   "csv_path": the CSV described, as the command line named it
 *   "metadata": {key: value} of the CSV's `# key=value` lines, every value a string, each key
 *       once with its last value (as occ_csv_meta_get), in order of first appearance
 *   "status_counts": {"rows", "ok", "skip", "fail", "other"}: rows whose status is exactly "ok",
 *       starts with "skip" or "fail", or is anything else
 *   "model": {"description" (occ_model_describe), "dram_latency_ns", "roofs", "sm_count"} of
 *       the Little's-law model the knees were computed with, or null; "roofs": [{"name",
 *       "gbps"}]: each distinct roof the variants are predicted against (OccKnee.roof), in order
 *       of first appearance
 *   "agreement": occ_knee_agreement of the knee table: {"within_pct" (OCC_MODEL_AGREE_PCT),
 *       "points", "points_within", "knees", "knees_within_one_level"}, or null without a table
 *   "variants": one object per distinct (variant, block_threads) among the rows of the CSV that
 *       are no load level, in order of first appearance:
 *       "variant", "block_threads", "kernel", "mode" (of its first row), "unroll" (U; the chains
 *       K of a chain variant), "vec_bytes" (V), "fma_per_element" (A): its first row's, null
 *       where 0; "reg_cap_per_thread" (0: natural); "rows", "rows_ok";
 *       "plateau": its best figure over its ok rows (occ_summary_compute): {"value", "unit"
 *       ("GB/s" when it has a finite gbps_median, else "GFLOP/s"), "occ_achieved_pct" (of the
 *       best row; ties to the lower), "pct_of_roof" (pct_of_memcpy, or pct_of_flop_peak)}, or
 *       null; "plateau_gflops": the same on GFLOP/s, only for a variant with both figures;
 *       "knee": {"model" ("littles_law": its OccKnee; "chain": its OccChainKnee),
 *       "measured_occ_pct", "measured_at_lowest_level" (true when the measured knee is the
 *       lowest level the run measured: the knee may lie lower), "roof" ({"name", "gbps"}: the
 *       roof its prediction stops at; null for a chain knee), "predicted_occ_pct",
 *       "levels_apart" (null when either knee is missing)}, or null; "agreement": {"points",
 *       "points_within", "natural" (counts toward the top-level agreement)} of its OccKnee, or
 *       null
 *   "load_levels": the objects of the load-level rows (occ_loaded_row_is_level: chase/loaded,
 *       the Little's-law model's inputs), as "variants" (their knee and agreement null) */
#ifndef OCC_SUMMARY_JSON_H
#define OCC_SUMMARY_JSON_H

#include <stddef.h>

#include "chain_model.h"
#include "csv.h"
#include "model.h"

/* The "schema" value: the document's format and version (a key removed or changed in meaning
 * makes a new version). */
#define OCC_SUMMARY_JSON_SCHEMA "occsweep-summary/2"

/* What one JSON summary describes. Nothing here is owned. */
typedef struct OccJsonSummary {
    const char *csv_path;         /* the CSV described, written as given */
    const OccCsvTable *table;     /* that CSV read back: its metadata and every row */
    const OccModel *model;        /* the Little's-law model of the knees, or NULL (none) */
    const OccKnee *knees;         /* the knee table (occ_knee_compute), n_knees entries */
    int n_knees;                  /* entries of knees, >= 0 */
    const OccChainKnee *chains;   /* the chain lines (occ_chain_knees), n_chains entries */
    int n_chains;                 /* entries of chains, >= 0 */
} OccJsonSummary;

/* The refusals made before anything is measured or written: path must not be empty or end in
 * '/'; an existing path must be a regular file, replaced only with force; its directory must
 * exist (none is created) and be writable; and it must not be the same file as any of
 * others[0..n_others) (NULL entries skipped): the CSV written or read, the knee report. Two
 * paths are the same when they name one existing file, or when their directories resolve to
 * one and their last parts are equal. 0, or -1 with a one-line message naming path in err. */
int occ_summary_json_check_target(const char *path, int force, const char *const *others,
                                  int n_others, char *err, size_t err_len);

/* Writes the document of s to path (whole or not at all: a temporary file beside it, renamed
 * over it once complete). 0, or -1 with a one-line message naming path in err (out of memory,
 * or the file cannot be created or written). */
int occ_summary_json_write(const char *path, const OccJsonSummary *s, char *err, size_t err_len);

#endif
