/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_sink.c: the run's in-memory rows (bench/sink.c) past the first growth of their
 * array: every kept row's status still reads as it was written, so the summary and the knee
 * report that read them at the end of a run see every row (a run of more than 256 points once
 * lost rows there: the status pointers still pointed into the array before it grew); and the
 * model's loaded-latency curves, which the load-level rows it takes (kept from a resumed file or
 * new) fill before any later row is predicted. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "loaded_levels.h"
#include "sink.h"

/* A load-level row: traffic, delivered GB/s and one latency for every width. */
static OccRunRow level_row(const char *traffic, double gbps, double ns, const char *status)
{
    OccRunRow r;
    occ_row_init(&r.row);
    r.row.kernel = "chase";
    r.row.mode = "loaded";
    r.row.variant = "loaded_test";
    occ_row_resolve(&r.row);
    r.row.traffic = traffic;
    r.row.gbps_median = gbps;
    r.row.latency_mean_ns = r.row.latency_max2_ns = r.row.latency_max4_ns = ns;
    r.row.latency_max8_ns = r.row.latency_max16_ns = r.row.latency_max32_ns = ns;
    snprintf(r.status, sizeof r.status, "%s", status);
    r.row.status = r.status;
    return r;
}

/* A kept level row (a --resume) and a new one join the curves of their traffic, a fail row
 * neither; a stream row written after them is predicted from the curve: with 400 ns flat, 1000
 * bytes per SM on 100 SMs give 250 GB/s (the unloaded 100 ns would give 1000). */
static void test_curves(const char *dir)
{
    char path[96], err[300];
    snprintf(path, sizeof path, "%s/curves.csv", dir);
    OccMeta meta = {0};
    OccLatencyCurve curves[OCC_CURVE_TRAFFICS] = {{0}};
    OccLatencyCurve *read = &curves[OCC_CURVE_READ], *rw = &curves[OCC_CURVE_COPY];
    OccModel model = {.latency_ns = 100, .roof_gbps = 4000, .roof_read_gbps = 4000,
                      .sm_count = 100, .curve = read, .curve_rw = rw};
    OccSink s;
    CHECK_INT_EQ(occ_sink_open(&s, path, 0, &meta, &model, 1, err, sizeof err), 0);
    occ_sink_feed_curves(&s, curves);
    OccRunRow kept = level_row("read", 10, 400, "ok");
    occ_sink_keep(&s, &kept.row);
    CHECK_INT_EQ(occ_sink_publish(&s, path, err, sizeof err), 0);
    OccRunRow lv = level_row("copy", 20, 900, "ok");
    occ_sink_row(&s, 0, 3, &lv);
    lv = level_row("read", 30, 5000, "fail:probe 1 ended off its walk");
    occ_sink_row(&s, 1, 3, &lv);
    CHECK_INT_EQ(read->n, 1);
    CHECK_INT_EQ(rw->n, 1);
    OccRunRow r;
    occ_row_init(&r.row);
    r.row.kernel = "reduce";
    r.row.mode = "stream";
    r.row.variant = "reduce_u1_v4";
    occ_row_resolve(&r.row);
    r.row.bytes_in_flight_per_sm = 1000;
    r.row.dram_bytes_per_load_byte = 1;
    r.row.gbps_median = 200;
    snprintf(r.status, sizeof r.status, "ok");
    r.row.status = r.status;
    occ_sink_row(&s, 2, 3, &r);
    CHECK_INT_EQ(s.n_rows, 4);
    if (s.n_rows == 4) CHECK_NEAR(s.rows[3].row.gbps_predicted, 250, 1e-3); /* bisection */
    occ_sink_close(&s, NULL, 3, 3, 0);
    occ_sink_exit_status(&s, 3, 3, path);
    remove(path);
}

int main(void)
{
    char dir[] = "/tmp/occ_test_sink_XXXXXX", path[64], err[300];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/rows.csv", dir);
    OccMeta meta = {0};
    OccSink s;
    CHECK_INT_EQ(occ_sink_open(&s, path, 0, &meta, NULL, 1, err, sizeof err), 0);
    CHECK_INT_EQ(occ_sink_publish(&s, path, err, sizeof err), 0);
    enum { N = 1000 };
    for (int i = 0; i < N; i++) {
        OccRunRow r;
        occ_row_init(&r.row);
        r.row.kernel = "reduce";
        r.row.mode = "stream";
        r.row.variant = "reduce_u1_v4";
        occ_row_resolve(&r.row);
        snprintf(r.status, sizeof r.status, i % 3 ? "ok" : "skip:row %d", i);
        r.row.status = r.status;
        occ_sink_row(&s, i, N, &r);
    }
    CHECK_INT_EQ(s.n_rows, N);
    int wrong = 0;
    for (int i = 0; i < s.n_rows; i++) {
        char want[40];
        snprintf(want, sizeof want, i % 3 ? "ok" : "skip:row %d", i);
        wrong += s.rows[i].row.status != s.rows[i].status || strcmp(s.rows[i].row.status, want);
    }
    CHECK_INT_EQ(wrong, 0);
    occ_sink_close(&s, NULL, N, N, 0);
    occ_sink_exit_status(&s, N, N, path);
    remove(path);
    test_curves(dir);
    rmdir(dir);
    return check_done();
}
