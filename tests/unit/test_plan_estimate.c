/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_plan_estimate.c: the estimated duration of a run (harness/plan/plan_estimate.h)
 * on plans of the real planner for sm_90 (as --dry-run --arch sm_90 builds them, with 32 registers
 * per thread for every variant): monotonic in the points and in --max-time, the bound above the
 * estimate, the rounding, and the H200's whole runs within a factor 2. */
#include "check.h"
#include "options.h"
#include "plan.h"
#include "plan_estimate.h"

static OccOptions opt;
static OccPlan plan;
static OccVariantResources res[256];

/* Parses "occsweep --dry-run --arch sm_90" and the NULL-terminated args into opt and plans them
 * into plan for an L2 of l2_bytes (0: unknown, as with --arch); returns the number of points. */
static int plan_v(long long l2_bytes, const char *const *args)
{
    static char *argv[64];
    char err[512], notes[1024];
    int argc = 0;
    for (const char *pre[] = {"occsweep", "--dry-run", "--arch", "sm_90"}; argc < 4; argc++)
        argv[argc] = (char *)pre[argc];
    for (int i = 0; args[i] != NULL; i++) argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    occ_plan_free(&plan);
    if (occ_options_parse(argc, argv, &opt, err, sizeof err) != 0) {
        fprintf(stderr, "parse: %s\n", err);
        return -1;
    }
    for (int i = 0; i < occ_variant_count(); i++) res[i] = (OccVariantResources){32, 0, 0, 0};
    const OccArchLimits *arch = occ_arch_find("sm_90");
    static OccLevel levels[OCC_MAX_LEVELS];
    const int n_levels = occ_plan_block_levels(arch, opt.block_threads, opt.n_block_threads,
                                               &opt.occ, levels, OCC_MAX_LEVELS, notes,
                                               sizeof notes, err, sizeof err);
    if (n_levels < 0 ||
        occ_plan_build(arch, l2_bytes, &opt, res, levels, n_levels, &plan, err, sizeof err) < 0) {
        fprintf(stderr, "plan: %s\n", err);
        return -1;
    }
    return plan.n;
}

#define PLAN(l2, ...) plan_v(l2, (const char *const[]){__VA_ARGS__, NULL})

static OccPlanEstimate estimate(void)
{
    OccPlanEstimate e;
    occ_plan_estimate(&plan, &opt, &e);
    return e;
}

/* The mission and --kernel all, against the whole runs measured on an H200. */
static void test_h200_runs_within_2x(void)
{
    char line[512];
    CHECK_INT_EQ(PLAN(0, "--kernel", "reduce", "--unroll", "1,2,4", "--occ", "25..100"), 161);
    OccPlanEstimate e = estimate();
    CHECK_INT_EQ(e.n_points, 117); /* the 44 load levels count to the startup */
    CHECK_INT_EQ(e.n_levels, 44);
    CHECK_INT_EQ(e.n_timed, 117);
    CHECK(e.typical_s >= 7.2 / 2 && e.typical_s <= 7.2 * 2);
    CHECK(e.startup_s >= 3.0 && e.startup_s <= 4.3);
    occ_plan_format_estimate(&e, &opt, line, sizeof line);
    CHECK_CONTAINS(line, "estimated time");
    CHECK_CONTAINS(line, "about 7 s");
    CHECK_CONTAINS(line, "with 44 load-level probes + 117 points x ");
    CHECK_CONTAINS(line, "at most");
    CHECK_CONTAINS(line, "--max-time 0.5 s");
    CHECK(!occ_plan_ladder_left_out(&opt));

    /* 972 points (40 s measured) before the async and wgmma families, whose 1279 points add
     * their descriptors' launch_ms. */
    CHECK_INT_EQ(PLAN(0, "--kernel", "all"), 2251);
    e = estimate();
    CHECK_INT_EQ(e.n_points, 2207);
    CHECK(e.typical_s >= 55.0 / 2 && e.typical_s <= 55.0 * 2);
    occ_plan_format_estimate(&e, &opt, line, sizeof line);
    CHECK_CONTAINS(line, "about 55 s");
    CHECK(occ_plan_ladder_left_out(&opt));
    occ_plan_format_ladder_note(line, sizeof line);
    CHECK_CONTAINS(line, "--kernel chase --mode latency");
    CHECK_CONTAINS(line, "--footprint LO..HI");

    /* The ladder, planned with an L2 of 60 MiB (the planner then gives the measured run's 89
     * points; 50 MiB gives 88): ~15.5 s. */
    CHECK_INT_EQ(PLAN(60LL << 20, "--kernel", "chase", "--mode", "latency"), 89);
    e = estimate();
    CHECK_INT_EQ(e.n_fixed, 89);
    CHECK(e.typical_s >= 15.5 / 2 && e.typical_s <= 15.5 * 2);
    CHECK(e.upper_s >= e.typical_s);
    CHECK(!occ_plan_ladder_left_out(&opt));
    occ_plan_format_estimate(&e, &opt, line, sizeof line);
    CHECK_CONTAINS(line, "--max-time does not bound it");
}

/* Who gets the ladder note: every kernel, asked or by default; not a list, not a plugin's. */
static void test_ladder_note(void)
{
    PLAN(0, "--kernel", "all");
    CHECK(occ_plan_ladder_left_out(&opt));
    opt = (OccOptions){0};
    occ_options_defaults(&opt);
    CHECK(occ_plan_ladder_left_out(&opt)); /* no --kernel: all */
    opt.plugin_path = "saxpy.so";
    CHECK(!occ_plan_ladder_left_out(&opt)); /* --plugin alone: only its family */
    PLAN(0, "--kernel", "copy,reduce");
    CHECK(!occ_plan_ladder_left_out(&opt));
}

/* More points, a longer --max-time, more --min-samples: never a shorter estimate; a shorter
 * --max-time or fewer --min-samples: a shorter one; the bound never under the estimate. */
static void test_monotonic(void)
{
    PLAN(0, "--kernel", "reduce", "--unroll", "1", "--occ", "25..100");
    const OccPlanEstimate few = estimate();
    PLAN(0, "--kernel", "reduce", "--unroll", "1,2,4", "--occ", "25..100");
    const OccPlanEstimate more = estimate();
    CHECK(more.n_points > few.n_points);
    CHECK(more.typical_s > few.typical_s);
    CHECK(more.upper_s > few.upper_s);
    PLAN(0, "--kernel", "all");
    const OccPlanEstimate all = estimate();
    CHECK(all.typical_s > more.typical_s);

    const double times[] = {0.001, 0.005, 0.02, 0.1, 0.5, 2, 60, 3600};
    double prev = 0, prev_upper = 0;
    for (int i = 0; i < (int)(sizeof times / sizeof times[0]); i++) {
        opt.max_time_s = times[i];
        const OccPlanEstimate e = estimate();
        CHECK(e.typical_s >= prev);
        CHECK(e.upper_s >= prev_upper);
        CHECK(e.upper_s >= e.typical_s);
        prev = e.typical_s;
        prev_upper = e.upper_s;
    }
    CHECK(prev_upper > 2 * all.upper_s); /* 3600 s a point (2000 samples at most) */
    opt.max_time_s = 0.5;
    CHECK_NEAR(estimate().typical_s, all.typical_s, 1e-9);
    opt.max_time_s = 0.01;
    CHECK(estimate().typical_s < all.typical_s);
    opt.max_time_s = 0.5;
    opt.min_samples = 5;
    CHECK(estimate().typical_s < all.typical_s);
    opt.min_samples = 1000; /* --max-time stops it first: the bound is reached */
    OccPlanEstimate e = estimate();
    CHECK(e.typical_s > all.typical_s);
    CHECK(e.upper_s >= e.typical_s);

    /* Every point: the bound at least the estimate, a skip row free. */
    opt.min_samples = 10;
    for (int i = 0; i < plan.n; i++) {
        double up = -1;
        const double ms = occ_plan_estimate_point_ms(&plan.points[i], &opt, &up);
        CHECK(ms >= 0 && up >= ms);
        if (plan.points[i].variant_index >= 0 && !plan.points[i].reachable) CHECK(ms == 0);
    }
    /* A smaller --size: shorter stream launches. */
    PLAN(0, "--kernel", "copy", "--occ", "50", "--size", "256M");
    const double small = estimate().typical_s;
    PLAN(0, "--kernel", "copy", "--occ", "50");
    CHECK(small < estimate().typical_s);
    /* The ladder: a larger footprint range, a longer run. */
    PLAN(0, "--kernel", "chase", "--mode", "latency", "--footprint", "4K..1G");
    const double ladder_small = estimate().typical_s;
    PLAN(0, "--kernel", "chase", "--mode", "latency");
    CHECK(ladder_small < estimate().typical_s);
}

static void test_rounding(void)
{
    char b[32];
    CHECK_STR_EQ(occ_plan_format_duration(0.2, b, sizeof b), "1 s");
    CHECK_STR_EQ(occ_plan_format_duration(7.2, b, sizeof b), "7 s");
    CHECK_STR_EQ(occ_plan_format_duration(9.4, b, sizeof b), "9 s");
    CHECK_STR_EQ(occ_plan_format_duration(9.6, b, sizeof b), "10 s");
    CHECK_STR_EQ(occ_plan_format_duration(38.9, b, sizeof b), "40 s");
    CHECK_STR_EQ(occ_plan_format_duration(41.2, b, sizeof b), "40 s");
    CHECK_STR_EQ(occ_plan_format_duration(63.0, b, sizeof b), "65 s");
    CHECK_STR_EQ(occ_plan_format_duration(88.0, b, sizeof b), "2 min");
    CHECK_STR_EQ(occ_plan_format_duration(170.0, b, sizeof b), "3 min");
    CHECK_STR_EQ(occ_plan_format_duration(59 * 60.0, b, sizeof b), "59 min");
    CHECK_STR_EQ(occ_plan_format_duration(3600.0, b, sizeof b), "1 h");
    CHECK_STR_EQ(occ_plan_format_duration(5600.0, b, sizeof b), "1.5 h");
    CHECK_STR_EQ(occ_plan_format_duration(11 * 3600.0 + 100, b, sizeof b), "11 h");
    CHECK_STR_EQ(occ_plan_format_duration(NAN, b, sizeof b), "1 s");
    CHECK_STR_EQ(occ_plan_format_duration(1e30, b, sizeof b), "1000000 h");
    /* A truncated buffer stays a string. */
    char tiny[8];
    OccPlanEstimate e = {.startup_s = 3.5, .n_points = 1, .n_timed = 1, .point_ms = 20,
                         .typical_s = 3.6, .upper_s = 5};
    occ_options_defaults(&opt);
    occ_plan_format_estimate(&e, &opt, tiny, sizeof tiny);
    CHECK_INT_EQ(strlen(tiny), 7);
}

/* A plan with nothing after the start (a resume that has every point, or only load levels
 * left) says what remains, not "0 points x 0.0 ms". */
static void test_nothing_left(void)
{
    char line[512];
    occ_options_defaults(&opt);
    OccPlanEstimate e = {.startup_s = 3.5, .typical_s = 3.5, .upper_s = 3.5};
    occ_plan_format_estimate(&e, &opt, line, sizeof line);
    CHECK_STR_EQ(line, "estimated time: none: no point left to measure");
    e.n_levels = 3;
    occ_plan_format_estimate(&e, &opt, line, sizeof line);
    CHECK_STR_EQ(line, "estimated time (from an H200's timings): about 4 s (startup 4 s with 3 "
                       "load-level probes; no other point left to measure)");
    CHECK(strstr(line, "0 points") == NULL);
}

int main(void)
{
    test_nothing_left();
    test_h200_runs_within_2x();
    test_ladder_note();
    test_monotonic();
    test_rounding();
    occ_plan_free(&plan);
    return check_done();
}
