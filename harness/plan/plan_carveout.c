/* SPDX-License-Identifier: Apache-2.0 */
/* harness/plan/plan_carveout.c: the smallest carveout step in which padding pins every level, by
 * the offline occupancy model. */
#include "plan_carveout.h"

#include "catalog.h"
#include "occupancy.h"
#include "plan_levels.h"

/* 1 when padding alone can pin every level 1..most_blocks of blocks of `use` inside arch's
 * shared memory (the allocation unit can leave no per-block size between two neighbours). */
static int pins_every_level(const OccArchLimits *arch, const OccKernelUsage *use, int most_blocks)
{
    for (int k = 1; k <= most_blocks; k++) {
        OccKernelUsage u = *use;
        OccResult r;
        if (occ_model_padding_for_blocks(arch, &u, k, &u.dyn_smem_bytes, NULL) != 0 ||
            occ_model_occupancy(arch, &u, &r, NULL) != 0 || r.blocks_per_sm != k)
            return 0;
    }
    return 1;
}

int occ_plan_carveout_bytes(const OccArchLimits *arch, OccCarveout policy, int block_threads,
                            const OccVariantResources *res, int family)
{
    return occ_plan_run_carveout_bytes(arch, policy, &block_threads, 1, res, family);
}

int occ_plan_run_carveout_bytes(const OccArchLimits *arch, OccCarveout policy,
                                const int *block_threads, int n_blocks,
                                const OccVariantResources *res, int family)
{
    if (policy == OCC_CARVEOUT_MAX) return arch->smem_per_sm_bytes;
    int static_bytes = 0;
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        const int bytes = res[i].static_smem_bytes + v->own_dyn_smem_bytes;
        if ((v->own_dyn_smem_bytes == 0 || v->family == family) && bytes > static_bytes)
            static_bytes = bytes;
    }
    for (int s = 0; s < arch->n_smem_carveouts; s++) {
        const OccArchLimits a = occ_arch_in_carveout(arch, arch->smem_carveouts_kib[s] * 1024);
        int all = 1;
        for (int b = 0; all && b < n_blocks; b++) {
            /* No registers: the register file is no limit here, only warps, blocks and shared
             * memory. */
            const OccKernelUsage use = {block_threads[b], 0, static_bytes, 0};
            all = pins_every_level(&a, &use, occ_plan_max_level_blocks(arch, block_threads[b]));
        }
        if (all) return a.smem_per_sm_bytes;
    }
    return arch->smem_per_sm_bytes;
}
