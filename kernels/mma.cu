// SPDX-License-Identifier: Apache-2.0
// kernels/mma.cu: the mma family: warp-level tensor-core throughput and latency (mma.sync)
// against occupancy and ILP; layouts, closed forms and arguments in smem_mma.h.
//
// Each warp runs U independent accumulators C_u = A x B + C_u. A trip is OCC_MMA_PER_TRIP mma
// per warp (OCC_MMA_PER_TRIP / U steps of the U accumulators, interleaved: 0, 1, .., U-1, 0, ..),
// fully unrolled; the trip loop is kept rolled (`#pragma unroll 1`), as in fma.cu. The mma is
// inline PTX, asm volatile: the compiler can neither fold it (A and B come from kernel arguments)
// nor merge two accumulators' identical-looking steps, nor reorder the steps; every accumulator is
// stored, so none is dead. The A fragment passes one register for all its 32-bit parts (ptxas
// copies it into the aligned register tuple HMMA needs once, outside the loop).
//
// Trips are claimed per warp (occ_claimed_trips, as fma.cu): every warp stays busy to the end of
// the launch, so every block stays resident. mma.sync needs the whole warp converged: the claim
// loop is warp-uniform (the trip count is broadcast from lane 0).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "bounds.cuh"
#include "clock_span.cuh"
#include "probe.cuh"
#include "smem_mma.h"

// One input type: K (the instruction's depth) and kFlop, Acc (the accumulator element), E
// (accumulator elements per thread), In (one 32-bit or 64-bit register of A and B), pack(x) (x in
// every element of such a register) and step(c, a, b): c = A x B + c.
template <int T> struct MmaType;

enum { kF16, kBF16, kTF32, kF64 };

template <> struct MmaType<kF16> {
    static constexpr int K = 16, kFlop = 4096; // depth; 2 x M x N x K per warp mma
    typedef float Acc;
    typedef unsigned int In;
    static constexpr int E = 4;
    static __device__ __forceinline__ In pack(double x)
    {
        const __half2 h = __float2half2_rn((float)x);
        return *reinterpret_cast<const unsigned int *>(&h);
    }
    static __device__ __forceinline__ void step(Acc (&c)[E], In a, In b)
    {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, "
                     "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
    }
};

template <> struct MmaType<kBF16> {
    static constexpr int K = 16, kFlop = 4096; // depth; 2 x M x N x K per warp mma
    typedef float Acc;
    typedef unsigned int In;
    static constexpr int E = 4;
    static __device__ __forceinline__ In pack(double x)
    {
        const __nv_bfloat162 h = __float2bfloat162_rn((float)x);
        return *reinterpret_cast<const unsigned int *>(&h);
    }
    static __device__ __forceinline__ void step(Acc (&c)[E], In a, In b)
    {
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                     "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
    }
};

template <> struct MmaType<kTF32> {
    static constexpr int K = 8, kFlop = 2048; // depth; 2 x M x N x K per warp mma
    typedef float Acc;
    typedef unsigned int In;
    static constexpr int E = 4;
    static __device__ __forceinline__ In pack(double x)
    {
        unsigned int r;
        asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"((float)x));
        return r;
    }
    static __device__ __forceinline__ void step(Acc (&c)[E], In a, In b)
    {
        asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
                     "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                     : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                     : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
    }
};

template <> struct MmaType<kF64> {
    static constexpr int K = 4, kFlop = 512; // depth; 2 x M x N x K per warp mma
    typedef double Acc;
    typedef double In;
    static constexpr int E = 2;
    static __device__ __forceinline__ In pack(double x) { return x; }
    static __device__ __forceinline__ void step(Acc (&c)[E], In a, In b)
    {
        asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, "
                     "{%0, %1};"
                     : "+d"(c[0]), "+d"(c[1])
                     : "d"(a), "d"(b));
    }
};

template <int T, int U>
__device__ __forceinline__ void mma_body(const OccMmaArgs a)
{
    typedef MmaType<T> M;
    static_assert(OCC_MMA_PER_TRIP % U == 0, "U divides the trip");
    constexpr int kSteps = OCC_MMA_PER_TRIP / U;
    probe_start(a.probe);
    occ_clock_span_start(a.clock_words);
    const unsigned int start = blockIdx.x * blockDim.x + threadIdx.x;
    const typename M::In fa = M::pack(a.a), fb = M::pack(a.b);
    typename M::Acc c[U][M::E];
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
        for (int e = 0; e < M::E; e++) c[u][e] = (typename M::Acc)occ_fma_start(start, u);
    const unsigned int ran =
        occ_claimed_trips(a.claim, a.total_trips, a.chunk_trips, [&](unsigned int n) {
#pragma unroll 1
            for (unsigned int t = 0; t < n; t++) {
#pragma unroll
                for (int k = 0; k < kSteps; k++)
#pragma unroll
                    for (int u = 0; u < U; u++) M::step(c[u], fa, fb);
            }
        });
    occ_clock_span_stop(a.clock_words);
    const unsigned int thread = occ_thread_fresh();
    typename M::Acc *out = static_cast<typename M::Acc *>(a.out) + (size_t)thread * U * M::E;
#pragma unroll
    for (int u = 0; u < U; u++)
#pragma unroll
        for (int e = 0; e < M::E; e++) out[u * M::E + e] = c[u][e];
    if (thread % 32u == 0) a.warp_trips[thread / 32u] = ran;
    occ_claims_finish(a.claim, a.warps_done);
    probe_end(a.probe);
}

enum { kType_f16 = kF16, kType_bf16 = kBF16, kType_tf32 = kTF32, kType_f64 = kF64 };

#define DEFINE_MMA(t, k, flop, acc, peak, u)                                                       \
    extern "C" __global__ void OCC_LB_0 occsweep_mma_##t##_u##u(const OccMmaArgs a)                \
    {                                                                                              \
        static_assert(MmaType<kType_##t>::K == k && MmaType<kType_##t>::kFlop == flop,             \
                      "kernels/families/mma.h matches the instruction");                                       \
        mma_body<kType_##t, u>(a);                                                                 \
    }                                                                                              \
    extern "C" cudaError_t occ_launch_mma_##t##_u##u(const OccLaunch *l, const OccMmaArgs *a)     \
    {                                                                                              \
        occsweep_mma_##t##_u##u<<<l->grid_blocks, l->block_threads, l->dyn_smem_bytes,            \
                                  l->stream>>>(*a);                                                \
        return cudaGetLastError();                                                                 \
    }                                                                                              \
    extern "C" const void *occ_kernel_mma_##t##_u##u(void)                                         \
    {                                                                                              \
        return reinterpret_cast<const void *>(occsweep_mma_##t##_u##u);                            \
    }
OCC_MMA_VARIANTS(DEFINE_MMA)
