/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_stats.c: occ_stats_summarize on fixed vectors and the stopping rule's cases. */
#include <math.h>

#include "check.h"
#include "stats.h"

static void test_odd(void)
{
    const double x[] = {3.0, 1.0, 2.0};
    OccSampleStats s;
    occ_stats_summarize(x, 3, &s);
    CHECK_INT_EQ(s.n, 3);
    CHECK_NEAR(s.median, 2.0, 1e-12);
    CHECK_NEAR(s.min, 1.0, 0);
    CHECK_NEAR(s.max, 3.0, 0);
    CHECK_NEAR(s.mean, 2.0, 1e-12);
    CHECK_NEAR(s.stddev, 1.0, 1e-12);
    CHECK_NEAR(s.rel_stddev_pct, 50.0, 1e-10);
    /* the input keeps its order: the median sorts a copy */
    CHECK(x[0] == 3.0 && x[1] == 1.0 && x[2] == 2.0);
}

static void test_even(void)
{
    const double x[] = {4.0, 1.0, 3.0, 2.0};
    OccSampleStats s;
    occ_stats_summarize(x, 4, &s);
    CHECK_NEAR(s.median, 2.5, 1e-12);
    CHECK_NEAR(s.mean, 2.5, 1e-12);
    CHECK_NEAR(s.stddev, sqrt(5.0 / 3.0), 1e-12);
    CHECK_NEAR(s.rel_stddev_pct, 100.0 * sqrt(5.0 / 3.0) / 2.5, 1e-10);

    /* the textbook set: population stddev 2, sample stddev sqrt(32/7) */
    const double y[] = {2, 4, 4, 4, 5, 5, 7, 9};
    occ_stats_summarize(y, 8, &s);
    CHECK_INT_EQ(s.n, 8);
    CHECK_NEAR(s.median, 4.5, 1e-12);
    CHECK_NEAR(s.mean, 5.0, 1e-12);
    CHECK_NEAR(s.stddev, 2.138089935299395, 1e-12);
    CHECK_NEAR(s.min, 2.0, 0);
    CHECK_NEAR(s.max, 9.0, 0);
}

static void test_edges(void)
{
    OccSampleStats s;
    const double one[] = {5.0};
    occ_stats_summarize(one, 1, &s);
    CHECK_INT_EQ(s.n, 1);
    CHECK_NEAR(s.median, 5.0, 0);
    CHECK_NEAR(s.stddev, 0.0, 0);
    CHECK_NEAR(s.rel_stddev_pct, 0.0, 0);

    occ_stats_summarize(one, 0, &s);
    CHECK_INT_EQ(s.n, 0);
    CHECK(isnan(s.median) && isnan(s.mean) && isnan(s.rel_stddev_pct));

    const double zeros[] = {0.0, 0.0, 0.0};
    occ_stats_summarize(zeros, 3, &s);
    CHECK(isnan(s.rel_stddev_pct));

    /* a large offset: sum(x^2) - n mean^2 would lose the spread entirely */
    const double big[] = {1e9 + 1.0, 1e9 + 2.0, 1e9 + 3.0};
    occ_stats_summarize(big, 3, &s);
    CHECK_NEAR(s.stddev, 1.0, 1e-6);
    CHECK_NEAR(s.median, 1e9 + 2.0, 0);
}

static void test_should_stop(void)
{
    /* rel stddev of quiet[0..5) is 0.079 % */
    const double quiet[] = {1.000, 1.001, 0.999, 1.0005, 0.9995, 1.0};
    /* rel stddev of noisy is far above 0.5 % */
    const double noisy[] = {1.0, 1.5, 0.7, 1.3, 0.9, 1.2};
    OccSampleStats s;
    occ_stats_summarize(quiet, 5, &s);
    CHECK(s.rel_stddev_pct < 0.5);
    occ_stats_summarize(noisy, 5, &s);
    CHECK(s.rel_stddev_pct > 10.0);

    /* rule 1: nothing measured */
    CHECK_INT_EQ(occ_stats_should_stop(quiet, 0, 5, 100, 0.5, 99.0, 1.0), 0);
    /* rule 3: converged only once min_samples are in */
    CHECK_INT_EQ(occ_stats_should_stop(quiet, 5, 5, 100, 0.5, 0.1, 1.0), 1);
    CHECK_INT_EQ(occ_stats_should_stop(quiet, 4, 5, 100, 0.5, 0.1, 1.0), 0);
    CHECK_INT_EQ(occ_stats_should_stop(quiet, 5, 5, 100, 0.05, 0.1, 1.0), 0);
    /* noisy, within the time budget: keep going */
    CHECK_INT_EQ(occ_stats_should_stop(noisy, 6, 5, 100, 0.5, 0.5, 1.0), 0);
    /* rule 2: the sample cap wins over noise */
    CHECK_INT_EQ(occ_stats_should_stop(noisy, 6, 5, 6, 0.5, 0.5, 1.0), 1);
    /* rule 4: the time bound stops at 3 samples even below min_samples, not at 2 */
    CHECK_INT_EQ(occ_stats_should_stop(noisy, 3, 10, 100, 0.5, 1.0, 1.0), 1);
    CHECK_INT_EQ(occ_stats_should_stop(noisy, 2, 10, 100, 0.5, 5.0, 1.0), 0);
    /* ... and at min_samples when that is below 3 */
    CHECK_INT_EQ(occ_stats_should_stop(noisy, 2, 2, 100, 0.5, 1.5, 1.0), 1);
    /* one sample has no noise figure: min_samples 1 does not stop on rule 3 */
    CHECK_INT_EQ(occ_stats_should_stop(quiet, 1, 1, 100, 0.5, 0.0, 1.0), 0);
    CHECK_INT_EQ(occ_stats_should_stop(quiet, 1, 1, 100, 0.5, 1.0, 1.0), 1);
    /* a zero mean never converges; only the time bound ends it */
    const double zeros[] = {0.0, 0.0, 0.0, 0.0};
    CHECK_INT_EQ(occ_stats_should_stop(zeros, 4, 3, 100, 0.5, 0.1, 1.0), 0);
    CHECK_INT_EQ(occ_stats_should_stop(zeros, 4, 3, 100, 0.5, 1.1, 1.0), 1);
}

int main(void)
{
    test_odd();
    test_even();
    test_edges();
    test_should_stop();
    return check_done();
}
