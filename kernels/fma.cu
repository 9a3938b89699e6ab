// SPDX-License-Identifier: Apache-2.0
// kernels/fma.cu: the fma family (Volkov 2010's arithmetic experiment): U independent chains
// x[u] = x[u] * mul + add per thread, no memory traffic but the final store.
//
// Each loop trip is OCC_FMA_PER_TRIP FMAs (OCC_FMA_PER_TRIP / U steps of the U chains,
// interleaved: chain 0, 1, .., U-1, then chain 0 again), fully unrolled, so the loop's counter,
// compare and branch are under 1% of the instructions issued; the trip loop itself is kept rolled
// (`#pragma unroll 1`). mul and add are arguments (no step folds at compile time) and every chain
// is stored, so no FMA can be removed; no -use_fast_math (it could contract or re-associate).
// Any grid and block; out holds grid x block x U elements.
#include "api.h"
#include "bounds.cuh"
#include "probe.cuh"

template <typename T> __device__ __forceinline__ T fma_step(T x, T m, T c);
template <> __device__ __forceinline__ float fma_step(float x, float m, float c)
{
    return fmaf(x, m, c);
}
template <> __device__ __forceinline__ double fma_step(double x, double m, double c)
{
    return fma(x, m, c);
}

template <typename T, int U>
__device__ __forceinline__ void fma_body(const OccFmaArgs a)
{
    static_assert(OCC_FMA_PER_TRIP % U == 0, "U divides the trip");
    constexpr int kSteps = OCC_FMA_PER_TRIP / U;
    probe_start(a.probe);
    const unsigned int thread = blockIdx.x * blockDim.x + threadIdx.x;
    const T m = (T)a.mul, c = (T)a.add;
    T x[U];
#pragma unroll
    for (int u = 0; u < U; u++) x[u] = (T)occ_fma_start(thread, u);
#pragma unroll 1
    for (int t = 0; t < a.trips; t++) {
#pragma unroll
        for (int s = 0; s < kSteps; s++)
#pragma unroll
            for (int u = 0; u < U; u++) x[u] = fma_step<T>(x[u], m, c);
    }
    T *out = static_cast<T *>(a.out) + (size_t)thread * U;
#pragma unroll
    for (int u = 0; u < U; u++) out[u] = x[u];
    probe_end(a.probe);
}

// fp32 -> float, fp64 -> double.
template <int Bytes> struct ElemOf;
template <> struct ElemOf<4> { using T = float; };
template <> struct ElemOf<8> { using T = double; };

#define DEFINE_FMA(t, bytes, u)                                                                    \
    extern "C" __global__ void OCC_LB_0 occsweep_fma_##t##_u##u(const OccFmaArgs a)                \
    {                                                                                              \
        fma_body<ElemOf<bytes>::T, u>(a);                                                          \
    }                                                                                              \
    extern "C" cudaError_t occ_launch_fma_##t##_u##u(const OccLaunch *l, const OccFmaArgs *a)     \
    {                                                                                              \
        occsweep_fma_##t##_u##u<<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes,            \
                                  l->stream>>>(*a);                                                \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_fma_##t##_u##u(void)                                         \
    {                                                                                              \
        return reinterpret_cast<const void *>(occsweep_fma_##t##_u##u);                            \
    }
OCC_FMA_VARIANTS(DEFINE_FMA)
