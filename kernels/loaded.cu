// SPDX-License-Identifier: Apache-2.0
// kernels/loaded.cu: the loaded-latency experiment (contract at occ_loaded_latency, api.h). One
// launch of one block per SM: lane 0 of warp 0 is the probe, a dependent chase of addresses over
// its own footprint that times every hop (or warp 0 as a whole chases hops shaped like a stream
// trip); the block's other warps stream 16-byte loads over the
// background buffer (and, for copy traffic, store them to a second one) until every probe is done.
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

// The probe's figures (OccLoadedProbe), then it counts itself done, which ends the background.
__device__ __forceinline__ void probe_report(const OccLoadedArgs &a, unsigned long long end,
                                             unsigned long long sum_cycles, long long loop_cycles,
                                             unsigned long long loop_ns)
{
    OccLoadedProbe *out = &a.probes[blockIdx.x];
    out->end = end;
    out->sum_hop_cycles = sum_cycles;
    out->loop_cycles = (unsigned long long)loop_cycles;
    out->loop_ns = loop_ns;
    unsigned int smid;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
    out->smid = smid;
    __threadfence();
    atomicAdd(a.probes_done, 1u);
}

__device__ __forceinline__ void probe_chase(const OccLoadedArgs &a, LoadedHist &h)
{
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
    probe_report(a, p, sum_cycles, c_end - c_start, t1 - t0);
}

// The first 4-byte word of a vector.
__device__ __forceinline__ unsigned int first_word(unsigned int v) { return v; }
__device__ __forceinline__ unsigned int first_word(uint2 v) { return v.x; }
__device__ __forceinline__ unsigned int first_word(uint4 v) { return v.x; }

template <int V> struct ProbeVec;
template <> struct ProbeVec<4> { using T = unsigned int; };
template <> struct ProbeVec<8> { using T = uint2; };
template <> struct ProbeVec<16> { using T = uint4; };

// One shaped hop of warp 0: U loads of V bytes per lane over the node at word index w, laid out
// as a stream trip (lane l's load u at vector u x 32 + l), all issued before any is used; every
// word holds the next node's index, and the next index is the minimum over the U loads, so the
// hop ends when the last of them has returned.
template <int U, int V>
__device__ __forceinline__ unsigned int shaped_hop(const unsigned int *lines, unsigned int w)
{
    using T = typename ProbeVec<V>::T;
    const T *node = reinterpret_cast<const T *>(lines + w) + (threadIdx.x & 31u);
    T v[U];
#pragma unroll
    for (int u = 0; u < U; u++) v[u] = node[u * 32];
    unsigned int next = first_word(v[0]);
#pragma unroll
    for (int u = 1; u < U; u++) next = min(next, first_word(v[u]));
    return next;
}

template <int U, int V>
__device__ __forceinline__ void shaped_chase(const OccLoadedArgs &a, LoadedHist &h)
{
    const bool timer = threadIdx.x == 0;
    unsigned int w = a.shape_start[blockIdx.x];
#pragma unroll 1
    for (int i = 0; i < a.warm_hops; i++) w = shaped_hop<U, V>(a.shape_lines, w);
    unsigned long long sum_cycles = 0;
    const unsigned long long t0 = probe_clock_ns();
    const long long c_start = clock64();
#pragma unroll 1
    for (int i = 0; i < a.hops; i++) {
        const long long c0 = clock64();
        w = shaped_hop<U, V>(a.shape_lines, w);
        // As in probe_chase: the store waits for the hop's last load.
        if (timer) h.last = w;
        const long long d = clock64() - c0;
        if (timer) {
            sum_cycles += (unsigned long long)d;
            const long long b = d / OCC_LOADED_BIN_CYCLES;
            h.bin[b < OCC_LOADED_BINS ? b : OCC_LOADED_BINS - 1]++;
        }
    }
    const long long c_end = clock64();
    const unsigned long long t1 = probe_clock_ns();
    if (timer) probe_report(a, w, sum_cycles, c_end - c_start, t1 - t0);
}

// The shaped probe of (probe_unroll, probe_vec_bytes): one instantiation per stream shape.
__device__ __forceinline__ void shaped_probe(const OccLoadedArgs &a, LoadedHist &h)
{
    const int u = a.probe_unroll, v = a.probe_vec_bytes;
#define OCC_SHAPE(U_, V_) \
    else if (u == U_ && v == V_) shaped_chase<U_, V_>(a, h);
    if (false) {
    }
    OCC_SHAPE(1, 4) OCC_SHAPE(1, 8) OCC_SHAPE(1, 16) OCC_SHAPE(2, 4) OCC_SHAPE(2, 8)
    OCC_SHAPE(2, 16) OCC_SHAPE(4, 4) OCC_SHAPE(4, 8) OCC_SHAPE(4, 16) OCC_SHAPE(8, 4)
    OCC_SHAPE(8, 8) OCC_SHAPE(8, 16)
#undef OCC_SHAPE
}

template <int U, bool kCopy>
__device__ __forceinline__ void background(const OccLoadedArgs &a)
{
    const size_t threads = (size_t)gridDim.x * (blockDim.x - 32);
    const size_t tid = (size_t)blockIdx.x * (blockDim.x - 32) + (threadIdx.x - 32);
    const uint4 *buf = reinterpret_cast<const uint4 *>(a.stream_buf);
    const volatile unsigned int *done = a.probes_done;
    size_t i = tid;
    unsigned long long loads = 0, sum = 0;
    // One trip at a time: unrolled trips would put more than U loads in flight.
#pragma unroll 1
    for (long long trip = 0; trip < OCC_LOADED_MAX_TRIPS; trip++) {
        if ((trip & 7) == 0 && *done >= gridDim.x) break;
        if (i + (U - 1) * threads >= a.stream_vecs) i = tid;
        uint4 v[U];
#pragma unroll
        for (int u = 0; u < U; u++) v[u] = __ldcs(buf + i + u * threads);
#pragma unroll
        for (int u = 0; u < U; u++) sum += (unsigned long long)v[u].x + v[u].y + v[u].z + v[u].w;
        if (kCopy) {
            uint4 *dst = reinterpret_cast<uint4 *>(a.stream_dst);
#pragma unroll
            for (int u = 0; u < U; u++) __stcs(dst + i + u * threads, v[u]);
        }
        loads += U;
        i += U * threads;
    }
    atomicAdd(a.stream_loads, loads);
    atomicAdd(a.stream_sum, sum);
}

template <int U, bool kCopy>
__global__ void __launch_bounds__(1024, 1) loaded_latency_kernel(OccLoadedArgs a)
{
    __shared__ LoadedHist h;
    for (int i = threadIdx.x; i < OCC_LOADED_BINS; i += blockDim.x) h.bin[i] = 0;
    __syncthreads();
    if (a.probe_unroll > 0 && threadIdx.x < 32) shaped_probe(a, h);
    else if (threadIdx.x == 0) probe_chase(a, h);
    else if (threadIdx.x >= 32) background<U, kCopy>(a);
    __syncthreads();
    for (int i = threadIdx.x; i < OCC_LOADED_BINS; i += blockDim.x)
        a.hist[(size_t)blockIdx.x * OCC_LOADED_BINS + i] = h.bin[i];
}

template <bool kCopy>
static void launch(const OccLoadedArgs *a, int grid_blocks, int threads, cudaStream_t stream)
{
    if (a->unroll == 1)
        loaded_latency_kernel<1, kCopy><<<grid_blocks, threads, 0, stream>>>(*a);
    else if (a->unroll == 2)
        loaded_latency_kernel<2, kCopy><<<grid_blocks, threads, 0, stream>>>(*a);
    else
        loaded_latency_kernel<4, kCopy><<<grid_blocks, threads, 0, stream>>>(*a);
}

extern "C" cudaError_t occ_loaded_latency(const OccLoadedArgs *a, int grid_blocks,
                                          cudaStream_t stream)
{
    const int threads = 32 * (1 + a->stream_warps);
    if (a->traffic == OCC_LOADED_COPY)
        launch<true>(a, grid_blocks, threads, stream);
    else
        launch<false>(a, grid_blocks, threads, stream);
    return cudaGetLastError();
}
