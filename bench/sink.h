/* SPDX-License-Identifier: Apache-2.0 */
/* bench/sink.h: where a run's rows go: the CSV file (flushed row by row), a growing in-memory
 * copy for the end-of-run summary (bench/run_summary.h), the Little's-law annotation and the
 * progress lines (bench/progress.h). */
#ifndef OCC_SINK_H
#define OCC_SINK_H

#include <stddef.h>

#include "csv.h"
#include "model.h"
#include "progress.h"
#include "run.h"
#include "run_meta.h"

/* A sink's state. Rows own their status text; their other strings point into the run, the
 * catalog or the resumed table, which outlive the sink. */
typedef struct OccSink {
    OccCsvWriter *csv;     /* the open CSV; NULL after occ_sink_close */
    const OccModel *model; /* prediction added to every new row (NULL: none) */
    OccLatencyCurve *curves[OCC_CURVE_TRAFFICS]; /* the model's loaded-latency curves by
                                                    traffic, which every ok chase/loaded row
                                                    (new or kept) joins before any later row is
                                                    annotated (NULL: none) */
    OccProgress progress;  /* the progress lines of the new rows */
    int quiet;             /* 1: no progress lines (started at occ_sink_publish) */
    OccRunRow *rows;       /* n_rows rows (heap, grows), kept and new in the order taken */
    int n_rows, cap_rows;  /* rows held, and room for */
    int n_fail;            /* new rows whose status is fail* (failed verification) */
    int write_failed;      /* a write to the CSV failed */
    int out_of_memory;     /* a row could not be kept in memory (it is still in the CSV) */
    char end[320];         /* the end_status line written at close */
} OccSink;

/* Opens the CSV at path (parent directories created; an existing file refused unless force)
 * with the run's metadata, not yet named path.partial (occ_csv_open_unpublished): the rows a
 * resume keeps go in first (occ_sink_keep), then occ_sink_publish. model annotates every new
 * row (NULL: none) and must outlive the sink. 0, or -1 with a one-line err. */
int occ_sink_open(OccSink *s, const char *path, int force, const OccMeta *meta,
                  const OccModel *model, int quiet, char *err, size_t err_len);
/* Names the file path.partial once the kept rows are in it, and starts the progress lines (none
 * when quiet). 0, or -1 with a one-line err (a kept row failed to write, or a .partial exists):
 * the file is then dropped, path is as it was, and the sink is closed. */
int occ_sink_publish(OccSink *s, const char *path, char *err, size_t err_len);
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
/* The process exit status after the run (one message on stderr): 1 when interrupted, a write
 * failed, a point failed verification or a row could not be kept in memory, else 0. Frees the
 * rows. */
int occ_sink_exit_status(OccSink *s, int done, int n, const char *path);

#endif
