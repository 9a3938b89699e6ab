/* bench/resume.h: --resume FILE: which planned points an earlier run's CSV already holds. */
#ifndef OCC_RESUME_H
#define OCC_RESUME_H

#include <stddef.h>

#include "csv.h"
#include "plan.h"

/* Reads FILE and checks it was measured on gpu_name. 0, or -1 with a one-line err. */
int occ_resume_load(const char *path, const char *gpu_name, OccCsvTable *t, char *err,
                    size_t err_len);

/* Removes from points[0..n) those t already holds (same kernel, mode, variant, lever, block
 * size and requested occupancy), keeping the order. Returns the new count. */
int occ_resume_filter_points(const OccCsvTable *t, const OccVariantInfo *infos, OccPoint *points,
                             int n);

/* The same for ladder footprints (matched on buffer_bytes of latency rows). */
int occ_resume_filter_footprints(const OccCsvTable *t, long long *footprints, int n);

#endif
