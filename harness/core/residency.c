/* SPDX-License-Identifier: Apache-2.0 */
/* harness/residency.c: time-averaged residency per SM from the probe. */
#include "residency.h"

#include <stdlib.h>

int occ_residency_compute(const uint64_t *probe, int n_blocks, int warps_per_block, int sm_count,
                          int max_warps_per_sm, OccResidency *out)
{
    if (n_blocks <= 0 || sm_count <= 0 || max_warps_per_sm <= 0) return -1;
    uint64_t first = UINT64_MAX, last = 0;
    for (int b = 0; b < n_blocks; b++) {
        const uint64_t *p = &probe[3 * (size_t)b];
        if (p[0] >= (uint64_t)sm_count || p[2] < p[1]) return -1;
        if (p[1] < first) first = p[1];
        if (p[2] > last) last = p[2];
    }
    if (last <= first) return -1;
    double *warp_ns = calloc((size_t)sm_count, sizeof *warp_ns);
    if (!warp_ns) return -1;
    for (int b = 0; b < n_blocks; b++) {
        const uint64_t *p = &probe[3 * (size_t)b];
        warp_ns[p[0]] += (double)(p[2] - p[1]) * warps_per_block;
    }
    const double span = (double)(last - first);
    double sum = 0, lo = 1e300, hi = -1e300;
    int used = 0;
    for (int sm = 0; sm < sm_count; sm++) {
        double pct = 100.0 * warp_ns[sm] / span / max_warps_per_sm;
        sum += pct;
        lo = pct < lo ? pct : lo;
        hi = pct > hi ? pct : hi;
        used += warp_ns[sm] > 0;
    }
    free(warp_ns);
    *out = (OccResidency){sum / sm_count, hi - lo, span, used};
    return 0;
}
