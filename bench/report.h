/* bench/report.h: what run_sweep prints and records around the measurement: CSV metadata,
 * progress lines, the default output path and the plot step. No CUDA calls here. */
#ifndef OCC_REPORT_H
#define OCC_REPORT_H

#include <stdarg.h>
#include <stdio.h>

#include "csv.h"
#include "model.h"

#include "run.h"

enum { OCC_MAX_META = 64 };

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

/* resumed_from_command and resumed_rows of an earlier run (nothing when resumed is NULL). */
void occ_report_resumed_meta(OccMeta *m, const OccCsvTable *resumed);

/* The timing policy of the command line: samples of >= 1 ms, clock watch of 20 us after each,
 * samples below 90% of the median clock dropped. */
OccTimingPolicy occ_report_policy(const OccOptions *opt);

/* Prints the --dry-run plan: a header naming target, the level notes, one line per point and the
 * count (with_l2: the device's L2 size was known, so footprints near L2 are planned densely). */
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

/* Draws the figures for csv_path with plots/plot; a missing gnuplot is the one line plots/plot
 * prints, not a failure of the sweep. */
void occ_report_plot(const char *csv_path);

#endif
