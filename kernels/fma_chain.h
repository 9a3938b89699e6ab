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

/* The mixed family's step x = x * OCC_MIXED_STEP + OCC_MIXED_STEP (fmaf), one register for the
 * multiplier and the addend as in OCC_FMA_STEP (with the step x * m + c, m, c and x in three
 * registers, mixed's plateau was 74-78% of the FMA peak on an H200). Each loaded float x0 is
 * in [0, 1) and a multiple of 2^-24 (occ_pattern_value); a step is x + 1 rounded once, and A
 * steps end near x0 + A. Rounding, for A + 2 <= 2^24: in a binade [2^e, 2^(e+1)), 0 <= e <= 23,
 * the value is a multiple of the ulp 2^(e-23) and so is 1, so a step is exact unless its result
 * lies in a higher binade than its operand; that step rounds once, by at most half the new ulp,
 * 2^(e-24) for binade e. Each binade e = 0 (1 <= x < 2), 1, ..., E (the end's) is entered at
 * most once, so the chain ends within (2^(E+1) - 1) x 2^-24 of x0 + A; that is below 1, so the
 * end is below A + 2 and 2^E, an integer no larger than the end, is at most A + 1: the error is
 * below 2^E x 2^-23 <= (A + 1) x 2^-23 (occ_mixed_chain_error). */
#define OCC_MIXED_STEP 1.0f

/* The start of chain u of global thread `thread`: 1 + 8 x (thread mod 8) + u, exact in fp32 and
 * fp64 (so neighbouring threads' chains differ and a wrong thread's result is seen). */
static inline OCC_FMA_HOST_DEVICE double occ_fma_start(unsigned int thread, int u)
{
    return 1.0 + (double)(8u * (thread % 8u) + (unsigned int)u);
}

#endif
