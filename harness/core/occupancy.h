/* SPDX-License-Identifier: Apache-2.0 */
/* harness/occupancy.h: the offline occupancy model (theoretical resident blocks per SM) and its
 * inverse, the shared-memory padding that pins a kernel to an exact number of blocks per SM.
 *
 * The rules are those of the toolkit's cuda_occupancy.h (what the runtime's occupancy API
 * computes), restricted to what occsweep uses: the carveout at maximum shared memory (so an SM
 * offers arch->smem_per_sm_bytes), the per-function opt-in to the largest dynamic shared memory,
 * partitioned global caching off, at most one block barrier. Pure C: no CUDA header. */
#ifndef OCC_OCCUPANCY_H
#define OCC_OCCUPANCY_H

#include "arch.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The sub-partitions an SM's register file is split over; a warp's registers come from one, so
 * the register limit counts warps per sub-partition. Every architecture in the table has 4. */
enum { OCC_REG_SUB_PARTITIONS = 4 };

/* The resource that bounds resident blocks per SM. */
typedef enum OccLimiter {
    OCC_LIMIT_WARPS,  /* warp (thread) slots of the SM */
    OCC_LIMIT_BLOCKS, /* the SM's maximum resident blocks */
    OCC_LIMIT_REGS,   /* the register file */
    OCC_LIMIT_SMEM,   /* shared memory */
} OccLimiter;

/* "warps", "blocks", "regs" or "smem"; "unknown" for a value outside the enum. */
const char *occ_limiter_name(OccLimiter l);

/* What one launch of a kernel asks of an SM. */
typedef struct OccKernelUsage {
    int block_threads;     /* threads per block */
    int regs_per_thread;   /* registers per thread as compiled (cudaFuncAttributes.numRegs) */
    int static_smem_bytes; /* static __shared__ bytes per block (sharedSizeBytes) */
    int dyn_smem_bytes;    /* dynamic shared memory per block at launch, bytes */
} OccKernelUsage;

/* The model's answer for one kernel and launch. */
typedef struct OccResult {
    int blocks_per_sm;     /* resident blocks per SM: the minimum of by_warps .. by_smem */
    int warps_per_sm;      /* blocks_per_sm x ceil(block_threads / warp_size) */
    double occupancy_pct;  /* 100 x warps_per_sm / max_warps_per_sm */
    OccLimiter limiter;    /* the smallest limit; ties go to the first of warps, blocks, regs,
                              smem */
    int by_warps;          /* blocks per SM the warp slots alone allow */
    int by_blocks;         /* the SM's block limit (max_blocks_per_sm) */
    int by_regs;           /* blocks per SM the register file alone allows; max_blocks_per_sm
                              when the kernel uses no register */
    int by_smem;           /* blocks per SM shared memory alone allows (reserved per-block
                              smem and the allocation unit included); max_blocks_per_sm when a
                              block allocates none (only possible on sm_75) */
    int warps_per_block;   /* ceil(block_threads / warp_size) */
    int regs_per_warp;     /* registers one warp is allocated: regs_per_thread x warp_size
                              rounded up to reg_alloc_unit (0 for a kernel using none) */
    int smem_per_block_alloc_bytes; /* shared memory one block is allocated: static + dynamic +
                              the reserved per-block part, rounded up to smem_alloc_unit_bytes */
} OccResult;

/* Computes the resident blocks per SM of `use` on `arch` (both non-NULL) into *out.
 * Returns 0 on success. Returns -1, with *why (if why is non-NULL) set to a static one-line
 * reason and *out untouched, when the kernel cannot launch at all: block_threads not in
 * 1..max_threads_per_block, regs_per_thread not in 0..max_regs_per_thread, negative shared
 * memory, static + dynamic shared memory above smem_per_block_optin_bytes, or one block's
 * registers (allocated per warp, warps rounded up to the SM's 4 sub-partitions) above the
 * register file. */
int occ_model_occupancy(const OccArchLimits *arch, const OccKernelUsage *use, OccResult *out,
                        const char **why);

/* The inverse: the dynamic shared memory (bytes) to launch with so that exactly target_blocks
 * blocks of `use` (block_threads, regs_per_thread, static_smem_bytes; dyn_smem_bytes is
 * ignored) are resident per SM. It is the LARGEST such padding (so that target_blocks + 1 cannot
 * fit), except 0 when the other limits alone already give exactly target_blocks. Rounding to
 * the allocation unit and the reserved per-block shared memory are included, so
 * occ_model_occupancy with dyn_smem_bytes = *pad_bytes gives blocks_per_sm == target_blocks.
 * Returns 0 and sets *pad_bytes; or -1 with *why (if non-NULL) set to a one-line reason such as
 * "registers allow only 6 blocks/SM", "threads allow only 8 blocks/SM", "static shared memory
 * allows only 2 blocks/SM", "target exceeds the SM's block limit" or "exceeds per-block shared
 * memory limit". The reasons are string literals: they stay valid forever and the function is
 * reentrant. Prefer this to cudaOccupancyAvailableDynamicSMemPerBlock: for 2+ blocks that call
 * leaves the 1 KB reserve in its answer, and launching with it places one block fewer (seen on
 * an H200 with driver 580: 2 blocks -> 116736 bytes -> 1 block resident). */
int occ_model_padding_for_blocks(const OccArchLimits *arch, const OccKernelUsage *use,
                                 int target_blocks, int *pad_bytes, const char **why);

#ifdef __cplusplus
}
#endif

#endif
