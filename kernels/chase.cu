// kernels/chase.cu: pointer chase. Every load's address is the value of the previous load, so
// one chain has exactly one load in flight: latency is exposed, and parallelism comes only from
// more chains (K per warp or thread: MLP) or more resident warps (TLP).
//
// Bytes moved per hop: warp mode, one 128-byte line per chain per warp (lane i reads word i, all
// words of a line hold the same next index, so each hop is one coalesced request); thread mode,
// one 32-byte sector per chain per thread (32 separate requests per warp). The final index of
// every chain is stored, so no load can be removed. Indices are 32-bit word indices: footprints
// up to 16 GiB.
#include "api.h"
#include "bounds.cuh"
#include "probe.cuh"

__device__ __forceinline__ unsigned int start_word(const OccChaseArgs &a, size_t chain)
{
    return a.order[(chain * a.chain_spacing + a.shift) % a.n_lines] * a.line_words;
}

template <int K>
__device__ __forceinline__ void chase_warp_body(const OccChaseArgs a)
{
    const unsigned int lane = threadIdx.x & 31;
    const size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    probe_start(a.probe);
    unsigned int p[K];
#pragma unroll
    for (int k = 0; k < K; k++) p[k] = start_word(a, warp * K + k);
    for (int h = 0; h < a.hops; h++) {
#pragma unroll
        for (int k = 0; k < K; k++) p[k] = a.lines[p[k] + lane];
    }
    if (lane == 0) {
#pragma unroll
        for (int k = 0; k < K; k++) a.ends[warp * K + k] = p[k];
    }
    probe_end(a.probe);
}

template <int K>
__device__ __forceinline__ void chase_thread_body(const OccChaseArgs a)
{
    const size_t thread = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    probe_start(a.probe);
    unsigned int p[K];
#pragma unroll
    for (int k = 0; k < K; k++) p[k] = start_word(a, thread * K + k);
    for (int h = 0; h < a.hops; h++) {
#pragma unroll
        for (int k = 0; k < K; k++) p[k] = a.lines[p[k]];
    }
#pragma unroll
    for (int k = 0; k < K; k++) a.ends[thread * K + k] = p[k];
    probe_end(a.probe);
}

#define DEFINE_CHASE(mode, k)                                                                      \
    extern "C" __global__ void OCC_LB_0 occsweep_chase_##mode##_k##k(const OccChaseArgs a)         \
    {                                                                                              \
        chase_##mode##_body<k>(a);                                                                 \
    }                                                                                              \
    extern "C" cudaError_t occ_launch_chase_##mode##_k##k(const OccLaunch *l,                      \
                                                         const OccChaseArgs *a)                    \
    {                                                                                              \
        occsweep_chase_##mode##_k##k<<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes,        \
                                       l->stream>>>(*a);                                           \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_chase_##mode##_k##k(void)                                    \
    {                                                                                              \
        return reinterpret_cast<const void *>(occsweep_chase_##mode##_k##k);                       \
    }
OCC_CHASE_VARIANTS(DEFINE_CHASE)

// Index I: 4-byte (unsigned int) or 8-byte (unsigned long long) entries; a line holds
// line_units of them, every one the index of the next line's first entry.
template <typename I>
__global__ void fill_lines_kernel(I *lines, const unsigned int *next, size_t n_lines,
                                  unsigned int line_units)
{
    const size_t units = n_lines * line_units;
    for (size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < units;
         w += (size_t)gridDim.x * blockDim.x)
        lines[w] = (I)next[w / line_units] * line_units;
}

extern "C" cudaError_t occ_chase_fill_lines(unsigned int *lines, const unsigned int *next,
                                            size_t n_lines, unsigned int line_words,
                                            unsigned int index_bytes, cudaStream_t stream)
{
    if (index_bytes == 8)
        fill_lines_kernel<<<4096, 256, 0, stream>>>(reinterpret_cast<unsigned long long *>(lines),
                                                    next, n_lines, line_words / 2);
    else
        fill_lines_kernel<<<4096, 256, 0, stream>>>(lines, next, n_lines, line_words);
    return cudaGetLastError();
}

// One thread chases; the clock reads bracket each segment. Warm-up runs in the same launch on
// the same SM, so L1 is warm too (a separate warm-up launch may land on another SM).
template <typename I>
__global__ void chase_latency_kernel(const I *lines, I start, int warm_hops, int hops,
                                     int segments, long long *cycles, unsigned long long *ns,
                                     unsigned long long *end_index)
{
    if (threadIdx.x != 0) return;
    I p = start;
    for (int h = 0; h < warm_hops; h++) p = lines[p];
    for (int s = 0; s < segments; s++) {
        const unsigned long long t0 = probe_clock_ns();
        const long long c0 = clock64();
        for (int h = 0; h < hops; h++) p = lines[p];
        const long long c1 = clock64();
        const unsigned long long t1 = probe_clock_ns();
        cycles[s] = c1 - c0;
        ns[s] = t1 - t0;
    }
    *end_index = p;
}

extern "C" cudaError_t occ_chase_latency(const unsigned int *lines, unsigned int index_bytes,
                                         unsigned long long start_index, int warm_hops, int hops,
                                         int segments, long long *cycles, unsigned long long *ns,
                                         unsigned long long *end_index, cudaStream_t stream)
{
    if (index_bytes == 8)
        chase_latency_kernel<<<1, 32, 0, stream>>>(
            reinterpret_cast<const unsigned long long *>(lines), start_index, warm_hops, hops,
            segments, cycles, ns, end_index);
    else
        chase_latency_kernel<<<1, 32, 0, stream>>>(lines, (unsigned int)start_index, warm_hops,
                                                   hops, segments, cycles, ns, end_index);
    return cudaGetLastError();
}

extern "C" const void *occ_kernel_chase_latency(unsigned int index_bytes)
{
    return index_bytes == 8 ? reinterpret_cast<const void *>(chase_latency_kernel<unsigned long long>)
                            : reinterpret_cast<const void *>(chase_latency_kernel<unsigned int>);
}
