/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/regcap.c: the register ladder and the bounds lever's choice of twin. */
#include "regcap.h"

#include "occupancy.h"

int occ_regcap_blocks(const OccArchLimits *arch, int block_threads, int regs_per_thread)
{
    const OccKernelUsage use = {block_threads, regs_per_thread, 0, 0};
    OccResult r;
    if (occ_model_occupancy(arch, &use, &r, NULL) != 0) return 0;
    /* Shared memory aside: with no static smem only the per-block reserve counts there, which
     * must not hide a register rung. */
    int k = r.by_regs < r.by_warps ? r.by_regs : r.by_warps;
    return k < r.by_blocks ? k : r.by_blocks;
}

int occ_regcap_ladder(const OccArchLimits *arch, int block_threads, OccRegRung *out, int max)
{
    int n = 0;
    for (int r = 1; r < arch->max_regs_per_thread; r++) {
        const int here = occ_regcap_blocks(arch, block_threads, r);
        if (here == 0) break;
        if (occ_regcap_blocks(arch, block_threads, r + 1) >= here) continue;
        if (n < max) out[n] = (OccRegRung){r, here};
        n++;
        if (here == 1) break;
    }
    return n;
}

int occ_regcap_pick(const OccArchLimits *arch, int block_threads, int target_blocks,
                    const int *regs, int n)
{
    int exact = -1, above = -1, most = -1, most_blocks = -1;
    for (int i = 0; i < n; i++) {
        const int k = occ_regcap_blocks(arch, block_threads, regs[i]);
        if (k == target_blocks && (exact < 0 || regs[i] > regs[exact])) exact = i;
        if (k > target_blocks && (above < 0 || regs[i] > regs[above])) above = i;
        if (k > most_blocks) most = i, most_blocks = k;
    }
    return exact >= 0 ? exact : above >= 0 ? above : most;
}
