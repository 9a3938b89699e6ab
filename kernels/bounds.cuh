// SPDX-License-Identifier: Apache-2.0
// kernels/bounds.cuh: the two register policies of every streaming variant (see variants.h).
//
// OCC_LB_0: natural registers for blocks of up to OCC_LB_MAX_THREADS (1024) threads, so at most
// 64 per thread (65536 / 1024). Leaving the bounds out would not cap them, but ptxas then
// allocates differently (reduce_u4_v16 on sm_90: 38 registers instead of 32, 75% at most).
// OCC_LB_1: capped so that the arch's full thread capacity fits, i.e. at most 65536 / max threads
// per SM registers per thread: 32 on sm_80/sm_90/sm_100 with 2048 threads per SM
// (__launch_bounds__(1024, 2)); 64 on sm_75 with 1024 (__launch_bounds__(1024, 1)); 40 on
// sm_86/sm_89/sm_120 with 1536, where no whole number of 1024-thread blocks fills the SM, so the
// cap is __maxnreg__(40) (the cap __launch_bounds__(256, 6) set). The value depends on
// the arch being compiled, so it comes from __CUDA_ARCH__.
#ifndef OCC_BOUNDS_CUH
#define OCC_BOUNDS_CUH

#include "variants.h"

#define OCC_LB_0 __launch_bounds__(OCC_LB_MAX_THREADS)
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define OCC_LB_1 __launch_bounds__(OCC_LB_MAX_THREADS, 1024 / OCC_LB_MAX_THREADS)
#elif defined(__CUDA_ARCH__) &&                                                                    \
    (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890 || __CUDA_ARCH__ == 1200 || __CUDA_ARCH__ == 1210)
#define OCC_LB_1 __maxnreg__(40)
#else
#define OCC_LB_1 __launch_bounds__(OCC_LB_MAX_THREADS, 2048 / OCC_LB_MAX_THREADS)
#endif

#endif
