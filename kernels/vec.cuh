// kernels/vec.cuh: vector load types and the element loop shared by the streaming kernels.
#ifndef OCC_VEC_CUH
#define OCC_VEC_CUH

#include <cstddef>

#include "api.h"

// VecOf<V>::T is the type one V-byte load moves; kFloats is its element count.
template <int V> struct VecOf;
template <> struct VecOf<4> { using T = float; static constexpr int kFloats = 1; };
template <> struct VecOf<8> { using T = float2; static constexpr int kFloats = 2; };
template <> struct VecOf<16> { using T = float4; static constexpr int kFloats = 4; };

// The walk both streaming families share. The buffer is seen as n_vec vectors; one trip of a
// thread covers U vectors spaced blockDim.x apart, so each of the U loads is coalesced across the
// warp and all U are independent (they are issued before any is used). `body(first, count)`
// handles vectors first, first + blockDim.x, ..., count of them (count == U except in the tail).
//
// The buffer is cut into chunks of s.chunk_trips trips of the block (blockDim.x x U vectors
// each); block b starts with chunk b.
// Static (s.claim == NULL): that chunk is all block b does; with chunk_trips =
// occ_schedule_static_trips the chunks are the grid's equal contiguous shares, a fixed share per
// block, so blocks that get less memory service finish late and the end of the kernel runs at
// lower occupancy.
// Dynamic: block b then claims the next free chunk from *s.claim until none is left, so every
// block stays resident and busy until the work is gone. Thread 0 issues the claim for the next
// chunk before the current one is walked and reads the answer after it, so the atomic's latency
// hides behind the chunk's loads. The last block to finish resets the counters (walk_finish), so
// the next launch starts from zero with no memset.
// One loop serves both (a second loop for the static case costs registers in every variant).
template <int U, typename Body>
__device__ __forceinline__ void stream_walk(size_t n_vec, const OccSchedule &s, Body body)
{
    __shared__ unsigned int next_chunk[2]; // double-buffered: one barrier per chunk
    const unsigned int trip = blockDim.x * U;
    const size_t chunk_vecs = (size_t)trip * s.chunk_trips;
    const unsigned int n_chunks = (unsigned int)((n_vec + chunk_vecs - 1) / chunk_vecs);
    for (unsigned int c = blockIdx.x, k = 0; c < n_chunks; k ^= 1) {
        unsigned int claimed = 0;
        if (s.claim && threadIdx.x == 0) claimed = (unsigned int)atomicAdd(s.claim, 1ull);
        size_t first = c * chunk_vecs + threadIdx.x;
        if (c + 1 < n_chunks) {
            // A whole chunk: no bounds checks inside, so the compiler keeps the U loads together.
#pragma unroll 1
            for (unsigned int t = 0; t < s.chunk_trips; t++, first += trip) body(first, U);
        } else {
#pragma unroll 1
            for (; first + (size_t)(U - 1) * blockDim.x < n_vec; first += trip) body(first, U);
            if (first < n_vec) body(first, (int)((n_vec - first + blockDim.x - 1) / blockDim.x));
        }
        if (!s.claim) break; // static: one chunk per block
        // Slot k is written again two chunks later, after the next barrier, which every thread
        // reaches only after it has read slot k: one barrier per chunk suffices.
        if (threadIdx.x == 0) next_chunk[k] = gridDim.x + claimed;
        __syncthreads();
        c = next_chunk[k];
    }
}

// Called between a trip's U loads and their first use (add or store). The warp barrier ends the
// basic block, so ptxas cannot schedule a use between the loads; without it ptxas interleaves
// them on some archs (copy_u4_v8 on sm_100: load, store, load, store, load, load, store, store;
// most v8/v16 variants on sm_100 and sm_120). __activemask(): lanes may leave the loop on
// different trips. The build's SASS audit (kernels/audit_sass.py) checks the result on every
// arch; the full-chunk loops above are not unrolled for the same reason (an unrolled body lets
// ptxas serialise the copies: reduce_u4_v8 on sm_100 had 16 loads per trip, 1 in flight).
__device__ __forceinline__ void keep_loads_together() { __syncwarp(__activemask()); }

// One trip's loads: v[u] = vin[first + u x blockDim.x] for the count (<= U) vectors of the
// trip, all issued before keep_loads_together lets any be used.
template <int U, typename T>
__device__ __forceinline__ void load_trip(const T *__restrict__ vin, size_t first, int count,
                                          T (&v)[U])
{
#pragma unroll
    for (int u = 0; u < U; u++)
        if (u < count) v[u] = vin[first + (size_t)u * blockDim.x];
    keep_loads_together();
}

// The end of a dynamic walk: the last block of the launch to get here resets *s.claim and
// *s.done. Every block's last claim has returned before it counts itself done (its value ended
// the walk), so no claim of this launch can come after the reset. Every thread calls it.
__device__ __forceinline__ void walk_finish(const OccSchedule &s)
{
    if (!s.claim || threadIdx.x != 0) return;
    __threadfence();
    if (atomicAdd(s.done, 1u) == gridDim.x - 1) {
        *s.claim = 0;
        *s.done = 0;
    }
}

#endif
