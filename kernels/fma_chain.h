/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/fma_chain.h: the recurrence the fma family's chains run and the mixed family's
 * elements go through, shared by the kernels (C++) and the pure harness (C) that checks them. No
 * CUDA type: the pure side includes it on machines without a GPU. */
#ifndef OCC_FMA_CHAIN_H
#define OCC_FMA_CHAIN_H

#ifdef __CUDACC__
#define OCC_FMA_HOST_DEVICE __host__ __device__
#else
#define OCC_FMA_HOST_DEVICE
#endif

/* FMAs per thread per loop trip of every fma variant (U chains x OCC_FMA_PER_TRIP / U steps):
 * the unrolled body, long enough that the loop's own instructions are under 1% of those issued
 * (the SASS audit checks it). */
#define OCC_FMA_PER_TRIP 512

/* The fma family's step x = x * OCC_FMA_MUL + OCC_FMA_ADD: from a start in [1, 2) that is a
 * multiple of 2^-10, fewer than 2^20 x (2 - 1.0625) steps stay below 2, where 2^-20 is a multiple
 * of the fp32 ulp (2^-23), so every step is exact and the chain is start + N x 2^-20. */
#define OCC_FMA_MUL 1.0
#define OCC_FMA_ADD (1.0 / 1048576.0)

/* The mixed family's step, applied A times to each loaded float x in [0, 1): x + A x 2^-10 stays
 * below 1.25; below 1 every step is exact (x is a multiple of 2^-24), and the first step at or
 * above 1 may round once (by at most 2^-24), after which the value is a multiple of 2^-23 and
 * every later step is exact again. */
#define OCC_MIXED_MUL 1.0f
#define OCC_MIXED_ADD (1.0f / 1024.0f)

/* The start of chain u of global thread `thread`: 1 + (8 x (thread mod 8) + u) / 1024, exact in
 * fp32 and fp64. */
static inline OCC_FMA_HOST_DEVICE double occ_fma_start(unsigned int thread, int u)
{
    return 1.0 + (double)(8u * (thread % 8u) + (unsigned int)u) * (1.0 / 1024.0);
}

#endif
