/* tests/test_gpu_model_vs_api.c: on the real GPU, the offline model must agree with the runtime.
 * (1) For every variant, block size 128 and 256, and every level of a full sweep, the padding the
 *     model picks gives exactly the target blocks/SM per cudaOccupancyMaxActiveBlocksPerMultiprocessor
 *     (with the carveout the sweep sets), and the model's "unreachable" agrees with the runtime.
 * (2) The build-time resource table (what --dry-run --arch uses) matches cudaFuncGetAttributes. */
#include "gpu_test.h"
#include "kernel_resources.h"
#include "occupancy.h"
#include "catalog.h"
#include "family.h"
#include "device.h"

static void test_padding_matches_runtime(const OccDevice *d)
{
    int mismatches = 0, points = 0;
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        const void *k = occ_family_ops(v->family)->kernel(v);
        OccVariantResources r;
        cudaError_t e;
        if (occ_device_kernel_resources(k, &r, &e) != 0) GPU_OK(e);
        GPU_OK(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                    cudaSharedmemCarveoutMaxShared));
        for (int block = 128; block <= 256; block += 128) {
            int warps = block / 32, kmax = d->limits.max_warps_per_sm / warps;
            for (int target = 1; target <= kmax; target++) {
                OccKernelUsage use = {block, r.regs_per_thread, r.static_smem_bytes, 0};
                int pad = 0, got = -1;
                const char *why = NULL;
                int reachable = occ_model_padding_for_blocks(&d->limits, &use, target, &pad, &why) == 0;
                points++;
                GPU_OK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, pad));
                GPU_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&got, k, block, (size_t)pad));
                /* Unreachable: the runtime with no padding must give fewer blocks than the target. */
                int ok = reachable ? got == target : got < target;
                if (!ok && mismatches++ < 10)
                    fprintf(stderr, "%s block %d target %d: model %s (pad %d), runtime %d\n",
                            v->name, block, target, reachable ? "reachable" : why, pad, got);
            }
        }
    }
    printf("%d (variant, block, level) points compared\n", points);
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
