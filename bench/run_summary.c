/* SPDX-License-Identifier: Apache-2.0 */
/* bench/run_summary.c: the end-of-run summary (contract in bench/run_summary.h). */
#include "run_summary.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain_model.h"
#include "knee_report.h"
#include "sink.h"
#include "summary.h"
#include "summary_print.h"
#include "summary_json.h"

/* The latency table: footprint, cycles and ns per dependent load of every row that has them, and
 * the skip rows of footprint points (no occupancy target), so a skipped footprint shows. */
static void print_latency(const OccRunRow *rows, int n)
{
    int any = 0;
    for (int i = 0; i < n; i++) {
        const OccRow *r = &rows[i].row;
        const int footprint_skip = strncmp(r->status, "skip", 4) == 0 && isnan(r->occ_target_pct);
        if (isnan(r->cycles_per_hop_median) && !footprint_skip) continue;
        if (!any++) printf("%16s %10s %10s %10s\n", "footprint B", "cycles", "ns", "status");
        printf("%16lld %10.1f %10.1f %10s\n", r->buffer_bytes, r->cycles_per_hop_median,
               r->ns_per_hop_median, r->status);
    }
}

/* The JSON summary of json with these knees (harness/report/summary_json.h). 0, or -1 after a
 * one-line message on stderr. */
static int write_json(const OccRunJson *json, const OccModel *m, const OccKnee *knees, int nk,
                      const OccChainKnee *chains, int nc)
{
    char err[1300];
    const OccJsonSummary s = {.csv_path = json->csv_path, .table = json->table,
                              .model = m, .knees = knees, .n_knees = nk,
                              .chains = chains, .n_chains = nc};
    if (occ_summary_json_write(json->path, &s, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: --json %s\n", err);
        return -1;
    }
    printf("wrote %s\n", json->path);
    return 0;
}

int occ_run_summary_knees(const OccModel *m, const OccRow *rows, int n, const char *md_path,
                          const char *gpu_name, const OccRunJson *json)
{
    const size_t cap = (size_t)(n ? n : 1);
    OccKnee *knees = calloc(cap, sizeof *knees);
    OccChainKnee *chains = calloc(cap, sizeof *chains);
    if (knees == NULL || chains == NULL) {
        free(knees);
        free(chains);
        if (json != NULL) fprintf(stderr, "occsweep: --json %s: out of memory\n", json->path);
        return json != NULL ? -2 : -1;
    }
    const int nk = m ? occ_knee_compute(m, rows, n, knees, n) : 0;
    const int nc = occ_chain_knees(rows, n, chains, n);
    if (nk > 0) {
        char which[200];
        occ_model_describe(m, which, sizeof which);
        printf("model: %s, %d SMs; each variant predicted up to its traffic's roof (model roof, "
               "below)\n", which, m->sm_count);
        occ_knee_print(stdout, knees, nk);
    }
    occ_chain_print(stdout, chains, nc);
    int rc = nk < 0 ? -1 : 0;
    if (md_path != NULL && nk >= 0 && nk + nc > 0) {
        char err[1300];
        if (occ_knee_write_markdown(md_path, gpu_name, m, knees, nk, chains, nc, err,
                                    sizeof err) != 0) {
            fprintf(stderr, "occsweep: %s\n", err);
            rc = -1;
        } else {
            printf("wrote %s\n", md_path);
        }
    }
    if (json != NULL && nk < 0) fprintf(stderr, "occsweep: --json %s: out of memory\n", json->path);
    if (json != NULL && (nk < 0 || write_json(json, m, knees, nk, chains, nc) != 0)) rc = -2;
    free(knees);
    free(chains);
    return rc;
}

/* The residency check: how many rows with a measured residency are more than the tolerance
 * away from the API's occupancy. */
static void print_residency(const OccRow *rows, int n)
{
    int off = 0, probed = 0;
    for (int i = 0; i < n; i++) {
        if (isnan(rows[i].occ_measured_pct)) continue;
        probed++;
        off += fabs(rows[i].occ_measured_pct - rows[i].occ_achieved_pct) >
               OCC_RESIDENCY_TOLERANCE_PTS;
    }
    if (probed)
        printf("residency: %d of %d points measured more than %g points away from the API's "
               "occupancy\n", off, probed, OCC_RESIDENCY_TOLERANCE_PTS);
}

/* The CSV at path read back for the JSON summary into *t: 0, or -1 after a one-line message. */
static int read_back(const OccSink *sink, const char *path, const char *json_path, OccCsvTable *t)
{
    char err[1300];
    if (sink->write_failed) {
        fprintf(stderr, "occsweep: --json %s not written: the CSV %s was not\n", json_path, path);
        return -1;
    }
    if (occ_csv_read(path, t, err, sizeof err) != 0) {
        fprintf(stderr, "occsweep: --json %s not written: %s\n", json_path, err);
        return -1;
    }
    return 0;
}

int occ_run_summary_print(const OccSink *sink, const OccRoof *roof, const OccModel *model,
                          const char *path, const char *gpu_name, const char *json_path)
{
    /* The sweep rows: the load levels (finite latency_mean_ns) are the model's input, named by
     * its description, not variants of the summary or the knee report. */
    OccRow *plain = calloc((size_t)(sink->n_rows ? sink->n_rows : 1), sizeof *plain);
    int rates = 0, n = 0;
    for (int i = 0; plain && i < sink->n_rows; i++) {
        if (isfinite(sink->rows[i].row.latency_mean_ns)) continue;
        plain[n] = sink->rows[i].row;
        rates += (isfinite(plain[n].gbps_median) || isfinite(plain[n].gflops_median)) &&
                 isnan(plain[n].cycles_per_hop_median);
        n++;
    }
    if (plain && (rates || n == 0)) occ_summary_print(stdout, plain, n);
    print_latency(sink->rows, sink->n_rows);
    OccCsvTable table = {0};
    const int json_read = json_path && read_back(sink, path, json_path, &table) == 0;
    const OccRunJson json = {.path = json_path, .csv_path = path, .table = &table};
    int json_failed = json_path && !json_read;
    if (plain) {
        char md[1100];
        occ_csv_sibling_path(path, "-knee.md", md, sizeof md);
        const int rc = occ_run_summary_knees(model, plain, n, md, gpu_name,
                                             json_read ? &json : NULL);
        json_failed |= rc == -2;
    } else if (json_read) {
        fprintf(stderr, "occsweep: --json %s not written: out of memory\n", json_path);
        json_failed = 1;
    }
    occ_csv_table_free(&table);
    if (plain) print_residency(plain, n);
    free(plain);
    printf("roof: memcpy %.1f GB/s, cub reduce %.1f GB/s, DRAM peak %.1f GB/s\n",
           roof->memcpy_gbps, roof->cub_reduce_gbps, roof->dram_peak_gbps);
    if (sink->write_failed)
        printf("FAILED to write %s (the rows before the failure are in %s.partial)\n", path,
               path);
    else
        printf("wrote %s (%s)\n", path, sink->end);
    return json_failed ? -1 : 0;
}
