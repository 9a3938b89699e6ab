/* SPDX-License-Identifier: Apache-2.0 */
/* harness/residency.h: achieved occupancy without a profiler, from the residency probe of one
 * instrumented launch (kernels/api.h: per block its SM and its start and end times). Pure. */
#ifndef OCC_RESIDENCY_H
#define OCC_RESIDENCY_H

#include <stdint.h>

/* What the probe says about one launch. */
typedef struct OccResidency {
    double occ_measured_pct; /* mean over all SMs of time-averaged resident warps / max warps, % */
    double spread_pct;       /* max - min of the per-SM figure, points of % */
    double span_ns;          /* the kernel's span: first block start to last block end, ns */
    int sms_used;            /* SMs that ran at least one block */
} OccResidency;

/* probe: 3 words per block (SM id, start ns, end ns), n_blocks blocks of warps_per_block warps.
 * Per SM: sum over its blocks of (end - start) x warps_per_block / span = the time-averaged
 * resident warps. Returns 0, or -1 when the probe is unusable (no blocks, an SM id >= sm_count,
 * an end before its start, a zero span). */
int occ_residency_compute(const uint64_t *probe, int n_blocks, int warps_per_block, int sm_count,
                          int max_warps_per_sm, OccResidency *out);

#endif
