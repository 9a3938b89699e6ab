/* SPDX-License-Identifier: Apache-2.0 */
/* bench/report.h: what run_sweep prints and records around the measurement: CSV metadata,
 * progress lines, the default output path and the plot step. No CUDA calls here. */
#ifndef OCC_REPORT_H
#define OCC_REPORT_H

#include <stdarg.h>
#include <stdio.h>

#include "csv.h"
#include "model.h"

#include "run.h"

enum { OCC_MAX_META = 96 };

/* The `# key=value` lines of a run; keys and values live in `store`. */
typedef struct OccMeta {
    const char *keys[OCC_MAX_META];
    const char *values[OCC_MAX_META];
    int n;
    char store[8192];
    size_t used;
} OccMeta;

/* Adds key=formatted value (silently dropped when full: the table is sized for the run's keys). */
void occ_meta_add(OccMeta *m, const char *key, const char *fmt, ...);

/* The same with a va_list. */
void occ_meta_vadd(OccMeta *m, const char *key, const char *fmt, va_list ap);

/* The run's metadata: build, command line, GPU, roof, measurement policy, the run axes
 * (`axis.<name>`, options.h occ_options_run_axes) and the NVML reading at the start of the GPU
 * at pci_bus_id; carveout_bytes is the plan's carveout (smem_carveout_kib, l1_kib). */
void occ_report_metadata(OccMeta *m, int argc, char **argv, const OccRun *s,
                         const OccOptions *opt, const char *pci_bus_id, int carveout_bytes);

/* The knee table of rows[0..n) under m (model.h: occ_knee_compute) on stdout, after a line
 * naming the model, and, when md_path is not NULL, the markdown knee report there. Nothing when
 * no row makes a knee line. 0, or -1 when memory runs out or the report cannot be written (a
 * one-line message on stderr). */
int occ_report_knees(const OccModel *m, const OccRow *rows, int n, const char *md_path,
                     const char *gpu_name);

/* resumed_from_command and resumed_rows of an earlier run (nothing when resumed is NULL). */
void occ_report_resumed_meta(OccMeta *m, const OccCsvTable *resumed);

/* The timing policy of the command line: samples of >= 1 ms, clock watch of 20 us after each,
 * samples below 90% of the median clock dropped. */
OccTimingPolicy occ_report_policy(const OccOptions *opt);

/* Prints each '\n'-terminated line of notes (occ_plan_block_levels) to f after prefix, when
 * plan has occupancy points (the levels mean nothing to a footprint sweep). */
void occ_report_print_levels(FILE *f, const char *prefix, const char *notes, const OccPlan *plan);

/* Prints the --dry-run plan: a header naming target, the level notes (when the plan has
 * occupancy points), one line per point and the count (with_l2: the device's L2 size was
 * known, so footprints near L2 are planned densely). */
void occ_report_print_plan(const OccPlan *plan, const char *target, const char *notes,
                           int with_l2);

/* A residency figure off by more than this (points of %) from the API's occupancy is counted. */
#define OCC_RESIDENCY_TOLERANCE_PTS 5.0

/* The end-of-run report on stdout: the summary table (rows with GB/s), the latency table (rows
 * with cycles per load), the knee table of the model (and <csv>-knee.md) when model is not NULL,
 * the residency check, the roof and the file written. rows: the sink's. */
struct OccSink;
void occ_report_run(const struct OccSink *sink, const OccRoof *roof, const OccModel *model,
                    const char *path, const char *gpu_name);

/* "results/<gpu-slug>/<name>-<UTC timestamp>.csv" into buf: <name> is the kernel of the one
 * selected family (families: bit set over the catalog), "<kernel>-<mode>" when that kernel has
 * several modes (chase-warp, chase-latency), "all" when several families run. */
void occ_report_default_path(char *buf, size_t len, const char *gpu_slug, unsigned families);

/* Progress state: start time, for the ETA. */
typedef struct OccProgress {
    double start_s; /* monotonic time of the first point */
    int tty;        /* stderr is a terminal: overwrite one line */
    int quiet;      /* print nothing */
} OccProgress;

void occ_progress_start(OccProgress *p, int quiet);
/* One progress line for point i (0-based) of n. */
void occ_progress_point(OccProgress *p, int i, int n, const OccRow *r);
void occ_progress_end(OccProgress *p);

/* The directory of the plot scripts into buf: $OCC_PLOTS_DIR, else the first of
 * <binary's dir>/OCC_PLOTS_REL_INSTALLED (an installed tree: ../share/occsweep/plots) and
 * <binary's dir>/OCC_PLOTS_REL_BUILD (the build tree's way to the source's plots/) that holds an
 * executable `plot`. 0, or -1 when none does. */
int occ_report_plots_dir(char *buf, size_t len);

/* --version: "occsweep <version> (git <rev>)" and "plots: <dir>" (or why there is none).
 * Returns the exit status, 0. */
int occ_report_version(FILE *f);

/* Draws the figures for csv_path with the plot scripts' `plot`; a missing gnuplot is the one line
 * plot prints, not a failure of the sweep. */
void occ_report_plot(const char *csv_path);

/* Writes <csv>-report.md and <csv>-report.html with the plot scripts' report.py (the figures
 * already beside the CSV are embedded); a failure is its one line, not a failure of the sweep. */
void occ_report_page(const char *csv_path);

#endif
