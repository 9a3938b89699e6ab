/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/calc.c: the occupancy calculator: the model's answer for one kernel, its
 * carveout, the two inverses, and the table that prints them. */
#include "calc.h"

#include <limits.h>

/* The inverse for registers asks the model at every count from the most down: occupancy never
 * rises with registers, so the first that reaches the target is the most that does. */
static void most_regs_for(const OccArchLimits *arch, OccKernelUsage use, double target_pct,
                          OccCalc *c)
{
    c->target_regs = -1;
    for (int r = arch->max_regs_per_thread; r >= 0; r--) {
        OccResult t;
        use.regs_per_thread = r;
        /* A block too large for the register file at r registers is no answer; fewer may be. */
        if (occ_model_occupancy(arch, &use, &t, NULL) != 0) continue;
        c->target_result = t;
        /* The levels are whole warps out of max_warps_per_sm: 1e-9 absorbs the division. */
        if (t.occupancy_pct >= target_pct - 1e-9) {
            c->target_regs = r;
            return;
        }
    }
}

static void padding_for(const OccArchLimits *arch, OccKernelUsage use, int target_blocks,
                        OccCalc *c)
{
    if (occ_model_padding_for_blocks(arch, &use, target_blocks, &c->pad_bytes, &c->pad_why) !=
        0) {
        c->pad_bytes = -1;
        return;
    }
    use.dyn_smem_bytes = c->pad_bytes;
    occ_model_occupancy(arch, &use, &c->pad_result, NULL);
}

int occ_calc_run(const OccArchLimits *arch, const OccCalcInput *in, OccCalc *out,
                 const char **why)
{
    OccCalc c = {.in = *in};
    /* Beyond INT_MAX the model refuses it as more than a block may have, like any too large. */
    OccKernelUsage use = {.block_threads = in->block_threads,
                          .regs_per_thread = in->regs_per_thread,
                          .static_smem_bytes = in->smem_bytes > INT_MAX ? INT_MAX
                                                                        : (int)in->smem_bytes};
    OccResult at_max;
    if (occ_model_occupancy(arch, &use, &at_max, why) != 0) return -1;
    c.max_carveout_bytes = arch->smem_per_sm_bytes;
    c.min_carveout_bytes =
        occ_arch_carveout_at_least(arch, at_max.blocks_per_sm * at_max.smem_per_block_alloc_bytes);
    /* A device whose largest step is not in the table's list keeps its largest. */
    if (c.min_carveout_bytes < 0) c.min_carveout_bytes = c.max_carveout_bytes;
    c.carveout_bytes =
        in->carveout == OCC_CARVEOUT_MIN ? c.min_carveout_bytes : c.max_carveout_bytes;
    c.limits = occ_arch_in_carveout(arch, c.carveout_bytes);
    if (occ_model_occupancy(&c.limits, &use, &c.result, why) != 0) return -1;
    if (in->target_occ_pct > 0) most_regs_for(&c.limits, use, in->target_occ_pct, &c);
    if (in->target_blocks > 0) padding_for(&c.limits, use, in->target_blocks, &c);
    *out = c;
    return 0;
}

/* One limiter's row: what a block uses of it, what the SM has, and the blocks that allows. */
static void row(FILE *f, const OccCalc *c, const char *name, OccLimiter which, int blocks,
                const char *per_block, const char *per_sm)
{
    const char *mark = which == c->result.limiter           ? "  <- limiter"
                       : blocks == c->result.blocks_per_sm ? "  <- ties"
                                                           : "";
    fprintf(f, "  %-14s %-42s %-22s %9d%s\n", name, per_block, per_sm, blocks, mark);
}

static const char *limiter_title(OccLimiter l)
{
    switch (l) {
    case OCC_LIMIT_WARPS: return "threads";
    case OCC_LIMIT_REGS: return "registers";
    case OCC_LIMIT_SMEM: return "shared memory";
    case OCC_LIMIT_BLOCKS: return "block limit";
    }
    return "unknown";
}

static void print_limiters(FILE *f, const OccCalc *c)
{
    const OccArchLimits *a = &c->limits;
    const OccResult *r = &c->result;
    char block[64], sm[64];
    fprintf(f, "  %-14s %-42s %-22s %9s\n", "limiter", "per block", "per SM", "blocks/SM");
    snprintf(block, sizeof block, "%d threads (%d warp%s)", c->in.block_threads,
             r->warps_per_block, r->warps_per_block == 1 ? "" : "s");
    snprintf(sm, sizeof sm, "%d (%d warps)", a->max_threads_per_sm, a->max_warps_per_sm);
    row(f, c, "threads", OCC_LIMIT_WARPS, r->by_warps, block, sm);
    snprintf(block, sizeof block, "%d warp%s x %d (%d x %d, unit %d)", r->warps_per_block,
             r->warps_per_block == 1 ? "" : "s", r->regs_per_warp, c->in.regs_per_thread,
             a->warp_size, a->reg_alloc_unit);
    snprintf(sm, sizeof sm, "%d (%d x %d)", a->regs_per_sm, OCC_REG_SUB_PARTITIONS,
             a->regs_per_sm / OCC_REG_SUB_PARTITIONS);
    row(f, c, "registers", OCC_LIMIT_REGS, r->by_regs, block, sm);
    snprintf(block, sizeof block, "%d B (%lld + %d reserved, unit %d)",
             r->smem_per_block_alloc_bytes, c->in.smem_bytes, a->smem_reserved_per_block_bytes,
             a->smem_alloc_unit_bytes);
    snprintf(sm, sizeof sm, "%d B", a->smem_per_sm_bytes);
    row(f, c, "shared memory", OCC_LIMIT_SMEM, r->by_smem, block, sm);
    snprintf(sm, sizeof sm, "%d blocks", a->max_blocks_per_sm);
    row(f, c, "block limit", OCC_LIMIT_BLOCKS, r->by_blocks, "1 block", sm);
}

static void print_inverses(FILE *f, const OccCalc *c)
{
    const OccResult *t = &c->target_result;
    if (c->in.target_occ_pct > 0 && c->target_regs >= 0)
        fprintf(f, "most registers/thread for >= %g%% occupancy: %d (%d blocks/SM, %.1f%%)\n",
                c->in.target_occ_pct, c->target_regs, t->blocks_per_sm, t->occupancy_pct);
    else if (c->in.target_occ_pct > 0)
        fprintf(f, "most registers/thread for >= %g%% occupancy: none (with the fewest registers"
                   " %d blocks/SM, %.1f%%; limiter: %s)\n",
                c->in.target_occ_pct, t->blocks_per_sm, t->occupancy_pct,
                limiter_title(t->limiter));
    if (c->in.target_blocks > 0 && c->pad_bytes >= 0)
        fprintf(f, "dynamic shared memory for exactly %d blocks/SM: %d B (the most that does; "
                   "a block then allocates %d B, %.1f%% occupancy)\n",
                c->in.target_blocks, c->pad_bytes, c->pad_result.smem_per_block_alloc_bytes,
                c->pad_result.occupancy_pct);
    else if (c->in.target_blocks > 0)
        fprintf(f, "dynamic shared memory for exactly %d blocks/SM: none (%s)\n",
                c->in.target_blocks, c->pad_why);
}

void occ_calc_print(FILE *f, const OccCalc *c, const char *target)
{
    const OccResult *r = &c->result;
    const int l1_kib = (c->limits.l1_smem_sram_bytes - c->carveout_bytes) / 1024;
    fprintf(f,
            "occupancy on %s: block %d threads, %d registers/thread, %lld B shared memory/"
            "block\n",
            target, c->in.block_threads, c->in.regs_per_thread, c->in.smem_bytes);
    if (c->in.carveout == OCC_CARVEOUT_MIN)
        fprintf(f, "carveout: %d KiB shared memory/SM (min: the smallest step holding the %d "
                   "blocks/SM of the largest, %d KiB; L1 keeps %d KiB)\n\n",
                c->carveout_bytes / 1024, r->blocks_per_sm, c->max_carveout_bytes / 1024, l1_kib);
    else
        fprintf(f, "carveout: %d KiB shared memory/SM (max, as the occupancy API assumes; L1 "
                   "keeps %d KiB)\n\n",
                c->carveout_bytes / 1024, l1_kib);
    print_limiters(f, c);
    fprintf(f, "\nresident: %d blocks/SM x %d warp%s = %d of %d warps/SM: occupancy %.1f%% "
               "(limiter: %s)\n",
            r->blocks_per_sm, r->warps_per_block, r->warps_per_block == 1 ? "" : "s",
            r->warps_per_sm, c->limits.max_warps_per_sm,
            r->occupancy_pct, limiter_title(r->limiter));
    if (c->in.carveout == OCC_CARVEOUT_MAX)
        fprintf(f, "smallest carveout holding these %d blocks/SM: %d KiB (--carveout min; L1 "
                   "keeps %d KiB)\n",
                r->blocks_per_sm, c->min_carveout_bytes / 1024,
                (c->limits.l1_smem_sram_bytes - c->min_carveout_bytes) / 1024);
    print_inverses(f, c);
}
