/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/families/wgmma.h: the warp-group MMA family's descriptor (kernels/wgmma.cu,
 * harness/families/family_wgmma.c; sm_90a only). The fields and the entry shapes are documented
 * in kernels/families/README.md.
 *
 * Each block is one warp group (128 threads) that runs commit groups of
 * OCC_WGMMA_PER_GROUP wgmma.mma_async m64nNk16 (fp16 or bf16 inputs, fp32 accumulators), one per
 * 16-deep slice of a 64 x 64 A tile and an N x 64 B tile (both K-major in shared memory), all
 * into the same accumulators, with G groups in flight (wgmma.wait_group G-1); the groups are
 * claimed in chunks from a counter (OccWgmmaArgs). SS: A and B through shared-memory descriptors;
 * RS: A from registers. The tiles hold occ_wgmma_a / occ_wgmma_b, small integers, so a block's
 * D = (its groups) x A x B is exact in fp32 (occ_wgmma_expected).
 * Blocks per SM = warp groups per SM. Plain C: C and C++ both include this header.
 *
 * The build adds sm_90a code for kernels/wgmma.cu when sm_90 is among its archs (the line below,
 * read by meson.build); the plan skips the family on any other arch (.cc_min, .cc_max).
 * Build gencode: 90 arch=compute_90a,code=sm_90a */
#ifndef OCC_FAMILIES_WGMMA_H
#define OCC_FAMILIES_WGMMA_H

#include <stddef.h>

/* The SASS audit (tests/build/test_sass_audit.py reads these lines): on sm_90 (its sm_90a code)
 * every variant's async loop issues OCC_WGMMA_PER_GROUP HGMMA per trip and waits
 * (WARPGROUP.DEPBAR) once; elsewhere the kernels are empty.
 * SASS promise: ^wgmma_[a-z0-9]+_n\d+_[rs]s_g\d+(?:_noswz)?$ HGMMA 4 sm_90 */
#define OCC_WGMMA_MODES(M)                                                                         \
    M(wgmma_f16, .kernel = "wgmma", .mode = "f16", .default_mode = 1,                              \
      .shape = OCC_SHAPE_OCCUPANCY, .options = "unroll,occ,carveout", .launch_ms = 3.2,            \
      .cc_min = 90, .cc_max = 90, .instruction = "wgmma.mma_async")                                \
    M(wgmma_bf16, .kernel = "wgmma", .mode = "bf16", .shape = OCC_SHAPE_OCCUPANCY,                 \
      .options = "unroll,occ,carveout", .cc_min = 90, .cc_max = 90,                                \
      .instruction = "wgmma.mma_async")

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
/* Most groups a block runs: one group adds at most 64 x 1 x 2 = 128 to an accumulator, so every
 * value stays an integer of at most 2^22: exact in fp32, and in an accumulation that keeps two
 * mantissa bits fewer. A block stops claiming before it would pass it. */
#define OCC_WGMMA_MAX_GROUPS 32768u
/* What a kernel compiled without sm_90a writes into clock_words[0] (nothing else ran). */
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
#define OCC_WGMMA_SMEM_BYTES(n) ((64 + (n)) * OCC_WGMMA_K * 2 + 1024)

/* Arguments of one launch (device pointers). Groups are claimed in chunks (the block's thread 0
 * claims the next chunk while the block runs the current one), so every block runs to the end of
 * the launch and the occupancy set is the occupancy that runs. */
typedef struct OccWgmmaArgs {
    float *out;                       /* grid_blocks x 64 x N floats: block b's D, row-major,
                                         at out + b x 64 x N */
    unsigned int total_groups;        /* commit groups of the launch, >= 1 */
    unsigned int chunk_groups;        /* groups per claim, >= 1 */
    unsigned long long *claim;        /* groups claimed, 0 before the first launch; the
                                         launch's last warp resets it */
    unsigned int *warps_done;         /* 0 before the first launch; reset with claim */
    unsigned int *block_groups;       /* grid_blocks counts: the groups block b ran, at most
                                         OCC_WGMMA_MAX_GROUPS */
    unsigned long long *clock_words;  /* block 0's SM cycles (clock64) and %globaltimer ns over
                                         its loop, added up over launches
                                         (kernels/clock_span.cuh); or OCC_WGMMA_UNSUPPORTED in
                                         the first */
    unsigned long long *probe;        /* NULL, or the residency probe (OCC_PROBE_WORDS per
                                         block) */
} OccWgmmaArgs;

/* Catalog entries: U = G groups in flight (--unroll picks G), V = 4 (bytes of an fp32
 * accumulator element), the block one warp group, own the tiles' shared memory, judged against
 * the arch's dense fp16/bf16 tensor rate; an operation of the chain model is one wgmma
 * (2 x 64 x N x 16 FLOP): with 4G of them in flight per warp group, W warps per SM x G / (wgmma
 * per SM per clock) is the cycles of one wgmma. */
#define OCC_WGMMA_CATALOG_ENTRY(t, n, form, g, swz, sfx)                                           \
    OCC_CATALOG_ENTRY_BLOCK(OCC_WGMMA_BLOCK_THREADS, wgmma_##t,                                    \
                            "wgmma_" #t "_n" #n "_" #form "_g" #g #sfx, g, 4, 0, 0,                \
                            OCC_WGMMA_SMEM_BYTES(n), OCC_RATE_MMA_F16, 2 * 64 * (n) * 16)
#define OCC_WGMMA_CATALOG OCC_WGMMA_VARIANTS(OCC_WGMMA_CATALOG_ENTRY)

#endif
/* The registry hook (kernels/families.def). */
#ifdef OCC_FAMILY
OCC_FAMILY(WGMMA)
#endif
