// SPDX-License-Identifier: Apache-2.0
// kernels/block_sum.cuh: the body of the summing kernels (reduce, mixed): the stream walk with U
// independent accumulators, a map applied to every loaded float, warp and block sums and the last
// block's total.
#ifndef OCC_BLOCK_SUM_CUH
#define OCC_BLOCK_SUM_CUH

#include "api.h"
#include "clock_span.cuh"
#include "probe.cuh"
#include "variants.h"
#include "vec.cuh"

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
// (threadfence + counter) adds every block's partial in block order into *a.sum and resets the
// counter, so one launch yields the total with no memset or second kernel. Every thread calls it;
// it also ends the walk (walk_finish) and the residency probe.
__device__ __forceinline__ void block_sums_finish(float x, const OccStreamArgs &a)
{
    __shared__ bool is_last;
    x = block_sum(x);
    if (threadIdx.x == 0) {
        a.block_sums[blockIdx.x] = x;
        __threadfence();
        is_last = atomicAdd(a.blocks_done, 1u) == gridDim.x - 1;
    }
    walk_finish(a.sched);
    __syncthreads();
    probe_end(a.probe);
    if (!is_last) return;
    // The last block: partials of every block are visible (each fenced before its increment).
    float t = 0.0f;
    for (unsigned int b = threadIdx.x; b < gridDim.x; b += blockDim.x)
        t += *((volatile float *)a.block_sums + b);
    t = block_sum(t);
    if (threadIdx.x == 0) {
        *a.sum = t;
        *a.blocks_done = 0;
    }
}

// The sum of one vector's floats, each through map first, added pairwise.
template <typename Map> __device__ __forceinline__ float map_sum(float a, Map map) { return map(a); }
template <typename Map> __device__ __forceinline__ float map_sum(float2 a, Map map)
{
    return map(a.x) + map(a.y);
}
template <typename Map> __device__ __forceinline__ float map_sum(float4 a, Map map)
{
    return (map(a.x) + map(a.y)) + (map(a.z) + map(a.w));
}

// *a.sum = sum of map(in[i]) over i < n_floats: U independent accumulators, U independent V-byte
// loads per trip issued before any is used (load_trip, hold_trip), so U x V bytes per thread are in flight
// and the adds form U separate dependency chains. The tail floats go through map too.
template <int U, int V, typename Map>
__device__ __forceinline__ void sum_body(const OccStreamArgs a, Map map)
{
    using T = typename VecOf<V>::T;
    constexpr int kF = VecOf<V>::kFloats;
    const size_t n_vec = a.n_floats / kF;
    const T *vin = reinterpret_cast<const T *>(a.in);
    const unsigned int zero = (unsigned int)(a.n_floats >> 63); // 0; see hold_trip
    probe_start(a.probe);
    occ_clock_span_start(a.clock_words);
    float acc[U];
#pragma unroll
    for (int u = 0; u < U; u++) acc[u] = 0.0f;
    stream_walk<U, Handoff::kRing>(n_vec, a.sched, [&](size_t first, int count) {
        T v[U];
        load_trip(vin, first, count, v);
        hold_trip(v, count, zero);
#pragma unroll
        for (int u = 0; u < U; u++)
            if (u < count) acc[u] += map_sum(v[u], map);
    });
    const size_t tail = n_vec * kF + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (tail < a.n_floats) acc[0] += map(a.in[tail]);
    float x = 0.0f;
#pragma unroll
    for (int u = 0; u < U; u++) x += acc[u];
    occ_clock_span_stop(a.clock_words);
    block_sums_finish(x, a);
}

#endif
