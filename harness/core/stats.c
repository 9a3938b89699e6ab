/* SPDX-License-Identifier: Apache-2.0 */
/* harness/stats.c: sample statistics and the stopping rule (contract in stats.h). */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Two passes (mean, then squared deviations) rather than one sum of squares: run-to-run spreads
 * of 0.1% on values near 1 ms would cancel catastrophically in sum(x^2) - n mean^2. */
static void mean_stddev(const double *x, int n, double *mean, double *stddev)
{
    double sum = 0.0;
    for (int i = 0; i < n; i++) sum += x[i];
    *mean = sum / n;
    double ss = 0.0;
    for (int i = 0; i < n; i++) ss += (x[i] - *mean) * (x[i] - *mean);
    *stddev = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
}

static double rel_pct(double mean, double stddev)
{
    return mean != 0.0 ? 100.0 * stddev / fabs(mean) : NAN;
}

void occ_stats_summarize(const double *x, int n, OccSampleStats *out)
{
    if (n < 1) {
        *out = (OccSampleStats){0, NAN, NAN, NAN, NAN, NAN, NAN};
        return;
    }
    out->n = n;
    out->min = out->max = x[0];
    for (int i = 1; i < n; i++) {
        if (x[i] < out->min) out->min = x[i];
        if (x[i] > out->max) out->max = x[i];
    }
    mean_stddev(x, n, &out->mean, &out->stddev);
    out->rel_stddev_pct = rel_pct(out->mean, out->stddev);

    double *sorted = malloc((size_t)n * sizeof *sorted);
    if (sorted == NULL) {
        out->median = NAN;
        return;
    }
    memcpy(sorted, x, (size_t)n * sizeof *sorted);
    qsort(sorted, (size_t)n, sizeof *sorted, cmp_double);
    out->median = n % 2 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    free(sorted);
}

int occ_stats_should_stop(const double *x, int n, int min_samples, int max_samples,
                          double max_noise_pct, double elapsed_s, double max_time_s)
{
    if (n < 1) return 0;
    if (n >= max_samples) return 1;
    if (n >= min_samples && n >= 2) {
        double mean, stddev;
        mean_stddev(x, n, &mean, &stddev);
        /* A NaN noise figure (mean 0) never counts as converged; the time bound ends it. */
        if (rel_pct(mean, stddev) <= max_noise_pct) return 1;
    }
    int time_floor = min_samples < 3 ? min_samples : 3;
    return elapsed_s >= max_time_s && n >= time_floor;
}
