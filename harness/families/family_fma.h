/* SPDX-License-Identifier: Apache-2.0 */
/* harness/families/family_fma.h: what the fma family exports beyond its OccFamilyOps: its kernel
 * table, for the GPU tests that exercise every launcher directly. */
#ifndef OCC_FAMILY_FMA_H
#define OCC_FAMILY_FMA_H

#include "api.h"

/* One compiled fma kernel. */
typedef struct OccFmaKernel {
    const char *name;         /* the variant name (catalog), fma_<type>_u<U> */
    OccFmaLaunchFn launch;    /* enqueues one launch */
    OccKernelHandleFn kernel; /* the kernel, for the runtime's attribute and occupancy APIs */
    int elem_bytes;           /* 4: fp32, 8: fp64 */
} OccFmaKernel;

/* The whole table, *n entries, in the descriptor's order (entry i: the variant of slot i). */
const OccFmaKernel *occ_fma_kernels(int *n);

#endif
