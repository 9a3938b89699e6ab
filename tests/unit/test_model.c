/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_model.c: the Little's-law model and the knee report on synthetic data generated
 * from a known latency (400 ns), roof (4000 GB/s) and SM count (132). Rows take their traffic
 * factor (dram_bytes_per_load_byte) from the family table, as the sweep fills it. */
#define _XOPEN_SOURCE 700 /* mkstemp, close, unlink */

#include <math.h>
#include <stdlib.h>
#include <unistd.h>

#include "catalog.h"
#include "check.h"
#include "knee_report.h"
#include "model.h"
#include "summary.h"

static const OccModel model = {.latency_ns = 400.0, .roof_gbps = 4000.0, .sm_count = 132};

/* The family table's entry for kernel and mode; NULL when there is none. */
static const OccFamilyInfo *family(const char *kernel, const char *mode)
{
    return occ_family_at(occ_family_find(kernel, mode));
}

/* An ok row of a sweep point: occupancy from resident warps (64 max), bytes in flight given, the
 * traffic factor of its family (NaN for a kernel and mode outside the table). */
static OccRow point(const char *kernel, const char *mode, const char *variant, int warps,
                    long long bytes_in_flight_per_sm, double gbps)
{
    OccRow r;
    occ_row_init(&r);
    r.kernel = kernel;
    r.mode = mode;
    r.variant = variant;
    occ_row_resolve(&r);
    r.unroll = 1;
    r.vec_bytes = 4;
    r.sm_count = 132;
    r.occ_achieved_pct = 100.0 * warps / 64;
    r.bytes_in_flight_per_sm = bytes_in_flight_per_sm;
    r.gbps_median = gbps;
    const OccFamilyInfo *f = family(kernel, mode);
    r.dram_bytes_per_load_byte = f != NULL ? f->dram_bytes_per_load_byte : NAN;
    r.status = "ok";
    return r;
}

static void test_predict_and_invert(void)
{
    CHECK_NEAR(occ_model_predict_gbps(&model, 1000.0, 1, 1.0), 330.0, 1e-9);
    CHECK_NEAR(occ_model_predict_gbps(&model, 0.0, 1, 1.0), 0.0, 0.0);
    /* The roof needs 4000 x 400 / 132 = 12121.2 B per SM; beyond it the prediction is the roof. */
    CHECK_NEAR(occ_model_predict_gbps(&model, 12000.0, 1, 1.0), 3960.0, 1e-9);
    CHECK_NEAR(occ_model_predict_gbps(&model, 12200.0, 1, 1.0), 4000.0, 0.0);
    CHECK_NEAR(occ_model_predict_gbps(&model, 1e9, 1, 1.0), 4000.0, 0.0);
    OccModel no_roof = model;
    no_roof.roof_gbps = INFINITY;
    CHECK_NEAR(occ_model_predict_gbps(&no_roof, 1e6, 1, 1.0), 330000.0, 1e-6);

    CHECK_NEAR(occ_model_loaded_latency_ns(3000.0, 132, 800.0), 495.0, 1e-9);
    for (double b = 512.0; b < 12000.0; b += 512.0)
        CHECK_NEAR(occ_model_loaded_latency_ns(b, 132, occ_model_predict_gbps(&model, b, 1, 1.0)), 400.0,
                   1e-9);
    /* Clamped at the roof the inversion gives more than the unloaded latency. */
    CHECK(occ_model_loaded_latency_ns(20000.0, 132, occ_model_predict_gbps(&model, 20000.0, 1, 1.0)) >
          400.0);

    /* The traffic factors the rows carry: copy stores every loaded byte, the others do not; the
     * ladder has no bandwidth model. */
    const OccFamilyInfo *copy = family("copy", "stream"), *reduce = family("reduce", "stream");
    const OccFamilyInfo *warp = family("chase", "warp"), *thread = family("chase", "thread");
    const OccFamilyInfo *ladder = family("chase", "latency");
    CHECK(copy != NULL && reduce != NULL && warp != NULL && thread != NULL && ladder != NULL);
    if (copy == NULL || reduce == NULL || warp == NULL || thread == NULL || ladder == NULL) return;
    CHECK_NEAR(copy->dram_bytes_per_load_byte, 2.0, 0.0);
    CHECK_NEAR(reduce->dram_bytes_per_load_byte, 1.0, 0.0);
    CHECK_NEAR(warp->dram_bytes_per_load_byte, 1.0, 0.0);
    CHECK_NEAR(thread->dram_bytes_per_load_byte, 1.0, 0.0);
    CHECK(isnan(ladder->dram_bytes_per_load_byte));
}

static void test_nan_and_invalid(void)
{
    OccModel bad = model;
    CHECK(isnan(occ_model_predict_gbps(&model, NAN, 1, 1.0)));
    CHECK(isnan(occ_model_predict_gbps(&model, -1.0, 1, 1.0)));
    CHECK(isnan(occ_model_predict_gbps(NULL, 1000.0, 1, 1.0)));
    bad.latency_ns = NAN;
    CHECK(isnan(occ_model_predict_gbps(&bad, 1000.0, 1, 1.0)));
    bad.latency_ns = 0.0;
    CHECK(isnan(occ_model_predict_gbps(&bad, 1000.0, 1, 1.0)));
    bad = model;
    bad.roof_gbps = NAN;
    CHECK(isnan(occ_model_predict_gbps(&bad, 1000.0, 1, 1.0)));
    CHECK(isnan(occ_model_predict_gbps(&bad, 1e9, 1, 1.0)));
    bad = model;
    bad.sm_count = 0;
    CHECK(isnan(occ_model_predict_gbps(&bad, 1000.0, 1, 1.0)));

    CHECK(isnan(occ_model_loaded_latency_ns(NAN, 132, 800.0)));
    CHECK(isnan(occ_model_loaded_latency_ns(3000.0, 132, NAN)));
    CHECK(isnan(occ_model_loaded_latency_ns(3000.0, 132, 0.0)));
    CHECK(isnan(occ_model_loaded_latency_ns(3000.0, 0, 800.0)));
    CHECK(isnan(occ_model_loaded_latency_ns(-1.0, 132, 800.0)));
}

/* A sweep generated from the model with +-0.5% deterministic noise: the inverted model recovers
 * the 400 ns on every point below the roof, for reduce and chase (1 x) and copy (2 x traffic). */
static void test_latency_recovered(void)
{
    enum { N = 3 * 16 * 2 };
    OccRow rows[N];
    const char *kernels[3] = {"reduce", "chase", "copy"};
    const char *modes[3] = {"stream", "warp", "stream"};
    const double traffic[3] = {1.0, 1.0, 2.0};
    int n = 0;
    for (int k = 0; k < 3; k++)
        for (int warps = 4; warps <= 64; warps += 4)
            for (int v = 4; v <= 16; v += 12) {
                long long b = (long long)warps * 32 * v;
                double truth = fmin(4000.0, traffic[k] * (double)b * 132 / 400.0);
                double noise = 1.0 + 0.005 * sin(n * 1.7);
                rows[n++] = point(kernels[k], modes[k], kernels[k], warps, b, truth * noise);
            }
    occ_model_annotate(&model, rows, n);
    int below_roof = 0;
    for (int i = 0; i < n; i++) {
        CHECK(isfinite(rows[i].gbps_predicted));
        CHECK(fabs(rows[i].measured_over_predicted - 1.0) <= 0.0051);
        if (rows[i].gbps_predicted >= 4000.0) continue;
        below_roof++;
        CHECK(fabs(rows[i].latency_loaded_ns / 400.0 - 1.0) < 0.01);
    }
    CHECK(below_roof >= 30);
}

static void test_annotate_skips(void)
{
    OccRow rows[6];
    rows[0] = point("reduce", "stream", "reduce_u1_v4", 16, 3000, 800.0);
    rows[1] = point("reduce", "stream", "reduce_u1_v4", 32, 4096, NAN);
    rows[1].status = "skip:occupancy unreachable";
    rows[2] = point("reduce", "stream", "reduce_u1_v4", 48, 6144, 1500.0);
    rows[2].status = "fail:verify";
    rows[3] = point("chase", "latency", "chase_latency", 1, 128, 0.4);
    rows[4] = point("reduce", "stream", "reduce_u1_v4", 8, 0, 500.0);
    rows[5] = point("copy", "stream", "copy_u1_v4", 16, 3000, 1600.0);
    occ_model_annotate(&model, rows, 6);

    CHECK_NEAR(rows[0].gbps_predicted, 990.0, 1e-9);
    CHECK_NEAR(rows[0].measured_over_predicted, 800.0 / 990.0, 1e-12);
    CHECK_NEAR(rows[0].latency_loaded_ns, 495.0, 1e-9);
    for (int i = 1; i <= 4; i++) {
        CHECK(isnan(rows[i].gbps_predicted));
        CHECK(isnan(rows[i].measured_over_predicted));
        CHECK(isnan(rows[i].latency_loaded_ns));
    }
    /* Copy: 3000 B of loads in flight carry 6000 B of traffic. */
    CHECK_NEAR(rows[5].gbps_predicted, 1980.0, 1e-9);
    CHECK_NEAR(rows[5].latency_loaded_ns, 6000.0 * 132 / 1600.0, 1e-9);
}

/* The model reads the factor from the row, never from the kernel's name: a NaN, infinite, zero
 * or negative factor puts a stream row outside it, and a row of a family it has never heard of
 * is modelled with whatever factor it carries. */
static void test_annotate_factor(void)
{
    const double outside[4] = {NAN, INFINITY, 0.0, -2.0};
    OccRow rows[6];
    for (int i = 0; i < 4; i++) {
        rows[i] = point("copy", "stream", "copy_u1_v4", 16, 3000, 1600.0);
        rows[i].dram_bytes_per_load_byte = outside[i];
    }
    rows[4] = point("stencil", "halo", "stencil_u1_v4", 16, 3000, 1600.0);
    CHECK(isnan(rows[4].dram_bytes_per_load_byte)); /* not in the family table */
    rows[4].dram_bytes_per_load_byte = 3.0;
    rows[5] = point("reduce", "stream", "reduce_u1_v4", 16, 3000, 1600.0);
    rows[5].dram_bytes_per_load_byte = 2.0; /* as if reduce stored every byte it loaded */
    occ_model_annotate(&model, rows, 6);
    for (int i = 0; i < 4; i++) {
        CHECK(isnan(rows[i].gbps_predicted));
        CHECK(isnan(rows[i].measured_over_predicted));
        CHECK(isnan(rows[i].latency_loaded_ns));
    }
    CHECK_NEAR(rows[4].gbps_predicted, 2970.0, 1e-9);
    CHECK_NEAR(rows[4].latency_loaded_ns, 9000.0 * 132 / 1600.0, 1e-9);
    CHECK_NEAR(rows[5].gbps_predicted, 1980.0, 1e-9);

    /* Rows outside the model get no knee line's miss and no predicted knee. */
    OccKnee k[1];
    CHECK_INT_EQ(occ_knee_compute(&model, rows, 1, k, 1), 1);
    CHECK_STR_EQ(k[0].variant, "copy_u1_v4");
    CHECK_NEAR(k[0].best_gbps, 1600.0, 0.0);
    CHECK(isnan(k[0].knee_predicted_pct));
    CHECK(isnan(k[0].worst_miss_pct));
    CHECK_STR_EQ(k[0].cause, "");
}

/* Each traffic's roof: copy against cudaMemcpy, reduce against cub::DeviceReduce, the warp
 * chase against the highest random-line level and the thread chase against the highest
 * random-sector level, each named in its knee; a chase without its curve falls back to the
 * read-only roof. A measurement above a clamped prediction names the roof it beat. */
static void test_traffic_roofs(void)
{
    OccLatencyCurve read = {0}, rw = {0}, gather = {0}, sector = {0};
    occ_curve_add(&read, 0, 400);
    occ_curve_add(&rw, 0, 500);
    occ_curve_add(&gather, 0, 600);
    occ_curve_add(&gather, 4100, 900);
    occ_curve_add(&sector, 0, 700);
    occ_curve_add(&sector, 1250, 1400);
    const OccModel m = {.latency_ns = 400.0, .roof_gbps = 4000.0, .roof_read_gbps = 4500.0,
                        .sm_count = 100, .curve = &read, .curve_rw = &rw,
                        .curve_gather = &gather, .curve_sector = &sector};
    OccRow r[5];
    r[0] = point("copy", "stream", "copy_u1_v4", 64, 1000000, 4900.0);
    r[1] = point("reduce", "stream", "reduce_u1_v4", 64, 1000000, 1.0);
    r[2] = point("chase", "warp", "chase_warp_k4", 64, 1000000, 1.0);
    r[3] = point("chase", "thread", "chase_thread_k4", 64, 1000000, 1.0);
    r[4] = point("chase", "thread", "chase_thread_k4", 8, 2048, 1.0);
    static const double roof[4] = {4000.0, 4500.0, 4100.0, 1250.0};
    static const char *const name[4] = {"cudaMemcpy", "cub::DeviceReduce", "128-byte lines",
                                         "32-byte sectors"};
    for (int i = 0; i < 4; i++) {
        const OccTrafficRoof got = occ_model_row_roof(&m, &r[i]);
        CHECK_NEAR(got.gbps, roof[i], 0);
        CHECK_CONTAINS(got.name, name[i]);
    }
    occ_model_annotate(&m, r, 5);
    for (int i = 0; i < 4; i++) CHECK_NEAR(r[i].gbps_predicted, roof[i], 1e-9);
    /* Below saturation the thread chase's latency comes from the sector curve: 2048 B x 100 SMs
     * settle where X = 204800 / L(X), L rising from 700 ns at 0 to 1400 at 1250 GB/s. */
    const double x = r[4].gbps_predicted;
    CHECK(x > 0 && x < 1250.0);
    CHECK_NEAR(x * (700.0 + 700.0 * x / 1250.0), 204800.0, 1e-2);
    /* Without its curve the thread chase stops at the read-only roof. */
    OccModel no_sector = m;
    no_sector.curve_sector = NULL;
    CHECK_NEAR(occ_model_row_roof(&no_sector, &r[3]).gbps, 4500.0, 0);
    /* The knee names its roof; copy measured above its clamped prediction names it as beaten. */
    OccKnee k[5];
    CHECK_INT_EQ(occ_knee_compute(&m, r, 5, k, 5), 4);
    CHECK_CONTAINS(k[0].roof.name, "cudaMemcpy");
    CHECK_CONTAINS(k[0].cause, "faster than its roof (cudaMemcpy device to device");
    CHECK_CONTAINS(k[3].roof.name, "32-byte sectors");
    CHECK_NEAR(k[3].roof.gbps, 1250.0, 0);
}

/* Eight variants with known answers (bytes in flight per warp = 32 x U x V), behind a skip-only
 * variant and a ladder row that get no knee line. */
static int knee_rows(OccRow *rows)
{
    static const double a[8] = {1300, 2500, 3300, 3700, 3900, 3950, 3950, 3940};
    static const double b[8] = {330, 650, 950, 1220, 1450, 1650, 1800, 1900};
    int n = 0;
    rows[n] = point("reduce", "stream", "reduce_u2_v4", 8, 2048, NAN);
    rows[n++].status = "skip:regs";
    rows[n++] = point("chase", "latency", "chase_latency", 1, 0, NAN);
    for (int j = 1; j <= 8; j++) {
        rows[n] = point("reduce", "stream", "reduce_u1_v16", 8 * j, 4096LL * j, a[j - 1]);
        rows[n++].vec_bytes = 16;
        rows[n++] = point("reduce", "stream", "reduce_u1_v4", 8 * j, 1024LL * j, b[j - 1]);
    }
    static const double spill[3] = {2000, 1900, 1850};
    for (int j = 6; j <= 8; j++) {
        rows[n] = point("reduce", "stream", "reduce_u8_v16_r32", 8 * j, 32768LL * j,
                        spill[j - 6]);
        rows[n].unroll = 8;
        rows[n].vec_bytes = 16;
        rows[n++].local_bytes_per_thread = 176;
    }
    static const double copy[4] = {900, 1400, 2100, 2800};
    for (int j = 1; j <= 4; j++)
        rows[n++] = point("copy", "stream", "copy_u1_v4", 8 * j, 1024LL * j, copy[j - 1]);
    rows[n++] = point("chase", "thread", "chase_thread_k1", 8, 8192, 1000.0);
    rows[n++] = point("chase", "thread", "chase_thread_k1", 16, 16384, 990.0);
    rows[n++] = point("reduce", "stream", "reduce_u8_v16", 32, 65536, 4900.0);
    rows[n++] = point("chase", "warp", "chase_warp_k8", 32, 65536, 3000.0);
    rows[n++] = point("reduce", "stream", "reduce_u8_v8", 16, 32768, 2800.0);
    rows[n++] = point("reduce", "stream", "reduce_u8_v8", 32, 65536, 3900.0);
    return n;
}

static void test_knee(void)
{
    OccRow rows[64];
    int n_rows = knee_rows(rows);
    OccKnee k[64];
    int n = occ_knee_compute(&model, rows, n_rows, k, 64);
    CHECK_INT_EQ(n, 8);
    if (n != 8) return;
    CHECK_STR_EQ(k[0].variant, "reduce_u1_v16");
    CHECK_STR_EQ(k[1].variant, "reduce_u1_v4");
    CHECK_STR_EQ(k[2].variant, "reduce_u8_v16_r32");
    CHECK_STR_EQ(k[3].variant, "copy_u1_v4");
    CHECK_STR_EQ(k[4].variant, "chase_thread_k1");
    CHECK_STR_EQ(k[5].variant, "reduce_u8_v16");
    CHECK_STR_EQ(k[6].variant, "chase_warp_k8");
    CHECK_STR_EQ(k[7].variant, "reduce_u8_v8");

    /* Predicted 1351.68 x j, clamped at 4000 from j = 3: knee 37.5%. Measured best 3950 (75%),
     * 90% = 3555 first reached at j = 4 (50%, 16384 B). Worst miss 3300 / 4000: 17.5%. */
    CHECK_STR_EQ(k[0].kernel, "reduce");
    CHECK_STR_EQ(k[0].mode, "stream");
    CHECK_INT_EQ(k[0].unroll, 1);
    CHECK_INT_EQ(k[0].vec_bytes, 16);
    CHECK_NEAR(k[0].best_gbps, 3950.0, 0.0);
    CHECK_NEAR(k[0].knee_measured_pct, 50.0, 0.0);
    CHECK_NEAR(k[0].knee_predicted_pct, 37.5, 0.0);
    CHECK_NEAR(k[0].bytes_in_flight_at_knee, 16384.0, 0.0);
    CHECK_NEAR(k[0].worst_miss_pct, 17.5, 1e-9);
    CHECK_NEAR(k[0].worst_miss_occ_pct, 37.5, 0.0);
    CHECK_STR_EQ(k[0].cause, "");

    /* Predicted 337.92 x j, never clamped: knee where it reaches 90% of 2703.36, j = 8 (100%).
     * Measured 90% of 1900 first at j = 7 (87.5%, 7168 B). Worst miss 1 - 1900 / 2703.36 at
     * 100%; loaded latency 8192 x 132 / 1900 = 569 ns. */
    CHECK_NEAR(k[1].knee_measured_pct, 87.5, 0.0);
    CHECK_NEAR(k[1].knee_predicted_pct, 100.0, 0.0);
    CHECK_NEAR(k[1].bytes_in_flight_at_knee, 7168.0, 0.0);
    CHECK_NEAR(k[1].worst_miss_pct, (1.0 - 1900.0 / 2703.36) * 100.0, 1e-9);
    CHECK_NEAR(k[1].worst_miss_occ_pct, 100.0, 0.0);
    CHECK_STR_EQ(k[1].cause, "latency rises under load (loaded latency 569 ns vs unloaded 400 ns)");

    /* Spills: every point predicted at the roof, the worst 1850 / 4000 at 100%. */
    CHECK_NEAR(k[2].knee_measured_pct, 75.0, 0.0);
    CHECK_NEAR(k[2].knee_predicted_pct, 75.0, 0.0);
    CHECK_NEAR(k[2].worst_miss_pct, 53.75, 1e-9);
    CHECK_NEAR(k[2].worst_miss_occ_pct, 100.0, 0.0);
    CHECK_STR_EQ(k[2].cause, "register spills add local-memory traffic (176 B/thread)");

    /* Copy predicted on 2 x the loads in flight: 675.84 x j; 900 at j = 1 is 33.2% above. */
    CHECK_NEAR(k[3].worst_miss_pct, (900.0 / 675.84 - 1.0) * 100.0, 1e-9);
    CHECK_NEAR(k[3].worst_miss_occ_pct, 12.5, 0.0);
    CHECK_CONTAINS(k[3].cause, "more parallelism than the model counts");
    CHECK_NEAR(k[3].knee_measured_pct, 50.0, 0.0);
    CHECK_NEAR(k[3].knee_predicted_pct, 50.0, 0.0);

    CHECK_NEAR(k[4].worst_miss_pct, (1.0 - 990.0 / 4000.0) * 100.0, 1e-9);
    /* The thread chase without its sector curve: the memcpy roof, far above its plateau. */
    CHECK_STR_EQ(k[4].cause, "plateaus at 25% of its roof (cudaMemcpy device to device): DRAM "
                             "efficiency or issue rate, not latency, bounds it");
    CHECK_NEAR(k[5].worst_miss_pct, 22.5, 1e-9);
    CHECK_STR_EQ(k[5].cause, "faster than its roof (cudaMemcpy device to device, 4000 GB/s): L2 "
                             "hits or a traffic its roof does not measure");
    /* Clamped at the roof and below it: a plateau at 75% of the roof is not latency; a variant
     * that does reach the roof elsewhere is (32768 x 132 / 2800 = 1545 ns). */
    CHECK_NEAR(k[6].worst_miss_pct, 25.0, 1e-9);
    CHECK_STR_EQ(k[6].cause, "plateaus at 75% of its roof (cudaMemcpy device to device): DRAM "
                             "efficiency or issue rate, not latency, bounds it");
    CHECK_NEAR(k[7].worst_miss_pct, 30.0, 1e-9);
    CHECK_NEAR(k[7].worst_miss_occ_pct, 25.0, 0.0);
    CHECK_STR_EQ(k[7].cause,
                 "latency rises under load (loaded latency 1545 ns vs unloaded 400 ns)");

    /* Agreement per variant (within 10%, knee levels apart), worked from the figures above:
     * reduce_u1_v16 misses only 3300 / 4000; reduce_u1_v4 is within 10% for j <= 4 (1220 /
     * 1351.68 = 0.903); copy misses 900 / 675.84; the thread chase misses both. */
    static const int points[8] = {8, 8, 3, 4, 2, 1, 1, 2};
    static const int agree[8] = {7, 4, 0, 3, 0, 0, 0, 1};
    static const int apart[8] = {1, 1, 0, 0, 1, 0, 0, 1};
    for (int i = 0; i < 8; i++) {
        CHECK_INT_EQ(k[i].points, points[i]);
        CHECK_INT_EQ(k[i].points_agree, agree[i]);
        CHECK_INT_EQ(k[i].knee_levels_apart, apart[i]);
        CHECK_INT_EQ(k[i].spills, i == 2);
        CHECK_INT_EQ(k[i].reg_cap_per_thread, 0);
    }
    /* The spilling twin stays out: 26 points, 15 within; 7 knees, all within one level. */
    OccAgreement a;
    occ_knee_agreement(k, n, &a);
    CHECK_INT_EQ(a.points, 26);
    CHECK_INT_EQ(a.points_agree, 15);
    CHECK_INT_EQ(a.knees, 7);
    CHECK_INT_EQ(a.knees_agree, 7);

    /* The measured knee and best are summary.c's. */
    OccVariantSummary s[64];
    int n_s = occ_summary_compute(rows, n_rows, s, 64);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n_s; j++)
            if (strcmp(s[j].variant, k[i].variant) == 0) {
                CHECK_NEAR(k[i].knee_measured_pct, s[j].knee_occ_pct, 0.0);
                CHECK_INT_EQ(k[i].knee_measured_at_lowest, s[j].knee_at_lowest);
                CHECK_NEAR(k[i].best_gbps, s[j].best_gbps, 0.0);
            }

    /* Equal misses (both at half the prediction): the lower occupancy is named. */
    OccRow tie[2] = {point("reduce", "stream", "tie", 32, 4096, 0.5 * 4096 * 132 / 400.0),
                     point("reduce", "stream", "tie", 16, 2048, 0.5 * 2048 * 132 / 400.0)};
    CHECK_INT_EQ(occ_knee_compute(&model, tie, 2, k, 64), 1);
    CHECK_NEAR(k[0].worst_miss_pct, 50.0, 0.0);
    CHECK_NEAR(k[0].worst_miss_occ_pct, 25.0, 0.0);

    CHECK_INT_EQ(occ_knee_compute(&model, rows, n_rows, k, 2), 2);
    CHECK_STR_EQ(k[1].variant, "reduce_u1_v4");
    CHECK_INT_EQ(occ_knee_compute(&model, rows, 2, k, 64), 0);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) return NULL;
    static char buf[16384];
    size_t len = fread(buf, 1, sizeof buf - 1, f);
    buf[len] = '\0';
    fclose(f);
    return buf;
}

/* The loaded model: rows measured exactly as a curve L(X) = 400 + 0.1 X ns predicts are met by the
 * model holding that curve (no miss, the same knee) and missed by the unloaded one, which then
 * needs the inverted latency; a row below the curve's prediction gets the loaded cause. */
static void test_loaded_curve(void)
{
    OccLatencyCurve curve = {0};
    for (double x = 0; x <= 4000; x += 500) occ_curve_add(&curve, x, 400 + 0.1 * x);
    const OccModel loaded = {.latency_ns = 400.0, .roof_gbps = 4000.0, .sm_count = 132,
                             .curve = &curve};
    char which[200];
    CHECK(occ_model_is_loaded(&loaded));
    CHECK(!occ_model_is_loaded(&model));
    occ_model_describe(&loaded, which, sizeof which);
    CHECK_STR_EQ(which, "loaded latency L(X): 9 levels, 400.0 ns idle to 800.0 ns at 4000.0 GB/s");
    occ_model_describe(&model, which, sizeof which);
    CHECK_STR_EQ(which, "unloaded DRAM latency 400.0 ns (fallback: no loaded-latency curve "
                        "measured)");
    OccLatencyCurve none = {0};
    OccModel all_failed = model;
    all_failed.curve = &none;
    CHECK(!occ_model_is_loaded(&all_failed));
    occ_model_describe(&all_failed, which, sizeof which);
    CHECK_STR_EQ(which, "unloaded DRAM latency 400.0 ns (fallback: no loaded-latency level was ok)");
    CHECK_NEAR(occ_model_predict_gbps(&all_failed, 1000.0, 1, 1.0), 330.0, 1e-9);
    /* A flat curve with an infinite roof is the unloaded model without a roof. */
    OccModel no_roof = loaded;
    no_roof.roof_gbps = INFINITY;
    CHECK(!occ_model_is_loaded(&no_roof));

    OccRow rows[16];
    for (int w = 1; w <= 16; w++) {
        const long long b = 1024LL * w;
        rows[w - 1] = point("reduce", "stream", "reduce_u1_v16", 4 * w, b, 0);
        rows[w - 1].gbps_median = occ_curve_solve_gbps(&curve, (double)b, 132, 4000.0);
    }
    /* 1024 B: X (400 + 0.1 X) = 135168, X = 313.37 (the unloaded model says 337.92). */
    CHECK_NEAR(rows[0].gbps_median, 313.37, 0.01);
    OccKnee k[4];
    int n = occ_knee_compute(&loaded, rows, 16, k, 4);
    CHECK_INT_EQ(n, 1);
    CHECK(k[0].worst_miss_pct < 1e-6);
    CHECK_NEAR(k[0].knee_predicted_pct, k[0].knee_measured_pct, 0.0);
    CHECK_STR_EQ(k[0].cause, "");
    /* Up to 8192 B the unloaded prediction stays below the roof (2703 GB/s vs 1849 measured). */
    n = occ_knee_compute(&model, rows, 8, k, 4);
    CHECK(k[0].worst_miss_pct > OCC_KNEE_MISS_PCT);
    CHECK_CONTAINS(k[0].cause, "latency rises under load (loaded latency");

    rows[15].gbps_median *= 0.7;
    n = occ_knee_compute(&loaded, rows, 16, k, 4);
    CHECK_NEAR(k[0].worst_miss_pct, 30.0, 1e-6);
    CHECK_CONTAINS(k[0].cause, "slower than the loaded-latency curve predicts (L(X) = ");
    occ_model_annotate(&loaded, rows, 16);
    CHECK_NEAR(rows[0].measured_over_predicted, 1.0, 1e-9);
    CHECK_NEAR(rows[15].measured_over_predicted, 0.7, 1e-9);

    /* Measured residency: 3 of the 4 warps the API counts were resident on average, so the
     * prediction is that of 768 B in flight, not 1024. */
    OccRow r = rows[0];
    r.occ_measured_pct = 0.75 * r.occ_achieved_pct;
    occ_model_annotate(&loaded, &r, 1);
    CHECK_NEAR(r.gbps_predicted, occ_curve_solve_gbps(&curve, 768.0, 132, 4000.0), 1e-9);
    CHECK(r.gbps_predicted < 0.8 * rows[0].gbps_predicted);
}

/* What a row picks from the model: the read + write curve for copy (f = 2), the read-only roof
 * for reduce, for a warp chase of K chains the curve of width K (the random-line curve where the
 * run has one), and for a stream of U loads of V bytes per trip the curve of width U x V / 4
 * (the 128-byte lines of the warp's trip). */
static void test_row_curve_width_roof(void)
{
    OccLatencyCurve read = {0}, rw = {0};
    const double w[OCC_CURVE_WIDTHS] = {400, 450, 500, 540, 570, 590};
    occ_curve_add_widths(&read, 0, w);
    occ_curve_add(&rw, 0, 800);
    const OccModel m = {.latency_ns = 400.0, .roof_gbps = 4000.0, .roof_read_gbps = 4500.0,
                        .sm_count = 100, .curve = &read, .curve_rw = &rw};
    OccRow r[7];
    r[0] = point("copy", "stream", "copy_u1_v4", 4, 1000, 1.0);
    r[1] = point("reduce", "stream", "reduce_u1_v4", 4, 1000, 1.0);
    r[2] = point("chase", "warp", "chase_warp_k4", 4, 1000, 1.0);
    r[2].unroll = 4;
    r[3] = point("reduce", "stream", "reduce_u1_v4", 4, 1000000, 1.0);
    r[4] = point("reduce", "stream", "reduce_u8_v4", 4, 1000, 1.0);
    r[4].unroll = 8;
    /* One 16-byte load per lane and two 8-byte ones: 4 lines per warp trip either way. */
    r[5] = point("reduce", "stream", "reduce_u1_v16", 4, 1000, 1.0);
    r[5].vec_bytes = 16;
    r[6] = point("reduce", "stream", "reduce_u2_v8", 4, 1000, 1.0);
    r[6].unroll = 2;
    r[6].vec_bytes = 8;
    occ_model_annotate(&m, r, 7);
    /* copy: 2 x 1000 B x 100 SMs / 800 ns (bisection to 1e-9 of the roof). */
    CHECK_NEAR(r[0].gbps_predicted, 2000.0 * 100 / 800, 1e-5);
    CHECK_NEAR(r[1].gbps_predicted, 1000.0 * 100 / 400, 1e-5);
    /* Four random lines per trip: the expected largest of 4, 500 ns. */
    CHECK_NEAR(r[2].gbps_predicted, 1000.0 * 100 / 500, 1e-5);
    CHECK_NEAR(r[3].gbps_predicted, 4500.0, 1e-9);
    /* Eight loads per trip: the expected largest of 8, 540 ns. */
    CHECK_NEAR(r[4].gbps_predicted, 1000.0 * 100 / 540, 1e-5);
    /* Four lines per trip: the expected largest of 4, 500 ns, for both shapes of the trip. */
    CHECK_NEAR(r[5].gbps_predicted, 1000.0 * 100 / 500, 1e-5);
    CHECK_NEAR(r[6].gbps_predicted, 1000.0 * 100 / 500, 1e-5);
    /* With a random-line curve, the chase (a family of OCC_CURVE_GATHER) takes it, at its width;
     * the streams keep theirs. */
    OccLatencyCurve gather = {0};
    const double wg[OCC_CURVE_WIDTHS] = {600, 700, 800, 900, 950, 990};
    occ_curve_add_widths(&gather, 0, wg);
    OccModel with_gather = m;
    with_gather.curve_gather = &gather;
    OccRow g[2] = {r[2], r[1]};
    occ_model_annotate(&with_gather, g, 2);
    CHECK_NEAR(g[0].gbps_predicted, 1000.0 * 100 / 800, 1e-5);
    CHECK_NEAR(g[1].gbps_predicted, r[1].gbps_predicted, 0);
    /* With the read levels' trip spread (0.5), a stream's four adjacent lines wait half the
     * spread of four independent latencies, 450 ns; the chase's random lines all of it. */
    OccLatencyCurve read_spread = read;
    read_spread.trip_excess_ns = 50;
    read_spread.trip_spread_ns = 100;
    OccModel with_spread = m;
    with_spread.curve = &read_spread;
    OccRow s[2] = {r[5], r[2]};
    occ_model_annotate(&with_spread, s, 2);
    CHECK_NEAR(s[0].gbps_predicted, 1000.0 * 100 / 450, 1e-5);
    CHECK_NEAR(s[1].gbps_predicted, 1000.0 * 100 / 500, 1e-5);
    OccKnee ks[2];
    CHECK_INT_EQ(occ_knee_compute(&with_spread, s, 2, ks, 2), 2);
    CHECK_NEAR(ks[0].spread, 0.5, 0);
    CHECK_NEAR(ks[1].spread, 1.0, 0);
    /* Without a read-only roof, reduce stops at the memcpy roof. */
    OccModel no_read_roof = m;
    no_read_roof.roof_read_gbps = NAN;
    occ_model_annotate(&no_read_roof, &r[3], 1);
    CHECK_NEAR(r[3].gbps_predicted, 4000.0, 1e-9);
}

/* Knees two levels apart, a register-capped twin (no spills) left out of the agreement, a knee
 * the prediction cannot place (NaN) left out of the knee count. */
static void test_agreement(void)
{
    static const double late[5] = {100, 200, 300, 400, 3000};
    OccRow rows[16];
    int n = 0;
    for (int j = 1; j <= 5; j++) {
        /* Predicted 1351.68 x j up to the roof: knee at j = 3 (37.5%); measured at j = 5. */
        rows[n++] = point("reduce", "stream", "reduce_u2_v8", 8 * j, 4096LL * j, late[j - 1]);
        rows[n] = point("reduce", "stream", "reduce_u2_v8_r32", 8 * j, 4096LL * j, late[j - 1]);
        rows[n++].reg_cap_per_thread = 32;
    }
    rows[n] = point("stencil", NULL, "stencil_u1_v4", 8, 4096, 1000.0); /* no model */
    rows[n++].dram_bytes_per_load_byte = NAN;
    OccKnee k[16];
    CHECK_INT_EQ(occ_knee_compute(&model, rows, n, k, 16), 3);
    CHECK_NEAR(k[0].knee_measured_pct, 62.5, 0.0);
    CHECK_NEAR(k[0].knee_predicted_pct, 37.5, 0.0);
    CHECK_INT_EQ(k[0].knee_levels_apart, 2);
    CHECK_INT_EQ(k[1].reg_cap_per_thread, 32);
    CHECK_INT_EQ(k[2].points, 0);
    CHECK_INT_EQ(k[2].knee_levels_apart, -1);
    OccAgreement a;
    occ_knee_agreement(k, 3, &a);
    CHECK_INT_EQ(a.points, 5);
    CHECK_INT_EQ(a.points_agree, 0);
    CHECK_INT_EQ(a.knees, 1);
    CHECK_INT_EQ(a.knees_agree, 0);
    occ_knee_agreement(k, 0, &a);
    CHECK_INT_EQ(a.points + a.points_agree + a.knees + a.knees_agree, 0);

    char path[] = "/tmp/occ_agree_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    close(fd);
    char err[256] = "";
    CHECK_INT_EQ(occ_knee_write_markdown(path, "GPU", &model, k, 3, NULL, 0, err, sizeof err), 0);
    const char *md = slurp(path);
    CHECK_CONTAINS(md, "## Agreement\n\nOver the natural variants (no register cap, no spills):");
    CHECK_CONTAINS(md, "- predicted within 10% of measured: 0 of 5 (0%) points\n");
    CHECK_CONTAINS(md, "- predicted knee within one occupancy level of the measured: 0 of 1 (0%) "
                       "variants\n");
    CHECK_CONTAINS(md, "- `reduce_u2_v8`: knee 62.50% measured, 37.50% predicted (2 levels apart)");
    CHECK(strstr(md, "- `reduce_u2_v8_r32`: knee") == NULL);
    unlink(path);
}

static void test_reports(void)
{
    OccRow rows[64];
    int n_rows = knee_rows(rows);
    OccKnee k[64];
    int n = occ_knee_compute(&model, rows, n_rows, k, 64);

    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f != NULL) {
        occ_knee_print(f, k, n);
        rewind(f);
        static char text[8192];
        text[fread(text, 1, sizeof text - 1, f)] = '\0';
        fclose(f);
        CHECK_CONTAINS(text, "variant");
        CHECK_CONTAINS(text, "knee %");
        CHECK_CONTAINS(text, "reduce_u1_v16       1  16     3950.0     50.00    37.50           "
                             "16384      17.5     37.50\n");
        CHECK_CONTAINS(text, "model miss reduce_u8_v16_r32: 53.8% at 100.00% occupancy: "
                             "register spills");
        CHECK(strstr(text, "model miss reduce_u1_v16:") == NULL);
        CHECK_CONTAINS(text, "model agreement, natural variants: within 10% at 15 of 26 (58%) "
                             "points; knee within one occupancy level for 7 of 7 (100%) "
                             "variants\n");
    }

    char path[] = "/tmp/occ_model_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0) return;
    close(fd);
    char err[256] = "";
    CHECK_INT_EQ(
        occ_knee_write_markdown(path, "NVIDIA H200", &model, k, n, NULL, 0, err, sizeof err), 0);
    const char *md = slurp(path);
    CHECK_CONTAINS(md, "# Knee report: NVIDIA H200");
    CHECK_CONTAINS(md, "- unloaded DRAM latency: 400.0 ns");
    CHECK(strstr(md, "- roof (") == NULL); /* one roof per variant's traffic, named */
    CHECK_CONTAINS(md, "- SMs: 132");
    CHECK_CONTAINS(md, "- bytes in flight per SM each roof needs (roof x unloaded latency / SMs): "
                       "cudaMemcpy device to device 4000.0 GB/s: 12121 B\n");
    CHECK_CONTAINS(md, "- roof of each variant's traffic (the `roof GB/s` column), where its "
                       "prediction stops: cudaMemcpy device to device 4000.0 GB/s\n");
    CHECK_CONTAINS(md, "| variant | kernel | mode | U | V | best GB/s | roof GB/s | knee occ % "
                       "measured |");
    for (int i = 0; i < n; i++) {
        char cell[80];
        snprintf(cell, sizeof cell, "| `%s` |", k[i].variant);
        CHECK_CONTAINS(md, cell);
    }
    CHECK_CONTAINS(md,
                   "| `reduce_u1_v4` | reduce | stream | 1 | 4 | 1900.0 | 4000.0 | 87.50 | 100.00 | "
                   "7168 |");
    CHECK_CONTAINS(md, "## Model misses > 20%");
    CHECK_CONTAINS(md, "- `reduce_u1_v4`: 29.7% at 100.00% occupancy: latency rises under load");
    CHECK(md != NULL && strstr(md, "- `reduce_u1_v16`:") == NULL);

    CHECK_INT_EQ(
        occ_knee_write_markdown(path, "NVIDIA H200", &model, k, 1, NULL, 0, err, sizeof err), 0);
    CHECK_CONTAINS(slurp(path), "None: the model is within 20% everywhere.");
    unlink(path);

    CHECK_INT_EQ(occ_knee_write_markdown("/nonexistent-dir/knee.md", "x", &model, k, n, NULL, 0,
                                         err, sizeof err),
                 -1);
    CHECK_CONTAINS(err, "/nonexistent-dir/knee.md");
}

int main(void)
{
    test_predict_and_invert();
    test_nan_and_invalid();
    test_latency_recovered();
    test_annotate_skips();
    test_annotate_factor();
    test_traffic_roofs();
    test_knee();
    test_agreement();
    test_reports();
    test_loaded_curve();
    test_row_curve_width_roof();
    return check_done();
}
