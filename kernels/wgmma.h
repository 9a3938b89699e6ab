/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/wgmma.h: the C API of the warp-group MMA kernels (kernels/wgmma.cu, sm_90a only).
 *
 * Each block is one warp group (128 threads) that runs `groups` commit groups of
 * OCC_WGMMA_PER_GROUP wgmma.mma_async m64nNk16 (fp16 or bf16 inputs, fp32 accumulators), one per
 * 16-deep slice of a 64 x 64 A tile and an N x 64 B tile (both K-major in shared memory), all
 * into the same accumulators, with G groups in flight (wgmma.wait_group G-1). SS: A and B through
 * shared-memory descriptors; RS: A from registers. The tiles hold occ_wgmma_a / occ_wgmma_b, small
 * integers, so the block's D = groups x A x B is exact in fp32 (occ_wgmma_expected).
 * Blocks per SM = warp groups per SM. C and C++ both include this header. */
#ifndef OCC_WGMMA_H
#define OCC_WGMMA_H

#include <stddef.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The variants: X(T, N, FORM, G, SWZ, SUFFIX): input type T (f16, bf16), N (64, 128, 256), FORM
 * ss (A and B from shared memory) or rs (A from registers), G commit groups in flight (1, 2, 4),
 * SWZ the tiles' shared-memory layout (1: 128-byte swizzle, what GEMM kernels use; 0: no swizzle,
 * the 8 x 16-byte core matrices side by side) and SUFFIX empty or _noswz. Name
 * wgmma_<T>_n<N>_<FORM>_g<G><SUFFIX>. */
#define OCC_WGMMA_G(X, t, n, form) X(t, n, form, 1, 1, ) X(t, n, form, 2, 1, ) X(t, n, form, 4, 1, )
#define OCC_WGMMA_N(X, t, form)                                                                    \
    OCC_WGMMA_G(X, t, 64, form) OCC_WGMMA_G(X, t, 128, form) OCC_WGMMA_G(X, t, 256, form)
#define OCC_WGMMA_VARIANTS(X)                                                                      \
    OCC_WGMMA_N(X, f16, ss) OCC_WGMMA_N(X, f16, rs) OCC_WGMMA_N(X, bf16, ss)                       \
    OCC_WGMMA_N(X, bf16, rs) X(f16, 64, ss, 2, 0, _noswz) X(f16, 128, ss, 2, 0, _noswz)            \
    X(f16, 256, ss, 2, 0, _noswz)

#define OCC_WGMMA_BLOCK_THREADS 128 /* one warp group per block */
#define OCC_WGMMA_K 64              /* depth of the tiles: one commit group's K */
#define OCC_WGMMA_PER_GROUP 4       /* wgmma (k16 each) per commit group */
/* Most groups per launch: one group adds at most 64 x 1 x 2 = 128 to an accumulator, so every
 * value stays an integer of at most 2^22: exact in fp32, and in an accumulation that keeps two
 * mantissa bits fewer. */
#define OCC_WGMMA_MAX_GROUPS 32768u
/* What a kernel compiled without sm_90a writes into clock_cycles (nothing else ran). */
#define OCC_WGMMA_UNSUPPORTED (~0ull)

#ifdef __CUDACC__
#define OCC_WGMMA_FN static inline __host__ __device__
#else
#define OCC_WGMMA_FN static inline
#endif

/* Element (m, k) of A, 0 or 1, and (k, n) of B, 0, 1 or 2: irregular enough that a swapped row,
 * column or 8-element core matrix changes the product. */
OCC_WGMMA_FN int occ_wgmma_a(int m, int k) { return ((m * 37 + k * 11 + m * k * 3) >> 2) & 1; }
OCC_WGMMA_FN int occ_wgmma_b(int k, int n) { return ((k * 29 + n * 17 + k * n) >> 1) % 3; }

/* The exact D[m][n] after `groups` groups: groups x sum over k < 64 of a(m, k) b(k, n). */
static inline double occ_wgmma_expected(int m, int n, unsigned int groups)
{
    int dot = 0;
    for (int k = 0; k < OCC_WGMMA_K; k++) dot += occ_wgmma_a(m, k) * occ_wgmma_b(k, n);
    return (double)groups * (double)dot;
}

/* Floating-point operations of one block's launch: groups x 4 wgmma x 2 x 64 x N x 16. */
static inline double occ_wgmma_flop_per_block(int n, unsigned int groups)
{
    return (double)groups * OCC_WGMMA_PER_GROUP * 2.0 * 64.0 * (double)n * 16.0;
}

/* Dynamic shared memory a variant needs: the A tile (64 x 64 x 2 bytes), the B tile
 * (N x 64 x 2 bytes) and 1 KiB to align them to the 1024-byte swizzle atom. */
static inline size_t occ_wgmma_smem_bytes(int n)
{
    return (size_t)(64 + n) * OCC_WGMMA_K * 2u + 1024u;
}

/* Arguments of one launch (device pointers). */
typedef struct OccWgmmaArgs {
    float *out;                       /* grid_blocks x 64 x N floats: block b's D, row-major,
                                         at out + b x 64 x N */
    unsigned int groups;              /* commit groups per block, 1..OCC_WGMMA_MAX_GROUPS */
    unsigned long long *clock_cycles; /* block 0's SM cycles (clock64) over its loop, or
                                         OCC_WGMMA_UNSUPPORTED */
    unsigned long long *clock_ns;     /* block 0's globaltimer ns over the same loop */
    unsigned long long *probe;        /* NULL, or the residency probe (OCC_PROBE_WORDS per
                                         block) */
} OccWgmmaArgs;

/* Launchers return cudaErrorNotSupported, launching nothing, on a device other than compute
 * capability 9.0 (sm_90a code runs nowhere else). */
typedef cudaError_t (*OccWgmmaLaunchFn)(const OccLaunch *launch, const OccWgmmaArgs *args);

#define OCC_DECLARE_WGMMA(t, n, form, g, swz, sfx)                                                 \
    cudaError_t occ_launch_wgmma_##t##_n##n##_##form##_g##g##sfx(const OccLaunch *launch,         \
                                                                 const OccWgmmaArgs *args);        \
    const void *occ_kernel_wgmma_##t##_n##n##_##form##_g##g##sfx(void);
OCC_WGMMA_VARIANTS(OCC_DECLARE_WGMMA)
#undef OCC_DECLARE_WGMMA

#ifdef __cplusplus
}
#endif

#endif
