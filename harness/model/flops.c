/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/flops.c: launch length and closed-form checks of the arithmetic families. */
#include "flops.h"

#include <math.h>

int occ_fma_trips(const OccArchLimits *a, int elem_bytes, double clock_mhz)
{
    const double lanes = elem_bytes == 4   ? a->fma_fp32_per_sm_clk
                         : elem_bytes == 8 ? a->fma_fp64_per_sm_clk
                                           : 0;
    if (!(lanes > 0) || !(clock_mhz > 0) || a->max_threads_per_sm <= 0)
        return OCC_FMA_TRIPS_UNKNOWN;
    /* Full occupancy at the peak: max threads x SMs x trips x OCC_FMA_PER_TRIP FMAs take
     * OCC_FMA_LAUNCH_MS when lanes x SMs x clock FMAs complete per second (the SMs cancel). */
    const double trips = OCC_FMA_LAUNCH_MS * 1e-3 * lanes * clock_mhz * 1e6 /
                         ((double)a->max_threads_per_sm * OCC_FMA_PER_TRIP);
    const int t = (int)(trips + 0.5);
    return t < 1 ? 1 : t > OCC_FMA_MAX_TRIPS ? OCC_FMA_MAX_TRIPS : t;
}

unsigned int occ_fma_chunk_trips(int trips)
{
    const int chunk = trips / OCC_FMA_CLAIMS_PER_WARP;
    return chunk < 1 ? 1u : (unsigned int)chunk;
}

unsigned long long occ_fma_mismatches(const void *out, int elem_bytes, long long threads,
                                      int unroll, const unsigned int *warp_trips)
{
    unsigned long long bad = 0;
    for (long long i = 0; i < threads; i++) {
        const double steps = (double)warp_trips[i / 32] * (OCC_FMA_PER_TRIP / unroll);
        for (int u = 0; u < unroll; u++) {
            const double want = occ_fma_start((unsigned int)i, u) + steps * OCC_FMA_STEP;
            const size_t at = (size_t)i * (size_t)unroll + (size_t)u;
            const double got = elem_bytes == 4 ? (double)((const float *)out)[at]
                                               : ((const double *)out)[at];
            bad += got != want;
        }
    }
    return bad;
}

unsigned long long occ_fma_trips_run(const unsigned int *warp_trips, long long warps)
{
    unsigned long long sum = 0;
    for (long long w = 0; w < warps; w++) sum += warp_trips[w];
    return sum;
}

double occ_mixed_expected_sum(double host_sum, size_t n_floats, int fma_per_element)
{
    return host_sum + (double)n_floats * fma_per_element;
}

double occ_mixed_chain_error(int fma_per_element)
{
    return fma_per_element > 0 ? (fma_per_element + 1.0) * ldexp(1.0, -23) : 0.0;
}

double occ_mixed_tolerance(double sum_tolerance, size_t n_floats, int fma_per_element,
                           double expected)
{
    if (fma_per_element <= 0 || !(expected > 0)) return sum_tolerance;
    return sum_tolerance + (double)n_floats * occ_mixed_chain_error(fma_per_element) / expected;
}
