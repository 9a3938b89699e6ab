// SPDX-License-Identifier: Apache-2.0
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

// The walk both streaming families share. The buffer is seen as n_vec vectors; one trip of the
// block covers blockDim.x x U consecutive vectors, warp w taking the 32 x U of them at
// w x 32 x U: its U loads are 32 consecutive vectors each (coalesced across the warp), adjacent
// to one another, and independent (all issued before any is used). `body(first, count)` handles
// vectors first, first + 32, ..., count of them (count == U except in the tail; trip_vec(first,
// u) names them). Measured on an H200 (4 GiB, 50% occupancy, 192 KiB of L1): copy_u4_v16 at
// 0.969x cudaMemcpy with warp-contiguous trips against 0.958x with a warp's loads spread
// blockDim.x vectors apart (copy_u2_v16: 0.988x); reduce within 0.5% either way.
//
// The buffer is cut into chunks of s.chunk_trips trips of the block (blockDim.x x U vectors
// each); block b starts with chunk b.
// Static (s.claim == NULL): that chunk is all block b does; with chunk_trips =
// occ_schedule_static_trips the chunks are the grid's equal contiguous shares, a fixed share per
// block, so blocks that get less memory service finish late and the end of the kernel runs at
// lower occupancy.
// Dynamic: block b then claims the next free chunk from *s.claim until none is left, so every
// block stays resident and busy until the work is gone. Thread 0 claims ahead of what the block
// walks, so the atomic's latency hides behind a chunk's loads, and hands the answer to the other
// warps in one of two ways (the Handoff parameter):
//   kBarrier: a block barrier per chunk. The warps wait there for the block's slowest, with no
//     load in flight: a bubble per chunk that grows with the skew between warps, but the warps
//     of a block stay within one chunk of each other.
//   kRing: no barrier; thread 0 claims one chunk further ahead and publishes the answers in a
//     ring of ChunkRing::kSlots slots in shared memory: a warp waits only when thread 0 is a
//     whole chunk behind it, thread 0 only when a warp is kSlots - 2 chunks behind.
// Measured on an H200 (4 GiB, 224 KiB of L1): reduce_u4_v16 at 15 blocks/SM: 0.965x CUB with
// the barrier, 0.99x with the ring; copy's best point: 0.991x cudaMemcpy with the barrier, 0.976x
// with the ring (warps drifting apart cost the writes more than the bubbles). So reduce walks
// with the ring and copy with the barrier.
// The last block to finish resets the counters (walk_finish), so the next launch starts from
// zero with no memset.
// One loop serves both (a second loop for the static case costs registers in every variant).

// The chunk hand-off of a dynamic walk. Sequence number q is the block's q-th chunk (q = 0 is
// blockIdx.x); slot q % kSlots holds chunk q once published >= q, and reads[q % kSlots] counts
// the warps that have taken it (thread 0 counts itself when it writes). Thread 0 overwrites a
// slot only when every warp has taken what it held.
struct ChunkRing {
    static constexpr unsigned int kSlots = 4;
    unsigned int chunk[kSlots];
    unsigned int reads[kSlots];
    unsigned int published;
};

__device__ __forceinline__ unsigned int ring_load(const unsigned int &x)
{
    return *(const volatile unsigned int *)&x;
}

// Thread 0: publishes chunk `value` as sequence q once the slot's previous chunk (q - kSlots)
// has been taken by all n_warps warps.
__device__ __forceinline__ void ring_publish(ChunkRing &r, unsigned int q, unsigned int value,
                                             unsigned int n_warps)
{
    const unsigned int k = q % ChunkRing::kSlots;
    while (ring_load(r.reads[k]) < n_warps) {
    }
    *(volatile unsigned int *)&r.chunk[k] = value;
    *(volatile unsigned int *)&r.reads[k] = 1u;
    __threadfence_block();
    *(volatile unsigned int *)&r.published = q;
}

// Lane 0 of a warp other than warp 0: takes chunk q once it is published.
__device__ __forceinline__ unsigned int ring_take(ChunkRing &r, unsigned int q)
{
    const unsigned int k = q % ChunkRing::kSlots;
    while (ring_load(r.published) < q) {
    }
    __threadfence_block();
    const unsigned int value = ring_load(r.chunk[k]);
    __threadfence_block();
    atomicAdd(&r.reads[k], 1u);
    return value;
}

enum class Handoff { kBarrier, kRing };

template <int U, Handoff H, typename Body>
__device__ __forceinline__ void stream_walk(size_t n_vec, const OccSchedule &s, Body body)
{
    __shared__ ChunkRing ring;             // kRing
    __shared__ unsigned int next_chunk[2]; // kBarrier: double-buffered, one barrier per chunk
    const unsigned int trip = blockDim.x * U;
    const size_t chunk_vecs = (size_t)trip * s.chunk_trips;
    const unsigned int n_chunks = (unsigned int)((n_vec + chunk_vecs - 1) / chunk_vecs);
    const unsigned int lane = threadIdx.x & 31u, warp_first = (threadIdx.x >> 5) * 32u * U + lane;
    const unsigned int n_warps = blockDim.x / 32u;
    unsigned int ahead = 0; // kRing, thread 0: chunk q + 1, already published
    if (H == Handoff::kRing && s.claim) {
        if (threadIdx.x == 0) {
            for (unsigned int k = 0; k < ChunkRing::kSlots; k++) ring.reads[k] = n_warps;
            ahead = gridDim.x + (unsigned int)atomicAdd(s.claim, 1ull);
            ring.chunk[1] = ahead;
            ring.reads[1] = 1u;
            ring.published = 1u;
        }
        __syncthreads(); // once per launch: the ring is set up
    }
    for (unsigned int c = blockIdx.x, q = 0; c < n_chunks; q++) {
        unsigned int claimed = 0; // thread 0: chunk q + 2 (kRing) or q + 1 (kBarrier)
        if (s.claim && threadIdx.x == 0) claimed = (unsigned int)atomicAdd(s.claim, 1ull);
        size_t first = c * chunk_vecs + warp_first;
        if (c + 1 < n_chunks) {
            // A whole chunk: no bounds checks inside, so the compiler keeps the U loads together.
#pragma unroll 1
            for (unsigned int t = 0; t < s.chunk_trips; t++, first += trip) body(first, U);
        } else {
#pragma unroll 1
            for (; first + (size_t)(U - 1) * 32u < n_vec; first += trip) body(first, U);
            if (first < n_vec) body(first, (int)((n_vec - first + 31u) / 32u));
        }
        if (!s.claim) break; // static: one chunk per block
        if (H == Handoff::kBarrier) {
            // Slot q & 1 is written again two chunks later, after the next barrier, which every
            // thread reaches only after it has read it: one barrier per chunk suffices.
            if (threadIdx.x == 0) next_chunk[q & 1u] = gridDim.x + claimed;
            __syncthreads();
            c = next_chunk[q & 1u];
        } else {
            unsigned int next = 0;
            if (threadIdx.x == 0) {
                next = ahead;
                ahead = gridDim.x + claimed;
                ring_publish(ring, q + 2, ahead, n_warps);
            } else if (lane == 0) {
                next = ring_take(ring, q + 1);
            }
            c = __shfl_sync(0xffffffffu, next, 0);
        }
    }
}

// A trip's U loads must all issue before any is used; ptxas schedules freely within a basic
// block and does not always do that. A warp barrier (__syncwarp) between loads and use ends the
// block only where ptxas cannot prove the warp converged: in reduce_u4_v16's full-chunk loop on
// sm_90 it drops the barrier and issues 3 loads, their adds, then the 4th (on an H200 at 6.25%
// occupancy: 1319 GB/s against 2249 for a build that fenced all 4 in flight). A CTA fence keeps the loads above it
// but not the arithmetic below it (mixed_u2_v16 on sm_100 consumed its first load before issuing
// the second). What holds on every arch is a data dependence, in one of two ways:
//   copy: the first use is a store through a pointer the compiler must assume may alias the
//     loaded data (copy's pointers are not __restrict__), so no store of the trip can move above
//     one of its loads;
//   reduce, mixed: hold_trip below makes every loaded word depend on every load of the trip.
// The build's SASS audit (kernels/audit_sass.py, checked by tests/build/test_sass_audit.py) counts
// the loads in flight on every arch; the full-chunk loops above are not unrolled for the same
// reason (an unrolled body lets ptxas serialise the copies: reduce_u4_v8 on sm_100 had 16 loads per
// trip, 1 in flight).

// Vector u of the trip whose first vector is `first` (see stream_walk).
__device__ __forceinline__ size_t trip_vec(size_t first, int u) { return first + (size_t)u * 32u; }

// One trip's loads: v[u] = vin[trip_vec(first, u)] for the count (<= U) vectors of the trip, in
// order, as coherent loads (ld.global: the pointer is not __restrict__).
template <int U, typename T>
__device__ __forceinline__ void load_trip(const T *vin, size_t first, int count, T (&v)[U])
{
#pragma unroll
    for (int u = 0; u < U; u++)
        if (u < count) v[u] = vin[trip_vec(first, u)];
}

// x | t on a float's bits (t == 0: x unchanged), on each float of a vector.
__device__ __forceinline__ float or_bits(float x, unsigned int t)
{
    return __uint_as_float(__float_as_uint(x) | t);
}
__device__ __forceinline__ float2 or_bits(float2 x, unsigned int t)
{
    return make_float2(or_bits(x.x, t), or_bits(x.y, t));
}
__device__ __forceinline__ float4 or_bits(float4 x, unsigned int t)
{
    return make_float4(or_bits(x.x, t), or_bits(x.y, t), or_bits(x.z, t), or_bits(x.w, t));
}
__device__ __forceinline__ unsigned int first_bits(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned int first_bits(float2 x) { return __float_as_uint(x.x); }
__device__ __forceinline__ unsigned int first_bits(float4 x) { return __float_as_uint(x.x); }

// Makes every float of the trip's count loads depend on all of them, values unchanged: t = the OR
// over the loads of (first word & zero), then each float |= t. `zero` must be 0 at run time and
// unknown to the compiler (callers pass n_floats >> 63: no buffer holds 2^63 floats), so t is 0
// but no add or FMA on a loaded float can be scheduled before the last load has issued (the ORs
// that form t could be; the SASS audit checks that ptxas puts them after the loads). Costs one
// integer op per float and U to form t, off the memory pipe (its cost on a GPU is not measured
// yet).
template <int U, typename T>
__device__ __forceinline__ void hold_trip(T (&v)[U], int count, unsigned int zero)
{
    unsigned int t = 0;
#pragma unroll
    for (int u = 0; u < U; u++)
        if (u < count) t |= first_bits(v[u]) & zero;
#pragma unroll
    for (int u = 0; u < U; u++)
        if (u < count) v[u] = or_bits(v[u], t);
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
