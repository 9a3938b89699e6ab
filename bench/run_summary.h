/* SPDX-License-Identifier: Apache-2.0 */
/* bench/run_summary.h: the end-of-run summary on stdout: the summary table of the rates, the
 * latency table, the knee table of the Little's-law model (and its markdown report), the
 * residency check, the roof and the file written. No CUDA calls here. */
#ifndef OCC_RUN_SUMMARY_H
#define OCC_RUN_SUMMARY_H

#include "csv.h"
#include "model.h"
#include "run.h"

struct OccSink;

/* A residency figure off by more than this (points of %) from the API's occupancy is counted by
 * the residency check (plots/report.py holds the same tolerance). */
#define OCC_RESIDENCY_TOLERANCE_PTS 5.0

/* Where the JSON summary of --json goes and what it describes (harness/report/summary_json.h). */
typedef struct OccRunJson {
    const char *path;         /* the JSON file to write */
    const char *csv_path;     /* the CSV it describes, as the command line named it */
    const OccCsvTable *table; /* that CSV as read back: its metadata and every row */
} OccRunJson;

/* The knee table of rows[0..n) under m (harness/model/model.h occ_knee_compute; none when m is
 * NULL) on stdout, after a line naming the model, then the chain section of the on-chip families
 * (harness/model/chain_model.h), and, when md_path is not NULL, the markdown knee report of
 * gpu_name there with both ("wrote <md_path>" on stdout). Nothing when no row makes a line of
 * either. When json is not NULL, the JSON summary of json->table with these knees at json->path
 * ("wrote <path>" on stdout), even when no row makes a line. 0; -2 when json is not NULL and
 * the summary was not written, else -1 when memory runs out or the report cannot be written
 * (a one-line message on stderr). */
int occ_run_summary_knees(const OccModel *m, const OccRow *rows, int n, const char *md_path,
                          const char *gpu_name, const OccRunJson *json);

/* The end-of-run summary of the sink's rows (bench/sink.h, closed): the summary table
 * (harness/model/summary.h; the sweep rows, when any has a rate), the latency table (rows with
 * cycles per load, and skipped footprints), the knee table of model (when not NULL) and the
 * chain section with <csv>-knee.md beside path (occ_run_summary_knees), the residency check (rows with a measured residency), the roof
 * and "wrote <path> (<end_status>)" or "FAILED to write ...". The load-level rows (finite
 * latency_mean_ns) are the model's input and are in none of the tables. When json_path is not
 * NULL, the JSON summary of the CSV at path, read back, with the same knees. Returns 0, or -1
 * when the JSON summary was asked for and not written (a one-line message on stderr). */
int occ_run_summary_print(const struct OccSink *sink, const OccRoof *roof, const OccModel *model,
                          const char *path, const char *gpu_name, const char *json_path);

#endif
