/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_onchip.c: the on-chip families' pure side on worked examples: the shared-memory
 * and tensor peaks of the arch table, the launch length, the closed-form checks of the smem chase,
 * the smem stream and the mma accumulators (each must catch one wrong word), and the chain model
 * (harness/model/chain_model.h) on rows made from a known latency and issue rate; the cap of a
 * peak's clock at the device's peak clock. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "catalog.h"
#include "chain_model.h"
#include "check.h"
#include "onchip.h"

/* H200: 132 SMs at 1980 MHz. Shared memory: 32 banks x 4 B = 128 B per SM per clock, 33454.08
 * GB/s. Tensor headline (H100 SXM's datasheet, dense: 989.4 TFLOP/s fp16 at 132 SMs and 1830
 * MHz is 4096 FLOP per SM per clock; tf32 half; fp64 66.9 TFLOP/s at 1980 MHz is 256); A100
 * (312 TFLOP/s fp16 at 108 SMs and 1410 MHz): 2048. */
static void test_peaks(void)
{
    const OccArchLimits *h = occ_arch_find("sm_90"), *a = occ_arch_find("sm_80");
    CHECK_NEAR(occ_arch_peak(h, OCC_RATE_SMEM_BYTES, 132, 1980.0), 33454.08, 1e-6);
    CHECK_NEAR(occ_arch_peak(h, OCC_RATE_MMA_F16, 132, 1830.0), 989429.76, 1e-3);
    CHECK_NEAR(occ_arch_peak(h, OCC_RATE_MMA_TF32, 132, 1830.0), 494714.88, 1e-3);
    CHECK_NEAR(occ_arch_peak(h, OCC_RATE_MMA_F64, 132, 1980.0), 66908.16, 1e-3);
    CHECK_NEAR(occ_arch_peak(a, OCC_RATE_MMA_F16, 108, 1410.0), 311869.44, 1e-3);
    CHECK_NEAR(occ_arch_peak(a, OCC_RATE_MMA_F64, 108, 1410.0), 19491.84, 1e-3);
    CHECK_NEAR(occ_arch_peak(h, OCC_RATE_FMA_FP64, 132, 1980.0), 33454.08, 1e-6);
    CHECK_INT_EQ(occ_arch_rate_per_sm_clk(h, OCC_RATE_NONE), 0);
    CHECK_INT_EQ(occ_arch_rate_per_sm_clk(NULL, OCC_RATE_MMA_F16), 0);
    CHECK_INT_EQ(occ_arch_rate_is_bytes(OCC_RATE_SMEM_BYTES), 1);
    CHECK_INT_EQ(occ_arch_rate_is_bytes(OCC_RATE_MMA_F16), 0);
    CHECK(isnan(occ_arch_peak(occ_arch_find("sm_86"), OCC_RATE_MMA_F16, 84, 1700.0)));
    CHECK(isnan(occ_arch_peak(h, OCC_RATE_SMEM_BYTES, 0, 1980.0)));
    CHECK(isnan(occ_arch_peak(NULL, OCC_RATE_SMEM_BYTES, 132, 1980.0)));
    /* each mma variant is judged against its type's rate: bf16 shares f16's */
    CHECK_INT_EQ(occ_variant_at(occ_variant_find("mma_bf16_u1"))->peak, OCC_RATE_MMA_F16);
    CHECK_INT_EQ(occ_variant_at(occ_variant_find("mma_f64_u8"))->vec_bytes, 8);
}

static void test_trips(void)
{
    /* smem chase on an H200: 64 hops x 128 B a trip, 64 warps, 4 ms at 128 B per clock. */
    CHECK_INT_EQ(occ_onchip_trips(8192.0, 128.0, 64, 1980.0, 1u << 20), 1934);
    CHECK_INT_EQ(occ_onchip_trips(8192.0, 128.0, 64, 1980.0, 100), 100); /* capped */
    CHECK_INT_EQ(occ_onchip_trips(8192.0, 0.0, 64, 1980.0, 1000), OCC_ONCHIP_TRIPS_UNKNOWN);
    CHECK_INT_EQ(occ_onchip_trips(8192.0, 128.0, 64, NAN, 10), 10);
    CHECK_INT_EQ(occ_onchip_trips(1e12, 128.0, 64, 1980.0, 1000), 1); /* at least one */
}

static void test_checks(void)
{
    enum { THREADS = 64, ROWS = OCC_SMEM_CHASE_ROWS };
    const unsigned int trips[THREADS / 32] = {3, 5};
    unsigned int order[ROWS];
    for (unsigned int i = 0; i < ROWS; i++) order[i] = (i * 7u) % ROWS;
    /* chase: K = 2 chains per warp, block of 64 threads, spacing 4 */
    unsigned int ends[THREADS * 2];
    for (int i = 0; i < THREADS; i++)
        for (int k = 0; k < 2; k++)
            ends[i * 2 + k] = occ_smem_chase_end(order, ROWS, 1, 4, 2, (unsigned int)i, k,
                                                 trips[i / 32]);
    CHECK_INT_EQ(occ_smem_chase_mismatches(ends, order, ROWS, 1, 4, 2, THREADS, 64, trips), 0);
    /* warp 1's chain 0 (c = 1 x 2 + 0) advanced 5 x 32 hops from position c x 4 = 8 */
    CHECK_INT_EQ(ends[32 * 2], order[(8 + 5 * 32) % ROWS] * 32u);
    ends[77] ^= 1u;
    CHECK_INT_EQ(occ_smem_chase_mismatches(ends, order, ROWS, 1, 4, 2, THREADS, 64, trips), 1);
    /* the closed order (NULL): position x step mod rows */
    CHECK_INT_EQ(occ_smem_chase_row(NULL, ROWS, 5, 7), 3u);
    /* stream, read and rw: a trip reads each of the 8 slots 4 times; rw adds slot 0 once */
    unsigned int sums[THREADS];
    for (int rw = 0; rw <= 1; rw++) {
        for (int i = 0; i < THREADS; i++)
            sums[i] = occ_smem_stream_checksum(9u, rw, 16, (unsigned int)(i % 32), trips[i / 32]);
        CHECK_INT_EQ(occ_smem_stream_mismatches(sums, 9u, rw, 16, THREADS, trips), 0);
        sums[3]++;
        CHECK_INT_EQ(occ_smem_stream_mismatches(sums, 9u, rw, 16, THREADS, trips), 1);
    }
    CHECK_INT_EQ(occ_smem_stream_checksum(9u, 1, 4, 0, 0), 0u); /* no trip: no read-back */
    CHECK_INT_EQ(occ_smem_stream_checksum(9u, 0, 4, 0, 1) * 2u,
                 occ_smem_stream_checksum(9u, 0, 4, 0, 2));
    /* mma: U = 2 fp32 accumulators of 4 elements; f16's depth 16 */
    float acc[THREADS * 2 * 4];
    for (int i = 0; i < THREADS; i++)
        for (int u = 0; u < 2; u++)
            for (int e = 0; e < 4; e++)
                acc[(i * 2 + u) * 4 + e] =
                    (float)occ_mma_expected((unsigned int)i, u, 2, 16, 1.0, 1.0, trips[i / 32]);
    CHECK_INT_EQ(occ_mma_mismatches(acc, 0, 2, 16, 1.0, 1.0, THREADS, trips), 0);
    CHECK_NEAR(occ_mma_expected(0, 0, 2, 16, 1.0, 1.0, 3) - occ_fma_start(0, 0), 3.0 * 32 * 16,
               0);
    acc[100] += 1.0f;
    CHECK_INT_EQ(occ_mma_mismatches(acc, 0, 2, 16, 1.0, 1.0, THREADS, trips), 1);
    /* the exactness bound: T x 64 / U x K + 64 < 2^24 */
    CHECK_INT_EQ(occ_mma_max_trips(1, 16), ((1u << 24) - 64u) / (64u * 16u));
}

/* A smem chase row on an H200 (132 SMs, 1980 MHz, blocks of 128) of a chain with latency L
 * cycles per hop at most r warp hops per SM per clock: rate = min(W x U / L, r) operations per
 * SM per clock, 128 B each. */
static OccRow chase_row(const char *variant, int U, int blocks, double L, double r)
{
    const double w = blocks * 4.0, ops = fmin(w * U / L, r);
    OccRow row = {.kernel = "smem", .mode = "chase", .variant = variant, .cc = "9.0",
                  .unroll = U, .vec_bytes = 4, .block_threads = 128, .blocks_per_sm = blocks,
                  .occ_achieved_pct = 100.0 * w / 64.0, .sm_count = 132,
                  .sm_clock_mhz_median = 1980.0,
                  .gbps_median = ops * 128.0 * 132 * 1980e6 / 1e9, .gflops_median = NAN,
                  .pct_of_flop_peak = NAN, .status = "ok"};
    occ_row_resolve(&row);
    return row;
}

static void test_chain_model(void)
{
    OccRow rows[64];
    int n = 0;
    const char *names[] = {"smem_chase_k1", "smem_chase_k2", "smem_chase_k8"};
    const int U[] = {1, 2, 8};
    for (int v = 0; v < 3; v++)
        for (int b = 1; b <= 16; b++) rows[n++] = chase_row(names[v], U[v], b, 24.0, 1.0);
    rows[n] = rows[0];
    rows[n++].status = "fail:checksums"; /* not counted */
    int flop;
    CHECK_NEAR(occ_chain_work_per_op(&rows[0], &flop), 128.0, 0);
    CHECK_INT_EQ(flop, 0);
    /* one block: 4 warps of one chain at 24 cycles a hop */
    CHECK_NEAR(occ_chain_cycles_per_step(&rows[0]), 24.0, 1e-9);
    OccChainKnee k[8];
    CHECK_INT_EQ(occ_chain_knees(rows, n, k, 8), 3);
    /* K = 1: W* = 24 x 1 / 1 = 24 warps per SM, 6 per sub-partition; 90% at 21.6 warps: 6
     * blocks, 37.5%, measured and predicted; L from the rows below 70% (4 blocks and fewer). */
    CHECK_NEAR(k[0].latency_cycles, 24.0, 1e-9);
    CHECK_NEAR(k[0].latency_ns, 24.0 / 1.98, 1e-9);
    CHECK_NEAR(k[0].issue_per_sm_clk, 1.0, 1e-9);
    CHECK_NEAR(k[0].warps_per_subpartition, 6.0, 1e-9);
    CHECK_NEAR(k[0].knee_measured_pct, 37.5, 1e-9);
    CHECK_NEAR(k[0].knee_predicted_pct, 37.5, 1e-9);
    CHECK_INT_EQ(k[0].knee_levels_apart, 0);
    CHECK_NEAR(k[0].best_pct_of_peak, 100.0, 1e-9);
    /* K = 2: 12 warps, 3 per sub-partition, knee at 10.8 warps: 3 blocks */
    CHECK_NEAR(k[1].warps_per_subpartition, 3.0, 1e-9);
    CHECK_NEAR(k[1].knee_measured_pct, 18.75, 1e-9);
    CHECK_NEAR(k[1].knee_predicted_pct, 18.75, 1e-9);
    /* K = 8: no row of its own below the plateau, L comes from the pool (K = 1, 2) */
    CHECK_NEAR(k[2].latency_cycles, 24.0, 1e-9);
    CHECK_NEAR(k[2].knee_measured_pct, 6.25, 1e-9);
    /* a slower chain (L = 48): 90% at 43.2 warps, 11 blocks, measured and predicted */
    for (int i = 0; i < 16; i++) rows[i] = chase_row("smem_chase_k1", 1, i + 1, 48.0, 1.0);
    CHECK_INT_EQ(occ_chain_knees(rows, 16, k, 8), 1);
    CHECK_NEAR(k[0].latency_cycles, 48.0, 1e-9);
    CHECK_NEAR(k[0].knee_measured_pct, 68.75, 1e-9);
    CHECK_NEAR(k[0].knee_predicted_pct, 68.75, 1e-9);
    /* a curve that bends late (6 and 7 blocks at 85% of the plateau, not the model's 100%):
     * measured knee 8 blocks (50%), predicted 37.5%: 43.75 and 50 lie between, 2 levels */
    for (int i = 0; i < 16; i++) rows[i] = chase_row("smem_chase_k1", 1, i + 1, 24.0, 1.0);
    rows[5].gbps_median *= 0.85;
    rows[6].gbps_median *= 0.85;
    CHECK_INT_EQ(occ_chain_knees(rows, 16, k, 8), 1);
    CHECK_NEAR(k[0].knee_measured_pct, 50.0, 1e-9);
    CHECK_NEAR(k[0].knee_predicted_pct, 37.5, 1e-9);
    CHECK_INT_EQ(k[0].knee_levels_apart, 2);
    /* an mma row: f16's 4096 FLOP an mma, f64's 512; a smem stream row: a load of 32 x V
     * bytes, twice for rw; a row of no chain family: none */
    OccRow m = rows[0];
    m.kernel = "mma";
    m.mode = "f16";
    m.variant = "mma_f16_u2";
    occ_row_resolve(&m);
    CHECK_NEAR(occ_chain_work_per_op(&m, &flop), 4096.0, 0);
    CHECK_INT_EQ(flop, 1);
    m.variant = "mma_f64_u2";
    occ_row_resolve(&m);
    CHECK_NEAR(occ_chain_work_per_op(&m, &flop), 512.0, 0);
    m.variant = "smem_read_u2_v16";
    occ_row_resolve(&m);
    CHECK_NEAR(occ_chain_work_per_op(&m, &flop), 512.0, 0);
    CHECK_INT_EQ(flop, 0);
    m.variant = "smem_rw_u2_v8";
    occ_row_resolve(&m);
    CHECK_NEAR(occ_chain_work_per_op(&m, &flop), 512.0, 0);
    m.kernel = "reduce";
    m.variant = "reduce_u1_v4";
    occ_row_resolve(&m);
    CHECK_NEAR(occ_chain_work_per_op(&m, &flop), 0.0, 0);
    CHECK(isnan(occ_chain_cycles_per_step(&m)));
    CHECK_INT_EQ(occ_chain_knees(&m, 1, k, 8), 0);
}

/* The clock a peak is taken at: a reading above the device's peak clock (the watch after a
 * tensor-core load: 2099 MHz on an H100 of 1980) is taken at the peak and said so; one at or below
 * it, or with the peak unknown (0), stands. */
static void test_clock_within_peak(void)
{
    int capped = -1;
    CHECK_NEAR(occ_arch_clock_within_peak(2099.0, 1980.0, &capped), 1980.0, 0.0);
    CHECK_INT_EQ(capped, 1);
    CHECK_NEAR(occ_arch_clock_within_peak(1830.0, 1980.0, &capped), 1830.0, 0.0);
    CHECK_INT_EQ(capped, 0);
    CHECK_NEAR(occ_arch_clock_within_peak(1980.0, 1980.0, &capped), 1980.0, 0.0);
    CHECK_INT_EQ(capped, 0);
    CHECK_NEAR(occ_arch_clock_within_peak(2099.0, 0.0, &capped), 2099.0, 0.0);
    CHECK_INT_EQ(capped, 0);
    CHECK_NEAR(occ_arch_clock_within_peak(2099.0, 1980.0, NULL), 1980.0, 0.0);
}

int main(void)
{
    test_peaks();
    test_clock_within_peak();
    test_trips();
    test_checks();
    test_chain_model();
    return check_done();
}
