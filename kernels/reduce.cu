// SPDX-License-Identifier: Apache-2.0
// kernels/reduce.cu: the reduce family, *sum = sum of in[0 .. n_floats).
//
// Bytes moved per element: 4 read (bytes per launch = 1 x buffer). Each thread keeps U independent
// accumulators and issues U independent V-byte loads per trip before adding any, so U x V bytes
// per thread are in flight and the adds form U separate dependency chains (no -use_fast_math:
// it may re-associate them into one). Warps reduce by shuffle, blocks through shared memory; each
// block writes its partial, and the last block to finish (threadfence + counter) adds the partials
// in block order and resets the counter, so one launch yields the total with no memset or second
// kernel (sum_body, block_sum.cuh). The result is stored, so no load can be removed. Any n_floats;
// 16-byte aligned input.
#include "api.h"
#include "block_sum.cuh"
#include "bounds.cuh"

// The identity map: the plain sum.
struct Identity {
    __device__ __forceinline__ float operator()(float x) const { return x; }
};

#define DEFINE_REDUCE(fam, u, v, lb, sfx)                                                          \
    extern "C" __global__ void OCC_LB_##lb occsweep_##fam##_u##u##_v##v##sfx(const OccStreamArgs a) \
    {                                                                                              \
        sum_body<u, v>(a, Identity());                                                             \
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
