/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_plan.c: occupancy levels and sweep points on sm_90, block 128 (4 warps per block,
 * 64 warps per SM: levels are multiples of 6.25%). */
#include "check.h"
#include "loaded_levels.h"
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

/* reduce_u8_v8 of the catalog with 64 registers (at most 50% on sm_90), reduce_u8_v16 with 55
 * (56.25%, its natural count on sm_90), each register-capped twin with min(cap, natural) and a
 * stack frame where the cap is below the natural count; every other variant gets 40. */
static OccVariantResources res[256];
static int nat, cap;

static void set_resources(void)
{
    for (int i = 0; i < occ_variant_count(); i++) res[i] = (OccVariantResources){40, 0, 0, 0};
    res[occ_variant_find("reduce_u8_v8")] = (OccVariantResources){64, 0, 33, 8};
    res[occ_variant_find("reduce_u8_v16")] = (OccVariantResources){55, 0, 33, 8};
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        const int natural = res[v->natural].regs_per_thread;
        if (v->reg_cap)
            res[i] = (OccVariantResources){v->reg_cap < natural ? v->reg_cap : natural,
                                           v->reg_cap < natural ? 176 : 0, 33, 8};
    }
}

/* The plan of reduce U x V at the levels of spec through lever. */
static int build_uv(OccLever lever, int u, int v, const OccOccSpec *spec, OccPlan *plan)
{
    OccOptions o;
    occ_options_defaults(&o);
    set_resources();
    o.families = 1u << occ_family_find("reduce", NULL);
    o.no_loaded = 1; /* the load levels the model adds: test_loaded_levels */
    o.lever = lever;
    o.unroll[0] = u; o.n_unroll = 1;
    o.vec_bytes[0] = v; o.n_vec = 1;
    OccLevel lv[OCC_MAX_LEVELS];
    char notes[128], err[128];
    int nl = occ_plan_levels(sm90(), o.block_threads[0], spec, lv, OCC_MAX_LEVELS, notes, sizeof notes);
    occ_plan_free(plan);
    return occ_plan_build(sm90(), 0, &o, res, lv, nl, plan, err, sizeof err);
}

/* reduce_u8_v8 at 25, 50, 75 and 100%; cap is its _r32 twin. */
static int build(OccLever lever, OccPlan *plan)
{
    nat = occ_variant_find("reduce_u8_v8");
    cap = occ_variant_find("reduce_u8_v8_r32");
    const OccVariantInfo *v = occ_variant_at(nat);
    CHECK(nat >= 0 && cap >= 0 && v->n_capped == 4 && v->capped[3] == cap);
    OccOccSpec spec = {.is_list = 1, .pct = {25, 50, 75, 100}, .n_pct = 4};
    return build_uv(lever, 8, 8, &spec, plan);
}

static void test_levers(void)
{
    OccPlan plan = {0};
    const OccPoint *p;
    /* pad: natural variant only; 75% and 100% need <= 40 / 32 registers: skip rows. */
    CHECK_INT_EQ(build(OCC_LEVER_PAD, &plan), 4);
    p = plan.points;
    CHECK(p[0].reachable && p[1].reachable && !p[2].reachable && !p[3].reachable);
    CHECK_CONTAINS(p[3].skip_reason, "registers");
    CHECK_INT_EQ(p[0].model.blocks_per_sm, 4);
    CHECK(p[0].pad_bytes > 0); /* 4 blocks of 128 threads need padding to keep the 5th out */
    CHECK_STR_EQ(p[0].mode, "stream");
    CHECK_INT_EQ(p[0].waves, 1);
    /* auto: the capped twin takes over where the natural count cannot reach. */
    CHECK_INT_EQ(build(OCC_LEVER_AUTO, &plan), 4);
    p = plan.points;
    CHECK_INT_EQ(p[1].variant_index, nat);
    CHECK_INT_EQ(p[1].lever, OCC_LEVER_PAD);
    CHECK_INT_EQ(p[3].variant_index, cap);
    CHECK_INT_EQ(p[3].lever, OCC_LEVER_BOUNDS);
    CHECK(p[3].reachable);
    CHECK_INT_EQ(p[3].pad_bytes, 0); /* 16 blocks: threads are the limit, no padding needed */
    CHECK_INT_EQ(p[3].model.limiter, OCC_LIMIT_WARPS);
    /* both: two rows per level, the natural one a skip where unreachable. */
    CHECK_INT_EQ(build(OCC_LEVER_BOTH, &plan), 8);
    p = plan.points;
    CHECK_INT_EQ(p[6].variant_index, nat);
    CHECK(!p[6].reachable);
    CHECK_INT_EQ(p[7].variant_index, cap);
    CHECK(p[7].reachable);
    CHECK_INT_EQ(p[7].ordinal, 7);
    /* bounds: a capped twin everywhere; 4 blocks is no rung, so the rung with the most
     * registers that fits more (56: 9 blocks) is padded down to it. */
    CHECK_INT_EQ(build(OCC_LEVER_BOUNDS, &plan), 4);
    p = plan.points;
    CHECK(p[0].variant_index == occ_variant_find("reduce_u8_v8_r56") && p[0].reachable);
    CHECK(p[0].pad_bytes > 0);
    CHECK(p[2].variant_index == occ_variant_find("reduce_u8_v8_r40") && p[2].pad_bytes == 0);
    CHECK(p[3].variant_index == cap && p[3].reachable);
    occ_plan_free(&plan);
}

/* The ladder's target: reduce_u8_v16 (55 registers on sm_90: 9 blocks of 128 at most) through the
 * register ladder from its natural limit to 100%. Registers alone set 9 (the _r56 twin, which
 * keeps 55), 10 (_r48), 12 (_r40) and 16 blocks (_r32); 11 and 13..15 need the next rung down
 * and padding. --lever both gives two rows per level, the natural one a skip above 9 blocks. */
static void test_register_ladder(void)
{
    static const struct { int blocks; const char *twin; int padded; } want[] = {
        {9, "reduce_u8_v16_r56", 0},  {10, "reduce_u8_v16_r48", 0}, {11, "reduce_u8_v16_r40", 1},
        {12, "reduce_u8_v16_r40", 0}, {13, "reduce_u8_v16_r32", 1}, {14, "reduce_u8_v16_r32", 1},
        {15, "reduce_u8_v16_r32", 1}, {16, "reduce_u8_v16_r32", 0},
    };
    const int n = (int)(sizeof want / sizeof want[0]);
    OccOccSpec spec = {.is_list = 0, .lo_pct = 56.25, .hi_pct = 100, .step_pct = 0};
    OccPlan plan = {0};
    CHECK_INT_EQ(build_uv(OCC_LEVER_BOUNDS, 8, 16, &spec, &plan), n);
    for (int i = 0; i < n && i < plan.n; i++) {
        const OccPoint *p = &plan.points[i];
        CHECK_INT_EQ(p->level.blocks_per_sm, want[i].blocks);
        CHECK_STR_EQ(occ_point_variant(p), want[i].twin);
        CHECK(p->reachable && p->lever == OCC_LEVER_BOUNDS);
        CHECK_INT_EQ(p->pad_bytes > 0, want[i].padded);
        CHECK_INT_EQ(p->model.limiter, want[i].padded ? OCC_LIMIT_SMEM
                                       : want[i].blocks == 16 ? OCC_LIMIT_WARPS : OCC_LIMIT_REGS);
        CHECK_INT_EQ(p->res.local_bytes_per_thread, want[i].blocks == 9 ? 0 : 176);
    }
    CHECK_INT_EQ(build_uv(OCC_LEVER_BOTH, 8, 16, &spec, &plan), 2 * n);
    for (int i = 0; i + 1 < plan.n; i += 2) {
        CHECK_STR_EQ(occ_point_variant(&plan.points[i]), "reduce_u8_v16");
        CHECK_INT_EQ(plan.points[i].lever, OCC_LEVER_PAD);
        CHECK_INT_EQ(plan.points[i].reachable, i == 0);
        CHECK_INT_EQ(plan.points[i + 1].lever, OCC_LEVER_BOUNDS);
        CHECK_INT_EQ(plan.points[i].level.blocks_per_sm, plan.points[i + 1].level.blocks_per_sm);
    }
    /* A variant without twins (u1: natural registers reach 100%) is a skip row under bounds,
     * not left out; both gives it its pad row only. */
    CHECK_INT_EQ(build_uv(OCC_LEVER_BOUNDS, 1, 4, &spec, &plan), n);
    CHECK_STR_EQ(occ_point_variant(&plan.points[0]), "reduce_u1_v4");
    CHECK(!plan.points[0].reachable && plan.points[0].lever == OCC_LEVER_BOUNDS);
    CHECK_CONTAINS(plan.points[0].skip_reason, "no register-capped twin");
    CHECK_INT_EQ(build_uv(OCC_LEVER_BOTH, 1, 4, &spec, &plan), n);
    CHECK(plan.points[0].reachable && plan.points[0].lever == OCC_LEVER_PAD);
    /* auto: natural at 9 blocks, the ladder above. */
    CHECK_INT_EQ(build_uv(OCC_LEVER_AUTO, 8, 16, &spec, &plan), n);
    CHECK_STR_EQ(occ_point_variant(&plan.points[0]), "reduce_u8_v16");
    CHECK_STR_EQ(occ_point_variant(&plan.points[1]), "reduce_u8_v16_r48");
    occ_plan_free(&plan);
}

/* A sweep whose model uses the loaded-latency curve plans the load levels first (unless
 * --no-loaded); a run without such a family plans none; --mode loaded alone plans them. */
static void test_loaded_levels(void)
{
    OccOptions o;
    OccPlan plan = {0};
    char err[128];
    const int loaded = occ_family_find("chase", "loaded");
    CHECK(loaded >= 0 && occ_family_at(loaded)->shape == OCC_SHAPE_LEVELS);
    for (int i = 0; i < occ_variant_count(); i++) res[i] = (OccVariantResources){32, 0, 0, 0};
    OccLevel lv[2] = {{128, 50, 8, 50}, {128, 100, 16, 100}};
    occ_options_defaults(&o);
    o.families = 1u << occ_family_find("reduce", NULL);
    o.unroll[0] = 4, o.n_unroll = 1;
    o.vec_bytes[0] = 16, o.n_vec = 1;
    CHECK_INT_EQ(occ_plan_build(sm90(), 0, &o, res, lv, 2, &plan, err, sizeof err),
                 OCC_LOADED_LEVELS + 2);
    for (int i = 0; i < OCC_LOADED_LEVELS && i < plan.n; i++) {
        CHECK_INT_EQ(plan.points[i].family, loaded);
        CHECK_INT_EQ(plan.points[i].ordinal, i);
        CHECK_STR_EQ(occ_point_variant(&plan.points[i]), occ_loaded_level_name(i));
        CHECK_STR_EQ(plan.points[i].mode, "loaded");
        CHECK(plan.points[i].reachable && plan.points[i].footprint_bytes == 0);
    }
    if (plan.n == OCC_LOADED_LEVELS + 2) {
        CHECK_STR_EQ(occ_point_variant(&plan.points[0]), "loaded_read_w00_u1");
        CHECK_INT_EQ(plan.points[0].block_threads, 32);
        CHECK_INT_EQ(plan.points[OCC_LOADED_LEVELS - 1].block_threads, 32 * 32);
        CHECK_STR_EQ(occ_point_variant(&plan.points[OCC_LOADED_LEVELS]), "reduce_u4_v16");
    }
    occ_plan_free(&plan);
    o.no_loaded = 1;
    CHECK_INT_EQ(occ_plan_build(sm90(), 0, &o, res, lv, 2, &plan, err, sizeof err), 2);
    occ_plan_free(&plan);
    occ_options_defaults(&o);
    o.families = 1u << occ_family_find("fma", NULL);
    o.unroll[0] = 2, o.n_unroll = 1;
    o.vec_bytes[0] = 4, o.n_vec = 1;
    CHECK_INT_EQ(occ_plan_build(sm90(), 0, &o, res, lv, 2, &plan, err, sizeof err), 2);
    occ_plan_free(&plan);
    occ_options_defaults(&o);
    o.families = 1u << loaded;
    CHECK_INT_EQ(occ_plan_build(sm90(), 0, &o, res, NULL, 0, &plan, err, sizeof err),
                 OCC_LOADED_LEVELS);
    char line[160];
    occ_plan_format_point(&plan.points[6], line, sizeof line);
    CHECK_CONTAINS(line, "loaded_read_w08_u4");
    CHECK_CONTAINS(line, "8 background warps per SM");
    occ_plan_free(&plan);
}

/* A footprint-shaped family plans footprints, its row mode follows --cold, and its variant is
 * named <kernel>_<mode>. */
static void test_footprint_family(void)
{
    OccOptions o;
    occ_options_defaults(&o);
    const int f = occ_family_find("chase", "latency");
    CHECK(f >= 0 && occ_family_at(f)->shape == OCC_SHAPE_FOOTPRINT);
    o.families = 1u << f;
    o.footprint_lo_bytes = 4096;
    o.footprint_hi_bytes = 1 << 20;
    o.cold = 1;
    OccPlan plan = {0};
    char err[128];
    const int n = occ_plan_build(sm90(), 0, &o, res, NULL, 0, &plan, err, sizeof err);
    CHECK(n > 4);
    CHECK_INT_EQ(plan.points[0].footprint_bytes, 4096);
    CHECK_INT_EQ(plan.points[n - 1].footprint_bytes, 1 << 20);
    CHECK_INT_EQ(plan.points[n - 1].ordinal, n - 1);
    CHECK_INT_EQ(plan.points[0].variant_index, -1);
    CHECK_STR_EQ(plan.points[0].mode, "latency-cold");
    CHECK_STR_EQ(occ_point_variant(&plan.points[0]), "chase_latency");
    occ_plan_free(&plan);
    /* 100..200 holds no footprint of 2 lines of 128 B: refused, not a duplicated 128 B */
    o.footprint_lo_bytes = 100;
    o.footprint_hi_bytes = 200;
    CHECK_INT_EQ(occ_plan_build(sm90(), 0, &o, res, NULL, 0, &plan, err, sizeof err), -1);
    CHECK_CONTAINS(err, "--footprint: 100..200 B holds no footprint of 2 lines of --stride 128 B");
    occ_plan_free(&plan);
}

/* Footprints are whole lines of the stride, strictly ascending, at least two lines and at most
 * 1 TiB: 17..2^63-1 once looped forever, 1..1 planned 0 B and 100..200 planned 128 B twice. */
static void test_footprint_bounds(void)
{
    static long long out[512];
    const long long l1 = 256 << 10, l2 = 60LL << 20;
    int n = occ_plan_footprints(17, 9223372036854775807LL, 128, l1, l2, out, 512);
    CHECK(n > 10 && n < 512);
    CHECK_INT_EQ(out[0], 256);
    CHECK_INT_EQ(out[n - 1], OCC_FOOTPRINT_MAX_BYTES);
    int ascending = 1, whole = 1;
    for (int i = 0; i < n; i++) {
        ascending &= i == 0 || out[i] > out[i - 1];
        whole &= out[i] % 128 == 0;
    }
    CHECK(ascending && whole);
    CHECK_INT_EQ(occ_plan_footprints(1, 1, 128, l1, l2, out, 512), 0);
    CHECK_INT_EQ(occ_plan_footprints(100, 200, 128, l1, l2, out, 512), 0);
    n = occ_plan_footprints(100, 300, 128, l1, l2, out, 512);
    CHECK_INT_EQ(n, 1);
    CHECK_INT_EQ(out[0], 256);
    /* 4 KiB and its neighbours in lines of 4 KiB: 8 KiB (2 lines) .. 64 KiB, no repeats */
    n = occ_plan_footprints(4096, 65536, 4096, l1, l2, out, 512);
    CHECK(n >= 4 && out[0] == 8192 && out[n - 1] == 65536);
    for (int i = 0; i < n; i++)
        CHECK(out[i] % 4096 == 0 && (i == 0 || out[i] > out[i - 1]));
    /* hi rounds down to a line; a full out[] stops at max */
    n = occ_plan_footprints(4096, 1000000, 128, l1, l2, out, 512);
    CHECK_INT_EQ(out[n - 1], 1000000 / 128 * 128);
    CHECK_INT_EQ(occ_plan_footprints(4096, 1LL << 40, 128, l1, l2, out, 3), 3);
    CHECK_INT_EQ(occ_plan_footprints(4096, 65536, 0, l1, l2, out, 512), 0);
}

/* The default size: 8 x L2, raised to 4 GiB for the streaming families where a quarter of the
 * free memory allows. */
static void test_default_size(void)
{
    const OccFamilyInfo *reduce = occ_family_at(occ_family_find("reduce", NULL));
    const OccFamilyInfo *thread = occ_family_at(occ_family_find("chase", "thread"));
    const long long l2 = 60LL << 20, gib = 1LL << 30;
    CHECK_INT_EQ(occ_family_default_bytes(reduce, l2, 140 * gib), 4 * gib);
    CHECK_INT_EQ(occ_family_default_bytes(reduce, l2, 8 * gib), 2 * gib);
    CHECK_INT_EQ(occ_family_default_bytes(reduce, l2, gib), 8 * l2);
    CHECK_INT_EQ(occ_family_default_bytes(thread, l2, 140 * gib), 16 * l2);
}

/* The run's carveout: the smallest step that holds the block size's most blocks, or the
 * maximum; every point of the plan pins its level inside it. */
static void test_carveout(void)
{
    OccPlan plan = {0};
    /* res[] of build(): 33 static bytes at most -> 1152 B per block with the 1 KiB reserve. */
    CHECK_INT_EQ(build(OCC_LEVER_AUTO, &plan), 4);
    CHECK_INT_EQ(plan.carveout_bytes, 32 * 1024); /* 16 blocks x 1152 = 18 KiB -> the 32 KiB step */
    for (int i = 0; i < plan.n; i++) {
        const OccPoint *p = &plan.points[i];
        CHECK_INT_EQ(p->carveout_bytes, 32 * 1024);
        CHECK(p->reachable);
        CHECK_INT_EQ(p->model.blocks_per_sm, p->level.blocks_per_sm);
        /* the padded blocks fill at most the carveout, one more would not fit */
        const int per_block = (p->pad_bytes + 33 + 1024 + 127) / 128 * 128;
        if (p->pad_bytes > 0) {
            CHECK(p->level.blocks_per_sm * per_block <= 32 * 1024);
            CHECK((p->level.blocks_per_sm + 1) * per_block > 32 * 1024);
        }
    }
    /* 32 blocks of one warp: in 64 KiB no multiple of 128 B pins exactly 31 blocks (it would
     * need a per-block size in (2048, 2114]); 132 KiB is the first step that pins every level. */
    CHECK_INT_EQ(occ_plan_carveout_bytes(sm90(), OCC_CARVEOUT_MIN, 32, res, -1), 132 * 1024);
    CHECK_INT_EQ(occ_plan_carveout_bytes(sm90(), OCC_CARVEOUT_MIN, 256, res, -1), 16 * 1024);
    CHECK_INT_EQ(occ_plan_carveout_bytes(sm90(), OCC_CARVEOUT_MAX, 128, res, -1), 228 * 1024);
    CHECK_INT_EQ(occ_plan_carveout_bytes(occ_arch_find("sm_75"), OCC_CARVEOUT_MIN, 128, res, -1),
                 32 * 1024);
    occ_plan_free(&plan);
}

/* The smallest carveout reaches every level the largest does, on every arch and block size:
 * the same points are reachable, with the same blocks per SM. */
static void test_carveout_min_reaches_what_max_does(void)
{
    for (int i = 0; i < occ_variant_count(); i++) res[i] = (OccVariantResources){24, 0, 41, 4};
    OccOccSpec spec = {.is_list = 0, .lo_pct = 1, .hi_pct = 100, .step_pct = 0};
    char notes[256], err[128];
    int compared = 0;
    for (size_t a = 0; a < occ_arch_count(); a++) {
        const OccArchLimits *arch = occ_arch_at(a);
        for (int block = 32; block <= 1024; block += 32) {
            OccLevel lv[OCC_MAX_LEVELS];
            const int nl = occ_plan_levels(arch, block, &spec, lv, OCC_MAX_LEVELS, notes,
                                           sizeof notes);
            if (nl <= 0) continue;
            OccPlan lo = {0}, hi = {0};
            OccOptions o;
            occ_options_defaults(&o);
            o.families = 1u << occ_family_find("reduce", NULL);
            o.no_loaded = 1;
            o.block_threads[0] = block;
            o.unroll[0] = 1, o.n_unroll = 1;
            o.vec_bytes[0] = 4, o.n_vec = 1;
            o.carveout = OCC_CARVEOUT_MIN;
            const int n = occ_plan_build(arch, 0, &o, res, lv, nl, &lo, err, sizeof err);
            o.carveout = OCC_CARVEOUT_MAX;
            CHECK_INT_EQ(occ_plan_build(arch, 0, &o, res, lv, nl, &hi, err, sizeof err), n);
            for (int i = 0; i < n && i < hi.n; i++, compared++) {
                CHECK_INT_EQ(lo.points[i].reachable, hi.points[i].reachable);
                CHECK_INT_EQ(lo.points[i].model.blocks_per_sm, hi.points[i].model.blocks_per_sm);
            }
            CHECK(lo.carveout_bytes <= hi.carveout_bytes);
            occ_plan_free(&lo);
            occ_plan_free(&hi);
        }
    }
    CHECK(compared > 1000);
}

/* The carveout percentage selects exactly its step on every arch: the runtime rounds
 * pct x smem_per_sm / 100 up to the next step (cudaOccSMemPreferenceVoltaPlus). */
static void test_carveout_pct_selects_step(void)
{
    for (size_t a = 0; a < occ_arch_count(); a++) {
        const OccArchLimits *l = occ_arch_at(a);
        CHECK(l->n_smem_carveouts > 0);
        CHECK_INT_EQ(l->smem_carveouts_kib[l->n_smem_carveouts - 1] * 1024, l->smem_per_sm_bytes);
        for (int s = 0; s < l->n_smem_carveouts; s++) {
            const int step = l->smem_carveouts_kib[s] * 1024;
            const int pct = occ_arch_carveout_pct(l, step);
            const int asked = (int)((long long)pct * l->smem_per_sm_bytes / 100);
            CHECK(pct >= 0 && pct <= 100);
            CHECK_INT_EQ(occ_arch_carveout_at_least(l, asked), step);
        }
        CHECK_INT_EQ(occ_arch_carveout_at_least(l, l->smem_per_sm_bytes + 1), -1);
    }
}

/* The arithmetic families' axes: fma by U (--unroll) and element size (--vec 4 fp32, 8 fp64),
 * mixed by A (--fmas) and not by --unroll or --vec (its U and V are fixed). */
static void test_arithmetic_axes(void)
{
    OccOptions o;
    OccPlan plan = {0};
    char err[128];
    const int fma = occ_family_find("fma", NULL), mixed = occ_family_find("mixed", NULL);
    CHECK(fma >= 0 && mixed >= 0);
    for (int i = 0; i < occ_variant_count(); i++) res[i] = (OccVariantResources){32, 0, 0, 0};
    OccLevel lv[2] = {{128, 50, 8, 50}, {128, 100, 16, 100}};
    occ_options_defaults(&o);
    o.families = 1u << fma;
    o.unroll[0] = 2, o.unroll[1] = 8, o.n_unroll = 2;
    o.vec_bytes[0] = 8, o.n_vec = 1;
    CHECK_INT_EQ(occ_plan_build(sm90(), 0, &o, res, lv, 2, &plan, err, sizeof err), 4);
    CHECK_STR_EQ(occ_point_variant(&plan.points[0]), "fma_fp64_u2");
    CHECK_STR_EQ(occ_point_variant(&plan.points[3]), "fma_fp64_u8");
    CHECK_STR_EQ(plan.points[0].mode, "chain");
    CHECK(plan.points[3].reachable && plan.points[3].lever == OCC_LEVER_PAD);
    occ_plan_free(&plan);

    occ_options_defaults(&o);
    o.families = 1u << mixed;
    o.unroll[0] = 1, o.n_unroll = 1; /* not taken by mixed: no effect */
    o.vec_bytes[0] = 4, o.n_vec = 1;
    o.fma_per_element[0] = 64, o.fma_per_element[1] = 0, o.n_fma_per_element = 2;
    CHECK_INT_EQ(occ_plan_build(sm90(), 0, &o, res, lv, 2, &plan, err, sizeof err), 4);
    /* Variants in catalog order (A ascending), levels within each. */
    CHECK_STR_EQ(occ_point_variant(&plan.points[0]), "mixed_u2_v16_a0");
    CHECK_STR_EQ(occ_point_variant(&plan.points[2]), "mixed_u2_v16_a64");
    CHECK_INT_EQ(occ_variant_at(plan.points[2].variant_index)->fma_per_element, 64);
    CHECK_INT_EQ(plan.points[1].level.blocks_per_sm, 16);
    occ_plan_free(&plan);
    o.fma_per_element[0] = 3, o.n_fma_per_element = 1; /* not compiled: nothing to plan */
    CHECK_INT_EQ(occ_plan_build(sm90(), 0, &o, res, lv, 2, &plan, err, sizeof err), -1);
    occ_plan_free(&plan);

    int vals[32];
    CHECK_INT_EQ(occ_family_axis_values(mixed, 'a', vals, 32), 14);
    CHECK_INT_EQ(vals[0], 0);
    CHECK_INT_EQ(vals[13], 256);
    CHECK_INT_EQ(occ_family_axis_values(fma, 'v', vals, 32), 2);
    CHECK(vals[0] == 4 && vals[1] == 8);
    CHECK_INT_EQ(occ_family_axis_values(fma, 'a', vals, 32), 1); /* every fma variant: A = 0 */
    CHECK(!occ_family_has_capped(fma) && !occ_family_has_capped(mixed));
}

int main(void)
{
    test_carveout();
    test_carveout_pct_selects_step();
    test_carveout_min_reaches_what_max_does();
    test_range_every_level();
    test_list_maps_to_nearest();
    test_range_with_step_and_empty_range();
    test_levers();
    test_register_ladder();
    test_footprint_family();
    test_loaded_levels();
    test_footprint_bounds();
    test_default_size();
    test_arithmetic_axes();
    return check_done();
}
