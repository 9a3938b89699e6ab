/* SPDX-License-Identifier: Apache-2.0 */
/* bench/sink.c: the run's rows to CSV, memory and progress (contract in bench/sink.h). */
#include "sink.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loaded_levels.h"
#include "nvml.h"

int occ_sink_open(OccSink *s, const char *path, int force, const OccMeta *meta,
                  const OccModel *model, int quiet, char *err, size_t err_len)
{
    memset(s, 0, sizeof *s);
    s->model = model;
    if (occ_csv_make_parent_dirs(path, err, err_len) != 0) return -1;
    s->csv = occ_csv_open_unpublished(path, force, meta->keys, meta->values, meta->n, err,
                                      err_len);
    if (!s->csv) return -1;
    s->quiet = quiet;
    return 0;
}

int occ_sink_publish(OccSink *s, const char *path, char *err, size_t err_len)
{
    if (s->write_failed) {
        snprintf(err, err_len, "copying the kept rows of %.200s failed; it is unchanged", path);
    } else if (occ_csv_publish(s->csv, err, err_len) == 0) {
        occ_progress_start(&s->progress, s->quiet);
        return 0;
    }
    occ_csv_abandon(s->csv);
    s->csv = NULL;
    free(s->rows);
    s->rows = NULL;
    return -1;
}

/* Appends a copy of row; its status is copied into the kept row. NULL when memory ran out. */
static OccRunRow *append(OccSink *s, const OccRow *row, const char *status)
{
    if (s->n_rows == s->cap_rows) {
        int cap = s->cap_rows ? 2 * s->cap_rows : 256;
        OccRunRow *grown = realloc(s->rows, (size_t)cap * sizeof *grown);
        if (!grown) {
            s->out_of_memory = 1;
            return NULL;
        }
        s->rows = grown;
        s->cap_rows = cap;
        /* Each kept row's status points into its own OccRunRow, which just moved. */
        for (int i = 0; i < s->n_rows; i++) s->rows[i].row.status = s->rows[i].status;
    }
    OccRunRow *kept = &s->rows[s->n_rows++];
    kept->row = *row;
    snprintf(kept->status, sizeof kept->status, "%s", status ? status : "-");
    kept->row.status = kept->status;
    return kept;
}

void occ_sink_feed_curves(OccSink *s, OccLatencyCurve curves[OCC_CURVE_TRAFFICS])
{
    for (int t = 0; t < OCC_CURVE_TRAFFICS; t++) s->curves[t] = &curves[t];
}

void occ_sink_keep(OccSink *s, const OccRow *row)
{
    occ_loaded_curve_take_row(s->curves, row);
    OccRunRow *kept = append(s, row, row->status);
    if (occ_csv_write_row(s->csv, kept ? &kept->row : row) != 0) s->write_failed = 1;
}

void occ_sink_row(void *sink, int i, int n, const OccRunRow *row)
{
    OccSink *s = sink;
    OccRunRow *kept = append(s, &row->row, row->status);
    OccRow r = kept ? kept->row : row->row;
    if (!kept) r.status = row->status;
    occ_loaded_curve_take_row(s->curves, kept ? &kept->row : &r);
    if (s->model) occ_model_annotate(s->model, kept ? &kept->row : &r, 1);
    const OccRow *out = kept ? &kept->row : &r;
    if (strncmp(out->status, "fail", 4) == 0) s->n_fail++;
    if (occ_csv_write_row(s->csv, out) != 0) s->write_failed = 1;
    occ_progress_point(&s->progress, i, n, out);
}

void occ_sink_close(OccSink *s, const char *pci, int done, int n, int cuda_error)
{
    char nvml[160];
    occ_progress_end(&s->progress);
    occ_nvml_reading(pci, nvml, sizeof nvml);
    snprintf(s->end, sizeof s->end, "%s after %d of %d points; at the end: %s",
             done == n ? "complete" : cuda_error ? "cuda_error" : "interrupted", done, n, nvml);
    if (occ_csv_close(s->csv, "end_status", s->end) != 0) s->write_failed = 1;
    s->csv = NULL;
}

int occ_sink_exit_status(OccSink *s, int done, int n, const char *path)
{
    int rc = 0;
    if (done < n) {
        fprintf(stderr, "occsweep: interrupted; %d rows kept in %s; to measure the rest, run "
                        "again with --resume %s\n", done, path, path);
        rc = 1;
    } else if (s->write_failed) {
        fprintf(stderr, "occsweep: writing %s failed\n", path);
        rc = 1;
    } else if (s->n_fail) {
        fprintf(stderr, "occsweep: %d point(s) failed verification\n", s->n_fail);
        rc = 1;
    } else if (s->out_of_memory) {
        fprintf(stderr, "occsweep: out of host memory for the summary (the CSV is complete)\n");
        rc = 1;
    }
    free(s->rows);
    s->rows = NULL;
    return rc;
}

int occ_sink_rewrite(OccSink *s, const char *path, const OccMeta *meta, char *err, size_t err_len)
{
    OccCsvWriter *w = occ_csv_open(path, 1, meta->keys, meta->values, meta->n, err, err_len);
    if (!w) return -1;
    int bad = 0;
    for (int i = 0; i < s->n_rows; i++) bad |= occ_csv_write_row(w, &s->rows[i].row) != 0;
    bad |= occ_csv_close(w, "end_status", s->end) != 0;
    if (bad) snprintf(err, err_len, "rewriting %s failed; the rows are in %s.partial", path, path);
    return bad ? -1 : 0;
}
