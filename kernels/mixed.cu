// kernels/mixed.cu: the mixed (memory + arithmetic) family, *sum = sum of f_A(in[i]), where f_A
// is A steps of x = x * fma_mul + fma_add (fmaf).
//
// Bytes moved per element: 4 read (bytes per launch = 1 x buffer); FLOP per element: 2A. The walk
// is reduce's (stream_walk, load_trip: U = OCC_MIXED_U loads of V = OCC_MIXED_V bytes issued
// before any is used), then every loaded float goes through its own chain of A dependent FMAs, so
// a trip holds U x V/4 independent chains, and only then is accumulated; the next trip's loads
// issue after them (in-order issue): the warp alternates memory and arithmetic, and other warps
// must hide each. fma_mul and fma_add are arguments, so no step can be folded at compile time;
// the total is stored (block partials, last block adds them), so nothing is removed. Any
// n_floats (the tail floats take the same chain); 16-byte aligned input.
#include "api.h"
#include "block_sum.cuh"
#include "bounds.cuh"
#include "probe.cuh"
#include "vec.cuh"

template <int A>
__device__ __forceinline__ float chain(float x, float mul, float add)
{
#pragma unroll
    for (int k = 0; k < A; k++) x = fmaf(x, mul, add);
    return x;
}

template <int A> __device__ __forceinline__ float chain_sum(float4 v, float m, float c)
{
    return (chain<A>(v.x, m, c) + chain<A>(v.y, m, c)) + (chain<A>(v.z, m, c) + chain<A>(v.w, m, c));
}

template <int U, int V, int A>
__device__ __forceinline__ void mixed_body(const OccStreamArgs a)
{
    static_assert(V == 16, "mixed loads float4 vectors");
    constexpr int kF = VecOf<V>::kFloats;
    const size_t n_vec = a.n_floats / kF;
    const float4 *vin = reinterpret_cast<const float4 *>(a.in);
    const float m = a.fma_mul, c = a.fma_add;
    probe_start(a.probe);
    float acc[U];
#pragma unroll
    for (int u = 0; u < U; u++) acc[u] = 0.0f;
    stream_walk<U>(n_vec, a.sched, [&](size_t first, int count) {
        float4 v[U];
        load_trip<U>(vin, first, count, v);
#pragma unroll
        for (int u = 0; u < U; u++)
            if (u < count) acc[u] += chain_sum<A>(v[u], m, c);
    });
    const size_t tail = n_vec * kF + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (tail < a.n_floats) acc[0] += chain<A>(a.in[tail], m, c);
    float x = 0.0f;
#pragma unroll
    for (int u = 0; u < U; u++) x += acc[u];
    block_sums_finish(x, a.block_sums, a.blocks_done, a.sum, [&] {
        walk_finish(a.sched);
        probe_end(a.probe);
    });
}

// The kernel symbol carries the variant name (occsweep_mixed_u<U>_v<V>_a<A>) for the SASS audit.
#define MIXED_SYM_(u, v, a) occsweep_mixed_u##u##_v##v##_a##a
#define MIXED_SYM(u, v, a) MIXED_SYM_(u, v, a)
#define DEFINE_MIXED(a)                                                                            \
    extern "C" __global__ void OCC_LB_0 MIXED_SYM(OCC_MIXED_U, OCC_MIXED_V, a)(const OccStreamArgs \
                                                                                   args)           \
    {                                                                                              \
        mixed_body<OCC_MIXED_U, OCC_MIXED_V, a>(args);                                             \
    }                                                                                              \
    extern "C" cudaError_t occ_launch_mixed_a##a(const OccLaunch *l, const OccStreamArgs *args)   \
    {                                                                                              \
        MIXED_SYM(OCC_MIXED_U, OCC_MIXED_V, a)<<<l->grid_blocks, l->block_threads,                 \
                                                 l->dyn_smem_bytes, l->stream>>>(*args);           \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_mixed_a##a(void)                                             \
    {                                                                                              \
        return reinterpret_cast<const void *>(MIXED_SYM(OCC_MIXED_U, OCC_MIXED_V, a));            \
    }
OCC_MIXED_VARIANTS(DEFINE_MIXED)
