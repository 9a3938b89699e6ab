/* SPDX-License-Identifier: Apache-2.0 */
/* tests/gpu/test_gpu_model_vs_api.c: on the real GPU, the offline model must agree with the
 * runtime.
 * (1) For every variant, block sizes 128, 256, 512 and 1024 (a kernel written for one block size:
 *     that size), and every level of a full sweep (each block size its own whole-block levels),
 *     the padding the model picks gives exactly the target blocks/SM per
 *     cudaOccupancyMaxActiveBlocksPerMultiprocessor
 *     in every carveout step a sweep can set (--carveout min up to max), and the model's
 *     "unreachable" agrees with the runtime.
 * (2) The build-time resource table (what --dry-run --arch uses) matches cudaFuncGetAttributes. */
#include "gpu_test.h"
#include "kernel_resources.h"
#include "occupancy.h"
#include "catalog.h"
#include "family.h"
#include "device.h"
#include "plan.h"
#include "variants.h"

/* The model's padding against the runtime for one variant, block size and carveout step. */
static void compare_in_carveout(const OccDevice *d, const OccVariantInfo *v, const void *k,
                                const OccVariantResources *r, int block, int carveout_bytes,
                                int *points, int *mismatches)
{
    const OccArchLimits in_c = occ_arch_in_carveout(&d->limits, carveout_bytes);
    GPU_OK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                occ_arch_carveout_pct(&d->limits, carveout_bytes)));
    const int kmax = d->limits.max_warps_per_sm / (block / 32);
    for (int target = 1; target <= kmax; target++) {
        OccKernelUsage use = {block, r->regs_per_thread, r->static_smem_bytes, 0};
        int pad = 0, got = -1;
        const char *why = NULL;
        int reachable = occ_model_padding_for_blocks(&in_c, &use, target, &pad, &why) == 0;
        (*points)++;
        GPU_OK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, pad));
        GPU_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&got, k, block, (size_t)pad));
        /* Unreachable: the runtime with no padding must give fewer blocks than the target. */
        int ok = reachable ? got == target : got < target;
        if (!ok && (*mismatches)++ < 10)
            fprintf(stderr, "%s block %d carveout %d KiB target %d: model %s (pad %d), runtime %d\n",
                    v->name, block, carveout_bytes / 1024, target,
                    reachable ? "reachable" : why, pad, got);
    }
}

/* Every variant, blocks of 128 to 1024 threads, every level, in every carveout step from the one
 * --carveout min picks up to the maximum (the padding must pin each level in each); a block size
 * a variant's registers forbid is unreachable at every level for both. */
static void test_padding_matches_runtime(const OccDevice *d)
{
    static OccVariantResources res[512];
    int mismatches = 0, points = 0;
    cudaError_t e;
    for (int i = 0; i < occ_variant_count(); i++)
        if (occ_device_kernel_resources(occ_family_ops(occ_variant_at(i)->family)
                                            ->kernel(occ_variant_at(i)),
                                        &res[i], &e) != 0)
            GPU_OK(e);
    for (int block = 128; block <= OCC_LB_MAX_THREADS; block *= 2) {
        CHECK(occ_plan_carveout_bytes(&d->limits, OCC_CARVEOUT_MIN, block, res, -1) <
              d->limits.smem_per_sm_bytes);
        for (int s = 0; s < d->limits.n_smem_carveouts; s++) {
            const int c = d->limits.smem_carveouts_kib[s] * 1024;
            for (int i = 0; i < occ_variant_count(); i++) {
                const OccVariantInfo *v = occ_variant_at(i);
                /* a kernel written for one block size: at that size, in the first pass */
                const int b = v->block_threads > 0 ? v->block_threads : block;
                if ((v->block_threads > 0 && block != 128) ||
                    c < occ_plan_carveout_bytes(&d->limits, OCC_CARVEOUT_MIN, b, res, v->family))
                    continue;
                compare_in_carveout(d, v, occ_family_ops(v->family)->kernel(v), &res[i], b, c,
                                    &points, &mismatches);
            }
        }
    }
    printf("%d (variant, block, carveout, level) points compared\n", points);
    CHECK(points > 1000);
    CHECK_INT_EQ(mismatches, 0);
}

static void test_build_table_matches_runtime(const OccDevice *d)
{
    int compared = 0;
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        OccVariantResources r;
        cudaError_t e;
        if (occ_device_kernel_resources(occ_family_ops(v->family)->kernel(v), &r, &e) != 0) GPU_OK(e);
        for (int t = 0; t < occ_kernel_resources_count; t++) {
            const OccKernelResources *b = &occ_kernel_resources[t];
            if (strcmp(b->variant, v->name) || strcmp(b->arch, d->arch_name)) continue;
            compared++;
            CHECK_INT_EQ(b->regs_per_thread, r.regs_per_thread);
            CHECK_INT_EQ(b->stack_bytes_per_thread, r.local_bytes_per_thread);
            /* cuobjdump counts the per-block reserve in SHARED when a kernel has any smem */
            int table_static = b->static_smem_bytes;
            if (table_static >= d->limits.smem_reserved_per_block_bytes && table_static > 0)
                table_static -= d->limits.smem_reserved_per_block_bytes;
            CHECK_INT_EQ(table_static, r.static_smem_bytes);
        }
    }
    CHECK_INT_EQ(compared, occ_variant_count());
}

int main(void)
{
    gpu_test_require_device();
    static OccDevice d;
    char err[256];
    if (occ_device_open(0, &d, err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    printf("%s (%s), %d SMs\n", d.name, d.arch_name, d.sm_count);
    test_padding_matches_runtime(&d);
    test_build_table_matches_runtime(&d);
    return check_done();
}
