// SPDX-License-Identifier: Apache-2.0
// kernels/claims.cuh: work shared out by claims from a counter, so every warp (and so every block)
// stays resident to the end of a launch and the occupancy set is the occupancy that runs. Used by
// the fma-style families (smem, mma: occ_claimed_trips) and by wgmma (a block-wide loop of its
// own over the same counter) and the chases (one counter per group of warps); occ_claims_finish
// resets the counters for the next launch.
#ifndef OCC_CLAIMS_CUH
#define OCC_CLAIMS_CUH

#include "api.h"

/* Counter g of a launch's claim counters (OCC_CLAIM_STRIDE_BYTES apart, kernels/api.h). */
template <typename Count>
__device__ __forceinline__ Count *occ_claim_counter(Count *base, unsigned int g)
{
    return reinterpret_cast<Count *>(reinterpret_cast<char *>(base) +
                                     (size_t)g * OCC_CLAIM_STRIDE_BYTES);
}

/* The per-warp claim loop (fma.cu's scheme, OccFmaArgs): lane 0 claims the
 * next chunk while the warp runs the current one, so the atomic's latency hides behind a chunk of
 * work. run(n) runs n trips (warp-uniform: every lane gets the same n); returns the trips the warp
 * ran. Count: unsigned long long, or unsigned int where the launch's claims stay below 2^32 and
 * two registers matter (the chases). Then occ_claims_finish: the launch's last warp resets the
 * counters (every warp's last claim has returned before it counts itself done, so no claim of
 * this launch comes after). */
template <typename Count, typename Run>
__device__ __forceinline__ unsigned int occ_claimed_trips(Count *claim, unsigned int total_trips,
                                                          unsigned int chunk_trips, Run run)
{
    const unsigned int lane = threadIdx.x % 32u;
    Count ahead = lane == 0 ? atomicAdd(claim, (Count)chunk_trips) : (Count)0;
    Count first = __shfl_sync(0xffffffffu, ahead, 0);
    unsigned int ran = 0;
    while (first < total_trips) {
        ahead = lane == 0 ? atomicAdd(claim, (Count)chunk_trips) : (Count)0;
        const unsigned int n = (unsigned int)min((Count)chunk_trips, (Count)(total_trips - first));
        run(n);
        ran += n;
        first = __shfl_sync(0xffffffffu, ahead, 0);
    }
    return ran;
}

/* The end of a launch: lane 0 of every warp counts its warp done once its claims have returned;
 * the launch's last warp resets the n_claims counters (occ_claim_counter) and the done count (no
 * claim of this launch comes after it). */
template <typename Count>
__device__ __forceinline__ void occ_claims_finish_n(Count *claim, unsigned int n_claims,
                                                    unsigned int *warps_done)
{
    if (threadIdx.x % 32u != 0) return;
    const unsigned int warps = gridDim.x * blockDim.x / 32u;
    __threadfence();
    if (atomicAdd(warps_done, 1u) == warps - 1u) {
        for (unsigned int g = 0; g < n_claims; g++) *occ_claim_counter(claim, g) = 0;
        *warps_done = 0;
        __threadfence();
    }
}

/* occ_claims_finish_n of one counter. */
__device__ __forceinline__ void occ_claims_finish(unsigned long long *claim,
                                                  unsigned int *warps_done)
{
    occ_claims_finish_n(claim, 1u, warps_done);
}

#endif
