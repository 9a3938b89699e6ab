/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_fleet.c: the fleet summary (harness/report/fleet.h) on synthetic runs: plateaus,
 * knees, each GPU against its model's median, the noise bound that makes an outlier, the printed
 * lines, the load levels (the model's inputs) left out of the comparison. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "fleet.h"

enum { MAX_ROWS = 12, MAX_GPUS = 6 };

static OccRow rows[MAX_GPUS][MAX_ROWS];
static OccFleetMember members[MAX_GPUS];

/* GPU g of model `name`: variant v at 25/50/100% with plateau `plateau` (reached at 50%, 80% of
 * it at 25%: knee 50%) and noise_pct `noise` on every row, plus a latency row without GB/s and a
 * skip row, which take no part. */
static void gpu(int g, const char *label, const char *name, double plateau, double noise)
{
    static const double occ[] = {25, 50, 100}, frac[] = {0.8, 1.0, 0.99};
    OccRow *r = rows[g];
    for (int i = 0; i < 5; i++) {
        occ_row_init(&r[i]);
        r[i].gpu_name = name;
        r[i].variant = i < 3 ? "reduce_u4_v16" : "chase_latency";
        r[i].status = i == 4 ? "skip:no" : "ok";
        r[i].occ_achieved_pct = i < 3 ? occ[i] : 50;
        r[i].gbps_median = i < 3 ? plateau * frac[i] : (i == 4 ? 1e9 : NAN);
        r[i].noise_pct = noise;
    }
    members[g] = (OccFleetMember){.label = label, .gpu_name = name, .rows = r, .n_rows = 5};
}

/* Adds n load levels (chase/loaded rows, ok, with GB/s far above the sweep's) to GPU g, as a run
 * of the sweep writes them beside it: the model's inputs, not a variant to compare. */
static void levels(int g, int n)
{
    static const char *const name[] = {"loaded_read_w00_u1", "loaded_read_w08_u4",
                                       "loaded_copy_w31_u4", "loaded_gather_w31_u4"};
    for (int i = 0; i < n && i < 4; i++) {
        OccRow *r = &rows[g][members[g].n_rows++];
        occ_row_init(r);
        r->gpu_name = members[g].gpu_name;
        r->kernel = "chase";
        r->mode = "loaded";
        r->variant = name[i];
        occ_row_resolve(r);
        r->status = "ok";
        r->occ_achieved_pct = 10.0 * (i + 1);
        r->gbps_median = 9000 - 1000 * g + 100 * i;
        r->noise_pct = 0.5;
    }
}

/* What occ_fleet_print writes for members[0..n) into text[0..len); returns its result. */
static int print_to(char *text, size_t len, int n)
{
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f) return -2;
    const int rc = occ_fleet_print(f, members, n);
    rewind(f);
    text[fread(text, 1, len - 1, f)] = '\0';
    fclose(f);
    return rc;
}

/* The load levels beside the sweep: no entry, no table line, one "model inputs:" line. */
static void check_levels_left_out(void)
{
    OccFleetEntry e[32];
    char text[4096] = "";
    /* One GPU's run (the sweep and its 4 levels): only the sweep's variant. */
    gpu(0, "gpu0", "H200", 4000, 0.5);
    levels(0, 4);
    CHECK_INT_EQ(occ_fleet_compute(members, 1, e, 32), 1);
    CHECK_STR_EQ(e[0].variant, "reduce_u4_v16");
    CHECK_NEAR(e[0].plateau_gbps, 4000, 0);
    CHECK_INT_EQ(print_to(text, sizeof text, 1), 0);
    CHECK(strstr(text, "loaded_") == NULL);
    CHECK_CONTAINS(text, "\nreduce_u4_v16  gpu0        4000.0     0.50       50.00              -\n");
    CHECK_CONTAINS(text, "\nmodel inputs: 4 load levels per run (kernel chase, mode loaded), in "
                         "the runs' CSVs, not compared here\n");
    /* Three GPUs, one with fewer levels (a worker stopped early): a range; no level outlier. */
    gpu(1, "gpu1", "H200", 3800, 0.5);
    gpu(2, "gpu2", "H200", 4010, 0.5);
    levels(1, 4);
    levels(2, 2);
    const int n = occ_fleet_compute(members, 3, e, 32);
    CHECK_INT_EQ(n, 3);
    for (int i = 0; i < n; i++)
        CHECK_STR_EQ(e[i].variant, "reduce_u4_v16");
    CHECK_INT_EQ(print_to(text, sizeof text, 3), 1);
    CHECK(strstr(text, "loaded_") == NULL);
    CHECK_CONTAINS(text, "\nmodel inputs: 2..4 load levels per run (kernel chase, mode loaded)");
    CHECK_CONTAINS(text, "fleet: 3 run(s) on 3 GPU(s), 1 outlier(s)");
    /* A worker stopped in the levels (planned first): its GPU has no entry, not a 0 GB/s one. */
    members[2].n_rows = 0;
    levels(2, 1);
    CHECK_INT_EQ(occ_fleet_compute(members, 3, e, 32), 2);
    CHECK_INT_EQ(e[0].member * 10 + e[1].member, 1);
    CHECK_INT_EQ(print_to(text, sizeof text, 3), 2);
    CHECK(strstr(text, "gpu2") == NULL);
    CHECK_CONTAINS(text, "\nmodel inputs: 1..4 load levels per run");
    /* Without levels, no such line. */
    gpu(0, "gpu0", "H200", 4000, 0.5);
    gpu(1, "gpu1", "H200", 3800, 0.5);
    CHECK_INT_EQ(print_to(text, sizeof text, 2), 2);
    CHECK(strstr(text, "model inputs") == NULL);
}

/* Two runs of one GPU (equal devices, labels told apart) count as one GPU; a knee at a run's
 * lowest level is marked and explained; knees keep two decimals (81.25, not 81.2). */
static void check_same_gpu_and_lowest_knee(void)
{
    char text[4096] = "";
    gpu(0, "node1 gpu0 a.csv", "H200", 4000, 0.5);
    gpu(1, "node1 gpu0 b.csv", "H200", 4000, 0.5);
    members[0].device = members[1].device = "node1 gpu0";
    for (int i = 0; i < 3; i++)
        rows[0][i].gbps_median = 4000; /* a.csv is flat: knee at its lowest level, 25% */
    OccFleetEntry e[8];
    CHECK_INT_EQ(occ_fleet_compute(members, 2, e, 8), 2);
    CHECK_INT_EQ(e[0].knee_at_lowest * 10 + e[1].knee_at_lowest, 10);
    CHECK_INT_EQ(print_to(text, sizeof text, 2), 0);
    CHECK_CONTAINS(text, "reduce_u4_v16  node1 gpu0 a.csv        4000.0     0.50     <=25.00");
    CHECK_CONTAINS(text, "reduce_u4_v16  node1 gpu0 b.csv        4000.0     0.50       50.00");
    CHECK_CONTAINS(text, "fleet: 2 run(s) on 1 GPU(s), 0 outlier(s)");
    CHECK_CONTAINS(text, "(<=: the knee is the lowest level measured; it may lie lower)");
    members[0].device = members[1].device = NULL;
    /* 81.25 printed whole. */
    gpu(0, "gpu0", "H200", 4000, 0.5);
    rows[0][0].occ_achieved_pct = 12.5;
    rows[0][1].occ_achieved_pct = 81.25;
    CHECK_INT_EQ(print_to(text, sizeof text, 1), 0);
    CHECK_CONTAINS(text, "       81.25");
}

int main(void)
{
    OccFleetEntry e[16];
    /* Three H200s: one 5% slow (beyond 3 x sqrt(0.5^2 + 0.5^2) = 2.12%), one 1% fast (within);
     * one lone H100 (no siblings). */
    gpu(0, "gpu0", "H200", 4000, 0.5);
    gpu(1, "gpu1", "H100", 3000, 0.5);
    gpu(2, "gpu2", "H200", 3800, 0.5);
    gpu(3, "gpu3", "H200", 4040, 0.5);
    const int n = occ_fleet_compute(members, 4, e, 16);
    CHECK_INT_EQ(n, 4); /* one variant with GB/s (the latency rows have none) on four GPUs */
    for (int i = 0; i < n; i++) {
        CHECK_STR_EQ(e[i].variant, "reduce_u4_v16");
        CHECK_INT_EQ(e[i].member, i);
        CHECK_NEAR(e[i].knee_occ_pct, 50, 0);
        CHECK_NEAR(e[i].noise_pct, 0.5, 0);
    }
    CHECK_NEAR(e[0].plateau_gbps, 4000, 0);
    CHECK_NEAR(e[0].vs_type_pct, 0, 1e-9); /* the median of 4000, 3800, 4040 */
    CHECK_NEAR(e[2].vs_type_pct, -5, 1e-9);
    CHECK_NEAR(e[3].vs_type_pct, 1, 1e-9);
    CHECK_NEAR(e[2].bound_pct, 3 * sqrt(0.5), 1e-9);
    CHECK_INT_EQ(e[0].outlier * 100 + e[2].outlier * 10 + e[3].outlier, 10);
    CHECK_INT_EQ(e[0].n_siblings, 2);
    CHECK_INT_EQ(e[1].n_siblings, 0);
    CHECK(isnan(e[1].vs_type_pct) && isnan(e[1].bound_pct) && !e[1].outlier);

    /* Quieter runs: the 1% GPU is now beyond 3 x sqrt(0.1^2 + 0.1^2) = 0.42%. */
    gpu(0, "gpu0", "H200", 4000, 0.1);
    gpu(2, "gpu2", "H200", 3800, 0.1);
    gpu(3, "gpu3", "H200", 4040, 0.1);
    CHECK_INT_EQ(occ_fleet_compute(members, 4, e, 16), 4);
    CHECK_INT_EQ(e[0].outlier * 100 + e[2].outlier * 10 + e[3].outlier, 11);

    /* Two GPUs of a model: the median is their mean, and a gap beyond the noise names both. */
    gpu(0, "gpu0", "H200", 4000, 0.1);
    gpu(1, "gpu1", "H200", 3900, 0.1);
    CHECK_INT_EQ(occ_fleet_compute(members, 2, e, 16), 2);
    CHECK_NEAR(e[0].vs_type_pct, 100.0 * (4000 / 3950.0 - 1), 1e-9);
    CHECK_INT_EQ(e[0].outlier + e[1].outlier, 2);

    /* Too little room is an error, not a silent cut. */
    CHECK_INT_EQ(occ_fleet_compute(members, 2, e, 1), -1);

    /* The printed lines: table, spread, the outlier named with its label. */
    gpu(0, "node1 gpu0", "H200", 4000, 0.5);
    gpu(1, "node1 gpu1", "H200", 3800, 0.5);
    gpu(2, "node2 gpu0", "H200", 4010, 0.5);
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (!f) return check_done();
    CHECK_INT_EQ(occ_fleet_print(f, members, 3), 1);
    char text[4096] = "";
    rewind(f);
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    CHECK_CONTAINS(text,
                   "variant        run         plateau GB/s  noise %  knee occ %  vs GPU type %\n");
    CHECK_CONTAINS(
        text,
        "reduce_u4_v16  node1 gpu1        3800.0     0.50       50.00          -5.00  outlier\n");
    CHECK_CONTAINS(text, "spread reduce_u4_v16 on H200: 5.25% over 3 runs (3800.0..4010.0 GB/s)\n");
    CHECK_CONTAINS(text, "outlier: reduce_u4_v16 on node1 gpu1 (H200): plateau 3800.0 GB/s, -5.00% "
                         "vs the median of the 3 runs on this GPU type");
    CHECK_CONTAINS(text, "fleet: 3 run(s) on 3 GPU(s), 1 outlier(s)");
    CHECK_CONTAINS(text, "vs GPU type = the plateau against the median of the runs on GPUs of the "
                         "same name (not a model prediction)");
    CHECK(strstr(text, "<=") == NULL); /* every knee above its run's lowest level */
    check_same_gpu_and_lowest_knee();
    check_levels_left_out();
    return check_done();
}
