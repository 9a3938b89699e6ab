/* SPDX-License-Identifier: Apache-2.0 */
/* harness/occupancy.c: the offline occupancy model, after cuda_occupancy.h (CUDA 13.0).
 *
 * Where a tutorial's formula and cuda_occupancy.h differ, cuda_occupancy.h wins: it is what the
 * runtime's cudaOccupancy* calls compute. Two such places: registers are counted per
 * sub-partition (below), and the reserved per-block shared memory is added before rounding to
 * the allocation unit. tests/unit/test_occupancy_vs_cudaocc.cu holds the model to that header. */
#include "occupancy.h"

/* Since Volta an SM's register file is split over OCC_REG_SUB_PARTITIONS sub-partitions and a
 * warp takes its registers from one of them. cuda_occupancy.h therefore counts warps per quarter
 * of the file (floor, then x4), which can be fewer than dividing the whole file: 96 registers x
 * 32 lanes fit 5 warps per quarter, 20 per SM, not 21. The launch check likewise rounds a
 * block's warps up to a multiple of 4. */

/* Reasons with the count in them, as string literals so that callers may keep them. A count
 * reported here is below the target, itself at most max_blocks_per_sm (32 at most in the
 * table); larger ones fall back to a reason without the number. */
#define OCC_COUNTS(M)                                                                          \
    M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)     \
    M(16) M(17) M(18) M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29)       \
    M(30) M(31)
#define OCC_WARPS_REASON(n) "threads allow only " #n " blocks/SM",
#define OCC_REGS_REASON(n)  "registers allow only " #n " blocks/SM",
#define OCC_SMEM_REASON(n)  "static shared memory allows only " #n " blocks/SM",

enum { REASON_COUNTS = 32 };

static const char *const count_reasons[][REASON_COUNTS] = {
    [OCC_LIMIT_WARPS] = {OCC_COUNTS(OCC_WARPS_REASON)},
    [OCC_LIMIT_REGS] = {OCC_COUNTS(OCC_REGS_REASON)},
    [OCC_LIMIT_SMEM] = {OCC_COUNTS(OCC_SMEM_REASON)},
};

static const char *const fewer_reasons[] = {
    [OCC_LIMIT_WARPS] = "threads allow fewer blocks/SM than the target",
    [OCC_LIMIT_REGS] = "registers allow fewer blocks/SM than the target",
    [OCC_LIMIT_SMEM] = "static shared memory allows fewer blocks/SM than the target",
};

static int fail(const char **why, const char *reason)
{
    if (why != NULL) *why = reason;
    return -1;
}

static int short_of_target(const char **why, OccLimiter l, int blocks)
{
    return fail(why, blocks < REASON_COUNTS ? count_reasons[l][blocks] : fewer_reasons[l]);
}

static int div_round_up(int x, int y)
{
    return (x + y - 1) / y;
}

static int round_up(int x, int y)
{
    return div_round_up(x, y) * y;
}

const char *occ_limiter_name(OccLimiter l)
{
    switch (l) {
    case OCC_LIMIT_WARPS: return "warps";
    case OCC_LIMIT_BLOCKS: return "blocks";
    case OCC_LIMIT_REGS: return "regs";
    case OCC_LIMIT_SMEM: return "smem";
    }
    return "unknown";
}

static int regs_per_warp(const OccArchLimits *arch, int regs_per_thread)
{
    return round_up(regs_per_thread * arch->warp_size, arch->reg_alloc_unit);
}

static int validate(const OccArchLimits *arch, const OccKernelUsage *use, const char **why)
{
    if (use->block_threads < 1 || use->block_threads > arch->max_threads_per_block)
        return fail(why, "block size is not in 1..max threads per block");
    if (use->regs_per_thread < 0 || use->regs_per_thread > arch->max_regs_per_thread)
        return fail(why, "registers per thread exceed the per-thread limit");
    if (use->static_smem_bytes < 0 || use->dyn_smem_bytes < 0)
        return fail(why, "shared memory size is negative");
    if (use->dyn_smem_bytes > arch->smem_per_block_optin_bytes - use->static_smem_bytes)
        return fail(why, "exceeds per-block shared memory limit");
    int warps = div_round_up(use->block_threads, arch->warp_size);
    int warps_checked = round_up(warps, OCC_REG_SUB_PARTITIONS);
    if (regs_per_warp(arch, use->regs_per_thread) * warps_checked > arch->regs_per_sm)
        return fail(why, "registers per block exceed the register file");
    return 0;
}

int occ_model_occupancy(const OccArchLimits *arch, const OccKernelUsage *use, OccResult *out,
                        const char **why)
{
    if (validate(arch, use, why) != 0) return -1;

    int warps_per_block = div_round_up(use->block_threads, arch->warp_size);
    OccResult r;
    r.warps_per_block = warps_per_block;
    r.by_warps = arch->max_warps_per_sm / warps_per_block;
    r.by_blocks = arch->max_blocks_per_sm;

    int warp_regs = regs_per_warp(arch, use->regs_per_thread);
    r.regs_per_warp = warp_regs;
    if (warp_regs > 0) {
        int warps_per_quarter = arch->regs_per_sm / OCC_REG_SUB_PARTITIONS / warp_regs;
        r.by_regs = warps_per_quarter * OCC_REG_SUB_PARTITIONS / warps_per_block;
    } else {
        r.by_regs = arch->max_blocks_per_sm;
    }

    /* The reserved part is allocated with the block's own, so it is rounded together. */
    int smem_alloc = round_up(use->static_smem_bytes + use->dyn_smem_bytes +
                                  arch->smem_reserved_per_block_bytes,
                              arch->smem_alloc_unit_bytes);
    r.smem_per_block_alloc_bytes = smem_alloc;
    r.by_smem = smem_alloc > 0 ? arch->smem_per_sm_bytes / smem_alloc : arch->max_blocks_per_sm;

    r.blocks_per_sm = r.by_warps;
    r.limiter = OCC_LIMIT_WARPS;
    if (r.by_blocks < r.blocks_per_sm) {
        r.blocks_per_sm = r.by_blocks;
        r.limiter = OCC_LIMIT_BLOCKS;
    }
    if (r.by_regs < r.blocks_per_sm) {
        r.blocks_per_sm = r.by_regs;
        r.limiter = OCC_LIMIT_REGS;
    }
    if (r.by_smem < r.blocks_per_sm) {
        r.blocks_per_sm = r.by_smem;
        r.limiter = OCC_LIMIT_SMEM;
    }
    r.warps_per_sm = r.blocks_per_sm * warps_per_block;
    r.occupancy_pct = 100.0 * r.warps_per_sm / arch->max_warps_per_sm;
    *out = r;
    return 0;
}

int occ_model_padding_for_blocks(const OccArchLimits *arch, const OccKernelUsage *use,
                                 int target_blocks, int *pad_bytes, const char **why)
{
    OccKernelUsage padded = *use;
    padded.dyn_smem_bytes = 0;
    OccResult r;
    if (occ_model_occupancy(arch, &padded, &r, why) != 0) return -1;
    if (target_blocks < 1) return fail(why, "target must be at least 1 block/SM");
    if (target_blocks > r.by_blocks) return fail(why, "target exceeds the SM's block limit");
    if (r.by_warps < target_blocks) return short_of_target(why, OCC_LIMIT_WARPS, r.by_warps);
    if (r.by_regs < target_blocks) return short_of_target(why, OCC_LIMIT_REGS, r.by_regs);
    if (r.by_smem < target_blocks) return short_of_target(why, OCC_LIMIT_SMEM, r.by_smem);

    int others = r.by_warps < r.by_blocks ? r.by_warps : r.by_blocks;
    if (r.by_regs < others) others = r.by_regs;
    if (others == target_blocks) {
        *pad_bytes = 0;
        return 0;
    }

    /* The largest allocation of which target_blocks still fit; one unit more and only
     * target_blocks - 1 would. The padding fills it after the static and reserved parts. */
    int unit = arch->smem_alloc_unit_bytes;
    int alloc = arch->smem_per_sm_bytes / target_blocks / unit * unit;
    int pad = alloc - use->static_smem_bytes - arch->smem_reserved_per_block_bytes;
    int capped = pad > arch->smem_per_block_optin_bytes - use->static_smem_bytes;
    if (capped) pad = arch->smem_per_block_optin_bytes - use->static_smem_bytes;

    padded.dyn_smem_bytes = pad;
    if (occ_model_occupancy(arch, &padded, &r, why) != 0 || r.blocks_per_sm != target_blocks)
        return fail(why, capped ? "exceeds per-block shared memory limit"
                                : "shared memory allocation unit cannot pin this many blocks/SM");
    *pad_bytes = pad;
    return 0;
}
