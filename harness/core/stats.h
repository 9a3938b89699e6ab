/* SPDX-License-Identifier: Apache-2.0 */
/* harness/stats.h: sample statistics of a timed point and the timing loop's stopping rule.
 *
 * Units follow the samples: the timing loop passes per-launch times in ms, so median, min, max,
 * mean and stddev are in ms; rel_stddev_pct is unitless (percent). */
#ifndef OCC_STATS_H
#define OCC_STATS_H

/* Summary of one point's samples. */
typedef struct OccSampleStats {
    int n;                 /* number of samples summarized */
    double median;         /* middle sample; mean of the two middle ones when n is even */
    double min;            /* smallest sample */
    double max;            /* largest sample */
    double mean;           /* arithmetic mean */
    double stddev;         /* sample standard deviation (divisor n - 1); 0 when n == 1 */
    double rel_stddev_pct; /* 100 x stddev / |mean|: the noise figure; NaN when mean == 0 */
} OccSampleStats;

/* Summarizes x[0..n) into *out without modifying x. With n < 1 (nothing measured) out->n is 0 and
 * every figure is NaN. The median is NaN if its scratch copy cannot be allocated. */
void occ_stats_summarize(const double *x, int n, OccSampleStats *out);

/* The stopping rule of the timing loop, asked after each new sample x[n-1]. Returns 1 = stop,
 * 0 = take another sample. In order:
 *   1. n < 1: continue (nothing to report yet).
 *   2. n >= max_samples: stop (hard cap on samples).
 *   3. converged: n >= min_samples, n >= 2 (one sample has no noise figure) and
 *      rel_stddev_pct of x[0..n) <= max_noise_pct: stop.
 *   4. time bound: elapsed_s >= max_time_s and n >= min(min_samples, 3): stop. The bound may cut
 *      the sample count below min_samples, but never below 3 unless min_samples itself is lower,
 *      so a slow point still reports a median of several samples. max_time_s <= 0 makes the
 *      bound apply at once.
 *   5. otherwise continue.
 * elapsed_s and max_time_s are seconds spent on this point's samples and the per-point budget;
 * max_noise_pct is in percent (occsweep's --max-noise, 0.5 by default). */
int occ_stats_should_stop(const double *x, int n, int min_samples, int max_samples,
                          double max_noise_pct, double elapsed_s, double max_time_s);

#endif
