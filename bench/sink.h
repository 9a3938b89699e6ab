/* SPDX-License-Identifier: Apache-2.0 */
/* bench/sink.h: where a run's rows go: the CSV file (flushed row by row), a growing in-memory
 * copy for the summary, the Little's-law annotation and the progress lines. */
#ifndef OCC_SINK_H
#define OCC_SINK_H

#include <stddef.h>

#include "csv.h"
#include "model.h"
#include "report.h"
#include "run.h"

/* A sink's state. Rows own their status text; their other strings point into the run, the
 * catalog or the resumed table, which outlive the sink. */
typedef struct OccSink {
    OccCsvWriter *csv;
    const OccModel *model; /* prediction added to every new row (NULL: none) */
    OccLatencyCurve *curves[OCC_CURVE_TRAFFICS]; /* the model's loaded-latency curves by
                                                    traffic, which every ok chase/loaded row
                                                    (new or kept) joins before any later row is
                                                    annotated (NULL: none) */
    OccProgress progress;
    OccRunRow *rows;       /* n_rows rows (heap, grows) */
    int n_rows, cap_rows;
    int n_fail, write_failed, out_of_memory;
    char end[320];         /* the end_status line written at close */
} OccSink;

/* Opens the CSV at path (parent directories created) with the run's metadata. 0, or -1 with a
 * one-line err. */
int occ_sink_open(OccSink *s, const char *path, int force, const OccMeta *meta,
                  const OccModel *model, int quiet, char *err, size_t err_len);
/* From now on, every ok load-level row the sink takes (new or kept) joins curves[its traffic]
 * (occ_loaded_curve_take_row): the curves the model passed to occ_sink_open reads. */
void occ_sink_feed_curves(OccSink *s, OccLatencyCurve curves[OCC_CURVE_TRAFFICS]);
/* Writes a row of an earlier run (--resume) as it was. */
void occ_sink_keep(OccSink *s, const OccRow *row);
/* The OccRowFn of occ_run_points: annotates, keeps and writes a new row, and reports progress. */
void occ_sink_row(void *sink, int i, int n, const OccRunRow *row);
/* Writes "# end_status=..." (complete, interrupted or cuda_error after done of n points, with
 * the NVML reading of the GPU at pci) and renames the file into place. */
void occ_sink_close(OccSink *s, const char *pci, int done, int n, int cuda_error);
/* After occ_sink_close: writes path again (replacing it only once complete) with meta and the
 * kept rows as they are now (e.g. with the ncu columns filled) and the same end_status line.
 * 0, or -1 with a one-line err. */
int occ_sink_rewrite(OccSink *s, const char *path, const OccMeta *meta, char *err, size_t err_len);
/* The process exit status after the run (messages on stderr): 1 when interrupted, a write
 * failed or a point failed verification, else 0. Frees the rows. */
int occ_sink_exit_status(OccSink *s, int done, int n, const char *path);

#endif
