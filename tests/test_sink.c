/* SPDX-License-Identifier: Apache-2.0 */
/* tests/test_sink.c: the run's in-memory rows (bench/sink.c) past the first growth of their
 * array: every kept row's status still reads as it was written, so the summary and the knee
 * report that read them at the end of a run see every row (a run of more than 256 points once
 * lost rows there: the status pointers still pointed into the array before it grew). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "sink.h"

int main(void)
{
    char dir[] = "/tmp/occ_test_sink_XXXXXX", path[64], err[300];
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/rows.csv", dir);
    OccMeta meta = {0};
    OccSink s;
    CHECK_INT_EQ(occ_sink_open(&s, path, 0, &meta, NULL, 1, err, sizeof err), 0);
    enum { N = 1000 };
    for (int i = 0; i < N; i++) {
        OccRunRow r;
        occ_row_init(&r.row);
        r.row.kernel = "reduce";
        r.row.mode = "stream";
        r.row.variant = "reduce_u1_v4";
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
    rmdir(dir);
    return check_done();
}
