/* SPDX-License-Identifier: Apache-2.0 */
/* bench/occfleet.c: the fleet summary of CSVs from several GPUs (a --device all run, the CSVs of
 * a Slurm job array): occfleet FILE.csv... prints, per variant of the sweep (the load levels,
 * the model's inputs, only counted), each GPU's plateau and knee and the GPUs more than the
 * runs' noise away from the median of their GPU type (harness/report/fleet.h). A run is labelled
 * by its file's host, gpu_index and pci_bus_id metadata, followed by the file's name when another
 * file has the same label (two runs of one GPU, or of two machines of one host name); runs of one
 * GPU are those with the same gpu_uuid (else the same label). Exit status: 0 printed (with or
 * without outliers), 1 out of host memory, 2 bad usage or a file that does not read as a sweep
 * CSV. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv.h"
#include "exitcodes.h"
#include "fleet.h"
#include "report_file.h"

enum { MAX_FILES = 1024 };

/* The value of metadata key in t, or fallback when it is missing or empty. */
static const char *meta_or(const OccCsvTable *t, const char *key, const char *fallback)
{
    const char *v = occ_csv_meta_get(t, key);
    return v && *v ? v : fallback;
}

/* The label of run i into label: devices[i] (host, index, bus id), followed by " " and the
 * file's name when another run has the same. */
static void label_run(char *label, size_t len, char (*devices)[256], int n, int i,
                      const char *path)
{
    int shared = 0;
    for (int j = 0; j < n && !shared; j++)
        shared = j != i && strcmp(devices[j], devices[i]) == 0;
    const char *slash = strrchr(path, '/');
    if (shared)
        snprintf(label, len, "%.120s %.120s", devices[i], slash ? slash + 1 : path);
    else
        snprintf(label, len, "%s", devices[i]);
}

int main(int argc, char **argv)
{
    char err[512];
    if (argc < 2 || argc - 1 > MAX_FILES || strcmp(argv[1], "--help") == 0) {
        fprintf(stderr, "usage: occfleet FILE.csv... (1 to %d sweep CSVs)\n", MAX_FILES);
        return argc >= 2 && strcmp(argv[1], "--help") == 0 ? OCC_EXIT_OK : OCC_EXIT_USAGE;
    }
    const int n = argc - 1;
    OccCsvTable *t = calloc((size_t)n, sizeof *t);
    OccFleetMember *m = calloc((size_t)n, sizeof *m);
    char (*labels)[256] = calloc((size_t)n, sizeof *labels);
    char (*devices)[256] = calloc((size_t)n, sizeof *devices);
    if (!t || !m || !labels || !devices) {
        fprintf(stderr, "occfleet: out of host memory\n");
        return OCC_EXIT_FAIL;
    }
    for (int i = 1; i < argc; i++) {
        OccCsvTable *ti = &t[i - 1];
        if (occ_csv_read(argv[i], ti, err, sizeof err) != 0) {
            fprintf(stderr, "occfleet: %s\n", err);
            return OCC_EXIT_USAGE;
        }
        snprintf(devices[i - 1], sizeof devices[i - 1], "%s gpu%s %s", meta_or(ti, "host", "?"),
                 meta_or(ti, "gpu_index", "?"), meta_or(ti, "pci_bus_id", argv[i]));
        m[i - 1] = (OccFleetMember){
            .label = labels[i - 1],
            .device = meta_or(ti, "gpu_uuid", devices[i - 1]),
            .gpu_name = meta_or(ti, "gpu_name", ti->n_rows ? ti->rows[0].gpu_name : "?"),
            .rows = ti->rows,
            .n_rows = ti->n_rows};
    }
    for (int i = 0; i < n; i++)
        label_run(labels[i], sizeof labels[i], devices, n, i, argv[i + 1]);
    const int rc = occ_fleet_print(stdout, m, n) < 0 ? OCC_EXIT_FAIL : OCC_EXIT_OK;
    for (int i = 0; i < n; i++)
        occ_csv_table_free(&t[i]);
    free(t);
    free(m);
    free(labels);
    free(devices);
    return occ_report_stdout_status("occfleet", rc);
}
