// SPDX-License-Identifier: Apache-2.0
// kernels/claims.cuh: work shared out by claims from a counter, so every warp (and so every block)
// stays resident to the end of a launch and the occupancy set is the occupancy that runs. Used by
// the fma-style families (smem, mma: occ_claimed_trips) and by wgmma (a block-wide loop of its
// own over the same counter); occ_claims_finish resets the counter for the next launch.
#ifndef OCC_CLAIMS_CUH
#define OCC_CLAIMS_CUH

/* The per-warp claim loop (fma.cu's scheme, OccFmaArgs): lane 0 claims the
 * next chunk while the warp runs the current one, so the atomic's latency hides behind a chunk of
 * work. run(n) runs n trips (warp-uniform: every lane gets the same n); returns the trips the warp
 * ran. Then occ_claims_finish: the launch's last warp resets the counters (every warp's last
 * claim has returned before it counts itself done, so no claim of this launch comes after). */
template <typename Run>
__device__ __forceinline__ unsigned int occ_claimed_trips(unsigned long long *claim,
                                                          unsigned int total_trips,
                                                          unsigned int chunk_trips, Run run)
{
    const unsigned int lane = threadIdx.x % 32u;
    unsigned long long ahead = lane == 0 ? atomicAdd(claim, (unsigned long long)chunk_trips) : 0ull;
    unsigned long long first = __shfl_sync(0xffffffffu, ahead, 0);
    unsigned int ran = 0;
    while (first < total_trips) {
        ahead = lane == 0 ? atomicAdd(claim, (unsigned long long)chunk_trips) : 0ull;
        const unsigned int n =
            (unsigned int)min((unsigned long long)chunk_trips, total_trips - first);
        run(n);
        ran += n;
        first = __shfl_sync(0xffffffffu, ahead, 0);
    }
    return ran;
}

/* The end of a launch: lane 0 of every warp counts its warp done once its claims have returned;
 * the launch's last warp resets both counters (no claim of this launch comes after it). */
__device__ __forceinline__ void occ_claims_finish(unsigned long long *claim,
                                                  unsigned int *warps_done)
{
    if (threadIdx.x % 32u != 0) return;
    const unsigned int warps = gridDim.x * blockDim.x / 32u;
    __threadfence();
    if (atomicAdd(warps_done, 1u) == warps - 1u) {
        *claim = 0;
        *warps_done = 0;
        __threadfence();
    }
}

#endif
