// SPDX-License-Identifier: Apache-2.0
// kernels/bounds.cuh: the register policies of every streaming variant (the CAP of variants.h).
//
// OCC_LB_0: natural registers for blocks of up to OCC_LB_MAX_THREADS (1024) threads, so at most
// 64 per thread (65536 / 1024). Leaving the bounds out would not cap them, but ptxas then
// allocates differently (reduce_u4_v16 on sm_90: 38 registers instead of 32, 75% at most).
// OCC_LB_<N>: at most N registers per thread (__maxnreg__, CUDA 12.4+), a rung of the register
// ladder. The cap holds on every arch and for any block size: it is no __launch_bounds__
// min-blocks arithmetic, so OCC_LB_MAX_THREADS does not move it. Without __launch_bounds__ a twin
// takes blocks up to 1024 threads, which every cap here (at most 64 = 65536 / 1024) allows.
#ifndef OCC_BOUNDS_CUH
#define OCC_BOUNDS_CUH

#include "variants.h"

#define OCC_LB_0 __launch_bounds__(OCC_LB_MAX_THREADS)
#define OCC_LB_32 __maxnreg__(32)
#define OCC_LB_40 __maxnreg__(40)
#define OCC_LB_48 __maxnreg__(48)
#define OCC_LB_56 __maxnreg__(56)

#endif
