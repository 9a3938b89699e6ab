/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/onchip.c: launch sizes and result checks of the smem and mma families (contract
 * in onchip.h). */
#include "onchip.h"

#include <math.h>

unsigned int occ_onchip_trips(double work_per_warp_trip, double rate_per_sm_clk,
                              int max_warps_per_sm, double clock_mhz, unsigned int max_trips)
{
    if (max_trips < 1) max_trips = 1;
    if (!(work_per_warp_trip > 0) || !(rate_per_sm_clk > 0) || max_warps_per_sm <= 0 ||
        !(clock_mhz > 0))
        return OCC_ONCHIP_TRIPS_UNKNOWN < max_trips ? OCC_ONCHIP_TRIPS_UNKNOWN : max_trips;
    const double clocks = OCC_ONCHIP_LAUNCH_MS * 1e3 * clock_mhz;
    const double trips = round(clocks * rate_per_sm_clk / (max_warps_per_sm * work_per_warp_trip));
    return trips < 1 ? 1u : trips > max_trips ? max_trips : (unsigned int)trips;
}

unsigned long long occ_smem_chase_mismatches(const unsigned int *out, const unsigned int *order,
                                             unsigned int rows, unsigned int step,
                                             unsigned int chain_spacing, int K, long long threads,
                                             int block_threads, const unsigned int *warp_trips)
{
    unsigned long long bad = 0;
    for (long long i = 0; i < threads; i++)
        for (int k = 0; k < K; k++)
            bad += out[i * K + k] !=
                   occ_smem_chase_end(order, rows, step, chain_spacing, K,
                                      (unsigned int)(i % block_threads), k, warp_trips[i / 32]);
    return bad;
}

unsigned long long occ_smem_stream_mismatches(const unsigned int *out, unsigned int seed, int rw,
                                              int vec_bytes, long long threads,
                                              const unsigned int *warp_trips)
{
    unsigned long long bad = 0;
    for (long long i = 0; i < threads; i++)
        bad += out[i] != occ_smem_stream_checksum(seed, rw, vec_bytes, (unsigned int)(i % 32),
                                                  warp_trips[i / 32]);
    return bad;
}

unsigned long long occ_mma_mismatches(const void *out, int f64, int U, int K, double a, double b,
                                      long long threads, const unsigned int *warp_trips)
{
    const int E = f64 ? 2 : 4;
    unsigned long long bad = 0;
    for (long long i = 0; i < threads; i++)
        for (int u = 0; u < U; u++) {
            const double want =
                occ_mma_expected((unsigned int)i, u, U, K, a, b, warp_trips[i / 32]);
            for (int e = 0; e < E; e++) {
                const long long at = (i * U + u) * E + e;
                const double got = f64 ? ((const double *)out)[at] : ((const float *)out)[at];
                bad += got != want; /* exact: every partial sum is an integer */
            }
        }
    return bad;
}
