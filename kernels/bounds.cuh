// SPDX-License-Identifier: Apache-2.0
// kernels/bounds.cuh: the two register policies of every streaming variant (see variants.h).
//
// OCC_LB_0: natural registers, blocks of up to OCC_LB_MAX_THREADS threads.
// OCC_LB_1: capped so that the arch's full thread capacity fits: K = max threads per SM /
// OCC_LB_MAX_THREADS blocks, i.e. at most 65536 / max threads per SM registers per thread (32 on
// sm_80/sm_90/sm_100 with 2048 threads per SM; 40 on sm_86/sm_89/sm_120 with 1536; 64 on sm_75
// with 1024). The value depends on the arch being compiled, so it comes from __CUDA_ARCH__.
#ifndef OCC_BOUNDS_CUH
#define OCC_BOUNDS_CUH

#include "variants.h"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define OCC_LB_FULL_BLOCKS (1024 / OCC_LB_MAX_THREADS)
#elif defined(__CUDA_ARCH__) &&                                                                    \
    (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ == 1200 || __CUDA_ARCH__ == 1210)
#define OCC_LB_FULL_BLOCKS (1536 / OCC_LB_MAX_THREADS)
#else
#define OCC_LB_FULL_BLOCKS (2048 / OCC_LB_MAX_THREADS)
#endif

#define OCC_LB_0 __launch_bounds__(OCC_LB_MAX_THREADS)
#define OCC_LB_1 __launch_bounds__(OCC_LB_MAX_THREADS, OCC_LB_FULL_BLOCKS)

#endif
