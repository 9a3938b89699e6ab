// kernels/block_sum.cuh: the warp and block float sums of the summing kernels (reduce, mixed).
#ifndef OCC_BLOCK_SUM_CUH
#define OCC_BLOCK_SUM_CUH

#include "variants.h"

constexpr int kMaxWarps = OCC_LB_MAX_THREADS / 32;

__device__ __forceinline__ float warp_sum(float x)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) x += __shfl_xor_sync(0xffffffffu, x, off);
    return x;
}

// Sum over the block; the result is valid in thread 0.
__device__ __forceinline__ float block_sum(float x)
{
    __shared__ float warp_sums[kMaxWarps];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    x = warp_sum(x);
    if (lane == 0) warp_sums[warp] = x;
    __syncthreads();
    if (warp == 0) {
        x = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
        x = warp_sum(x);
    }
    return x;
}

// The end of a summing launch: thread 0 writes the block's partial x; the last block to finish
// (threadfence + counter) adds every block's partial in block order into *sum and resets the
// counter, so one launch yields the total with no memset or second kernel. Every thread calls it;
// `before_last` runs in every thread between the partial and the last block's sum (the walk's
// finish and the residency probe's end).
template <typename Before>
__device__ __forceinline__ void block_sums_finish(float x, float *block_sums,
                                                  unsigned int *blocks_done, float *sum,
                                                  Before before_last)
{
    __shared__ bool is_last;
    x = block_sum(x);
    if (threadIdx.x == 0) {
        block_sums[blockIdx.x] = x;
        __threadfence();
        is_last = atomicAdd(blocks_done, 1u) == gridDim.x - 1;
    }
    before_last();
    __syncthreads();
    if (!is_last) return;
    // The last block: partials of every block are visible (each fenced before its increment).
    float t = 0.0f;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        t += *((volatile float *)block_sums + b);
    t = block_sum(t);
    if (threadIdx.x == 0) {
        *sum = t;
        *blocks_done = 0;
    }
}

#endif
