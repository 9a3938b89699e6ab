// SPDX-License-Identifier: Apache-2.0
// kernels/mixed.cu: the mixed (memory + arithmetic) family, *sum = sum of f_A(in[i]), where f_A
// is A steps of x = x * fma_step + fma_step (fmaf; fma_step = OCC_MIXED_STEP, fma_chain.h).
//
// Bytes moved per element: 4 read (bytes per launch = 1 x buffer); FLOP per element: 2A. The body
// is reduce's (sum_body: U = OCC_MIXED_U loads of V = OCC_MIXED_V bytes per trip issued before
// any is used) with every loaded float taken through its own chain of A dependent FMAs, so
// a trip holds U x V/4 independent chains, and only then is accumulated; the next trip's loads
// issue after them (in-order issue): the warp alternates memory and arithmetic, and other warps
// must hide each. fma_step is an argument, so no step can be folded at compile time, and it is
// both the multiplier and the addend (fma_chain.h): each FFMA reads x and the step (one register
// twice, or one register and the constant bank), not three registers, two of which would share
// a register bank (fma_bank_pairs_sass of the SASS audit; tests/build/test_sass_audit.py bounds
// it). The total is stored (block partials, last block adds them), so nothing is removed. Any
// n_floats (the tail floats take the same chain); 16-byte aligned input.
#include "api.h"
#include "block_sum.cuh"
#include "bounds.cuh"

template <int A>
__device__ __forceinline__ float chain(float x, float step)
{
#pragma unroll
    for (int k = 0; k < A; k++) x = fmaf(x, step, step);
    return x;
}

// A steps of x = x * step + step on one float: sum_body's map.
template <int A> struct Chain {
    float step;
    __device__ __forceinline__ float operator()(float x) const { return chain<A>(x, step); }
};

// The kernel symbol carries the variant name (occsweep_mixed_u<U>_v<V>_a<A>) for the SASS audit.
#define MIXED_SYM_(u, v, a) occsweep_mixed_u##u##_v##v##_a##a
#define MIXED_SYM(u, v, a) MIXED_SYM_(u, v, a)
#define DEFINE_MIXED(a)                                                                            \
    extern "C" __global__ void OCC_LB_0 MIXED_SYM(OCC_MIXED_U, OCC_MIXED_V, a)(const OccStreamArgs \
                                                                                   args)           \
    {                                                                                              \
        sum_body<OCC_MIXED_U, OCC_MIXED_V>(args, Chain<a>{args.fma_step});                         \
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
