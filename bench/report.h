/* bench/report.h: what run_sweep prints and records around the measurement: CSV metadata,
 * progress lines, the default output path and the plot step. No CUDA calls here. */
#ifndef OCC_REPORT_H
#define OCC_REPORT_H

#include <stdio.h>

#include "sweep.h"

enum { OCC_MAX_META = 48 };

/* The `# key=value` lines of a run; values live in `store`. */
typedef struct OccMeta {
    const char *keys[OCC_MAX_META];
    const char *values[OCC_MAX_META];
    int n;
    char store[8192];
    size_t used;
} OccMeta;

/* Adds key=formatted value (silently dropped when full: the table is sized for the run's keys). */
void occ_meta_add(OccMeta *m, const char *key, const char *fmt, ...);

/* The run's metadata: build, command line, GPU, roof and measurement policy. */
void occ_report_metadata(OccMeta *m, int argc, char **argv, const OccSweep *s,
                         const OccOptions *opt);

/* "results/<gpu-slug>/<kernels>-<UTC timestamp>.csv" into buf; <kernels> is the kernel when
 * `families` (OccOptions.families) selects one family, <kernel>-<mode> when that kernel has
 * several modes (chase-warp, chase-latency), else all. */
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
