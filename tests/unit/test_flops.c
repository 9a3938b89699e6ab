/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_flops.c: the arithmetic peak (arch table x SMs x clock), the fma launch length,
 * the closed-form checks of the fma chains and the mixed sum, on worked examples. */
#include <math.h>
#include <string.h>

#include "check.h"
#include "flops.h"

/* H100/H200 (sm_90): 128 fp32 and 64 fp64 FMA lanes per SM per clock; an H200 has 132 SMs and
 * runs at 1980 MHz: 132 x 128 x 2 x 1.98 GHz = 66908.16 GFLOP/s fp32, half that fp64. */
static void test_peak(void)
{
    const OccArchLimits *h = occ_arch_find("sm_90");
    CHECK_INT_EQ(h->fma_fp32_per_sm_clk, 128);
    CHECK_INT_EQ(h->fma_fp64_per_sm_clk, 64);
    CHECK_NEAR(occ_arch_flop_peak_gflops(h, 4, 132, 1980.0), 66908.16, 1e-6);
    CHECK_NEAR(occ_arch_flop_peak_gflops(h, 8, 132, 1980.0), 33454.08, 1e-6);
    /* A100 (sm_80, 108 SMs, 1410 MHz): 19.5 TFLOP/s fp32 and 9.7 fp64, its datasheet's figures. */
    const OccArchLimits *a = occ_arch_find("sm_80");
    CHECK_NEAR(occ_arch_flop_peak_gflops(a, 4, 108, 1410.0), 19491.84, 1e-6);
    CHECK_NEAR(occ_arch_flop_peak_gflops(a, 8, 108, 1410.0), 9745.92, 1e-6);
    /* sm_86: 128 fp32 lanes but 2 fp64 lanes per SM. */
    const OccArchLimits *g = occ_arch_find("sm_86");
    CHECK_NEAR(occ_arch_flop_peak_gflops(g, 8, 84, 1000.0), 336.0, 1e-9);
    /* Unknown lanes, a type other than fp32/fp64, no clock, no SMs: NaN. */
    CHECK(isnan(occ_arch_flop_peak_gflops(occ_arch_find("sm_103"), 8, 148, 1900.0)));
    CHECK(isnan(occ_arch_flop_peak_gflops(h, 2, 132, 1980.0)));
    CHECK(isnan(occ_arch_flop_peak_gflops(h, 4, 132, NAN)));
    CHECK(isnan(occ_arch_flop_peak_gflops(h, 4, 0, 1980.0)));
    CHECK(isnan(occ_arch_flop_peak_gflops(NULL, 4, 132, 1980.0)));
    /* Every arch in the table states its fp32 lanes. */
    for (size_t i = 0; i < occ_arch_count(); i++) CHECK(occ_arch_at(i)->fma_fp32_per_sm_clk >= 64);
}

/* 4 ms at full occupancy and the peak: lanes x clock x 4e-3 / (max threads per SM x 512). */
static void test_trips(void)
{
    const OccArchLimits *h = occ_arch_find("sm_90");
    CHECK_INT_EQ(occ_fma_trips(h, 4, 1980.0), 967); /* 966.8 */
    CHECK_INT_EQ(occ_fma_trips(h, 8, 1980.0), 483); /* 483.4 */
    CHECK_INT_EQ(occ_fma_trips(occ_arch_find("sm_86"), 8, 1700.0), 17); /* 2 lanes: 17.3 */
    CHECK_INT_EQ(occ_fma_trips(h, 8, 1.0), 1);                          /* 0.24: at least 1 */
    CHECK_INT_EQ(occ_fma_trips(h, 4, 1e7), OCC_FMA_MAX_TRIPS);
    CHECK_INT_EQ(occ_fma_trips(occ_arch_find("sm_103"), 8, 1900.0), OCC_FMA_TRIPS_UNKNOWN);
    CHECK_INT_EQ(occ_fma_trips(h, 4, 0.0), OCC_FMA_TRIPS_UNKNOWN);
    /* The exactness bound of fma_chain.h: a warp running four times the longest share stays
     * below 2^24 in fp32. */
    CHECK(occ_fma_start(7, 7) + 4.0 * OCC_FMA_MAX_TRIPS * OCC_FMA_PER_TRIP < 16777216.0);
    CHECK_INT_EQ(occ_fma_chunk_trips(967), 15);
    CHECK_INT_EQ(occ_fma_chunk_trips(63), 1);
    CHECK_INT_EQ(occ_fma_chunk_trips(1), 1);
}

/* The closed form, on buffers the host fills the way the kernel would (exact steps), with the
 * warps' trips uneven as a dynamic launch leaves them. */
static void test_fma_check(void)
{
    enum { THREADS = 96, U = 4 };
    static float f[THREADS * U];
    static double d[THREADS * U];
    unsigned int trips[THREADS / 32] = {3, 1, 5};
    for (int i = 0; i < THREADS; i++)
        for (int u = 0; u < U; u++) {
            float x = (float)occ_fma_start((unsigned int)i, u);
            double y = occ_fma_start((unsigned int)i, u);
            for (unsigned s = 0; s < trips[i / 32] * OCC_FMA_PER_TRIP / U; s++) {
                x = fmaf(x, (float)OCC_FMA_STEP, (float)OCC_FMA_STEP);
                y = fma(y, OCC_FMA_STEP, OCC_FMA_STEP);
            }
            f[i * U + u] = x;
            d[i * U + u] = y;
        }
    CHECK_INT_EQ(occ_fma_mismatches(f, 4, THREADS, U, trips), 0);
    CHECK_INT_EQ(occ_fma_mismatches(d, 8, THREADS, U, trips), 0);
    CHECK_INT_EQ(occ_fma_trips_run(trips, THREADS / 32), 9);
    /* A warp credited one trip more: its 32 threads' chains mismatch. */
    trips[1]++;
    CHECK_INT_EQ(occ_fma_mismatches(f, 4, THREADS, U, trips), 32 * U);
    trips[1]--;
    /* A chain one step short, a start of the wrong thread: mismatches. */
    f[5] -= (float)OCC_FMA_STEP;
    CHECK_INT_EQ(occ_fma_mismatches(f, 4, THREADS, U, trips), 1);
    memcpy(&d[0], &d[U], U * sizeof d[0]); /* thread 0 holds thread 1's chains */
    CHECK_INT_EQ(occ_fma_mismatches(d, 8, THREADS, U, trips), U);
}

/* The mixed sum: each float x becomes x + A; the tolerance adds (A + 1) x 2^-23 per float. */
static void test_mixed_check(void)
{
    CHECK_NEAR(occ_mixed_expected_sum(100.0, 1024, 0), 100.0, 0);
    CHECK_NEAR(occ_mixed_expected_sum(100.0, 1024, 8), 8292.0, 1e-12);
    CHECK_NEAR(occ_mixed_chain_error(0), 0.0, 0);
    CHECK_NEAR(occ_mixed_chain_error(255), ldexp(1.0, -15), 0);
    CHECK_NEAR(occ_mixed_tolerance(1e-5, 1024, 0, 100.0), 1e-5, 0);
    CHECK_NEAR(occ_mixed_tolerance(1e-5, 1u << 23, 3, 33554432.0), 1e-5 + ldexp(1.0, -23), 1e-18);
    /* The steps as the kernel runs them, in float, from starts that are multiples of 2^-24 in
     * [0, 1): within occ_mixed_chain_error of the closed form x + A (a step other than x + 1
     * moves the end by far more; the worst seen is 341 x 2^-24 at A = 256, the bound 514). */
    static const int as[] = {1, 2, 3, 7, 8, 63, 64, 127, 255, 256};
    for (size_t i = 0; i < sizeof as / sizeof as[0]; i++) {
        double worst = 0;
        for (unsigned int k = 0; k < (1u << 24); k += 4099) {
            float x = (float)k / 16777216.0f;
            for (int a = 0; a < as[i]; a++) x = fmaf(x, OCC_MIXED_STEP, OCC_MIXED_STEP);
            const double err = fabs((double)x - ((double)k / 16777216.0 + as[i]));
            worst = err > worst ? err : worst;
        }
        CHECK(worst <= occ_mixed_chain_error(as[i]));
    }
    /* An A off by one moves the sum of n floats by n: far beyond the tolerance. */
    const size_t n = 1u << 28;
    const double want = occ_mixed_expected_sum(0.5 * n, n, 64);
    const double tol = occ_mixed_tolerance(1e-4, n, 64, want);
    CHECK(fabs(occ_mixed_expected_sum(0.5 * n, n, 63) - want) / want > 5 * tol);
}

int main(void)
{
    test_peak();
    test_trips();
    test_fma_check();
    test_mixed_check();
    return check_done();
}
