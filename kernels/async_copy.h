/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/async_copy.h: the C API of the asynchronous-copy kernels (kernels/async_copy.cu).
 *
 * Both modes read a float buffer into shared memory without passing it through registers, then
 * sum every float that arrived (fp32 per stage, fp64 across stages) so the data is used and the
 * launch is verified in closed form (occ_async_expected_sum):
 *   bulk (sm_90+): per block one producer thread keeps S stages of C bytes in flight with
 *     cp.async.bulk (the copy engine), one full and one empty mbarrier per stage; W1 blocks are
 *     one warp (lane 0 produces, the warp consumes), W5 blocks are a producer warp and a
 *     consumer warp group (160 threads). Bytes in flight per block: S x C.
 *   cp (sm_80+): each thread keeps S commit groups of U 16-byte cp.async.cg copies in flight
 *     (wait_group S-1) and sums its own copies. Bytes in flight per thread: S x U x 16.
 * Work is shared out in chunks of chunk_vecs 16-byte vectors claimed from *claim (per block in
 * bulk mode, per warp in cp mode) until none is left, so every block stays resident to the end.
 * C and C++ both include this header; it holds no CUDA type beyond the runtime API's. */
#ifndef OCC_ASYNC_COPY_H
#define OCC_ASYNC_COPY_H

#include <stddef.h>

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bulk variants: X(S, C_KIB, W), S stages (1..8) of C_KIB KiB, W warps per block (1: one
 * warp, lane 0 also the producer; 5: a producer warp and 4 consumer warps). S x C <= 192 KiB so
 * every variant fits one block in the 227 KiB of an sm_90 SM. Name async_bulk_s<S>_c<C>k_w<W>. */
#define OCC_ASYNC_BULK_SC(X, C, W)                                                                 \
    X(1, C, W) X(2, C, W) X(3, C, W) X(4, C, W) X(6, C, W)
#define OCC_ASYNC_BULK_W(X, W)                                                                     \
    OCC_ASYNC_BULK_SC(X, 4, W) X(8, 4, W) OCC_ASYNC_BULK_SC(X, 8, W) X(8, 8, W)                    \
    OCC_ASYNC_BULK_SC(X, 16, W) X(8, 16, W) OCC_ASYNC_BULK_SC(X, 32, W)
#define OCC_ASYNC_BULK_VARIANTS(X) OCC_ASYNC_BULK_W(X, 1) OCC_ASYNC_BULK_W(X, 5)

/* The cp.async variants: X(S, U), S commit groups (stages) of U 16-byte copies per thread.
 * Shared memory per block: S x U x 16 x block_threads bytes. Name async_cp_s<S>_u<U>. */
#define OCC_ASYNC_CP_VARIANTS(X)                                                                   \
    X(1, 1) X(1, 2) X(1, 4) X(1, 8) X(2, 1) X(2, 2) X(2, 4) X(2, 8)                                \
    X(4, 1) X(4, 2) X(4, 4) X(4, 8) X(8, 1) X(8, 2) X(8, 4) X(8, 8)

/* Threads per block of a bulk variant with W warps. */
static inline int occ_async_bulk_threads(int warps) { return 32 * warps; }

/* Dynamic shared memory a bulk variant needs: its S stages of C_KIB KiB (the mbarriers and
 * per-stage byte counts are static shared memory, in cudaFuncGetAttributes' sharedSizeBytes). */
static inline size_t occ_async_bulk_smem_bytes(int stages, int c_kib)
{
    return (size_t)stages * (size_t)c_kib * 1024u;
}

/* Dynamic shared memory a cp variant needs with block_threads threads per block. */
static inline size_t occ_async_cp_smem_bytes(int stages, int unroll, int block_threads)
{
    return (size_t)stages * (size_t)unroll * 16u * (size_t)block_threads;
}

/* The buffer's pattern: in[i] = i mod OCC_ASYNC_PERIOD, small integers, so every partial sum the
 * kernels form is exact in fp32 (per stage) and fp64 (across stages and blocks). */
#define OCC_ASYNC_PERIOD 7u

/* The exact sum of in[0 .. n_floats) under the pattern. */
static inline double occ_async_expected_sum(size_t n_floats)
{
    const size_t p = OCC_ASYNC_PERIOD, q = n_floats / p, r = n_floats % p;
    return (double)q * (double)(p * (p - 1) / 2) + (double)(r * (r - 1) / 2);
}

/* Arguments of one launch (device pointers). */
typedef struct OccAsyncArgs {
    const float *in;           /* n_floats floats holding the pattern, 16-byte aligned */
    size_t n_floats;           /* any count: the last n_floats mod 4 are read by block 0 */
    unsigned int chunk_vecs;   /* 16-byte vectors per claimed chunk, >= 1; bulk: a multiple of
                                  C / 16 keeps every stage full but the buffer's last */
    unsigned long long *claim; /* 0 before the first launch; the last unit of each launch resets
                                  it (units: blocks in bulk mode, warps in cp mode) */
    unsigned int *done;        /* units finished, 0 before the first launch (reset with claim) */
    double *block_sums;        /* grid_blocks doubles: block b's sum of what it read */
    unsigned long long *probe; /* NULL, or the residency probe (OCC_PROBE_WORDS per block) */
} OccAsyncArgs;

typedef cudaError_t (*OccAsyncLaunchFn)(const OccLaunch *launch, const OccAsyncArgs *args);

#define OCC_DECLARE_ASYNC_BULK(s, c, w)                                                            \
    cudaError_t occ_launch_async_bulk_s##s##_c##c##k_w##w(const OccLaunch *launch,                \
                                                          const OccAsyncArgs *args);               \
    const void *occ_kernel_async_bulk_s##s##_c##c##k_w##w(void);
OCC_ASYNC_BULK_VARIANTS(OCC_DECLARE_ASYNC_BULK)
#undef OCC_DECLARE_ASYNC_BULK
#define OCC_DECLARE_ASYNC_CP(s, u)                                                                 \
    cudaError_t occ_launch_async_cp_s##s##_u##u(const OccLaunch *launch,                          \
                                                const OccAsyncArgs *args);                         \
    const void *occ_kernel_async_cp_s##s##_u##u(void);
OCC_ASYNC_CP_VARIANTS(OCC_DECLARE_ASYNC_CP)
#undef OCC_DECLARE_ASYNC_CP

/* Writes the pattern into buf[0 .. n_floats) on `stream`. */
cudaError_t occ_async_fill(float *buf, size_t n_floats, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
