/* SPDX-License-Identifier: Apache-2.0 */
/* kernels/families/async.h: the asynchronous-copy family's descriptor (kernels/async.cu,
 * harness/families/family_async.c): global memory read into shared memory without passing
 * through registers, S stages in flight, every float that arrives summed so the data is used and
 * each launch is verified in closed form (occ_async_expected_sum). The fields and the entry
 * shapes are documented in kernels/families/README.md.
 *   bulk (sm_90+): per block one producer thread keeps S stages of C bytes in flight with
 *     cp.async.bulk (the copy engine, SASS UBLKCP), one full and one empty mbarrier per stage;
 *     W = 1: one warp (lane 0 also produces), W = 5: a producer warp and a consumer warp group.
 *     Bytes in flight per block: S x C, the kernel's own shared memory.
 *   cp (sm_80+): each thread keeps S commit groups of U 16-byte cp.async.cg copies in flight
 *     (SASS LDGSTS; wait_group S-1) and sums its own copies. Bytes in flight per block:
 *     W x 32 x S x U x 16, the kernel's own shared memory.
 * Work is shared out in chunks of chunk_vecs 16-byte vectors claimed from *claim (per block in
 * bulk mode, per warp in cp mode) until none is left, so every block stays resident to the end.
 * Plain C: the kernels, the host file and the pure side's tests include it. */
#ifndef OCC_FAMILIES_ASYNC_H
#define OCC_FAMILIES_ASYNC_H

#include <stddef.h>

/* The SASS audit (tests/build/test_sass_audit.py reads these lines): a variant whose name
 * matches PATTERN issues, per trip of its async loop (kernels/audit_async.py), COUNT instructions
 * of CLASS (group 1 of PATTERN, else 1) and waits once, on the archs ARCHS; it is empty on the
 * others.
 * bulk: one UBLKCP and one mbarrier wait a stage; cp: U LDGSTS and one DEPBAR a commit group.
 * SASS promise: ^async_bulk_s\d+_c\d+k_w\d+$ UBLKCP 1 sm_90+
 * SASS promise: ^async_cp_s\d+_u(\d+)_w\d+$ LDGSTS sm_80+ */
#define OCC_ASYNC_MODES(M)                                                                         \
    M(async_bulk, .kernel = "async", .mode = "bulk", .default_mode = 1,                            \
      .shape = OCC_SHAPE_OCCUPANCY, .options = "vec,occ,carveout,size",                            \
      .dram_bytes_per_load_byte = 1.0, .requests = OCC_REQUESTS_LINES,                             \
      .curve_traffic = OCC_CURVE_READ, .size_l2_multiple = 8, .size_floor_gib = 4,                 \
      .launch_ms = 1.8, .cc_min = 90, .instruction = "cp.async.bulk")                              \
    M(async_cp, .kernel = "async", .mode = "cp", .shape = OCC_SHAPE_OCCUPANCY,                     \
      .options = "unroll,occ,carveout,size", .dram_bytes_per_load_byte = 1.0,                      \
      .requests = OCC_REQUESTS_LINES, .curve_traffic = OCC_CURVE_READ, .size_l2_multiple = 8,      \
      .size_floor_gib = 4, .launch_ms = 1.8, .cc_min = 80, .instruction = "cp.async")

/* The bulk variants: X(S, C_KIB, W), S stages (1..8) of C_KIB KiB, W warps per block (1: one
 * warp, lane 0 also the producer; 5: a producer warp and 4 consumer warps). S x C <= 192 KiB so
 * every variant fits one block in the 227 KiB of an sm_90 SM. Name async_bulk_s<S>_c<C>k_w<W>. */
#define OCC_ASYNC_BULK_SC(X, C, W) X(1, C, W) X(2, C, W) X(3, C, W) X(4, C, W) X(6, C, W)
#define OCC_ASYNC_BULK_W(X, W)                                                                     \
    OCC_ASYNC_BULK_SC(X, 4, W) X(8, 4, W) OCC_ASYNC_BULK_SC(X, 8, W) X(8, 8, W)                    \
    OCC_ASYNC_BULK_SC(X, 16, W) X(8, 16, W) OCC_ASYNC_BULK_SC(X, 32, W)
#define OCC_ASYNC_BULK_VARIANTS(X) OCC_ASYNC_BULK_W(X, 1) OCC_ASYNC_BULK_W(X, 5)

/* The cp.async variants: X(S, U, W), S commit groups (stages) of U 16-byte copies per thread,
 * W warps per block (1 or 4). Name async_cp_s<S>_u<U>_w<W>. */
#define OCC_ASYNC_CP_W(X, W)                                                                       \
    X(1, 1, W) X(1, 2, W) X(1, 4, W) X(1, 8, W) X(2, 1, W) X(2, 2, W) X(2, 4, W) X(2, 8, W)        \
    X(4, 1, W) X(4, 2, W) X(4, 4, W) X(4, 8, W) X(8, 1, W) X(8, 2, W) X(8, 4, W) X(8, 8, W)
#define OCC_ASYNC_CP_VARIANTS(X) OCC_ASYNC_CP_W(X, 1) OCC_ASYNC_CP_W(X, 4)

/* Dynamic shared memory a bulk variant needs: its S stages of C_KIB KiB (the mbarriers and
 * per-stage byte counts are static shared memory). It is also the block's bytes in flight. */
#define OCC_ASYNC_BULK_SMEM_BYTES(s, c_kib) ((s) * (c_kib) * 1024)
/* Dynamic shared memory a cp variant needs: S x U 16-byte slots per thread of its W warps. It is
 * also the block's bytes in flight. */
#define OCC_ASYNC_CP_SMEM_BYTES(s, u, w) ((s) * (u) * 16 * 32 * (w))

/* Catalog entries: U x V is what one wait covers, as a warp's loads of U V-byte vectors a lane
 * (the model's width: .requests LINES, U x 32 x V / 128 lines): bulk: one stage, U = 1 and
 * V = C / 32 (--vec picks C: 128, 256, 512, 1024 for 4, 8, 16, 32 KiB); cp: one commit group,
 * U = U and V = 16. own is the stages' shared memory (S x C; W x 32 x S x U x 16), the block
 * W x 32. No chain model. */
#define OCC_ASYNC_CATALOG_BULK(s, c, w)                                                            \
    OCC_CATALOG_ENTRY_BLOCK(32 * (w), async_bulk, "async_bulk_s" #s "_c" #c "k_w" #w, 1,           \
                            (c) * 1024 / 32, 0, 0, OCC_ASYNC_BULK_SMEM_BYTES(s, c),                \
                            OCC_RATE_NONE, 0)
#define OCC_ASYNC_CATALOG_CP(s, u, w)                                                              \
    OCC_CATALOG_ENTRY_BLOCK(32 * (w), async_cp, "async_cp_s" #s "_u" #u "_w" #w, u, 16, 0, 0,      \
                            OCC_ASYNC_CP_SMEM_BYTES(s, u, w), OCC_RATE_NONE, 0)
/* The catalog order is the host file's table order: the bulk variants, then the cp ones. */
#define OCC_ASYNC_CATALOG                                                                          \
    OCC_ASYNC_BULK_VARIANTS(OCC_ASYNC_CATALOG_BULK) OCC_ASYNC_CP_VARIANTS(OCC_ASYNC_CATALOG_CP)

/* The buffer's pattern: in[i] = i mod OCC_ASYNC_PERIOD, small integers, so every partial sum the
 * kernels form is exact in fp32 (per stage, or per 16 trips of a cp thread) and in fp64 (across
 * stages and blocks). */
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

#endif
/* The registry hook (kernels/families.def). */
#ifdef OCC_FAMILY
OCC_FAMILY(ASYNC)
#endif
