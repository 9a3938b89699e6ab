// SPDX-License-Identifier: Apache-2.0
// kernels/loaded.cu: the loaded-latency experiment (contract at occ_loaded_latency, api.h). One
// launch of one block per SM: lane 0 of warp 0 is the probe, a dependent chase of addresses over
// its own footprint that times every hop; the block's other warps stream 16-byte loads over the
// background buffer in claimed chunks (and, for copy traffic, store them to a second one) until
// every probe is done.
#include "api.h"
#include "probe.cuh"

// Shared-memory histogram of one probe's hop latencies.
struct LoadedHist {
    unsigned int bin[OCC_LOADED_BINS];
    volatile unsigned long long last; // each hop's link, stored before the hop's clock is read
};

// One hop of the address chain: a global load of the next link (the ladder's AddressHop, so
// that the idle probe and the ladder's DRAM step time the same instruction).
__device__ __forceinline__ unsigned long long hop(unsigned long long p)
{
    unsigned long long next;
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(next) : "l"(p));
    return next;
}

__device__ __forceinline__ void probe_chase(const OccLoadedArgs &a, LoadedHist &h)
{
    OccLoadedProbe *out = &a.probes[blockIdx.x];
    out->begin_ns = probe_clock_ns();
    unsigned long long p = a.probe_start[blockIdx.x];
    for (int i = 0; i < a.warm_hops; i++) p = hop(p);
    unsigned long long sum_cycles = 0;
    const unsigned long long t0 = probe_clock_ns();
    const long long c_start = clock64();
#pragma unroll 1
    for (int i = 0; i < a.hops; i++) {
        const long long c0 = clock64();
        p = hop(p);
        // The store reads p, so the clock below is read once the load has returned: one
        // instruction between them, as the ladder has one (the next hop's load) per hop.
        h.last = p;
        const long long d = clock64() - c0;
        sum_cycles += (unsigned long long)d;
        const long long b = d / OCC_LOADED_BIN_CYCLES;
        h.bin[b < OCC_LOADED_BINS ? b : OCC_LOADED_BINS - 1]++;
    }
    const long long c_end = clock64();
    const unsigned long long t1 = probe_clock_ns();
    out->chase_end_ns = t1;
    out->end = p;
    out->sum_hop_cycles = sum_cycles;
    out->loop_cycles = (unsigned long long)(c_end - c_start);
    out->loop_ns = t1 - t0;
    unsigned int smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    out->smid = smid;
    __threadfence();
    atomicAdd(a.probes_done, 1u);
}

// Marks the end of the walk in next_chunk (no chunk has this number: claims stay far below it).
constexpr unsigned int kStop = 0xffffffffu;

// One of n items (lines or sectors), uniform and fixed for x (the index of (chunk, warp, step) or
// of (chunk, warp, step, lane)): the lowbias32 mix of x.
__device__ __forceinline__ unsigned int random_item(unsigned int x, unsigned int n)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return __umulhi(x, n);
}

// What a trip needs of the walk's shape, computed once per thread: a 64-bit division in the
// trip would sit between the barrier that hands over the chunk and the trip's loads.
struct WalkShape {
    size_t chunk_vecs;     // read, copy: vectors per chunk (a trip of the background)
    unsigned int n_chunks; // read, copy: whole chunks in the buffer; chunk numbers wrap at it
    unsigned int n_lines;  // gather: 128-byte lines in the buffer
    unsigned int n_sectors; // sector: 32-byte sectors in the buffer
};

// The first vector of thread t's first run of 32 in chunk c (read and copy): warp t / 32 takes U
// adjacent runs of 32 vectors, lane t & 31 one vector of each.
template <int U>
__device__ __forceinline__ size_t trip_first(const WalkShape &w, unsigned int c, unsigned int t)
{
    return (size_t)c * w.chunk_vecs + (size_t)(t / 32u) * 32u * U + (t & 31u);
}

// One trip's loads over chunk c (see background; read and copy: c < n_chunks): read and copy, U
// 16-byte vectors of the chunk; gather, U words of random lines (in v[u].x), lane i word i of
// its warp's line; sector, U words of random sectors (in v[u].x), each lane its own sector.
template <int U, int kTraffic>
__device__ __forceinline__ void trip_load(const OccLoadedArgs &a, const WalkShape &w, unsigned int c,
                                          unsigned int t, uint4 (&v)[U])
{
    if (kTraffic == OCC_LOADED_GATHER) {
        const unsigned int first = (c * 32u + t / 32u) * U;
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u].x = __ldcs(a.stream_buf + (size_t)random_item(first + u, w.n_lines) * 32u +
                            (t & 31u));
    } else if (kTraffic == OCC_LOADED_SECTOR) {
        const unsigned int first = ((c * 32u + t / 32u) * U) * 32u + (t & 31u);
#pragma unroll
        for (int u = 0; u < U; u++)
            v[u].x = __ldcs(a.stream_buf + (size_t)random_item(first + 32u * u, w.n_sectors) * 8u);
    } else {
        const uint4 *buf = reinterpret_cast<const uint4 *>(a.stream_buf);
        const size_t first = trip_first<U>(w, c, t);
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = __ldcs(buf + first + 32u * u);
    }
}

// The trip's use of what it loaded: adds the words to *sum (gather and sector: v[u].x only).
template <int U, int kTraffic>
__device__ __forceinline__ void trip_sum(const uint4 (&v)[U], unsigned long long *sum)
{
#pragma unroll
    for (int u = 0; u < U; u++)
        *sum += kTraffic == OCC_LOADED_GATHER || kTraffic == OCC_LOADED_SECTOR
                    ? (unsigned long long)v[u].x
                    : (unsigned long long)v[u].x + v[u].y + v[u].z + v[u].w;
}

// Copy: stores the trip's vectors to the same place in stream_dst.
template <int U>
__device__ __forceinline__ void trip_store(const OccLoadedArgs &a, const WalkShape &w,
                                           unsigned int c, unsigned int t, const uint4 (&v)[U])
{
    uint4 *dst = reinterpret_cast<uint4 *>(a.stream_dst);
    const size_t first = trip_first<U>(w, c, t);
#pragma unroll
    for (int u = 0; u < U; u++) __stcs(dst + first + 32u * u, v[u]);
}

// The walk of the sweep kernel each traffic stands for, one trip per chunk: thread 0 of the
// background claims the block's next chunk while its warps load this one, so the blocks' chunks
// follow each other in claim order and the GPU's loads stay in a compact window that moves
// through the buffer (on the H200, 1 block of 31 warps per SM: 4.19 TB/s of copy traffic against
// 3.96 for a grid-stride walk whose warps drift apart, and 3.95 with 64 trips per chunk; the copy
// sweep reaches 4.26). The barrier over the background warps (named barrier 1; the probe's warp
// is not in it) hands the claim on. Where it sits is what the traffic copies of its family:
//   read (reduce, whose warps hand chunks on through a ring and never wait for each other's
//     loads), gather and sector (the warp and thread chases, whose warps are independent):
//     between the trip's loads
//     and their adds, so a warp waits at it for the other warps to issue and for thread 0's claim
//     to return, not for any load, and for its own loads after it;
//   copy (copy, whose warps meet at a barrier per chunk after storing what they loaded): after
//     the stores, so each trip lasts as long as the block's slowest load.
// Between the claim's return and the barrier thread 0 does one add and one compare: the claim
// counter of read and copy wraps at n_chunks itself (atomicInc). A 32-bit modulo there (about 20
// dependent instructions) lengthened every trip: on the H200, read traffic at 12 warps per SM
// moved 3.32 TB/s with it (probe mean 456 ns), 3.96 with the modulo done by every thread before
// the loads (430 ns), and 4.41 without any (501 ns); the barrier's place moved it by 1.6% (3.37
// after the adds against 3.32).
template <int U, int kTraffic>
__device__ __forceinline__ void background(const OccLoadedArgs &a)
{
    __shared__ unsigned int next_chunk[2];
    const unsigned int bg_threads = blockDim.x - 32, t = threadIdx.x - 32;
    const volatile unsigned int *done = a.probes_done;
    unsigned long long loads = 0, sum = 0;
    WalkShape w;
    w.chunk_vecs = (size_t)bg_threads * U;
    w.n_chunks = (unsigned int)(a.stream_vecs / w.chunk_vecs);
    w.n_lines = (unsigned int)(a.stream_vecs / 8u);   // 8 vectors a line
    w.n_sectors = (unsigned int)(a.stream_vecs / 2u); // 2 vectors a sector
    // Read and copy walk chunk numbers modulo n_chunks: the claims wrap at n_chunks, and the
    // offset of the claimed chunks (gridDim.x, as block b starts with chunk b) is taken modulo
    // n_chunks once, so claim + offset < 2 x n_chunks. Gather and sector hash the claim itself.
    const bool wrap = kTraffic == OCC_LOADED_READ || kTraffic == OCC_LOADED_COPY;
    const unsigned int offset = wrap ? gridDim.x % w.n_chunks : gridDim.x;
    unsigned int c = wrap ? blockIdx.x % w.n_chunks : blockIdx.x;
#pragma unroll 1
    for (long long q = 0; q < OCC_LOADED_MAX_TRIPS; q++) {
        // Both issued before the trip's loads, neither waited for until its end: a claim made
        // after the last trip is never used.
        unsigned int claimed = 0, probes_done = 0;
        if (t == 0) {
            claimed = wrap ? atomicInc(a.stream_claim, w.n_chunks - 1u) : atomicAdd(a.stream_claim, 1u);
            probes_done = *done;
        }
        uint4 v[U];
        trip_load<U, kTraffic>(a, w, c, t, v);
        if (kTraffic == OCC_LOADED_COPY) {
            trip_store<U>(a, w, c, t, v);
            trip_sum<U, kTraffic>(v, &sum);
        }
        if (t == 0) {
            unsigned int next = offset + claimed;
            if (wrap && next >= w.n_chunks) next -= w.n_chunks;
            next_chunk[q & 1] = probes_done >= gridDim.x ? kStop : next;
        }
        // Slot q & 1 is written again two trips later, after the next barrier, which every
        // background thread reaches only after it has read it.
        asm volatile("bar.sync 1, %0;" ::"r"(bg_threads) : "memory");
        if (kTraffic != OCC_LOADED_COPY) trip_sum<U, kTraffic>(v, &sum);
        loads += U;
        c = next_chunk[q & 1];
        if (c == kStop) break;
    }
    if (t == 0) a.probes[blockIdx.x].stream_end_ns = probe_clock_ns();
    // One atomic per warp, not per thread, on each of the two words: a short tail after the walk
    // (every lane leaves it on the same trip, so the whole warp is here).
#pragma unroll
    for (int d = 16; d > 0; d /= 2) {
        loads += __shfl_down_sync(0xffffffffu, loads, d);
        sum += __shfl_down_sync(0xffffffffu, sum, d);
    }
    if ((t & 31u) == 0) {
        atomicAdd(a.stream_loads, loads);
        atomicAdd(a.stream_sum, sum);
    }
}

template <int U, int kTraffic>
__global__ void __launch_bounds__(1024, 1) loaded_latency_kernel(OccLoadedArgs a)
{
    __shared__ LoadedHist h;
    for (int i = threadIdx.x; i < OCC_LOADED_BINS; i += blockDim.x) h.bin[i] = 0;
    __syncthreads();
    if (threadIdx.x == 0) probe_chase(a, h);
    else if (threadIdx.x >= 32) background<U, kTraffic>(a);
    __syncthreads();
    for (int i = threadIdx.x; i < OCC_LOADED_BINS; i += blockDim.x)
        a.hist[(size_t)blockIdx.x * OCC_LOADED_BINS + i] = h.bin[i];
}

// Unrolls 1, 2, 4 of read and copy traffic (16-byte vectors) and of sector traffic (a word of a
// sector), 4, 8, 16 of gather (4-byte words of a line).
template <int kTraffic, int U0, int U1, int U2>
static void launch(const OccLoadedArgs *a, int grid_blocks, int threads, cudaStream_t stream)
{
    if (a->unroll == U0)
        loaded_latency_kernel<U0, kTraffic><<<grid_blocks, threads, 0, stream>>>(*a);
    else if (a->unroll == U1)
        loaded_latency_kernel<U1, kTraffic><<<grid_blocks, threads, 0, stream>>>(*a);
    else
        loaded_latency_kernel<U2, kTraffic><<<grid_blocks, threads, 0, stream>>>(*a);
}

extern "C" cudaError_t occ_loaded_latency(const OccLoadedArgs *a, int grid_blocks,
                                          cudaStream_t stream)
{
    const int threads = 32 * (1 + a->stream_warps);
    if (a->traffic == OCC_LOADED_COPY)
        launch<OCC_LOADED_COPY, 1, 2, 4>(a, grid_blocks, threads, stream);
    else if (a->traffic == OCC_LOADED_GATHER)
        launch<OCC_LOADED_GATHER, 4, 8, 16>(a, grid_blocks, threads, stream);
    else if (a->traffic == OCC_LOADED_SECTOR)
        launch<OCC_LOADED_SECTOR, 1, 2, 4>(a, grid_blocks, threads, stream);
    else
        launch<OCC_LOADED_READ, 1, 2, 4>(a, grid_blocks, threads, stream);
    return cudaGetLastError();
}
