/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_plan_blocks.c: block size as a sweep axis on sm_90 (64 warps, 32 blocks, 65536
 * registers per SM): each block size its own whole-block levels, the requested levels mapped per
 * block size, points at their level's block size, one carveout for every block size, and a block
 * size the registers or the arch forbid. */
#include <string.h>

#include "check.h"
#include "plan.h"

static const OccArchLimits *sm90(void) { return occ_arch_find("sm_90"); }

static OccVariantResources res[256];

static void test_level_sets(void)
{
    const int blocks[] = {128, 256, 512, 1024};
    OccOccSpec range = {.is_list = 0, .lo_pct = 6.25, .hi_pct = 100, .step_pct = 0};
    OccLevel lv[OCC_MAX_LEVELS];
    char notes[2048], err[128];
    /* 16 + 8 + 4 + 2 levels: 4, 8, 16 and 32 warps per block of 64. */
    CHECK_INT_EQ(occ_plan_block_levels(sm90(), blocks, 4, &range, lv, OCC_MAX_LEVELS, notes,
                                       sizeof notes, err, sizeof err),
                 30);
    CHECK_INT_EQ(lv[0].block_threads, 128);
    CHECK_NEAR(lv[0].level_pct, 6.25, 1e-9);
    CHECK_INT_EQ(lv[16].block_threads, 256);
    CHECK_NEAR(lv[16].level_pct, 12.5, 1e-9);
    CHECK_INT_EQ(lv[28].block_threads, 1024);
    CHECK_INT_EQ(lv[28].blocks_per_sm, 1);
    CHECK_NEAR(lv[28].level_pct, 50, 1e-9);
    CHECK_INT_EQ(lv[29].blocks_per_sm, 2);
    CHECK_CONTAINS(notes, "block 128: reaches 16 levels, 6.25%..100% in steps of 6.25%; visits "
                          "6.25%, 12.5%,");
    CHECK_CONTAINS(notes, "\nblock 1024: reaches 2 levels, 50%..100% in steps of 50%; visits "
                          "50%, 100%\n");
    /* A list maps per block size: 25% is a level of 128 but not of 1024 (-> 50%); 75% -> 50% and
     * 100% stay two levels. */
    OccOccSpec list = {.is_list = 1, .pct = {25, 75, 100}, .n_pct = 3};
    const int two[] = {128, 1024};
    CHECK_INT_EQ(occ_plan_block_levels(sm90(), two, 2, &list, lv, OCC_MAX_LEVELS, notes,
                                       sizeof notes, err, sizeof err),
                 5);
    CHECK_INT_EQ(lv[3].block_threads, 1024);
    CHECK_NEAR(lv[3].asked_pct, 25, 1e-9);
    CHECK_NEAR(lv[3].level_pct, 50, 1e-9);
    CHECK_STR_EQ(notes, "block 128: reaches 16 levels, 6.25%..100% in steps of 6.25%; visits "
                        "25%, 75%, 100%\n"
                        "block 1024: reaches 2 levels, 50%..100% in steps of 50%; visits 50%, "
                        "100%; asked 25% -> 50%; asked 75% -> 50%\n");
    /* One warp per block: the 32-block limit stops at 50%. */
    const int one[] = {32};
    OccOccSpec all = {.is_list = 0, .lo_pct = 1, .hi_pct = 100, .step_pct = 0};
    CHECK_INT_EQ(occ_plan_block_levels(sm90(), one, 1, &all, lv, OCC_MAX_LEVELS, notes,
                                       sizeof notes, err, sizeof err),
                 32);
    CHECK_CONTAINS(notes, "block 32: reaches 32 levels, 1.5625%..50% in steps of 1.5625%");
    /* Above the arch's maximum: refused by name (the option allows 1024, every arch's). */
    const int big[] = {256, 2048};
    CHECK_INT_EQ(occ_plan_block_levels(sm90(), big, 2, &range, lv, OCC_MAX_LEVELS, notes,
                                       sizeof notes, err, sizeof err),
                 -1);
    CHECK_STR_EQ(err, "--block: 2048 threads exceed sm_90's maximum of 1024 per block");
}

/* Points carry their level's block size; a natural variant whose registers do not fit one block
 * of 1024 threads is a skip row there, and a twin of its register ladder (32 registers) reaches
 * both levels. */
static int is_twin_of(int variant, int natural)
{
    return variant >= 0 && occ_variant_at(variant)->reg_cap > 0 &&
           occ_variant_at(variant)->natural == natural;
}

static void test_points_per_block(void)
{
    OccOptions o;
    occ_options_defaults(&o);
    const int nat = occ_variant_find("reduce_u8_v8");
    for (int i = 0; i < occ_variant_count(); i++) res[i] = (OccVariantResources){32, 0, 176, 4};
    res[nat] = (OccVariantResources){72, 0, 176, 8};
    o.families = 1u << occ_family_find("reduce", NULL);
    o.no_loaded = 1; /* no load levels (test_plan.c: test_loaded_levels) */
    o.unroll[0] = 8, o.n_unroll = 1;
    o.vec_bytes[0] = 8, o.n_vec = 1;
    o.block_threads[0] = 256, o.block_threads[1] = 1024, o.n_block_threads = 2;
    o.lever = OCC_LEVER_BOTH;
    OccOccSpec list = {.is_list = 1, .pct = {50, 100}, .n_pct = 2};
    OccLevel lv[OCC_MAX_LEVELS];
    char notes[1024], err[128];
    const int nl = occ_plan_block_levels(sm90(), o.block_threads, 2, &list, lv, OCC_MAX_LEVELS,
                                         notes, sizeof notes, err, sizeof err);
    CHECK_INT_EQ(nl, 4);
    OccPlan plan = {0};
    CHECK_INT_EQ(occ_plan_build(sm90(), 0, &o, res, lv, nl, &plan, err, sizeof err), 8);
    const OccPoint *p = plan.points;
    CHECK_INT_EQ(p[0].block_threads, 256);
    CHECK(!p[0].reachable); /* 72 registers: 3 blocks of 256 threads */
    CHECK(is_twin_of(p[1].variant_index, nat));
    CHECK_INT_EQ(p[1].model.blocks_per_sm, 4); /* 50% of 64 warps: 4 blocks of 8 warps */
    CHECK_INT_EQ(p[4].block_threads, 1024);
    CHECK_INT_EQ(p[4].variant_index, nat);
    CHECK(!p[4].reachable); /* 72 x 1024 registers > 65536 */
    CHECK_CONTAINS(p[4].skip_reason, "register");
    CHECK(is_twin_of(p[5].variant_index, nat));
    CHECK(p[5].reachable);
    CHECK_INT_EQ(p[5].model.blocks_per_sm, 1);
    CHECK(p[5].pad_bytes > 0); /* 1 block of 1024: padding keeps the second out */
    CHECK_INT_EQ(p[7].model.blocks_per_sm, 2);
    CHECK_INT_EQ(p[7].block_threads, 1024);
    for (int i = 0; i < plan.n; i++) CHECK_INT_EQ(p[i].carveout_bytes, plan.carveout_bytes);
    occ_plan_free(&plan);
}

/* --carveout min with several block sizes: the smallest step that pins every level of each, so
 * the largest any one needs. */
static void test_run_carveout(void)
{
    for (int i = 0; i < occ_variant_count(); i++) res[i] = (OccVariantResources){32, 0, 176, 4};
    const int b32 = occ_plan_carveout_bytes(sm90(), OCC_CARVEOUT_MIN, 32, res, -1);
    const int b1024 = occ_plan_carveout_bytes(sm90(), OCC_CARVEOUT_MIN, 1024, res, -1);
    const int b128 = occ_plan_carveout_bytes(sm90(), OCC_CARVEOUT_MIN, 128, res, -1);
    CHECK_INT_EQ(b32, 132 * 1024);
    CHECK(b1024 < b128 && b128 < b32);
    const int both[] = {1024, 128}, all[] = {1024, 32, 128};
    CHECK_INT_EQ(occ_plan_run_carveout_bytes(sm90(), OCC_CARVEOUT_MIN, both, 2, res, -1), b128);
    CHECK_INT_EQ(occ_plan_run_carveout_bytes(sm90(), OCC_CARVEOUT_MIN, all, 3, res, -1), b32);
    CHECK_INT_EQ(occ_plan_run_carveout_bytes(sm90(), OCC_CARVEOUT_MAX, both, 2, res, -1),
                 228 * 1024);
    /* A family whose variants own a tile gets its own carveout, the others keep theirs: the
     * smem family's largest tile (smem_rw_u*_v16: 2 x 8 x 32 x 16 = 8192 B) + 176 static + the
     * 1 KiB reserve = 9472 B a block (128 B units); 16 blocks of 128 threads = 148 KiB -> the
     * 164 KiB step. A family that owns none (reduce) gets the run's. */
    const int smem = occ_family_find("smem", "rw"), reduce = occ_family_find("reduce", NULL);
    CHECK_INT_EQ(occ_plan_carveout_bytes(sm90(), OCC_CARVEOUT_MIN, 128, res, smem), 164 * 1024);
    CHECK_INT_EQ(occ_plan_carveout_bytes(sm90(), OCC_CARVEOUT_MIN, 128, res, reduce), b128);
    CHECK(b128 < 164 * 1024);
}

int main(void)
{
    test_level_sets();
    test_points_per_block();
    test_run_carveout();
    return check_done();
}
