// SPDX-License-Identifier: Apache-2.0
// kernels/fma.cu: the fma family (Volkov 2010's arithmetic experiment): U independent chains
// x[u] = x[u] * step + step per thread, no memory traffic but the final stores.
//
// Each loop trip is OCC_FMA_PER_TRIP FMAs (OCC_FMA_PER_TRIP / U steps of the U chains,
// interleaved: chain 0, 1, .., U-1, then chain 0 again), fully unrolled, so the loop's counter,
// compare and branch are under 1% of the instructions issued; the trip loop itself is kept rolled
// (`#pragma unroll 1`). step is an argument (no step folds at compile time) and every chain is
// stored, so no FMA can be removed; no -use_fast_math (it could contract or re-associate).
//
// Trips are shared out per warp (OccFmaArgs, claims.cuh): lane 0 claims the next chunk while the
// warp runs the current one, so the atomic's latency hides behind a chunk of FMAs. A fixed share per
// thread let the warps the scheduler favours finish early: measured on an H200 at 16 blocks of
// 128 per SM, blocks were resident 62% of the launch on average (9.98 of 16), against 99% (15.89)
// with claims. Any grid; blocks of a multiple of 32 threads.
#include "api.h"
#include "bounds.cuh"
#include "claims.cuh"
#include "clock_span.cuh"
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
    occ_clock_span_start(a.clock_words);
    const unsigned int thread = blockIdx.x * blockDim.x + threadIdx.x;
    const T s = (T)a.step;
    T x[U];
#pragma unroll
    for (int u = 0; u < U; u++) x[u] = (T)occ_fma_start(thread, u);
    const unsigned int ran =
        occ_claimed_trips(a.claim, a.total_trips, a.chunk_trips, [&](unsigned int n) {
#pragma unroll 1
            for (unsigned int t = 0; t < n; t++) {
#pragma unroll
                for (int k = 0; k < kSteps; k++)
#pragma unroll
                    for (int u = 0; u < U; u++) x[u] = fma_step<T>(x[u], s, s);
            }
        });
    occ_clock_span_stop(a.clock_words);
    T *out = static_cast<T *>(a.out) + (size_t)thread * U;
#pragma unroll
    for (int u = 0; u < U; u++) out[u] = x[u];
    if (thread % 32u == 0) a.warp_trips[thread / 32u] = ran;
    occ_claims_finish(a.claim, a.warps_done);
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
