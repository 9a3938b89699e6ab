// kernels/reduce.cu: the reduce family, *sum = sum of in[0 .. n_floats).
//
// Bytes moved per element: 4 read (bytes per launch = 1 x buffer). Each thread keeps U independent
// accumulators and issues U independent V-byte loads per trip before adding any, so U x V bytes
// per thread are in flight and the adds form U separate dependency chains (no -use_fast_math:
// it may re-associate them into one). Warps reduce by shuffle, blocks through shared memory; each
// block writes its partial, and the last block to finish (threadfence + counter) adds the partials
// in block order and resets the counter, so one launch yields the total with no memset or second
// kernel. The result is stored, so no load can be removed. Any n_floats; 16-byte aligned input.
#include "api.h"
#include "block_sum.cuh"
#include "bounds.cuh"
#include "probe.cuh"
#include "vec.cuh"

template <int U, int V>
__device__ __forceinline__ void reduce_body(const OccStreamArgs a)
{
    using T = typename VecOf<V>::T;
    constexpr int kF = VecOf<V>::kFloats;
    const size_t n_vec = a.n_floats / kF;
    const T *vin = reinterpret_cast<const T *>(a.in);
    probe_start(a.probe);
    float acc[U];
#pragma unroll
    for (int u = 0; u < U; u++) acc[u] = 0.0f;
    stream_walk<U>(n_vec, a.sched, [&](size_t first, int count) {
        T v[U];
        load_trip<U>(vin, first, count, v);
#pragma unroll
        for (int u = 0; u < U; u++)
            if (u < count) acc[u] += vec_sum(v[u]);
    });
    const size_t tail = n_vec * kF + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (tail < a.n_floats) acc[0] += a.in[tail];
    float x = 0.0f;
#pragma unroll
    for (int u = 0; u < U; u++) x += acc[u];
    block_sums_finish(x, a.block_sums, a.blocks_done, a.sum, [&] {
        walk_finish(a.sched);
        probe_end(a.probe);
    });
}

#define DEFINE_REDUCE(fam, u, v, lb, sfx)                                                          \
    extern "C" __global__ void OCC_LB_##lb occsweep_##fam##_u##u##_v##v##sfx(const OccStreamArgs a) \
    {                                                                                              \
        reduce_body<u, v>(a);                                                                      \
    }                                                                                              \
    extern "C" cudaError_t occ_launch_##fam##_u##u##_v##v##sfx(const OccLaunch *l,                 \
                                                              const OccStreamArgs *a)              \
    {                                                                                              \
        occsweep_##fam##_u##u##_v##v##sfx<<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes,   \
                                            l->stream>>>(*a);                                      \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_##fam##_u##u##_v##v##sfx(void)                               \
    {                                                                                              \
        return reinterpret_cast<const void *>(occsweep_##fam##_u##u##_v##v##sfx);                  \
    }
OCC_REDUCE_VARIANTS(DEFINE_REDUCE)
