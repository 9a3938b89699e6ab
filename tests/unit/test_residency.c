/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_residency.c: measured occupancy from synthetic probes with known answers. */
#include <stdlib.h>

#include "check.h"
#include "residency.h"

static void set(uint64_t *p, int b, int sm, uint64_t start, uint64_t end)
{
    p[3 * b] = (uint64_t)sm;
    p[3 * b + 1] = start;
    p[3 * b + 2] = end;
}

int main(void)
{
    OccResidency r;
    uint64_t p[3 * 64];
    /* 2 SMs x 4 blocks of 4 warps, all resident for the whole span: 16 of 64 warps = 25%. */
    for (int b = 0; b < 8; b++) set(p, b, b % 2, 1000, 2000);
    CHECK_INT_EQ(occ_residency_compute(p, 8, 4, 2, 64, &r), 0);
    CHECK_NEAR(r.occ_measured_pct, 25.0, 1e-9);
    CHECK_NEAR(r.spread_pct, 0.0, 1e-9);
    CHECK_NEAR(r.span_ns, 1000.0, 1e-9);
    CHECK_INT_EQ(r.sms_used, 2);
    /* Half the blocks of SM 1 run only the first half of the span: SM 0 25%, SM 1 18.75%. */
    set(p, 1, 1, 1000, 1500);
    set(p, 3, 1, 1000, 1500);
    CHECK_INT_EQ(occ_residency_compute(p, 8, 4, 2, 64, &r), 0);
    CHECK_NEAR(r.occ_measured_pct, (25.0 + 18.75) / 2, 1e-9);
    CHECK_NEAR(r.spread_pct, 6.25, 1e-9);
    /* An idle SM counts as 0 in the mean: 3 SMs, the third without blocks. */
    for (int b = 0; b < 8; b++) set(p, b, b % 2, 1000, 2000);
    CHECK_INT_EQ(occ_residency_compute(p, 8, 4, 3, 64, &r), 0);
    CHECK_NEAR(r.occ_measured_pct, 25.0 * 2 / 3, 1e-9);
    CHECK_NEAR(r.spread_pct, 25.0, 1e-9);
    CHECK_INT_EQ(r.sms_used, 2);
    /* Another process's time slice (1000 ns from t = 1990) inside the launch's last chunk
     * (docs/validation.md, 'A shared GPU'): the 4 blocks that ended at 1990 miss it, the 4
     * switched out across it count it as resident and end at 3000. The figure is
     * 25 x (4 x 990 + 4 x 2000) / (8 x 2000) = 18.6875, where the launch's own 1000 ns (the
     * slice taken out) give 25 x (4 x 990 + 4 x 1000) / (8 x 1000) = 24.875: 6.19 points low,
     * about (blocks finished 1/2) x (slice 1000 / span 2000) x 25 = 6.25. */
    for (int b = 0; b < 8; b++) set(p, b, b % 2, 1000, b < 4 ? 1990 : 3000);
    CHECK_INT_EQ(occ_residency_compute(p, 8, 4, 2, 64, &r), 0);
    CHECK_NEAR(r.occ_measured_pct, 18.6875, 1e-9);
    CHECK_NEAR(r.span_ns, 2000.0, 1e-9);
    /* The same slice inside the launch's body, every block alive across it: it counts for all,
     * and the figure stays the API's 25%. */
    for (int b = 0; b < 8; b++) set(p, b, b % 2, 1000, 3000);
    CHECK_INT_EQ(occ_residency_compute(p, 8, 4, 2, 64, &r), 0);
    CHECK_NEAR(r.occ_measured_pct, 25.0, 1e-9);
    /* Unusable probes. */
    set(p, 0, 7, 1000, 2000); /* SM id out of range */
    CHECK_INT_EQ(occ_residency_compute(p, 8, 4, 2, 64, &r), -1);
    set(p, 0, 0, 2000, 1000); /* end before start */
    CHECK_INT_EQ(occ_residency_compute(p, 8, 4, 2, 64, &r), -1);
    set(p, 0, 0, 1000, 1000);
    for (int b = 1; b < 8; b++) set(p, b, 0, 1000, 1000); /* zero span */
    CHECK_INT_EQ(occ_residency_compute(p, 8, 4, 2, 64, &r), -1);
    CHECK_INT_EQ(occ_residency_compute(p, 0, 4, 2, 64, &r), -1);
    return check_done();
}
