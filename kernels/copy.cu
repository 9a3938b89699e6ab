// SPDX-License-Identifier: Apache-2.0
// kernels/copy.cu: the copy family, out[i] = in[i] over the whole buffer.
//
// Bytes moved per element: 4 read + 4 written (bytes per launch = 2 x buffer). Each thread issues
// U independent V-byte loads (its warp's U adjacent runs of 32 vectors, see stream_walk) before
// its U stores, so U x V bytes per thread are in flight. Work cannot be removed: every value
// loaded is stored. Neither pointer is __restrict__: the compiler must assume a store may alias
// a load, which keeps a trip's U loads ahead of its stores (vec.cuh).
// Preconditions: in/out 16-byte aligned (cudaMalloc gives 256); any n_floats (the
// n_floats % (V/4) tail is copied as scalars by the first threads).
#include "api.h"
#include "bounds.cuh"
#include "probe.cuh"
#include "vec.cuh"

template <int U, int V>
__device__ __forceinline__ void copy_body(const float *in, float *out, size_t n_floats,
                                          unsigned long long *probe, const OccSchedule &sched)
{
    probe_start(probe);
    using T = typename VecOf<V>::T;
    constexpr int kF = VecOf<V>::kFloats;
    const size_t n_vec = n_floats / kF;
    const T *vin = reinterpret_cast<const T *>(in);
    T *vout = reinterpret_cast<T *>(out);
    stream_walk<U, Handoff::kBarrier>(n_vec, sched, [&](size_t first, int count) {
        T v[U];
        load_trip(vin, first, count, v);
#pragma unroll
        for (int u = 0; u < U; u++)
            if (u < count) vout[trip_vec(first, u)] = v[u];
    });
    const size_t tail = n_vec * kF + (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (tail < n_floats) out[tail] = in[tail];
    walk_finish(sched);
    probe_end(probe);
}

// One extern "C" kernel per variant keeps the symbol equal to the variant name in cuobjdump's
// resource report (the build's kernel_resources.csv).

#define DEFINE_COPY(fam, u, v, lb, sfx)                                                            \
    extern "C" __global__ void OCC_LB_##lb occsweep_##fam##_u##u##_v##v##sfx(                      \
        const float *in, float *out, size_t n_floats,                                             \
        unsigned long long *probe, const OccSchedule sched)                                        \
    {                                                                                              \
        copy_body<u, v>(in, out, n_floats, probe, sched);                                          \
    }                                                                                              \
    extern "C" cudaError_t occ_launch_##fam##_u##u##_v##v##sfx(const OccLaunch *l,                 \
                                                              const OccStreamArgs *a)              \
    {                                                                                              \
        occsweep_##fam##_u##u##_v##v##sfx<<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes,   \
                                            l->stream>>>(a->in, a->out, a->n_floats, a->probe,   \
                                                                      a->sched);                   \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_##fam##_u##u##_v##v##sfx(void)                               \
    {                                                                                              \
        return reinterpret_cast<const void *>(occsweep_##fam##_u##u##_v##v##sfx);                  \
    }
OCC_COPY_VARIANTS(DEFINE_COPY)
