/* SPDX-License-Identifier: Apache-2.0 */
/* bench/run_policy.h: what a run settles from its command line before it measures: how each point
 * is timed, and where its CSV goes without --out (real, fake and fleet runs name it alike). */
#ifndef OCC_RUN_POLICY_H
#define OCC_RUN_POLICY_H

#include <stddef.h>

#include "options.h"
#include "timing.h"

/* The timing policy of the command line (harness/gpu/timing.h): --min-samples, --max-noise and
 * --max-time as given, samples of >= 1 ms, at most OCC_MAX_SAMPLES, a clock watch of 20 us after
 * each sample, samples below 90% of the median clock dropped. */
OccTimingPolicy occ_run_timing_policy(const OccOptions *opt);

/* "runs/<gpu_slug>/<name>-<UTC timestamp>.csv" into buf (runs/: a folder the repository
 * ignores, never the reference sets of results/): <name> is the kernel of the one
 * selected family (families: bit set over the catalog, harness/core/catalog.h),
 * "<kernel>-<mode>" when that kernel has several modes (chase-warp, chase-latency), "all" when
 * several families run. */
void occ_run_default_path(char *buf, size_t len, const char *gpu_slug, unsigned families);

#endif
