/* SPDX-License-Identifier: Apache-2.0 */
/* tests/gpu/test_gpu_async.c: the async and wgmma families on the GPU, each through its family ops
 * (setup, bind, launch, verify: harness/families/family_async.c, family_wgmma.c) at one point of
 * two blocks per SM with no padding: the bulk copies (one warp; a producer warp and a consumer
 * warp group) and wgmma where the GPU has them (sm_90+, sm_90 only), cp.async everywhere. Every
 * launch must verify "ok" (closed forms: the buffer's sum; D = groups x A x B), twice in a row
 * (the claim counters are back at 0 after a launch), and a residency-probe launch must run too.
 * On a GPU without an instruction its modes are left out with a note. Exit 77 without a GPU
 * (OCC_REQUIRE_GPU=1: a failure). */
#include <string.h>

#include "gpu_test.h"
#include "catalog.h"
#include "device.h"
#include "family.h"

static void no_meta(void *user, const char *key, const char *fmt, ...)
{
    (void)user, (void)key, (void)fmt;
}

/* One point of variant `name` at 2 blocks per SM: set up, bind, verify twice, probe once. */
static void run_point(const OccDevice *d, OccTimer *t, const char *name)
{
    const int i = occ_variant_find(name);
    CHECK(i >= 0);
    if (i < 0) return;
    const OccVariantInfo *v = occ_variant_at(i);
    const OccFamilyInfo *fi = occ_family_at(v->family);
    char why[128];
    if (occ_family_arch_skip(fi, d->cc_major, d->cc_minor, why, sizeof why)) {
        printf("%s: left out (%s)\n", name, why);
        return;
    }
    const OccFamilyOps *ops = occ_family_ops(v->family);
    const int blocks_per_sm = 2, block = v->block_threads;
    CHECK(block > 0);
    const OccShape s = {.launch = {blocks_per_sm * d->sm_count, block,
                                   (size_t)v->own_dyn_smem_bytes, t->stream},
                        .blocks_per_sm = blocks_per_sm, .sm_count = d->sm_count};
    GPU_OK(cudaFuncSetAttribute(ops->kernel(v), cudaFuncAttributeMaxDynamicSharedMemorySize,
                                v->own_dyn_smem_bytes));
    OccStreamBuffers sb = {.want_bytes = 96ll << 20};
    OccOptions opt;
    memset(&opt, 0, sizeof opt);
    const OccTimingPolicy policy = {0};
    const OccRunEnv env = {.dev = d, .timer = t, .policy = &policy, .opt = &opt, .stream = &sb,
                           .max_grid_blocks = s.launch.grid_blocks, .max_block_threads = block,
                           .meta = no_meta};
    void *state = NULL;
    char err[256] = "", skip[128] = "", status[160] = "";
    const int set_up = ops->setup(&state, &env, err, sizeof err) == 0;
    CHECK(set_up);
    if (!set_up) {
        fprintf(stderr, "%s: setup: %s\n", name, err);
        return;
    }
    OccRow r;
    occ_row_init(&r);
    long long touched = 0;
    CHECK_INT_EQ(ops->bind(state, v, &s, &r, &touched, skip, sizeof skip), 0);
    CHECK(r.bytes_per_launch > 0 || r.flops_per_launch > 0);
    for (int k = 0; k < 2; k++) {
        GPU_OK(ops->verify(state, t->stream, &r, status, sizeof status));
        CHECK(strcmp(status, "ok") == 0);
        if (strcmp(status, "ok") != 0)
            fprintf(stderr, "%s launch %d: %s (verify_err %g)\n", name, k, status, r.verify_err);
    }
    unsigned long long *probe = NULL;
    GPU_OK(cudaMalloc((void **)&probe, (size_t)s.launch.grid_blocks * 3 * sizeof *probe));
    GPU_OK(ops->launch(state, t->stream, probe));
    GPU_OK(cudaStreamSynchronize(t->stream));
    GPU_OK(cudaFree(probe));
    ops->teardown(state);
    printf("%s: %d blocks of %d threads, %s\n", name, s.launch.grid_blocks, block, status);
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
    OccTimer t;
    GPU_OK(occ_timer_create(&t));
    printf("%s (%s), %d SMs\n", d.name, d.arch_name, d.sm_count);
    const char *points[] = {"async_bulk_s2_c8k_w1", "async_bulk_s4_c16k_w5", "async_cp_s4_u4_w4",
                            "async_cp_s1_u1_w1", "wgmma_f16_n128_ss_g2", "wgmma_bf16_n64_rs_g4",
                            "wgmma_f16_n256_ss_g2_noswz"};
    for (size_t i = 0; i < sizeof points / sizeof points[0]; i++) run_point(&d, &t, points[i]);
    occ_timer_destroy(&t);
    return check_done();
}
