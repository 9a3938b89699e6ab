/* SPDX-License-Identifier: Apache-2.0 */
/* harness/model/loaded_hist.c: load-level figures from the hop histogram (contract in loaded_hist.h). */
#include "loaded_hist.h"

#include <math.h>
#include <string.h>

double occ_hist_percentile_cycles(const unsigned int *bin, int n_bins, double bin_cycles,
                                  double q)
{
    if (bin == NULL || n_bins <= 0 || !(bin_cycles > 0) || !(q > 0 && q <= 100)) return NAN;
    double total = 0;
    for (int i = 0; i < n_bins; i++) total += bin[i];
    if (total == 0) return NAN;
    double seen = 0;
    for (int i = 0; i < n_bins; i++) {
        seen += bin[i];
        if (seen >= q / 100.0 * total) return (i + 0.5) * bin_cycles;
    }
    return (n_bins - 0.5) * bin_cycles;
}

double occ_hist_expected_max_cycles(const unsigned int *bin, int n_bins, double bin_cycles, int k)
{
    if (bin == NULL || n_bins <= 0 || !(bin_cycles > 0) || k < 1) return NAN;
    double total = 0;
    for (int i = 0; i < n_bins; i++) total += bin[i];
    if (total == 0) return NAN;
    double seen = 0, below = 0, sum = 0;
    for (int i = 0; i < n_bins; i++) {
        seen += bin[i];
        const double at = pow(seen / total, k);
        sum += (i + 0.5) * bin_cycles * (at - below);
        below = at;
    }
    return sum;
}

void occ_loaded_level_stats(OccLoadedLevel *lv, const unsigned int *bin, int n_bins,
                            double bin_cycles, double sum_hop_cycles, long long hops,
                            double clock_mhz)
{
    const double ns_per_cycle = clock_mhz > 0 ? 1000.0 / clock_mhz : NAN;
    lv->hops = hops;
    lv->clock_mhz = clock_mhz;
    lv->mean_cycles = hops > 0 ? sum_hop_cycles / (double)hops : NAN;
    lv->mean_ns = lv->mean_cycles * ns_per_cycle;
    lv->p5_ns = occ_hist_percentile_cycles(bin, n_bins, bin_cycles, 5) * ns_per_cycle;
    lv->p50_ns = occ_hist_percentile_cycles(bin, n_bins, bin_cycles, 50) * ns_per_cycle;
    lv->p95_ns = occ_hist_percentile_cycles(bin, n_bins, bin_cycles, 95) * ns_per_cycle;
    lv->p99_ns = occ_hist_percentile_cycles(bin, n_bins, bin_cycles, 99) * ns_per_cycle;
    const double hist_mean = occ_hist_expected_max_cycles(bin, n_bins, bin_cycles, 1);
    for (int j = 0; j < OCC_CURVE_WIDTHS; j++)
        lv->width_ns[j] =
            (lv->mean_cycles + occ_hist_expected_max_cycles(bin, n_bins, bin_cycles, 1 << j) -
             hist_mean) * ns_per_cycle;
}
