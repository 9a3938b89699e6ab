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

/* The fma family's step x = x * OCC_FMA_STEP + OCC_FMA_STEP, both operands one register: from an
 * integer start below 2^6, x + 1 is exact in fp32 while x < 2^24 and in fp64 while x < 2^53, so
 * after N steps each chain holds start + N bit for bit. Why one register for the multiplier and
 * the addend: an FFMA reading three registers has two of them in one of the register file's two
 * banks (register number mod 2) and waits a cycle for the second read, where a warp cannot take
 * the operand reuse cache (one chain: each FMA waits on the last, so the scheduler switches
 * warps between them). Measured on an H200 at 64 warps/SM, one chain per thread: x * m + c with
 * m, c, x in three registers ran at 49.9% of 128 FMA/clk/SM, x * c + c at 98.8%; two chains
 * 66.4% and 98.7%; four chains 98.9% and 99.3% (a standalone pair of kernels, same shape). */
#define OCC_FMA_STEP 1.0

/* The mixed family's step, applied A times to each loaded float x in [0, 1): x + A x 2^-10 stays
 * below 1.25; below 1 every step is exact (x is a multiple of 2^-24), and the first step at or
 * above 1 may round once (by at most 2^-24), after which the value is a multiple of 2^-23 and
 * every later step is exact again. */
#define OCC_MIXED_MUL 1.0f
#define OCC_MIXED_ADD (1.0f / 1024.0f)

/* The start of chain u of global thread `thread`: 1 + 8 x (thread mod 8) + u, exact in fp32 and
 * fp64 (so neighbouring threads' chains differ and a wrong thread's result is seen). */
static inline OCC_FMA_HOST_DEVICE double occ_fma_start(unsigned int thread, int u)
{
    return 1.0 + (double)(8u * (thread % 8u) + (unsigned int)u);
}

#endif
