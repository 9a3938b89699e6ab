// SPDX-License-Identifier: Apache-2.0
// kernels/chase.cu: pointer chase. Every load's address comes from the value of the previous
// load, so one chain has exactly one load in flight: latency is exposed, and parallelism comes
// only from more chains (K per warp or thread: MLP) or more resident warps (TLP).
//
// Throughput kernels, bytes moved per hop: warp mode, one 128-byte line per chain per warp (lane
// i reads word i, all words of a line hold the same next index, so each hop is one coalesced
// request); thread mode, one 32-byte sector per chain per thread (32 separate requests per
// warp). Warps claim their hops from counters (OccChaseArgs), so every warp walks to the end of
// the launch. The final index of every chain is stored, so no load can be removed. Their links
// are 32-bit word indices: footprints up to 16 GiB. The latency ladder's kernel follows addresses
// (one load per hop, nothing between) or 4- or 8-byte indices (OccChaseLink).
#include "api.h"
#include "bounds.cuh"
#include "claims.cuh"
#include "probe.cuh"

__device__ __forceinline__ unsigned int start_word(const OccChaseArgs &a, size_t chain)
{
    return a.order[(chain * a.chain_spacing + a.shift) % a.n_lines] * a.line_words;
}

// Warp mode: chain w K + k of warp w, every lane reading word `lane` of each line; thread mode:
// lane l walks chains (32 w + l) K + k. The warp's trips come from its group's counter
// (OccChaseArgs), so every warp walks until the launch's trips are gone.
template <int K, bool kThread>
__device__ __forceinline__ void chase_body(const OccChaseArgs a)
{
    const unsigned int lane = threadIdx.x & 31;
    const size_t warp = ((size_t)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const unsigned int warps = gridDim.x * blockDim.x / 32u;
    const unsigned int group = (unsigned int)(warp % a.claim_groups);
    const unsigned int group_warps =
        warps / a.claim_groups + (group < warps % a.claim_groups ? 1u : 0u);
    probe_start(a.probe);
    const size_t first = kThread ? (warp * 32 + lane) * K : warp * K;
    unsigned int p[K];
#pragma unroll
    for (int k = 0; k < K; k++) p[k] = start_word(a, first + k);
    const unsigned int ran = occ_claimed_trips(
        occ_claim_counter(a.claim, group), group_warps * a.trips_per_warp, a.chunk_trips,
        [&](unsigned int n) {
#pragma unroll 1
            for (unsigned int h = 0; h < n; h++) {
#pragma unroll
                for (int k = 0; k < K; k++) p[k] = kThread ? a.lines[p[k]] : a.lines[p[k] + lane];
            }
        });
    if (kThread || lane == 0) {
#pragma unroll
        for (int k = 0; k < K; k++) a.ends[first + k] = p[k];
    }
    if (lane == 0) a.warp_trips[warp] = ran;
    occ_claims_finish_n(a.claim, a.claim_groups, a.warps_done);
    probe_end(a.probe);
}

template <int K> __device__ __forceinline__ void chase_warp_body(const OccChaseArgs a)
{
    chase_body<K, false>(a);
}

template <int K> __device__ __forceinline__ void chase_thread_body(const OccChaseArgs a)
{
    chase_body<K, true>(a);
}

// Built for at most 32 registers (OCC_LB_32): every variant fits them without spilling
// (kernel_resources.csv: no stack), so all reach 64 warps per SM in 128-thread blocks; left to
// itself ptxas gives thread mode K 8 34, which would stop it at 10 blocks per SM.
#define DEFINE_CHASE(mode, k)                                                                      \
    extern "C" __global__ void OCC_LB_32 occsweep_chase_##mode##_k##k(const OccChaseArgs a)         \
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

// Entry I: 4-byte (unsigned int) or 8-byte (unsigned long long); a line holds line_units of
// them, every one origin + next line x scale: the next line's first entry as an index (origin 0,
// scale line_units) or as an address (origin the buffer, scale the line's bytes).
template <typename I>
__global__ void fill_lines_kernel(I *lines, const unsigned int *next, size_t n_lines,
                                  unsigned int line_units, unsigned long long origin,
                                  unsigned long long scale)
{
    const size_t units = n_lines * line_units;
    for (size_t w = (size_t)blockIdx.x * blockDim.x + threadIdx.x; w < units;
         w += (size_t)gridDim.x * blockDim.x)
        lines[w] = (I)(origin + next[w / line_units] * scale);
}

extern "C" cudaError_t occ_chase_fill_lines(unsigned int *lines, const unsigned int *next,
                                            size_t n_lines, unsigned int line_words,
                                            OccChaseLink link, cudaStream_t stream)
{
    unsigned long long *wide = reinterpret_cast<unsigned long long *>(lines);
    if (link == OCC_CHASE_ADDRESS)
        fill_lines_kernel<<<4096, 256, 0, stream>>>(wide, next, n_lines, line_words / 2,
                                                    (unsigned long long)lines, 4ull * line_words);
    else if (link == OCC_CHASE_INDEX8)
        fill_lines_kernel<<<4096, 256, 0, stream>>>(wide, next, n_lines, line_words / 2, 0,
                                                    line_words / 2);
    else
        fill_lines_kernel<<<4096, 256, 0, stream>>>(lines, next, n_lines, line_words, 0,
                                                    line_words);
    return cudaGetLastError();
}

// One hop of an index chain: the index loaded is turned into the next address (IMAD/LEA per
// hop: integer latency on the dependent path).
template <typename I> struct IndexHop {
    const I *lines;
    __device__ __forceinline__ I operator()(I p) const { return lines[p]; }
};

// One hop of an address chain: the value loaded is the next load's address, nothing between.
// Inline PTX because the compiler sees a pointer loaded from memory as generic and would issue
// a generic LD; this keeps the global LDG of the index chain. volatile: no reordering across
// the clock reads.
struct AddressHop {
    __device__ __forceinline__ unsigned long long operator()(unsigned long long p) const
    {
        unsigned long long next;
        asm volatile("ld.global.u64 %0, [%1];" : "=l"(next) : "l"(p));
        return next;
    }
};

// One thread chases; the clock reads bracket each segment. Warm-up runs in the same launch on
// the same SM, so L1 is warm too (a separate warm-up launch may land on another SM). Bytes per
// hop: one entry (4 or 8); the final link is stored, so no load can be removed.
template <typename Hop, typename T>
__global__ void chase_latency_kernel(Hop hop, T start, int warm_hops, int hops, int segments,
                                     long long *cycles, unsigned long long *ns,
                                     unsigned long long *end)
{
    if (threadIdx.x != 0) return;
    T p = start;
    for (int h = 0; h < warm_hops; h++) p = hop(p);
    for (int s = 0; s < segments; s++) {
        const unsigned long long t0 = probe_clock_ns();
        const long long c0 = clock64();
        for (int h = 0; h < hops; h++) p = hop(p);
        const long long c1 = clock64();
        const unsigned long long t1 = probe_clock_ns();
        cycles[s] = c1 - c0;
        ns[s] = t1 - t0;
    }
    *end = p;
}

typedef IndexHop<unsigned int> Index4Hop;
typedef IndexHop<unsigned long long> Index8Hop;

extern "C" cudaError_t occ_chase_latency(const unsigned int *lines, OccChaseLink link,
                                         unsigned long long start, int warm_hops, int hops,
                                         int segments, long long *cycles, unsigned long long *ns,
                                         unsigned long long *end, cudaStream_t stream)
{
    if (link == OCC_CHASE_ADDRESS)
        chase_latency_kernel<<<1, 32, 0, stream>>>(AddressHop{}, start, warm_hops, hops,
                                                   segments, cycles, ns, end);
    else if (link == OCC_CHASE_INDEX8)
        chase_latency_kernel<<<1, 32, 0, stream>>>(
            Index8Hop{reinterpret_cast<const unsigned long long *>(lines)}, start, warm_hops, hops,
            segments, cycles, ns, end);
    else
        chase_latency_kernel<<<1, 32, 0, stream>>>(Index4Hop{lines}, (unsigned int)start,
                                                   warm_hops, hops, segments, cycles, ns, end);
    return cudaGetLastError();
}

extern "C" const void *occ_kernel_chase_latency(OccChaseLink link)
{
    if (link == OCC_CHASE_ADDRESS)
        return reinterpret_cast<const void *>(
            chase_latency_kernel<AddressHop, unsigned long long>);
    if (link == OCC_CHASE_INDEX8)
        return reinterpret_cast<const void *>(chase_latency_kernel<Index8Hop, unsigned long long>);
    return reinterpret_cast<const void *>(chase_latency_kernel<Index4Hop, unsigned int>);
}
