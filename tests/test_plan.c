/* tests/test_plan.c: occupancy levels and sweep points on sm_90, block 128 (4 warps per block,
 * 64 warps per SM: levels are multiples of 6.25%). */
#include "catalog.h"
#include "check.h"
#include "plan.h"

static const OccArchLimits *sm90(void) { return occ_arch_find("sm_90"); }

static void test_range_every_level(void)
{
    OccOccSpec spec = {.is_list = 0, .lo_pct = 25, .hi_pct = 100, .step_pct = 0};
    OccLevel lv[OCC_MAX_LEVELS];
    char notes[256];
    int n = occ_plan_levels(sm90(), 128, &spec, lv, OCC_MAX_LEVELS, notes, sizeof notes);
    CHECK_INT_EQ(n, 13); /* 4..16 blocks of 4 warps */
    CHECK_INT_EQ(lv[0].blocks_per_sm, 4);
    CHECK_NEAR(lv[0].level_pct, 25.0, 1e-12);
    CHECK_INT_EQ(lv[12].blocks_per_sm, 16);
    CHECK_NEAR(lv[12].level_pct, 100.0, 1e-12);
    CHECK_STR_EQ(notes, "");
    /* Blocks of 256 threads: 8 warps, levels in 12.5% steps. */
    n = occ_plan_levels(sm90(), 256, &spec, lv, OCC_MAX_LEVELS, notes, sizeof notes);
    CHECK_INT_EQ(n, 7);
    CHECK_NEAR(lv[1].level_pct, 37.5, 1e-12);
}

static void test_list_maps_to_nearest(void)
{
    OccOccSpec spec = {.is_list = 1, .pct = {30, 50, 100, 51}, .n_pct = 4};
    OccLevel lv[OCC_MAX_LEVELS];
    char notes[256];
    int n = occ_plan_levels(sm90(), 128, &spec, lv, OCC_MAX_LEVELS, notes, sizeof notes);
    CHECK_INT_EQ(n, 3); /* 51% maps to 50% again: one level */
    CHECK_INT_EQ(lv[0].blocks_per_sm, 5);
    CHECK_NEAR(lv[0].level_pct, 31.25, 1e-12);
    CHECK_NEAR(lv[0].asked_pct, 30.0, 1e-12);
    CHECK_STR_EQ(notes, "asked 30% -> 31.25%; asked 51% -> 50%");
    CHECK_INT_EQ(lv[2].blocks_per_sm, 16);
}

static void test_range_with_step_and_empty_range(void)
{
    OccOccSpec spec = {.is_list = 0, .lo_pct = 25, .hi_pct = 100, .step_pct = 25};
    OccLevel lv[OCC_MAX_LEVELS];
    char notes[256];
    int n = occ_plan_levels(sm90(), 128, &spec, lv, OCC_MAX_LEVELS, notes, sizeof notes);
    CHECK_INT_EQ(n, 4);
    CHECK_INT_EQ(lv[1].blocks_per_sm, 8);
    /* 199 asked values, far more than OCC_MAX_LEVELS, land on the 16 levels once each. */
    spec = (OccOccSpec){.is_list = 0, .lo_pct = 1, .hi_pct = 100, .step_pct = 0.5};
    n = occ_plan_levels(sm90(), 128, &spec, lv, OCC_MAX_LEVELS, notes, sizeof notes);
    CHECK_INT_EQ(n, 16);
    CHECK_INT_EQ(lv[15].blocks_per_sm, 16);
    /* 26..30 holds no level of 6.25% steps: the nearest to 26 is 25%. */
    spec = (OccOccSpec){.is_list = 0, .lo_pct = 26, .hi_pct = 30, .step_pct = 0};
    n = occ_plan_levels(sm90(), 128, &spec, lv, OCC_MAX_LEVELS, notes, sizeof notes);
    CHECK_INT_EQ(n, 1);
    CHECK_INT_EQ(lv[0].blocks_per_sm, 4);
    CHECK_CONTAINS(notes, "asked 26% -> 25%");
}

/* Two variants of one (U, V): natural with 64 registers (at most 50% on sm_90) and its capped
 * twin with 32 registers. */
static const OccVariantInfo infos[] = {
    {"reduce_u8_v16", "reduce", "stream", 8, 16, 0},
    {"reduce_u8_v16_lbfull", "reduce", "stream", 8, 16, 1},
    {"copy_u8_v16", "copy", "stream", 8, 16, 0},
};
static const OccVariantResources res[] = {{64, 0, 33}, {32, 176, 33}, {40, 0, 0}};

static int build(OccLever lever, OccPoint *pts, int max)
{
    OccOptions o;
    occ_options_defaults(&o);
    o.families = 1u << occ_family_find("reduce", NULL);
    o.lever = lever;
    o.unroll[0] = 8; o.n_unroll = 1;
    o.vec_bytes[0] = 16; o.n_vec = 1;
    OccOccSpec spec = {.is_list = 1, .pct = {25, 50, 75, 100}, .n_pct = 4};
    OccLevel lv[OCC_MAX_LEVELS];
    char notes[128], err[128];
    int nl = occ_plan_levels(sm90(), o.block_threads, &spec, lv, OCC_MAX_LEVELS, notes, sizeof notes);
    return occ_plan_build(sm90(), &o, infos, res, 3, lv, nl, pts, max, err, sizeof err);
}

static void test_levers(void)
{
    OccPoint p[16];
    /* pad: natural variant only; 75% and 100% need <= 40 / 32 registers: skip rows. */
    CHECK_INT_EQ(build(OCC_LEVER_PAD, p, 16), 4);
    CHECK(p[0].reachable && p[1].reachable && !p[2].reachable && !p[3].reachable);
    CHECK_CONTAINS(p[3].skip_reason, "registers");
    CHECK_INT_EQ(p[0].model.blocks_per_sm, 4);
    CHECK(p[0].pad_bytes > 0); /* 4 blocks of 128 threads need padding to keep the 5th out */
    /* auto: the capped twin takes over where the natural count cannot reach. */
    CHECK_INT_EQ(build(OCC_LEVER_AUTO, p, 16), 4);
    CHECK_INT_EQ(p[1].variant_index, 0);
    CHECK_INT_EQ(p[1].lever, OCC_LEVER_PAD);
    CHECK_INT_EQ(p[3].variant_index, 1);
    CHECK_INT_EQ(p[3].lever, OCC_LEVER_BOUNDS);
    CHECK(p[3].reachable);
    CHECK_INT_EQ(p[3].pad_bytes, 0); /* 16 blocks: threads are the limit, no padding needed */
    CHECK_INT_EQ(p[3].model.limiter, OCC_LIMIT_WARPS);
    /* both: two rows per level, the natural one a skip where unreachable. */
    CHECK_INT_EQ(build(OCC_LEVER_BOTH, p, 16), 8);
    CHECK_INT_EQ(p[6].variant_index, 0);
    CHECK(!p[6].reachable);
    CHECK_INT_EQ(p[7].variant_index, 1);
    CHECK(p[7].reachable);
    /* bounds: the capped twin everywhere. */
    CHECK_INT_EQ(build(OCC_LEVER_BOUNDS, p, 16), 4);
    CHECK(p[0].variant_index == 1 && p[0].reachable);
    /* too many points for the array is an error, not a truncation */
    CHECK_INT_EQ(build(OCC_LEVER_BOTH, p, 5), -1);
}

int main(void)
{
    test_range_every_level();
    test_list_maps_to_nearest();
    test_range_with_step_and_empty_range();
    test_levers();
    return check_done();
}
