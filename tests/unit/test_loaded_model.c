/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_loaded_model.c: L(X) and the loaded Little's-law solver on synthetic curves: a
 * known fixed point, a curve with no solution below the roof, a flat curve that is the unloaded
 * model, the monotone envelope of a noisy curve and the invalid inputs; a load level's figures from
 * its hop histogram and the curve of the ok levels. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "loaded_hist.h"
#include "loaded_levels.h"
#include "loaded_model.h"
#include "model.h"

/* L(X) = 300 + 0.1 X ns, sampled every 1000 GB/s from idle to 4000 GB/s. */
static OccLatencyCurve linear_curve(void)
{
    OccLatencyCurve c = {0};
    /* Out of order on purpose: occ_curve_add sorts. */
    const double x[] = {2000, 0, 4000, 1000, 3000};
    for (int i = 0; i < 5; i++) CHECK_INT_EQ(occ_curve_add(&c, x[i], 300 + 0.1 * x[i]), 0);
    return c;
}

static void test_interpolation(void)
{
    OccLatencyCurve c = linear_curve();
    CHECK_INT_EQ(c.n, 5);
    CHECK_NEAR(occ_curve_latency_ns(&c, 0), 300, 1e-9);
    CHECK_NEAR(occ_curve_latency_ns(&c, 1500), 450, 1e-9);
    CHECK_NEAR(occ_curve_latency_ns(&c, 4000), 700, 1e-9);
    /* Flat beyond the last sample; no sample below 0 GB/s is needed. */
    CHECK_NEAR(occ_curve_latency_ns(&c, 9000), 700, 1e-9);
    CHECK_NEAR(occ_curve_latency_ns(&c, -5), 300, 1e-9);

    /* A dip (noise) is raised to the envelope: 500 at 2000, not 420. */
    OccLatencyCurve d = {0};
    occ_curve_add(&d, 0, 300);
    occ_curve_add(&d, 1000, 500);
    occ_curve_add(&d, 2000, 420);
    occ_curve_add(&d, 3000, 600);
    CHECK_NEAR(occ_curve_latency_ns(&d, 2000), 500, 1e-9);
    CHECK_NEAR(occ_curve_latency_ns(&d, 2500), 550, 1e-9);
    CHECK_NEAR(occ_curve_latency_ns(&d, 1500), 500, 1e-9);
}

static void test_known_fixed_point(void)
{
    OccLatencyCurve c = linear_curve();
    /* X = 1000 GB/s: L = 400 ns, so B x S = 400000 B (S = 100, B = 4000 B per SM). */
    CHECK_NEAR(occ_curve_solve_gbps(&c, 4000, 100, 4800), 1000, 1e-5);
    /* X = 2500: L = 550, B x S = 1375000. */
    CHECK_NEAR(occ_curve_solve_gbps(&c, 13750, 100, 4800), 2500, 1e-5);
    /* The unloaded model (L = 300 ns) would say 4000/3 GB/s at B = 4000: the load costs 25%. */
    const OccModel unloaded = {.latency_ns = 300, .roof_gbps = 4800, .sm_count = 100};
    CHECK(occ_model_predict_gbps(&unloaded, 4000, 1, 1.0) > 1.3 * occ_curve_solve_gbps(&c, 4000, 100,
                                                                               4800));
    CHECK_NEAR(occ_curve_solve_gbps(&c, 0, 100, 4800), 0, 0);
}

static void test_no_solution_below_roof(void)
{
    OccLatencyCurve c = linear_curve();
    /* At the roof (4000) L = 700 ns: 4000 x 700 = 2.8e6 B in flight holds the roof; so does
     * more. */
    CHECK_NEAR(occ_curve_solve_gbps(&c, 28000, 100, 4000), 4000, 0);
    CHECK_NEAR(occ_curve_solve_gbps(&c, 1e6, 100, 4000), 4000, 0);
    /* Just under: the fixed point is just under the roof. */
    const double x = occ_curve_solve_gbps(&c, 27000, 100, 4000);
    CHECK(x < 4000 && x > 3900);
}

static void test_flat_is_unloaded_model(void)
{
    OccLatencyCurve c = {0};
    occ_curve_add(&c, 0, 400);
    const OccModel m = {.latency_ns = 400, .roof_gbps = 4000, .sm_count = 132};
    for (double b = 0; b < 20000; b += 700)
        CHECK_NEAR(occ_curve_solve_gbps(&c, b, 132, 4000), occ_model_predict_gbps(&m, b, 1, 1.0), 1e-5);
    /* Several equal samples are as flat as one. */
    occ_curve_add(&c, 2000, 400);
    occ_curve_add(&c, 3900, 400);
    CHECK_NEAR(occ_curve_solve_gbps(&c, 6000, 132, 4000), occ_model_predict_gbps(&m, 6000, 1, 1.0), 1e-5);
}

static void test_invalid(void)
{
    OccLatencyCurve c = {0};
    CHECK(isnan(occ_curve_latency_ns(&c, 10)));
    CHECK(isnan(occ_curve_solve_gbps(&c, 100, 10, 100)));
    CHECK(isnan(occ_curve_latency_ns(NULL, 10)));
    CHECK_INT_EQ(occ_curve_add(NULL, 1, 1), -1);
    CHECK_INT_EQ(occ_curve_add(&c, NAN, 1), -1);
    CHECK_INT_EQ(occ_curve_add(&c, -1, 1), -1);
    CHECK_INT_EQ(occ_curve_add(&c, 1, 0), -1);
    CHECK_INT_EQ(occ_curve_add(&c, 1, INFINITY), -1);
    CHECK_INT_EQ(c.n, 0);
    for (int i = 0; i < OCC_CURVE_MAX_LEVELS; i++) CHECK_INT_EQ(occ_curve_add(&c, i, 300), 0);
    CHECK_INT_EQ(occ_curve_add(&c, 99, 300), -1);
    CHECK(isnan(occ_curve_latency_ns(&c, NAN)));
    CHECK(isnan(occ_curve_solve_gbps(&c, -1, 10, 100)));
    CHECK(isnan(occ_curve_solve_gbps(&c, NAN, 10, 100)));
    CHECK(isnan(occ_curve_solve_gbps(&c, 100, 0, 100)));
    CHECK(isnan(occ_curve_solve_gbps(&c, 100, 10, 0)));
    CHECK(isnan(occ_curve_solve_gbps(&c, 100, 10, INFINITY)));
}

static void test_level_stats(void)
{
    /* 100 hops: 10 in bin 0 (0..16 cycles), 80 in bin 2, 9 in bin 5, 1 in bin 9. */
    unsigned int bin[10] = {10, 0, 80, 0, 0, 9, 0, 0, 0, 1};
    CHECK_NEAR(occ_hist_percentile_cycles(bin, 10, 16, 5), 8, 0);
    CHECK_NEAR(occ_hist_percentile_cycles(bin, 10, 16, 10), 8, 0);
    CHECK_NEAR(occ_hist_percentile_cycles(bin, 10, 16, 50), 40, 0);
    CHECK_NEAR(occ_hist_percentile_cycles(bin, 10, 16, 95), 88, 0);
    CHECK_NEAR(occ_hist_percentile_cycles(bin, 10, 16, 99), 88, 0);
    CHECK_NEAR(occ_hist_percentile_cycles(bin, 10, 16, 100), 152, 0);
    unsigned int empty[4] = {0};
    CHECK(isnan(occ_hist_percentile_cycles(empty, 4, 16, 50)));
    CHECK(isnan(occ_hist_percentile_cycles(bin, 10, 16, 0)));

    OccLoadedLevel lv = {.status = "ok", .gbps = 1000};
    /* 2000 MHz: 2 cycles per ns. */
    occ_loaded_level_stats(&lv, bin, 10, 16, 4000, 100, 2000);
    CHECK_NEAR(lv.mean_cycles, 40, 0);
    CHECK_NEAR(lv.mean_ns, 20, 1e-12);
    CHECK_NEAR(lv.p50_ns, 20, 1e-12);
    CHECK_NEAR(lv.p95_ns, 44, 1e-12);
    CHECK_INT_EQ(lv.hops, 100);

    /* The levels as CSV rows, and the curves the model builds from the ok ones: a row joins
     * the curve of its traffic, a fail row or another family's row none. */
    OccLoadedLevel levels[5] = {lv, lv, lv, lv, lv};
    levels[1].gbps = 3000;
    levels[1].mean_ns = 60;
    for (int j = 0; j < OCC_CURVE_WIDTHS; j++) levels[1].width_ns[j] = 60;
    snprintf(levels[2].status, sizeof levels[2].status, "fail:probe 3 ended off its walk");
    levels[3].traffic = OCC_CURVE_COPY;
    levels[3].mean_ns = levels[3].width_ns[0] = 90;
    levels[4].traffic = OCC_CURVE_GATHER;
    levels[4].mean_ns = levels[4].width_ns[0] = 120;
    OccLatencyCurve read = {0}, rw = {0}, gather = {0};
    OccLatencyCurve *const curves[OCC_CURVE_TRAFFICS] = {&read, &rw, &gather};
    for (int i = 0; i < 5; i++) {
        OccRow r;
        occ_row_init(&r);
        r.kernel = "chase";
        r.mode = "loaded";
        occ_row_resolve(&r);
        r.status = levels[i].status;
        occ_loaded_level_to_row(&levels[i], &r);
        OccLoadedLevel back;
        CHECK_INT_EQ(occ_loaded_level_from_row(&r, &back), i != 2);
        if (i != 2) {
            CHECK_INT_EQ(back.traffic, levels[i].traffic);
            CHECK_NEAR(back.gbps, levels[i].gbps, 0);
            for (int j = 0; j < OCC_CURVE_WIDTHS; j++)
                CHECK_NEAR(back.width_ns[j], levels[i].width_ns[j], 0);
            CHECK_NEAR(back.p95_ns, levels[i].p95_ns, 0);
            CHECK_INT_EQ(back.hops, levels[i].hops);
        }
        CHECK_INT_EQ(occ_loaded_curve_take_row(curves, &r), i != 2);
        r.mode = "warp";
        occ_row_resolve(&r);
        CHECK_INT_EQ(occ_loaded_curve_take_row(curves, &r), 0);
    }
    CHECK_INT_EQ(read.n, 2);
    CHECK_INT_EQ(rw.n, 1);
    CHECK_INT_EQ(gather.n, 1);
    CHECK_NEAR(occ_curve_latency_ns(&read, 2000), 40, 1e-12);
    CHECK_NEAR(occ_curve_latency_ns(&rw, 0), 90, 0);
    CHECK_NEAR(occ_curve_latency_ns(&gather, 0), 120, 0);
    /* A traffic the model does not know is no level. */
    OccRow odd;
    occ_row_init(&odd);
    odd.kernel = "chase";
    odd.mode = "loaded";
    occ_row_resolve(&odd);
    odd.status = "ok";
    occ_loaded_level_to_row(&levels[0], &odd);
    odd.traffic = "scatter";
    OccLoadedLevel back;
    CHECK_INT_EQ(occ_loaded_level_from_row(&odd, &back), 0);
}

/* The level table: every level's name says its traffic, warps and U, and the steps rise from
 * idle (0 warps) to 31 warps of U = 4 in read, copy and sector traffic, and of U = 16 lines (the
 * same bytes in flight as the streams) in gather traffic. */
static void test_level_names(void)
{
    static const char *const traffic[OCC_CURVE_TRAFFICS] = {"read", "copy", "gather", "sector"};
    for (int i = 0; i < OCC_LOADED_LEVELS; i++) {
        OccLoadedLevel lv;
        char want[32];
        occ_loaded_level_spec(i, &lv);
        CHECK_INT_EQ(lv.traffic, i / OCC_LOADED_STEPS);
        snprintf(want, sizeof want, "loaded_%s_w%02d_u%d", traffic[i / OCC_LOADED_STEPS],
                 lv.stream_warps, lv.unroll);
        CHECK_STR_EQ(occ_loaded_level_name(i), want);
        OccRow r;
        occ_row_init(&r);
        occ_loaded_level_to_row(&lv, &r);
        CHECK_STR_EQ(r.traffic, traffic[i / OCC_LOADED_STEPS]);
        if (i % OCC_LOADED_STEPS) {
            OccLoadedLevel gather;
            occ_loaded_level_spec(OCC_CURVE_GATHER * OCC_LOADED_STEPS + i % OCC_LOADED_STEPS,
                                  &gather);
            /* 16-byte vectors against 128-byte lines of 4-byte words per warp and step. */
            if (lv.traffic == OCC_CURVE_READ) CHECK_INT_EQ(gather.unroll, 4 * lv.unroll);
            if (lv.traffic == OCC_CURVE_SECTOR) CHECK_INT_EQ(gather.unroll, 4 * lv.unroll);
        }
    }
    OccLoadedLevel first, last_copy, last_gather, last;
    occ_loaded_level_spec(0, &first);
    occ_loaded_level_spec(2 * OCC_LOADED_STEPS - 1, &last_copy);
    occ_loaded_level_spec(3 * OCC_LOADED_STEPS - 1, &last_gather);
    occ_loaded_level_spec(OCC_LOADED_LEVELS - 1, &last);
    CHECK_INT_EQ(first.stream_warps, 0);
    CHECK_INT_EQ(last_copy.stream_warps * last_copy.unroll, 31 * 4);
    CHECK_INT_EQ(last_gather.stream_warps * last_gather.unroll, 31 * 16);
    CHECK_INT_EQ(last.traffic, OCC_CURVE_SECTOR);
    CHECK_INT_EQ(last.stream_warps * last.unroll, 31 * 4);
    CHECK(occ_loaded_level_name(OCC_LOADED_LEVELS) == NULL);
    CHECK(occ_loaded_level_name(-1) == NULL);
}

/* The widths: the expected largest of k draws, from a histogram and on a curve. */
static void test_widths(void)
{
    /* Half the hops in bin 0 (centre 8 cycles), half in bin 1 (centre 24). */
    const unsigned int bin[4] = {50, 50, 0, 0};
    CHECK_NEAR(occ_hist_expected_max_cycles(bin, 4, 16, 1), 16, 1e-12);
    /* max of 2 is 8 only when both are: 1/4. */
    CHECK_NEAR(occ_hist_expected_max_cycles(bin, 4, 16, 2), 8 * 0.25 + 24 * 0.75, 1e-12);
    CHECK_NEAR(occ_hist_expected_max_cycles(bin, 4, 16, 4), 8 / 16.0 + 24 * 15 / 16.0, 1e-12);
    CHECK(isnan(occ_hist_expected_max_cycles(bin, 4, 16, 0)));
    const unsigned int empty[4] = {0};
    CHECK(isnan(occ_hist_expected_max_cycles(empty, 4, 16, 2)));

    /* A level's widths: the exact mean (18 cycles, not the bins' 16) plus each width's excess
     * over the bins' mean. 1000 MHz: 1 ns per cycle. */
    OccLoadedLevel lv = {.status = "ok"};
    occ_loaded_level_stats(&lv, bin, 4, 16, 1800, 100, 1000);
    CHECK_NEAR(lv.width_ns[0], 18, 1e-9);
    CHECK_NEAR(lv.width_ns[1], 18 + 4, 1e-9);
    CHECK(lv.width_ns[5] > lv.width_ns[4] && lv.width_ns[5] < 18 + 8 + 1e-9);

    /* On a curve: width 3 takes the width-4 column; widths beyond 32 the last. A warp waiting
     * on 4 loads of 500 ns (mean 400) moves B x S / 500. */
    OccLatencyCurve c = {0};
    const double w[OCC_CURVE_WIDTHS] = {400, 450, 500, 540, 570, 590};
    CHECK_INT_EQ(occ_curve_add_widths(&c, 0, w), 0);
    CHECK_NEAR(occ_curve_latency_width_ns(&c, 100, 1), 400, 0);
    CHECK_NEAR(occ_curve_latency_width_ns(&c, 100, 3), 500, 0);
    CHECK_NEAR(occ_curve_latency_width_ns(&c, 100, 64), 590, 0);
    CHECK_NEAR(occ_curve_solve_width_gbps(&c, 1000, 100, 4800, 4), 1000.0 * 100 / 500, 1e-6);
    CHECK_NEAR(occ_curve_solve_gbps(&c, 1000, 100, 4800), 1000.0 * 100 / 400, 1e-6);
    const double bad[OCC_CURVE_WIDTHS] = {400, NAN, 500, 540, 570, 590};
    CHECK_INT_EQ(occ_curve_add_widths(&c, 10, bad), -1);
    CHECK_INT_EQ(c.n, 1);
}

/* A level row of the given traffic, background and figures, on 100 SMs. */
static OccRow level_row(OccLoadedLevel *lv, int traffic, int warps, int unroll, double gbps)
{
    static const double w[OCC_CURVE_WIDTHS] = {300, 340, 400, 450, 500, 540};
    *lv = (OccLoadedLevel){.status = "ok", .traffic = traffic, .stream_warps = warps,
                           .unroll = unroll, .gbps = gbps, .mean_ns = 300};
    memcpy(lv->width_ns, w, sizeof w);
    OccRow r;
    occ_row_init(&r);
    r.kernel = "chase";
    r.mode = "loaded";
    occ_row_resolve(&r);
    r.status = "ok";
    r.sm_count = 100;
    occ_loaded_level_to_row(lv, &r);
    return r;
}

/* The trip spread: a read level's background of 4 warps x U 1 keeps 4 x 32 x 16 B = 2048 B per
 * SM in flight on 4-line trips; at 204800 / 350 GB/s its trips take 350 ns, half-way from the
 * mean (300) to the largest of 4 (400): 0.5. With U 2 (8 lines, largest 450) a trip of 375 ns
 * is half-way too. Idle levels, other traffics and the unloaded curve leave it out; a spread
 * beyond [0, 1] is clamped; the spread latency lies between the mean and the width's. */
static void test_trip_spread(void)
{
    OccLatencyCurve read = {0}, rw = {0}, gather = {0}, sector = {0};
    OccLatencyCurve *const curves[OCC_CURVE_TRAFFICS] = {&read, &rw, &gather, &sector};
    OccLoadedLevel lv[6];
    const OccRow rows[6] = {level_row(&lv[0], OCC_CURVE_READ, 4, 1, 204800.0 / 350),
                            level_row(&lv[1], OCC_CURVE_READ, 4, 2, 409600.0 / 375),
                            level_row(&lv[2], OCC_CURVE_READ, 0, 1, 10),
                            level_row(&lv[3], OCC_CURVE_COPY, 4, 1, 100),
                            level_row(&lv[4], OCC_CURVE_GATHER, 4, 4, 100),
                            level_row(&lv[5], OCC_CURVE_SECTOR, 4, 1, 100)};
    for (int i = 0; i < 6; i++) CHECK_INT_EQ(occ_loaded_curve_take_row(curves, &rows[i]), 1);
    CHECK_INT_EQ(sector.n, 1);
    CHECK_NEAR(read.trip_excess_ns, 50 + 75, 1e-9);
    CHECK_NEAR(read.trip_spread_ns, 100 + 150, 1e-9);
    CHECK_NEAR(occ_curve_trip_spread(&read), 0.5, 1e-12);
    CHECK(isnan(occ_curve_trip_spread(&rw)) && isnan(occ_curve_trip_spread(&gather)));
    CHECK(isnan(occ_curve_trip_spread(&sector)) && isnan(occ_curve_trip_spread(NULL)));
    CHECK_NEAR(occ_curve_latency_spread_ns(&read, 0, 4, 0.5), 350, 1e-9);
    CHECK_NEAR(occ_curve_latency_spread_ns(&read, 0, 4, 1), occ_curve_latency_width_ns(&read, 0, 4),
               0);
    OccLatencyCurve fast = read, slow = read;
    fast.trip_excess_ns = -10;
    slow.trip_excess_ns = 1000;
    CHECK_NEAR(occ_curve_trip_spread(&fast), 0, 0);
    CHECK_NEAR(occ_curve_trip_spread(&slow), 1, 0);
    /* The fixed point on the spread latency: 2048 B x 100 SMs at 350 ns below any roof. */
    CHECK_NEAR(occ_curve_solve_spread_gbps(&read, 2048, 100, 1e6, 4, 0.5), 204800.0 / 350, 1e-3);
    CHECK_NEAR(occ_curve_solve_spread_gbps(&read, 2048, 100, 1e6, 4, NAN),
               occ_curve_solve_width_gbps(&read, 2048, 100, 1e6, 4), 0);
}

int main(void)
{
    test_trip_spread();
    test_widths();
    test_level_names();
    test_interpolation();
    test_known_fixed_point();
    test_no_solution_below_roof();
    test_flat_is_unloaded_model();
    test_invalid();
    test_level_stats();
    return check_done();
}
