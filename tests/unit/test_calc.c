/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_calc.c: the occupancy calculator (harness/cli/calc.h) on worked occupancy
 * examples (sm_80 at block 256 and others), its carveouts, and its two inverses checked by feeding
 * each answer back into the model. */
#include "calc.h"
#include "check.h"

#include "arch.h"
#include "occupancy.h"

static OccCalc calc_on(const OccArchLimits *a, int block, int regs, long long smem,
                       OccCarveout carveout, double target_pct, int target_blocks)
{
    OccCalcInput in = {block, regs, smem, carveout, target_pct, target_blocks};
    OccCalc c = {.result = {.blocks_per_sm = -1}, .target_regs = -2, .pad_bytes = -2};
    const char *why = NULL;
    if (occ_calc_run(a, &in, &c, &why) != 0)
        fprintf(stderr, "    %s block %d regs %d smem %lld rejected: %s\n", a->name, block, regs,
                smem, why);
    return c;
}

static OccCalc calc(const char *arch, int block, int regs, long long smem)
{
    return calc_on(occ_arch_find(arch), block, regs, smem, OCC_CARVEOUT_MAX, 0, 0);
}

/* The model's blocks/SM for a kernel, to check an inverse's answer against. */
static int blocks(const OccArchLimits *a, int block, int regs, int static_smem, int dyn_smem)
{
    OccKernelUsage use = {block, regs, static_smem, dyn_smem};
    OccResult r;
    return occ_model_occupancy(a, &use, &r, NULL) == 0 ? r.blocks_per_sm : -1;
}

/* sm_80 (A100), block 256: 32 regs and 16 KB give min(8, 8, 9, 32) = 8 blocks, 100%; 40 regs
 * give 6 (75%), 64 give 4 (50%). The hand count writes the shared memory term as 10 (164 / 16):
 * with the 1 KB reserved per block, a block allocates 17 KB and 164 KB hold 9. */
static void test_a100_block_256(void)
{
    OccCalc c = calc("sm_80", 256, 32, 16 * 1024);
    CHECK_INT_EQ(c.result.by_warps, 8);
    CHECK_INT_EQ(c.result.by_regs, 8);
    CHECK_INT_EQ(c.result.by_smem, 9);
    CHECK_INT_EQ(c.result.smem_per_block_alloc_bytes, 17 * 1024);
    CHECK_INT_EQ(c.result.by_blocks, 32);
    CHECK_INT_EQ(c.result.blocks_per_sm, 8);
    CHECK_INT_EQ(c.result.warps_per_sm, 64);
    CHECK_NEAR(c.result.occupancy_pct, 100.0, 1e-9);
    CHECK_INT_EQ(c.result.limiter, OCC_LIMIT_WARPS);
    CHECK_INT_EQ(c.carveout_bytes, 164 * 1024);

    /* 40 regs x 32 lanes = 1280 = 5 units of 256; 8 warps x 1280 = 10240 per block. */
    c = calc("sm_80", 256, 40, 16 * 1024);
    CHECK_INT_EQ(c.result.regs_per_warp, 1280);
    CHECK_INT_EQ(c.result.warps_per_block * c.result.regs_per_warp, 10240);
    CHECK_INT_EQ(c.result.by_regs, 6);
    CHECK_INT_EQ(c.result.blocks_per_sm, 6);
    CHECK_INT_EQ(c.result.warps_per_sm, 48);
    CHECK_NEAR(c.result.occupancy_pct, 75.0, 1e-9);
    CHECK_INT_EQ(c.result.limiter, OCC_LIMIT_REGS);

    c = calc("sm_80", 256, 64, 0);
    CHECK_INT_EQ(c.result.blocks_per_sm, 4);
    CHECK_NEAR(c.result.occupancy_pct, 50.0, 1e-9);
    CHECK_INT_EQ(c.result.limiter, OCC_LIMIT_REGS);
}

/* Block 256 with 48 KB per block "on a 96 KB SM": 2 blocks although threads allow 8. That is a
 * Volta figure (96 KB, no per-block reserve); sm_80's nearest carveout step, 100 KB, gives the
 * same 2 with the reserve, and a literal 96 KB with the reserve holds only one 49 KB block. */
static void test_smem_limited(void)
{
    const OccArchLimits *a100 = occ_arch_find("sm_80");
    OccArchLimits at100 = occ_arch_in_carveout(a100, 100 * 1024);
    OccCalc c = calc_on(&at100, 256, 32, 48 * 1024, OCC_CARVEOUT_MAX, 0, 0);
    CHECK_INT_EQ(c.result.by_warps, 8);
    CHECK_INT_EQ(c.result.by_smem, 2);
    CHECK_INT_EQ(c.result.blocks_per_sm, 2);
    CHECK_INT_EQ(c.result.limiter, OCC_LIMIT_SMEM);
    CHECK_NEAR(c.result.occupancy_pct, 25.0, 1e-9);

    OccArchLimits volta = occ_arch_in_carveout(a100, 96 * 1024);
    CHECK_INT_EQ(calc_on(&volta, 256, 32, 48 * 1024, OCC_CARVEOUT_MAX, 0, 0).result.blocks_per_sm,
                 1);
    volta.smem_reserved_per_block_bytes = 0;
    volta.smem_per_block_optin_bytes = 96 * 1024;
    CHECK_INT_EQ(calc_on(&volta, 256, 32, 48 * 1024, OCC_CARVEOUT_MAX, 0, 0).result.blocks_per_sm,
                 2);
}

/* The register budget for a target: r <= 65536 / (occ x 2048), rounded down to the allocation
 * granularity (8 registers a thread: 256 per warp): 100% -> 32, 75% -> 42 -> 40, and
 * __launch_bounds__(256, 4)'s 4 blocks (50%) -> 64. Each answer fed back reaches the target and
 * one register more does not. */
static void test_regs_for_target(void)
{
    const OccArchLimits *h = occ_arch_find("sm_90");
    static const struct {
        int block;
        double pct;
        int regs, blocks;
    } cases[] = {{256, 100, 32, 8}, {1024, 100, 32, 2}, {256, 75, 40, 6},
                 {256, 50, 64, 4},  {256, 70, 40, 6},   {128, 12.5, 255, 2}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        OccCalc c = calc_on(h, cases[i].block, 32, 0, OCC_CARVEOUT_MAX, cases[i].pct, 0);
        CHECK_INT_EQ(c.target_regs, cases[i].regs);
        CHECK_INT_EQ(c.target_result.blocks_per_sm, cases[i].blocks);
        CHECK(c.target_result.occupancy_pct >= cases[i].pct);
        CHECK_INT_EQ(blocks(h, cases[i].block, c.target_regs, 0, 0), cases[i].blocks);
        if (c.target_regs < h->max_regs_per_thread)
            CHECK(blocks(h, cases[i].block, c.target_regs + 1, 0, 0) < cases[i].blocks);
    }

    /* Out of reach whatever the registers: 32-thread blocks stop at the 32-block limit (50%);
     * 40 KB of shared memory a block holds 5 blocks of 256 (62.5%). */
    OccCalc c = calc_on(h, 32, 32, 0, OCC_CARVEOUT_MAX, 100, 0);
    CHECK_INT_EQ(c.target_regs, -1);
    CHECK_INT_EQ(c.target_result.blocks_per_sm, 32);
    CHECK_INT_EQ(c.target_result.limiter, OCC_LIMIT_BLOCKS);
    c = calc_on(h, 256, 32, 40 * 1024, OCC_CARVEOUT_MAX, 75, 0);
    CHECK_INT_EQ(c.target_regs, -1);
    CHECK_INT_EQ(c.target_result.blocks_per_sm, 5);
    CHECK_INT_EQ(c.target_result.limiter, OCC_LIMIT_SMEM);
}

/* A larger block is not a higher occupancy: at 48 registers 256-thread blocks fit 5 (40 warps),
 * 512-thread blocks 2 (32 warps). */
static void test_whole_blocks(void)
{
    OccCalc c = calc("sm_90", 256, 48, 0);
    CHECK_INT_EQ(c.result.blocks_per_sm, 5);
    CHECK_INT_EQ(c.result.warps_per_sm, 40);
    c = calc("sm_90", 512, 48, 0);
    CHECK_INT_EQ(c.result.blocks_per_sm, 2);
    CHECK_INT_EQ(c.result.warps_per_sm, 32);
}

/* The padding for exactly K blocks, on every arch and every K the other limits allow: fed back
 * as dynamic shared memory it gives K, and one allocation unit more gives fewer. */
static void test_padding_for_blocks(void)
{
    for (size_t i = 0; i < occ_arch_count(); i++) {
        const OccArchLimits *a = occ_arch_at(i);
        for (int k = 1; k <= a->max_blocks_per_sm; k++) {
            OccCalc c = calc_on(a, 32, 32, 1000, OCC_CARVEOUT_MAX, 0, k);
            CHECK(c.pad_bytes >= 0);
            if (c.pad_bytes < 0) {
                fprintf(stderr, "    %s k %d: %s\n", a->name, k, c.pad_why);
                continue;
            }
            CHECK_INT_EQ(c.pad_result.blocks_per_sm, k);
            CHECK_INT_EQ(blocks(a, 32, 32, 1000, c.pad_bytes), k);
            if (blocks(a, 32, 32, 1000, 0) != k)
                CHECK(blocks(a, 32, 32, 1000, c.pad_bytes + a->smem_alloc_unit_bytes) < k);
        }
    }
    /* Registers allow 6 blocks of 256 x 40 regs: 7 cannot be pinned, 6 needs no padding. */
    const OccArchLimits *h = occ_arch_find("sm_90");
    OccCalc c = calc_on(h, 256, 40, 0, OCC_CARVEOUT_MAX, 0, 7);
    CHECK_INT_EQ(c.pad_bytes, -1);
    CHECK_STR_EQ(c.pad_why, "registers allow only 6 blocks/SM");
    c = calc_on(h, 256, 40, 0, OCC_CARVEOUT_MAX, 0, 6);
    CHECK_INT_EQ(c.pad_bytes, 0);
    c = calc_on(occ_arch_find("sm_75"), 64, 32, 0, OCC_CARVEOUT_MAX, 0, 17);
    CHECK_INT_EQ(c.pad_bytes, -1);
    CHECK_STR_EQ(c.pad_why, "target exceeds the SM's block limit");
}

/* The carveout: max is the arch's largest step; min the smallest step holding max's blocks. */
static void test_carveout(void)
{
    const OccArchLimits *h = occ_arch_find("sm_90");
    /* 6 blocks x 17408 B = 102 KiB: the 132 KiB step, L1 keeps 124 KiB. */
    OccCalc c = calc_on(h, 256, 40, 16 * 1024, OCC_CARVEOUT_MIN, 0, 0);
    CHECK_INT_EQ(c.max_carveout_bytes, 228 * 1024);
    CHECK_INT_EQ(c.min_carveout_bytes, 132 * 1024);
    CHECK_INT_EQ(c.carveout_bytes, 132 * 1024);
    CHECK_INT_EQ(c.limits.smem_per_sm_bytes, 132 * 1024);
    CHECK_INT_EQ(c.result.blocks_per_sm, 6);
    CHECK_INT_EQ(c.result.by_smem, 7);
    c = calc_on(h, 256, 40, 16 * 1024, OCC_CARVEOUT_MAX, 0, 0);
    CHECK_INT_EQ(c.carveout_bytes, 228 * 1024);
    CHECK_INT_EQ(c.result.by_smem, 13);
    /* No shared memory of its own: the reserve alone, 8 blocks x 1 KiB, fits the 8 KiB step. */
    CHECK_INT_EQ(calc_on(h, 256, 32, 0, OCC_CARVEOUT_MIN, 0, 0).carveout_bytes, 8 * 1024);
    /* sm_75 reserves nothing: its smallest step. */
    CHECK_INT_EQ(calc_on(occ_arch_find("sm_75"), 256, 32, 0, OCC_CARVEOUT_MIN, 0, 0)
                     .carveout_bytes,
                 32 * 1024);
}

static void test_rejected(void)
{
    const OccArchLimits *h = occ_arch_find("sm_90");
    OccCalcInput in = {256, 32, 228 * 1024, OCC_CARVEOUT_MAX, 0, 0};
    OccCalc c;
    const char *why = NULL;
    CHECK_INT_EQ(occ_calc_run(h, &in, &c, &why), -1);
    CHECK_STR_EQ(why, "exceeds per-block shared memory limit");
    in.smem_bytes = 1LL << 40;
    why = NULL;
    CHECK_INT_EQ(occ_calc_run(h, &in, &c, &why), -1);
    CHECK_STR_EQ(why, "exceeds per-block shared memory limit");
    in = (OccCalcInput){1024, 255, 0, OCC_CARVEOUT_MAX, 0, 0};
    CHECK_INT_EQ(occ_calc_run(h, &in, &c, &why), -1);
    CHECK_STR_EQ(why, "registers per block exceed the register file");
    in.block_threads = 2048;
    CHECK_INT_EQ(occ_calc_run(h, &in, &c, &why), -1);
    CHECK_STR_EQ(why, "block size is not in 1..max threads per block");
}

int main(void)
{
    test_a100_block_256();
    test_smem_limited();
    test_regs_for_target();
    test_whole_blocks();
    test_padding_for_blocks();
    test_carveout();
    test_rejected();
    return check_done();
}
